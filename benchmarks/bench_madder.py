"""Madder than a Hatter bots, measured: hint time and results over many three-player games.

    .venv/bin/python benchmarks/bench_madder.py [--games 200] [--positions 40] [--workers 2]

Prints (issue 8), each against greedy measured in the same run:
- the strong bot's hint time per decision (median, 90th percentile, max) and
  its ratio to the greedy bot's time on the same positions (target: median
  under 1 s);
- the strong bot against two greedy bots, seats rotated every game: its win
  share (a shared win counts as 1/winners; target: at least half), next to a
  greedy bot's share in the same seats and deals against the same two greedy
  bots (the reference, about a third).
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

import hatskit
from hatskit.bots import make_bot

PLAYERS = 3


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


def tournament(hero_kind: str, games: int, workers: int) -> float:
    """The hero's win share over ``games`` games against two greedy bots, its seat rotating 0, 1, 2."""
    heroes = [number % PLAYERS for number in range(games)]
    lineups = [tuple(hero_kind if seat == hero else "greedy" for seat in range(PLAYERS)) for hero in heroes]
    with ProcessPoolExecutor(workers) as pool:
        shares = list(pool.map(play_match, range(1000, 1000 + games), lineups, heroes, chunksize=2))
    return sum(shares) / games


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    points = decision_points(args.positions)
    strong, greedy = hint_times("strong", points), hint_times("greedy", points)
    ratio = statistics.median(strong) / statistics.median(greedy)
    deciles = statistics.quantiles(strong, n=10)
    print(f"hint time over {len(points)} positions ({PLAYERS} players):")
    print(f"  strong: median {statistics.median(strong):.3f} s, p90 {deciles[-1]:.3f} s, max {max(strong):.3f} s")
    print(f"  greedy: median {statistics.median(greedy) * 1000:.2f} ms (reference)")
    print(f"  ratio strong/greedy: {ratio:.0f}x; target: strong under 1 s")

    if not args.games:
        return
    shares = {}
    for hero in ("greedy", "strong"):
        start = time.perf_counter()
        shares[hero] = tournament(hero, args.games, args.workers)
        took = time.perf_counter() - start
        print(f"{hero} vs two greedy: {shares[hero]:.1%} of the wins over {args.games} games, {took:.0f} s")
    ratio = shares["strong"] / shares["greedy"]
    print(f"  ratio strong/greedy in the same seats and deals: {ratio:.2f}x; target: strong wins at least half")


if __name__ == "__main__":
    main()
