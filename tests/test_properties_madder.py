"""Property-based tests (hypothesis) of Madder than a Hatter's bad input and play to the end (issue 26).

- moves built from arbitrary fields are legal, or refused with a named error that changes nothing;
- positions mutated field by field load to a game whose position loads back to itself and plays on,
  or give a RecordError;
- card files generated from the TOML grammar (the stand-in file with a field replaced, deleted or
  added, or its bytes changed) give a card set whose games save positions that load, or a RecordError;
- random legal play to the end with 3 and 4 players: every position loads back and equals itself.

Every refusal takes under a second of CPU and leaves the position as it was. A few hundred examples
each by default; ``HATSKIT_LONG=1`` runs ten times as many, ``HATSKIT_MADDER_EXAMPLES=n`` exactly n.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import random
import re
import tempfile
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hatskit
from hatskit import HatskitError, IllegalMoveError, InvalidMoveError, RecordError
from hatskit.games.madder import DECLINE, DONE, Discard, HatAt, MoveHat, Play, Swap, Take, load_cards
from hatskit.games.madder.components import DEFAULT_CARDS
from hatskit.games.madder.moves import LINE
from tests.helpers import scaled, within_a_second

EXAMPLES = int(os.environ.get("HATSKIT_MADDER_EXAMPLES", scaled(300)))
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
GAMES = settings(SETTINGS, max_examples=EXAMPLES // 3)  # whole games: each example plays one to its end
STANDIN = DEFAULT_CARDS.read_text(encoding="utf-8")
STYLES = ["Newsboy", "Homburg", "Fedora", "Boater", "Bowler", "Beret", "Stetson", "Trilby"]
FOLDER = Path(tempfile.mkdtemp(prefix="hatskit-cards-"))
NUMBERS = itertools.count()


def snapshot(game: hatskit.Game) -> tuple[str, str, int]:
    return json.dumps(game.record()), json.dumps(game.position()), game.ply


def seeded_game(players: int, seed: int, ply: int) -> hatskit.Game:
    """A game of random legal moves from ``seed``, ``ply`` moves in (or at its end)."""
    game = hatskit.new_game("madder", players=players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over and game.ply < ply:
        game.play(rng.choice(game.legal_moves()))
    return game


def loads_back(game: hatskit.Game) -> None:
    position = game.position()
    assert hatskit.load(json.loads(json.dumps(position))).position() == position


def play_on(game: hatskit.Game, rng: random.Random, plies: int) -> None:
    """Play random legal moves (each legal by why_illegal), every position loading back to itself."""
    for _ in range(plies):
        loads_back(game)
        if game.is_over:
            return
        moves = game.legal_moves()
        assert moves, "a game that is not over has a legal move"
        move = rng.choice(moves)
        assert game.why_illegal(move) is None
        game.play(move)


# ---------------------------------------------------------------- moves built from arbitrary fields

ODD = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=6),
    st.integers(),
    st.floats(),
    st.text(max_size=6),
    st.sampled_from(["Ben", "line", "Line", "Fedora", "Fedora*", "", " "]),
    st.lists(st.integers(min_value=0, max_value=3), max_size=2),
    st.tuples(st.integers(min_value=0, max_value=3)),
)
HATS = st.one_of(st.sampled_from([*STYLES, *(s + "*" for s in STYLES)]), ODD)
SEATS = st.one_of(st.integers(min_value=0, max_value=3), ODD)
PLACES = st.one_of(st.just(LINE), SEATS)
HAT_ATS = st.one_of(st.builds(HatAt, HATS, PLACES), ODD)


def moves() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.builds(Play, HATS, SEATS),
        st.builds(MoveHat, HATS, SEATS, SEATS),
        st.builds(Discard, st.one_of(st.lists(HAT_ATS, max_size=4).map(tuple), ODD)),
        st.builds(Swap, HAT_ATS, HAT_ATS),
        st.builds(Take, HAT_ATS),
        st.sampled_from([DONE, DECLINE]),
    )


@SETTINGS
@given(players=st.sampled_from([3, 4]), seed=st.integers(0, 400), ply=st.integers(0, 120), data=st.data())
def test_a_move_built_from_any_fields_is_legal_or_refused_changing_nothing(
    players: int, seed: int, ply: int, data: st.DataObject
) -> None:
    game = seeded_game(players, seed, ply)
    for _ in range(4):
        move = data.draw(moves())
        before = snapshot(game)
        with within_a_second():
            reason = game.why_illegal(move)
        assert reason is None or (isinstance(reason, str) and reason)
        if reason is None:
            game.play(move)
            continue
        with within_a_second(), pytest.raises((InvalidMoveError, IllegalMoveError)):
            game.play(move)
        assert snapshot(game) == before


# ---------------------------------------------------------------- positions mutated field by field

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8) | st.sampled_from(STYLES),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a position: each field, and each item of its lists and objects, at any depth."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*prefix, index))


def mutated(position: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    """``position`` with one place replaced, nudged, borrowed from another, or deleted."""
    changed = json.loads(json.dumps(position))
    places = [path for path in paths(changed) if path]
    path = data.draw(st.sampled_from(places))
    parent = changed
    for key in path[:-1]:
        parent = parent[key]
    old = parent[path[-1]]
    how = data.draw(st.sampled_from(["replace", "nudge", "borrow", "delete"]))
    if how == "delete":
        del parent[path[-1]]
    elif how == "nudge" and isinstance(old, int) and not isinstance(old, bool):
        parent[path[-1]] = old + data.draw(st.sampled_from([-1, 1, -old - 1, 2**63]))
    elif how == "borrow":
        source = json.loads(json.dumps(position))
        for key in data.draw(st.sampled_from(places)):
            source = source[key]
        parent[path[-1]] = source
    else:
        parent[path[-1]] = data.draw(JSON)
    return changed


@SETTINGS
@given(players=st.sampled_from([3, 4]), seed=st.integers(0, 400), ply=st.integers(0, 150), data=st.data())
def test_a_position_mutated_field_by_field_loads_to_itself_and_plays_on_or_is_a_record_error(
    players: int, seed: int, ply: int, data: st.DataObject
) -> None:
    position = seeded_game(players, seed, ply).position()
    changed = mutated(position, data)
    try:
        with within_a_second():
            game = hatskit.load(changed)
    except RecordError as error:
        assert str(error)
        return
    play_on(game, random.Random(seed), 30)


# ---------------------------------------------------------------- card files from the TOML grammar

TEXTS = st.one_of(
    st.text(max_size=12),
    st.sampled_from([*STYLES, "move", "discard", "swap", "take", "bonus", "own", "other", "any", "line", "hand"]),
    st.text(alphabet="ABCabc \n\t\x00\x7f*@>", max_size=25),
)
SCALARS = st.one_of(TEXTS, st.integers(min_value=-3, max_value=12), st.integers(), st.floats(), st.booleans())
TOML_VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=9)
        | st.dictionaries(st.sampled_from(["from", "to", "count", "hats", "x"]), inner, max_size=3)
    ),
    max_leaves=10,
)


def toml_string(text: str) -> str:
    """A TOML basic string: JSON's escapes, plus the control characters JSON leaves raw."""
    return re.sub(r"[\x7f]", lambda m: f"\\u{ord(m.group()):04x}", json.dumps(text, ensure_ascii=False))


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    return "{ " + ", ".join(f"{toml_string(k)} = {toml_value(v)}" for k, v in value.items()) + " }"


