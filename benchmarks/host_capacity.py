"""How many shared tables one table host holds, and what the websocket adds to a move (issue 43).

    PYTHONPATH=. .venv/bin/python benchmarks/host_capacity.py [--tables 200] [--moves 150]

Prints, in one run:

1. **Memory per table**, for every game: ``--tables`` tables opened in process
   (a store on disk, as the host runs), each started with its players and played
   to the middle of a typical game by moves sent as players send them; the
   process's resident memory (psutil) before and after, over the tables. From
   it, how many tables of that game one GB holds.
2. **Moves per second** on one core with all those tables loaded: the host's
   time for a move (checked, committed with ``synchronous=FULL``, played, and
   the seats' frames built; the median, the fsync included, which depends on
   the disk and whatever else writes to it) and its CPU time (the mean), and
   from that how many tables one core serves if each table moves once every 5
   seconds (a brisk class).
3. **The relay**: a host started as ``python -m tablehost`` on a loopback port
   and a file, two clients playing Sombrero through it; the time from one client
   sending a move until the other has received its new view, against the same
   move made in process on a host with a store (the reference, measured in the
   same run; and without a store, to show what the commit's fsync takes): the
   ratio is what the websocket, JSON and the two processes add.
   Then ``--crowd`` tables (two clients each, all in this process) relaying
   moves at once: the relay time when many tables share the host's loop.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

from benchmarks.processes import cpu_seconds
from tablehost.client import TableClient
from tablehost.store import Store
from tablehost.tables import TableHost, Who

REPO = Path(__file__).resolve().parents[1]
GAMES = {"hats": (3, 15), "hats-off": (3, 90), "madder": (3, 50), "sombrero": (2, 100)}  # players, mid-game plies
CLASS_PACE = 5.0  # seconds between two moves at one table


def rss() -> int:
    gc.collect()
    return psutil.Process().memory_info().rss


def started(host: TableHost, game_id: str, players: int) -> tuple[str, list[Who]]:
    """A table of ``game_id`` with every seat a player, started."""
    opened = host.open(Who(), game_id, players, "Player 0")
    code, seats = opened.reply["code"], [Who(opened.reply["token"])]
    for seat in range(1, players):
        seats.append(Who(host.join(Who(), code, f"Player {seat}").reply["token"]))
    host.start(seats[0], code)
    return code, seats


def play(host: TableHost, code: str, seats: list[Who], plies: int, rng: random.Random) -> list[tuple[float, float]]:
    """Up to ``plies`` random legal moves sent by the seats that may act; the host's wall and CPU time for each."""
    game, times = host.tables[code].game, []
    while game.ply < plies and not game.is_over:
        seat = rng.choice(game.acting)
        move = str(rng.choice(game.legal_moves(seat))).replace("@0", "@0.5")
        wall, cpu = time.perf_counter(), time.process_time()
        host.move(seats[seat], code, move)
        times.append((time.perf_counter() - wall, time.process_time() - cpu))
    return times


def capacity(game_id: str, count: int, folder: Path) -> tuple[float, list[tuple[float, float]]]:
    """Bytes per mid-game table of ``game_id`` and the host's times per move, with ``count`` tables loaded.

    Run in a fresh process for each game (``measured``): memory another game freed would otherwise be reused.
    """
    players, plies = GAMES[game_id]
    store = Store(folder / f"{game_id}.sqlite")
    host, rng = TableHost(store), random.Random(1)
    before = rss()
    times: list[tuple[float, float]] = []
    for _ in range(count):
        code, seats = started(host, game_id, players)
        times += play(host, code, seats, plies, rng)
    per_table = (rss() - before) / count
    store.close()
    return per_table, times


async def relay(url: str, moves: int) -> list[float]:
    """Seconds from a move sent by one client to the other client holding its new view, over ``moves`` moves."""
    white, black = TableClient(url), TableClient(url)
    await white.connect()
    await black.connect()
    times: list[float] = []
    while len(times) < moves:
        code = (await white.open("sombrero", 2, "White"))["code"]
        await black.join(code, "Black")
        await white.start()
        await black.wait_for(lambda c, code=code: c.state is not None and c.state["code"] == code)
        times += await _relay_game([white, black], moves - len(times))
    await white.close()
    await black.close()
    return times


