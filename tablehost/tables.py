"""Shared tables, in process: seats, turns, bots and presence, with no network.

    >>> host = TableHost()                       # or TableHost(Store("tables.sqlite"))
    >>> sent = host.open(Who(), "hats", players=3, name="Maya")
    >>> code, token = sent.reply["code"], sent.reply["token"]
    >>> host.join(Who(), code, name="Ben")       # the next free seat, and its own token
    >>> host.start(Who(token), code)             # the opener starts; empty seats get bots
    >>> host.move(Who(token), code, "♥5@2")      # committed, then told

Every call returns a :class:`Sent`: the reply to whoever asked and the frames
each seat must be pushed (``frames.py`` builds them: a seat gets its own view
only). A refused call raises a :class:`TableError` whose message quotes the
input, and changes nothing. The server (``server.py``) is this class on a
websocket; hot-seat and tests use it directly.

Seats are held by a seat token (``secrets``; only its SHA-256 is kept) or, on
JupyterHub, by the hub user's name: :class:`Who` carries either. There is no
undo at a shared table. Bots are driven by an explicit step (``bot_turns`` and
``play_bot``, or ``run_bots`` to play them all), so the server can think on a
thread and play on its loop, and a test can step them one by one.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import hatskit
from hatskit.bots import Bot, make_bot
from hatskit.core import MAX_INT, Game, HatskitError, InvalidMoveError, SeatView, brief, check_move_text
from hatskit.games.hats_off import Call, Flip, HatsOffMove, Pass, Play
from tablehost.frames import (
    HISTORY_LIMIT,
    Shared,
    history_frame,
    presence_frame,
    seated_frame,
    state_frame,
)
from tablehost.store import SeatRow, Store, StoredTable, TableRow

CODE_LETTERS = "BCDFGHJKMNPQRSTVWXZ"  # no vowels (no code spells a word) and no L (read as 1 or I)
CODE_LENGTH = 5  # 19**5 = 2,476,099 codes
MAX_NAME = 24
DEFAULT_BOTS = "greedy"
AWAY_AFTER = 60.0  # seconds a player may be disconnected before the seat is marked away
KEEP = 24 * 3600.0  # seconds a lobby or a finished game is kept in memory after its opening (a game in play: always)
MAX_TABLES = 5_000  # tables one host holds in memory: 0.2-1.6 GB at mid-game (benchmarks/host_capacity.py)
RACE_ACTIONS = ("head", "off", "pass", "flip")  # the race pad's answers besides a hat and "wear <hat>"
WEAR = "wear "
# A player's words for a move out of turn: their own table stops a press out of turn before it is sent, so one the
# host gets was sent from a position that has since moved on (a race answer after the race was settled).
TOO_LATE = "too late: the game moved on before your move arrived"


class TableError(ValueError):
    """A request the host refuses; the message says why in a sentence, quoting the input. Nothing changed.

    ``reason``, where given, is what a player's table shows instead: the words a student reads, without the
    move's notation or seat numbers (a move the rules refuse: the rules' own sentence, as on a table of one's own).
    """

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason


class BadRequest(TableError):
    """A field missing or of the wrong kind: a game that does not exist, a name too long, options that do not fit."""


class UnknownTable(TableError):
    """A code that is not a table code, or that no table has."""


class SeatsFull(TableError):
    """Every seat of the table is taken."""


class NotYourSeat(TableError):
    """A token that holds no seat of the table, a move for another seat, a seat only its opener may act for."""


class NotNow(TableError):
    """A request out of its time: out of turn, before the start, after the end, a join after the start."""


class MoveRefused(TableError):
    """A move the engine cannot read or the rules forbid here; the engine's sentence says which rule."""


class NotSaved(TableError):
    """The store could not write (a full disk, a file gone): the move was not played, the player may try again."""


@dataclass(frozen=True)
class Who:
    """Who is asking: a seat token (a local host) or a hub user name (``--hub-auth``), or neither yet.

    For the class (``classroom.py``): ``token`` is also a student's class token, ``secret`` the teacher secret a
    local host's teacher sends, and ``teacher`` whether the hub counts the connection's user a teacher.
    """

    token: object = None  # a str when given; anything else is refused by the seat check, quoted
    user: str | None = None
    secret: object = None
    teacher: bool = False


