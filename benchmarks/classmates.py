"""Play a classmate: a move between students' pages at a table the table host keeps, against a hot-seat table.

    PYTHONPATH=. .venv/bin/python benchmarks/classmates.py [--moves 30] [--tables 8] [--pages 32] [--think 1.0]
        [--game hats] [--parts relay class capacity] [--synchronous FULL] [--reduced-motion] [--frames]
        [--idle-browser]

Serves notebooks/ as `make app` does (benchmarks/app.py's `serve`: config/ on
JUPYTER_CONFIG_PATH, share/jupyter on JUPYTER_PATH, HATSKIT_POOL=0) beside a
table host started as `python -m tablehost --bind 127.0.0.1:0 --db FILE`, whose
URL the kernels get in TABLETOP_URL, and drives Debian's Chromium (Playwright,
one browser, each student's page in a browser context of its own). Students
sit down as the pages let them: the opener opens "Play with classmates…" on the
page's main table, types a name, chooses the players and presses "open a table";
the lobby shows the code; each classmate opens the page's link with
``?table=CODE``, types a name and presses "join"; the opener presses "Start"
once every seat is taken, and every page's main table becomes its seat's.
Moves are pressed as tests/browser/student.py presses them: a card or piece of
one's own, then a place the table lights.

Every page carries a recorder (an init script): the time of each click, and the
time each change of its main table's shown move happened (a MutationObserver
on the table: the move list marks another move), on the wall clock every page
of the browser shares (``performance.timeOrigin + performance.now()``). A
*relay* is the time from the click that completes a move on one page until
another page's table shows that move. Each figure is printed against a
reference measured in the same run:

1. ``relay`` (issue's target: within 1.3x). Two pages at one Sombrero table and,
   on the same server, a hot-seat page (``?seats=reader,reader``: two "a reader
   (you)" seats). One move at a time, alternately on the hot-seat page and at
   the shared table (whichever side is to move), ``--moves`` of each; each
   move waits until every page of its table shows it, then 0.3 s. Printed: the
   median and 90th percentile of the relay (click on one page until the other
   page shows it), of the hot-seat table's own (click until the same table
   shows it), and of the shared table's mover seeing its own move come back
   from the host; the ratio relay / hot-seat.
2. ``class`` (target: the slowest relay within 2x of a single table's).
   ``--tables`` tables of four (Hats, the `players` pills set to 4; Sombrero,
   which seats two, with ``--game sombrero``), every seat a student who thinks
   ``--think`` seconds (0.5x to 1.5x of it, at random) before picking up, each
   table playing to its end, all at once; before it and after it a single table
   of the same game, seated the same way, played the same way on the same
   servers (the reference). Printed: the tables played to their end, the
   median, 90th percentile and slowest relay of the class and of the single
   tables, and their ratios; for the class's ten slowest relays, their ply and
   how many moves the other tables clicked within 0.5 s of theirs (against the
   average of every relay: were the slow ones crowded?), and the relays of each
   table's first eight moves against the later ones'; the memory of the server
   and its kernels with every page open, the host's memory and CPU, and the CPU-seconds spent while the
   tables played, by whose (the browser's pages, the kernels, Voilà's server,
   the host, Playwright and this script, the rest of the machine). With
   ``--pages`` below the seats (the lighter variant, named so in the output)
   only that many seats are pages, spread over the tables (each table's opener
   first), and the other seats are Python clients of the host
   (``tablehost.client.TableClient``: no page, no kernel), which think as long
   and then play a random legal move; their moves' relays to the pages count,
   their own receipt of a move does not.
3. ``capacity``: benchmarks/host_capacity.py run as it is (its memory per table,
   moves per second, relay), then, from the class's own figures, what a school's
   hub of 300 students would need.

The load average is printed before and after each part: the machine is shared.
``--reduced-motion`` opens every page asking for reduced motion (a setting of
the student's system): each move shows at once, without the cards' glide,
whose drawing is most of a page's work on this machine (benchmarks/README.md).
``--synchronous NORMAL`` starts the host without syncing its file before it
tells a move (its own option), to see what the disk adds to a relay.

Where a class's relay goes: each is printed in parts, the click until the host
wrote the move (the ``at`` of its row in the host's file, just before the
commit), and from there until the other page showed it; with ``--frames``,
that second part is split again where the page's browser received its kernel's
widget message (Chromium's DevTools protocol times each websocket frame), so
the servers' part and the page's own part are told apart. ``--idle-browser``
runs the browser, every page's process with it, under Linux's SCHED_IDLE
(``chrt --idle``): a server's thread that is ready takes a core at once, as it
would if the pages ran on the students' own laptops (a variant, named so in
the output; as root, Chromium raises its browser and GPU threads above the
servers otherwise).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import os
import random
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout: benchmarks.* and tests.*

from benchmarks.app import CHROMIUM, CHROMIUM_ARGS, MB, NOTEBOOK_DIR, REPO, Served, serve
from benchmarks.processes import chromium_kind, cpu_seconds, machine_seconds, run_queue
from tests.browser.student import ORDER, PRESSABLE, STUDENTS

TIMEOUT_MS = 300_000  # any one wait of a page (30 pages opening at once on two cores take a minute or more)
PATIENCE_S = 180  # a table where nothing moves this long is given up
SETTLE_S = 0.3  # after a timed move, before the next (the table's motion ends; the relays do not overlap)
STUDENT_COUNT = 300  # the school's hub the capacity part speaks of
CLASS_PACE = 5.0  # seconds between two moves at a table, as host_capacity.py reckons a brisk class
GAMES = {"hats": ("hats", 4), "sombrero": ("sombrero", 2)}  # page name: (host's game id, players a table)
MAIN = ".hk-table.hk-main"
TARGET = "button.hk-legal:not(.hk-action)"  # a place on the table (app.py's TARGET), for the timed moves
# Every click, and every change of the main table's shown move (the move list's marked move: student.py's
# SHOWN_MOVE), with its time on the wall clock that all the browser's pages share.
RECORDER = """(() => {
  const now = () => performance.timeOrigin + performance.now();
  const record = (window.hkRecord = { clicks: [], shown: [], last: 0, waiters: new Set() });
  document.addEventListener("click", () => record.clicks.push(now()), { capture: true });
  const shownMove = (table) => [...table.querySelectorAll(".hk-movelist > li")]
    .findIndex((item) => item.getAttribute("aria-current") === "step") + 1;
  const attach = () => {
    const table = document.querySelector(".hk-table.hk-main");
    if (table === null) return void setTimeout(attach, 50);
    const look = () => {
      const shown = shownMove(table);
      if (shown !== record.last) {
        record.last = shown;
        record.shown.push([shown, now()]);
      }
    };
    const all = { subtree: true, childList: true, attributes: true, characterData: true };
    new MutationObserver(() => {
      look();
      for (const waiter of [...record.waiters]) waiter(); // UNTIL's checks, at each change of the table
    }).observe(table, all);
    look();
  };
  attach();
})();"""
# Resolves true once the main table shows a later move than ``moves`` (or the game is over, or, with ``pressed``,
# the button just pressed is picked up), false after ``ms``: checked at each change of the table (the recorder's
# MutationObserver), never by polling, so a page that waits costs nothing until its table changes.
UNTIL = """([moves, pressed, ms]) => new Promise((done) => {
  const record = window.hkRecord;
  const table = document.querySelector(".hk-table.hk-main");
  const met = () => record.last > moves || /game is over/i.test(table.querySelector(".hk-status").textContent)
    || (pressed && table.querySelector("[data-hk-pressed].hk-selected") !== null);
  if (met()) return done(true);
  const check = () => {
    if (!met()) return;
    clearTimeout(timer);
    record.waiters.delete(check);
    done(true);
  };
  const timer = setTimeout(() => {
    record.waiters.delete(check);
    done(false);
  }, ms);
  record.waiters.add(check);
})"""
MARK = PRESSABLE.replace("(table, [picks, tried]) => {", "(table, [picks, tried, kind, index]) => {").replace(
    "return Object.fromEntries",
    """for (const old of table.querySelectorAll("[data-hk-pressed]")) delete old.dataset.hkPressed;
  const chosen = buttons.filter(kinds[kind])[index];
  if (chosen) chosen.dataset.hkPressed = "1";
  return Object.fromEntries""",
)
DRAWN = "() => new Promise((done) => setTimeout(() => requestAnimationFrame(() => done()), 0))"


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f}"


def ms(seconds_or_ms: float) -> str:
    return f"{seconds_or_ms:.0f} ms"


def quantile(values: list[float], point: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(point * (len(ordered) - 1)))]


def spread(values: list[float]) -> str:
    """median, 90th percentile and slowest of some milliseconds."""
    if not values:
        return "none measured"
    return (
        f"median {ms(statistics.median(values))}, 90th percentile {ms(quantile(values, 0.9))},"
        f" slowest {ms(max(values))} ({len(values)})"
    )


# -- the servers ------------------------------------------------------------------------------------------


@dataclass
class Host:
    process: subprocess.Popen[bytes]
    url: str
    db: Path

    def written(self, code: str) -> dict[int, float]:
        """When the host wrote each move of a table (its ``moves.at``, just before the commit), in wall-clock ms."""
        with contextlib.closing(sqlite3.connect(f"file:{self.db}?mode=ro", uri=True)) as db:
            rows = db.execute("SELECT ply, at FROM moves WHERE code = ?", (code,)).fetchall()
        return {ply: at * 1000 for ply, at in rows}

    def cpu(self) -> float:
        return cpu_seconds(psutil.Process(self.process.pid))

    def rss(self) -> int:
        return psutil.Process(self.process.pid).memory_info().rss


@contextlib.contextmanager
def servers(folder: Path, synchronous: str = "FULL") -> Iterator[tuple[Host, Served]]:
    """The table host on a free loopback port and a file, and Voilà serving notebooks/ with TABLETOP_URL set."""
    db = folder / "tables.sqlite"
    command = [sys.executable, "-m", "tablehost", "--bind", "127.0.0.1:0", "--db", str(db)]
    command += ["--synchronous", synchronous]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert process.stdout is not None
    host = Host(process, process.stdout.readline().decode().split()[4], db)  # "table host listening on ws://... (...)"
    before = os.environ.get("TABLETOP_URL")
    os.environ["TABLETOP_URL"] = host.url
    try:
        with serve(NOTEBOOK_DIR) as app:
            yield host, app
    finally:
        if before is None:
            os.environ.pop("TABLETOP_URL", None)
        else:
            os.environ["TABLETOP_URL"] = before
        process.terminate()
        process.wait(20)


# -- a student's page -------------------------------------------------------------------------------------


@dataclass
class Student:
    """One student's page (its own browser context) and what it is called."""

    name: str
    context: object
    page: object
    errors: list[str] = field(default_factory=list)
    received: list[float] = field(default_factory=list)  # with --frames: wall-clock ms of each widget message
    sent: list[float] = field(default_factory=list)  # with --frames: and of each message to its kernel

    @property
    def table(self):
        return self.page.locator(MAIN)

    @property
    def fold(self):
        return self.table.locator("details.hk-classmates")

    async def record(self) -> dict:
        return await self.page.evaluate("window.hkRecord")

    async def shown(self) -> int:
        return int(await self.page.evaluate("window.hkRecord.last"))

    async def status(self) -> str:
        return " ".join((await self.table.locator(".hk-status").inner_text()).split())


