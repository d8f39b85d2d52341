"""The table host on the network: a tornado app with a websocket at ``/ws`` and ``/health``, on one asyncio loop.

Every request is a JSON text frame (``protocol.py``); the host answers it at once,
on the loop, and pushes each seat's frames to the connection that holds the
seat. A move is committed to SQLite before it is played (``TableHost._play``),
and every frame waits until what it tells is on the disk (``groupcommit.py``:
the disk's sync runs off the loop, one for all the changes made meanwhile).
Many tables share the loop: a request takes well under a millisecond of it.
Bots think on a small thread pool, a short pause after the move they answer
(so a player can follow), and play on the loop. A seat whose connection
closes is told to every other seat; after ``away_after`` seconds it is marked
away and may be handed to a bot.

A frame larger than ``MAX_FRAME`` is not read: tornado closes the connection
(code 1009) and the host first sends an error frame and puts its sentence in
the close reason; a client reconnects by itself. A connection that tries
``MAX_UNKNOWN_CODES`` codes no table has is closed (codes are guessed, not
typed wrong that often).

The class (``classroom.py``) rides on the same relay: a walkthrough's members
are held as ``(code, member)`` like seats, a teacher's class list as
``(CLASS_WATCH, n)``; one frame pushed to 30 students is encoded once. The
strong bot's move for a teacher's question is found in a process of its own
(a second or so, started at the first question: a thread would hold the GIL
the loop needs for every answer), once per question, and put in the tally on
the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
import socket
import threading
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import tornado.web
from tornado.httpserver import HTTPServer
from tornado.ioloop import PeriodicCallback
from tornado.iostream import StreamClosedError
from tornado.netutil import bind_sockets
from tornado.websocket import WebSocketClosedError, WebSocketHandler, WebSocketProtocol13

from tablehost.auth import Auth, AuthError, LocalAuth
from tablehost.classroom import CLASS_WATCH
from tablehost.groupcommit import GroupCommit
from tablehost.protocol import MAX_FRAME, error_frame, handle
from tablehost.store import Store
from tablehost.tables import AWAY_AFTER, Sent, TableHost, UnknownTable
from tablehost.walkthrough import BestTurn

log = logging.getLogger("tablehost")

BOT_DELAY = 0.6  # seconds between a move and a bot's answer to it, so a player sees what happened
BOT_THREADS = 2
MAX_UNKNOWN_CODES = 10
PING_SECONDS = 15.0  # a silent connection is pinged, and dropped when a ping goes unanswered as long
PARENT_CHECK = 1.0  # seconds between the thinker's looks at whether the host is still there
TOO_BIG = f"refused: a frame over {MAX_FRAME} bytes (64 KB) is not read; send smaller frames"
SUPERSEDED = "this seat was taken up on another connection; this one no longer receives its frames"


@dataclass(frozen=True)
class Settings:
    """How a host runs: where it listens, its file, who may connect, and its pace."""

    bind: str = "127.0.0.1:8765"
    db: str | None = None  # None: in memory only (tests, hot-seat); a path: the SQLite file
    hub_auth: bool = False
    prefix: str = "/"  # also serve under this path (a hub-managed service's JUPYTERHUB_SERVICE_PREFIX)
    away_after: float = AWAY_AFTER
    bot_delay: float = BOT_DELAY
    synchronous: str = "FULL"  # FULL: each frame waits until what it tells is on the disk; NORMAL: no sync
    new_teacher_link: bool = False  # draw a new teacher secret even if the file keeps one (the old link stops)
    teacher_page: str = ""  # the page the printed teacher link opens (make app: the course's first page)


class Relay:
    """The running host: the tables, the connections holding seats, and the bots' schedule."""

    def __init__(self, host: TableHost, bot_delay: float = BOT_DELAY, disk: GroupCommit | None = None) -> None:
        self.host = host
        self.bot_delay = bot_delay
        self.disk = disk or GroupCommit(None)  # every frame goes out through it
        self.holders: dict[tuple[str, int], TableSocket] = {}
        self.sockets: set[TableSocket] = set()
        self._bots_due: dict[str, asyncio.TimerHandle] = {}  # tables whose bots play after the pause
        self._pool = ThreadPoolExecutor(BOT_THREADS, thread_name_prefix="tablehost-bot")
        self._thinker: ProcessPoolExecutor | None = None  # the tallies' strong bot, started at the first question
        self._thinking: set[tuple[str, int]] = set()  # questions whose best move is being found
        self._tasks: set[asyncio.Future[Any]] = set()

    def deliver(self, sent: Sent, asker: TableSocket | None = None) -> None:
        """The reply to ``asker``, then every push to the connection that holds its seat (each frame encoded once)."""
        if asker is not None and sent.reply:
            asker.send(json.dumps(sent.reply, ensure_ascii=False))
        encoded: dict[int, str] = {}
        for code, seat, frame in sent.pushes:
            holder = self.holders.get((code, seat))
            if holder is not None:
                text = encoded.setdefault(id(frame), json.dumps(frame, ensure_ascii=False))
                holder.send(text)

    def hold(self, socket: TableSocket, code: str, seat: int) -> None:
        """``socket`` now receives seat ``seat``'s frames; a connection that held it before is told and let go."""
        before = self.holders.get((code, seat))
        if before is not None and before is not socket:
            before.seats.discard((code, seat))
            before.send(json.dumps({"type": "closed", "code": code, "seat": seat, "message": SUPERSEDED}))
        self.holders[(code, seat)] = socket
        socket.seats.add((code, seat))

    def let_go(self, socket: TableSocket, seats: Iterable[tuple[str, int]]) -> None:
        """``socket`` is closed or left: its seats (and walkthrough members, class watches) are disconnected, and
        every other seat is told."""
        classroom = self.host.classroom
        for code, seat in list(seats):
            socket.seats.discard((code, seat))
            if self.holders.get((code, seat)) is socket:
                del self.holders[(code, seat)]
                is_class = code == CLASS_WATCH or code in classroom.walks
                self.deliver(
                    classroom.connected(code, seat, False) if is_class else self.host.connected(code, seat, False)
                )

    def think(self, code: str) -> None:
        """Find the strong bot's move for a walkthrough's open question on the thinker's thread, once a question."""
        for turn in self.host.classroom.best_turns(code):
            if (turn.code, turn.number) not in self._thinking:
                self._thinking.add((turn.code, turn.number))
                task = asyncio.ensure_future(self._think(turn))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _think(self, turn: BestTurn) -> None:
        if self._thinker is None:  # spawned, not forked: the host's loop, sockets and file stay its own
            context = multiprocessing.get_context("spawn")
            self._thinker = ProcessPoolExecutor(1, context, initializer=watch_parent, initargs=(os.getpid(),))
        try:
            move = await asyncio.get_running_loop().run_in_executor(self._thinker, turn.choose)
            self.deliver(self.host.classroom.best_found(turn, move))
        except Exception:
            log.exception("the strong bot failed on question %s of walkthrough %s", turn.number, turn.code)
        finally:
            self._thinking.discard((turn.code, turn.number))

    def schedule_bots(self, code: str) -> None:
        """Play the bots of a table after ``bot_delay``, unless they are already scheduled or none may act."""
        if code in self._bots_due or not self.host.bots_due(code):
            return
        self._bots_due[code] = asyncio.get_running_loop().call_later(self.bot_delay, self._spawn, code)

    def _spawn(self, code: str) -> None:
        task = asyncio.ensure_future(self._play_bots(code))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _play_bots(self, code: str) -> None:
        """Each bot that may act chooses on a thread, then its move is played here on the loop and told."""
        loop = asyncio.get_running_loop()
        try:
            for turn in self.host.bot_turns(code):
                move = await loop.run_in_executor(self._pool, turn.choose)
                try:
                    self.deliver(self.host.play_bot(turn, move))
                except ValueError as stale:  # the game moved on while it thought: it decides again
                    log.debug("bot move dropped: %s", stale)
        except Exception:
            log.exception("the bots of table %s failed; they wait for the next move", code)
            self._bots_due.pop(code, None)
            return
        self._bots_due.pop(code, None)
        self.schedule_bots(code)

    def check_away(self) -> None:
        """Tell the tables whose players went away, and forget the tables that are done with (``forget_old``)."""
        self.deliver(self.host.check_away())
        for code in self.host.forget_old():
            self.drop(code)

    def drop(self, code: str) -> None:
        """No connection holds anything of ``code`` any more (a table forgotten, a walkthrough ended)."""
        for key in [key for key in self.holders if key[0] == code]:
            self.holders.pop(key).seats.discard(key)

    def close(self) -> None:
        """Cancel the bots' pauses and thinking (their moves are not played: a restarted host plays them)."""
        for timer in self._bots_due.values():
            timer.cancel()
        for task in self._tasks:
            task.cancel()
        self._pool.shutdown(wait=False, cancel_futures=True)
        if self._thinker is not None:
            self._thinker.shutdown(wait=False, cancel_futures=True)