@dataclass
class Seat:
    """One seat: who holds it, the bot playing it (a bot seat, or a player's seat handed to a bot) and presence."""

    index: int
    name: str | None = None  # the player's typed name; None for an open seat or a bot's from the start
    token_hash: str | None = None
    user: str | None = None
    bot: str | None = None
    connected: bool = False
    since: float = 0.0  # the host clock when ``connected`` last changed
    away: bool = False
    told: int = 0  # the ply up to which this seat has been told the narration

    @property
    def held(self) -> bool:
        """Whether a player holds the seat (even while a bot plays it for them)."""
        return self.name is not None

    @property
    def kind(self) -> str:
        """``open``, ``player``, ``bot`` (filled at the start) or ``handed`` (a player's seat a bot plays now)."""
        if self.held:
            return "handed" if self.bot else "player"
        return "bot" if self.bot else "open"

    @property
    def plays(self) -> bool:
        """Whether a player (not a bot) decides this seat's moves."""
        return self.held and self.bot is None

    def row(self) -> SeatRow:
        return SeatRow(self.index, self.name, self.token_hash, self.user, self.bot)


@dataclass
class Table:
    """A shared table: its code, its game (dealt at the opening, from a secret seed), its seats and its status."""

    code: str
    game: Game
    seats: list[Seat]
    bots: str = DEFAULT_BOTS
    status: str = "waiting"  # waiting, playing, over, closed
    created: float = field(default_factory=time.time)  # seconds since the epoch

    @property
    def seed(self) -> int:
        return self.game.head["seed"]

    def players_seated(self) -> int:
        return sum(1 for seat in self.seats if seat.held)

    def row(self) -> TableRow:
        head = self.game.head
        game_id, players = self.game.game_id, len(self.seats)
        return TableRow(
            self.code, game_id, players, head["seed"], head["options"], self.bots, self.status, self.created
        )


@dataclass
class Sent:
    """What a call makes the host say: the reply to the one who asked, and frames pushed to seats.

    ``pushes`` holds ``(code, seat, frame)``; the server sends each to the connection that holds the seat. A frame
    pushed to several seats is one object (presence), so it is encoded once.
    """

    reply: dict[str, Any] = field(default_factory=dict)
    pushes: list[tuple[str, int, dict[str, Any]]] = field(default_factory=list)
    refused: TableError | None = None  # the refusal behind an error reply (protocol.handle), for the server to weigh

    def add(self, other: Sent) -> Sent:
        """This and ``other``'s pushes (the first reply is kept)."""
        self.reply = self.reply or other.reply
        self.pushes += other.pushes
        return self

    def to(self, code: str, seat: int) -> list[dict[str, Any]]:
        """The frames pushed to one seat, in order."""
        return [frame for where, index, frame in self.pushes if (where, index) == (code, seat)]


@dataclass
class BotTurn:
    """A bot's decision to make: its seat, the ply it decides at and that seat's view as it stood then.

    ``choose`` may run on another thread: the seat view is a snapshot (stored states are never changed).
    """

    code: str
    seat: int
    ply: int
    bot: Bot
    view: SeatView

    def choose(self) -> str:
        return str(self.bot.choose(self.view))


def hash_token(token: str) -> str:
    """The SHA-256 of a seat token: all the host keeps (a token is 32 random bytes, so no salt is needed)."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_code(taken: Iterable[str]) -> str:
    """A fresh table code of ``CODE_LENGTH`` letters from ``CODE_LETTERS``, none of ``taken``."""
    used = set(taken)
    while True:
        code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
        if code not in used:
            return code


def read_code(code: object) -> str:
    """``code`` as the host keeps it (upper case, no spaces), or UnknownTable when it cannot be a table code."""
    text = code.strip().upper() if isinstance(code, str) else None
    if text is None or len(text) != CODE_LENGTH or any(letter not in CODE_LETTERS for letter in text):
        raise UnknownTable(f"{brief(code)} is not a table code: a code is {CODE_LENGTH} letters, such as KBQTZ")
    return text


def read_name(name: object) -> str:
    """A player's typed name, its spaces tidied, or BadRequest naming what a name is."""
    text = " ".join(name.split()) if isinstance(name, str) else ""
    if not 1 <= len(text) <= MAX_NAME or not text.isprintable():
        raise BadRequest(f"a name is 1 to {MAX_NAME} printable characters, not {brief(name)}")
    return text


