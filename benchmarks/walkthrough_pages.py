"""A teacher's move on the students' tables: one real student page, alone and in a class of 30 (issue 44).

    PYTHONPATH=. .venv/bin/python benchmarks/walkthrough_pages.py [--moves 30] [--students 30] [--processes 2]
        [--game hats] [--gap 0.5] [--page-joins last] [--seed 44] [--trade-places]

Why: benchmarks/walkthrough_host.py times a move at the host only (until the
last websocket client holds the frame), against a 2 ms baseline that leaves
out what a student sees. Here the reference is what one student sees: the
teacher's move through the host, the student's kernel (widgets/table/
walkthrough.py: ``Following`` hears the ``walk`` frame, ``ClassTable`` redraws
the table) and the student's browser, until the page's table lists the move.

What runs, on this machine's cores (printed): ``python -m tablehost`` on a file
and Voilà serving notebooks/ as `make app` does (benchmarks/classmates.py's
``servers``: TABLETOP_URL given to the kernels), one Chromium (Playwright),
and two walkthroughs of the same game opened by a teacher's
:class:`tablehost.client.TableClient` with the host's teacher secret and the
same ``--seed`` (the same deal), whose moves are chosen by random generators
seeded alike (walkthrough_host.py's ``Walk.change``: a random legal move, a
step back to the start at ply 30 or a game's end), so both walkthroughs play
the same game:

- **alone**: one real student page (the game's page opened with
  ``?walk=CODE``, a name typed, *follow* pressed: its own browser context and
  its own kernel), nobody else;
- **the class**: another real page opened the same way (a second context and
  kernel, the same viewport) plus ``--students`` - 1 simulated students:
  websocket clients of the host (walkthrough_host.py's students, in
  ``--processes`` processes), each following the walkthrough as a student's
  kernel does and noting when each ``walk`` frame reached it. They stand for
  29 students whose kernels and browsers would run on their own laptops and
  hub pods, not on these cores: only their websocket clients are simulated.
  The host writes a change to the walkthrough's members in the order they
  joined (the teacher first); the real page joins after the simulated
  students (``--page-joins last``: written to last, the far end of the class)
  or before them (``first``).

With ``--trade-places`` the two real pages trade places halfway, so that the
figure does not set one page and kernel against another (a class of one page
and one simulated student gives up to 1.1x by that alone): each walkthrough
has its own ``--students`` - 1 simulated students, who all join before the
pages (so the host writes to each page last); the first page's leave
(``walk_leave``) before the first half, in which the second page is the
class's; then the second page's leave and the first page's follow again (the
same members, written to in the same order) for the second half. Each page
is then timed alone in one half and in the class in the other, and the
figures pool both halves; five changes of warm-up begin each half.

The moves alternate between the two walkthroughs, one at a time, ``--gap``
seconds after the real page showed the last one (the table's motion ends), so
both see the same machine. Timed per move, from the teacher's client sending
``walk_move``:

- a real page's table shows the move: its main table's move list
  (``.hk-movelist > li``) reaches the new ply, seen by a MutationObserver the
  page carries (an init script); and the start of the next frame after it (a
  ``requestAnimationFrame`` callback: the frame that paints it);
- the last of the simulated students holds it (``time.perf_counter`` in their
  processes, read after the run);
- "all 30 tables": the later of the class's real page and its last simulated
  student, against the page alone (the figure asked: within 1.3x).

Clocks: the teacher's send and the simulated students' arrivals are
``time.perf_counter`` (CLOCK_MONOTONIC, one clock for every process). A page
notes ``performance.now()``, which on Linux Chromium also counts
CLOCK_MONOTONIC, from the page's own origin. Each page's offset to
``perf_counter`` is measured by bracketing ``page.evaluate("performance.now()")``
between two ``perf_counter`` reads, the narrowest of 25 tries (its error is at
most half that bracket, printed), before and after the moves; their difference
(the drift, printed) should be within that error. The wall clock
(``performance.timeOrigin``) is not used: it is taken once at the page's origin
and may stand a millisecond or more off Python's ``time.time()``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout: benchmarks.* and tests.*

from benchmarks.app import CHROMIUM, CHROMIUM_ARGS, Served
from benchmarks.classmates import Host, load, servers
from benchmarks.walkthrough_host import Walk
from tablehost.client import TableClient

if TYPE_CHECKING:
    from playwright.async_api import Browser, Page

MAIN = ".hk-table.hk-main"
TIMEOUT_MS = 300_000  # opening a page (its kernel starts and runs the notebook) on a busy machine
SHOWN_TIMEOUT_S = 30.0  # a page that has not shown a move this long missed it
WARM_UP = 5  # changes in each walkthrough before the timing starts
CLOCK_TRIES = 25
# On the page, before its own scripts: each change of the count of the main table's move list, with the page's
# performance.now() when a MutationObserver saw it and when the next frame began after it; and `until(count)`, a
# promise of the moment the list has that count.
RECORDER = """(() => {
  const record = (window.hkWalk = { shown: [], last: -1, waiters: [] });
  const count = () => {
    const table = document.querySelector(".hk-table.hk-main");
    return table === null ? -1 : table.querySelectorAll(".hk-movelist > li").length;
  };
  const look = () => {
    const now = performance.now();
    const shown = count();
    if (shown === record.last) return;
    record.last = shown;
    const entry = [shown, now, null];
    record.shown.push(entry);
    requestAnimationFrame(() => { entry[2] = performance.now(); });
    record.waiters = record.waiters.filter((check) => !check());
  };
  record.until = (wanted) => new Promise((resolve) => {
    const check = () => record.last === wanted && (resolve(performance.now()), true);
    if (!check()) record.waiters.push(check);
  });
  new MutationObserver(look).observe(document, { subtree: true, childList: true });
  look();
})();"""


# ---------------------------------------------------------------- a real student's page


@dataclass
class Clock:
    """A page's ``performance.now()`` minus ``perf_counter``, in seconds, and the bracket it was read within."""

    offset: float
    bracket: float