async def new_student(browser, name: str, still: bool = False, frames: bool = False) -> Student:
    """A student's page in a browser context of its own; ``still``: one that asks for reduced motion; ``frames``:
    one whose widget messages are timed as the browser receives them (``watch_frames``)."""
    motion = "reduce" if still else "no-preference"
    context = await browser.new_context(viewport={"width": 1280, "height": 1600}, reduced_motion=motion)
    await context.add_init_script(RECORDER)
    page = await context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    student = Student(name, context, page)
    page.on("pageerror", lambda error: student.errors.append(f"page error: {error}"))
    page.on("console", lambda message: student.errors.append(message.text) if message.type == "error" else None)
    if frames:
        await watch_frames(student)
    return student


async def watch_frames(student: Student) -> None:
    """Note when the page's browser receives each widget message from its kernel, and sends one to it (a frame on
    the kernel's websocket that holds a ``comm_msg``), on the wall clock, through Chromium's DevTools protocol:
    they split a relay into the mover's page and browser, the servers, and the other page's own part. The protocol
    times frames on a clock of its own; the websocket's opening gives both clocks."""
    session = await student.context.new_cdp_session(student.page)
    offset: list[float] = []  # seconds: the wall clock less the protocol's clock

    def opened(params: dict) -> None:
        offset[:] = [params["wallTime"] - params["timestamp"]]

    def noter(times: list[float]):
        def note(params: dict) -> None:
            payload = params["response"]["payloadData"]
            data = base64.b64decode(payload) if params["response"]["opcode"] == 2 else payload.encode()
            if offset and b"comm_msg" in data:
                times.append((params["timestamp"] + offset[0]) * 1000)

        return note

    session.on("Network.webSocketWillSendHandshakeRequest", opened)
    session.on("Network.webSocketFrameReceived", noter(student.received))
    session.on("Network.webSocketFrameSent", noter(student.sent))
    await session.send("Network.enable")


