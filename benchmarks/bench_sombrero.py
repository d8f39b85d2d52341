"""Sombrero bots: how long the strong bot thinks per turn, how often it wins, and whether its games end.

Prints, all measured in this run:

1. the strong bot's hint time at the start of a turn, which plans the whole
   turn (median and max) over many positions, with greedy's time on the same
   positions as the reference;
2. match results with colours alternated and a turn cap (a capped game counts
   as a draw): strong against greedy, and greedy against random;
3. with ``--self-play N``: N games of the strong bot against itself (each side
   its own seed) with the same cap: how many end and how (S4 win, S5 or S2
   draw, "S5 quiet" for the quiet-game draw, or capped), their median length, and the most times one turn-start
   position came back in a game (issue 6: no shuffling back and forth).

Targets: strong median under 1.5 s per turn; strong wins at least 80% against greedy.

    .venv/bin/python benchmarks/bench_sombrero.py --games 50 --self-play 50 --workers 2
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import NamedTuple

import hatskit
from hatskit.bots import Bot, make_bot
from hatskit.core import Game
from hatskit.games.sombrero.bots import SombreroStrong
from hatskit.games.sombrero.components import QUIET_ACTIONS

BotMaker = Callable[[int], Bot]


class Played(NamedTuple):
    """How one game went: its winner (None: a draw or capped), the rule that ended it, its actions, the most
    times one turn-start position came, and the hats each side had at the end."""

    winner: int | None
    rule: str
    actions: int
    most_repeated: int
    hats: tuple[int, int]


def make(kind: str, nodes: int, seed: int) -> Bot:
    """A seeded bot of ``kind``; a strong bot gets the node limit."""
    return SombreroStrong(seed, nodes) if kind == "strong" else make_bot("sombrero", kind, seed)


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


def seconds_per_turn(make_one: BotMaker, positions: list[Game]) -> list[float]:
    """Time to give a hint at the start of a turn: a fresh bot plans the whole turn and says what it does."""
    times = []
    for number, game in enumerate(positions):
        bot = make_one(number)
        start = time.perf_counter()
        bot.hint(game.seat_view(game.to_move))
        times.append(time.perf_counter() - start)
    return times


def play_out(kinds: tuple[str, str], seeds: tuple[int, int], nodes: int, turn_cap: int) -> Played:
    """Play one game between two seeded bots; what happened (see :class:`Played`)."""
    game = hatskit.new_game("sombrero")
    bots = [make(kind, nodes, seed) for kind, seed in zip(kinds, seeds, strict=True)]
    starts: Counter[tuple[tuple[int, ...], int]] = Counter()
    while not game.is_over and game.ply < 2 * turn_cap:
        state = game.state
        if state.actions_left == 2:  # type: ignore[attr-defined]
            starts[tuple(state.board), state.turn] += 1  # type: ignore[attr-defined]
        game.play(bots[game.to_move].choose(game.seat_view(game.to_move)))
    outcome = game.outcome()
    rule = "capped" if outcome is None else game.events[-1][-1].rule or "?"
    if rule == "S5" and game.state.quiet_actions >= QUIET_ACTIONS:  # type: ignore[attr-defined]
        rule = "S5 quiet"
    winner = outcome.winners[0] if outcome is not None and outcome.winners else None
    hats = game.view(None)["hats"]
    return Played(winner, rule, game.ply, max(starts.values()), (hats[0], hats[1]))


def games_of(kinds: tuple[str, str], games: int, nodes: int, turn_cap: int, workers: int, label: str) -> list[Played]:
    """``games`` games of ``kinds[0]`` against ``kinds[1]``, colours alternating; game i is seeded i and 1000+i."""
    pairings = []
    for number in range(games):
        seeds = (number, 1000 + number)
        pairings.append((kinds, seeds) if number % 2 == 0 else (kinds[::-1], seeds[::-1]))
    start, played = time.perf_counter(), []
    with ProcessPoolExecutor(workers) as pool:
        run = partial(play_out, nodes=nodes, turn_cap=turn_cap)
        for number, result in enumerate(pool.map(run, *zip(*pairings, strict=True)), start=1):
            played.append(result)
            print(f"  {label} game {number}/{games}: {result} ({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    return played


def report_timing(nodes: int, count: int) -> None:
    positions = sample_positions(count, seed=7)
    strong = seconds_per_turn(partial(make, "strong", nodes), positions)
    greedy = seconds_per_turn(partial(make, "greedy", nodes), positions)
    ratio = statistics.median(strong) / statistics.median(greedy)
    print(f"strong hint time at the start of a turn, over {count} positions ({nodes:,} searched per turn):")
    print(f"  median {statistics.median(strong):.2f} s, max {max(strong):.2f} s (target: median < 1.5 s)")
    reference = statistics.median(greedy) * 1000
    print(f"  reference, greedy on the same positions: median {reference:.0f} ms; strong/greedy = {ratio:.0f}x")


def report_match(label: str, played: list[Played]) -> None:
    """Wins, draws and losses of the first kind (it plays White in even games, Black in odd ones)."""
    results = Counter(
        "D" if p.winner is None else "W" if p.winner == number % 2 else "L" for number, p in enumerate(played)
    )
    wins, games = results["W"], len(played)
    print(f"{label}: W {wins} / D {results['D']} / L {results['L']} over {games} games ({100 * wins / games:.0f}% won)")


def report_self_play(played: list[Played], turn_cap: int) -> None:
    ended = [p for p in played if p.rule != "capped"]
    rules = Counter(p.rule for p in played)
    print(f"strong v strong, {len(played)} games capped at {turn_cap} turns:")
    print(f"  ended {len(ended)}: by rule {dict(sorted(rules.items()))}")
    if ended:
        lengths = sorted(p.actions for p in ended)
        print(f"  actions in the games that ended: median {statistics.median(lengths):.0f}, max {lengths[-1]}")
    capped = Counter(tuple(sorted(p.hats, reverse=True)) for p in played if p.rule == "capped")
    print(f"  hats left in the capped games (more, fewer): {dict(sorted(capped.items()))}")
    repeats = Counter(p.most_repeated for p in played)
    print(f"  most times a turn-start position came back in one game: {dict(sorted(repeats.items()))} (games)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games per match (default 50; 0: no matches)")
    parser.add_argument("--self-play", type=int, default=0, help="strong v strong games (default none)")
    parser.add_argument("--nodes", type=int, default=SombreroStrong().nodes, help="strong bot's positions per turn")
    parser.add_argument("--positions", type=int, default=40, help="positions timed (default 40; 0: no timing)")
    parser.add_argument("--turn-cap", type=int, default=150, help="turns in all before a game is capped")
    parser.add_argument("--workers", type=int, default=2, help="games played at once (default 2)")
    args = parser.parse_args()
    if args.positions:
        report_timing(args.nodes, args.positions)
    play = partial(games_of, nodes=args.nodes, turn_cap=args.turn_cap, workers=args.workers)
    if args.games:
        greedy_results = play(("greedy", "random"), args.games, label="greedy v random")
        strong_results = play(("strong", "greedy"), args.games, label="strong v greedy")
        print(f"matches: colours alternate, capped at {args.turn_cap} turns (a capped game is a draw)")
        report_match("strong v greedy", strong_results)
        print("  target: strong wins >= 80%")
        report_match("greedy v random", greedy_results)
    if args.self_play:
        report_self_play(play(("strong", "strong"), args.self_play, label="strong v strong"), args.turn_cap)


if __name__ == "__main__":
    main()
