"""Hats Off! bots: racers with a seeded reaction time, a fading memory of the own head card, and slips.

A bot reads only its seat's view (and its own earlier views, to remember the
head card it looked at). In a race it plays a card it knows matches, else calls
"Hats Off!" for a loose card it may win, else passes; at the deal it wears a
card of a hat it holds twice. Its reaction times, memory and slips depend on
its level (``LEVELS``, from "young child" to "quick adult"); the model and its
sources are explained in ``docs/rulings.md`` (Decisions of hatskit, Hats Off!,
"The computer players"). ``BOTS`` maps ``random`` to a random racer, ``greedy``
to the adult level, ``strong`` to the quick adult, and every level to itself.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import partial
from typing import Any

from hatskit.bots.base import Hint, moves_of
from hatskit.core import SeatView
from hatskit.games.hats_off.components import KIND_NAMES, MAX_RACES, SEAT_NAMES, a_hat, seconds
from hatskit.games.hats_off.moves import Call, Flip, HatsOffMove, Pass, Play, Wear


@dataclass(frozen=True)
class ExGaussian:
    """A reaction-time shape: a normal part (mean ``mu``, spread ``sigma``) plus an exponential tail ``tau``."""

    mu: float
    sigma: float
    tau: float

    @property
    def mean(self) -> float:
        return self.mu + self.tau

    def draw(self, rng: random.Random, slowing: float) -> float:
        return max(FLOOR, slowing * (rng.gauss(self.mu, self.sigma) + rng.expovariate(1 / self.tau)))


ADULT_PLAY = ExGaussian(0.45, 0.07, 0.15)  # an adult spots a match and puts the card down: 0.60 s on average
ADULT_CALL = ExGaussian(0.30, 0.05, 0.08)  # "Hats Off!" is a plain reaction to a card landing: 0.38 s
HEAD_EXTRA = 0.15  # seconds more for a card taken from the head (recall, reach up)
FLOOR = 0.15  # nobody answers an unforeseen card sooner


@dataclass(frozen=True)
class Level:
    """A difficulty setting: who it stands for, how slow, how forgetful and how hasty."""

    name: str
    who: str
    slowing: float
    forget: float  # chance per flip to forget the own head card
    slip: float  # chance per race to play a card that does not match

    @property
    def mean_play(self) -> float:
        """The average time to play a matching hand card, in seconds."""
        return self.slowing * ADULT_PLAY.mean


LEVELS = {
    level.name: level
    for level in (
        Level("young child", "a child of about 5-6", 2.4, 0.25, 0.08),
        Level("child", "a child of about 8-9", 1.8, 0.15, 0.05),
        Level("older child", "a child of about 11-12", 1.35, 0.08, 0.03),
        Level("adult", "an adult", 1.0, 0.05, 0.02),
        Level("quick adult", "a practised adult", 0.8, 0.02, 0.01),
    )
}


@dataclass(frozen=True)
class _Seen:
    """A head card the bot looked at: its hat, the flip count then, and the ply of that view."""

    kind: str
    flips: int
    ply: int


class RacerBot:
    """Plays what it knows matches, after a reaction time drawn for its level; see the module docstring."""

    def __init__(self, seed: int = 0, level: str = "adult") -> None:
        self.level = LEVELS[level]
        self.name = level
        self.seed = seed
        self.rng = random.Random(seed)
        self._seen: dict[tuple[int, int], _Seen] = {}

    def choose(self, seat_view: SeatView) -> HatsOffMove:
        return self._decide(seat_view, slips=True).move

    def hint(self, seat_view: SeatView) -> Hint:
        return self._decide(seat_view, slips=False)

    def _decide(self, seat_view: SeatView, slips: bool) -> Hint:
        moves_of(seat_view)  # a seat with nothing to do gets the named error every bot gives
        view = seat_view.view()
        seat = view["seat"]
        if view["phase"] == "wear":
            return self._wear(seat, view["hand"])
        if view["phase"] == "flip":
            return Hint(Flip(seat), "it is your turn to flip the next card (O2)")
        return self._race(view, self.head_card(seat_view), slips)

    # -- the deal ---------------------------------------------------------

    def _wear(self, seat: int, hand: list[str]) -> Hint:
        twice = sorted({kind for kind in hand if hand.count(kind) > 1})
        if twice:
            why = (
                f"you hold two {KIND_NAMES[twice[0]]} cards, so your hand still covers {len(set(hand))} different hats"
            )
            return Hint(Wear(seat, twice[0]), why)
        kind = self.rng.choice(sorted(hand))
        return Hint(Wear(seat, kind), "your four cards are all different, so any of them will do")

    # -- a race ------------------------------------------------------------

    def _race(self, view: dict[str, Any], head: str | None, slips: bool) -> Hint:
        seat, hand = view["seat"], view["hand"]
        top = view["top"] if view["race"] <= MAX_RACES else None  # after four races only calls count (O8)
        callable_count = sum(1 for card in view["loose"] if card["owner"] != seat)
        wrong = [kind for kind in hand if kind != top]
        if slips and top is not None and wrong and self.rng.random() < self.level.slip:
            play = self._timed(Play(seat, 0, self.rng.choice(wrong)), ADULT_PLAY)
            return Hint(play, "a slip: in its hurry it plays a card that does not match (O5)")
        match = self._match(seat, top, hand, head)
        if match is not None and (not callable_count or len(view["pile"]) + 1 >= callable_count):
            return self._play_hint(match, top)
        if callable_count:
            call = self._timed(Call(seat), ADULT_CALL)
            return Hint(call, _call_reason(view, seat), self._detail(call))
        known = "" if head else " (and you do not remember your head card)"
        return Hint(Pass(seat), f"nothing you know you hold matches{known}")

    def _match(self, seat: int, top: str | None, hand: list[str], head: str | None) -> Play | None:
        if top is None:
            return None
        if top in hand:
            return self._timed(Play(seat, 0, top), ADULT_PLAY)
        if head == top:
            return self._timed(Play(seat, 0, None), ADULT_PLAY, extra=HEAD_EXTRA)
        return None

    def _play_hint(self, play: Play, top: str) -> Hint:
        where = "the card on your head (you remember it)" if play.from_head else f"{a_hat(top)} in your hand"
        return Hint(play, f"{where} matches the top card: play it first to win the pile (O3)", self._detail(play))

    def _timed(self, move: Play | Call, shape: ExGaussian, extra: float = 0.0) -> Any:
        """The move at a reaction time drawn for this level (seconds, to the millisecond)."""
        return move.at(shape.draw(self.rng, self.level.slowing) + self.level.slowing * extra)

    def _detail(self, move: Play | Call) -> str:
        level = self.level
        return (
            f"reaction time {seconds(move.ms)} s, drawn for {level.who} ({level.name}: "
            f"{level.slowing:g} times an adult's, a match takes {level.mean_play:.2f} s on average)"
        )

    # -- memory --------------------------------------------------------------

    def head_card(self, seat_view: SeatView) -> str | None:
        """The own head card if the bot sees it now, or looked at it and has not forgotten it yet (O1)."""
        view = seat_view.view()
        seat = view["seat"]
        if view["head"] is not None or not view["has_head"][seat]:
            return view["head"]
        key = (view["round"], view["head_changes"][seat])
        seen = self._seen.get(key)
        if seen is None or not _still_true(seat_view, key, seen):
            seen = _look_back(seat_view, key)
            if seen is None:
                return None
            self._seen[key] = seen
        return seen.kind if view["flips"] - seen.flips < self._memory_span(key) else None

    def _memory_span(self, key: tuple[int, int]) -> int:
        """Flips this head card stays in mind: kept through each flip with chance 1 - forget."""
        forget = self.level.forget
        draw = 1.0 - random.Random(f"{self.seed}:{self.name}:{key}").random()  # in (0, 1]
        return 1 + math.floor(math.log(draw) / math.log(1 - forget))


def _head_key(view: dict[str, Any]) -> tuple[int, int]:
    return view["round"], view["head_changes"][view["seat"]]


def _look_back(seat_view: SeatView, key: tuple[int, int]) -> _Seen | None:
    """The latest earlier view of this same head card in which the seat was looking at it."""
    for ply in range(seat_view.ply - 1, -1, -1):
        view = seat_view.view_at(ply)
        if _head_key(view) != key:
            return None
        if view["head"] is not None:
            return _Seen(view["head"], view["flips"], ply)
    return None


def _still_true(seat_view: SeatView, key: tuple[int, int], seen: _Seen) -> bool:
    """Whether a remembered look belongs to this game (a bot may be seated in another one later)."""
    if seen.ply >= seat_view.ply:
        return False
    view = seat_view.view_at(seen.ply)
    return _head_key(view) == key and view["head"] == seen.kind


def _call_reason(view: dict[str, Any], seat: int) -> str:
    cards = [card for card in view["loose"] if card["owner"] != seat]
    named = " and ".join(f"{SEAT_NAMES[c['owner']]}'s {KIND_NAMES[c['kind']]}" for c in cards)
    return f"call Hats Off!: {named} lies loose, and the first other player to call wins it (O5, O6)"


class RandomRacer(RacerBot):
    """Any legal move at random, timed like a child: the ``random`` kind."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed, "child")
        self.name = "random"

    def _decide(self, seat_view: SeatView, slips: bool) -> Hint:
        move = self.rng.choice(moves_of(seat_view))
        if isinstance(move, Play):
            move = self._timed(move, ADULT_PLAY)
        elif isinstance(move, Call):
            move = self._timed(move, ADULT_CALL)
        return Hint(move, "picked at random among the legal moves")


BOTS: dict[str, Any] = {
    "random": RandomRacer,
    "greedy": partial(RacerBot, level="adult"),
    "strong": partial(RacerBot, level="quick adult"),
    **{name: partial(RacerBot, level=name) for name in LEVELS},
}
