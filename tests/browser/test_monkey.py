"""Every game page gets 300 seeded random clicks and key presses, then no error anywhere and the page still plays.

Each game notebook found in notebooks/ is opened in Voilà (served as `make app`
does) and gets random clicks on the buttons of its tables and random key
presses. Afterwards the kernel log (Voilà's output: a kernel's traceback is
printed there) holds no traceback, the browser reported no console error and no
uncaught page error, and a click on the first table is still answered.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import ConsoleMessage, Locator, Page

    from tests.conftest import Server

REPO = Path(__file__).resolve().parents[2]
GAME_NOTEBOOKS = ("hats", "sombrero", "hats_off", "madder_than_a_hatter")
PAGES = sorted(name for name in GAME_NOTEBOOKS if (REPO / "notebooks" / f"{name}.ipynb").exists())
ACTIONS = 300
PAUSE_MS = 20
CLICK_MS = 1_000  # a button that vanished under the monkey's finger is skipped after this long
KEYS = ("Enter", " ", "Tab", "Shift+Tab", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Escape", "1", "x")
# Voilà's page template asks a CDN for MathJax; on a machine without internet that request fails and Chromium logs
# it as a console error. It says nothing about the app, so it alone is set aside.
OFFLINE = "Failed to load resource: net::ERR_NAME_NOT_RESOLVED"
CHANGED = "([element, before]) => element.innerHTML !== before"


@pytest.fixture(scope="module")
def server(serve_app: Callable[..., Server]) -> Server:
    """A Voilà of its own, so that its log holds only what these pages caused."""
    return serve_app()


@pytest.fixture
def errors(page: Page) -> list[str]:
    """The browser's console errors and uncaught page errors, as they come."""
    seen: list[str] = []

    def console(message: ConsoleMessage) -> None:
        if message.type == "error" and message.text != OFFLINE:
            seen.append(f"console: {message.text}")

    page.on("console", console)
    page.on("pageerror", lambda error: seen.append(f"page error: {error}"))
    return seen


def monkey(page: Page, tables: Locator, rng: random.Random) -> None:
    """``ACTIONS`` random clicks on the tables' buttons and key presses."""
    for _ in range(ACTIONS):
        buttons = tables.locator("button:visible:enabled")  # a disabled button would hold the monkey CLICK_MS
        count = buttons.count()
        if count and rng.random() < 0.75:
            try:
                buttons.nth(rng.randrange(count)).click(timeout=CLICK_MS)
            except Exception as error:
                if "Timeout" not in type(error).__name__:
                    raise
        else:
            page.keyboard.press(rng.choice(KEYS))
        page.wait_for_timeout(PAUSE_MS)


@pytest.mark.parametrize("name", PAGES)
def test_random_clicks_and_keys_break_nothing(page: Page, server: Server, errors: list[str], name: str) -> None:
    from playwright.sync_api import expect

    page.goto(f"{server.url}/voila/render/{name}.ipynb")
    table = page.locator(".hk-table").first
    expect(table).to_be_visible()
    log_start = len(server.log.read_text(errors="replace"))
    monkey(page, page.locator(".hk-table"), random.Random(f"monkey {name}"))
    still_plays(table)  # the kernel answers in order: once this click is answered, so are all the monkey's
    assert not errors, f"the browser reported errors on {name}: {errors[:5]}"
    kernel_log = server.log.read_text(errors="replace")[log_start:]
    assert "Traceback" not in kernel_log, f"the kernel log of {name} shows a traceback:\n{kernel_log[-3000:]}"


def still_plays(table: Locator) -> None:
    """A click on the table's "new game" button (its first button) is still answered: the table changes."""
    page = table.page
    before = table.inner_html()
    table.locator("button:visible").first.click()
    page.wait_for_function(CHANGED, arg=[table.element_handle(), before])