async def open_page(student: Student, url: str) -> None:
    """Open the page, until its main table's "Play with classmates…" fold is there."""
    await student.page.goto(url, timeout=TIMEOUT_MS)
    await student.fold.locator("summary").wait_for(state="visible")


async def type_name(student: Student) -> None:
    box = student.fold.get_by_label("your name")
    await box.fill(student.name)
    await box.press("Tab")  # the box tells the kernel on its change event


async def open_table(student: Student, players: int | None) -> str:
    """Open a table from the page's fold (``players``: the pill to press, None where the game has one count)."""
    from playwright.async_api import expect

    fold = student.fold
    await fold.locator("summary").click()
    await type_name(student)
    if players is not None:
        pill = fold.get_by_role("radiogroup", name="players").get_by_role("radio", name=str(players), exact=True)
        await pill.click()
        await expect(pill).to_have_attribute("aria-checked", "true", timeout=TIMEOUT_MS)
    await fold.get_by_role("button", name="open a table", exact=True).click()
    lobby = fold.locator(".hk-lobby")
    await expect(lobby).to_contain_text(re.compile(r"Table [A-Z]+\."), timeout=TIMEOUT_MS)
    return re.search(r"Table ([A-Z]+)\.", await lobby.inner_text()).group(1)


async def join_table(student: Student, url: str, code: str) -> None:
    """Open the table's link (``?table=CODE``: the fold opens with the code), type a name and join."""
    from playwright.async_api import expect

    await open_page(student, f"{url}?table={code}")
    fold = student.fold
    await expect(fold.get_by_label("table code")).to_have_value(code, timeout=TIMEOUT_MS)
    await type_name(student)
    await fold.get_by_role("button", name="join", exact=True).click()
    await expect(fold.locator(".hk-lobby")).to_contain_text("Waiting for", timeout=TIMEOUT_MS)


async def start_table(opener: Student, players: int) -> None:
    """The opener presses Start once every seat is taken (the lobby names no empty seat)."""
    from playwright.async_api import expect

    lobby = opener.fold.locator(".hk-lobby")
    await expect(lobby.locator("li")).to_have_count(players, timeout=TIMEOUT_MS)
    await expect(lobby).not_to_contain_text("empty:", timeout=TIMEOUT_MS)
    start = opener.fold.get_by_role("button", name="Start", exact=True)
    await expect(start).to_be_enabled(timeout=TIMEOUT_MS)
    await start.click()


async def table_taken(student: Student) -> None:
    """The page's fold hides: its main table is its seat's."""
    from playwright.async_api import expect

    await expect(student.fold).to_be_hidden(timeout=TIMEOUT_MS)
    await expect(student.table.locator(".hk-status")).to_contain_text(re.compile("to move|thinking"))


async def close(students: list[Student], app: Served) -> None:
    """Close every tab as a student does (its unload asks the server to stop its kernel); wait for the kernels."""
    for student in students:
        with contextlib.suppress(Exception):
            await student.page.close(run_before_unload=True)
    await asyncio.sleep(2)
    for student in students:
        with contextlib.suppress(Exception):
            await student.context.close()
    deadline = time.monotonic() + 60
    while app.kernels() and time.monotonic() < deadline:
        await asyncio.sleep(0.5)
    if app.kernels():
        print(f"  ({len(app.kernels())} kernels still running 60 s after the tabs closed)")


# -- pressing ---------------------------------------------------------------------------------------------


def picks_for(game: str, status: str) -> str:
    """The student's own cards or pieces (student.py's STUDENTS); Sombrero's of the side the status names."""
    if game == "sombrero":
        side = status.split()[0] if status else "White"
        return f'button.hk-sq[title*=": {side}, hatted"]'
    return STUDENTS[game].picks


