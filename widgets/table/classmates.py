"""*Play with classmates…*: the fold beside *New game…* that seats the page's table at a table the class's host keeps.

    >>> table = HatsTable.from_link(game)   # the page's own table gets the fold (widgets/table/frame.py)

A student opens a table (players, who fills the seats left) or joins one by its code, under the name they
type; the fold then shows the lobby: the table's code and link, who sits where and who is connected. The
one who opened it presses *Start* once two or more sit there. When the game starts, the same table on the
page becomes the student's seat (:func:`widgets.table.shared.take_seat`): their own seat at the bottom, only
what it may see.

The page keeps each seat's token in the browser (:class:`KeptSeats`, ``kept_seats.js``), so opening the
table's link again (``?table=CODE``: a reload, a closed tab, a laptop that slept) comes back to the same seat
with the game as it stands. On JupyterHub the hub user holds the seat and no token is needed.

The host is found in ``TABLETOP_URL`` (``make app`` sets it; on JupyterHub the hub's service). Without it
(Binder, the static site, a notebook on its own) the fold says that classmates play on one screen here.
The connection runs on the kernel's asyncio loop (:class:`~widgets.table.seat_at_host.ClientSeat`): a press starts
a task, and the fold says what it is doing until the host answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
from collections.abc import AsyncIterator, Coroutine
from typing import TYPE_CHECKING, Any

import traitlets

from hatskit.bots import bot_kinds
from hatskit.drawing import sentence
from widgets.host import hub_token, hub_user
from widgets.table.setup import bot_name
from widgets.toolkit import ui
from widgets.toolkit.clipboard import Clipboard
from widgets.toolkit.parts import html_line, named_button, row, show

if TYPE_CHECKING:
    from tablehost.client import TableClient, TableRefused
    from widgets.table.frame import TableFrame
    from widgets.table.seat_at_host import ClientSeat

KEPT_MOST = 20  # seats a browser remembers (the newest kept)
CLASSMATES_TIP = "play classmates at their own laptops: open a table and give them its code, or join theirs"
NO_HOST = (
    "Playing classmates at their own laptops needs the class's table host, which runs with the app on the"
    " class's server (make app, or JupyterHub). Here you can still play a classmate on this screen: in"
    " “New game…”, choose “a reader (you)” for two seats and pass the laptop."
)
LOST = "The connection to the table host dropped before it answered: try again in a moment."
UNREACHABLE = "The class's table host did not answer ({}). Ask your teacher whether the app is running, then try again."
NO_NAME = "Type your name first: it is what your classmates see at the table."
NO_CODE = "Type the table's code first: the five letters your classmate was given, such as KBQTZ."


class KeptSeats(ui.Custom):
    """The seats this browser sat at, kept in its localStorage: ``{code: {"token", "name"}}`` (``kept_seats.js``).

    The page sends what it kept as it opens (``{"kept": {...}}``); the kernel adds a seat by setting
    :attr:`keep`. A token is the student's own key to their seat; it never names another seat's.
    """

    script = "kept_seats.js"
    keep = traitlets.Dict().tag(sync=True)  # the seat to remember: {"code", "token", "name"}
    class_kept = traitlets.Dict().tag(sync=True)  # the class name and token to remember ("hatskit.class")
    most = traitlets.Int(KEPT_MOST).tag(sync=True)


class HostFold(ui.Fold):
    """A fold that talks to the class's host (this one, and *Walkthrough…*): one request at a time, as a task on the
    kernel's loop, said in words until the host answers; a refusal or a host that does not answer is a sentence
    at the top of the fold (:attr:`note`), and nothing changes."""

    table: TableFrame
    note: ui.HTML
    url: str | None

    def _start_asking(self, url: str | None) -> None:
        """Where the host is (``None``: no host, as on Binder), and no request yet."""
        self.url = url
        self._busy = False
        self._tasks: set[asyncio.Task[None]] = set()

    def say(self, text: str, error: bool = False) -> None:
        """One sentence at the top of the fold (a refusal in the error colour)."""
        self.note.value = f'<span class="hk-error">{html.escape(text)}</span>' if error else html.escape(text)
        self.table.flush()

    def refused(self, refusal: TableRefused) -> None:
        """The host's refusal at the top of the fold, in a student's words where it gave them."""
        self.say(sentence(refusal.sentence, capital=True), error=True)

    def settled(self) -> None:
        """What the fold says once a request is answered: nothing."""
        self.say("")

    def _run(self, doing: str, work: Coroutine[Any, Any, Any]) -> asyncio.Task[None] | None:
        """Start ``work`` on the kernel's loop, saying ``doing`` until it is done; one request at a time (the
        task, or None when another request is still out)."""
        if self._busy:
            work.close()
            self.say("Wait a moment: the table host has not answered yet.", error=True)
            return None
        self._busy = True
        self.say(doing)
        return self._spawn(self._answered(work))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _answered(self, work: Coroutine[Any, Any, Any]) -> None:
        """Await ``work``; a refusal, a lost connection or an unreachable host becomes the fold's sentence."""
        from tornado.httpclient import HTTPClientError

        from tablehost.client import TableConnectionLost, TableRefused

        try:
            await work
            self.settled()
        except TableRefused as refusal:
            self.refused(refusal)
        except (TableConnectionLost, TimeoutError):
            self.say(LOST, error=True)
        except (OSError, ConnectionError, HTTPClientError) as error:
            self.say(UNREACHABLE.format(error or type(error).__name__), error=True)
        finally:
            self._busy = False


