"""The class together, in process: walkthroughs the teacher leads, and the class's stars and places.

    >>> host = TableHost()                                       # host.classroom is a Classroom on host.store
    >>> teacher = Who(secret=host.classroom.teacher_link())      # a local host's teacher secret (printed at start)
    >>> code = host.classroom.walk_open(teacher, "hats", 3, shows="seat").reply["code"]
    >>> maya = Who(host.classroom.walk_join(Who(), code, "Maya").reply["token"])   # a class token, sent once
    >>> host.classroom.walk_move(teacher, code, "♥5@2")         # every follower is sent the position
    >>> host.classroom.walk_ask(teacher, code)                  # "your move?" about the seat that acts
    >>> host.classroom.walk_try(maya, code, "Maya", 1, "★1@3")  # judged; the teacher's tally counts it
    >>> host.classroom.think(code)                              # the strong bot's move for the tally
    >>> host.classroom.class_stars(maya, "Maya", "hats", ["hats/first-game"])
    >>> host.classroom.class_list(teacher)                      # a row per student, live from then on

Every call returns a :class:`~tablehost.tables.Sent` (the reply, and pushes
addressed ``(code, member, frame)``: member 0 is a walkthrough's teacher,
students follow from 1; the class list's watchers are ``(CLASS_WATCH, n)``) or
raises a :class:`~tablehost.tables.TableError` whose sentence quotes the input,
having changed nothing. Each change is committed to the store before the call
returns, as a table's moves are.

**Who is who.** The teacher-only calls (opening and leading a walkthrough,
listing or clearing the class) need, on a local host, the teacher secret in
``Who.secret`` (:meth:`Classroom.teacher_link` draws it; only its SHA-256 is
kept, in the store, so the printed link holds across restarts), and on a hub a
connection whose user the hub counts a teacher (``Who.teacher``:
``auth.is_teacher``). A student is a name in the class: on a local host the
first ``class_join`` or ``walk_join`` under a new name gives a **class token**
(kept as its SHA-256), which every later request under that name must carry;
on a hub the hub user is the name. So a student's answers and stars cannot be
sent under another student's name. One class per host.
"""

from __future__ import annotations

import hmac
import itertools
import secrets
import time
from collections.abc import Mapping
from typing import Any

import hatskit
from hatskit.core import MAX_INT, Game, HatskitError, brief
from hatskit.lessons import LESSON_ID
from tablehost.auth import TEACHERS_GROUP, TeacherKey
from tablehost.classframes import (
    Push,
    Shown,
    class_frame,
    joined_frame,
    presence_frame,
    presence_pushes,
    student_row,
    tally_frame,
    walk_entry,
    walk_frame,
    walk_pushes,
)
from tablehost.store import AnswerRow, PlaceRow, QuestionRow, Store, StoredWalk, Student, WalkRow
from tablehost.tables import (
    MAX_NAME,
    BadRequest,
    NotNow,
    NotYourSeat,
    Sent,
    UnknownTable,
    Who,
    _saved,
    _whole,
    hash_token,
    new_code,
    read_code,
    read_name,
)
from tablehost.walkthrough import (
    SHOWS,
    TEACHER,
    Answer,
    BestTurn,
    Member,
    Question,
    Walkthrough,
    judge,
    teacher_move,
)

CLASS_WATCH = "#class"  # the address of the class list's watchers (no table or walkthrough code has a '#')
ROLES = ("student", "teacher")
DEFAULT_TEACHER = "Teacher"  # a local teacher's name in presence when they type none
MAX_STARS = 100  # stars in one game's report
MAX_PAGE = 64  # characters in a page's name
MAX_STEP = 1000
MAX_STUDENTS = 500  # names in one class (a local host lets anybody join one): the teacher clears the class


class NotTeacher(NotYourSeat):
    """A teacher's request from someone else: no teacher secret, a forged one, a hub user who is no teacher."""


class NotYourName(NotYourSeat):
    """A student's request under a name the class token (or the hub user) does not hold, or a name not in the class."""


class UnknownWalkthrough(UnknownTable):
    """A code that no open walkthrough has (counted as a guessed code, as a table's)."""


