"""Lessons as data: a guided first game and small tasks, read from a teacher's JSON file.

A lesson file is a JSON object ``{"game": "<game id>", "lessons": [...]}``.
Each lesson is an object with

* ``id``: a short name made of small letters, digits and dashes (``first-game``);
  the reader's browser remembers its star under ``<game>/<id>``,
* ``title``: the lesson's name in the list of lessons,
* where it starts, one of
  ``deal`` (``{"players": 3, "seed": 1}`` and any rule options: a new game as
  ``hatskit.new_game`` deals it), ``position`` (what ``hatskit.load`` reads) or
  ``puzzle`` (``"../puzzles/hats.json#3"``: puzzle 3 of a puzzle file, its path from the lesson file's folder,
  see :mod:`hatskit.puzzles`; its question, answers and explanation become
  the lesson's one step),
* ``seats`` (optional): who sits where, one ``"reader"`` (the student) and bot
  kinds (``"greedy"``, ...) for the others; by default the student sits in
  the seat that moves first and greedy bots everywhere else,
* ``steps``: what the student does, in order; each step is an object with
  ``say`` (one sentence: what to do now), ``moves`` (the moves that do it, in
  the game's notation; ``*`` and ``?`` stand for any text, so
  ``"Ana:fez@*"`` is a fez played at any time), ``done`` (what just happened
  and why it scored what it did), and optionally ``rule`` (the ruling's id,
  docs/rulings.md), ``why`` (the rule in a sentence or two) and ``point``
  (``false`` for a task the student must find alone: the table does not mark
  the move, as it does for the steps of a guided game; a puzzle's step never
  points),
* ``finish`` (optional): what the student reads when the lesson is done.

Between two steps the other seats' bots play their own moves, as at any
table. :meth:`Lesson.replay` plays a lesson's first steps with the same bots,
so a browser that remembers "step 4" continues there; the tests walk every
lesson to its end the same way. ``load_lessons`` checks everything it can
without playing (fields, the start, the first step's moves) and raises
``LessonError`` naming the file, the lesson, the step and the field.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fnmatch import fnmatchcase
from functools import cache
from pathlib import Path
from typing import Any

from hatskit import Game, HatskitError, new_game
from hatskit.bots import make_bot
from hatskit.puzzles import (
    Puzzle,
    PuzzleError,
    load_puzzles,
    quoted,
    read_object,
    read_position,
    read_sentence,
    read_text,
)

READER = "reader"  # the student's seat in a lesson's "seats"
LESSON_FIELDS = ("id", "title", "deal", "position", "puzzle", "seats", "steps", "finish")
STARTS = ("deal", "position", "puzzle")
STEP_FIELDS = ("say", "moves", "done", "rule", "why", "point")
LESSON_ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
WILDCARDS = re.compile(r"[*?]")

Chooser = Callable[[int, Game], Any]
"""``choose(seat, game) -> move``: a bot's move for ``seat`` (a table's own bots, or :func:`lesson_bots`)."""


PuzzleFiles = Callable[[str], list[Puzzle]]  # a puzzle file's puzzles by its path from the lesson file's folder


class LessonError(PuzzleError):
    """A lesson file that cannot be used: the message names the file, the lesson, the step and the field."""


@dataclass(frozen=True)
class Step:
    """One thing the student does: the instruction, the moves that do it, and what it taught."""

    say: str
    moves: tuple[str, ...]
    done: str
    rule: str = ""
    why: str = ""
    point: bool = True  # the table marks the move (a guided step); a task leaves it to the student

    def accepts(self, game: Game, move: Any) -> bool:
        """Whether the legal ``move`` at ``game``'s position is one this step asks for."""
        played = str(game.parse(move))
        return any(_matches(game, wanted, played) for wanted in self.moves)

    def pointed(self, game: Game, seat: int) -> Any | None:
        """The move to point at: the first of ``seat``'s legal moves this step asks for (None: there is none)."""
        legal = game.legal_moves(seat)
        return next((move for wanted in self.moves for move in legal if _matches(game, wanted, str(move))), None)