async def timed_move(
    students: list[Student], game: str, rng: random.Random
) -> tuple[str, dict[str, float], float] | None:
    """One move at a table, by whichever of ``students`` is to move, to a place the table lights; then wait until
    every page shows it. The mover's name, the milliseconds from the completing click until each page showed the
    move (by name) and the click's wall-clock ms; None when the game is over."""
    deadline = time.monotonic() + PATIENCE_S
    while True:
        statuses = [await student.status() for student in students]
        if any("game is over" in status.lower() for status in statuses):
            return None
        movers = [s for s, status in zip(students, statuses, strict=True) if "to move" in status]
        if movers:
            break
        if time.monotonic() > deadline:
            raise RuntimeError(f"nobody is to move: {statuses}")
        await asyncio.sleep(0.1)
    mover, status = movers[0], statuses[students.index(movers[0])]
    table = mover.table
    before = {student.name: await student.shown() for student in students}
    candidates = table.locator(picks_for(game, status)).filter(visible=True)
    order = list(range(await candidates.count()))
    rng.shuffle(order)
    for index in order:
        await candidates.nth(index).click()  # picked up on the page: no kernel message
        await mover.page.evaluate(DRAWN)
        targets = table.locator(TARGET)
        if await targets.count():
            break
    else:
        raise RuntimeError(f"no piece of {mover.name}'s has a place to go: {status}")
    await targets.nth(rng.randrange(await targets.count())).click()
    for student in students:
        if not await student.page.evaluate(UNTIL, [before[student.name], False, TIMEOUT_MS]):
            raise RuntimeError(f"{student.name}'s page did not show the move within {TIMEOUT_MS // 1000} s")
    records = {student.name: await student.record() for student in students}
    clicked = records[mover.name]["clicks"][-1]
    shown = {
        name: next(at for move, at in record["shown"] if move > before[name]) - clicked
        for name, record in records.items()
    }
    await asyncio.sleep(SETTLE_S)
    return mover.name, shown, clicked


async def relay_part(browser, host: Host, app: Served, args: argparse.Namespace) -> None:
    """Figure 1: a Sombrero move relayed from one student's page to the other's, against a hot-seat table's move."""
    url = f"{app.url}/voila/render/sombrero.ipynb"
    ana, ben, hot = [await new_student(browser, name, args.reduced_motion) for name in ("Ana", "Ben", "Hot")]
    await asyncio.gather(open_page(ana, url), open_page(hot, f"{url}?seats=reader,reader"))
    code = await open_table(ana, None)
    await join_table(ben, url, code)
    await start_table(ana, 2)
    await asyncio.gather(table_taken(ana), table_taken(ben))
    print(f"table {code}: Ana (White) and Ben (Black) at the host; a hot-seat page with two readers")
    rng = random.Random(args.seed)
    own, relayed, mover_sees, clicks = [], [], [], []
    while len(own) < args.moves or len(relayed) < args.moves:
        if len(own) < args.moves:
            seen = await timed_move([hot], "sombrero", rng)
            if seen is None:
                print("  the hot-seat game ended")
                break
            own.append(seen[1][hot.name])
        if len(relayed) < args.moves:
            seen = await timed_move([ana, ben], "sombrero", rng)
            if seen is None:
                print("  the shared game ended")
                break
            mover, shown, clicked = seen
            mover_sees.append(shown[mover])
            relayed += [at for name, at in shown.items() if name != mover]
            clicks.append(clicked)
    print(f"hot-seat table, click until the same table shows the move: {spread(own)}")
    print(f"shared table, click on one page until the other page shows it: {spread(relayed)}")
    print(f"shared table, click until the mover's own page shows it (back from the host): {spread(mover_sees)}")
    written = host.written(code)  # ply k is the shared table's k-th move: two readers, no bots
    to_host = [written[ply] - click for ply, click in enumerate(clicks, start=1)]  # one other page: relayed[i]
    print(f"  {split(to_host, [at - part for at, part in zip(relayed, to_host, strict=True)])}")
    ratio = statistics.median(relayed) / statistics.median(own)
    print(
        f"RELAY: median {ms(statistics.median(relayed))} against {ms(statistics.median(own))} on a hot-seat table:"
        f" {ratio:.2f}x (target 1.3x); 90th percentiles {quantile(relayed, 0.9) / quantile(own, 0.9):.2f}x"
    )
    await close([ana, ben, hot], app)


# -- a class ----------------------------------------------------------------------------------------------


async def play_page(student: Student, game: str, rng: random.Random, think: float, deadline: float) -> str:
    """Press what a student would, when their page says they are to move, until the game is over: a card or piece
    of their own (after thinking), then one of the buttons the table offers (student.py's order). How it ended."""
    table, page = student.table, student.page
    tried: list[str] = []
    seen = -1
    while time.monotonic() < deadline:
        status = await student.status()
        if "game is over" in status.lower():
            return "over"
        moves = await student.shown()
        if moves != seen:
            tried, seen = [], moves
        picks = picks_for(game, status)
        counts = await table.evaluate(PRESSABLE, [picks, tried]) if "to move" in status else {}
        kind = next((kind for kind in ORDER if counts.get(kind)), None)
        if kind is None and "to move" in status:
            return f"nothing to press: {status}"
        if kind is None:
            if not await page.evaluate(UNTIL, [moves, False, PATIENCE_S * 1000]):
                return f"nobody moved for {PATIENCE_S} s: {status}"
            continue
        if kind == "picks" and not tried and think:
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        await table.evaluate(MARK, [picks, tried, kind, rng.randrange(counts[kind])])
        pressed = table.locator("[data-hk-pressed]")
        if not await pressed.count():
            continue
        if kind == "picks":
            tried.append(await pressed.get_attribute("data-part") or "")
        await pressed.click()
        if kind == "picks":
            await page.evaluate(DRAWN)  # picked up on the page itself
            continue
        await page.evaluate(UNTIL, [moves, True, PATIENCE_S * 1000])  # a move, or a hat picked up to choose from
    return "out of time"


