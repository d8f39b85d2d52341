"""Hats Off! bad input (issue 26) and the middle of the deck (issue 25): one test class per kind of trouble.

Each test failed before its fix: a hand-built move with a seat or time that is
not one raised TypeError, IndexError or OverflowError from inside the engine; a
position that contradicts itself loaded, then left nobody able to move or gave
a ``position()`` that did not load back; legal play in which nobody matches
never ended; a card put back into the deck landed on top about one time in ten.
Every refusal is a named error whose sentence quotes the input, comes within a
second of CPU time (``tests.helpers.within_a_second``) and changes nothing.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from typing import Any

import pytest

import hatskit
from hatskit import HatskitError, IllegalMoveError, InvalidMoveError, RecordError, UsageError
from hatskit.bots import make_bot
from hatskit.games.hats_off import MAX_RACES, Call, Flip, Pass, Play, Wear, all_cards, longest_game
from tests.helpers import within_a_second


def race_position(**changes: Any) -> dict[str, Any]:
    """Three players in the first race after Ana flipped a fez; the 43 other cards form the deck."""
    base = {
        "game": "hats-off",
        "players": 3,
        "phase": "race",
        "race": 1,
        "flips": 1,
        "flipper": 0,
        "pile": ["fez"],
        "hands": [["top", "bowler", "beret"], ["fez", "cowboy", "beanie"], ["fez", "chef", "party"]],
        "heads": ["fez", "top", "bowler"],
    }
    return base | changes


def snapshot(game: hatskit.Game) -> tuple[str, str, int]:
    return json.dumps(game.record()), json.dumps(game.position()), game.ply


def refused_quickly(game: hatskit.Game, move: Any) -> HatskitError:
    """The named error ``play`` gives for ``move``, which ``why_illegal`` tells as a sentence; nothing changes."""
    before = snapshot(game)
    with within_a_second():
        reason = game.why_illegal(move)
        with pytest.raises((InvalidMoveError, IllegalMoveError)) as caught:
            game.play(move)
    assert isinstance(reason, str) and reason, "why_illegal answers with a sentence"
    assert snapshot(game) == before
    return caught.value


def quotes(error: Exception, value: Any) -> bool:
    """Whether the error's sentence quotes ``value`` (long values are shortened to their start and end)."""
    return repr(value)[:2] in str(error)


# ---------------------------------------------------------------- hand-built moves


