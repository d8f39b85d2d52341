"""The guided first game in Chromium: a student follows only the screen, earns a star, reloads and finds it.

Each game page opens on its lessons' table (widgets/lessons.py). The test reads
nothing of the kernel: at every step it clicks what the table marks for the
step (the card or piece to take first, then the marked place), waits for the
instruction to move on, and at the end checks the star, the table's own
controls coming back, and, after a reload, the star still there (the browser
kept it) and "start again" forgetting it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from tests.conftest import NOTEBOOK_DIR

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

LESSON_TABLE = ".hk-lesson-table"
MARKED = ".hk-hint"  # what a guided step marks on the table: the move's card or piece, and where it goes
# Per game page: the marked item a student takes first (a hand card, a piece); the other marks are where it goes.
FIRST_CLICK = {
    "hats": f'button{MARKED}[title$=" in your hand"]',
    "sombrero": f'button.hk-sq{MARKED}[title*=": White, hatted"]',  # the piece to move; the marked target is empty
}
STAR = "★ Your first game"
STEP = re.compile(r"Step \d+ of \d+\.")  # a guided step's heading


def follow_one_step(table: Locator, first: str) -> None:
    """Do what the instruction says, as the marks show it: the first item, then the marked place (if any)."""
    guide = table.locator(".hk-guide")
    expect(guide).to_contain_text(STEP)
    said = guide.inner_text()
    table.locator(first).first.click()
    # The pick comes back from the kernel: until it does, the item itself is a marked place too, and a second click
    # on it would put it down again. Wait for the pick, or for the step the click finished.
    moved_on = guide.filter(has_not_text=STEP.search(said)[0])  # "Step 2 of 5." is gone
    expect(table.locator(f"{MARKED}.hk-selected").or_(moved_on).first).to_be_visible()
    place = table.locator(f"{MARKED}:not(.hk-selected)")
    if place.count():
        place.first.click()
    expect(guide).not_to_have_text(said)


def play_the_first_lesson(page: Page, first: str) -> Locator:
    table = page.locator(LESSON_TABLE)
    guide = table.locator(".hk-guide")
    expect(guide).to_contain_text("Step 1 of")
    expect(guide).to_have_attribute("aria-live", "polite")
    expect(table.locator(".hk-setup")).to_be_hidden()  # only the table and the instruction while a lesson runs
    steps = int(guide.inner_text().split("Step 1 of ")[1].split(".")[0])
    for number in range(1, steps + 1):
        expect(guide).to_contain_text(f"Step {number} of {steps}.")
        follow_one_step(table, first)
    expect(guide).to_contain_text("you earned a star")
    return table


@pytest.mark.parametrize("name", sorted(FIRST_CLICK))
def test_a_student_follows_the_guided_first_game_earns_a_star_and_finds_it_after_a_reload(
    voila: str, page: Page, assert_rendered: Callable[[str, Path], None], name: str
) -> None:
    response = page.goto(f"{voila}/voila/render/{name}.ipynb")
    assert response is not None
    assert_rendered(response.text(), NOTEBOOK_DIR / f"{name}.ipynb")
    table = play_the_first_lesson(page, FIRST_CLICK[name])
    expect(table.get_by_role("button", name=STAR)).to_be_visible()
    expect(table.locator(".hk-setup")).to_be_visible()  # the lesson is done: the table is the student's own

    page.reload()
    table = page.locator(LESSON_TABLE)
    expect(table.get_by_role("button", name=STAR)).to_be_visible()  # kept by this browser, not by the kernel
    table.get_by_role("button", name="start again").click()
    expect(table.get_by_role("button", name="☆ Your first game")).to_be_visible()
    expect(table.locator(".hk-guide")).to_contain_text("Step 1 of")


def test_a_student_who_stops_mid_lesson_continues_there_after_a_reload(voila: str, page: Page) -> None:
    page.goto(f"{voila}/voila/render/hats.ipynb")
    table = page.locator(LESSON_TABLE)
    expect(table.locator(".hk-guide")).to_contain_text("Step 1 of 5.")
    follow_one_step(table, FIRST_CLICK["hats"])
    follow_one_step(table, FIRST_CLICK["hats"])
    expect(table.locator(".hk-guide")).to_contain_text("Step 3 of 5.")
    page.reload()
    guide = page.locator(LESSON_TABLE).locator(".hk-guide")
    expect(guide).to_contain_text("Welcome back")
    expect(guide).to_contain_text("Step 3 of 5.")
