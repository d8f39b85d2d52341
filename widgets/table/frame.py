"""The frame every game's table view shares: set-up, history, seats, bots, messages and scores.

A view is a :class:`TableFrame` subclass that draws one game's table. The
frame owns what is the same for every game: a set-up panel folded under *New
game…* (deal number, players, who sits where, rule options), a status line (who may act),
a message line (the narration of the last moves, or why a move is not
allowed, in a student's words: the rule ids wait behind one "why?",
``hatskit.drawing.told_html``), a step bar through the history (first, back, a slider
saying "move 3 of 12", forward, last), undo, a hint from the strong bot, the
score panel, sharing folded under *Share…* and the bots at the table.

A subclass names its game (``game_id``) and its ``default_seats``; what kind
of game it is (title, player counts, hidden hands) the frame reads from the
game's :class:`~hatskit.core.GameSpec`. A subclass writes:

- :meth:`TableFrame.build_table` builds its widgets and returns the rows of
  the table area (built again only when a new game has another player count);
- :meth:`TableFrame.show_table` updates them to show a view, the dict that
  ``game.view(seat)`` returns for the seat the frame shows (:attr:`viewer`),
  so hidden cards never reach a widget;
- :meth:`TableFrame.path_of` names the parts a reader presses, in turn, to make a
  move (a card, then where it goes): the frame sends the page every legal move as
  such a path (``ui.Moves``), the page picks up and drops on its own and sends
  one message when a path is complete, and the move is played without being read
  again; :meth:`TableFrame.board` lists the parts whose presses are picks, and
  :meth:`TableFrame.explain` says why presses that made no move made none;
- buttons in plain words (Madder's *decline*) call :meth:`TableFrame.try_move`
  with a move's notation;
- optionally :meth:`TableFrame.paths_of` (where a move has several ways to be
  pressed), :meth:`TableFrame.paused` (what the table waits for the
  reader to press before anyone plays on), :meth:`TableFrame.bot_delay_for` and
  :meth:`TableFrame.bot_move` (a race game's reaction times and timed plays).

It may read :attr:`hint_move` (the move a hint suggested), :meth:`reader_moves`
(the legal moves of the reader who acts now), :meth:`why_not` (the sentence a
refused move would get), :meth:`recent_plies` and :meth:`view_before` (what
changed in the moves the message line tells of, to highlight them) and
:attr:`scheduler` (for its own timed events: a card shown for a moment).
Class attributes ``can_undo``, ``can_hint`` and ``can_step`` switch those
controls off where they make no sense (mid-race).

Who may act comes from ``game.acting``: several seats may act at once, and
every acting bot gets its move scheduled. Every change of the game goes
through ``game.play`` and ``game.undo``; the parts are built once and only
their values and classes change afterwards. The whole table is one widget
model (:class:`widgets.toolkit.parts.View`): what one click, or one bot's move,
changes reaches the page as one message.

Bots think at low CPU priority (:mod:`widgets.table.thinking`) and are paced by a
:class:`~widgets.table.scheduler.Scheduler`: with ``bot_delay``
0 they answer inside the click handler (what most tests use); with a positive
delay their moves wait on the running asyncio loop (ipykernel's), or on a
:class:`~widgets.table.scheduler.ManualClock` a test passes as ``clock``. Undo,
step-through and a new game cancel whatever is pending.

Playing a move at an earlier position starts a new line of play; the moves it
replaces are kept, and a button leads back to the original game.
"""

from __future__ import annotations

import html
import os
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, ClassVar, Protocol, Self

import hatskit
from hatskit.bots import Bot, make_bot
from hatskit.core import Event, Game, GameSpec
from hatskit.drawing import Told, move_list_html, score_panel_html, sentence, told_html
from hatskit.lessons import load_lessons
from widgets.host import host_url
from widgets.table.classmates import Classmates
from widgets.table.links import (
    LinkError,
    game_from_code,
    link_query,
    position_code,
    seats_for,
    table_code_from_query,
    table_from_query,
    teacher_from_query,
)
from widgets.table.scheduler import ManualClock, Scheduler
from widgets.table.seats import SeatGuard
from widgets.table.setup import READER, SEAT_KINDS, SetupRow, bot_name, check_seats
from widgets.table.thinking import think
from widgets.teaching.lessons import Guide
from widgets.toolkit import ui
from widgets.toolkit.clipboard import Clipboard
from widgets.toolkit.parts import View, column, html_line, is_shown, named_button, row, set_marks, show

__all__ = ["READER", "SEAT_KINDS", "TableFrame", "check_seats"]

BOT = "bot"  # the scheduler's tag for bots' moves
BOT_DELAY_ENV = "HATSKIT_BOT_DELAY"  # seconds every page bot pauses before it moves (the browser tests' brisk pace)


