"""Browser fixtures: Voilà serving notebooks/ as `make app` does, and Debian's Chromium driven by Playwright.

Where no browser exists the browser tests skip with a message saying so; with
HATSKIT_REQUIRE_BROWSER=1 (CI sets it) they fail instead, so CI cannot pass
without having really run them.

Every check of the page waits for its condition (Playwright's `expect`, or the
`expect_evaluated` fixture below): a widget page draws its parts one by one after it
loads, and on a busy machine a single early read sees half a table.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import pytest

from tablehost.server import Settings, TableServer
from widgets.table.frame import BOT_DELAY_ENV

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Locator, Page, Playwright, Request

    from tests.conftest import Server

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / "config"  # voila.json and voila.py; `make app` puts this directory on JUPYTER_CONFIG_PATH
DATA = REPO / "share" / "jupyter"  # the page template; `make app` puts this directory on JUPYTER_PATH
VOILA = Path(sys.executable).with_name("voila")  # the console script `make app` runs, from this environment
CHROMIUM = Path("/usr/bin/chromium")
BRISK_BOTS = f"{BOT_DELAY_ENV}=0.05"  # a page bot's pause before its move (0.8 s, or 1.5 in Hats Off!, for a class)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
GAME_TABLE = ".hk-table:not(.hk-lesson-table)"  # a game page's own tables; the lessons' table is tested on its own
VIEWPORT = {"width": 1280, "height": 1600}  # a test's page: a laptop's width, tall enough for a table and its panels
# What a test leaves in its tabs' origins, all cleared after it (Chromium's DevTools protocol, Storage domain).
FORGOTTEN = "cookies,local_storage,indexeddb,service_workers,cache_storage,file_systems,websql,shared_storage"
WIDGET_TIMEOUT_MS = 120_000  # a Voilà page runs its whole notebook before the widgets show


def app_command(directory: Path, *options: str, host: str | None = None, brisk: bool = False) -> list[str]:
    """`make app`'s command for a free port: Voilà serving ``directory``, config/ on JUPYTER_CONFIG_PATH, share/jupyter
    on JUPYTER_PATH, and the kernels told where the class's table host is (``host``, TABLETOP_URL).

    ``options`` are further settings on the command line, after the config files
    (the kernel tests shorten the culling times with them). ``brisk`` shortens a page bot's pause
    (BRISK_BOTS): the tests wait on what the page shows, and a whole game's pauses would be most of their time.
    """
    paths = [f"JUPYTER_CONFIG_PATH={CONFIG}", f"JUPYTER_PATH={DATA}", *([f"TABLETOP_URL={host}"] if host else [])]
    paths += [BRISK_BOTS] if brisk else []
    return ["env", *paths, str(VOILA), "--port={port}", *options, str(directory)]


def compile_bytecode() -> None:
    """Write hatskit's and widgets' bytecode, as `make app` does before it serves (the Makefile says why)."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", "hatskit", "widgets"], cwd=REPO, check=True)


def not_run(message: str) -> None:
    """Skip with ``message``, loudly; where HATSKIT_REQUIRE_BROWSER=1 (CI), fail with it instead."""
    if os.environ.get("HATSKIT_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{message}, and HATSKIT_REQUIRE_BROWSER=1 requires them", pytrace=False)
    pytest.skip(message)