class TestHandBuiltMoves:
    """A move object's seat is a seat number and its time whole milliseconds; anything else is a named error."""

    @pytest.mark.parametrize("seat", [None, 1.0, 1.5, "Ben", "1", -1, 5, 10**30, True, [1]])
    @pytest.mark.parametrize("kind", [Flip, Pass, Call, Play])
    def test_a_seat_that_is_not_a_seat_number(self, seat: Any, kind: type) -> None:
        game = hatskit.load(race_position(loose=[{"kind": "top", "owner": 0, "fell": False}], race=2))
        move = kind(seat) if kind in (Flip, Pass) else kind(seat, 500)
        error = refused_quickly(game, move)
        assert quotes(error, seat)
        assert isinstance(game.state.why_illegal(move), str), "the state says why too, never a TypeError"

    @pytest.mark.parametrize("seat", [None, 2.0, "Cleo", 7])
    def test_a_wear_or_head_play_with_a_bad_seat(self, seat: Any) -> None:
        deal = hatskit.new_game("hats-off", players=3, seed=4)
        refused_quickly(deal, Wear(seat, deal.state.hands[0][0]))
        refused_quickly(hatskit.load(race_position()), Play(seat, 300, None))

    def test_a_seat_of_the_game_but_not_at_this_table_is_an_illegal_move(self) -> None:
        error = refused_quickly(hatskit.load(race_position()), Play(3, 300, "fez"))
        assert isinstance(error, IllegalMoveError) and "no Dev in a 3-player game" in str(error)

    @pytest.mark.parametrize(
        "ms", [None, "0.5", "500", math.inf, -math.inf, math.nan, 500.0, 0.5, True, -1, 10**6, 10**30, [500]]
    )
    def test_a_time_that_is_not_whole_milliseconds(self, ms: Any) -> None:
        game = hatskit.load(race_position())
        for move in (Play(1, ms, "fez"), Play(1, ms, None), Call(1, ms)):
            error = refused_quickly(game, move)
            assert quotes(error, ms)
            assert isinstance(game.state.why_illegal(move), str)

    def test_a_time_equal_to_whole_milliseconds_plays_as_the_games_own_move(self) -> None:
        """The game reads a move object back from its notation (hatskit.core.Game.parse): a time of 0.0 is
        the move ``Ben:fez@0``, and the rules see that move, never the float; the state alone still refuses it."""
        game = hatskit.load(race_position())
        assert game.parse(Play(1, 0.0, "fez")) == Play(1, 0, "fez") and game.parse(Play(1, 0.0, "fez")).ms == 0
        assert isinstance(game.parse(Play(1, 0.0, "fez")).ms, int)
        assert isinstance(game.state.why_illegal(Play(1, 0.0, "fez")), str)

    @pytest.mark.parametrize("seconds", [None, "0.5", math.inf, -math.inf, math.nan, True, [0.5], 1e300, -0.5, 1000])
    def test_at_with_a_time_that_is_not_seconds(self, seconds: Any) -> None:
        with within_a_second(), pytest.raises(InvalidMoveError, match="seconds") as caught:
            Play(1, 0, "fez").at(seconds)
        assert repr(seconds)[:20] in str(caught.value)

    def test_at_with_seconds_gives_the_move_at_that_time(self) -> None:
        assert Play(1, 0, "fez").at(0.4567) == Play(1, 457, "fez") and Call(2, 0).at(999.999).ms == 999_999

    @pytest.mark.parametrize("kind", [None, "", "FEZ", "sombrero", 5, ["fez"], "fez@1"])
    def test_a_hat_that_is_not_a_hat(self, kind: Any) -> None:
        deal = hatskit.new_game("hats-off", players=3, seed=4)
        refused_quickly(deal, Wear(0, kind))
        assert isinstance(deal.state.why_illegal(Wear(0, kind)), str)
        if kind is not None:
            refused_quickly(hatskit.load(race_position()), Play(1, 300, kind))

    def test_the_notation_of_a_bad_move_never_fails(self) -> None:
        for move in (Play(None, math.nan, ["x"]), Call("Ben", math.inf), Wear(10**400, {}), Flip(-(10**5000))):
            assert isinstance(str(move), str)


# ---------------------------------------------------------------- bots asked for a seat that cannot move


class TestBotsForASeatThatCannotMove:
    """Every bot says, with a UsageError, that a seat with nothing to do has nothing to play."""

    @pytest.mark.parametrize("kind", ["random", "greedy", "strong", "young child", "child", "older child", "adult"])
    def test_choose_and_hint_for_a_seat_that_is_not_acting(self, kind: str) -> None:
        game = hatskit.load(race_position(phase="flip", race=0, pile=[], flips=0))
        bot = make_bot("hats-off", kind, seed=1)
        for call in (bot.choose, bot.hint):
            with pytest.raises(UsageError, match="no move"):
                call(game.seat_view(2))


# ---------------------------------------------------------------- positions that contradict themselves


def with_deck(data: dict[str, Any], deck: list[str]) -> dict[str, Any]:
    """The position with exactly ``deck`` left: every other unlisted card lies under the pile."""
    listed = Counter([*deck, *data["pile"], *(k for h in data["hands"] for k in h)])
    listed.update(h for h in data["heads"] if h)
    listed.update(k for w in data.get("won", []) for k in w)
    listed.update(c["kind"] for c in data.get("loose", []))
    rest = sorted((Counter(all_cards()) - listed).elements())
    return data | {"deck": deck, "pile": rest + data["pile"]}


def finished(**changes: Any) -> dict[str, Any]:
    """A finished game: the deck is empty, Ana won 30 cards, Ben 12 and Cleo none; the rest lie on the pile."""
    won = [["top"] * 7 + ["bowler"] * 7 + ["cowboy"] * 7 + ["beret"] * 7 + ["fez"] * 2, ["beanie"] * 7 + ["chef"] * 5]
    data = {
        "game": "hats-off",
        "players": 3,
        "phase": "over",
        "flips": 30,
        "pile": [],
        "hands": [["fez"], ["fez", "chef"], ["party", "fez"]],
        "heads": ["fez", None, "party"],
        "won": [*won, []],
        "round_results": [[30, 12, 0]],
    }
    return with_deck(data, []) | changes


