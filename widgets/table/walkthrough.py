"""*Walkthrough…*: the teacher leads the class through one game, position by position (docs/host.md, "The class
together").

One fold beside *New game…* on a game page's own table (:func:`offer_walkthrough`, from ``TableFrame.from_link``),
with two sides:

- the **teacher's**, on a page opened with the teacher's link (``?teacher=<secret>`` the host printed; on
  JupyterHub ``?teacher=yes``, and the hub says who teaches): *start a walkthrough* of the game on the table,
  showing the class every hand or the teacher's seat only, gives a code and a link (``?walk=CODE``). The teacher's
  own table then leads (:class:`LeadingTable`): each move played on it and each step through it is sent to the
  host (``walk_move``, ``walk_step``); *ask: your move?* asks the class (``walk_ask``), and the answers come in
  counted (``walk_tally``): each move chosen, the illegal tries by the rule that stopped them, the strong bot's move.
- a **student's**, on a page opened with ``?walk=CODE``: their name (the browser keeps it with the class token),
  then the page's table follows the class (:class:`ClassTable`), drawn from the ``walk`` frames alone
  (:class:`WalkGame`: the kernel never holds a card the teacher did not show). While a question is open the student
  presses a move on the table: it goes to the host as their one try, and the host says whether it is legal, or
  which rule stops it and why. Where the class is shown the whole position (a game that hides nothing), *try it
  here* plays on from it on the student's own, and *back to the class* returns to the class's position.

As *Play with classmates…*, the connection runs on the kernel's asyncio loop: a press starts a task, the fold says
what it is doing until the host answers, and a refusal is the host's sentence. This module imports tornado's client,
so a page imports it only where a host exists.
"""

from __future__ import annotations

import asyncio
import html
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from tornado.httpclient import HTTPClientError

import hatskit
from hatskit.core import UsageError, brief
from hatskit.drawing import sentence
from tablehost.client import TableClient, TableConnectionLost, TableRefused
from widgets.host import hub_token, hub_user
from widgets.table.classmates import LOST, HostFold, KeptSeats
from widgets.table.frame import TableFrame
from widgets.table.links import LinkError, table_code_from_query, teacher_from_query, teacher_secret_from_query
from widgets.table.setup import READER
from widgets.table.shared import Frame, KeptElsewhere, SeatGame, SeatRecord
from widgets.toolkit import ui
from widgets.toolkit.clipboard import Clipboard
from widgets.toolkit.parts import html_line, named_button, row, show

__all__ = ["ClassTable", "Following", "Leading", "LeadingTable", "WalkGame", "WalkRecord", "offer_walkthrough"]

SHOWS = [("every hand", "all"), ("my seat only", "seat")]
LEAD_TIP = "lead the class through this game: every student's table follows yours, and you can ask “your move?”"
LEAD_INTRO = (
    "Start a walkthrough of the game on this table: students open its link, and their tables show each move and"
    " step you make here. The bots at your table play their seats as usual; to play every seat yourself, choose"
    " “a reader (you)” for them in New game… first."
)
FOLLOW_TIP = "follow your teacher's walkthrough on this table"
NO_DEAL = (
    "A walkthrough starts from a dealt game: press New game… and Start first (a loaded position cannot be dealt"
    " again at the host)."
)
RESUME_TIP = "lead the walkthrough this page led before it was reloaded or closed: its students follow it still"
STILL_OPEN = "Walkthrough {code} of this game is still open ({following} following): you can take it up again."
WALK_AWAY = "The class's host cannot be reached just now: this table follows your teacher again by itself."
NOT_IN_TURNS = "A walkthrough needs a game played in turns: in a race every seat acts at once."
NO_NAME = "Type your name first: it is what your teacher sees."
LEADING_NEW_GAME = "This table leads a walkthrough: end it (Walkthrough…) before you put another game on it."
FOLLOWING_NEW_GAME = "This table follows your teacher's walkthrough: its game is the class's."
NO_UNDO = "There is no undo in a walkthrough: your teacher plays the moves."
NO_SHARING = "This table follows your teacher's walkthrough: links and position codes are for your own tables."
NOT_ASKED = "Wait for your teacher to ask “your move?”: then press your move on the table."
TRY_TIP = "play on from the class's position on your own, as any side"
BACK_TIP = "leave your own line and follow your teacher again, at the class's position"


