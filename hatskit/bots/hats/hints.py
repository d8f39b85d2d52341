"""What a Hats hint says: one sentence about what the move does, read off the public score sheet.

The sentence is built from what the engine shows every player: the move is
played in a world sampled from the seat's view, and the seat's public score
sheet (collections, black hats, the last cookie; favorites stay secret until
the end) is compared before and after. Cards the seat cannot see never change
those lines, so every world gives the same sentence. The simulation numbers
behind the choice go into the hint's detail.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from hatskit.hats import (
    COOKIE_POINTS,
    SEAT_NAMES,
    Back,
    BlackHat,
    Card,
    Discard,
    Exchange,
    HatsMove,
    HatsState,
    Swap,
    face_up_positions,
    fits,
    parse_card,
    partner,
    sample_world,
)

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def exchange_targets(state: HatsState, card: Card) -> list[int]:
    """The table positions (1-based) where ``card`` may be exchanged: same type or higher value (H2)."""
    return [position for position, there in enumerate(state.table, start=1) if fits(card, there)]


def describe(view: Mapping[str, Any], move: HatsMove) -> str:
    """The hint sentence for ``move`` by the seat whose ``view`` this is."""
    world = sample_world(view, random.Random(0))  # any world: the public lines are the same in all
    if isinstance(move, Exchange | BlackHat):
        return _main_action(world, view["seat"], move)
    return _optional(world, view, move)


def _main_action(world: HatsState, seat: int, move: Exchange | BlackHat) -> str:
    after = world.copy()
    events = after.apply(move)
    if isinstance(move, Exchange):
        text = _exchange(world, after, seat, move)
    else:
        text = f"make {move.card} a black hat (face down, 1 point for sure)"
        if not exchange_targets(world, move.card):
            text += f": {move.card} can't be exchanged anywhere on the table"
    cookie = next((event.text.split(": ", 1)[1] for event in events if event.rule == "H10"), "")
    if after.cookie == seat != world.cookie:
        text += f", and you take the last cookie ({COOKIE_POINTS} points): {cookie}"
    elif world.cookie == seat != after.cookie:
        text += f", though you lose the last cookie: {cookie}"
    before_total, after_total = world.score().totals[seat], after.score().totals[seat]
    return f"{text}; your score goes from {before_total} to {after_total} if the game ended now"


def _exchange(before: HatsState, after: HatsState, seat: int, move: Exchange) -> str:
    taken = before.table[move.position - 1]
    collection = after.collections[seat]
    count = sum(card.kind == taken.kind for card in collection)
    old, new = face_up_positions(before.table), face_up_positions(after.table)
    text = f"put {move.card} on position {move.position} and take {taken}, your {_ORDINALS[count - 1]} {taken.kind}"
    where = new.get(taken.kind, 0)
    if where and count == 1:
        text += f", worth {_points(where)} while {taken.kind} is at position {where}"
    elif where:
        text += (
            f", and each {taken.kind} you collected is worth {_points(where)} while {taken.kind} is at position {where}"
        )
    else:
        text += f", but no {taken.kind} is face up on the table now, so your {taken.kind} score nothing yet"
    kind, held = move.card.kind, sum(card.kind == move.card.kind for card in before.collections[seat])
    if kind != taken.kind and held and old.get(kind, 0) != new.get(kind, 0):
        text += f"; your {kind} now score {new.get(kind, 0)} each instead of {old.get(kind, 0)}"
    return text


def _points(count: int) -> str:
    return "1 point" if count == 1 else f"{count} points"


def _optional(world: HatsState, view: Mapping[str, Any], move: Discard | Swap | Back) -> str:
    """Discard, swap or give back: what the card could do on the table says why it goes."""
    card, hand = move.card, [parse_card(name) for name in view["hand"]]
    targets = exchange_targets(world, card)
    if not targets:
        why = f"{card} can't be exchanged anywhere on the table"
    elif len(targets) == 1:
        why = f"{card} can only take the card at position {targets[0]}"
    elif all(len(targets) <= len(exchange_targets(world, other)) for other in hand):
        why = f"{card} can take fewer cards on the table than any other card in your hand"
    elif isinstance(move, Back):
        why = f"giving {card} back did best in the simulated games"
    else:
        why = f"a new card did better than {card} in the simulated games"
    if isinstance(move, Discard):
        return f"swap {card} for a new card from the deck before your main action: {why}"
    if isinstance(move, Swap):
        mate = SEAT_NAMES[partner(view["seat"])]
        return f"pass {card} face down to your partner {mate}, who gives you a card back: {why}"
    giver = SEAT_NAMES[view["swap_waiting"]]
    return f"give {card} back to {giver}, your partner, who swapped with you: {why}"
