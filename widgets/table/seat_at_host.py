"""A student's seat at a host table, however its frames come (widgets/table/shared.py says what a shared table is):
:class:`SeatAtHost` keeps what they say and tells its listeners (a table) after each; :class:`SharedSeat` is a seat
in this process, through :class:`LocalHost` (the host's own protocol, no network: hot-seat and the tests), and
:class:`ClientSeat` one over the network, on a :class:`tablehost.client.TableClient` on the kernel's asyncio loop.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, Self

import hatskit
from tablehost.client import TableClient, TableConnectionLost, TableRefused
from tablehost.protocol import handle
from tablehost.tables import TableHost
from widgets.table.seat_game import HISTORY_BLOCK, Frame, SeatGame, SeatRecord, wire

OnFrame = Callable[[Frame], None]
Refused = Callable[[str], None]  # told the host's sentence when it refuses a move or an answer
LOST = (
    "The connection to the table host dropped before it answered: the next position it sends shows whether your"
    " move was played."
)


# -- in process: the host's protocol without a network -------------------------------------------------------


class LocalHost:
    """A :class:`~tablehost.TableHost` in this process, spoken to as a server is: through ``protocol.handle``.

    Each :class:`LocalConnection` is one websocket: the seats its requests were seated at are pushed their frames
    through its ``on_frame`` (the latest connection to take a seat holds it, and the one before is told
    ``closed``, as the server does). After every request the host's bots play until a player must act
    (``bots=False`` leaves them to the test: ``host.run_bots(code)`` then :meth:`deliver`).
    """

    def __init__(self, host: TableHost, bots: bool = True) -> None:
        self.host, self.bots = host, bots
        self._holders: dict[tuple[str, int], LocalConnection] = {}

    def connect(self, on_frame: OnFrame | None = None) -> LocalConnection:
        """A new connection whose seats' pushes go to ``on_frame``."""
        return LocalConnection(self, on_frame)

    def request(self, connection: LocalConnection, op: str, fields: dict[str, Any]) -> Frame:
        """One request for ``connection``: the pushes delivered, the bots played, then its reply (or TableRefused
        with the host's sentence: the table is unchanged)."""
        frame = {"op": op, **{key: value for key, value in fields.items() if value is not None}}
        sent = handle(self.host, json.dumps(frame, ensure_ascii=False))
        reply = wire(sent.reply)
        if reply.get("type") == "error":
            raise TableRefused(reply)
        if reply.get("type") == "seated":
            self._hold(reply["code"], reply["seat"], connection)
        self.deliver(sent.pushes)
        if self.bots and isinstance(reply.get("code"), str):
            self.deliver(self.host.run_bots(reply["code"]).pushes)
        return reply

    def deliver(self, pushes: Sequence[tuple[str, int, Frame]]) -> None:
        """Hand each pushed frame to the connection holding its seat (a seat nobody holds here is not told)."""
        for code, seat, frame in pushes:
            holder = self._holders.get((code, seat))
            if holder is not None:
                holder.receive(wire(frame))

    def _hold(self, code: str, seat: int, connection: LocalConnection) -> None:
        before = self._holders.get((code, seat))
        self._holders[(code, seat)] = connection
        if before is not None and before is not connection:
            before.receive({"type": "closed", "code": code, "message": f"seat {seat} was taken up elsewhere"})


@dataclass
class LocalConnection:
    """One in-process connection to a :class:`LocalHost` (a websocket's stand-in)."""

    host: LocalHost
    on_frame: OnFrame | None = None

    def request(self, op: str, **fields: Any) -> Frame:
        """Send one request; its reply, or TableRefused carrying the host's sentence."""
        return self.host.request(self, op, fields)

    def receive(self, frame: Frame) -> None:
        if self.on_frame is not None:
            self.on_frame(frame)


# -- the kernel's seat ---------------------------------------------------------------------------------------


Listener = Callable[[str, int], None]  # (the frame's type, the latest ply before it)


