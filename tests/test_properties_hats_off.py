"""Hats Off! property tests (hypothesis): moves from any fields, positions mutated field by field, play to the end.

- a move built from arbitrary fields (any seat, time and hat) is legal, or
  refused with a named error within a second of CPU time, and a refusal changes nothing;
- a position with one field replaced or nudged loads, or is a RecordError;
  what loads gives back a ``position()`` that loads to itself, and stays so
  through legal play to the end;
- random legal play ends within ``longest_game`` (ruling O8), and every
  position on the way loads back and equals itself.

A few hundred examples each (times ``tests.helpers.SCALE``: ``HATSKIT_LONG=1`` runs ten times as many).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import hatskit
from hatskit import IllegalMoveError, InvalidMoveError, RecordError
from hatskit.games.hats_off import KINDS, Call, Flip, Pass, Play, Wear, longest_game
from tests.helpers import scaled, within_a_second

EXAMPLES = scaled(300)
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    print_blob=True,
)
GAMES = scaled(8)  # whole games per test below (each one player count and option set)
VARIANTS = [
    {"players": 2},
    {"players": 3},
    {"players": 4, "falling_hats": True},
    {"players": 5},
    {"players": 3, "best_of": 3, "falling_hats": True},
]

ANY_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-3, max_value=1_000_002),
    st.floats(),
    st.text(max_size=6),
    st.sampled_from([*KINDS, "head", "FEZ", "top hat"]),
    st.lists(st.integers(), max_size=2),
)


def snapshot(game: hatskit.Game) -> tuple[str, str, int]:
    return json.dumps(game.record()), json.dumps(game.position()), game.ply


def random_move(game: hatskit.Game, rng: random.Random) -> Any:
    """A legal move of a random acting seat, timed at random if it is a play or a call."""
    seat = rng.choice(game.acting)
    move = rng.choice(game.legal_moves(seat))
    return move.at(rng.randint(0, 3000) / 1000) if isinstance(move, Play | Call) else move


def game_at(variant: int, seed: int, ply: int) -> hatskit.Game:
    """A seeded random game of one variant after ``ply`` random legal moves (or at its end)."""
    game = hatskit.new_game("hats-off", seed=seed, **VARIANTS[variant])
    rng = random.Random(seed)
    while not game.is_over and game.ply < ply:
        game.play(random_move(game, rng))
    return game


def loads_back(game: hatskit.Game) -> None:
    """The position loads to a game whose position and state equal this one's."""
    position = game.position()
    again = hatskit.load(json.loads(json.dumps(position)))
    assert again.position() == position and again.state == game.state


POSITIONS = st.builds(game_at, st.integers(0, len(VARIANTS) - 1), st.integers(0, 10**6), st.integers(0, 400))


# ---------------------------------------------------------------- moves built from arbitrary fields


@st.composite
def hand_built(draw: st.DrawFn) -> Any:
    """A move object of any kind whose fields are drawn from anything at all."""
    kind = draw(st.sampled_from([Wear, Flip, Pass, Play, Call]))
    seat = draw(st.one_of(st.integers(0, 5), ANY_VALUE))
    if kind in (Flip, Pass):
        return kind(seat)
    if kind is Wear:
        return Wear(seat, draw(ANY_VALUE))
    ms = draw(st.one_of(st.integers(0, 3000), ANY_VALUE))
    return Call(seat, ms) if kind is Call else Play(seat, ms, draw(st.one_of(st.none(), ANY_VALUE)))


def near_legal(game: hatskit.Game, data: st.DataObject) -> Any:
    """A legal move of the position with one field replaced by anything (a small number, often)."""
    legal = game.legal_moves()
    if not legal:
        return data.draw(hand_built())
    move = data.draw(st.sampled_from(legal))
    fields = [name for name in ("seat", "ms", "kind") if hasattr(move, name)]
    name = data.draw(st.sampled_from(fields))
    value = data.draw(st.one_of(st.integers(0, 1200), ANY_VALUE))
    return dataclasses.replace(move, **{name: value})


@SETTINGS
@given(game=POSITIONS, data=st.data())
def test_a_move_from_arbitrary_fields_is_legal_or_a_named_error_that_changes_nothing(
    game: hatskit.Game, data: st.DataObject
) -> None:
    move = data.draw(hand_built()) if data.draw(st.booleans()) else near_legal(game, data)
    before = snapshot(game)
    with within_a_second():
        reason = game.why_illegal(move)
        assert isinstance(game.state.why_illegal(move), str | None)
        assert isinstance(str(move), str)
        try:
            game.play(move)
        except (InvalidMoveError, IllegalMoveError):
            event("refused")
            assert reason is not None and snapshot(game) == before
        else:
            event("played")
            assert reason is None and game.ply == before[2] + 1
            loads_back(game)


