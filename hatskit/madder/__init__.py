"""Madder than a Hatter (Chevee Dodd, 2015): stock your shop, stick the others with hats they can't sell.

Rules in brief (rulings from RULINGS.md in brackets):

- 32 hats: 8 styles with 3 regular hats and 1 Premium each; 4 Haberdashers.
  3 or 4 players. The game has as many rounds as players; the dealer deals and
  takes the first turn, and the next round's dealer sits to the left. Round
  scores add up; a tie for most points plays another round [M1].
- Each round every player gets a secret Haberdasher, 1 hat face up (the start
  of their inventory) and a hand of 3 hats (3 players) or 2 (4 players). The
  assembly line is 4 hats (3 players) or 5 (4 players), face up; its first hat
  is the one farthest from the deck [M2].
- A turn: play one hat from your hand into anybody's inventory, your own
  included; a Premium's ability may then be used, or declined. Then take the
  line's first hat into your hand. An empty line is turned over again from the
  deck. The turns end when deck and line are both empty [M3].
- End of the round: from the dealer on, each player may play hats from hand
  into their own inventory only (no abilities), then says ``done``. The
  Haberdashers are revealed and used in turn order from the dealer [M4].
- Score per style: exactly 1 hat = 1 point, all 4 (an *Exclusive*) = 3, 2 or 3
  hats = 0; plus the Haberdashers' bonuses [M5].
- The printed texts of the Premium abilities and Haberdashers are not public:
  hatskit plays with its own stand-in set, defined as data in ``cards.toml``
  (name, text, effect, parameters) over five effect primitives ``move``,
  ``discard``, ``swap``, ``take`` and ``bonus`` (see ``cards.py``). It holds the
  rulebook's Haberdasher (discard up to 2 of your own hats) and one that speaks
  of Exclusives. Styles: Newsboy, Homburg, Fedora, Boater (from the rulebook),
  Bowler, Beret, Stetson, Trilby (hatskit's choice). A class that owns the game
  can enter the printed texts in that file, or name another file with the
  ``cards`` option [M6].

Decisions of hatskit where neither the rulebook nor RULINGS.md speak:

- Seat 0 deals the first round. Every round shuffles all 32 hats and the 4
  Haberdashers again (passing the cards left hands the deck to the new dealer).
- The end-of-round plays go one player at a time, from the dealer, each ending
  with ``done`` (a player whose hand is empty is passed over): a play there only
  changes the player's own inventory, so the order gives nobody a choice that
  matters before the Haberdashers, which the rulebook orders from the dealer.
- A Haberdasher that scores (``bonus``) needs no move; one with nothing to act
  on is passed over with the others' abilities going on. The same holds for a
  Premium whose ability has nothing to act on: the turn goes on.
- A Premium's ability belongs to the player who played it, whichever inventory
  it went into. A Premium moved by an ability, or played at the end of the
  round, does nothing (M4).
- The line is turned over again as soon as it is empty, also when an ability
  took or discarded its last hat; the turn then takes the new first hat. Taking
  a style from the line takes the copy nearest the first hat.
- Discarded hats lie face up, out of the round, and go back into the deck at
  the next deal.
- Only a tie for most points plays on; everybody plays the extra round, the
  dealer moving left as usual, and a tie after it plays another.
- A mid-round score sheet shows the finished rounds and the current round as
  if it ended now: hats in hand do not count, and the Haberdashers are left
  out until they are revealed (the sheet's note says so).

Notation (``moves.py``): a hat is its style, ``*`` for the Premium (``Fedora``,
``Fedora*``); a place is a player's name (that player's inventory) or ``line``.

- ``Fedora>Ben``: play a Fedora from your hand into Ben's inventory (at the
  end of the round only into your own);
- ``done``: no more hats from your hand at the end of the round;
- ``decline``: leave a Premium ability or a Haberdasher unused;
- ability choices, by effect: ``move Fedora Ana>Ben`` (Ana's Fedora into Ben's
  inventory); ``discard Fedora@Ana Homburg@Ana`` (one or more hats);
  ``swap Fedora@Ana Homburg@Ben`` (your hat first); ``take Boater@line`` or
  ``take Fedora@Ben`` (where it goes, hand or inventory, is on the card).

Positions: ``{"game": "madder", "players": 3, "round": 1, "dealer": 0,
"phase": "play", "to_move": 0, "inventories": [[...], ...], "hands": [...],
"line": [...] (first hat first), "deck": [...] (top last), "discard": [...],
"haberdashers": ["The Tailor", ...], "ability": null, "scores": [...]}``.
``phase`` is play, ability (``ability`` names the Premium just played), end,
haberdashers or over; ``scores`` holds one entry per finished round, per seat
either the round's points or its lines ``[category, points, explanation]``.
Hats listed nowhere form the deck (shuffled with ``seed``), or once the turns
are over lie discarded. A position with only ``players`` and ``inventories``
is a scoring exercise: it is scored (styles only), not played.
"""

from __future__ import annotations

from hatskit.core import GameSpec
from hatskit.madder.cards import MadderOptions, card_set, load_cards
from hatskit.madder.moves import DECLINE, DONE, Discard, HatAt, MoveHat, Play, Swap, Take, parse_move
from hatskit.madder.positions import load_position, new_state, sample_world
from hatskit.madder.scoring import style_counts, style_points
from hatskit.madder.state import MadderState, MadderView


def _render(state: MadderState, seat: int | None = None) -> str:
    from hatskit.render.madder import table_html  # TRANSITION: the renderer imports this module

    return table_html(state, seat)


def _narrate(before: MadderState, after: MadderState, move: object) -> list:
    return before.copy().apply(move)  # TRANSITION: told by carrying the move out again


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
    save_position=MadderState.position,
    view=MadderState.view,
    sample_world=sample_world,
    narrate=_narrate,
    score=MadderState.score,
    outcome=MadderState.outcome,
    render=_render,
    bot_module="hatskit.bots.madder",
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