class _Protocol(WebSocketProtocol13):
    """Tornado's protocol, saying in a sentence why a frame too large closes the connection."""

    def close(self, code: int | None = None, reason: str | None = None) -> None:
        if code == 1009 and not self.server_terminated and not self.stream.closed():
            with contextlib.suppress(StreamClosedError, WebSocketClosedError):
                self.write_message(json.dumps(error_frame(TOO_BIG)))
            reason = TOO_BIG
        super().close(code, reason)


class TableSocket(WebSocketHandler):
    """One connection: a student's kernel (or a test). It may hold seats; frames for them come here."""

    def initialize(self, relay: Relay, auth: Auth) -> None:
        self.relay, self.auth = relay, auth
        self.user: str | None = None
        self.teacher = False  # the hub counts the user a teacher
        self.seats: set[tuple[str, int]] = set()
        self.unknown_codes = 0

    async def prepare(self) -> None:
        """On a hub, the connection's user from its token (and whether a teacher); a connection without one is
        refused before the upgrade."""
        try:
            identity = await self.auth.identity(self.request.headers)
            self.user, self.teacher = identity.name, identity.teacher
        except AuthError as error:
            self.set_status(error.status)
            self.finish({"type": "error", "op": None, "message": str(error)})

    def get_websocket_protocol(self) -> WebSocketProtocol13 | None:
        plain = super().get_websocket_protocol()
        return None if plain is None else _Protocol(self, False, plain.params)  # type: ignore[attr-defined]

    def open(self) -> None:  # type: ignore[override]
        """A new connection; small frames go out at once (a reply and a push back to back would otherwise wait
        for the client's delayed acknowledgement, some 40 ms)."""
        self.set_nodelay(True)
        self.relay.sockets.add(self)

    def on_message(self, message: str | bytes) -> None:
        try:
            self._answer(message)
        except Exception:  # a fault of the host's, not the request's: say so, keep the connection
            log.exception("a request failed: %.200r", message)
            self.send(json.dumps(error_frame("the table host failed on this request; it was logged")))

    def _answer(self, message: str | bytes) -> None:
        """Carry out a request: hold the seat (or walkthrough member, class watch) it gave, reply, push, and let the
        bots of its table answer (or the strong bot a teacher's question)."""
        sent = handle(self.relay.host, message, self.user, self.teacher)
        reply = sent.reply
        held, released = holding(reply)
        if held is not None:
            if held[0] == CLASS_WATCH:  # one class list a connection: the watch before this one ends
                self.relay.let_go(self, [key for key in self.seats if key[0] == CLASS_WATCH])
            self.relay.hold(self, *held)
        elif released is not None:
            self.relay.let_go(self, [released])
        self.relay.deliver(sent, self)
        if isinstance(sent.refused, UnknownTable):
            self._count_unknown()
        elif reply.get("type") == "walk_asked":
            self.relay.think(reply["code"])
        elif reply.get("type") == "walk_closed":
            self.relay.drop(reply["code"])
        elif "code" in reply:
            self.relay.schedule_bots(reply["code"])

    def _count_unknown(self) -> None:
        self.unknown_codes += 1
        if self.unknown_codes >= MAX_UNKNOWN_CODES:
            why = f"closed: {MAX_UNKNOWN_CODES} codes that no table has; ask the opener for the code"
            self.relay.disk.then(lambda: self.close(1008, why))  # after the frames before it

    def send(self, text: str) -> None:
        """Write a frame once what it tells is on the disk; a connection already gone is let go of quietly (its
        client reconnects)."""
        self.relay.disk.then(lambda: self._write(text))

    def _write(self, text: str) -> None:
        with contextlib.suppress(WebSocketClosedError):
            self.write_message(text)

    def on_close(self) -> None:
        self.relay.sockets.discard(self)
        self.relay.let_go(self, self.seats)