@dataclass
class Side:
    """One walkthrough: its teacher and simulated students (``walk``), its real page, and its changes."""

    label: str
    walk: Walk
    page: Page
    plies: list[int] = field(default_factory=list)  # the ply each change brought, in the order of walk.sent
    halves: list[int] = field(default_factory=lambda: [0])  # the index of the change each half begins with
    missed: list[int] = field(default_factory=list)  # changes the page did not show within SHOWN_TIMEOUT_S
    clocks: list[Clock] = field(default_factory=list)


async def student_page(browser: Browser, url: str, code: str, name: str) -> Page:
    """A student's page with ``?walk=CODE`` in a context of its own: the name typed, *follow* pressed, followed."""
    from playwright.async_api import expect

    context = await browser.new_context(viewport={"width": 1280, "height": 1600})
    await context.add_init_script(RECORDER)
    page = await context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.on("pageerror", lambda error: print(f"  page error ({name}): {error}"))
    await page.goto(f"{url}?walk={code}", timeout=TIMEOUT_MS)
    fold = page.locator(f"{MAIN} .hk-walkthrough")
    box = fold.get_by_label("your name")
    await box.fill(name)
    await box.press("Tab")  # the box tells the kernel on its change event
    await fold.get_by_role("button", name="follow", exact=True).click()
    await expect(fold.locator(".hk-walk-note")).to_contain_text(f"You follow walkthrough {code}", timeout=TIMEOUT_MS)
    return page


async def clock(page: Page) -> Clock:
    """The page's clock against ``perf_counter``: the narrowest of CLOCK_TRIES bracketed reads."""
    best = Clock(0.0, float("inf"))
    for _ in range(CLOCK_TRIES):
        before = time.perf_counter()
        now = await page.evaluate("() => performance.now()")
        after = time.perf_counter()
        if after - before < best.bracket:
            best = Clock(now / 1000 - (before + after) / 2, after - before)
    return best


# ---------------------------------------------------------------- the teacher's moves


