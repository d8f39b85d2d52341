"""Hats Off! (Gamewright): race to match the flipped hat from your hand or your head.

Rules in brief (rulings from RULINGS.md in brackets):

- 56 cards: eight hats, seven of each: top hat, bowler hat, cowboy hat, beret,
  fez, beanie, chef's hat and party hat (the rulebook does not name its hats;
  these are hatskit's). 2 to 5 players. Each player is dealt 4 cards, chooses
  one, looks at it and wears it face down on the head; from then on the owner
  knows it only from memory. A view shows a head card to its owner while the
  owner is *looking* at it (from the moment it is put on until the next flip)
  and never otherwise, unless the ``memory_aid`` option is on [O1].
- The flipper turns the top deck card face up onto the pile (on top of any
  cards nobody matched). Ana flips first; after a pile is won, the last player
  to win cards flips; when nobody matches, the flip passes to the left [O2].
- After a flip every player may play a card of the same hat as the top card,
  from the hand or from the head. The first matching play wins the whole pile
  [O3]. The winner refills to one head card (looked at, then put on) and three
  hand cards; an empty deck refills nothing [O4].
- A play that does not match is a wrong play: the card lies loose, the first
  *other* player to call "Hats Off!" wins it, and the wrong player refills [O5].
- Option ``falling_hats`` (off by default): at each flip every head card falls
  off with a chance of 1 in 20 (drawn from the game's seeded generator, seat
  by seat). The fallen card lies loose like a wrong play, to be won by the first
  other player to call; the owner refills the head [O6].
- When the deck is empty and a race ends, the round ends. Most won cards wins;
  equal counts share the win. Option ``best_of`` (1, 3 or 5) plays a match of
  several rounds [O7].

How the engine runs a race without a clock (O3):

- After a flip the state is a *race*: every seat that can do anything (play a
  card, or call for a loose card it may win) is in ``acting``, and each submits
  one move: a play with its time, a call with its time, or a pass. Times are
  seconds, to the millisecond, since the race was shown (the flip, or the end of
  the previous race for the same card). Submitted moves are sealed: a view tells
  the others only *that* a seat has moved, so nobody can answer what they cannot
  have seen. The frame that runs the clock decides who clicked when.
- When every acting seat has moved, the race is settled in order of time, equal
  times going to the lower seat: the first matching play wins the pile and every
  later play is too late (its card stays where it was); a wrong play before it
  leaves its card loose (O5). A call wins every loose card the caller may win
  that lay loose when the race began, if it comes before the race's first play
  (O6: "before the next play"); loose cards nobody won by then go back into the
  deck at a random place drawn from the game's generator.
- A card that comes loose during a race can be called for in the next race:
  if the pile is still unmatched after wrong plays or calls, the race goes on
  for the same card; if the pile was won, a race for the loose cards alone
  follows (only calls and passes). A race in which everybody passes ends it:
  nobody matched.

Decisions of hatskit where neither the rulebook nor RULINGS.md speak:

- Choosing the head card at the deal is a move of each player (``wear``); the
  others see only that it was made.
- "Looking" lasts from the moment a head card is put on until the next flip;
  the frame may hide it sooner.
- A wrong card that nobody calls for goes back into the deck, as a fallen hat
  does (O6); the rulebook says what happens only to a fallen hat.
- Refills after a wrong play or a fallen hat use the O4 rule (head first, up to
  one head card and three hand cards).
- The last player to win cards (a pile or a call) flips after a pile is won;
  a race that ends without a match passes the flip to the left of the seat
  that flipped, whatever calls were won in it.
- A play made after the pile was won is too late and changes nothing.
- A race's times count from when that race was shown; a play may be timed at 0
  (the moment it was shown) up to 999.999 s.
- Best of three (or five): rounds are played until a player has won more than
  half of them or all were played; a shared round counts as won by each player
  who shared it. The match goes to the most rounds won, then to the most cards
  over the whole match, else it is shared. Each round is a fresh deal; the first
  flip moves one seat to the left each round.

Notation: a hat is its short name, ``top bowler cowboy beret fez beanie chef
party`` (the full names such as ``top hat`` parse too). A move starts with the
player's name (or seat number) and a colon: ``Ana:wear fez`` (choose the head
card, O1), ``Ana:flip`` (O2), ``Ben:bowler@0.42`` (play a bowler from the hand
0.42 s after the race was shown, O3), ``Ben:head@0.61`` (play the head card
without naming it: it is hidden from its owner too), ``Cleo:off@0.55`` (call
"Hats Off!", O5/O6) and ``Dev:pass``. A play or call written without ``@``
is made at 0 s; the time is always printed.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple, TypedDict

from hatskit.core import (
    PLAYER_NAMES,
    Event,
    GameSpec,
    InvalidMoveError,
    Outcome,
    RecordError,
    ScoreLine,
    ScoreSheet,
    copy_rng,
    make_options,
    options_dict,
    read_field,
)

# ---------------------------------------------------------------- options


@dataclass(frozen=True)
class HatsOffOptions:
    """Rule options: hats falling off (O6), rounds in a match (O7), the head card always shown (O1)."""

    falling_hats: bool = False
    best_of: int = 1
    memory_aid: bool = False

    def __post_init__(self) -> None:
        if self.best_of not in (1, 3, 5):
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
COPIES = 7
DEALT = 4
HAND_SIZE = 3
FALL_CHANCE = 1 / 20
MAX_MS = 999_999
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


def a_hat(kind: str) -> str:
    """``a fez``: a hat's name for a sentence (every name starts with a consonant)."""
    return f"a {KIND_NAMES[kind]}"


def seconds(ms: int) -> str:
    """``0.42`` for 420 ms, ``1`` for 1000: a time as the notation writes it."""
    return f"{ms / 1000:.3f}".rstrip("0").rstrip(".")