class Classroom:
    """The walkthroughs and the class of one host, written through to its :class:`Store` when given one."""

    def __init__(self, store: Store | None = None, *, codes: set[str] | None = None) -> None:
        self.store = store
        self.codes = codes if codes is not None else set()  # every code given, tables' too (shared with the host)
        self.walks: dict[str, Walkthrough] = {}
        self.students: dict[str, Student] = {}  # by name, folded
        self.watchers: set[int] = set()
        self.key = TeacherKey()
        self.key_drawn: float | None = None  # when the teacher secret was drawn (seconds since the epoch)
        self.skipped: dict[str, str] = {}  # walkthroughs that did not replay at loading, and why
        self._watches = itertools.count(1)
        if store is not None:
            self._load(store)

    # -- the teacher ---------------------------------------------------------------------

    def teacher_link(self, new: bool = False) -> str | None:
        """The teacher secret to print at the start: drawn now when none is kept (or ``new``: the old one stops
        holding), its SHA-256 stored; None when the store keeps one drawn before (its link still holds)."""
        if self.key.digest is not None and not new:
            return None
        key = TeacherKey()
        secret = key.draw()
        if self.store is not None:
            _saved(self.store.set_teacher_hash, key.digest)
        self.key, self.key_drawn = key, time.time()
        return secret

    def _teacher(self, who: Who) -> str:
        """The teacher's name, or NotTeacher: a hub user the hub counts a teacher, or the local teacher secret."""
        if who.user is not None:
            if not who.teacher:
                raise NotTeacher(
                    f"{brief(who.user)} is not a teacher on this hub: a hub admin or a member of the "
                    f"{TEACHERS_GROUP!r} group leads the class"
                )
            return who.user
        if not isinstance(who.secret, str) or not who.secret:
            raise NotTeacher(
                f"only the teacher may do this, with the secret of the teacher's link, not {brief(who.secret)}"
            )
        if not self.key.holds(who.secret):
            raise NotTeacher(
                f"the teacher secret {brief(who.secret[:6] + '…')} is not this host's: "
                "the teacher's link is printed when the host starts"
            )
        return DEFAULT_TEACHER

    # -- walkthroughs: the teacher leads -----------------------------------------------

    def walk_open(
        self,
        who: Who,
        game_id: object,
        players: object = None,
        options: object = None,
        seat: object = 0,
        shows: object = "all",
        name: object = None,
        seed: object = None,
    ) -> Sent:
        """A new walkthrough of ``game_id`` (dealt from a secret seed unless ``seed`` is given), the teacher at
        ``seat``; the class is shown every seat's view (``all``) or that seat's only (``seat``)."""
        teacher = self._teacher(who)
        typed = read_name(teacher[:MAX_NAME] if name is None else name)  # a hub user name may be longer than a name
        game = _walk_game(game_id, players, options, seed)
        at = _whole(seat, "seat", len(game.seat_names) - 1)
        walk = Walkthrough(new_code(self.codes), game, at, _choice(shows, SHOWS, "shows"), [Member(TEACHER, typed)])
        if self.store is not None:
            _saved(self.store.add_walk, walk_row(walk))
        self.walks[walk.code] = walk
        self.codes.add(walk.code)
        walk.teacher.here = True
        return Sent(joined_frame(walk, TEACHER, "teacher", None), walk_pushes(walk) + presence_pushes(walk, False))

    def walk_move(self, who: Who, code: object, move: object) -> Sent:
        """The teacher plays ``move`` (any seat's) at the ply shown; a move played after stepping back starts a new
        line from there (the same move as the line's next only steps on). Every follower is sent the position."""
        walk = self._led(who, code)
        position = walk.position()
        parsed = teacher_move(position, move)
        if walk.at < walk.game.ply and str(walk.game.moves[walk.at]) == str(parsed):
            return self._show(walk, walk.at + 1, {"type": "walk_moved", "code": walk.code, "move": str(parsed)})
        if self.store is not None:
            _saved(self.store.walk_move, walk.code, walk.at + 1, str(parsed))
        position.push(parsed)
        walk.game, walk.at, walk.question = position, position.ply, None
        reply = {"type": "walk_moved", "code": walk.code, "ply": walk.at, "plies": walk.game.ply, "move": str(parsed)}
        return Sent(reply, walk_pushes(walk))

    def walk_step(self, who: Who, code: object, ply: object) -> Sent:
        """The teacher shows ply ``ply`` of the walkthrough's line (back or forward); the class follows."""
        walk = self._led(who, code)
        at = _whole(ply, "ply", walk.game.ply)
        return self._show(walk, at, {"type": "walk_stepped", "code": walk.code})

    def walk_ask(self, who: Who, code: object, seat: object = None) -> Sent:
        """Ask "your move?" at the ply shown, about ``seat`` (by default the one seat the class is shown that acts)."""
        walk = self._led(who, code)
        question = Question(walk.asked + 1, walk.at, _asked_seat(walk, walk.position(), seat))
        if self.store is not None:
            _saved(self.store.add_question, walk.code, QuestionRow(question.number, question.ply, question.seat))
        walk.question, walk.asked = question, question.number
        reply = {"type": "walk_asked", "code": walk.code, "number": question.number, "ply": walk.at}
        return Sent(reply | {"seat": question.seat}, walk_pushes(walk) + self._tally_push(walk))

    def walk_close(self, who: Who, code: object) -> Sent:
        """The teacher ends a walkthrough: its followers are told (``closed``); the file keeps it."""
        walk = self._led(who, code)
        if self.store is not None:
            _saved(self.store.set_walk_status, walk.code, "closed")
        walk.status, walk.question = "closed", None
        del self.walks[walk.code]
        told = {"type": "closed", "code": walk.code, "message": f"{walk.teacher.name} ended walkthrough {walk.code}"}
        return Sent({"type": "walk_closed", "code": walk.code}, [(walk.code, m.index, told) for m in walk.students])

    def walk_list(self, who: Who) -> Sent:
        """The open walkthroughs, for a teacher (after a restart, their codes)."""
        self._teacher(who)
        return Sent({"type": "walks", "walks": [walk_entry(walk) for walk in self.walks.values()]})

    # -- walkthroughs: the class follows -----------------------------------------------

    def walk_join(self, who: Who, code: object, name: object = None, role: object = "student") -> Sent:
        """Follow a walkthrough (again, after a reconnection): a student under their class name (a new name joins
        the class and is given its token), or the teacher (``role``: ``teacher``) coming back to lead it."""
        walk = self._walk(code)
        if _choice(role, ROLES, "role") == "teacher":
            self._teacher(who)
            return self._arrive(walk, walk.teacher, None)
        student, token = self._student(who, name, register=True)
        self._enrol(student, walk)
        return self._arrive(walk, next(m for m in walk.students if m.name == student.name), token)

    def walk_state(self, who: Who, code: object, name: object = None, role: object = "student") -> Sent:
        """The position the class is shown now, again (a student back from a line of their own)."""
        walk = self._walk(code)
        member = self._member_of(walk, who, name, role)
        return Sent(walk_frame(Shown(walk), "teacher" if member.index == TEACHER else "student"))

    def walk_try(self, who: Who, code: object, name: object, number: object, move: object) -> Sent:
        """A student's one try at the open question (``number``: the question meant; None for the open one)."""
        walk = self._walk(code)
        member = self._member_of(walk, who, name, "student")
        question = _open_question(walk, number)
        earlier = question.answers.get(member.name.casefold())
        if earlier is not None:
            raise NotNow(
                f"{member.name} tried {earlier.move} at question {question.number} already, so {brief(move)} "
                "is not counted: one try a question"
            )
        answer = judge(walk.position(), question.seat, member.name, move)
        if self.store is not None:
            row = AnswerRow(answer.name, answer.move, answer.rule, answer.why)
            _saved(self.store.add_answer, walk.code, question.number, row)
        question.answers[member.name.casefold()] = answer
        reply = {"type": "walk_tried", "code": walk.code, "number": question.number, "move": answer.move}
        return Sent(reply | {"legal": answer.legal, "rule": answer.rule, "why": answer.why}, self._tally_push(walk))

    def walk_leave(self, who: Who, code: object, name: object = None, role: object = "student") -> Sent:
        """Stop following (a student) or leave the class at the last position (the teacher: students are told)."""
        walk = self._walk(code)
        member = self._member_of(walk, who, name, role)
        member.here = False
        reply = {"type": "walk_left", "code": walk.code, "member": member.index}
        return Sent(reply, presence_pushes(walk, students_too=member.index == TEACHER))

    def connected(self, code: str, index: int, now: bool) -> Sent:
        """A member's connection opened or closed (the server says which); a class list watcher's closed."""
        if code == CLASS_WATCH:
            if not now:
                self.watchers.discard(index)
            return Sent()
        walk = self.walks.get(code)
        if walk is None or not 0 <= index < len(walk.members):
            return Sent()
        walk.members[index].here = now
        return Sent(pushes=presence_pushes(walk, students_too=index == TEACHER))

    # -- the strong bot's move for the tally ---------------------------------------------

    def best_turns(self, code: str) -> list[BestTurn]:
        """The strong bot's move to find for the open question, if not found yet: the bot sees only the asked seat,
        and may think in another process."""
        walk = self.walks.get(code)
        question = None if walk is None else walk.question
        if walk is None or question is None or question.best is not None:
            return []
        record = walk.game.state_at(question.ply).record()
        return [BestTurn(code, question.number, record, question.seat, secrets.randbelow(MAX_INT))]

    def best_found(self, turn: BestTurn, move: str) -> Sent:
        """The bot's move, put in the tally if its question is still open (the class may have moved on)."""
        walk = self.walks.get(turn.code)
        if walk is None or walk.question is None or walk.question.number != turn.number:
            return Sent()
        if self.store is not None:
            _saved(self.store.set_best, walk.code, turn.number, move)
        walk.question.best = move
        return Sent(pushes=self._tally_push(walk))

    def think(self, code: str) -> Sent:
        """Find the strong bot's moves here and now (in process; the server thinks in a process of its own)."""
        sent = Sent()
        for turn in self.best_turns(code):
            sent.add(self.best_found(turn, turn.choose()))
        return sent

    # -- the class's progress ------------------------------------------------------------

    def class_join(self, who: Who, name: object = None) -> Sent:
        """Join the class under a name (a new name is given its class token, once), or prove it again."""
        student, token = self._student(who, name, register=True)
        self._enrol(student)
        reply = {"type": "class_joined", "name": student.name} | ({"token": token} if token is not None else {})
        return Sent(reply, self._row_pushes(student))

    def class_stars(self, who: Who, name: object, game: object, stars: object) -> Sent:
        """A student's stars for one game (lesson and puzzle keys, ``hats/first-game``), replacing the host's."""
        student, _ = self._student(who, name)
        game_id = _game_id(game)
        keys = _star_keys(game_id, stars)
        if self.store is not None:
            _saved(self.store.set_stars, student.name, game_id, sorted(keys))
        student.stars = {key for key in student.stars if not key.startswith(f"{game_id}/")} | keys
        return self._saved(student)

    def class_where(
        self, who: Who, name: object, page: object, lesson: object = None, step: object = None, table: object = None
    ) -> Sent:
        """Where a student is: the page, the lesson and step, the table's (or walkthrough's) code."""
        student, _ = self._student(who, name)
        place = _place(page, lesson, step, table)
        if self.store is not None:
            _saved(self.store.set_place, student.name, place)
        student.place = place
        return self._saved(student)

    def class_list(self, who: Who) -> Sent:
        """The class for the teacher: a row per student, a column per lesson or puzzle; every change is then
        pushed to this watcher (``watch``) as a ``class_row``."""
        self._teacher(who)
        watch = next(self._watches)
        self.watchers.add(watch)
        return Sent(class_frame(list(self.students.values()), list(hatskit.GAMES), watch))

    def class_clear(self, who: Who, name: object = None) -> Sent:
        """The teacher forgets one student (``name``) or the whole class: names, tokens, stars and places."""
        self._teacher(who)
        names = [s.name for s in self.students.values()] if name is None else [self._known(name).name]
        if self.store is not None:
            _saved(self.store.clear_students, None if name is None else names)
        for cleared in names:
            del self.students[cleared.casefold()]
        frame = class_frame(list(self.students.values()), list(hatskit.GAMES))
        return Sent({"type": "class_cleared", "names": names}, [(CLASS_WATCH, w, frame) for w in sorted(self.watchers)])

    # -- inside ------------------------------------------------------------------------

    def _walk(self, code: object) -> Walkthrough:
        try:
            text = read_code(code)
        except UnknownTable:
            raise UnknownWalkthrough(
                f"{brief(code)} is not a walkthrough code: a code is 5 letters, such as KBQTZ"
            ) from None
        walk = self.walks.get(text)
        if walk is None:
            raise UnknownWalkthrough(f"no walkthrough has the code {text}")
        return walk

    def _led(self, who: Who, code: object) -> Walkthrough:
        """The walkthrough, for its teacher only."""
        walk = self._walk(code)
        self._teacher(who)
        return walk

    def _show(self, walk: Walkthrough, at: int, reply: dict[str, Any]) -> Sent:
        """Show the class ply ``at`` of the line (the open question closes)."""
        if self.store is not None:
            _saved(self.store.walk_step, walk.code, at)
        walk.at, walk.question = at, None
        return Sent(reply | {"ply": at, "plies": walk.game.ply}, walk_pushes(walk))

    def _arrive(self, walk: Walkthrough, member: Member, token: str | None) -> Sent:
        """A member is here: their view of the position and the presence; the teacher also gets the tally."""
        member.here = True
        role = "teacher" if member.index == TEACHER else "student"
        pushes = [(walk.code, member.index, walk_frame(Shown(walk), role))]
        if role == "teacher":
            pushes += presence_pushes(walk, students_too=True) + self._tally_push(walk)
        else:
            pushes += presence_pushes(walk, students_too=False)
            pushes.append((walk.code, member.index, presence_frame(walk, "student")))
        return Sent(joined_frame(walk, member.index, role, token), pushes)

    def _enrol(self, student: Student, walk: Walkthrough | None = None) -> None:
        """Keep a student new to the class, and make them a follower of ``walk`` if they are not yet: stored in one
        transaction (a name is never kept without its token), then kept in memory."""
        key = student.name.casefold()
        new = self.students.get(key) is not student
        member = None if walk is None else walk.member_named(student.name)
        follower = Member(len(walk.members), student.name) if walk is not None and member is None else None
        if self.store is not None and (new or follower is not None):
            joined = (student.name, student.token_hash, student.user) if new else None
            follows = None if walk is None or follower is None else (walk.code, follower.index, follower.name)
            _saved(self.store.enrol, joined, follows)
        self.students[key] = student
        if walk is not None and follower is not None:
            walk.members.append(follower)

    def _member_of(self, walk: Walkthrough, who: Who, name: object, role: object) -> Member:
        """The member asking: the teacher (``role``: ``teacher``), or a student following under their own name."""
        if _choice(role, ROLES, "role") == "teacher":
            self._teacher(who)
            return walk.teacher
        student, _ = self._student(who, name)
        member = walk.member_named(student.name)
        if member is None:
            raise NotYourName(f"{student.name} does not follow walkthrough {walk.code}: join it first")
        return member

    def _student(self, who: Who, name: object, register: bool = False) -> tuple[Student, str | None]:
        """The student asking, proved by their class token (or hub user), and a new token when ``register`` joined
        a new name to the class. A name held by another token is refused."""
        if who.user is not None:
            return self._hub_student(who.user, name, register)
        typed = read_name(name)
        student = self.students.get(typed.casefold())
        if student is None:
            if not register:
                raise NotYourName(f"{brief(typed)} is not in the class: join it first (class_join or walk_join)")
            return self._register(typed, None)
        if not isinstance(who.token, str) or not who.token:
            raise NotYourName(
                f"{brief(typed)} is in the class already: send the class token given to that name "
                "(on a new device, the teacher may clear the name)",
                f"somebody in this class uses the name {typed} already: type another name (if it is you, on"
                " another computer, your teacher can clear the name)",
            )
        if student.token_hash is None or not hmac.compare_digest(student.token_hash, hash_token(who.token)):
            raise NotYourName(
                f"the class token {brief(who.token[:6] + '…')} is not {typed}'s: send under your own name",
                f"this browser joined the class under another name, not {typed}: type that name",
            )
        return student, None

    def _hub_student(self, user: str, name: object, register: bool) -> tuple[Student, str | None]:
        """On a hub the student is their hub user; a request under another name is refused."""
        if name is not None and (not isinstance(name, str) or name.strip().casefold() != user.casefold()):
            raise NotYourName(f"the hub user {brief(user)} sends under their own name, not {brief(name)}")
        student = self.students.get(user.casefold())
        if student is not None:
            return student, None
        if not register:
            raise NotYourName(f"{brief(user)} is not in the class: join it first (class_join or walk_join)")
        return self._register(user, user)

    def _register(self, name: str, user: str | None) -> tuple[Student, str | None]:
        """A student new to the class (kept by ``_enrol``), with a class token unless a hub user proves the name."""
        if len(self.students) >= MAX_STUDENTS:
            raise NotNow(
                f"the class holds {len(self.students)} students, all it may: "
                f"{brief(name)} waits for the teacher to clear it"
            )
        token = None if user is not None else secrets.token_urlsafe(32)
        return Student(name, None if token is None else hash_token(token), user), token

    def _known(self, name: object) -> Student:
        student = self.students.get(name.strip().casefold()) if isinstance(name, str) else None
        if student is None:
            raise BadRequest(f"{brief(name)} is not in the class")
        return student

    def _saved(self, student: Student) -> Sent:
        """A student's progress saved: their own row back, and the row to the teacher's class list."""
        student.updated = time.time()
        return Sent({"type": "class_saved", "row": student_row(student)}, self._row_pushes(student))

    def _row_pushes(self, student: Student) -> list[Push]:
        frame = {"type": "class_row", "row": student_row(student)}
        return [(CLASS_WATCH, watch, frame) for watch in sorted(self.watchers)]

    def _tally_push(self, walk: Walkthrough) -> list[Push]:
        frame = tally_frame(walk)
        return [(walk.code, TEACHER, frame)] if frame is not None and walk.teacher.here else []

    def _load(self, store: Store) -> None:
        """The teacher secret's hash, the class, and every open walkthrough replayed (one that does not replay is
        skipped and named in ``skipped``)."""
        kept = store.teacher_hash()
        if kept is not None:
            self.key, self.key_drawn = TeacherKey(kept[0]), kept[1]
        for row in store.load_class():
            self.students[row.name.casefold()] = row
        for entry in store.load_walks():
            try:
                self.walks[entry.row.code] = rebuild_walk(entry)
            except (HatskitError, ValueError, KeyError, TypeError) as error:
                self.skipped[entry.row.code] = str(error)


