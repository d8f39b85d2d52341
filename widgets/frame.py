"""The frame every game's table view shares: history, seats, bots, messages and scores.

A view is a :class:`TableFrame` subclass that draws one game's table. The
frame owns what is the same for every game: a status line (whose decision it
is), a message line (the narration of the last moves, or why a move is not
allowed), step-through controls with a slider over the history, undo, a hint
from the strong bot, the score panel and the bots that sit at the table.

A subclass names its game (``game_id``, ``game_title``) and its
``default_seats``, and writes three things:

- :meth:`TableFrame.build_table` builds its widgets once and returns the rows
  of the table area;
- :meth:`TableFrame.show_table` updates them to show a view, the dict that
  ``game.view(seat)`` returns for the seat the frame shows (:attr:`viewer`),
  so hidden cards never reach a widget;
- its click handlers call :meth:`TableFrame.try_move` with a move's notation.

It may read :attr:`hint_move` (the move a hint suggested, to highlight),
:meth:`reader_moves` (the legal moves when a reader decides, to highlight
targets) and :meth:`why_not` (the sentence a refused move would get, to
explain a click that is not a move yet). Every change of the game goes
through ``game.play`` and ``game.undo``; the widget tree is built once and
only its values and classes change afterwards.

Bots move on their own. With ``bot_delay`` 0 they answer inside the click
handler, which is what tests use. With a positive delay each bot move is
scheduled on the running asyncio event loop (``loop.call_later``): ipykernel
handles widget messages on that loop, in JupyterLab and in Voilà alike, so
bot moves and clicks never run at the same time. Where no loop runs (a plain
script), bots answer at once.
"""

from __future__ import annotations

import asyncio
import html
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import ipywidgets as widgets

from hatskit.bots import BOT_KINDS, Bot, make_bot
from hatskit.core import Game
from hatskit.render.common import scoresheet_html
from widgets.style import style_html

READER = "reader"
SEAT_KINDS = (READER, *BOT_KINDS)


