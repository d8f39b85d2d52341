"""A "try a move" exercise for any hatskit game.

    >>> exercise = MoveExercise(game, "Which move earns the most points now?", goal=most_points_now)

The reader presses one of the offered moves, or types a move and presses *Try*. A move
that cannot be read or breaks the rules gets the engine's own sentence
(``game.why_illegal``); a legal one is played on a copy, its events are
narrated and the exercise's goal says whether it solves the puzzle and why. As on a table's message line,
the rules' ids wait in one folded "why?" (``hatskit.drawing.told_html``), not in the sentences.
The starting game is never changed, so *Reset* (or the next try) starts over
from the same position. Built for a seat, the exercise shows only what that
seat may see, so hidden cards never reach the browser.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from hatskit import Game, HatskitError
from hatskit.drawing import Told, told_html, without_rules
from widgets.toolkit import ui
from widgets.toolkit.parts import View, html_line, named_button, row

Goal = Callable[[Game, Any], tuple[bool, str]]
"""``goal(game_before, move) -> (met, explanation)``, asked only about legal moves."""


class MoveExercise(View):
    """A position, the offered moves as buttons, a move box with *Try* and *Reset*, and a feedback line.

    An offered move is tried at the press of its button, as a move on a table is: a puzzle's few candidate
    moves (a tempting wrong one among them) are actions to try, not a list to pick from before trying.
    """

    def __init__(
        self,
        game: Game,
        prompt: str = "",
        goal: Goal | None = None,
        seat: int | None = None,
        choices: Sequence[str] = (),
    ) -> None:
        if seat is not None and seat not in game.acting:
            raise HatskitError(f"the exercise's seat {seat} must be a seat that may act now {list(game.acting)}")
        self.start = fresh_copy(game)
        self.goal = goal
        self.seat = seat
        self.trial: Game | None = None
        self.prompt_text = prompt
        self.prompt = html_line("", f"<p><b>{html.escape(prompt)}</b></p>" if prompt else "")
        self.board = html_line("", self._board_html(self.start))
        self.feedback = html_line("")
        super().__init__([self.prompt, self.board, *self._controls(choices), self.feedback])
        self.add_class("hk")
        self.add_class("hk-exercise")
        self.flush()

    def _controls(self, choices: Sequence[str]) -> list[ui.Part]:
        """The offered moves' row (none without choices), then the move box with *Try* and *Reset*."""
        self.choices = [named_button(choice, f"try {choice}", partial(self.try_choice, choice)) for choice in choices]
        self.text = ui.Text(placeholder="your move", description="Move:", css="width: 16em")
        self.try_button = named_button("Try", "try this move", self._try_typed, width=None, primary=True)
        self.reset_button = named_button("Reset", "back to the starting position", self.reset, width=None)
        offered = [row([html_line("hk-lead", "Try one:"), *self.choices])] if self.choices else []
        return [*offered, row([self.text, self.try_button, self.reset_button])]

    def __repr__(self) -> str:
        return f"<MoveExercise {self.start.game_id}: {self.prompt_text}>"

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The live widget, plus the prompt and starting position as static HTML.

        Front ends that cannot run widgets (GitHub, a notebook opened without a
        kernel) show the static HTML instead, so the puzzle stays readable.
        """
        bundle = super()._repr_mimebundle_(**kwargs)
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})  # anywidget adds metadata
        data = {**data, "text/html": self.prompt.value + self._board_html(self.start)}
        return (data, metadata) if isinstance(bundle, tuple) else data

    def _try_typed(self) -> None:
        self.try_move(self.text.value)

    def try_choice(self, notation: str) -> None:
        """An offered move, pressed: shown in the move box (to edit and try again) and tried."""
        self.text.value = notation
        self.try_move(notation)

    def try_move(self, notation: str) -> None:
        """Judge ``notation`` from the starting position and show the verdict."""
        trial = fresh_copy(self.start)
        reason = trial.why_illegal(notation)
        if reason is not None:
            self._show(self.start, told_html([f"✘ Not allowed: {reason}"]), "hk-bad")
            return
        move = trial.parse(notation)
        events = trial.play(move)
        self.trial = trial
        self._show(trial, told_html([f"✔ {move} is legal.", *events, *self._verdict(move)]), "hk-good")

    def reset(self) -> None:
        """Back to the starting position with an empty move box."""
        self.trial = None
        self.text.value = ""
        self._show(self.start, "", "")

    def _verdict(self, move: Any) -> list[Told]:
        """The goal's judgement of a legal move, a line in bold (none without a goal)."""
        if self.goal is None:
            return []
        met, why = self.goal(fresh_copy(self.start), move)
        mark = "Goal met" if met else "Not the answer yet"
        return [Told(f"{mark}: {without_rules(why)[0]}", (why,), strong=True)]

    def _show(self, game: Game, message_html: str, verdict: str) -> None:
        """Show ``game``'s position and an (already escaped) feedback line, ``verdict`` its class (hk-good,
        hk-bad: the theme's colours for it, widgets/toolkit/style.py)."""
        self.board.value = self._board_html(game)
        line = f'<div class="hk-verdict {verdict}" role="status">{message_html}</div>'
        self.feedback.value = line if message_html else ""

    def _board_html(self, game: Game) -> str:
        """The whole position, or only what ``seat`` may see."""
        return game.spec.render(game.state, self.seat)


def played_copy(game: Game, move: Any) -> Game:
    """A separate game with ``move`` played on it; ``game`` itself is untouched."""
    after = fresh_copy(game)
    after.play(move)
    return after


def fresh_copy(game: Game) -> Game:
    """A separate game at the same position, history included: playing on it changes nothing else."""
    return game.state_at(game.ply)


def most_points_now(game_before: Game, move: Any) -> tuple[bool, str]:
    """Goal: the move gains the mover the most points on the score sheet right now.

    Compares the mover's total after ``move`` with the best any legal move
    reaches, so a reader learns by how much a weaker choice falls short.
    """
    seat = game_before.to_move
    assert seat is not None, "the game is over"
    start = game_before.score().totals[seat]
    gains = {str(m): played_copy(game_before, m).score().totals[seat] - start for m in game_before.legal_moves()}
    best = max(gains.values())
    gain = gains[str(move)]
    name = game_before.seat_names[seat]
    if gain == best:
        return True, f"{move} gains {name} {gain:+d} points now, as much as any move can"
    return False, f"{move} gains {name} {gain:+d} points now, but some move gains {best:+d}: keep looking"