def race_move(seat: int, action: object, seconds: object) -> HatsOffMove:
    """The Hats Off! move a race pad's answer stands for, timed by the device (its reaction time, in seconds).

    The answers are the pad's (widgets/games/race.py): a hat (play it from the hand), ``head``, ``off`` (call Hats
    Off!), ``pass``, ``flip`` or ``wear <hat>``. The engine then settles the race on these times alone (O3).
    """
    if not isinstance(action, str):
        answers = ", ".join(repr(word) for word in RACE_ACTIONS)
        raise MoveRefused(f"a race answer is a hat, {answers} or 'wear <hat>', not {brief(action)}")
    try:
        if action in ("flip", "pass"):
            return Flip(seat) if action == "flip" else Pass(seat)
        if action.startswith(WEAR):
            return hatskit.GAMES["hats-off"].parse_move(f"{seat}:{action}")
        timed = Call(seat) if action == "off" else Play(seat, 0, None if action == "head" else action)
        return timed.at(seconds)  # type: ignore[arg-type]  # at() refuses anything but a time, in a sentence
    except InvalidMoveError as error:
        raise MoveRefused(str(error)) from None


class TableHost:
    """Every shared table of one host, in memory, written through to a :class:`Store` when given one."""

    def __init__(
        self,
        store: Store | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        away_after: float = AWAY_AFTER,
        keep: float = KEEP,
        max_tables: int = MAX_TABLES,
    ) -> None:
        self.store = store
        self.clock = clock
        self.away_after, self.keep, self.max_tables = away_after, keep, max_tables
        self.tables: dict[str, Table] = {}
        self._bots: dict[tuple[str, int], tuple[str, Bot]] = {}  # (code, seat): the level and its bot
        self.skipped: dict[str, str] = {}  # tables that did not replay at loading, and why
        self._codes: set[str] = set()  # every code given, so none is given twice (the store's too)
        if store is not None:
            self._codes = store.codes()
            self._load(store.load(since=time.time() - keep))
        from tablehost.classroom import Classroom  # here: classroom.py builds on this module

        self.classroom = Classroom(store, codes=self._codes)  # walkthroughs and the class; codes shared with tables

    # -- the lobby ---------------------------------------------------------------------

    def open(
        self,
        who: Who,
        game_id: object,
        players: object = None,
        name: object = None,
        options: object = None,
        bots: object = DEFAULT_BOTS,
    ) -> Sent:
        """A new table of ``game_id``; the opener sits at seat 0 and gets the table's code (and a seat token)."""
        if len(self.tables) >= self.max_tables:
            raise NotNow(f"this host holds {len(self.tables)} tables, all it may; a table opens when another ends")
        game = _new_game(game_id, players, options)
        level = _check_level(game.game_id, bots)
        table = Table(new_code(self._codes), game, [Seat(i) for i in range(len(game.seat_names))], level)
        seat, token = self._sit(table, table.seats[0], who, name)
        if self.store is not None:
            _saved(self.store.add_table, table.row(), [s.row() for s in table.seats])
        self.tables[table.code] = table
        self._codes.add(table.code)
        return Sent(seated_frame(table, seat.index, token), self._presence(table))

    def join(self, who: Who, code: object, name: object = None) -> Sent:
        """Sit at the next free seat of a table that has not started; a hub user already seated there is rejoined."""
        table = self._table(code)
        if who.user is not None and any(seat.user == who.user for seat in table.seats):
            return self.rejoin(who, table.code)
        if table.status != "waiting":
            raise NotNow(f"table {table.code} has {_status_words(table)}: only its players come back to it")
        free = next((seat for seat in table.seats if not seat.held), None)
        if free is None:
            raise SeatsFull(f"table {table.code} is full: its {len(table.seats)} seats are taken")
        seat, token = self._sit(table, free, who, name)
        self._save(table, [seat])
        return Sent(seated_frame(table, seat.index, token), self._presence(table))

    def rejoin(self, who: Who, code: object, since: object = None) -> Sent:
        """A player back on a new connection: their seat (taken back from a bot) and the game as it stands.

        ``since`` is the last ply the player's device saw; the state frame tells every move after it.
        """
        table = self._table(code)
        seat = self._seat_of(table, who)
        told = seat.told if since is None else _whole(since, "since")
        if seat.bot is not None:
            seat.bot = None
            self._save(table, [seat])
        self._set_connected(seat, True)
        sent = Sent(seated_frame(table, seat.index, None))
        if table.status != "waiting":
            sent.pushes.append((table.code, seat.index, state_frame(table, seat.index, told)))
            seat.told = table.game.ply
        return sent.add(Sent(pushes=self._presence(table)))

    def start(self, who: Who, code: object, bots: object = None) -> Sent:
        """The opener starts the game once two or more players sit; every empty seat gets a bot of level ``bots``."""
        table = self._table(code)
        seat = self._seat_of(table, who)
        if seat.index != 0:
            raise NotYourSeat(f"only the opener ({table.seats[0].name}, seat 0) starts table {table.code}")
        if table.status != "waiting":
            raise NotNow(f"table {table.code} has {_status_words(table)} already")
        if table.players_seated() < 2:
            raise NotNow(f"table {table.code} starts once two or more players sit; {seat.name} sits alone")
        level = _check_level(table.game.game_id, table.bots if bots is None else bots)
        filled = [s for s in table.seats if not s.held]
        for empty in filled:
            empty.bot = level
        table.status, table.bots = "playing", level
        self._save(table, filled, table.status)
        return Sent({"type": "started", "code": table.code, "bots": level}, self._states(table) + self._presence(table))

    def leave(self, who: Who, code: object) -> Sent:
        """A player leaves: before the start the seat is free again (the opener leaving closes the table); after
        it the seat is away at once, so another player may hand it to a bot, and its player may come back."""
        table = self._table(code)
        seat = self._seat_of(table, who)
        reply = {"type": "left", "code": table.code, "seat": seat.index}
        if table.status == "waiting":
            return Sent(reply, self._free(table, seat))
        self._set_connected(seat, False)
        seat.since -= self.away_after
        return Sent(reply, self.check_away().pushes)

    # -- play --------------------------------------------------------------------------

    def move(self, who: Who, code: object, move: object, seat: object = None) -> Sent:
        """Play ``move`` (notation) for the caller's seat: checked, committed to the store, played, then told.

        ``seat``, when given, is the seat the caller means; a seat that is not theirs is refused.
        """
        table = self._table(code)
        mine = self._seat_of(table, who)
        self._check_playing(table, move)
        if seat is not None and seat != mine.index:
            raise NotYourSeat(f"a move for seat {brief(seat)} was sent with the seat token of seat {mine.index}")
        if mine.bot is not None:
            raise NotNow(f"a {mine.bot} bot plays seat {mine.index} now; rejoin to take the seat back")
        parsed = self._legal(table, mine.index, move)
        return self._play(table, mine.index, parsed)

    def answer(self, who: Who, code: object, action: object, seconds: object) -> Sent:
        """A Hats Off! race pad's answer, timed on the device: played as the engine's move for the caller's seat."""
        table = self._table(code)
        mine = self._seat_of(table, who)
        if table.game.game_id != "hats-off":
            raise BadRequest(
                f"answer is for Hats Off! races; table {table.code} plays {table.game.game_id}: send moves"
            )
        return self.move(who, table.code, str(race_move(mine.index, action, seconds)))

    def history(self, who: Who, code: object, first: object = 0, last: object = None) -> Sent:
        """The caller's own views after each ply from ``first`` to ``last`` (at most ``HISTORY_LIMIT``), to step
        through; views of that seat only. There is no undo at a shared table."""
        table = self._table(code)
        seat = self._seat_of(table, who)
        if table.status == "waiting":
            raise NotNow(f"table {table.code} has not started: there are no moves to step through yet")
        ply = table.game.ply
        start = _whole(first, "first", ply)
        end = ply if last is None else _whole(last, "last", ply)
        if end < start:
            raise BadRequest(f"last ({end}) comes before first ({start})")
        return Sent(history_frame(table, seat.index, start, min(end, start + HISTORY_LIMIT - 1)))

    # -- presence ----------------------------------------------------------------------

    def connected(self, code: str, seat: int, now: bool) -> Sent:
        """A seat's connection opened or closed (the server says which); every seat is told."""
        table = self.tables.get(code)
        if table is None or table.status == "closed":
            return Sent()
        self._set_connected(table.seats[seat], now)
        return Sent(pushes=self._presence(table))

    def check_away(self) -> Sent:
        """Mark away every player disconnected for ``away_after`` seconds or more; their tables are told."""
        sent = Sent()
        for table in self.tables.values():
            changed = [seat for seat in table.seats if seat.plays and not seat.away and self._gone(seat)]
            for seat in changed:
                seat.away = True
            if changed and table.status == "playing":
                sent.pushes += self._presence(table)
        return sent

    def forget_old(self, now: float | None = None) -> list[str]:
        """Drop from memory the tables that are closed, or were opened more than ``keep`` seconds ago and are not
        being played (a lobby nobody started, a finished game); their records stay in the store. Their codes."""
        cutoff = (time.time() if now is None else now) - self.keep
        old = [
            c for c, t in self.tables.items() if t.status == "closed" or (t.status != "playing" and t.created < cutoff)
        ]
        for code in old:
            for seat in self.tables.pop(code).seats:
                self._bots.pop((code, seat.index), None)
        return old

    def hand_to_bot(self, who: Who, code: object, seat: object, bots: object = None) -> Sent:
        """Any player of the table hands an away seat to a bot; its player takes it back by rejoining."""
        table = self._table(code)
        self._seat_of(table, who)
        if table.status != "playing":
            raise NotNow(f"table {table.code} has {_status_words(table)}: seats are handed to bots during the game")
        index = _whole(seat, "seat", len(table.seats) - 1)
        target = table.seats[index]
        if not target.plays or not target.away:
            raise NotNow(f"seat {index} is not away: only the seat of a player gone for a while goes to a bot")
        target.bot = _check_level(table.game.game_id, table.bots if bots is None else bots)
        self._save(table, [target])
        reply = {"type": "handed", "code": table.code, "seat": index, "bot": target.bot}
        return Sent(reply, self._presence(table))

    # -- bots --------------------------------------------------------------------------

    def bots_due(self, code: str) -> bool:
        """Whether a bot may act at the table now (cheap: the server asks after every request)."""
        table = self.tables.get(code)
        if table is None or table.status != "playing":
            return False
        return any(table.seats[index].bot is not None for index in table.game.acting)

    def bot_turns(self, code: str) -> list[BotTurn]:
        """The decisions bots must make now at a table (several in a race), each on a snapshot of its seat's view."""
        table = self.tables.get(code)
        if table is None or table.status != "playing":
            return []
        game = table.game
        snapshot = game.state_at(game.ply)
        turns = []
        for index in game.acting:
            level = table.seats[index].bot
            if level is not None:
                turns.append(BotTurn(code, index, game.ply, self._bot(code, index, level), snapshot.seat_view(index)))
        return turns

    def play_bot(self, turn: BotTurn, move: str) -> Sent:
        """A bot's chosen move, played if it still may be (the seat still a bot's, the game not moved on past it)."""
        table = self._table(turn.code)
        seat = table.seats[turn.seat]
        game = table.game
        if seat.bot is None or turn.seat not in game.acting or table.status != "playing":
            raise NotNow(f"the bot's move {brief(move)} for seat {turn.seat} is no longer wanted")
        if game.ply != turn.ply and not game.spec.simultaneous:
            raise NotNow(f"the bot's move {brief(move)} was chosen at ply {turn.ply}; the game is at {game.ply}")
        return self._play(table, turn.seat, self._legal(table, turn.seat, move))

    def run_bots(self, code: str, limit: int = 10_000) -> Sent:
        """Play the bots' moves until a player must act or the game ends (for hot-seat and tests; the server plays
        them one step at a time, after a pause)."""
        sent = Sent()
        for _ in range(limit):
            turns = self.bot_turns(code)
            if not turns:
                break
            for turn in turns:
                sent.add(self.play_bot(turn, turn.choose()))
        return sent

    # -- inside ------------------------------------------------------------------------

    def _table(self, code: object) -> Table:
        table = self.tables.get(read_code(code))
        if table is None or table.status == "closed":
            raise UnknownTable(f"no table has the code {read_code(code)}")
        return table

    def _seat_of(self, table: Table, who: Who) -> Seat:
        """The seat ``who`` holds at ``table``: by hub user name, else by seat token."""
        if who.user is not None:
            seat = next((seat for seat in table.seats if seat.user == who.user), None)
            if seat is None:
                raise NotYourSeat(f"{brief(who.user)} holds no seat at table {table.code}")
            return seat
        if not isinstance(who.token, str) or not who.token:
            raise NotYourSeat(f"a seat token is needed to act at table {table.code}, not {brief(who.token)}")
        digest = hash_token(who.token)
        for seat in table.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return seat
        raise NotYourSeat(f"the seat token {brief(who.token[:6] + '…')} holds no seat at table {table.code}")

    def _sit(self, table: Table, seat: Seat, who: Who, name: object) -> tuple[Seat, str | None]:
        """Put a player in ``seat``: their name, and a new seat token unless a hub user holds the seat."""
        typed = read_name(who.user if name is None and who.user is not None else name)
        if any(other.name is not None and other.name.casefold() == typed.casefold() for other in table.seats):
            raise BadRequest(f"{brief(typed)} already sits at table {table.code}: choose another name")
        token = None if who.user is not None else secrets.token_urlsafe(32)
        seat.name, seat.user = typed, who.user
        seat.token_hash = None if token is None else hash_token(token)
        self._set_connected(seat, True)
        return seat, token

    def _free(self, table: Table, seat: Seat) -> list[tuple[str, int, dict[str, Any]]]:
        """A seat left before the start: free again, or the table closed when its opener leaves."""
        if seat.index == 0:
            table.status = "closed"
            self._save(table, [], "closed")
            closed = {"type": "closed", "code": table.code, "message": f"{seat.name} closed table {table.code}"}
            return [(table.code, other.index, closed) for other in table.seats if other.held and other is not seat]
        table.seats[seat.index] = Seat(seat.index)
        self._save(table, [table.seats[seat.index]])
        return self._presence(table)

    def _check_playing(self, table: Table, move: object) -> None:
        if table.status == "waiting":
            raise NotNow(f"table {table.code} has not started: {brief(move)} waits for the opener to start")
        if table.status == "over":
            raise NotNow(f"the game at table {table.code} is over: {brief(move)} was not played")

    def _legal(self, table: Table, seat: int, move: object) -> Any:
        """``move`` read and checked for ``seat``, or the sentence that refuses it (out of turn, another seat's,
        unreadable, against the rules)."""
        game = table.game
        if not isinstance(move, str):
            raise MoveRefused(f"a move is its notation as text, not {brief(move)}")
        try:
            parsed = game.parse(check_move_text(move))
        except InvalidMoveError as error:
            raise MoveRefused(str(error)) from None
        mover = game.state.seat_of(parsed) if game.spec.simultaneous else seat
        if mover != seat:
            raise NotYourSeat(f"{brief(move)} is a move for seat {brief(mover)}, not for seat {seat}, yours")
        if seat not in game.acting:
            raise NotNow(f"{brief(move)} is out of turn: {_acting_words(table)} to move, not seat {seat}", TOO_LATE)
        reason = game.why_illegal(parsed)
        if reason is not None:
            raise MoveRefused(f"{brief(move)} is not allowed: {reason}", reason)
        return parsed

    def _play(self, table: Table, seat: int, parsed: Any) -> Sent:
        """Commit the move, then play it, then tell every seat (the mover's reply echoes its own move only)."""
        game = table.game
        if self.store is not None:
            _saved(self.store.add_move, table.code, game.ply + 1, str(parsed), seat)
        game.play(parsed)
        if game.is_over:
            table.status = "over"
            self._save(table, [], "over")
        pushes = self._states(table) + (self._presence(table) if game.is_over else [])
        reply = {"type": "moved", "code": table.code, "seat": seat, "ply": game.ply, "move": str(parsed)}
        return Sent(reply, pushes)

    def _states(self, table: Table) -> list[tuple[str, int, dict[str, Any]]]:
        """A state frame for every connected player, each told the moves since its last frame."""
        shared, pushes = Shared(table), []
        for seat in table.seats:
            if seat.held and seat.connected:
                pushes.append((table.code, seat.index, state_frame(table, seat.index, seat.told, shared)))
                seat.told = table.game.ply
        return pushes

    def _presence(self, table: Table) -> list[tuple[str, int, dict[str, Any]]]:
        frame = presence_frame(table)
        return [(table.code, seat.index, frame) for seat in table.seats if seat.held and seat.connected]

    def _set_connected(self, seat: Seat, now: bool) -> None:
        seat.connected, seat.since = now, self.clock()
        seat.away = False

    def _gone(self, seat: Seat) -> bool:
        return not seat.connected and self.clock() - seat.since >= self.away_after

    def _bot(self, code: str, seat: int, level: str) -> Bot:
        """The bot of a seat, made once per level (a Hats Off! racer remembers what it saw)."""
        made = self._bots.get((code, seat))
        if made is None or made[0] != level:
            made = level, make_bot(self.tables[code].game.game_id, level, seed=secrets.randbelow(MAX_INT))
            self._bots[(code, seat)] = made
        return made[1]

    def _save(self, table: Table, seats: list[Seat], status: str | None = None) -> None:
        if self.store is not None:
            _saved(self.store.save_seats, table.code, [seat.row() for seat in seats], status)

    def _load(self, stored: list[StoredTable]) -> None:
        """Every stored table, its game replayed from seed and moves; one that does not replay is skipped and
        named in ``skipped`` (the host still starts)."""
        for entry in stored:
            try:
                table = _rebuild(entry, self.clock())
            except (HatskitError, ValueError, KeyError) as error:
                self.skipped[entry.row.code] = str(error)
                continue
            self.tables[table.code] = table


