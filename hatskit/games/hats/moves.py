"""Hats' moves and their notation.

``♥5@2`` exchanges ♥5 from the hand onto table position 2 (H2); ``black ♥5``
makes ♥5 a black hat (H3); ``discard ♥5`` throws it away and draws (H4);
``swap ♥5`` passes it to the partner, who answers ``back ♦3`` (H5). A card may
also be written with its type's name (``heart5``). The rulings are explained
in ``docs/rulings.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from hatskit.core import InvalidMoveError
from hatskit.games.hats.components import Card, parse_card

_POSITION = re.compile(r"\s*([0-9]{1,3})\s*")


@dataclass(frozen=True)
class Exchange:
    """Play ``card`` onto table ``position`` (1-based) and collect what was there (H2)."""

    card: Card
    position: int

    def __str__(self) -> str:
        return f"{self.card}@{self.position}"


@dataclass(frozen=True)
class _CardMove:
    """A move that names one hand card after a keyword: ``black ♥5``."""

    keyword: ClassVar[str]
    card: Card

    def __str__(self) -> str:
        return f"{self.keyword} {self.card}"


class BlackHat(_CardMove):
    """Put ``card`` face down into the collection (H3)."""

    keyword = "black"


class Discard(_CardMove):
    """Optional action: discard ``card`` and draw (H4)."""

    keyword = "discard"


class Swap(_CardMove):
    """Four players' optional action: give ``card`` face down to the partner (H5)."""

    keyword = "swap"


class Back(_CardMove):
    """The partner's answer to a swap: the card given back (H5)."""

    keyword = "back"


HatsMove = Exchange | BlackHat | Discard | Swap | Back
CardMove = BlackHat | Discard | Swap | Back
_WORD_MOVES: dict[str, type[CardMove]] = {kind.keyword: kind for kind in (BlackHat, Discard, Swap, Back)}


def parse_move(text: str) -> HatsMove:
    """A move from its notation; InvalidMoveError quotes what could not be read."""
    words = str(text).split(None, 1)
    if len(words) == 2 and words[0].lower() in _WORD_MOVES:
        return _WORD_MOVES[words[0].lower()](_card_in_move(words[1], text))
    card_text, at, position = str(text).partition("@")
    number = _POSITION.fullmatch(position)
    if at and number:
        return Exchange(_card_in_move(card_text, text), int(number.group(1)))
    raise InvalidMoveError(
        f"{text!r} is not a Hats move: write ♥5@2 (exchange), black ♥5, discard ♥5, swap ♥5 or back ♥5"
    )


def _card_in_move(card_text: str, move_text: str) -> Card:
    """The card a move names; its error quotes the whole move."""
    try:
        return parse_card(card_text)
    except InvalidMoveError as error:
        raise InvalidMoveError(f"{move_text!r} is not a Hats move: {error}") from None
