"""Hats Off! (Gamewright): race to match the flipped hat from your hand or your head.

Rules in brief (rulings from RULINGS.md in brackets):

- 56 cards: eight hats, seven of each: top hat, bowler hat, cowboy hat, beret,
  fez, beanie, chef's hat and party hat (the rulebook does not name its hats;
  these are hatskit's). 2 to 5 players. Each player is dealt 4 cards, chooses
  one, looks at it and wears it face down on the head; from then on the owner
  knows it only from memory. A view shows a head card to its owner while the
  owner is *looking* at it (from the moment it is put on until the next flip)
  and never otherwise, unless the ``memory_aid`` option is on [O1].
- The flipper turns the top deck card face up onto the pile (on top of any
  cards nobody matched). Ana flips first; after a pile is won, the last player
  to win cards flips; when nobody matches, the flip passes to the left [O2].
- After a flip every player may play a card of the same hat as the top card,
  from the hand or from the head. The first matching play wins the whole pile
  [O3]. The winner refills to one head card (looked at, then put on) and three
  hand cards; an empty deck refills nothing [O4].
- A play that does not match is a wrong play: the card lies loose, the first
  *other* player to call "Hats Off!" wins it, and the wrong player refills [O5].
- Option ``falling_hats`` (off by default): at each flip every head card falls
  off with a chance of 1 in 20 (drawn from the game's seeded generator, seat
  by seat). The fallen card lies loose like a wrong play, to be won by the first
  other player to call; the owner refills the head [O6].
- When the deck is empty and a race ends, the round ends. Most won cards wins;
  equal counts share the win. Option ``best_of`` (1, 3 or 5) plays a match of
  several rounds [O7].

How the engine runs a race without a clock (O3):

- After a flip the state is a *race*: every seat that can do anything (play a
  card, or call for a loose card it may win) is in ``acting``, and each submits
  one move: a play with its time, a call with its time, or a pass. Times are
  seconds, to the millisecond, since the race was shown (the flip, or the end of
  the previous race for the same card). Submitted moves are sealed: a view tells
  the others only *that* a seat has moved, so nobody can answer what they cannot
  have seen. The frame that runs the clock decides who clicked when.
- When every acting seat has moved, the race is settled in order of time, equal
  times going to the lower seat: the first matching play wins the pile and every
  later play is too late (its card stays where it was); a wrong play before it
  leaves its card loose (O5). A call wins every loose card the caller may win
  that lay loose when the race began, if it comes before the race's first play
  (O6: "before the next play"); loose cards nobody won by then go back into the
  deck at a random place drawn from the game's generator.
- ``legal_moves`` lists plays and calls at time 0; whoever makes the move sets
  its time (``move.at(0.42)``). A call is legal only while a loose card lies
  there that the caller may win. A seat with nothing to play and nothing to
  call for is not acting: the race does not wait for it.
- A card that comes loose during a race can be called for in the next race:
  if the pile is still unmatched after wrong plays or calls, the race goes on
  for the same card; if the pile was won, a race for the loose cards alone
  follows (only calls and passes). A race in which everybody passes ends it:
  nobody matched.

Decisions of hatskit where neither the rulebook nor RULINGS.md speak:

- Choosing the head card at the deal is a move of each player (``wear``); the
  others see only that it was made.
- "Looking" lasts from the moment a head card is put on until the next flip;
  the frame may hide it sooner.
- A wrong card that nobody calls for goes back into the deck, as a fallen hat
  does (O6); the rulebook says what happens only to a fallen hat.
- Refills after a wrong play or a fallen hat use the O4 rule (head first, up to
  one head card and three hand cards).
- The last player to win cards (a pile or a call) flips after a pile is won;
  a race that ends without a match passes the flip to the left of the seat
  that flipped, whatever calls were won in it.
- A play made after the pile was won is too late and changes nothing.
- A race's times count from when that race was shown; a play may be timed at 0
  (the moment it was shown) up to 999.999 s.
- Best of three (or five): rounds are played until a player has won more than
  half of them or all were played; a shared round counts as won by each player
  who shared it. The match goes to the most rounds won, then to the most cards
  over the whole match, else it is shared. Each round is a fresh deal; the first
  flip moves one seat to the left each round.

Notation: a hat is its short name, ``top bowler cowboy beret fez beanie chef
party`` (the full names such as ``top hat`` parse too). A move starts with the
player's name (or seat number) and a colon: ``Ana:wear fez`` (choose the head
card, O1), ``Ana:flip`` (O2), ``Ben:bowler@0.42`` (play a bowler from the hand
0.42 s after the race was shown, O3), ``Ben:head@0.61`` (play the head card
without naming it: it is hidden from its owner too), ``Cleo:off@0.55`` (call
"Hats Off!", O5/O6) and ``Dev:pass``. A play or call written without ``@``
is made at 0 s; the time is always printed.

The game outgrew one file, so it is a package of the same shape, read in this
order: ``cards`` (options, cards, seats, moves and their notation), ``state``
(who may act, legality, apply with narrated events, races, scoring, views) and
``positions`` (the worlds a bot imagines, the deal, loading positions); the
spec is here. Everything is importable from ``hatskit.hats_off``.
"""

from __future__ import annotations

from hatskit.core import GameSpec
from hatskit.hats_off.cards import (
    COPIES,
    DEALT,
    FALL_CHANCE,
    HAND_SIZE,
    KIND_NAMES,
    KINDS,
    MAX_MS,
    PHASES,
    SEAT_NAMES,
    Call,
    Flip,
    HatsOffMove,
    HatsOffOptions,
    Pass,
    Play,
    Wear,
    a_hat,
    all_cards,
    parse_kind,
    parse_move,
    seconds,
)
from hatskit.hats_off.positions import load_position, new_state, sample_world
from hatskit.hats_off.state import HatsOffState, HatsOffView, Loose, LooseView

__all__ = [
    "COPIES",
    "DEALT",
    "FALL_CHANCE",
    "HAND_SIZE",
    "KINDS",
    "KIND_NAMES",
    "MAX_MS",
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
    "load_position",
    "new_state",
    "parse_kind",
    "parse_move",
    "sample_world",
    "seconds",
]


def _render(state: HatsOffState, seat: int | None = None) -> str:
    from hatskit.render.hats_off import table_html  # TRANSITION: the renderer imports this module

    return table_html(state, seat)


def _narrate(before: HatsOffState, after: HatsOffState, move: object) -> list:
    return before.copy().apply(move)  # TRANSITION: told by carrying the move out again


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
    save_position=HatsOffState.position,
    view=HatsOffState.view,
    sample_world=sample_world,
    narrate=_narrate,
    score=HatsOffState.score,
    outcome=HatsOffState.outcome,
    render=_render,
    bot_module="hatskit.bots.hats_off",
)
