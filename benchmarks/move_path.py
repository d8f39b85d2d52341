"""The kernel's part of a reader's move, per game: a move the page completed from the offered paths, against the
path a move took when the page asked the kernel at every press.

A reader's move on a card table or the board is two presses (pick up, then a place). When the selection lived
in the kernel, the pick-up was a message of its own and a whole ``show_table`` of the table, and the second
press built the move's notation, which the frame read and judged (``why_not``) and ``Game.play`` read and
judged again. Now the pick-up is the page's alone, and the second press names a move the table offered, which
``TableFrame.play_offered`` plays with ``Game.push``. Both are measured here on the same positions in the same
run, bots switched off (their thinking is the same either way):

- *asked at each press*: ``show_table`` of the position (the pick-up's answer), then ``try_move(notation)``,
  which is still how a typed move or a button in words is played;
- *offered as data*: ``play_offered(notation)``, which includes sending the next position's offered paths.

Each figure is the median over the positions of a seeded random game, and the ratio of the two is printed per
game (below 1: the page's way costs the kernel less).

    .venv/bin/python benchmarks/move_path.py --games 3
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

import hatskit
from widgets import TABLES, TableFrame

GAMES = {"hats": {"players": 3}, "madder": {"players": 3}, "sombrero": {}}


def reader_table(game_id: str, seed: int) -> TableFrame:
    """Two or three readers at one screen, so every move is a reader's and no bot thinks."""
    options = GAMES[game_id]
    game = hatskit.new_game(game_id, seed=seed, **options)
    seats = ["reader"] * len(game.seat_names)
    table = TABLES[game_id](game, seats, bot_delay=0)
    table.guard.reveal_box.value = True  # no pass-the-laptop screen between readers: every move is offered
    return table


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def one_game(game_id: str, seed: int) -> tuple[list[float], list[float]]:
    """The two ways timed on each position of one random game: (asked at each press, offered as data)."""
    rng = random.Random(seed)
    asked, offered = [], []
    table, twin = reader_table(game_id, seed), reader_table(game_id, seed)
    while table.moves_part.offered and not table.game.is_over:
        notation = rng.choice(table.moves_part.offered)["move"]
        view = twin.shown().view(twin.viewer)
        asked.append(timed(partial(twin.show_table, view)) + timed(partial(twin.try_move, notation)))
        offered.append(timed(partial(table.play_offered, notation)))
        assert table.game.history == twin.game.history, "both ways play the same game"
    return asked, offered


def games_asked(doc: str) -> int:
    """The command line's ``--games``: seeded random games of every game kind (this script's and move_bytes.py's)."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--games", type=int, default=3, help="random games per game kind")
    return int(parser.parse_args().games)


def main() -> None:
    games = games_asked(__doc__)
    print(f"{'game':10} {'moves':>6} {'asked at each press':>20} {'offered as data':>16} {'ratio':>6}")
    for game_id in GAMES:
        asked, offered = [], []
        for seed in range(games):
            one_asked, one_offered = one_game(game_id, seed)
            asked += one_asked
            offered += one_offered
        before, after = statistics.median(asked) * 1000, statistics.median(offered) * 1000
        print(f"{game_id:10} {len(asked):6} {before:17.2f} ms {after:13.2f} ms {after / before:6.2f}")


if __name__ == "__main__":
    main()
