"""Hats bots, measured: hint time and results over many games.

    .venv/bin/python benchmarks/bench_hats.py [--games 300] [--workers 2] [--four-players 100]

Prints (issues 2 and 6):
- the strong bot's hint time per decision (median, 90th percentile, max), and
  its ratio to the greedy bot's time on the same positions, measured in the
  same run (target: median under 1 s);
- three players, seats rotated every game: greedy against two random bots and
  strong against two greedy bots: win shares (a shared win counts as
  1/winners), with chance = 1/3 as the reference; and how often the hero took
  the optional discard (H4), per game;
- with ``--four-players N``: N four-player games, a team of two strong bots
  against a team of two greedy bots (teams alternate between seats 0+2 and
  1+3): the strong team's win share (chance = 1/2) and its swaps (H5) per game.
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

import hatskit
from hatskit.bots import make_bot
from hatskit.games.hats import Discard, Swap


def play_match(seed: int, kinds: tuple[str, ...], heroes: tuple[int, ...]) -> tuple[float, int]:
    """One seeded game: the heroes' share of the win (0, 1/k or 1) and their optional actions (H4, H5)."""
    game = hatskit.new_game("hats", players=len(kinds), seed=seed)
    bots = [make_bot("hats", kind, seed * 10 + seat) for seat, kind in enumerate(kinds)]
    while not game.is_over:
        game.play(bots[game.to_move].choose(game.seat_view(game.to_move)))
    winners = game.outcome().winners
    share = sum(1 for seat in winners if seat in heroes) / len(winners)
    optional = sum(isinstance(m, Discard | Swap) and s in heroes for m, s in zip(game.moves, game.movers, strict=True))
    return share, optional


def tournament(hero_kind: str, rival_kind: str, games: int, workers: int, players: int) -> tuple[float, float]:
    """The heroes' win share and optional actions per game over ``games`` seeded games.

    Three players: one hero, its seat rotating 0, 1, 2. Four players: a team
    of heroes, on seats 0+2 in even games and 1+3 in odd ones.
    """
    lineups, heroes = [], []
    for number in range(games):
        team = (number % 3,) if players == 3 else (number % 2, number % 2 + 2)
        lineups.append(tuple(hero_kind if seat in team else rival_kind for seat in range(players)))
        heroes.append(team)
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(play_match, range(1000, 1000 + games), lineups, heroes, chunksize=4))
    return sum(r[0] for r in results) / games, sum(r[1] for r in results) / games


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


def report_times(count: int) -> None:
    points = decision_points(count)
    strong, greedy = hint_times("strong", points), hint_times("greedy", points)
    ratio = statistics.median(strong) / statistics.median(greedy)
    deciles = statistics.quantiles(strong, n=10)
    print(f"hint time over {len(points)} positions (3 players):")
    print(f"  strong: median {statistics.median(strong):.3f} s, p90 {deciles[-1]:.3f} s, max {max(strong):.3f} s")
    print(f"  greedy: median {statistics.median(greedy) * 1000:.2f} ms (reference)")
    print(f"  ratio strong/greedy: {ratio:.0f}x; target: strong median under 1 s")


def report_tournament(hero: str, rival: str, games: int, workers: int, players: int) -> None:
    start = time.perf_counter()
    share, optional = tournament(hero, rival, games, workers, players)
    took = time.perf_counter() - start
    chance = 1 / 3 if players == 3 else 1 / 2
    who = f"{hero} vs two {rival}" if players == 3 else f"team of two {hero} vs team of two {rival}"
    what = "discards" if players == 3 else "swaps"
    print(
        f"{who} ({players} players): {share:.1%} of the wins over {games} games "
        f"({share / chance:.2f}x chance of {chance:.1%}); "
        f"{optional:.2f} {what} per game by the {hero} side, {took:.0f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300, help="three-player games per match (0: none)")
    parser.add_argument("--four-players", type=int, default=0, help="four-player team games (default none)")
    parser.add_argument("--positions", type=int, default=40, help="positions timed (0: no timing)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    if args.positions:
        report_times(args.positions)
    for hero, rival in (("greedy", "random"), ("strong", "greedy")) if args.games else ():
        report_tournament(hero, rival, args.games, args.workers, 3)
    if args.four_players:
        report_tournament("strong", "greedy", args.four_players, args.workers, 4)


if __name__ == "__main__":
    main()
