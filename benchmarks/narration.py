"""What telling every simulated move cost the bots: greedy decisions per second, with and without narration.

    .venv/bin/python benchmarks/narration.py [--seconds 3]

Before issue 27 a state's ``apply`` carried a move out *and* told it, so every
move a bot tried in its head formatted sentences nobody read. Now ``advance``
only carries it out, and ``GameSpec.apply`` adds the narration for the moves
that are really played. For every game this prints, in one run, the generic
greedy bot's decisions per second as it is (its simulations ``advance``) and
as it was (a greedy bot whose simulations narrate each move, the old cost), and
their ratio. The positions are the same for both: every position of a seeded
random game, each decided once by each bot.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import hatskit
from hatskit.bots import GreedyBot
from hatskit.bots.base import margin
from hatskit.core import Game, GameSpec, SeatView, State


class NarratingGreedy(GreedyBot):
    """The greedy bot as it was: each simulated move is carried out and told (GameSpec.apply)."""

    @staticmethod
    def _margin_after(spec: GameSpec, world: State, move: Any, seat: int) -> int:
        after, _ = spec.apply(world, move)
        return margin(spec.score(after), seat)


def positions(game_id: str, count: int) -> list[SeatView]:
    """The seat views of the first ``count`` decisions of seeded random games (one acting seat each)."""
    views: list[SeatView] = []
    seed = 0
    while len(views) < count:
        game: Game = hatskit.new_game(game_id, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and len(views) < count:
            seat = rng.choice(game.acting)
            views.append(game.state_at(game.ply).seat_view(seat))
            game.play(rng.choice(game.legal_moves(seat)))
        seed += 1
    return views


def decisions_per_second(bot: GreedyBot, views: list[SeatView], seconds: float) -> float:
    """Decisions of ``bot`` per second over the positions, in turn, for about ``seconds``."""
    done, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds or done < len(views):
        bot.choose(views[done % len(views)])
        done += 1
    return done / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement (default 3)")
    parser.add_argument("--positions", type=int, default=60, help="positions per game (default 60)")
    args = parser.parse_args()
    if args.seconds <= 0 or args.positions < 1:
        parser.error("--seconds must be above 0 and --positions at least 1")
    print(f"{'game':10} {'greedy now':>12} {'narrating':>12} {'now / narrating':>16}")
    for game_id in hatskit.GAMES:
        views = positions(game_id, args.positions)
        now = decisions_per_second(GreedyBot(1), views, args.seconds)
        before = decisions_per_second(NarratingGreedy(1), views, args.seconds)
        print(f"{game_id:10} {now:10.0f}/s {before:10.0f}/s {now / before:15.2f}x")


if __name__ == "__main__":
    main()