def offer_walkthrough(table: TableFrame, url: str, query: str) -> Leading | Following | None:
    """The fold the page's link asks for: the teacher's (``teacher=…``) or a student's (``walk=CODE``); else none."""
    try:
        code = table_code_from_query(query, "walk")
        teacher = teacher_from_query(query)
    except LinkError as error:
        table.say(f"This page's link could not be used ({error}).", error=True)
        return None
    if teacher and (teacher_secret_from_query(query) or hub_token()):
        fold: Leading | Following = Leading(table, url, teacher_secret_from_query(query))
    elif code is not None:
        fold = Following(table, url, code, table.classmates.kept_seats)
    else:
        return None
    top = table.free_play_parts[0]
    reveal = table.guard.reveal_box
    top.children = (*(part for part in top.children if part is not reveal), fold, reveal)
    table.walkthrough = fold  # type: ignore[attr-defined]
    return fold


# -- what a student has been shown ---------------------------------------------------------------------------


@dataclass
class WalkRecord(SeatRecord):
    """Every position the class was shown, by ply: a :class:`SeatRecord` of the walkthrough's seat (the teacher's)
    and, in ``seen``, every view each ``walk`` frame allowed (``{ply: {seat: {"view", "legal"}}}``)."""

    seen: dict[int, dict[int, Frame]] = field(default_factory=dict)

    def take_walk(self, frame: Frame) -> None:
        """A ``walk`` frame: the position shown now. Plies after it are forgotten: a step back or a new line may
        change them, and the class follows the teacher, not a line of its own."""
        ply = frame["ply"]
        self._forget_after(ply)
        entries = {entry["seat"]: entry for entry in frame["views"]}
        own = entries.get(self.seat) or next(iter(entries.values()))
        status = "over" if frame["outcome"] is not None else "playing"
        state = {"ply": ply, "view": own["view"], "events": frame["events"], "legal": own["legal"]}
        self.take_state(state | {"acting": frame["acting"], "status": status} | _scored(frame))
        self.latest = ply
        self.seen[ply] = entries

    def _forget_after(self, ply: int) -> None:
        for kept in (self.views, self.frames, self.seen, self.moves):
            for later in [p for p in kept if p > ply or (kept is self.moves and p >= ply)]:
                del kept[later]
        del self.events[ply:]


def _scored(frame: Frame) -> Frame:
    return {"score": frame["score"], "outcome": frame["outcome"]}


class WalkGame(SeatGame):
    """The class's game as a student's table reads it (:class:`~widgets.table.shared.SeatGame`), with every seat's
    view the teacher allowed, not the walkthrough seat's alone. Nothing is played here: a student's move is a try."""

    _record: WalkRecord

    def view(self, seat: int | None) -> Frame:
        """A seat's view at this ply, if the class is shown it (``None``: what every seat shown sees alike)."""
        if seat is None:
            return self._public()
        if seat == self.seat:
            return self._own()
        entry = self._entry(seat)
        if entry is None:
            raise UsageError(f"the class is not shown seat {brief(seat)}'s view in this walkthrough")
        return cast(Frame, entry["view"])

    def _public(self) -> Frame:
        """The fields every seat shown sees alike (the public ones a table reads); with one seat shown, its view."""
        views = [entry["view"] for entry in self._entries().values()]
        return {key: value for key, value in self._own().items() if all(view.get(key) == value for view in views)}

    def legal_moves(self, seat: int | None = None) -> list[Any]:
        """The seat's legal moves as the host listed them, at the class's position only."""
        entry = self._entry(self.seat if seat is None else seat)
        if entry is None or self._ply != self._record.latest:
            return []
        return [self.parse(notation) for notation in entry["legal"]]

    def _entry(self, seat: int) -> Frame | None:
        return self._entries().get(seat)

    def _entries(self) -> dict[int, Frame]:
        """Each shown seat's entry at this ply, or at the nearest ply before it the student saw (one joined late)."""
        seen = self._record.seen
        earlier = [ply for ply in seen if ply <= self._ply] or list(seen)
        return seen[max(earlier)] if earlier else {}

    def state_at(self, ply: int) -> WalkGame:
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= self._record.latest:
            raise UsageError(f"a ply of this game is a whole number from 0 to {self._record.latest}, not {brief(ply)}")
        return WalkGame(self._record, ply)


# -- talking to the host from a fold -------------------------------------------------------------------------


class Asking(HostFold):
    """A fold that talks to the host (:class:`~widgets.table.classmates.HostFold`) with a client of its own, whose
    frames it hears."""

    client: TableClient | None

    def _start_asking(self, url: str) -> None:  # type: ignore[override]
        self.url, self.client = url, None
        super()._start_asking()

    async def connect(self, teacher: str | None) -> TableClient:
        """A client connected to the host, its frames heard by :meth:`heard`."""
        token = hub_token()
        client = TableClient(self.url, teacher=teacher, on_frame=self.heard, hub_token=token or None)
        await client.connect()
        return client

    def heard(self, frame: Frame) -> None:
        """A frame from the host."""