class Asking(HostFold):
    """A :class:`HostFold` with a client of its own, whose frames it hears: the walkthrough's folds, the teacher's
    (widgets/table/walk_lead.py) and a student's (widgets/table/walk_follow.py)."""

    client: TableClient | None = None  # the fold's own, once a request made with it succeeded
    url: str

    @contextlib.asynccontextmanager
    async def connected(self, teacher: str | None) -> AsyncIterator[TableClient]:
        """A client connected to the host, its frames heard by :meth:`heard`, for what the ``async with`` asks of
        it: if that fails, the client is closed and not kept (the fold's :attr:`client` too, if it was), so a
        refused request leaves no connection behind."""
        from tablehost.client import TableClient  # tornado's client: only where a host exists (never the static site)

        token = hub_token()
        client = TableClient(self.url, teacher=teacher, on_frame=self.heard, hub_token=token or None)
        await client.connect()
        try:
            yield client
        except BaseException:
            if self.client is client:
                self.client = None
            await client.close()
            raise

    def heard(self, frame: dict[str, Any]) -> None:
        """A frame from the host."""


class Classmates(HostFold):
    """The fold, its lobby and the seat it opens; see the module docstring."""

    def __init__(self, table: TableFrame, url: str | None, code: str | None = None) -> None:
        self.table = table
        self.seat: ClientSeat | None = None
        self.kept: dict[str, dict[str, str]] = {}
        self._looking: asyncio.Task[None] | None = None  # asking the hub for the user's seat at the link's table
        self._start_asking(url)
        self._build(code)
        super().__init__(self._parts(), summary="Play with classmates…", tooltip=CLASSMATES_TIP)
        self.add_class("hk-classmates")
        self.open = code is not None
        self._show_choices()
        if url is None:
            self.say(NO_HOST)

    # -- the parts -----------------------------------------------------------------------------

    def _build(self, code: str | None) -> None:
        game_id = self.table.game_id
        self.note = html_line("hk-classmates-note")
        self.name_box = ui.Text(value=hub_user() or "", description="your name", placeholder="the name classmates see")
        self.players_box = ui.Choices(options=list(self.table.spec.players), description="players")
        bots = [(f"{bot_name(game_id, kind)} bot", kind) for kind in bot_kinds(game_id)]
        self.bots_box = ui.Choices(options=bots, value=bots[min(1, len(bots) - 1)][1], description="empty seats get")
        self.open_button = named_button("open a table", "open a table and get a code for classmates", self.press_open)
        self.code_box = ui.Text(value=code or "", description="table code", placeholder="5 letters, such as KBQTZ")
        self.join_button = named_button("join", "sit at the table with this code", self.press_join)
        self.lobby = html_line("hk-lobby")
        self.clipboard = Clipboard(label="the table's link")
        self.copy_button = named_button(
            "copy link", "copy a link that brings a classmate to this table", self.copy_link
        )
        self.start_button = named_button("Start", "start the game: empty seats get a bot", self.press_start)
        self.start_button.primary = True
        self.leave_button = named_button("leave", "leave this table before it starts", self.press_leave)
        self.kept_seats = KeptSeats()
        self.kept_seats.on_msg(self._page_kept)

    def _parts(self) -> list[ui.Part]:
        self.choices = [
            row([self.name_box]),
            row([self.players_box, self.bots_box, self.open_button]),
            row([self.code_box, self.join_button]),
        ]
        self.waiting = [self.lobby, row([self.copy_button, self.start_button, self.leave_button]), self.clipboard]
        return [self.note, *self.choices, *self.waiting, self.kept_seats]

    def _show_choices(self) -> None:
        """Before a seat: the name, open and join rows (none without a host); after: the lobby."""
        seated = self.seat is not None
        for part in self.choices:
            show(part, self.url is not None and not seated)
        show(self.players_box, len(self.table.spec.players) > 1)
        for part in self.waiting:
            show(part, seated)
        show(self.start_button, self.seat is not None and self.seat.seat == 0)

    # -- presses ---------------------------------------------------------------------------------

    def press_open(self) -> None:
        """Open a table of this page's game at the host, with the chosen players and bots."""
        name = self._name()
        if name is not None:
            players, bots = self.players_box.value, self.bots_box.value
            self._run("Opening a table…", self._open(name, players, bots))

    def press_join(self) -> None:
        """Sit at the table whose code is typed (a seat this browser kept is taken back, not joined again)."""
        code = self.code_box.value.strip().upper()
        if not code:
            self.say(NO_CODE, error=True)
        elif self._looking is not None:  # the page's own question to the hub is out: the press waits, not lost
            self._looking.add_done_callback(lambda _: self._join_if_seatless())
            self.say(f"Joining table {code}…")
        elif code in self.kept:
            self._run("Going back to your seat…", self._rejoin(code, self.kept[code]["token"]))
        elif (name := self._name()) is not None:
            self._run(f"Joining table {code}…", self._join(code, name))

    def press_start(self) -> None:
        if self.seat is not None:
            self._run("Starting the game…", self.seat.start(self.bots_box.value))

    def press_leave(self) -> None:
        """Leave the lobby (the opener leaving closes the table): the fold offers to open or join again."""
        if self.seat is not None:
            self._run("Leaving the table…", self._leave(self.seat))

    async def _leave(self, seat: ClientSeat) -> None:
        await seat.client.leave()
        await seat.close()
        self.seat = None
        self._show_choices()

    def _name(self) -> str | None:
        name = self.name_box.value.strip()
        if not name:
            self.say(NO_NAME, error=True)
        return name or None

    def _page_kept(self, part: ui.Custom, content: Any, buffers: Any) -> None:
        """What the browser kept, sent as the page opens: with ``?table=CODE`` kept, back to that seat at once."""
        del part, buffers
        kept = content.get("kept") if isinstance(content, dict) else None
        self.kept = {code: seat for code, seat in (kept or {}).items() if _kept_seat(code, seat)}
        code = self.code_box.value.strip().upper()
        if self.url is None or self.seat is not None or not code:
            return
        if code in self.kept:
            self.name_box.value = self.kept[code].get("name", "")
            self.press_join()
        elif _hub():  # on a hub the user holds the seat: back to it, if they sat there
            self._looking = self._run("Looking for your seat…", self._back_on_hub(code))

    # -- talking to the host ---------------------------------------------------------------------

    async def _open(self, name: str, players: int, bots: str) -> None:
        from widgets.table.seat_at_host import ClientSeat  # tornado's client: never imported on the static site

        self._seated(await ClientSeat.open(self._url(), self.table.game_id, players, name, bots=bots, **_hub()))

    async def _join(self, code: str, name: str) -> None:
        from widgets.table.seat_at_host import ClientSeat

        self._seated(await ClientSeat.join(self._url(), code, name, **_hub()))

    async def _rejoin(self, code: str, token: str | None) -> None:
        from widgets.table.seat_at_host import ClientSeat

        self._seated(await ClientSeat.rejoin(self._url(), code, token, **_hub()))

    async def _back_on_hub(self, code: str) -> None:
        """Back to the hub user's seat at ``code``; a user who never sat there is left to join, with no sentence."""
        from tablehost.client import TableRefused

        try:
            with contextlib.suppress(TableRefused):
                await self._rejoin(code, None)
        finally:
            self._looking = None

    def _join_if_seatless(self) -> None:
        """A *join* pressed while the hub was asked, made once its answer left the page without a seat (the
        asking task is over, so this press is the next request; pressed twice, it is made once)."""
        if self.seat is None and not self._busy:
            self.press_join()

    def _url(self) -> str:
        assert self.url is not None, "no press reaches the host without one: the rows are hidden"
        return self.url

    def _seated(self, seat: ClientSeat) -> None:
        """A seat at the host: remembered by the browser, the lobby shown, and the table taken once it starts."""
        self.seat = seat
        self.code_box.value = seat.code
        if seat.token is not None:
            self.kept_seats.keep = {"code": seat.code, "token": seat.token, "name": self.name_box.value.strip()}
        self._tell_progress(seat.code)
        seat.listen(self._heard)
        self._show_choices()
        self._heard("seated", 0)

    def _tell_progress(self, code: str) -> None:
        """The page's lessons (widgets/teaching/progress.py) report to the teacher's class list under the name
        typed here, and say that they do."""
        from widgets.teaching.progress import name_given

        if self.url is not None and self.name_box.value.strip():
            name_given(self.url, self.name_box.value.strip(), code)

    def _heard(self, kind: str, before: int) -> None:
        """A frame: the lobby follows presence; the first state means the game began, and the table is the seat's."""
        del before
        seat = self.seat
        if seat is None:
            return
        if seat.game is not None and not self.table_taken:
            self._take_table(seat)
        elif kind in ("seated", "presence", "closed"):
            self.lobby.value = lobby_html(seat, self.table.game_id)
            self.start_button.disabled = not (seat.presence or {}).get("can_start", False)
            self.table.flush()

    @property
    def table_taken(self) -> bool:
        return getattr(self.table, "shared", None) is self.seat

    def _take_table(self, seat: ClientSeat) -> None:
        from widgets.table.shared import take_seat

        self.table = take_seat(self.table, seat)
        show(self, False)
        self.table.flush()

    def _link(self) -> str:
        return f"?table={self.seat.code}" if self.seat is not None else ""

    def copy_link(self) -> None:
        """The table's link (the page's own, with ``?table=CODE``) to the clipboard."""
        self.clipboard.copy(self._link())