def watch_parent(parent: int) -> None:
    """In the thinker's process: end it once the host that started it is gone (killed, even with SIGKILL, it cannot
    say so; its pool's pipes would keep the process waiting for ever)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK)
        os._exit(0)

    threading.Thread(target=watch, name="tablehost-watch-parent", daemon=True).start()


def holding(reply: dict[str, Any]) -> tuple[tuple[str, int] | None, tuple[str, int] | None]:
    """What a reply makes its connection hold (a seat, a walkthrough member, a class watch) or let go of."""
    kind = reply.get("type")
    if kind == "seated":
        return (reply["code"], reply["seat"]), None
    if kind == "walk_joined":
        return (reply["code"], reply["member"]), None
    if kind == "class":
        return (CLASS_WATCH, reply["watch"]), None
    if kind == "left":
        return None, (reply["code"], reply["seat"])
    if kind == "walk_left":
        return None, (reply["code"], reply["member"])
    return None, None


class Health(tornado.web.RequestHandler):
    """``GET /health``: the host is up, with how many tables, games and connections it holds."""

    def initialize(self, relay: Relay) -> None:
        self.relay = relay

    def get(self) -> None:
        tables = self.relay.host.tables.values()
        playing = sum(1 for table in tables if table.status == "playing")
        self.finish({"status": "ok", "tables": len(tables), "playing": playing, "connections": len(self.relay.sockets)})


def make_app(relay: Relay, auth: Auth, prefix: str = "/") -> tornado.web.Application:
    """The host's routes (``/ws``, ``/health``, and the same under ``prefix``) with its websocket limits."""
    routes: list[Any] = []
    inner = prefix.strip("/")
    for base in dict.fromkeys(("/", f"/{inner}/" if inner else "/")):
        routes += [
            (f"{base}ws", TableSocket, {"relay": relay, "auth": auth}),
            (f"{base}health", Health, {"relay": relay}),
        ]
    return tornado.web.Application(
        routes,
        websocket_max_message_size=MAX_FRAME,
        websocket_ping_interval=PING_SECONDS,
        websocket_ping_timeout=PING_SECONDS,
    )


