"""Property-based tests (hypothesis) of the contract, for every game in ``hatskit.GAMES``.

Each property runs on every variant of tests/test_contract.py (``VARIANTS``), so a
game registered later joins without a line here:

- random legal play never raises and keeps every invariant of the contract suite;
- any string or JSON value given as a move is legal, or refused with a named
  error that leaves the record and the position as they were;
- a position or record mutated at random (a value replaced, nudged, borrowed
  from elsewhere, deleted, or a list item moved to another list) loads to a
  consistent game that plays on to its end, or gives a RecordError.

The examples are drawn afresh on each run (no example database is written);
a failure prints the example and how to reproduce it.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import hatskit
from hatskit import IllegalMoveError, InvalidMoveError, RecordError
from tests.helpers import VARIANTS, check_position, random_game, scaled, variants

# Examples per property and variant; raise HATSKIT_PROPERTY_EXAMPLES for a deeper search (the run stays quick at 10).
EXAMPLES = scaled(int(os.environ.get("HATSKIT_PROPERTY_EXAMPLES", "10")))
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
FUZZ = settings(SETTINGS, max_examples=3 * EXAMPLES)  # bad input: most examples are refused at once
PLAY_ON = 100  # plies a game is played on (every Hats game ends within it)
CHECK_EVERY = 4  # positions checked on the way (the last one always)
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
PLIES = st.integers(min_value=0, max_value=60)

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


def notations() -> list[str]:
    """The legal moves of every variant's first position, as text: the raw material of near-misses."""
    found = set()
    for game_id in hatskit.GAMES:
        for options in VARIANTS.get(game_id, [{}]):
            found |= {str(move) for move in hatskit.new_game(game_id, seed=0, **options).legal_moves()}
    return sorted(found)


NOTATIONS = notations()
ALPHABET = sorted({char for text in NOTATIONS for char in text} | set("0123456789 @->²٣\t\u00a0"))


def game_at(game_id: str, options: dict[str, Any], seed: int, ply: int) -> hatskit.Game:
    """A seeded random game of the contract suite, taken back to ``ply`` (or its end)."""
    played = random_game(game_id, options, seed, check=False)
    return played.state_at(min(ply, played.ply))


def snapshot(game: hatskit.Game) -> tuple[str, str, int]:
    return json.dumps(game.record()), json.dumps(game.position()), game.ply


def play_on(game: hatskit.Game, choices: list[int]) -> None:
    """Play legal moves picked by ``choices`` until the end or PLAY_ON plies, checking every CHECK_EVERY-th position."""
    for number in range(PLAY_ON):
        if number % CHECK_EVERY == 0 or game.is_over:
            check_position(game)
        if game.is_over:
            return
        pick = choices[number % len(choices)] + number
        seat = game.acting[pick % len(game.acting)]
        moves = game.legal_moves(seat)
        game.play(moves[pick % len(moves)])
    check_position(game)


# ---------------------------------------------------------------- random legal play


@pytest.mark.parametrize(("game_id", "options"), variants())
@SETTINGS
@given(seed=SEEDS, choices=st.lists(st.integers(min_value=0, max_value=2**16), min_size=1, max_size=20))
def test_random_legal_play_keeps_every_invariant(
    game_id: str, options: dict[str, Any], seed: int, choices: list[int]
) -> None:
    game = hatskit.new_game(game_id, seed=seed, **options)
    play_on(game, choices)
    again = hatskit.load(json.dumps(game.record()))
    assert again.position() == game.position(), "the record replays to the same position"


# ---------------------------------------------------------------- anything as a move


@st.composite
def near_misses(draw: st.DrawFn, legal: list[str]) -> str:
    """A legal notation (of this position or any game's) with one character changed, added or dropped."""
    text = draw(st.sampled_from(legal + NOTATIONS))
    at = draw(st.integers(min_value=0, max_value=len(text)))
    change = draw(st.sampled_from(["replace", "insert", "drop"]))
    char = draw(st.sampled_from(ALPHABET))
    if change == "replace":
        return text[:at] + char + text[at + 1 :]
    return text[:at] + char + text[at:] if change == "insert" else text[:at] + text[at + 1 :]


def moves_to_try(game: hatskit.Game) -> st.SearchStrategy[Any]:
    legal = [str(move) for move in game.legal_moves()]
    return st.one_of(
        JSON_VALUES,
        st.text(max_size=12),
        st.text(alphabet=ALPHABET, max_size=10),
        near_misses(legal),
        st.sampled_from(legal or ["none"]),
    )


@pytest.mark.parametrize(("game_id", "options"), variants())
@FUZZ
@given(seed=SEEDS, ply=PLIES, data=st.data())
def test_any_string_or_json_value_is_a_legal_move_or_refused_changing_nothing(
    game_id: str, options: dict[str, Any], seed: int, ply: int, data: st.DataObject
) -> None:
    game = game_at(game_id, options, seed % 1000, ply)
    for _ in range(5):
        move = data.draw(moves_to_try(game))
        before = snapshot(game)
        reason = game.why_illegal(move)
        assert reason is None or (isinstance(reason, str) and reason)
        try:
            game.play(move)
        except InvalidMoveError:
            event("invalid")
            assert reason is not None and snapshot(game) == before
        except IllegalMoveError as error:
            event("illegal")
            assert error.reason == reason and snapshot(game) == before
        else:
            event("legal")
            assert reason is None and game.ply == before[2] + 1
            assert str(as_listed(game.history[-1])) in {str(m) for m in game.state_at(before[2]).legal_moves()}