async def opened(url: str, secret: str, game: str, seed: int) -> Walk:
    """A walkthrough of ``game`` dealt from ``seed``, opened by a teacher's client of its own."""
    teacher = TableClient(url, teacher=secret)
    await teacher.connect()
    code = (await teacher.walk_open(game, shows="all", seed=seed))["code"]
    await teacher.wait_for(lambda c: c.walk is not None)
    return Walk(teacher, code)


async def change(side: Side, rng: random.Random) -> None:
    """The teacher's next change (a move, or a step back to the start), then wait until the real page shows it."""
    await side.walk.change(rng)
    assert side.walk.teacher.walk is not None
    ply = side.walk.teacher.walk["ply"]
    side.plies.append(ply)
    try:
        await asyncio.wait_for(side.page.evaluate("(ply) => window.hkWalk.until(ply)", ply), SHOWN_TIMEOUT_S)
    except TimeoutError:
        shown = await side.page.evaluate("window.hkWalk.last")
        print(f"  MISSED: {side.label}'s page lists {shown} moves {SHOWN_TIMEOUT_S:.0f} s after the host went to {ply}")
        side.missed.append(len(side.plies) - 1)


async def play(sides: list[Side], moves: int, gap: float, rngs: list[random.Random]) -> None:
    """Changes in every walkthrough, alternating one at a time, until each has ``moves`` timed moves in this
    half (``rngs`` alike: both walkthroughs play the same game)."""
    half = len(sides[0].halves) - 1
    while min(len(timed(side, half)) for side in sides) < moves:
        for side, rng in zip(sides, rngs, strict=True):
            await change(side, rng)
            await asyncio.sleep(gap)


def timed(side: Side, half: int) -> list[int]:
    """The changes timed in a half: its moves after the warm-up (a step back to the start is not a move)."""
    first = side.halves[half] + WARM_UP
    end = side.halves[half + 1] if half + 1 < len(side.halves) else len(side.plies)
    return [index for index in range(first, end) if side.plies[index] > 0 and index not in side.missed]


# ---------------------------------------------------------------- the figures


@dataclass
class Shown:
    """Per timed change of one walkthrough, seconds from the teacher's send: the real page's table listing the
    move, the next frame starting, and the last simulated student holding it (None for a walkthrough alone)."""

    page: list[float]
    frame: list[float]
    last_client: list[float] | None = None

    @property
    def everyone(self) -> list[float]:
        """The later of the real page and the last simulated student, per change."""
        clients = self.last_client or self.page
        return [max(page, client) for page, client in zip(self.page, clients, strict=True)]


def page_times(side: Side, half: int, records: list[list[float]]) -> tuple[list[float], list[float]]:
    """From the page's records, per timed change of a half, when its table listed the move and the next frame
    began."""
    offset = statistics.mean(c.offset for c in side.clocks)
    page, frame = [], []
    for index in timed(side, half):
        sent, ply = side.walk.sent[index], side.plies[index]
        seen = next(r for r in records if r[0] == ply and r[1] / 1000 - offset >= sent - max_error(side))
        page.append(seen[1] / 1000 - offset - sent)
        frame.append((seen[2] or seen[1]) / 1000 - offset - sent)
    return page, frame


def max_error(side: Side) -> float:
    return max(c.bracket for c in side.clocks) / 2


def last_clients(side: Side, half: int, arrivals: list[list[float]]) -> list[float]:
    """Per timed change of a half, from the send until the last simulated student held it: each student's first
    arrival before the next change was sent (a student who had left has none)."""
    sent = [*side.walk.sent, float("inf")]
    last = []
    for index in timed(side, half):
        held = [next((t for t in times if sent[index] <= t < sent[index + 1]), None) for times in arrivals]
        if None in held:
            print(f"  WARNING: {held.count(None)} simulated students did not hold {side.label}'s change {index}")
        last.append(max(t for t in held if t is not None) - sent[index])
    return last


