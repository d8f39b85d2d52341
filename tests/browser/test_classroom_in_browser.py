"""Every page as a classroom meets it: a school network that blocks the internet, keyboards, screen readers.

A served page must ask nothing of any server but its own (every other request
is aborted here and fails the test), and log no console error or warning the
project causes. The one kind of warning allowed is Voilà's own: its page core
is built on JupyterLab 4.2.5 while its widget manager (and ipywidgets'
JupyterLab extension) ask for a newer one ("Unsatisfied version 4.2.5 from
_JUPYTERLAB.CORE_OUTPUT ..."); they share the older modules, which work, and
only a newer Voilà can silence that.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.browser.conftest import REPO

if TYPE_CHECKING:
    from playwright.sync_api import ConsoleMessage, Locator, Page, Route

NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
GAME_PAGES = [notebook for notebook in NOTEBOOKS if notebook.stem != "index"]
VOILA_CORE_VERSION = re.compile(r"^(Unsatisfied version|No satisfying version) .*_JUPYTERLAB\.CORE_OUTPUT", re.S)
SERIOUS = ("serious", "critical")
OWN_SERVER = re.compile(r"^(https?|wss?)://127\.0\.0\.1[:/]")


class Watch:
    """What a page asked of other servers, and the console errors and warnings it logged."""

    def __init__(self, page: Page) -> None:
        self.outside: list[str] = []
        self.console: list[str] = []
        page.route("**/*", self._route)
        page.on("console", self._console)

    def _route(self, route: Route) -> None:
        if OWN_SERVER.match(route.request.url):
            route.continue_()
        else:
            self.outside.append(route.request.url)
            route.abort()

    def _console(self, message: ConsoleMessage) -> None:
        if message.type in ("error", "warning") and not VOILA_CORE_VERSION.match(message.text):
            self.console.append(f"{message.type}: {message.text}")


@pytest.fixture
def watch(page: Page) -> Iterator[Watch]:
    yield Watch(page)


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda notebook: notebook.stem)
def test_page_asks_no_other_server_and_logs_no_warning(page: Page, watch: Watch, voila: str, notebook: Path) -> None:
    from playwright.sync_api import expect

    page.goto(f"{voila}/voila/render/{notebook.name}")
    if notebook in GAME_PAGES:
        expect(page.locator(".hk-table").first).to_be_visible()
        expect(page.locator(".hk-table .hk-message").first).not_to_be_empty()
    else:
        expect(page.locator("h1").first).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert watch.outside == []
    assert watch.console == []


def test_a_link_sets_the_table_up_and_copy_link_gives_it_back(page: Page, voila: str) -> None:
    from playwright.sync_api import expect

    query = "seed=42&players=4&seats=reader,strong,reader,greedy"
    page.goto(f"{voila}/voila/render/hats.ipynb?{query}")
    table = page.locator(".hk-table").first
    expect(table.locator(".hk-seat")).to_have_count(4)
    expect(table.get_by_label("deal number")).to_have_value("42")
    table.get_by_role("button", name="copy link").click()
    expect(table.locator(".hk-copybox")).to_have_value(re.compile(rf"^{re.escape(voila)}/voila/render/hats\.ipynb\?"))
    expect(table.locator(".hk-copybox")).to_have_value(
        re.compile(r"[?&]seed=42&players=4&.*seats=reader,strong,reader,greedy")
    )


def test_a_bad_link_says_why_over_the_usual_table(page: Page, voila: str) -> None:
    from playwright.sync_api import expect

    page.goto(f"{voila}/voila/render/sombrero.ipynb?seats=reader,dragon")
    table = page.locator(".hk-table").first
    expect(table.locator(".hk-message")).to_contain_text("This page's link could not be used")
    expect(table.locator(".hk-message")).to_contain_text("dragon")


def test_copy_position_warns_and_a_bad_code_changes_nothing(page: Page, voila: str) -> None:
    from playwright.sync_api import expect

    page.goto(f"{voila}/voila/render/sombrero.ipynb")
    table = page.locator(".hk-table").first
    table.get_by_role("button", name="copy position").click()
    expect(table.locator(".hk-message")).to_contain_text("holds every hidden card")
    expect(table.locator(".hk-copybox")).to_have_value(re.compile(r"^[A-Za-z0-9_-]{40,}$"))
    board = table.locator(".hk-area")
    before = board.inner_text()
    table.get_by_label("position code").fill("not-a-code")
    table.get_by_role("button", name="load position").click()
    expect(table.locator(".hk-message")).to_contain_text("No position loaded")
    expect(board).to_have_text(before, use_inner_text=True)


def open_play_table(page: Page, url: str) -> Locator:
    """The page's play table (the one its link sets up), once its message line and its helper are there."""
    from playwright.sync_api import expect

    page.goto(url)
    table = page.locator(".hk-table.hk-main")
    expect(table.locator(".hk-message")).not_to_be_empty()
    expect(table.locator(".hk-message")).to_have_attribute("aria-live", "polite")
    return table


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda notebook: notebook.stem)
def test_axe_finds_no_serious_or_critical_violation(page: Page, voila: str, notebook: Path) -> None:
    from axe_playwright_python.sync_playwright import Axe

    if notebook in GAME_PAGES:
        open_play_table(page, f"{voila}/voila/render/{notebook.name}")
    else:
        page.goto(f"{voila}/voila/render/{notebook.name}")
    violations = Axe().run(page).response["violations"]
    serious = [(v["id"], v["impact"], v["nodes"][0]["target"]) for v in violations if v["impact"] in SERIOUS]
    assert serious == []


def test_the_sombrero_board_is_one_tab_stop_moved_with_the_arrow_keys(page: Page, voila: str) -> None:
    from playwright.sync_api import expect

    table = open_play_table(page, f"{voila}/voila/render/sombrero.ipynb")
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
    expect(table.locator("button.hk-sq[aria-label^='h1: ']")).to_have_attribute("aria-pressed", "true")
    expect(page.locator(":focus")).to_have_css("outline-width", "3px")
    page.keyboard.press("Space")
    expect(table.locator("button.hk-sq[aria-label^='h1: ']")).to_have_attribute("aria-pressed", "false")


def test_hats_controls_are_named_and_the_focus_ring_shows_on_every_card(page: Page, voila: str) -> None:
    from playwright.sync_api import expect

    table = open_play_table(page, f"{voila}/voila/render/hats.ipynb")
    hand = table.locator("button.hk-card[aria-label$=' in your hand']")
    expect(hand.first).to_be_visible()
    expect(table.locator("button[aria-label^='position 1']").first).to_be_visible()
    expect(table.locator(".widget-slider [role=slider]")).to_have_attribute("aria-label", re.compile("move"))
    expect(table.locator(".hk-message")).to_have_attribute("role", "log")
    hand.first.click()
    expect(hand.first).to_have_attribute("aria-pressed", "true")
    for card in [hand.first, hand.last, table.locator("button[aria-label^='position ']").first]:
        card.focus()
        expect(card).to_have_css("outline-width", "3px")
        expect(card).to_have_css("outline-style", "solid")
