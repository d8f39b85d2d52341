"""A score line points only into its own seat's panel: a card of the same name in another seat's is not its.

A one-cell notebook, written and served by a second Voilà, shows a hand-made view
with the contract the tables keep: every seat panel has the class ``hk-seat-<n>``
(here Ana's and Ben's each hold a ♥5 and a Madder Premium Fedora, and a third ♥5
lies outside every seat, as the tea table's cards do), and the score panel is
``score_panel_html``'s, with one line of each seat counting both. A line names
cards by notation ("Fedora*"), whatever their faces read ("★ Fedora").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import nbformat
import pytest
from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import Locator

    from tests.conftest import Server

VIEW_CELL = """from hatskit.core import ScoreLine, ScoreSheet
from hatskit.drawing import card_html, score_panel_html
from hatskit.games.madder.components import DEFAULT_CARDS, load_cards
from hatskit.games.madder.render import hat_html
from widgets.toolkit.parts import View, html_line

heart = card_html("♥", 5, "heart")
fedora = hat_html("Fedora*", load_cards(str(DEFAULT_CARDS)))
seats = html_line("", "".join(f'<div class="hk-seat hk-seat-{n}">{heart}{fedora}</div>' for n in (0, 1)))
tea = html_line("hk-tea", heart)
why = "♥5: heart is at position 3 (H8)"
lines = tuple(ScoreLine(seat, "hat collection", 3, why, shows=("♥5", "Fedora*")) for seat in (0, 1))
sheet = score_panel_html(ScoreSheet(lines, ("Ana", "Ben")), None)
view = View([seats, tea, html_line("hk-scorepanel", sheet)])
view.add_class("hk-table")
view
"""
POINTED = re.compile(r"\bhk-pointed\b")


@pytest.fixture(scope="module")
def seats_view(serve_app: Callable[..., Server], tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    notebook = tmp_path_factory.mktemp("score-pointing") / "seats.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(VIEW_CELL)]), notebook)
    return serve_app(notebook.parent).url, notebook


@pytest.mark.parametrize("seat", [0, 1])
def test_a_seats_score_line_points_at_its_own_and_the_tables_cards_never_another_seats(
    open_table: Callable[[str, Path], Locator], seats_view: tuple[str, Path], seat: int
) -> None:
    view = open_table(*seats_view)
    view.locator(".hk-scorepanel summary").nth(seat).click()
    view.locator(f'.hk-scorepanel tr[data-hk-seat="{seat}"]').hover()
    for card in view.locator(f".hk-seat-{seat} .hk-card").all():  # the ♥5 and the Premium Fedora
        expect(card).to_have_class(POINTED)
    expect(view.locator(".hk-tea .hk-card")).to_have_class(POINTED)  # no seat's: pointed at for every line
    expect(view.locator(".hk-card.hk-pointed")).to_have_count(3)
    for card in view.locator(f".hk-seat-{1 - seat} .hk-card").all():
        expect(card).not_to_have_class(POINTED)
