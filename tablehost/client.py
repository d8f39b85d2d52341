"""A kernel's side of a shared table: an asyncio client that keeps its seat across lost connections.

    >>> client = TableClient("ws://127.0.0.1:8765/ws")          # TABLETOP_URL
    >>> await client.connect()
    >>> await client.join("KBQTZ", name="Maya")                  # or: await client.open("hats", 3, "Maya")
    >>> await client.wait_for(lambda c: c.state is not None)     # the game started
    >>> await client.move(client.state["legal"][0])

It runs on the loop it is started on (a kernel's, in a widget; a test's). A
background task reads every frame: ``state`` and ``presence`` keep the latest
of each, ``on_frame`` (if given) sees every frame as it comes (a widget updates
its traits there). When the connection drops (the host restarted, the network
blinked) the client connects again by itself, waiting a little longer after
each failure (``backoff``, with jitter, so a class does not knock at once), and
rejoins its seat with its token, asking for the moves it missed; ``on_frame``
hears ``{"type": "connection", "connected": False}`` when it drops and ``True``
once it is back (the client's own frame, so a page can say the host is away). A request in
flight when the connection drops fails with :class:`TableConnectionLost`: it is
not sent again, as the host may have played it (the next state frame says).
On JupyterHub, ``hub_token`` (the kernel's ``JUPYTERHUB_API_TOKEN``) goes in the
``Authorization`` header and the hub user holds the seat; a refusal by the hub
(401, 403) stops the reconnecting.

The class together (docs/host.md, "The class together") has a method per op:
``walk_open`` ... ``walk_list`` and ``class_join`` ... ``class_clear``. A
teacher's client is made with ``teacher=`` the secret of the teacher's link (on
a hub, the hub says who teaches). A student's client keeps its class name and
class token (``name``, ``class_token``: given by the first ``class_join`` or
``walk_join``; keep the token, as a seat token). The latest ``walk``,
``walk_presence`` and ``tally`` frames are kept, and the teacher's class list
in ``class_rows``; after a reconnection the client follows its walkthrough and
watches the class list again by itself.

    >>> teacher = TableClient(url, teacher=secret)
    >>> code = (await teacher.walk_open("hats", 3, shows="seat"))["code"]
    >>> student = TableClient(url)
    >>> await student.walk_join(code, name="Maya")            # student.walk: the position shown
    >>> await teacher.walk_ask()                              # "your move?"
    >>> await student.walk_try("♥5@2")                        # teacher.tally counts it
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import random
from collections import deque
from collections.abc import Callable
from typing import Any

from tornado.httpclient import HTTPClientError, HTTPRequest
from tornado.websocket import WebSocketClientConnection, WebSocketClosedError, websocket_connect

FrameHandler = Callable[[dict[str, Any]], None]
log = logging.getLogger("tablehost.client")

MAX_INCOMING = 16 * 1024 * 1024  # a history reply of 100 views is a few hundred KB
KEPT_FRAMES = 1000
CLASS_FRAMES = ("walk_joined", "class_joined", "walk", "walk_presence", "walk_tally", "class", "class_row")


class TableRefused(Exception):
    """The host refused a request; the message is its sentence."""

    def __init__(self, frame: dict[str, Any]) -> None:
        super().__init__(frame.get("message", "refused"))
        self.frame = frame

    @property
    def sentence(self) -> str:
        """What a player reads: the refusal's reason where the host gave one (no notation or seat numbers, as on a
        table of one's own), else the host's sentence."""
        reason = self.frame.get("reason")
        return reason if isinstance(reason, str) and reason else str(self)


class TableConnectionLost(ConnectionError):
    """The connection dropped before the host answered; the client is reconnecting."""


class TableClient:
    """One seat's connection to a table host; see the module docstring."""

    def __init__(
        self,
        url: str,
        *,
        hub_token: str | None = None,
        on_frame: FrameHandler | None = None,
        backoff: tuple[float, float] = (0.05, 5.0),
        timeout: float = 30.0,
        teacher: str | None = None,
    ) -> None:
        self.url, self.hub_token, self.on_frame = url, hub_token, on_frame
        self.teacher = teacher  # the secret of the teacher's link (a local host's teacher only)
        self.backoff, self.timeout = backoff, timeout
        self.code: str | None = None
        self.seat: int | None = None
        self.token: str | None = None
        self.state: dict[str, Any] | None = None
        self.presence: dict[str, Any] | None = None
        self.frames: deque[dict[str, Any]] = deque(maxlen=KEPT_FRAMES)
        self.connected = False
        self.connections = 0  # how many times a connection opened (1 + reconnects)
        self.failed: Exception | None = None  # why the client stopped for good (the hub refused it)
        self.ended: str | None = None  # why the client holds no seat any more (the table closed, the seat taken up)
        self.name: str | None = None  # the student's name in the class
        self.class_token: str | None = None  # the token that proves it (a local host)
        self.walk_code: str | None = None  # the walkthrough this client follows or leads
        self.walk_role: str | None = None  # "student" or "teacher"
        self.walk: dict[str, Any] | None = None  # the position the class is shown (the latest walk frame)
        self.walk_presence: dict[str, Any] | None = None
        self.walk_ended: str | None = None  # why the client follows no walkthrough any more
        self.tally: dict[str, Any] | None = None  # the teacher's: the open question's answers counted
        self.class_rows: dict[str, dict[str, Any]] = {}  # the teacher's class list, a row per student by name
        self.watching = False  # the class list is pushed to this client
        self._ws: WebSocketClientConnection | None = None
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._changed = asyncio.Event()
        self._runner: asyncio.Task[None] | None = None
        self._closing = False

    # -- requests ----------------------------------------------------------------------

    async def open(
        self,
        game: str,
        players: int,
        name: str | None = None,
        options: dict[str, Any] | None = None,
        bots: str = "greedy",
    ) -> dict[str, Any]:
        """Open a table and sit at seat 0; the reply holds its code."""
        return await self.request("open", game=game, players=players, name=name, options=options or {}, bots=bots)

    async def join(self, code: str, name: str | None = None) -> dict[str, Any]:
        return await self.request("join", code=code, name=name)

    async def start(self, bots: str | None = None) -> dict[str, Any]:
        return await self.request("start", **self._seat_fields(), bots=bots)

    async def move(self, move: str) -> dict[str, Any]:
        return await self.request("move", **self._seat_fields(), move=move)

    async def answer(self, action: str, seconds: float) -> dict[str, Any]:
        """A Hats Off! race answer with the reaction time this device measured."""
        return await self.request("answer", **self._seat_fields(), action=action, seconds=seconds)

    async def history(self, first: int = 0, last: int | None = None) -> dict[str, Any]:
        return await self.request("history", **self._seat_fields(), first=first, last=last)

    async def hand_to_bot(self, seat: int, bots: str | None = None) -> dict[str, Any]:
        return await self.request("hand_to_bot", **self._seat_fields(), seat=seat, bots=bots)

    async def leave(self) -> dict[str, Any]:
        return await self.request("leave", **self._seat_fields())

    # -- the class together: walkthroughs --------------------------------------------

    async def walk_open(
        self,
        game: str,
        players: int | None = None,
        name: str | None = None,
        options: dict[str, Any] | None = None,
        seat: int = 0,
        shows: str = "all",
        seed: int | None = None,
    ) -> dict[str, Any]:
        """The teacher opens a walkthrough (seated at ``seat``, the class shown ``all`` seats or the ``seat``)."""
        fields = {"game": game, "players": players, "name": name, "options": options, "seat": seat, "shows": shows}
        return await self.request("walk_open", teacher=self.teacher, seed=seed, **fields)

    async def walk_join(self, code: str, name: str | None = None, role: str = "student") -> dict[str, Any]:
        """Follow a walkthrough by its code (a student: under ``name``, joining the class), or lead it again."""
        self.name = name or self.name
        return await self.request("walk_join", code=code, role=role, **self._member_fields(role))

    async def walk_state(self) -> dict[str, Any]:
        """The position the class is shown now (a student back from a line of their own)."""
        return await self.request("walk_state", **self._walk_fields())

    async def walk_move(self, move: str) -> dict[str, Any]:
        return await self.request("walk_move", **self._walk_fields(), move=move)

    async def walk_step(self, ply: int) -> dict[str, Any]:
        return await self.request("walk_step", **self._walk_fields(), ply=ply)

    async def walk_ask(self, seat: int | None = None) -> dict[str, Any]:
        """Ask "your move?" at the position shown (about ``seat``; by default the one seat the class is shown that
        acts)."""
        return await self.request("walk_ask", **self._walk_fields(), seat=seat)

    async def walk_try(self, move: str, number: int | None = None) -> dict[str, Any]:
        """A student's one try at the open question (by default the one this client was last shown)."""
        question = (self.walk or {}).get("question") or {}
        asked = number if number is not None else question.get("number")
        return await self.request("walk_try", **self._walk_fields(), number=asked, move=move)

    async def walk_leave(self) -> dict[str, Any]:
        return await self.request("walk_leave", **self._walk_fields())

    async def walk_close(self) -> dict[str, Any]:
        return await self.request("walk_close", **self._walk_fields())

    async def walk_list(self) -> dict[str, Any]:
        return await self.request("walk_list", teacher=self.teacher)

    # -- the class together: progress ----------------------------------------------------

    async def class_join(self, name: str | None = None) -> dict[str, Any]:
        """Join the class under ``name`` (a new name is given its class token), or prove it again."""
        self.name = name or self.name
        return await self.request("class_join", **self._member_fields("student"))

    async def class_stars(self, game: str, stars: list[str]) -> dict[str, Any]:
        """This student's stars for ``game`` (lesson keys such as ``hats/first-game``), replacing the host's."""
        return await self.request("class_stars", **self._member_fields("student"), game=game, stars=stars)

    async def class_where(
        self, page: str, lesson: str | None = None, step: int | None = None, table: str | None = None
    ) -> dict[str, Any]:
        fields = {"page": page, "lesson": lesson, "step": step, "table": table}
        return await self.request("class_where", **self._member_fields("student"), **fields)

    async def class_list(self) -> dict[str, Any]:
        """The teacher's class list; every change is pushed to this client from then on (``class_rows``)."""
        return await self.request("class_list", teacher=self.teacher)

    async def class_clear(self, name: str | None = None) -> dict[str, Any]:
        return await self.request("class_clear", teacher=self.teacher, name=name)

    async def request(self, op: str, **fields: Any) -> dict[str, Any]:
        """Send one request and wait for its reply; TableRefused carries the host's sentence when it says no."""
        rid = next(self._ids)
        waiter: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = waiter
        try:
            self._send({"op": op, "id": rid, **{k: v for k, v in fields.items() if v is not None}})
            reply = await asyncio.wait_for(waiter, self.timeout)
        finally:
            self._waiting.pop(rid, None)
        if reply.get("type") == "error":
            raise TableRefused(reply)
        return reply

    async def wait_for(self, condition: Callable[[TableClient], object], timeout: float = 10.0) -> None:
        """Wait until ``condition(self)`` holds, checked after every frame and connection change."""
        deadline = asyncio.get_running_loop().time() + timeout
        while not condition(self):
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError(f"waited {timeout} s for a condition that did not come")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)

    # -- the connection ----------------------------------------------------------------

    async def connect(self) -> None:
        """Connect (raising if the host cannot be reached now) and keep the connection from then on."""
        await self._connect_once()
        self._runner = asyncio.ensure_future(self._run())

    async def close(self) -> None:
        """Leave the connection for good (the seat stays the player's: another client may rejoin it)."""
        self._closing = True
        if self._ws is not None:
            self._ws.close()
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._runner

    async def _connect_once(self) -> None:
        headers = {} if self.hub_token is None else {"Authorization": f"token {self.hub_token}"}
        request = HTTPRequest(self.url, headers=headers, connect_timeout=self.timeout, request_timeout=self.timeout)
        self._ws = await websocket_connect(request, max_message_size=MAX_INCOMING)
        self._ws.protocol.set_nodelay(True)  # type: ignore[union-attr]  # each request goes out at once
        self.connected, self.connections = True, self.connections + 1
        self._changed.set()

    async def _run(self) -> None:
        """Read frames; when the connection drops, reconnect and rejoin, until closed or refused by the hub."""
        while not self._closing:
            assert self._ws is not None
            message = await self._ws.read_message()
            if message is None:
                self._lost()
                if not await self._reconnect():
                    return
                continue
            if isinstance(message, str):
                self._receive(json.loads(message))

    def _lost(self) -> None:
        self.connected = False
        for waiter in self._waiting.values():
            if not waiter.done():
                waiter.set_exception(TableConnectionLost("the connection to the table host dropped"))
        self._changed.set()
        self._tell_connection()

    def _tell_connection(self) -> None:
        """``on_frame`` hears the client's own ``connection`` frame: the connection dropped, or is back."""
        if self.on_frame is not None:
            self.on_frame({"type": "connection", "connected": self.connected})

    async def _reconnect(self) -> bool:
        """Connect again, waiting longer after each failure; rejoin the seat. False when the hub refuses us."""
        delay, most = self.backoff
        while not self._closing:
            await asyncio.sleep(delay * random.uniform(0.5, 1.0))
            try:
                await self._connect_once()
            except HTTPClientError as error:
                if error.code in (401, 403):
                    self.failed = error
                    self._changed.set()
                    return False
            except Exception:  # refused, reset, timed out: the host is not back yet
                pass
            else:
                self._rejoin()
                self._tell_connection()
                return True
            delay = min(delay * 2, most)
        return False

    def _rejoin(self) -> None:
        """Ask for the seat back, with the last ply seen, follow the walkthrough again and watch the class list again
        (the replies and frames arrive on the reader)."""
        if self.walk_code is not None and self.walk_role is not None:
            self._send_again(
                "walk_join", code=self.walk_code, role=self.walk_role, **self._member_fields(self.walk_role)
            )
        if self.watching:
            self._send_again("class_list", teacher=self.teacher)
        if self.code is None:
            return
        since = None if self.state is None else self.state["ply"]
        self._send_again("rejoin", code=self.code, token=self.token, since=since)

    def _send_again(self, op: str, **fields: Any) -> None:
        """A request the client makes by itself after a reconnection; its reply's ``re`` is ``<op>-<connection>``."""
        self._send({"op": op, "id": f"{op}-{self.connections}", **{k: v for k, v in fields.items() if v is not None}})

    def _receive(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        if kind == "seated":
            self.code, self.seat = frame["code"], frame["seat"]
            self.token = frame.get("token", self.token)
        elif kind == "state":
            self.state = frame
        elif kind == "presence":
            self.presence = frame
        elif kind == "closed" and frame.get("code") == self.code:
            self.ended, self.code = frame["message"], None  # the table closed, or the seat went to another connection
        elif kind in CLASS_FRAMES or (kind == "closed" and frame.get("code") == self.walk_code):
            self._receive_class(frame)
        self.frames.append(frame)
        waiter = self._waiting.get(frame["re"]) if isinstance(frame.get("re"), int) else None
        if waiter is not None and not waiter.done():
            waiter.set_result(frame)
        if self.on_frame is not None:
            try:
                self.on_frame(frame)
            except Exception:  # a widget's fault must not stop the reader (and with it every later frame)
                log.exception("on_frame failed on a %s frame", kind)
        self._changed.set()

    def _receive_class(self, frame: dict[str, Any]) -> None:
        """Keep the latest of the class's frames: the walkthrough followed, its presence and tally, the class list."""
        kind = frame["type"]
        if kind == "walk_joined":
            self.walk_code, self.walk_role, self.walk_ended = frame["code"], frame["role"], None
        if kind == "class_joined" or (kind == "walk_joined" and frame["role"] == "student"):
            self.name, self.class_token = frame["name"], frame.get("token", self.class_token)
        elif kind == "closed":
            self.walk_ended, self.walk_code = frame["message"], None  # the teacher ended it
        elif kind == "walk":
            self.walk = frame
        elif kind == "walk_presence":
            self.walk_presence = frame
        elif kind == "walk_tally":
            self.tally = frame
        elif kind == "class":
            self.class_rows = {row["name"]: row for row in frame["rows"]}
            self.watching = self.watching or "watch" in frame
        elif kind == "class_row":
            self.class_rows[frame["row"]["name"]] = frame["row"]

    def _member_fields(self, role: str) -> dict[str, Any]:
        """Who a class request is from: the teacher (the secret), or the student (their name and class token)."""
        return {"teacher": self.teacher} if role == "teacher" else {"name": self.name, "token": self.class_token}

    def _walk_fields(self) -> dict[str, Any]:
        if self.walk_code is None or self.walk_role is None:
            raise TableRefused({"message": "this client follows no walkthrough: open or join one first"})
        return {"code": self.walk_code, "role": self.walk_role, **self._member_fields(self.walk_role)}

    def _send(self, frame: dict[str, Any]) -> None:
        if self._ws is None or not self.connected:
            raise TableConnectionLost("not connected to the table host (reconnecting)")
        try:
            self._ws.write_message(json.dumps(frame, ensure_ascii=False))
        except WebSocketClosedError:
            raise TableConnectionLost("the connection to the table host dropped") from None

    def _seat_fields(self) -> dict[str, Any]:
        if self.code is None:
            raise TableRefused({"message": "this client holds no seat yet: open or join a table first"})
        return {"code": self.code, "token": self.token}
