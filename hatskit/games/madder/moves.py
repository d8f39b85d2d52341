"""Madder than a Hatter's moves and their notation (rulings M3, M4 and M6 in ``docs/rulings.md``).

A hat is its style, with ``*`` for the Premium (``Fedora``, ``Fedora*``); a
place is a player's name (that player's inventory) or ``line`` (the assembly
line). Every move is made by the seat to move (the game is turn-based), so no
move carries the seat that makes it.

- ``Fedora>Ben``: ``Play("Fedora", to=1)``, a hat from your hand into Ben's
  inventory (at the end of the round only into your own);
- ``done``: no more hats from your hand at the end of the round;
- ``decline``: leave a Premium ability or a Haberdasher unused;
- an ability's choice starts with its effect's verb: ``move Fedora Ana>Ben``
  (Ana's Fedora into Ben's inventory), ``discard Fedora@Ana Homburg@Ana`` (one
  or more hats), ``swap Fedora@Ana Homburg@Ben`` (your hat first),
  ``take Boater@line`` or ``take Fedora@Ben`` (the card says where it goes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from hatskit.core import EndPhase, InvalidMoveError
from hatskit.games.madder.components import SEAT_NAMES

LINE = "line"
Place = int | str  # a seat (its inventory) or LINE
DONE = EndPhase("done")
DECLINE = EndPhase("decline")
_SEAT_BY_NAME = {name.lower(): seat for seat, name in enumerate(SEAT_NAMES)}
_HAT = re.compile(r"^([A-Za-z]+)(\*?)$")


def place_name(place: Place) -> str:
    return LINE if place == LINE else SEAT_NAMES[int(place)]


@dataclass(frozen=True)
class HatAt:
    """A hat in a place: ``Fedora@Ben`` (in Ben's inventory), ``Boater@line``."""

    hat: str
    place: Place

    def __str__(self) -> str:
        return f"{self.hat}@{place_name(self.place)}"


@dataclass(frozen=True)
class Play:
    """Play ``hat`` from your hand into the inventory of seat ``to`` (M3; your own only at the end of a round, M4)."""

    hat: str
    to: int

    def __str__(self) -> str:
        return f"{self.hat}>{SEAT_NAMES[self.to]}"


@dataclass(frozen=True)
class MoveHat:
    """An ability's choice: move ``hat`` from ``source``'s inventory into ``target``'s."""

    verb: ClassVar[str] = "move"
    hat: str
    source: int
    target: int

    def __str__(self) -> str:
        return f"move {self.hat} {SEAT_NAMES[self.source]}>{SEAT_NAMES[self.target]}"


@dataclass(frozen=True)
class Discard:
    """An ability's choice: discard the hats named (one or more), out of the round."""

    verb: ClassVar[str] = "discard"
    items: tuple[HatAt, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "items", tuple(sorted(self.items, key=str)))

    def __str__(self) -> str:
        return "discard " + " ".join(map(str, self.items))


@dataclass(frozen=True)
class Swap:
    """An ability's choice: swap your hat ``mine`` for another player's hat ``theirs``."""

    verb: ClassVar[str] = "swap"
    mine: HatAt
    theirs: HatAt

    def __str__(self) -> str:
        return f"swap {self.mine} {self.theirs}"


@dataclass(frozen=True)
class Take:
    """An ability's choice: take the hat named; the card says where it goes (hand or inventory)."""

    verb: ClassVar[str] = "take"
    item: HatAt

    def __str__(self) -> str:
        return f"take {self.item}"


Choice = MoveHat | Discard | Swap | Take
MadderMove = Play | Choice | EndPhase
EXAMPLES = (
    "Fedora>Ben, done, decline, move Fedora Ana>Ben, discard Fedora@Ana, swap Fedora@Ana Homburg@Ben, take Boater@line"
)


def parse_move(text: str) -> MadderMove:
    """A move from its notation; InvalidMoveError quotes what could not be read."""
    words = str(text).split()
    try:
        return _parse_words(words, str(text))
    except (ValueError, IndexError, KeyError):
        raise InvalidMoveError(f"{text!r} is not a Madder than a Hatter move: write {EXAMPLES}") from None


def _parse_words(words: list[str], text: str) -> MadderMove:
    verb = words[0].lower() if words else ""
    if len(words) == 1 and verb in (DONE.word, DECLINE.word):
        return EndPhase(verb)
    if verb == "move" and len(words) == 3:
        source, target = _two(words[2], ">")
        return MoveHat(_hat(words[1]), _seat(source), _seat(target))
    if verb == "discard" and len(words) >= 2:
        return Discard(tuple(_hat_at(word) for word in words[1:]))
    if verb == "swap" and len(words) == 3:
        return Swap(_hat_at(words[1]), _hat_at(words[2]))
    if verb == "take" and len(words) == 2:
        return Take(_hat_at(words[1]))
    hat, seat = _two(text, ">")
    return Play(_hat(hat), _seat(seat))


def _two(text: str, sign: str) -> tuple[str, str]:
    left, found, right = text.partition(sign)
    if not found:
        raise ValueError(text)
    return left.strip(), right.strip()


def _hat(word: str) -> str:
    match = _HAT.match(word)
    if not match:
        raise ValueError(word)
    return match.group(1).capitalize() + match.group(2)


def _seat(word: str) -> int:
    return _SEAT_BY_NAME[word.lower()]


def _hat_at(word: str) -> HatAt:
    hat, place = _two(word, "@")
    return HatAt(_hat(hat), LINE if place.lower() == LINE else _seat(place))