def wait_until_evaluates(locator: Locator, script: str, expected: Any) -> None:
    """Wait until the JavaScript function ``script`` of the located element returns ``expected`` (as JSON).

    On a timeout it fails with the last value seen, as an assert would.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    condition = f"([element, expected]) => JSON.stringify(({script})(element)) === JSON.stringify(expected)"
    try:
        locator.page.wait_for_function(condition, arg=[locator.element_handle(), expected])
    except PlaywrightTimeout:
        assert locator.evaluate(script) == expected
        raise


def expect_refusal(table: Locator, reason: str) -> None:
    """Wait until the message line refuses with the engine's ``reason`` as a student reads it: the sentence
    without its rule ids, which wait, named, behind "why?" (``hatskit.drawing.told_html``)."""
    from playwright.sync_api import expect

    from hatskit.drawing import RULE_ID, rule_name, without_rules

    message = table.locator(".hk-message.hk-error")
    text, rules = without_rules(reason)
    expect(message).to_contain_text(text)
    for rule in rules:
        expect(message.locator("details.hk-why")).to_contain_text(rule_name(rule))
    shown = message.evaluate(WITHOUT_WHY)
    assert not RULE_ID.search(shown), f"a rule id in what the student reads first: {shown!r}"


# A script's ``contrast(a, b)``: the WCAG contrast ratio of two CSS colours, in any form the page accepts (a hex
# value, a computed rgb(a)), an alpha left out. Put at the start of a function's body.
WCAG_CONTRAST = """const contrast = (a, b) => {
  const rgb = (colour) => { const probe = document.createElement("i"); probe.style.color = colour;
    document.body.append(probe); const seen = getComputedStyle(probe).color; probe.remove();
    return seen.match(/[\\d.]+/g).map(Number); };
  const lum = (c) => rgb(c).slice(0, 3).map((v) => v / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const [light, dark] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
};"""
# The message line's text without its folded "why?".
WITHOUT_WHY = """(line) => {
  const copy = line.cloneNode(true);
  for (const why of copy.querySelectorAll("details")) why.remove();
  return copy.textContent;
}"""


def open_share(table: Locator) -> None:
    """Open the table's *Share…* fold (copy link, copy position, load position) unless it is open already."""
    from playwright.sync_api import expect

    fold = table.locator("details.hk-share")
    if fold.get_attribute("open") is None:
        fold.locator("summary").click()
    expect(fold).to_have_attribute("open", "")


def missing_browser() -> str | None:
    """Why the browser tests cannot run on this machine, or None when they can."""
    if not CHROMIUM.exists():
        return f"{CHROMIUM} not found (on Debian: apt-get install chromium)"
    if importlib.util.find_spec("playwright") is None:
        return "the playwright package is not installed (pip install -e '.[test]')"
    return None


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    """Playwright, or a loud skip (a failure under HATSKIT_REQUIRE_BROWSER=1) where there is no browser.

    Module-scoped: Playwright's sync API keeps an asyncio loop running in this
    thread while it is open, which would break later tests that run a loop.
    """
    reason = missing_browser()
    if reason is not None:
        not_run(f"BROWSER TESTS NOT RUN: {reason}")
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=WIDGET_TIMEOUT_MS)  # Playwright's 5 s default is too short on a busy machine
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """Headless Chromium, whose every context starts empty: a test's classmates, each a browser of their own."""
    chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()


class Tabs:
    """One Chromium for the :func:`page` tests that keeps what a student's browser keeps between visits: the HTTP
    cache and V8's compiled scripts. Voilà's page is mostly script, which a fresh context downloads and compiles
    again for every test: what that cost is in benchmarks/README.md ("make test's own time"). Nothing else outlives
    a test (:meth:`forget`).

    Its first tab stays open, blank, all along: once a profile has no tab, Chromium no longer keeps its caches.
    """

    def __init__(self, context: BrowserContext) -> None:
        self.context = context
        self.blank = context.pages[0]
        self.devtools = context.new_cdp_session(self.blank)

    def forget(self, origins: set[str]) -> None:
        """Close every tab but the blank one, and clear all but the caches: cookies, permissions, routes, and the
        storage (local, IndexedDB, service workers...) of every origin in ``origins``."""
        for tab in self.context.pages:
            if tab != self.blank:
                tab.close()
        self.context.clear_cookies()
        self.context.clear_permissions()
        self.context.unroute_all(behavior="ignoreErrors")
        for site in origins:
            self.devtools.send("Storage.clearDataForOrigin", {"origin": site, "storageTypes": FORGOTTEN})