# ---------------------------------------------------------------- moves


@dataclass(frozen=True)
class _SeatMove:
    """A move made by one seat; its notation starts with the seat's name."""

    seat: int

    def _prefix(self) -> str:
        name = SEAT_NAMES[self.seat] if 0 <= self.seat < len(SEAT_NAMES) else str(self.seat)
        return f"{name}:"


@dataclass(frozen=True)
class Wear(_SeatMove):
    """At the deal: put the hand card ``kind`` on the head, after looking at it (O1)."""

    kind: str

    def __str__(self) -> str:
        return f"{self._prefix()}wear {self.kind}"


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

    def at(self, time: float) -> _Timed:
        """The same move made ``time`` seconds after the race was shown (rounded to the millisecond)."""
        return replace(self, ms=round(time * 1000))

    def _timed(self, word: str) -> str:
        return f"{self._prefix()}{word}@{seconds(self.ms)}"


@dataclass(frozen=True)
class Play(_Timed):
    """Play a hand card of ``kind``, or the head card when ``kind`` is None (O3, O5)."""

    kind: str | None = None

    @property
    def from_head(self) -> bool:
        return self.kind is None

    def __str__(self) -> str:
        return self._timed(self.kind or "head")


@dataclass(frozen=True)
class Call(_Timed):
    """Call "Hats Off!" to win a loose card (O5, O6)."""

    def __str__(self) -> str:
        return self._timed("off")


