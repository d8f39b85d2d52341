"""Sombrero's moves and their notation.

A square is its file and rank (``e4``). A move is one action (S2): ``e1-e2``
a step from e1 to the empty neighbour e2, ``e1>f2`` a hat jump from e1 onto
the hatless friend on f2. Spaces around the squares are allowed. Rulings are
explained in ``docs/rulings.md``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from hatskit.core import InvalidMoveError
from hatskit.games.sombrero.components import EMPTY, parse_square, square_name

Action = tuple[int, int]  # (origin, target) as board squares: a step when the target is empty, else a hat jump


@dataclass(frozen=True)
class _SquareMove:
    """An action from square ``origin`` to a neighbouring ``target``, written with a separator."""

    separator: ClassVar[str]
    origin: int
    target: int

    def __str__(self) -> str:
        """The notation: ``e1-e2`` or ``e1>f2``."""
        return f"{square_name(self.origin)}{self.separator}{square_name(self.target)}"


class Step(_SquareMove):
    """A hatted piece moves from ``origin`` to the empty neighbouring ``target`` (S2)."""

    separator = "-"


class Jump(_SquareMove):
    """The hat on ``origin`` jumps onto the neighbouring hatless friend on ``target`` (S2)."""

    separator = ">"


SombreroMove = Step | Jump
# Each square is read as at most four characters, so no text makes the match backtrack for long.
_MOVE = re.compile(r"\s*([^\s>-]{1,4})\s*([->])\s*([^\s>-]{1,4})\s*")


def parse_move(text: str) -> SombreroMove:
    """A move from its notation; InvalidMoveError quotes what could not be read."""
    match = _MOVE.fullmatch(str(text))
    if not match:
        raise InvalidMoveError(f"{text!r} is not a Sombrero move: write e1-e2 (a step) or e1>f2 (a hat jump)")
    try:
        origin, target = parse_square(match.group(1)), parse_square(match.group(3))
    except InvalidMoveError as error:
        raise InvalidMoveError(f"{text!r} is not a Sombrero move: {error}") from None
    return Step(origin, target) if match.group(2) == "-" else Jump(origin, target)


def move_of(board: Sequence[int], action: Action) -> SombreroMove:
    """The move object of a legal action on ``board``: a step onto an empty square, else a hat jump."""
    return Step(*action) if board[action[1]] == EMPTY else Jump(*action)
