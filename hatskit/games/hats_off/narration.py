"""Hats Off! narration: the events of a move, told from the states before and after it.

The deal and the flip are told from ``before`` and ``after``; what a race's
settlement did (which plays matched, who won a call, which cards went back
into the deck, a new round) is told from ``after.happened``, the plain facts
``advance`` kept. Each event carries its ruling (``docs/rulings.md``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hatskit.core import Event
from hatskit.games.hats_off.components import KIND_NAMES, MAX_RACES, SEAT_NAMES, Loose, a_hat, seconds
from hatskit.games.hats_off.moves import Call, Flip, HatsOffMove, Pass, Play, Wear
from hatskit.games.hats_off.scoring import outcome
from hatskit.games.hats_off.state import (
    DeckOut,
    Fell,
    HatsOffState,
    LastRace,
    NoMatch,
    Raced,
    RaceOn,
    Refill,
    Returned,
    RoundOver,
    Settled,
)


def narrate(before: HatsOffState, after: HatsOffState, move: HatsOffMove) -> list[Event]:
    """The events of ``move``, which turned ``before`` into ``after``."""
    if isinstance(move, Wear):
        events = [Event(f"{SEAT_NAMES[move.seat]} looks at a card and puts it on the head, face down", "O1")]
        if after.phase == "flip":
            events.append(Event(f"Everyone wears a head card: {SEAT_NAMES[after.flipper]} flips first", "O2"))
        return events
    if isinstance(move, Flip):
        events = [_flip_event(before, move)]
    else:
        events = [Event(f"{SEAT_NAMES[move.seat]} has moved (moves stay secret until everyone has moved)", "O3")]
    return events + _told(after)


def _flip_event(before: HatsOffState, move: Flip) -> Event:
    card, under = before.deck[-1], len(before.pile)
    text = f"{SEAT_NAMES[move.seat]} flips {a_hat(card)}"
    text += f" onto {under} unmatched card{'s' if under > 1 else ''}" if under else ""
    return Event(text, "O2")


def _told(after: HatsOffState) -> list[Event]:
    """The events of what ``advance`` kept in ``after.happened``, in order."""
    events: list[Event] = []
    settlement: list[Raced] = []  # the timed moves of the race being told so far
    for happening in after.happened:
        if isinstance(happening, Settled):
            settlement = []
        elif isinstance(happening, Raced):
            events += _raced(happening, settlement)
            settlement.append(happening)
            continue
        events += _TELLERS[type(happening)](happening, after)
    return events


def _fell(fell: Fell, after: HatsOffState) -> list[Event]:
    text = f"{SEAT_NAMES[fell.seat]}'s hat falls off: {a_hat(fell.kind)} lies face up"
    return [Event(f"{text}, for the first other player to call Hats Off!", "O6"), *_refill(fell.refill, "O6")]


def _settled(settled: Settled, after: HatsOffState) -> list[Event]:
    if not settled.made:
        return [Event("Nobody can play or call for a card in this race", "O3")]
    passed = [SEAT_NAMES[m.seat] for m in settled.made if isinstance(m, Pass)]
    text = "Everyone has moved: the earliest play counts first, and equal times go to the lower seat"
    return [Event(text + (f" (passed: {', '.join(passed)})" if passed else ""), "O3")]


def _raced(raced: Raced, earlier: Sequence[Raced]) -> list[Event]:
    """One timed move of a race, told with the moves settled before it in the same race."""
    if isinstance(raced.move, Call):
        return [_call_event(raced, earlier)]
    return _play_events(raced, earlier)


def _call_event(raced: Raced, earlier: Sequence[Raced]) -> Event:
    name, time = SEAT_NAMES[raced.move.seat], seconds(raced.move.ms)
    if raced.result == "too late":
        first = next(r.move for r in earlier if isinstance(r.move, Play))
        late = f"{name} called Hats Off! at {time} s, after {SEAT_NAMES[first.seat]}'s play at {seconds(first.ms)} s"
        return Event(f"{late}: too late, a loose card must be called for before the next play", "O6")
    if raced.result == "beaten":
        first = next((r for r in earlier if r.result == "called"), None)
        earliest = "nobody" if first is None else SEAT_NAMES[first.move.seat]
        rule = "O5" if first is None else first.won[0].rule
        return Event(f"{name} called Hats Off! at {time} s, but {earliest} called first", rule)
    return Event(f"{name} called Hats Off! first, at {time} s, and wins {_loose_text(raced.won)}", raced.won[0].rule)


def _play_events(raced: Raced, earlier: Sequence[Raced]) -> list[Event]:
    move, name, time = raced.move, SEAT_NAMES[raced.move.seat], seconds(raced.move.ms)
    if raced.result == "late":
        winning = next(r.move for r in earlier if r.result == "match")
        winner = SEAT_NAMES[winning.seat]
        why = f"equal times go to the lower seat, {winner}" if winning.ms == move.ms else f"{winner} was first"
        return [Event(f"{name}'s play at {time} s is too late: the pile is won ({why}); the card stays", "O3")]
    assert raced.kind is not None and raced.top is not None and raced.refill is not None
    where = "from the head" if isinstance(move, Play) and move.from_head else "from the hand"
    played = f"{name} plays {a_hat(raced.kind)} {where} at {time} s"
    if raced.result == "match":
        text = f"{played}: a match! {name} wins the pile of {raced.pile} cards"
        return [Event(text, "O3"), *_refill(raced.refill, "O4")]
    text = (
        f"{played}, but the top card is {a_hat(raced.top)}: a wrong play. "
        f"The {KIND_NAMES[raced.kind]} lies loose for the first other player to call Hats Off!"
    )
    return [Event(text, "O5"), *_refill(raced.refill, "O5")]


def _refill(refill: Refill, rule: str) -> list[Event]:
    """A refill told with the rule that caused it; an empty deck that leaves the seat short, with O4."""
    name, parts = SEAT_NAMES[refill.seat], []
    if refill.head:
        parts.append("looks at a new head card and puts it on")
    if refill.drawn:
        parts.append(f"draws {refill.drawn} card{'s' if refill.drawn > 1 else ''} into the hand")
    if parts:
        return [Event(f"{name} refills: {' and '.join(parts)}", rule)]
    return [Event(f"The deck is empty: {name} cannot refill", "O4")] if refill.short else []


def _returned(returned: Returned, after: HatsOffState) -> list[Event]:
    card = returned.card
    whose = f"{SEAT_NAMES[card.owner]}'s {KIND_NAMES[card.kind]}"
    return [Event(f"Nobody called for {whose} in time: it goes back into the deck", card.rule)]


def _race_on(race_on: RaceOn, after: HatsOffState) -> list[Event]:
    if race_on.top is None:
        return [Event("A race for the loose cards alone: only Hats Off! calls count", "O5")]
    loose = ", and the loose cards can be called for" if race_on.loose else ""
    return [Event(f"The race goes on: the {KIND_NAMES[race_on.top]} can still be matched{loose}", "O5")]


def _last_race(last: LastRace, after: HatsOffState) -> list[Event]:
    text = f"The {KIND_NAMES[last.top]} has been raced for {MAX_RACES} times: one last race for the loose cards"
    return [Event(f"{text}, where only Hats Off! calls count", "O8")]


def _no_match(no_match: NoMatch, after: HatsOffState) -> list[Event]:
    text = f"Nobody matched the {KIND_NAMES[no_match.top]}"
    if no_match.left is None:
        return [Event(f"{text}, and the deck is empty", "O7")]
    return [Event(f"{text}: the next flip passes to the left, to {SEAT_NAMES[no_match.left]}", "O2")]


def _deck_out(deck_out: DeckOut, after: HatsOffState) -> list[Event]:
    return [Event("The deck is empty and the race is over", "O7")]


def _round_over(round_over: RoundOver, after: HatsOffState) -> list[Event]:
    """The round's cards won, then the next round's deal or the result (O7)."""
    number, counts = round_over.number, after.round_results[round_over.number - 1]
    told = ", ".join(f"{name} {count}" for name, count in zip(after.seat_names(), counts, strict=True))
    events = [Event(f"Round {number} is over. Cards won: {told}", "O7")]
    if after.round > number:
        return [
            *events,
            Event(f"Round {after.round}: 4 cards each; every player chooses one to wear on the head", "O1"),
        ]
    result = outcome(after)
    assert result is not None, "a round that is over and deals no next one ends the game"
    return [*events, Event(result.reason, "O7")]


def _loose_text(cards: Sequence[Loose]) -> str:
    return " and ".join(f"{SEAT_NAMES[c.owner]}'s {KIND_NAMES[c.kind]}" for c in cards)


_TELLERS: dict[type, Callable[..., list[Event]]] = {
    Fell: _fell,
    Settled: _settled,
    Returned: _returned,
    RaceOn: _race_on,
    LastRace: _last_race,
    NoMatch: _no_match,
    DeckOut: _deck_out,
    RoundOver: _round_over,
}
