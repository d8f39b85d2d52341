"""Browser fixtures: Voilà serving notebooks/ as `make app` does, and Debian's Chromium driven by Playwright.

Where no browser exists the browser tests skip with a message saying so; with
HATSKIT_REQUIRE_BROWSER=1 (CI sets it) they fail instead, so CI cannot pass
without having really run them.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

    from tests.conftest import Server

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
WIDGET_TIMEOUT_MS = 120_000  # a Voilà page runs its whole notebook before the widgets show


def missing_browser() -> str | None:
    """Why the browser tests cannot run on this machine, or None when they can."""
    if not CHROMIUM.exists():
        return f"{CHROMIUM} not found (on Debian: apt-get install chromium)"
    if importlib.util.find_spec("playwright") is None:
        return "the playwright package is not installed (pip install -e '.[test]')"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Headless Chromium, or a loud skip (a failure under HATSKIT_REQUIRE_BROWSER=1) where there is none.

    Module-scoped: Playwright's sync API keeps an asyncio loop running in this
    thread while it is open, which would break later tests that run a loop.
    """
    reason = missing_browser()
    if reason is not None:
        message = f"BROWSER TESTS NOT RUN: {reason}"
        if os.environ.get("HATSKIT_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{message}, and HATSKIT_REQUIRE_BROWSER=1 requires them", pytrace=False)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def voila(start_server: Callable[[list[str], str], Server]) -> str:
    """Base URL of Voilà serving notebooks/ with the repository's voila.json, as `make app` does."""
    return start_server([sys.executable, "-m", "voila", "--port={port}", "notebooks"], "/").url


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A fresh browser tab (its own context: no state shared between tests)."""
    context = browser.new_context(viewport={"width": 1280, "height": 1600})
    tab = context.new_page()
    tab.set_default_timeout(WIDGET_TIMEOUT_MS)
    yield tab
    context.close()


@pytest.fixture
def open_table(page: Page, assert_rendered: Callable[[str, Path], None]) -> Callable[[str, Path], Locator]:
    """A function that opens a notebook as a Voilà page, checks how it rendered, and returns its first table."""

    def open_first_table(base_url: str, notebook: Path) -> Locator:
        page.goto(f"{base_url}/voila/render/{notebook.name}")  # returns once Voilà has run every cell
        assert_rendered(page.content(), notebook)
        table = page.locator(".hk-table").first
        table.wait_for()
        return table

    return open_first_table