def as_listed(move: Any) -> Any:
    """The move as ``legal_moves`` lists it: a timed Hats Off! move at time 0 (its maker sets the time)."""
    return move.at(0) if callable(getattr(move, "at", None)) else move


# ---------------------------------------------------------------- mutated positions and records


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place inside a JSON value, the value itself first."""
    yield prefix
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, inner in items:
        yield from paths(inner, (*prefix, key))


def at(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


def nudged(value: Any, draw: st.DrawFn, leaves: list[Any]) -> Any:
    """A value close to ``value``: a number off by a little, a flag flipped, another name of the same position."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + draw(st.sampled_from([-2, -1, 1, 2]))
    if value is None:
        return draw(st.integers(min_value=0, max_value=3))
    return draw(st.sampled_from(leaves or [None]))


# Weighted towards changes that keep the shape, which load more often and so test the rules' checks.
CHANGES = ["nudge", "nudge", "nudge", "move", "move", "move", "borrow", "replace", "delete"]


@st.composite
def mutated(draw: st.DrawFn, original: dict[str, Any]) -> Any:
    """``original`` changed in one or two places."""
    value = copy.deepcopy(original)
    for _ in range(draw(st.integers(min_value=1, max_value=2))):
        places = list(paths(value))
        path = draw(st.sampled_from(places[1:] or places))
        if not path:
            return draw(JSON_VALUES)
        parent, key = at(value, path[:-1]), path[-1]
        leaves = [at(value, place) for place in places if not isinstance(at(value, place), dict | list)]
        change = draw(st.sampled_from(CHANGES))
        if change == "replace":
            parent[key] = draw(JSON_VALUES)
        elif change == "nudge":
            parent[key] = nudged(parent[key], draw, leaves)
        elif change == "borrow":
            parent[key] = copy.deepcopy(at(value, draw(st.sampled_from(places))))
        elif change == "delete":
            del parent[key]
        else:
            move_item(value, path, draw)
    return value


def move_item(value: Any, path: tuple[Any, ...], draw: st.DrawFn) -> None:
    """Move the item at ``path`` (inside a list) to the end of another list: a card changes places."""
    parent = at(value, path[:-1])
    lists = [place for place in paths(value) if isinstance(at(value, place), list)]
    if not isinstance(parent, list) or not lists:
        return
    target = at(value, draw(st.sampled_from(lists)))
    target.append(parent.pop(path[-1]))


def record_of(game_id: str, options: dict[str, Any], seed: int, ply: int, from_position: bool) -> dict[str, Any]:
    """The record of a seeded random game after ``ply`` plies, or of its second half started from a position."""
    played = random_game(game_id, options, seed, check=False)
    ply = min(ply, played.ply)
    if not from_position:
        return played.state_at(ply).record()
    game = hatskit.load(played.state_at(ply // 2).position())
    for move in played.history[ply // 2 : ply]:
        game.play(str(move))
    return game.record()


def consistent(game: hatskit.Game, choices: list[int]) -> None:
    """A loaded game keeps the contract and plays on to its end (or PLAY_ON plies) without an error."""
    assert hatskit.load(json.dumps(game.record())).position() == game.position()
    play_on(game, choices)


CHOICES = st.lists(st.integers(min_value=0, max_value=2**16), min_size=1, max_size=8)


@pytest.mark.parametrize(("game_id", "options"), variants())
@FUZZ
@given(seed=SEEDS, ply=PLIES, data=st.data(), choices=CHOICES)
def test_a_mutated_position_loads_consistently_or_is_a_record_error(
    game_id: str, options: dict[str, Any], seed: int, ply: int, data: st.DataObject, choices: list[int]
) -> None:
    position = game_at(game_id, options, seed % 1000, ply).position()
    changed = data.draw(mutated(position))
    try:
        game = hatskit.load(changed)
    except RecordError:
        event("refused")
        return
    event("loaded")
    consistent(game, choices)


@pytest.mark.parametrize(("game_id", "options"), variants())
@FUZZ
@given(seed=SEEDS, ply=PLIES, data=st.data(), choices=CHOICES)
def test_a_mutated_record_loads_consistently_or_is_a_record_error(
    game_id: str, options: dict[str, Any], seed: int, ply: int, data: st.DataObject, choices: list[int]
) -> None:
    changed = data.draw(mutated(record_of(game_id, options, seed % 1000, ply, data.draw(st.booleans()))))
    try:
        loaded = hatskit.load(json.dumps(changed) if data.draw(st.booleans()) else changed)
    except RecordError:
        event("refused")
        return
    event("loaded")
    consistent(loaded, choices)