class TableServer:
    """A host listening on ``settings.bind``: ``await start()`` gives its websocket URL, ``await stop()`` ends it."""

    def __init__(self, settings: Settings, auth: Auth | None = None) -> None:
        self.settings = settings
        self.auth = auth or LocalAuth()
        grouped = settings.db is not None and settings.synchronous == "FULL"  # FULL's promise, kept off the loop
        self.store = None if settings.db is None else Store(settings.db, "NORMAL")
        self.host = TableHost(self.store, away_after=settings.away_after)
        self.relay = Relay(self.host, settings.bot_delay, GroupCommit(self.store if grouped else None))
        self._http: HTTPServer | None = None
        self._away: PeriodicCallback | None = None
        self.url = ""
        self.teacher_secret: str | None = None  # drawn at this start (local host only): python -m tablehost prints it

    async def start(self) -> str:
        """Listen (port 0 takes a free one), resume the bots of every reloaded table, and return the URL."""
        address, port = split_bind(self.settings.bind)
        sockets = bind_sockets(port, address, family=socket.AF_INET)
        self._http = HTTPServer(make_app(self.relay, self.auth, self.settings.prefix), xheaders=True)
        self._http.add_sockets(sockets)
        host, bound = sockets[0].getsockname()[:2]
        self.url = f"ws://{host}:{bound}/ws"
        self._away = PeriodicCallback(self.relay.check_away, 1000 * min(5.0, max(0.05, self.settings.away_after / 4)))
        self._away.start()
        for code in self.host.tables:
            self.relay.schedule_bots(code)
        for code in self.host.classroom.walks:
            self.relay.think(code)
        if not self.settings.hub_auth:
            self.teacher_secret = self.host.classroom.teacher_link(self.settings.new_teacher_link)
        return self.url

    async def stop(self) -> None:
        """Stop listening, close every connection, and close the file (every move is already committed)."""
        if self._away is not None:
            self._away.stop()
        if self._http is not None:
            self._http.stop()
        await self.relay.disk.drained()
        for open_socket in list(self.relay.sockets):
            open_socket.close(1001, "the table host is stopping; reconnect in a moment")
        if self._http is not None:
            await self._http.close_all_connections()
        self.relay.close()
        self.relay.disk.close()
        if self.store is not None:
            self.store.close()


def split_bind(bind: str) -> tuple[str, int]:
    """``HOST:PORT`` as a pair; a ValueError names what a bind address is."""
    host, _, port = bind.rpartition(":")
    if not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"--bind is HOST:PORT, such as 127.0.0.1:8765, not {bind!r}")
    return host.strip("[]"), int(port)