def walk_row(walk: Walkthrough) -> WalkRow:
    """A walkthrough's head as the store keeps it."""
    game = walk.game
    head = game.head
    return WalkRow(
        code=walk.code,
        game=game.game_id,
        players=len(game.seat_names),
        seed=head["seed"],
        options=head["options"],
        seat=walk.seat,
        shows=walk.shows,
        teacher=walk.teacher.name,
        status=walk.status,
        at=walk.at,
        created=walk.created,
    )


def rebuild_walk(entry: StoredWalk) -> Walkthrough:
    """A walkthrough from the store: its game dealt again and its line replayed, its open question and answers."""
    row = entry.row
    game = hatskit.new_game(row.game, row.players, row.seed, **row.options)
    for move in entry.moves:
        game.play(move)
    members = [Member(TEACHER, row.teacher)] + [Member(i, name) for i, name in enumerate(entry.members, 1)]
    walk = Walkthrough(row.code, game, row.seat, row.shows, members, min(row.at, game.ply), None, entry.asked)
    walk.created = row.created
    if entry.question is not None:
        asked = entry.question
        walk.question = Question(asked.number, asked.ply, asked.seat, best=asked.best)
        for answer in entry.answers:
            walk.question.answers[answer.name.casefold()] = _answer(answer)
    return walk


