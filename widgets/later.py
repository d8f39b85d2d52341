"""A table built when the reader asks for it, not while the page opens.

    >>> on_request("open this game on a table", lambda: HatsTable(replay, seats=("reader", "greedy", "strong")))

Voilà sends a page only once every cell has run, and a table is some 170
widgets for the kernel to make and the browser to load before the first table
of the page answers a click. A replay at the end of a notebook waits behind
one button instead: the page opens about a table's worth sooner (issue 9),
and pressing the button builds the table in its place.
"""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as widgets

from widgets.parts import column, named_button


def on_request(label: str, build: Callable[[], widgets.Widget]) -> widgets.VBox:
    """A button named ``label`` that, pressed, is replaced by what ``build`` returns."""

    def open_it() -> None:
        place.children = (build(),)

    tooltip = "show the finished game on a table you can step through"
    place = column([named_button(label, tooltip, open_it, primary=True)])  # made with its child: one message
    return place