@dataclass(frozen=True)
class Lesson:
    """A lesson checked as far as it can be without playing: where it starts, who sits where, its steps."""

    game_id: str
    id: str
    title: str
    start: Callable[[], Game]
    seats: tuple[str, ...]
    steps: tuple[Step, ...]
    finish: str = ""

    @property
    def key(self) -> str:
        """The name the reader's browser keeps this lesson's star under."""
        return f"{self.game_id}/{self.id}"

    @property
    def reader(self) -> int:
        """The student's seat."""
        return self.seats.index(READER)

    def replay(self, game: Game, steps: int, choose: Chooser) -> None:
        """Play the first ``steps`` steps on ``game`` (at the lesson's start), the bots answering through ``choose``.

        Each step plays the move it points at; a step that points at nothing
        raises LessonError, so a lesson whose bots answer otherwise than its
        author thought fails its test, not a student.
        """
        answer_bots(game, self.reader, choose)
        for number, step in enumerate(self.steps[:steps], 1):
            move = step.pointed(game, self.reader) if self.reader in game.acting else None
            if move is None:
                raise LessonError(f"lesson {self.id!r}, step {number}: none of {list(step.moves)} can be played here")
            game.play(move)
            answer_bots(game, self.reader, choose)


def answer_bots(game: Game, reader: int, choose: Chooser) -> None:
    """Let every other seat play until the ``reader`` may act (or the game is over)."""
    while not game.is_over and reader not in game.acting:
        for seat in game.acting:
            if seat in game.acting:
                game.play(choose(seat, game))


def lesson_bots(lesson: Lesson, seed: int = 0) -> Chooser:
    """The lesson's own bots, seeded as a table seeds them (seat ``n`` gets ``seed + n``)."""
    seats = enumerate(lesson.seats)
    bots = {seat: make_bot(lesson.game_id, kind, seed=seed + seat) for seat, kind in seats if kind != READER}
    return lambda seat, game: bots[seat].choose(game.seat_view(seat))


def load_lessons(path: str | Path) -> list[Lesson]:
    """Every lesson of the file at ``path``, checked; a bad file raises ``LessonError``."""
    source = str(path)
    try:
        data = json.loads(read_text(path, LessonError))
    except ValueError as error:
        raise LessonError(f"{source}: is not valid JSON ({error})") from None
    if not isinstance(data, Mapping) or set(data) != {"game", "lessons"}:
        raise LessonError(f'{source}: must be a JSON object with "game" and "lessons", not {quoted(data)}')
    entries = data["lessons"]
    if not isinstance(entries, list) or not entries:
        raise LessonError(f"{source}: 'lessons' must be a list of lessons, not {quoted(entries)}")
    folder = Path(path).parent
    puzzle_files = cache(lambda name: load_puzzles(folder / name))  # each puzzle file read once per lesson file
    lessons = [
        _lesson(entry, data["game"], puzzle_files, f"{source}, lesson {n}") for n, entry in enumerate(entries, 1)
    ]
    ids = [lesson.id for lesson in lessons]
    repeated = next((lesson_id for lesson_id in ids if ids.count(lesson_id) > 1), None)
    if repeated is not None:
        raise LessonError(f"{source}: two lessons have the id {repeated!r}: each needs its own")
    return lessons


def _lesson(entry: Any, game_id: str, puzzle_files: PuzzleFiles, where: str) -> Lesson:
    """One lesson object, every field checked; its first step checked against its start."""
    read_object(entry, LESSON_FIELDS, where, LessonError)
    lesson_id = entry.get("id")
    if not isinstance(lesson_id, str) or not LESSON_ID.fullmatch(lesson_id):
        raise LessonError(f"{where}: 'id' must be small letters, digits and dashes, not {quoted(lesson_id)}")
    title = read_sentence(entry, "title", where, LessonError)
    start, puzzle_steps = _start(entry, game_id, puzzle_files, where)
    game = start()  # a start that cannot make its game fails here, as the file is read
    seats = _seats(entry.get("seats"), game, where)
    steps = puzzle_steps or _steps(entry.get("steps"), where)
    finish = read_sentence(entry, "finish", where, LessonError) if "finish" in entry else ""
    lesson = Lesson(game.game_id, lesson_id, title, start, seats, steps, finish)
    _check_first_step(lesson, game, where)
    return lesson


def _start(
    entry: Mapping[str, Any], game_id: str, puzzle_files: PuzzleFiles, where: str
) -> tuple[Callable[[], Game], tuple[Step, ...]]:
    """How the lesson's game starts (a fresh game every call), and the steps a puzzle brings with it."""
    given = [name for name in STARTS if name in entry]
    if len(given) != 1:
        raise LessonError(f"{where}: needs exactly one of {', '.join(STARTS)} (where the lesson starts), not {given}")
    if "deal" in entry:
        return _dealer(entry["deal"], game_id, where), ()
    if "position" in entry:
        position = dict(entry["position"]) if isinstance(entry["position"], Mapping) else entry["position"]
        return lambda: read_position(position, where, LessonError), ()
    return _puzzle(entry["puzzle"], puzzle_files, where)