HatsOffMove = Wear | Flip | Pass | Play | Call
_CALL_WORDS = {"off", "hats off", "hats off!", "hatsoff"}
_TIME = re.compile(r"^(\d{1,3})(?:\.(\d{1,3}))?\s*s?$")
_USAGE = (
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
        raise InvalidMoveError(f"{text!r} is not a Hats Off! move: {_USAGE}")
    return seat_text.strip(), action.strip(), time_text.strip() if at else None


def _parse_seat(seat_text: str, text: str) -> int:
    if seat_text.isdigit() and int(seat_text) < len(SEAT_NAMES):
        return int(seat_text)
    names = [name.lower() for name in SEAT_NAMES]
    if seat_text.lower() not in names:
        raise InvalidMoveError(f"{text!r} is not a Hats Off! move: {seat_text!r} is not a player; {_USAGE}")
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
        raise InvalidMoveError(f"{text!r} is not a Hats Off! move: {error}; {_USAGE}") from None


# ---------------------------------------------------------------- state


class Loose(NamedTuple):
    """A face-up card waiting for a "Hats Off!" call: from a wrong play (O5) or a fallen hat (O6)."""

    kind: str
    owner: int
    fell: bool

    @property
    def rule(self) -> str:
        return "O6" if self.fell else "O5"


@dataclass
class _Settling:
    """What a race's settlement has found so far, in order of time."""

    callable: list[Loose]  # loose when the race began, not yet won
    new_loose: list[Loose] = field(default_factory=list)
    first_play: Play | None = None
    winning: Play | None = None
    first_caller: int | None = None
    first_call_rule: str = "O5"
    winners: list[int] = field(default_factory=list)


@dataclass
class HatsOffState:
    """A whole Hats Off! position, hidden cards included. The deck's top is its end."""

    players: int
    options: HatsOffOptions
    rng: random.Random
    deck: list[str] = field(default_factory=list)
    pile: list[str] = field(default_factory=list)
    hands: list[list[str]] = field(default_factory=list)
    heads: list[str | None] = field(default_factory=list)
    looking: list[bool] = field(default_factory=list)
    head_changes: list[int] = field(default_factory=list)  # head cards worn this round, per seat
    won: list[list[str]] = field(default_factory=list)
    called: list[int] = field(default_factory=list)  # how many of the won cards came from calls
    loose: list[Loose] = field(default_factory=list)
    submitted: list[HatsOffMove | None] = field(default_factory=list)
    phase: str = "wear"
    flipper: int = 0  # who flips next (flip phase), else who flipped the pile's top card
    last_winner: int | None = None
    flips: int = 0  # flips this round
    race: int = 0  # races for the current top card: 1 right after the flip
    round: int = 1
    round_results: list[list[int]] = field(default_factory=list)

    # -- the contract ---------------------------------------------------

    @property
    def to_move(self) -> int | None:
        """The flipper while a card is to be flipped; None in a race or at the deal, where many may act."""
        return self.flipper if self.phase == "flip" else None

    @property
    def acting(self) -> tuple[int, ...]:
        """The seats that may act now: the flipper, or every seat with something to do that has not moved."""
        if self.phase == "flip":
            return (self.flipper,)
        if self.phase == "wear":
            return tuple(s for s in range(self.players) if self.heads[s] is None)
        if self.phase == "race":
            return tuple(s for s in range(self.players) if self.submitted[s] is None and self._may_act(s))
        return ()

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def seat_of(self, move: HatsOffMove) -> int:
        """Every move names its seat."""
        return move.seat

    def seat_names(self) -> tuple[str, ...]:
        return SEAT_NAMES[: self.players]

    def copy(self) -> HatsOffState:
        return replace(
            self,
            rng=copy_rng(self.rng),
            deck=list(self.deck),
            pile=list(self.pile),
            hands=[list(h) for h in self.hands],
            heads=list(self.heads),
            looking=list(self.looking),
            head_changes=list(self.head_changes),
            won=[list(w) for w in self.won],
            called=list(self.called),
            loose=list(self.loose),
            submitted=list(self.submitted),
            round_results=[list(r) for r in self.round_results],
        )

    def legal_moves(self, seat: int | None = None) -> list[HatsOffMove]:
        """The moves of ``seat`` (every acting seat when None); plays and calls are listed at time 0."""
        seats = self.acting if seat is None else (seat,) if seat in self.acting else ()
        return [move for s in seats for move in self._moves_of(s)]

    def _moves_of(self, seat: int) -> list[HatsOffMove]:
        if self.phase == "wear":
            return [Wear(seat, kind) for kind in sorted(set(self.hands[seat]))]
        if self.phase == "flip":
            return [Flip(seat)]
        moves: list[HatsOffMove] = []
        if self.pile:
            moves += [Play(seat, 0, kind) for kind in sorted(set(self.hands[seat]))]
            moves += [Play(seat, 0, None)] if self.heads[seat] is not None else []
        if self._may_call(seat):
            moves.append(Call(seat, 0))
        return [*moves, Pass(seat)]

    def why_illegal(self, move: HatsOffMove) -> str | None:
        """None when legal, else a sentence naming the rule broken."""
        if not isinstance(move, Wear | Flip | Pass | Play | Call):
            return f"{move!r} is not a Hats Off! move: {_USAGE}"
        if self.phase == "over":
            return "the game is over (O7)"
        if not 0 <= move.seat < self.players:
            return f"there is no {move._prefix()[:-1]} in a {self.players}-player game"
        if isinstance(move, Wear):
            return self._wear_reason(move)
        if isinstance(move, Flip):
            return self._flip_reason(move)
        return self._race_reason(move)

    def apply(self, move: HatsOffMove) -> list[Event]:
        """Carry out a legal move and narrate what it caused."""
        if isinstance(move, Wear):
            return self._apply_wear(move)
        if isinstance(move, Flip):
            return self._apply_flip(move)
        self.submitted[move.seat] = move
        name = SEAT_NAMES[move.seat]
        events = [Event(f"{name} has moved (moves stay secret until everyone has moved)", "O3")]
        return events + (self._settle() if not self.acting else [])

    # -- legality ---------------------------------------------------------

    def _may_call(self, seat: int) -> bool:
        return any(card.owner != seat for card in self.loose)

    def _may_act(self, seat: int) -> bool:
        holds = bool(self.hands[seat]) or self.heads[seat] is not None
        return (bool(self.pile) and holds) or self._may_call(seat)

    def _wear_reason(self, move: Wear) -> str | None:
        name = SEAT_NAMES[move.seat]
        if self.phase != "wear":
            return "head cards are chosen only at the deal (O1)"
        if self.heads[move.seat] is not None:
            return f"{name} already wears a head card (O1)"
        if move.kind not in self.hands[move.seat]:
            return f"{name} holds no {KIND_NAMES.get(move.kind, move.kind)} to put on the head (O1)"
        return None

    def _flip_reason(self, move: Flip) -> str | None:
        if self.phase == "wear":
            return "every player must first choose a head card (O1)"
        if self.phase == "race":
            return "a race is on: the card must be matched or passed before the next flip (O3)"
        if move.seat != self.flipper:
            return f"it is {SEAT_NAMES[self.flipper]}'s turn to flip (O2)"
        return None

    def _race_reason(self, move: Pass | Play | Call) -> str | None:
        name = SEAT_NAMES[move.seat]
        if self.phase != "race":
            waiting = "every player must first choose a head card (O1)" if self.phase == "wear" else None
            return f"no race is on: {waiting or SEAT_NAMES[self.flipper] + ' must flip a card first (O2)'}"
        if self.submitted[move.seat] is not None:
            return f"{name} has already moved in this race: one move each, settled when everyone has moved (O3)"
        if not self._may_act(move.seat):
            return f"{name} has no card to play and no loose card to call for in this race"
        if isinstance(move, Pass):
            return None
        if not 0 <= move.ms <= MAX_MS:
            return f"a time is counted from when the race was shown, from 0 to {seconds(MAX_MS)} s"
        return self._call_reason(move) if isinstance(move, Call) else self._play_reason(move)

    def _call_reason(self, move: Call) -> str | None:
        if not self.loose:
            return "there is no loose card: Hats Off! wins a wrongly played card (O5) or a fallen hat (O6)"
        if not self._may_call(move.seat):
            return f"the loose card is {SEAT_NAMES[move.seat]}'s own, and nobody wins their own card (O5, O6)"
        return None

    def _play_reason(self, move: Play) -> str | None:
        name = SEAT_NAMES[move.seat]
        if not self.pile:
            return "the pile was just won: there is no card to match, only Hats Off! calls for loose cards (O3)"
        if move.from_head:
            return f"{name} has no head card: the deck ran out (O4)" if self.heads[move.seat] is None else None
        if move.kind not in self.hands[move.seat]:
            return f"{name} holds no {KIND_NAMES.get(str(move.kind), move.kind)} in the hand"
        return None

    # -- the deal and the flip ------------------------------------------------

    def _apply_wear(self, move: Wear) -> list[Event]:
        self.hands[move.seat].remove(move.kind)
        self._put_on_head(move.seat, move.kind)
        events = [Event(f"{SEAT_NAMES[move.seat]} looks at a card and puts it on the head, face down", "O1")]
        if not self.acting:
            self.phase = "flip"
            events.append(Event(f"Everyone wears a head card: {SEAT_NAMES[self.flipper]} flips first", "O2"))
        return events

    def _put_on_head(self, seat: int, kind: str) -> None:
        self.heads[seat] = kind
        self.looking[seat] = True
        self.head_changes[seat] += 1

    def _apply_flip(self, move: Flip) -> list[Event]:
        card = self.deck.pop()
        under = len(self.pile)
        self.pile.append(card)
        self.flips += 1
        self.looking = [False] * self.players
        text = f"{SEAT_NAMES[move.seat]} flips {a_hat(card)}"
        text += f" onto {under} unmatched card{'s' if under > 1 else ''}" if under else ""
        events = [Event(text, "O2")]
        if self.options.falling_hats:
            events += self._falls()
        self.race = 0
        return events + self._open_race()

    def _falls(self) -> list[Event]:
        """Each head card may fall off at a flip; the first other caller wins it (O6)."""
        events = []
        for seat in range(self.players):
            kind = self.heads[seat]
            if kind is None or self.rng.random() >= FALL_CHANCE:
                continue
            self.heads[seat], self.looking[seat] = None, False
            self.loose.append(Loose(kind, seat, fell=True))
            text = f"{SEAT_NAMES[seat]}'s hat falls off: {a_hat(kind)} lies face up"
            events.append(Event(f"{text}, for the first other player to call Hats Off!", "O6"))
            events += self._refill(seat, "O6")
        return events

    def _open_race(self) -> list[Event]:
        """Start a race: every seat with something to do may move; with nobody to move it settles at once."""
        self.phase = "race"
        self.race += 1
        self.submitted = [None] * self.players
        events = []
        if self.race > 1 and self.pile:
            top = KIND_NAMES[self.pile[-1]]
            events.append(Event(f"The race goes on: the {top} can still be matched, loose cards called for", "O5"))
        elif self.race > 1:
            events.append(Event("A race for the loose cards alone: only Hats Off! calls count", "O5"))
        return events + (self._settle() if not self.acting else [])

    def _refill(self, seat: int, rule: str) -> list[Event]:
        """Head first, then the hand up to three cards, while the deck lasts (O4)."""
        parts = []
        if self.heads[seat] is None and self.deck:
            self._put_on_head(seat, self.deck.pop())
            parts.append("looks at a new head card and puts it on")
        drawn = 0
        while len(self.hands[seat]) < HAND_SIZE and self.deck:
            self.hands[seat].append(self.deck.pop())
            drawn += 1
        if drawn:
            parts.append(f"draws {drawn} card{'s' if drawn > 1 else ''} into the hand")
        if parts:
            return [Event(f"{SEAT_NAMES[seat]} refills: {' and '.join(parts)}", rule)]
        short = self.heads[seat] is None or len(self.hands[seat]) < HAND_SIZE
        return [Event(f"The deck is empty: {SEAT_NAMES[seat]} cannot refill", "O4")] if short else []

    # -- settling a race ------------------------------------------------------

    def _settle(self) -> list[Event]:
        """Everyone has moved: go through the moves in order of time, equal times by seat (O3)."""
        made = [move for move in self.submitted if move is not None]
        timed = sorted((m for m in made if isinstance(m, Play | Call)), key=lambda m: (m.ms, m.seat))
        events = [Event(_settle_text(made), "O3")]
        settling = _Settling(callable=list(self.loose))
        self.loose = []
        for move in timed:
            events += self._settle_call(move, settling) if isinstance(move, Call) else self._settle_play(move, settling)
        events += self._return_to_deck(settling.callable)
        self.loose = settling.new_loose
        self.submitted = [None] * self.players
        if settling.winners:
            self.last_winner = settling.winners[-1]
        return events + self._after_race(settling, active=bool(timed))

    def _settle_call(self, move: Call, settling: _Settling) -> list[Event]:
        name, time = SEAT_NAMES[move.seat], seconds(move.ms)
        first = settling.first_play
        if first is not None:
            late = (
                f"{name} called Hats Off! at {time} s, after {SEAT_NAMES[first.seat]}'s play at {seconds(first.ms)} s"
            )
            return [Event(f"{late}: too late, a loose card must be called for before the next play", "O6")]
        mine = [card for card in settling.callable if card.owner != move.seat]
        if not mine:
            earlier = SEAT_NAMES[settling.first_caller] if settling.first_caller is not None else "nobody"
            return [Event(f"{name} called Hats Off! at {time} s, but {earlier} called first", settling.first_call_rule)]
        for card in mine:
            settling.callable.remove(card)
        if settling.first_caller is None:
            settling.first_caller, settling.first_call_rule = move.seat, mine[0].rule
        self.won[move.seat] += [card.kind for card in mine]
        self.called[move.seat] += len(mine)
        settling.winners.append(move.seat)
        return [Event(f"{name} called Hats Off! first, at {time} s, and wins {_loose_text(mine)}", mine[0].rule)]

    def _settle_play(self, move: Play, settling: _Settling) -> list[Event]:
        name, time = SEAT_NAMES[move.seat], seconds(move.ms)
        winning = settling.winning
        if winning is not None:
            winner = SEAT_NAMES[winning.seat]
            why = f"equal times go to the lower seat, {winner}" if winning.ms == move.ms else f"{winner} was first"
            return [Event(f"{name}'s play at {time} s is too late: the pile is won ({why}); the card stays", "O3")]
        settling.first_play = settling.first_play or move
        kind = self._take_played(move)
        where = "from the head" if move.from_head else "from the hand"
        top = self.pile[-1]
        if kind == top:
            settling.winning = move
            settling.winners.append(move.seat)
            cards, self.pile = [*self.pile, kind], []
            self.won[move.seat] += cards
            text = (
                f"{name} plays {a_hat(kind)} {where} at {time} s: a match! {name} wins the pile of {len(cards)} cards"
            )
            return [Event(text, "O3"), *self._refill(move.seat, "O4")]
        settling.new_loose.append(Loose(kind, move.seat, fell=False))
        text = (
            f"{name} plays {a_hat(kind)} {where} at {time} s, but the top card is {a_hat(top)}: a wrong play. "
            f"The {KIND_NAMES[kind]} lies loose for the first other player to call Hats Off!"
        )
        return [Event(text, "O5"), *self._refill(move.seat, "O5")]

    def _take_played(self, move: Play) -> str:
        if move.kind is None:
            kind = self.heads[move.seat]
            assert kind is not None, "a legal head play has a head card"
            self.heads[move.seat], self.looking[move.seat] = None, False
            return kind
        self.hands[move.seat].remove(move.kind)
        return move.kind

    def _return_to_deck(self, cards: Sequence[Loose]) -> list[Event]:
        """Loose cards nobody called for in time go back into the deck at a random place (O6)."""
        events = []
        for card in cards:
            self.deck.insert(self.rng.randrange(len(self.deck) + 1), card.kind)
            whose = f"{SEAT_NAMES[card.owner]}'s {KIND_NAMES[card.kind]}"
            events.append(Event(f"Nobody called for {whose} in time: it goes back into the deck", card.rule))
        return events

    def _after_race(self, settling: _Settling, active: bool) -> list[Event]:
        """What follows a settled race: another race, the next flip or the end of the round."""
        if settling.winning is not None:
            return self._open_race() if self.loose else self._next_flip(settling.winners[-1])
        if self.pile and active:
            return self._open_race()
        if not self.pile:  # a race for loose cards alone is over
            return self._next_flip(self.last_winner if self.last_winner is not None else self.flipper)
        left = (self.flipper + 1) % self.players
        text = f"Nobody matched the {KIND_NAMES[self.pile[-1]]}"
        if not self.deck:
            return [Event(f"{text}, and the deck is empty", "O7"), *self._end_round()]
        return [Event(f"{text}: the next flip passes to the left, to {SEAT_NAMES[left]}", "O2"), *self._next_flip(left)]

    def _next_flip(self, seat: int) -> list[Event]:
        self.flipper = seat
        if not self.deck:
            return [Event("The deck is empty and the race is over", "O7"), *self._end_round()]
        self.phase, self.race = "flip", 0
        return []

    # -- rounds and the end ---------------------------------------------------

    def _end_round(self) -> list[Event]:
        counts = [len(w) for w in self.won]
        self.round_results.append(counts)
        self.phase = "over"
        told = ", ".join(f"{name} {count}" for name, count in zip(self.seat_names(), counts, strict=True))
        events = [Event(f"Round {self.round} is over. Cards won: {told}", "O7")]
        if self.options.best_of > 1 and not self._match_decided():
            return events + self._deal_round(self.round + 1)
        outcome = self.outcome()
        assert outcome is not None
        return [*events, Event(outcome.reason, "O7")]

    def _match_decided(self) -> bool:
        wins = self.round_wins()
        return max(wins) > self.options.best_of // 2 or len(self.round_results) == self.options.best_of

    def round_wins(self) -> list[int]:
        """Rounds won per seat so far; a shared round counts for each player who shared it (O7)."""
        wins = [0] * self.players
        for counts in self.round_results:
            for seat in _leaders(counts):
                wins[seat] += 1
        return wins

    def _deal_round(self, number: int) -> list[Event]:
        """Shuffle all 56 cards with the game's generator and deal 4 to each player (O1)."""
        players = self.players
        self.deck = all_cards()
        self.rng.shuffle(self.deck)
        self.hands = [[self.deck.pop() for _ in range(DEALT)] for _ in range(players)]
        self.heads, self.looking, self.head_changes = [None] * players, [False] * players, [0] * players
        self.won, self.called, self.loose, self.pile = [[] for _ in range(players)], [0] * players, [], []
        self.submitted = [None] * players
        self.phase, self.round, self.flips, self.race = "wear", number, 0, 0
        self.flipper, self.last_winner = (number - 1) % players, None
        return [Event(f"Round {number}: 4 cards each; every player chooses one to wear on the head", "O1")]

    def score(self) -> ScoreSheet:
        """Won cards per seat (O7); in a match, the rounds won, with this round's cards told apart."""
        if self.options.best_of == 1:
            lines = [line for seat in range(self.players) for line in self._card_lines(seat)]
            return ScoreSheet(tuple(lines), self.seat_names(), final=self.is_over)
        lines = [line for seat in range(self.players) for line in self._round_lines(seat)]
        note = "" if self.is_over else "a match counts rounds won; this round's cards decide who wins it"
        return ScoreSheet(tuple(lines), self.seat_names(), final=self.is_over, note=note)

    def _card_lines(self, seat: int) -> list[ScoreLine]:
        calls = self.called[seat]
        piles = len(self.won[seat]) - calls
        return [
            ScoreLine(seat, "piles", piles, f"{_cards(piles)} won by matching the top card (O3)"),
            ScoreLine(seat, "Hats Off! calls", calls, f"{_cards(calls)} won by calling Hats Off! (O5, O6)"),
        ]

    def _round_lines(self, seat: int) -> list[ScoreLine]:
        lines = []
        for number, counts in enumerate(self.round_results, start=1):
            won = seat in _leaders(counts)
            shared = " (shared)" if won and len(_leaders(counts)) > 1 else ""
            why = f"{_cards(counts[seat])}: the most, round won{shared} (O7)" if won else f"{_cards(counts[seat])}"
            lines.append(ScoreLine(seat, f"round {number}", int(won), why))
        if not self.is_over:
            piles = len(self.won[seat]) - self.called[seat]
            so_far = f"{_cards(len(self.won[seat]))} so far ({piles} from piles, {self.called[seat]} from calls)"
            lines.append(ScoreLine(seat, f"round {self.round} so far", 0, so_far))
        return lines

    def outcome(self) -> Outcome | None:
        """Most won cards, equal counts sharing (O7); a match: most rounds, then most cards over the match."""
        if not self.is_over:
            return None
        names = self.seat_names()
        if self.options.best_of == 1:
            counts = self.round_results[-1]
            return _winners_outcome(_leaders(counts), names, f"{_cards(max(counts))}", "")
        wins = self.round_wins()
        leaders = _leaders(wins)
        rounds = f"{wins[leaders[0]]} round{'s' if wins[leaders[0]] != 1 else ''} won"
        if len(leaders) == 1:
            return _winners_outcome(leaders, names, rounds, " the match")
        totals = [sum(counts[seat] for counts in self.round_results) for seat in range(self.players)]
        best = max(totals[seat] for seat in leaders)
        winners = [seat for seat in leaders if totals[seat] == best]
        return _winners_outcome(winners, names, f"{rounds}, then {_cards(best)} over the match", " the match")

    # -- views and positions --------------------------------------------------

    def view(self, seat: int | None) -> HatsOffView:
        """What ``seat`` may see: its own hand, its head card only while looking (O1), no sealed move of others."""
        mine = seat is not None
        outcome = self.outcome()
        own_move = self.submitted[seat] if mine else None
        return {
            "game": "hats-off",
            "seat": seat,
            "players": self.players,
            "names": list(self.seat_names()),
            "options": options_dict(self.options),
            "phase": self.phase,
            "acting": list(self.acting),
            "flipper": self.flipper,
            "last_winner": self.last_winner,
            "round": self.round,
            "round_results": [list(r) for r in self.round_results],
            "round_wins": self.round_wins(),
            "flips": self.flips,
            "race": self.race,
            "pile": list(self.pile),
            "top": self.pile[-1] if self.pile else None,
            "deck_size": len(self.deck),
            "hand": sorted(self.hands[seat]) if mine else None,
            "hand_sizes": [len(h) for h in self.hands],
            "has_head": [h is not None for h in self.heads],
            "head": self.heads[seat] if mine and (self.looking[seat] or self.options.memory_aid) else None,
            "looking": list(self.looking),
            "head_changes": list(self.head_changes),
            "loose": [{"kind": c.kind, "owner": c.owner, "fell": c.fell} for c in self.loose],
            "submitted": [s for s, m in enumerate(self.submitted) if m is not None],
            "my_move": None if own_move is None else str(own_move),
            "won": [list(w) for w in self.won],
            "won_counts": [len(w) for w in self.won],
            "called": list(self.called),
            "outcome": None if outcome is None else outcome.reason,
        }

    def position(self) -> dict[str, Any]:
        """A full snapshot, hidden cards and sealed moves included, loadable by ``load``."""
        return {
            "game": "hats-off",
            "players": self.players,
            "options": options_dict(self.options),
            "phase": self.phase,
            "flipper": self.flipper,
            "last_winner": self.last_winner,
            "round": self.round,
            "round_results": [list(r) for r in self.round_results],
            "flips": self.flips,
            "race": self.race,
            "deck": list(self.deck),
            "pile": list(self.pile),
            "hands": [list(h) for h in self.hands],
            "heads": list(self.heads),
            "looking": list(self.looking),
            "head_changes": list(self.head_changes),
            "won": [list(w) for w in self.won],
            "called": list(self.called),
            "loose": [{"kind": c.kind, "owner": c.owner, "fell": c.fell} for c in self.loose],
            "submitted": [str(m) for m in self.submitted if m is not None],
        }


class LooseView(TypedDict):
    """A loose card as every seat sees it: face up, with the seat it came from."""

    kind: str
    owner: int
    fell: bool


class HatsOffView(TypedDict):
    """What one seat (or a spectator, seat None) may see of a Hats Off! position.

    ``hand`` and ``head`` are the seat's own (None for a spectator); ``head`` is
    shown only while the owner is looking (``looking[seat]``) or with the
    memory aid (O1). ``submitted`` names the seats that have moved in this race,
    never their moves; ``my_move`` is the seat's own sealed move.
    """

    game: str
    seat: int | None
    players: int
    names: list[str]
    options: dict[str, Any]
    phase: str
    acting: list[int]
    flipper: int
    last_winner: int | None
    round: int
    round_results: list[list[int]]
    round_wins: list[int]
    flips: int
    race: int
    pile: list[str]
    top: str | None
    deck_size: int
    hand: list[str] | None
    hand_sizes: list[int]
    has_head: list[bool]
    head: str | None
    looking: list[bool]
    head_changes: list[int]
    loose: list[LooseView]
    submitted: list[int]
    my_move: str | None
    won: list[list[str]]
    won_counts: list[int]
    called: list[int]
    outcome: str | None


# ---------------------------------------------------------------- narration helpers


def _settle_text(made: Sequence[HatsOffMove]) -> str:
    if not made:
        return "Nobody can play or call for a card in this race"
    passed = [SEAT_NAMES[m.seat] for m in made if isinstance(m, Pass)]
    text = "Everyone has moved: the race is settled in order of time, equal times by seat"
    return text + (f" (passed: {', '.join(passed)})" if passed else "")


def _loose_text(cards: Sequence[Loose]) -> str:
    return " and ".join(f"{SEAT_NAMES[c.owner]}'s {KIND_NAMES[c.kind]}" for c in cards)


def _cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


def _leaders(values: Sequence[int]) -> list[int]:
    best = max(values)
    return [seat for seat, value in enumerate(values) if value == best]


def _winners_outcome(winners: Sequence[int], names: Sequence[str], what: str, match: str) -> Outcome:
    who = " and ".join(names[s] for s in winners)
    if len(winners) == 1:
        return Outcome(tuple(winners), f"{who} wins{match} with {what} (O7)")
    return Outcome(tuple(winners), f"{who} share the win{match}: {what} each (O7)")


# ---------------------------------------------------------------- worlds (what a bot imagines)


def sample_world(view: Mapping[str, Any], rng: random.Random) -> HatsOffState:
    """A full state agreeing with one seat's ``view``: the cards it cannot see dealt at random.

    Unseen are the other hands, every head card the seat is not looking at
    (its own included) and the deck's order. The other seats' sealed moves
    are imagined as passes: the view shows only that they were made.
    """
    seat, players = view["seat"], view["players"]
    own_head = view["head"]
    seen = Counter([*view["hand"], *view["pile"], *(k for w in view["won"] for k in w)])
    seen.update(card["kind"] for card in view["loose"])
    seen.update([own_head] if own_head else [])
    unseen = list((Counter(all_cards()) - seen).elements())
    rng.shuffle(unseen)
    hands = [list(view["hand"]) if s == seat else _take(unseen, view["hand_sizes"][s]) for s in range(players)]
    heads = [own_head if s == seat and own_head else _take_head(unseen, view["has_head"][s]) for s in range(players)]
    submitted: list[HatsOffMove | None] = [Pass(s) if s in view["submitted"] else None for s in range(players)]
    if view["my_move"] is not None:
        submitted[seat] = parse_move(view["my_move"])
    return HatsOffState(
        players, make_options(HatsOffOptions, view["options"], "hats-off"), random.Random(rng.random()),
        unseen, list(view["pile"]), hands, heads, list(view["looking"]), list(view["head_changes"]),
        [list(w) for w in view["won"]], list(view["called"]),
        [Loose(c["kind"], c["owner"], c["fell"]) for c in view["loose"]], submitted, view["phase"],
        view["flipper"], view["last_winner"], view["flips"], view["race"], view["round"],
        [list(r) for r in view["round_results"]],
    )  # fmt: skip


def _take(pool: list[str], count: int) -> list[str]:
    taken = pool[len(pool) - count :]
    del pool[len(pool) - count :]
    return taken


def _take_head(pool: list[str], wears: bool) -> str | None:
    return pool.pop() if wears else None


# ---------------------------------------------------------------- setup and loading


def new_state(players: int | None, seed: int, options: HatsOffOptions) -> HatsOffState:
    """Shuffle with the seed and deal the first round (O1)."""
    players = 3 if players is None else players
    if players not in range(2, 6):
        raise RecordError(f"Hats Off! takes 2 to 5 players, not {players!r}")
    state = HatsOffState(players, options, random.Random(seed))
    state._deal_round(1)
    return state


def load_position(data: Mapping[str, Any]) -> HatsOffState:
    """A state from the position format (see ``HatsOffState.position``); every inconsistency is a RecordError."""
    players = read_field(data, "players", int)
    if players not in range(2, 6):
        raise RecordError(f"field 'players' must be 2 to 5, not {players!r}")
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise RecordError(f"field 'options' must be an object, not {options!r}")
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError(f"field 'seed' must be a whole number, not {seed!r}")
    read = _PositionReader(data, players)
    state = HatsOffState(players, make_options(HatsOffOptions, options, "hats-off"), random.Random(seed))
    read.cards_into(state)
    read.counters_into(state)
    _check_position(state)
    _load_submitted(state, data.get("submitted", []))
    return state


@dataclass
class _PositionReader:
    """Reads a position's fields, counting every card so that no hat shows up more than seven times."""

    data: Mapping[str, Any]
    players: int
    seen: Counter[str] = field(default_factory=Counter)

    def kinds(self, name: str, listed: object) -> list[str]:
        if not isinstance(listed, list):
            raise RecordError(f"field {name!r} must be a list of hats, not {listed!r}")
        try:
            kinds = [parse_kind(item, RecordError) for item in listed]
        except RecordError as error:
            raise RecordError(f"field {name!r}: {error}") from None
        self.seen.update(kinds)
        over = [kind for kind in KINDS if self.seen[kind] > COPIES]
        if over:
            raise RecordError(f"field {name!r}: there are only {COPIES} cards of each hat, and {over[0]} is over")
        return kinds

    def per_seat(self, name: str, default: object = None) -> list[Any]:
        value = self.data.get(name, default) if default is not None else read_field(self.data, name, list)
        if not isinstance(value, list) or len(value) != self.players:
            raise RecordError(f"field {name!r} must hold one entry per player ({self.players}), not {value!r}")
        return value

    def cards_into(self, state: HatsOffState) -> None:
        state.hands = [self.kinds("hands", hand) for hand in self.per_seat("hands")]
        state.heads = [None if head is None else self.kinds("heads", [head])[0] for head in self.per_seat("heads")]
        state.pile = self.kinds("pile", self.data.get("pile", []))
        state.won = [self.kinds("won", won) for won in self.per_seat("won", [[]] * self.players)]
        state.loose = self.loose()
        state.deck = self.deck(state.rng)

    def loose(self) -> list[Loose]:
        listed = self.data.get("loose", [])
        if not isinstance(listed, list) or not all(isinstance(c, Mapping) for c in listed):
            raise RecordError('field \'loose\' must list cards like {"kind": "fez", "owner": 1, "fell": false}')
        cards = []
        for card in listed:
            owner, fell = card.get("owner"), card.get("fell", False)
            if not _is_seat(owner, self.players) or not isinstance(fell, bool):
                raise RecordError(f"field 'loose': {dict(card)!r} needs an owner seat and fell true or false")
            cards.append(Loose(self.kinds("loose", [card.get("kind")])[0], owner, fell))
        return cards

    def deck(self, rng: random.Random) -> list[str]:
        rest = list((Counter(all_cards()) - self.seen).elements())
        if "deck" not in self.data:
            rng.shuffle(rest)
            return rest
        deck = self.kinds("deck", self.data["deck"])
        missing = Counter(all_cards()) - self.seen
        if missing:
            raise RecordError(
                f"field 'deck': with a deck given every card must be listed; missing {sorted(missing.elements())}"
            )
        return deck

    def counters_into(self, state: HatsOffState) -> None:
        data, players = self.data, self.players
        state.phase = data.get("phase", "flip")
        if state.phase not in PHASES:
            raise RecordError(f"field 'phase' must be one of {', '.join(PHASES)}, not {state.phase!r}")
        state.flipper = _seat_field(data, "flipper", players, 0)
        state.last_winner = _seat_field(data, "last_winner", players, None, allow_none=True)
        state.round = _count_field(data, "round", 1, state.options.best_of, 1)
        state.flips, state.race = _count_field(data, "flips", 0, 10**6, 0), _count_field(data, "race", 0, 10**6, 0)
        state.called = [_count_field({"called": n}, "called", 0, 56) for n in self.per_seat("called", [0] * players)]
        state.head_changes = [
            _count_field({"head_changes": n}, "head_changes", 0, 10**6)
            for n in self.per_seat("head_changes", [0] * players)
        ]
        state.looking = [bool(x) for x in self.per_seat("looking", [False] * players)]
        state.round_results = self.round_results()
        state.submitted = [None] * players

    def round_results(self) -> list[list[int]]:
        results = self.data.get("round_results", [])
        if not isinstance(results, list) or not all(
            isinstance(row, list) and len(row) == self.players and all(_is_count(n) for n in row) for row in results
        ):
            raise RecordError(f"field 'round_results' must list, per finished round, {self.players} card counts")
        return [list(row) for row in results]


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_seat(value: object, players: int) -> bool:
    return _is_count(value) and value < players  # type: ignore[operator]


def _seat_field(data: Mapping[str, Any], name: str, players: int, default: int | None, allow_none: bool = False) -> Any:
    value = data.get(name, default)
    if (value is None and allow_none) or _is_seat(value, players):
        return value
    raise RecordError(
        f"field {name!r} must be a seat from 0 to {players - 1}{' or null' if allow_none else ''}, not {value!r}"
    )


def _count_field(data: Mapping[str, Any], name: str, least: int, most: int, default: int = 0) -> int:
    value = data.get(name, default)
    if not _is_count(value) or not least <= value <= most:
        raise RecordError(f"field {name!r} must be a whole number from {least} to {most}, not {value!r}")
    return value


def _check_position(state: HatsOffState) -> None:
    """The rules' limits on a position, each refused with the field it concerns."""
    for seat in range(state.players):
        _check_seat(state, seat)
    finished = len(state.round_results)
    if finished != state.round - (0 if state.phase == "over" else 1):
        raise RecordError(
            f"field 'round_results' must hold the {state.round - 1} rounds before round {state.round} "
            "(and this one once it is over)"
        )
    if state.phase == "over" and state.options.best_of > 1 and not state._match_decided():
        raise RecordError("field 'phase': the match is not decided yet, so a new round would be dealt (O7)")
    _PHASE_CHECKS[state.phase](state)


def _check_seat(state: HatsOffState, seat: int) -> None:
    wears = state.heads[seat] is not None
    most = HAND_SIZE if state.phase != "wear" or wears else DEALT
    if len(state.hands[seat]) > most:
        raise RecordError(
            f"field 'hands': seat {seat} holds {len(state.hands[seat])} cards, at most {most} here (O1, O4)"
        )
    if state.looking[seat] and not wears:
        raise RecordError(f"field 'looking': seat {seat} has no head card to look at")
    if state.called[seat] > len(state.won[seat]):
        raise RecordError(
            f"field 'called': seat {seat} won {len(state.won[seat])} cards, fewer than {state.called[seat]}"
        )


def _check_wear(state: HatsOffState) -> None:
    if state.pile or state.loose or state.flips or any(state.won) or all(h is not None for h in state.heads):
        raise RecordError(
            "field 'phase': at the deal nothing is flipped or won yet and someone has a head card to choose"
        )


def _check_flip(state: HatsOffState) -> None:
    if not state.deck or state.loose or state.race:
        raise RecordError("field 'phase': a flip needs a card in the deck, no loose card and race 0 (O2)")
    _check_heads_chosen(state)


def _check_race(state: HatsOffState) -> None:
    if not (state.pile or state.loose) or state.race < 1:
        raise RecordError("field 'phase': a race needs a card on the pile or a loose card, and race 1 or more (O3)")
    _check_heads_chosen(state)


def _check_heads_chosen(state: HatsOffState) -> None:
    bare = [s for s in range(state.players) if state.heads[s] is None and len(state.hands[s]) > HAND_SIZE]
    if bare:
        raise RecordError(f"field 'heads': seat {bare[0]} has not chosen a head card (O1)")


def _check_over(state: HatsOffState) -> None:
    if state.loose:
        raise RecordError("field 'loose': a finished game has no card waiting for a call")


_PHASE_CHECKS = {"wear": _check_wear, "flip": _check_flip, "race": _check_race, "over": _check_over}


def _load_submitted(state: HatsOffState, listed: object) -> None:
    """The sealed moves of a race, each checked as if it were played now."""
    if not isinstance(listed, list) or not all(isinstance(m, str) for m in listed):
        raise RecordError("field 'submitted' must be a list of move notations, like \"Ben:fez@0.42\"")
    for text in listed:
        try:
            move = parse_move(text)
        except InvalidMoveError as error:
            raise RecordError(f"field 'submitted': {error}") from None
        reason = "only race moves are sealed" if isinstance(move, Wear | Flip) else state.why_illegal(move)
        if reason is not None:
            raise RecordError(f"field 'submitted': {text!r} is not allowed: {reason}")
        state.submitted[move.seat] = move
    if state.phase == "race" and not state.acting:
        raise RecordError("field 'submitted': every seat has moved, so the race would already be settled (O3)")


def _render(state: HatsOffState) -> str:
    from hatskit.render.hats_off import table_html  # the renderer imports this module

    return table_html(state)


SPEC = GameSpec(
    game_id="hats-off",
    options_type=HatsOffOptions,
    new_state=new_state,
    parse_move=parse_move,
    load_position=load_position,
    render_html=_render,
    sample_world=sample_world,
    bot_module="hatskit.bots.hats_off",
)
