"""What a student's seat at a shared table knows: :class:`SeatRecord` keeps every frame the host sent the seat,
and :class:`SeatGame` reads them as a :class:`hatskit.Game` is read (``self.game`` and ``self.shown()`` of a
:class:`~widgets.table.frame.TableFrame`), so a table draws a seat it holds no state for. A student can run code in
their kernel, so it holds only what the host sends its seat (widgets/table/shared.py says what that is).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

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
)
from tablehost.protocol import NO_UNDO

Frame = dict[str, Any]
NO_STATE = "a seat at a shared table holds no state of the game, only what its seat is sent"
STEP_TO_LATEST = "Step to the latest position to play: at a shared table every move is made there."
HISTORY_BLOCK = 100  # views one history reply holds (tablehost/frames.py, HISTORY_LIMIT)


def wire(frame: Frame) -> Frame:
    """``frame`` as it would arrive over a websocket: JSON and back (tuples become lists, nothing else slips by)."""
    return json.loads(json.dumps(frame, ensure_ascii=False))


@dataclass
class SeatRecord:
    """Everything one seat has been sent, by ply; a :class:`SeatGame` and its snapshots read it, never the game.

    ``views[p]`` is the seat's own view after ``p`` moves, ``frames[p]`` the state frame sent at ply ``p`` (who
    acts, legal moves, score, outcome), ``events[p]`` the narration of move ``p + 1``, ``moves[p]`` move ``p + 1``
    where the seat may know it: its own, or in a game that hides nothing, the one the host named (``played``) or
    its views show was made.
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
        for told in frame.get("played", []):  # a game that hides nothing: the host names its moves
            self.moves[told["ply"] - 1] = self.spec.read_move(told["move"])

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
        """Move ``ply + 1``: known when the seat made it or when the host named it (a game that hides nothing), or
        else found from its views in such a game (a ply the seat only has from a history reply), once both views
        are here: one still on its way over the network is not guessed from."""
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
        found = [move for move in state.legal_moves() if wire(self._view_after(state, move)) == after]
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
        return self.spec.read_move(move)

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