async def play_client(client, sends: list[float], rng: random.Random, think: float, deadline: float) -> str:
    """A seat the lighter variant leaves to a Python client of the host: when it is to act, it thinks, then plays a
    random legal move (its sending time noted, as a page's click is)."""

    def acting_or_over(c) -> bool:
        return c.state is not None and (c.state["status"] != "playing" or c.seat in c.state["acting"])

    while time.monotonic() < deadline:
        try:
            await client.wait_for(acting_or_over, timeout=PATIENCE_S)
        except TimeoutError:
            return f"nobody moved for {PATIENCE_S} s"
        if client.state["status"] != "playing":
            return "over"
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        ply = client.state["ply"]
        sends.append(time.time() * 1000)
        await client.move(rng.choice(client.state["legal"]))
        await client.wait_for(lambda c, ply=ply: c.state["ply"] > ply, timeout=PATIENCE_S)
    return "out of time"


class Relay(NamedTuple):
    """A move shown on another page than the mover's: its click (wall-clock ms), its ply, the ms it took, and the ms
    from the click until the host wrote the move (the mover's page, the server, the mover's kernel and the host's
    reading of it; the rest is the commit, the relay to the other kernels, the server and the page)."""

    clicked: float
    ply: int
    ms: float
    to_host: float
    to_browser: float | None  # with --frames: the click until the page's browser received the kernel's message
    sent: float | None  # with --frames: the click until the mover's browser sent it to the mover's kernel


def after(times: list[float], start: float, end: float) -> float | None:
    """The first of ``times`` from ``start`` to ``end``, in ms after ``start``; None if there is none."""
    return next((at - start for at in times if start <= at <= end), None)


def first_shown(record: dict) -> dict[int, float]:
    """When a page first showed each move (by ply), from its record; a jump of several moves shows each of them."""
    first: dict[int, float] = {}
    for move, at in record["shown"]:
        for ply in range(1, int(move) + 1):
            first.setdefault(ply, at)
    return first


@dataclass
class Table:
    """One table of a class: its pages and clients, how each seat's play ended, and the moves' relays."""

    code: str = ""
    students: list[Student] = field(default_factory=list)
    clients: list = field(default_factory=list)
    sends: list[float] = field(default_factory=list)  # the clients' moves, when sent
    ended: list[str] = field(default_factory=list)
    plies: int = 0
    relayed: list[Relay] = field(default_factory=list)  # each move shown on another page than the mover's
    own: list[float] = field(default_factory=list)  # ms: the click until the mover's own page showed it

    @property
    def relays(self) -> list[float]:
        """ms: a move's click until another page showed it."""
        return [relay.ms for relay in self.relayed]

    @property
    def finished(self) -> bool:
        return bool(self.ended) and all(end == "over" for end in self.ended)

    def measure(self, records: list[dict], written: dict[int, float]) -> None:
        """The relays of every move, from the pages' records and when the host wrote each move (``written``, by
        ply): a move's completing click is the last click (or client send) at the table before any page showed the
        move; every other page's first showing of it counts, with the first widget message its browser received
        after the host wrote the move (with --frames)."""
        firsts = [first_shown(record) for record in records]
        events = sorted(
            [(at, index) for index, record in enumerate(records) for at in record["clicks"]]
            + [(at, -1) for at in self.sends]
        )
        self.plies = max((max(first, default=0) for first in firsts), default=0)
        for ply in range(1, self.plies + 1):
            shown = [first.get(ply) for first in firsts]
            earliest = min(at for at in shown if at is not None)
            before = [event for event in events if event[0] < earliest]
            if not before:
                continue
            clicked, mover = before[-1]
            hosted = written.get(ply, clicked)
            sent = None if mover < 0 else after(self.students[mover].sent, clicked, hosted)
            for index, at in enumerate(shown):
                if at is None:
                    continue
                if index == mover:
                    self.own.append(at - clicked)
                else:
                    got = after(self.students[index].received, hosted, at)
                    to_browser = None if got is None else hosted - clicked + got
                    self.relayed.append(Relay(clicked, ply, at - clicked, hosted - clicked, to_browser, sent))


@dataclass
class Class:
    """What one class (or a single table) did."""

    label: str
    tables: list[Table]
    pages: int
    clients: int
    seconds: float = 0.0
    memory: int = 0  # the server and its kernels, with every page open
    kernels: int = 0
    host_rss: int = 0
    host_cpu: float = 0.0  # the host's CPU seconds while the tables played
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds while they played, by whose (CpuWatch)
    queued: dict[str, tuple[float, int]] = field(default_factory=dict)  # seconds waited for a core, and runs

    @property
    def relays(self) -> list[float]:
        return [at for table in self.tables for at in table.relays]

    @property
    def moves(self) -> int:
        return sum(table.plies for table in self.tables)


