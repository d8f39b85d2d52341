"""Hats scenarios: every ruling H1-H11 and seed 001's two worked examples."""

from __future__ import annotations

from typing import Any

import pytest

import hatskit
from hatskit import IllegalMoveError, InvalidMoveError, RecordError
from hatskit.games.hats import Card, cookie_holder, parse_card, parse_move


def cards(*names: str) -> list[Card]:
    return [parse_card(n) for n in names]


def end_position(**changes: Any) -> dict[str, Any]:
    """A finished three-player game holding seed 001's scoring example at seat 0."""
    position = {
        "game": "hats",
        "players": 3,
        "to_move": None,
        "played": [8, 8, 8],
        "table": ["♣2", "♦4", "♥5", "♥4", "✿6", "♥6"],
        "hands": [["✿2"], ["♠6"], ["♦5"]],
        "collections": [
            ["♥2", "♠2", "♠3", "✿1", "✿3", "⎈5", "⎈6"],
            ["★2", "★3", "★4", "★5", "★6", "♠1", "♠4", "♠5"],
            ["♣1", "♣3", "♣4", "♣5", "♣6", "♦1", "♦2", "♦3"],
        ],
        "black_hats": [["★1"], [], []],
        "cookie": 0,
    }
    return position | changes


def points(game: hatskit.Game, seat: int, category: str) -> int:
    return sum(line.points for line in game.score().lines_of(seat) if line.category == category)


# ---------------------------------------------------------------- H1 set-up


def test_h1_two_players_leave_out_flower_and_helm_and_use_five_positions() -> None:
    game = hatskit.new_game("hats", players=2, seed=1)
    state = game.state
    every = state.table + state.deck + [c for hand in state.hands for c in hand]
    assert len(every) == 30 and not {c.kind for c in every} & {"✿", "⎈"}
    assert len(state.table) == 5 and [len(h) for h in state.hands] == [9, 9] and len(state.deck) == 7


def test_h1_removed_types_are_an_option() -> None:
    state = hatskit.new_game("hats", players=2, seed=1, removed=["★", "heart"]).state
    kinds = {c.kind for c in state.table + state.deck + state.hands[0] + state.hands[1]}
    assert kinds == {"♠", "♣", "♦", "✿", "⎈"}
    with pytest.raises(RecordError, match="two different types"):
        hatskit.new_game("hats", players=2, removed=["★"])


@pytest.mark.parametrize(("players", "deck"), [(3, 9), (4, 0)])
def test_h1_h5_three_and_four_players_use_every_card_and_six_positions(players: int, deck: int) -> None:
    state = hatskit.new_game("hats", players=players, seed=2).state
    assert len(state.table) == 6 and len(state.deck) == deck
    assert len(state.table) + deck + 9 * players == 42


def test_h1_player_count_is_checked() -> None:
    with pytest.raises(RecordError, match="2 to 4 players"):
        hatskit.new_game("hats", players=5)


# ---------------------------------------------------------------- H2 exchange


def start(**changes: Any) -> hatskit.Game:
    """Seat 0 to move with a chosen hand and table, three players, first turn."""
    position = {
        "game": "hats",
        "players": 3,
        "to_move": 0,
        "played": [0, 0, 0],
        "table": ["♣2", "♦4", "♥5", "♥4", "✿6", "♥6"],
        "hands": [
            ["♥1", "♠4", "♠5", "★6", "⎈2", "⎈3", "⎈4", "⎈5", "⎈6"],
            ["★1", "★2", "★3", "★4", "★5", "♠1", "♠2", "♠3", "♠6"],
            ["♣1", "♣3", "♣4", "♣5", "♣6", "♦1", "♦2", "♦3", "♦5"],
        ],
        "collections": [[], [], []],
        "black_hats": [[], [], []],
        "cookie": None,
    }
    return hatskit.load(position | changes)


def test_h2_same_type_takes_any_value_and_higher_takes_any_type() -> None:
    game = start()
    events = game.play("♥1@3")
    assert str(events[0]) == "Ana exchanged ♥1 for ♥5 at position 3 (same type ♥)" and events[0].rule == "H2"
    assert game.state.table[2] == Card("♥", 1) and game.state.collections[0] == cards("♥5")
    game.play("♠3@1")  # Ben: 3 beats ♣2
    assert game.state.collections[1] == cards("♣2")