def bot_pause(usual: float) -> float:
    """How long a page's bot waits before it moves, so a reader sees each move land: ``usual`` (a table's
    ``usual_bot_delay``), or the seconds in HATSKIT_BOT_DELAY. The browser tests that play whole games shorten
    it, as a test clock would: they wait on what the page shows, never on the pause. A race's reaction times
    are not pauses and are never shortened (they decide who wins)."""
    value = os.environ.get(BOT_DELAY_ENV, "").strip()
    try:
        return usual if not value else max(0.0, float(value))
    except ValueError:
        raise ValueError(f"{BOT_DELAY_ENV} must be a number of seconds, not {value!r}") from None


def late(table: object, name: str) -> Callable[..., Any]:
    """A press handler that calls ``table``'s method ``name`` as the table's class has it at the press, not as it
    had it when the button was made: a table on the page may take on a mix-in's class later (a classmates' table,
    a walkthrough's: widgets/table/shared.py ``mixed``), and its presses must reach the mix-in's own methods."""
    return lambda *args: getattr(table, name)(*args)


class Coach(Protocol):
    """What a table asks of a lesson that guides its reader (widgets/teaching/lessons.py, ``Guide``)."""

    def point(self) -> Any:
        """The move to point the reader at now (None: no step waits for the reader), and its instruction shown."""

    def refusal(self, shown: Game, notation: str) -> str | None:
        """None when the legal move ``notation`` is what the lesson asks for now, else the sentence saying what is."""

    def moved(self) -> None:
        """The reader played what the lesson asked for: on to its next step."""


