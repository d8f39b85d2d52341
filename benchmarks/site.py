"""The static site in Chromium: load times as ratios to a one-button page, bytes, and (--engine) the engine in Pyodide.

    make .venv-site/.hatskit-site-installed && .venv/bin/python benchmarks/site.py [--pages hats sombrero] [--engine]

Builds the site as `make site` does, with one page more (lite/build.py
--floor-page, into build/site-bench): a notebook whose one cell shows one
button, the floor that starting Python in the browser sets. Serves it from a
file server in this process that counts the bytes it sends, and drives Debian's
Chromium (``--site DIR`` measures a site already built with --floor-page):

- for each page, the *first visit* in a fresh browser profile and a *repeat
  visit* in the same profile, each until the page is interactive: the index
  until its links show, the one-button page until its button shows, a game
  page until its table shows (Python has run the notebook's live cells and the
  widgets are drawn); with the bytes the server sent for it;
- each game page as a multiple of the one-button page in the same run, first
  and repeat visit (the one-button page is measured first and last, and the
  mean of the two is the yardstick, since other work on the machine drifts);
- the index's time to interactive in seconds;
- with --engine, the *engine* in the browser: benchmarks/engine.py's random games through the
  public API, for every registered game, run by Pyodide from the site's own
  files, and the same function run here in the same run; printed as the
  server's speed over the browser's;
- the *strong bots' hints*: the time one hint takes at the start of a game (its
  slowest moment), for every number of players, in the browser and here, and
  what share of the bot's work fits in 2 s in the browser (the cap to apply
  there: docs/static-site.md).
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, BinaryIO

REPO = Path(__file__).resolve().parents[1]
BENCH_SITE = REPO / "build" / "site-bench"
SITE_PYTHON = REPO / ".venv-site" / "bin" / "python"
FLOOR = "floor"  # lite/build.py's FLOOR_NOTEBOOK, as a page
# What shows once each kind of page is interactive.
READY = {"index": 'a[href$=".html"]', FLOOR: ".jupyter-button, .widget-button"}
GAME_READY = ".hk-table"
sys.path.insert(0, str(REPO))

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402  (the launch flags, in one place)

BLANK = "/__benchmark__.html"  # a page with nothing on it, for Pyodide alone
LOAD_MS = 300_000
HINT_BUDGET_S = 2.0
# Run the same way here and in the browser: one strong-bot hint for the first seat of a new game, for every
# number of players the game takes (a game's start is a hint's slowest moment: the most play is left).
HINT_CODE = """
import time
import hatskit
from hatskit.bots import make_bot

def seat_counts(game_id):
    counts = []
    for players in range(1, 9):
        try:
            hatskit.new_game(game_id, players=players, seed=7)
        except hatskit.HatskitError:
            continue
        counts.append(players)
    return counts

def hint_seconds(game_id, players):
    game = hatskit.new_game(game_id, players=players, seed=7)
    start = time.perf_counter()
    make_bot(game_id, "strong", seed=7).hint(game.seat_view(game.acting[0]))
    return time.perf_counter() - start
"""


class CountingHandler(SimpleHTTPRequestHandler):
    """Serves site/ (and the blank page), adding every body byte it sends to the server's count."""

    def do_GET(self) -> None:
        if self.path == BLANK:
            body = b"<!DOCTYPE html><title>benchmark</title>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def copyfile(self, source: BinaryIO, outputfile: BinaryIO) -> None:
        before = source.tell()
        shutil.copyfileobj(source, outputfile)
        self.server.sent += source.tell() - before  # type: ignore[attr-defined]

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the benchmark prints its own lines."""


def serve(site: Path) -> ThreadingHTTPServer:
    """Start the counting file server on a free loopback port, in a thread."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(CountingHandler, directory=str(site)))
    server.sent = 0  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def load(page: Any, url: str, ready: str, server: ThreadingHTTPServer) -> tuple[float, int]:
    """Seconds until the page at ``url`` shows ``ready`` (a selector), and the bytes the server sent for it."""
    server.sent = 0  # type: ignore[attr-defined]
    start = time.perf_counter()
    page.goto(url, wait_until="commit")
    page.locator(ready).first.wait_for(state="visible", timeout=LOAD_MS)
    return time.perf_counter() - start, server.sent  # type: ignore[attr-defined]


def visits(playwright: Any, base: str, name: str, server: ThreadingHTTPServer) -> tuple[float, int, float, int]:
    """A page's first visit in a new browser profile with a disk cache, as a reader's, and a repeat visit there."""
    ready = READY.get(name, GAME_READY)
    with tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        page = context.new_page()
        url = f"{base}/voici/render/{name}.html"
        first_s, first_bytes = load(page, url, ready, server)
        page.goto("about:blank")
        repeat_s, repeat_bytes = load(page, url, ready, server)
        context.close()
    print(
        f"{name + '.html':26} first visit {first_s:5.1f} s, {first_bytes / 1e6:5.1f} MB"
        f" | repeat visit {repeat_s:5.1f} s, {repeat_bytes / 1e6:5.2f} MB",
        flush=True,
    )
    return first_s, first_bytes, repeat_s, repeat_bytes


