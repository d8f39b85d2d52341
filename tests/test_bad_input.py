"""Bad input of every kind gets a named error, fast, and changes nothing (issue 9, "Bad input").

Each test here failed before the engine was made sturdy: the call raised
AttributeError, TypeError, ValueError, KeyError or RecursionError, took seconds,
or quietly did something wrong. The games are taken from ``hatskit.GAMES``
where the check is the same for every game.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

import hatskit
from hatskit import HatskitError, IllegalMoveError, InvalidMoveError, RecordError, UsageError

GAME_IDS = list(hatskit.GAMES)


def first_move_of(game_id: str) -> Any:
    """A move object of ``game_id``: given to another game, it is a foreign object."""
    return hatskit.new_game(game_id, seed=1).legal_moves()[0]


def snapshot(game: hatskit.Game) -> tuple[Any, ...]:
    return json.dumps(game.record()), json.dumps(game.position()), game.ply


# ---------------------------------------------------------------- moves that are not moves


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_move_that_is_not_a_string_or_a_move_of_the_game_is_invalid(game_id: str) -> None:
    game = hatskit.new_game(game_id, seed=2)
    before = snapshot(game)
    foreign = [None, 5, 2.5, True, {"card": "♥5"}, ["♥5@2"], object()]
    foreign += [first_move_of(other) for other in GAME_IDS if other != game_id]
    for move in foreign:
        with pytest.raises(InvalidMoveError, match=f"is not a {game_id} move"):
            game.play(move)
        assert isinstance(game.why_illegal(move), str)
    assert snapshot(game) == before


@pytest.mark.parametrize(
    "text",
    ["♥5@²", "♥²@2", "♥5@٣", "♥5@" + "9" * 5000, "♥" + "5" * 5000 + "@2", "black ♥" + "1" * 4400, "discard ♥5²"],
    ids=[
        "superscript-position",
        "superscript-value",
        "arabic-digit",
        "long-position",
        "long-value",
        "long-black",
        "sup",
    ],
)
def test_hats_digits_int_refuses_or_cannot_hold_are_invalid_moves(text: str) -> None:
    game = hatskit.new_game("hats", seed=1)
    with pytest.raises(InvalidMoveError):
        game.play(text)
    with pytest.raises(InvalidMoveError):
        hatskit.games.hats.parse_move(text)


@pytest.mark.parametrize("text", ["²:0", "٣: fez", "²"], ids=["superscript-seat", "arabic-seat", "seat-alone"])
def test_hats_off_seat_digits_int_refuses_are_invalid_moves(text: str) -> None:
    """hypothesis found "²:0" raising ValueError: ``"²".isdigit()`` is true and ``int("²")`` refuses it."""
    game = hatskit.new_game("hats-off", players=3, best_of=3, seed=0)
    before = snapshot(game)
    with pytest.raises(InvalidMoveError):
        game.play(text)
    assert isinstance(game.why_illegal(text), str)
    assert snapshot(game) == before


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_very_long_move_is_refused_before_it_is_parsed(game_id: str) -> None:
    """The Sombrero parser took 6-7 s on 20,000 characters; the length is checked first."""
    game = hatskit.new_game(game_id, seed=1)
    for text in ("e1-" + "e" * 40_000, " " * 20_000 + "e1-e2", "a" * 40_000 + "-", "♥5@" + " " * 40_000 + "2"):
        with pytest.raises(InvalidMoveError, match="too long"):
            game.play(text)
        assert "too long" in game.why_illegal(text)
        assert len(game.why_illegal(text)) < 200, "the message quotes only the start of the text"


def test_sombrero_notation_is_read_without_backtracking_over_long_text() -> None:
    from hatskit.games.sombrero import parse_move

    for text in ("e1" + " " * 30_000 + "-x", "-" * 30_000 + " x", "a-" * 15_000 + " x", "e1- " + "x" * 30_000):
        with pytest.raises(InvalidMoveError):
            parse_move(text)


# ---------------------------------------------------------------- records and positions that are not records


@pytest.mark.parametrize(
    "source",
    [
        "[" * 1000,
        "[" * 100_000 + "]" * 100_000,
        '{"game": "hats", "players": ' + "[" * 5000 + "]" * 5000 + "}",
        '{"game": "hats", "seed": 1' + "0" * 5000 + ', "moves": []}',
        '{"game": []}',
        '{"game": {}}',
        '{"game": null}',
        "x" * 3_000_000,
    ],
    ids=["open-brackets", "deep-list", "deep-field", "5000-digit-seed", "list-game", "dict-game", "null-game", "huge"],
)
def test_malformed_text_is_a_record_error(source: str) -> None:
    with pytest.raises(RecordError):
        hatskit.load(source)


def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_deep_values_given_as_objects_are_record_errors(game_id: str) -> None:
    position = hatskit.new_game(game_id, seed=1).position()
    for name in list(position)[:6]:
        with pytest.raises(RecordError, match="nested"):
            hatskit.load(position | {name: nested(5000)})
    with pytest.raises(RecordError, match="nested"):
        hatskit.new_game(game_id, seed=1, **{name: nested(5000) for name in ("removed", "jump_captures")[:1]})
    with pytest.raises(RecordError):
        hatskit.load(position | {"game": game_id, "deck": ["x" * 100_000]})
    with pytest.raises(RecordError):
        hatskit.load(position | {"to_move": 10**5000})


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_record_nested_in_start_is_refused(game_id: str) -> None:
    record: dict[str, Any] = {"game": game_id, "start": hatskit.new_game(game_id, seed=1).position(), "moves": []}
    assert hatskit.load(record).position() == record["start"]
    for _ in range(400):
        record = {"game": game_id, "start": record, "moves": []}
    with pytest.raises(RecordError):
        hatskit.load(record)
    with pytest.raises(RecordError, match="start"):
        hatskit.load({"game": game_id, "start": {"game": game_id, "seed": 1, "moves": []}, "moves": []})


def test_a_record_whose_game_disagrees_with_its_start_is_refused() -> None:
    for game_id in GAME_IDS:
        for other in GAME_IDS:
            if other == game_id:
                continue
            start = hatskit.new_game(other, seed=1).position()
            with pytest.raises(RecordError, match="start"):
                hatskit.load({"game": game_id, "start": start, "moves": []})


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_record_with_a_start_and_a_seed_is_refused(game_id: str) -> None:
    start = hatskit.new_game(game_id, seed=1).position()
    with pytest.raises(RecordError, match="start"):
        hatskit.load({"game": game_id, "start": start, "seed": 4, "moves": []})


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("name", ["seed", "players", "game_id", "moves"])
def test_record_options_named_like_arguments_are_unknown_options(game_id: str, name: str) -> None:
    with pytest.raises(RecordError, match="unknown option"):
        hatskit.load({"game": game_id, "seed": 1, "options": {name: 2}, "moves": []})


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("options", [[], "x", 3, None], ids=["list", "str", "int", "null"])
def test_options_that_are_not_an_object_are_record_errors(game_id: str, options: Any) -> None:
    position = hatskit.new_game(game_id, seed=1).position()
    with pytest.raises(RecordError, match="options"):
        hatskit.load(position | {"options": options})
    with pytest.raises(RecordError, match="options"):
        hatskit.load({"game": game_id, "seed": 1, "options": options, "moves": []})


# ---------------------------------------------------------------- new_game's arguments


@pytest.mark.parametrize("game_id", [[], {}, None, 3, b"hats"], ids=["list", "dict", "none", "int", "bytes"])
def test_new_game_with_a_game_id_that_is_not_a_name(game_id: Any) -> None:
    with pytest.raises(RecordError, match="unknown game"):
        hatskit.new_game(game_id)


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("players", [2.0, "3", True, [2], 10**5000], ids=["float", "str", "bool", "list", "huge"])
def test_players_that_are_not_a_whole_number(game_id: str, players: Any) -> None:
    with pytest.raises(RecordError, match="players"):
        hatskit.new_game(game_id, players=players)
    with pytest.raises(RecordError, match="players"):
        hatskit.load({"game": game_id, "seed": 1, "players": players, "moves": []})


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize(
    "seed", ["abc", 1.5, math.nan, [1], {}, True, -1, 2**63, 10**5000], ids=lambda s: type(s).__name__
)
def test_seeds_a_record_cannot_hold_are_refused(game_id: str, seed: Any) -> None:
    with pytest.raises(RecordError, match="seed"):
        hatskit.new_game(game_id, seed=seed)


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("seed", [0, 1, 2**31, 2**63 - 1])
def test_every_accepted_seed_replays_from_the_record(game_id: str, seed: int) -> None:
    game = hatskit.new_game(game_id, seed=seed)
    for _ in range(5):
        game.play(game.legal_moves()[-1])
    again = hatskit.load(json.dumps(game.record()))
    assert again.position() == game.position() and again.record() == game.record()


# ---------------------------------------------------------------- seats and plies


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("seat", [-1, 99, "x", 1.0, True, [0]])
def test_a_seat_must_be_a_seat_of_the_game(game_id: str, seat: Any) -> None:
    game = hatskit.new_game(game_id, seed=1)
    with pytest.raises(UsageError, match="seat"):
        game.view(seat)
    with pytest.raises(UsageError, match="seat"):
        game.legal_moves(seat)
    with pytest.raises(UsageError, match="seat"):
        game.seat_view(seat)


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize(
    "ply",
    ["x", None, 1.0, True, -1, 3, 10**5000],
    ids=["str", "none", "float", "bool", "negative", "past-the-end", "huge"],
)
def test_state_at_needs_a_ply_of_the_game(game_id: str, ply: Any) -> None:
    game = hatskit.new_game(game_id, seed=1)
    game.play(game.legal_moves()[0])
    with pytest.raises(UsageError, match="ply"):
        game.state_at(ply)


def test_undo_with_nothing_to_undo_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="undo"):
        hatskit.new_game("hats", seed=1).undo()


# ---------------------------------------------------------------- records are copies


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_changing_a_returned_record_changes_nothing(game_id: str) -> None:
    started = hatskit.new_game(game_id, seed=1)
    loaded = hatskit.load(started.position())
    for game in (started, loaded):
        game.play(game.legal_moves()[0])
        before = snapshot(game)
        record = game.record()
        record["moves"].append("nonsense")
        record.get("options", {})["flying"] = True
        record.get("start", {})["to_move"] = "nobody"
        record.get("start", {}).get("options", {})["flying"] = True
        assert snapshot(game) == before
        assert hatskit.load(game.record()).position() == game.position()


# ---------------------------------------------------------------- Hats positions


def hats_position(players: int = 3, **changes: Any) -> dict[str, Any]:
    """Ana has made a black hat; Ben (seat 1) is to move."""
    game = hatskit.new_game("hats", players=players, seed=4)
    game.play("black " + str(game.legal_moves()[0].card))
    return game.position() | changes


def ben_played_first() -> dict[str, Any]:
    """Ana's black hat moved to Ben and a card of Ben's hand to Ana: counts [0, 1, 0], all cards in place."""
    position = hats_position()
    hands, blacks = position["hands"], position["black_hats"]
    blacks[1], blacks[0] = blacks[0], []
    hands[0].append(hands[1].pop())
    return position | {"played": [0, 1, 0]}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"to_move": 2}, "to_move"),
        ({"to_move": 0}, "to_move"),
        ({"to_move": True}, "to_move"),
        ({"to_move": 1.0}, "to_move"),
        ({"optional_used": "yes"}, "optional_used"),
        ({"optional_used": 1}, "optional_used"),
        ({"seed": "abc"}, "seed"),
        ({"seed": -5}, "seed"),
        ({"shuffles": -1}, "shuffles"),
        ({"shuffles": 1.5}, "shuffles"),
    ],
)
def test_hats_positions_whose_turn_fields_lie_are_record_errors(change: dict[str, Any], message: str) -> None:
    assert hatskit.load(hats_position()).to_move == 1
    with pytest.raises(RecordError, match=message):
        hatskit.load(hats_position(**change))


def test_hats_played_counts_must_follow_the_seat_order() -> None:
    for to_move in (0, 2, None):
        with pytest.raises(RecordError, match="seat order"):
            hatskit.load(ben_played_first() | {"to_move": to_move})


@pytest.mark.parametrize(
    "change",
    [
        {"pending_swap": {}},
        {"pending_swap": {}, "to_move": None},
        {"pending_swap": []},
        {"pending_swap": {"seat": 1}},
        {"pending_swap": {"seat": 1, "card": 5}},
        {"pending_swap": {"seat": True, "card": "♥1"}},
        {"pending_swap": {"seat": 0, "card": "♥1"}},
    ],
)
def test_hats_pending_swaps_that_cannot_be_are_record_errors(change: dict[str, Any]) -> None:
    assert hatskit.load(hats_position(players=4)).to_move == 1
    with pytest.raises(RecordError, match=r"pending_swap|to_move"):
        hatskit.load(hats_position(players=4, **change))


def test_hats_to_move_left_out_is_derived_from_the_played_counts() -> None:
    position = hats_position()
    del position["to_move"]
    assert hatskit.load(position).to_move == 1


def test_a_hats_game_loaded_mid_game_ends_with_every_player_on_eight_actions() -> None:
    game = hatskit.load(hats_position())
    while not game.is_over:
        game.play(game.legal_moves()[0])
    assert game.position()["played"] == [8, 8, 8]


def play_discard_and_black_hat(game: hatskit.Game) -> None:
    """One turn: discard the first hand card, then put the first card as a black hat."""
    hand = game.view(game.to_move)["hand"]
    game.play(f"discard {hand[0]}")
    game.play(f"black {game.view(game.to_move)['hand'][0]}")


@pytest.mark.parametrize("players", [2, 3])
def test_a_hats_position_carries_the_generator_through_a_reshuffle(players: int) -> None:
    """A game continued from its position reshuffles the discard pile exactly as the game itself does."""
    game = hatskit.new_game("hats", players=players, seed=9)
    play_discard_and_black_hat(game)
    copy = hatskit.load(json.dumps(game.position()))
    while game.position()["shuffles"] < 2:
        play_discard_and_black_hat(game)
        play_discard_and_black_hat(copy)
    assert copy.position() == game.position()
    replayed = hatskit.load(json.dumps(copy.record()))
    assert replayed.position() == copy.position()


def test_a_hats_position_without_a_deck_replays_after_a_reshuffle() -> None:
    start = hats_position()
    for name in ("deck", "discard", "seed", "shuffles"):
        del start[name]
    game = hatskit.load(start)
    while game.position()["shuffles"] < 3:
        play_discard_and_black_hat(game)
    assert hatskit.load(json.dumps(game.record())).position() == game.position()


def test_a_fresh_hats_deal_is_unchanged_by_the_generator_kept_in_positions() -> None:
    """Seed 7 deals what it always dealt, so saved notebooks and records stay valid."""
    position = hatskit.new_game("hats", players=3, seed=7).position()
    assert position["table"] == ["♣3", "♠4", "♦2", "★4", "★5", "✿5"]
    assert position["hands"][0][:3] == ["♠1", "♣6", "⎈3"]
    assert position["deck"] == ["♥3", "★6", "♣5", "⎈6", "⎈5", "♥5", "♠5", "♥4", "♠6"]
    assert (position["seed"], position["shuffles"]) == (7, 1)


# ---------------------------------------------------------------- the promise, on the API as a whole


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_refusal_is_a_hatskit_error_and_changes_nothing(game_id: str) -> None:
    game = hatskit.new_game(game_id, seed=3)
    game.play(game.legal_moves()[0])
    before = snapshot(game)
    calls = [
        lambda: game.play(None),
        lambda: game.play("x" * 10_000),
        lambda: game.state_at(None),
        lambda: game.view(-1),
        lambda: game.legal_moves("x"),
    ]
    for call in calls:
        with pytest.raises(HatskitError) as raised:
            call()
        assert isinstance(raised.value, ValueError)
        assert not isinstance(raised.value, IllegalMoveError)
    assert snapshot(game) == before


# ---------------------------------------------------------------- calls every game shares (issue 26)


class _Unprintable:
    def __str__(self) -> str:
        raise RuntimeError("no notation")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_move_object_whose_notation_fails_is_an_invalid_move(game_id: str) -> None:
    game = hatskit.new_game(game_id, seed=2)
    before = snapshot(game)
    with pytest.raises(InvalidMoveError, match=f"is not a {game_id} move"):
        game.play(_Unprintable())
    assert "is not a" in str(game.why_illegal(_Unprintable()))
    assert snapshot(game) == before


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_rules_see_the_move_read_back_from_its_notation(game_id: str) -> None:
    """A hand-built move equal to a legal one plays as the game's own object, never as the one given."""
    game = hatskit.new_game(game_id, seed=2)
    legal = game.legal_moves()[0]
    assert game.parse(legal) is not legal
    assert game.parse(legal) == legal


