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

A table is rebuilt by starting its game from seed, players and options and
replaying its moves: the engine's seeded generators make the replay exact. The
file uses write-ahead logging (readers never block the writer) and
``synchronous=FULL`` by default, so a commit is on the disk when ``add_move``
returns; the host acknowledges and pushes a move only after that. One host
writes a file: a lock beside it (``PATH.lock``, released by the system when the
process dies, even by SIGKILL) refuses a second host on the same file.
"""

from __future__ import annotations

import fcntl
import json
import sqlite3
import time
from dataclasses import dataclass, field
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
        """Every code ever given, closed tables included (a new table never reuses one)."""
        return {code for (code,) in self.db.execute("SELECT code FROM tables")}

    def close(self) -> None:
        self.db.close()
        self._lock.close()

    def _put_seat(self, code: str, seat: SeatRow) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO seats VALUES (?, ?, ?, ?, ?, ?)",
            (code, seat.seat, seat.name, seat.token_hash, seat.user, seat.bot),
        )

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