def _dealer(deal: Any, game_id: str, where: str) -> Callable[[], Game]:
    if not isinstance(deal, Mapping):
        raise LessonError(
            f'{where}: \'deal\' must be a JSON object such as {{"players": 3, "seed": 1}}, not {quoted(deal)}'
        )
    settings = dict(deal)

    def deal_game() -> Game:
        try:
            return new_game(game_id, **settings)
        except (HatskitError, TypeError) as error:
            raise LessonError(f"{where}: 'deal' cannot start a game: {error}") from None

    return deal_game


def _puzzle(value: Any, puzzle_files: PuzzleFiles, where: str) -> tuple[Callable[[], Game], tuple[Step, ...]]:
    """A puzzle ("../puzzles/hats.json#3") as a start and one step."""
    file_name, _, number = value.partition("#") if isinstance(value, str) else ("", "", "")
    try:
        puzzles = puzzle_files(file_name) if file_name and number.isdigit() else []
    except PuzzleError as error:
        raise LessonError(f"{where}: 'puzzle': {error}") from None
    if not 1 <= int(number or 0) <= len(puzzles):
        raise LessonError(f"{where}: 'puzzle' must name a puzzle as \"../puzzles/hats.json#3\", not {quoted(value)}")
    puzzle = puzzles[int(number) - 1]
    step = Step(puzzle.question, puzzle.answers, puzzle.explanation, point=False)
    return lambda: puzzle.game.state_at(puzzle.game.ply), (step,)


def _seats(value: Any, game: Game, where: str) -> tuple[str, ...]:
    """The seats as given, or the student in the first acting seat and greedy bots elsewhere."""
    players = len(game.seat_names)
    if value is None:
        first = game.acting[0]
        return tuple(READER if seat == first else "greedy" for seat in range(players))
    if not isinstance(value, list) or len(value) != players or value.count(READER) != 1:
        raise LessonError(f"{where}: 'seats' must list {players} seats, one of them {READER!r}, not {quoted(value)}")
    for seat, kind in enumerate(value):
        if kind != READER:
            try:
                make_bot(game.game_id, kind, seed=seat)
            except HatskitError as error:
                raise LessonError(f"{where}: 'seats': {error}") from None
    return tuple(value)


def _steps(value: Any, where: str) -> tuple[Step, ...]:
    if not isinstance(value, list) or not value:
        raise LessonError(f"{where}: 'steps' must be a list of steps, not {quoted(value)}")
    return tuple(_step(entry, f"{where}, step {number}") for number, entry in enumerate(value, 1))


def _step(entry: Any, where: str) -> Step:
    read_object(entry, STEP_FIELDS, where, LessonError)
    moves = entry.get("moves")
    if not isinstance(moves, list) or not moves or not all(isinstance(move, str) and move for move in moves):
        raise LessonError(f"{where}: 'moves' must be a list of moves, not {quoted(moves)}")
    optional: dict[str, Any] = {
        name: read_sentence(entry, name, where, LessonError) for name in ("rule", "why") if name in entry
    }
    if not isinstance(entry.get("point", True), bool):
        raise LessonError(f"{where}: 'point' must be true or false, not {quoted(entry['point'])}")
    said = read_sentence(entry, "say", where, LessonError)
    done = read_sentence(entry, "done", where, LessonError)
    return Step(said, tuple(moves), done, point=entry.get("point", True), **optional)


def _check_first_step(lesson: Lesson, game: Game, where: str) -> None:
    """The first step must be playable where the lesson starts, when the student moves first."""
    if lesson.reader in game.acting and lesson.steps[0].pointed(game, lesson.reader) is None:
        moves = list(lesson.steps[0].moves)
        raise LessonError(f"{where}, step 1: 'moves' is {quoted(moves)}, and none of them can be played at the start")


def _matches(game: Game, wanted: str, played: str) -> bool:
    """Whether the move written ``played`` is the move (or fits the pattern) ``wanted``."""
    if WILDCARDS.search(wanted):
        return fnmatchcase(played, wanted)
    try:
        return str(game.parse(wanted)) == played
    except (HatskitError, ValueError):
        return False
