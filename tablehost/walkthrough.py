"""A walkthrough the teacher leads, in memory: its game, the ply the class is shown, who follows, the open question.

The teacher plays every seat's moves on a hatskit :class:`~hatskit.core.Game`
held here, with the host's rules, and may step back to an earlier ply (the
class follows); a move played there starts a new line from it. The class is
shown either every seat's view (``shows == "all"``) or only the teacher's seat's
(``"seat"``): a student is never sent a view the teacher did not allow, so a
walkthrough of a hidden hand shows the seat's view, never the position.

At a position the teacher may ask "your move?" (a :class:`Question`) about a
seat the class is shown and that may act there. Each student tries one move;
:func:`judge` says whether the rules allow it, and if not, the sentence and the
rule id the engine gave (``why_illegal``, "... (H2)"). :func:`tally` counts the
answers for the teacher. This module does no I/O: ``classroom.py`` stores and
tells; ``classframes.py`` builds the frames.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import hatskit
from hatskit.bots import make_bot
from hatskit.core import Game, InvalidMoveError, brief, check_move_text
from hatskit.drawing import without_rules
from tablehost.tables import MoveRefused, NotNow, NotYourSeat

SHOWS = ("all", "seat")  # every seat's view, or the teacher's seat's only
TEACHER = 0  # the teacher's member number in every walkthrough; students follow from 1
BEST_LEVEL = "strong"  # the bot whose move the teacher's tally shows
RACE_TIME = re.compile(r"@[0-9.]+$")  # a Hats Off! move's reaction time, left out when answers are counted


@dataclass(frozen=True)
class Answer:
    """A student's one try at a question: the move (notation), and for a move the rules refuse, why (the engine's
    sentence) and the rule id in it (None for a legal move, or a refusal that names no rule)."""

    name: str
    move: str
    why: str | None = None
    rule: str | None = None

    @property
    def legal(self) -> bool:
        return self.why is None


@dataclass
class Question:
    """The teacher's "your move?": the ply and seat it asks about, each student's answer, the strong bot's move."""

    number: int
    ply: int
    seat: int
    answers: dict[str, Answer] = field(default_factory=dict)  # by the student's name, folded (one try each)
    best: str | None = None  # None while the bot thinks


@dataclass
class Member:
    """One follower of a walkthrough (member 0 is the teacher): their name and whether a connection holds them."""

    index: int
    name: str
    here: bool = False


@dataclass
class Walkthrough:
    """A walkthrough: its code, game, the teacher's seat, what the class is shown, the ply shown and who follows."""

    code: str
    game: Game
    seat: int
    shows: str
    members: list[Member]
    at: int = 0
    question: Question | None = None
    asked: int = 0  # questions asked so far
    status: str = "open"  # open, closed
    created: float = field(default_factory=time.time)

    @property
    def teacher(self) -> Member:
        return self.members[TEACHER]

    @property
    def students(self) -> list[Member]:
        return self.members[TEACHER + 1 :]

    def position(self) -> Game:
        """The game as the class is shown it: at ply ``at`` (a separate object when the teacher stepped back)."""
        return self.game if self.at == self.game.ply else self.game.state_at(self.at)

    def shown(self) -> list[int]:
        """The seats whose views the class is sent."""
        return list(range(len(self.game.seat_names))) if self.shows == "all" else [self.seat]

    def member_named(self, name: str) -> Member | None:
        """The student following under ``name`` (names compare without case)."""
        return next((m for m in self.students if m.name.casefold() == name.casefold()), None)

    def following(self) -> int:
        """How many students a connection holds now."""
        return sum(1 for member in self.students if member.here)


def parse_move(game: Game, move: object) -> Any:
    """``move`` read as the game's notation, or MoveRefused quoting it (nothing is counted for text unread)."""
    if not isinstance(move, str):
        raise MoveRefused(f"a move is its notation as text, not {brief(move)}")
    try:
        return game.parse(check_move_text(move))
    except InvalidMoveError as error:
        raise MoveRefused(str(error)) from None


def teacher_move(position: Game, move: object) -> Any:
    """The teacher's move at ``position``, for whichever seat may act, or the sentence that refuses it."""
    if position.is_over:
        raise NotNow(f"the walkthrough's game is over at this ply: {brief(move)} was not played; step back first")
    parsed = parse_move(position, move)
    reason = position.why_illegal(parsed)
    if reason is not None:
        raise MoveRefused(f"{brief(move)} is not allowed: {reason}", reason)
    return parsed


def judge(position: Game, seat: int, name: str, move: object) -> Answer:
    """A student's try for ``seat`` at ``position``: legal, or refused by the rules (counted, with the rule).

    Text that is not a move of the game, or a move for another seat, is refused in a sentence and not counted.
    """
    parsed = parse_move(position, move)
    mover = position.state.seat_of(parsed) if position.spec.simultaneous else seat
    if mover != seat:
        raise NotYourSeat(f"{brief(move)} is a move for seat {brief(mover)}; the question asks seat {seat}'s move")
    reason = position.why_illegal(parsed)
    if reason is None:
        return Answer(name, str(parsed))
    rules = without_rules(reason)[1]
    return Answer(name, str(parsed), reason, rules[0] if rules else None)


def counted_as(game_id: str, move: str) -> str:
    """The move a try counts as: its notation, without a race move's reaction time (Hats Off!)."""
    return RACE_TIME.sub("", move) if game_id == "hats-off" else move


def tally(game_id: str, question: Question) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The answers counted: each move chosen (most first) with whether it is legal and why not, and whether it is
    the strong bot's move, and the illegal tries by the rule that stopped them (most first; ``rule`` None for a
    refusal that names none)."""
    answers = list(question.answers.values())
    counts = Counter(counted_as(game_id, answer.move) for answer in answers)
    first = {counted_as(game_id, answer.move): answer for answer in reversed(answers)}
    best = None if question.best is None else counted_as(game_id, question.best)
    choices = [
        {"move": move, "count": count, "legal": first[move].legal, "rule": first[move].rule, "why": first[move].why}
        | {"best": move == best}
        for move, count in counts.most_common()
    ]
    rules = Counter(answer.rule for answer in answers if not answer.legal)
    return choices, [{"rule": rule, "count": count} for rule, count in rules.most_common()]


@dataclass(frozen=True)
class BestTurn:
    """The strong bot's move to find for a question, as plain data: the walkthrough's record up to the question's
    ply, the asked seat and the bot's seed. ``choose`` replays the record and asks the bot with that seat's
    ``SeatView`` (it sees what the seat sees); the server runs it in a process of its own, so a second of
    thinking takes no time from the loop (a thread would hold the GIL the loop needs for every request)."""

    code: str
    number: int
    record: dict[str, Any]
    seat: int
    seed: int

    def choose(self) -> str:
        return best_move(self.record, self.seat, self.seed)


def best_move(record: dict[str, Any], seat: int, seed: int) -> str:
    """The strong bot's move for ``seat`` at the end of ``record`` (a module-level function: a process pool's)."""
    game = hatskit.load(record)
    return str(make_bot(game.game_id, BEST_LEVEL, seed).choose(game.seat_view(seat)))