def measure_loads(playwright: Any, base: str, pages: list[str], server: ThreadingHTTPServer) -> None:
    """Every page's visits, the one-button page's first and last; then each game page as a multiple of it."""
    floor_before = visits(playwright, base, FLOOR, server)
    measured = {name: visits(playwright, base, name, server) for name in pages}
    floor_after = visits(playwright, base, FLOOR, server)
    floor_first = statistics.mean([floor_before[0], floor_after[0]])
    floor_repeat = statistics.mean([floor_before[2], floor_after[2]])
    print(f"yardstick: the one-button page, first visit {floor_first:.1f} s, repeat visit {floor_repeat:.1f} s")
    for name, (first_s, _, repeat_s, repeat_bytes) in measured.items():
        if name == "index":
            print(f"index.html: interactive after {first_s:.2f} s (first visit), {repeat_s:.2f} s (repeat visit)")
            continue
        print(
            f"{name + '.html':26} first visit x {first_s / floor_first:.2f} the one-button page,"
            f" repeat visit x {repeat_s / floor_repeat:.2f}; repeat visit downloads {repeat_bytes:,} bytes"
        )


def engine_source() -> str:
    return (REPO / "benchmarks" / "engine.py").read_text()


def load_here(source: str, name: str) -> Any:
    """Run ``source`` as a module in this process (as the browser does), so both run the very same code."""
    spec = importlib.util.spec_from_loader(name, loader=None)
    module = importlib.util.module_from_spec(spec)
    exec(compile(source, name, "exec"), module.__dict__)
    return module


def start_pyodide(browser: Any, base: str) -> Any:
    """A page with the site's Pyodide loaded, hatskit installed, the engine benchmark and the hint timer defined."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{base}{BLANK}")
    page.add_script_tag(url=f"{base}/static/pyodide/pyodide.js")
    setup = (
        "async ([engine, hints]) => { const py = await loadPyodide({indexURL: '/static/pyodide/'});"
        " await py.loadPackage('hatskit'); py.FS.writeFile('engine_bench.py', engine);"
        " py.FS.writeFile('hint_bench.py', hints); py.runPython('import engine_bench, hint_bench');"
        " window.py = py; return py.runPython('import sys; sys.version'); }"
    )
    print("browser Python:", page.evaluate(setup, [engine_source(), HINT_CODE]).split()[0])
    return page


def in_browser(page: Any, expression: str) -> Any:
    """Evaluate a Python expression in the page's Pyodide; its result as JSON."""
    return json.loads(
        page.evaluate("expression => window.py.runPython(`import json; json.dumps(${expression})`)", expression)
    )


def measure_engine(page: Any, seconds: float) -> None:
    import hatskit

    engine = load_here(engine_source(), "engine_bench")
    for game_id in hatskit.GAMES:
        here = engine.games_per_second(engine.public_api_game(game_id), seconds)
        there = in_browser(page, f"engine_bench.games_per_second(engine_bench.public_api_game({game_id!r}), {seconds})")
        speeds = f"server {here:7.1f} games/s, browser {there:7.1f}"
        print(f"{game_id + ' public API:':24} {speeds}  = server / {here / there:.1f}")


def measure_hints(page: Any) -> None:
    import hatskit

    hints = load_here(HINT_CODE, "hint_bench")
    for game_id in hatskit.GAMES:
        for players in hints.seat_counts(game_id):
            here = hints.hint_seconds(game_id, players)
            there = in_browser(page, f"hint_bench.hint_seconds({game_id!r}, {players})")
            share = 1.0 if there <= HINT_BUDGET_S else HINT_BUDGET_S / there
            # Pyodide's clock is coarse: a hint that takes no measurable time there has no ratio to print.
            slower = f"server x {there / here:.2f}" if here > 0 and there > 0 else "too quick to compare"
            print(
                f"{game_id} strong hint, {players} players, first move: server {here:5.2f} s, browser {there:5.2f} s"
                f"  = {slower}; {share:4.0%} of its work fits in {HINT_BUDGET_S:.0f} s there"
            )


def main() -> None:
    notebooks = sorted(path.stem for path in (REPO / "notebooks").glob("*.ipynb"))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per engine measurement")
    parser.add_argument("--pages", nargs="*", default=notebooks, help="the notebooks' apps to load")
    parser.add_argument("--site", type=Path, help="a site built with --floor-page (else it is built afresh)")
    parser.add_argument("--engine", action="store_true", help="also the engine and the strong bots in Pyodide")
    args = parser.parse_args()
    site = args.site or build_site()
    if not (site / "voici" / "render" / f"{FLOOR}.html").exists():
        raise SystemExit(f"benchmarks/site.py: {site} has no one-button page: build it with lite/build.py --floor-page")
    from playwright.sync_api import sync_playwright

    server = serve(site)
    base = f"http://127.0.0.1:{server.server_port}"
    with sync_playwright() as playwright:
        measure_loads(playwright, base, args.pages, server)
        if args.engine:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
            page = start_pyodide(browser, base)
            measure_engine(page, args.seconds)
            measure_hints(page)
            browser.close()
    server.shutdown()


def build_site() -> Path:
    """The site as `make site` builds it, with the one-button page, in build/site-bench."""
    if not SITE_PYTHON.exists():
        raise SystemExit("benchmarks/site.py: no .venv-site: run `make .venv-site/.hatskit-site-installed` first")
    start = time.perf_counter()
    command = [str(SITE_PYTHON), "lite/build.py", "--output", str(BENCH_SITE), "--floor-page"]
    built = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
    if built.returncode != 0:
        raise SystemExit(f"benchmarks/site.py: lite/build.py failed:\n{(built.stdout + built.stderr)[-4000:]}")
    print(f"built {BENCH_SITE.relative_to(REPO)} in {time.perf_counter() - start:.0f} s", flush=True)
    return BENCH_SITE


if __name__ == "__main__":
    main()
