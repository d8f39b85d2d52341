"""A table built when the reader asks for it, not while the page opens.

    >>> on_request("open this game on a table", lambda: HatsTable(replay, seats=("reader", "greedy", "strong")))

Voilà sends a page only once every cell has run. A replay at the end of a
notebook waits behind one button instead of being set up (its game replayed,
its bots made) while the page opens; pressing the button builds the table in
its place. The place is one ipywidgets box around the button's view, so the
table can take the button's place on the page.
"""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets

from widgets.toolkit.parts import View, named_button


def on_request(label: str, build: Callable[[], ipywidgets.Widget]) -> ipywidgets.VBox:
    """A button named ``label`` that, pressed, is replaced by what ``build`` returns."""

    def open_it() -> None:
        place.children = (build(),)

    tooltip = "show the finished game on a table you can step through"
    button = View([named_button(label, tooltip, open_it, primary=True)])
    button.add_class("hk")
    button.add_class("hk-request")  # a finger tall (widgets/toolkit/style.py)
    button.flush()
    place = ipywidgets.VBox([button])
    return place
