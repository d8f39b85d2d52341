"""Puzzles as data: a teacher's "find the move" puzzles read from a JSON file.

A puzzle file is a JSON list; each puzzle is an object with

* ``position``: a position in the game's own format (what ``hatskit.load`` reads),
* ``question``: the sentence the reader sees above the position,
* ``answer``: one move, or a list of moves, in the game's notation; every
  listed move counts as right, any other legal move as "not yet",
* ``explanation``: the sentence shown once the reader finds an answer,
* ``seat`` (optional): the seat the puzzle is shown from, so the other hands
  stay hidden; without it the whole position shows (Sombrero hides nothing),
* ``choices`` (optional): moves offered in a "pick a move" list; they may
  include tempting illegal moves, so only their being text is checked.

``load_puzzles`` checks everything before a notebook shows anything: a bad
file raises ``PuzzleError`` naming the file, the puzzle's number and the
field, and quoting the value, e.g. ``puzzles/hats.json, puzzle 3: 'answer' is
'H9', which is not a move in this position (...)``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hatskit import Game, HatskitError, load

REQUIRED = ("position", "question", "answer", "explanation")
OPTIONAL = ("seat", "choices")


class PuzzleError(HatskitError, ValueError):
    """A puzzle file that cannot be used: the message names the file, puzzle and field."""


@dataclass(frozen=True)
class Puzzle:
    """One checked puzzle: its game at the puzzle's position and the moves that solve it."""

    number: int
    game: Game
    question: str
    answers: tuple[str, ...]
    explanation: str
    seat: int | None = None
    choices: tuple[str, ...] = ()

    def solved_by(self, move: Any) -> bool:
        """Whether the legal ``move`` (notation or move object) is one of the answers."""
        return str(self.game.parse(move)) in self.answers


def load_puzzles(path: str | Path) -> list[Puzzle]:
    """Every puzzle of the file at ``path``, checked; a bad file raises ``PuzzleError``."""
    return read_puzzles(read_text(path), str(path))


def read_text(path: str | Path, error: type[PuzzleError] = PuzzleError) -> str:
    """The text of a teacher's file, or ``error`` saying why it cannot be read."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as problem:
        raise error(f"{path}: cannot be read ({problem.strerror})") from None


def read_puzzles(text: str, source: str = "the puzzle file") -> list[Puzzle]:
    """Every puzzle in the JSON ``text``; ``source`` names the file in error messages."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise PuzzleError(f"{source}: is not valid JSON ({error})") from None
    if not isinstance(data, list) or not data:
        raise PuzzleError(f"{source}: must be a JSON list of puzzles, not {quoted(data)}")
    return [_puzzle(entry, number, f"{source}, puzzle {number}") for number, entry in enumerate(data, 1)]


def _puzzle(entry: Any, number: int, where: str) -> Puzzle:
    """One puzzle object, every field checked."""
    read_object(entry, REQUIRED + OPTIONAL, where)
    missing = [name for name in REQUIRED if name not in entry]
    if missing:
        raise PuzzleError(f"{where}: the field {missing[0]!r} is missing")
    game = read_position(entry["position"], where)
    seat = _seat(entry.get("seat"), game, where)
    return Puzzle(
        number=number,
        game=game,
        question=read_sentence(entry, "question", where),
        answers=_answers(entry["answer"], game, where),
        explanation=read_sentence(entry, "explanation", where),
        seat=seat,
        choices=_choices(entry.get("choices", []), where),
    )


def read_object(entry: Any, allowed: Sequence[str], where: str, error: type[PuzzleError] = PuzzleError) -> None:
    """Check that ``entry`` is a JSON object whose fields are all ``allowed``, or raise ``error`` naming the first."""
    if not isinstance(entry, Mapping):
        raise error(f"{where}: must be a JSON object, not {quoted(entry)}")
    unknown = sorted(set(entry) - set(allowed))
    if unknown:
        raise error(f"{where}: unknown field {unknown[0]!r} (allowed: {', '.join(allowed)})")


def read_position(value: Any, where: str, error: type[PuzzleError] = PuzzleError) -> Game:
    """A game at the unfinished position ``value`` (``hatskit.load``'s format), or ``error`` naming ``where``."""
    if not isinstance(value, Mapping):
        raise error(f"{where}: 'position' must be a JSON object, not {quoted(value)}")
    try:
        game = load(dict(value))
    except (HatskitError, ValueError) as problem:
        raise error(f"{where}: 'position' cannot be loaded: {problem}") from None
    if game.is_over:
        raise error(f"{where}: 'position' is a finished game: there is no move to find")
    return game


def read_sentence(entry: Mapping[str, Any], name: str, where: str, error: type[PuzzleError] = PuzzleError) -> str:
    """The text of field ``name``, or ``error`` when it is missing, empty or not text."""
    value = entry.get(name)
    if not isinstance(value, str) or not value.strip():
        raise error(f"{where}: {name!r} must be a sentence, not {quoted(value)}")
    return value


def _answers(value: Any, game: Game, where: str) -> tuple[str, ...]:
    """The answer moves in the game's own notation, each legal in the position."""
    moves = [value] if isinstance(value, str) else value
    if not isinstance(moves, list) or not moves or not all(isinstance(move, str) for move in moves):
        raise PuzzleError(f"{where}: 'answer' must be a move or a list of moves, not {quoted(value)}")
    for move in moves:
        reason = game.why_illegal(move)
        if reason is not None:
            raise PuzzleError(f"{where}: 'answer' is {move!r}, which is not a move in this position ({reason})")
    return tuple(str(game.parse(move)) for move in moves)


def _seat(value: Any, game: Game, where: str) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value not in game.acting:
        raise PuzzleError(f"{where}: 'seat' is {value!r}, but only seat(s) {list(game.acting)} may move here")
    return value


def _choices(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(move, str) for move in value):
        raise PuzzleError(f"{where}: 'choices' must be a list of moves, not {quoted(value)}")
    return tuple(value)


def quoted(value: Any) -> str:
    """A value quoted briefly for an error message."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."
