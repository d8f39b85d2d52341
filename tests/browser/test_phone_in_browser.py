"""Every game's table on a phone (issue 29): controls a finger can press, nothing to scroll sideways, set-up folded.

One served app (the session's `voila` fixture). Each game page is opened at 390 x 844, light and dark: every visible
control of the page (buttons, cards and squares, choice and text boxes, the slider, a tick box with its line, a
fold's summary; the tables', the move exercises', and those between them, such as the button that opens a finished
game on a table) is at least 44 px on its short side, with the *New game…* panel folded and open; nothing on the
page scrolls sideways, no words are wider than their card or button, and a numbered row (the tea table, the assembly
line) stays on one line (test_every_reader.py's phone checks); the guided lesson's box takes at most a quarter of
the first screen, its lessons one row; axe-core passes the whole page, the contrast of every text in both themes. At
1280 px nothing scrolls sideways or spills out of its card either, and axe-core passes the whole page with the panel
open; in the dark theme the page is dark. These are every game page's checks of test_every_reader.py too: one load a
page and theme. With HATSKIT_SCREENSHOTS=<directory> each page is saved there as <game>-phone-<theme>.png and
<game>-<theme>.png. The panel opens and closes from the keyboard and says so (``aria-expanded``), and *Start* folds
it again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    OVERFLOWING,
    PHONE,
    PHONE_PROBLEMS,
    ROWS_BROKEN,
    SIDEWAYS,
    WIDE,
    open_page,
    serious_violations,
    snap,
)
from tests.conftest import GAME_NOTEBOOKS

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

Evaluated = Callable[["Locator", str, Any], None]

# The visible controls of the page under 44 px on their short side, as sentences (none when all are big enough):
# the tables' and the exercises', and those around them (a button that opens a table when asked, the text's
# "Answer" folds). A link in a sentence is left out, as WCAG's target size leaves it (its line decides its height),
# and so is the skip link while it waits off the screen for the keyboard. A tick box is measured with its line
# (its label), which takes the tap as well. What a closed <details> holds is laid out but not shown.
SMALL_CONTROLS = """(root) => {
  const shown = (e) => e.checkVisibility({ visibilityProperty: true });
  const controls = [...root.ownerDocument.querySelectorAll(
    "button, select, input, textarea, summary, :is(.hk-table, .hk-exercise) a[href]")]
    .map((e) => (e.matches("input[type=checkbox], input[type=radio]") && e.closest("label")) || e);
  return [...new Set(controls)].filter(shown).map((e) => [e, e.getBoundingClientRect()])
    .filter(([, box]) => box.right > 0)
    .filter(([, box]) => Math.round(Math.min(box.width, box.height)) < 44)
    .map(([e, box]) => {
      const name = (e.getAttribute("aria-label") || e.textContent || e.title || "").trim().slice(0, 30);
      return `${e.tagName.toLowerCase()} "${name}" is ${Math.round(box.width)} x ${Math.round(box.height)} px`;
    }).slice(0, 8);
}"""


# A guided lesson's box that takes more than a quarter of a phone's first screen, or lays its lessons on more than
# one line, as sentences: the table it teaches at must show beneath it.
LESSON_TOO_BIG = """(root) => {
  const screen = root.ownerDocument.defaultView.innerHeight;
  return [...root.ownerDocument.querySelectorAll(".hk-table .hk-lessons")].flatMap((box) => {
    const height = box.getBoundingClientRect().height;
    const lessons = [...box.querySelector(".hk-hbox").children];
    const tops = new Set(lessons.map((lesson) => Math.round(lesson.getBoundingClientRect().top)));
    return [
      ...(height > screen / 4 ? [`the lesson box is ${Math.round(height)} px tall`] : []),
      ...(tops.size > 1 ? [`the lessons lie on ${tops.size} lines`] : []),
    ];
  });
}"""


# Whether the page's background is dark (each of its red, green and blue under 80).
DARK_PAGE = "(b) => getComputedStyle(b).backgroundColor.match(/\\d+/g).slice(0, 3).every((c) => +c < 80)"


def assert_finger_wide(pills: Locator) -> None:
    """Every one of ``pills`` is at least 44 px on its short side, a finger on a phone (WCAG 2.5.5)."""
    for pill in pills.all():
        box = pill.bounding_box()
        assert box is not None and min(box["width"], box["height"]) >= 44


def new_game_fold(page: Page) -> Locator:
    """The play table's *New game…* summary: a click opens its panel, or folds it again."""
    return page.locator(".hk-table.hk-main summary", has_text="New game…")


def open_setup(page: Page) -> Locator:
    """Open the play table's *New game…* panel with a click; return its *Start* button, once it shows."""
    new_game_fold(page).click()
    start = page.locator(".hk-table.hk-main").get_by_role("button", name="Start", exact=True)
    expect(start).to_be_visible()
    return start


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("game", GAME_NOTEBOOKS)
def test_every_control_takes_a_finger_and_nothing_scrolls_sideways(
    page: Page, voila: str, game: str, theme: str, expect_evaluated: Evaluated
) -> None:
    page.set_viewport_size(PHONE)
    open_page(page, f"{voila}/voila/render/{game}.ipynb?theme={theme}")
    html, body = page.locator("html"), page.locator("body")
    if theme == "dark":  # Voilà's dark theme, on a dark page
        expect_evaluated(body, "(b) => b.dataset.jpThemeLight", "false")
        expect_evaluated(body, DARK_PAGE, True)
    expect_evaluated(html, PHONE_PROBLEMS, [])
    expect_evaluated(html, SMALL_CONTROLS, [])
    expect_evaluated(html, LESSON_TOO_BIG, [])
    # At a phone's width, the whole page: no text that scrolls sideways out of the keys' reach, every text's contrast.
    assert serious_violations(page, whole_page=True) == []
    snap(page, f"{game}-phone-{theme}")
    start = open_setup(page)
    expect_evaluated(html, PHONE_PROBLEMS, [])
    expect_evaluated(html, SMALL_CONTROLS, [])
    page.set_viewport_size(WIDE)
    for wide_problems in (SIDEWAYS, OVERFLOWING, ROWS_BROKEN):
        expect_evaluated(html, wide_problems, [])
    assert serious_violations(page, whole_page=True) == []  # at 1280 px, the whole page with the panel open
    new_game_fold(page).click()  # folded again: the page as it opened
    expect(start).to_be_hidden()
    page.evaluate("() => document.activeElement.blur()")  # no focus ring on the README's screenshot
    snap(page, f"{game}-{theme}")