class TestPositionsThatContradictThemselves:
    """What ``load`` accepts, ``position()`` gives back and ``load`` accepts again, also after every legal move."""

    def test_the_finished_position_loads(self) -> None:
        game = hatskit.load(finished())
        assert game.is_over and game.outcome().winners == (0,)
        assert hatskit.load(game.position()).position() == game.position()

    def test_a_seat_at_the_deal_with_neither_head_card_nor_hand_card(self) -> None:
        hands = [["fez", "top", "beret", "chef"], [], ["fez", "chef", "party", "top"]]
        with pytest.raises(RecordError, match="seat 1 has neither a head card nor a hand card"):
            hatskit.load({"game": "hats-off", "players": 3, "phase": "wear", "hands": hands, "heads": [None] * 3})

    def test_finished_round_results_that_disagree_with_the_won_piles(self) -> None:
        with pytest.raises(RecordError, match=r"round_results.*\[30, 12, 0\], not \[29, 12, 0\]"):
            hatskit.load(finished(round_results=[[29, 12, 0]]))

    def test_a_finished_position_with_cards_in_the_deck(self) -> None:
        data = finished()
        data = data | {"pile": data["pile"][2:], "deck": data["pile"][:2]}
        with pytest.raises(RecordError, match="field 'deck': a finished game has an empty deck"):
            hatskit.load(data)

    @pytest.mark.parametrize("race", [MAX_RACES + 2, 10**6])
    def test_a_race_counter_beyond_the_last_race_for_a_card(self, race: int) -> None:
        with pytest.raises(RecordError, match="field 'race'"):
            hatskit.load(race_position(race=race))

    def test_a_race_counter_at_the_deal_or_the_flip(self) -> None:
        with pytest.raises(RecordError, match="race 0"):
            hatskit.load(race_position(phase="flip", pile=[], race=2))

    @pytest.mark.parametrize("flips", [2, 10**6])
    def test_more_flips_than_cards_have_left_the_deck(self, flips: int) -> None:
        with pytest.raises(RecordError, match="field 'flips'"):
            hatskit.load(race_position(flips=flips))

    def test_more_head_cards_worn_than_the_flips_allow(self) -> None:
        with pytest.raises(RecordError, match="field 'head_changes'"):
            hatskit.load(race_position(head_changes=[10**6, 1, 1]))

    def test_a_draws_counter_with_no_room_for_the_random_events_to_come(self) -> None:
        with pytest.raises(RecordError, match="field 'draws'"):
            hatskit.load(race_position(draws=2**63 - 1))

    @pytest.mark.parametrize(
        ("changes", "moves"),
        [
            ({"race": MAX_RACES - 1}, ["Ana:top@0.1", "Ben:pass", "Cleo:pass"]),
            ({"phase": "flip", "pile": [], "race": 0, "flips": 0}, ["Ana:flip"]),
            ({"head_changes": [2, 1, 1]}, ["Ana:head@0.1", "Ben:pass", "Cleo:pass"]),
            ({"draws": 2**63 - 1 - 6 * 55 - 5, "deck": None}, ["Ana:top@0.1", "Ben:pass", "Cleo:pass"] * 2),
        ],
    )
    def test_counters_at_their_limits_load_back_after_every_move(
        self, changes: dict[str, Any], moves: list[str]
    ) -> None:
        data = race_position(**changes)
        if data.get("deck", []) is None:  # every card placed, so that loading shuffles nothing
            data = with_deck(race_position(**changes), [])
            data = data | {"deck": data["pile"][:-1], "pile": data["pile"][-1:]}
        game = hatskit.load(data)
        for move in moves:
            game.play(move)
            assert hatskit.load(game.position()).position() == game.position()


# ---------------------------------------------------------------- every game ends


def never_matching(game: hatskit.Game, rng: random.Random) -> Any:
    """A legal move of an acting seat that never matches: a wrong card if it has one, else a call or a pass."""
    seat = rng.choice(game.acting)
    top = game.state.pile[-1] if game.state.pile else None
    wrong = [m for m in game.legal_moves(seat) if isinstance(m, Play) and m.kind not in (None, top)]
    calls = [m for m in game.legal_moves(seat) if isinstance(m, Call)]
    choice = rng.choice(wrong or calls or game.legal_moves(seat))
    return choice.at(rng.randint(0, 2000) / 1000) if isinstance(choice, Play | Call) else choice


