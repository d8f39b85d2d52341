"""Hats (ThunderGryph Games, 2019): exchange hats with the tea table.

Rules in brief (ruling ids of docs/rulings.md in brackets):

- 42 cards: seven types (★ ♠ ♥ ♣ ♦ ✿ ⎈) with values 1-6. Two players leave out
  two types (✿ and ⎈ unless the ``removed`` option names others) and use a table
  of 5 positions; three or four players use every card and 6 positions. Nine
  cards are dealt to each player. Position 1 is next to the Ø end [H1].
- A turn is one main action: *exchange* a hand card onto a table position and
  take the card that was there into your face-up collection, allowed when both
  have the same type or the played value is higher [H2]; or make a *black hat*,
  a hand card put face down into your collection [H3].
- Before the main action a player may once *discard* a hand card and draw [H4];
  with four players (teams 0+2 against 1+3) this is instead a face-down *swap*
  with the partner, who then chooses the card given *back* [H5].
- After every player's eighth main action the game ends; each last hand card is
  that player's favorite hat [H6]. Duplicated types on the table keep only the
  lowest copy face up [H7]. Collection cards score the position of their type on
  the table, black hats 1 each [H8]; the favorite scores the collection's values
  of its type minus its own [H9]; the last cookie, 5 points, goes to the most
  distinct types, with the tie-breaks of H10, and moves during play. Most points
  wins; ties go to most black hats, then the cookie, else the win is shared [H11].

Decisions of hatskit where neither the rulebooks nor docs/rulings.md speak:

- When a discard meets an empty deck, the discard pile is shuffled into a new
  deck *before* the discarded card joins it, so a player never draws back the
  card just thrown away (H4 refill order).
- H4's "both empty" case cannot arise: hands hold 9 minus the actions made and
  collections the actions made, so deck and discard pile together always hold
  the 9 (three players) or 7 (two players) cards nobody was dealt.
- Seat 0 starts. Mid-game score sheets leave the favorite hat out: the last
  hand cards are secret until the end.
- Every shuffle is made by :func:`hatskit.core.seeded_shuffle` from the game's
  seed and the shuffle's number (the deal is shuffle 0), so a position carries
  the generator as two small numbers, ``seed`` and ``shuffles`` (how many
  shuffles were made so far): a game continued or replayed from a position
  reshuffles the discard pile exactly as the original game did (H4).

Positions (the DESIGN.md format plus ``deck``, ``discard``, ``seed``,
``shuffles``, ``optional_used``, ``pending_swap`` and ``options``, all optional)
must be reachable by the rules, field by field; a field the rules derive may be
left out and is then derived:

- ``to_move`` follows from ``played``: seat 0 starts and turns go round in seat
  order, so the counts are some seats on n+1 followed by the rest on n, and the
  first seat on n is to move (null once everyone has made 8 main actions, H6).
- ``cookie`` is a holder H10 can give from the collections and black hats. In a
  complete tie any of the tied seats may hold it (it stayed with them) or nobody
  (it went back to the napkin); left out, a complete tie leaves it on the napkin.
- ``optional_used`` is true only while a game goes on, not while a swap waits
  for its answer, and with two or three players only when the discard pile
  holds the card discarded (H4). ``pending_swap`` is ``{"seat", "card"}``: the
  seat whose turn it is, in a four-player game (H5).
- Left out, ``deck`` is the cards listed nowhere, shuffled as shuffle number
  ``shuffles`` (default 0) of ``seed`` (default 0).

A move is carried out by ``HatsState.advance``; ``apply`` is the same plus its
narration (the events, with their ruling ids), told from what changed. The
bots' simulations advance without narrating: nobody reads those stories.

Notation: a card is its symbol and value (``♥5``) or ASCII name and value
(``heart5``). Moves: ``♥5@2`` exchange onto position 2; ``black ♥5``;
``discard ♥5``; ``swap ♥5``, answered by the partner's ``back ♦3``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from hatskit.core import (
    MAX_INT,
    PLAYER_NAMES,
    Event,
    GameSpec,
    InvalidMoveError,
    Outcome,
    RecordError,
    ScoreLine,
    ScoreSheet,
    TurnBased,
    brief,
    make_options,
    options_dict,
    read_field,
    seeded_shuffle,
    whole_number,
)

# ---------------------------------------------------------------- options


@dataclass(frozen=True)
class HatsOptions:
    """Rule options. ``removed``: the two types left out of a two-player game (H1)."""

    removed: tuple[str, ...] | list[str] = field(default=("✿", "⎈"), metadata={"players": (2,)})

    def __post_init__(self) -> None:
        kinds = tuple(_kind_of(name, "option 'removed'", RecordError) for name in self.removed)
        if len(set(kinds)) != 2:
            raise RecordError(f"option 'removed' must name two different types, not {list(self.removed)!r}")
        object.__setattr__(self, "removed", kinds)


# ---------------------------------------------------------------- cards

KINDS = ("★", "♠", "♥", "♣", "♦", "✿", "⎈")
KIND_NAMES = {"★": "star", "♠": "spade", "♥": "heart", "♣": "club", "♦": "diamond", "✿": "flower", "⎈": "helm"}
_KIND_BY_NAME = {name: kind for kind, name in KIND_NAMES.items()} | {kind: kind for kind in KINDS}
VALUES = range(1, 7)
HAND_SIZE = 9
MAIN_ACTIONS = 8
COOKIE_POINTS = 5
TEAMS = ((0, 2), (1, 3))
SEAT_NAMES = PLAYER_NAMES[:4]


class Card(NamedTuple):
    """A hat card: a type symbol and a value 1-6."""

    kind: str
    value: int

    def __str__(self) -> str:
        return f"{self.kind}{self.value}"


def _kind_of(name: str, what: str, error: type[Exception] = InvalidMoveError) -> str:
    kind = _KIND_BY_NAME.get(str(name).strip().lower())
    if kind is None:
        raise error(f"{what}: {name!r} is not a hat type; the types are {' '.join(KINDS)} or their names")
    return kind


_CARD = re.compile(r"\s*([^0-9\s]+?)\s*([0-9]{1,3})\s*")  # ASCII digits only: int() reads every one
_POSITION = re.compile(r"\s*([0-9]{1,3})\s*")


def parse_card(text: str, error: type[Exception] = InvalidMoveError) -> Card:
    """``♥5`` or ``heart5`` as a Card; the error quotes the text."""
    match = _CARD.fullmatch(str(text))
    if not match:
        raise error(f"{text!r} is not a card: write a type and a value, like ♥5 or heart5")
    value = int(match.group(2))
    if value not in VALUES:
        raise error(f"{text!r} is not a card: values run from 1 to 6")
    return Card(_kind_of(match.group(1), repr(text), error), value)


def cards_of_game(players: int, options: HatsOptions) -> list[Card]:
    """Every card in play, in a fixed order (H1)."""
    kinds = [k for k in KINDS if players > 2 or k not in options.removed]
    return [Card(kind, value) for kind in kinds for value in VALUES]


# ---------------------------------------------------------------- moves


@dataclass(frozen=True)
class Exchange:
    """Play ``card`` onto table ``position`` (1-based) and collect what was there (H2)."""

    card: Card
    position: int

    def __str__(self) -> str:
        return f"{self.card}@{self.position}"


@dataclass(frozen=True)
class _CardMove:
    """A move that names one hand card after a keyword: ``black ♥5``."""

    keyword: ClassVar[str]
    card: Card

    def __str__(self) -> str:
        return f"{self.keyword} {self.card}"


class BlackHat(_CardMove):
    """Put ``card`` face down into the collection (H3)."""

    keyword = "black"


class Discard(_CardMove):
    """Optional action: discard ``card`` and draw (H4)."""

    keyword = "discard"


class Swap(_CardMove):
    """Four players' optional action: give ``card`` face down to the partner (H5)."""

    keyword = "swap"


