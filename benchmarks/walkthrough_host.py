"""A class of 30 following a walkthrough, at the host: the two figures of "The class together".

    PYTHONPATH=. .venv/bin/python benchmarks/walkthrough_host.py [--students 30] [--processes 1] [--moves 60]
        [--questions 10] [--game hats] [--shows all] [--gap 0.05] [--url WS_URL --teacher SECRET]

Starts ``python -m tablehost`` on a loopback port and a file in this checkout
(as ``make app`` does: SQLite on the same disk, ``synchronous=FULL``) and reads
the teacher link it prints (or uses the host at ``--url``). The teacher's
client runs here; each student is a websocket client
(:class:`tablehost.client.TableClient`), the students spread over
``--processes`` processes (30: one each, as each student's kernel is; fewer
fit a machine with few cores better): one walkthrough with **one** student
following it, another with ``--students`` following it. A student notes when
each new position reached it (``time.perf_counter``: the system's monotonic
clock, the same in every process) and, when a position asks "your move?",
sends its one try at once. Prints, in one run:

1. **A teacher's move reaching the class**: the time from the teacher's client
   sending a move until the last student of the class holds the new position
   (its ``walk`` frame read and parsed), against the same for the student
   alone. The moves alternate between the two walkthroughs, ``--gap`` seconds
   apart, so both see the same machine. The figure asked: the class within
   1.3x of one student alone. Every change is one frame for all the students,
   built and encoded once; the host then writes it to 30 sockets, and the 30
   processes read it, on however many cores the machine has (printed).
2. **30 answers counted**: the teacher asks "your move?"; each student tries a
   move as soon as the question reaches them (a legal move of the asked seat,
   or half the time one of its cards put anywhere, which the rules may
   refuse); the time from the last try sent until the teacher's client holds a
   tally counting all of them. The figure asked: within a second of the last.
   Meanwhile the strong bot thinks about the question in the host's thinker process;
   when its move reached the teacher is printed too.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from tablehost.client import TableClient, TableRefused

REPO = Path(__file__).resolve().parents[1]
LAST_PLY = 30  # the teacher steps back to the start from here (or the end), and plays a new line
WARM_UP = 5  # changes before the timing starts


# ---------------------------------------------------------------- students, in processes of their own


def students(url: str, code: str, names: list[str], seed: int, pipe: Connection) -> None:
    """A process of students: each follows the walkthrough, notes each position's arrival and tries each question
    once; told "leave" or "join", they all stop following or follow again (the same members: the host writes to
    them in the same order) and say "done"; told "stop", the process sends back every student's arrival times and
    tries' sending times."""
    asyncio.run(_students(url, code, names, seed, pipe))


async def _students(url: str, code: str, names: list[str], seed: int, pipe: Connection) -> None:
    pupils = [Pupil(url, random.Random(seed + number)) for number in range(len(names))]
    for pupil, name in zip(pupils, names, strict=True):
        await pupil.join(code, name)
    pipe.send("ready")
    while (order := await asyncio.to_thread(pipe.recv)) != "stop":
        await asyncio.gather(
            *(
                pupil.leave() if order == "leave" else pupil.join(code, name)
                for pupil, name in zip(pupils, names, strict=True)
            )
        )
        pipe.send("done")
    pipe.send([(pupil.arrivals[1:], pupil.tries) for pupil in pupils])  # the first position is the join's
    for pupil in pupils:
        await pupil.client.close()


class Pupil:
    """One student's client: when each position reached it, and when it sent its try at each question."""

    def __init__(self, url: str, rng: random.Random) -> None:
        self.client = TableClient(url, on_frame=self.noted)
        self.rng = rng
        self.arrivals: list[float] = []
        self.tries: dict[int, float] = {}
        self._pending: set[asyncio.Future[None]] = set()

    async def join(self, code: str, name: str) -> None:
        """Follow the walkthrough (connecting first, the first time)."""
        if self.client.walk_code is None:
            await self.client.connect()
        self.client.walk = None
        await self.client.walk_join(code, name=name)
        await self.client.wait_for(lambda c: c.walk is not None)

    async def leave(self) -> None:
        await self.client.walk_leave()

    def noted(self, frame: dict[str, Any]) -> None:
        if frame["type"] != "walk":
            return
        self.arrivals.append(time.perf_counter())
        number = (frame["question"] or {}).get("number")
        if number is not None and number not in self.tries:
            self.tries[number] = time.perf_counter()
            task = asyncio.ensure_future(self._try(a_try(frame, self.rng), number))
            self._pending.add(task)
            task.add_done_callback(self._pending.discard)

    async def _try(self, move: str, number: int) -> None:
        with contextlib.suppress(TableRefused):  # judged or refused, it is counted or not: the tally says
            await self.client.walk_try(move, number)