class SeatAtHost:
    """One student's seat at a host table, however the frames come: it keeps what they say (:attr:`game`,
    :attr:`presence`) and tells its listeners (a table) after each one. :class:`SharedSeat` is a seat in this
    process, :class:`ClientSeat` one over the network."""

    def __init__(self, code: str, token: str | None) -> None:
        self.code, self.token = code, token
        self.seat: int | None = None
        self.game: SeatGame | None = None
        self.presence: Frame | None = None
        self.ended: str | None = None  # why this connection holds the seat no more (closed, or taken elsewhere)
        self.reachable = True  # the host answers (over the network a connection can drop, and come back)
        self._record: SeatRecord | None = None
        self._listeners: list[Listener] = []

    # -- what a way of reaching the host writes ------------------------------------------------------

    def send_move(self, notation: str, refused: Callable[[str], None]) -> None:
        """Send a move to the host; ``refused(sentence)`` is called if the host (or the connection) says no."""
        raise NotImplementedError

    def send_answer(self, action: str, seconds: float, refused: Refused) -> None:
        """Send a timed answer to the host's ``answer`` op: a race pad's action and the reaction time this device
        measured from when its own screen showed the decision. The host makes it the seat's move and settles the
        race on the devices' times, so how long the answer took on the way decides nothing; ``refused`` as for
        :meth:`send_move`."""
        raise NotImplementedError

    def send_hand_to_bot(self, seat: int, refused: Refused) -> None:
        """Ask the host to let a bot play for ``seat``, whose player is away; ``refused`` as for :meth:`send_move`."""
        raise NotImplementedError

    def history(self, first: int, last: int) -> list[Frame]:
        """The seat's own views from ply ``first`` to ``last`` the host gives at once ([]: not now)."""
        del first, last
        return []

    # -- frames ----------------------------------------------------------------------------------

    def listen(self, listener: Listener) -> None:
        """Call ``listener(kind, ply_before)`` after each frame this seat takes in."""
        self._listeners.append(listener)

    def receive(self, frame: Frame) -> None:
        """Take in one frame the host pushed or replied, then tell the listeners."""
        kind = frame.get("type", "")
        before = self._record.latest if self._record is not None else 0
        if kind == "seated":
            self.seat = frame["seat"]
        elif kind == "presence":
            self.presence = frame
        elif kind == "closed":
            self.ended = frame.get("message", "closed")
        elif kind == "state":
            self._take_state(frame)
        elif kind == "connection":
            self.reachable = frame["connected"]
        self._tell(kind, before)

    def _tell(self, kind: str, before: int) -> None:
        for listener in list(self._listeners):
            listener(kind, before)

    def _take_state(self, frame: Frame) -> None:
        if self._record is None:
            spec = hatskit.GAMES[frame["view"]["game"]]
            self._record = SeatRecord(spec, frame["seat"], self.history)
        self._record.take_state(frame)
        self.game = SeatGame(self._record, self._record.latest, self._play)

    def _play(self, notation: str) -> Frame:
        """``SeatGame.play``: the move sent, a refusal raised as the host's sentence (in process it is known)."""
        refusals: list[str] = []
        self.send_move(notation, refusals.append)
        if refusals:
            raise TableRefused({"type": "error", "op": "move", "message": refusals[0]})
        return {}

    def _own_move(self, reply: Frame) -> None:
        """The host's ``moved`` reply: the seat keeps its own move (the one notation it may know of every move)."""
        if self._record is not None:
            self._record.moves[reply["ply"] - 1] = self._record.spec.parse_move(reply["move"])

    def seat_entry(self, seat: int) -> Frame | None:
        """The presence entry of ``seat`` (its player's typed name, bot, connection), if one was sent."""
        seats = [] if self.presence is None else self.presence["seats"]
        return next((entry for entry in seats if entry["seat"] == seat), None)


def _refusals_to(refused: Refused, request: Callable[[], Frame]) -> None:
    """Make ``request`` of a host in this process; its refusal goes to ``refused``, as a player reads it."""
    try:
        request()
    except TableRefused as refusal:
        refused(refusal.sentence)


