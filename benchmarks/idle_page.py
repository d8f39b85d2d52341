"""An idle page: the CPU a game page spends while it waits for a press, against a trivial one-button page.

    PYTHONPATH=. .venv/bin/python benchmarks/idle_page.py [--seconds 20] [--settle 5] [--rounds 1]
        [--pages hats sombrero hats_off madder_than_a_hatter] [--no-shared] [--callers]

Why: the class benchmark (classmates.py, benchmarks/README.md "A class: 8 tables of 4") found Chromium taking
about 90 % of the CPU while 32 pages played, at 0.12-0.19 CPU-seconds a move shown. A page that only waits for
its student's press should cost next to nothing, in the browser and in its kernel: any steady work (a timer, an
endless CSS animation, a requestAnimationFrame loop, a kernel polling its host) is paid 32 times over on the
class's two cores, and slows every move's relay.

What: serves notebooks/ as `make app` does (app.py's `serve`) beside a table host (`python -m tablehost --bind
127.0.0.1:0`, classmates.py's `servers`; TABLETOP_URL for the kernels), and from a second server with the same
config the trivial notebook app.py measures against (app.py's `trivial_notebook`: one button echoing its clicks).
One Chromium (Playwright, app.py's CHROMIUM_ARGS), one page open at a time in a browser context of its own. Each
page is opened, waited for until drawn (a game page: its main table's live message line and a card or square
shown, as tests/browser/conftest.py's `open_page` waits; the trivial page: its button), left `--settle` seconds,
then left alone `--seconds` seconds while this measures:

- the CPU time of every Chromium process (each thread's, from Linux's schedstat: see `thread_seconds`), by kind:
  the renderer(s), the GPU process, the browser process and its utility processes (network, storage); one page is
  open, so all of it is that page's;
- the CPU time of the page's own kernel (the kernel process that appeared as it opened), of Voilà's server and of
  the table host;
- what ran in the page, from Chrome DevTools Protocol's `Performance.getMetrics` before and after: TaskDuration,
  ScriptDuration, LayoutDuration, RecalcStyleDuration (seconds of the renderer's main thread) and the counts of
  layouts and style recalculations;
- the frames on the page's websockets (the kernel's connection and any other), and the page's animations still
  running at the end (`document.getAnimations()`: name, play state, iterations, timeline).

With `--callers`, an init script also counts, during the window only, each caller (the script's file:line:column)
of setTimeout, setInterval, requestAnimationFrame, localStorage.setItem and WebSocket.send: what schedules the
steady work, if any (it costs a little itself, so the default run leaves it out).

Cases: the trivial page; each game page (its main table set up, nobody pressing); and, unless `--no-shared`, the
Hats page at a shared table (the class's case, "Play with classmates…", classmates.py's steps): `lobby`, the page
opened a table for two from its fold and waits for a classmate to join; `seated`, a classmate (a Python client of
the host, `tablehost.client.TableClient`, no page) opened a table for two, the page joined by its link, the
classmate pressed Start and is to move, and does not; `watched`, the same page waiting as each page of
classmates.py's class waits for a classmate's move (its recorder, RECORDER, as an init script, and UNTIL, a
promise the recorder's MutationObserver resolves): what the benchmark itself adds to a waiting page.

Printed: per case, CPU milliseconds a second of each process group (so 10 ms/s is 1 % of a core), the page's own
figures, and the total browser and kernel CPU as a ratio against the trivial page measured in the same run (the
median over `--rounds` visits of each case).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout: benchmarks.* and tests.*

from benchmarks.app import CHROMIUM, CHROMIUM_ARGS, GAME_NOTEBOOKS, Served, serve, trivial_notebook
from benchmarks.classmates import MAIN, RECORDER, UNTIL, Host, Student, join_table, open_table, servers, table_taken
from benchmarks.processes import chromium_kind, thread_seconds

GAME_PAGES = list(GAME_NOTEBOOKS)  # hats, sombrero, hats_off, madder_than_a_hatter
SHARED = ("lobby", "seated", "watched")
TIMEOUT_MS = 180_000
METRICS = ("TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration", "LayoutCount", "RecalcStyleCount")
GROUPS = ("renderer", "gpu", "browser+utility", "kernel", "server", "host")
# A game page is drawn once its main table's message line is live and a card or square shows (conftest's open_page).
DRAWN = f"""() => {{
  const table = document.querySelector("{MAIN}");
  const live = table && table.querySelector(".hk-message[aria-live=polite]");
  const shown = table && [...table.querySelectorAll(".hk-card, .hk-sq")].some((e) => e.checkVisibility());
  return Boolean(live && shown);
}}"""
TRIVIAL_DRAWN = "() => Boolean(document.querySelector('button.bench-button')?.checkVisibility())"
# The animations still running: what may redraw the page on every frame.
ANIMATIONS = """() => document.getAnimations().filter((a) => a.playState === "running").map((a) => ({
  name: a.animationName ?? a.constructor.name, iterations: a.effect?.getTiming().iterations,
  timeline: a.timeline?.constructor.name, target: a.effect?.target?.className?.toString().slice(0, 60) ?? "",
}))"""
# With --callers: each caller of the timer, frame, storage and socket functions, counted while window.hkIdle.on.
CALLERS = """(() => {
  const idle = (window.hkIdle = { on: false, calls: {} });
  const site = () => (new Error().stack.split("\\n")[3] || "?").trim().replace(/^at /, "").slice(-160);
  const wrap = (owner, name) => {
    const original = owner[name];
    owner[name] = function (...args) {
      if (idle.on) { const key = `${name} ${site()}`; idle.calls[key] = (idle.calls[key] || 0) + 1; }
      return original.apply(this, args);
    };
  };
  for (const name of ["setTimeout", "setInterval", "requestAnimationFrame"]) wrap(window, name);
  wrap(Storage.prototype, "setItem");
  wrap(WebSocket.prototype, "send");
})();"""


@dataclass
class Idle:
    """One case's window: CPU ms a second by process group, the page's metrics' deltas, frames, animations."""

    cpu: dict[str, float]
    metrics: dict[str, float]
    frames: dict[str, int]
    animations: list[dict[str, Any]] = field(default_factory=list)
    callers: dict[str, int] = field(default_factory=dict)
    status: str = ""

    @property
    def browser(self) -> float:
        return self.cpu["renderer"] + self.cpu["gpu"] + self.cpu["browser+utility"]


