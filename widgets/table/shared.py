"""A student's seat at a table the table host keeps ("Play a classmate"), in the kernel.

At a shared table the kernel holds no :class:`hatskit.Game`: a student can run code in their kernel, so it holds
only what the host sends its seat (``tablehost/frames.py``): its own view after each move, the public narration,
who may act, its legal moves as notation, the public score sheet and the outcome. Three pieces:

- :class:`SeatGame` stands in for ``hatskit.Game`` where a :class:`~widgets.table.frame.TableFrame` and the game
  tables read ``self.game`` and ``self.shown()``, built from those frames alone; views it was not sent (a seat that
  came back mid-game) it asks the host for with the ``history`` op;
- :class:`SeatAtHost` is the kernel's seat: its code and token, its connection, and the :class:`SeatGame` the
  frames build; it sends moves and never changes the game itself: the new position arrives as a frame
  (:class:`SharedSeat` in process, :class:`ClientSeat` over the network);
- :class:`SharedTable` is a mix-in that puts a shared seat on an existing table class (:func:`at_host`): a move
  the page completes goes to the host (a race pad's timed answer to its ``answer`` op, through the table's
  ``play_answer`` hook), undo and the set-up are off, the host runs the bots, and the table redraws when a frame
  arrives.

In process, :class:`LocalHost` carries requests to a :class:`tablehost.TableHost` through the host's own protocol
(JSON text in, JSON out, as on the wire) and hands each pushed frame to the connection that holds the seat at
once, then plays the host's bots; so a table redraws synchronously after each host call:

    >>> link = LocalHost(TableHost())
    >>> maya = SharedSeat.open(link, "hats", players=3, name="Maya")
    >>> ben = SharedSeat.join(link, maya.code, name="Ben")
    >>> maya.start()                       # seat 2 gets the host's greedy bot
    >>> tables = at_host(HatsTable, maya), at_host(HatsTable, ben)

Over the network, :class:`ClientSeat` is the same seat reading its frames from a
:class:`tablehost.client.TableClient` on the kernel's asyncio loop: frames redraw the table on the loop, a move is a
task there, and a refusal comes back to the message line when the host answers.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self, cast

import hatskit
from hatskit.core import (
    Event,
    GameSpec,
    InvalidMoveError,
    Outcome,
    ScoreLine,
    ScoreSheet,
    SeatView,
    UsageError,
    brief,
    check_move_text,
)
from tablehost.client import TableClient, TableConnectionLost, TableRefused
from tablehost.protocol import NO_UNDO, handle
from tablehost.tables import TableHost
from widgets.table.frame import TableFrame
from widgets.table.setup import READER, bot_name
from widgets.toolkit.parts import named_button, show

__all__ = [
    "ClientSeat",
    "LocalHost",
    "SeatAtHost",
    "SeatGame",
    "SharedSeat",
    "SharedTable",
    "TableRefused",
    "at_host",
    "take_seat",
]

Frame = dict[str, Any]
OnFrame = Callable[[Frame], None]
Refused = Callable[[str], None]  # told the host's sentence when it refuses a move or an answer
HISTORY_BLOCK = 100  # views one history reply holds (tablehost/frames.py, HISTORY_LIMIT)
NO_STATE = "a seat at a shared table holds no state of the game, only what its seat is sent"
STEP_TO_LATEST = "Step to the latest position to play: at a shared table every move is made there."
AWAY_TIP = "your classmate has been away for a while: a bot plays their seat until they come back to the table"
NO_UNDO_HERE = "There is no undo at a shared table: every player has seen the move. The step bar shows earlier moves."
HOST_AWAY = "The table host cannot be reached just now: the game waits, and this table joins it again by itself."
HOST_BACK = "Back at the table: the game goes on."
NO_NEW_GAME = "This table is shared with classmates: its game is the host's, so no other game can be put on it."
LOST = (
    "The connection to the table host dropped before it answered: the next position it sends shows whether your"
    " move was played."
)
NO_SHARING = "This table is shared with classmates through its code: links and position codes are for your own tables."


# -- in process: the host's protocol without a network -------------------------------------------------------


def _wire(frame: Frame) -> Frame:
    """``frame`` as it would arrive over a websocket: JSON and back (tuples become lists, nothing else slips by)."""
    return json.loads(json.dumps(frame, ensure_ascii=False))


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
        reply = _wire(sent.reply)
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
                holder.receive(_wire(frame))

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


# -- what one seat has been sent -----------------------------------------------------------------------------


@dataclass
class SeatRecord:
    """Everything one seat has been sent, by ply; a :class:`SeatGame` and its snapshots read it, never the game.

    ``views[p]`` is the seat's own view after ``p`` moves, ``frames[p]`` the state frame sent at ply ``p`` (who
    acts, legal moves, score, outcome), ``events[p]`` the narration of move ``p + 1``, ``moves[p]`` move ``p + 1``
    where the seat may know it: its own, or in a game that hides nothing, the one its views show was made.
    ``fetch(first, last)`` asks the host for the seat's own views it was not sent (``history``).
    """

    spec: GameSpec
    seat: int
    fetch: Callable[[int, int], list[Frame]]
    views: dict[int, Frame] = field(default_factory=dict)
    frames: dict[int, Frame] = field(default_factory=dict)
    events: list[list[Event]] = field(default_factory=list)
    moves: dict[int, Any] = field(default_factory=dict)
    latest: int = 0

    def take_state(self, frame: Frame) -> None:
        """A state frame: the view, who acts and the rest at its ply, and the narration it tells."""
        ply = frame["ply"]
        self.latest = max(self.latest, ply)
        self.views[ply] = frame["view"]
        self.frames[ply] = frame
        self._grow(ply)
        self.take_events(frame["events"])

    def take_events(self, events: list[Frame]) -> None:
        """Narration by ply; a frame tells a move's events whole, so a ply told again is replaced, not doubled."""
        told: dict[int, list[Event]] = {}
        for event in events:
            told.setdefault(event["ply"], []).append(Event(event["text"], event["rule"]))
        for ply, said in told.items():
            self._grow(ply)
            self.events[ply - 1] = said

    def take_history(self, plies: list[Frame]) -> None:
        """A ``history`` reply's views and narration, by ply."""
        for entry in plies:
            self.views.setdefault(entry["ply"], entry["view"])
            self.take_events(entry["events"])

    def view_at(self, ply: int) -> Frame:
        """The seat's own view after ``ply`` moves, asked of the host (a block of them) when it was not sent; while
        the host cannot answer at once (over the network), the nearest view before it the seat has."""
        if ply not in self.views:
            self.take_history(self.fetch(max(0, ply - HISTORY_BLOCK + 1), ply))
        if ply not in self.views:
            return self.views[max((seen for seen in self.views if seen <= ply), default=min(self.views))]
        return self.views[ply]

    def move_at(self, ply: int) -> Any:
        """Move ``ply + 1``: known when the seat made it, or found from its views when the game hides nothing (and
        both views are here: one still on its way over the network is not guessed from)."""
        if ply not in self.moves and not self.spec.hidden_information:
            self.view_at(ply), self.view_at(ply + 1)
            if ply in self.views and ply + 1 in self.views:
                self.moves[ply] = self._seen_move(ply)
        return self.moves.get(ply)

    def _seen_move(self, ply: int) -> Any:
        """The one legal move that turns the view after ``ply`` moves into the next (a game with no hidden cards:
        the view holds the whole position, so this reads nothing the seat was not shown)."""
        before, after = self.views[ply], self.views[ply + 1]
        if "position" not in before:
            return None
        state = self.spec.load_position(before["position"])
        found = [move for move in state.legal_moves() if _wire(self._view_after(state, move)) == after]
        return found[0] if len(found) == 1 else None

    def _view_after(self, state: Any, move: Any) -> Frame:
        return self.spec.view(self.spec.apply(state, move)[0], self.seat)

    def _grow(self, ply: int) -> None:
        while len(self.events) < ply:
            self.events.append([])