class SharedSeat(SeatAtHost):
    """A seat at a host table in this process (:class:`LocalHost`): each request is answered, and its frames
    delivered, before the call returns.

    ``SharedSeat.open`` and ``SharedSeat.join`` sit down first (the host gives the token once); a seat made from
    a code and a token comes back to it (a reload: the host tells every move since the start).
    """

    def __init__(self, link: LocalHost, code: str, token: str) -> None:
        super().__init__(code, token)
        self.connection = link.connect(self.receive)
        self.seat = self.connection.request("rejoin", code=code, token=token, since=0)["seat"]

    @classmethod
    def open(cls, link: LocalHost, game: str, players: int, name: str, **fields: Any) -> Self:
        """Open a table of ``game`` and sit at seat 0 (``fields``: ``options``, ``bots``)."""
        reply = link.connect().request("open", game=game, players=players, name=name, **fields)
        return cls(link, reply["code"], reply["token"])

    @classmethod
    def join(cls, link: LocalHost, code: str, name: str) -> Self:
        """Sit at the next free seat of the table with ``code``."""
        reply = link.connect().request("join", code=code, name=name)
        return cls(link, reply["code"], reply["token"])

    def start(self, bots: str | None = None) -> Frame:
        """The opener starts the game; the empty seats get the host's bots."""
        return self.connection.request("start", code=self.code, token=self.token, bots=bots)

    def move(self, notation: str) -> Frame:
        """Send a move; the host plays it or refuses it (TableRefused, its sentence). The position comes as a
        frame; the reply names the move, which the seat keeps as its own."""
        reply = self.connection.request("move", code=self.code, token=self.token, move=notation, seat=self.seat)
        self._own_move(reply)
        return reply

    def send_move(self, notation: str, refused: Callable[[str], None]) -> None:
        _refusals_to(refused, lambda: self.move(notation))

    def answer(self, action: str, seconds: float) -> Frame:
        """Send a timed answer (:meth:`SeatAtHost.send_answer`); the host plays it as the seat's move or refuses
        it (TableRefused, its sentence). The race, settled or not, comes as a frame; the seat keeps its move."""
        reply = self.connection.request("answer", code=self.code, token=self.token, action=action, seconds=seconds)
        self._own_move(reply)
        return reply

    def send_answer(self, action: str, seconds: float, refused: Refused) -> None:
        _refusals_to(refused, lambda: self.answer(action, seconds))

    def send_hand_to_bot(self, seat: int, refused: Refused) -> None:
        fields = {"code": self.code, "token": self.token, "seat": seat}
        _refusals_to(refused, lambda: self.connection.request("hand_to_bot", **fields))

    def history(self, first: int, last: int) -> list[Frame]:
        return self.connection.request("history", code=self.code, token=self.token, first=first, last=last)["plies"]