def toml_document(data: dict[str, Any]) -> str:
    """``data`` as TOML: plain fields first, then each list of tables as [[name]] sections."""
    tables = {k: v for k, v in data.items() if isinstance(v, list) and v and all(isinstance(t, dict) for t in v)}
    lines = [f"{toml_string(k)} = {toml_value(v)}" for k, v in data.items() if k not in tables]
    for name, entries in tables.items():
        for entry in entries:
            lines += [
                "",
                f"[[{toml_string(name)}]]",
                *(f"{toml_string(k)} = {toml_value(v)}" for k, v in entry.items()),
            ]
    return "\n".join(lines) + "\n"


def card_places(data: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The fields of the file, of each card and of each card's params."""
    places: list[tuple[Any, ...]] = [(key,) for key in data]
    for kind in ("premium", "haberdasher"):
        cards = data.get(kind)
        for index, card in enumerate(cards if isinstance(cards, list) else []):
            if isinstance(card, dict):
                places += [(kind, index, key) for key in card]
                params = card.get("params")
                places += [(kind, index, "params", key) for key in params] if isinstance(params, dict) else []
    return places


@st.composite
def card_files(draw: st.DrawFn) -> bytes:
    """The stand-in file with one field replaced, deleted or added (kept valid TOML), or with its bytes changed."""
    if draw(st.integers(0, 9)) == 0:
        raw = bytearray(STANDIN.encode("utf-8"))
        at = draw(st.integers(0, len(raw)))
        raw[at:at] = draw(st.binary(min_size=1, max_size=4))
        return bytes(raw)
    data = tomllib.loads(STANDIN)
    for _ in range(draw(st.integers(1, 2))):
        path = draw(st.sampled_from(card_places(data)))
        parent: Any = data
        for key in path[:-1]:
            parent = parent[key]
        how = draw(st.sampled_from(["replace", "delete", "add"]))
        if how == "delete":
            del parent[path[-1]]
        elif how == "add":
            parent[draw(st.sampled_from(["extra", "txt", "points", "hats", "style"]))] = draw(TOML_VALUES)
        else:
            parent[path[-1]] = draw(TOML_VALUES)
    return toml_document(data).encode("utf-8")


def test_the_toml_writer_writes_the_stand_in_file_back() -> None:
    data = tomllib.loads(STANDIN)
    assert tomllib.loads(toml_document(data)) == data


@SETTINGS
@given(content=card_files(), seed=st.integers(0, 100))
def test_a_card_file_from_the_toml_grammar_loads_and_plays_or_is_a_record_error(content: bytes, seed: int) -> None:
    path = FOLDER / f"cards-{next(NUMBERS)}.toml"
    path.write_bytes(content)
    try:
        with within_a_second():
            cards = load_cards(str(path))
    except RecordError as error:
        assert str(path) in str(error)
        return
    assert len(cards.styles) == 8 and len(cards.haberdashers) == 4
    game = hatskit.new_game("madder", players=3 + seed % 2, seed=seed, cards=str(path))
    play_on(game, random.Random(seed), 40)


# ---------------------------------------------------------------- random legal play to the end


@GAMES
@given(players=st.sampled_from([3, 4]), seed=st.integers(0, 2**63 - 1))
def test_random_legal_play_ends_and_every_position_loads_back_equal_to_itself(players: int, seed: int) -> None:
    game = hatskit.new_game("madder", players=players, seed=seed)
    play_on(game, random.Random(seed), 2000)
    assert game.is_over and game.outcome() is not None, "every game ends"
    assert hatskit.load(json.dumps(game.record())).position() == game.position()


def test_every_refusal_of_the_api_is_named_fast_and_changes_nothing() -> None:
    game = seeded_game(3, 5, 20)
    before = snapshot(game)
    calls: list[Callable[[], object]] = [
        lambda: game.play("Fedora>Zed"),
        lambda: game.play(Play("Fedora", None)),  # type: ignore[arg-type]
        lambda: game.view(7),
        lambda: game.seat_view(True),  # type: ignore[arg-type]
        lambda: game.state_at(-1),
        lambda: hatskit.load(game.position() | {"scores": [[-1, 0, 0]]}),
        lambda: hatskit.new_game("madder", cards=str(FOLDER)),
    ]
    for call in calls:
        with within_a_second(), pytest.raises(HatskitError):
            call()
        assert snapshot(game) == before