@pytest.fixture(scope="session")
def cache_profile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The profile directory of :class:`Tabs`, kept for the whole run: its caches serve every test file."""
    return tmp_path_factory.mktemp("chromium-cache")


@pytest.fixture(scope="module")
def tabs(playwright: Playwright, cache_profile: Path) -> Iterator[Tabs]:
    context = playwright.chromium.launch_persistent_context(
        cache_profile, executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS, viewport=VIEWPORT
    )
    yield Tabs(context)
    context.close()


@pytest.fixture(scope="session")
def serve_app(start_server: Callable[[list[str], str], Server]) -> Callable[..., Server]:
    """A function that starts Voilà as `make app` does, serving a directory (notebooks/ unless given), on a free port.

    Further arguments are settings for the command line, such as
    ``--MappingKernelManager.cull_interval=5``.
    """

    compile_bytecode()

    def serve(
        directory: Path = REPO / "notebooks", *options: str, host: str | None = None, brisk: bool = False
    ) -> Server:
        return start_server(app_command(directory, *options, host=host, brisk=brisk), "/")

    return serve


@pytest.fixture(scope="session")
def table_host(start_server: Callable[[list[str], str], Server]) -> str:
    """The class's table host as `make app` starts it beside Voilà (loopback; its tables in memory): its URL."""
    server = start_server([sys.executable, "-m", "tablehost", "--bind", "127.0.0.1:{port}"], "/health")
    return server.url.replace("http://", "ws://") + "/ws"


@pytest.fixture(scope="session")
def voila(serve_app: Callable[..., Server], table_host: str) -> str:
    """Base URL of Voilà serving notebooks/ with the repository's config/ and a table host, as `make app` does."""
    return serve_app(host=table_host).url


@pytest.fixture(scope="session")
def brisk_voila(serve_app: Callable[..., Server], table_host: str) -> str:
    """:func:`voila`, its bots pausing 0.2 s before a move rather than a class's 0.8 or 1.5 (BRISK_BOTS): for the
    tests that play whole games, where the pauses would be most of their time. Tests that watch a move's motion
    keep the pace a class has (a bot moving 0.2 s later starts while a student's move still glides)."""
    return serve_app(host=table_host, brisk=True).url


@pytest.fixture(scope="session")
def expect_evaluated() -> Callable[[Locator, str, Any], None]:
    """A function that waits until a JavaScript function of an element returns a value (compared as JSON).

    For checks that no single `expect` assertion makes, such as "the whole table
    shows what it showed before the illegal click".
    """
    return wait_until_evaluates


OUTCOMES = pytest.StashKey[dict[str, pytest.TestReport]]()  # a test's reports by phase ("setup", "call")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[pytest.TestReport]:
    """Each phase's report kept on the test (OUTCOMES), so a fixture can tell at teardown that the test failed."""
    report = yield
    item.stash.setdefault(OUTCOMES, {})[report.when] = report
    return report