# -- the teacher's side --------------------------------------------------------------------------------------


class Leading(Asking):
    """The teacher's fold: start a walkthrough of the table's game, give its code, ask "your move?", see the
    answers counted; see the module docstring."""

    def __init__(self, table: TableFrame, url: str, secret: str | None) -> None:
        self.table, self.secret = table, secret
        self._start_asking(url)
        self.line: list[str] = []  # the moves the host's line holds, as far as this page sent them
        self.at = 0  # the ply the host shows
        self._syncing = False
        self._stuck: tuple[tuple[str, ...], int] | None = None  # a position the host refused to show
        self._build()
        super().__init__(self._parts(), summary="Walkthrough…", tooltip=LEAD_TIP)
        self.add_class("hk-walkthrough")
        self._show_parts()
        self.settled()
        self._look_for_open()

    def settled(self) -> None:
        """Before a walkthrough, what starting one does (or that one is still open); while leading, nothing (the code
        line says it)."""
        if self.code is not None:
            self.say("")
        elif self.open_walk is not None:
            self.say(STILL_OPEN.format(code=self.open_walk["code"], following=self.open_walk["following"]))
        else:
            self.say(LEAD_INTRO)

    def _build(self) -> None:
        self.note = html_line("hk-walk-note")
        self.shows_box = ui.Choices(options=SHOWS, value="all", description="the class sees")
        self.start_button = named_button("start a walkthrough", LEAD_TIP, self.press_start)
        self.resume_button = named_button("take it up again", RESUME_TIP, self.take_up)
        self.open_walk: Frame | None = None  # a walkthrough of this game the host holds, this page not leading it
        self.code_line = html_line("hk-walk-code")
        self.clipboard = Clipboard(label="the walkthrough's link")
        self.copy_button = named_button("copy link", "copy the link that brings a student to it", self.copy_link)
        self.ask_button = named_button("ask: your move?", "ask the class for the move at this position", self.ask)
        self.ask_button.primary = True
        self.end_button = named_button("end the walkthrough", "end it: the students' tables stop following", self.end)
        self.tally_line = html_line("hk-walk-tally")

    def _parts(self) -> list[ui.Part]:
        self.before = [row([self.shows_box, self.start_button, self.resume_button])]
        self.during = [self.code_line, row([self.copy_button, self.ask_button, self.end_button]), self.clipboard]
        return [self.note, *self.before, *self.during, self.tally_line]

    def _show_parts(self) -> None:
        leading = self.code is not None
        for part in self.before:
            show(part, not leading)
        show(self.resume_button, not leading and self.open_walk is not None)
        for part in [*self.during, self.tally_line]:
            show(part, leading)
        show(self.table.setup, not leading)  # another game cannot be put on a table the class follows

    @property
    def code(self) -> str | None:
        return None if self.client is None else self.client.walk_code

    # -- starting and ending -----------------------------------------------------------------------

    def press_start(self) -> None:
        """Open a walkthrough of the game on the table, from its deal; the moves already played are sent after."""
        game = self.table.game
        if self.table.spec.simultaneous:
            self.say(NOT_IN_TURNS, error=True)
        elif "seed" not in game.head:
            self.say(NO_DEAL, error=True)
        else:
            self._run("Opening the walkthrough…", self._open(self.shows_box.value))

    async def _open(self, shows: str) -> None:
        client = await self.connect(self.secret)
        game, seat = self.table.game, self.table.viewer
        try:
            fields = {"options": game.head["options"], "seat": seat, "shows": shows, "seed": game.head["seed"]}
            await client.walk_open(game.game_id, len(game.seat_names), hub_user(), **fields)
        except BaseException:
            await client.close()
            raise
        self.client, self.line, self.at, self._stuck = client, [], 0, None
        lead(self.table, self)
        self._show_parts()
        self.code_line.value = code_html(client.walk_code or "")
        self.table_moved()

    def _look_for_open(self) -> None:
        """Ask the host, once, for a walkthrough of this game it still holds: the teacher's page was reloaded or closed
        while leading, and the class still follows it. Where the host cannot say (none, or not now), nothing."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # no loop to ask on (a table made outside a kernel)
            return
        self._spawn(self._list_open())

    async def _list_open(self) -> None:
        try:
            client = await self.connect(self.secret)
            try:
                walks = (await client.walk_list())["walks"]
            finally:
                await client.close()
        except (TableRefused, TableConnectionLost, TimeoutError, OSError, HTTPClientError):
            return  # a wrong secret or no host: said when the teacher presses start
        mine = [walk for walk in walks if walk["game"] == self.table.game_id]
        if mine and self.code is None:
            self.open_walk = mine[-1]  # the newest
            self._show_parts()
            self.settled()

    def take_up(self) -> None:
        """Lead the open walkthrough again: the table deals its game again and plays its line to the class's ply."""
        if self.open_walk is not None and self.code is None:
            self._run("Taking the walkthrough up again…", self._take_up(str(self.open_walk["code"])))

    async def _take_up(self, code: str) -> None:
        client = await self.connect(self.secret)
        self.client = client  # its tally, pushed as it joins, is heard
        try:
            joined = await client.walk_join(code, role="teacher")
            game = hatskit.load(joined["record"])
        except BaseException:
            self.client = None
            await client.close()
            raise
        self.table.start(game)
        self.table.go_to(joined["ply"])
        self.line, self.at, self._stuck, self.open_walk = list(joined["record"]["moves"]), joined["ply"], None, None
        lead(self.table, self)
        self._show_parts()
        self.code_line.value = code_html(code, (client.walk_presence or {}).get("students") or [])  # heard already

    def end(self) -> None:
        if self.client is not None:
            self._run("Ending the walkthrough…", self._end(self.client))

    async def _end(self, client: TableClient) -> None:
        await client.walk_close()
        await client.close()
        self.client = None
        unlead(self.table)
        self._show_parts()
        self.tally_line.value = ""

    def copy_link(self) -> None:
        """The walkthrough's link (the page's own, with ``?walk=CODE``) to the clipboard."""
        self.clipboard.copy(f"?walk={self.code}")

    # -- the table leads ---------------------------------------------------------------------------

    def table_moved(self) -> None:
        """The teacher's table changed: bring the host to the position it shows (one task at a time, on the loop)."""
        if self.client is not None and not self._syncing and self._wanted() != self._stuck:
            self._syncing = True
            self._spawn(self._sync())

    def _wanted(self) -> tuple[tuple[str, ...], int]:
        table = self.table
        return tuple(str(move) for move in list(table.game.history)[: table.shown_ply]), table.shown_ply

    async def _sync(self) -> None:
        """Send moves and steps until the host shows the table's position; a refusal is said, and not sent again."""
        try:
            while (step := self._next_step()) is not None:
                await step
        except TableRefused as refusal:
            self._stuck = self._wanted()
            self.say(sentence(str(refusal), capital=True), error=True)
        except (TableConnectionLost, TimeoutError):
            self.say(LOST, error=True)
        finally:
            self._syncing = False

    def _next_step(self) -> Coroutine[Any, Any, None] | None:
        """The one request that brings the host nearer the table's position (None: it shows it)."""
        wanted, _ = self._wanted()
        fork = next((ply for ply, (a, b) in enumerate(zip(wanted, self.line, strict=False)) if a != b), None)
        fork = min(len(wanted), len(self.line)) if fork is None else fork
        if fork < len(wanted):
            return self._move(wanted[fork]) if self.at == fork else self._step(fork)
        return None if self.at == len(wanted) else self._step(len(wanted))

    async def _move(self, move: str) -> None:
        assert self.client is not None
        await self.client.walk_move(move)
        if self.line[self.at : self.at + 1] != [move]:  # not the line's next move: a new line from here
            self.line = [*self.line[: self.at], move]
        self.at += 1

    async def _step(self, ply: int) -> None:
        assert self.client is not None
        await self.client.walk_step(ply)
        self.at = ply

    # -- asking the class --------------------------------------------------------------------------

    def ask(self) -> None:
        """Ask "your move?" at the position shown (once the host shows it)."""
        if self.client is not None:
            self._run("Asking the class…", self._ask(self.client))

    async def _ask(self, client: TableClient) -> None:
        while self._syncing:
            await asyncio.sleep(0.01)
        await client.walk_ask()

    def heard(self, frame: Frame) -> None:
        """The class's answers counted, and who follows, as the host tells them."""
        kind = frame.get("type")
        if kind == "walk_tally" and self.client is not None:
            self.tally_line.value = tally_html(frame, self.table.game.seat_names)
        elif kind == "walk_presence" and frame.get("students") is not None:
            self.code_line.value = code_html(self.code or "", frame["students"])
        elif kind == "walk" and frame.get("question") is None and self.client is not None:
            self.tally_line.value = _closed(self.tally_line.value)
        else:
            return
        self.table.flush()


