"""Sombrero: one scenario per ruling (S1-S5) and option, notation, sentences, positions and bots."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

import hatskit
from hatskit.bots import make_bot
from hatskit.core import Game
from hatskit.drawing import score_panel_html
from hatskit.games.sombrero import Jump, Step, load_position, parse_move
from hatskit.games.sombrero.positions import save_position
from hatskit.games.sombrero.render import board_html

QUICK = 2_000  # positions the strong bot may search: enough for legal moves, keeps the file fast


def board(
    white: tuple[str, ...] = (),
    black: tuple[str, ...] = (),
    white_hatless: tuple[str, ...] = (),
    black_hatless: tuple[str, ...] = (),
    **fields: Any,
) -> Game:
    """A game from a position given square by square (White to move with two actions unless told)."""
    position = {
        "game": "sombrero",
        "to_move": "white",
        "actions_left": 2,
        "white": {"hatted": list(white), "hatless": list(white_hatless)},
        "black": {"hatted": list(black), "hatless": list(black_hatless)},
    }
    return hatskit.load(position | fields)


def texts(events: list[hatskit.Event]) -> list[str]:
    return [event.text for event in events]


# ---------------------------------------------------------------- S1 setup


def test_setup_follows_s1_and_white_moves_first() -> None:
    game = hatskit.new_game("sombrero")
    position = game.position()
    assert position["white"] == {"hatted": ["e1", "f1", "g1", "h1", "a8", "b8", "c8", "d8"], "hatless": []}
    assert position["black"] == {"hatted": ["a1", "b1", "c1", "d1", "e8", "f8", "g8", "h8"], "hatless": []}
    assert (game.to_move, position["actions_left"]) == (0, 2)
    assert game.seat_names == ("White", "Black")


def test_sombrero_is_for_two_players() -> None:
    assert len(hatskit.new_game("sombrero", players=2).seat_names) == 2
    with pytest.raises(hatskit.RecordError, match="2 players"):
        hatskit.new_game("sombrero", players=3)


def test_board_picture_has_a_light_square_at_h1_and_hats_drawn_as_shapes() -> None:
    picture = board_html(board(white=("e1", "h1"), black=("a8", "b8"), black_hatless=("c3",)).state, ["e1"])
    cell = {name: picture.split(f'data-square="{name}"')[0].rsplit("<td", 1)[1] for name in ("h1", "a1", "e1")}
    assert "hk-sb-light" in cell["h1"] and "hk-sb-dark" in cell["a1"]
    assert "hk-sb-hl" in cell["e1"] and "hk-sb-hl" not in cell["h1"]
    hatless_cell = picture.split('data-square="c3"')[1].split("</td>")[0]
    hatted_cell = picture.split('data-square="a8"')[1].split("</td>")[0]
    assert "c3: Black, hatless" in hatless_cell and "<ellipse" not in hatless_cell
    assert "a8: Black, hatted" in hatted_cell and "<ellipse" in hatted_cell
    assert picture.count("data-square=") == 64


# ---------------------------------------------------------------- S2 actions and turns


def test_a_turn_is_two_actions_and_the_same_piece_may_act_twice() -> None:
    game = hatskit.new_game("sombrero")
    game.play("e1-e2")
    assert (game.to_move, game.position()["actions_left"]) == (0, 1)
    game.play("e2-e3")
    assert (game.to_move, game.position()["actions_left"]) == (1, 2)


def test_a_hat_jump_moves_the_hat_to_a_hatless_friend() -> None:
    game = board(white=("e1", "a8"), white_hatless=("f2",), black=("h8", "g8"))
    events = game.play("e1>f2")
    assert texts(events) == ["White passed the hat of e1 to f2 (e1>f2): e1 is now hatless"]
    assert game.position()["white"] == {"hatted": ["f2", "a8"], "hatless": ["e1"]}


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("d4-d5", "d4 has no hat: hatless pieces cannot move (S2)"),
        ("d4>e4", "d4 has no hat: hatless pieces cannot pass a hat on (S2)"),
        ("e1-e3", "e3 is two squares away from e1: a piece steps only to one of the 8 squares around it (S2)"),
        ("e1>e4", "e4 is three squares away from e1: a hat jumps only to one of the 8 squares around it (S2)"),
        ("e1-e2", "e2 is taken: a step goes to an empty square (S2)"),
        ("e1-f1", "f1 is taken: a step goes to an empty square (S2) (to pass a hat there, write e1>f1)"),
        ("c3-c4", "c3 is not your piece: it is Black's"),
        ("e5-e6", "there is no piece on e5"),
        ("e1>d1", "d1 is empty: a hat jumps onto a hatless piece of your own (S2)"),
        ("e1>e2", "e2 is not your piece: a hat jumps only onto your own hatless pieces (S2)"),
        ("e1-e1", "e1 must move: a piece steps only to one of the 8 squares around it (S2)"),
        ("a8>b8", "b8 already has a hat: a hat jumps only onto a hatless piece (S2)"),
    ],
)
def test_why_illegal_names_the_rule(move: str, reason: str) -> None:
    game = board(white=("e1", "a8", "b8"), white_hatless=("d4", "e4", "f1"), black=("c3", "e2", "h8"))
    before = game.position()
    assert game.why_illegal(move) == reason
    with pytest.raises(hatskit.IllegalMoveError) as raised:
        game.play(move)
    assert raised.value.reason == reason
    assert game.position() == before


def test_every_legal_move_passes_why_illegal_and_the_list_is_never_empty_while_playing() -> None:
    rng = random.Random(11)
    game = hatskit.new_game("sombrero")
    while not game.is_over and game.ply < 300:
        moves = game.legal_moves()
        assert moves and all(game.why_illegal(move) is None for move in moves)
        game.play(rng.choice(moves))


def test_a_side_boxed_in_by_the_opponent_has_an_empty_turn() -> None:
    game = board(white=("a1", "b1"), black=("d1", "h8", "h7"), black_hatless=("a2", "b2", "c2"), to_move="black")
    game.play("d1-c1")
    events = game.play("h8-g8")
    assert "White cannot act: an empty turn (1 in a row) (S2)" in texts(events)
    assert (game.to_move, game.position()["empty_turns"]) == (1, 1)
    game.play("c1-d1")
    assert game.position()["empty_turns"] == 0


def test_two_empty_turns_in_a_row_draw() -> None:
    game = board(
        white=("a1", "b1"),
        white_hatless=("f8", "f7", "g7", "h7"),
        black=("h8", "g8"),
        black_hatless=("a2", "b2", "c2", "c1"),
    )
    assert game.is_over and game.to_move is None
    assert game.outcome() == hatskit.Outcome((), "draw: two turns in a row passed without any action (S2)")
    assert game.position()["empty_turns"] == 2 and game.position()["to_move"] is None


def test_a_side_without_a_second_action_ends_its_turn_early() -> None:
    game = board(white=("a1", "b1"), black=("h8", "g8", "c1"), black_hatless=("a2", "b2", "c2"), actions_left=1)
    assert (game.to_move, game.position()["actions_left"], game.position()["empty_turns"]) == (1, 2, 0)


# ---------------------------------------------------------------- S3 captures


def test_a_step_flanking_a_piece_takes_its_hat_and_names_the_flankers() -> None:
    game = board(white=("e1", "b4", "a8"), black=("c3", "h8", "g8"))
    events = game.play("e1-d2")
    assert texts(events) == ["White stepped e1-d2", "c3 lost its hat: flanked by d2 and b4 (S3)"]
    assert events[1].rule == "S3"
    assert game.position()["black"]["hatless"] == ["c3"]
    assert game.view(1)["last_captures"] == ["c3"]


def test_a_run_starting_with_a_hatless_enemy_still_loses_its_hats() -> None:
    game = board(white=("a4", "e4", "a8"), black=("d4", "h8", "g8"), black_hatless=("c4",))
    events = game.play("a4-b4")
    assert texts(events) == ["White stepped a4-b4", "d4 lost its hat: flanked by b4 and e4 (S3)"]
    assert game.position()["black"] == {"hatted": ["g8", "h8"], "hatless": ["c4", "d4"]}


def test_a_run_of_two_with_a_hatless_piece_inside() -> None:
    game = board(white=("a4", "e4", "a8"), black=("c4", "h8", "g8"), black_hatless=("d4",))
    events = game.play("a4-b4")
    assert texts(events)[1:] == ["c4 lost its hat: flanked by b4 and e4 (S3)"]
    assert game.position()["black"] == {"hatted": ["g8", "h8"], "hatless": ["c4", "d4"]}


def test_hatless_pieces_do_not_close_a_run_and_a_gap_breaks_it() -> None:
    game = board(white=("a4", "a6"), white_hatless=("d4",), black=("c4", "c6", "h8"), black_hatless=("b1",))
    assert texts(game.play("a4-b4")) == ["White stepped a4-b4"]
    assert texts(game.play("a6-b6")) == ["White stepped a6-b6"]
    assert game.position()["black"]["hatted"] == ["c4", "c6", "h8"]


def test_one_step_can_flank_in_several_directions() -> None:
    game = board(white=("d1", "b5", "f5"), black=("c4", "e4", "h8", "g8"))
    events = game.play("d1-d2") + game.play("d2-d3")
    assert sorted(texts(events)[2:]) == [
        "c4 lost its hat: flanked by d3 and b5 (S3)",
        "e4 lost its hat: flanked by d3 and f5 (S3)",
    ]


def test_stepping_between_two_enemies_is_safe_as_only_the_mover_captures() -> None:
    game = board(white=("d2", "a8"), black=("c3", "e3", "h8"))
    assert texts(game.play("d2-d3")) == ["White stepped d2-d3"]
    game.play("a8-a7")
    game.play("h8-h7")
    game.play("h7-g7")
    assert game.position()["white"]["hatted"] == ["d3", "a7"]


def test_a_hat_jump_does_not_capture_unless_the_option_says_so() -> None:
    pieces = {"white": ("e1", "b4", "h1"), "white_hatless": ("d2",), "black": ("c3", "h8", "g8")}
    plain = board(**pieces)
    assert texts(plain.play("e1>d2")) == ["White passed the hat of e1 to d2 (e1>d2): e1 is now hatless"]
    with_option = board(**pieces, options={"jump_captures": True})
    events = with_option.play("e1>d2")
    assert texts(events)[1:] == ["c3 lost its hat: flanked by d2 and b4 (S3)"]
    assert hatskit.new_game("sombrero", jump_captures=True).record()["options"] == {"jump_captures": True}


def test_a_hat_jump_saves_a_threatened_hat() -> None:
    pieces = {"white": ("d4", "a1", "h1"), "white_hatless": ("e4",), "black": ("c2", "d5", "h8")}
    unsaved = board(**pieces)
    unsaved.play("a1-a2")
    unsaved.play("a2-a1")
    assert "d4 lost its hat: flanked by d3 and d5 (S3)" in texts(unsaved.play("c2-d3"))
    saved = board(**pieces)
    saved.play("d4>e4")
    saved.play("a1-a2")
    assert not [text for text in texts(saved.play("c2-d3")) if "lost its hat" in text]
    assert saved.position()["white"] == {"hatted": ["h1", "a2", "e4"], "hatless": ["d4"]}


# ---------------------------------------------------------------- S4 win


def test_a_side_left_with_one_hatted_piece_loses_at_once() -> None:
    game = board(white=("e1", "b4", "a8"), black=("c3", "h8"))
    events = game.play("e1-d2")
    assert texts(events)[-1] == "White wins: Black has only one hatted piece left (S4)"
    assert events[-1].rule == "S4"
    assert game.is_over and game.outcome() == hatskit.Outcome((0,), texts(events)[-1])
    assert game.legal_moves() == [] and game.why_illegal("a8-a7") == "the game is over"
    assert game.state.why_illegal(Step(56, 48)) == f"the game is over: {texts(events)[-1]}"
    assert game.score().final and game.score().totals == [3, 1]


def test_score_counts_hatted_pieces_with_their_squares() -> None:
    sheet = board(white=("e1", "b4"), white_hatless=("a1",), black=("c3", "h8", "g8")).score()
    assert sheet.totals == [2, 3] and not sheet.final
    assert [(line.seat, line.category) for line in sheet.lines] == [(0, "hats"), (1, "hats")]
    assert sheet.lines[0].explanation.startswith("hatted on e1, b4")


def test_a_score_line_names_the_squares_of_the_hatted_pieces_it_counts() -> None:
    sheet = board(white=("e1", "b4"), white_hatless=("a1",), black=("c3", "h8", "g8")).score()
    assert [(line.seat, line.shows) for line in sheet.lines] == [(0, ("e1", "b4")), (1, ("c3", "g8", "h8"))]
    panel = score_panel_html(sheet, None)  # the page points at them while the line is read (view.js)
    assert 'data-hk-shows="e1 b4" data-hk-seat="0"' in panel and 'data-hk-shows="c3 g8 h8" data-hk-seat="1"' in panel
    assert "a1" not in panel, "a hatless piece is not counted, so not pointed at"


# ---------------------------------------------------------------- S5 draw


def test_s5_counting_starts_when_both_sides_have_two_hats() -> None:
    game = board(white=("e1", "b4"), black=("c3", "h8", "g8"))
    events = game.play("e1-d2")
    assert texts(events)[-1] == "Both sides have two hatted pieces: after 20 more actions each it is a draw (S5)"
    assert game.position()["endgame_actions"] == [0, 0]
    game.play("d2-d1")
    game.play("h8-h7")
    assert game.position()["endgame_actions"] == [1, 1]


def test_s5_draw_after_twenty_more_actions_each() -> None:
    game = board(white=("a1", "a8"), black=("h1", "h8"), to_move="black", actions_left=1, endgame_actions=[20, 19])
    events = game.play("h8-g8")
    assert texts(events)[-1] == "draw: both sides made 20 actions with two hatted pieces each (S5)"
    assert game.outcome() == hatskit.Outcome((), texts(events)[-1])
    assert game.outcome().is_draw and game.to_move is None


def test_s5_counters_belong_to_a_two_against_two_ending() -> None:
    with pytest.raises(hatskit.RecordError, match="endgame_actions"):
        board(white=("a1", "a8", "b8"), black=("h1", "h8"), endgame_actions=[3, 3])


# ---------------------------------------------------------------- quiet games (S5, a hatskit decision)

FORTRESS = {"white": ("a1", "b1", "a2", "d5", "e5"), "black": ("h8", "g8", "h7")}


def test_a_quiet_game_warns_twenty_actions_before_its_draw() -> None:
    game = board(**FORTRESS, quiet_actions=59)
    events = texts(game.play("d5-d4"))
    assert events[-1] == "No hat taken in 60 actions: if the next 20 take none, the game is a draw (S5)"
    assert game.position()["quiet_actions"] == 60 and not game.is_over


def test_eighty_actions_without_a_hat_taken_draw_whatever_the_hats_left() -> None:
    game = board(**FORTRESS, quiet_actions=79)
    events = texts(game.play("d5-d4"))
    assert events[-1] == "draw: 80 actions in a row (20 turns a side) took no hat (S5)"
    assert game.outcome().is_draw and game.to_move is None


def test_taking_a_hat_starts_the_quiet_count_again() -> None:
    game = board(white=("b2", "d4", "h1"), black=("c3", "h8", "g8", "a8"), quiet_actions=70)
    assert texts(game.play("d4-d3")) and game.position()["quiet_actions"] == 71
    assert "c3 lost its hat" in texts(game.play("d3-d4"))[1]  # b2 and d4 flank c3 on the diagonal (S3)
    assert game.position()["quiet_actions"] == 0


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"quiet_actions": 81}, "'quiet_actions'"),
        ({"quiet_actions": -1}, "'quiet_actions'"),
        ({"quiet_actions": "many"}, "'quiet_actions'"),
        ({"quiet_actions": 80}, "the game is over"),
    ],
)
def test_a_quiet_count_the_rules_cannot_give_is_refused(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(hatskit.RecordError, match=re.escape(message)):
        board(**FORTRESS, **fields)


def test_a_hat_just_taken_leaves_no_quiet_count() -> None:
    with pytest.raises(hatskit.RecordError, match="'quiet_actions' must be 0: the last action took a hat"):
        board(
            white=("b2", "d4", "h1"),
            black=("h8", "g8", "a8"),
            black_hatless=("c3",),
            to_move="black",
            last_captures=["c3"],
            quiet_actions=5,
        )


# ---------------------------------------------------------------- notation


def test_notation_round_trips() -> None:
    assert parse_move("e1-e2") == Step(4, 12) and str(Step(4, 12)) == "e1-e2"
    assert parse_move(" E1 > F2 ") == Jump(4, 13) and str(Jump(4, 13)) == "e1>f2"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("e9-e2", "'e9-e2' is not a Sombrero move: 'e9' is not a square"),
        ("e1e2", "'e1e2' is not a Sombrero move: write e1-e2 (a step) or e1>f2 (a hat jump)"),
        ("", "'' is not a Sombrero move"),
        ("i1>h1", "'i1>h1' is not a Sombrero move: 'i1' is not a square"),
    ],
)
def test_bad_notation_is_quoted(text: str, message: str) -> None:
    with pytest.raises(hatskit.InvalidMoveError) as raised:
        parse_move(text)
    assert str(raised.value).startswith(message)
    assert hatskit.new_game("sombrero").why_illegal(text) == str(raised.value)


# ---------------------------------------------------------------- positions and records


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"white": {"hatted": ["e1", "e1"]}}, "'white.hatted': e1 already holds a piece"),
        ({"black": {"hatted": ["e1", "h8"]}}, "'black.hatted': e1 already holds a piece"),
        ({"white": {"hatted": ["e1", "z9"]}}, "'white.hatted': 'z9' is not a square"),
        ({"white": {"hatted": "e1"}}, "'white.hatted' must be a list"),
        ({"white": ["e1"]}, "'white' must be an object"),
        ({"to_move": "green"}, "'to_move' must be"),
        ({"actions_left": 3}, "'actions_left' must be a whole number from 1 to 2"),
        ({"empty_turns": "one"}, "'empty_turns'"),
        ({"options": {"jump_captures": "yes"}}, "'jump_captures'"),
        ({"options": {"flying": True}}, "unknown option 'flying'"),
        ({"last_captures": ["e1"]}, "'last_captures': e1 holds no hatless piece"),
        ({"white": {"hatted": [f"{f}{r}" for f in "abc" for r in "123"]}}, "a side has 8 pieces, not 9"),
        ({"white": {"hatted": ["e1"]}, "black": {"hatted": ["h8"]}}, "both sides have at most one hatted piece"),
    ],
)
def test_bad_positions_name_the_field(change: dict[str, Any], field: str) -> None:
    position = board(white=("e1", "a8"), black=("h8", "g8")).position() | change
    with pytest.raises(hatskit.RecordError) as raised:
        hatskit.load(position)
    assert field in str(raised.value)


WITH_HATLESS = {
    "white": {"hatted": ["e1", "a8"], "hatless": ["a1"]},
    "black": {"hatted": ["h8", "g8"], "hatless": ["b1"]},
}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"empty_turns": 1}, "'empty_turns' must be 0: Black can act, so its turn was not empty (S2)"),
        ({"empty_turns": 1, "actions_left": 1}, "'empty_turns' must be 0: an action was made since the empty turn"),
        ({"black": {"hatted": ["h8"], "hatless": ["g8"]}}, "must be null and 0: the game is over (White wins"),
        ({"black": {"hatted": ["h8"]}, "to_move": None}, "must be null and 0: the game is over"),
        ({"endgame_actions": [20, 20], "white": {"hatted": ["e1", "a8"]}}, "the game is over (draw"),
        ({**WITH_HATLESS, "last_captures": ["a1", "b1"]}, "one action takes hats of one side, each once (S3)"),
        ({**WITH_HATLESS, "last_captures": ["a1", "a1"]}, "one action takes hats of one side, each once (S3)"),
        ({**WITH_HATLESS, "last_captures": ["b1"]}, "the last action was Black's, so the hats it took were White's"),
        ({**WITH_HATLESS, "last_captures": ["a1"], "actions_left": 1}, "the last action was White's"),
    ],
)
def test_positions_whose_derived_fields_lie_are_refused(change: dict[str, Any], message: str) -> None:
    """Fields the rules derive (whose turn, the S2 and S5 counters, the last captures) must agree with them."""
    position = board(white=("e1", "a8"), black=("h8", "g8")).position() | change
    with pytest.raises(hatskit.RecordError) as raised:
        hatskit.load(position)
    assert message in str(raised.value)


def test_positions_whose_derived_fields_agree_load() -> None:
    over = board(white=("e1", "a8"), black=("h8",), black_hatless=("g8",), to_move=None, actions_left=0)
    assert over.is_over and over.outcome().winners == (0,)
    left_out = {"game": "sombrero", "white": {"hatted": ["e1", "a8"]}, "black": {"hatted": ["h8"]}}
    assert hatskit.load(left_out).is_over, "a finished game may leave to_move and actions_left out"
    captured = {"game": "sombrero", "to_move": "white", **WITH_HATLESS, "last_captures": ["a1"]}
    assert hatskit.load(captured).to_move == 0, "Black's last action took White's hat on a1"
    boxed = board(white=("a1", "b1"), black=("d1", "h8", "h7"), black_hatless=("a2", "b2", "c2"), to_move="black")
    boxed.play("d1-c1")
    boxed.play("h8-g8")
    assert hatskit.load(boxed.position()).position() == boxed.position(), "an empty turn reloads"


def test_positions_and_records_round_trip_through_a_random_game() -> None:
    rng = random.Random(5)
    game = hatskit.new_game("sombrero", jump_captures=True)
    while not game.is_over and game.ply < 400:
        game.play(rng.choice(game.legal_moves()))
        state = game.state
        assert load_position(json.loads(json.dumps(save_position(state)))) == state
    replayed = hatskit.load(json.dumps(game.record()))
    assert replayed.position() == game.position() and replayed.history == game.history
    assert json.loads(json.dumps(game.view(0))) == game.view(1) | {"seat": 0}


# ---------------------------------------------------------------- bots


@pytest.mark.parametrize("jump_captures", [False, True])
def test_bots_return_legal_moves_for_both_actions_of_a_turn(jump_captures: bool) -> None:
    game = hatskit.new_game("sombrero", jump_captures=jump_captures)
    for kind in ("random", "greedy", "strong"):
        bot = make_bot("sombrero", kind, seed=3)
        bot.nodes = QUICK
        for _ in range(4):
            move = bot.choose(game.seat_view(game.to_move))
            assert game.why_illegal(move) is None
            game.play(move)


def test_bots_play_the_second_action_they_planned() -> None:
    for kind in ("greedy", "strong"):
        game = board(white=("a1", "e5", "b8"), black=("c7", "d6", "h8", "h1"))
        bot = make_bot("sombrero", kind, seed=1)
        bot.nodes = QUICK
        first = bot.hint(game.seat_view(game.to_move))
        game.play(first.move)
        second = bot.hint(game.seat_view(game.to_move))
        assert second.detail == first.detail
        assert f"{first.move} then {second.move}" in first.detail
        assert game.why_illegal(second.move) is None


@pytest.mark.parametrize(
    ("pieces", "winning"),
    [
        ({"white": ("b1", "e5", "a8"), "black": ("c3", "h8"), "black_hatless": ("d4",)}, "b1-b2"),
        (
            {
                "white": ("e1", "b4"),
                "white_hatless": ("d2",),
                "black": ("c3", "h8"),
                "options": {"jump_captures": True},
            },
            "e1>d2",
        ),
    ],
)
def test_greedy_and_strong_take_a_winning_action(pieces: dict[str, Any], winning: str) -> None:
    for kind in ("greedy", "strong"):
        game = board(**pieces)
        bot = make_bot("sombrero", kind, seed=2)
        bot.nodes = QUICK
        game.play(bot.choose(game.seat_view(game.to_move)))
        assert [str(move) for move in game.history] == [winning]
        assert game.outcome() == hatskit.Outcome((0,), "White wins: Black has only one hatted piece left (S4)")


def test_strong_hint_explains_the_whole_turn() -> None:
    game = board(white=("a1", "e5", "b8"), black=("c7", "d6", "h8", "h1"))
    bot = make_bot("sombrero", "strong", seed=1)
    bot.nodes = QUICK
    hint = bot.hint(game.seat_view(game.to_move))
    assert hint.reason.startswith("this step" if isinstance(hint.move, Step) else "this hat jump")
    assert f"planned the turn {hint.move}" in hint.detail and "positions" in hint.detail


def status_line(game: Game) -> str:
    """The status line under a board picture, as a reader sees it (the tooltip left out)."""
    return re.search(r'<div class="hk-sb-status"[^>]*>([^<]*)</div>', board_html(game.state))[1]


def test_the_board_says_how_a_quiet_game_stands_long_before_its_draw() -> None:
    assert "no hat taken" not in status_line(board(**FORTRESS, quiet_actions=19))
    assert status_line(board(**FORTRESS, quiet_actions=40)).endswith("no hat taken in 40 actions: at 80 it is a draw")
    near = status_line(board(**FORTRESS, quiet_actions=65))
    assert near.endswith("no hat taken in 65 actions: at 80 it is a draw, 15 actions from now")


def test_the_board_says_the_two_hats_each_count_in_plain_words() -> None:
    line = status_line(board(white=("e1", "b4"), black=("c3", "h8"), endgame_actions=[3, 2]))
    assert line.endswith("two hats each: after 20 actions each it is a draw (White 3/20, Black 2/20)")


def test_a_draw_count_names_its_ruling_only_in_the_tooltip() -> None:
    picture = board_html(board(**FORTRESS, quiet_actions=40).state)
    assert "(S5)" not in status_line(board(**FORTRESS, quiet_actions=40))
    assert re.search(r'<div class="hk-sb-status" title="Ruling S5: [^"]*quiet-game draw', picture)
    assert '<div class="hk-sb-status">' in board_html(board(**FORTRESS).state), "no count, no tooltip"
