"""Scoring a round: each style by its number of hats (M5), plus Haberdasher bonuses (M6)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from hatskit.core import ScoreLine
from hatskit.madder.cards import HATS_PER_STYLE, Ability, CardSet, style_of

SINGLE_POINTS = 1
EXCLUSIVE_POINTS = 3


def style_counts(inventory: Sequence[str]) -> Counter[str]:
    """Hats per style in an inventory (a Premium counts as a hat of its style)."""
    return Counter(style_of(hat) for hat in inventory)


def style_points(count: int) -> int:
    """Exactly one hat scores 1, all four (an Exclusive) 3, two or three nothing (M5)."""
    if count == 1:
        return SINGLE_POINTS
    return EXCLUSIVE_POINTS if count == HATS_PER_STYLE else 0


def _plural(style: str, count: int) -> str:
    return f"{count} {style}" if count == 1 else f"{count} {style}s"


def style_lines(
    seat: int, inventory: Sequence[str], styles: Sequence[str], round_number: int | None
) -> list[ScoreLine]:
    """One line per style the inventory holds, each saying why it scores what it does (M5)."""
    counts = style_counts(inventory)
    lines = []
    for style in (s for s in styles if counts[s]):
        count = counts[style]
        if count == 1:
            why = "exactly one hat of a style scores 1"
        elif count == HATS_PER_STYLE:
            why = f"all {HATS_PER_STYLE} hats of a style, an Exclusive, score {EXCLUSIVE_POINTS}"
        else:
            why = "2 or 3 hats of a style score nothing"
        lines.append(ScoreLine(seat, style, style_points(count), f"{_plural(style, count)}: {why} (M5)", round_number))
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
    return [
        ScoreLine(seat, category, points, f"{_plural(style, wanted)}: {card.text} (M6)", round_number)
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
