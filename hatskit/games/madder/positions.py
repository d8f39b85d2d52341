"""Madder than a Hatter's positions: a new deal, the position format (load and save), a seat's view, sampled worlds.

The position format (``docs/rulings.md``, "Positions"): ``{"game": "madder",
"players": 3, "round": 1, "dealer": 0, "phase": "play", "to_move": 0,
"inventories": [[...], ...], "hands": [...], "line": [...] (first hat first),
"deck": [...] (top last), "discard": [...], "haberdashers": ["The Tailor", ...],
"ability": null, "scores": [...], "options": {...}, "seed": 0, "draws": 1}``.
``phase`` is play, ability (``ability`` names the Premium just played), end,
haberdashers or over; ``scores`` holds one entry per finished round, per seat
either the round's points or its lines ``[category, points, explanation]``,
points being whole numbers from 0 up (never a bool). What ``load_position``
accepts, ``save_position`` gives back in full and ``load_position`` accepts again.
Hats listed nowhere form the deck (shuffled with ``seed``), or once the turns
are over lie discarded. A position with only ``players`` and ``inventories``
(and ``options``) is a scoring exercise: it is scored (styles only), not played.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from hatskit.core import RecordError, ScoreLine, brief, make_options, options_dict, whole_number
from hatskit.games.madder.components import (
    ABILITY,
    END,
    EXERCISE,
    HABERDASHERS,
    HAND_SIZE,
    LINE_SIZE,
    OVER,
    PHASES,
    PLAY,
    PLAYER_COUNTS,
    REGULAR_COPIES,
    SEAT_NAMES,
    CardSet,
    MadderOptions,
    card_set,
    is_premium,
    style_of,
)
from hatskit.games.madder.scoring import round_points
from hatskit.games.madder.state import MadderState


class MadderView(TypedDict):
    """What one seat may see (``seat`` None: a spectator)."""

    game: str
    seat: int | None
    players: int
    names: list[str]
    cards_label: str  # the card set's label: the stand-in set says it is hatskit's own
    styles: list[str]
    round: int
    rounds: int  # the regular rounds (one per player); a tie adds more (M1)
    dealer: int
    phase: str
    to_move: int | None
    inventories: list[list[str]]
    hand: list[str] | None  # the seat's own hand only
    hand_sizes: list[int]
    line: list[str]  # first hat first
    deck_size: int
    discard: list[str]  # face up, out of the round
    haberdasher: str | None  # the seat's own Haberdasher
    haberdashers: list[str] | None  # everyone's, once revealed
    ability: str | None  # the Premium whose ability waits for a choice
    done: list[int]  # seats that have finished the end-of-round step or their Haberdasher
    scores: list[list[int]]  # points per finished round, per seat
    options: dict[str, Any]


EXERCISE_FIELDS = {"game", "players", "inventories", "options"}


def new_state(players: int | None, seed: int, options: MadderOptions) -> MadderState:
    """Round 1 dealt with the seed; seat 0 deals first (M1, M2)."""
    players = 3 if players is None else players
    if players not in PLAYER_COUNTS:
        raise RecordError(f"Madder than a Hatter takes 3 or 4 players, not {players!r}")
    state = _empty(players, options, card_set(options), seed)
    state.deal()
    return state


def view(state: MadderState, seat: int | None) -> MadderView:
    """What ``seat`` may see: its own hand and Haberdasher; everyone's once revealed."""
    revealed = state.phase in (HABERDASHERS, OVER)
    own = seat is not None and state.haberdashers is not None
    return MadderView(
        game="madder", seat=seat, players=state.players, names=list(state.seat_names()),
        cards_label=state.cards.label, styles=list(state.cards.styles), round=state.round,
        rounds=state.players, dealer=state.dealer, phase=state.phase, to_move=state.turn,
        inventories=[list(i) for i in state.inventories],
        hand=list(state.hands[seat]) if seat is not None else None,
        hand_sizes=[len(h) for h in state.hands], line=list(state.line), deck_size=len(state.deck),
        discard=list(state.discard),
        haberdasher=state.haberdashers[seat] if own else None,  # type: ignore[index]
        haberdashers=list(state.haberdashers) if revealed and state.haberdashers else None,
        ability=state.ability, done=finished(state), scores=round_points(state),
        options=options_dict(state.options),
    )  # fmt: skip


