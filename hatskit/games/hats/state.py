"""Hats' state: whose turn it is, which moves are legal and why not, and ``advance``.

``HatsState`` holds a whole position, hidden cards included. ``advance`` carries
a legal move out and tells nothing: ``narration.narrate`` tells it afterwards,
and the bots' simulations call ``advance`` alone. Reasons name the ruling they
apply by its id in ``docs/rulings.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from hatskit.core import TurnBased, seeded_shuffle
from hatskit.games.hats.components import MAIN_ACTIONS, SEAT_NAMES, Card, HatsOptions, partner
from hatskit.games.hats.moves import Back, BlackHat, Discard, Exchange, HatsMove, Swap
from hatskit.games.hats.scoring import cookie_seat


@dataclass
class PendingSwap:
    """A swapped card waiting for the partner's answer (H5)."""

    giver: int
    card: Card


def fits(card: Card, there: Card) -> bool:
    """Whether ``card`` may be exchanged for ``there`` on the table: same type, or a higher value (H2)."""
    return card.kind == there.kind or card.value > there.value


@dataclass
class HatsState(TurnBased):
    """A whole Hats position, hidden cards included. The deck's top is its end."""

    players: int
    options: HatsOptions
    table: list[Card]
    hands: list[list[Card]]
    collections: list[list[Card]]
    black_hats: list[list[Card]]
    played: list[int]
    deck: list[Card]
    discard: list[Card]
    seed: int
    shuffles: int  # how many shuffles of this game's cards were made: the next one's number
    turn: int | None = 0
    optional_used: bool = False
    pending: PendingSwap | None = None
    cookie: int | None = None

    @property
    def to_move(self) -> int | None:
        """The seat that decides now: the partner while a swap waits for an answer."""
        if self.pending is not None:
            return partner(self.pending.giver)
        return self.turn

    def seat_names(self) -> tuple[str, ...]:
        """The players' names, seat 0 first."""
        return SEAT_NAMES[: self.players]

    def copy(self) -> HatsState:
        """An independent copy: every list copied, the cards and the pending swap shared (they never change)."""
        return HatsState(
            self.players,
            self.options,
            list(self.table),
            [list(h) for h in self.hands],
            [list(c) for c in self.collections],
            [list(b) for b in self.black_hats],
            list(self.played),
            list(self.deck),
            list(self.discard),
            self.seed,
            self.shuffles,
            self.turn,
            self.optional_used,
            self.pending,
            self.cookie,
        )

    def positions(self) -> range:
        """Table positions, 1-based."""
        return range(1, len(self.table) + 1)

    # -- legality ---------------------------------------------------------

    def legal_moves(self, seat: int | None = None) -> list[HatsMove]:
        """Every legal move of the seat to move (the only seat that may act), each card once."""
        seat = self.to_move
        if seat is None:
            return []
        hand = sorted(set(self.hands[seat]))
        if self.pending is not None:
            return [Back(card) for card in hand]
        table = list(enumerate(self.table, start=1))
        moves: list[HatsMove] = [Exchange(card, pos) for card in hand for pos, there in table if fits(card, there)]
        moves += [BlackHat(card) for card in hand]
        if self._optional_reason(seat) is None:
            optional = Swap if self.players == 4 else Discard
            moves += [optional(card) for card in hand]
        return moves

    def why_illegal(self, move: HatsMove) -> str | None:
        """None when legal, else a sentence naming the rule broken."""
        seat = self.to_move
        if seat is None:
            return f"the game is over: every player has made {MAIN_ACTIONS} main actions (H6)"
        name = SEAT_NAMES[seat]
        if move.card not in self.hands[seat]:
            return f"{move.card} is not in {name}'s hand"
        if self.pending is not None and not isinstance(move, Back):
            giver = SEAT_NAMES[self.pending.giver]
            return f"{name} must first give a card back to {giver}, who swapped (H5)"
        if isinstance(move, Back) and self.pending is None:
            return "no swap is waiting for a card back (H5)"
        if isinstance(move, Exchange):
            return self._exchange_reason(move)
        if isinstance(move, Discard | Swap):
            return self._optional_reason(seat, type(move))
        return None

    def _exchange_reason(self, move: Exchange) -> str | None:
        """Why an exchange is refused (H1, H2), or None."""
        if move.position not in self.positions():
            return f"position {move.position} does not exist: the table has positions 1-{len(self.table)} (H1)"
        there = self.table[move.position - 1]
        if fits(move.card, there):
            return None
        return (
            f"{move.card} cannot take {there} at position {move.position}: only a {there.kind} or a number higher "
            f"than {there.value} can (H2)"
        )

    def _optional_reason(self, seat: int, kind: type | None = None) -> str | None:
        """Why the optional action is refused now (H4, H5), or None."""
        if kind is Discard and self.players == 4:
            return "with four players the optional action is a swap with your partner, not a discard (H5)"
        if kind is Swap and self.players != 4:
            return "a swap with a partner exists only in the four-player team game (H5)"
        if self.optional_used:
            return (
                f"{SEAT_NAMES[seat]} has already used the optional action this turn: "
                "now comes the main action, an exchange or a black hat (H4)"
            )
        return None

    # -- carrying a move out ------------------------------------------------

    def advance(self, move: HatsMove) -> None:
        """Carry out a legal move, telling nothing (the narration tells it from before and after)."""
        seat = self.to_move
        assert seat is not None
        self.hands[seat].remove(move.card)
        if isinstance(move, Discard | Swap | Back):
            self._advance_optional(seat, move)
            return
        if isinstance(move, Exchange):
            self.collections[seat].append(self.table[move.position - 1])
            self.table[move.position - 1] = move.card
        else:
            self.black_hats[seat].append(move.card)
        self.played[seat] += 1
        self.optional_used = False
        self.cookie = cookie_seat(self.collections, self.black_hats, self.cookie)
        self.turn = None if all(count == MAIN_ACTIONS for count in self.played) else (seat + 1) % self.players

    def _advance_optional(self, seat: int, move: Discard | Swap | Back) -> None:
        """A swap waits for its answer, an answer completes it, a discard draws (H4, H5)."""
        if isinstance(move, Swap):
            self.pending = PendingSwap(seat, move.card)
            return
        if isinstance(move, Back):
            assert self.pending is not None
            self.hands[seat].append(self.pending.card)
            self.hands[self.pending.giver].append(move.card)
            self.pending = None
        else:
            if not self.deck:  # refilled before the discarded card joins the pile (H4 refill order)
                self.deck, self.discard = self.discard, []
                self.shuffle(self.deck)
            self.discard.append(move.card)
            self.hands[seat].append(self.deck.pop())
        self.optional_used = True

    def shuffle(self, cards: list[Card]) -> None:
        """Shuffle ``cards`` in place as this game's next shuffle."""
        seeded_shuffle(cards, self.seed, self.shuffles)
        self.shuffles += 1
