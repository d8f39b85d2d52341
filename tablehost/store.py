"""The table host's memory on disk: one SQLite file, written by one process, each move committed before it is told.

Three tables hold everything the host needs to rebuild every shared table after
a restart (a crash, ``kill -9``, a hub pod moved):

- ``tables``: a table's head: its code, game, player count, seed, rule options,
  the bot level that fills empty seats, its status (waiting, playing, over,
  closed) and when it was opened;
- ``seats``: who holds each seat: the typed name, the SHA-256 of the seat token
  (never the token) or the hub user name, and the bot playing it, if any;
- ``moves``: the moves in order, as the engine's notation, with the seat that
  made each and when.

The class (``classroom.py``) keeps its own tables in the same file: ``walks``
(a walkthrough's head: its game dealt as a table's is, the teacher's seat, what
the class is shown, the ply shown), ``walk_moves``, ``walk_members`` (who
follows), ``questions`` and ``answers`` (the teacher's "your move?" and each
student's one try), ``students`` (a name with the SHA-256 of its class token, or
a hub user), ``stars``, ``places`` (where a student is) and ``teacher`` (the
SHA-256 of a local host's teacher secret). Every change is one transaction,
committed before the host acknowledges it.

A table is rebuilt by starting its game from seed, players and options and
replaying its moves: the engine's seeded generators make the replay exact. The
file uses write-ahead logging (readers never block the writer). With
``synchronous=FULL`` (the default) a commit is on the disk when ``add_move``
returns; the table server opens its file with ``NORMAL`` instead (a commit is in
the file, safe from a killed process) and calls ``sync`` on a thread of its own
before it tells anyone, for every commit made meanwhile at once
(``groupcommit.py``). Either way the host acknowledges and pushes a move only
once it is on the disk. One host
writes a file: a lock beside it (``PATH.lock``, released by the system when the
process dies, even by SIGKILL) refuses a second host on the same file.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import time
from dataclasses import astuple, dataclass, field
from pathlib import Path
from typing import IO, Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    options TEXT NOT NULL,
    bots TEXT NOT NULL,
    status TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    code TEXT NOT NULL REFERENCES tables(code),
    seat INTEGER NOT NULL,
    name TEXT,
    token_hash TEXT,
    user TEXT,
    bot TEXT,
    PRIMARY KEY (code, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    code TEXT NOT NULL REFERENCES tables(code),
    ply INTEGER NOT NULL,
    move TEXT NOT NULL,
    seat INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (code, ply)
);
CREATE TABLE IF NOT EXISTS walks (
    code TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    options TEXT NOT NULL,
    seat INTEGER NOT NULL,
    shows TEXT NOT NULL,
    teacher TEXT NOT NULL,
    status TEXT NOT NULL,
    at INTEGER NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS walk_moves (
    code TEXT NOT NULL REFERENCES walks(code),
    ply INTEGER NOT NULL,
    move TEXT NOT NULL,
    PRIMARY KEY (code, ply)
);
CREATE TABLE IF NOT EXISTS walk_members (
    code TEXT NOT NULL REFERENCES walks(code),
    member INTEGER NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (code, member)
);
CREATE TABLE IF NOT EXISTS questions (
    code TEXT NOT NULL REFERENCES walks(code),
    number INTEGER NOT NULL,
    ply INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    open INTEGER NOT NULL,
    best TEXT,
    PRIMARY KEY (code, number)
);
CREATE TABLE IF NOT EXISTS answers (
    code TEXT NOT NULL,
    number INTEGER NOT NULL,
    name TEXT NOT NULL,
    move TEXT NOT NULL,
    rule TEXT,
    why TEXT,
    at REAL NOT NULL,
    PRIMARY KEY (code, number, name),
    FOREIGN KEY (code, number) REFERENCES questions(code, number)
);
CREATE TABLE IF NOT EXISTS students (
    name TEXT PRIMARY KEY,
    token_hash TEXT,
    user TEXT,
    joined REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS stars (
    name TEXT NOT NULL REFERENCES students(name),
    key TEXT NOT NULL,
    PRIMARY KEY (name, key)
);
CREATE TABLE IF NOT EXISTS places (
    name TEXT PRIMARY KEY REFERENCES students(name),
    page TEXT,
    lesson TEXT,
    step INTEGER,
    table_code TEXT,
    at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS teacher (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    secret_hash TEXT NOT NULL,
    created REAL NOT NULL
);
"""

