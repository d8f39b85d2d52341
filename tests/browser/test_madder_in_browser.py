"""Madder than a Hatter in a browser: Voilà serves the notebook, Chromium plays a hat by clicks, by drag and by keys."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from playwright.sync_api import expect

import hatskit

if TYPE_CHECKING:
    from playwright.sync_api import Locator

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "madder_than_a_hatter.ipynb"
TABLE_CALL = (
    'MadderTable.from_link(hatskit.new_game("madder", players=3, seed=2026), seats=("reader", "greedy", "strong"))'
)


def first_hat(open_table: Callable[[str, Path], Locator], voila: str) -> tuple[Locator, str, Locator]:
    """The notebook's game table, the name of the first hat of Ana's hand, and its button."""
    sources = ["".join(cell["source"]) for cell in json.loads(NOTEBOOK.read_text())["cells"]]
    assert any(TABLE_CALL in source for source in sources), "the notebook's game table is no longer " + TABLE_CALL
    start = hatskit.new_game("madder", players=3, seed=2026).view(0)
    hat = sorted(start["hand"])[0]
    assert hat not in start["inventories"][1] + start["inventories"][2], "nobody may hold the hat before it is played"
    table = open_table(voila, NOTEBOOK)
    hand_hat = table.locator("button.hk-hatbtn", has_text=re.compile(rf"^{re.escape(hat)}$")).first
    expect(hand_hat).to_have_attribute("title", re.compile(rf"^{re.escape(hat)} in your hand"))
    return table, hat, hand_hat


def test_a_hat_dragged_into_cleos_inventory(open_table: Callable[[str, Path], Locator], voila: str) -> None:
    table, hat, hand_hat = first_hat(open_table, voila)
    hand_hat.drag_to(table.get_by_role("button", name="into Cleo's inventory"))
    expect(table.locator(".hk-message")).to_contain_text(f"Ana put a {hat} into Cleo's inventory")
    expect(table.locator(".hk-ghost")).to_have_count(0)


def test_a_hat_played_into_bens_inventory_by_keys(open_table: Callable[[str, Path], Locator], voila: str) -> None:
    table, hat, hand_hat = first_hat(open_table, voila)
    hand_hat.focus()
    hand_hat.press("Enter")
    expect(hand_hat).to_have_attribute("aria-pressed", "true")
    into_ben = table.get_by_role("button", name="into Ben's inventory")
    into_ben.focus()
    into_ben.press("Space")
    expect(table.locator(".hk-message")).to_contain_text(f"Ana put a {hat} into Ben's inventory")


def test_a_hat_clicked_into_bens_inventory(open_table: Callable[[str, Path], Locator], voila: str) -> None:
    table, hat, hand_hat = first_hat(open_table, voila)
    hand_hat.click()
    expect(hand_hat).to_have_class(re.compile(r"\bhk-selected\b"))
    into_ben = table.get_by_role("button", name="into Ben's inventory")
    expect(into_ben).to_have_class(re.compile(r"\bhk-legal\b"))
    into_ben.click()
    expect(table.locator(".hk-message")).to_contain_text(f"Ana put a {hat} into Ben's inventory")
    title = f"{hat.removesuffix('*')} (Premium)" if hat.endswith("*") else hat
    expect(table.locator(".hk-seat-1").locator(f'.hk-hat[title="{title}"]')).not_to_have_count(0)
