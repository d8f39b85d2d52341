"""Hats Off! options, the 56 cards and their names, seats, and the loose card.

A hat is written by its short name (``top bowler cowboy beret fez beanie chef
party``); its full name (``top hat``, ``chef's hat``) parses too. The rulings
these pieces follow (O1-O7) are explained in ``docs/rulings.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from hatskit.core import PLAYER_NAMES, InvalidMoveError, RecordError

# ---------------------------------------------------------------- options


BEST_OF = (1, 3, 5)  # the rounds a match may have (O7)


@dataclass(frozen=True)
class HatsOffOptions:
    """Rule options: hats falling off (O6), rounds in a match (O7), the head card always shown (O1)."""

    falling_hats: bool = field(
        default=False, metadata={"help": "at each flip a card may slip off someone's head, for the others to win"}
    )
    best_of: int = field(
        default=1, metadata={"choices": BEST_OF, "help": "how many games make a match: the most games won wins it"}
    )
    memory_aid: bool = field(
        default=False, metadata={"help": "your head card stays face up for you, so you need not remember it"}
    )

    def __post_init__(self) -> None:
        if self.best_of not in BEST_OF:
            raise RecordError(f"option 'best_of' must be 1, 3 or 5 rounds, not {self.best_of!r}")


# ---------------------------------------------------------------- cards and seats

KINDS = ("top", "bowler", "cowboy", "beret", "fez", "beanie", "chef", "party")
KIND_NAMES = {
    "top": "top hat",
    "bowler": "bowler hat",
    "cowboy": "cowboy hat",
    "beret": "beret",
    "fez": "fez",
    "beanie": "beanie",
    "chef": "chef's hat",
    "party": "party hat",
}
COPIES = 7  # cards of each hat
DEALT = 4  # cards dealt to each player at the start of a round (O1)
HAND_SIZE = 3  # hand cards a refill tops up to (O4)
FALL_CHANCE = 1 / 20  # a head card's chance to fall off at a flip, with falling_hats on (O6)
MAX_MS = 999_999  # the latest time of a race move: 999.999 s
MAX_RACES = 4  # races in which a face-up card may be matched; then one more for loose cards only (O8)
SEAT_NAMES = PLAYER_NAMES
PHASES = ("wear", "flip", "race", "over")
_KIND_BY_NAME = (
    {kind: kind for kind in KINDS}
    | {name: kind for kind, name in KIND_NAMES.items()}
    | {name.replace("'", ""): kind for kind, name in KIND_NAMES.items()}
    | {"chef hat": "chef"}
)


def parse_kind(text: object, error: type[Exception] = InvalidMoveError) -> str:
    """A hat's short name from its short or full name, any case; the error quotes the text."""
    kind = _KIND_BY_NAME.get(" ".join(str(text).lower().split()))
    if kind is None:
        raise error(f"{text!r} is not a hat: the hats are {', '.join(KINDS)}")
    return kind


def all_cards() -> list[str]:
    """The 56 cards in a fixed order: seven of each hat."""
    return [kind for kind in KINDS for _ in range(COPIES)]


def longest_game(players: int, best_of: int = 1) -> int:
    """The most moves a game can take (O8), each round: every player's head card, then at most 56 flips
    (each takes a card out of play for good), each followed by at most ``MAX_RACES + 1`` races of one move a player.
    """
    per_flip = 1 + (MAX_RACES + 1) * players
    return best_of * (players + COPIES * len(KINDS) * per_flip)


def a_hat(kind: str) -> str:
    """``a fez``: a hat's name for a sentence (every name starts with a consonant)."""
    return f"a {KIND_NAMES[kind]}"


def seconds(ms: int) -> str:
    """``0.42`` for 420 ms, ``1`` for 1000: a time as the notation writes it."""
    return f"{ms / 1000:.3f}".rstrip("0").rstrip(".")


class Loose(NamedTuple):
    """A face-up card waiting for a "Hats Off!" call: from a wrong play (O5) or a fallen hat (O6)."""

    kind: str
    owner: int
    fell: bool

    @property
    def rule(self) -> str:
        return "O6" if self.fell else "O5"