class TableFrame(widgets.VBox):
    """A game at a table: the table area a subclass fills, and the shared controls around it."""

    game_id: ClassVar[str]  # the game a subclass draws
    game_title: ClassVar[str]
    default_seats: ClassVar[tuple[str, ...]]

    def __init__(self, game: Game, seats: Sequence[str] | None = None, bot_delay: float = 0.8, seed: int = 0) -> None:
        if game.game_id != self.game_id:
            raise ValueError(f"{type(self).__name__} shows a {self.game_title} game, not {game.game_id!r}")
        super().__init__()
        self.game = game
        self.selected: str | None = None  # what the reader has picked up: a card, a square
        self.seats = check_seats(self.default_seats if seats is None else seats, len(game.seat_names))
        self.reader_seats = [seat for seat, kind in enumerate(self.seats) if kind == READER]
        self.bots: dict[int, Bot] = {
            seat: make_bot(game.game_id, kind, seed=seed + seat)
            for seat, kind in enumerate(self.seats)
            if kind != READER
        }
        self.bot_delay = bot_delay
        self.seed = seed
        self.shown_ply = game.ply
        self.narrated_from = max(game.ply - 1, 0)
        self.hint_move: Any = None
        self.pending_bot: asyncio.TimerHandle | None = None
        self._hint_bot: Bot | None = None
        self._syncing_controls = False
        self._build_frame()
        self.refresh()
        self.narrate()
        self.run_bots()

    # -- what a subclass writes -------------------------------------------------

    def build_table(self) -> list[widgets.Widget]:
        """Build the game's widgets once; return the rows of the table area."""
        raise NotImplementedError

    def show_table(self, view: dict[str, Any]) -> None:
        """Show ``view`` (``game.view(viewer)`` at the shown position) in the table widgets."""
        raise NotImplementedError

    # -- what a subclass uses ---------------------------------------------------------

    def shown(self) -> Game:
        """The game as it stood at the shown ply (a separate Game over the stored positions)."""
        return self.game.state_at(self.shown_ply)

    @property
    def live(self) -> bool:
        """True when the latest position is shown."""
        return self.shown_ply == self.game.ply

    @property
    def viewer(self) -> int:
        """The seat whose view is shown: the reader who decides now, else the first reader seat."""
        to_move = self.shown().to_move
        return to_move if to_move in self.reader_seats else self.reader_seats[0]

    def decides(self) -> bool:
        """True when a reader makes the decision at the shown position."""
        return self.shown().to_move in self.reader_seats

    def reader_moves(self) -> list[Any]:
        """The legal moves at the shown position when a reader decides there, else none."""
        return self.shown().legal_moves() if self.decides() else []

    def seat_label(self, seat: int) -> str:
        """A seat's name and who sits there: "Ana (you)", "Ben (greedy bot)"."""
        kind = self.seats[seat]
        return f"{self.game.seat_names[seat]} ({'you' if kind == READER else f'{kind} bot'})"

    def why_not(self, notation: str) -> str | None:
        """None when the reader may play ``notation`` at the shown position, else the sentence that says why not."""
        shown = self.shown()
        if not shown.is_over and not self.decides():
            return f"It is {self._to_move_name(shown)}'s turn, not yours."
        return shown.why_illegal(notation)

    def try_move(self, notation: str) -> bool:
        """Play a reader's move at the shown position, or say why not and change nothing.

        Played at an earlier position, the move starts a new branch: the later
        moves are taken back first.
        """
        reason = self.why_not(notation)
        if reason is not None:
            self.say(reason, error=True)
            return False
        self._cut_history(self.shown_ply)
        self.game.play(notation)
        self._moved_to(self.game.ply, narrate_from=self.game.ply - 1)
        self.run_bots()
        return True

    def say(self, text: str, error: bool = False) -> None:
        """Put a plain-text sentence in the message line (marked as an error if it is one)."""
        self._set_message(html.escape(text), error)

    # -- the shared controls -------------------------------------------------------------

    def go_to(self, ply: int) -> None:
        """Show the position after ``ply`` moves (clamped to the history), with that move's narration."""
        ply = min(max(ply, 0), self.game.ply)
        self._moved_to(ply, narrate_from=ply - 1)

    def undo(self) -> None:
        """Take back to the reader's previous decision, with the bot moves after it."""
        decision = self._last_decision_before(self.shown_ply)
        if decision is None:
            self.say("There is no move of yours to take back.", error=True)
            return
        taken = self.game.ply - decision
        self._cut_history(decision)
        self._moved_to(decision, narrate_from=decision)
        self.say(f"Took back {taken} move(s): {self.game.seat_names[self.viewer]} decides again.")

    def ask_hint(self) -> None:
        """Ask the strong bot what the reader should play here; show its reason and mark the move."""
        shown = self.shown()
        if shown.is_over:
            self.say("The game is over: there is no move left to hint at.", error=True)
            return
        if not self.decides():
            self.say("A hint is for your own decision, and this one is not yours.", error=True)
            return
        hint = self._strong_bot().hint(shown.seat_view(self.viewer))
        self.hint_move = hint.move
        self.refresh()
        self.say(f"Hint: {hint.move}. {hint.reason}")

    def refresh(self) -> None:
        """Bring every widget in line with the shown position."""
        shown = self.shown()
        self._sync_controls()
        self.status.value = html.escape(self._status_text(shown))
        self.score_panel.value = scoresheet_html(shown.score())
        self.show_table(shown.view(self.viewer))

    def narrate(self) -> None:
        """The message line tells the events of the moves since ``narrated_from``, and the outcome."""
        shown = self.shown()
        start = min(self.narrated_from, self.shown_ply)
        lines = [html.escape(str(event)) for events in self.game.events[start : self.shown_ply] for event in events]
        outcome = shown.outcome()
        if outcome is not None:
            lines.append(f"<b>{html.escape(outcome.reason)}</b>")
        if not lines:
            lines.append(html.escape(f"{self._to_move_name(shown)} to move."))
        self._set_message("<br>".join(lines), error=False)

    # -- bots -----------------------------------------------------------------

    def run_bots(self) -> None:
        """Let the bots move until a reader decides or the game ends (at once, or one per delay)."""
        self._cancel_bot()
        loop = _running_loop() if self.bot_delay > 0 else None
        if loop is None:
            while self._bot_to_move() is not None:
                self._play_bot()
        elif self._bot_to_move() is not None:
            self.pending_bot = loop.call_later(self.bot_delay, self._bot_turn)

    def _bot_turn(self) -> None:
        """A scheduled bot move, then the next one is scheduled."""
        self.pending_bot = None
        if self._bot_to_move() is not None:
            self._play_bot()
            self.run_bots()

    def _play_bot(self) -> None:
        follow = self.live
        start = self.game.ply
        seat = self.game.to_move
        self.game.play(self.bots[seat].choose(self.game.seat_view(seat)))
        if follow:
            self._moved_to(self.game.ply, narrate_from=min(self.narrated_from, start))
        else:
            self._sync_controls()

    def _bot_to_move(self) -> int | None:
        seat = self.game.to_move
        return seat if seat in self.bots else None

    def _cancel_bot(self) -> None:
        if self.pending_bot is not None:
            self.pending_bot.cancel()
            self.pending_bot = None

    def _strong_bot(self) -> Bot:
        if self._hint_bot is None:
            self._hint_bot = make_bot(self.game.game_id, "strong", seed=self.seed)
        return self._hint_bot

    # -- history ---------------------------------------------------------------

    def _cut_history(self, ply: int) -> None:
        """Take back every move after ``ply`` (a new branch starts there)."""
        self._cancel_bot()
        while self.game.ply > ply:
            self.game.undo()

    def _moved_to(self, ply: int, narrate_from: int) -> None:
        self.shown_ply = ply
        self.narrated_from = max(narrate_from, 0)
        self.hint_move = None
        self.refresh()
        self.narrate()

    def _last_decision_before(self, ply: int) -> int | None:
        """The latest ply before ``ply`` at which a reader decided."""
        for earlier in range(ply - 1, -1, -1):
            if self.game.state_at(earlier).to_move in self.reader_seats:
                return earlier
        return None

    # -- the frame's widgets ------------------------------------------------------

    def _build_frame(self) -> None:
        self.status = html_line("hk-status")
        self.message = html_line("hk-message")
        self.score_panel = html_line("hk-scorepanel")
        self.first_button = named_button("first", "the position before the first move", lambda: self.go_to(0))
        self.back_button = named_button("back", "one move back", lambda: self.go_to(self.shown_ply - 1))
        self.forward_button = named_button("forward", "one move forward", lambda: self.go_to(self.shown_ply + 1))
        self.last_button = named_button("last", "the latest position", lambda: self.go_to(self.game.ply))
        self.undo_button = named_button("undo", "take back to your previous decision", self.undo)
        self.hint_button = named_button("hint", "ask the strong bot for a move", self.ask_hint)
        self.slider = widgets.IntSlider(0, min=0, max=0, description="move", tooltip="moves played so far")
        self.slider.observe(self._slider_moved, names="value")
        steps = [self.first_button, self.back_button, self.forward_button, self.last_button]
        controls = widgets.HBox([*steps, self.slider, self.undo_button, self.hint_button])
        style = widgets.HTML(style_html())
        self.children = [style, self.status, *self.build_table(), self.message, controls, self.score_panel]
        self.add_class("hk")
        self.add_class("hk-table")

    def _slider_moved(self, change: dict[str, Any]) -> None:
        if not self._syncing_controls:
            self.go_to(change["new"])

    def _sync_controls(self) -> None:
        """Slider range and value, and which buttons may be pressed, for the shown ply."""
        self._syncing_controls = True
        try:
            if self.game.ply >= self.slider.max:
                self.slider.max, self.slider.value = self.game.ply, self.shown_ply
            else:
                self.slider.value, self.slider.max = self.shown_ply, self.game.ply
        finally:
            self._syncing_controls = False
        at_start, at_end = self.shown_ply == 0, self.live
        self.first_button.disabled = self.back_button.disabled = at_start
        self.forward_button.disabled = self.last_button.disabled = at_end
        self.undo_button.disabled = self._last_decision_before(self.shown_ply) is None
        self.hint_button.disabled = not self.decides()

    def _set_message(self, message_html: str, error: bool) -> None:
        self.message.value = message_html
        if error:
            self.message.add_class("hk-error")
        else:
            self.message.remove_class("hk-error")

    def _status_text(self, shown: Game) -> str:
        if shown.is_over:
            return "The game is over."
        mover = self._to_move_name(shown)
        if not self.live:
            branch = ": play from here to start a new branch" if self.decides() else ""
            return f"Move {self.shown_ply} of {self.game.ply}. {mover} to move{branch}."
        if shown.to_move in self.bots:
            return f"{self.game.seat_names[shown.to_move]} is thinking…"
        return f"{mover} to move."

    def _to_move_name(self, shown: Game) -> str:
        return "nobody" if shown.to_move is None else self.seat_label(shown.to_move)