class _Moves(Sequence[Any]):
    """The moves up to a ply as the seat may know them (None where it may not): found only when asked."""

    def __init__(self, record: SeatRecord, ply: int) -> None:
        self._record, self._ply = record, ply

    def __len__(self) -> int:
        return self._ply

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._ply))]
        if not -self._ply <= index < self._ply:
            raise IndexError(index)
        return self._record.move_at(index % self._ply)

    def __iter__(self) -> Iterator[Any]:
        return (self._record.move_at(ply) for ply in range(self._ply))


class SeatGame:
    """A stand-in for ``hatskit.Game`` at one seat of a shared table, built only from the frames the seat is sent.

    It answers what a table asks of its game (ply, events, movers, seat names, who acts, views, legal moves, the
    score sheet, the outcome, ``state_at``, ``seat_view`` for a hint) at the latest ply or, through
    :meth:`state_at`, at an earlier one. A seat sees its own view only: ``view(None)`` (what a table reads for
    public fields) is that view too, and another seat's view is refused. Moves are not judged here
    (``why_illegal`` says only whether notation reads): the host judges them. Nothing here changes the game:
    :meth:`play` and :meth:`push` send the move to the host through ``send``, and the new position arrives as a
    frame.
    """

    def __init__(self, record: SeatRecord, ply: int, send: Callable[[str], Frame] | None = None) -> None:
        self._record, self._ply, self._send = record, ply, send

    # -- what kind of game, and where -----------------------------------------------------------

    @property
    def spec(self) -> GameSpec:
        return self._record.spec

    @property
    def game_id(self) -> str:
        return self.spec.game_id

    @property
    def seat(self) -> int:
        """The one seat this game is seen from."""
        return self._record.seat

    @property
    def ply(self) -> int:
        return self._ply

    @property
    def head(self) -> dict[str, Any]:
        """The game's rule options (what the set-up panel reads); never the seed, which stays on the host."""
        return {"game": self.game_id, "options": self._own()["options"]}

    @property
    def seat_names(self) -> tuple[str, ...]:
        return tuple(self._own()["names"])

    @property
    def state(self) -> Any:
        raise UsageError(NO_STATE)

    # -- the history, as the seat was told it ----------------------------------------------------

    @property
    def events(self) -> list[list[Event]]:
        """The public narration of each move up to this ply."""
        events = self._record.events[: self._ply]
        return events + [[] for _ in range(self._ply - len(events))]

    @property
    def moves(self) -> Sequence[Any]:
        """Each move where the seat may know it (its own; all of them where nothing is hidden), else None."""
        return _Moves(self._record, self._ply)

    @property
    def history(self) -> list[Any]:
        return list(self.moves)

    @property
    def movers(self) -> list[int | None]:
        """The seat that made each move, where the frames say it (one seat acting before it), else None."""
        return [self._mover(ply) for ply in range(self._ply)]

    def _mover(self, ply: int) -> int | None:
        acting = self._record.frames.get(ply, {}).get("acting")
        return acting[0] if acting and len(acting) == 1 else None

    # -- the position -----------------------------------------------------------------------------

    @property
    def acting(self) -> tuple[int, ...]:
        """Who may act at this ply: as its frame said, or (a ply seen only through history) as its view says."""
        frame = self._record.frames.get(self._ply)
        if frame is not None:
            return tuple(frame["acting"])
        view = self._own()
        if "acting" in view:
            return tuple(view["acting"])
        return () if view.get("to_move") is None else (view["to_move"],)

    @property
    def to_move(self) -> int | None:
        acting = self.acting
        return acting[0] if len(acting) == 1 else None

    @property
    def is_over(self) -> bool:
        frame = self._record.frames.get(self._ply)
        return frame is not None and (frame["status"] == "over" or frame["outcome"] is not None)

    def view(self, seat: int | None) -> Frame:
        """The seat's own view at this ply (``None``, the public, is answered with it: it holds the public view's
        fields, and nothing the seat may not see); another seat's view is never in the kernel."""
        if seat is not None and seat != self.seat:
            raise UsageError(f"a shared table's seat {self.seat} sees its own view only, not seat {brief(seat)}'s")
        return self._own()

    def _own(self) -> Frame:
        return self._record.view_at(self._ply)

    def legal_moves(self, seat: int | None = None) -> list[Any]:
        """The seat's legal moves as the host listed them, at the latest ply only (a move is made there)."""
        frame = self._record.frames.get(self._ply)
        if frame is None or self._ply != self._record.latest or seat not in (None, self.seat):
            return []
        return [self.parse(notation) for notation in frame["legal"]]

    def parse(self, move: Any) -> Any:
        """A move object from notation (or this game's copy of a move object), as ``Game.parse`` reads it."""
        if isinstance(move, str):
            return self.spec.parse_move(check_move_text(move))
        try:
            parsed = self.spec.parse_move(check_move_text(str(move)))
        except Exception:
            parsed = None
        if parsed is None or parsed != move:
            raise InvalidMoveError(f"{brief(move)} is not a {self.game_id} move: give its notation or a legal move")
        return parsed

    def why_illegal(self, move: Any) -> str | None:
        """Why notation cannot be read, else None: whether a move is allowed is the host's to judge."""
        try:
            self.parse(move)
        except InvalidMoveError as error:
            return str(error)
        return None

    def score(self) -> ScoreSheet:
        """The public score sheet of the frame at this ply (or the last one before it)."""
        frame = self._frame_at_or_before()
        if frame is None:
            return ScoreSheet((), self.seat_names, final=False, note="no score has been sent yet")
        sheet = frame["score"]
        lines = tuple(
            ScoreLine(ln["seat"], ln["category"], ln["points"], ln["why"], ln["round"]) for ln in sheet["lines"]
        )
        teams = self._own().get("teams")
        return ScoreSheet(lines, self.seat_names, _teams(teams), sheet["final"], sheet["note"])

    def outcome(self) -> Outcome | None:
        frame = self._record.frames.get(self._ply)
        told = None if frame is None else frame["outcome"]
        return None if told is None else Outcome(tuple(told["winners"]), told["reason"])

    def _frame_at_or_before(self) -> Frame | None:
        earlier = [ply for ply in self._record.frames if ply <= self._ply]
        return self._record.frames[max(earlier)] if earlier else None

    # -- moving through it --------------------------------------------------------------------------

    def state_at(self, ply: int) -> SeatGame:
        """This seat's game as it stood after ``ply`` moves (views it was not sent are asked of the host)."""
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= self._record.latest:
            raise UsageError(f"a ply of this game is a whole number from 0 to {self._record.latest}, not {brief(ply)}")
        return SeatGame(self._record, ply, self._send)

    def seat_view(self, seat: int) -> SeatView:
        """What a hint's bot may read: this seat's own views, legal moves and the public score sheet."""
        self.view(seat)
        return SeatView(self, seat)

    def view_at(self, ply: int, seat: int | None) -> Frame:
        """What this seat saw after ``ply`` moves (the memory a hint's bot reads through its SeatView)."""
        return self.state_at(ply).view(seat)

    def play(self, move: Any) -> list[Event]:
        """Send ``move`` to the host (nothing changes here; the new position arrives as a frame). No events: the
        narration comes with that frame."""
        if self._send is None or self._ply != self._record.latest:
            raise UsageError(STEP_TO_LATEST)
        self._send(str(move))
        return []

    push = play

    def undo(self) -> Any:
        raise UsageError(NO_UNDO)

    def record(self) -> dict[str, Any]:
        raise UsageError(NO_STATE)

    position = record

    def __repr__(self) -> str:
        return f"<SeatGame {self.game_id} seat={self.seat} ply={self.ply} acting={self.acting}>"


