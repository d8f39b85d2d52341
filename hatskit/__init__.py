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
    UsageError,
    brief,
    check_json_text,
    check_json_value,
    make_options,
    new_seed,
    options_dict,
    whole_number,
)
from hatskit.games import hats, hats_off, madder, sombrero

GAMES: dict[str, GameSpec] = {spec.game_id: spec for spec in (hats.SPEC, hats_off.SPEC, madder.SPEC, sombrero.SPEC)}

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
    "UsageError",
    "load",
    "new_game",
]


def spec_of(game_id: object) -> GameSpec:
    """The registered game called ``game_id``, or a RecordError naming the choices."""
    if not isinstance(game_id, str) or game_id not in GAMES:
        raise RecordError(f"unknown game {brief(game_id)}; the games are: {', '.join(GAMES)}")
    return GAMES[game_id]


def new_game(game_id: str, players: int | None = None, seed: int | None = None, **options: Any) -> Game:
    """Start a game; the same seed and options always deal the same game.

    ``seed`` is a whole number from 0 to 2**63 - 1 (a fresh one when left out),
    so the record can hold it and replays the game.
    """
    return _start(spec_of(game_id), players, seed, options)


def _start(spec: GameSpec, players: object, seed: object, options: Mapping[str, Any]) -> Game:
    """A new game of ``spec``, its arguments checked here once for every game (each says how many players it takes)."""
    count = None if players is None else whole_number(players, "players")
    if count is not None and count not in spec.players:
        raise RecordError(f"{spec.title} takes {player_counts(spec)} players, not {count}")
    seed = new_seed() if seed is None else whole_number(seed, "seed")
    check_json_value(options, "the options")
    chosen = make_options(spec.options_type, options, spec.game_id)
    state = spec.new_state(count, seed, chosen)
    head = {"game": spec.game_id, "players": len(state.seat_names()), "seed": seed, "options": options_dict(chosen)}
    return Game(spec, head, [state])


def player_counts(spec: GameSpec) -> str:
    """The player counts a game takes, in words: "2", "3 or 4", "2 to 5"."""
    counts = spec.players
    if len(counts) == 1:
        return str(counts[0])
    if len(counts) == 2:
        return f"{counts[0]} or {counts[1]}"
    return f"{counts[0]} to {counts[-1]}"


def load(source: str | Mapping[str, Any]) -> Game:
    """A game from a saved record (it has "moves") or from a position."""
    data = _as_mapping(source)
    check_json_value(data, "the record")
    spec = spec_of(data.get("game"))
    if "moves" in data:
        return _replay(spec, data)
    state = spec.load_position(data)
    return Game(spec, {"game": spec.game_id, "start": spec.save_position(state)}, [state])


def _as_mapping(source: str | Mapping[str, Any]) -> Mapping[str, Any]:
    if isinstance(source, str):
        check_json_text(source)
        try:
            source = json.loads(source)
        except ValueError as error:  # not JSON, or a number too long to read
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
            raise RecordError(f"field 'moves': move {number} ({brief(text)}) does not replay: {error}") from None
    return game


def _start_of_record(spec: GameSpec, data: Mapping[str, Any]) -> Game:
    """The game a record starts from: its ``start`` position, or a new game from seed, players and options."""
    if "start" in data:
        return _from_start(spec, data)
    seed = whole_number(data.get("seed"), "field 'seed'")
    try:
        return _start(spec, data.get("players"), seed, data.get("options", {}))
    except HatskitError as error:
        raise RecordError(str(error)) from None


def _from_start(spec: GameSpec, data: Mapping[str, Any]) -> Game:
    start = data["start"]
    extra = sorted({"seed", "players", "options"} & set(data))
    if extra:
        raise RecordError(f"a record starts from 'start' or from 'seed' and 'options', not both (also given: {extra})")
    if not isinstance(start, Mapping) or "moves" in start or "start" in start:
        raise RecordError("field 'start' must be a position, not a record or anything else")
    if start.get("game") != spec.game_id:
        raise RecordError(f"field 'start' is a position of {brief(start.get('game'))}, not of {spec.game_id}")
    return load(start)
