"""Answers a notebook shows as saved text, so its page opens without waiting for a bot, are what the bot says now."""

from __future__ import annotations

import json
import re

import hatskit
from hatskit.bots import make_bot
from hatskit.puzzles import load_puzzles
from tests.conftest import NOTEBOOK_DIR

ASKED = 'make_bot("sombrero", "strong", seed=1).hint(puzzle_4.seat_view(puzzle_4.to_move))'


def saved_line(notebook: str, asked: str) -> str:
    """The text printed by the code cell of ``notebook`` whose comment says it was asked of ``asked``."""
    cells = json.loads((NOTEBOOK_DIR / notebook).read_text(encoding="utf-8"))["cells"]
    (source,) = [
        "".join(cell["source"]) for cell in cells if cell["cell_type"] == "code" and asked in "".join(cell["source"])
    ]
    match = re.search(r'^print\("(.*)"\)$', source, re.MULTILINE)
    assert match is not None, source
    return match.group(1)


def test_the_sombrero_notebooks_saved_hint_is_the_strong_bots_hint() -> None:
    puzzle_4 = load_puzzles(NOTEBOOK_DIR / "puzzles" / "sombrero.json")[3].game
    hint = make_bot("sombrero", "strong", seed=1).hint(puzzle_4.seat_view(puzzle_4.to_move))
    assert saved_line("sombrero.ipynb", ASKED) == str(hint)


def test_the_madder_notebooks_saved_game_is_what_its_greedy_bots_play() -> None:
    """The Madder page replays a saved game of greedy bots (played live it kept the page's kernel busy for a
    fifth of a second); the bots must still play exactly those moves."""
    cells = json.loads((NOTEBOOK_DIR / "madder_than_a_hatter.ipynb").read_text(encoding="utf-8"))["cells"]
    (source,) = ["".join(cell["source"]) for cell in cells if "moves = [" in "".join(cell["source"])]
    saved = json.loads(re.search(r"^moves = (\[.*?^\])", source, re.MULTILINE | re.DOTALL)[1].replace(",\n]", "\n]"))
    played = hatskit.new_game("madder", players=3, seed=42)
    bots = [make_bot("madder", "greedy", seed=seat) for seat in range(3)]
    while not played.is_over:
        played.play(bots[played.to_move].choose(played.seat_view(played.to_move)))
    assert [str(move) for move in played.history] == saved
