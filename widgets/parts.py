"""The small parts every table view is built of: buttons, text lines, marks, and hiding.

ipywidgets gives each widget a style and a layout widget of its own, so a
Sombrero table was 361 widgets for the page to load, over half of them copies
of the same defaults (issue 9). The parts here point every widget with the
same settings to one style and one layout (:func:`shared`), which refuse to
change; a widget is hidden by a class (:func:`show`), never through its layout.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, TypeVar

import ipywidgets as widgets
from ipywidgets.widgets.widget_string import HTMLStyle

Part = TypeVar("Part", bound=widgets.Widget)
HIDDEN = "hk-hidden"  # the class of a hidden widget (style.py): see show()


def set_marks(widget: widgets.DOMWidget, marks: Sequence[str], managed: Sequence[str]) -> None:
    """Give ``widget`` exactly the classes of ``marks`` among those in ``managed``, in one message (or none)."""
    wanted = _classes(widget, marks, managed)
    if wanted != tuple(widget._dom_classes):
        widget._dom_classes = wanted


def _classes(widget: widgets.DOMWidget, marks: Sequence[str], managed: Sequence[str]) -> tuple[str, ...]:
    kept = [mark for mark in widget._dom_classes if mark not in managed]
    return tuple(kept + [mark for mark in managed if mark in marks])


def set_face(
    button: widgets.Button,
    text: str,
    tooltip: str,
    marks: Sequence[str],
    managed: Sequence[str],
    visible: bool = True,
) -> None:
    """Show ``text`` on a card or square ``button`` with its ``tooltip`` and ``marks`` (or hide it): one message.

    None when nothing changes: a table shows every card or square again after each move (a Sombrero board is 64),
    most of them unchanged.
    """
    classes = _classes(button, [*marks, *([] if visible else [HIDDEN])], [*managed, HIDDEN])
    if (button.description, button.tooltip, tuple(button._dom_classes)) == (text, tooltip, classes):
        return
    with button.hold_sync():
        button.description = text
        button.tooltip = tooltip
        button._dom_classes = classes


class _Sealed:
    """Mixed into a shared style or layout: once made, it refuses every change, which would change every widget."""

    def __setattr__(self, name: str, value: Any) -> None:
        if getattr(self, "_sealed", False) and self.has_trait(name) and self.trait_metadata(name, "sync"):  # type: ignore[attr-defined]
            raise AttributeError(
                f"{type(self).__name__} is shared by many widgets and cannot change ({name}={value!r}): "
                "give the widget its own, or hide it with show()"
            )
        super().__setattr__(name, value)


@cache
def _sealed_kind(kind: type[Part]) -> type[Part]:
    return type(f"Shared{kind.__name__}", (_Sealed, kind), {})


def shared(kind: type[Part], **settings: str) -> Part:
    """The one ``kind`` (a style or a layout) with ``settings`` that every widget asking for it points to.

    Sealed against changes; a widget is hidden by its class (:func:`show`), never through its layout.
    """
    return _shared(kind, tuple(sorted(settings.items())))


@cache
def _shared(kind: type[Part], settings: tuple[tuple[str, str], ...]) -> Part:
    part = _sealed_kind(kind)(**dict(settings))
    part._sealed = True
    return part


def style_of(kind: type[widgets.DOMWidget], **settings: str) -> widgets.Widget:
    """The shared style of a widget of ``kind`` (a Text's is a TextStyle, a Dropdown's a DescriptionStyle)."""
    return shared(kind.class_traits()["style"].klass, **settings)


def row(children: Sequence[widgets.Widget], **layout: str) -> widgets.HBox:
    """An HBox of ``children`` with the shared layout of ``layout``'s settings."""
    return widgets.HBox(list(children), layout=shared(widgets.Layout, **layout))


def column(children: Sequence[widgets.Widget], **layout: str) -> widgets.VBox:
    """A VBox of ``children`` with the shared layout of ``layout``'s settings."""
    return widgets.VBox(list(children), layout=shared(widgets.Layout, **layout))


def show(widget: widgets.DOMWidget, visible: bool) -> None:
    """Show or hide ``widget`` by its class (style.py), so that hiding one never touches a shared layout."""
    set_marks(widget, [] if visible else [HIDDEN], [HIDDEN])


def is_shown(widget: widgets.DOMWidget) -> bool:
    """Whether ``widget`` is not hidden by :func:`show`."""
    return HIDDEN not in widget._dom_classes


def html_line(css_class: str, value: str = "") -> widgets.HTML:
    """An HTML widget with one CSS class (none when ``css_class`` is empty), with the shared style and layout."""
    line = widgets.HTML(value, style=shared(HTMLStyle), layout=shared(widgets.Layout))
    if css_class:
        line.add_class(css_class)
    return line


def named_button(
    name: str,
    tooltip: str,
    action: Callable[[], None],
    width: str | None = "auto",
    primary: bool = False,
) -> widgets.Button:
    """A button whose text ``name`` (and ``tooltip``) say what it does; a click runs ``action``.

    ``width`` None takes the width from the style sheet (a board square); a
    ``primary`` one stands out. Its style and layout are shared (:func:`shared`).
    """
    layout = shared(widgets.Layout, width=width) if width else shared(widgets.Layout)
    button = widgets.Button(
        description=name,
        tooltip=tooltip,
        button_style="primary" if primary else "",
        layout=layout,
        style=shared(widgets.ButtonStyle),
    )
    button.on_click(lambda _: action())
    return button