def heard_away(side: Side, half: int, arrivals: list[list[float]]) -> int:
    """How many arrivals a walkthrough's simulated students noted in a half they had left it for (none: the host
    writes to the members who follow, and only to them)."""
    first, end = side.walk.sent[side.halves[half]], side.walk.sent[timed(side, half)[-1]]
    return sum(first <= t <= end for times in arrivals for t in times)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1]


def spread(values: list[float]) -> str:
    return f"median {ms(statistics.median(values))}, 90th percentile {ms(p90(values))}"


def ratio(many: list[float], one: list[float]) -> str:
    return f"{statistics.median(many) / statistics.median(one):.2f}x (90th percentiles {p90(many) / p90(one):.2f}x)"


def report(args: argparse.Namespace, alone: Shown, crowd: Shown, sides: list[Side]) -> None:
    assert crowd.last_client is not None
    simulated = args.students - 1
    print(
        f"A teacher's move on the students' tables ({args.game}, every hand shown; {len(alone.page)} moves each,"
        f" alternating, {args.gap} s apart; the class's real page joined {args.page_joins}; {os.cpu_count()} cores;"
        f" {load()}):"
    )
    if args.trade_places:
        print("  the pages TRADED PLACES halfway: each is timed alone in one half and in the class in the other")
    print(f"  reference, ONE real student page alone (host, its kernel, Chromium): {spread(alone.page)}")
    print(f"    ... its next frame begun: {spread(alone.frame)}")
    print(f"  the class: the real page among {args.students}: {spread(crowd.page)}")
    print(f"    ... its next frame begun: {spread(crowd.frame)}")
    print(
        f"  the class: the last of {simulated} SIMULATED students (websocket clients in {args.processes}"
        f" process(es); their kernels and browsers not run here): {spread(crowd.last_client)}"
    )
    later = sum(page >= client for page, client in zip(crowd.page, crowd.last_client, strict=True))
    print(f"  all {args.students} tables (the later of the two; the real page the later in {later}/{len(crowd.page)}):")
    print(f"    {spread(crowd.everyone)}")
    print(f"  ALL {args.students} / ONE ALONE: {ratio(crowd.everyone, alone.page)} (target: within 1.3x)")
    print(f"  the real page in the class / alone: {ratio(crowd.page, alone.page)}")
    print(f"    ... its next frame begun: {ratio(crowd.frame, alone.frame)}")
    for side in sides:
        drift = side.clocks[-1].offset - side.clocks[0].offset
        brackets = ", ".join(ms(c.bracket) for c in side.clocks)
        print(f"  {side.label}'s page clock: read within {brackets} (before, after); drift {ms(drift)}")
        if side.missed:
            print(f"  {side.label}'s page MISSED {len(side.missed)} change(s): {side.missed}")


# ---------------------------------------------------------------- running


def teacher_secret(host: Host) -> str:
    """The secret of the teacher link the host printed after its URL (classmates.py's servers read the URL)."""
    assert host.process.stdout is not None
    return host.process.stdout.readline().decode().split("?teacher=")[1].split()[0]


async def simulated(walk: Walk, host: Host, args: argparse.Namespace) -> None:
    """A walkthrough's simulated students, following it."""
    await walk.follow(host.url, args.students - 1, args.processes)
    print(f"  {args.students - 1} simulated students follow walkthrough {walk.code} ({load()})")


async def seated(browser: Browser, host: Host, app: Served, args: argparse.Namespace) -> list[Side]:
    """The two walkthroughs, their simulated students (the second's, or with ``--trade-places`` both's) and the
    two real pages following them, Maya's the first and Noor's the second."""
    secret = teacher_secret(host)
    walks = [await opened(host.url, secret, args.game, args.seed) for _ in range(2)]
    classes = walks if args.trade_places else walks[1:]
    for walk in classes if args.page_joins == "last" else []:
        await simulated(walk, host, args)
    url = f"{app.url}/voila/render/{args.game}.ipynb"
    started = time.monotonic()
    names = ("Maya", "Noor")
    pages = await asyncio.gather(*(student_page(browser, url, w.code, n) for w, n in zip(walks, names, strict=True)))
    print(f"  two real pages follow after {time.monotonic() - started:.0f} s ({load()})")
    for walk in classes if args.page_joins == "first" else []:
        await simulated(walk, host, args)
    return [Side("Maya", walks[0], pages[0]), Side("Noor", walks[1], pages[1])]


