"""The contract every registered game keeps (hatskit/core.py and README, "Layout").

A game joins this suite by being registered in ``hatskit.GAMES``. Seeded random
games (a budget of checked positions per variant; over a thousand games in all)
run to the end (or a ply cap) while each position is checked: every legal
move is legal by ``why_illegal``, the position reloads to itself (loading
validates that every card or piece is in exactly one place), totals equal the
lines, views are JSON. Records, undo, ``state_at``, seeds and bad input are
checked on the same games.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
from typing import Any

import pytest

import hatskit
from hatskit import HatskitError, IllegalMoveError, InvalidMoveError, RecordError
from hatskit.bots import BOT_KINDS, make_bot
from tests.helpers import PLY_BUDGET, RULE_ID, random_game, variants


@pytest.mark.parametrize(("game_id", "options"), variants())
def test_random_games_keep_every_invariant(game_id: str, options: dict[str, Any]) -> None:
    finished = plies = seed = 0
    while plies < PLY_BUDGET:
        game = random_game(game_id, options, seed)
        plies, seed = plies + game.ply + 1, seed + 1
        if game.is_over:
            finished += 1
            assert game.outcome() is not None
            assert game.outcome().reason
    assert finished > 0, f"none of {seed} random games reached its end"


@pytest.mark.parametrize(("game_id", "options"), variants())
def test_record_replays_to_the_same_game(game_id: str, options: dict[str, Any]) -> None:
    for seed in range(10):
        game = random_game(game_id, options, seed, check=False)
        text = json.dumps(game.record())
        again = hatskit.load(text)
        assert again.position() == game.position()
        assert [str(m) for m in again.history] == [str(m) for m in game.history]


@pytest.mark.parametrize(("game_id", "options"), variants())
def test_a_pushed_legal_move_plays_as_play_does(game_id: str, options: dict[str, Any]) -> None:
    """``Game.push`` (a table plays the move the page named from those it offered) gives the same position,
    events and history as ``Game.play`` of its notation."""
    played = random_game(game_id, options, seed=3, check=False)
    pushed = hatskit.new_game(game_id, seed=3, **options)
    for move in played.history:
        events = pushed.push(pushed.legal_moves()[pushed.legal_moves().index(move)])
        assert [str(event) for event in events] == [str(event) for event in played.events[pushed.ply - 1]]
    assert pushed.position() == played.position() and pushed.history == played.history


@pytest.mark.parametrize(("game_id", "options"), variants())
def test_same_seed_same_game(game_id: str, options: dict[str, Any]) -> None:
    first = random_game(game_id, options, 42, check=False)
    second = random_game(game_id, options, 42, check=False)
    assert first.record() == second.record()
    assert first.position() == second.position()


@pytest.mark.parametrize(("game_id", "options"), variants())
def test_undo_and_state_at_go_back_exactly(game_id: str, options: dict[str, Any]) -> None:
    game = hatskit.new_game(game_id, seed=5, **options)
    rng = random.Random(5)
    seen = [game.position()]
    for _ in range(30):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_moves()))
        seen.append(game.position())
    for ply, position in enumerate(seen):
        assert game.state_at(ply).position() == position
    replayed = [str(m) for m in game.history]
    while game.ply:
        game.undo()
        assert game.position() == seen[game.ply]
    with pytest.raises(HatskitError):
        game.undo()
    for text in replayed:  # redo is playing the same moves again
        game.play(text)
    assert game.position() == seen[-1]


@pytest.mark.parametrize(("game_id", "options"), variants())
def test_bad_notation_is_rejected_and_changes_nothing(game_id: str, options: dict[str, Any]) -> None:
    game = hatskit.new_game(game_id, seed=3, **options)
    before = game.position()
    for garbage in ("", "   ", "xyzzy", "@@", "♥9@9", "e9-e10", "12345", "black", "-"):
        with pytest.raises(InvalidMoveError) as caught:
            game.play(garbage)
        assert repr(garbage) in str(caught.value), "the message quotes the input"
        assert isinstance(game.why_illegal(garbage), str)
    assert game.position() == before and game.ply == 0


@pytest.mark.parametrize(("game_id", "options"), variants())
def test_illegal_moves_raise_the_reason_and_change_nothing(game_id: str, options: dict[str, Any]) -> None:
    """Moves legal elsewhere in the game but not here are refused with why_illegal's sentence."""
    game = random_game(game_id, options, 11, check=False)
    elsewhere = {str(m) for ply in range(game.ply + 1) for m in game.state_at(ply).legal_moves()}
    refused = 0
    for ply in range(0, game.ply, 3):
        earlier = game.state_at(ply)
        before = earlier.position()
        for text in sorted(elsewhere - {str(m) for m in earlier.legal_moves()})[:20]:
            with pytest.raises(IllegalMoveError) as caught:
                earlier.play(text)
            assert caught.value.reason == earlier.why_illegal(text)
            refused += 1
        assert earlier.position() == before and earlier.ply == ply
    assert refused > 0