async def seat_class(
    browser, host: Host, app: Served, args: argparse.Namespace, tables: int, pages: int, label: str
) -> Class:
    """Seat ``tables`` tables as students do (pages through the fold, clients through the host), start them, and
    play every table to its end, all at once."""
    from tablehost.client import TableClient

    game_id, players = GAMES[args.game]
    url = f"{app.url}/voila/render/{args.game}.ipynb"
    slots = [(number, seat) for seat in range(players) for number in range(tables)]  # each table's opener first
    paged = set(slots[:pages])
    seated = [Table() for _ in range(tables)]
    result = Class(label, seated, min(pages, len(slots)), max(0, len(slots) - pages))

    def name(number: int, seat: int) -> str:
        return f"Student {number + 1}.{seat + 1}"

    async def opener(number: int) -> None:
        table = seated[number]
        if (number, 0) in paged:
            student = await new_student(browser, name(number, 0), args.reduced_motion, args.frames)
            table.students.append(student)
            await open_page(student, url)
            table.code = await open_table(student, players if args.game == "hats" else None)
        else:
            client = TableClient(host.url)
            await client.connect()
            table.clients.append(client)
            table.code = (await client.open(game_id, players, name(number, 0)))["code"]

    async def joiner(number: int, seat: int) -> None:
        table = seated[number]
        if (number, seat) in paged:
            student = await new_student(browser, name(number, seat), args.reduced_motion, args.frames)
            table.students.append(student)
            try:
                await join_table(student, url, table.code)
            except AssertionError:
                print(f"  {student.name} was not seated; the page's errors: {sorted(set(student.errors)) or 'none'}")
                raise
        else:
            client = TableClient(host.url)
            await client.connect()
            table.clients.append(client)
            await client.join(table.code, name(number, seat))

    async def starter(number: int) -> None:
        table = seated[number]
        if (number, 0) in paged:
            await start_table(table.students[0], players)
        else:
            full = lambda c: c.presence is not None and all(s["kind"] != "open" for s in c.presence["seats"])  # noqa: E731
            await table.clients[0].wait_for(full, timeout=TIMEOUT_MS / 1000)
            await table.clients[0].start()
        await asyncio.gather(*(table_taken(student) for student in table.students))

    start = time.monotonic()
    await asyncio.gather(*(opener(number) for number in range(tables)))
    print(f"  {label}: {tables} table(s) opened after {time.monotonic() - start:.0f} s ({load()})")
    await asyncio.gather(*(joiner(number, seat) for number in range(tables) for seat in range(1, players)))
    print(f"  {label}: every seat taken after {time.monotonic() - start:.0f} s ({load()})")
    await asyncio.gather(*(starter(number) for number in range(tables)))
    print(f"  {label}: every table started after {time.monotonic() - start:.0f} s ({load()})")

    rng = random.Random(f"{args.seed} {label}")
    deadline = time.monotonic() + args.timeout
    cpu, began, groups = host.cpu(), time.monotonic(), CpuWatch(host, app)

    async def seat_plays(table: Table, player, seed: int) -> None:
        own_rng = random.Random(seed)
        if isinstance(player, Student):
            end = await play_page(player, args.game, own_rng, args.think, deadline)
        else:
            end = await play_client(player, table.sends, own_rng, args.think, deadline)
        table.ended.append(end)

    players_of = [(table, player) for table in seated for player in (*table.students, *table.clients)]
    await asyncio.gather(*(seat_plays(table, player, rng.randrange(2**32)) for table, player in players_of))
    result.seconds, result.host_cpu = time.monotonic() - began, host.cpu() - cpu
    result.cpu, result.queued = groups.spent()
    result.memory, result.kernels, result.host_rss = app.memory(), len(app.kernels()), host.rss()
    for table in seated:
        table.measure([await student.record() for student in table.students], host.written(table.code))
    errors = {error for table in seated for student in table.students for error in student.errors}
    for error in sorted(errors)[:5]:
        print(f"  console error: {error[:300]}")
    for table in seated:
        for client in table.clients:
            await client.close()
    await close([student for table in seated for student in table.students], app)
    return result


class CpuWatch:
    """CPU seconds spent from now on, by whose: the students' browser (Chromium), Playwright's driver and this script,
    Voilà's server, its kernels, the table host, and the rest of the machine (other engineers' work); and, for ours,
    how long their threads waited for a core once ready to run (Linux's schedstat: the run queue's wait)."""

    GROUPS = ("browser", "kernels", "server", "host", "driver and script", "rest of the machine")

    def __init__(self, host: Host, app: Served) -> None:
        self.host, self.app = host, app
        self.before = self._ours()
        self.machine = machine_seconds()

    def _ours(self) -> dict[int, tuple[str, float, float, int]]:
        kernels = {kernel.pid for kernel in self.app.kernels()}
        own = psutil.Process()
        found: dict[int, tuple[str, float, float, int]] = {}
        for process in [own, *own.children(recursive=True)]:
            with contextlib.suppress(psutil.Error):  # gone meanwhile: left out, not counted as zero
                found[process.pid] = (self._group(process, kernels), cpu_seconds(process), *run_queue(process.pid))
        return found

    def _group(self, process: psutil.Process, kernels: set[int]) -> str:
        """Whose ``process`` is, as GROUPS names them (``kernels``: the pids of Voilà's kernels)."""
        if process.pid == self.host.process.pid:
            return "host"
        if process.pid == self.app.process.pid:
            return "server"
        if process.pid in kernels:
            return "kernels"
        return "browser" if chromium_kind(process) else "driver and script"

    def spent(self) -> tuple[dict[str, float], dict[str, tuple[float, int]]]:
        """The CPU-seconds by whose, and for our groups the seconds waited for a core and the runs since."""
        spent = dict.fromkeys(self.GROUPS, 0.0)
        queued = {group: (0.0, 0) for group in self.GROUPS[:-1]}
        for pid, (group, seconds, waited, runs) in self._ours().items():
            _, seconds_before, waited_before, runs_before = self.before.get(pid, (group, 0.0, 0.0, 0))
            spent[group] += seconds - seconds_before
            total, count = queued[group]
            queued[group] = (total + waited - waited_before, count + runs - runs_before)
        spent["rest of the machine"] = max(0.0, machine_seconds() - self.machine - sum(spent.values()))
        return spent, queued


def parts(relay: Relay) -> str:
    """When a relay's move left the mover's browser, reached the host and reached the other page's browser, in ms
    from the click (the browsers' only with --frames)."""
    times = [relay.sent, relay.to_host, relay.to_browser]
    return " / ".join("?" if at is None else ms(at) for at in times)


