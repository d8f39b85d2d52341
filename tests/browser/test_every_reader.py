"""Every reader (issue 10): keyboards, screen readers, contrast, a dark theme and a phone's width.

One served app (the session's `voila` fixture) for every test here. Each page that is not a game's (the index;
test_phone_in_browser.py checks every game page the same way, at 390 px first, in one load a theme) is opened light
at 1280 px and checked with axe-core (no serious or critical violation), in a window as tall as the page, so that
the contrast of every text is checked and not only the first screen's; then narrowed to a phone's 390 px (nothing
wider than the screen, no words wider than their card or button, a numbered row on one line, the slider with room to
slide, no two cards on top of each other), then opened again with ``?theme=dark`` (a dark page that axe still
passes, all of it). With HATSKIT_SCREENSHOTS=<directory> each of the three is saved there as <page>-light.png,
<page>-phone.png and <page>-dark.png (the README's game pages come from test_phone_in_browser.py). A long game's
move numbers show whole. The spinner shown while a page loads moves in steps, and stands still for a reader whose
system asks for less motion.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.browser.conftest import PHONE, PHONE_PROBLEMS, WCAG_CONTRAST, WIDE, open_page, serious_violations, snap
from tests.conftest import GAME_NOTEBOOKS, NOTEBOOK_DIR, NOTEBOOKS

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

Evaluated = Callable[["Locator", str, Any], None]

# The pages that are not a game's: each game page gets these checks, and more, from test_phone_in_browser.py.
PAGES_NOT_GAMES = [notebook for notebook in NOTEBOOKS if notebook.stem not in GAME_NOTEBOOKS]


@pytest.mark.parametrize("notebook", PAGES_NOT_GAMES, ids=lambda notebook: notebook.stem)
def test_page_reads_well_light_dark_and_on_a_phone(
    page: Page, voila: str, notebook: Path, expect_evaluated: Evaluated
) -> None:
    url = f"{voila}/voila/render/{notebook.name}"
    page.set_viewport_size(WIDE)
    open_page(page, url)
    assert serious_violations(page, whole_page=True) == []  # every text of the page, not only the first screen's
    snap(page, f"{notebook.stem}-light")
    page.set_viewport_size(PHONE)
    expect_evaluated(page.locator("html"), PHONE_PROBLEMS, [])
    snap(page, f"{notebook.stem}-phone")
    page.set_viewport_size(WIDE)
    open_page(page, f"{url}?theme=dark")
    expect_evaluated(page.locator("body"), "(b) => b.dataset.jpThemeLight", "false")
    dark = "(b) => getComputedStyle(b).backgroundColor.match(/\\d+/g).slice(0, 3).every((c) => +c < 80)"
    expect_evaluated(page.locator("body"), dark, True)
    assert serious_violations(page, whole_page=True) == []
    snap(page, f"{notebook.stem}-dark")


def test_sombrero_board_is_one_tab_stop_moved_with_the_arrow_keys(page: Page, voila: str) -> None:
    from playwright.sync_api import expect

    open_page(page, f"{voila}/voila/render/sombrero.ipynb")
    table = page.locator(".hk-table.hk-main")
    squares = table.locator(".hk-sb-grid button.hk-sq")
    expect(squares.and_(page.locator("[tabindex='0']"))).to_have_count(1)
    expect(squares.and_(page.locator("[tabindex='-1']"))).to_have_count(63)
    page.keyboard.press("Tab")
    expect(page.locator(".hk-skip")).to_be_focused()
    page.keyboard.press("Enter")
    expect(table.locator(".hk-area")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_attribute("aria-label", re.compile(r"^a1: "))
    page.keyboard.press("End")
    expect(page.locator(":focus")).to_have_attribute("aria-label", re.compile(r"^h1: White, hatted"))
    page.keyboard.press("ArrowUp")
    expect(page.locator(":focus")).to_have_attribute("aria-label", re.compile(r"^h2: "))
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    h1 = table.locator("button.hk-sq[aria-label^='h1: ']")
    expect(h1).to_have_attribute("aria-pressed", "true")
    expect(page.locator(":focus")).to_have_css("outline-width", "3px")
    page.keyboard.press("Space")
    expect(h1).to_have_attribute("aria-pressed", "false")


def test_the_slider_is_named_and_its_end_key_goes_to_the_last_move(page: Page, voila: str) -> None:
    from playwright.sync_api import expect

    open_page(page, f"{voila}/voila/render/sombrero.ipynb")
    table = page.locator(".hk-table.hk-main")
    table.locator('button.hk-sq[title*=": White"]').first.click()  # a step: the history has a move
    table.locator("button.hk-legal").first.click()
    handle = table.locator(".hk-slider input[type=range]")
    expect(handle).to_have_attribute("max", "1")
    expect(handle).to_have_accessible_name("move 1 of 1")  # its visible label names it
    last = "1"
    number = table.locator(".hk-slider .hk-fieldname")  # "move N of M": the kernel sets it for the shown move
    handle.focus()
    page.keyboard.press("Home")
    expect(number).to_have_text(f"move 0 of {last}")
    page.keyboard.press("End")
    expect(number).to_have_text(f"move {last} of {last}")


def test_a_puzzle_tries_an_offered_move_at_a_press_and_says_why_in_the_themes_colours(page: Page, voila: str) -> None:
    from playwright.sync_api import expect

    import hatskit
    from hatskit.drawing import without_rules

    first = json.loads((NOTEBOOK_DIR / "puzzles" / "hats.json").read_text(encoding="utf-8"))[0]
    wrong = next(choice for choice in first["choices"] if hatskit.load(first["position"]).why_illegal(choice))
    open_page(page, f"{voila}/voila/render/hats.ipynb?theme=dark")
    puzzle = page.locator(".hk-exercise").filter(has_text=first["question"])
    ana = puzzle.locator(".hk-seatpanel").last
    before = ana.text_content() or ""
    puzzle.get_by_role("button", name=wrong, exact=True).click()
    verdict = puzzle.locator(".hk-verdict")
    refusal = without_rules(hatskit.load(first["position"]).why_illegal(wrong))[0]  # its rule is in the why
    expect(verdict).to_contain_text(f"✘ Not allowed: {refusal}why?")
    expect(verdict).to_have_css("color", "rgb(255, 158, 158)")  # the dark theme's red, not the light one's
    expect(ana).to_have_text(before)  # nothing changed
    puzzle.get_by_role("button", name=first["answer"], exact=True).click()
    expect(verdict).to_contain_text("Goal met")
    expect(verdict).to_have_css("color", "rgb(143, 220, 151)")
    expect(puzzle.get_by_role("textbox")).to_have_value(first["answer"])


def test_hats_off_step_mode_is_played_by_pills_and_other_opens_a_box_for_any_time(page: Page, voila: str) -> None:
    """The page's step table (a fez on the pile, Ben and Cleo each hold one): Ben's fez at the 0.3 s pill, Cleo's
    at 0.3 s typed under *other…*, Ana passes; equal times go to the lower seat (O3)."""
    from playwright.sync_api import expect

    open_page(page, f"{voila}/voila/render/hats_off.ipynb")
    step = page.locator(".hk-table").filter(has=page.get_by_role("radiogroup", name="after"))
    expect(step).to_have_count(1)
    index = step.evaluate("(t) => [...document.querySelectorAll('.hk-table')].indexOf(t)")
    table = page.locator(".hk-table").nth(index)  # found by its pills, kept when they fold away at the end

    def choose(group: str, name: str) -> None:
        table.get_by_role("radiogroup", name=group).get_by_role("radio", name=name).click()

    def play(mover: str) -> None:
        table.get_by_role("button", name="play", exact=True).click()
        expect(table.get_by_role("radio", name=mover)).to_have_count(0)  # moved: no longer under "who"

    choose("who", "Ben (you)")
    choose("does", "play the fez from the hand")
    choose("after", "0.3 s")
    expect(table.get_by_role("spinbutton", name="seconds")).to_be_hidden()
    play("Ben (you)")
    choose("who", "Cleo (you)")
    choose("does", "play the fez from the hand")
    choose("after", "other…")
    seconds = table.get_by_role("spinbutton", name="seconds")
    seconds.fill("0.3")
    seconds.press("Enter")
    expect(seconds).to_have_value("0.3")
    play("Cleo (you)")
    choose("who", "Ana (you)")
    choose("does", "pass")
    table.get_by_role("button", name="play", exact=True).click()
    expect(table.locator(".hk-message")).to_contain_text("Ben wins the pile")
    expect(table.locator(".hk-message")).to_contain_text("Cleo's play at 0.3 s is too late")


def test_hats_controls_are_named_and_the_focus_ring_shows_on_every_card(page: Page, voila: str) -> None:
    from playwright.sync_api import expect

    open_page(page, f"{voila}/voila/render/hats.ipynb")
    table = page.locator(".hk-table.hk-main")
    hand = table.locator("button.hk-cardbtn[aria-label$=' in your hand']")
    expect(hand.first).to_be_visible()
    expect(table.locator("button[aria-label^='position 1']").first).to_be_visible()
    expect(table.locator(".hk-message")).to_have_attribute("role", "log")
    hand.first.click()
    expect(hand.first).to_have_attribute("aria-pressed", "true")
    for card in [hand.first, hand.last, table.locator("button[aria-label^='position ']").first]:
        card.focus()
        expect(card).to_have_css("outline-width", "3px")
        expect(card).to_have_css("outline-style", "solid")


def test_the_side_panel_lists_the_moves_and_marks_the_last_beside_the_table(
    page: Page, voila: str, expect_evaluated: Evaluated
) -> None:
    from playwright.sync_api import expect

    page.set_viewport_size(WIDE)
    open_page(page, f"{voila}/voila/render/sombrero.ipynb")
    page.get_by_role("button", name="open this game on a table").click()  # the replay is built when asked for
    table = page.locator(".hk-table").filter(has=page.locator(".hk-movelist li:nth-child(3)")).first
    moves = table.locator(".hk-movelist li")
    expect(moves.last).to_have_attribute("aria-current", "step")
    table.get_by_role("button", name="first", exact=True).click()
    expect(table.locator(".hk-movelist [aria-current]")).to_have_count(0)
    table.get_by_role("button", name="forward", exact=True).click()
    expect(moves.first).to_have_attribute("aria-current", "step")
    edges = "(t) => [t.querySelector('.hk-area'), t.querySelector('.hk-side')].map((e) => e.getBoundingClientRect())"
    expect_evaluated(table, f"(t) => {{ const [area, side] = ({edges})(t); return side.left >= area.right; }}", True)


# The move lists whose last number does not fit the room left of it, as sentences (none when all fit). A list's
# numbers are drawn in its margin, and the panel around it scrolls, so it cuts what lies outside it: measured in
# the item's font, bold as the current move is, with the ". " after the number.
MOVE_NUMBERS_CUT = """(root) => {
  const pen = root.ownerDocument.createElement("canvas").getContext("2d");
  return [...root.ownerDocument.querySelectorAll(".hk-movepanel ol.hk-movelist")].flatMap((list) => {
    const style = getComputedStyle(list.lastElementChild);
    pen.font = `700 ${style.fontSize} ${style.fontFamily}`;
    const number = `${list.start + list.children.length - 1}. `;
    const [needed, room] = [pen.measureText(number).width, parseFloat(getComputedStyle(list).paddingLeft)];
    return needed > room ? [`"${number}" needs ${Math.round(needed)} px, its list leaves ${Math.round(room)}`] : [];
  });
}"""


def test_a_long_games_move_numbers_show_whole_in_its_panel(page: Page, voila: str, expect_evaluated: Evaluated) -> None:
    """Issue 41: a number of three digits lost its first digit at the move panel's left edge (a tester read "l30."),
    in Hats Off!'s finished game of 103 moves."""
    from playwright.sync_api import expect

    page.set_viewport_size(WIDE)
    open_page(page, f"{voila}/voila/render/hats_off.ipynb")
    page.get_by_role("button", name="open this game on a table").click()
    expect(page.locator(".hk-movelist li:nth-child(100)")).to_be_attached()
    expect_evaluated(page.locator("html"), MOVE_NUMBERS_CUT, [])