async def _relay_game(clients: list[TableClient], moves: int) -> list[float]:
    times: list[float] = []
    while len(times) < moves and clients[0].state["status"] == "playing":
        ply = clients[0].state["ply"]
        mover = next(c for c in clients if c.seat in c.state["acting"])
        other = clients[1 - clients.index(mover)]
        start = time.perf_counter()
        await mover.move(random.choice(mover.state["legal"]))
        await other.wait_for(lambda c, ply=ply: c.state["ply"] > ply)
        times.append(time.perf_counter() - start)
        await mover.wait_for(lambda c, ply=ply: c.state["ply"] > ply)
    return times


async def crowded(url: str, tables: int, moves: int) -> tuple[list[float], float]:
    """``tables`` pairs of clients relaying ``moves`` moves each, all at once; their relay times and the seconds."""
    start = time.perf_counter()
    runs = await asyncio.gather(*(relay(url, moves) for _ in range(tables)))
    return [t for run in runs for t in run], time.perf_counter() - start


def percentile(values: list[float], point: int) -> float:
    return statistics.quantiles(values, n=100)[point - 1]


def in_process(moves: int, store: Store | None) -> list[float]:
    """The reference: the same kind of moves made in process, on a host with the store given (or none)."""
    host, rng, times = TableHost(store), random.Random(2), []
    while len(times) < moves:
        code, seats = started(host, "sombrero", 2)
        times += [wall for wall, _ in play(host, code, seats, moves - len(times), rng)]
    if store is not None:
        store.close()
    return times


def host_process(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "tablehost", "--bind", "127.0.0.1:0", "--db", str(folder / "relay.sqlite")]
    process = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert process.stdout is not None
    return process, process.stdout.readline().decode().split()[4]


def measured(game_id: str, count: int, folder: Path) -> tuple[float, list[float]]:
    """``capacity`` in a process of its own."""
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(capacity, (game_id, count, folder))


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def print_capacity(tables: int, folder: Path) -> None:
    """Part 1 and 2: memory per table, a move's time (its commit's fsync included) and CPU, a line per game."""
    print(f"{'game':10} {'per table':>10} {'tables/GB':>10} {'move':>9} {'CPU':>9} {'moves/s':>8} {'tables':>7}")
    for game_id in GAMES:
        per_table, times = measured(game_id, tables, folder)
        wall = statistics.median(t for t, _ in times)
        cpu = statistics.mean(c for _, c in times)
        row = f"{game_id:10} {per_table / 1024:7.0f} KB {2**30 / per_table:10.0f} {ms(wall):>9} {ms(cpu):>9}"
        print(f"{row} {1 / cpu:8.0f} {CLASS_PACE / cpu:7.0f}")
    print("(move: the median time, its commit's fsync included; CPU: the mean CPU time; moves/s: one core's,")
    print(f" by CPU; tables: how many one core keeps up with when each table moves every {CLASS_PACE:.0f} s)")


def print_relay(moves: int, crowd: int, folder: Path) -> None:
    """Part 3: the relay against the in-process reference, then a crowd of tables, and the host's CPU a move."""
    reference = in_process(moves, Store(folder / "reference.sqlite"))
    bare = statistics.median(in_process(moves, None))
    process, url = host_process(folder)
    try:
        relayed = asyncio.run(relay(url, moves))
        before = cpu_seconds(psutil.Process(process.pid))
        crowded_times, seconds = asyncio.run(crowded(url, crowd, moves // 3))
        after = cpu_seconds(psutil.Process(process.pid))
    finally:
        process.terminate()
        process.wait(10)
    host_cpu = (after - before) / len(crowded_times)
    near, far = statistics.median(reference), statistics.median(relayed)
    print(f"a Sombrero move in process, with its commit: {ms(near)} (median of {len(reference)}; {ms(bare)} without)")
    print(f"the same through the websocket, move sent to view received: {ms(far)} (median of {len(relayed)})")
    print(f"relay / in process: {far / near:.1f}x; 90th percentile relayed: {ms(percentile(relayed, 90))}")
    print(
        f"{crowd} tables moving at once through the host: relay median {ms(statistics.median(crowded_times))}, "
        f"90th percentile {ms(percentile(crowded_times, 90))}, {len(crowded_times) / seconds:.0f} moves/s relayed"
    )
    print(f"the host's CPU per relayed move: {ms(host_cpu)}, so one core relays {1 / host_cpu:.0f} moves/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200, help="tables per game for the memory figure (default 200)")
    parser.add_argument("--moves", type=int, default=150, help="moves relayed, and made in process (default 150)")
    parser.add_argument("--crowd", type=int, default=50, help="tables relaying moves at once (default 50)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        print_capacity(args.tables, Path(name))
        print_relay(args.moves, args.crowd, Path(name))


if __name__ == "__main__":
    main()
