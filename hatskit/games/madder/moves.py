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

What a move object may hold (the contract): a hat is a ``str``; a seat is an
``int`` from 0 to 3 (not a bool: ``True`` is not Ben); a place is a seat or
``"line"``; ``Discard.items`` is a tuple of one or more ``HatAt``; ``Swap``
and ``Take`` hold ``HatAt``. A move built with anything else cannot be written
in notation: its ``str()`` raises InvalidMoveError naming the field, so
``Game.play`` and ``why_illegal`` refuse it with a sentence that quotes it.
Whether a well-formed move is legal (a seat the game has, a hat in hand) is the
state's question.
"""

from __future__ import annotations

import re
from contextlib import suppress
from dataclasses import dataclass
from typing import ClassVar

from hatskit.core import EndPhase, InvalidMoveError, brief
from hatskit.games.madder.components import SEAT_NAMES

LINE = "line"
Place = int | str  # a seat (its inventory) or LINE
DONE = EndPhase("done")
DECLINE = EndPhase("decline")
_SEAT_BY_NAME = {name.lower(): seat for seat, name in enumerate(SEAT_NAMES)}
_HAT = re.compile(r"^([A-Za-z]+)(\*?)$")


def seat_name(seat: object, field: str) -> str:
    """The name of ``seat``, or an InvalidMoveError quoting it when it is not a seat of any game (0 to 3)."""
    if type(seat) is not int or not 0 <= seat < len(SEAT_NAMES):
        raise InvalidMoveError(f"{field} of a Madder than a Hatter move must be a seat from 0 to 3, not {brief(seat)}")
    return SEAT_NAMES[seat]


def place_name(place: object, field: str = "a place") -> str:
    """``line``, or the name of a seat's inventory; an InvalidMoveError for anything else."""
    return LINE if place == LINE and isinstance(place, str) else seat_name(place, field)


def hat_text(hat: object) -> str:
    """``hat`` if it is a text; a hat of a move object must be one."""
    if not isinstance(hat, str):
        raise InvalidMoveError(f"a hat of a Madder than a Hatter move is a style name like 'Fedora', not {brief(hat)}")
    return hat


@dataclass(frozen=True)
class HatAt:
    """A hat in a place: ``Fedora@Ben`` (in Ben's inventory), ``Boater@line``."""

    hat: str
    place: Place

    def __str__(self) -> str:
        return f"{hat_text(self.hat)}@{place_name(self.place)}"


@dataclass(frozen=True)
class Play:
    """Play ``hat`` from your hand into the inventory of seat ``to`` (M3; your own only at the end of a round, M4)."""

    hat: str
    to: int

    def __str__(self) -> str:
        return f"{hat_text(self.hat)}>{seat_name(self.to, 'the target inventory (to) of a play')}"


@dataclass(frozen=True)
class MoveHat:
    """An ability's choice: move ``hat`` from ``source``'s inventory into ``target``'s."""

    verb: ClassVar[str] = "move"
    hat: str
    source: int
    target: int

    def __str__(self) -> str:
        source, target = seat_name(self.source, "the source of a move"), seat_name(self.target, "the target of a move")
        return f"move {hat_text(self.hat)} {source}>{target}"


@dataclass(frozen=True)
class Discard:
    """An ability's choice: discard the hats named (one or more), out of the round."""

    verb: ClassVar[str] = "discard"
    items: tuple[HatAt, ...]

    def __post_init__(self) -> None:
        """The items in notation order, so equal discards are equal (left as given when they are not hats)."""
        if isinstance(self.items, tuple | list) and all(isinstance(item, HatAt) for item in self.items):
            with suppress(InvalidMoveError):  # then str() refuses the move, naming the field
                object.__setattr__(self, "items", tuple(sorted(self.items, key=str)))

    def __str__(self) -> str:
        if not isinstance(self.items, tuple) or not self.items or not all(isinstance(i, HatAt) for i in self.items):
            raise InvalidMoveError(
                f"the items of a discard must be a tuple of one or more HatAt, not {brief(self.items)}"
            )
        return "discard " + " ".join(map(str, self.items))


@dataclass(frozen=True)
class Swap:
    """An ability's choice: swap your hat ``mine`` for another player's hat ``theirs``."""

    verb: ClassVar[str] = "swap"
    mine: HatAt
    theirs: HatAt

    def __str__(self) -> str:
        return f"swap {_hat_at(self.mine, 'mine')} {_hat_at(self.theirs, 'theirs')}"


@dataclass(frozen=True)
class Take:
    """An ability's choice: take the hat named; the card says where it goes (hand or inventory)."""

    verb: ClassVar[str] = "take"
    item: HatAt

    def __str__(self) -> str:
        return f"take {_hat_at(self.item, 'item')}"


def _hat_at(item: object, field: str) -> str:
    if not isinstance(item, HatAt):
        raise InvalidMoveError(f"{field} of a Madder than a Hatter choice must be a HatAt, not {brief(item)}")
    return str(item)


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
        return Discard(tuple(_parse_hat_at(word) for word in words[1:]))
    if verb == "swap" and len(words) == 3:
        return Swap(_parse_hat_at(words[1]), _parse_hat_at(words[2]))
    if verb == "take" and len(words) == 2:
        return Take(_parse_hat_at(words[1]))
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


def _parse_hat_at(word: str) -> HatAt:
    hat, place = _two(word, "@")
    return HatAt(_hat(hat), LINE if place.lower() == LINE else _seat(place))
