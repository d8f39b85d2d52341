"""What the class is sent: walkthrough frames, the teacher's tally and the class list, built in one place.

A student following a walkthrough is sent only:

- the views the teacher allowed: every seat's (``shows == "all"``) or the
  teacher's seat's (``"seat"``), each ``game.view(seat)`` as the engine masks it,
  with that seat's legal moves (which its view already tells);
- the public narration of the move that led to the position shown, the seats
  that may act, the public score sheet and the outcome;
- the open question (its number, ply and seat), and whether the teacher is here.

Never: a view the teacher did not allow, the seed, the deck, the moves'
notation, another student's answer or progress, the tally, the strong bot's
move, any token or the teacher secret. The teacher is sent every seat's view,
the roster, the tally and the class list.

Every student of a walkthrough sees the same thing, so a change builds **one**
student frame (each view computed once, :class:`Shown`) and pushes that same
object to every follower: the server encodes it once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hatskit.core import Game
from tablehost.frames import events_frame, outcome_frame, score_frame
from tablehost.walkthrough import TEACHER, Walkthrough, tally

if TYPE_CHECKING:
    from tablehost.classroom import Student

Push = tuple[str, int, dict[str, Any]]


class Shown:
    """The position the class is shown, with each seat's entry (view and legal moves) computed at most once."""

    def __init__(self, walk: Walkthrough) -> None:
        self.walk = walk
        self.position: Game = walk.position()
        self._entries: dict[int, dict[str, Any]] = {}

    def entry(self, seat: int) -> dict[str, Any]:
        """Seat ``seat``'s view at the position, and its legal moves there (none when it may not act)."""
        if seat not in self._entries:
            legal = self.position.legal_moves(seat) if self.walk.status == "open" else []
            self._entries[seat] = {"seat": seat, "view": self.position.view(seat), "legal": [str(m) for m in legal]}
        return self._entries[seat]


def walk_frame(shown: Shown, role: str) -> dict[str, Any]:
    """The position shown, as ``role`` (``teacher``: every seat; ``student``: the seats the teacher allowed)."""
    walk, position = shown.walk, shown.position
    seats = range(len(walk.game.seat_names)) if role == "teacher" else walk.shown()
    return {
        "type": "walk",
        "code": walk.code,
        "role": role,
        "status": walk.status,
        "game": walk.game.game_id,
        "shows": walk.shows,
        "seat": walk.seat,
        "ply": walk.at,
        "plies": walk.game.ply,
        "acting": list(position.acting),
        "views": [shown.entry(seat) for seat in seats],
        "events": events_frame(position, walk.at - 1, walk.at) if walk.at else [],
        "score": score_frame(position.score()),
        "outcome": outcome_frame(position.outcome()),
        "question": question_entry(walk),
    }


def question_entry(walk: Walkthrough) -> dict[str, Any] | None:
    question = walk.question
    return None if question is None else {"number": question.number, "ply": question.ply, "seat": question.seat}


def walk_pushes(walk: Walkthrough) -> list[Push]:
    """The position shown, to every member a connection holds: one frame for all the students, one for the teacher."""
    shown = Shown(walk)
    pushes = [(walk.code, TEACHER, walk_frame(shown, "teacher"))] if walk.teacher.here else []
    students = [member.index for member in walk.students if member.here]
    if students:
        frame = walk_frame(shown, "student")
        pushes += [(walk.code, index, frame) for index in students]
    return pushes


def joined_frame(walk: Walkthrough, member: int, role: str, token: str | None) -> dict[str, Any]:
    """The reply to walk_open and walk_join: the walkthrough's code, the member number and (once) a class token; to
    the teacher also the game's record (its deal and line) and the ply the class is shown."""
    game = walk.game
    frame = {
        "type": "walk_joined",
        "code": walk.code,
        "member": member,
        "role": role,
        "name": walk.members[member].name,
        "game": game.game_id,
        "players": len(game.seat_names),
        "options": game.head["options"],
        "seat": walk.seat,
        "shows": walk.shows,
        "status": walk.status,
    }
    if role == "teacher":  # the teacher's page, reloaded, deals the same game again and replays its line
        frame["record"], frame["ply"] = game.record(), walk.at
    return frame | ({"token": token} if token is not None else {})


def presence_frame(walk: Walkthrough, role: str) -> dict[str, Any]:
    """Whether the teacher is here (students keep the last position while not); the teacher also gets the roster."""
    frame: dict[str, Any] = {
        "type": "walk_presence",
        "code": walk.code,
        "teacher": walk.teacher.name,
        "teacher_here": walk.teacher.here,
    }
    if role == "teacher":
        frame["students"] = [{"member": m.index, "name": m.name, "here": m.here} for m in walk.students]
    return frame


def presence_pushes(walk: Walkthrough, students_too: bool) -> list[Push]:
    """Presence to the teacher, and to every student when the teacher came or went (one frame for them all)."""
    pushes = [(walk.code, TEACHER, presence_frame(walk, "teacher"))] if walk.teacher.here else []
    if students_too:
        frame = presence_frame(walk, "student")
        pushes += [(walk.code, member.index, frame) for member in walk.students if member.here]
    return pushes


def tally_frame(walk: Walkthrough) -> dict[str, Any] | None:
    """The open question's answers counted, for the teacher; None when no question is open."""
    question = walk.question
    if question is None:
        return None
    choices, rules = tally(walk.game.game_id, question)
    return {
        "type": "walk_tally",
        "code": walk.code,
        "number": question.number,
        "ply": question.ply,
        "seat": question.seat,
        "answered": len(question.answers),
        "following": walk.following(),
        "choices": choices,
        "illegal": sum(rule["count"] for rule in rules),
        "rules": rules,
        "best": question.best,
    }


def walk_entry(walk: Walkthrough) -> dict[str, Any]:
    """One walkthrough in the teacher's list."""
    return {
        "code": walk.code,
        "game": walk.game.game_id,
        "players": len(walk.game.seat_names),
        "seat": walk.seat,
        "shows": walk.shows,
        "ply": walk.at,
        "plies": walk.game.ply,
        "following": walk.following(),
        "teacher_here": walk.teacher.here,
    }


def student_row(student: Student) -> dict[str, Any]:
    """A student's row of the class list: their stars, where they are, and when that last changed."""
    place = student.place
    where = None if place is None else {"page": place.page, "lesson": place.lesson, "step": place.step}
    return {
        "name": student.name,
        "stars": sorted(student.stars),
        "where": None if place is None else where | {"table": place.table},
        "updated": round(student.updated, 3),
    }


def class_frame(students: list[Student], game_order: list[str], watch: int | None = None) -> dict[str, Any]:
    """The class list: a column per lesson or puzzle any student has a star for (by game, then name), a row per
    student in the order they joined."""
    keys = {key for student in students for key in student.stars}
    rank = {game: number for number, game in enumerate(game_order)}
    columns = sorted(keys, key=lambda key: (rank.get(key.split("/")[0], len(rank)), key))
    frame: dict[str, Any] = {"type": "class", "columns": columns, "rows": [student_row(s) for s in students]}
    return frame if watch is None else frame | {"watch": watch}
