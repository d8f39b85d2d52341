"""Hats Off! moves and their notation: ``parse_move`` and each move's ``__str__``.

A move starts with the player's name (or seat number) and a colon:

- ``Ana:wear fez``: choose the head card at the deal (O1);
- ``Ana:flip``: turn the top deck card onto the pile (O2);
- ``Ben:bowler@0.42``: play a bowler hat from the hand 0.42 s after the race was
  shown (O3); ``Ben:head@0.61`` plays the head card without naming it (its
  owner does not see it either);
- ``Cleo:off@0.55``: call "Hats Off!" for a loose card (O5, O6);
- ``Dev:pass``: do nothing in this race.

A play or call written without ``@`` is made at 0 s; the time is always
printed, in seconds to the millisecond. The rulings are explained in
``docs/rulings.md``.

What a move object may hold (the same contract as README's notation table):

- ``seat``: the seat that makes the move, a whole number (an ``int``, not a
  bool) from 0 to 4; a seat the table does not have is an IllegalMoveError;
- ``ms`` (plays and calls): whole milliseconds from 0 to 999,999 since the
  race was shown; ``move.at(seconds)`` sets it from any finite number of
  seconds from 0 to 999.999 and raises InvalidMoveError for anything else
  (None, text, a bool, infinity, NaN);
- ``kind``: a hat's short name (``KINDS``); for a play, None means the head card.

A move object holding anything else can still be built and printed (its
notation then shows the odd value, quoted), but ``Game.play`` refuses it with
InvalidMoveError (or IllegalMoveError), ``Game.why_illegal`` and the state's
``why_illegal`` say why in a sentence that quotes it, and nothing changes.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from typing import Self

from hatskit.core import InvalidMoveError, brief
from hatskit.games.hats_off.components import KINDS, MAX_MS, SEAT_NAMES, parse_kind, seconds

_SEAT_NUMBERS = tuple(str(seat) for seat in range(len(SEAT_NAMES)))  # ASCII only: "²".isdigit() too


@dataclass(frozen=True)
class _SeatMove:
    """A move made by one seat; its notation starts with the seat's name."""

    seat: int

    def _prefix(self) -> str:
        """``Ana:``, or the odd value quoted when the seat is not a seat number (the notation never fails)."""
        return f"{SEAT_NAMES[self.seat] if is_seat_number(self.seat) else brief(self.seat)}:"


@dataclass(frozen=True)
class Wear(_SeatMove):
    """At the deal: put the hand card ``kind`` on the head, after looking at it (O1)."""

    kind: str

    def __str__(self) -> str:
        return f"{self._prefix()}wear {_word(self.kind)}"


@dataclass(frozen=True)
class Flip(_SeatMove):
    """Turn the top deck card face up onto the pile (O2)."""

    def __str__(self) -> str:
        return f"{self._prefix()}flip"


@dataclass(frozen=True)
class Pass(_SeatMove):
    """Do nothing in this race."""

    def __str__(self) -> str:
        return f"{self._prefix()}pass"


@dataclass(frozen=True)
class _Timed(_SeatMove):
    """A race move made ``ms`` milliseconds after the race was shown (O3)."""

    ms: int = 0

    def at(self, time: float) -> Self:
        """The same move made ``time`` seconds after the race was shown (rounded to the millisecond).

        Anything but a finite number of seconds from 0 to 999.999 is an
        InvalidMoveError that quotes it.
        """
        number = isinstance(time, int | float) and not isinstance(time, bool) and math.isfinite(time)
        ms = round(time * 1000) if number and abs(time) < 10**6 else -1  # never a float too big to round
        if not 0 <= ms <= MAX_MS:
            raise InvalidMoveError(
                f"a time is a number of seconds from 0 to {seconds(MAX_MS)} after the race was shown, not {brief(time)}"
            )
        return replace(self, ms=ms)

    def _timed(self, word: str) -> str:
        time = seconds(self.ms) if is_ms(self.ms) else brief(self.ms)
        return f"{self._prefix()}{word}@{time}"