def test_h2_equal_or_lower_value_of_another_type_is_refused_with_the_reason() -> None:
    game = start()
    reason = game.why_illegal("♠4@2")
    assert reason == "♠4 cannot take ♦4 at position 2: only a ♦ or a number higher than 4 can (H2)"
    with pytest.raises(IllegalMoveError) as caught:
        game.play("♠4@2")
    assert caught.value.reason == reason and game.ply == 0
    assert "only a ♦ or a number higher than 4 can" in game.why_illegal("⎈2@2")
    assert "does not exist" in game.why_illegal("⎈6@7")
    assert game.why_illegal("♣1@1") == "♣1 is not in Ana's hand"


# ---------------------------------------------------------------- H3 black hat


def test_h3_black_hat_is_hidden_from_others_and_scores_one() -> None:
    game = start()
    game.play("black ⎈6")
    assert game.state.black_hats[0] == cards("⎈6")
    assert "⎈6" not in str(game.view(1)) and "⎈6" not in str(game.events)
    assert game.view(0)["my_black_hats"] == ["⎈6"] and game.view(1)["black_hat_counts"][0] == 1
    assert points(game, 0, "black hats") == 1


# ---------------------------------------------------------------- H4 optional action


def undealt(*first: str) -> list[str]:
    """The cards a fresh ``start()`` leaves undealt, ``first`` at the end (the deck's top)."""
    dealt = {str(c) for c in start().state.deck}
    return sorted(dealt - set(first)) + list(first)


def test_h4_discard_once_before_the_main_action() -> None:
    game = start(deck=undealt("♥3"), discard=[])
    hand_size = len(game.state.hands[0])
    game.play("discard ⎈2")
    assert Card("♥", 3) in game.state.hands[0] and Card("⎈", 2) not in game.state.hands[0]
    assert len(game.state.hands[0]) == hand_size and game.state.discard == cards("⎈2")
    assert "already used the optional action" in game.why_illegal("discard ⎈3")
    game.play("black ⎈3")
    assert game.to_move == 1 and game.why_illegal("discard ★1") is None


def test_h4_an_empty_deck_is_refilled_from_the_discard_pile_first() -> None:
    game = start(deck=[], discard=undealt())
    events = game.play("discard ⎈2")
    assert "shuffled into a new deck" in str(events[0]) and events[0].rule == "H4"
    assert game.state.discard == cards("⎈2"), "the card just thrown away is not drawn back"
    assert len(game.state.deck) == 8 and len(game.state.hands[0]) == 9


def test_h4_deck_given_must_list_every_card() -> None:
    with pytest.raises(RecordError, match="every card must be listed"):
        start(deck=["♥2"], discard=[])


def test_h4_deck_and_discard_pile_always_hold_the_undealt_cards() -> None:
    game = hatskit.new_game("hats", players=3, seed=8)
    while not game.is_over:
        assert len(game.state.deck) + len(game.state.discard) == 9
        discards = [m for m in game.legal_moves() if str(m).startswith("discard")]
        game.play(discards[0] if discards else next(m for m in game.legal_moves() if str(m).startswith("black")))


# ---------------------------------------------------------------- H5 four players


def four_players() -> hatskit.Game:
    return hatskit.new_game("hats", players=4, seed=9)


def test_h5_swap_with_the_partner_who_chooses_the_card_back() -> None:
    game = four_players()
    given, back = game.state.hands[0][0], game.state.hands[2][0]
    assert "not a discard" in game.why_illegal(f"discard {given}")
    events = game.play(f"swap {given}")
    assert game.to_move == 2 and str(events[0]) == "Ana passed a card face down to Cleo"
    assert game.view(2)["swap_card"] == str(given) and "swap_card" not in game.view(1)
    assert all(str(m).startswith("back") for m in game.legal_moves())
    assert "must first give a card back" in game.why_illegal(f"{back}@1")
    game.play(f"back {back}")
    assert game.to_move == 0 and back in game.state.hands[0] and given in game.state.hands[2]
    assert "already used" in game.why_illegal(f"swap {game.state.hands[0][0]}")


def test_h5_swap_only_with_four_players_and_teams_are_summed() -> None:
    assert "four-player" in start().why_illegal("swap ⎈2")
    game = four_players()
    game.play(f"black {game.state.hands[0][0]}")
    sheet = game.score()
    assert sheet.teams == ((0, 2), (1, 3))
    assert sheet.team_totals == [sheet.totals[0] + sheet.totals[2], sheet.totals[1] + sheet.totals[3]]


