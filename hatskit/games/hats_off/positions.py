"""Hats Off! positions: the deal, loading (every inconsistency refused), saving, a seat's view, a bot's world.

The position format is shown by ``save_position``; ``docs/rulings.md`` explains
how to write one by hand and the rulings (O1-O7) it is checked against.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

from hatskit.core import MAX_INT, InvalidMoveError, RecordError, make_options, options_dict, read_field, whole_number
from hatskit.games.hats_off.components import (
    COPIES,
    DEALT,
    HAND_SIZE,
    KINDS,
    MAX_RACES,
    PHASES,
    HatsOffOptions,
    Loose,
    all_cards,
    parse_kind,
)
from hatskit.games.hats_off.moves import Flip, HatsOffMove, Pass, Wear, parse_move
from hatskit.games.hats_off.scoring import outcome
from hatskit.games.hats_off.state import HatsOffState

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
        players, make_options(HatsOffOptions, view["options"], "hats-off"), rng.randrange(2**63), 0,
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
    state = HatsOffState(players, options, seed)
    state.deal_round(1)
    return state


def load_position(data: Mapping[str, Any]) -> HatsOffState:
    """A state from the position format (see ``save_position``); every inconsistency is a RecordError."""
    players = read_field(data, "players", int)
    if players not in range(2, 6):
        raise RecordError(f"field 'players' must be 2 to 5, not {players!r}")
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise RecordError(f"field 'options' must be an object, not {options!r}")
    seed = whole_number(data.get("seed", 0), "field 'seed'")
    draws = whole_number(data.get("draws", 0), "field 'draws'")
    read = _PositionReader(data, players)
    state = HatsOffState(players, make_options(HatsOffOptions, options, "hats-off"), seed, draws)
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
        state.deck = self.deck(state)

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

    def deck(self, state: HatsOffState) -> list[str]:
        rest = list((Counter(all_cards()) - self.seen).elements())
        if "deck" not in self.data:
            state.next_random().shuffle(rest)
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
        state.flips = _count_field(data, "flips", 0, len(all_cards()), 0)
        state.race = _count_field(data, "race", 0, MAX_RACES + 1, 0)
        state.called = [_count_field({"called": n}, "called", 0, 56) for n in self.per_seat("called", [0] * players)]
        state.head_changes = [
            _count_field({"head_changes": n}, "head_changes", 0, 1 + (MAX_RACES + 1) * len(all_cards()))
            for n in self.per_seat("head_changes", [0] * players)
        ]
        state.looking = self.per_seat("looking", [False] * players)
        if not all(isinstance(flag, bool) for flag in state.looking):
            raise RecordError(f"field 'looking' must hold true or false per player, not {state.looking!r}")
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
    if state.phase == "over" and state.options.best_of > 1 and not state.match_decided():
        raise RecordError("field 'phase': the match is not decided yet, so a new round would be dealt (O7)")
    _PHASE_CHECKS[state.phase](state)
    _check_counters(state)


def _check_counters(state: HatsOffState) -> None:
    """Counters that agree with the cards, so that every position the game reaches from here loads too (O8).

    Every flipped card lies on the pile or among the won cards. A seat puts on
    one head card at the deal and at most ``MAX_RACES + 1`` for each flip (a
    fallen hat, then one play a race); every flip takes a card out of the
    deck, the hands, the heads and the loose cards for good, so those cards
    bound the head cards still to come, and with them the count so far.
    """
    in_play = len(state.deck) + sum(map(len, state.hands)) + sum(h is not None for h in state.heads) + len(state.loose)
    gone = len(all_cards()) - in_play
    if state.flips > gone:
        raise RecordError(
            f"field 'flips': {state.flips} cards flipped this round, but only {gone} lie on the pile or among the "
            "won cards (a flipped card never goes back into the deck)"
        )
    if state.draws + _draws_to_come(state, in_play) > MAX_INT:
        raise RecordError(f"field 'draws': {state.draws} leaves no room for the random events still to come")
    for seat, worn in enumerate(state.head_changes):
        most = 1 + (MAX_RACES + 1) * (len(all_cards()) - in_play) - _head_changes_to_come(state, seat)
        if worn > most:
            raise RecordError(
                f"field 'head_changes': seat {seat} has put on {worn} head cards this round; with {in_play} cards "
                f"still in play, at most {most} fit (one at the deal, then {MAX_RACES + 1} a flip; O1, O4, O6, O8)"
            )


def _draws_to_come(state: HatsOffState, in_play: int) -> int:
    """The most random events the rest of the game can make: a fall and a race's return to the deck per race."""
    if state.is_over:
        return 0
    per_flip = 1 + MAX_RACES + 1  # falling hats, then one draw for each race's cards going back into the deck
    this_card = MAX_RACES + 2 - state.race if state.phase == "race" else 0
    rounds_after = state.options.best_of - state.round
    return per_flip * in_play + this_card + rounds_after * (1 + per_flip * len(all_cards()))


