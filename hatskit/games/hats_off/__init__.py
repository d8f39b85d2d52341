"""Hats Off! (Gamewright): race to match the flipped hat from your hand or your head; 2 to 5 players.

The files, read in this order: ``components`` (options, cards, seats),
``moves`` (moves and their notation), ``state`` (who may act, legality,
``advance``), ``narration``, ``scoring``, ``positions`` (new, load, save, view,
a bot's imagined world), ``render`` (HTML) and ``bots`` (racers by level).

Notation: a move starts with the player's name (or seat number) and a colon:
``Ana:wear fez`` (O1), ``Ana:flip`` (O2), ``Ben:bowler@0.42`` (a hand card
played 0.42 s after the race was shown, O3), ``Ben:head@0.61`` (the head card,
unnamed), ``Cleo:off@0.55`` (a "Hats Off!" call, O5, O6) and ``Dev:pass``. The
rulings O1-O7 and hatskit's decisions about races are explained in
``docs/rulings.md``. Everything below is importable from ``hatskit.games.hats_off``.
"""

from __future__ import annotations

from hatskit.core import GameSpec
from hatskit.games.hats_off.components import (
    COPIES,
    DEALT,
    FALL_CHANCE,
    HAND_SIZE,
    KIND_NAMES,
    KINDS,
    MAX_MS,
    MAX_RACES,
    PHASES,
    SEAT_NAMES,
    HatsOffOptions,
    Loose,
    a_hat,
    all_cards,
    longest_game,
    parse_kind,
    seconds,
)
from hatskit.games.hats_off.moves import Call, Flip, HatsOffMove, Pass, Play, Wear, parse_move
from hatskit.games.hats_off.narration import narrate
from hatskit.games.hats_off.positions import (
    HatsOffView,
    LooseView,
    load_position,
    new_state,
    sample_world,
    save_position,
    view,
)
from hatskit.games.hats_off.render import cards_html, table_html
from hatskit.games.hats_off.scoring import outcome, score
from hatskit.games.hats_off.state import HatsOffState

__all__ = [
    "COPIES",
    "DEALT",
    "FALL_CHANCE",
    "HAND_SIZE",
    "KINDS",
    "KIND_NAMES",
    "MAX_MS",
    "MAX_RACES",
    "PHASES",
    "SEAT_NAMES",
    "SPEC",
    "Call",
    "Flip",
    "HatsOffMove",
    "HatsOffOptions",
    "HatsOffState",
    "HatsOffView",
    "Loose",
    "LooseView",
    "Pass",
    "Play",
    "Wear",
    "a_hat",
    "all_cards",
    "cards_html",
    "load_position",
    "longest_game",
    "narrate",
    "new_state",
    "outcome",
    "parse_kind",
    "parse_move",
    "sample_world",
    "save_position",
    "score",
    "seconds",
    "table_html",
    "view",
]

SPEC = GameSpec(
    game_id="hats-off",
    title="Hats Off!",
    players=(2, 3, 4, 5),
    simultaneous=True,
    hidden_information=True,
    chance=True,
    options_type=HatsOffOptions,
    parse_move=parse_move,
    new_state=new_state,
    load_position=load_position,
    save_position=save_position,
    view=view,
    sample_world=sample_world,
    narrate=narrate,
    score=score,
    outcome=outcome,
    render=table_html,
    bot_module="hatskit.games.hats_off.bots",
)