@pytest.fixture
def page(tabs: Tabs, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A fresh browser tab, as a student's own browser opens it: no cookie, storage, permission or route of an
    earlier test, only its caches (:class:`Tabs`).

    What the page said on its console, and any error its scripts threw, is printed when the test fails: a table
    that never drew on a busy machine then says why (a widget that failed to load, a kernel that went away).
    """
    origins: set[str] = set()

    def note(asked: Request) -> None:
        if asked.url.startswith("http"):
            parts = urlsplit(asked.url)
            origins.add(f"{parts.scheme}://{parts.netloc}")

    tabs.context.on("request", note)
    tab = tabs.context.new_page()
    tab.set_default_timeout(WIDGET_TIMEOUT_MS)
    said: list[str] = []
    tab.on("console", lambda message: said.append(f"{time.strftime('%X')} {message.type}: {message.text[:500]}"))
    tab.on("pageerror", lambda error: said.append(f"{time.strftime('%X')} uncaught: {error}"))
    yield tab
    tabs.context.remove_listener("request", note)
    tabs.forget(origins)
    if any(report.failed for report in request.node.stash.get(OUTCOMES, {}).values()):
        print("The page's console, as the test failed:", *said[-60:], sep="\n  ")


@pytest.fixture
def open_table(page: Page, assert_rendered: Callable[[str, Path], None]) -> Callable[[str, Path], Locator]:
    """A function that opens a notebook as a Voilà page, checks how it rendered, and returns its first table."""

    def open_first_table(base_url: str, notebook: Path) -> Locator:
        response = page.goto(f"{base_url}/voila/render/{notebook.name}")  # returns once Voilà has run every cell
        assert response is not None
        assert_rendered(response.text(), notebook)  # the page as the server sent it, before any script ran
        table = page.locator(GAME_TABLE).first
        table.wait_for()
        return table

    return open_first_table


# -- what a reader's page is checked for (test_every_reader.py, test_phone_in_browser.py) ----------------------

SERIOUS = ("serious", "critical")
PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1280, "height": 1000}
SHOT_HEIGHT = 3000  # px: a window taller than any table, for its screenshot (snap)

# Where the page scrolls sideways, as a list of sentences (empty when it does not): the table, or any box
# around it, is wider than itself. Every box is checked, not only the document: Voilà's page scrolls inside
# #rendered_cells, so a table too wide for the screen leaves the document as wide as the window.
SIDEWAYS = """(root) => {
  const boxes = new Set();
  for (const table of root.ownerDocument.querySelectorAll(".hk-table")) {
    for (let box = table; box; box = box.parentElement) boxes.add(box);
  }
  return [...boxes].filter((box) => box.scrollWidth > box.clientWidth + 1)
    .map((box) => `${box.id || box.className || box.tagName} is ${box.scrollWidth} px wide in ${box.clientWidth}`);
}"""

# Words wider than the card or control that holds them, as sentences (none when all fit): a card's face (its
# name, its number) or a button's or a fold summary's label past its box's edge, in any of hatskit's views (the
# tables, the exercises, the saved pictures). A card or button while something in it moves is left out: a sliding
# card's transform counts in its button's width. What a closed <details> holds is laid out but not shown.
OVERFLOWING = """(root) => {
  const shown = (e) => e.checkVisibility({ visibilityProperty: true });
  return [...root.ownerDocument.querySelectorAll(".hk :is(.hk-card, button, summary)")]
    .filter((e) => shown(e) && !e.getAnimations({ subtree: true }).length && e.scrollWidth > e.clientWidth + 1)
    .map((e) => `"${e.textContent.trim().slice(0, 20)}" is ${e.scrollWidth} px wide in its ${e.clientWidth} px`)
    .slice(0, 5);
}"""

# A numbered row on more than one line, as sentences: the card buttons of a table's middle (the tea table's
# positions, the assembly line's hats), and an exercise's picture of such a row (its cards with their places
# beneath, .hk-pos), are one row, read left to right, so they share one top.
ROWS_BROKEN = """(root) => {
  const shown = (e) => e.checkVisibility({ visibilityProperty: true });
  const page = root.ownerDocument;
  return [
    ...[...page.querySelectorAll(".hk-table .hk-middle")].map((middle) => middle.querySelectorAll("button.hk-cardbtn")),
    ...[...page.querySelectorAll(".hk-exercise .hk-row")].map((row) => row.querySelectorAll(":scope > .hk-pos")),
  ].flatMap((row) => {
    const cards = [...row].filter(shown).map((card) => card.getBoundingClientRect());
    const tops = cards.map((box) => box.top), first = Math.min(...tops);
    const broken = cards.length && Math.max(...tops) - first >= Math.min(...cards.map((box) => box.height)) / 2;
    return broken ? [`the row of ${cards.length} cards at ${Math.round(first)} px breaks onto another line`] : [];
  });
}"""

# What a phone-width page must not do, as a list of sentences (empty when all is well): scroll sideways, cut a
# visible button's label or let a card's words out of it (OVERFLOWING), break a numbered row (ROWS_BROKEN), squeeze
# a slider, or draw two cards of one row over each other (but a fan or a pile of card backs, drawn overlapping).
PHONE_PROBLEMS = (
    """(root) => {
  const problems = [...("""
    + SIDEWAYS
    + """)(root), ...("""
    + OVERFLOWING
    + """)(root), ...("""
    + ROWS_BROKEN
    + """)(root)];
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
  for (const s of document.querySelectorAll(".hk-table .hk-slider input[type=range]")) {
    if (shown(s) && s.getBoundingClientRect().width < 100) problems.push("slider under 100 px");
  }
  // A seat's face-down cards overlap on purpose: a hand fanned out, a pile stacked up (hatskit/drawing.py).
  const cards = [...document.querySelectorAll(".hk-table .hk-card")].filter(shown)
    .filter((c) => !c.matches(":is(.hk-fan, .hk-stack) > .hk-back")).map((c) => c.getBoundingClientRect());
  for (let i = 0; i < cards.length; i++) for (let j = i + 1; j < cards.length; j++) {
    const [a, b] = [cards[i], cards[j]];
    const overlap = Math.min(a.right, b.right) - Math.max(a.left, b.left) > 2
      && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 2;
    if (overlap) problems.push(`cards overlap at ${Math.round(a.left)},${Math.round(a.top)}`);
  }
  return problems.slice(0, 5);
}"""
)


def open_page(page: Page, url: str) -> None:
    """Open a page and wait until it is drawn: a game page's play table with its live message line."""
    from playwright.sync_api import expect

    page.goto(url)
    if page.locator(".hk-table").count() or "index" not in url:
        table = page.locator(".hk-table.hk-main")
        expect(table.locator(".hk-message")).to_have_attribute("aria-live", "polite")
        expect(table.locator(".hk-card, .hk-sq").first).to_be_visible()
    else:
        expect(page.locator("h1").first).to_be_visible()


def serious_violations(page: Page, whole_page: bool = False) -> list[tuple[str, str, list[Any]]]:
    """axe-core's serious and critical findings on the page: rule, impact and the first few elements.

    axe-core checks a text's contrast only where the text is on the screen, and Voilà's page scrolls inside
    #rendered_cells: what lies below the first screen was never checked (Madder's "2 → 0 pt" lines, dark grey on
    the dark page). ``whole_page`` runs it in a window as tall as the page, so every text is on screen.
    """
    from axe_playwright_python.sync_playwright import Axe

    window = page.viewport_size
    if whole_page and window is not None:
        height = page.evaluate("() => (document.querySelector('#rendered_cells') || document.body).scrollHeight")
        page.set_viewport_size({"width": window["width"], "height": max(window["height"], height)})
    try:
        violations = Axe().run(page).response["violations"]
    finally:
        if whole_page and window is not None:
            page.set_viewport_size(window)
    return [(v["id"], v["impact"], [n["target"] for n in v["nodes"][:3]]) for v in violations if v["impact"] in SERIOUS]


def snap(page: Page, name: str) -> None:
    """Save a screenshot of the play table (the page where there is none) where HATSKIT_SCREENSHOTS asks."""
    directory = os.environ.get("HATSKIT_SCREENSHOTS")
    if not directory:
        return
    path = str(Path(directory) / f"{name}.png")
    table = page.locator(".hk-table.hk-main")
    if not table.count():
        page.screenshot(path=path)  # the first screen of a page without a table (the index)
        return
    # The page scrolls inside Voilà's cell area, which paints only what is in the window: a table taller than a
    # phone's window came out cut off at the top and blank at the bottom. A window taller than the table paints it.
    window = page.viewport_size
    page.set_viewport_size({"width": window["width"], "height": SHOT_HEIGHT})
    table.screenshot(path=path, animations="disabled")
    page.set_viewport_size(window)


# -- a table host in the test's process ------------------------------------------------------------------


class HostThread:
    """A table host on its own asyncio loop in a thread of this process; :meth:`call` runs work on that loop."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self.server = TableServer(Settings(bind="127.0.0.1:0", bot_delay=0.05))
        self.url: str = self.call(self.server.start())

    def call(self, work: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(30)

    def read(self, read: Callable[[], Any]) -> Any:
        """``read()`` on the host's loop, between two of its steps (never while it applies a move)."""

        async def on_loop() -> Any:
            return read()

        return self.call(on_loop())

    def stop(self) -> None:
        self.call(self.server.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)


@pytest.fixture(scope="module")
def own_host() -> Iterator[HostThread]:
    """A table host in this process, for a test module that reads its games (to know what is hidden)."""
    running = HostThread()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def own_app(serve_app: Callable[..., Server], own_host: HostThread) -> str:
    """Voilà serving notebooks/ as `make app` does, its kernels told the address of :func:`own_host`."""
    return serve_app(host=own_host.url).url
