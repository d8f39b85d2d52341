"""*Walkthrough…*, the teacher's side (widgets/table/walkthrough.py says what a walkthrough is): start one of the
game on the table, give its code and link, lead the class from the table (:class:`LeadingTable`: every move and step
sent to the host), ask "your move?" and see the answers counted; take an open walkthrough up again after a reload.
"""

from __future__ import annotations

import asyncio
import html
from collections.abc import Coroutine, Mapping, Sequence
from typing import Any, cast

from tornado.httpclient import HTTPClientError

import hatskit
from hatskit.drawing import RULE_NAMES, rule_name, without_rules
from tablehost.client import TableClient, TableConnectionLost, TableRefused
from widgets.host import hub_user
from widgets.table.classmates import LOST, Asking
from widgets.table.frame import TableFrame
from widgets.table.seat_game import Frame
from widgets.table.shared import mixed
from widgets.toolkit import ui
from widgets.toolkit.clipboard import Clipboard
from widgets.toolkit.parts import html_line, named_button, row, show

SHOWS = [("every hand", "all"), ("my seat only", "seat")]
LEAD_TIP = "lead the class through this game: every student's table follows yours, and you can ask “your move?”"
LEAD_INTRO = (
    "Start a walkthrough of the game on this table: students open its link, and their tables show each move and"
    " step you make here. The bots at your table play their seats as usual; to play every seat yourself, choose"
    " “a reader (you)” for them in New game… first."
)
NO_DEAL = (
    "A walkthrough starts from a dealt game: press New game… and Start first (a loaded position cannot be dealt"
    " again at the host)."
)
RESUME_TIP = "lead the walkthrough this page led before it was reloaded or closed: its students follow it still"
STILL_OPEN = "Walkthrough {code} of this game is still open ({following} following): you can take it up again."
NOT_IN_TURNS = "A walkthrough needs a game played in turns: in a race every seat acts at once."
LEADING_NEW_GAME = "This table leads a walkthrough: end it (Walkthrough…) before you put another game on it."


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
        self.tally: Frame | None = None  # the last question's count, as the host last sent it

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
        game, seat = self.table.game, self.table.viewer
        fields = {"options": game.head["options"], "seat": seat, "shows": shows, "seed": game.head["seed"]}
        async with self.connected(self.secret) as client:
            await client.walk_open(game.game_id, len(game.seat_names), hub_user(), **fields)
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
            async with self.connected(self.secret) as client:
                walks = (await client.walk_list())["walks"]
            await client.close()  # asked once: not kept
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
        async with self.connected(self.secret) as client:
            self.client = client  # its tally, pushed as it joins, is heard
            joined = await client.walk_join(code, role="teacher")
            game = hatskit.load(joined["record"])
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
        self.tally, self.tally_line.value = None, ""

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
            self.refused(refusal)
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
            self.tally = self._in_words(frame)
            self.tally_line.value = tally_html(self.tally, self.table.game.seat_names)
        elif kind == "walk_presence" and frame.get("students") is not None:
            self.code_line.value = code_html(self.code or "", frame["students"])
        elif kind == "walk" and frame.get("question") is None and self.client is not None and self.tally is not None:
            self.tally_line.value = tally_html(self.tally, self.table.game.seat_names, closed=True)
        else:
            return
        self.table.flush()

    def _in_words(self, tally: Frame) -> Frame:
        """The tally with its answers and the strong bot's move as a hint to the asked seat says them ("put ♥4 on
        position 4 and take ♥5", not ``♥4@4``): worded while this table shows the asked position, which it does
        until the question closes, and kept with the tally for its closed count."""
        kept = self.tally.get("words", {}) if self.tally and self.tally["number"] == tally["number"] else {}
        words: dict[str, str] = dict(kept)
        asked = [str(choice["move"]) for choice in tally["choices"]] + [str(tally["best"])] * bool(tally.get("best"))
        if self.table.shown_ply == tally["ply"]:
            for move in (move for move in asked if move not in words):
                words[move] = self.table.notation_words(move, tally["seat"])
        return {**tally, "words": words}


