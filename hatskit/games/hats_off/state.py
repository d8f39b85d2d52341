"""The Hats Off! state: who may act, legality with reasons, and ``advance``: races settled by time, refills, rounds.

``advance`` tells nothing. A single move can settle a race, refill several
seats from the deck, put loose cards back into the deck at random places, open
the next race, end a round and deal the next one, so the state after it keeps
no trace of the steps between. ``advance`` therefore keeps the plain facts of
what the move did in ``happened`` (seats, cards, times: the tuples below, never
a sentence), and ``narration`` tells them. Rulings (O1-O7) are explained in
``docs/rulings.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from hatskit.core import SeededDraws, brief
from hatskit.games.hats_off.components import (
    DEALT,
    FALL_CHANCE,
    HAND_SIZE,
    KIND_NAMES,
    KINDS,
    MAX_MS,
    MAX_RACES,
    SEAT_NAMES,
    HatsOffOptions,
    Loose,
    all_cards,
)
from hatskit.games.hats_off.moves import (
    USAGE,
    Call,
    Flip,
    HatsOffMove,
    Pass,
    Play,
    Wear,
    is_kind,
    is_ms,
    is_seat_number,
)
from hatskit.games.hats_off.scoring import round_wins

# ---------------------------------------------------------------- what a move did (read by narration)


class Refill(NamedTuple):
    """A seat's refill after a match, a wrong play or a fall (O4): a new head card, hand cards drawn, still short."""

    seat: int
    head: bool
    drawn: int
    short: bool


class Fell(NamedTuple):
    """A head card that fell off at a flip (O6), and its owner's refill."""

    seat: int
    kind: str
    refill: Refill


class Settled(NamedTuple):
    """Everyone has moved: the race's moves (seat order) are settled in order of time (O3)."""

    made: tuple[HatsOffMove, ...]


class Raced(NamedTuple):
    """What one timed move did when its race was settled, in order of time.

    ``result`` is one of ``match``, ``wrong``, ``late`` (a play after the pile
    was won), ``called`` (a call that won ``won``), ``beaten`` (a call with
    nothing left to win) and ``too late`` (a call after the race's first play).
    """

    move: Play | Call
    result: str
    kind: str | None = None  # the card a play put down
    top: str | None = None  # the top card it met
    won: tuple[Loose, ...] = ()  # the loose cards a call won
    pile: int = 0  # the cards a match won
    refill: Refill | None = None


class Returned(NamedTuple):
    """A loose card nobody called for in time, back into the deck (O5, O6)."""

    card: Loose


class RaceOn(NamedTuple):
    """Another race for the same top card (``top``), or for the loose cards alone (``top`` None)."""

    top: str | None
    loose: bool


class LastRace(NamedTuple):
    """The top card was raced for ``MAX_RACES`` times: one last race for the loose cards alone (O8)."""

    top: str


class NoMatch(NamedTuple):
    """A race nobody matched: the flip passes to ``left``, or the round ends when the deck is empty."""

    top: str
    left: int | None


class DeckOut(NamedTuple):
    """The deck is empty and the race is over (O7)."""


class RoundOver(NamedTuple):
    """Round ``number`` is over (O7); the cards won are in ``round_results``."""

    number: int


Happening = Fell | Settled | Raced | Returned | RaceOn | LastRace | NoMatch | DeckOut | RoundOver


@dataclass
class _Settling:
    """What a race's settlement has found so far, in order of time."""

    callable: list[Loose]  # loose when the race began, not yet won
    new_loose: list[Loose] = field(default_factory=list)
    first_play: Play | None = None
    winning: Play | None = None
    first_caller: int | None = None
    winners: list[int] = field(default_factory=list)


# ---------------------------------------------------------------- the state


