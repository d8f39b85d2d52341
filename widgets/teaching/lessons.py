"""Lessons on a real table: a guided first game and small tasks, a star for each, remembered by the browser.

    >>> HatsTable.with_lessons("puzzles/hats-lessons.json")     # any table: TableFrame.with_lessons

A :class:`Guide` sits on top of a game's table (``TableFrame``). It lists the
game's lessons (:mod:`hatskit.lessons`) with their stars, and for the lesson
being played says in one sentence what to do next, with the rule behind it
one click away ("why?", citing the ruling). The table itself points at the
move: the step's move is marked as a hint is, so the reader sees which card
or square to take. A move the step does not ask for is refused with a
sentence that says what it asks for, and changes nothing; an illegal one gets
the engine's own reason, as at any table. Once the step's move is played the
guide says what just happened and why, the other seats' bots answer as they
always do, and the next step begins when it is the reader's turn again.

While a lesson runs, the table's other controls (new game, stepping through,
undo, hint, sharing) are hidden, so a first-time reader sees only the table
and the instruction; they come back, and the game plays on, once the lesson
is done. The stars and the step reached are kept in the reader's own browser
(:class:`widgets.teaching.progress.Progress`): a reader who comes back finds the stars
and the lesson where they left it; "start again" forgets both.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from hatskit import Game
from hatskit.lessons import Lesson, LessonError, Step
from widgets.teaching.progress import Progress
from widgets.toolkit.parts import column, html_line, named_button, row, set_marks, show

if TYPE_CHECKING:
    from widgets.table.frame import TableFrame

CURRENT = "hk-selected"  # the mark of the lesson being played in the list


class Guide:
    """A table's lessons: the list with stars, the instruction of the step being played, and its progress kept."""

    def __init__(self, table: TableFrame, lessons: Sequence[Lesson]) -> None:
        if not lessons:
            raise LessonError("a guide needs at least one lesson")
        self.table = table
        self.lessons = list(lessons)
        self.stars: set[str] = set()
        self.lesson = self.lessons[0]
        self.step_number = 0  # the steps of the lesson already done
        self.active = False  # a lesson is being played (not yet done)
        self.told = ""  # what the last step taught, shown above the next instruction
        self.buttons = [
            named_button(lesson.title, "", partial(self.begin, index)) for index, lesson in enumerate(lessons)
        ]
        self.again_button = named_button(
            "start again", "forget this game's stars and start from the first lesson", self.start_again
        )
        self.instruction = html_line("hk-guide")
        self.progress = Progress(table.game_id)
        self.progress.on_saved(self._restore)
        self.panel = column([row([*self.buttons, self.again_button]), self.instruction, self.progress])
        self.panel.add_class("hk-lessons")
        table.children = (self.panel, *table.children)
        table.guide = self
        self.begin(0)

    # -- what the table asks (widgets.table.frame.Coach) -------------------------------------------

    def point(self) -> Any:
        """The move the step waits for, when it is the reader's turn; the instruction says what to do meanwhile."""
        table = self.table
        if not self.active:
            return None
        if not (table.live and table.decides()):
            self._write(self.told, "<p>Now watch the others play.</p>")
            return None
        step = self.lesson.steps[self.step_number]
        move = step.pointed(table.shown(), table.viewer)
        if move is None:
            self._write(self.told, f"<p>{html.escape(STRAYED)}</p>")
            return None
        self._write(self.told, self._step_html(step))
        return move if step.point else None

    def refusal(self, shown: Game, notation: str) -> str | None:
        """None for a move the step asks for; else what it does ask for (the move is not played)."""
        if not self.active:
            return None
        step = self.lesson.steps[self.step_number]
        if step.accepts(shown, notation):
            return None
        if not step.point:
            return "That move is allowed, but it does not do what this task asks: keep looking."
        return f"That move is allowed, but it is not what this step asks for. {step.say}"

    def moved(self) -> None:
        """The step's move was played: say what it taught, and on to the next step or the star.

        After the lesson's star the game plays on at the same table, and its moves belong to no step.
        """
        if not self.active:
            return
        step = self.lesson.steps[self.step_number]
        self.step_number += 1
        self.told = f'<p class="hk-guide-done">✔ {html.escape(step.done)}</p>'
        if self.step_number == len(self.lesson.steps):
            self._finish()
        self._keep()

    # -- the reader's buttons --------------------------------------------------------------

    def begin(self, index: int, step: int = 0) -> None:
        """Play lesson ``index`` from its start, or from ``step`` (its first steps played again, bots included)."""
        self.lesson = self.lessons[index]
        self.step_number, self.active, self.told = 0, True, ""
        for part in self.table.free_play_parts:
            show(part, False)
        self.table.start(self.lesson.start(), self.lesson.seats)
        if step:
            self._replay(step)
        self._mark_buttons()
        self._keep()

    def start_again(self) -> None:
        """Forget this game's stars and where the reader was, and begin the first lesson."""
        self.stars.clear()
        self.begin(0)
        self.told = "<p>Your stars for this game are forgotten: here is the first lesson again.</p>"
        self.table.go_to(self.table.game.ply)

    # -- inside ----------------------------------------------------------------------------

    def _finish(self) -> None:
        """The lesson is done: its star, the table's controls back, and the game plays on."""
        self.active = False
        self.stars.add(self.lesson.key)
        for part in self.table.free_play_parts:
            show(part, True)
        ending = self.lesson.finish or "Pick the next lesson above, or play this game on."
        self._write(self.told, f'<p class="hk-guide-star">★ Lesson done: you earned a star! {html.escape(ending)}</p>')
        self._mark_buttons()

    def _replay(self, step: int) -> None:
        """The lesson's first ``step`` steps played on the table, by the table's own bots (see Lesson.replay)."""
        table = self.table
        try:
            self.lesson.replay(table.game, step, lambda seat, _game: table.bot_move(seat))
        except LessonError:
            table.start(self.lesson.start(), self.lesson.seats)  # the bots went another way: the lesson from its start
            return
        self.step_number = step
        self.told = "<p>Welcome back: the lesson goes on where you stopped.</p>"
        table.go_to(table.game.ply)

    def _restore(self, kept: dict[str, Any]) -> None:
        """What the browser kept: its stars, and the lesson where the reader stopped (unless they began another)."""
        self.stars |= {key for key in kept["stars"] if key in {lesson.key for lesson in self.lessons}}
        place = next((index for index, lesson in enumerate(self.lessons) if lesson.id == kept["lesson"]), None)
        # Untouched: the reader has not moved yet (a race game's bots may already have put on their head cards).
        moved = any(mover in self.table.reader_seats for mover in self.table.game.movers)
        untouched = self.lesson is self.lessons[0] and self.step_number == 0 and not moved
        elsewhere = place is not None and (place > 0 or kept["step"] > 0)
        if elsewhere and untouched and kept["step"] < len(self.lessons[place].steps):
            self.begin(place, kept["step"])
        self._mark_buttons()
        self._keep()

    def _keep(self) -> None:
        self.progress.keep(sorted(self.stars), self.lesson.id, self.step_number)

    def _mark_buttons(self) -> None:
        for lesson, button in zip(self.lessons, self.buttons, strict=True):
            starred = lesson.key in self.stars
            button.description = f"{'★' if starred else '☆'} {lesson.title}"
            button.tooltip = f"{lesson.title}: {'star earned' if starred else 'no star yet'}"
            set_marks(button, [CURRENT] if lesson is self.lesson and self.active else [], [CURRENT])

    def _step_html(self, step: Step) -> str:
        """The instruction: the step's number and sentence, and the rule behind it folded under "why?"."""
        count = f"Step {self.step_number + 1} of {len(self.lesson.steps)}."
        said = f'<p class="hk-guide-say"><b>{count}</b> {html.escape(step.say)}</p>'
        if not (step.why or step.rule):
            return said
        ruling = f" (ruling {html.escape(step.rule)})" if step.rule else ""
        return said + f"<details><summary>why?</summary>{html.escape(step.why)}{ruling}</details>"

    def _write(self, *pieces: str) -> None:
        self.instruction.value = "".join(pieces)


STRAYED = (
    "This game has gone another way than the lesson planned, so its next step cannot be played here. "
    "Press the lesson's button above to begin it again."
)
