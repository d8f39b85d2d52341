"""The app's pages in Chromium against a trivial one-button notebook served the same way.

    PYTHONPATH=. .venv/bin/python benchmarks/app.py [--rounds 2] [--pool 1]

Serves notebooks/ as `make app` does (config/ on JUPYTER_CONFIG_PATH, a free
loopback port) and, from a second server with the same config, a generated
notebook holding one button that echoes its clicks. Drives Debian's Chromium
(Playwright), visiting the pages in turn, round after round (`interleaved_visits`),
and prints, each as a ratio against the trivial notebook measured in the same
run, with the targets of issue 9:

- *time to interactive* of each game page: from the request until the first
  table's first button is visible and a click on it has changed the table
  (the trivial page: its button shows and a click is echoed), both seen by
  the page itself on the frame they happen in; target 1.3x;
- a *move's latency*: from the click that completes a legal move until the
  table shows all of it (the trivial page: click to echo); target 1.5x. It is
  timed inside the page, from the browser's click event to the last change of
  the table before it stays still for 300 ms, so Playwright's own work around a
  click (finding the button, waiting for it to be still) is not counted;
- a *kernel's memory*: the resident memory of the page's kernel process after
  the move, minus the trivial page's kernel; target +40 MB.

With --pool N it then restarts the game server with `make app POOL=N`
(Voilà's pre-heated kernels, config/voila.py) and prints the memory the pool
holds while nobody reads, and the time to interactive of a page served from it.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import nbformat
import psutil

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, app_command  # noqa: E402  (`make app`'s command)
from tests.conftest import GAME_NOTEBOOKS, NOTEBOOK_DIR, NOTEBOOKS, free_port, stop  # noqa: E402

TIMEOUT_MS = 120_000
MB = 1024 * 1024
KERNEL_GONE_S = 10  # how long a closed tab's kernel may take to stop
# Per game, the first click of a move (a card of the reader's hand, a White piece): the page answers it by
# lighting the legal targets, and a click on the first lit target completes the move.
PICKS = {
    "hats": 'button[title$=" in your hand"]',
    "sombrero": 'button.hk-sq[title*=": White"]',
}
# What a page's first click is aimed at: [the first element matching this, or None for the whole page; the
# controls in it; whether the last one shown is meant rather than the first]. Another game's: its last button.
CONTROLS = {"trivial": [None, "button.bench-button", False]} | {
    name: [".hk-table", pick, False] for name, pick in PICKS.items()
}
OTHER_CONTROL = [".hk-table", "button:enabled", True]
TRIVIAL_CODE = """\
import ipywidgets as widgets