# -- processes ---------------------------------------------------------------------------------------------


Snapshot = dict[int, tuple[str, dict[int, float]]]  # pid: (group, CPU seconds by thread)


def snapshot(kernel: psutil.Process | None, server: Served, host: Host) -> Snapshot:
    """Every measured process's CPU seconds so far, by pid and thread."""
    found: Snapshot = {}
    for process in psutil.Process().children(recursive=True):
        kind = chromium_kind(process)
        if kind is not None:
            found[process.pid] = (kind, thread_seconds(process.pid))
    for group, pid in (("server", server.process.pid), ("host", host.process.pid)):
        found[pid] = (group, thread_seconds(pid))
    if kernel is not None:
        found[kernel.pid] = ("kernel", thread_seconds(kernel.pid))
    return found


def spent(before: Snapshot, after: Snapshot, seconds: float) -> dict[str, float]:
    """CPU milliseconds a second, by group, between two snapshots (a thread born in between counts from zero; one
    that ended in between is not counted)."""
    totals = dict.fromkeys(GROUPS, 0.0)
    for pid, (group, threads) in after.items():
        earlier = before.get(pid, (group, {}))[1]
        totals[group] += sum(max(0.0, used - earlier.get(tid, 0.0)) for tid, used in threads.items())
    return {group: 1000 * used / seconds for group, used in totals.items()}


# -- one page ----------------------------------------------------------------------------------------------


@dataclass
class Tab:
    """A page open in its own browser context, its DevTools session and the frames on its websockets."""

    context: Any
    page: Any
    cdp: Any
    frames: Counter[str] = field(default_factory=Counter)
    counting: bool = False

    @classmethod
    async def open(cls, browser: Any, scripts: list[str]) -> Tab:
        context = await browser.new_context(viewport={"width": 1280, "height": 1600})
        for script in scripts:
            await context.add_init_script(script)
        page = await context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        tab = cls(context, page, await context.new_cdp_session(page))
        await tab.cdp.send("Performance.enable")
        page.on("websocket", tab._watch)
        return tab

    def _watch(self, socket: Any) -> None:
        kind = "kernel" if "/api/kernels/" in socket.url else "other"
        socket.on("framesent", lambda _: self._count(f"{kind} sent"))
        socket.on("framereceived", lambda _: self._count(f"{kind} received"))

    def _count(self, key: str) -> None:
        if self.counting:
            self.frames[key] += 1

    async def metrics(self) -> dict[str, float]:
        answer = await self.cdp.send("Performance.getMetrics")
        return {metric["name"]: metric["value"] for metric in answer["metrics"] if metric["name"] in METRICS}

    async def close(self, served: Served, known: set[int]) -> None:
        """Close the tab as a reader does (its unload stops its kernel); wait until its kernel is gone."""
        await self.page.close(run_before_unload=True)
        await self.context.close()
        deadline = time.monotonic() + 20
        while any(k.pid not in known for k in served.kernels()) and time.monotonic() < deadline:
            await asyncio.sleep(0.2)