class TableFrame(View):
    """A game at a table: the table area a subclass fills, and the shared controls around it."""

    game_id: ClassVar[str]  # the game a subclass draws
    default_seats: ClassVar[tuple[str, ...]]
    shuffled: ClassVar[bool] = True  # the seed deals the cards, so the set-up row shows a deal number
    can_undo: ClassVar[bool] = True
    can_hint: ClassVar[bool] = True
    can_step: ClassVar[bool] = True
    usual_bot_delay: ClassVar[float] = 0.8  # seconds a bot pauses before its move, so a reader sees each land
    script: ClassVar[str] = ""  # the game's own ES module, a file beside its table's module ("sombrero.js")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("script"):
            ui.front_end(cls, cls.script)

    @property
    def spec(self) -> GameSpec:
        """What kind of game this table shows: its title, player counts, hidden information."""
        return hatskit.GAMES[self.game_id]

    @property
    def hides_hands(self) -> bool:
        """True where two readers at one screen pass the laptop behind a screen (widgets/table/seats.py): a game with
        secret cards played in turns (in a race every seat acts at once, so one reader sits at a race table)."""
        return self.spec.hidden_information and not self.spec.simultaneous

    def __init__(
        self,
        game: Game,
        seats: Sequence[str] | None = None,
        bot_delay: float | None = None,
        seed: int = 0,
        clock: ManualClock | None = None,
        teacher: bool = False,
    ) -> None:
        self._check_game(game)
        self.teacher = teacher  # the teacher's screen: it alone offers the view of every hand (widgets/table/seats.py)
        super().__init__()
        self._build(game, seats, bot_pause(self.usual_bot_delay) if bot_delay is None else bot_delay, seed, clock)
        self.flush()

    def _build(
        self, game: Game, seats: Sequence[str] | None, bot_delay: float, seed: int, clock: ManualClock | None
    ) -> None:
        self.bot_delay = bot_delay
        self.seed = seed  # the bots' seed
        self.scheduler = Scheduler(clock)
        self.hint_bot: Bot | None = None
        self._syncing_controls = False
        self.guide: Coach | None = None  # a lesson guiding the reader (widgets/teaching/lessons.py), if one does
        self._seat_game(game, self.default_seats if seats is None else seats)
        self._build_frame()
        self._show_new_game()

    @classmethod
    def from_link(cls, game: Game, seats: Sequence[str] | None = None, query: str | None = None, **kwargs: Any) -> Self:
        """The table the page's link sets up (see :mod:`widgets.table.links`), else this ``game`` with ``seats``.

        ``query`` is the link's query; by default the one Voilà hands the kernel
        (``QUERY_STRING``; empty in JupyterLab). A link the table cannot use
        leaves the default table, with a sentence that says what was wrong.
        """
        query = os.environ.get("QUERY_STRING", "") if query is None else query
        linked, problem, code = None, None, None
        try:
            kwargs["teacher"] = teacher_from_query(query)
            code = table_code_from_query(query)
            linked = table_from_query(cls.game_id, query, cls.default_seats if seats is None else seats)
        except LinkError as error:
            problem = error
        table = cls(game, seats, **kwargs) if linked is None else cls(*linked, **kwargs)
        if problem is not None:
            table.say(f"This page's link could not be used ({problem}), so here is the usual table.", error=True)
        url = host_url()
        table.offer_classmates(url, code)
        if url:  # the walkthrough fold talks to the host (tornado: never on the static site)
            from widgets.table.walkthrough import offer_walkthrough

            offer_walkthrough(table, url, query)
        table.add_class("hk-main")  # the page's play table: the skip link leads here
        table.flush()
        return table

    def offer_classmates(self, url: str | None, code: str | None = None) -> Classmates:
        """Put *Play with classmates…* beside *New game…*: tables at the host at ``url`` (None: none here), the
        one with ``code`` (from the page's link) ready to join."""
        self.classmates = Classmates(self, url, code)
        self.free_play_parts[0].children = (self.setup, self.classmates, self.guard.reveal_box)
        return self.classmates

    @classmethod
    def with_lessons(cls, path: str | Path, **kwargs: Any) -> Self:
        """A table that teaches: the lessons of the file at ``path`` on top (widgets/teaching/lessons.py), the first
        begun.

        A bad lesson file raises :class:`~hatskit.lessons.LessonError` naming the lesson, step and field.
        """
        lessons = load_lessons(path)
        table = cls(lessons[0].start(), lessons[0].seats, **kwargs)
        Guide(table, lessons)
        table.add_class("hk-lesson-table")
        table.flush()
        return table

    # -- what a subclass writes -------------------------------------------------

    def build_table(self) -> list[ui.Part]:
        """Build the game's widgets; return the rows of the table area."""
        raise NotImplementedError

    def show_table(self, view: dict[str, Any]) -> None:
        """Show ``view`` (``game.view(viewer)`` at the shown position) in the table widgets."""
        raise NotImplementedError

    def path_of(self, move: Any) -> Sequence[ui.Part]:
        """The parts a reader presses, in turn, to make ``move`` (empty: a button of its own makes it)."""
        del move
        return ()

    def paths_of(self, move: Any) -> list[tuple[Sequence[ui.Part], str]]:
        """Every way to press ``move``, each path with the words its last part gains while lit: one by default
        (:meth:`path_of`, :meth:`target_words`); a table gives several where a move has several (twins, a drop on
        a hat that stands for its inventory)."""
        path = self.path_of(move)
        return [(path, self.target_words(move))] if path else []

    def target_mark(self, move: Any) -> str:
        """A class the last part of ``move``'s path wears while it is a target (Sombrero's hat jump), or ""."""
        del move
        return ""

    def target_words(self, move: Any) -> str:
        """What the last part of ``move``'s path adds to its name while it is a target ("e1 can step here")."""
        del move
        return ""

    def board(self) -> Sequence[ui.Part]:
        """The parts whose presses are picks (cards, squares, the actions a picked card may take)."""
        return ()

    def explain(self, path: Sequence[ui.Part]) -> str:
        """Why the presses on ``path`` (parts of :meth:`board`) made no move, in a student's words."""
        del path
        shown = self.shown()
        if shown.is_over:
            return "The game is over."
        if not self.decides():
            return self.not_your_turn(shown)
        return "That makes no move here: the places you can choose light up when you pick something up."

    def paused(self) -> str | None:
        """What the table waits for the reader to press before anyone plays on (None: it waits for nothing).

        The status line says it instead of "thinking…", and the message line ends with it, where the reader
        looks after a move: a wait the reader does not see looks like a table that has stopped.
        """
        return None

    def bot_delay_for(self, seat: int) -> float:
        """How long the bot in ``seat`` takes before it acts (a race view draws reaction times here)."""
        del seat
        return self.bot_delay

    def bot_move(self, seat: int) -> Any:
        """The move the bot in ``seat`` makes now, from its seat's view only."""
        return self.bots[seat].choose(self.game.seat_view(seat))

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
        """The seat whose view is shown: a reader who may act now, else the first reader seat."""
        acting = [seat for seat in self.shown().acting if seat in self.reader_seats]
        return acting[0] if acting else self.reader_seats[0]

    def decides(self) -> bool:
        """True when a reader may act at the shown position."""
        return any(seat in self.reader_seats for seat in self.shown().acting)

    _refreshing = False  # inside refresh(): the first answer of reader_moves is kept for the rest of it
    _refresh_moves: tuple[Any, ...] | None = None

    def reader_moves(self) -> list[Any]:
        """The legal moves of the reader who may act at the shown position (none when no reader may).

        Inside :meth:`refresh` they are worked out at the first ask and kept until it ends: the table's widgets
        (:meth:`show_table`) and the paths the page is sent (:meth:`_offer`) read the same moves, and a game's
        legal moves are among the dearest things a table asks it. Outside a refresh every ask is answered afresh.
        """
        if self._refresh_moves is not None:
            return list(self._refresh_moves)
        moves = self.shown().legal_moves(self.viewer) if self.decides() else []
        if self._refreshing:
            self._refresh_moves = tuple(moves)
        return moves

    @property
    def readers_share(self) -> bool:
        """True when the reader seats are several students at one screen (not one reader, who is "you")."""
        return len(self.reader_seats) > 1

    def seat_label(self, seat: int) -> str:
        """A seat's name and who sits there: "Ana (you)", "Ben (greedy bot)"; "Ana (a reader)" when readers share."""
        return f"{self.game.seat_names[seat]} ({self.seat_kind(seat)})"

    def seat_kind(self, seat: int) -> str:
        """Who sits at ``seat``, as its seat panel's badge says it: "you", "greedy bot", "a reader"."""
        kind = self.seats[seat]
        if kind == READER:
            return "a reader" if self.readers_share else "you"
        return f"{bot_name(self.game_id, kind)} bot"

    def why_not(self, notation: str) -> str | None:
        """None when the reader may play ``notation`` at the shown position, else the sentence that says why not."""
        shown = self.shown()
        if not shown.is_over and not self.decides():
            return self.not_your_turn(shown)
        reason = shown.why_illegal(notation)
        if reason is not None:
            return reason
        seat = shown.state.seat_of(shown.parse(notation))
        if seat not in self.reader_seats:
            return f"{notation} is a move for {self.seat_label(seat)}, not for you."
        return None if self.guide is None else self.guide.refusal(shown, notation)

    def try_move(self, notation: str) -> bool:
        """Play a reader's move at the shown position, or say why not and change nothing.

        Played at an earlier position, the move starts a new line: the later
        moves are taken back first, and kept as the original game.
        """
        reason = self.why_not(notation)
        if reason is not None:
            self.say(reason, error=True)
            return False
        self._cut_history(self.shown_ply)
        self.game.play(notation)
        self._after_reader_move()
        return True

    def _after_reader_move(self) -> None:
        if self.guide is not None:
            self.guide.moved()
        self._moved_to(self.game.ply, narrate_from=self.game.ply - 1)
        self.run_bots()

    def play_offered(self, notation: str) -> None:
        """A move the page completed from the paths it was offered: played as it was offered, not read again. A
        notation not offered (the position moved on since, or a forged message) is judged as a typed move."""
        move = self._offered.get(notation)
        if move is None:
            self.try_move(notation)
            return
        self._cut_history(self.shown_ply)
        self.game.push(move)
        self._after_reader_move()

    def _offer(self, shown: Game) -> None:
        """Send the page the reader's moves as paths of presses: none while the pass-the-laptop screen is up, and
        during a lesson only the move its step asks for (any other is refused with the lesson's sentence)."""
        moves = self.reader_moves() if is_shown(self.table_area) else []
        offered: dict[str, Any] = {}
        rows = []
        for move in moves:
            notation, paths = str(move), self.paths_of(move)
            if paths and (self.guide is None or self.guide.refusal(shown, notation) is None):
                offered[notation] = move
                mark = self.target_mark(move)
                for path, says in paths:
                    rows.append({"move": notation, "path": [part.uid for part in path], "mark": mark, "says": says})
        self._offered = offered
        self.moves_part.offered = rows
        self.moves_part.board = [part.uid for part in self.board()]

    def _refused_path(self, ids: list[int]) -> None:
        """Presses on the page that made no move: the table says why (an unknown part changes nothing)."""
        parts = [self.part_by_id(uid) for uid in ids]
        if all(part is not None for part in parts):
            self.say(self.explain(parts), error=True)

    def say(self, text: str, error: bool = False) -> None:
        """Put a plain-text sentence in the message line (marked as an error if it is one); its rule ids, such as
        an engine's refusal carries, go behind "why?".

        Whoever wrote it, the sentence starts with a capital where it starts with a word and ends with one full
        stop (:func:`hatskit.drawing.sentence`): an engine's refusal, which is an exception's message too, starts
        small and carries no stop of its own, while the table's own sentences do.
        """
        self._set_message(told_html([sentence(text, capital=True)]), error)

    def recent_plies(self) -> range:
        """The plies of the moves the message line tells of: the reader's move and the bots' answers, or the step."""
        return range(min(self.narrated_from, self.shown_ply), self.shown_ply)

    def view_before(self) -> dict[str, Any]:
        """The viewer's view before the moves the message line tells of (to mark what they changed)."""
        return self.game.state_at(self.recent_plies().start).view(self.viewer)

    # -- a new game --------------------------------------------------------------------

    def start(self, game: Game, seats: Sequence[str] | None = None) -> None:
        """Put ``game`` on this table with ``seats`` (default: the seats as they are, when they fit).

        Whatever was pending is cancelled. The table area is built again only
        when the number of seats changes; otherwise only values change.
        """
        self._check_game(game)
        if seats is None:
            seats = self.seats if len(self.seats) == len(game.seat_names) else self.default_seats
        rebuild = len(game.seat_names) != len(self.game.seat_names)
        self.scheduler.cancel()
        self._seat_game(game, seats)
        if rebuild:
            self.table_area.children = tuple(self.build_table())
        self._show_new_game()

    # -- the shared controls -------------------------------------------------------------

    def go_to(self, ply: int) -> None:
        """Show the position after ``ply`` moves (clamped to the history), with that move's narration.

        Bots wait while an earlier position is shown and carry on back at the latest.
        """
        self.scheduler.cancel()
        ply = min(max(ply, 0), self.game.ply)
        self._moved_to(ply, narrate_from=ply - 1)
        if self.live:
            self.run_bots()

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
        self.run_bots()

    def ask_hint(self) -> None:
        """Ask the strong bot what the reader should play here; show its reason (the numbers folded) and mark it."""
        shown = self.shown()
        if shown.is_over:
            self.say("The game is over: there is no move left to hint at.", error=True)
            return
        if not self.decides():
            self.say("A hint is for your own decision, and this one is not yours.", error=True)
            return
        hint = self._strong_bot().hint(shown.seat_view(self.hint_seat()))
        self.hint_move = hint.move
        self.refresh()
        self.preselect(hint.move)
        hinted = f"Hint: {self.move_words(hint.move)}. {sentence(hint.reason, capital=True)}"
        self._set_message(told_html([hinted], notes=[hint.detail]), error=False)  # what, why, the numbers folded

    def hint_seat(self) -> int:
        """The seat a hint is for: the reader who decides at the shown position (a table may let the reader choose)."""
        return self.viewer

    def move_words(self, move: Any, seat: int | None = None) -> str:
        """A move at the shown position as the message line names it, addressed to ``seat`` (the hint's seat if
        None): its notation, unless a table says it in words."""
        return str(move)

    def notation_words(self, notation: str, seat: int | None = None) -> str:
        """A move sent as notation (a class's answer, the strong bot's choice) in :meth:`move_words`' words."""
        return self.move_words(self.game.parse(notation), seat)

    def preselect(self, move: Any) -> None:
        """Put a hinted move where the reader looks; a table whose moves are picked from a list picks it there."""

    def switch_line(self) -> None:
        """Go back to the original game after a new line was started, or from there back to the new line."""
        if self.original is None:
            return
        on_original = _notations(self.game.history) == self.original
        target = self.own_line if on_original else self.original
        if target is None:
            return
        if not on_original:
            self.own_line = _notations(self.game.history)
        fork = self._replay_line(target)
        where = "your own moves" if on_original else "the original game"
        self.say(f"Back on {where}: it parts from the other line after move {fork}. Step forward to follow it.")

    def refresh(self) -> None:
        """Bring every widget in line with the shown position; the reader's legal moves are asked for once in it
        (:meth:`reader_moves`), however many parts read them."""
        shown = self.shown()
        self._refreshing = True
        try:
            self._sync_controls()
            self.status.value = html.escape(self._status_text(shown))
            self.score_panel.value = score_panel_html(shown.score(), shown.outcome())
            self.move_list.value = move_list_html(self.game.events[: self.game.ply], self.shown_ply)
            self.show_table(self.guard.view(shown))
            self._offer(shown)
        finally:
            self._refreshing, self._refresh_moves = False, None

    def narrate(self) -> None:
        """The message line tells the recent moves and the outcome once, their rules named behind one "why?"."""
        shown = self.shown()
        events = self.told([event for ply in self.recent_plies() for event in self.game.events[ply]])
        outcome = shown.outcome()
        ending = None if outcome is None else outcome.reason
        lines = [line._replace(strong=ending in map(str, line.sources)) for line in self.said(events)]
        if ending is not None and ending not in (event.text for event in events):
            lines.append(Told.of(ending, strong=True))
        if not lines:
            lines.append(Told(f"{self._acting_names(shown)} to move."))
        waiting = self.paused()
        if waiting is not None:
            lines.append(Told(waiting, strong=True))
        self._set_message(told_html(lines), error=False)

    def told(self, events: list[Event]) -> list[Event]:
        """The events the message line tells, in order; a table may fold a run of alike ones into one line."""
        return events

    def said(self, events: list[Event]) -> list[Told]:
        """The message line's lines for ``events``: one an event, in its words without its rule ids. A table may
        tell a move shorter (one line a move); the engine's whole sentence then waits behind "why?"."""
        return [Told.of(event) for event in events]

    # -- sharing a table -------------------------------------------------------------

    def copy_link(self) -> None:
        """Copy a link to this table's game from its start, with its seats (the page's address plus a query)."""
        self.clipboard.copy("?" + link_query(self.game, self.seats))
        from_position = "start" in self.game.head
        secret = " It holds the starting position's hidden cards, so it is a teacher's tool." if from_position else ""
        self.say(f"Link copied: it opens this game from its start, with these seats, on any screen.{secret}")

    def copy_position(self) -> None:
        """Copy the shown position as a code; it holds every hidden card, and the message says so."""
        self.clipboard.copy(position_code(self.shown()))
        self.say(f"Position code copied. {POSITION_SECRET}")

    def load_position(self) -> None:
        """Put the position of the code in the box on the table, or say why not and change nothing."""
        try:
            game = game_from_code(self.code_box.value, self.game_id)
        except LinkError as error:
            self.say(f"No position loaded: {error}.", error=True)
            return
        players = len(game.seat_names)
        self.start(game, self.seats if len(self.seats) == players else seats_for(self.default_seats, players))
        self.code_box.value = ""
        self.say("Position loaded: play on from here.")

    # -- bots -----------------------------------------------------------------

    def run_bots(self) -> None:
        """Schedule a move for every bot that may act now, each after its delay; older plans are dropped."""
        self.scheduler.cancel(BOT)
        ply = self.game.ply
        for seat in self.game.acting:
            # A bot that answers at once (no delay) may move the game on inside call_later, and its own run_bots
            # then schedules whoever acts next: the seats left in this loop acted at an older position.
            if seat in self.bots and self.game.ply == ply:
                self.scheduler.call_later(self.bot_delay_for(seat), partial(self._bot_acts, seat), tag=BOT)

    def _bot_acts(self, seat: int) -> None:
        """A scheduled bot move (if its seat may still act), then the next bots are scheduled."""
        if seat not in self.game.acting:
            return
        follow = self.live
        start = self.game.ply
        self.game.play(think(partial(self.bot_move, seat)))  # at low priority: widgets/table/thinking.py
        if follow:
            self._moved_to(self.game.ply, narrate_from=min(self.narrated_from, start))
        else:
            self._sync_controls()
        self.run_bots()

    def _strong_bot(self) -> Bot:
        if self.hint_bot is None:
            self.hint_bot = make_bot(self.game.game_id, "strong", seed=self.seed)
        return self.hint_bot

    # -- history ---------------------------------------------------------------

    def _cut_history(self, ply: int) -> None:
        """Take back every move after ``ply``; moves beyond the shown position are kept as the original game.

        Only a cut cancels what is scheduled: a move at the latest position takes
        nothing back, and the timers of that position (a head card's moment) stay.
        """
        if self.game.ply <= ply:
            return
        self.scheduler.cancel()
        if self.game.ply > self.shown_ply and self.original is None:
            self.original = _notations(self.game.history)
        while self.game.ply > ply:
            self.game.undo()

    def _replay_line(self, moves: list[str]) -> int:
        """Make ``moves`` the game's history (through undo and play); show where it parts from the old one."""
        self.scheduler.cancel()
        history = _notations(self.game.history)
        fork = next((ply for ply, (a, b) in enumerate(zip(history, moves, strict=False)) if a != b), None)
        fork = min(len(history), len(moves)) if fork is None else fork
        while self.game.ply > fork:
            self.game.undo()
        for move in moves[fork:]:
            self.game.play(move)
        self._moved_to(fork, narrate_from=fork)
        return fork

    def _moved_to(self, ply: int, narrate_from: int) -> None:
        self.shown_ply = ply
        self.narrated_from = max(narrate_from, 0)
        self.hint_move = self._pointed()
        self.refresh()
        self.narrate()

    def _pointed(self) -> Any:
        """The move a lesson points the reader at now, marked as a hint is (None without a lesson)."""
        return None if self.guide is None else self.guide.point()

    def _last_decision_before(self, ply: int) -> int | None:
        """The latest ply before ``ply`` at which a reader moved."""
        movers = self.game.movers
        return next((earlier for earlier in range(ply - 1, -1, -1) if movers[earlier] in self.reader_seats), None)

    # -- seating a game ------------------------------------------------------------

    def _check_game(self, game: Game) -> None:
        if game.game_id != self.game_id:
            raise ValueError(f"{type(self).__name__} shows a {self.spec.title} game, not {game.game_id!r}")

    def _seat_game(self, game: Game, seats: Sequence[str]) -> None:
        """Take ``game`` and its seats, with fresh bots, selection and history marks (no widget changes)."""
        self.seats = check_seats(seats, len(game.seat_names), game.game_id)
        self.game = game
        self.reader_seats = [seat for seat, kind in enumerate(self.seats) if kind == READER]
        self.bots: dict[int, Bot] = {
            seat: make_bot(game.game_id, kind, seed=self.seed + seat)
            for seat, kind in enumerate(self.seats)
            if kind != READER
        }
        self.shown_ply = game.ply
        self.narrated_from = max(game.ply - 1, 0)
        self.hint_move: Any = None
        self.original: list[str] | None = None  # the moves of the game before a new line was started
        self.own_line: list[str] | None = None  # the reader's line, while the original is shown again

    def _show_new_game(self) -> None:
        self.setup.show(self.game, self.seats)
        self.hint_move = self._pointed()
        self.refresh()
        self.narrate()
        self.run_bots()

    # -- the frame's widgets ------------------------------------------------------

    def _build_frame(self) -> None:
        start, refuse = late(self, "start"), late(self, "_refuse")
        self.setup = SetupRow(self.game_id, self.spec.players, self.shuffled, start, refuse)
        self.status = html_line("hk-status")
        self.message = html_line("hk-message")
        self.moves_part = ui.Moves()  # what the reader may do now, as data the page picks from (view.js, picker)
        self.moves_part.on_move(late(self, "play_offered"))
        self.moves_part.on_refused(late(self, "_refused_path"))
        self._offered: dict[str, Any] = {}
        self.score_panel = html_line("hk-scorepanel")
        self.move_list = html_line("hk-movepanel")
        self.table_area = column(self.build_table())
        self.table_area.add_class("hk-area")
        self.guard = SeatGuard(self)
        top = row([self.setup, self.guard.reveal_box])  # the teacher's toggle beside New game…, never folded away
        top.add_class("hk-top")
        side = column([self.move_list, self.score_panel])
        side.add_class("hk-side")
        play = row([self.table_area, side])  # side by side on a wide screen, one above the other on a phone
        play.add_class("hk-play")
        controls, share = self._build_controls(), self._build_share()
        self.children = [top, self.status, self.guard, play, self.message, controls, share, self.moves_part]
        self.free_play_parts = (top, controls, share)  # what a lesson hides until it is done
        self.add_class("hk")
        self.add_class("hk-table")

    def _build_controls(self) -> ui.HBox:
        """The step bar (first, back, the slider, forward, last), then undo, hint and the way back to a line."""
        self.first_button = step_button("first", "the position before the first move", lambda: self.go_to(0))
        self.back_button = step_button("back", "one move back", lambda: self.go_to(self.shown_ply - 1))
        self.forward_button = step_button("forward", "one move forward", lambda: self.go_to(self.shown_ply + 1))
        self.last_button = step_button("last", "the latest position", lambda: self.go_to(self.game.ply))
        self.undo_button = named_button("undo", "take back to your previous decision", late(self, "undo"))
        self.hint_button = named_button("hint", "ask the strong bot for a move", late(self, "ask_hint"))
        self.line_button = named_button("back to the original game", LINE_TIP, late(self, "switch_line"))
        # The move number is in the description ("move 3 of 12"), set with the rest of the table.
        self.slider = ui.IntSlider(0, min=0, max=0, description="move 0 of 0", tooltip="moves played so far")
        self.slider.observe(self._slider_moved, names="value")
        steps = [self.first_button, self.back_button, self.slider, self.forward_button, self.last_button]
        bar = row(steps)
        bar.add_class("hk-stepbar")
        switched = [*((step, self.can_step) for step in [bar, *steps]), (self.undo_button, self.can_undo)]
        for control, wanted in [*switched, (self.hint_button, self.can_hint)]:
            show(control, wanted)
        controls = row([bar, self.undo_button, self.hint_button, self.line_button])
        controls.add_class("hk-controls")
        return controls

    def _build_share(self) -> ui.Fold:
        """Copy link, copy position, and a box to load a position from its code, with the clipboard's box, folded
        under *Share…*: a student plays, and shares now and then, so the table keeps one button's room for it."""
        self.clipboard = Clipboard(label="the link or code last copied")
        self.code_box = ui.Text(
            description="position code",
            placeholder="paste a code",
        )
        self.code_box.tooltip = f"a position code to load. {POSITION_SECRET}"
        link_tip = "copy a link that opens this game from its start on any screen"
        code_tip = f"copy the shown position as a code. {POSITION_SECRET}"
        copies = [
            named_button("copy link", link_tip, late(self, "copy_link")),
            named_button("copy position", code_tip, late(self, "copy_position")),
        ]
        load_tip = "put the position of the code in the box on the table"
        load = [self.code_box, named_button("load position", load_tip, late(self, "load_position"))]
        share = ui.Fold([row(copies), self.clipboard, row(load)], summary="Share…", tooltip=SHARE_TIP)
        share.add_class("hk-share")
        return share

    def _refuse(self, text: str) -> None:
        self.say(text, error=True)

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
            self.slider.description = f"move {self.shown_ply} of {self.game.ply}"
        finally:
            self._syncing_controls = False
        at_start, at_end = self.shown_ply == 0, self.live
        self.first_button.disabled = self.back_button.disabled = at_start
        self.forward_button.disabled = self.last_button.disabled = at_end
        self.undo_button.disabled = self._last_decision_before(self.shown_ply) is None
        self.hint_button.disabled = not self.decides()
        self.setup.primary = self.game.is_over  # at the end, New game… is the next thing to press
        self._sync_line_button()

    def _sync_line_button(self) -> None:
        """The button back to the original game (or back to the reader's line), shown only when there is one."""
        on_original = self.original is not None and _notations(self.game.history) == self.original
        there = self.own_line if on_original else self.original
        show(self.line_button, there is not None)
        self.line_button.description = "back to your moves" if on_original else "back to the original game"
        self.line_button.tooltip = OWN_LINE_TIP if on_original else LINE_TIP

    def _set_message(self, message_html: str, error: bool) -> None:
        self.message.value = message_html
        set_marks(self.message, ["hk-error"] if error else [], ["hk-error"])

    def _status_text(self, shown: Game) -> str:
        if shown.is_over:
            return "The game is over."
        acting = self._acting_names(shown)
        if not self.live:
            branch = (
                ": a move here starts a new line, and the game as it was is kept"
                if self.decides()
                else ": step forward to see what happened"
            )
            return f"Move {self.shown_ply} of {self.game.ply}. {acting} to move{branch}.{self._turn_waiting()}"
        waiting = self.paused()
        if waiting is not None:
            return waiting
        if not self.decides():
            return self.waiting_text(shown)
        return f"{acting} to move."

    def _turn_waiting(self) -> str:
        """While the reader looks at an earlier move: that the game waits for them at its latest (a classmate's
        table or the bots stopped there, and the status line speaks of the move shown)."""
        if self.game.is_over or not any(seat in self.reader_seats for seat in self.game.acting):
            return ""
        return f" It is your turn at move {self.game.ply}: step to the end to play."

    def not_your_turn(self, shown: Game) -> str:
        """A press of the reader's while others are to move: ``It is not your turn: Ben (greedy bot) is to move.``"""
        acting = shown.acting
        return f"It is not your turn: {self._acting_names(shown)} {'is' if len(acting) == 1 else 'are'} to move."

    def waiting_text(self, shown: Game) -> str:
        """The status line while others act at the latest position ("Ben is thinking…")."""
        names = [self.waiting_for(seat) for seat in shown.acting]
        return f"{_and(names)} {'is' if len(names) == 1 else 'are'} thinking…"

    def waiting_for(self, seat: int) -> str:
        """Who the reader waits for at ``seat``, as the status line names them: here, the seat's name."""
        return self.game.seat_names[seat]

    def _acting_names(self, shown: Game) -> str:
        return _and([self.seat_label(seat) for seat in shown.acting]) or "nobody"


