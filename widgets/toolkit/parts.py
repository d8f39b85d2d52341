"""The small parts every view is built of (buttons, text lines, marks, hiding), and :class:`View`, their one widget.

A view's parts are :mod:`widgets.toolkit.ui` parts, not widget models; :class:`View`
is the anywidget that draws them (``view.js``, and the page's other modules: the
race pad's, the clipboard's, a game's own). A part is hidden by a class (:func:`show`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from widgets.toolkit import ui
from widgets.toolkit.style import view_css

HIDDEN = "hk-hidden"  # the class of a hidden part (style.py): see show()


class View(ui.Surface):
    """A hatskit view on the page: one widget, whatever it shows (widgets/toolkit/ui.py)."""

    _esm = ui.LOADER
    style = view_css()


def set_marks(part: ui.Part, marks: Sequence[str], managed: Sequence[str]) -> None:
    """Give ``part`` exactly the classes of ``marks`` among those in ``managed``."""
    wanted = _classes(part, marks, managed)
    if wanted != tuple(part._dom_classes):
        part._dom_classes = wanted


def _classes(part: ui.Part, marks: Sequence[str], managed: Sequence[str]) -> tuple[str, ...]:
    kept = [mark for mark in part._dom_classes if mark not in managed]
    return tuple(kept + [mark for mark in managed if mark in marks])


def set_face(
    button: ui.Button,
    text: str,
    tooltip: str,
    marks: Sequence[str],
    managed: Sequence[str],
    visible: bool = True,
    face: str = "",
) -> None:
    """Show ``text`` on a card or square ``button`` with its ``tooltip`` and ``marks`` (or hide it).

    ``face`` is the renderer's picture of what the button shows (a card): the page shows it instead of ``text``.
    Only what changes is set: a table shows every card again after each move, most cards stay as they were,
    and traitlets validates every assignment, an equal one too: setting them all would spend much of a move's
    time in the kernel on cards that did not change. A button drawn with the same arguments last time, and not
    changed since by anything else (its change clock says so), is left alone without even comparing.
    """
    drawn = (text, tooltip, tuple(marks), tuple(managed), visible, face, button.changed)
    if button.face_drawn == drawn:
        return
    classes = _classes(button, [*marks, *([] if visible else [HIDDEN])], [*managed, HIDDEN])
    for name, value in (("description", text), ("face", face), ("tooltip", tooltip), ("_dom_classes", classes)):
        if getattr(button, name) != value:
            setattr(button, name, value)
    button.face_drawn = (*drawn[:-1], button.changed)


def css_of(**layout: str) -> str:
    """An inline style from ipywidgets-like layout settings: ``flex_flow="row wrap"`` is ``flex-flow: row wrap``."""
    return "; ".join(f"{name.replace('_', '-')}: {value}" for name, value in layout.items())


def row(children: Sequence[ui.Part], **layout: str) -> ui.HBox:
    """Parts side by side (wrapping on a narrow screen), with ``layout``'s settings as their style."""
    return ui.HBox(list(children), css=css_of(**layout))


def column(children: Sequence[ui.Part], **layout: str) -> ui.VBox:
    """Parts one above the other, with ``layout``'s settings as their style."""
    return ui.VBox(list(children), css=css_of(**layout))


def show(part: ui.Part, visible: bool) -> None:
    """Show or hide ``part`` by its class (style.py)."""
    set_marks(part, [] if visible else [HIDDEN], [HIDDEN])


def is_shown(part: ui.Part) -> bool:
    """Whether ``part`` is not hidden by :func:`show`."""
    return HIDDEN not in part._dom_classes


def html_line(css_class: str, value: str = "") -> ui.HTML:
    """A line of HTML with one CSS class (none when ``css_class`` is empty)."""
    line = ui.HTML(value)
    if css_class:
        line.add_class(css_class)
    return line


def piece_button(tooltip: str = "") -> ui.Button:
    """A card or a square: no action of its own, its presses are the page's picks among the moves the table
    offers (``ui.Moves``); sized by the style sheet."""
    return ui.Button(description="", tooltip=tooltip)


def named_button(
    name: str,
    tooltip: str,
    action: Callable[[], None],
    width: str | None = "auto",
    primary: bool = False,
) -> ui.Button:
    """A button whose text ``name`` (and ``tooltip``) say what it does; a click runs ``action``.

    ``width`` None takes the width from the style sheet (a card, a board
    square); a ``primary`` one stands out.
    """
    button = ui.Button(
        description=name,
        tooltip=tooltip,
        button_style="primary" if primary else "",
        css=css_of(width=width) if width else "",
    )
    button.on_click(lambda _: action())
    return button