def _teams(teams: Any) -> tuple[tuple[int, ...], ...] | None:
    return None if not teams else tuple(tuple(team) for team in teams)


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
    """Make ``request`` of a host in this process; its refusal goes to ``refused``, in the host's words."""
    try:
        request()
    except TableRefused as refusal:
        refused(str(refusal))


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
            refused(str(refusal))
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


# -- a table at a shared seat --------------------------------------------------------------------------------


class KeptElsewhere(TableFrame):
    """A mix-in for a table whose game another keeps (the host's seat, a teacher's walkthrough): no other game is
    put on it, and no link or position code is given; each says why in the sentences the class names."""

    no_new_game: ClassVar[str]
    no_sharing: ClassVar[str]

    def start(self, game: Any, seats: Sequence[str] | None = None) -> None:
        """No other game: the one on the table is kept elsewhere."""
        del game, seats
        self.say(self.no_new_game, error=True)

    def copy_link(self) -> None:
        """No link: one would deal the game anew (a classmate joins by the table's code)."""
        self.say(self.no_sharing, error=True)

    def copy_position(self) -> None:
        """No position code: it would hold every hidden card, and the table holds only what its seat sees."""
        self.say(self.no_sharing, error=True)

    def load_position(self) -> None:
        self.say(self.no_sharing, error=True)