def finished(state: MadderState) -> list[int]:
    """Seats that have finished the end-of-round step (or their Haberdasher), in order from the dealer."""
    if state.phase not in (END, HABERDASHERS) or state.turn is None:
        return []
    order = state.order_after(None)
    return order[: order.index(state.turn)]


def save_position(state: MadderState) -> dict[str, Any]:
    """The position format of the module docstring; an exercise keeps its inventories only."""
    head = {"game": "madder", "players": state.players}
    inventories = [list(i) for i in state.inventories]
    if state.phase == EXERCISE:
        return {**head, "inventories": inventories, "options": options_dict(state.options)}
    return {
        **head, "round": state.round, "dealer": state.dealer, "phase": state.phase, "to_move": state.turn,
        "inventories": inventories, "hands": [list(h) for h in state.hands], "line": list(state.line),
        "deck": list(state.deck), "discard": list(state.discard), "haberdashers": list(state.haberdashers or ()),
        "ability": state.ability, "scores": [_round_record(lines, state.players) for lines in state.scores],
        "options": options_dict(state.options), "seed": state.seed, "draws": state.draws,
    }  # fmt: skip


def _round_record(lines: Sequence[ScoreLine], players: int) -> list[list[list[Any]]]:
    """One round's lines per seat, each as [category, points, explanation]."""
    return [
        [[line.category, line.points, line.explanation] for line in lines if line.seat == s] for s in range(players)
    ]


def _empty(players: int, options: MadderOptions, cards: CardSet, seed: int, draws: int = 0) -> MadderState:
    none: list[list[str]] = [[] for _ in range(players)]
    return MadderState(players, options, cards, seed, draws, none, [[] for _ in none], [], [], [], None, [])


# ---------------------------------------------------------------- loading a position


def load_position(data: Mapping[str, Any]) -> MadderState:
    """A state from the position format; every inconsistency is a RecordError naming the field."""
    players = _field(data, "players", int)
    if players not in PLAYER_COUNTS:
        raise RecordError(f"field 'players' must be 3 or 4, not {players!r}")
    options = make_options(MadderOptions, data.get("options", {}), "madder")
    read = _Reader(card_set(options), players)
    seed = whole_number(data.get("seed", 0), "field 'seed'")
    state = _empty(players, options, read.cards, seed, whole_number(data.get("draws", 0), "field 'draws'"))
    state.inventories = read.per_seat(data, "inventories")
    if "haberdashers" not in data:
        return _exercise(state, data)
    state.hands = read.per_seat(data, "hands")
    state.line, state.discard = read.hats(data, "line"), read.hats(data, "discard", optional=True)
    state.haberdashers = read.haberdashers(data)
    state.round, state.dealer = _whole(data, "round", 1), _seat(data, "dealer", players)
    state.phase, state.turn = _phase(data), data.get("to_move")
    state.ability = data.get("ability")
    state.scores = _scores(data, players, state.round, state.phase)
    _place_the_rest(state, read, data)
    _check_turn(state)
    return state


def _exercise(state: MadderState, data: Mapping[str, Any]) -> MadderState:
    extra = sorted(set(data) - EXERCISE_FIELDS)
    if extra:
        raise RecordError(
            f"field {extra[0]!r}: a position without 'haberdashers' is a scoring exercise, "
            "which holds 'players' and 'inventories' only"
        )
    state.phase, state.turn = EXERCISE, None
    return state


def _field(data: Mapping[str, Any], name: str, kind: type) -> Any:
    if name not in data:
        raise RecordError(f"field {name!r} is missing")
    value = data[name]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise RecordError(f"field {name!r} must be a {kind.__name__}, not {value!r}")
    return value


def _whole(data: Mapping[str, Any], name: str, least: int) -> int:
    value = _field(data, name, int)
    if value < least:
        raise RecordError(f"field {name!r} must be at least {least}, not {value}")
    return value


def _seat(data: Mapping[str, Any], name: str, players: int) -> int:
    value = _field(data, name, int)
    if not 0 <= value < players:
        raise RecordError(f"field {name!r} must be a seat from 0 to {players - 1}, not {value}")
    return value


def _phase(data: Mapping[str, Any]) -> str:
    phase = data.get("phase", PLAY)
    if phase not in PHASES or phase == EXERCISE:
        raise RecordError(f"field 'phase' must be one of {', '.join(PHASES[:-1])}, not {phase!r}")
    return phase


