"""The effect primitives behind every Premium ability and Haberdasher (M6).

An ability's card names one effect (``move``, ``discard``, ``swap``, ``take``
or the scoring ``bonus``) with parameters; this module lists the choices an
effect offers its user, says why a choice is refused and carries a choice out.
"from"/"to" scopes are read from the user's seat: ``own`` (the user's
inventory), ``other`` (another player's), ``any`` (anybody's) and ``line``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from itertools import combinations
from typing import NamedTuple, Protocol

from hatskit.madder.cards import Ability
from hatskit.madder.moves import LINE, SEAT_NAMES, Choice, Discard, HatAt, MoveHat, Place, Swap, Take


class Table(Protocol):
    """What an effect reads and changes: the hats in inventories, hands, the line and the discard pile."""

    players: int
    inventories: list[list[str]]
    hands: list[list[str]]
    line: list[str]
    discard: list[str]


def seats_in(scope: str, user: int, players: int) -> list[int]:
    """The seats a scope names, seen from ``user``."""
    if scope == "own":
        return [user]
    return [seat for seat in range(players) if scope == "any" or seat != user]


def places_in(scope: str, user: int, players: int) -> list[Place]:
    return [LINE] if scope == LINE else list(seats_in(scope, user, players))


def holder(table: Table, place: Place) -> list[str]:
    """The hats at a place: an inventory or the line."""
    return table.line if place == LINE else table.inventories[int(place)]


# ---------------------------------------------------------------- choices


def choices(table: Table, user: int, card: Ability) -> list[Choice]:
    """Every choice the card offers ``user`` now (none for a scoring bonus)."""
    return list(_choices(table, user, card))


def has_choice(table: Table, user: int, card: Ability) -> bool:
    """Whether the card offers ``user`` any choice now (without listing them all)."""
    return next(_choices(table, user, card), None) is not None


def _choices(table: Table, user: int, card: Ability) -> Iterator[Choice]:
    return _CHOICES[card.effect](table, user, card) if card.chooses else iter(())


def _move_choices(table: Table, user: int, card: Ability) -> Iterator[Choice]:
    sources = seats_in(card.params["from"], user, table.players)
    targets = seats_in(card.params["to"], user, table.players)
    return (
        MoveHat(hat, source, target)
        for source in sources
        for hat in sorted(set(table.inventories[source]))
        for target in targets
        if target != source
    )


def _discard_choices(table: Table, user: int, card: Ability) -> Iterator[Choice]:
    places = places_in(card.params["from"], user, table.players)
    pool = sorted((HatAt(hat, place) for place in places for hat in holder(table, place)), key=str)
    seen = set()
    for count in range(1, card.params["count"] + 1):
        for combo in combinations(pool, count):
            if combo not in seen:
                seen.add(combo)
                yield Discard(combo)


def _swap_choices(table: Table, user: int, card: Ability) -> Iterator[Choice]:
    return (
        Swap(HatAt(mine, user), HatAt(theirs, other))
        for mine in sorted(set(table.inventories[user]))
        for other in seats_in("other", user, table.players)
        for theirs in sorted(set(table.inventories[other]))
        if theirs != mine
    )


def _take_choices(table: Table, user: int, card: Ability) -> Iterator[Choice]:
    places = places_in(card.params["from"], user, table.players)
    return (Take(HatAt(hat, place)) for place in places for hat in sorted(set(holder(table, place))))


_CHOICES: dict[str, Callable[[Table, int, Ability], Iterator[Choice]]] = {
    "move": _move_choices,
    "discard": _discard_choices,
    "swap": _swap_choices,
    "take": _take_choices,
}


# ---------------------------------------------------------------- refusals


def choice_reason(table: Table, user: int, card: Ability, move: Choice) -> str | None:
    """None when ``move`` is one of the card's choices, else a sentence saying why not."""
    if move.verb != card.effect:
        return f"{card.name} is a {card.effect} ability, not a {move.verb}: {card.text}"
    missing = _missing(table, named_hats(move))
    if missing:
        return missing
    if move in choices(table, user, card):
        return None
    return f"{card.name} does not allow that choice: {card.text}"