class SharedTable(KeptElsewhere):
    """A mix-in that seats a game's table at a :class:`SeatAtHost`: ``class T(SharedTable, HatsTable)`` (see
    :func:`at_host`). The page's moves go to the host, which judges them (a race pad's timed answers too, which it
    settles on each device's own times: :meth:`play_answer`); a refusal is the host's sentence on the message line,
    and nothing changes. There is no undo (a move at a shared table stays made), no set-up and no
    sharing by link or position code (its game is the host's), and no local bot (the host runs them). The table
    follows each frame as it arrives: the latest position, narrated since the reader's own last move.
    """

    can_undo = False
    no_new_game, no_sharing = NO_NEW_GAME, NO_SHARING
    shared: SeatAtHost
    _sending: bool  # a move of the reader's is on its way: the next frame is its answer

    def __init__(self, seat: SeatAtHost, **kwargs: Any) -> None:
        game = started_game(seat)
        self.shared, self._sending = seat, False
        kwargs["teacher"] = False  # the teacher's view shows every hand, and a seat's kernel holds only its own
        super().__init__(game, seat_kinds(seat), bot_delay=0, **kwargs)  # type: ignore[arg-type]
        self._sit()

    def _sit(self) -> None:
        """What makes a table a seat's: the host plays every bot, no set-up or sharing, and frames are followed."""
        self.bots = {}
        # New game…, undo, Share… and a table's own set-up controls (a bot level): the game and its bots are the host's
        for part in (self.free_play_parts[0], self.undo_button, *self.free_play_parts[2:]):
            show(part, False)
        self.away_button = named_button("let a bot play", AWAY_TIP, self.hand_away_to_bot)
        controls = self.free_play_parts[1]
        controls.children = (*controls.children, self.away_button)
        self._show_away()
        self.shared.listen(self._host_said)
        self.flush()

    # -- moves go to the host ------------------------------------------------------------------------

    def try_move(self, notation: str) -> bool:
        """Send a reader's move to the host; its refusal (out of turn, against the rules) goes on the message line
        in the host's words, and nothing changes. The new position arrives as a frame. False when the move was
        refused before this returned (in process, always known by then; over the network, later)."""
        return self._to_host(lambda refused: self.shared.send_move(notation, refused))

    def play_answer(self, action: str, seconds: float, refused: Refused) -> None:
        """A timed answer (a race pad's action, and the reaction time its device measured from when its own screen
        showed the decision) goes to the host's ``answer`` op as it is: the kernel neither judges nor settles it,
        the host settles the race on each device's own times, and its state frame shows the result. A refusal is
        the host's sentence, on the message line and to ``refused``."""
        self._to_host(lambda told: self.shared.send_answer(action, seconds, told), refused)

    def _to_host(self, send: Callable[[Refused], None], also: Refused | None = None) -> bool:
        """Send the reader's move with ``send(refused)``, from the latest position only; a refusal goes on the
        message line (and to ``also``). False when it was refused before this returned."""
        if not self.live:
            self._refused(STEP_TO_LATEST, also)
            return False
        refusals: list[str] = []

        def refused(sentence: str) -> None:
            refusals.append(sentence)
            self._sending = False
            self._refused(sentence, also)

        self._sending = True
        send(refused)
        return not refusals

    def _away_seat(self) -> int | None:
        """A seat whose player is away and that no bot plays yet: another player may hand it to a bot."""
        seats = (self.shared.presence or {}).get("seats", [])
        return next((e["seat"] for e in seats if e["kind"] == "player" and e["away"] and e["bot"] is None), None)

    def _show_away(self) -> None:
        """*let a bot play for Ben* while Ben is away, at a game still going."""
        seat = self._away_seat()
        show(self.away_button, seat is not None and not self.game.is_over)
        if seat is not None:
            self.away_button.description = f"let a bot play for {self.waiting_for(seat)}"

    def hand_away_to_bot(self) -> None:
        """Hand the away player's seat to a bot (at the table's bot level); the player takes it back by coming back."""
        seat = self._away_seat()
        if seat is not None:
            self.shared.send_hand_to_bot(seat, lambda sentence: self.say(sentence, error=True))

    def _refused(self, sentence: str, also: Refused | None) -> None:
        """A refusal on the message line, and to ``also`` (a race pad opens the same decision again)."""
        self.say(sentence, error=True)
        if also is not None:
            also(sentence)

    def play_offered(self, notation: str) -> None:
        """A move the page completed: sent to the host as it was offered (the host reads and judges it)."""
        self.try_move(notation)

    def decides(self) -> bool:
        """True when the reader may act at the shown position, which must be the latest: no new line is started."""
        return self.live and super().decides()

    def why_not(self, notation: str) -> str | None:
        """What the kernel can say before asking the host: not the latest position, not the reader's turn, notation
        that does not read. Whether a move is allowed is the host's to judge."""
        if not self.live:
            return STEP_TO_LATEST
        shown = self.shown()
        if not shown.is_over and not self.decides():
            return f"It is {self._acting_names(shown)}'s turn, not yours."
        return shown.why_illegal(notation)

    # -- what a shared table does not do -------------------------------------------------------------

    def run_bots(self) -> None:
        """Nothing: the host runs the bots at a shared table."""

    def undo(self) -> None:
        """Nothing taken back: every player has seen the move."""
        self.say(NO_UNDO_HERE, error=True)

    def waiting_for(self, seat: int) -> str:
        """A classmate by the name they typed ("Maya (White)"); a host's bot by its seat's name."""
        entry = self.shared.seat_entry(seat)
        name = self.game.seat_names[seat]
        if entry is None or entry["kind"] == "bot" or entry["name"] in (None, "", name):
            return name
        return f"{entry['name']} ({name})"

    def seat_kind(self, seat: int) -> str:
        """Who sits at ``seat``, from the host's presence frame: "you", a classmate's typed name, a host bot."""
        if seat == self.shared.seat:
            return "you"
        entry = self.shared.seat_entry(seat)
        if entry is None:
            return "a classmate"
        if entry["bot"] is not None:
            bot = f"{bot_name(self.game_id, entry['bot'])} bot"
            return bot if entry["kind"] == "bot" else f"{bot} for {entry['name']}"
        return f"classmate {entry['name']}" + (", away" if entry["away"] else "")

    # -- frames ----------------------------------------------------------------------------------------

    def _host_said(self, kind: str, before: int) -> None:
        """A frame arrived: the new position is followed while the latest was shown, else the step bar grows; who
        sits where (presence), a seat closed or views fetched redraw the position shown."""
        if kind in ("presence", "closed", "history") and self.shared.game is not None:
            self._show_away()
            self.refresh()
        if kind == "closed":
            self.say(f"This table gets no more moves here ({self.shared.ended}).", error=True)
        if kind == "connection":
            self.say(HOST_BACK if self.shared.reachable else HOST_AWAY, error=not self.shared.reachable)
        if kind != "state" or self.shared.game is None:
            return
        self.game = self.shared.game
        if self.shown_ply != before:
            self.refresh()
            return
        start = before if self._sending else min(self.narrated_from, before)
        self._sending = False
        self._moved_to(self.game.ply, narrate_from=start)