def code_html(code: str, students: Sequence[Frame] = ()) -> str:
    """The walkthrough's code, how a student comes, and who follows now."""
    here = [str(student["name"]) for student in students if student.get("here")]
    follow = f"{len(here)} following: {', '.join(here)}." if here else "Nobody follows yet."
    lead = (
        f"<b>Walkthrough {html.escape(code)}</b>. Students open this page with the link “copy link” gives you, or"
        " add ?walk= and the code to its address. Your table leads: each move and step you make, their tables show."
    )
    return f"<p>{lead}</p><p>{html.escape(follow)}</p>"


def tally_html(tally: Frame, names: Sequence[str], closed: bool = False) -> str:
    """The question's answers, as the teacher's screen shows them to a class: how many answered; each move
    chosen (most first, in ``tally["words"]`` where it has them) on a bar as long as its share, the strong bot's
    starred and an illegal one crossed, with the reason in words (its rule in the tooltip); the illegal tries by
    rule; and the strong bot's move. Once the teacher played or stepped on (``closed``) the count stays, marked so,
    and a bot that had not chosen by then is not said to be thinking still."""
    seat = names[tally["seat"]] if 0 <= tally["seat"] < len(names) else str(tally["seat"])
    words = tally.get("words", {})
    head = (
        f"<b>Question {tally['number']}</b>{' (closed)' if closed else ''}: {html.escape(seat)}'s move"
        f" {_when(tally['ply'])}. {tally['answered']} of {tally['following']} answered."
    )
    choices = "".join(_choice(choice, max(tally["answered"], 1), words) for choice in tally["choices"])
    rules = ", ".join(f"{_rule(rule['rule'])}: {rule['count']}" for rule in tally["rules"])
    illegal = f"<p>Illegal tries: {tally['illegal']}" + (f" ({rules})" if rules else "") + ".</p>"
    best = tally.get("best")
    bot = f"★ The strong bot's move: {html.escape(words.get(best, best))}." if best else "The strong bot is thinking…"
    bot = "The question closed before the strong bot chose a move." if closed and not best else bot
    return f"<p>{head}</p><ul class='hk-walk-choices'>{choices}</ul>{illegal}<p>{bot}</p>"


def _when(ply: int) -> str:
    return "at the start" if ply == 0 else f"after move {ply}"


def _choice(choice: Frame, answered: int, words: Mapping[str, str]) -> str:
    """One move chosen: its bar (its share of the answers), the move in words, how many chose it, and a star or a
    cross."""
    share = round(100 * choice["count"] / answered)
    star = " ★ <span class='hk-sr'>the strong bot's move</span>" if choice.get("best") else ""
    why = ""
    if not choice["legal"]:
        reason = html.escape(without_rules(str(choice.get("why") or ""))[0])
        title = html.escape(rule_name(choice["rule"])) if choice.get("rule") else ""
        why = f" <span class='hk-walk-why' title='{title}'>✘ not allowed: {reason}</span>"
    kind = "hk-walk-ok" if choice["legal"] else "hk-walk-no"
    move, count = html.escape(words.get(choice["move"], choice["move"])), choice["count"]
    return f"<li class='{kind}' style='--hk-share: {share}%'><b>{move}: {count}</b>{star}{why}</li>"


def _rule(rule: str | None) -> str:
    """A rule the tries broke, by its name (its id in the tooltip); "other" for a refusal naming none (a card not
    in the hand)."""
    if rule is None:
        return "other"
    return f"<abbr title='{html.escape(rule_name(rule))}'>{html.escape(RULE_NAMES.get(rule, rule))}</abbr>"


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
        table.__class__ = mixed(LeadingTable, type(table))
    cast(LeadingTable, table).walk_lead = fold


def unlead(table: TableFrame) -> None:
    """``table`` is the teacher's own again."""
    if isinstance(table, LeadingTable):
        table.__class__ = type(table).__mro__[2]
