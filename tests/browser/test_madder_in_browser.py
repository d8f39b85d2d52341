"""Madder than a Hatter in a browser: Voilà serves the notebook, Chromium plays a hat by clicks, by drag and by keys."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from playwright.sync_api import expect

import hatskit
from tests.browser.motion import end, forget_motion, middle, motion, near, settle, start, watch_motion

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

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


# Where a pointer held on ``hand`` stands over ``place`` too once the page scrolls by (x, y, how far): the middle of
# the columns both share, at the hand's middle height. Null when no column is shared.
SHARED_COLUMN = """([hand, place]) => {
  const [from, to] = [hand.getBoundingClientRect(), place.getBoundingClientRect()];
  const [left, right] = [Math.max(from.left, to.left), Math.min(from.right, to.right)];
  const y = from.top + from.height / 2;
  return right - left < 4 ? null : [(left + right) / 2, y, to.top + to.height / 2 - y];
}"""
# Scrolls the box the table scrolls in (Voilà's page scrolls inside a box of its own) by ``by`` pixels, at once.
SCROLL_BY = """([table, by]) => {
  let box = table.parentElement;
  while (box && !(box.scrollHeight > box.clientHeight && /auto|scroll/.test(getComputedStyle(box).overflowY))) {
    box = box.parentElement;
  }
  (box || document.scrollingElement).scrollBy({ top: by, behavior: "instant" });
}"""


def test_a_hat_held_still_while_the_page_scrolls_its_place_under_the_pointer_is_played(
    open_table: Callable[[str, Path], Locator], voila: str, page: Page
) -> None:
    """A mouse holds a hat still while the page scrolls until *into Ben's inventory* is under the pointer (a wheel
    turned, or the browser bringing the place into view): letting go there plays the hat, as a drag would. The
    pointer never moved, so the page cannot tell this from its moving: only where it is let go counts."""
    table, hat, hand_hat = first_hat(open_table, voila)
    into_ben = table.get_by_role("button", name="into Ben's inventory")
    hand_hat.scroll_into_view_if_needed()
    shared = page.evaluate(SHARED_COLUMN, [hand_hat.element_handle(), into_ben.element_handle()])
    assert shared is not None, "the hat and the place share no column at this width: choose another place"
    x, y, by = shared
    page.mouse.move(x, y)
    page.mouse.down()
    page.evaluate(SCROLL_BY, [table.element_handle(), by])
    expect(into_ben).to_be_in_viewport()
    page.mouse.up()
    expect(table.locator(".hk-message")).to_contain_text(f"Ana put a {hat} into Ben's inventory")


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


def line_card(table: Locator, hat: str) -> Locator:
    """The assembly line's hat ``hat``."""
    return table.locator(".hk-line .hk-card", has_text=re.compile(rf"^{re.escape(hat)}$"))


def test_a_hat_shown_twice_slides_into_the_inventory_and_back_on_undo(
    open_table: Callable[[str, Path], Locator], voila: str, page: Page
) -> None:
    """Ana's first hat, a Beret, is on the line too: she puts hers into Cleo's inventory and takes the line's.

    The two Berets look alike, so the page cannot know which went where: the one Ana picked up is seen to go
    to Cleo's inventory, and the line's comes to her hand. Undo shows the fewest moves back: the Beret leaves
    Cleo's inventory for the line, and the one in Ana's hand stays put.
    """
    table, hat, hand_hat = first_hat(open_table, voila)
    game = hatskit.new_game("madder", players=3, seed=2026)
    assert game.view(0)["line"][0] == hat, "the notebook's game no longer starts the line with Ana's first hat"
    game.play(f"{hat}>Cleo")
    assert (hat in game.view(0)["inventories"][2], game.view(0)["line"][:1] != [hat]) == (True, True)
    watch_motion(page)
    hand_hat.click()
    expect(hand_hat).to_have_class(re.compile(r"\bhk-selected\b"))
    settle(page)  # picking it up redraws the hand
    from_hand, from_line = middle(hand_hat.locator(".hk-card")), middle(line_card(table, hat))
    table.get_by_role("button", name="into Cleo's inventory").click()
    expect(table.locator(".hk-message")).to_contain_text(f"Ana put a {hat} into Cleo's inventory")
    went = motion(page, "(m, hat) => m.text === hat && m.seat.startsWith('Cleo') && m.frames[0].translate", hat)
    taken = motion(page, "(m, hat) => m.text === hat && m.holder.startsWith(hat + ' in your hand')", hat)
    assert (near(start(went), from_hand), near(start(taken), from_line)) == (True, True)
    settle(page)
    in_inventory = table.locator(".hk-seat-2").locator(".hk-hat", has_text=hat)
    assert (near(end(went), middle(in_inventory)), near(end(taken), middle(hand_hat.locator(".hk-card")))) == (
        True,
        True,
    )
    from_inventory = middle(in_inventory)
    forget_motion(page)
    table.get_by_role("button", name="undo", exact=True).click()
    expect(line_card(table, hat)).to_have_count(1)
    back = motion(page, "(m, hat) => m.text === hat && m.frames[0].translate", hat)
    settle(page)
    assert (near(start(back), from_inventory), near(end(back), middle(line_card(table, hat)))) == (True, True)


def test_a_premiums_choice_is_a_lit_card_on_the_assembly_line_pressed_by_keys(
    open_table: Callable[[str, Path], Locator], voila: str
) -> None:
    """Issue 29: Extra! Extra! lights the line's hats, each named by what pressing it does; Enter on one takes it."""
    start = hatskit.new_game("madder", players=3, seed=2026).view(0)
    assert "Newsboy*" in start["hand"] and "Stetson" in start["line"], "the notebook's deal changed"
    table = open_table(voila, NOTEBOOK)
    table.get_by_role("button", name=re.compile(r"^Newsboy\* in your hand, a Premium")).click()
    table.get_by_role("button", name="into Ben's inventory").click()
    stetson = table.get_by_role("button", name="take the Stetson from the assembly line", exact=True)
    expect(stetson).to_have_class(re.compile(r"\bhk-legal\b"))
    expect(table.locator(".hk-line button.hk-legal")).to_have_count(len(start["line"]))
    expect(table.get_by_role("button", name="decline", exact=True)).to_be_visible()
    stetson.focus()
    stetson.press("Enter")
    expect(table.locator("button.hk-hatbtn", has_text=re.compile(r"^Stetson$"))).to_have_count(1)
    expect(table.locator(".hk-line button.hk-legal")).to_have_count(0)
    expect(table.get_by_role("button", name="decline", exact=True)).to_be_hidden()