SYNC_MODES = ("FULL", "NORMAL")


class StoreError(RuntimeError):
    """The store cannot be used: another host holds the file, or the file is not a table store."""


@dataclass(frozen=True)
class SeatRow:
    """One seat as stored: who holds it (a name with a token hash or a hub user) and the bot playing it, if any."""

    seat: int
    name: str | None = None
    token_hash: str | None = None
    user: str | None = None
    bot: str | None = None


@dataclass(frozen=True)
class TableRow:
    """A table's head as stored: everything but the seats and the moves."""

    code: str
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    bots: str
    status: str
    created: float = 0.0  # seconds since the epoch; 0 when a new table is added: the store stamps it


@dataclass
class StoredTable:
    """A table read back: its head, its seats in order and its moves in order."""

    row: TableRow
    seats: list[SeatRow] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class WalkRow:
    """A walkthrough's head as stored: its game as a table's, the teacher's seat, what the class is shown, the
    teacher's name, its status (open, closed) and the ply shown."""

    code: str
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    seat: int
    shows: str
    teacher: str
    status: str = "open"
    at: int = 0
    created: float = 0.0  # 0 when added: the store stamps it


@dataclass(frozen=True)
class AnswerRow:
    """A student's one try at a question: the move as notation, and the rule and sentence that refused it."""

    name: str
    move: str
    rule: str | None = None
    why: str | None = None


@dataclass(frozen=True)
class QuestionRow:
    """The teacher's "your move?": its number in the walkthrough, the ply and seat it asks about, the strong bot's
    move once found."""

    number: int
    ply: int
    seat: int
    best: str | None = None


@dataclass
class StoredWalk:
    """A walkthrough read back: its head, moves, followers in order, and its open question with its answers."""

    row: WalkRow
    moves: list[str] = field(default_factory=list)
    members: list[str] = field(default_factory=list)
    question: QuestionRow | None = None
    answers: list[AnswerRow] = field(default_factory=list)
    asked: int = 0  # questions asked so far (the next is number asked + 1)


@dataclass(frozen=True)
class PlaceRow:
    """Where a student is: the page, the lesson and its step, the table's code (each may be unknown)."""

    page: str | None = None
    lesson: str | None = None
    step: int | None = None
    table: str | None = None


@dataclass
class Student:
    """A student of the class: their name, how they prove it (a token's SHA-256, or a hub user), stars, place, and
    when any of it last changed (seconds since the epoch)."""

    name: str
    token_hash: str | None = None
    user: str | None = None
    stars: set[str] = field(default_factory=set)
    place: PlaceRow | None = None
    updated: float = field(default_factory=time.time)