def a_try(walk: dict[str, Any], rng: random.Random) -> str:
    """A student's try: a legal move of the asked seat, or (half the time) one of its cards put anywhere."""
    seat = walk["question"]["seat"]
    entry = next(entry for entry in walk["views"] if entry["seat"] == seat)
    hand = entry["view"].get("hand") or []
    if hand and rng.random() < 0.5:
        return f"{rng.choice(hand)}@{rng.randint(1, 6)}"
    return rng.choice(entry["legal"]).replace("@0", "@0.5")


# ---------------------------------------------------------------- the host, the teacher, the class


def host_process(folder: Path) -> tuple[subprocess.Popen[bytes], str, str]:
    """``python -m tablehost`` on a free port and a file: the process, its URL and the teacher secret it printed."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "tablehost", "--bind", "127.0.0.1:0", "--db", str(folder / "walk.sqlite")]
    process = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert process.stdout is not None
    url = process.stdout.readline().decode().split()[4]
    secret = process.stdout.readline().decode().split("?teacher=")[1].split()[0]
    return process, url, secret


class Walk:
    """A teacher's walkthrough with its students' processes, and when each change was sent."""

    def __init__(self, teacher: TableClient, code: str) -> None:
        self.teacher, self.code = teacher, code
        self.pipes: list[Connection] = []
        self.processes: list[Any] = []
        self.sent: list[float] = []  # when each change (a move, a step, a question) was sent

    async def follow(self, url: str, count: int, processes: int) -> None:
        """Start the students, spread over ``processes`` processes, and wait until every one follows."""
        context = multiprocessing.get_context("spawn")
        names = [f"Student {number} of {self.code}" for number in range(count)]  # one class a host: names differ
        for first in range(min(processes, count)):
            mine, theirs = context.Pipe()
            share = names[first::processes]
            process = context.Process(target=students, args=(url, self.code, share, first, theirs))
            process.daemon = True
            process.start()
            self.pipes.append(mine)
            self.processes.append(process)
        for pipe in self.pipes:
            assert await asyncio.to_thread(pipe.recv) == "ready"

    async def order(self, order: str) -> None:
        """Every student of this walkthrough leaves it ("leave") or follows it again ("join")."""
        for pipe in self.pipes:
            pipe.send(order)
        for pipe in self.pipes:
            assert await asyncio.to_thread(pipe.recv) == "done"

    async def change(self, rng: random.Random) -> None:
        """The teacher plays a move (or steps back to the start at the end of a line); when it was sent."""
        walk = self.teacher.walk
        assert walk is not None
        legal = [move for entry in walk["views"] for move in entry["legal"]]
        self.sent.append(time.perf_counter())
        if legal and walk["ply"] < LAST_PLY:
            ply = (await self.teacher.walk_move(rng.choice(legal).replace("@0", "@0.5")))["ply"]
        else:
            ply = (await self.teacher.walk_step(0))["ply"]
        await self.teacher.wait_for(lambda c: c.walk is not None and c.walk["ply"] == ply and not c.walk["question"])

    async def ask(self, rng: random.Random) -> tuple[int, float]:
        """ "Your move?" about the first seat that acts and the class is shown (playing on until one does); its
        number and when it was sent."""
        while not (seats := shown_acting(self.teacher.walk)):
            await self.change(rng)
        self.sent.append(time.perf_counter())
        number = (await self.teacher.walk_ask(seats[0]))["number"]
        await self.teacher.wait_for(lambda c: c.walk is not None and c.walk["question"] is not None)
        return number, self.sent[-1]

    async def results(self) -> tuple[list[list[float]], list[dict[int, float]]]:
        """Each student's arrival times (one per change, in order) and tries, from their processes."""
        for pipe in self.pipes:
            pipe.send("stop")
        answers = [pupil for pipe in self.pipes for pupil in await asyncio.to_thread(pipe.recv)]
        for process in self.processes:
            process.join(10)
        return [arrivals for arrivals, _ in answers], [tries for _, tries in answers]


def shown_acting(walk: dict[str, Any] | None) -> list[int]:
    """The seats that act at the position and that the class is shown (none at the end of a line)."""
    if walk is None or walk["ply"] >= LAST_PLY:
        return []
    return [seat for seat in walk["acting"] if walk["shows"] == "all" or seat == walk["seat"]]


class Tallies:
    """When the teacher's client first held a tally counting every student, and the strong bot's move, by question."""

    def __init__(self, students: int) -> None:
        self.students = students
        self.counted: dict[int, float] = {}
        self.best: dict[int, float] = {}

    def noted(self, frame: dict[str, Any]) -> None:
        if frame["type"] != "walk_tally":
            return
        now = time.perf_counter()
        if frame["answered"] == self.students:
            self.counted.setdefault(frame["number"], now)
        if frame["best"] is not None:
            self.best.setdefault(frame["number"], now)


async def opened(url: str, secret: str, count: int, args: argparse.Namespace) -> Walk:
    teacher = TableClient(url, teacher=secret)
    await teacher.connect()
    code = (await teacher.walk_open(args.game, shows=args.shows))["code"]
    await teacher.wait_for(lambda c: c.walk is not None)
    walk = Walk(teacher, code)
    await walk.follow(url, count, args.processes)
    return walk


