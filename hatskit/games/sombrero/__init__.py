"""Sombrero (Diset S.A.): two players take each other's hats by flanking pieces on an 8x8 board.

Notation: a square is its file and rank (``e4``); ``e1-e2`` is a step, ``e1>f2``
a hat jump from e1 onto the hatless friend on f2. Rulings S1-S5 and the
Sombrero decisions are explained in ``docs/rulings.md``.
"""

from __future__ import annotations

from hatskit.core import GameSpec
from hatskit.games.sombrero import narration, positions, render, scoring
from hatskit.games.sombrero.components import (
    BLACK,
    FILES,
    SEAT_NAMES,
    SIDES,
    WHITE,
    SombreroOptions,
    parse_square,
    square_name,
)
from hatskit.games.sombrero.moves import Jump, SombreroMove, Step, parse_move
from hatskit.games.sombrero.positions import load_position, new_state
from hatskit.games.sombrero.state import SombreroState

SPEC = GameSpec(
    game_id="sombrero",
    title="Sombrero",
    players=(2,),
    simultaneous=False,
    hidden_information=False,
    chance=False,
    options_type=SombreroOptions,
    parse_move=parse_move,
    new_state=new_state,
    load_position=load_position,
    save_position=positions.save_position,
    view=positions.view,
    sample_world=positions.sample_world,
    narrate=narration.narrate,
    score=scoring.score,
    outcome=scoring.outcome,
    render=render.table_html,
    bot_module="hatskit.games.sombrero.bots",
)

__all__ = [
    "BLACK",
    "FILES",
    "SEAT_NAMES",
    "SIDES",
    "SPEC",
    "WHITE",
    "Jump",
    "SombreroMove",
    "SombreroOptions",
    "SombreroState",
    "Step",
    "load_position",
    "parse_move",
    "parse_square",
    "square_name",
]