# ---------------------------------------------------------------- H6 end


def test_h6_game_ends_after_eight_main_actions_each_and_reveals_favorites() -> None:
    game = hatskit.new_game("hats", players=2, seed=4)
    while not game.is_over:
        game.play(next(m for m in game.legal_moves() if str(m).startswith("black")))
    assert game.ply == 16 and game.state.played == [8, 8] and game.to_move is None
    assert [len(h) for h in game.state.hands] == [1, 1]
    assert game.view(1)["favorites"] == [str(game.state.hands[0][0]), str(game.state.hands[1][0])]
    assert "the game is over" in game.why_illegal(f"black {game.state.hands[0][0]}")
    assert str(game.events[-1][-1]).startswith("Favorite hats revealed")


# ---------------------------------------------------------------- H7-H9 scoring, seed 001


def test_h7_h8_seed_001_hat_collection_example_scores_14() -> None:
    game = hatskit.load(end_position())
    assert points(game, 0, "hat collection") + points(game, 0, "black hats") == 14
    lines = {line.explanation.split(":")[0]: line.points for line in game.score().lines_of(0)}
    assert lines["♥2"] == 3, "♥5 at position 3 stays face up; ♥4 and ♥6 turn face down (H7)"
    assert lines["✿1"] == lines["✿3"] == 5 and lines["♠2"] == lines["⎈6"] == 0
    shows = {line.explanation.split(":")[0]: line.shows for line in game.score().lines_of(0)}
    assert shows["♥2"] == ("♥2", "♥5"), "the collected card, and the table card whose position it scores"
    assert shows["⎈6"] == ("⎈6",), "no ⎈ face up on the table: only the card itself"


def test_h9_seed_001_favorite_example_follows_the_rule_not_the_printed_9() -> None:
    game = hatskit.load(end_position())
    assert points(game, 0, "favorite hat") == 1 + 3 - 2
    as_helm = end_position(hands=[["⎈2"], ["♠6"], ["♦5"]], black_hats=[["✿2"], [], []])
    assert points(hatskit.load(as_helm), 0, "favorite hat") == 6 + 5 - 2, "the printed 9 fits a ⎈2 favorite"


def test_h9_favorite_can_be_negative_and_ignores_black_hats() -> None:
    game = hatskit.load(end_position(hands=[["★1"], ["♠6"], ["♦5"]], black_hats=[["✿2"], [], []]))
    assert points(game, 0, "favorite hat") == -1


def test_mid_game_sheet_has_no_favorites() -> None:
    game = start()
    game.play("♥1@3")
    sheet = game.score()
    assert not sheet.final and not any(line.category == "favorite hat" for line in sheet.lines)


# ---------------------------------------------------------------- H10 cookie


def test_h10_most_types_with_black_hats_as_one_type() -> None:
    from hatskit.games.hats import distinct_types

    assert distinct_types(cards("♣1"), black_hats=2) == 2, "two black hats count as one type"
    holder, why = cookie_holder([cards("♣1"), cards("♥1", "♠1", "♦1")], [cards("★1", "★2"), []], None)
    assert (holder, why) == (1, "most different types (3)")
    holder, _ = cookie_holder([cards("♥1"), cards("♣2", "♦2")], [cards("★1"), []], None)
    assert holder == 0, "tie on 2 types: Ana's lowest face-up value 1 beats Ben's 2"


def test_h10_tie_break_goes_value_by_value_and_having_a_value_beats_running_out() -> None:
    holder, _ = cookie_holder([cards("♥1", "♠3"), cards("♣1", "♦2")], [[], []], None)
    assert holder == 1, "1 = 1, then 2 < 3"
    holder, _ = cookie_holder([cards("♥1", "♠2"), cards("♣1")], [[], cards("★6")], None)
    assert holder == 0, "1 = 1, then Ana still has a 2 and Ben has run out of face-up values"


def test_h10_complete_tie_keeps_the_holder_or_returns_the_cookie() -> None:
    tied = [cards("♥1", "♠2"), cards("♣1", "♦2")]
    assert cookie_holder(tied, [[], []], 1)[0] == 1
    assert cookie_holder(tied, [[], []], None) == (None, "Ana and Ben tie completely and none of them held it")