async def played(sides: list[Side], args: argparse.Namespace) -> int:
    """The moves, in one half (Noor's page in the class), or two with ``--trade-places`` (then Maya's); how many
    halves."""
    rngs = [random.Random(args.seed) for _ in sides]
    if not args.trade_places:
        await play(sides, args.moves, args.gap, rngs)
        return 1
    await sides[0].walk.order("leave")
    await play(sides, (args.moves + 1) // 2, args.gap, rngs)
    await sides[1].walk.order("leave")
    await sides[0].walk.order("join")
    print(f"  the pages trade places: Maya's is now the class's, Noor's alone ({load()})")
    for side in sides:
        side.halves.append(len(side.plies))
    await play(sides, args.moves // 2, args.gap, rngs)
    return 2


async def figures(sides: list[Side], halves: int) -> tuple[Shown, Shown]:
    """The pooled figures of the page alone and of the class (its real page and its last simulated student), from
    every half: in the first Noor's page is the class's, in the second Maya's."""
    arrivals = [(await side.walk.results())[0] for side in sides]
    records = [await side.page.evaluate("window.hkWalk.shown") for side in sides]
    alone, crowd, last = Shown([], []), Shown([], []), []
    for half in range(halves):
        solo, among = (0, 1) if half == 0 else (1, 0)
        for shown, side in ((alone, solo), (crowd, among)):
            page, frame = page_times(sides[side], half, records[side])
            shown.page += page
            shown.frame += frame
        last += last_clients(sides[among], half, arrivals[among])
        if arrivals[solo] and (heard := heard_away(sides[solo], half, arrivals[solo])):
            print(f"  WARNING: {sides[solo].label}'s simulated students, who had left, noted {heard} of its changes")
    crowd.last_client = last
    return alone, crowd


async def measure(browser: Browser, host: Host, app: Served, args: argparse.Namespace) -> None:
    sides = await seated(browser, host, app, args)
    for side in sides:
        side.clocks.append(await clock(side.page))
    halves = await played(sides, args)
    for side in sides:
        side.clocks.append(await clock(side.page))
    report(args, *await figures(sides, halves), sides)
    for side in sides:
        await side.walk.teacher.close()
        with contextlib.suppress(Exception):
            await side.page.close(run_before_unload=True)


async def run(args: argparse.Namespace) -> None:
    from playwright.async_api import async_playwright

    print(f"start ({load()})")
    with tempfile.TemporaryDirectory(prefix="walkthrough-pages-") as folder, servers(Path(folder)) as (host, app):
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
            await measure(browser, host, app, args)
            await asyncio.sleep(2)  # the tabs' unload asks the server to stop their kernels
            await browser.close()
    print(f"end ({load()})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=30, help="timed moves in each walkthrough (default 30)")
    parser.add_argument("--students", type=int, default=30, help="the class: one real page and the rest simulated")
    parser.add_argument("--processes", type=int, default=2, help="processes the simulated students run in")
    parser.add_argument("--game", default="hats", choices=("hats", "sombrero"), help="the page and its game")
    parser.add_argument("--gap", type=float, default=0.5, help="seconds after a page shows a move (default 0.5)")
    parser.add_argument(
        "--page-joins",
        default="last",
        choices=("last", "first"),
        help="the class's real page joins after the simulated students (default: the host writes to it last) or first",
    )
    parser.add_argument("--seed", type=int, default=44, help="the deal and the teacher's choices")
    parser.add_argument("--trade-places", action="store_true", help="the real pages trade places halfway")
    args = parser.parse_args()
    if args.moves < 2 or args.students < 2:
        parser.error("--moves and --students must be 2 or more")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