def check_seats(seats: Sequence[str], players: int) -> tuple[str, ...]:
    """The seats as a tuple, or a ValueError saying what is wrong with them."""
    seats = tuple(seats)
    if len(seats) != players:
        raise ValueError(f"this game has {players} seats, but {len(seats)} were given: {list(seats)}")
    unknown = [kind for kind in seats if kind not in SEAT_KINDS]
    if unknown:
        raise ValueError(f"unknown seat kind(s) {unknown}: a seat is one of {', '.join(SEAT_KINDS)}")
    if READER not in seats:
        raise ValueError(f"at least one seat must be {READER!r}, the person at the screen")
    return seats


def set_marks(widget: widgets.DOMWidget, marks: Sequence[str], managed: Sequence[str]) -> None:
    """Give ``widget`` exactly the classes of ``marks`` among those in ``managed``."""
    for mark in managed:
        if mark in marks:
            widget.add_class(mark)
        else:
            widget.remove_class(mark)


def html_line(css_class: str, value: str = "") -> widgets.HTML:
    """An HTML widget with one CSS class (none when ``css_class`` is empty)."""
    line = widgets.HTML(value)
    if css_class:
        line.add_class(css_class)
    return line


def named_button(name: str, tooltip: str, action: Callable[[], None], width: str | None = "auto") -> widgets.Button:
    """A button whose text ``name`` (and ``tooltip``) say what it does; a click runs ``action``."""
    button = widgets.Button(description=name, tooltip=tooltip, layout=widgets.Layout(width=width))
    button.on_click(lambda _: action())
    return button


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