def named_hats(move: Choice) -> list[HatAt]:
    """The hats a choice names where they are now."""
    if isinstance(move, MoveHat):
        return [HatAt(move.hat, move.source)]
    if isinstance(move, Discard):
        return list(move.items)
    if isinstance(move, Swap):
        return [move.mine, move.theirs]
    return [move.item]


def _missing(table: Table, named: Iterable[HatAt]) -> str | None:
    for (hat, place), wanted in Counter((item.hat, item.place) for item in named).items():
        if place != LINE and int(place) >= table.players:
            return f"there is no {SEAT_NAMES[int(place)]} in a {table.players}-player game"
        if holder(table, place).count(hat) < wanted:
            where = "the assembly line" if place == LINE else f"{SEAT_NAMES[int(place)]}'s inventory"
            return f"{where} does not hold {_count(hat, wanted)}"
    return None


def _count(hat: str, count: int) -> str:
    return f"a {hat}" if count == 1 else f"{count} {hat}s"


# ---------------------------------------------------------------- carrying out


class Spot(NamedTuple):
    """Where a hat is or goes: an inventory, a hand (with their seat), the line or the discard pile."""

    kind: str  # "inventory", "hand", LINE or "discard"
    seat: int = -1


def spot_of(place: Place) -> Spot:
    return Spot(LINE) if place == LINE else Spot("inventory", int(place))


def transfers(user: int, card: Ability, move: Choice) -> list[tuple[str, Spot, Spot]]:
    """The hats a legal choice moves, each as (hat, from, to): every effect is made of these."""
    if isinstance(move, MoveHat):
        return [(move.hat, spot_of(move.source), spot_of(move.target))]
    if isinstance(move, Discard):
        return [(item.hat, spot_of(item.place), Spot("discard")) for item in move.items]
    if isinstance(move, Swap):
        mine, theirs = spot_of(move.mine.place), spot_of(move.theirs.place)
        return [(move.mine.hat, mine, theirs), (move.theirs.hat, theirs, mine)]
    into = Spot("hand", user) if card.params["to"] == "hand" else Spot("inventory", user)
    return [(move.item.hat, spot_of(move.item.place), into)]


def hats_at(table: Table, spot: Spot) -> list[str]:
    if spot.kind == "inventory":
        return table.inventories[spot.seat]
    if spot.kind == "hand":
        return table.hands[spot.seat]
    return table.line if spot.kind == LINE else table.discard


def carry_out(table: Table, user: int, card: Ability, move: Choice) -> str:
    """Make a legal choice's changes and return its narration (without the rule id).

    A hat leaves its place as its first copy there: from the line, the copy
    nearest the first hat.
    """
    for hat, source, target in transfers(user, card, move):
        hats_at(table, source).remove(hat)
        hats_at(table, target).append(hat)
    return narrate(user, card, move)


def narrate(user: int, card: Ability, move: Choice) -> str:
    """A choice told in words, seen from its user."""
    name = SEAT_NAMES[user]
    if isinstance(move, MoveHat):
        return f"{name} moved a {move.hat} from {_whose(move.source, user)} inventory into {_whose(move.target, user)}"
    if isinstance(move, Discard):
        return f"{name} discarded {_list(move.items, user)}; discarded hats are out of the round"
    if isinstance(move, Swap):
        return f"{name} swapped a {move.mine.hat} of their own for {_whose(move.theirs.place, user)} {move.theirs.hat}"
    where = "their hand" if card.params["to"] == "hand" else "their own inventory"
    return f"{name} took {_at(move.item, user)} into {where}"


def _whose(place: Place, user: int) -> str:
    return "their own" if place == user else f"{SEAT_NAMES[int(place)]}'s"


def _at(item: HatAt, user: int, count: int = 1) -> str:
    hats = _count(item.hat, count)
    if item.place == LINE:
        return f"{hats} from the assembly line"
    return f"{hats} from {_whose(item.place, user)} inventory"


def _list(items: Iterable[HatAt], user: int) -> str:
    return " and ".join(_at(item, user, count) for item, count in Counter(items).items())