@pytest.mark.parametrize("ply", [-1, 99, "1", 1.0, True, None])
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_past_view_needs_a_ply_of_the_game(game_id: str, ply: Any) -> None:
    game = hatskit.new_game(game_id, seed=2)
    game.play(game.legal_moves()[0])
    with pytest.raises(UsageError, match="a ply of this game is a whole number from 0 to 1"):
        game.seat_view(0).view_at(ply)


@pytest.mark.parametrize(
    ("kind", "seed", "message"),
    [
        ("clever", 0, "no 'clever' bot for hats"),
        (["strong"], 0, r"no \['strong'\] bot"),
        (None, 0, "no None bot"),
        ("random", -1, "not -1"),
        ("random", 2.5, "not 2.5"),
        ("random", "7", "not '7'"),
        ("random", 2**64, "a bot's seed"),
    ],
)
def test_make_bot_refuses_unknown_kinds_and_seeds_with_a_usage_error(kind: Any, seed: Any, message: str) -> None:
    from hatskit.bots import make_bot

    with pytest.raises(UsageError, match=message):
        make_bot("hats", kind, seed)


@pytest.mark.parametrize("kind", ["random", "greedy", "strong"])
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_bot_asked_for_a_seat_that_cannot_move_says_so(game_id: str, kind: str) -> None:
    from hatskit.bots import make_bot

    game = hatskit.new_game(game_id, seed=2)
    while len(game.acting) == len(game.seat_names):  # Hats Off! opens with every seat choosing a head card
        game.play(game.legal_moves()[0])
    idle = next(seat for seat in range(len(game.seat_names)) if seat not in game.acting)
    bot = make_bot(game_id, kind, seed=1)
    for ask in (bot.choose, bot.hint):
        with pytest.raises(UsageError, match="has no move to make now"):
            ask(game.seat_view(idle))