clicks = widgets.Label("no click yet")
button = widgets.Button(description="click me")
button.add_class("bench-button")
button.on_click(lambda _: setattr(clicks, "value", f"click {clicks.value.count('|') + 1} |"))
widgets.VBox([button, clicks])
"""
# The table changed since the given snapshot of its HTML (the answer to a click, whatever it shows).
CHANGED = "([element, before]) => element.innerHTML !== before"
# The opening of a page is watched by the page itself, on every frame (wait_for_function's "raf" polling).
# Playwright's own waits look again after 0, 20, 50, 100 and 100 ms, then every 500 ms: a control that showed
# 0.3 s into the wait was seen up to half a second late (a trace showed the page idle that long), so the time
# to interactive was rounded up by anything from nothing to 0.5 s, at random.
_VISIBLE = """const visible = element => {
  const box = element.getBoundingClientRect();
  return box.width > 0 && box.height > 0 && element.checkVisibility({ visibilityProperty: true });
};"""
# The control a reader clicks first, once it shows (see CONTROLS); null until then.
SHOWN = f"""([within, selector, last]) => {{
  {_VISIBLE}
  const scope = within === null ? document : document.querySelector(within);
  const shown = scope === null ? [] : [...scope.querySelectorAll(selector)].filter(visible);
  return (last ? shown.at(-1) : shown[0]) ?? null;
}}"""
# performance.now() once the click is answered: a picked-up card or piece shows, or else the area changed.
ANSWERED = f"""([area, before, picked]) => {{
  {_VISIBLE}
  const answered = picked ? [...area.querySelectorAll("button.hk-selected")].some(visible) : area.innerHTML !== before;
  return answered ? performance.now() : null;
}}"""
QUIET_MS = 300  # a move is all shown when its table then stays still this long (bots wait 800 ms before they act)
# Sets window.hkAnswer to a promise of [first, last]: milliseconds from the next click event until the first and
# the last change of `element` before it stays still for `quiet` ms ([null, null] when nothing changes).
WATCH = f"""([element, quiet]) => {{
  let clicked = null, first = null, last = null, timer = null;
  window.hkAnswer = new Promise(resolve => {{
    const done = () => {{ observer.disconnect(); resolve([first, last]); }};
    const observer = new MutationObserver(() => {{
      if (clicked === null) return;
      last = performance.now() - clicked;
      first ??= last;
      clearTimeout(timer);
      timer = setTimeout(done, quiet);
    }});
    observer.observe(element, {{ subtree: true, childList: true, attributes: true, characterData: true }});
    document.addEventListener("click", () => {{ clicked = performance.now(); timer = setTimeout(done, {TIMEOUT_MS}); }},
      {{ capture: true, once: true }});
  }});
}}"""


@dataclass
class Served:
    """A Voilà server started by this script: its URL and process."""

    url: str
    process: subprocess.Popen[bytes]

    def kernels(self) -> list[psutil.Process]:
        """The server's kernel processes (its children running ipykernel)."""
        children = psutil.Process(self.process.pid).children(recursive=True)
        return [child for child in children if "ipykernel" in " ".join(_cmdline(child))]

    def memory(self) -> int:
        """Resident bytes of the server and all its kernels."""
        processes = [psutil.Process(self.process.pid), *self.kernels()]
        return sum(_rss(process) for process in processes)


def _cmdline(process: psutil.Process) -> list[str]:
    with contextlib.suppress(psutil.Error):
        return process.cmdline()
    return []


def _rss(process: psutil.Process) -> int:
    with contextlib.suppress(psutil.Error):
        return process.memory_info().rss
    return 0