def code_html(code: str, students: Sequence[Frame] = ()) -> str:
    """The walkthrough's code, how a student comes, and who follows now."""
    here = [str(student["name"]) for student in students if student.get("here")]
    follow = f"{len(here)} following: {', '.join(here)}." if here else "Nobody follows yet."
    lead = (
        f"<b>Walkthrough {html.escape(code)}</b>. Students open this page with the link “copy link” gives you, or"
        " add ?walk= and the code to its address. Your table leads: each move and step you make, their tables show."
    )
    return f"<p>{lead}</p><p>{html.escape(follow)}</p>"


def tally_html(tally: Frame, names: Sequence[str]) -> str:
    """The open question's answers: how many answered, each move chosen (most first), the illegal tries by rule and
    the strong bot's move."""
    seat = names[tally["seat"]] if 0 <= tally["seat"] < len(names) else str(tally["seat"])
    head = (
        f"<b>Question {tally['number']}</b>: {html.escape(seat)}'s move {_when(tally['ply'])}."
        f" {tally['answered']} of {tally['following']} answered."
    )
    choices = "".join(f"<li>{_choice(choice)}</li>" for choice in tally["choices"])
    rules = ", ".join(f"{html.escape(str(rule['rule']))}: {rule['count']}" for rule in tally["rules"])
    illegal = f"<p>Illegal tries: {tally['illegal']}" + (f" (by rule: {rules})" if rules else "") + ".</p>"
    best = tally.get("best")
    bot = f"The strong bot plays {html.escape(best)}." if best else "The strong bot is thinking…"
    return f"<p>{head}</p><ul class='hk-walk-choices'>{choices}</ul>{illegal}<p>{bot}</p>"