async def moves(alone: Walk, crowd: Walk, count: int, gap: float) -> None:
    """``count`` changes in each walkthrough, alternating, ``gap`` seconds apart."""
    rng = random.Random(1)
    for _ in range(count + WARM_UP):
        for walk in (alone, crowd):
            await walk.change(rng)
            await asyncio.sleep(gap)


async def questions(crowd: Walk, tallies: Tallies, count: int, gap: float) -> list[tuple[int, float]]:
    """``count`` questions to the class, each answered by every student as it reaches them; per question its
    number and when it was asked (the tally and the bot's move are noted by ``tallies``)."""
    asked, rng = [], random.Random(2)
    for _ in range(count):
        number, at = await crowd.ask(rng)
        await crowd.teacher.wait_for(lambda c, n=number: n in tallies.counted and n in tallies.best, timeout=30)
        asked.append((number, at))
        await asyncio.sleep(gap)
        await crowd.change(rng)
        await asyncio.sleep(gap)
    return asked


# ---------------------------------------------------------------- the figures


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def reached(walk: Walk, arrivals: list[list[float]]) -> list[float]:
    """Per change: from its sending to the last student holding it (the warm-up's left out)."""
    return [max(times[i] for times in arrivals) - sent for i, sent in enumerate(walk.sent)][WARM_UP:]


def print_moves(args: argparse.Namespace, one: list[float], many: list[float]) -> None:
    near, far = statistics.median(one), statistics.median(many)
    where = f"{args.students} students in {min(args.processes, args.students)} process(es), {os.cpu_count()} cores"
    print(f"a teacher's move ({args.game}, shows {args.shows}; {len(one)} each, alternating; {where}):")
    print(f"  one student alone: median {ms(near)}, 90th percentile {ms(statistics.quantiles(one, n=10)[-1])}")
    ninety = ms(statistics.quantiles(many, n=10)[-1])
    print(f"  {args.students} students, the last of them: median {ms(far)}, 90th percentile {ninety}")
    print(f"  class / alone: {far / near:.2f}x (target: within 1.3x)")


def print_answers(
    args: argparse.Namespace, asked: list[tuple[int, float]], tallies: Tallies, tries: list[dict[int, float]]
) -> None:
    late = [tallies.counted[number] - max(mine[number] for mine in tries) for number, _ in asked]
    best = [tallies.best[number] - at for number, at in asked]
    print(f"{args.students} students answering each question as it reaches them, the last try sent to the tally")
    print(f"  counting all {args.students} on the teacher's screen: median {ms(statistics.median(late))}, slowest")
    print(f"  {ms(max(late))} of {len(asked)} questions (target: within 1000 ms); the strong bot's move reached the")
    print(f"  teacher {ms(statistics.median(best))} after the question (median), found meanwhile in the host's thinker")


async def measure(url: str, secret: str, args: argparse.Namespace) -> None:
    alone = await opened(url, secret, 1, args)
    crowd = await opened(url, secret, args.students, args)
    tallies = Tallies(args.students)
    crowd.teacher.on_frame = tallies.noted
    await moves(alone, crowd, args.moves, args.gap)
    timed = len(crowd.sent)
    asked = await questions(crowd, tallies, args.questions, args.gap)
    crowd_arrivals, tries = await crowd.results()
    alone_arrivals, _ = await alone.results()
    crowd.sent = crowd.sent[:timed]  # the moves only: the questions' changes are timed by the tally
    print_moves(args, reached(alone, alone_arrivals), reached(crowd, crowd_arrivals))
    print_answers(args, asked, tallies, tries)
    for walk in (alone, crowd):
        await walk.teacher.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=30, help="students following the class's walkthrough")
    parser.add_argument("--processes", type=int, default=1, help="processes the students' clients run in")
    parser.add_argument("--moves", type=int, default=60, help="timed moves in each walkthrough (default 60)")
    parser.add_argument("--questions", type=int, default=10, help="questions the class answers (default 10)")
    parser.add_argument("--game", default="hats", help="the walkthrough's game (default hats)")
    parser.add_argument("--shows", default="all", choices=("all", "seat"), help="what the class is shown")
    parser.add_argument("--gap", type=float, default=0.05, help="seconds between two changes (default 0.05)")
    parser.add_argument("--url", help="a host already running (its websocket URL), instead of starting one")
    parser.add_argument("--teacher", help="that host's teacher secret")
    args = parser.parse_args()
    if args.url:
        asyncio.run(measure(args.url, args.teacher, args))
        return
    with tempfile.TemporaryDirectory(dir=REPO, prefix=".walkthrough-bench-") as name:  # make app's disk
        process, url, secret = host_process(Path(name))
        try:
            asyncio.run(measure(url, secret, args))
        finally:
            process.terminate()
            process.wait(10)


if __name__ == "__main__":
    main()