class Back(_CardMove):
    """The partner's answer to a swap: the card given back (H5)."""

    keyword = "back"


HatsMove = Exchange | BlackHat | Discard | Swap | Back
CardMove = BlackHat | Discard | Swap | Back
_WORD_MOVES: dict[str, type[CardMove]] = {kind.keyword: kind for kind in (BlackHat, Discard, Swap, Back)}


def parse_move(text: str) -> HatsMove:
    """A move from its notation; InvalidMoveError quotes what could not be read."""
    words = str(text).split(None, 1)
    if len(words) == 2 and words[0].lower() in _WORD_MOVES:
        return _WORD_MOVES[words[0].lower()](_card_in_move(words[1], text))
    card_text, at, position = str(text).partition("@")
    number = _POSITION.fullmatch(position)
    if at and number:
        return Exchange(_card_in_move(card_text, text), int(number.group(1)))
    raise InvalidMoveError(
        f"{text!r} is not a Hats move: write ♥5@2 (exchange), black ♥5, discard ♥5, swap ♥5 or back ♥5"
    )


def _card_in_move(card_text: str, move_text: str) -> Card:
    try:
        return parse_card(card_text)
    except InvalidMoveError as error:
        raise InvalidMoveError(f"{move_text!r} is not a Hats move: {error}") from None


