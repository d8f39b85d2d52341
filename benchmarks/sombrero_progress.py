"""Sombrero as a student plays it on the page: following every hint against the page's default bot.

The notebook's play table seats the reader as White against a ``strong`` bot
seeded with the table's seed plus one, and its hints come from a ``strong``
bot seeded with the table's seed (``widgets/table/frame.py``). Sombrero has no luck,
so the games differ only by those seeds and, in odd games, by an opening of
random actions. Prints, all measured in this run:

1. each game: in how many actions it ended and how (S4 win, S5 draw, "S5
   quiet" for the quiet-game draw, S2, or capped), the hats left, the actions
   at which hats were taken and the longest stretch without one;
2. the hint's wall time per call at the start of a turn (where it plans the
   whole turn; the second action of a turn is remembered), median and max,
   each also as a ratio against a greedy bot's hint on the same positions;
3. with ``--busy``, the same timing while one other CPU-bound process runs;
4. with ``--reference``, the same games with the search's progress terms
   switched off (``APPROACH`` and ``QUIET_PRESSURE`` in
   ``hatskit/games/sombrero/bots.py``), and the ratio of the lengths.

Targets: every game ends within 250 actions (taking twelve hats, then the S5
count at two hats each, takes about 200); every hint within 1.5 s, also with
``--busy``. With the progress terms off, the search still knows the
quiet-game draw and has its time limit: the reference is the evaluation as it
was before them, not the whole bot.

    .venv/bin/python benchmarks/sombrero_progress.py --games 6 --workers 2 --busy --reference
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import multiprocessing.synchronize
import random
import statistics
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from functools import partial
from typing import Any, NamedTuple

import hatskit
from hatskit.bots import Bot, make_bot
from hatskit.core import Game
from hatskit.games.sombrero import bots
from hatskit.games.sombrero.components import QUIET_ACTIONS

READER = 0  # the notebook seats the reader as White


class Played(NamedTuple):
    """How one game went, and the positions where a hint planned a whole turn with how long it took."""

    seed: int
    opening: int
    actions: int
    how: str
    hats: tuple[int, int]
    captures: list[int]
    turn_starts: list[dict[str, Any]]
    hint_seconds: list[float]


def ended_how(game: Game) -> str:
    """The rule that ended ``game`` ("S5 quiet" for the quiet-game draw), or "capped"."""
    outcome = game.outcome()
    if outcome is None:
        return "capped"
    rule = game.events[-1][-1].rule or "?"
    if rule == "S5" and game.state.quiet_actions >= QUIET_ACTIONS:  # type: ignore[attr-defined]
        return "S5 quiet"
    return f"{rule} {'draw' if outcome.is_draw else 'won by ' + game.seat_names[outcome.winners[0]]}"


def play_opening(game: Game, seed: int, actions: int) -> None:
    """``actions`` random legal actions, so that games with the same bots start apart."""
    rng = random.Random(seed)
    for _ in range(actions):
        game.play(rng.choice(game.legal_moves()))


def follow_hints(seed: int, opening: int, cap: int) -> Played:
    """One game: the reader plays every hint of a strong bot seeded ``seed``; the page's bot is seeded ``seed + 1``."""
    game = hatskit.new_game("sombrero")
    hinter, opponent = make_bot("sombrero", "strong", seed), make_bot("sombrero", "strong", seed + 1)
    play_opening(game, seed, opening)
    positions, seconds, captures = [], [], []
    while not game.is_over and game.ply < cap:
        if game.to_move != READER:
            events = game.play(opponent.choose(game.seat_view(game.to_move)))
        else:
            planning = game.state.actions_left == 2  # type: ignore[attr-defined]
            start = time.perf_counter()
            hint = hinter.hint(game.seat_view(READER))
            if planning:
                seconds.append(time.perf_counter() - start)
                positions.append(game.record())
            events = game.play(hint.move)
        captures += [game.ply - opening] * sum(event.rule == "S3" for event in events)
    hats = (game.view(None)["hats"][0], game.view(None)["hats"][1])
    return Played(seed, opening, game.ply - opening, ended_how(game), hats, captures, positions, seconds)


def hint_seconds(kind: str, records: list[dict[str, Any]]) -> list[float]:
    """Wall time of a fresh ``kind`` bot's hint at each recorded position (the start of a reader's turn)."""
    times = []
    for number, record in enumerate(records):
        game = hatskit.load(record)
        bot: Bot = make_bot("sombrero", kind, number)
        start = time.perf_counter()
        bot.hint(game.seat_view(READER))
        times.append(time.perf_counter() - start)
    return times


def burn(stop: multiprocessing.synchronize.Event) -> None:
    """Keep one core busy until ``stop`` is set."""
    while not stop.is_set():
        sum(range(10_000))