def _answer(row: AnswerRow) -> Answer:
    return Answer(row.name, row.move, row.why, row.rule)


def _walk_game(game_id: object, players: object, options: object, seed: object) -> Game:
    """The walkthrough's game: from a secret seed (2**63 of them), or the teacher's (a lesson's deal, say)."""
    options = {} if options is None else options
    if not isinstance(options, Mapping):
        raise BadRequest(f"options are an object of rule options, not {brief(options)}")
    drawn = secrets.randbelow(MAX_INT) if seed is None else _whole(seed, "seed")
    try:
        return hatskit.new_game(game_id, players, drawn, **options)  # type: ignore[arg-type]
    except (HatskitError, TypeError) as error:
        raise BadRequest(str(error)) from None


def _asked_seat(walk: Walkthrough, position: Game, seat: object) -> int:
    """The seat a question asks about: one that acts at the position and whose view the class is shown."""
    if position.is_over:
        raise NotNow(f"the game is over at ply {walk.at}: there is no move to ask for; step back first")
    shown = [s for s in position.acting if s in walk.shown()]
    if seat is None:
        if len(shown) == 1:
            return shown[0]
        if not shown:
            raise NotNow(_not_shown(walk, position))
        raise BadRequest(f"seats {', '.join(map(str, shown))} may act at ply {walk.at}: say which the question asks")
    asked = _whole(seat, "seat", len(walk.game.seat_names) - 1)
    if asked not in position.acting:
        raise NotNow(f"seat {asked} does not act at ply {walk.at}; seats {list(position.acting)} do")
    if asked not in walk.shown():
        raise BadRequest(f"the class is shown seat {walk.seat}'s view only: a question about seat {asked} asks blind")
    return asked