def lobby_html(seat: ClientSeat, game_id: str) -> str:
    """The lobby: the table's code and how to join it, who sits where (connected or not), and what happens next."""
    presence = seat.presence or {}
    rows = "".join(_seat_row(entry, seat.seat, game_id) for entry in presence.get("seats", []))
    lead = (
        f"<b>Table {html.escape(seat.code)}</b>. Classmates type this code in “Play with classmates…” on this"
        " page, or open the link that “copy link” gives you."
    )
    return f"<p>{lead}</p><ul class='hk-lobby-seats'>{rows}</ul><p>{_next_step(seat, presence)}</p>"


def _seat_row(entry: dict[str, Any], own: int | None, game_id: str) -> str:
    """One seat of the lobby: ``Ben: Maya (you), connected``."""
    name, where = html.escape(str(entry.get("name") or "")), html.escape(str(entry.get("as", "")))
    if entry.get("kind") == "bot":
        who = f"{html.escape(bot_name(game_id, entry['bot']))} bot"
    elif not name:
        who = "empty: a bot sits here if nobody comes"
    else:
        you = " (you)" if entry.get("seat") == own else ""
        who = f"{name}{you}, {'connected' if entry.get('connected') else 'not connected'}"
    return f"<li>{where}: {who}</li>"


def _next_step(seat: ClientSeat, presence: dict[str, Any]) -> str:
    if seat.ended:
        return f"This page holds the seat no more ({html.escape(seat.ended)})."
    if seat.seat != 0:
        opener = next((e.get("name") for e in presence.get("seats", []) if e.get("seat") == 0), "the opener")
        return f"Waiting for {html.escape(str(opener))} to press Start."
    if presence.get("can_start"):
        return "Press Start when everyone is here: the empty seats get a bot."
    return "Start is ready once a classmate sits down."


def _kept_seat(code: Any, seat: Any) -> bool:
    """Whether the page sent a seat in the shape the kernel keeps (anything else is ignored)."""
    return isinstance(code, str) and isinstance(seat, dict) and isinstance(seat.get("token"), str)


def _hub() -> dict[str, Any]:
    """On JupyterHub the kernel's hub token, which the host checks to know the user; elsewhere nothing."""
    token = hub_token()
    return {"hub_token": token} if token else {}