class Store:
    """The SQLite file of one table host; every write is one committed transaction."""

    def __init__(self, path: str | Path, synchronous: str = "FULL") -> None:
        if synchronous not in SYNC_MODES:
            raise StoreError(f"synchronous is one of {', '.join(SYNC_MODES)}, not {synchronous!r}")
        self.path = Path(path)
        self._lock = _take_lock(self.path)
        self.db = sqlite3.connect(self.path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute(f"PRAGMA synchronous={synchronous}")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)

    def add_table(self, row: TableRow, seats: list[SeatRow]) -> None:
        """A new table with its seats, in one transaction."""
        with self._transaction():
            created = row.created or time.time()
            self.db.execute(
                "INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (row.code, row.game, row.players, row.seed, json.dumps(row.options), row.bots, row.status, created),
            )
            for seat in seats:
                self._put_seat(row.code, seat)

    def save_seats(self, code: str, seats: list[SeatRow], status: str | None = None) -> None:
        """Seats changed (a join, a bot, a seat handed over or taken back), and the status with them if given."""
        with self._transaction():
            for seat in seats:
                self._put_seat(code, seat)
            if status is not None:
                self.db.execute("UPDATE tables SET status = ? WHERE code = ?", (status, code))

    def set_status(self, code: str, status: str) -> None:
        self.save_seats(code, [], status)

    def add_move(self, code: str, ply: int, move: str, seat: int) -> None:
        """Move number ``ply`` (1 for the first) of a table; on the disk when this returns."""
        self.db.execute("INSERT INTO moves VALUES (?, ?, ?, ?, ?)", (code, ply, move, seat, time.time()))

    def load(self, since: float = 0.0) -> list[StoredTable]:
        """Every game still being played, and every other table (a lobby, a finished game) opened after ``since``
        (seconds since the epoch), with its seats and moves, oldest first. Closed tables stay in the file only."""
        found = {
            row[0]: StoredTable(TableRow(*row[:4], json.loads(row[4]), *row[5:]))
            for row in self.db.execute(
                "SELECT code, game, players, seed, options, bots, status, created FROM tables"
                " WHERE status = 'playing' OR (status != 'closed' AND created >= ?) ORDER BY created",
                (since,),
            )
        }
        for code, *seat in self.db.execute("SELECT code, seat, name, token_hash, user, bot FROM seats ORDER BY seat"):
            if code in found:
                found[code].seats.append(SeatRow(*seat))
        for code, move in self.db.execute("SELECT code, move FROM moves ORDER BY code, ply"):
            if code in found:
                found[code].moves.append(move)
        return list(found.values())

    def codes(self) -> set[str]:
        """Every code ever given, to a table or a walkthrough, closed ones included (a new one never reuses one)."""
        return {code for (code,) in self.db.execute("SELECT code FROM tables UNION SELECT code FROM walks")}

    # -- the class: walkthroughs --------------------------------------------------------

    def add_walk(self, row: WalkRow) -> None:
        """A new walkthrough (its teacher is member 0, who is not stored: the teacher secret or hub says who)."""
        with self._transaction():
            self.db.execute(
                "INSERT INTO walks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*astuple(row)[:4], json.dumps(row.options), *astuple(row)[5:10], row.created or time.time()),
            )

    def walk_move(self, code: str, ply: int, move: str) -> None:
        """The teacher's move number ``ply``: any later moves (a line stepped back from) go, the class is shown
        the new position and the open question closes; one transaction."""
        with self._transaction():
            self.db.execute("DELETE FROM walk_moves WHERE code = ? AND ply >= ?", (code, ply))
            self.db.execute("INSERT INTO walk_moves VALUES (?, ?, ?)", (code, ply, move))
            self._show(code, ply)

    def walk_step(self, code: str, at: int) -> None:
        """The teacher stepped to ply ``at``; the open question closes."""
        with self._transaction():
            self._show(code, at)

    def set_walk_status(self, code: str, status: str) -> None:
        with self._transaction():
            self.db.execute("UPDATE walks SET status = ? WHERE code = ?", (status, code))
            self.db.execute("UPDATE questions SET open = 0 WHERE code = ?", (code,))

    def enrol(self, student: tuple[str, str | None, str | None] | None, follower: tuple[str, int, str] | None) -> None:
        """A new student (name, token hash, hub user) and/or a new follower of a walkthrough (code, member, name),
        in one transaction: a name is never kept without the token its student was given."""
        with self._transaction():
            if student is not None:
                self.db.execute("INSERT INTO students VALUES (?, ?, ?, ?)", (*student, time.time()))
            if follower is not None:
                self.db.execute("INSERT INTO walk_members VALUES (?, ?, ?)", follower)

    def add_question(self, code: str, question: QuestionRow) -> None:
        """A new question (the one before it, if open, closes)."""
        with self._transaction():
            self.db.execute("UPDATE questions SET open = 0 WHERE code = ?", (code,))
            self.db.execute(
                "INSERT INTO questions VALUES (?, ?, ?, ?, 1, NULL)",
                (code, question.number, question.ply, question.seat),
            )

    def set_best(self, code: str, number: int, move: str) -> None:
        self.db.execute("UPDATE questions SET best = ? WHERE code = ? AND number = ?", (move, code, number))

    def add_answer(self, code: str, number: int, answer: AnswerRow) -> None:
        self.db.execute(
            "INSERT INTO answers VALUES (?, ?, ?, ?, ?, ?, ?)", (code, number, *astuple(answer), time.time())
        )

    def load_walks(self) -> list[StoredWalk]:
        """Every open walkthrough with its moves, followers, and open question with its answers, oldest first."""
        found = {
            row[0]: StoredWalk(WalkRow(*row[:4], json.loads(row[4]), *row[5:]))
            for row in self.db.execute("SELECT * FROM walks WHERE status = 'open' ORDER BY created")
        }
        for code, move in self.db.execute("SELECT code, move FROM walk_moves ORDER BY code, ply"):
            if code in found:
                found[code].moves.append(move)
        for code, name in self.db.execute("SELECT code, name FROM walk_members ORDER BY code, member"):
            if code in found:
                found[code].members.append(name)
        for walk in found.values():
            self._load_question(walk)
        return list(found.values())

    # -- the class: students, stars, places, the teacher's secret ----------------------

    def set_stars(self, name: str, game: str, keys: list[str]) -> None:
        """A student's stars for one game, replacing those the file had for it."""
        with self._transaction():
            self.db.execute(
                "DELETE FROM stars WHERE name = ? AND substr(key, 1, ?) = ?", (name, len(game) + 1, game + "/")
            )
            self.db.executemany("INSERT INTO stars VALUES (?, ?)", [(name, key) for key in keys])

    def set_place(self, name: str, place: PlaceRow) -> None:
        self.db.execute("INSERT OR REPLACE INTO places VALUES (?, ?, ?, ?, ?, ?)", (name, *astuple(place), time.time()))

    def clear_students(self, names: list[str] | None) -> None:
        """Forget these students (None: the whole class): their names, tokens, stars and places."""
        where, args = ("", ()) if names is None else (f" WHERE name IN ({', '.join('?' * len(names))})", tuple(names))
        with self._transaction():
            for table in ("stars", "places", "students"):
                self.db.execute(f"DELETE FROM {table}{where}", args)

    def load_class(self) -> list[Student]:
        """Every student with their stars and place, in the order they joined."""
        found = {
            name: Student(name, token_hash, user, updated=joined)
            for name, token_hash, user, joined in self.db.execute("SELECT * FROM students ORDER BY joined")
        }
        for name, key in self.db.execute("SELECT name, key FROM stars"):
            found[name].stars.add(key)
        for name, *place, at in self.db.execute("SELECT * FROM places"):
            found[name].place, found[name].updated = PlaceRow(*place), at
        return list(found.values())

    def teacher_hash(self) -> tuple[str, float] | None:
        """The SHA-256 of the teacher secret and when it was drawn, or None before one is."""
        return self.db.execute("SELECT secret_hash, created FROM teacher WHERE id = 1").fetchone()

    def set_teacher_hash(self, digest: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO teacher VALUES (1, ?, ?)", (digest, time.time()))

    def changes(self) -> int:
        """Rows changed by every write so far: a count that only grows (``groupcommit.py`` waits on it)."""
        return self.db.total_changes

    def sync(self) -> None:
        """Put every commit so far on the disk at once: what ``synchronous=FULL`` does at each commit. It touches
        the file, not the connection, so it may run on another thread while the host writes on."""
        try:
            wal = os.open(self.path.with_name(self.path.name + "-wal"), os.O_RDONLY)
        except FileNotFoundError:  # no log yet: nothing written since the file was opened
            return
        try:
            os.fdatasync(wal)
        finally:
            os.close(wal)

    def close(self) -> None:
        self.db.close()
        self._lock.close()

    def _put_seat(self, code: str, seat: SeatRow) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO seats VALUES (?, ?, ?, ?, ?, ?)",
            (code, seat.seat, seat.name, seat.token_hash, seat.user, seat.bot),
        )

    def _show(self, code: str, at: int) -> None:
        self.db.execute("UPDATE walks SET at = ? WHERE code = ?", (at, code))
        self.db.execute("UPDATE questions SET open = 0 WHERE code = ?", (code,))

    def _load_question(self, walk: StoredWalk) -> None:
        code = walk.row.code
        walk.asked = self.db.execute("SELECT COUNT(*) FROM questions WHERE code = ?", (code,)).fetchone()[0]
        row = self.db.execute("SELECT number, ply, seat, best FROM questions WHERE code = ? AND open = 1", (code,))
        found = row.fetchone()
        if found is not None:
            walk.question = QuestionRow(*found)
            answers = "SELECT name, move, rule, why FROM answers WHERE code = ? AND number = ? ORDER BY at"
            walk.answers = [AnswerRow(*answer) for answer in self.db.execute(answers, (code, found[0]))]

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db)


class _Transaction:
    """BEGIN ... COMMIT around a block, ROLLBACK when it raises (the connection is in autocommit mode)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *_: object) -> None:
        self.db.execute("ROLLBACK" if kind is not None else "COMMIT")


def _take_lock(path: Path) -> IO[str]:
    """An exclusive lock on ``PATH.lock``, or a StoreError when another host holds it."""
    lock = open(path.with_name(path.name + ".lock"), "a")  # noqa: SIM115 - held open for the store's life
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.close()
        raise StoreError(f"another table host is using {path}; one host writes a file") from None
    return lock