def crowding(result: Class, slowest: int = 10, window_ms: float = 500.0) -> str:
    """Whether the class's slowest relays came when other tables moved too: for each, its ply and how many moves
    of the other tables were clicked within ``window_ms`` of its own click, before or after; against the same
    count for every relay of the class."""
    clicks = [sorted({relay.clicked for relay in table.relayed}) for table in result.tables]

    def others(number: int, clicked: float) -> int:
        return sum(
            abs(at - clicked) <= window_ms for other, times in enumerate(clicks) if other != number for at in times
        )

    counted = [
        (relay, others(number, relay.clicked)) for number, table in enumerate(result.tables) for relay in table.relayed
    ]
    mean = statistics.mean(count for _, count in counted) if counted else 0.0
    worst = sorted(counted, key=lambda pair: pair[0].ms, reverse=True)[:slowest]
    listed = ", ".join(f"{ms(relay.ms)} (ply {relay.ply}: {count}; {parts(relay)})" for relay, count in worst)
    return (
        f"the {slowest} slowest relays (the ply; the other tables' moves clicked within {window_ms:.0f} ms of"
        f" its click; from the click until the mover's browser sent it / the host wrote it / the page's browser"
        f" received it, the browsers' with --frames): {listed}; every relay's average {mean:.1f}"
    )


def split(to_host: list[float], onwards: list[float]) -> str:
    """A relay told in two: the click until the host wrote the move, and from there until another page showed it."""
    return (
        f"the click until the host wrote the move: {spread(to_host)}; from there until another page showed it:"
        f" {spread(onwards)}"
    )


def halves(result: Class) -> str:
    """Each relay in parts: the click until the host wrote the move (the mover's page, the server, the mover's
    kernel, the host reading it; once a move), and from there until the other page showed it (the commit, the
    other kernels, the server, the page); with --frames, that second part split where the page's browser
    received its kernel's message."""
    relayed = [relay for table in result.tables for relay in table.relayed]
    written = {(table.code, relay.ply): relay.to_host for table in result.tables for relay in table.relayed}
    halves_said = split(list(written.values()), [relay.ms - relay.to_host for relay in relayed])
    timed = [relay for relay in relayed if relay.to_browser is not None and relay.sent is not None]
    if not timed:
        return halves_said
    sent = {(table.code, relay.ply): relay.sent for table in result.tables for relay in table.relayed if relay.sent}
    return (
        f"{halves_said}. With the browsers' frames: the click until the mover's browser sent the move:"
        f" {spread(list(sent.values()))}; the host's writing until the other page's browser received its kernel's"
        f" message: {spread([relay.to_browser - relay.to_host for relay in timed])}; the page's own part after it:"
        f" {spread([relay.ms - relay.to_browser for relay in timed])}"
    )


def by_ply(result: Class, first: int = 8) -> str:
    """The relays of each table's first ``first`` moves against the later ones': does a class start slowly?"""
    relayed = [relay for table in result.tables for relay in table.relayed]
    early = spread([relay.ms for relay in relayed if relay.ply <= first])
    later = spread([relay.ms for relay in relayed if relay.ply > first])
    return f"relays of plies 1-{first}: {early}; of the later plies: {later}"


def report_class(result: Class) -> None:
    finished = sum(table.finished for table in result.tables)
    variant = f", {result.clients} seats played by Python clients of the host" if result.clients else ""
    print(
        f"{result.label}: {len(result.tables)} table(s), {result.pages} pages{variant}; {result.moves} moves in"
        f" {result.seconds:.0f} s ({load()})"
    )
    print(f"  played to their end: {finished}/{len(result.tables)}", end="")
    unfinished = [
        f"{table.code}: {', '.join(sorted(set(table.ended)))}" for table in result.tables if not table.finished
    ]
    print(f" (not: {'; '.join(unfinished)})" if unfinished else "")
    print(f"  moves a table: {', '.join(str(table.plies) for table in result.tables)}")
    print(f"  relay, a move's click (or a client's send) until another page shows it: {spread(result.relays)}")
    own = [at for table in result.tables for at in table.own]
    print(f"  the mover's own page, back from the host: {spread(own)}")
    print(f"  {halves(result)}")
    if len(result.tables) > 1:
        medians = [statistics.median(table.relays) for table in result.tables if table.relays]
        print(f"  each table's median relay: {', '.join(ms(median) for median in medians)}")
        print(f"  {crowding(result)}")
        print(f"  {by_ply(result)}")
    per_page = result.memory / max(1, result.pages) / MB
    print(
        f"  with every page open: the server and {result.kernels} kernels {result.memory / MB:.0f} MB"
        f" ({per_page:.0f} MB a page); the host {result.host_rss / MB:.0f} MB,"
        f" {result.host_cpu:.1f} CPU-s while playing ({result.host_cpu / max(1, result.moves) * 1000:.2f} ms a move)"
    )
    if result.cpu:
        whose = ", ".join(f"{group} {seconds:.1f}" for group, seconds in result.cpu.items())
        cores = psutil.cpu_count() or 1
        available = f"{cores} cores x {result.seconds:.0f} s = {cores * result.seconds:.0f}"
        print(f"  CPU-seconds while playing ({available}): {whose}")
        waits = ", ".join(
            f"{group} {waited:.1f} s over {runs} runs ({waited / max(1, runs) * 1000:.2f} ms a run)"
            for group, (waited, runs) in result.queued.items()
        )
        print(f"  waiting for a core once ready to run (Linux's schedstat, every thread): {waits}")