def test_the_new_game_panel_opens_from_the_keyboard_and_start_folds_it(page: Page, voila: str) -> None:
    open_page(page, f"{voila}/voila/render/hats.ipynb")
    table = page.locator(".hk-table.hk-main")
    summary = table.locator("summary", has_text="New game…")
    deals = table.get_by_role("radiogroup", name="deal")
    deal = table.get_by_label("deal number")
    expect(summary).to_have_attribute("aria-expanded", "false")
    expect(deals).to_be_hidden()
    summary.focus()
    page.keyboard.press("Enter")
    expect(summary).to_have_attribute("aria-expanded", "true")
    expect(deals).to_be_visible()
    expect(deal).to_be_hidden()  # the box of the number opens with its pill
    page.keyboard.press("Space")
    expect(summary).to_have_attribute("aria-expanded", "false")
    expect(deals).to_be_hidden()
    start = open_setup(page)
    deals.get_by_role("radio", name="deal number…").click()
    deal.fill("4711")
    start.click()
    expect(summary).to_have_attribute("aria-expanded", "false")  # the kernel folds it once the game is dealt
    expect(deal).to_have_value("4711")


def test_a_row_of_choice_pills_is_one_tab_stop_whose_arrow_keys_move_the_choice(page: Page, voila: str) -> None:
    """Issue 29: the number of players is a radio group of pills, each a finger wide on a phone; an arrow key
    chooses the next pill, and the choice reaches the kernel (the seats of the new count appear)."""
    page.set_viewport_size(PHONE)
    open_page(page, f"{voila}/voila/render/hats.ipynb")
    open_setup(page)
    table = page.locator(".hk-table.hk-main")
    players = table.get_by_role("radiogroup", name="players")
    three, four = players.get_by_role("radio", name="3"), players.get_by_role("radio", name="4")
    expect(three).to_have_attribute("aria-checked", "true")
    expect(players.locator("[tabindex='0']")).to_have_count(1)  # one Tab stop: the chosen pill
    assert_finger_wide(players.get_by_role("radio"))
    three.focus()
    page.keyboard.press("ArrowRight")
    expect(four).to_have_attribute("aria-checked", "true")
    expect(four).to_be_focused()
    expect(three).to_have_attribute("aria-checked", "false")
    expect(table.get_by_role("radiogroup", name="Dev")).to_be_visible()  # a fourth seat to fill
    page.keyboard.press("ArrowLeft")
    expect(three).to_have_attribute("aria-checked", "true")
    expect(table.get_by_role("radiogroup", name="Dev")).to_be_hidden()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_two_types_left_out_are_pressed_as_pills_and_start_a_game_without_them(
    page: Page, voila: str, theme: str
) -> None:
    """Issue 29: Hats' two-player option is pills that stay pressed (check boxes), not a text box; a third press
    lets go of the first pressed, each pill is its own Tab stop, a finger wide, and Start deals without them."""
    page.set_viewport_size(PHONE)
    open_page(page, f"{voila}/voila/render/hats.ipynb?theme={theme}")
    start = open_setup(page)
    table = page.locator(".hk-table.hk-main")
    table.get_by_role("radiogroup", name="players").get_by_role("radio", name="2").click()
    removed = table.get_by_role("group", name="removed")
    heart, flower, helm = (removed.get_by_role("checkbox", name=name) for name in ("♥ heart", "✿ flower", "⎈ helm"))
    expect(flower).to_have_attribute("aria-checked", "true")
    expect(removed.locator("[tabindex='0']")).to_have_count(7)
    assert_finger_wide(removed.get_by_role("checkbox"))
    heart.focus()
    page.keyboard.press("Space")
    expect(heart).to_have_attribute("aria-checked", "true")
    expect(flower).to_have_attribute("aria-checked", "false")  # pressed first, let go
    expect(helm).to_have_attribute("aria-checked", "true")
    assert serious_violations(page) == []  # a group of check boxes, named, in the dark theme too (axe-core)
    start.click()
    expect(table.locator(".hk-middle .hk-cardbtn:visible")).to_have_count(5)  # two players: five positions (H1)
    for cards in (table.locator(".hk-middle"), table.locator(".hk-handrow")):
        expect(cards).not_to_contain_text("♥", use_inner_text=True)


def test_the_index_on_a_phone_has_no_text_that_scrolls_sideways(page: Page, voila: str) -> None:
    """The games table packs its cells and links each game by its name, so it fits a phone's width: a region that
    scrolls sideways must be reachable by the keyboard too (axe-core's scrollable-region-focusable)."""
    page.set_viewport_size(PHONE)
    open_page(page, f"{voila}/voila/render/index.ipynb")
    assert serious_violations(page) == []
