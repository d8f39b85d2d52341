"""Sombrero in a browser: Voilà renders the board, Chromium picks up pieces, steps and captures by clicks.

The Sombrero notebook's table starts from the set-up (S1), where no capture is
within reach, so the capture is played on a prepared position: a one-cell
notebook that this module writes and serves with a second Voilà, started from
the repository like the first one (same voila.json, same installed packages).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import nbformat
import pytest

import hatskit
from hatskit.sombrero import square_name

if TYPE_CHECKING:
    from playwright.sync_api import Locator

    from tests.conftest import Server

# White to move: b3-c4 flanks d4 between c4 and e4 (S3). The view tests play the same puzzle.
CAPTURE = {
    "game": "sombrero",
    "to_move": "white",
    "white": {"hatted": ["e4", "b3", "g6", "h2"], "hatless": ["c2"]},
    "black": {"hatted": ["d4", "f6", "c7", "a2"]},
}
SOMBRERO_NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "sombrero.ipynb"
LIGHT, DARK = "rgb(240, 217, 181)", "rgb(181, 136, 99)"  # the board pictures' square colours
CAPTURE_CELL = f"""import hatskit
from widgets import SombreroTable

SombreroTable(hatskit.load({json.dumps(CAPTURE)}), seats=("reader", "greedy"))
"""
Served = tuple[str, Path]  # a Voilà server's base URL and the notebook it serves


@pytest.fixture(scope="module")
def puzzle(start_server: Callable[[list[str], str], Server], tmp_path_factory: pytest.TempPathFactory) -> Served:
    """A Voilà serving one notebook: a SombreroTable where White's b3-c4 takes d4's hat."""
    notebook = tmp_path_factory.mktemp("sombrero-puzzle") / "capture.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(CAPTURE_CELL)]), notebook)
    return start_server([sys.executable, "-m", "voila", "--port={port}", str(notebook.parent)], "/").url, notebook


def square(table: Locator, name: str) -> Locator:
    return table.locator(f'button[title^="{name}:"]')


def lit_squares(table: Locator) -> set[str]:
    """The squares highlighted as targets of the piece picked up."""
    titles = table.locator("button.hk-legal").evaluate_all("buttons => buttons.map(button => button.title)")
    return {title.split(":")[0] for title in titles}


def titles(table: Locator) -> list[str]:
    """Every square's tooltip, a1 to h8 in the page's order."""
    return table.locator("button.hk-sq").evaluate_all("buttons => buttons.map(button => button.title)")


def style_of(button: Locator, name: str) -> str:
    return button.evaluate("(button, name) => getComputedStyle(button)[name]", name)


def test_sombrero_board_shows_pieces_and_plays_a_step_by_keyboard(
    open_table: Callable[[str, Path], Locator], voila: str
) -> None:
    table = open_table(voila, SOMBRERO_NOTEBOOK)
    game = hatskit.new_game("sombrero")
    assert len(titles(table)) == 64 and square(table, "e1").get_attribute("title") == "e1: White, hatted"
    assert (style_of(square(table, "h1"), "backgroundColor"), style_of(square(table, "a1"), "backgroundColor")) == (
        LIGHT,
        DARK,
    )
    assert "svg" in style_of(square(table, "e1"), "backgroundImage") != style_of(square(table, "a1"), "backgroundImage")
    assert style_of(square(table, "e4"), "backgroundImage") == "none"
    square(table, "e1").click()
    table.locator('button.hk-selected[title^="e1:"]').wait_for()
    assert lit_squares(table) == {square_name(m.target) for m in game.legal_moves() if square_name(m.origin) == "e1"}
    square(table, "e2").focus()
    square(table, "e2").press("Enter")
    table.locator(".hk-message").filter(has_text="White stepped e1-e2").wait_for()
    assert "action 2 of 2" in table.locator(".hk-sb-turn").inner_text()
    assert square(table, "e2").get_attribute("title") == "e2: White, hatted"


OpenTable = Callable[[str, Path], "Locator"]


def test_sombrero_illegal_step_says_why_and_changes_nothing(open_table: OpenTable, voila: str) -> None:
    table = open_table(voila, SOMBRERO_NOTEBOOK)
    square(table, "e1").click()
    table.locator('button.hk-selected[title^="e1:"]').wait_for()
    before = titles(table)
    square(table, "e3").click()
    reason = hatskit.new_game("sombrero").why_illegal("e1-e3")
    message = table.locator(".hk-message.hk-error")
    message.filter(has_text=reason).wait_for()
    assert message.inner_text() == reason and titles(table) == before


def test_sombrero_capture_by_clicks_takes_the_hat(open_table: Callable[[str, Path], Locator], puzzle: Served) -> None:
    table = open_table(*puzzle)
    assert square(table, "d4").get_attribute("title") == "d4: Black, hatted"
    square(table, "b3").click()
    table.locator('button.hk-selected[title^="b3:"]').wait_for()
    assert "c4" in lit_squares(table)
    square(table, "c4").click()
    table.locator(".hk-message").filter(has_text="d4 lost its hat: flanked by c4 and e4 (S3)").wait_for()
    captured = table.locator("button.hk-captured")
    assert captured.count() == 1
    assert captured.get_attribute("title") == "d4: Black, hatless; lost its hat in the last move (S3)"
    assert "hats: White 4, Black 3" in table.locator(".hk-sb-turn").inner_text()