@dataclass(frozen=True)
class Play(_Timed):
    """Play a hand card of ``kind``, or the head card when ``kind`` is None (O3, O5)."""

    kind: str | None = None

    @property
    def from_head(self) -> bool:
        return self.kind is None

    def __str__(self) -> str:
        return self._timed("head" if self.kind is None else _word(self.kind))


@dataclass(frozen=True)
class Call(_Timed):
    """Call "Hats Off!" to win a loose card (O5, O6)."""

    def __str__(self) -> str:
        return self._timed("off")


HatsOffMove = Wear | Flip | Pass | Play | Call


def is_seat_number(value: object) -> bool:
    """Whether ``value`` is a seat number a move may hold: an int (not a bool) from 0 to 4."""
    return type(value) is int and 0 <= value < len(SEAT_NAMES)


def is_ms(value: object) -> bool:
    """Whether ``value`` is a race time a move may hold: an int (not a bool) of milliseconds from 0 to 999,999."""
    return type(value) is int and 0 <= value <= MAX_MS


def is_kind(value: object) -> bool:
    """Whether ``value`` is a hat's short name."""
    return isinstance(value, str) and value in KINDS


def _word(value: object) -> str:
    """A field as the notation writes it: a text as it is, anything else quoted briefly."""
    return value if isinstance(value, str) else brief(value)


_CALL_WORDS = {"off", "hats off", "hats off!", "hatsoff"}
_TIME = re.compile(r"^(\d{1,3})(?:\.(\d{1,3}))?\s*s?$")
USAGE = (
    "write a name, a colon and a move: Ana:flip, Ana:wear fez, Ben:bowler@0.42, Ben:head@0.6, Cleo:off@0.5, Dev:pass"
)


def parse_move(text: str) -> HatsOffMove:
    """A move from its notation; InvalidMoveError quotes what could not be read."""
    seat_text, action, time_text = _split_move(str(text))
    seat = _parse_seat(seat_text, text)
    word = " ".join(action.lower().split())
    if word in ("flip", "pass") or word.startswith("wear "):
        if time_text is not None:
            raise InvalidMoveError(f"{text!r}: only plays and calls carry a time")
        if word.startswith("wear "):
            return Wear(seat, _kind_in_move(word[5:], text))
        return Flip(seat) if word == "flip" else Pass(seat)
    ms = 0 if time_text is None else _parse_ms(time_text, text)
    if word in _CALL_WORDS:
        return Call(seat, ms)
    return Play(seat, ms, None if word == "head" else _kind_in_move(word, text))


def _split_move(text: str) -> tuple[str, str, str | None]:
    seat_text, colon, rest = text.partition(":")
    if not colon:
        seat_text, _, rest = text.strip().partition(" ")
    action, at, time_text = rest.partition("@")
    if not seat_text.strip() or not action.strip():
        raise InvalidMoveError(f"{text!r} is not a Hats Off! move: {USAGE}")
    return seat_text.strip(), action.strip(), time_text.strip() if at else None


def _parse_seat(seat_text: str, text: str) -> int:
    if seat_text in _SEAT_NUMBERS:
        return int(seat_text)
    names = [name.lower() for name in SEAT_NAMES]
    if seat_text.lower() not in names:
        raise InvalidMoveError(f"{text!r} is not a Hats Off! move: {seat_text!r} is not a player; {USAGE}")
    return names.index(seat_text.lower())


def _parse_ms(time_text: str, text: str) -> int:
    match = _TIME.match(time_text)
    if not match:
        raise InvalidMoveError(f"{text!r}: the time {time_text!r} must be seconds to the millisecond, like 0.42")
    return int(match.group(1)) * 1000 + int((match.group(2) or "0").ljust(3, "0"))


def _kind_in_move(word: str, text: str) -> str:
    try:
        return parse_kind(word)
    except InvalidMoveError as error:
        raise InvalidMoveError(f"{text!r} is not a Hats Off! move: {error}; {USAGE}") from None