def test_the_loading_spinner_turns_in_steps_and_stands_still_for_less_motion(
    page: Page, voila: str, expect_evaluated: Evaluated
) -> None:
    """Voilà's spinner while a page loads turns in eight steps a turn, and not at all for a reader asking less motion.

    The page's scripts are held back here, so that the spinner stays (the page template hatskit).
    """
    page.route("**/voila/static/voila.js", lambda route: route.abort())
    page.goto(f"{voila}/voila/render/hats.ipynb")
    spinner = page.locator("#loading .spinner")
    turning = "(s) => [getComputedStyle(s).animationName, getComputedStyle(s).animationTimingFunction]"
    expect_evaluated(spinner, turning, ["rotation", "steps(8)"])
    page.emulate_media(reduced_motion="reduce")
    expect_evaluated(spinner, "(s) => getComputedStyle(s).animationName", "none")


# The WCAG contrast of an element's text against the first background behind it that is not transparent.
CONTRAST = f"""(el) => {{
  {WCAG_CONTRAST}
  let behind = el, colour = "rgb(255, 255, 255)";
  for (; behind; behind = behind.parentElement) {{
    const c = getComputedStyle(behind).backgroundColor, v = c.match(/[\\d.]+/g).map(Number);
    if (v.length < 4 || v[3] > 0) {{ colour = c; break; }}
  }}
  return contrast(getComputedStyle(el).color, colour) >= 4.5;
}}"""


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_race_pads_words_meet_wcag_aa_in_both_themes(
    page: Page, voila: str, theme: str, expect_evaluated: Evaluated
) -> None:
    """The pad stayed cream in the dark theme while its words turned white (issue 25)."""
    page.set_viewport_size(WIDE)
    open_page(page, f"{voila}/voila/render/hats_off.ipynb?theme={theme}")
    pad = page.locator(".hk-table.hk-main .hk-race")
    for part in (".hk-race-prompt", ".hk-race-caption", ".hk-race-pass"):
        expect_evaluated(pad.locator(part).first, CONTRAST, True)
