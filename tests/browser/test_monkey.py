"""Every game page gets 300 seeded random clicks and key presses, then no error anywhere and the page still plays.

Each game notebook found in notebooks/ is opened in Voilà (served as `make app`
does) and gets random clicks on the buttons of its tables and random key
presses. Afterwards the kernel log (Voilà's output: a kernel's traceback is
printed there) holds no traceback, the browser reported no console error, no
uncaught page error and no request for the widgets' states left unanswered,
and a click on the first table is still answered. The clicks are the same on
every run; HATSKIT_MONKEY_SEED=<text> draws others, to look further.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from tests.browser.conftest import GAME_TABLE, open_share
from tests.conftest import GAME_NOTEBOOKS

if TYPE_CHECKING:
    from playwright.sync_api import ConsoleMessage, Locator, Page

    from tests.conftest import Server

PAGES = sorted(GAME_NOTEBOOKS)
ACTIONS = 300
PAUSE_MS = 20
# One random enabled, shown button of the tables, scrolled into view: the centre to click, or null when none.
AIM = """(pick) => {
  const buttons = [...document.querySelectorAll(".hk-table button")].filter(b => !b.disabled && b.offsetParent);
  if (!buttons.length) return null;
  const button = buttons[Math.floor(pick * buttons.length)];
  button.scrollIntoView({ block: "center" });
  const box = button.getBoundingClientRect();
  return [box.x + box.width / 2, box.y + box.height / 2];
}"""
KEYS = ("Enter", " ", "Tab", "Shift+Tab", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Escape", "1", "x")
# Voilà's page template asks a CDN for MathJax; on a machine without internet that request fails and Chromium logs
# it as a console error. It says nothing about the app, so it alone is set aside.
OFFLINE = "Failed to load resource: net::ERR_NAME_NOT_RESOLVED"
# Voilà's widget manager asks the kernel for every widget's state in one request; unanswered within 4 s, it asks
# for the list of comms (this message) and then widget by widget, without a word in the console. A page that
# sends it found its kernel failing that request.
STATES_UNANSWERED = "comm_info_request"


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

    def sent(payload: str | bytes) -> None:
        if STATES_UNANSWERED in (payload if isinstance(payload, str) else payload.decode("latin-1")):
            seen.append("the kernel did not answer the page's request for every widget's state")

    page.on("console", console)
    page.on("websocket", lambda socket: socket.on("framesent", sent))
    page.on("pageerror", lambda error: seen.append(f"page error: {error}"))
    return seen


def monkey(page: Page, rng: random.Random) -> None:
    """``ACTIONS`` random clicks on the tables' buttons and key presses.

    A click is the mouse's, at the centre of a random enabled button scrolled
    into view: whatever lies on top there gets it, as a reader's click would.
    """
    for _ in range(ACTIONS):
        spot = page.evaluate(AIM, rng.random()) if rng.random() < 0.75 else None
        if spot is None:
            page.keyboard.press(rng.choice(KEYS))
        else:
            page.mouse.click(*spot)
        page.wait_for_timeout(PAUSE_MS)


@pytest.mark.parametrize("name", PAGES)
def test_random_clicks_and_keys_break_nothing(page: Page, server: Server, errors: list[str], name: str) -> None:
    from playwright.sync_api import expect

    page.goto(f"{server.url}/voila/render/{name}.ipynb")
    table = page.locator(GAME_TABLE).first
    expect(table).to_be_visible()
    log_start = len(server.log.read_text(errors="replace"))
    untouched = table.inner_html()
    monkey(page, random.Random(f"monkey {name}{os.environ.get('HATSKIT_MONKEY_SEED', '')}"))
    expect(table).not_to_have_js_property("innerHTML", untouched)  # the clicks reached the table
    still_plays(table)  # the kernel answers in order: once this click is answered, so are all the monkey's
    assert not errors, f"the browser reported errors on {name}: {errors[:5]}"
    kernel_log = server.log.read_text(errors="replace")[log_start:]
    assert "Traceback" not in kernel_log, f"the kernel log of {name} shows a traceback:\n{kernel_log[-3000:]}"


def still_plays(table: Locator) -> None:
    """Two clicks are still answered, in order: "copy position", then "copy link", each shown in the copy box.

    The copy box changes only when asked. The message line would not do: the
    bots may still be narrating the moves the monkey's last click set off, and a
    set-up the monkey left refused ("cards file 1 cannot be read") refuses a
    second "new game" with the same sentence.
    """
    from playwright.sync_api import expect

    box = table.locator(".hk-share .hk-copybox")
    open_share(table)  # the monkey may have folded it
    table.locator(".hk-share").get_by_role("button", name="copy position", exact=True).click()
    expect(box).to_have_value(re.compile(r"^[A-Za-z0-9_-]{20,}$"))  # the position's code
    table.locator(".hk-share").get_by_role("button", name="copy link", exact=True).click()
    expect(box).to_have_value(re.compile(r"^http://127\.0\.0\.1:\d+/voila/render/\S+\?\S*(seed|position)="))
