"""Hats (ThunderGryph Games, 2019): exchange hats with the tea table. ``SPEC`` registers the game.

Notation: a card is its type's symbol and its number (``♥5``) or the type's
name and number (``heart5``). Moves: ``♥5@2`` exchanges ♥5 onto table position
2 (H2); ``black ♥5`` makes a black hat (H3); ``discard ♥5`` discards and draws
(H4); ``swap ♥5`` passes a card to the partner, who answers ``back ♦3`` (H5).
Every ruling id (H1-H11) and the decisions hatskit makes for Hats are explained
in ``docs/rulings.md``, with the position format.
"""

from __future__ import annotations

from hatskit.core import GameSpec
from hatskit.games.hats import narration, positions, render, scoring
from hatskit.games.hats.components import (
    COOKIE_POINTS,
    HAND_SIZE,
    KIND_NAMES,
    KINDS,
    MAIN_ACTIONS,
    SEAT_NAMES,
    TEAMS,
    VALUES,
    Card,
    HatsOptions,
    cards_of_game,
    parse_card,
    partner,
)
from hatskit.games.hats.moves import Back, BlackHat, Discard, Exchange, HatsMove, Swap, parse_move
from hatskit.games.hats.positions import load_position, new_state, sample_world, save_position, turn_after, view
from hatskit.games.hats.render import hat_card_html, table_html, tea_table_html
from hatskit.games.hats.scoring import (
    collection_lines,
    cookie_holder,
    cookie_seat,
    distinct_types,
    face_up_positions,
    favorite_line,
    outcome,
    score,
)
from hatskit.games.hats.state import HatsState, PendingSwap, fits

SPEC = GameSpec(
    game_id="hats",
    title="Hats",
    players=(2, 3, 4),
    simultaneous=False,
    hidden_information=True,
    chance=True,
    options_type=HatsOptions,
    parse_move=parse_move,
    new_state=positions.new_state,
    load_position=positions.load_position,
    save_position=positions.save_position,
    view=positions.view,
    sample_world=positions.sample_world,
    narrate=narration.narrate,
    score=scoring.score,
    outcome=scoring.outcome,
    render=render.table_html,
    bot_module="hatskit.games.hats.bots",
)

__all__ = [
    "COOKIE_POINTS",
    "HAND_SIZE",
    "KINDS",
    "KIND_NAMES",
    "MAIN_ACTIONS",
    "SEAT_NAMES",
    "SPEC",
    "TEAMS",
    "VALUES",
    "Back",
    "BlackHat",
    "Card",
    "Discard",
    "Exchange",
    "HatsMove",
    "HatsOptions",
    "HatsState",
    "PendingSwap",
    "Swap",
    "cards_of_game",
    "collection_lines",
    "cookie_holder",
    "cookie_seat",
    "distinct_types",
    "face_up_positions",
    "favorite_line",
    "fits",
    "hat_card_html",
    "load_position",
    "new_state",
    "outcome",
    "parse_card",
    "parse_move",
    "partner",
    "sample_world",
    "save_position",
    "score",
    "table_html",
    "tea_table_html",
    "turn_after",
    "view",
]