# ---------------------------------------------------------------- state


@dataclass
class PendingSwap:
    """A swapped card waiting for the partner's answer (H5)."""

    giver: int
    card: Card


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

    # -- the contract ---------------------------------------------------

    @property
    def to_move(self) -> int | None:
        """The seat that decides now: the partner while a swap waits for an answer."""
        if self.pending is not None:
            return partner(self.pending.giver)
        return self.turn

    def seat_names(self) -> tuple[str, ...]:
        return SEAT_NAMES[: self.players]

    def copy(self) -> HatsState:
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

    def legal_moves(self, seat: int | None = None) -> list[HatsMove]:
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

    def apply(self, move: HatsMove) -> list[Event]:
        """Carry out a legal move and narrate what it caused."""
        seat, shuffles, cookie = self.to_move, self.shuffles, self.cookie
        assert seat is not None
        giver = self.pending.giver if self.pending is not None else None
        self.advance(move)
        if isinstance(move, Discard | Swap | Back):
            return _optional_events(self, seat, move, giver, refilled=self.shuffles != shuffles)
        return _main_events(self, seat, move) + _cookie_events(self, cookie) + _end_events(self)

    def advance(self, move: HatsMove) -> None:
        """Carry out a legal move without narrating it: for the bots' simulations, where nobody reads the story.

        :meth:`apply` is this plus the narration, built from what changed.
        """
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

    def shuffle(self, cards: list[Card]) -> None:
        """Shuffle ``cards`` in place as this game's next shuffle."""
        seeded_shuffle(cards, self.seed, self.shuffles)
        self.shuffles += 1

    def positions(self) -> range:
        """Table positions, 1-based."""
        return range(1, len(self.table) + 1)

    # -- legality ---------------------------------------------------------

    def _exchange_ok(self, card: Card, position: int) -> bool:
        return fits(card, self.table[position - 1])

    def _exchange_reason(self, move: Exchange) -> str | None:
        if move.position not in self.positions():
            return f"position {move.position} does not exist: the table has positions 1-{len(self.table)} (H1)"
        if self._exchange_ok(move.card, move.position):
            return None
        there = self.table[move.position - 1]
        relation = "equal to" if move.card.value == there.value else "lower than"
        return (
            f"{move.card} cannot take {there} at position {move.position}: the types differ "
            f"and {move.card.value} is {relation} {there.value}; it must be the same type or higher (H2)"
        )

    def _optional_reason(self, seat: int, kind: type | None = None) -> str | None:
        if kind is Discard and self.players == 4:
            return "with four players the optional action is a swap with your partner, not a discard (H5)"
        if kind is Swap and self.players != 4:
            return "a swap with a partner exists only in the four-player team game (H5)"
        if self.optional_used:
            return f"{SEAT_NAMES[seat]} has already used the optional action this turn (H4)"
        return None

    # -- effects ------------------------------------------------------------

    def _advance_optional(self, seat: int, move: Discard | Swap | Back) -> None:
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

    # -- scoring --------------------------------------------------------------

    def score(self) -> ScoreSheet:
        """The score sheet; before the end it is 'if the game ended now' without favorites."""
        face_up = face_up_positions(self.table)
        lines: list[ScoreLine] = []
        for seat in range(self.players):
            lines += collection_lines(seat, self.collections[seat], len(self.black_hats[seat]), face_up)
            if self.turn is None:
                lines.append(favorite_line(seat, self.hands[seat][0], self.collections[seat]))
            if self.cookie == seat:
                lines.append(ScoreLine(seat, "last cookie", COOKIE_POINTS, "holds the last cookie (H10)"))
        teams = TEAMS if self.players == 4 else None
        over = self.turn is None
        note = "" if over else "favorite hats stay secret until the end"
        return ScoreSheet(tuple(lines), self.seat_names(), teams, final=over, note=note)

    def outcome(self) -> Outcome | None:
        """Winner(s) with the tie-break that decided (H11); None while playing."""
        if self.turn is not None:
            return None
        sheet = self.score()
        sides: tuple[tuple[int, ...], ...] = TEAMS if self.players == 4 else tuple((s,) for s in range(self.players))
        keys = {side: self._winning_key(side, sheet) for side in sides}
        return _outcome_from_keys(keys, self.seat_names())

    def _winning_key(self, side: tuple[int, ...], sheet: ScoreSheet) -> tuple[int, int, int]:
        points = sum(sheet.totals[s] for s in side)
        black = sum(len(self.black_hats[s]) for s in side)
        return points, black, int(self.cookie in side)

    # -- views and positions --------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see: no other hand, no face-down card but its own."""
        over = self.turn is None
        shown: dict[str, Any] = {
            "game": "hats",
            "seat": seat,
            "players": self.players,
            "names": list(self.seat_names()),
            "teams": [list(t) for t in TEAMS] if self.players == 4 else None,
            "to_move": self.to_move,
            "turn": self.turn,
            "played": list(self.played),
            "table": _names(self.table),
            "face_up": sorted(face_up_positions(self.table).values()),
            "collections": [_names(c) for c in self.collections],
            "black_hat_counts": [len(b) for b in self.black_hats],
            "hand_sizes": [len(h) for h in self.hands],
            "hand": _names(self.hands[seat]) if seat is not None else None,
            "my_black_hats": _names(self.black_hats[seat]) if seat is not None else None,
            "deck_size": len(self.deck),
            "discard_size": len(self.discard),
            "cookie": self.cookie,
            "optional_used": self.optional_used,
            "swap_waiting": self.pending.giver if self.pending else None,
            "favorites": [str(h[0]) for h in self.hands] if over else None,
            "options": options_dict(self.options),
        }
        if self.pending and seat in (self.pending.giver, partner(self.pending.giver)):
            shown["swap_card"] = str(self.pending.card)
        return shown

    def position(self) -> dict[str, Any]:
        """The position format (docs/rulings.md, "Positions"), with the deck order and rule state."""
        return {
            "game": "hats",
            "players": self.players,
            "to_move": self.turn,
            "played": list(self.played),
            "table": _names(self.table),
            "hands": [_names(h) for h in self.hands],
            "collections": [_names(c) for c in self.collections],
            "black_hats": [_names(b) for b in self.black_hats],
            "cookie": self.cookie,
            "deck": _names(self.deck),
            "discard": _names(self.discard),
            "optional_used": self.optional_used,
            "pending_swap": {"seat": self.pending.giver, "card": str(self.pending.card)} if self.pending else None,
            "options": options_dict(self.options),
            "seed": self.seed,
            "shuffles": self.shuffles,
        }