def _not_shown(walk: Walkthrough, position: Game) -> str:
    name = position.seat_names[walk.seat]
    return f"the teacher's seat ({name}) does not act at ply {walk.at}: ask when it does, or show every seat"


def _open_question(walk: Walkthrough, number: object) -> Question:
    """The open question, which must be the one ``number`` means (a try for a closed question is late)."""
    question = walk.question
    if question is None:
        raise NotNow(f"no question is open in walkthrough {walk.code}: a try waits for the teacher's 'your move?'")
    if number is not None and _whole(number, "number") != question.number:
        raise NotNow(f"question {brief(number)} is closed: the open question is number {question.number}")
    return question


def _choice(value: object, choices: tuple[str, ...], what: str) -> str:
    if not isinstance(value, str) or value not in choices:
        raise BadRequest(f"{what} is one of {', '.join(map(repr, choices))}, not {brief(value)}")
    return value


def _game_id(game: object) -> str:
    if not isinstance(game, str) or game not in hatskit.GAMES:
        raise BadRequest(f"{brief(game)} is not a game: the games are {', '.join(hatskit.GAMES)}")
    return game


def _star_keys(game_id: str, stars: object) -> set[str]:
    """A game's stars as lesson keys (``hats/first-game``), or BadRequest quoting the first that is not one."""
    if not isinstance(stars, list) or len(stars) > MAX_STARS:
        raise BadRequest(
            f"stars are a list of up to {MAX_STARS} keys such as '{game_id}/first-game', not {brief(stars)}"
        )
    for key in stars:
        lesson = key.removeprefix(f"{game_id}/") if isinstance(key, str) else ""
        if not isinstance(key, str) or lesson == key or not LESSON_ID.fullmatch(lesson) or len(lesson) > MAX_PAGE:
            raise BadRequest(f"{brief(key)} is not a star of {game_id}: a star is '{game_id}/' and a lesson's id")
    return set(stars)


def _place(page: object, lesson: object, step: object, table: object) -> PlaceRow:
    """Where a student is, each part checked: a page's name, a lesson's id, a step's number, a code."""
    text = " ".join(page.split()) if isinstance(page, str) else ""
    if not 1 <= len(text) <= MAX_PAGE or not text.isprintable():
        raise BadRequest(f"a page is 1 to {MAX_PAGE} printable characters, such as 'hats', not {brief(page)}")
    if lesson is not None and (not isinstance(lesson, str) or not LESSON_ID.fullmatch(lesson)):
        raise BadRequest(f"a lesson is a lesson's id, such as 'first-game', not {brief(lesson)}")
    number = None if step is None else _whole(step, "step", MAX_STEP)
    try:
        code = None if table is None else read_code(table)
    except UnknownTable:
        raise BadRequest(f"a table is a table's code, such as KBQTZ, not {brief(table)}") from None
    return PlaceRow(text, lesson, number, code)  # type: ignore[arg-type]