@contextlib.contextmanager
def serve(directory: Path, pool: int = 0, *options: str) -> Iterator[Served]:
    """Voilà serving ``directory`` as `make app POOL=pool` does, on a free loopback port, until the block ends."""
    port = free_port()
    argv = [part.format(port=port) for part in app_command(directory, *options)]
    env = {**os.environ, "HATSKIT_POOL": str(pool)}
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(argv, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
        served = Served(f"http://127.0.0.1:{port}", process)
        try:
            wait_until_answers(served, log)
            yield served
        finally:
            stop(process)


def wait_until_answers(served: Served, log: tempfile._TemporaryFileWrapper[bytes]) -> None:
    """Poll the server's tree page until it answers; raise with its log if it dies or stays silent."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if served.process.poll() is not None:
            log.seek(0)
            raise RuntimeError(f"Voilà exited:\n{log.read().decode(errors='replace')}")
        with contextlib.suppress(OSError), urllib.request.urlopen(served.url + "/", timeout=5):
            return
        time.sleep(0.25)
    raise RuntimeError("Voilà did not answer within 120 s")


def trivial_notebook(directory: Path) -> Path:
    """Write the one-button notebook into ``directory``."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(TRIVIAL_CODE)])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = directory / "trivial.ipynb"
    nbformat.write(notebook, path)
    return path


def page_url(served: Served, name: str) -> str:
    return f"{served.url}/voila/render/{name}.ipynb"


def first_control(page, name: str):
    """The control a reader clicks first, once it shows (CONTROLS): a button, a move control, or a table's last button.

    (A table's first button is "new game", which may redraw the same deal: no visible answer to wait for.)
    """
    shown = page.wait_for_function(SHOWN, arg=control_of(name), polling="raf", timeout=TIMEOUT_MS)
    return shown.as_element()


def control_of(name: str) -> list[str | bool | None]:
    """SHOWN's argument for a page: where its first control is, and which one (see CONTROLS)."""
    return CONTROLS.get(name, OTHER_CONTROL)


def answered_area(page, name: str):
    """What a click changes: the trivial page's echo, or the first table."""
    return page.locator(".widget-label").first if name == "trivial" else page.locator(".hk-table").first


def open_interactive(page, url: str, name: str) -> float:
    """Seconds from the request until the first control shows and a click on it is answered.

    Both are seen by the page on the frame they happen in (SHOWN, ANSWERED); the end is read on the page's
    clock, which starts as the browser starts the request (``performance.timeOrigin``, on the same wall clock).
    """
    start = time.time()
    page.goto(url, timeout=TIMEOUT_MS)
    control = first_control(page, name)
    area = answered_area(page, name)
    before = area.inner_html()
    control.click()
    answer = [area.element_handle(), before, name in PICKS]
    answered = page.wait_for_function(ANSWERED, arg=answer, polling="raf", timeout=TIMEOUT_MS).json_value()
    return (page.evaluate("performance.timeOrigin") + answered) / 1000 - start


def click_latency(page, name: str) -> float | None:
    """Seconds from the click that completes a move (the trivial page: a button click) until the page shows it all."""
    if name == "trivial":
        control, watched = page.locator("button.bench-button"), page.locator(".widget-label").first
    elif name in PICKS:
        table = page.locator(".hk-table").first
        pick_movable(table, name)
        control, watched = table.locator("button.hk-legal").first, table
    else:
        return None
    page.evaluate(WATCH, [watched.element_handle(), QUIET_MS])
    control.click()
    first, last = page.evaluate("() => window.hkAnswer")
    if first is None:
        raise RuntimeError(f"{name}: the click changed nothing within {TIMEOUT_MS} ms")
    return last / 1000


def pick_movable(table, name: str) -> None:
    """Pick up the first card or piece that has a legal target (the one picked first may have none)."""
    candidates = table.locator(PICKS[name]).filter(visible=True)
    for index in range(candidates.count()):
        if index:
            candidates.nth(index).click()
        table.locator("button.hk-selected").first.wait_for(state="visible", timeout=TIMEOUT_MS)
        with contextlib.suppress(Exception):
            table.locator("button.hk-legal").first.wait_for(state="visible", timeout=3000)
            return
    raise RuntimeError(f"no {PICKS[name]} of the first table has a legal target")


@dataclass
class Visit:
    """One page opened in a fresh browser context: its figures."""

    interactive: float
    latency: float | None
    kernel_bytes: int


def visit(browser, served: Served, name: str) -> Visit:
    """Open a page in a fresh context, make a move, and measure its new kernel's memory; close it."""
    known = {kernel.pid for kernel in served.kernels()}
    context = browser.new_context(viewport={"width": 1280, "height": 1600})
    page = context.new_page()
    try:
        interactive = open_interactive(page, page_url(served, name), name)
        latency = click_latency(page, name)
        fresh = [kernel for kernel in served.kernels() if kernel.pid not in known]
        kernel_bytes = max((_rss(kernel) for kernel in fresh), default=0)
    except Exception as error:
        raise RuntimeError(f"{name}: {error}") from error
    finally:
        leave(page, served, known)
        context.close()
    return Visit(interactive, latency, kernel_bytes)


def leave(page, served: Served, known: set[int]) -> None:
    """Close the tab as a reader does (its unload asks the server to stop its kernel); wait until the kernel is gone.

    Kernels left for the culler piled up over the rounds (one a visit) and slowed the later visits.
    """
    page.close(run_before_unload=True)
    deadline = time.monotonic() + KERNEL_GONE_S
    while any(kernel.pid not in known for kernel in served.kernels()):
        if time.monotonic() > deadline:
            print(f"a kernel was still running {KERNEL_GONE_S} s after its tab closed", file=sys.stderr)
            return
        time.sleep(0.1)


def interleaved_visits(browser, pages: dict[str, Served], rounds: int) -> dict[str, Visit]:
    """The median of each figure over ``rounds`` visits of each page, after one visit of each that is not counted.

    Each round visits every page once, in turn, so that a change in the machine's load falls on all pages
    alike (visited page by page, the first page's rounds met another machine than the last's). The visit
    not counted pays what only a server's first page pays (its first templates, its first imports).
    A page that fails is reported and left out of the later rounds: one broken page must not hide the others.
    """
    visits: dict[str, list[Visit]] = {name: [] for name in pages}
    for counted in [False] + [True] * rounds:
        for name in [name for name in pages if name in visits]:
            try:
                measured = visit(browser, pages[name], name)
            except RuntimeError as error:
                print(f"{name:>22}: NOT MEASURED, {str(error).splitlines()[0]}")
                del visits[name]
                continue
            if counted:
                visits[name].append(measured)
    return {name: median_of(measured) for name, measured in visits.items()}


def median_of(visits: list[Visit]) -> Visit:
    """The median of each figure over some visits of one page."""
    latencies = [v.latency for v in visits if v.latency is not None]
    return Visit(
        statistics.median(v.interactive for v in visits),
        statistics.median(latencies) if latencies else None,
        int(statistics.median(v.kernel_bytes for v in visits)),
    )


def report_pages(reference: Visit, measured: dict[str, Visit]) -> None:
    """Print each page's figures as ratios against the trivial notebook, with the targets."""
    print(f"trivial notebook: interactive {reference.interactive:.2f} s, echo {reference.latency:.3f} s, ", end="")
    print(f"kernel {reference.kernel_bytes / MB:.0f} MB")
    for name, figures in measured.items():
        latency = (
            "n/a (no click protocol)" if figures.latency is None else f"{figures.latency / reference.latency:.2f}x"
        )
        extra = (figures.kernel_bytes - reference.kernel_bytes) / MB
        print(
            f"{name:>22}: interactive {figures.interactive / reference.interactive:.2f}x (target 1.3x,"
            f" {figures.interactive:.2f} s) | move {latency} (target 1.5x) | kernel {extra:+.0f} MB (target +40 MB)"
        )


def idle_pool(served: Served, pages: int, pool: int, settle: float) -> int:
    """Wait until the pool holds ``pool`` kernels for each page and they are quiet; their resident bytes."""
    deadline = time.monotonic() + 300
    while len(served.kernels()) < pages * pool and time.monotonic() < deadline:
        time.sleep(1)
    time.sleep(settle)  # the pooled kernels render their notebooks before they rest
    return sum(_rss(kernel) for kernel in served.kernels())


def measure_pool(browser, pool: int, measured: list[str], baseline: dict[str, Visit]) -> None:
    """Restart the game server with a pool of pre-heated kernels; print what it holds idle and what it gains."""
    with serve(NOTEBOOK_DIR, pool) as served:
        held = idle_pool(served, len(NOTEBOOKS) - 1, pool, settle=30)  # the index is left out of the pool
        print(f"POOL={pool}: {len(served.kernels())} idle kernels hold {held / MB:.0f} MB", end="")
        print(f" (server and kernels {served.memory() / MB:.0f} MB)")
        for name in measured:
            heated = visit(browser, served, name)
            gain = baseline[name].interactive / heated.interactive
            print(f"{name:>22}: interactive {heated.interactive:.2f} s from the pool, {gain:.1f}x faster than without")
            time.sleep(5)  # the pool refills (Voilà waits fill_delay, then renders the notebook again)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2, help="visits per page (the median is printed)")
    parser.add_argument(
        "--pages", nargs="*", choices=GAME_NOTEBOOKS, help="game notebooks by name (default: every game page)"
    )
    parser.add_argument("--pool", type=int, default=0, help="also measure `make app POOL=N` (0: skip)")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be 1 or more")
    names = args.pages or list(GAME_NOTEBOOKS)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as scratch:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        trivial_notebook(Path(scratch))
        with serve(Path(scratch)) as trivial, serve(NOTEBOOK_DIR) as app:
            pages = {"trivial": trivial, **{name: app for name in names}}
            measured = interleaved_visits(browser, pages, args.rounds)
        if "trivial" not in measured:
            raise SystemExit("the trivial notebook could not be measured: no ratio can be printed")
        reference = measured.pop("trivial")
        report_pages(reference, measured)
        if args.pool > 0:
            measure_pool(browser, args.pool, list(measured), measured)
        browser.close()


if __name__ == "__main__":
    main()