_SHARED: dict[type[TableFrame], type[SharedTable]] = {}


def shared_class(table_class: type[TableFrame]) -> type[SharedTable]:
    """``table_class`` with a shared seat: ``SharedTable`` mixed in before it (made once per class)."""
    if table_class not in _SHARED:
        name = f"Shared{table_class.__name__}"
        _SHARED[table_class] = type(
            name, (SharedTable, table_class), {"__doc__": SharedTable.__doc__, "__module__": __name__}
        )
    return _SHARED[table_class]


def at_host(table_class: type[TableFrame], seat: SeatAtHost, **kwargs: Any) -> SharedTable:
    """A ``table_class`` table (``HatsTable``, ...) for a student's seat at a host table that has started."""
    return shared_class(table_class)(seat, **kwargs)


def take_seat(table: TableFrame, seat: SeatAtHost) -> SharedTable:
    """``table``, already on the page, becomes ``seat``'s table at the host (*Play with classmates…*).

    The same widget changes its class to the shared one (:func:`shared_class`) rather than a new table being made:
    a press in Voilà cannot add an output to the page, and the student keeps the table where they pressed.
    """
    game = started_game(seat)
    table.scheduler.cancel()  # no bot of the game that was on the table moves any more
    table.__class__ = shared_class(type(table))
    shared = cast(SharedTable, table)
    shared.shared, shared._sending, shared.teacher, shared.bot_delay = seat, False, False, 0
    TableFrame.start(shared, game, seat_kinds(seat))  # type: ignore[arg-type]  # (its own start refuses games)
    shared._sit()
    return shared


def started_game(seat: SeatAtHost) -> SeatGame:
    """The seat's game, or a ValueError saying why no table can be drawn for it yet."""
    if seat.game is None or seat.seat is None:
        raise ValueError(f"table {seat.code} has not started: a shared table is drawn once the game begins")
    return seat.game


def seat_kinds(seat: SeatAtHost) -> tuple[str, ...]:
    """The table's seats as a frame reads them: the reader at the seat's place, the others played elsewhere."""
    players = len(started_game(seat).seat_names)
    return tuple(READER if index == seat.seat else "random" for index in range(players))
