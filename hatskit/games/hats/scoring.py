"""Hats' scoring: the score sheet, the outcome, and the last cookie's holder.

Collections score their types' table positions (H7, H8), favorites their type
in the collection (H9), the cookie goes to the most types (H10) and H11 breaks
ties; the rulings are explained in ``docs/rulings.md``. The cookie functions
take plain lists, so the state can call them while a move is carried out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from hatskit.core import Outcome, ScoreLine, ScoreSheet
from hatskit.games.hats.components import COOKIE_POINTS, SEAT_NAMES, TEAMS, Card

if TYPE_CHECKING:
    from hatskit.games.hats.state import HatsState


def score(state: HatsState) -> ScoreSheet:
    """The score sheet; before the end it is 'if the game ended now' without favorites."""
    over = state.turn is None
    lines: list[ScoreLine] = []
    for seat in range(state.players):
        lines += collection_lines(seat, state.collections[seat], len(state.black_hats[seat]), state.table)
        if over:
            lines.append(favorite_line(seat, state.hands[seat][0], state.collections[seat]))
        if state.cookie == seat:
            lines.append(ScoreLine(seat, "last cookie", COOKIE_POINTS, "holds the last cookie (H10)"))
    teams = TEAMS if state.players == 4 else None
    note = "" if over else "favorite hats stay secret until the end"
    return ScoreSheet(tuple(lines), state.seat_names(), teams, final=over, note=note)


def outcome(state: HatsState) -> Outcome | None:
    """Winner(s) with the tie-break that decided (H11); None while playing."""
    if state.turn is not None:
        return None
    sheet = score(state)
    sides: tuple[tuple[int, ...], ...] = TEAMS if state.players == 4 else tuple((s,) for s in range(state.players))
    keys = {side: _winning_key(state, side, sheet) for side in sides}
    return _outcome_from_keys(keys, state.seat_names())


def _winning_key(state: HatsState, side: tuple[int, ...], sheet: ScoreSheet) -> tuple[int, int, int]:
    """What H11 compares, in order: points, black hats, the cookie."""
    points = sum(sheet.totals[s] for s in side)
    black = sum(len(state.black_hats[s]) for s in side)
    return points, black, int(state.cookie in side)


def face_up_positions(table: Sequence[Card]) -> dict[str, int]:
    """Type -> 1-based position of its lowest copy on the table; the others lie face down (H7)."""
    found: dict[str, int] = {}
    for position, card in enumerate(table, start=1):
        found.setdefault(card.kind, position)
    return found


def collection_lines(seat: int, collection: Sequence[Card], black_hats: int, table: Sequence[Card]) -> list[ScoreLine]:
    """Each face-up card scores its type's table position; black hats 1 each (H8).

    A card's line shows the card and the table card whose position it scores.
    """
    face_up = face_up_positions(table)
    lines = []
    for card in collection:
        position = face_up.get(card.kind, 0)
        where = f"{card.kind} is at position {position}" if position else f"no {card.kind} face up on the table"
        shows = (str(card), str(table[position - 1])) if position else (str(card),)
        lines.append(ScoreLine(seat, "hat collection", position, f"{card}: {where} (H8)", shows=shows))
    if black_hats:
        lines.append(ScoreLine(seat, "black hats", black_hats, f"{black_hats} black hat(s), 1 point each (H8)"))
    return lines


def favorite_line(seat: int, favorite: Card, collection: Sequence[Card]) -> ScoreLine:
    """Collection values of the favorite's type minus the favorite's own value (H9)."""
    values = [card.value for card in collection if card.kind == favorite.kind]
    points = sum(values) - favorite.value
    summed = " + ".join(map(str, values)) if values else f"no {favorite.kind} collected (0)"
    shows = (str(favorite), *(str(card) for card in collection if card.kind == favorite.kind))
    explanation = f"favorite {favorite}: {summed} - {favorite.value} (H9)"
    return ScoreLine(seat, "favorite hat", points, explanation, shows=shows)


def distinct_types(collection: Sequence[Card], black_hats: int) -> int:
    """Types in a collection, all black hats together counting as one (H10)."""
    return len({card.kind for card in collection}) + (1 if black_hats else 0)


def cookie_holder(
    collections: Sequence[Sequence[Card]], black_hats: Sequence[Sequence[Card]], current: int | None
) -> tuple[int | None, str]:
    """Who holds the last cookie now, and why (H10)."""
    best, leaders, winners = _cookie_race(collections, black_hats)
    holder = _cookie_winner(best, winners, current)
    if best == 0:
        return None, "nobody has collected a hat yet"
    if len(leaders) == 1:
        return holder, f"most different types ({best})"
    names = " and ".join(SEAT_NAMES[s] for s in leaders)
    if len(winners) == 1:
        return holder, f"{names} tie on {_types(best)}; the lowest collected values decide"
    if holder is not None:
        return holder, f"{names} tie completely; the holder keeps it"
    return None, f"{names} tie completely and none of them held it"


def cookie_seat(
    collections: Sequence[Sequence[Card]], black_hats: Sequence[Sequence[Card]], current: int | None
) -> int | None:
    """Who holds the last cookie now (H10), without the reason :func:`cookie_holder` gives."""
    best, _, winners = _cookie_race(collections, black_hats)
    return _cookie_winner(best, winners, current)


def _cookie_race(
    collections: Sequence[Sequence[Card]], black_hats: Sequence[Sequence[Card]]
) -> tuple[int, list[int], list[int]]:
    """The most distinct types, the seats that have them, and those of them with the lowest values (H10)."""
    counts = [distinct_types(c, len(b)) for c, b in zip(collections, black_hats, strict=True)]
    best = max(counts)
    leaders = [seat for seat, count in enumerate(counts) if count == best]
    if len(leaders) == 1 or best == 0:
        return best, leaders, leaders
    keys = {seat: sorted(card.value for card in collections[seat]) + [99] for seat in leaders}
    lowest = min(keys.values())
    return best, leaders, [seat for seat in leaders if keys[seat] == lowest]


def _cookie_winner(best: int, winners: Sequence[int], current: int | None) -> int | None:
    """The holder: nobody before any hat is collected; the one winner; in a complete tie, the holder keeps it."""
    if best == 0:
        return None
    if len(winners) == 1:
        return winners[0]
    return current if current in winners else None


def _types(count: int) -> str:
    """A number of types in words."""
    return f"{count} type" if count == 1 else f"{count} types"


def _outcome_from_keys(keys: Mapping[tuple[int, ...], tuple[int, int, int]], names: Sequence[str]) -> Outcome:
    """The outcome from each side's (points, black hats, cookie), saying which check decided (H11)."""
    best = max(keys.values())
    winners = [side for side, key in keys.items() if key == best]
    label = "team " if len(next(iter(keys))) > 1 else ""
    runner_keys = [key for side, key in keys.items() if key != best]
    decided = _tie_break_used(best, runner_keys)
    seats = tuple(sorted(seat for side in winners for seat in side))
    who = " and ".join(names[s] for s in seats)
    if len(winners) > 1:
        return Outcome(seats, f"{who} share the win: equal points, black hats and no cookie between them (H11)")
    return Outcome(seats, f"{label}{who} wins{decided} (H11)")


def _tie_break_used(best: tuple[int, int, int], others: Sequence[tuple[int, int, int]]) -> str:
    """Which of H11's checks decided: points, black hats or the cookie."""
    if not others or all(key[0] < best[0] for key in others):
        return f" with {best[0]} points"
    if all(key[:2] < best[:2] for key in others):
        return f": tied on {best[0]} points, most black hats ({best[1]})"
    return f": tied on {best[0]} points and black hats, holds the cookie"
