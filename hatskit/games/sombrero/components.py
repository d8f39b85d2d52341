"""Sombrero's options, board and pieces: squares and their names, piece codes, the set-up (S1).

A board is a list of 64 codes, square 0 is a1 and square 63 is h8 (files a-h
along each rank). A square holds ``EMPTY`` or a piece code; a side's hatted
code plus one is the same side's hatless code. Rulings are explained in
``docs/rulings.md`` (S1-S5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from hatskit.core import InvalidMoveError


@dataclass(frozen=True)
class SombreroOptions:
    """Rule options. ``jump_captures``: a hat jump captures too, seen from the receiver (S3)."""

    jump_captures: bool = field(
        default=False, metadata={"help": "after a hat jump, the piece that got the hat takes hats too, as after a step"}
    )


FILES = "abcdefgh"
WHITE, BLACK = 0, 1
SIDES = ("white", "black")
SEAT_NAMES = ("White", "Black")
ENDGAME_ACTIONS = 20  # actions each side makes at two hatted pieces a side before the draw (S5)
QUIET_ACTIONS = 80  # actions in a row without a hat taken that draw the game (S5, a hatskit decision)
QUIET_WARNING = QUIET_ACTIONS - 20  # the quiet count at which the game warns of that draw
EMPTY = 0
HATTED = (1, 3)  # White's, Black's
HATLESS = (2, 4)
OWNER = (None, WHITE, WHITE, BLACK, BLACK)  # the side of each code (None: an empty square)
DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))


def square_name(square: int) -> str:
    """``e4`` for square 28: squares count from a1 (0) along the ranks to h8 (63)."""
    return f"{FILES[square % 8]}{square // 8 + 1}"


def parse_square(text: str, error: type[Exception] = InvalidMoveError) -> int:
    """The square called ``text`` (``e4``); the error quotes the text."""
    name = str(text).strip().lower()
    if len(name) != 2 or name[0] not in FILES or name[1] not in "12345678":
        raise error(f"{text!r} is not a square: files run a-h and ranks 1-8, like e4")
    return FILES.index(name[0]) + 8 * (int(name[1]) - 1)


def distance(a: int, b: int) -> int:
    """Squares between ``a`` and ``b`` for a king-like walker (0 for the same square)."""
    return max(abs(a % 8 - b % 8), abs(a // 8 - b // 8))


def _ray(square: int, step: tuple[int, int]) -> tuple[int, ...]:
    """The squares from ``square`` (not included) to the board's edge in direction ``step``."""
    file, rank = square % 8 + step[0], square // 8 + step[1]
    squares = []
    while 0 <= file < 8 and 0 <= rank < 8:
        squares.append(file + 8 * rank)
        file, rank = file + step[0], rank + step[1]
    return tuple(squares)


# Precomputed once: the neighbours of each square, and the straight lines leaving it
# that are long enough to hold a run and its closer (at least two squares).
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(ray[0] for step in DIRECTIONS if (ray := _ray(square, step))) for square in range(64)
)
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(ray for step in DIRECTIONS if len(ray := _ray(square, step)) >= 2) for square in range(64)
)


def start_board() -> list[int]:
    """The S1 set-up: each side has four pieces at home and four on the far rank's other half."""
    board = [EMPTY] * 64
    for name in ("e1", "f1", "g1", "h1", "a8", "b8", "c8", "d8"):
        board[parse_square(name)] = HATTED[WHITE]
    for name in ("a1", "b1", "c1", "d1", "e8", "f8", "g8", "h8"):
        board[parse_square(name)] = HATTED[BLACK]
    return board


def squares_of(board: Sequence[int], code: int) -> list[str]:
    """The names of the squares holding piece ``code``, from a1 to h8."""
    return [square_name(square) for square, held in enumerate(board) if held == code]