def _when(ply: int) -> str:
    return "at the start" if ply == 0 else f"after move {ply}"


def _choice(choice: Frame) -> str:
    move, count = html.escape(choice["move"]), choice["count"]
    if choice["legal"]:
        return f"{move}: {count}"
    return f"{move}: {count}, not allowed ({html.escape(str(choice.get('why') or choice.get('rule') or ''))})"


def _closed(tally: str) -> str:
    """The last tally once the question closed (the teacher played or stepped on)."""
    return tally if not tally or "(closed)" in tally else tally.replace("</b>", "</b> (closed)", 1)


class LeadingTable(TableFrame):
    """A mix-in for the teacher's table while it leads a walkthrough: every redraw (a move, a step, undo, a bot's
    answer) brings the host to the position shown, and no other game is put on it."""

    walk_lead: Leading

    def refresh(self) -> None:
        super().refresh()
        self.walk_lead.table_moved()

    def start(self, game: Any, seats: Sequence[str] | None = None) -> None:
        del game, seats
        self.say(LEADING_NEW_GAME, error=True)


def lead(table: TableFrame, fold: Leading) -> None:
    """``table`` leads the walkthrough of ``fold`` (its class gains :class:`LeadingTable`)."""
    if not isinstance(table, LeadingTable):
        table.__class__ = _mixed(LeadingTable, type(table))
    cast(LeadingTable, table).walk_lead = fold


def unlead(table: TableFrame) -> None:
    """``table`` is the teacher's own again."""
    if isinstance(table, LeadingTable):
        table.__class__ = type(table).__mro__[2]


_MIXED: dict[tuple[type, type], type] = {}


def _mixed(mixin: type[TableFrame], table_class: type[TableFrame]) -> type[Any]:
    """``table_class`` with ``mixin`` before it (made once a pair)."""
    if (mixin, table_class) not in _MIXED:
        name = f"{mixin.__name__.removesuffix('Table')}{table_class.__name__}"
        _MIXED[(mixin, table_class)] = type(name, (mixin, table_class), {"__module__": __name__})
    return _MIXED[(mixin, table_class)]


# -- a student's side ----------------------------------------------------------------------------------------