def test_h10_cookie_moves_during_play_with_an_event() -> None:
    game = start()
    events = game.play("♥1@3")
    assert game.state.cookie == 0 and any(e.rule == "H10" and "Ana takes the last cookie" in str(e) for e in events)
    assert game.view(2)["cookie"] == 0
    assert points(game, 0, "last cookie") == 5


# ---------------------------------------------------------------- H11 winner


def test_h11_most_points_wins() -> None:
    outcome = hatskit.load(end_position()).outcome()
    assert outcome.winners == (0,) and "Ana wins with" in outcome.reason


def tie_position(**changes: Any) -> dict[str, Any]:
    """Ana and Ben end on 9 points with 7 black hats each; Cleo on 5.

    Ana and Ben tie completely for the cookie (two types, collected values [1]),
    so H10 lets nobody hold it, or either of them.
    """
    return (
        end_position(
            table=["★1", "♠2", "♥3", "♣4", "♦5", "✿6"],
            hands=[["♣3"], ["⎈1"], ["⎈3"]],
            collections=[["♣1"], ["♥1"], []],
            black_hats=[
                ["★3", "★4", "★5", "★6", "♠1", "♠3", "♠4"],
                ["♠5", "♠6", "★2", "♥2", "♥4", "♥5", "♥6"],
                ["♦1", "♦2", "♦3", "♦4", "♦6", "✿1", "✿2", "✿3"],
            ],
            cookie=None,
        )
        | changes
    )


def test_h11_equal_points_black_hats_and_no_cookie_share_the_win() -> None:
    game = hatskit.load(tie_position())
    assert game.score().totals == [4 + 7 + 1 - 3, 3 + 7 - 1, 8 - 3]
    outcome = game.outcome()
    assert outcome.winners == (0, 1) and "share the win" in outcome.reason


def test_h11_the_cookie_breaks_a_tie_on_points_and_black_hats() -> None:
    ben_holds = tie_position(hands=[["♣3"], ["⎈6"], ["⎈3"]], cookie=1)
    game = hatskit.load(ben_holds)
    assert game.score().totals[:2] == [9, 3 + 7 - 6 + 5]
    assert game.outcome().winners == (1,) and "holds the cookie" in game.outcome().reason


def test_h11_black_hats_break_a_points_tie() -> None:
    from hatskit.games.hats.scoring import _outcome_from_keys

    outcome = _outcome_from_keys({(0,): (10, 2, 0), (1,): (10, 1, 1)}, ("Ana", "Ben"))
    assert outcome.winners == (0,) and "most black hats (2)" in outcome.reason
    teams = _outcome_from_keys({(0, 2): (20, 1, 1), (1, 3): (20, 1, 0)}, ("Ana", "Ben", "Cleo", "Dev"))
    assert teams.winners == (0, 2) and "team Ana and Cleo wins" in teams.reason and "cookie" in teams.reason


# ---------------------------------------------------------------- notation and positions


@pytest.mark.parametrize(
    ("text", "notation"),
    [("♥5@2", "♥5@2"), ("heart5@2", "♥5@2"), ("HEART 5 @ 2", "♥5@2"), ("black ♠1", "black ♠1"),
     ("discard star6", "discard ★6"), ("swap helm3", "swap ⎈3"), ("back flower2", "back ✿2")],
)  # fmt: skip
def test_notation_parses_symbols_and_names(text: str, notation: str) -> None:
    assert str(parse_move(text)) == notation


@pytest.mark.parametrize("text", ["♥7@2", "hat5@2", "♥5@", "♥5@x", "black", "throw ♥5", "♥@2"])
def test_bad_notation_quotes_the_input(text: str) -> None:
    with pytest.raises(InvalidMoveError, match=repr(text).replace("@", "@").replace("(", r"\(")[1:-1]):
        parse_move(text)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"table": ["♣2", "♦4", "♥5", "♥4", "✿6"]}, "6 cards"),
        ({"hands": [["✿2", "✿2"], ["♠6"], ["♦5"]]}, "twice"),
        ({"hands": [["x9"], ["♠6"], ["♦5"]]}, "not a card"),
        ({"players": 2}, "not in a 2-player game"),
        ({"played": [8, 8, 7]}, "holds 2"),
        ({"cookie": 5}, "cookie"),
        ({"to_move": 1}, "to_move"),
    ],
)
def test_broken_positions_are_record_errors(change: dict[str, Any], message: str) -> None:
    position = end_position(**change)
    if change.get("players") == 2:
        position |= {"hands": [["✿2"], ["♠6"]], "played": [8, 8]}
    with pytest.raises(RecordError, match=message):
        hatskit.load(position)


