"""Kernels in a browser: a text page starts none, a game page starts one, and every page gives its kernel back.

Voilà runs one kernel (a Python process of its own) for each game page. Each
test here serves notebooks/ with a Voilà of its own, started as `make app`
starts it (config/ on JUPYTER_CONFIG_PATH), and counts that server's kernels:
its child processes running ipykernel.

- The index shows no live widget, so config/voila.py answers it from its saved
  outputs: no kernel starts, and its link still opens a game page (with one).
- A page left normally (a link, the address bar, closing the tab) posts Voilà's
  shutdown request with the `_xsrf` cookie that config/voila.py sets: the kernel
  stops at once, without the "'_xsrf' argument missing" refusal. These tests
  turn culling off, so only that request can stop the kernel.
- A tab that vanishes without an unload event (a crash, a killed browser, a lost
  connection) leaves its kernel idle and unconnected: the culler stops it. The
  culler never stops a kernel whose page is still connected, however long it
  idles. This test shortens voila.json's culling times on the command line.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import psutil
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import GAME_TABLE
from tests.conftest import NOTEBOOK_DIR, REPO

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from tests.conftest import Server

IDLE_SECONDS, INTERVAL_SECONDS = 20, 2  # shorter than voila.json's, twice what a busy machine takes to load a page
CULLING = (
    f"--MappingKernelManager.cull_idle_timeout={IDLE_SECONDS}",
    f"--MappingKernelManager.cull_interval={INTERVAL_SECONDS}",
)
NO_CULLING = ("--MappingKernelManager.cull_idle_timeout=0",)
CLASS_LOADING_SECONDS = 300  # a whole class opening a page at once on a small server (benchmarks/classroom.py)
SHUTDOWN_SECONDS = 30  # a kernel that is asked to stop has this long to end (5 s, then it is killed)
KERNEL_ID = "() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"
CULLED = re.compile(r"Culling '\w+' kernel '[^']*' \(([-\w]+)\)")  # jupyter_server's log line, with the kernel id


def kernels(server: Server) -> int:
    """How many kernels the server runs now: its child processes running ipykernel (finished ones excluded)."""
    count = 0
    for child in psutil.Process(server.process.pid).children():
        try:
            if "ipykernel_launcher" in child.cmdline():
                count += 1
        except (psutil.NoSuchProcess, psutil.ZombieProcess):
            continue
    return count


def wait_for_kernels(server: Server, expected: int, within: float) -> float:
    """Wait until the server runs ``expected`` kernels; return the seconds it took, or fail after ``within``."""
    start = time.monotonic()
    while (count := kernels(server)) != expected:
        if time.monotonic() - start > within:
            log = server.log.read_text()[-3000:]
            pytest.fail(f"{count} kernels, not {expected}, after {within} s; the server's log ends:\n{log}")
        time.sleep(0.25)
    return time.monotonic() - start


def own_server(serve_app: Callable[..., Server], options: tuple[str, ...]) -> Iterator[Server]:
    """`make app`'s Voilà with ``options``, for one test, stopped (with its kernels) after it."""
    server = serve_app(NOTEBOOK_DIR, *options)
    assert kernels(server) == 0
    yield server
    server.process.terminate()
    server.process.wait(timeout=60)


@pytest.fixture
def server(serve_app: Callable[..., Server]) -> Iterator[Server]:
    """`make app`'s Voilà with culling off: only a page's own shutdown request can stop its kernel."""
    yield from own_server(serve_app, NO_CULLING)


@pytest.fixture
def culling_server(serve_app: Callable[..., Server]) -> Iterator[Server]:
    """`make app`'s Voilà with voila.json's culling, its times shortened."""
    yield from own_server(serve_app, CULLING)


def open_game(page: Page, server: Server, notebook: str) -> str:
    """Open a game page, wait until its table shows; return the id of the page's kernel."""
    page.goto(f"{server.url}/voila/render/{notebook}")
    expect(page.locator(GAME_TABLE).first).to_be_visible()
    return page.evaluate(KERNEL_ID)


def test_the_index_starts_no_kernel_and_its_link_opens_a_game_that_has_one(page: Page, server: Server) -> None:
    page.goto(f"{server.url}/voila/render/index.ipynb")  # a kernel would start before the page is sent
    expect(page.locator("h1").first).to_be_visible()
    assert kernels(server) == 0
    page.locator('a[href="hats.ipynb"], a[href$="/hats.ipynb"]').first.click()
    expect(page.locator(GAME_TABLE).first).to_be_visible()
    wait_for_kernels(server, 1, within=SHUTDOWN_SECONDS)


def test_a_page_left_or_closed_stops_its_kernel_at_once(page: Page, server: Server) -> None:
    open_game(page, server, "hats.ipynb")
    second_tab = page.context.new_page()
    open_game(second_tab, server, "sombrero.ipynb")
    wait_for_kernels(server, 2, within=SHUTDOWN_SECONDS)
    page.goto(f"{server.url}/voila/render/index.ipynb")  # leaving the page, as a link or the address bar does
    wait_for_kernels(server, 1, within=SHUTDOWN_SECONDS)
    second_tab.close(run_before_unload=True)  # closing the tab as a reader does
    wait_for_kernels(server, 0, within=SHUTDOWN_SECONDS)
    assert "_xsrf" not in server.log.read_text()


def test_a_vanished_tab_is_culled_and_a_connected_one_never(page: Page, culling_server: Server) -> None:
    server = culling_server
    open_game(page, server, "sombrero.ipynb")
    vanishing_tab = page.context.new_page()
    vanished = open_game(vanishing_tab, server, "hats.ipynb")  # busy last: idle for less time than the first page
    wait_for_kernels(server, 2, within=SHUTDOWN_SECONDS)
    vanishing_tab.close()  # no unload event, no shutdown request: only the culler can stop its kernel
    wait_for_kernels(server, 1, within=IDLE_SECONDS + INTERVAL_SECONDS + SHUTDOWN_SECONDS)
    # The culler looked at both kernels when it stopped the vanished one, and the first page's had idled longer.
    assert CULLED.findall(server.log.read_text()) == [vanished]
    table = page.locator(GAME_TABLE).first  # the connected page still answers: a piece picked up lights squares
    table.locator('button[title^="e1:"]').click()
    expect(table.locator("button.hk-legal").first).to_be_visible()


def test_voila_json_spares_a_class_loading_at_once_and_reclaims_a_vanished_tab_within_six_minutes() -> None:
    culling = json.loads((REPO / "config" / "voila.json").read_text())["MappingKernelManager"]
    assert culling["cull_connected"] is False
    # A page's kernel idles unconnected until its page is drawn: 30 tabs opened at once on 2 cores took minutes.
    assert culling["cull_idle_timeout"] >= CLASS_LOADING_SECONDS
    worst_case = culling["cull_idle_timeout"] + culling["cull_interval"] + SHUTDOWN_SECONDS
    assert worst_case <= 6 * 60
