"""Madder than a Hatter (Chevee Dodd, 2015): stock your shop, stick the others with hats they can't sell.

3 or 4 players, a round per player (rulings M1-M6 and hatskit's decisions in
``docs/rulings.md``). The card texts are hatskit's stand-in set, data in
``cards.toml`` (M6). The package's files: ``components`` (options, seats, the
card set), ``moves`` (moves and notation), ``state`` (legality, ``advance`` and
the ability effects), ``narration``, ``scoring``, ``positions``, ``render`` and
``bots``.

Notation: a hat is its style, ``*`` for the Premium (``Fedora``, ``Fedora*``);
a place is a player's name (their inventory) or ``line``. ``Fedora>Ben`` plays
a hat into Ben's inventory; ``done`` ends your plays at the end of the round;
``decline`` leaves an ability unused; an ability's choice starts with its verb:
``move Fedora Ana>Ben``, ``discard Fedora@Ana Homburg@Ana``,
``swap Fedora@Ana Homburg@Ben``, ``take Boater@line``.
"""

from __future__ import annotations

from hatskit.core import GameSpec
from hatskit.games.madder import narration, positions, render, scoring
from hatskit.games.madder.components import MadderOptions, card_set, load_cards
from hatskit.games.madder.moves import DECLINE, DONE, Discard, HatAt, MoveHat, Play, Swap, Take, parse_move
from hatskit.games.madder.positions import MadderView, load_position, new_state, sample_world
from hatskit.games.madder.scoring import style_counts, style_points
from hatskit.games.madder.state import MadderState

SPEC = GameSpec(
    game_id="madder",
    title="Madder than a Hatter",
    players=(3, 4),
    simultaneous=False,
    hidden_information=True,
    chance=True,
    options_type=MadderOptions,
    parse_move=parse_move,
    new_state=new_state,
    load_position=load_position,
    save_position=positions.save_position,
    view=positions.view,
    sample_world=sample_world,
    narrate=narration.narrate,
    score=scoring.score,
    outcome=scoring.outcome,
    render=render.table_html,
    bot_module="hatskit.games.madder.bots",
)

__all__ = [
    "DECLINE",
    "DONE",
    "SPEC",
    "Discard",
    "HatAt",
    "MadderOptions",
    "MadderState",
    "MadderView",
    "MoveHat",
    "Play",
    "Swap",
    "Take",
    "card_set",
    "load_cards",
    "parse_move",
    "style_counts",
    "style_points",
]