class TestEveryGameEnds:
    """Legal play in which nobody ever matches ends within ``longest_game`` (ruling O8)."""

    @pytest.mark.parametrize("players", [2, 3, 5])
    def test_nobody_ever_matching_still_ends(self, players: int) -> None:
        game = hatskit.new_game("hats-off", players=players, seed=players)
        rng, bound = random.Random(players), longest_game(players, 1)
        while not game.is_over:
            assert game.ply < bound, f"still going after {bound} plies"
            game.play(never_matching(game, rng))
        assert game.is_over and game.state.deck == []

    def test_a_card_is_raced_for_at_most_four_times_then_once_more_for_the_loose_cards(self) -> None:
        game = hatskit.load(race_position(race=MAX_RACES, hands=[["top", "bowler", "beret"], ["cowboy"], ["chef"]]))
        events = game.play("Ana:top@0.1") + game.play("Ben:pass") + game.play("Cleo:pass")
        assert game.state.race == MAX_RACES + 1 and game.legal_moves(1) == [Call(1, 0), Pass(1)]
        assert "only Hats Off! calls count" in events[-1].text and events[-1].rule == "O8"
        assert "raced for 4 times" in game.why_illegal("Ben:cowboy@0.2")
        events = game.play("Ben:off@0.3") + game.play("Cleo:pass")
        assert game.state.won[1] == ["top"] and game.state.phase == "flip" and game.acting == (1,)
        assert any(e.rule == "O2" and "passes to the left, to Ben" in e.text for e in events)

    @pytest.mark.parametrize("kind", ["random", "greedy", "strong", "young child"])
    def test_bots_in_the_last_race_only_call_or_pass(self, kind: str) -> None:
        hands = [["top", "bowler", "beret"], ["fez", "cowboy"], ["chef"]]
        game = hatskit.load(race_position(race=MAX_RACES + 1, hands=hands, loose=[{"kind": "top", "owner": 0}]))
        for seed in range(30):
            move = make_bot("hats-off", kind, seed=seed).choose(game.seat_view(1))
            assert isinstance(move, Call | Pass) and game.why_illegal(move) is None, "Ben holds a fez, but may not play"


# ---------------------------------------------------------------- the middle of the deck (issue 25)


class TestCardsGoBackIntoTheMiddleOfTheDeck:
    """A loose card nobody called for goes back between the deck's top and bottom card (O6)."""

    def test_never_the_top_or_the_bottom_card(self) -> None:
        places = Counter()
        for seed in range(400):
            data = race_position(seed=seed, loose=[{"kind": "party", "owner": 2, "fell": True}])
            held = Counter([*data["pile"], *data["heads"], *(k for hand in data["hands"] for k in hand)])
            deck = [card for card in (Counter(all_cards()) - held).elements() if card != "party"][:20]
            random.Random(seed).shuffle(deck)
            game = hatskit.load(with_deck(data, deck))
            for move in ("Ana:pass", "Ben:fez@0.3", "Cleo:pass"):
                game.play(move)
            place = game.state.deck.index("party")
            assert game.state.deck[:place] + game.state.deck[place + 1 :] == deck[:-1], "Ben drew the top card"
            assert 0 < place < len(game.state.deck) - 1, f"seed {seed}: the party hat went to place {place}"
            places[place] += 1
        assert len(places) == 18, "the card goes anywhere between the top and the bottom card"

    def test_a_deck_of_one_card_takes_it_underneath_and_an_empty_deck_becomes_it(self) -> None:
        for deck, expected in ((["beret", "cowboy"], ["party", "beret"]), (["beret"], ["party"])):
            game = hatskit.load(with_deck(race_position(loose=[{"kind": "party", "owner": 2, "fell": True}]), deck))
            for move in ("Ana:pass", "Ben:fez@0.3", "Cleo:pass"):
                game.play(move)
            assert game.state.deck == expected, "Ben drew the top card; the party hat went back under what was left"
