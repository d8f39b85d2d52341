"""Hats bots, measured: hint time and results over many three-player games.

    .venv/bin/python benchmarks/bench_hats.py [--games 300] [--workers 2]

Prints (issue 2):
- the strong bot's hint time per decision (median, 90th percentile, max), and
  its ratio to the greedy bot's time on the same positions, measured in the
  same run (target: under 1 s);
- greedy against two random bots and strong against two greedy bots, seats
  rotated every game: win shares (a shared win counts as 1/winners), with
  chance = 1/3 as the reference.
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

import hatskit
from hatskit.bots import make_bot


def play_match(seed: int, kinds: tuple[str, str, str], hero: int) -> float:
    """One seeded game; returns the hero seat's share of the win (0, 1/k or 1)."""
    game = hatskit.new_game("hats", players=3, seed=seed)
    bots = [make_bot("hats", kind, seed * 10 + seat) for seat, kind in enumerate(kinds)]
    while not game.is_over:
        game.play(bots[game.to_move].choose(game.seat_view(game.to_move)))
    winners = game.outcome().winners
    return 1 / len(winners) if hero in winners else 0.0


def tournament(hero_kind: str, rival_kind: str, games: int, workers: int) -> float:
    """The hero's win share over ``games`` games, the hero's seat rotating 0, 1, 2."""
    lineups, heroes = [], []
    for number in range(games):
        hero = number % 3
        kinds = tuple(hero_kind if seat == hero else rival_kind for seat in range(3))
        lineups.append(kinds)
        heroes.append(hero)
    with ProcessPoolExecutor(workers) as pool:
        shares = list(pool.map(play_match, range(1000, 1000 + games), lineups, heroes, chunksize=4))
    return sum(shares) / games


def decision_points(count: int) -> list[hatskit.Game]:
    """Positions from seeded greedy games, spread over the whole game."""
    points = []
    greedy = make_bot("hats", "greedy", 0)
    for seed in range(count):
        game = hatskit.new_game("hats", players=3, seed=seed)
        for _ in range(seed % 20):
            game.play(greedy.choose(game.seat_view(game.to_move)))
        points.append(game)
    return points


def hint_times(kind: str, games: list[hatskit.Game]) -> list[float]:
    bot = make_bot("hats", kind, 1)
    times = []
    for game in games:
        start = time.perf_counter()
        bot.hint(game.seat_view(game.to_move))
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    points = decision_points(args.positions)
    strong, greedy = hint_times("strong", points), hint_times("greedy", points)
    ratio = statistics.median(strong) / statistics.median(greedy)
    deciles = statistics.quantiles(strong, n=10)
    print(f"hint time over {len(points)} positions (3 players):")
    print(f"  strong: median {statistics.median(strong):.3f} s, p90 {deciles[-1]:.3f} s, max {max(strong):.3f} s")
    print(f"  greedy: median {statistics.median(greedy) * 1000:.2f} ms (reference)")
    print(f"  ratio strong/greedy: {ratio:.0f}x; target: strong under 1 s")

    for hero, rival in (("greedy", "random"), ("strong", "greedy")) if args.games else ():
        start = time.perf_counter()
        share = tournament(hero, rival, args.games, args.workers)
        took = time.perf_counter() - start
        print(
            f"{hero} vs two {rival}: {share:.1%} of the wins over {args.games} games "
            f"({share * 3:.2f}x chance of 33.3%), {took:.0f} s"
        )


if __name__ == "__main__":
    main()