@contextmanager
def busy_core() -> Iterator[None]:
    """One other CPU-bound process running for the duration."""
    stop = multiprocessing.Event()
    process = multiprocessing.Process(target=burn, args=(stop,))
    process.start()
    try:
        yield
    finally:
        stop.set()
        process.join()


def longest_quiet(game: Played) -> int:
    """The most actions in a row in which no hat was taken."""
    marks = [0, *game.captures, game.actions]
    return max(later - earlier for earlier, later in itertools.pairwise(marks))


def report_games(played: list[Played]) -> None:
    """One line per game, then the lengths and how the games ended."""
    for game in played:
        opening = f", after {game.opening} random opening actions" if game.opening else ""
        taken = ", ".join(map(str, game.captures)) or "none"
        print(f"  seeds {game.seed}/{game.seed + 1}{opening}: {game.actions} actions, {game.how}, hats {game.hats}")
        print(f"    hats taken at actions: {taken}; longest stretch without one: {longest_quiet(game)}")
    lengths = [game.actions for game in played]
    capped = sum(game.how == "capped" for game in played)
    print(f"  actions: median {statistics.median(lengths):.0f}, max {max(lengths)}; capped {capped}/{len(played)}")


def report_timing(label: str, strong: list[float], greedy: list[float]) -> None:
    """Median and max of the hint's time, each against greedy's on the same positions."""
    reference = statistics.median(greedy)
    median, longest = statistics.median(strong), max(strong)
    print(f"  {label}: median {median:.2f} s ({median / reference:.0f}x greedy), max {longest:.2f} s ", end="")
    print(f"({longest / reference:.0f}x greedy's median; greedy max {max(greedy) * 1000:.0f} ms) over {len(strong)}")
    print(f"    greedy's median hint on the same positions: {reference * 1000:.1f} ms (the reference)")


def play_games(seeds: list[int], openings: list[int], cap: int, workers: int, progress: bool) -> list[Played]:
    """The games, ``workers`` at once; without ``progress`` the bots' search leaves out its progress terms."""
    switch = partial(use_progress_terms, progress)
    with ProcessPoolExecutor(workers, initializer=switch) as pool:
        return list(pool.map(partial(follow_hints, cap=cap), seeds, openings))


def use_progress_terms(on: bool) -> None:
    """Switch the strong search's progress terms off (in a worker process) for the reference games."""
    if not on:
        bots.APPROACH, bots.QUIET_PRESSURE = 0, 0


def report_hint_times(played: list[Played], timed: int, busy: bool) -> None:
    """The hint's time in the games, then alone (and beside a busy core) at ``timed`` of their positions."""
    in_games = [second for game in played for second in game.hint_seconds]
    print("hint time at the start of a reader's turn:")
    print(f"  during the games: median {statistics.median(in_games):.2f} s, max {max(in_games):.2f} s ", end="")
    print(f"over {len(in_games)} hints")
    records = random.Random(1).sample([r for game in played for r in game.turn_starts], timed)
    report_timing("alone", hint_seconds("strong", records), hint_seconds("greedy", records))
    if busy:
        with busy_core():
            report_timing("beside a busy core", hint_seconds("strong", records), hint_seconds("greedy", records))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games (default 6): seeds 0, 10, 20, ...")
    parser.add_argument("--opening", type=int, default=2, help="random opening actions in odd games (default 2)")
    parser.add_argument("--cap", type=int, default=400, help="actions before a game is capped (default 400)")
    parser.add_argument("--workers", type=int, default=2, help="games played at once (default 2)")
    parser.add_argument("--timed", type=int, default=30, help="positions timed again one by one (0: none)")
    parser.add_argument("--busy", action="store_true", help="also time the hints beside a CPU-bound process")
    parser.add_argument("--reference", action="store_true", help="also play the games without the progress terms")
    args = parser.parse_args()
    seeds = [10 * number for number in range(args.games)]
    openings = [args.opening * (number % 2) for number in range(args.games)]
    lengths = []
    for progress in [True, False] if args.reference else [True]:
        start = time.perf_counter()
        played = play_games(seeds, openings, args.cap, args.workers, progress)
        terms = "with" if progress else "reference: without"
        print(f"reader follows every hint as White against the page's strong bot ({terms} the progress terms):")
        report_games(played)
        print(f"  ({time.perf_counter() - start:.0f} s for the games, {args.workers} at once)")
        if progress and args.timed:
            report_hint_times(played, args.timed, args.busy)
        lengths.append([game.actions for game in played])
    if len(lengths) == 2:
        ratios = [summary(lengths[0]) / summary(lengths[1]) for summary in (statistics.median, max)]
        print(f"actions with the progress terms / without: median {ratios[0]:.2f}x, max {ratios[1]:.2f}x")
    print("targets: every game ends within 250 actions; every hint within 1.5 s", file=sys.stderr)


if __name__ == "__main__":
    main()