POSITION_SECRET = (
    "A position code holds every hidden card, so it is a teacher's tool: whoever decodes it sees all the hands."
)
SHARE_TIP = "copy a link to this game, or a position's code, or load a position from its code"
STEP_ICONS = {  # drawn, not typed: no font needed (16 x 16, in the button's text colour)
    "first": '<rect x="2" y="3" width="2.5" height="10"/><path d="M14 3 6 8l8 5z"/>',
    "back": '<path d="M12 3 4 8l8 5z"/>',
    "forward": '<path d="M4 3l8 5-8 5z"/>',
    "last": '<path d="M2 3l8 5-8 5z"/><rect x="11.5" y="3" width="2.5" height="10"/>',
}
LINE_TIP = "the game as it was before you played from an earlier position (your own moves are kept too)"
OWN_LINE_TIP = "the moves you played from an earlier position (the original game is kept too)"


def _notations(moves: Sequence[Any]) -> list[str]:
    return [str(move) for move in moves]


def _and(names: Sequence[str]) -> str:
    """ "Ana", "Ana and Ben", "Ana, Ben and Cleo"."""
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)


def step_button(name: str, tooltip: str, action: Callable[[], None]) -> ui.Button:
    """A button of the step bar: a drawn sign for the eye, and its name (``name``) for a screen reader."""
    button = named_button(name, tooltip, action, width=None)
    sign = STEP_ICONS[name]
    icon = f'<svg viewBox="0 0 16 16" width="16" height="16" fill="currentColor" aria-hidden="true">{sign}</svg>'
    button.face = f'{icon}<span class="hk-sr">{name}</span>'
    button.add_class("hk-step")
    return button
