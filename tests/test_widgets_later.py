"""widgets/toolkit/later.py: a replay table is built when the reader presses its button, not while the page opens."""

from __future__ import annotations

import hatskit
from tests.helpers import press
from widgets import HatsTable, on_request


def test_the_table_is_built_only_when_asked_for_and_takes_the_buttons_place() -> None:
    built: list[HatsTable] = []

    def build() -> HatsTable:
        built.append(HatsTable(hatskit.new_game("hats", players=3, seed=42), ("reader", "greedy", "strong")))
        return built[-1]

    place = on_request("open this game on a table", build)
    (view,) = place.children
    (button,) = view.children
    assert button.description == "open this game on a table"
    assert not built
    press(view, button, do="click")  # as the page sends it
    assert place.children == (built[0],) and len(built) == 1
