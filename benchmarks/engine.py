"""Engine speed: random full games per second, for every registered game.

    .venv/bin/python benchmarks/engine.py [--seconds 3] [--profile]

Prints, for each game in ``hatskit.GAMES``, random full games per second
through the public API (``Game.play`` of a random legal move, every position
kept for undo and step-through). For Hats it also measures, in the same run:

- a *bare playout*: the same rules for three players written here with plain
  lists and ints (no objects, no events, no history), the reference;
- the *bots' playout path*: what the strong bot's simulations run, a state
  copied once and played to the end with ``rollout_move`` and ``advance``;

and prints both as a ratio against the bare playout (issue 9's targets: the
bots' path within 3x, the public API within 6x). ``--profile`` prints the
top of a cProfile of the public-API games, which is where to look first.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time
from collections.abc import Callable

import hatskit
from hatskit.games.hats import scoring
from hatskit.games.hats.bots import rollout_move


def games_per_second(play_one: Callable[[int], object], seconds: float) -> float:
    """How many seeded games ``play_one`` finishes per second, over about ``seconds``."""
    seed, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds or seed < 3:
        play_one(seed)
        seed += 1
    return seed / elapsed


def public_api_game(game_id: str) -> Callable[[int], object]:
    """A random game through the public API, as a notebook or a view plays one."""

    def play(seed: int) -> object:
        game = hatskit.new_game(game_id, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and game.ply < 2000:
            seat = rng.choice(game.acting)
            game.play(rng.choice(game.legal_moves(seat)))
        return game.score()

    return play


def bots_playout(seed: int) -> object:
    """A three-player Hats game on a bare state, as the strong bot's simulations play it."""
    state = hatskit.new_game("hats", players=3, seed=seed).state.copy()
    rng = random.Random(seed)
    while state.to_move is not None:
        state.advance(rollout_move(state, rng))
    return scoring.score(state)


def bare_playout(seed: int) -> list[int]:
    """Three-player Hats with ints: card = type * 6 + value - 1; H2, H3, H6-H10 as in the engine."""
    rng = random.Random(seed)
    deck = list(range(42))
    rng.shuffle(deck)
    hands = [deck[9 * s : 9 * s + 9] for s in range(3)]
    table = deck[27:33]
    collections: list[list[int]] = [[], [], []]
    blacks = [0, 0, 0]
    cookie = None
    for _ in range(8):
        for seat in range(3):
            hand = hands[seat]
            card = hand.pop(rng.randrange(len(hand)))
            targets = [p for p, top in enumerate(table) if top // 6 == card // 6 or card % 6 > top % 6]
            if targets and rng.random() < 0.85:
                position = rng.choice(targets)
                collections[seat].append(table[position])
                table[position] = card
            else:
                blacks[seat] += 1
            cookie = bare_cookie(collections, blacks, cookie)
    return bare_score(table, collections, blacks, hands, cookie)


def bare_cookie(collections: list[list[int]], blacks: list[int], holder: int | None) -> int | None:
    """H10: most distinct types (black hats one type), then the lowest values, else the holder keeps it."""
    counts = [len({c // 6 for c in coll}) + (1 if blacks[s] else 0) for s, coll in enumerate(collections)]
    leaders = [s for s, n in enumerate(counts) if n == max(counts)]
    keys = {s: sorted(c % 6 for c in collections[s]) for s in leaders}
    best = [s for s in leaders if all(not _lower(keys[o], keys[s]) for o in leaders)]
    if len(best) == 1:
        return best[0]
    return holder if holder in best else None


def _lower(left: list[int], right: list[int]) -> bool:
    """True when ``left`` beats ``right`` under H10's value comparison."""
    for a, b in zip(left, right, strict=False):
        if a != b:
            return a < b
    return len(left) > len(right)


def bare_score(table: list[int], collections: list[list[int]], blacks: list[int], hands, cookie) -> list[int]:
    """H7-H10 totals per seat."""
    face_up: dict[int, int] = {}
    for position, card in enumerate(table, start=1):
        face_up.setdefault(card // 6, position)
    totals = []
    for seat, coll in enumerate(collections):
        favorite = hands[seat][0]
        points = sum(face_up.get(c // 6, 0) for c in coll) + blacks[seat]
        points += sum(c % 6 + 1 for c in coll if c // 6 == favorite // 6) - (favorite % 6 + 1)
        totals.append(points + (5 if cookie == seat else 0))
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--profile", action="store_true", help="profile the public-API Hats games")
    args = parser.parse_args()
    bare = games_per_second(bare_playout, args.seconds)
    print(f"hats bare playout (reference): {bare:9.1f} games/s")
    bots = games_per_second(bots_playout, args.seconds)
    print(f"hats bots' playout path:       {bots:9.1f} games/s  = bare / {bare / bots:.1f}  (target: within 3x)")
    for game_id in hatskit.GAMES:
        api = games_per_second(public_api_game(game_id), args.seconds)
        ratio = f"  = bare / {bare / api:.1f}  (target: within 6x)" if game_id == "hats" else ""
        print(f"{game_id + ' public API:':31}{api:9.1f} games/s{ratio}")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(lambda: [public_api_game("hats")(seed) for seed in range(100)])
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(18)


if __name__ == "__main__":
    main()
