"""Hats Off! bots, measured: how often each difficulty wins against a fixed reference.

    .venv/bin/python benchmarks/bench_hats_off.py [--games 400] [--workers 2]

Prints (issue 7):
- each level's reaction time to play a match (median and 90th percentile of
  2,000 draws from its model) and its ratio to the reference level's median;
- each level against the reference ("adult") in two-player games, seats
  alternating, the same seeds for every level: its share of the wins (a
  shared win counts 1/2) and of the cards won, and the ratio of its win share
  to the reference's own share against a copy of itself, measured in the same
  run (about 50 %);
- the four-player table young child, child, adult, quick adult, seats rotated:
  each level's win share against chance (25 %).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

import hatskit
from hatskit.bots import make_bot
from hatskit.games.hats_off.bots import ADULT_PLAY, LEVELS

REFERENCE = "adult"


def play_game(seed: int, kinds: tuple[str, ...]) -> tuple[list[float], list[int]]:
    """One seeded game: each seat's share of the win and its cards won.

    Every acting seat decides from its own view before any move of the race is
    played, as a frame collecting sealed moves would.
    """
    game = hatskit.new_game("hats-off", players=len(kinds), seed=seed)
    bots = [make_bot("hats-off", kind, seed=seed * 10 + seat) for seat, kind in enumerate(kinds)]
    while not game.is_over:
        for move in [bots[seat].choose(game.seat_view(seat)) for seat in game.acting]:
            game.play(move)
    winners = game.outcome().winners
    shares = [1 / len(winners) if seat in winners else 0.0 for seat in range(len(kinds))]
    return shares, game.score().totals


def duel(level: str, games: int, workers: int) -> tuple[float, float]:
    """``level`` against the reference in two-player games, seats alternating: win share and card share."""
    heroes = [number % 2 for number in range(games)]
    lineups = [tuple(level if seat == hero else REFERENCE for seat in range(2)) for hero in heroes]
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(play_game, range(5000, 5000 + games), lineups, chunksize=8))
    wins = sum(shares[hero] for (shares, _), hero in zip(results, heroes, strict=True))
    cards = sum(totals[hero] / max(1, sum(totals)) for (_, totals), hero in zip(results, heroes, strict=True))
    return wins / games, cards / games


def table_of_four(games: int, workers: int) -> dict[str, float]:
    """Four levels at one table, the seating rotated every game: each level's win share."""
    levels = ("young child", "child", "adult", "quick adult")
    lineups = [tuple(levels[(seat + number) % 4] for seat in range(4)) for number in range(games)]
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(play_game, range(9000, 9000 + games), lineups, chunksize=8))
    shares = dict.fromkeys(levels, 0.0)
    for (won, _), lineup in zip(results, lineups, strict=True):
        for seat, kind in enumerate(lineup):
            shares[kind] += won[seat]
    return {kind: share / games for kind, share in shares.items()}


def reaction_table() -> None:
    rng = random.Random(1)
    draws = {name: sorted(ADULT_PLAY.draw(rng, level.slowing) for _ in range(2000)) for name, level in LEVELS.items()}
    reference = statistics.median(draws[REFERENCE])
    print("time to play a matching card, 2,000 draws per level:")
    print(f"  {'level':<12} {'median':>8} {'p90':>8} {'vs adult':>9}")
    for name, times in draws.items():
        median = statistics.median(times)
        p90 = statistics.quantiles(times, n=10)[-1]
        print(f"  {name:<12} {median:7.2f}s {p90:7.2f}s {median / reference:8.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    reaction_table()
    start = time.perf_counter()
    reference = duel(REFERENCE, args.games, args.workers)
    print(f"\ntwo players against the reference ({REFERENCE}), {args.games} games each, seats alternating:")
    print(f"  {'level':<12} {'wins':>7} {'cards':>7} {'win ratio':>10}")
    for name in LEVELS:
        wins, cards = reference if name == REFERENCE else duel(name, args.games, args.workers)
        print(f"  {name:<12} {wins:6.1%} {cards:6.1%} {wins / reference[0]:9.2f}x")
    print(f"  (the adult row is the reference against a copy of itself; ratios are against its {reference[0]:.1%})")
    shares = table_of_four(args.games, args.workers)
    print(f"\nfour at one table, {args.games} games, seats rotated (chance 25%):")
    for name, share in shares.items():
        print(f"  {name:<12} {share:6.1%} {share / 0.25:6.2f}x chance")
    print(f"\n{time.perf_counter() - start:.0f} s for the games")


if __name__ == "__main__":
    main()
