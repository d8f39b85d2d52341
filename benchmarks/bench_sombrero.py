"""Sombrero bots: how long the strong bot thinks per turn, and how often it wins.

Prints two figures, both measured in this run:

1. the strong bot's time to plan one whole turn (median and max) over many
   positions, with greedy's time on the same positions as the reference;
2. match results with colours alternated and a turn cap (a capped game counts
   as a draw): strong against greedy, and greedy against random.

Targets: strong median under 2 s per turn; strong wins at least 80% against greedy.

    .venv/bin/python benchmarks/bench_sombrero.py --games 50 --budget 1.0
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable

import hatskit
from hatskit.bots import Bot, make_bot
from hatskit.bots.sombrero import SombreroStrong
from hatskit.core import Game

BotMaker = Callable[[int], Bot]


def bot_maker(kind: str, budget: float) -> BotMaker:
    """A factory of seeded bots of ``kind``; a strong bot gets the time budget."""
    if kind == "strong":
        return lambda seed: SombreroStrong(seed, budget)
    return lambda seed: make_bot("sombrero", kind, seed)


def sample_positions(count: int, seed: int) -> list[Game]:
    """Positions at the start of a turn, from games of greedy against random, spread over the game."""
    rng = random.Random(seed)
    positions: list[Game] = []
    while len(positions) < count:
        game = hatskit.new_game("sombrero")
        bots = (
            make_bot("sombrero", "greedy", rng.randrange(10**6)),
            make_bot("sombrero", "random", rng.randrange(10**6)),
        )
        stop = rng.randrange(4, 60)
        while not game.is_over and game.ply < stop:
            game.play(bots[game.to_move].choose(game.seat_view(game.to_move)))
        if not game.is_over and game.state.actions_left == 2:  # type: ignore[attr-defined]
            positions.append(game)
    return positions


def seconds_per_turn(make: BotMaker, positions: list[Game]) -> list[float]:
    """Time to plan a whole turn (a fresh bot's first call plans both actions)."""
    times = []
    for number, game in enumerate(positions):
        bot = make(number)
        start = time.perf_counter()
        bot.choose(game.seat_view(game.to_move))
        times.append(time.perf_counter() - start)
    return times


def play_out(white: Bot, black: Bot, turn_cap: int) -> int | None:
    """Play one game; the winning seat, or None for a draw or a capped game."""
    game = hatskit.new_game("sombrero")
    bots = (white, black)
    while not game.is_over and game.ply < 2 * turn_cap:
        game.play(bots[game.to_move].choose(game.seat_view(game.to_move)))
    outcome = game.outcome()
    return outcome.winners[0] if outcome is not None and outcome.winners else None


def match(first: BotMaker, second: BotMaker, games: int, turn_cap: int, label: str) -> Counter[str]:
    """Wins, draws and losses of ``first`` against ``second``, colours alternating."""
    results: Counter[str] = Counter()
    start = time.perf_counter()
    for number in range(games):
        seat = number % 2
        pair = [second(1000 + number)]
        pair.insert(seat, first(number))
        winner = play_out(pair[0], pair[1], turn_cap)
        results["D" if winner is None else "W" if winner == seat else "L"] += 1
        elapsed = time.perf_counter() - start
        print(f"  {label} game {number + 1}/{games}: {dict(results)} ({elapsed:.0f} s)", file=sys.stderr, flush=True)
    return results


def report_timing(budget: float, count: int) -> None:
    positions = sample_positions(count, seed=7)
    strong = seconds_per_turn(bot_maker("strong", budget), positions)
    greedy = seconds_per_turn(bot_maker("greedy", budget), positions)
    ratio = statistics.median(strong) / statistics.median(greedy)
    print(f"strong time per turn over {count} positions (budget {budget} s):")
    print(f"  median {statistics.median(strong):.2f} s, max {max(strong):.2f} s (target: median < 2 s)")
    reference = statistics.median(greedy) * 1000
    print(f"  reference, greedy on the same positions: median {reference:.0f} ms; strong/greedy = {ratio:.0f}x")


def report_match(label: str, results: Counter[str], games: int) -> None:
    wins = results["W"]
    print(f"{label}: W {wins} / D {results['D']} / L {results['L']} over {games} games ({100 * wins / games:.0f}% won)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games per match (default 50)")
    parser.add_argument("--budget", type=float, default=1.0, help="strong bot's seconds per turn (default 1.0)")
    parser.add_argument("--positions", type=int, default=40, help="positions timed (default 40)")
    parser.add_argument("--turn-cap", type=int, default=150, help="turns per game before it counts as a draw")
    args = parser.parse_args()
    report_timing(args.budget, args.positions)
    strong, greedy, random_bot = (bot_maker(kind, args.budget) for kind in ("strong", "greedy", "random"))
    greedy_results = match(greedy, random_bot, args.games, args.turn_cap, "greedy v random")
    strong_results = match(strong, greedy, args.games, args.turn_cap, "strong v greedy")
    print(f"matches: colours alternate, capped at {args.turn_cap} turns (a capped game is a draw)")
    report_match("strong v greedy", strong_results, args.games)
    print("  target: strong wins >= 80%")
    report_match("greedy v random", greedy_results, args.games)


if __name__ == "__main__":
    main()
