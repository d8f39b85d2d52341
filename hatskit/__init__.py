"""hatskit: the rules of four hat-themed tabletop games, in pure Python.

    >>> import hatskit
    >>> g = hatskit.new_game("hats", players=3, seed=7)
    >>> events = g.play(g.legal_moves()[0])

Every game offers the same contract (see :class:`hatskit.core.Game`); this
module is the registry that starts and loads them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from hatskit import hats, madder, sombrero
from hatskit.core import (
    Event,
    Game,
    GameSpec,
    HatskitError,
    IllegalMoveError,
    InvalidMoveError,
    Outcome,
    RecordError,
    ScoreLine,
    ScoreSheet,
    make_options,
    new_seed,
    options_dict,
)

GAMES: dict[str, GameSpec] = {spec.game_id: spec for spec in (hats.SPEC, madder.SPEC, sombrero.SPEC)}

__all__ = [
    "GAMES",
    "Event",
    "Game",
    "HatskitError",
    "IllegalMoveError",
    "InvalidMoveError",
    "Outcome",
    "RecordError",
    "ScoreLine",
    "ScoreSheet",
    "load",
    "new_game",
]


def spec_of(game_id: object) -> GameSpec:
    """The registered game called ``game_id``, or a RecordError naming the choices."""
    if game_id not in GAMES:
        raise RecordError(f"unknown game {game_id!r}; the games are: {', '.join(GAMES)}")
    return GAMES[game_id]  # type: ignore[index]


def new_game(game_id: str, players: int | None = None, seed: int | None = None, **options: Any) -> Game:
    """Start a game; the same seed and options always deal the same game."""
    spec = spec_of(game_id)
    chosen = make_options(spec.options_type, options, game_id)
    seed = new_seed() if seed is None else seed
    state = spec.new_state(players, seed, chosen)
    head = {"game": game_id, "players": len(state.seat_names()), "seed": seed, "options": options_dict(chosen)}
    return Game(spec, head, [state])


def load(source: str | Mapping[str, Any]) -> Game:
    """A game from a saved record (it has "moves") or from a position."""
    data = _as_mapping(source)
    spec = spec_of(data.get("game"))
    if "moves" in data:
        return _replay(spec, data)
    state = spec.load_position(data)
    return Game(spec, {"game": spec.game_id, "start": state.position()}, [state])


def _as_mapping(source: str | Mapping[str, Any]) -> Mapping[str, Any]:
    if isinstance(source, str):
        try:
            source = json.loads(source)
        except json.JSONDecodeError as error:
            raise RecordError(f"the record is not valid JSON: {error}") from None
    if not isinstance(source, Mapping):
        raise RecordError(f"a record or position must be a JSON object, not {type(source).__name__}")
    return source


def _replay(spec: GameSpec, data: Mapping[str, Any]) -> Game:
    moves = data["moves"]
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError("field 'moves' must be a list of move notations")
    game = _start_of_record(spec, data)
    for number, text in enumerate(moves, start=1):
        try:
            game.play(text)
        except HatskitError as error:
            raise RecordError(f"field 'moves': move {number} ({text!r}) does not replay: {error}") from None
    return game


def _start_of_record(spec: GameSpec, data: Mapping[str, Any]) -> Game:
    if "start" in data:
        return load(data["start"])
    seed = data.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError(f"field 'seed' must be a whole number, not {seed!r}")
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise RecordError(f"field 'options' must be an object, not {options!r}")
    try:
        return new_game(spec.game_id, data.get("players"), seed, **options)
    except HatskitError as error:
        raise RecordError(str(error)) from None
