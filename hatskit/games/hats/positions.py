"""Hats positions: a new deal, loading and saving a position, what one seat sees, and worlds a bot imagines.

The position format is the one ``docs/rulings.md`` shows under "Positions";
a loaded position must be one the rules can reach, field by field (the Hats
decision "Positions must agree with the rules"), and a field the rules derive
may be left out. Each shuffle is drawn from ``seed`` and its number
(``shuffles``), so a position replays every later shuffle exactly.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hatskit.core import (
    MAX_INT,
    RecordError,
    brief,
    make_options,
    options_dict,
    read_field,
    seeded_shuffle,
    whole_number,
)
from hatskit.games.hats.components import (
    HAND_SIZE,
    MAIN_ACTIONS,
    SEAT_NAMES,
    TEAMS,
    Card,
    HatsOptions,
    card_names,
    cards_of_game,
    parse_card,
    partner,
)
from hatskit.games.hats.scoring import cookie_holder, face_up_positions
from hatskit.games.hats.state import HatsState, PendingSwap


def new_state(players: int | None, seed: int, options: HatsOptions) -> HatsState:
    """Shuffle with the seed and deal (H1, H5); three players unless told."""
    players = 3 if players is None else players  # the count itself is checked against SPEC.players
    deck = cards_of_game(players, options)
    seeded_shuffle(deck, seed, 0)
    table = [deck.pop() for _ in range(5 if players == 2 else 6)]
    hands = [[deck.pop() for _ in range(HAND_SIZE)] for _ in range(players)]
    empty: list[list[Card]] = [[] for _ in range(players)]
    return HatsState(players, options, table, hands, [[] for _ in empty], empty, [0] * players, deck, [], seed, 1)


def save_position(state: HatsState) -> dict[str, Any]:
    """The position format (docs/rulings.md, "Positions"), with the deck order and rule state."""
    return {
        "game": "hats",
        "players": state.players,
        "to_move": state.turn,
        "played": list(state.played),
        "table": card_names(state.table),
        "hands": [card_names(h) for h in state.hands],
        "collections": [card_names(c) for c in state.collections],
        "black_hats": [card_names(b) for b in state.black_hats],
        "cookie": state.cookie,
        "deck": card_names(state.deck),
        "discard": card_names(state.discard),
        "optional_used": state.optional_used,
        "pending_swap": {"seat": state.pending.giver, "card": str(state.pending.card)} if state.pending else None,
        "options": options_dict(state.options),
        "seed": state.seed,
        "shuffles": state.shuffles,
    }


def view(state: HatsState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see: no other hand, no face-down card but its own (None: only the public)."""
    over = state.turn is None
    shown: dict[str, Any] = {
        "game": "hats",
        "seat": seat,
        "players": state.players,
        "names": list(state.seat_names()),
        "teams": [list(t) for t in TEAMS] if state.players == 4 else None,
        "to_move": state.to_move,
        "turn": state.turn,
        "played": list(state.played),
        "table": card_names(state.table),
        "face_up": sorted(face_up_positions(state.table).values()),
        "collections": [card_names(c) for c in state.collections],
        "black_hat_counts": [len(b) for b in state.black_hats],
        "hand_sizes": [len(h) for h in state.hands],
        "hand": card_names(state.hands[seat]) if seat is not None else None,
        "my_black_hats": card_names(state.black_hats[seat]) if seat is not None else None,
        "deck_size": len(state.deck),
        "discard_size": len(state.discard),
        "cookie": state.cookie,
        "optional_used": state.optional_used,
        "swap_waiting": state.pending.giver if state.pending else None,
        "favorites": [str(h[0]) for h in state.hands] if over else None,  # revealed at the end (H6)
        "options": options_dict(state.options),
    }
    if state.pending and seat in (state.pending.giver, partner(state.pending.giver)):
        shown["swap_card"] = str(state.pending.card)
    return shown


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
    """Cards from their notations, as a view lists them."""
    return [parse_card(name) for name in names]


def _take(pool: list[Card], count: int) -> list[Card]:
    """The last ``count`` cards of ``pool``, taken out of it."""
    taken = pool[-count:] if count else []
    del pool[len(pool) - count :]
    return taken


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
    """A true-or-false field, false when left out."""
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
        """A list of cards, each in this game (H1) and seen nowhere else in the position."""
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
        """One card of field ``name``."""
        if not isinstance(text, str):
            raise RecordError(f'field {name!r} must list cards by name, like "♥5", not {brief(text)}')
        try:
            return parse_card(text, RecordError)
        except RecordError as error:
            raise RecordError(f"field {name!r}: {error}") from None

    def card_lists(self, data: Mapping[str, Any], name: str) -> list[list[Card]]:
        """One list of cards per player."""
        lists = read_field(data, name, list)
        if len(lists) != self.players:
            raise RecordError(f"field {name!r} must hold one list per player ({self.players}), not {len(lists)}")
        return [self.cards({name: cards}, name) for cards in lists]

    def played(self, data: Mapping[str, Any]) -> list[int]:
        """Each player's count of main actions, 0 to 8 (H6)."""
        played = read_field(data, "played", list)
        if len(played) != self.players:
            raise RecordError(f"field 'played' must hold {self.players} counts, not {brief(played)}")
        return [whole_number(count, "field 'played'", 0, MAIN_ACTIONS) for count in played]

    def pending(self, data: Mapping[str, Any], turn: int | None) -> PendingSwap | None:
        """A swap waiting for its answer: four players, by the seat to move (H5)."""
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
            raise RecordError(
                f"field 'deck': with a deck given every card must be listed; missing {card_names(missing)}"
            )
        return deck


def _check_position(state: HatsState, data: Mapping[str, Any]) -> None:
    """Whether the loaded position is one the rules can reach; sets the cookie holder (H10)."""
    width = 5 if state.players == 2 else 6
    if len(state.table) != width:
        raise RecordError(f"field 'table' must hold {width} cards with {state.players} players (H1)")
    for seat in range(state.players):
        _check_seat_counts(state, seat)
    _check_to_move(state, data)
    _check_optional_used(state)
    state.cookie = _cookie_from(state, data)


def _check_seat_counts(state: HatsState, seat: int) -> None:
    """Hand, collection and black hats hold as many cards as the seat's main actions allow (H1, H6)."""
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
    """``optional_used`` only while a turn goes on, and after a discard only with the card on the pile (H4, H5)."""
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