@dataclass
class _Reader:
    """Reads hat fields, counting every copy so that too many of a card is caught."""

    cards: CardSet
    players: int
    seen: Counter[str] = field(default_factory=Counter)

    def hats(self, data: Mapping[str, Any], name: str, optional: bool = False) -> list[str]:
        """The hats of field ``name``, each a hat of the card set, never more copies than the game has."""
        if optional and name not in data:
            return []
        hats = []
        for text in _field(data, name, list):
            if not isinstance(text, str) or style_of(text) not in self.cards.styles:
                styles = ", ".join(self.cards.styles)
                raise RecordError(f"field {name!r}: {text!r} is not a hat; write a style ({styles}), * for a Premium")
            self.seen[text] += 1
            copies = 1 if is_premium(text) else REGULAR_COPIES
            if self.seen[text] > copies:
                raise RecordError(f"field {name!r}: too many {text}; the game has {copies} (M6)")
            hats.append(text)
        return hats

    def per_seat(self, data: Mapping[str, Any], name: str) -> list[list[str]]:
        """Field ``name``: one list of hats per player."""
        lists = _field(data, name, list)
        if len(lists) != self.players:
            raise RecordError(f"field {name!r} must hold one list per player ({self.players}), not {len(lists)}")
        return [self.hats({name: hats}, name) for hats in lists]

    def rest(self) -> list[str]:
        """The hats listed nowhere yet."""
        left = Counter(self.cards.hats()) - self.seen
        return sorted(left.elements())

    def haberdashers(self, data: Mapping[str, Any]) -> list[str]:
        """A different Haberdasher of the card set for each player."""
        names = _field(data, "haberdashers", list)
        known = self.cards.haberdasher_names()
        named = all(isinstance(name, str) for name in names)
        if not named or len(names) != self.players or len(set(names)) != self.players or not set(names) <= set(known):
            raise RecordError(
                f"field 'haberdashers' must give each of the {self.players} players a different one of "
                f"{', '.join(known)}, not {names!r}"
            )
        return list(names)


def _scores(data: Mapping[str, Any], players: int, round_number: int, phase: str) -> list[tuple[ScoreLine, ...]]:
    rounds = data.get("scores", [])
    finished = round_number if phase == OVER else round_number - 1
    if not isinstance(rounds, list) or len(rounds) != finished:
        raise RecordError(f"field 'scores' must hold the {finished} finished rounds, one list per round")
    return [_round_lines(seats, number, players) for number, seats in enumerate(rounds, start=1)]


def _round_lines(seats: Any, number: int, players: int) -> tuple[ScoreLine, ...]:
    """A round's record: per seat its points (a whole number, 0 or more) or lines [category, points, explanation]."""
    where = f"field 'scores', round {number}"
    if not isinstance(seats, list) or len(seats) != players:
        raise RecordError(f"{where} must hold one entry per player ({players})")
    lines = []
    for seat, entry in enumerate(seats):
        if _is_points(entry):
            lines.append(ScoreLine(seat, "round points", entry, f"round {number} as recorded", number))
            continue
        if not isinstance(entry, list) or not all(_is_line(line) for line in entry):
            raise RecordError(
                f"{where}: {SEAT_NAMES[seat]} needs a number or lines [category, points, explanation], points being "
                f"whole numbers from 0 up (no round scores below zero), not {brief(entry)}"
            )
        lines += [ScoreLine(seat, line[0], line[1], line[2], number) for line in entry]
    return tuple(lines)


def _is_points(value: Any) -> bool:
    """Points of a finished round: a whole number from 0 up (a bool is not a number of points)."""
    return type(value) is int and value >= 0


def _is_line(line: Any) -> bool:
    return (
        isinstance(line, list)
        and len(line) == 3
        and isinstance(line[0], str)
        and _is_points(line[1])
        and isinstance(line[2], str)
    )


def _place_the_rest(state: MadderState, read: _Reader, data: Mapping[str, Any]) -> None:
    """The deck: given in full, or the hats listed nowhere (set aside once the turns are over)."""
    if "deck" in data:
        state.deck = read.hats(data, "deck")
        missing = read.rest()
        if missing:
            raise RecordError(f"field 'deck': with a deck given every hat must be listed; missing {missing}")
    elif state.phase in (PLAY, ABILITY):
        state.deck = read.rest()
        state.next_random().shuffle(state.deck)
    else:
        state.discard += read.rest()


