"""What a move sends the page, per game, through whole games: a patch's bytes as sent, against the same patch with
every markup whole (the reference, measured on the same patches).

A long markup that kept its start and end (a move list that gained a line, a score sheet whose totals changed)
goes in a patch as its changed middle (``widgets.toolkit.ui.spliced``). This plays seeded random games with a
reader at every seat (no bot thinks), takes every patch a move sends, and prints per game: the median bytes a
move sends and the median over each game's last tenth of moves (where a list is longest), as sent and whole,
with their ratio; and the kernel's time to encode the patch (as the kernel's session does, ``json_packer``) with
the splicing itself, against encoding it whole.

    PYTHONPATH=. .venv/bin/python benchmarks/move_bytes.py --games 3
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from jupyter_client.session import json_packer

from benchmarks.move_path import GAMES, games_asked, reader_table
from widgets.toolkit import ui


def whole(patch: dict[str, Any], sent: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """The patch with every spliced node as the surface holds it, whole."""
    nodes = {uid: sent[int(uid)] if "splice" in node else node for uid, node in patch["nodes"].items()}
    return patch | {"nodes": nodes}


def one_game(game_id: str, seed: int) -> list[tuple[int, int, float, float]]:
    """Each move of one random game: (bytes sent, bytes whole, seconds to splice and encode, seconds to encode
    whole)."""
    rng, table = random.Random(seed), reader_table(game_id, seed)
    table._received(table, {"hello": True}, [])
    patches: list[dict[str, Any]] = []
    table.channel.send = lambda content, buffers=None: patches.append(content)
    splicing = [0.0]
    plain = ui.spliced

    def timed_splice(had: dict[str, Any] | None, node: dict[str, Any]) -> dict[str, Any]:
        start = time.perf_counter()
        try:
            return plain(had, node)
        finally:
            splicing[0] += time.perf_counter() - start

    ui.spliced = timed_splice
    moves = []
    try:
        while table.moves_part.offered and not table.game.is_over:
            patches.clear()
            splicing[0] = 0.0
            table.play_offered(rng.choice(table.moves_part.offered)["move"])
            table.flush()
            moves.append(measured([whole(patch, table._sent) for patch in patches], patches, splicing[0]))
    finally:
        ui.spliced = plain
    return moves


def measured(
    wholes: list[dict[str, Any]], patches: list[dict[str, Any]], splicing: float
) -> tuple[int, int, float, float]:
    """One move's figures: its patches' bytes as sent and whole, and the time to make and encode each."""
    start = time.perf_counter()
    sent = sum(len(json_packer(patch)) for patch in patches)
    middle = time.perf_counter()
    whole_bytes = sum(len(json_packer(patch)) for patch in wholes)
    end = time.perf_counter()
    return sent, whole_bytes, splicing + middle - start, end - middle


def figures(moves: list[tuple[int, int, float, float]]) -> str:
    """Median bytes sent and whole with their ratio, and the encoding's median times with theirs."""
    sent, wholes = statistics.median(m[0] for m in moves), statistics.median(m[1] for m in moves)
    return f"{sent / 1000:7.1f} / {wholes / 1000:5.1f} KB {sent / wholes:5.2f}"


def main() -> None:
    games_each = games_asked(__doc__)
    print(f"{'game':10} {'moves':>6} {'median sent / whole':>22} {'last tenth sent / whole':>26} {'encode':>22}")
    for game_id in GAMES:
        games = [one_game(game_id, seed) for seed in range(games_each)]
        moves = [move for game in games for move in game]
        lasts = [move for game in games for move in game[len(game) - len(game) // 10 :]]
        made, whole_time = statistics.median(m[2] for m in moves), statistics.median(m[3] for m in moves)
        encode = f"{made * 1e6:5.0f} / {whole_time * 1e6:4.0f} µs {made / whole_time:5.2f}"
        print(f"{game_id:10} {len(moves):6} {figures(moves):>22} {figures(lasts):>26} {encode:>22}")


if __name__ == "__main__":
    main()
