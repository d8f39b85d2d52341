"""The guided first game in Chromium: a student follows only the screen, earns a star, reloads and finds it.

Each game page opens on its lessons' table (widgets/teaching/lessons.py). The test reads
nothing of the kernel: at every step it clicks what the table marks for the
step (the card or piece to take first, then the marked place; or the one
marked button, such as a Premium ability's choice), waits for the instruction
to move on, and at the end checks the star, the table's own controls coming
back, and, after a reload, the star still there (the browser kept it) and
"start again" forgetting it. On the Hats Off! race pad the marked button is the
whole move, clicked as fast as the test clicks: the lesson's races are ones the
student cannot lose by being slow, so any speed reaches the star.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from tests.conftest import GAME_NOTEBOOKS, NOTEBOOK_DIR

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

LESSON_TABLE = ".hk-lesson-table"
MARKED = ".hk-hint"  # what a guided step marks on the table: the move's card or piece, and where it goes
# Per game page: the marked item a student takes first (a hand card, a piece); the other marks are where it goes.
# On a race pad the marked button is the whole move (a hat, flip, pass, Hats Off!): nothing else is marked.
FIRST_CLICK = {
    "hats": f'button{MARKED}[title$=" in your hand"]',
    "madder_than_a_hatter": f'button{MARKED}[title*=" in your hand"]',  # a Premium's title goes on after "hand"
    "hats_off": f"button.hk-race-btn{MARKED}",
    "sombrero": f'button.hk-sq{MARKED}[title*=": White, hatted"]',  # the piece to move; the marked target is empty
}
STAR = "★ Your first game"
STEP = re.compile(r"Step \d+ of \d+\.")  # a guided step's heading


def follow_one_step(table: Locator, first: str, keys: bool = False) -> None:
    """Do what the instruction says, as the marks show it: the first item, then the marked place (if any);
    a step that marks no such item (a Premium's choice, "done") marks one button, clicked once. With ``keys``
    each button is reached by the keyboard's focus and pressed with Enter instead.

    Each press waits until the table shows what it did (the item picked up, or the step done) before the next,
    as a student looks before they press again.
    """
    guide = table.locator(".hk-guide")
    expect(guide).to_contain_text(STEP)
    said = guide.text_content()  # as the expectations below read it (the folded "why?" too)
    press = (lambda button: button.press("Enter")) if keys else (lambda button: button.click())
    item = table.locator(first)
    if item.count():
        press(item.first)
        # The page picks the item up by itself (no message). Wait for the pick, or for the step the press finished
        # (a race pad's marked button is the whole move).
        moved_on = guide.filter(has_not_text=STEP.search(said)[0])  # "Step 2 of 5." is gone
        expect(table.locator(f"{first}.hk-selected").or_(moved_on).first).to_be_visible()
        place = table.locator(f"{MARKED}:not(.hk-selected):not({first})")  # not a twin of the item either
        if not moved_on.count() and place.count():
            press(place.first)
    else:
        press(table.locator(MARKED).first)
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

    page.goto(f"{voila}/voila/render/index.ipynb")  # the index lists the lessons with this browser's stars
    expect(page.locator(f'[data-hk-lesson="{GAME_NOTEBOOKS[name]}/first-game"]')).to_contain_text("★ Your first game")
    expect(page.locator(f'[data-hk-lesson^="{GAME_NOTEBOOKS[name]}/"]').nth(1)).to_contain_text("☆")  # not yet played

    page.goto(f"{voila}/voila/render/{name}.ipynb")
    table = page.locator(LESSON_TABLE)
    expect(table.get_by_role("button", name=STAR)).to_be_visible()  # kept by this browser, not by the kernel
    table.get_by_role("button", name="start again").click()
    expect(table.get_by_role("button", name="☆ Your first game")).to_be_visible()
    expect(table.locator(".hk-guide")).to_contain_text("Step 1 of")


# The middle of the card the step marks first, once a card of another button slides across it above it (null until
# then).
CROSSED = """(table) => {
  const marked = table.querySelector('button.hk-hint[title$=" in your hand"]');
  const box = marked.getBoundingClientRect();
  const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
  const over = (card) => {
    const at = card.getBoundingClientRect();
    return at.left < x && x < at.right && at.top < y && y < at.bottom;
  };
  const layer = (element) => Number(getComputedStyle(element).zIndex) || 0; // a slide's own, while it runs
  const passing = [...table.querySelectorAll("button .hk-card")].find(
    (card) => !marked.contains(card) && card.getAnimations().length && over(card) && layer(card) > layer(marked));
  return passing ? [x, y] : null;
}"""


def test_a_press_lands_on_the_card_resting_under_it_while_another_slides_across(voila: str, page: Page) -> None:
    """The guided game's first move draws a card that slides along the hand, across the cards that shift to
    make room. A press on the card the next step marks, at the moment the new one passes over it, is a press on
    the marked card: a card on its way takes no click (a press and its release on two cards would be lost).
    The slides run a hundred times slower here (Chromium's DevTools protocol), so one is caught in passing."""
    page.goto(f"{voila}/voila/render/hats.ipynb")
    table = page.locator(LESSON_TABLE)
    expect(table.locator(".hk-guide")).to_contain_text("Step 1 of 5.")
    devtools = page.context.new_cdp_session(page)
    devtools.send("Animation.enable")
    devtools.send("Animation.setPlaybackRate", {"playbackRate": 0.01})
    follow_one_step(table, FIRST_CLICK["hats"])
    x, y = page.wait_for_function(CROSSED, arg=table.element_handle()).json_value()
    page.mouse.click(x, y)
    expect(table.locator(f"{FIRST_CLICK['hats']}.hk-selected")).to_be_visible()
    expect(table.locator(".hk-message.hk-error")).to_have_count(0)


# The words a student reads before the page's first control they can use: every visible text before it in the
# page's order (the count: Chromium at 1280x800, the text above the first enabled control).
WORDS_BEFORE_FIRST_CONTROL = r"""() => {
  const controls = "button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea, a.hk-skip";
  const first = [...document.querySelectorAll(controls)].find(
    (c) => !c.classList.contains("hk-skip") && c.checkVisibility());
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let words = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!(first.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_PRECEDING)) break;
    const holder = node.parentElement;
    if (!holder || holder.closest("script, style") || !holder.checkVisibility()) continue;
    words += node.textContent.split(/\s+/).filter((word) => /\w/.test(word)).length;
  }
  return words;
}"""


@pytest.mark.parametrize("name", sorted(FIRST_CLICK))
def test_a_game_page_asks_at_most_150_words_of_reading_before_its_first_control(
    voila: str, page: Page, name: str
) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{voila}/voila/render/{name}.ipynb")
    expect(page.locator(LESSON_TABLE).locator(".hk-guide")).to_contain_text("Step 1 of")
    words = page.evaluate(WORDS_BEFORE_FIRST_CONTROL)
    print(f"{name}: {words} words before the first control")
    assert 0 < words <= 150, f"{name}: {words} words before the first control"


@pytest.mark.parametrize(("name", "steps"), [("hats", 5), ("hats_off", 6)])
def test_a_student_who_stops_mid_lesson_continues_there_after_a_reload(
    voila: str, page: Page, name: str, steps: int
) -> None:
    page.goto(f"{voila}/voila/render/{name}.ipynb")
    table = page.locator(LESSON_TABLE)
    guide = table.locator(".hk-guide")
    for number in (1, 2):  # the first step by the keyboard alone, the second by the mouse
        expect(guide).to_contain_text(f"Step {number} of {steps}.")
        follow_one_step(table, FIRST_CLICK[name], keys=number == 1)
    expect(guide).to_contain_text(f"Step 3 of {steps}.")
    page.reload()
    guide = page.locator(LESSON_TABLE).locator(".hk-guide")
    expect(guide).to_contain_text("Welcome back")
    expect(guide).to_contain_text(f"Step 3 of {steps}.")
