"""Madder than a Hatter's scoring: each style by its number of hats (M5), Haberdasher bonuses (M6), rounds (M1).

``score`` gives the finished rounds and the current one "as if it ended now"
(hats in hand score nothing, Haberdashers left out while secret); ``outcome``
names the winner once the game is over. Rulings in ``docs/rulings.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from hatskit.core import Outcome, ScoreLine, ScoreSheet
from hatskit.games.madder.components import (
    EXERCISE,
    HABERDASHERS,
    HATS_PER_STYLE,
    OVER,
    SEAT_NAMES,
    Ability,
    CardSet,
    style_of,
)

if TYPE_CHECKING:
    from hatskit.games.madder.state import MadderState

SINGLE_POINTS = 1
EXCLUSIVE_POINTS = 3
SECRET_NOTE = "Haberdashers stay secret until the end of the round, so their bonuses are left out (M4)"


def style_counts(inventory: Sequence[str]) -> Counter[str]:
    """Hats per style in an inventory (a Premium counts as a hat of its style)."""
    return Counter(style_of(hat) for hat in inventory)


def style_points(count: int) -> int:
    """Exactly one hat scores 1, all four (an Exclusive) 3, two or three nothing (M5)."""
    if count == 1:
        return SINGLE_POINTS
    return EXCLUSIVE_POINTS if count == HATS_PER_STYLE else 0


def hats_by_style(inventory: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """The hats of an inventory by style, in the inventory's drawn order: what each style's score line shows.
    Grouped in one pass, as the bots score thousands of inventories a turn."""
    grouped: dict[str, list[str]] = {}
    for hat in sorted(inventory):
        grouped.setdefault(style_of(hat), []).append(hat)
    return {style: tuple(hats) for style, hats in grouped.items()}


def _plural(style: str, count: int) -> str:
    return f"{count} {style}" if count == 1 else f"{count} {style}s"


def style_lines(
    seat: int, inventory: Sequence[str], styles: Sequence[str], round_number: int | None
) -> list[ScoreLine]:
    """One line per style the inventory holds, each saying why it scores what it does (M5)."""
    counts = style_counts(inventory)
    shown = hats_by_style(inventory)
    lines = []
    for style in (s for s in styles if counts[s]):
        count = counts[style]
        if count == 1:
            why = "exactly one hat of a style scores 1"
        elif count == HATS_PER_STYLE:
            why = f"all {HATS_PER_STYLE} hats of a style, an Exclusive, score {EXCLUSIVE_POINTS}"
        else:
            why = "2 or 3 hats of a style score nothing"
        why = f"{_plural(style, count)}: {why} (M5)"
        lines.append(ScoreLine(seat, style, style_points(count), why, round_number, shown[style]))
    return lines


def bonus_lines(
    seat: int, inventory: Sequence[str], card: Ability, styles: Sequence[str], round_number: int | None
) -> list[ScoreLine]:
    """A bonus Haberdasher's points: one line per style it rewards, or one line saying none (M6)."""
    if card.chooses:
        return []
    wanted, points = card.params["hats"], card.params["points"]
    counts = style_counts(inventory)
    matched = [s for s in styles if counts[s] == wanted]
    category = f"Haberdasher: {card.name}"
    if not matched:
        why = f"no style with exactly {wanted} hats ({card.text}) (M6)"
        return [ScoreLine(seat, category, 0, why, round_number)]
    shown = hats_by_style(inventory)
    return [
        ScoreLine(
            seat,
            category,
            points,
            f"{_plural(style, wanted)}: {card.text} (M6)",
            round_number,
            shown[style],
        )
        for style in matched
    ]


def round_lines(
    inventories: Sequence[Sequence[str]],
    haberdashers: Sequence[str] | None,
    cards: CardSet,
    round_number: int | None,
) -> list[ScoreLine]:
    """Every seat's lines for one round; ``haberdashers`` None leaves their bonuses out."""
    lines = []
    for seat, inventory in enumerate(inventories):
        lines += style_lines(seat, inventory, cards.styles, round_number)
        if haberdashers is not None:
            lines += bonus_lines(seat, inventory, cards.haberdasher(haberdashers[seat]), cards.styles, round_number)
    return lines


def totals_of(scores: Sequence[Sequence[ScoreLine]], players: int) -> list[int]:
    """Game points per seat over the finished rounds' lines."""
    sums = [0] * players
    for lines in scores:
        for line in lines:
            sums[line.seat] += line.points
    return sums


def round_points(state: MadderState) -> list[list[int]]:
    """Points per finished round, per seat."""
    return [totals_of([lines], state.players) for lines in state.scores]


def score(state: MadderState) -> ScoreSheet:
    """Finished rounds, then the current one "if it ended now" (Haberdashers left out while secret)."""
    names = state.seat_names()
    if state.phase == EXERCISE:
        lines = round_lines(state.inventories, None, state.cards, None)
        return ScoreSheet(tuple(lines), names, note="a scoring exercise: the hats alone, no Haberdashers")
    done = tuple(line for lines in state.scores for line in lines)
    if state.phase == OVER:
        return ScoreSheet(done, names)
    revealed = state.haberdashers if state.phase == HABERDASHERS else None
    current = round_lines(state.inventories, revealed, state.cards, state.round)
    note = f"round {state.round} counted as it stands" + ("" if revealed else f"; {SECRET_NOTE}")
    return ScoreSheet(done + tuple(current), names, final=False, note=note)


def outcome(state: MadderState) -> Outcome | None:
    """The winner once the game is over (M1); an exercise names who has most points."""
    if state.phase not in (OVER, EXERCISE):
        return None
    totals = score(state).totals
    winners = tuple(s for s, total in enumerate(totals) if total == max(totals))
    who = " and ".join(SEAT_NAMES[s] for s in winners)
    if state.phase == EXERCISE:
        return Outcome(winners, f"scoring exercise: {who} score most, {max(totals)} points")
    extra = state.round - state.players
    tie = f", {extra} of them played to break a tie (M1)" if extra else " (M1)"
    return Outcome(winners, f"{who} wins with {max(totals)} points after {state.round} rounds{tie}")
