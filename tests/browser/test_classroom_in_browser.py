"""Every page as a classroom meets it: a school network that blocks the internet, links and position codes.

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

from tests.browser.conftest import GAME_TABLE, open_share
from tests.conftest import NOTEBOOKS

if TYPE_CHECKING:
    from playwright.sync_api import ConsoleMessage, Page, Route

GAME_PAGES = [notebook for notebook in NOTEBOOKS if notebook.stem != "index"]
VOILA_CORE_VERSION = re.compile(r"^(Unsatisfied version|No satisfying version) .*_JUPYTERLAB\.CORE_OUTPUT", re.S)
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
        expect(page.locator(GAME_TABLE).first).to_be_visible()
        expect(page.locator(f"{GAME_TABLE} .hk-message").first).not_to_be_empty()
    else:
        expect(page.locator("h1").first).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert watch.outside == []
    assert watch.console == []


def test_a_link_sets_the_table_up_and_copy_link_gives_it_back(page: Page, voila: str) -> None:
    from playwright.sync_api import expect

    query = "seed=42&players=4&seats=reader,strong,reader,greedy"
    page.goto(f"{voila}/voila/render/hats.ipynb?{query}")
    table = page.locator(GAME_TABLE).first
    expect(table.locator(".hk-seat")).to_have_count(4)
    expect(table.get_by_label("deal number")).to_have_value("42")
    open_share(table)
    table.locator(".hk-share").get_by_role("button", name="copy link").click()
    expect(table.locator(".hk-share .hk-copybox")).to_have_value(
        re.compile(rf"^{re.escape(voila)}/voila/render/hats\.ipynb\?")
    )
    expect(table.locator(".hk-share .hk-copybox")).to_have_value(
        re.compile(r"[?&]seed=42&players=4&.*seats=reader,strong,reader,greedy")
    )


def test_a_bad_link_says_why_over_the_usual_table(page: Page, voila: str) -> None:
    from playwright.sync_api import expect

    page.goto(f"{voila}/voila/render/sombrero.ipynb?seats=reader,dragon")
    table = page.locator(GAME_TABLE).first
    expect(table.locator(".hk-message")).to_contain_text("This page's link could not be used")
    expect(table.locator(".hk-message")).to_contain_text("dragon")


def test_copy_position_warns_and_a_bad_code_changes_nothing(page: Page, voila: str) -> None:
    from playwright.sync_api import expect

    page.goto(f"{voila}/voila/render/sombrero.ipynb")
    table = page.locator(GAME_TABLE).first
    open_share(table)
    table.locator(".hk-share").get_by_role("button", name="copy position").click()
    expect(table.locator(".hk-message")).to_contain_text("holds every hidden card")
    expect(table.locator(".hk-share .hk-copybox")).to_have_value(re.compile(r"^[A-Za-z0-9_-]{40,}$"))
    board = table.locator(".hk-area")
    before = board.inner_text()
    table.get_by_label("position code").fill("not-a-code")
    table.get_by_role("button", name="load position").click()
    expect(table.locator(".hk-message")).to_contain_text("No position loaded")
    expect(board).to_have_text(before, use_inner_text=True)