@pytest.mark.parametrize("game_id", list(hatskit.GAMES))
def test_malformed_records_name_the_problem(game_id: str) -> None:
    cases = {
        "not json {": "JSON",
        json.dumps([1, 2]): "object",
        json.dumps({"game": "chess"}): "unknown game",
        json.dumps({"game": game_id, "seed": "x", "moves": []}): "seed",
        json.dumps({"game": game_id, "seed": 1, "moves": "e2-e4"}): "moves",
        json.dumps({"game": game_id, "seed": 1, "moves": ["nonsense!"]}): "move 1",
        json.dumps({"game": game_id, "seed": 1, "options": {"colour": "red"}, "moves": []}): "colour",
    }
    for text, expected in cases.items():
        with pytest.raises(RecordError, match=expected):
            hatskit.load(text)


@pytest.mark.parametrize(("game_id", "options"), variants())
def test_bots_decide_from_their_seats_view_alone(game_id: str, options: dict[str, Any]) -> None:
    """A world that agrees with a seat's view, the hidden cards dealt otherwise, gets the same decisions.

    So no bot reads a card its seat may not see: it is handed a SeatView, and
    whatever lies behind the view, its choice is the same.
    """
    spec = hatskit.GAMES[game_id]
    for seed in range(3):
        played = random_game(game_id, options, seed, check=False)
        ply = random.Random(seed).randrange(played.ply)
        game = hatskit.load(played.state_at(ply).position())
        for seat in game.acting:
            view = game.view(seat)
            other = hatskit.Game(spec, game.head, [spec.sample_world(view, random.Random(seed + 99))])
            assert other.view(seat) == view, "a sampled world agrees with the view it came from"
            for kind in BOT_KINDS:
                chosen = [unhurried(make_bot(game_id, kind, seed=7)).choose(g.seat_view(seat)) for g in (game, other)]
                assert str(chosen[0]) == str(chosen[1]), f"the {kind} bot read more than its seat's view"


def unhurried(bot: Any) -> Any:
    """``bot`` without its wall-clock safety net (Sombrero's strong bot stops its search after ``seconds`` on a
    busy machine): two searches of the same view then go equally deep, so only what the bot reads decides."""
    if hasattr(bot, "seconds"):
        bot.seconds = math.inf
    return bot


def test_unknown_game_and_options_are_refused() -> None:
    with pytest.raises(RecordError, match="unknown game"):
        hatskit.new_game("chess")
    with pytest.raises(RecordError, match="unknown option"):
        hatskit.new_game("hats", colour="red")


@pytest.mark.parametrize("game_id", sorted(hatskit.GAMES))
def test_every_rule_option_tells_a_reader_what_it_does_without_a_ruling_id(game_id: str) -> None:
    """The set-up row's tooltip of an option is its field's ``help`` (widgets/table/setup.py): words for a
    reader, the ruling it follows named in the options' docstring instead."""
    for field in dataclasses.fields(hatskit.GAMES[game_id].options_type):
        words = field.metadata.get("help", "")
        assert len(words.split()) >= 4, f"{game_id}'s option {field.name!r} does not say what it does"
        assert not RULE_ID.search(words), f"{game_id}'s option {field.name!r} names a ruling to a reader: {words!r}"
