"""Hats' cards and seats: the options, the 42 cards and their constants, card parsing, seat names.

A card is written as its type's symbol and its number (``♥5``) or the type's
name and number (``heart5``). Which cards a game uses is ruling H1 of
``docs/rulings.md``; the teams of four players are H5.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from hatskit.core import PLAYER_NAMES, InvalidMoveError, RecordError

KINDS = ("★", "♠", "♥", "♣", "♦", "✿", "⎈")
KIND_NAMES = {"★": "star", "♠": "spade", "♥": "heart", "♣": "club", "♦": "diamond", "✿": "flower", "⎈": "helm"}
_KIND_BY_NAME = {name: kind for kind, name in KIND_NAMES.items()} | {kind: kind for kind in KINDS}
VALUES = range(1, 7)
HAND_SIZE = 9
MAIN_ACTIONS = 8
COOKIE_POINTS = 5
TEAMS = ((0, 2), (1, 3))
SEAT_NAMES = PLAYER_NAMES[:4]

_CARD = re.compile(r"\s*([^0-9\s]+?)\s*([0-9]{1,3})\s*")  # ASCII digits only: int() reads every one


class Card(NamedTuple):
    """A hat card: a type symbol and a value 1-6."""

    kind: str
    value: int

    def __str__(self) -> str:
        return f"{self.kind}{self.value}"


def kind_of(name: str, what: str, error: type[Exception] = InvalidMoveError) -> str:
    """The type symbol that ``name`` (a symbol or a type's name) stands for; ``error`` names ``what`` was read."""
    kind = _KIND_BY_NAME.get(str(name).strip().lower())
    if kind is None:
        raise error(f"{what}: {name!r} is not a hat type; the types are {' '.join(KINDS)} or their names")
    return kind


@dataclass(frozen=True)
class HatsOptions:
    """Rule options. ``removed``: the two types left out of a two-player game (H1)."""

    removed: tuple[str, ...] | list[str] = field(
        default=("✿", "⎈"),
        metadata={
            "players": (2,),
            "choices": tuple((f"{kind} {KIND_NAMES[kind]}", kind) for kind in KINDS),
            "help": "the two types of card put back in the box when two play",
        },
    )

    def __post_init__(self) -> None:
        kinds = tuple(kind_of(name, "option 'removed'", RecordError) for name in self.removed)
        if len(set(kinds)) != 2:
            raise RecordError(f"option 'removed' must name two different types, not {list(self.removed)!r}")
        object.__setattr__(self, "removed", kinds)


def parse_card(text: str, error: type[Exception] = InvalidMoveError) -> Card:
    """``♥5`` or ``heart5`` as a Card; the error quotes the text."""
    match = _CARD.fullmatch(str(text))
    if not match:
        raise error(f"{text!r} is not a card: write a type and a value, like ♥5 or heart5")
    value = int(match.group(2))
    if value not in VALUES:
        raise error(f"{text!r} is not a card: values run from 1 to 6")
    return Card(kind_of(match.group(1), repr(text), error), value)


def cards_of_game(players: int, options: HatsOptions) -> list[Card]:
    """Every card in play, in a fixed order (H1)."""
    kinds = [k for k in KINDS if players > 2 or k not in options.removed]
    return [Card(kind, value) for kind in kinds for value in VALUES]


def card_names(cards: Iterable[Card]) -> list[str]:
    """The cards' notations, in order: how positions and views list them."""
    return [str(card) for card in cards]


def partner(seat: int) -> int:
    """The four-player partner sitting across (H5)."""
    return (seat + 2) % 4
