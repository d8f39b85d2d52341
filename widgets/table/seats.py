"""Two students at one screen, and the teacher's view: who may see which hand.

A card table with two or more reader seats is played "pass the laptop": when
the reader whose hand the table shows changes, the hand goes behind a screen
("Pass to Ben — Ben, press Show my hand") until that reader presses the
button. While the screen is up the table is drawn from a *screened* view, the
seat's view with its private fields emptied, so the hand that is hidden is not
in the page at all, not merely covered.

Sombrero hides nothing, so it needs no screen: its two reader seats simply
take turns at one board, and the status line says whose turn it is.

The teacher's view lists every seat's private fields under a clearly marked
heading. Only the teacher's screen offers it (a page opened with
``?teacher=yes``, a link no page shows): a student's table has no such toggle,
so there is always something left to remember. A game whose hands have been
shown that way says so on its table for the rest of that game.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

from hatskit import Game
from widgets.toolkit import ui
from widgets.toolkit.parts import column, html_line, named_button, show

if TYPE_CHECKING:
    from widgets.table.frame import TableFrame

TEACHER_HEADING = "Teacher's view: every hand is showing"
REVEALED_NOTE = "The teacher's view has shown every hand of this game."


class SeatGuard(ui.VBox):
    """The pass-the-laptop screen and the teacher's view toggle of one table."""

    def __init__(self, frame: TableFrame) -> None:
        self.frame = frame
        self.cleared: int | None = None  # the reader seat that pressed "Show my hand" last
        self.cleared_game = frame.game  # ... in this game: a new game raises the screen again
        self.screen_text = html_line("")
        self.show_button = named_button("Show my hand", SHOW_TIP, self.clear, width=None, primary=True)
        self.screen = column([self.screen_text, self.show_button])
        show(self.screen, False)
        self.screen.add_class("hk-pass-screen")
        self.reveal_box = ui.ToggleButton(
            description="teacher's view",
            tooltip=REVEAL_TIP,
            value=False,
        )
        self.reveal_box.observe(lambda _: frame.refresh(), names="value")
        show(self.reveal_box, frame.teacher and hides_anything(frame.game))  # students and Sombrero: no toggle
        self.revealed_game: Game | None = None  # the game whose hands the teacher's view has shown
        self.revealed = html_line("")
        super().__init__([self.screen, self.revealed])

    @property
    def passing(self) -> bool:
        """True when this table hides hands and more than one reader shares the screen."""
        return self.frame.hides_hands and self.frame.readers_share

    def view(self, shown: Game) -> dict[str, Any]:
        """The view the table is drawn from: the viewer's, or a screened one while the screen is up."""
        seat = self.frame.viewer
        self._show_revealed(shown)
        if self.cleared_game is not self.frame.game:
            self.cleared, self.cleared_game = None, self.frame.game
        up = self.passing and seat != self.cleared and not self.reveal_box.value
        show(self.screen, up)
        show(self.frame.table_area, not up)
        if not up:
            return shown.view(seat)
        self.frame.hint_button.disabled = True  # a hint would name a card of the hidden hand
        name = html.escape(shown.seat_names[seat])
        self.screen_text.value = f"<h3>Pass to {name}</h3><p>{name}, press <b>Show my hand</b>.</p>"
        return screened_view(shown, seat)

    def _show_revealed(self, shown: Game) -> None:
        """Every hand under the teacher's heading while the view is on; afterwards, a line saying they were shown."""
        if self.reveal_box.value:
            self.revealed_game = self.frame.game
            self.revealed.value = teacher_html(shown)
        elif self.revealed_game is self.frame.game:
            self.revealed.value = f'<div class="hk-teacher" role="note">{REVEALED_NOTE}</div>'
        else:
            self.revealed.value = ""

    def clear(self) -> None:
        """The reader in front of the screen asks to see their hand."""
        self.cleared = self.frame.viewer
        self.frame.refresh()


def screened_view(game: Game, seat: int) -> dict[str, Any]:
    """``seat``'s view with everything only that seat may see emptied (a hand becomes [])."""
    own, public = game.view(seat), game.view(None)
    screened = dict(own)
    for key, value in _private(own, public).items():
        screened[key] = [] if public.get(key) is None and isinstance(value, list) else public.get(key)
    return screened


def hides_anything(game: Game) -> bool:
    """True when some seat's view shows more than the public view: there is something to reveal."""
    public = game.view(None)
    return any(_private(game.view(seat), public) for seat in range(len(game.seat_names)))


def _private(own: dict[str, Any], public: dict[str, Any]) -> dict[str, Any]:
    """The fields of a seat's view that the public view does not show as they are."""
    return {key: value for key, value in own.items() if key != "seat" and value != public.get(key)}


def teacher_html(game: Game) -> str:
    """Every seat's private fields (hand, secret cards), under the teacher's-view heading."""
    public = game.view(None)
    rows = []
    for seat, name in enumerate(game.seat_names):
        private = _private(game.view(seat), public)
        secrets = [f"{key.removeprefix('my_').replace('_', ' ')}: {_text(value)}" for key, value in private.items()]
        rows.append(f"<li><b>{html.escape(name)}</b> · {html.escape('; '.join(secrets) or 'nothing hidden')}</li>")
    return f'<div class="hk-teacher" role="note"><b>{TEACHER_HEADING}</b><ul>{"".join(rows)}</ul></div>'


def _text(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(map(str, value)) or "none"
    return str(value)


SHOW_TIP = "the screen is passed on: show the hand of the reader whose turn it is"
REVEAL_TIP = "for the teacher's screen: shows every hidden card of every seat"