async def watch_idle(tab: Tab, kernel: psutil.Process | None, served: Served, host: Host, seconds: float) -> Idle:
    """Leave the page alone ``seconds`` and measure what it, its kernel, the server and the host spent."""
    callers = await tab.page.evaluate("() => window.hkIdle !== undefined")
    if callers:
        await tab.page.evaluate("() => { window.hkIdle.on = true; }")
    metrics, before, began = await tab.metrics(), snapshot(kernel, served, host), time.monotonic()
    tab.counting = True
    await asyncio.sleep(seconds)
    tab.counting = False
    after, elapsed, later = snapshot(kernel, served, host), time.monotonic() - began, await tab.metrics()
    deltas = {name: (later[name] - metrics.get(name, 0.0)) / elapsed for name in later}
    idle = Idle(spent(before, after, elapsed), deltas, dict(tab.frames), await tab.page.evaluate(ANIMATIONS))
    if callers:
        idle.callers = await tab.page.evaluate("() => { window.hkIdle.on = false; return window.hkIdle.calls; }")
    return idle


async def new_kernel(served: Served, known: set[int]) -> psutil.Process | None:
    """The kernel process the page started (the one not in ``known``)."""
    for _ in range(50):
        fresh = [kernel for kernel in served.kernels() if kernel.pid not in known]
        if fresh:
            return fresh[0]
        await asyncio.sleep(0.2)
    return None


async def status_of(tab: Tab) -> str:
    with contextlib.suppress(Exception):
        return " ".join((await tab.page.locator(f"{MAIN} .hk-status").first.inner_text(timeout=2000)).split())
    return ""


# -- the cases ---------------------------------------------------------------------------------------------


@dataclass
class Bench:
    """What every case needs: the browser, the two servers, the table host and the options."""

    browser: Any
    trivial: Served
    app: Served
    host: Host
    args: argparse.Namespace


async def seat(case: str, tab: Tab, bench: Bench) -> Any:
    """Seat the Hats page at a shared table (``lobby``; ``seated``, ``watched``): the classmate's client, if any."""
    from tablehost.client import TableClient

    url, student = f"{bench.app.url}/voila/render/hats.ipynb", Student("Maya", tab.context, tab.page)
    if case == "lobby":
        await tab.page.goto(url, timeout=TIMEOUT_MS)
        await student.fold.locator("summary").wait_for(state="visible")
        await open_table(student, 2)
        return None
    classmate = TableClient(bench.host.url)
    await classmate.connect()
    code = (await classmate.open("hats", 2, "Ben"))["code"]
    await join_table(student, url, code)
    await classmate.start()
    await table_taken(student)
    return classmate


async def wait_as_classmates_does(tab: Tab, seconds: float) -> None:
    """Wait, as a student of classmates.py's class does, for a later move (UNTIL, no polling) for ``seconds``."""
    moves = await tab.page.evaluate("() => window.hkRecord.last")
    await tab.page.evaluate(UNTIL, [moves, False, seconds * 1000])


async def measure(case: str, bench: Bench) -> Idle:
    """Open ``case``'s page in a fresh context, wait until drawn, settle, watch it idle; close it."""
    served = bench.trivial if case == "trivial" else bench.app
    known = {kernel.pid for kernel in served.kernels()}
    scripts = [*([CALLERS] if bench.args.callers else []), *([RECORDER] if case == "watched" else [])]
    tab, classmate = await Tab.open(bench.browser, scripts), None
    try:
        if case in SHARED:
            classmate = await seat(case, tab, bench)
        else:
            await tab.page.goto(f"{served.url}/voila/render/{case}.ipynb", timeout=TIMEOUT_MS)
        await tab.page.wait_for_function(TRIVIAL_DRAWN if case == "trivial" else DRAWN, timeout=TIMEOUT_MS)
        kernel = await new_kernel(served, known)
        await asyncio.sleep(bench.args.settle)
        waiting = asyncio.ensure_future(wait_as_classmates_does(tab, bench.args.seconds)) if case == "watched" else None
        idle = await watch_idle(tab, kernel, served, bench.host, bench.args.seconds)
        if waiting is not None:
            await waiting
        idle.status = "" if case == "trivial" else await status_of(tab)
        return idle
    finally:
        if classmate is not None:
            await classmate.close()
        await tab.close(served, known)