class Following(Asking):
    """A student's fold: their name, then the table follows the class; a try at each question, and a line of their
    own where the position allows it; see the module docstring."""

    def __init__(self, table: TableFrame, url: str, code: str, kept: KeptSeats) -> None:
        self.table, self.code = table, code
        self._start_asking(url)
        self.token: str | None = None  # the class token the browser kept for the name
        self.token_name = ""  # ... and that name
        self.record: WalkRecord | None = None
        self.answered: dict[int, Frame] = {}  # the host's judgement of each question's try, by number
        self.kept = kept
        kept.on_msg(self._page_kept)
        self._build()
        super().__init__(self._parts(), summary="Walkthrough…", tooltip=FOLLOW_TIP)
        self.add_class("hk-walkthrough")
        self.open = True
        self.settled()

    def _build(self) -> None:
        self.note = html_line("hk-walk-note")
        self.name_box = ui.Text(
            value=hub_user() or "", description="your name", placeholder="the name your teacher sees"
        )
        self.follow_button = named_button("follow", FOLLOW_TIP, self.press_follow)
        self.follow_button.primary = True
        self.try_button = named_button("try it here", TRY_TIP, self.try_here)
        self.back_button = named_button("back to the class", BACK_TIP, self.back_to_class)
        self.back_button.primary = True

    def _parts(self) -> list[ui.Part]:
        self.before = row([self.name_box, self.follow_button])
        return [self.note, self.before, row([self.try_button, self.back_button]), self.kept]

    def _show_parts(self) -> None:
        table = self.class_table
        show(self.before, self.client is None)
        show(self.try_button, table is not None and not table.trying and table.can_try())
        show(self.back_button, table is not None and table.trying)

    @property
    def class_table(self) -> ClassTable | None:
        return self.table if isinstance(self.table, ClassTable) else None

    def _page_kept(self, part: ui.Custom, content: Any, buffers: Any) -> None:
        """What the browser kept, sent as the page opens: a class name with its token (``hatskit.class``, which the
        lessons' progress keeps too) follows at once."""
        del part, buffers
        entry = content.get("class") if isinstance(content, dict) else None
        if isinstance(entry, dict) and isinstance(entry.get("token"), str) and isinstance(entry.get("name"), str):
            self.name_box.value, self.token = entry["name"], entry["token"]
            self.token_name = entry["name"]
        if self.client is None and (self.token is not None or hub_token()):
            self.press_follow()
        else:
            self.settled()

    # -- following ---------------------------------------------------------------------------------

    def press_follow(self) -> None:
        name = self.name_box.value.strip()
        if not name:
            self.say(NO_NAME, error=True)
        elif self.client is None:
            self._run(f"Joining walkthrough {self.code}…", self._join(name))

    async def _join(self, name: str) -> None:
        client = await self.connect(None)
        client.name, client.class_token = name, self.token if name.casefold() == self.token_name.casefold() else None
        try:
            reply = await client.walk_join(self.code, name=name)
            if reply["game"] != self.table.game_id:
                raise TableRefused({"message": other_game(self.code, reply["game"])})
            await client.wait_for(lambda c: c.walk is not None)
        except BaseException:
            await client.close()
            raise
        if reply.get("token"):
            self.kept.class_kept = {"name": reply["name"], "token": reply["token"]}
        self.client = client
        self.record = WalkRecord(hatskit.GAMES[reply["game"]], reply["seat"], lambda first, last: [])
        assert client.walk is not None
        self.record.take_walk(client.walk)
        follow_class(self.table, self)
        self._show_parts()

    def game(self) -> WalkGame:
        assert self.record is not None
        return WalkGame(self.record, self.record.latest)

    def seats(self) -> tuple[str, ...]:
        """The student's table's seats: every seat the class is shown is the reader's (the one that acts shows)."""
        walk = self._walk()
        shown = {entry["seat"] for entry in walk["views"]}
        players = len(self.game().seat_names)
        return tuple(READER if seat in shown else "random" for seat in range(players))

    def _walk(self) -> Frame:
        assert self.client is not None and self.client.walk is not None
        return self.client.walk

    def question(self) -> Frame | None:
        """The open question the student has not answered yet."""
        if self.client is None or self.client.walk is None or self.client.walk_ended:
            return None
        question = self.client.walk.get("question")
        return None if question is None or question["number"] in self.answered else question

    def heard(self, frame: Frame) -> None:
        """The class's position, the teacher's presence, or the end of the walkthrough."""
        kind = frame.get("type")
        table = self.class_table
        if table is None or self.record is None:
            return
        if kind == "walk":
            self.record.take_walk(frame)
            table.class_moved()
        elif kind == "closed":
            table.refresh()
        elif kind not in ("walk_presence", "connection"):
            return
        self.settled()

    def settled(self) -> None:
        """Where the student is: following, asked, answered, away on their own line, or the walkthrough ended."""
        self.say(self._where())
        self._show_parts()

    def _where(self) -> str:
        client = self.client
        if client is None:
            return f"Your teacher's walkthrough {self.code}: type your name and press follow."
        if not client.connected and client.failed is None:
            return WALK_AWAY
        if client.walk_ended:
            return f"The walkthrough has ended ({client.walk_ended}): the table keeps its last position."
        teacher = (client.walk_presence or {}).get("teacher") or "your teacher"
        away = "" if (client.walk_presence or {}).get("teacher_here", True) else f" {teacher} is away for now."
        doing = "You follow" if not (self.class_table and self.class_table.trying) else "You are on your own line of"
        asked = " Your move? Press it on the table." if self.question() is not None else ""
        return f"{doing} walkthrough {self.code} with {teacher}.{away}{asked}"

    # -- trying a move -----------------------------------------------------------------------------

    def send_try(self, notation: str) -> None:
        """The student's one try at the open question: the host judges it and counts it for the teacher."""
        question = self.question()
        if self.client is not None and question is not None:
            self._run(f"Sending your answer, {notation}…", self._try(self.client, question["number"], notation))

    async def _try(self, client: TableClient, number: int, notation: str) -> None:
        """The try, and the host's judgement on the table's message line (a refusal, which counts no try, too)."""
        table = self.class_table
        try:
            reply = await client.walk_try(notation, number)
        except TableRefused as refusal:
            if table is not None:
                table.say(sentence(str(refusal), capital=True), error=True)
            raise
        self.answered[number] = reply
        if table is not None:
            table.judged(reply)

    def try_here(self) -> None:
        table = self.class_table
        if table is not None:
            table.try_here()
            self.settled()

    def back_to_class(self) -> None:
        table = self.class_table
        if table is not None:
            table.back_to_class()
            self.settled()