def _rebuild(entry: StoredTable, now: float) -> Table:
    """A table from the store: the game dealt again from its seed and its moves replayed; nobody connected yet."""
    row = entry.row
    game = hatskit.new_game(row.game, row.players, row.seed, **row.options)
    for move in entry.moves:
        game.play(move)
    seats = [Seat(s.seat, s.name, s.token_hash, s.user, s.bot, False, now, False, game.ply) for s in entry.seats]
    status = "over" if row.status != "waiting" and game.is_over else row.status
    return Table(row.code, game, seats, row.bots, status, row.created)


def _saved(write: Callable[..., None], *args: Any) -> None:
    """A store write, or NotSaved in a sentence when the file cannot take it (the caller has changed nothing yet
    where it matters: a move is written before it is played)."""
    try:
        write(*args)
    except sqlite3.Error as error:
        raise NotSaved(f"the host could not save this to its file ({error}); nothing was played: try again") from None


def _new_game(game_id: object, players: object, options: object) -> Game:
    """The engine's new game from a secret seed (2**63 of them: a student cannot search them from a hand)."""
    options = {} if options is None else options
    if not isinstance(options, Mapping):
        raise BadRequest(f"options are an object of rule options, not {brief(options)}")
    try:
        return hatskit.new_game(game_id, players, secrets.randbelow(MAX_INT), **options)  # type: ignore[arg-type]
    except (HatskitError, TypeError) as error:
        raise BadRequest(str(error)) from None


def _check_level(game_id: str, level: object) -> str:
    """``level`` if the game seats a bot of that kind, else BadRequest naming the kinds."""
    try:
        make_bot(game_id, level)  # type: ignore[arg-type]
    except HatskitError as error:
        raise BadRequest(str(error)) from None
    return level  # type: ignore[return-value]


def _whole(value: object, what: str, most: int = MAX_INT) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        raise BadRequest(f"{what} is a whole number from 0 to {most}, not {brief(value)}")
    return value


def _status_words(table: Table) -> str:
    return {"waiting": "not started", "playing": "started", "over": "ended", "closed": "closed"}[table.status]


def _acting_words(table: Table) -> str:
    """Who may act, in words: "seat 1 (Ben) is" or "seats 0 and 2 are"."""
    acting = table.game.acting
    if len(acting) == 1:
        name = table.seats[acting[0]].name or table.game.seat_names[acting[0]]
        return f"seat {acting[0]} ({name}) is"
    return "seats " + " and ".join(str(seat) for seat in acting) + " are"