@SETTINGS
@given(seconds=st.one_of(st.floats(), st.integers(), st.none(), st.text(max_size=4), st.booleans()))
def test_a_move_at_any_time_is_a_move_or_an_invalid_move_error(seconds: Any) -> None:
    try:
        move = Play(1, 0, "fez").at(seconds)
    except InvalidMoveError as error:
        assert "seconds" in str(error)
    else:
        assert 0 <= move.ms <= 999_999 and type(move.ms) is int


# ---------------------------------------------------------------- positions mutated field by field


@st.composite
def mutated(draw: st.DrawFn, position: dict[str, Any]) -> dict[str, Any]:
    """``position`` with one field (or one entry of a per-seat field) replaced by anything, or nudged."""
    changed = copy.deepcopy(position)
    name = draw(st.sampled_from(sorted(changed)))
    value = changed[name]
    if isinstance(value, list) and value and draw(st.booleans()):
        at = draw(st.integers(0, len(value) - 1))
        value[at] = _nudged(draw, value[at])
    elif draw(st.booleans()):
        changed[name] = _nudged(draw, value)
    elif draw(st.booleans()):
        del changed[name]
    else:
        changed[name] = draw(st.one_of(ANY_VALUE, st.lists(ANY_VALUE, max_size=5)))
    return changed


def _nudged(draw: st.DrawFn, value: Any) -> Any:
    """A value near ``value``: a number a little off, a flag flipped, a card or a list changed a little."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + draw(st.sampled_from([-2, -1, 1, 2, 10, 10**6]))
    if isinstance(value, list):
        return value[1:] if value and draw(st.booleans()) else [*value, draw(st.sampled_from([*KINDS, 0, None]))]
    return draw(st.one_of(st.sampled_from([*KINDS, None, 0, 1]), ANY_VALUE))


@SETTINGS
@given(game=POSITIONS, data=st.data(), seed=st.integers(0, 2**32))
def test_a_position_mutated_field_by_field_loads_back_through_play_or_is_a_record_error(
    game: hatskit.Game, data: st.DataObject, seed: int
) -> None:
    changed = data.draw(mutated(game.position()))
    try:
        with within_a_second():
            loaded = hatskit.load(changed)
    except RecordError:
        event("refused")
        return
    event("loaded")
    rng, bound = random.Random(seed), longest_game(loaded.state.players, loaded.state.options.best_of)
    loads_back(loaded)
    while not loaded.is_over:
        assert loaded.ply < bound
        assert loaded.legal_moves(), "an acting seat always has a move"
        loaded.play(random_move(loaded, rng))
        loads_back(loaded)


# ---------------------------------------------------------------- random legal play to the end


def test_random_legal_play_ends_within_the_bound_and_every_position_loads_back() -> None:
    for number in range(GAMES * len(VARIANTS)):
        variant = VARIANTS[number % len(VARIANTS)]
        game = hatskit.new_game("hats-off", seed=number, **variant)
        rng, bound = random.Random(number), longest_game(game.state.players, game.state.options.best_of)
        while not game.is_over:
            assert game.ply < bound, f"{variant}, seed {number}: not over after {bound} plies"
            game.play(random_move(game, rng))
            if game.ply % 7 == 0 or game.is_over:
                loads_back(game)
        assert game.outcome() is not None


def test_thousands_of_random_games_end_within_the_bound() -> None:
    """Whole games on the state alone (no narration, no checks on the way): the bound is the point."""
    games = scaled(2_000)
    longest = {}
    for number in range(games):
        variant = VARIANTS[number % len(VARIANTS)]
        game = hatskit.new_game("hats-off", seed=number, **variant)
        state, rng = game.state.copy(), random.Random(number)
        bound, plies = longest_game(state.players, state.options.best_of), 0
        while not state.is_over:
            assert plies < bound, f"{variant}, seed {number}: not over after {bound} plies"
            seat = rng.choice(state.acting)
            move = rng.choice(state.legal_moves(seat))
            state.advance(move.at(rng.randint(0, 3000) / 1000) if isinstance(move, Play | Call) else move)
            plies += 1
        key = json.dumps(variant)
        longest[key] = max(longest.get(key, 0), plies)
    assert longest, "games were played"


def test_a_failed_call_of_any_kind_leaves_the_position_unchanged_and_fails_within_a_second() -> None:
    game = game_at(1, 5, 30)
    before = snapshot(game)
    attempts: list[Any] = ["Zed:flip", "Ana:fez@9999", Play(None, 0, "fez"), Call(0, float("nan")), 17, None]
    attempts += [Wear(0, "fez"), Flip(2.0), Pass("Ana"), Play(0, 10**400, "fez"), "Ana:" + "x" * 5000]
    for attempt in attempts:
        with within_a_second(), pytest.raises((InvalidMoveError, IllegalMoveError)):
            game.play(attempt)
        assert snapshot(game) == before and isinstance(game.why_illegal(attempt), str)
    for data in ({"game": "hats-off", "players": 3, "flips": 99}, {"game": "hats-off", "players": 3, "race": -1}):
        with pytest.raises(RecordError):
            hatskit.load(data)