def other_game(code: str, game_id: str) -> str:
    """Why a walkthrough cannot be followed on this page: it is of another game."""
    return f"walkthrough {code} is a game of {hatskit.GAMES[game_id].title}: open its link on that game's page"


class ClassTable(KeptElsewhere):
    """A mix-in for a student's table in a walkthrough: it shows the class's position as each ``walk`` frame comes
    (:class:`WalkGame`), and a move pressed while a question is open is the student's try, judged by the host
    (a press the page itself finds no move for is tried too: the host names the rule). No undo, set-up, sharing,
    hint or bots. *try it here* puts a game of the student's own on it from the class's position (where the
    position is whole in the view), until *back to the class*."""

    no_new_game, no_sharing = FOLLOWING_NEW_GAME, NO_SHARING
    follow: Following
    trying: bool  # on the student's own line
    _tried: str | None = None  # a move the table explained a press as, while it explains

    # -- the class's position ----------------------------------------------------------------------

    def class_moved(self) -> None:
        """A new position from the teacher: shown with its narration (kept for later while on an own line)."""
        if not self.trying:
            self.game = self.follow.game()
            self._moved_to(self.game.ply, narrate_from=self.game.ply - 1)

    def _sit(self) -> None:
        """What a table following the class hides: New game…, the classmates' fold, undo, hint, the step bar and
        sharing (its game is the class's)."""
        self.bots = {}
        for part in (self.setup, getattr(self, "classmates", self.setup), self.guard.reveal_box):
            show(part, False)
        every = not self.trying and self.seats.count(READER) > 1 and self.spec.hidden_information
        self.guard.reveal_box.value = every  # every hand the teacher shows, under the teacher's-view heading
        show(self.free_play_parts[1], self.trying)  # the step bar and undo, on the student's own line
        show(self.free_play_parts[2], False)
        self.flush()

    # -- a question --------------------------------------------------------------------------------

    def decides(self) -> bool:
        """On the class's position: True while a question the student has not answered is about a seat shown."""
        if self.trying:
            return super().decides()
        question = self.follow.question()
        return (
            question is not None
            and self.live
            and question["ply"] == self.game.ply
            and question["seat"] in self.reader_seats
            and question["seat"] in self.shown().acting
        )

    def try_move(self, notation: str) -> bool:
        if self.trying:
            return super().try_move(notation)
        reason = self.why_not(notation)
        if reason is not None:
            self.say(reason, error=True)
            return False
        self.follow.send_try(notation)
        return True

    def play_offered(self, notation: str) -> None:
        if self.trying:
            super().play_offered(notation)
        else:
            self.try_move(notation)

    def why_not(self, notation: str) -> str | None:
        """What the kernel can say: no question open, notation that does not read, a move the host did not list as
        legal (the host's judgement, with its rule, comes when it is tried); while a table explains a press, the
        move it names is noted to be tried."""
        if self.trying:
            return super().why_not(notation)
        if not self.decides():
            return NOT_ASKED
        self._tried = notation
        unread = self.shown().why_illegal(notation)
        if unread is not None or notation in map(str, self.reader_moves()):
            return unread
        return self._rules_say(notation) or f"{notation} is not one of the moves allowed here"

    def _rules_say(self, notation: str) -> str | None:
        """The rule that stops ``notation``, where the class's position is whole in the view (Sombrero), so a press
        that sends no try (a hatless piece) is told why; elsewhere the host's reason comes back with the try."""
        if not self.can_try():
            return None
        return hatskit.load(self.follow.game().view(None)["position"]).why_illegal(notation)

    def explain(self, path: Sequence[ui.Part]) -> str:
        """Presses that make no legal move: where they name a move, it is tried (the host says which rule stops it)."""
        if self.trying:
            return super().explain(path)
        if not self.decides():
            return self.waiting_text(self.shown()) if self.follow.answered else NOT_ASKED
        self._tried = None
        sentence = super().explain(path)
        tried, self._tried = self._tried, None
        if tried is None or len(path) < 2 or not self.decides() or self.shown().why_illegal(tried) is not None:
            return sentence
        self.follow.send_try(tried)
        return f"Your answer, {tried}, went to your teacher: the host judges it."

    def judged(self, reply: Frame) -> None:
        """The host's judgement of the student's try, on the message line (the rule behind "why?")."""
        move = str(reply["move"])
        self.refresh()
        if reply["legal"]:
            self.say(f"Your answer, {move}, is in: a legal move. Your teacher plays on when the class has answered.")
        else:
            why = sentence(str(reply.get("why") or "it is against the rules"))  # it may start with a square: e1 …
            self.say(f"Your answer, {move}, is in, but it is not allowed here: {why}", error=True)

    # -- what the class's table says and does not do -----------------------------------------------

    def waiting_text(self, shown: Any) -> str:
        if self.trying:
            return super().waiting_text(shown)
        asked = (self.follow.client.walk or {}).get("question") if self.follow.client is not None else None
        if asked is not None and asked["number"] in self.follow.answered:
            return "Your answer is in: your teacher plays on when the class has answered."
        return f"{self._acting_names(shown)} to move: your teacher plays."

    def seat_kind(self, seat: int) -> str:
        """The teacher's seat is theirs; another may be the teacher's or a bot's of their table: the page knows
        only that it is played there."""
        if self.trying:
            return "you"
        return "your teacher" if seat == self.game.seat else "played at your teacher's table"

    @property
    def hides_hands(self) -> bool:
        """Never: the students see what the teacher shows them; no pass-the-laptop screen."""
        return False

    def run_bots(self) -> None:
        if self.trying:
            super().run_bots()

    def undo(self) -> None:
        if self.trying:
            super().undo()
        else:
            self.say(NO_UNDO, error=True)

    # -- a line of the student's own -------------------------------------------------------------------

    def can_try(self) -> bool:
        """Whether the class's position is whole in the view (a game that hides nothing): a line can start there."""
        game = self.follow.game()
        return "position" in game.view(None) and not self.spec.simultaneous

    def try_here(self) -> None:
        """Play on from the class's position on the student's own, as every side."""
        if self.trying or not self.can_try():
            return
        own = hatskit.load(self.follow.game().view(None)["position"])
        self.trying = True
        TableFrame.start(self, own, tuple(READER for _ in own.seat_names))  # type: ignore[arg-type]
        self._sit()
        self.say("Your own line from the class's position: play any side. “back to the class” follows your teacher.")

    def back_to_class(self) -> None:
        """Leave the student's own line for the class's position, as the teacher shows it now."""
        self.trying = False
        TableFrame.start(self, self.follow.game(), self.follow.seats())  # type: ignore[arg-type]
        self._sit()


def follow_class(table: TableFrame, fold: Following) -> ClassTable:
    """``table``, already on the page, follows the class (its class gains :class:`ClassTable`): a press cannot add
    an output to a Voilà page, and the student keeps the table where they are."""
    table.scheduler.cancel()
    table.__class__ = _mixed(ClassTable, type(table))
    following = cast(ClassTable, table)
    following.follow, following.trying, following.teacher, following.bot_delay = fold, False, False, 0
    fold.table = following
    following.moves_part.on_move(following.play_offered)  # the page's moves are tries now (bound to the old class)
    TableFrame.start(following, fold.game(), fold.seats())  # type: ignore[arg-type]  # (its own start refuses)
    following._sit()
    return following
