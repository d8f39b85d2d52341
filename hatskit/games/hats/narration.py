"""Hats' narration: the events of a move, each with its ruling id, told from the states before and after it.

Everything a story needs is in the two states: the seat was the one to move
before, a swap's giver is the one waiting before, a refill shows as one more
shuffle, and the card taken is the last one collected. The ids are explained
in ``docs/rulings.md``.
"""

from __future__ import annotations

from hatskit.core import Event
from hatskit.games.hats.components import MAIN_ACTIONS, SEAT_NAMES, partner
from hatskit.games.hats.moves import Back, Discard, Exchange, HatsMove, Swap
from hatskit.games.hats.scoring import cookie_holder
from hatskit.games.hats.state import HatsState


def narrate(before: HatsState, after: HatsState, move: HatsMove) -> list[Event]:
    """What ``move`` caused, from ``before`` (the state it was played in) to ``after``."""
    seat = before.to_move
    assert seat is not None
    if isinstance(move, Discard | Swap | Back):
        return _optional_events(before, after, seat, move)
    return _main_events(after, seat, move) + _cookie_events(after, before.cookie) + _end_events(after)


def _optional_events(before: HatsState, after: HatsState, seat: int, move: Discard | Swap | Back) -> list[Event]:
    """What an optional action (or a swap's answer) just did (H4, H5)."""
    name = SEAT_NAMES[seat]
    if isinstance(move, Swap):
        return [Event(f"{name} passed a card face down to {SEAT_NAMES[partner(seat)]}", "H5")]
    if isinstance(move, Back):
        assert before.pending is not None
        return [Event(f"{name} passed a card back to {SEAT_NAMES[before.pending.giver]}", "H5")]
    drawn = [Event(f"{name} discarded a card face down and drew a new one", "H4")]
    if after.shuffles == before.shuffles:
        return drawn
    pile = len(after.deck) + 1  # the new deck's size before the draw
    return [Event(f"The deck ran out: the discard pile ({pile} cards) is shuffled into a new deck", "H4"), *drawn]


def _main_events(after: HatsState, seat: int, move: HatsMove) -> list[Event]:
    """What a main action just did (H2, H3)."""
    if not isinstance(move, Exchange):
        return [Event(f"{SEAT_NAMES[seat]} made a black hat (a card face down, 1 point)", "H3")]
    taken = after.collections[seat][-1]
    why = f"same type {move.card.kind}" if taken.kind == move.card.kind else f"{move.card} > {taken}"
    text = f"{SEAT_NAMES[seat]} exchanged {move.card} for {taken} at position {move.position} ({why})"
    return [Event(text, "H2")]


def _cookie_events(after: HatsState, before: int | None) -> list[Event]:
    """The last cookie changing hands, and why (H10)."""
    if after.cookie == before:
        return []
    holder, why = cookie_holder(after.collections, after.black_hats, before)
    if holder is None:
        return [Event(f"The last cookie goes back to the napkin: {why}", "H10")]
    return [Event(f"{SEAT_NAMES[holder]} takes the last cookie: {why}", "H10")]


def _end_events(after: HatsState) -> list[Event]:
    """The end of the game and the favorites revealed, once every seat has made its main actions (H6)."""
    if after.turn is not None:
        return []
    favorites = ", ".join(f"{SEAT_NAMES[s]} {hand[0]}" for s, hand in enumerate(after.hands))
    return [
        Event(f"Every player has made {MAIN_ACTIONS} main actions: the game ends", "H6"),
        Event(f"Favorite hats revealed: {favorites}", "H6"),
    ]
