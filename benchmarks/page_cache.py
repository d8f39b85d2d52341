"""What a game page's load costs Chromium in a fresh browser context, against a tab of the tests' kept profile.

    PYTHONPATH=. .venv/bin/python benchmarks/page_cache.py [--rounds 4] [--pages hats madder_than_a_hatter]

Why: `make test` is bound by the two cores, and Chromium takes most of them. Most browser tests open a game
page in a tab of their own; Voilà's page loads some 7 MB of script (its own, the widget manager's, anywidget's),
and a fresh context downloads and compiles all of it again. The tests' `page` fixture opens its tab in one
profile kept for the whole run (tests/browser/conftest.py, :class:`Tabs`), whose HTTP cache and V8 code cache
outlive a test while its cookies and storage do not.

What: serves notebooks/ as `make app` does (app.py's `serve`). Each page is loaded ``--rounds`` times in a fresh
context of one Chromium (as a test's classmates are), then ``--rounds`` times in tabs of a kept profile, after two
loads that fill its caches (a script's compiled code is kept from its second load on). A load is the request until
the page is drawn as the tests wait for it (tests/browser/conftest.py, ``open_page``), then one second more; after
it the tab is closed and, in the kept profile, its storage cleared as the tests clear it (``Tabs.forget``).
Measured: the CPU seconds of every Chromium process alive at the load's end (psutil; the tab is still open, so its
renderer counts) and the wall time.

Printed: per page, the medians of both ways and the kept profile's as a ratio of the fresh context's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Page, Playwright

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.app import page_url, serve  # noqa: E402
from benchmarks.processes import chromium_processes, cpu_by_pid  # noqa: E402
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, VIEWPORT, WIDGET_TIMEOUT_MS, Tabs, open_page  # noqa: E402
from tests.conftest import NOTEBOOK_DIR  # noqa: E402

WARM_LOADS = 2  # loads that fill the kept profile's caches before it is measured


def chromium_seconds() -> dict[int, float]:
    """CPU seconds (user and system) of each Chromium process this script started, by pid."""
    return cpu_by_pid(chromium_processes())


def load(page: Page, url: str) -> tuple[float, float]:
    """Chromium's CPU seconds and the wall seconds of loading ``url`` in ``page`` until it is drawn."""
    before, started = chromium_seconds(), time.monotonic()
    open_page(page, url)
    page.wait_for_timeout(1000)
    after = chromium_seconds()
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items()), time.monotonic() - started


def fresh_loads(playwright: Playwright, url: str, rounds: int) -> list[tuple[float, float]]:
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    loads = []
    for _ in range(rounds):
        context = browser.new_context(viewport=VIEWPORT)
        loads.append(load(context.new_page(), url))
        context.close()
    browser.close()
    return loads


def kept_loads(playwright: Playwright, url: str, rounds: int) -> list[tuple[float, float]]:
    with tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, viewport=VIEWPORT
        )
        tabs, origin = Tabs(context), url.split("/voila/")[0]
        loads = []
        for _ in range(WARM_LOADS + rounds):
            loads.append(load(context.new_page(), url))
            tabs.forget({origin})
        context.close()
    return loads[WARM_LOADS:]


def medians(loads: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(cpu for cpu, _ in loads), statistics.median(wall for _, wall in loads)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--pages", nargs="+", default=["hats", "madder_than_a_hatter"])
    options = parser.parse_args()
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=WIDGET_TIMEOUT_MS)

    with serve(NOTEBOOK_DIR) as served, sync_playwright() as playwright:
        for name in options.pages:
            url = page_url(served, name)
            fresh = medians(fresh_loads(playwright, url, options.rounds))
            kept = medians(kept_loads(playwright, url, options.rounds))
            print(
                f"{name}: fresh context {fresh[0]:.2f} CPU-s ({fresh[1]:.1f} s), kept profile {kept[0]:.2f} CPU-s "
                f"({kept[1]:.1f} s): CPU {kept[0] / fresh[0]:.2f}x, wall {kept[1] / fresh[1]:.2f}x"
            )


if __name__ == "__main__":
    main()