class ClientSeat(SeatAtHost):
    """A seat at a host over the network: a :class:`~tablehost.client.TableClient` on the kernel's asyncio loop
    (ipykernel's), the ipywidgets "asynchronous widgets" way: frames arrive on the loop and redraw the table
    there; a move (or a race answer) is a task on the loop, and a refusal comes back to the table when the host
    answers.

    The client reconnects and rejoins by itself; views the seat missed meanwhile are fetched in the background
    (:meth:`catch_up`), and until they come a table stepping back shows the nearest view it has.

        >>> seat = await ClientSeat.join(os.environ["TABLETOP_URL"], "KBQTZ", name="Ben")
        >>> await seat.wait_for(lambda s: s.game is not None)   # the opener started
        >>> table = at_host(HatsTable, seat)
    """

    def __init__(self, client: TableClient) -> None:
        super().__init__(client.code or "", client.token)
        self.client = client
        self._tasks: set[asyncio.Task[None]] = set()
        client.on_frame = self.receive

    @classmethod
    async def connect(cls, url: str, **options: Any) -> Self:
        """A seat whose client is connected to the host at ``url`` (``options``: TableClient's), not seated yet."""
        seat = cls(TableClient(url, **options))
        await seat.client.connect()
        return seat

    @classmethod
    async def open(cls, url: str, game: str, players: int, name: str, bots: str = "greedy", **options: Any) -> Self:
        """Open a table of ``game`` at the host at ``url`` and sit at seat 0 (``bots``: who fills empty seats)."""
        seat = await cls.connect(url, **options)
        await seat._sit(seat.client.open(game, players, name, bots=bots))
        return seat

    @classmethod
    async def join(cls, url: str, code: str, name: str, **options: Any) -> Self:
        """Sit at the next free seat of the table with ``code`` (on a hub, a user back at their own seat gets it)."""
        seat = await cls.connect(url, **options)
        await seat._sit(seat.client.join(code, name))
        return seat

    @classmethod
    async def rejoin(cls, url: str, code: str, token: str | None, **options: Any) -> Self:
        """Come back to a seat (a reloaded page): the host tells every move since the start."""
        seat = await cls.connect(url, **options)
        seat.client.code, seat.client.token = code, token
        await seat._sit(seat.client.request("rejoin", code=code, token=token, since=0))
        return seat

    async def _sit(self, request: Awaitable[Frame]) -> None:
        """Take a seat with ``request``; back at a game under way, wait for its position and the views before it
        (so stepping back needs no wait). A refusal closes the connection and is raised."""
        try:
            reply = await request
            if reply["status"] != "waiting":
                await self.wait_for(lambda s: s.game is not None)
                await self.catch_up()
        except BaseException:
            await self.close()
            raise

    async def start(self, bots: str | None = None) -> Frame:
        return await self.client.start(bots)

    async def wait_for(self, condition: Callable[[ClientSeat], object], timeout: float = 10.0) -> None:
        """Wait on the loop until ``condition(self)`` holds (checked after every frame)."""
        await self.client.wait_for(lambda _: condition(self), timeout)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await self.client.close()

    def receive(self, frame: Frame) -> None:
        if frame.get("type") == "seated":
            self.code, self.token = frame["code"], frame.get("token", self.token)
            if self._record is not None:
                self._spawn(self.catch_up())  # back after a lost connection: the views it missed
        super().receive(frame)

    def send_move(self, notation: str, refused: Callable[[str], None]) -> None:
        self._spawn(self._sent(lambda: self.client.move(notation), refused))

    def send_answer(self, action: str, seconds: float, refused: Refused) -> None:
        self._spawn(self._sent(lambda: self.client.answer(action, seconds), refused))

    def send_hand_to_bot(self, seat: int, refused: Refused) -> None:
        self._spawn(self._asked(lambda: self.client.hand_to_bot(seat), refused))

    async def _sent(self, request: Callable[[], Awaitable[Frame]], refused: Refused) -> None:
        """A move or an answer sent, as a task on the loop: the seat keeps its move when the host replies."""
        reply = await self._asked(request, refused)
        if reply is not None:
            self._own_move(reply)

    async def _asked(self, request: Callable[[], Awaitable[Frame]], refused: Refused) -> Frame | None:
        """The host's reply to ``request``; None when it refused, or the connection dropped before the reply: then
        ``refused`` has the sentence."""
        try:
            return await request()
        except TableRefused as refusal:
            refused(refusal.sentence)
        except (TableConnectionLost, TimeoutError):
            refused(LOST)
        return None

    async def catch_up(self) -> None:
        """Fetch the seat's own views it was not sent (a block of plies a request), then tell the listeners."""
        record = self._record
        if record is None:
            return
        missing = [ply for ply in range(record.latest + 1) if ply not in record.views]
        while missing:
            first = missing[0]
            reply = await self.client.history(first, min(record.latest, first + HISTORY_BLOCK - 1))
            record.take_history(reply["plies"])
            missing = [ply for ply in missing if ply not in record.views]
        self._tell("history", record.latest)

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