@dataclass
class HatsOffState(SeededDraws):
    """A whole Hats Off! position, hidden cards included. The deck's top is its end."""

    players: int
    options: HatsOffOptions
    seed: int
    draws: int = 0  # random events so far: the next one draws from game_random(seed, draws)
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
    happened: list[Happening] = field(default_factory=list, compare=False, repr=False)  # what the last move did

    # -- the contract ---------------------------------------------------

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
        """Every move names the seat that makes it."""
        return move.seat

    def seat_names(self) -> tuple[str, ...]:
        return SEAT_NAMES[: self.players]

    def round_wins(self) -> list[int]:
        """Rounds won per seat so far; a shared round counts for each player who shared it (O7)."""
        return round_wins(self.round_results, self.players)

    def copy(self) -> HatsOffState:
        """A separate state: every list copied, so advancing it leaves this one as it is."""
        return replace(
            self,
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
            happened=[],
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
        if self.plays_open:
            moves += [Play(seat, 0, kind) for kind in sorted(set(self.hands[seat]))]
            moves += [Play(seat, 0, None)] if self.heads[seat] is not None else []
        if self._may_call(seat):
            moves.append(Call(seat, 0))
        return [*moves, Pass(seat)]

    def why_illegal(self, move: HatsOffMove) -> str | None:
        """None when legal, else a sentence naming the rule broken (or quoting a field no move may hold)."""
        if not isinstance(move, Wear | Flip | Pass | Play | Call):
            return f"{brief(move)} is not a Hats Off! move: {USAGE}"
        odd = _odd_field(move)
        if odd is not None:
            return odd
        if self.phase == "over":
            return "the game is over (O7)"
        if not move.seat < self.players:
            return f"there is no {move._prefix()[:-1]} in a {self.players}-player game"
        if isinstance(move, Wear):
            return self._wear_reason(move)
        if isinstance(move, Flip):
            return self._flip_reason(move)
        return self._race_reason(move)

    def advance(self, move: HatsOffMove) -> None:
        """Carry out a legal move; ``happened`` keeps what it did, for the narration."""
        self.happened = []
        if isinstance(move, Wear):
            self._wear(move)
        elif isinstance(move, Flip):
            self._flip()
        else:
            self.submitted[move.seat] = move
            if not self.acting:
                self._settle()

    # -- legality ---------------------------------------------------------

    @property
    def plays_open(self) -> bool:
        """Whether a card may be played: one lies on the pile and it has had fewer than MAX_RACES races (O8)."""
        return bool(self.pile) and self.race <= MAX_RACES

    def _may_call(self, seat: int) -> bool:
        return any(card.owner != seat for card in self.loose)

    def _may_act(self, seat: int) -> bool:
        holds = bool(self.hands[seat]) or self.heads[seat] is not None
        return (self.plays_open and holds) or self._may_call(seat)

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
        if not self.plays_open:
            top = KIND_NAMES[self.pile[-1]]
            return f"the {top} has been raced for {MAX_RACES} times: only Hats Off! calls count now (O8)"
        if move.from_head:
            return f"{name} has no head card: the deck ran out (O4)" if self.heads[move.seat] is None else None
        if move.kind not in self.hands[move.seat]:
            return f"{name} holds no {KIND_NAMES.get(str(move.kind), move.kind)} in the hand"
        return None

    # -- the deal and the flip ------------------------------------------------

    def _wear(self, move: Wear) -> None:
        self.hands[move.seat].remove(move.kind)
        self._put_on_head(move.seat, move.kind)
        if not self.acting:
            self.phase = "flip"

    def _put_on_head(self, seat: int, kind: str) -> None:
        self.heads[seat] = kind
        self.looking[seat] = True
        self.head_changes[seat] += 1

    def _flip(self) -> None:
        self.pile.append(self.deck.pop())
        self.flips += 1
        self.looking = [False] * self.players
        if self.options.falling_hats:
            self._falls()
        self.race = 0
        self._open_race()

    def _falls(self) -> None:
        """Each head card may fall off at a flip; the first other caller wins it (O6)."""
        rng = self.next_random()
        for seat in range(self.players):
            kind = self.heads[seat]
            if kind is None or rng.random() >= FALL_CHANCE:
                continue
            self.heads[seat], self.looking[seat] = None, False
            self.loose.append(Loose(kind, seat, fell=True))
            self.happened.append(Fell(seat, kind, self._refill(seat)))

    def _open_race(self) -> None:
        """Start a race: every seat with something to do may move; with nobody to move it settles at once."""
        self.phase = "race"
        self.race += 1
        self.submitted = [None] * self.players
        if self.race > 1 and not (self.pile and self.race > MAX_RACES):  # the last race is told by LastRace
            self.happened.append(RaceOn(self.pile[-1] if self.pile else None, bool(self.loose)))
        if not self.acting:
            self._settle()

    def _refill(self, seat: int) -> Refill:
        """Head first, then the hand up to three cards, while the deck lasts (O4)."""
        head = self.heads[seat] is None and bool(self.deck)
        if head:
            self._put_on_head(seat, self.deck.pop())
        drawn = 0
        while len(self.hands[seat]) < HAND_SIZE and self.deck:
            self.hands[seat].append(self.deck.pop())
            drawn += 1
        short = self.heads[seat] is None or len(self.hands[seat]) < HAND_SIZE
        return Refill(seat, head, drawn, short)

    # -- settling a race ------------------------------------------------------

    def _settle(self) -> None:
        """Everyone has moved: go through the moves in order of time, equal times by seat (O3)."""
        made = tuple(move for move in self.submitted if move is not None)
        timed = sorted((m for m in made if isinstance(m, Play | Call)), key=lambda m: (m.ms, m.seat))
        self.happened.append(Settled(made))
        settling = _Settling(callable=list(self.loose))
        self.loose = []
        for move in timed:
            self._settle_call(move, settling) if isinstance(move, Call) else self._settle_play(move, settling)
        self._return_to_deck(settling.callable)
        self.loose = settling.new_loose
        self.submitted = [None] * self.players
        if settling.winners:
            self.last_winner = settling.winners[-1]
        self._after_race(settling, active=bool(timed))

    def _settle_call(self, move: Call, settling: _Settling) -> None:
        if settling.first_play is not None:
            self.happened.append(Raced(move, "too late"))
            return
        mine = tuple(card for card in settling.callable if card.owner != move.seat)
        if not mine:
            self.happened.append(Raced(move, "beaten"))
            return
        for card in mine:
            settling.callable.remove(card)
        if settling.first_caller is None:
            settling.first_caller = move.seat
        self.won[move.seat] += [card.kind for card in mine]
        self.called[move.seat] += len(mine)
        settling.winners.append(move.seat)
        self.happened.append(Raced(move, "called", won=mine))

    def _settle_play(self, move: Play, settling: _Settling) -> None:
        if settling.winning is not None:
            self.happened.append(Raced(move, "late"))
            return
        settling.first_play = settling.first_play or move
        kind = self._take_played(move)
        top = self.pile[-1]
        if kind == top:
            settling.winning = move
            settling.winners.append(move.seat)
            cards, self.pile = [*self.pile, kind], []
            self.won[move.seat] += cards
            self.happened.append(Raced(move, "match", kind, top, pile=len(cards), refill=self._refill(move.seat)))
            return
        settling.new_loose.append(Loose(kind, move.seat, fell=False))
        self.happened.append(Raced(move, "wrong", kind, top, refill=self._refill(move.seat)))

    def _take_played(self, move: Play) -> str:
        if move.kind is None:
            kind = self.heads[move.seat]
            assert kind is not None, "a legal head play has a head card"
            self.heads[move.seat], self.looking[move.seat] = None, False
            return kind
        self.hands[move.seat].remove(move.kind)
        return move.kind

    def _return_to_deck(self, cards: Sequence[Loose]) -> None:
        """Loose cards nobody called for in time go back into the middle of the deck, never on top or bottom (O6).

        A deck of one card takes the card underneath it; an empty deck becomes it.
        """
        rng = self.next_random()
        for card in cards:
            size = len(self.deck)
            self.deck.insert(rng.randrange(1, size) if size > 1 else 0, card.kind)
            self.happened.append(Returned(card))

    def _after_race(self, settling: _Settling, active: bool) -> None:
        """What follows a settled race: another race, the next flip or the end of the round."""
        if settling.winning is not None:
            self._open_race() if self.loose else self._next_flip(settling.winners[-1])
        elif self.pile and active and self.race < MAX_RACES:
            self._open_race()
        elif self.pile and self.loose and self.race == MAX_RACES:
            self.happened.append(LastRace(self.pile[-1]))
            self._open_race()
        elif not self.pile:  # a race for loose cards alone is over
            self._next_flip(self.last_winner if self.last_winner is not None else self.flipper)
        elif not self.deck:
            self.happened.append(NoMatch(self.pile[-1], None))
            self._end_round()
        else:
            left = (self.flipper + 1) % self.players
            self.happened.append(NoMatch(self.pile[-1], left))
            self._next_flip(left)

    def _next_flip(self, seat: int) -> None:
        self.flipper = seat
        if not self.deck:
            self.happened.append(DeckOut())
            self._end_round()
            return
        self.phase, self.race = "flip", 0

    # -- rounds -----------------------------------------------------------------

    def _end_round(self) -> None:
        self.round_results.append([len(w) for w in self.won])
        self.phase = "over"
        self.happened.append(RoundOver(self.round))
        if self.options.best_of > 1 and not self.match_decided():
            self.deal_round(self.round + 1)

    def match_decided(self) -> bool:
        """Whether a player has won more than half the rounds, or every round was played (O7)."""
        return max(self.round_wins()) > self.options.best_of // 2 or len(self.round_results) == self.options.best_of

    def deal_round(self, number: int) -> None:
        """Shuffle all 56 cards with the game's generator and deal 4 to each player (O1)."""
        players = self.players
        self.deck = all_cards()
        self.next_random().shuffle(self.deck)
        self.hands = [[self.deck.pop() for _ in range(DEALT)] for _ in range(players)]
        self.heads, self.looking, self.head_changes = [None] * players, [False] * players, [0] * players
        self.won, self.called, self.loose, self.pile = [[] for _ in range(players)], [0] * players, [], []
        self.submitted = [None] * players
        self.phase, self.round, self.flips, self.race = "wear", number, 0, 0
        self.flipper, self.last_winner = (number - 1) % players, None


def _odd_field(move: Wear | Flip | Pass | Play | Call) -> str | None:
    """A sentence quoting a field that no move may hold (the contract in ``moves``), or None."""
    if not is_seat_number(move.seat):
        return f"a move's seat is a whole number from 0 to {len(SEAT_NAMES) - 1}, not {brief(move.seat)}"
    if isinstance(move, Play | Call) and not is_ms(move.ms):
        return f"a move's time is whole milliseconds from 0 to {MAX_MS}, not {brief(move.ms)}"
    kind = move.kind if isinstance(move, Wear | Play) else None
    if (isinstance(move, Wear) or kind is not None) and not is_kind(kind):
        return f"{brief(kind)} is not a hat: the hats are {', '.join(KINDS)}"
    return None