def test_design_md_example_position_loads() -> None:
    """The design notes' example position, whose ``cookie: null`` H10 cannot give: Ana has six types to Ben's four."""
    position = {
        "game": "hats", "players": 2, "to_move": 0, "played": [8, 8],
        "table": ["♦3", "★5", "♣2", "♥6", "♦6"], "hands": [["♠4"], ["♥3"]],
        "collections": [["♠1", "♠2", "♥1", "♥2", "★1", "♣1", "♦1"], ["♦2", "♦4", "★2", "★3", "♣3", "♣4"]],
        "black_hats": [["♠3"], ["♥4", "♥5"]], "cookie": None,
    }  # fmt: skip
    with pytest.raises(RecordError, match="to_move"):
        hatskit.load(position)  # every player has played 8: nobody is to move
    with pytest.raises(RecordError, match=r"field 'cookie' must be Ana \(seat 0\), not null"):
        hatskit.load(position | {"to_move": None})
    game = hatskit.load(position | {"to_move": None, "cookie": 0})
    assert game.is_over and len(game.state.deck) == 30 - 5 - 2 - 16
    del position["cookie"], position["to_move"]
    assert hatskit.load(position).position() == game.position(), "left out, to_move and cookie are derived"


# ---------------------------------------------------------------- positions that lie (issue 6)


@pytest.mark.parametrize("cookie", [None, 1, 2, True, 0.0, "0", [0]])
def test_h10_a_cookie_holder_h10_cannot_give_is_refused_naming_the_holder(cookie: Any) -> None:
    assert hatskit.load(end_position()).state.cookie == 0
    with pytest.raises(RecordError, match=r"field 'cookie' must be Ana \(seat 0\), not .*most different types \(5\)"):
        hatskit.load(end_position(cookie=cookie))


def test_h10_cookie_left_out_is_derived_and_scored() -> None:
    position = end_position()
    del position["cookie"]
    game = hatskit.load(position)
    assert game.state.cookie == 0 and points(game, 0, "last cookie") == 5


def test_h10_in_a_complete_tie_the_cookie_may_lie_with_any_tied_seat_or_the_napkin() -> None:
    for cookie in (None, 0, 1):
        assert hatskit.load(tie_position(cookie=cookie)).state.cookie == cookie
    with pytest.raises(RecordError, match=r"Ana \(seat 0\) or Ben \(seat 1\) or the napkin \(null\)"):
        hatskit.load(tie_position(cookie=2))
    left_out = tie_position()
    del left_out["cookie"]
    assert hatskit.load(left_out).state.cookie is None, "left out, a complete tie leaves it on the napkin"


def test_h10_with_nothing_collected_nobody_holds_the_cookie() -> None:
    with pytest.raises(RecordError, match=r"field 'cookie' must be the napkin \(null\), not 0"):
        hatskit.load(start().position() | {"cookie": 0})


@pytest.mark.parametrize("options", [[], ["✿", "⎈"], "✿⎈", 2])
def test_options_that_are_not_an_object_are_a_record_error(options: Any) -> None:
    with pytest.raises(RecordError, match="field 'options' must be an object"):
        hatskit.load(end_position(options=options))


def test_optional_used_must_agree_with_the_rules() -> None:
    with pytest.raises(RecordError, match="'optional_used' must be false: the game is over"):
        hatskit.load(end_position(optional_used=True))
    mid_game = start().position() | {"optional_used": True, "discard": []}
    with pytest.raises(RecordError, match="discard pile, which is empty"):
        hatskit.load(mid_game)
    game = start()
    game.play(f"discard {game.view(0)['hand'][0]}")
    assert hatskit.load(game.position()).state.optional_used


def test_optional_used_must_be_false_while_a_swap_waits() -> None:
    game = four_players()
    game.play(f"swap {game.view(0)['hand'][0]}")
    assert hatskit.load(game.position()).to_move == 2
    with pytest.raises(RecordError, match="'optional_used' must be false: a swap is still waiting"):
        hatskit.load(game.position() | {"optional_used": True})