def _head_changes_to_come(state: HatsOffState, seat: int) -> int:
    """The head cards a seat may still put on before the next flip: its choice at the deal, or one a race."""
    if state.phase == "wear":
        return int(state.heads[seat] is None)
    return MAX_RACES + 1 - state.race if state.phase == "race" and state.plays_open else 0


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
    if state.pile or state.loose or state.flips or state.race or any(state.won) or all(state.heads):
        raise RecordError(
            "field 'phase': at the deal nothing is flipped or won yet and someone has a head card to choose"
        )
    bare = [s for s in range(state.players) if state.heads[s] is None and not state.hands[s]]
    if bare:
        raise RecordError(
            f"field 'hands': at the deal seat {bare[0]} has neither a head card nor a hand card to choose one from (O1)"
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
    if state.deck:
        raise RecordError(f"field 'deck': a finished game has an empty deck, not {len(state.deck)} cards (O7)")
    counts = [len(won) for won in state.won]
    if state.round_results[-1] != counts:
        raise RecordError(
            f"field 'round_results': a finished round's cards won are the won piles, {counts}, "
            f"not {state.round_results[-1]} (O7)"
        )


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


# ---------------------------------------------------------------- saving and views


def save_position(state: HatsOffState) -> dict[str, Any]:
    """A full snapshot, hidden cards and sealed moves included, loadable by ``load_position``."""
    return {
        "game": "hats-off",
        "players": state.players,
        "options": options_dict(state.options),
        "seed": state.seed,
        "draws": state.draws,
        "phase": state.phase,
        "flipper": state.flipper,
        "last_winner": state.last_winner,
        "round": state.round,
        "round_results": [list(r) for r in state.round_results],
        "flips": state.flips,
        "race": state.race,
        "deck": list(state.deck),
        "pile": list(state.pile),
        "hands": [list(h) for h in state.hands],
        "heads": list(state.heads),
        "looking": list(state.looking),
        "head_changes": list(state.head_changes),
        "won": [list(w) for w in state.won],
        "called": list(state.called),
        "loose": _loose_list(state.loose),
        "submitted": [str(m) for m in state.submitted if m is not None],
    }


def _loose_list(cards: list[Loose]) -> list[LooseView]:
    return [{"kind": c.kind, "owner": c.owner, "fell": c.fell} for c in cards]


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


def view(state: HatsOffState, seat: int | None) -> HatsOffView:
    """What ``seat`` may see: its own hand, its head card only while looking (O1), no sealed move of others."""
    result = outcome(state)
    own_move = state.submitted[seat] if seat is not None else None
    shows_head = seat is not None and (state.looking[seat] or state.options.memory_aid)
    return {
        "game": "hats-off",
        "seat": seat,
        "players": state.players,
        "names": list(state.seat_names()),
        "options": options_dict(state.options),
        "phase": state.phase,
        "acting": list(state.acting),
        "flipper": state.flipper,
        "last_winner": state.last_winner,
        "round": state.round,
        "round_results": [list(r) for r in state.round_results],
        "round_wins": state.round_wins(),
        "flips": state.flips,
        "race": state.race,
        "pile": list(state.pile),
        "top": state.pile[-1] if state.pile else None,
        "deck_size": len(state.deck),
        "hand": sorted(state.hands[seat]) if seat is not None else None,
        "hand_sizes": [len(h) for h in state.hands],
        "has_head": [h is not None for h in state.heads],
        "head": state.heads[seat] if seat is not None and shows_head else None,
        "looking": list(state.looking),
        "head_changes": list(state.head_changes),
        "loose": _loose_list(state.loose),
        "submitted": [s for s, m in enumerate(state.submitted) if m is not None],
        "my_move": None if own_move is None else str(own_move),
        "won": [list(w) for w in state.won],
        "won_counts": [len(w) for w in state.won],
        "called": list(state.called),
        "outcome": None if result is None else result.reason,
    }
