"""Madder than a Hatter's narration: the events of a move, told from the states before and after it.

``advance`` tells nothing; this module finds what happened by comparing the
two states (which hat was taken from the line, whether the line was turned
over, the reveal, a round scored, the next deal) and says it with the ruling
it applied (M1-M6 in ``docs/rulings.md``).
"""

from __future__ import annotations

from collections import Counter

from hatskit.core import EndPhase, Event
from hatskit.games.madder.components import (
    ABILITY,
    END,
    HABERDASHERS,
    LINE_SIZE,
    OVER,
    PLAY,
    SEAT_NAMES,
    Ability,
    hat_words,
)
from hatskit.games.madder.moves import (
    DONE,
    LINE,
    Choice,
    Discard,
    HatAt,
    MadderMove,
    MoveHat,
    Place,
    Play,
    Swap,
    Take,
)
from hatskit.games.madder.scoring import totals_of
from hatskit.games.madder.state import MadderState, count_of


def narrate(before: MadderState, after: MadderState, move: MadderMove) -> list[Event]:
    """The events of ``move``, played by the seat to move in ``before``, that led to ``after``."""
    me = before.turn
    assert me is not None
    if isinstance(move, Play):
        return _play(before, after, move, me)
    if move == DONE:
        return [Event(f"{SEAT_NAMES[me]} is done playing hats for this round", "M4"), *_round_end(before, after)]
    card = before.waiting_card()
    if isinstance(move, EndPhase):
        said = f"{SEAT_NAMES[me]} declined {card.name}"
    else:
        said = f"{tell_choice(me, card, move)} ({card.name})"
    if before.phase == HABERDASHERS:
        return [Event(said, "M4"), *_round_end(before, after)]
    return [Event(said, "M3"), *_rest_of_turn(before, after, move, me)]


def _play(before: MadderState, after: MadderState, move: Play, me: int) -> list[Event]:
    whose = "their own" if move.to == me else f"{SEAT_NAMES[move.to]}'s"
    rule = "M4" if before.phase == END else "M3"
    events = [Event(f"{SEAT_NAMES[me]} put a {hat_words(move.hat)} into {whose} inventory", rule)]
    if before.phase == END:
        return events + _round_end(before, after)
    card = before.cards.premium_of(move.hat)
    if after.phase == ABILITY:
        assert card is not None
        return [*events, Event(f"{SEAT_NAMES[me]} may use {card.name}: {card.text} Or decline it.", "M3")]
    if card is not None:
        events.append(Event(f"{card.name} has nothing to act on right now", "M3"))
    return events + _rest_of_turn(before, after, move, me)


def _rest_of_turn(before: MadderState, after: MadderState, move: MadderMove, me: int) -> list[Event]:
    """A turn's end (M3): the line turned over if an ability emptied it, the first hat taken, the line turned
    over if that emptied it, and the end of the turns when deck and line are both empty."""
    refill = _refill(before, after)
    emptied_by_choice = isinstance(move, Discard | Take) and _line_hats(move) == len(before.line)
    events = refill if emptied_by_choice else []
    taken = _taken(before, after, move, me)
    if taken is not None:
        events.append(Event(f"{SEAT_NAMES[me]} took the first hat of the assembly line, a {hat_words(taken)}", "M3"))
    events += [] if emptied_by_choice else refill
    if after.phase in (PLAY, ABILITY) and after.round == before.round:
        return events
    events.append(Event("The deck and the assembly line are empty: the turns of this round are over", "M3"))
    events.append(Event("From the dealer on, each player may play hats into their own inventory only", "M4"))
    return events + _round_end(before, after)


def _line_hats(move: Discard | Take) -> int:
    """How many hats a choice takes off the assembly line."""
    items = move.items if isinstance(move, Discard) else (move.item,)
    return sum(1 for item in items if item.place == LINE)


def _refill(before: MadderState, after: MadderState) -> list[Event]:
    """The line turned over from the deck during the move, if it was (M3)."""
    count = len(before.deck) - len(after.deck) if after.round == before.round else 0
    if count <= 0:
        return []
    assert count <= LINE_SIZE[before.players]
    return [Event(f"The assembly line was empty: {count} new hats are turned over from the deck", "M3")]


def _taken(before: MadderState, after: MadderState, move: MadderMove, me: int) -> str | None:
    """The hat the mover took from the line at the end of the turn: what their hand gained beyond the move's own."""
    if after.round != before.round:
        return None
    expected = Counter(before.hands[me])
    if isinstance(move, Play):
        expected[move.hat] -= 1
    elif isinstance(move, Take) and before.waiting_card().params["to"] == "hand":
        expected[move.item.hat] += 1
    gained = list((Counter(after.hands[me]) - expected).elements())
    return gained[0] if gained else None


def _round_end(before: MadderState, after: MadderState) -> list[Event]:
    """The reveal of the Haberdashers (M4), the round's score (M5), then the end of the game or the next deal (M1)."""
    events = []
    if before.phase != HABERDASHERS and (after.phase in (HABERDASHERS, OVER) or after.round != before.round):
        assert before.haberdashers is not None
        shown = ", ".join(f"{SEAT_NAMES[s]}: {name}" for s, name in enumerate(before.haberdashers))
        events.append(Event(f"The Haberdashers are revealed ({shown})", "M4"))
    if len(after.scores) == len(before.scores):
        return events
    points = totals_of(after.scores[-1:], before.players)
    said = ", ".join(f"{SEAT_NAMES[s]} {p}" for s, p in enumerate(points))
    events.append(Event(f"Round {before.round} is scored: {said}", "M5"))
    if after.phase == OVER:
        return [*events, Event(f"The game is over after {before.round} rounds", "M1")]
    if before.round >= before.players:
        totals = totals_of(after.scores, before.players)
        tied = " and ".join(SEAT_NAMES[s] for s, total in enumerate(totals) if total == max(totals))
        events.append(Event(f"{tied} tie on {max(totals)} points: one more round is played", "M1"))
    text = f"Round {after.round}: {SEAT_NAMES[after.dealer]} deals and takes the first turn"
    return [*events, Event(text, "M1")]


# ---------------------------------------------------------------- an ability's choice in words


def tell_choice(user: int, card: Ability, move: Choice) -> str:
    """A choice told in words, seen from its user (without the card's name or the rule id)."""
    name = SEAT_NAMES[user]
    if isinstance(move, MoveHat):
        whence, whither = _whose(move.source, user), _whose(move.target, user)
        return f"{name} moved a {hat_words(move.hat)} from {whence} inventory into {whither}"
    if isinstance(move, Discard):
        return f"{name} discarded {_list(move.items, user)}; discarded hats are out of the round"
    if isinstance(move, Swap):
        mine, theirs = hat_words(move.mine.hat), hat_words(move.theirs.hat)
        return f"{name} swapped a {mine} of their own for {_whose(move.theirs.place, user)} {theirs}"
    where = "their hand" if card.params["to"] == "hand" else "their own inventory"
    return f"{name} took {_at(move.item, user)} into {where}"


def _whose(place: Place, user: int) -> str:
    return "their own" if place == user else f"{SEAT_NAMES[int(place)]}'s"


def _at(item: HatAt, user: int, count: int = 1) -> str:
    hats = count_of(hat_words(item.hat), count)
    if item.place == LINE:
        return f"{hats} from the assembly line"
    return f"{hats} from {_whose(item.place, user)} inventory"


def _list(items: tuple[HatAt, ...], user: int) -> str:
    return " and ".join(_at(item, user, count) for item, count in Counter(items).items())