# -- the report --------------------------------------------------------------------------------------------


def median_idle(visits: list[Idle]) -> Idle:
    """The median of each figure over visits (the last visit's animations, callers and status)."""
    last = visits[-1]
    cpu = {group: statistics.median(v.cpu[group] for v in visits) for group in GROUPS}
    metrics = {name: statistics.median(v.metrics.get(name, 0.0) for v in visits) for name in METRICS}
    frames = {key: round(statistics.median(v.frames.get(key, 0) for v in visits)) for key in last.frames}
    return Idle(cpu, metrics, frames, last.animations, last.callers, last.status)


def ratio(value: float, reference: float) -> str:
    return f"{value / reference:.1f}x" if reference > 0 else "n/a"


def report(results: dict[str, Idle], seconds: float) -> None:
    trivial = results["trivial"]
    print(f"\nCPU milliseconds a second while idle ({seconds:.0f} s window; 10 ms/s = 1 % of a core):")
    print(f"{'page':>22} | " + " | ".join(f"{group:>15}" for group in GROUPS) + " | browser vs trivial | kernel vs")
    for name, idle in results.items():
        cells = " | ".join(f"{idle.cpu[group]:15.2f}" for group in GROUPS)
        versus = f"{ratio(idle.browser, trivial.browser):>18} | {ratio(idle.cpu['kernel'], trivial.cpu['kernel']):>9}"
        print(f"{name:>22} | {cells} | {versus}")
    print("\nThe page's main thread (DevTools Performance.getMetrics), a second: ms of task, script, layout, style;")
    print("layouts and style recalculations; websocket frames in the window; animations running at the end:")
    for name, idle in results.items():
        m = idle.metrics
        durations = ", ".join(f"{1000 * m.get(key, 0.0):.2f}" for key in METRICS[:4])
        counts = f"{m.get('LayoutCount', 0.0):.2f}/s, {m.get('RecalcStyleCount', 0.0):.2f}/s"
        print(f"{name:>22}: {durations} ms; {counts}; frames {idle.frames or 'none'}")
        for animation in idle.animations[:5]:
            print(f"{'':>24}animation {animation}")
        for caller, calls in sorted(idle.callers.items(), key=lambda item: -item[1])[:8]:
            print(f"{'':>24}{calls:6d} x {caller}")
        if idle.status:
            print(f"{'':>24}status: {idle.status[:100]}")


async def run(args: argparse.Namespace) -> dict[str, Idle]:
    from playwright.async_api import async_playwright

    cases = ["trivial", *args.pages, *([] if args.no_shared else SHARED)]
    visits: dict[str, list[Idle]] = {case: [] for case in cases}
    with tempfile.TemporaryDirectory() as folder, servers(Path(folder)) as (host, app):
        trivial_notebook(Path(folder))
        with serve(Path(folder)) as trivial:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(
                    executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
                )
                bench = Bench(browser, trivial, app, host, args)
                for round_ in range(args.rounds):
                    for case in cases:
                        visits[case].append(await measure(case, bench))
                        print(f"round {round_ + 1}: {case} measured ({psutil.getloadavg()[0]:.2f} load)", flush=True)
                await browser.close()
    return {case: median_idle(found) for case, found in visits.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="the idle window measured, each page")
    parser.add_argument("--settle", type=float, default=5.0, help="seconds after the page is drawn, before the window")
    parser.add_argument("--rounds", type=int, default=1, help="visits of each case (the median is printed)")
    parser.add_argument("--pages", nargs="*", default=GAME_PAGES, choices=GAME_PAGES, help="game pages measured")
    parser.add_argument("--no-shared", action="store_true", help="leave out the Hats page at a shared table")
    parser.add_argument("--callers", action="store_true", help="count who calls the timer/frame/storage/socket APIs")
    args = parser.parse_args()
    if args.seconds <= 0 or args.rounds < 1:
        parser.error("--seconds must be positive and --rounds 1 or more")
    print(f"load before: {' '.join(f'{load:.2f}' for load in psutil.getloadavg())}")
    report(asyncio.run(run(args)), args.seconds)
    print(f"load after: {' '.join(f'{load:.2f}' for load in psutil.getloadavg())}")


if __name__ == "__main__":
    main()
