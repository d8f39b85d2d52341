"""The static site: `make site` builds it, a plain file server serves it, Chromium plays on it with no internet.

The site is built once per session (``make site``: about 30 s, or a minute or
more on a clone whose .venv-site is not installed yet) and served by
``python -m http.server`` on loopback. Every page boots Python in the browser
(Pyodide) and runs its whole notebook before its widgets show, 15 to 40 s a
page here, so the timeouts are generous. These tests carry the ``site`` mark:
``make test`` runs them; ``-m 'not site'`` leaves them out.

Every request the browser makes, the kernel's web worker included, passes a
route that lets through only the site's own address: anything else is blocked
and fails the test.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.browser.conftest import GAME_TABLE
from tests.conftest import NOTEBOOKS, REPO

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page, Route

    from tests.conftest import Server

pytestmark = pytest.mark.site

SITE = REPO / "site"
BOOT_MS = 240_000  # Pyodide's first start and a whole notebook run, on a machine shared by other jobs
CLICK_MS = 30_000  # a click's round trip to the kernel in the page's web worker
ERROR_OUTPUT = '[data-mime-type="application/vnd.jupyter.stderr"], [data-mime-type="application/vnd.jupyter.error"]'


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """site/, built by `make site` once per session; a failed build fails with the end of its log."""
    if shutil.which("npm") is None:
        message = "SITE TESTS NOT RUN: npm not found, and `make site` fetches Pyodide with it (apt-get install npm)"
        if os.environ.get("HATSKIT_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{message}; HATSKIT_REQUIRE_BROWSER=1 requires them", pytrace=False)
        pytest.skip(message)
    log = tmp_path_factory.mktemp("site-build") / "make-site.log"
    with log.open("wb") as sink:
        built = subprocess.run(["make", "site"], cwd=REPO, stdout=sink, stderr=subprocess.STDOUT, check=False)
    if built.returncode != 0:
        pytest.fail(f"`make site` failed ({built.returncode}):\n{log.read_text()[-4000:]}", pytrace=False)
    return SITE


@pytest.fixture(scope="session")
def site_url(built_site: Path, start_server: Callable[[list[str], str], Server]) -> str:
    """The base URL of a plain static file server on loopback, serving site/."""
    command = [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", str(built_site), "{port}"]
    return start_server(command, "/").url


@pytest.fixture
def local_page(page: Page, site_url: str) -> Iterator[Page]:
    """A tab that may load only from the site: any other request is blocked, and fails the test."""
    outside: list[str] = []

    def only_the_site(route: Route) -> None:
        url = route.request.url
        if url.startswith((f"{site_url}/", "data:", "blob:")):
            route.continue_()
        else:
            outside.append(url)
            route.abort()

    page.context.route("**/*", only_the_site)
    yield page
    if outside:
        pytest.fail(f"the page asked for files outside the site: {sorted(set(outside))}", pytrace=False)


def open_app(page: Page, url: str) -> Locator:
    """Open a voici page, wait until its notebook has run and its first table shows; check nothing failed."""
    from playwright.sync_api import expect

    page.goto(url)
    table = page.locator(GAME_TABLE).first
    expect(table).to_be_visible(timeout=BOOT_MS)
    expect(page.locator(ERROR_OUTPUT)).to_have_count(0)
    expect(page.locator("body")).not_to_contain_text("Traceback")
    return table


# -- the build -------------------------------------------------------------------------------------------


def test_site_has_an_app_and_a_lab_copy_of_every_notebook(built_site: Path) -> None:
    missing = [
        str(path.relative_to(built_site))
        for notebook in NOTEBOOKS
        for path in (built_site / "voici" / "render" / f"{notebook.stem}.html", built_site / "files" / notebook.name)
        if not path.exists()
    ]
    assert NOTEBOOKS and not missing, f"pages missing from the site: {missing}"


def test_site_carries_pyodide_and_every_wheel_its_lock_names(built_site: Path) -> None:
    config = json.loads((built_site / "jupyter-lite.json").read_text())["jupyter-config-data"]
    kernel = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    assert kernel["pyodideUrl"] == "./static/pyodide/pyodide.js" and kernel["disablePyPIFallback"] is True
    pyodide = built_site / "static" / "pyodide"
    packages = json.loads((pyodide / "pyodide-lock.json").read_text())["packages"]
    wrong = [
        entry["file_name"]
        for entry in packages.values()
        if not (pyodide / entry["file_name"]).exists()
        or hashlib.sha256((pyodide / entry["file_name"]).read_bytes()).hexdigest() != entry["sha256"]
    ]
    assert not wrong, f"wheels named in the lock file but missing or different: {wrong}"
    preloaded = {name.replace("_", "-") for name in kernel["loadPyodideOptions"]["packages"]}
    assert {"hatskit", "ipywidgets"} <= set(packages) and preloaded <= set(packages)


def test_pages_without_a_live_table_are_plain_html_and_the_lab_has_the_notebooks_as_they_are(built_site: Path) -> None:
    index = (built_site / "voici" / "render" / "index.html").read_text()
    assert "voici.js" not in index and "jupyter-config-data" not in index  # no app, no kernel: it opens at once
    assert 'href="hats.html"' in index and 'href="hats.ipynb"' not in index
    # the apps show tagged cells from their saved outputs; the lab opens each notebook with all its code
    changed = [n.name for n in NOTEBOOKS if (built_site / "files" / n.name).read_bytes() != n.read_bytes()]
    assert not changed, f"the lab's copies differ from notebooks/: {changed}"


# -- the pages -------------------------------------------------------------------------------------------------


def test_front_page_opens_the_course_index_whose_links_all_have_pages(local_page: Page, site_url: str) -> None:
    from playwright.sync_api import expect

    asked: list[str] = []
    local_page.on("request", lambda request: asked.append(request.url))
    local_page.goto(f"{site_url}/")
    expect(local_page).to_have_url(f"{site_url}/voici/render/index.html", timeout=BOOT_MS)
    links = local_page.locator('a[href$=".html"]')
    expect(links.first).to_be_visible(timeout=CLICK_MS)
    assert not [url for url in asked if "pyodide" in url or url.endswith(".whl")], "the index started Python"
    targets = sorted(set(links.evaluate_all("links => links.map(link => link.getAttribute('href'))")))
    missing = [href for href in targets if not (SITE / "voici" / "render" / href).exists()]
    assert targets and not missing, f"the index links to pages the site has not: {missing}"


def pick_a_card_with_an_exchange(table: Locator) -> tuple[str, Locator]:
    """Select the reader's cards in turn until one lights a table position: that card and its first lit position.

    The view marks the table's positions before the hand, so once a card shows
    as selected, the positions it may go to show too.
    """
    from playwright.sync_api import expect

    titles = table.locator('button[title$=" in your hand"]').evaluate_all("cards => cards.map(card => card.title)")
    for title in titles:
        table.locator(f'button[title="{title}"]').click()
        expect(table.locator(f'button.hk-selected[title="{title}"]')).to_be_visible(timeout=CLICK_MS)
        lit = table.locator('button.hk-legal[title^="position "]')
        if lit.count():
            return title.removesuffix(" in your hand"), lit.first
    pytest.fail(f"no card of the reader's hand lights a table position: {titles}")


def test_hats_page_plays_an_exchange_by_clicks(local_page: Page, site_url: str) -> None:
    from playwright.sync_api import expect

    table = open_app(local_page, f"{site_url}/voici/render/hats.html")
    card, target = pick_a_card_with_an_exchange(table)
    number = target.get_attribute("title").split(":")[0].removeprefix("position ")
    target.click()
    expect(table.locator(".hk-message")).to_contain_text(f"exchanged {card} for ", timeout=BOOT_MS)
    expect(table.locator(".hk-message")).to_contain_text(f" at position {number} ")
    expect(table.locator(f'button[title="{card} in your hand"]')).to_have_count(0)


def test_sombrero_page_plays_a_step_by_clicks(local_page: Page, site_url: str) -> None:
    from playwright.sync_api import expect

    table = open_app(local_page, f"{site_url}/voici/render/sombrero.html")
    expect(table.locator('button[title^="e2:"]')).to_have_attribute("title", "e2: empty")
    table.locator('button[title^="e1:"]').click()
    expect(table.locator('button.hk-selected[title^="e1:"]')).to_be_visible(timeout=CLICK_MS)
    table.locator('button[title^="e2:"]').click()
    expect(table.locator(".hk-message")).to_contain_text("White stepped e1-e2", timeout=BOOT_MS)
    expect(table.locator('button[title^="e2:"]')).to_have_attribute(
        "title", "e2: White, hatted; e1-e2 went here in the last move"
    )


def test_lab_opens_a_notebook_with_its_code_and_runs_it(local_page: Page, site_url: str) -> None:
    from playwright.sync_api import expect

    local_page.goto(f"{site_url}/lab/index.html?path=hats.ipynb")
    first_code = local_page.locator(".jp-Notebook .jp-CodeCell").first
    expect(first_code).to_contain_text("import hatskit", timeout=BOOT_MS)
    prompt = first_code.locator(".jp-InputArea-prompt")
    # A cell run before the kernel is connected is only cleared: wait until the status bar says the kernel is idle
    # (the toolbar's indicator reads "idle" for a moment even before there is a kernel).
    expect(local_page.locator("#jp-main-statusbar")).to_contain_text("Python (Pyodide) | Idle", timeout=BOOT_MS)
    first_code.locator(".jp-InputArea-editor").click()
    # The saved notebook already shows [1]: running the cell twice must show [2], which only running can give.
    local_page.keyboard.press("Control+Enter")
    local_page.keyboard.press("Control+Enter")
    expect(prompt).to_have_text("[2]:", timeout=BOOT_MS)
    expect(local_page.locator(f".jp-Notebook {ERROR_OUTPUT}")).to_have_count(0)


def test_hats_lessons_on_the_static_site_remember_where_the_student_stopped(local_page: Page, site_url: str) -> None:
    """The lessons' progress lives in the browser, so the static site (no server at all) keeps it too."""
    from playwright.sync_api import expect

    from tests.browser.test_lessons_in_browser import FIRST_CLICK, LESSON_TABLE, follow_one_step

    open_app(local_page, f"{site_url}/voici/render/hats.html")
    table = local_page.locator(LESSON_TABLE)
    expect(table.locator(".hk-guide")).to_contain_text("Step 1 of", timeout=BOOT_MS)
    follow_one_step(table, FIRST_CLICK["hats"])
    expect(table.locator(".hk-guide")).to_contain_text("Step 2 of", timeout=CLICK_MS)
    local_page.reload()
    guide = local_page.locator(LESSON_TABLE).locator(".hk-guide")
    expect(guide).to_contain_text("Welcome back", timeout=BOOT_MS)
    expect(guide).to_contain_text("Step 2 of")