def fits(card: Card, there: Card) -> bool:
    """Whether ``card`` may be exchanged for ``there`` on the table: same type, or a higher value (H2)."""
    return card.kind == there.kind or card.value > there.value


def partner(seat: int) -> int:
    """The four-player partner sitting across (H5)."""
    return (seat + 2) % 4


def _names(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


# ---------------------------------------------------------------- narration


def _optional_events(
    state: HatsState, seat: int, move: Discard | Swap | Back, giver: int | None, refilled: bool
) -> list[Event]:
    """What an optional action (or a swap's answer) just did (H4, H5)."""
    name = SEAT_NAMES[seat]
    if isinstance(move, Swap):
        return [Event(f"{name} passed a card face down to {SEAT_NAMES[partner(seat)]}", "H5")]
    if isinstance(move, Back):
        assert giver is not None
        return [Event(f"{name} passed a card back to {SEAT_NAMES[giver]}", "H5")]
    drawn = [Event(f"{name} discarded a card face down and drew a new one", "H4")]
    if not refilled:
        return drawn
    pile = len(state.deck) + 1  # the new deck's size before the draw
    return [Event(f"The deck ran out: the discard pile ({pile} cards) is shuffled into a new deck", "H4"), *drawn]


def _main_events(state: HatsState, seat: int, move: HatsMove) -> list[Event]:
    """What a main action just did (H2, H3)."""
    if not isinstance(move, Exchange):
        return [Event(f"{SEAT_NAMES[seat]} made a black hat (a card face down, 1 point)", "H3")]
    taken = state.collections[seat][-1]
    why = f"same type {move.card.kind}" if taken.kind == move.card.kind else f"{move.card} > {taken}"
    text = f"{SEAT_NAMES[seat]} exchanged {move.card} for {taken} at position {move.position} ({why})"
    return [Event(text, "H2")]


def _cookie_events(state: HatsState, before: int | None) -> list[Event]:
    """The last cookie changing hands, and why (H10)."""
    if state.cookie == before:
        return []
    holder, why = cookie_holder(state.collections, state.black_hats, before)
    if holder is None:
        return [Event(f"The last cookie goes back to the napkin: {why}", "H10")]
    return [Event(f"{SEAT_NAMES[holder]} takes the last cookie: {why}", "H10")]


def _end_events(state: HatsState) -> list[Event]:
    """The end of the game and the favorites revealed, once every seat has made its main actions (H6)."""
    if state.turn is not None:
        return []
    favorites = ", ".join(f"{SEAT_NAMES[s]} {hand[0]}" for s, hand in enumerate(state.hands))
    return [
        Event(f"Every player has made {MAIN_ACTIONS} main actions: the game ends", "H6"),
        Event(f"Favorite hats revealed: {favorites}", "H6"),
    ]


# ---------------------------------------------------------------- scoring


def face_up_positions(table: Sequence[Card]) -> dict[str, int]:
    """Type -> 1-based position of its lowest copy on the table; the others lie face down (H7)."""
    found: dict[str, int] = {}
    for position, card in enumerate(table, start=1):
        found.setdefault(card.kind, position)
    return found


def collection_lines(
    seat: int, collection: Sequence[Card], black_hats: int, face_up: Mapping[str, int]
) -> list[ScoreLine]:
    """Each face-up card scores its type's table position; black hats 1 each (H8)."""
    lines = []
    for card in collection:
        position = face_up.get(card.kind, 0)
        where = f"{card.kind} is at position {position}" if position else f"no {card.kind} face up on the table"
        lines.append(ScoreLine(seat, "hat collection", position, f"{card}: {where} (H8)"))
    if black_hats:
        lines.append(ScoreLine(seat, "black hats", black_hats, f"{black_hats} black hat(s), 1 point each (H8)"))
    return lines


def favorite_line(seat: int, favorite: Card, collection: Sequence[Card]) -> ScoreLine:
    """Collection values of the favorite's type minus the favorite's own value (H9)."""
    values = [card.value for card in collection if card.kind == favorite.kind]
    points = sum(values) - favorite.value
    summed = " + ".join(map(str, values)) if values else f"no {favorite.kind} collected (0)"
    return ScoreLine(seat, "favorite hat", points, f"favorite {favorite}: {summed} - {favorite.value} (H9)")


def distinct_types(collection: Sequence[Card], black_hats: int) -> int:
    """Types in a collection, all black hats together counting as one (H10)."""
    return len({card.kind for card in collection}) + (1 if black_hats else 0)


def cookie_holder(
    collections: Sequence[Sequence[Card]], black_hats: Sequence[Sequence[Card]], current: int | None
) -> tuple[int | None, str]:
    """Who holds the last cookie now, and why (H10)."""
    best, leaders, winners = _cookie_race(collections, black_hats)
    holder = _cookie_winner(best, winners, current)
    if best == 0:
        return None, "nobody has collected a hat yet"
    if len(leaders) == 1:
        return holder, f"most different types ({best})"
    names = " and ".join(SEAT_NAMES[s] for s in leaders)
    if len(winners) == 1:
        return holder, f"{names} tie on {_types(best)}; the lowest collected values decide"
    if holder is not None:
        return holder, f"{names} tie completely; the holder keeps it"
    return None, f"{names} tie completely and none of them held it"


def cookie_seat(
    collections: Sequence[Sequence[Card]], black_hats: Sequence[Sequence[Card]], current: int | None
) -> int | None:
    """Who holds the last cookie now (H10), without the reason :func:`cookie_holder` gives."""
    best, _, winners = _cookie_race(collections, black_hats)
    return _cookie_winner(best, winners, current)


def _cookie_race(
    collections: Sequence[Sequence[Card]], black_hats: Sequence[Sequence[Card]]
) -> tuple[int, list[int], list[int]]:
    """The most distinct types, the seats that have them, and those of them with the lowest values (H10)."""
    counts = [distinct_types(c, len(b)) for c, b in zip(collections, black_hats, strict=True)]
    best = max(counts)
    leaders = [seat for seat, count in enumerate(counts) if count == best]
    if len(leaders) == 1 or best == 0:
        return best, leaders, leaders
    keys = {seat: sorted(card.value for card in collections[seat]) + [99] for seat in leaders}
    lowest = min(keys.values())
    return best, leaders, [seat for seat in leaders if keys[seat] == lowest]


def _cookie_winner(best: int, winners: Sequence[int], current: int | None) -> int | None:
    """The holder: nobody before any hat is collected; the one winner; in a complete tie, the holder keeps it."""
    if best == 0:
        return None
    if len(winners) == 1:
        return winners[0]
    return current if current in winners else None


def _types(count: int) -> str:
    return f"{count} type" if count == 1 else f"{count} types"


def _outcome_from_keys(keys: Mapping[tuple[int, ...], tuple[int, int, int]], names: Sequence[str]) -> Outcome:
    best = max(keys.values())
    winners = [side for side, key in keys.items() if key == best]
    label = "team " if len(next(iter(keys))) > 1 else ""
    runner_keys = [key for side, key in keys.items() if key != best]
    decided = _tie_break_used(best, runner_keys)
    seats = tuple(sorted(seat for side in winners for seat in side))
    who = " and ".join(names[s] for s in seats)
    if len(winners) > 1:
        return Outcome(seats, f"{who} share the win: equal points, black hats and no cookie between them (H11)")
    return Outcome(seats, f"{label}{who} wins{decided} (H11)")


def _tie_break_used(best: tuple[int, int, int], others: Sequence[tuple[int, int, int]]) -> str:
    if not others or all(key[0] < best[0] for key in others):
        return f" with {best[0]} points"
    if all(key[:2] < best[:2] for key in others):
        return f": tied on {best[0]} points, most black hats ({best[1]})"
    return f": tied on {best[0]} points and black hats, holds the cookie"


# ---------------------------------------------------------------- worlds (what a bot imagines)


def sample_world(view: Mapping[str, Any], rng: random.Random) -> HatsState:
    """A full state agreeing with one seat's ``view``: the cards it cannot see dealt at random."""
    seat = view["seat"]
    players = view["players"]
    options = make_options(HatsOptions, view["options"], "hats")
    hand = _card_list(view["hand"])
    own_black = _card_list(view["my_black_hats"])
    swap_card = [parse_card(view["swap_card"])] if "swap_card" in view else []
    table = _card_list(view["table"])
    collections = [_card_list(c) for c in view["collections"]]
    seen = {*hand, *own_black, *swap_card, *table, *(card for c in collections for card in c)}
    unseen = [card for card in cards_of_game(players, options) if card not in seen]
    rng.shuffle(unseen)
    hands = [hand if s == seat else _take(unseen, view["hand_sizes"][s]) for s in range(players)]
    blacks = [own_black if s == seat else _take(unseen, view["black_hat_counts"][s]) for s in range(players)]
    discard = _take(unseen, view["discard_size"])
    state = HatsState(
        players, options, table, hands, collections, blacks, list(view["played"]), unseen, discard,
        rng.randrange(MAX_INT), 0, view["turn"], view["optional_used"], None, view["cookie"],
    )  # fmt: skip
    if view["swap_waiting"] is not None:
        state.pending = PendingSwap(view["swap_waiting"], swap_card[0] if swap_card else unseen.pop())
    return state


def _card_list(names: Sequence[str]) -> list[Card]:
    return [parse_card(name) for name in names]


def _take(pool: list[Card], count: int) -> list[Card]:
    taken = pool[-count:] if count else []
    del pool[len(pool) - count :]
    return taken


# ---------------------------------------------------------------- setup and loading


def new_state(players: int | None, seed: int, options: HatsOptions) -> HatsState:
    """Shuffle with the seed and deal (H1, H5)."""
    players = 3 if players is None else players
    if players not in (2, 3, 4):
        raise RecordError(f"Hats takes 2 to 4 players, not {players!r}")
    deck = cards_of_game(players, options)
    seeded_shuffle(deck, seed, 0)
    table = [deck.pop() for _ in range(5 if players == 2 else 6)]
    hands = [[deck.pop() for _ in range(HAND_SIZE)] for _ in range(players)]
    empty: list[list[Card]] = [[] for _ in range(players)]
    return HatsState(players, options, table, hands, [[] for _ in empty], empty, [0] * players, deck, [], seed, 1)


def load_position(data: Mapping[str, Any]) -> HatsState:
    """A state from the position format; every inconsistency is a RecordError naming the field."""
    players = whole_number(read_field(data, "players", int), "field 'players'", 2, 4)
    options = make_options(HatsOptions, data.get("options", {}), "hats")
    read = _PositionReader(players, options)
    played = read.played(data)
    turn = turn_after(played)
    state = HatsState(
        players,
        options,
        read.cards(data, "table"),
        read.card_lists(data, "hands"),
        read.card_lists(data, "collections"),
        read.card_lists(data, "black_hats"),
        played,
        [],
        read.cards(data, "discard") if "discard" in data else [],
        whole_number(data.get("seed", 0), "field 'seed'"),
        whole_number(data.get("shuffles", 0), "field 'shuffles'"),
        turn,
        optional_used=_flag(data, "optional_used"),
        pending=read.pending(data, turn),
    )
    state.deck = read.deck(data, state)
    _check_position(state, data)
    return state


def _flag(data: Mapping[str, Any], name: str) -> bool:
    value = data.get(name, False)
    if not isinstance(value, bool):
        raise RecordError(f"field {name!r} must be true or false, not {brief(value)}")
    return value


def _is_seat(value: object, seat: int | None) -> bool:
    """Whether ``value`` is ``seat`` itself: None, or that whole number (not True, not 1.0)."""
    return value is seat if seat is None else type(value) is int and value == seat


def turn_after(played: Sequence[int]) -> int | None:
    """The seat to move after these counts of main actions (None at the end, H6).

    Seat 0 starts and turns go round in seat order, so the seats that have made
    one action more come first; any other pattern is a RecordError.
    """
    least = min(played)
    if least == MAIN_ACTIONS:
        return None
    turn = list(played).index(least)
    if list(played) != [least + 1] * turn + [least] * (len(played) - turn):
        raise RecordError(
            f"field 'played': seat 0 starts and turns go round in seat order, so {list(played)} cannot happen"
        )
    return turn


@dataclass
class _PositionReader:
    """Reads card fields, remembering every card seen so a duplicate is caught."""

    players: int
    options: HatsOptions
    seen: set[Card] = field(default_factory=set)

    def cards(self, data: Mapping[str, Any], name: str) -> list[Card]:
        listed = read_field(data, name, list)
        in_game = set(cards_of_game(self.players, self.options))
        cards = []
        for text in listed:
            card = self._card(text, name)
            if card not in in_game:
                raise RecordError(f"field {name!r}: {card} is not in a {self.players}-player game (H1)")
            if card in self.seen:
                raise RecordError(f"field {name!r}: {card} appears twice in the position")
            self.seen.add(card)
            cards.append(card)
        return cards

    @staticmethod
    def _card(text: object, name: str) -> Card:
        if not isinstance(text, str):
            raise RecordError(f'field {name!r} must list cards by name, like "♥5", not {brief(text)}')
        try:
            return parse_card(text, RecordError)
        except RecordError as error:
            raise RecordError(f"field {name!r}: {error}") from None

    def card_lists(self, data: Mapping[str, Any], name: str) -> list[list[Card]]:
        lists = read_field(data, name, list)
        if len(lists) != self.players:
            raise RecordError(f"field {name!r} must hold one list per player ({self.players}), not {len(lists)}")
        return [self.cards({name: cards}, name) for cards in lists]

    def played(self, data: Mapping[str, Any]) -> list[int]:
        played = read_field(data, "played", list)
        if len(played) != self.players:
            raise RecordError(f"field 'played' must hold {self.players} counts, not {brief(played)}")
        return [whole_number(count, "field 'played'", 0, MAIN_ACTIONS) for count in played]

    def pending(self, data: Mapping[str, Any], turn: int | None) -> PendingSwap | None:
        pending = data.get("pending_swap")
        if pending is None:
            return None
        if self.players != 4 or turn is None:
            raise RecordError("field 'pending_swap': a swap waits only in a four-player game that goes on (H5)")
        if not isinstance(pending, Mapping) or set(pending) != {"seat", "card"}:
            raise RecordError(
                f'field \'pending_swap\' must be like {{"seat": {turn}, "card": "♥5"}}, not {brief(pending)}'
            )
        if not _is_seat(pending["seat"], turn):
            raise RecordError(f"field 'pending_swap': the seat that swapped is the seat to move, {turn} (H5)")
        return PendingSwap(turn, self.cards({"pending_swap": [pending["card"]]}, "pending_swap")[0])

    def deck(self, data: Mapping[str, Any], state: HatsState) -> list[Card]:
        """The deck as listed, or the cards listed nowhere shuffled as the game's next shuffle."""
        rest = [c for c in cards_of_game(self.players, self.options) if c not in self.seen]
        if "deck" not in data:
            state.shuffle(rest)
            return rest
        deck = self.cards(data, "deck")
        missing = [c for c in rest if c not in deck]
        if missing:
            raise RecordError(f"field 'deck': with a deck given every card must be listed; missing {_names(missing)}")
        return deck


def _check_position(state: HatsState, data: Mapping[str, Any]) -> None:
    width = 5 if state.players == 2 else 6
    if len(state.table) != width:
        raise RecordError(f"field 'table' must hold {width} cards with {state.players} players (H1)")
    for seat in range(state.players):
        _check_seat_counts(state, seat)
    _check_to_move(state, data)
    _check_optional_used(state)
    state.cookie = _cookie_from(state, data)


def _check_seat_counts(state: HatsState, seat: int) -> None:
    played = state.played[seat]
    in_transit = 1 if state.pending and state.pending.giver == seat else 0
    if len(state.hands[seat]) + in_transit != HAND_SIZE - played:
        raise RecordError(f"field 'hands': seat {seat} has played {played} cards, so holds {HAND_SIZE - played}")
    if len(state.collections[seat]) + len(state.black_hats[seat]) != played:
        raise RecordError(f"field 'collections': seat {seat}'s collection and black hats must hold {played} cards")


def _check_to_move(state: HatsState, data: Mapping[str, Any]) -> None:
    """A given ``to_move`` must be the seat the played counts give (left out, it is derived)."""
    if "to_move" not in data or _is_seat(data["to_move"], state.turn):
        return
    if state.turn is None:
        raise RecordError(f"field 'to_move' must be null: every player has made {MAIN_ACTIONS} main actions (H6)")
    raise RecordError(
        f"field 'to_move' must be {state.turn} ({SEAT_NAMES[state.turn]}), not {brief(data['to_move'])}: "
        f"after {state.played} main actions it is {SEAT_NAMES[state.turn]}'s turn (seat 0 starts, then seat order)"
    )


def _check_optional_used(state: HatsState) -> None:
    if not state.optional_used:
        return
    if state.turn is None or state.pending is not None:
        why = "the game is over" if state.turn is None else "a swap is still waiting for the card back (H5)"
        raise RecordError(f"field 'optional_used' must be false: {why}")
    if state.players < 4 and not state.discard:
        raise RecordError("field 'optional_used': a discard leaves its card on the discard pile, which is empty (H4)")


def _cookie_from(state: HatsState, data: Mapping[str, Any]) -> int | None:
    """The given holder if H10 can give it, whoever held the cookie before; left out, H10's holder."""
    holder, why = cookie_holder(state.collections, state.black_hats, None)
    if "cookie" not in data:
        return holder
    given = data["cookie"]
    possible = {
        cookie_holder(state.collections, state.black_hats, before)[0] for before in (None, *range(state.players))
    }
    if any(_is_seat(given, seat) for seat in possible):
        return given
    choices = [f"{SEAT_NAMES[seat]} (seat {seat})" for seat in sorted(s for s in possible if s is not None)]
    choices += ["the napkin (null)"] if None in possible else []
    if len(possible) > 1:
        why = "a complete tie: the holder keeps it if among the tied, else it goes back to the napkin"
    shown = "null" if given is None else brief(given)
    raise RecordError(f"field 'cookie' must be {' or '.join(choices)}, not {shown}: {why} (H10)")


def _render(state: HatsState, seat: int | None = None) -> str:
    from hatskit.render.hats import table_html  # TRANSITION: the renderer imports this module

    return table_html(state, seat)


def _narrate(before: HatsState, after: HatsState, move: object) -> list:
    return before.copy().apply(move)  # TRANSITION: told by carrying the move out again


SPEC = GameSpec(
    game_id="hats",
    title="Hats",
    players=(2, 3, 4),
    simultaneous=False,
    hidden_information=True,
    chance=True,
    options_type=HatsOptions,
    parse_move=parse_move,
    new_state=new_state,
    load_position=load_position,
    save_position=HatsState.position,
    view=HatsState.view,
    sample_world=sample_world,
    narrate=_narrate,
    score=HatsState.score,
    outcome=HatsState.outcome,
    render=_render,
    bot_module="hatskit.bots.hats",
)
