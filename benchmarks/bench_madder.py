"""Madder than a Hatter bots, measured: decisions per second, hint time and results over many three-player games.

    .venv/bin/python benchmarks/bench_madder.py [--games 200] [--positions 40] [--workers 2]

Prints, each against a reference measured in the same run:
- decisions per second of the strong bot and of the greedy bot on the same
  positions, their simulations advancing (``advance``, what the bots do) and
  the same bots made to narrate every simulated move (``--narrate`` wraps
  ``advance`` with the game's narration, as ``GameSpec.apply`` does), and the
  ratio (issue 27); both modes choose the same moves, which is checked;
- the strong bot's hint time per decision (median, 90th percentile, max) and
  its ratio to the greedy bot's time on the same positions (target: median
  under 1 s, issue 8);
- the strong bot against two greedy bots, seats rotated every game: its win
  share (a shared win counts as 1/winners) with its 95 % interval (target: at
  least half), next to a greedy bot's share in the same seats and deals
  against the same two greedy bots (the reference, about a third).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any

import hatskit
from hatskit.bots import make_bot
from hatskit.games.madder.narration import narrate
from hatskit.games.madder.state import MadderState

PLAYERS = 3
MIN_SECONDS = 1.0  # a fast bot's positions are repeated until the timing took at least this long


@contextmanager
def narrating() -> Iterator[None]:
    """Every ``MadderState.advance`` in the block also narrates the move, from a copy of the state before it."""
    plain = MadderState.advance

    def advance_and_tell(self: MadderState, move: Any) -> None:
        before = self.copy()
        plain(self, move)
        narrate(before, self, move)

    MadderState.advance = advance_and_tell  # type: ignore[method-assign]
    try:
        yield
    finally:
        MadderState.advance = plain  # type: ignore[method-assign]


def play_match(seed: int, kinds: tuple[str, ...], hero: int) -> float:
    """One seeded game; returns the hero seat's share of the win (0, 1/k or 1)."""
    game = hatskit.new_game("madder", players=PLAYERS, seed=seed)
    bots = [make_bot("madder", kind, seed * 10 + seat) for seat, kind in enumerate(kinds)]
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        game.play(bots[seat].choose(game.seat_view(seat)))
    outcome = game.outcome()
    assert outcome is not None
    return 1 / len(outcome.winners) if hero in outcome.winners else 0.0


def tournament(hero_kind: str, games: int, workers: int) -> list[float]:
    """The hero's win share in each of ``games`` games against two greedy bots, its seat rotating 0, 1, 2."""
    heroes = [number % PLAYERS for number in range(games)]
    lineups = [tuple(hero_kind if seat == hero else "greedy" for seat in range(PLAYERS)) for hero in heroes]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(play_match, range(1000, 1000 + games), lineups, heroes, chunksize=2))


def decision_points(count: int) -> list[hatskit.Game]:
    """Positions from seeded greedy games, spread over a whole round and its end."""
    points = []
    greedy = make_bot("madder", "greedy", 0)
    for seed in range(count):
        game = hatskit.new_game("madder", players=PLAYERS, seed=seed)
        for _ in range(seed * 7 % 30):
            seat = game.to_move
            assert seat is not None
            game.play(greedy.choose(game.seat_view(seat)))
        points.append(game)
    return points


def hint_times(kind: str, games: list[hatskit.Game]) -> list[float]:
    bot = make_bot("madder", kind, 1)
    times = []
    for game in games:
        seat = game.to_move
        assert seat is not None
        start = time.perf_counter()
        bot.hint(game.seat_view(seat))
        times.append(time.perf_counter() - start)
    return times


def decisions_per_second(kind: str, games: list[hatskit.Game]) -> tuple[float, list[str]]:
    """Decisions per second of a fresh bot of ``kind`` over ``games`` (repeated until ``MIN_SECONDS``), and the
    moves it chose on the first pass."""
    bot = make_bot("madder", kind, 1)
    chosen: list[str] = []
    decisions, start = 0, time.perf_counter()
    while not decisions or time.perf_counter() - start < MIN_SECONDS:
        for game in games:
            seat = game.to_move
            assert seat is not None
            move = bot.choose(game.seat_view(seat))
            if decisions < len(games):
                chosen.append(str(move))
            decisions += 1
    return decisions / (time.perf_counter() - start), chosen


def print_speed(points: list[hatskit.Game]) -> None:
    print(f"decisions per second over {len(points)} positions ({PLAYERS} players), simulations advancing vs narrating:")
    for kind in ("strong", "greedy"):
        quiet, quiet_moves = decisions_per_second(kind, points)
        with narrating():
            told, told_moves = decisions_per_second(kind, points)
        assert quiet_moves == told_moves, "narration changed a bot's choice"
        print(f"  {kind}: {quiet:.2f}/s advancing, {told:.2f}/s narrating every simulated move: {quiet / told:.2f}x")


def print_hint_times(points: list[hatskit.Game]) -> None:
    strong, greedy = hint_times("strong", points), hint_times("greedy", points)
    ratio = statistics.median(strong) / statistics.median(greedy)
    deciles = statistics.quantiles(strong, n=10)
    print(f"hint time over {len(points)} positions ({PLAYERS} players):")
    print(f"  strong: median {statistics.median(strong):.3f} s, p90 {deciles[-1]:.3f} s, max {max(strong):.3f} s")
    print(f"  greedy: median {statistics.median(greedy) * 1000:.2f} ms (reference)")
    print(f"  ratio strong/greedy: {ratio:.0f}x; target: strong under 1 s")


def print_tournaments(games: int, workers: int) -> None:
    shares = {}
    for hero in ("greedy", "strong"):
        start = time.perf_counter()
        each = tournament(hero, games, workers)
        shares[hero] = statistics.fmean(each)
        spread = 1.96 * statistics.stdev(each) / len(each) ** 0.5
        took = time.perf_counter() - start
        print(
            f"{hero} vs two greedy: {shares[hero]:.1%} of the wins over {games} games "
            f"(95 % interval {shares[hero] - spread:.1%} to {shares[hero] + spread:.1%}), {took:.0f} s"
        )
    ratio = shares["strong"] / shares["greedy"]
    print(f"  ratio strong/greedy in the same seats and deals: {ratio:.2f}x; target: strong wins at least half")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--no-hint-times", action="store_true", help="leave out the hint times (issue 8)")
    args = parser.parse_args()

    points = decision_points(args.positions)
    print_speed(points)
    if not args.no_hint_times:
        print_hint_times(points)
    if args.games:
        print_tournaments(args.games, args.workers)


if __name__ == "__main__":
    main()