def _check_turn(state: MadderState) -> None:
    playing = state.phase in (PLAY, ABILITY)
    if len(state.line) > LINE_SIZE[state.players]:
        raise RecordError(f"field 'line' holds at most {LINE_SIZE[state.players]} hats with {state.players} players")
    if playing and not state.line:
        raise RecordError("field 'line' is empty: during the turns the line holds a hat until the deck runs out (M3)")
    if not playing and (state.line or state.deck):
        raise RecordError(f"fields 'line' and 'deck' must be empty in phase {state.phase!r}: the turns are over (M3)")
    _check_to_move(state)
    _check_ability(state)
    if state.phase == OVER:
        _check_over(state)


def _check_to_move(state: MadderState) -> None:
    turn = state.turn
    if state.phase == OVER:
        if turn is not None:
            raise RecordError("field 'to_move' must be null when the game is over")
        return
    if not isinstance(turn, int) or isinstance(turn, bool) or not 0 <= turn < state.players:
        raise RecordError(f"field 'to_move' must be a seat from 0 to {state.players - 1}, not {turn!r}")
    _check_hand_sizes(state)


def _check_hand_sizes(state: MadderState) -> None:
    """During the turns a hand never shrinks below the deal: each play is followed by a hat from the line (M3)."""
    if state.phase not in (PLAY, ABILITY):
        return
    for seat, hand in enumerate(state.hands):
        least = HAND_SIZE[state.players] - (state.phase == ABILITY and seat == state.turn)
        if len(hand) < least:
            raise RecordError(
                f"field 'hands': {SEAT_NAMES[seat]} holds {len(hand)} hats; during the turns every hand holds at "
                f"least {least} (each play is followed by a hat from the line, M3)"
            )


def _check_ability(state: MadderState) -> None:
    if state.phase != ABILITY:
        if state.ability is not None:
            raise RecordError("field 'ability' must be null outside phase 'ability'")
        return
    if not isinstance(state.ability, str) or not is_premium(state.ability):
        raise RecordError(f"field 'ability' must name the Premium just played, like 'Fedora*', not {state.ability!r}")
    if state.ability not in (hat for inventory in state.inventories for hat in inventory):
        raise RecordError(f"field 'ability': {state.ability} must be in an inventory, where it was just played (M3)")


def _check_over(state: MadderState) -> None:
    totals = state.totals()
    if state.round < state.players or totals.count(max(totals)) > 1:
        raise RecordError(
            "field 'phase': the game is over only after a round per player with one player ahead; a tie plays on (M1)"
        )


# ---------------------------------------------------------------- worlds (what a bot imagines)


def sample_world(view: Mapping[str, Any], rng: random.Random) -> MadderState:
    """A full state agreeing with one seat's ``view``: other hands, deck and Haberdashers dealt at random."""
    seat, players = view["seat"], view["players"]
    options = make_options(MadderOptions, view["options"], "madder")
    cards = card_set(options)
    state = _empty(players, options, cards, rng.randrange(2**63))
    state.inventories = [list(i) for i in view["inventories"]]
    state.line, state.discard = list(view["line"]), list(view["discard"])
    seen = Counter([*view["hand"], *state.line, *state.discard, *(h for i in state.inventories for h in i)])
    unseen = sorted((Counter(cards.hats()) - seen).elements())
    rng.shuffle(unseen)
    state.hands = [list(view["hand"]) if s == seat else _take(unseen, view["hand_sizes"][s]) for s in range(players)]
    state.deck = unseen
    state.haberdashers = view["haberdashers"] or _deal_haberdashers(view, cards, rng)
    state.round, state.dealer, state.phase = view["round"], view["dealer"], view["phase"]
    state.turn, state.ability = view["to_move"], view["ability"]
    state.scores = [_round_lines(points, n, players) for n, points in enumerate(view["scores"], start=1)]
    return state


def _take(pool: list[str], count: int) -> list[str]:
    taken = pool[len(pool) - count :]
    del pool[len(pool) - count :]
    return taken


def _deal_haberdashers(view: Mapping[str, Any], cards: CardSet, rng: random.Random) -> list[str]:
    own = view["haberdasher"]
    others = [name for name in cards.haberdasher_names() if name != own]
    rng.shuffle(others)
    return [own if s == view["seat"] else others.pop() for s in range(view["players"])]