async def class_part(browser, host: Host, app: Served, args: argparse.Namespace) -> Class | None:
    """Figure 2: a single table, the class, a single table again; the class's relays against the single tables'."""
    _, players = GAMES[args.game]
    pages = -(-args.pages // args.tables) if args.pages < args.tables * players else players  # the class's tables
    singles = [await seat_class(browser, host, app, args, 1, pages, "single table (before)")]
    report_class(singles[0])
    class_ = await seat_class(browser, host, app, args, args.tables, args.pages, "class")
    report_class(class_)
    singles.append(await seat_class(browser, host, app, args, 1, pages, "single table (after)"))
    report_class(singles[1])
    single = [at for result in singles for at in result.relays]
    relays = class_.relays
    if not single or not relays:
        print("CLASS: no relay measured, no ratio")
        return class_
    finished = sum(table.finished for table in class_.tables)
    variant = "" if not class_.clients else f" (LIGHTER VARIANT: {class_.pages} pages, {class_.clients} clients)"
    variant += " (REDUCED MOTION: no card glides)" if args.reduced_motion else ""
    variant += " (IDLE BROWSER: the servers take a core first)" if args.idle_browser else ""
    print(
        f"CLASS{variant}: {finished}/{len(class_.tables)} tables played to their end; relay median"
        f" {ms(statistics.median(relays))} against a single table's {ms(statistics.median(single))}"
        f" ({statistics.median(relays) / statistics.median(single):.2f}x); slowest {ms(max(relays))} against"
        f" {ms(max(single))} ({max(relays) / max(single):.2f}x, target 2x); 90th percentile"
        f" {quantile(relays, 0.9) / quantile(single, 0.9):.2f}x"
    )
    return class_


# -- the host's capacity, and a school -------------------------------------------------------------------


def capacity_part(class_: Class | None, args: argparse.Namespace) -> None:
    """Figure 3: host_capacity.py as it is, then what a hub of 300 students would need, from this run's class."""
    command = [sys.executable, str(REPO / "benchmarks" / "host_capacity.py")]
    print(f"$ PYTHONPATH=. {' '.join(command[1:])} ({load()})")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    subprocess.run(command, cwd=REPO, env=env, check=False)
    print(f"({load()})")
    if class_ is None or not class_.moves:
        return
    game_id, players = GAMES[args.game]
    tables = STUDENT_COUNT // players
    per_page = class_.memory / max(1, class_.pages)
    cpu_a_move = class_.host_cpu / class_.moves
    pace = tables / CLASS_PACE
    seats_a_page = (class_.pages + class_.clients) / class_.pages  # the lighter variant: a kernel for every seat
    kernels_a_move = (class_.cpu.get("kernels", 0.0) + class_.cpu.get("server", 0.0)) / class_.moves * seats_a_page
    print(
        f"A hub of {STUDENT_COUNT} students at {tables} {game_id} tables of {players}, from this run's class"
        f" ({class_.pages} pages): kernels and server {STUDENT_COUNT * per_page / 2**30:.1f} GB"
        f" ({per_page / MB:.0f} MB a page); at a move every {CLASS_PACE:.0f} s a table ({pace:.0f} moves/s) the"
        f" host's CPU {pace * cpu_a_move:.2f} of a core ({cpu_a_move * 1000:.2f} ms a move, its relays to every"
        f" seat included) and the kernels' and server's {pace * kernels_a_move:.2f} cores"
        f" ({kernels_a_move * 1000:.0f} ms a move, every seat's kernel)"
    )


# -- running ----------------------------------------------------------------------------------------------


def idle_chromium(folder: Path) -> str:
    """A Chromium under Linux's SCHED_IDLE (``chrt --idle``; every page's process inherits it, and Chromium's own
    priorities, which raise its browser and GPU threads as root, only set a niceness within it): whenever a
    server's thread is ready it takes a core at once, as it would if the pages ran on the students' laptops."""
    wrapper = folder / "chromium-idle"
    wrapper.write_text(f'#!/bin/sh\nexec chrt --idle 0 {CHROMIUM} "$@"\n')
    wrapper.chmod(0o755)
    return str(wrapper)


async def run(args: argparse.Namespace) -> None:
    from playwright.async_api import async_playwright

    class_ = None
    with tempfile.TemporaryDirectory() as folder, servers(Path(folder), args.synchronous) as (host, app):
        print(f"table host {host.url}; Voilà {app.url} ({load()})")
        async with async_playwright() as playwright:
            chromium = idle_chromium(Path(folder)) if args.idle_browser else str(CHROMIUM)
            browser = await playwright.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
            if "relay" in args.parts:
                await relay_part(browser, host, app, args)
                print(f"({load()})")
            if "class" in args.parts:
                class_ = await class_part(browser, host, app, args)
                print(f"({load()})")
            await browser.close()
    if "capacity" in args.parts:
        capacity_part(class_, args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=30, help="timed moves on the hot-seat and the shared table each")
    parser.add_argument("--tables", type=int, default=8, help="tables in the class")
    parser.add_argument("--pages", type=int, default=None, help="seats of the class that are pages (default: all)")
    parser.add_argument("--think", type=float, default=1.0, help="seconds a student thinks before picking up")
    parser.add_argument("--game", default="hats", choices=sorted(GAMES), help="the class's game")
    parser.add_argument("--timeout", type=int, default=3600, help="seconds the class may play")
    parser.add_argument("--seed", type=int, default=43, help="the students' choices")
    parser.add_argument(
        "--synchronous",
        default="FULL",
        choices=["FULL", "NORMAL"],
        help="the host's SQLite synchronous setting (`python -m tablehost --synchronous`; FULL, as `make app` runs it)",
    )
    parser.add_argument(
        "--reduced-motion",
        action="store_true",
        help="every page asks for reduced motion, as a student's system setting may: moves show without the glide",
    )
    parser.add_argument(
        "--idle-browser",
        action="store_true",
        help="run the browser under SCHED_IDLE: the servers take a core when they need one, as on students' laptops",
    )
    parser.add_argument(
        "--frames",
        action="store_true",
        help="the class's pages also time when their browser receives each widget message (Chromium's DevTools)",
    )
    parser.add_argument(
        "--parts", nargs="*", default=["relay", "class", "capacity"], choices=["relay", "class", "capacity"]
    )
    args = parser.parse_args()
    if args.pages is None:
        args.pages = args.tables * GAMES[args.game][1]
    if args.moves < 1 or args.tables < 1 or args.pages < 1:
        parser.error("--moves, --tables and --pages must be 1 or more")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
