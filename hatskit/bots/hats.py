"""The strong Hats bot: Monte Carlo over the cards it cannot see.

The bot knows only its seat's view. For every decision it deals the unseen
cards (other hands, other black hats, deck, discard pile) at random into many
*worlds* consistent with that view, plays each candidate move in every world,
finishes the game with quick random play and averages the final lead over the
best opponent (team against team with four players). The same worlds serve
every candidate, so the comparison between moves is fair. Candidates are
narrowed in two rounds: about 400 endings shared out among all of them (4 to
12 worlds each), then 96 worlds for each of the 8 best. On this project's
2-core machine a decision takes 0.4 s (median); see benchmarks/bench_hats.py.

It does not take the optional discard or swap itself: a card not yet drawn
cannot be judged well with a few hundred endings, and the main action is where
the points are. It does answer a partner's swap (H5), choosing the card by
the same simulation.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import Any

from hatskit.bots.base import Hint, margin
from hatskit.core import SeatView
from hatskit.hats import (
    Back,
    BlackHat,
    Discard,
    Exchange,
    HatsMove,
    HatsState,
    Swap,
    sample_world,
)


@dataclass(frozen=True)
class Estimate:
    """A candidate move and the lead it reached in each simulated ending."""

    move: HatsMove
    leads: tuple[int, ...]

    @property
    def mean(self) -> float:
        return fmean(self.leads)


class MonteCarloBot:
    """Samples the hidden cards and plays each candidate out; see the module docstring."""

    name = "strong"

    def __init__(self, seed: int = 0, first_round: int = 400, finalists: int = 8, final_round: int = 96) -> None:
        self.rng = random.Random(seed)
        self.first_round = first_round  # endings shared by all candidates: 4 to 12 worlds each
        self.finalists = finalists
        self.final_round = final_round  # worlds per finalist

    def choose(self, seat_view: SeatView) -> HatsMove:
        return self.hint(seat_view).move

    def hint(self, seat_view: SeatView) -> Hint:
        estimates = self.estimate(seat_view.view(), seat_view.legal_moves())
        return Hint(estimates[0].move, _reason(estimates))

    def estimate(self, view: dict[str, Any], legal: Sequence[HatsMove]) -> list[Estimate]:
        """Candidates ranked best first, after both rounds of simulation."""
        candidates: list[HatsMove] = [m for m in legal if not isinstance(m, Discard | Swap)] or list(legal)
        first_worlds = max(4, min(12, self.first_round // len(candidates)))
        worlds = [sample_world(view, self.rng) for _ in range(first_worlds)]
        ranked = self._rank(candidates, worlds, view["seat"])
        finalists = [e.move for e in ranked[: self.finalists]]
        worlds += [sample_world(view, self.rng) for _ in range(self.final_round - first_worlds)]
        return self._rank(finalists, worlds, view["seat"]) + ranked[self.finalists :]

    def _rank(self, moves: Sequence[HatsMove], worlds: Sequence[HatsState], seat: int) -> list[Estimate]:
        estimates = [Estimate(m, tuple(self._play_out(w, m, seat) for w in worlds)) for m in moves]
        return sorted(estimates, key=lambda e: e.mean, reverse=True)

    def _play_out(self, world: HatsState, move: HatsMove, seat: int) -> int:
        ending = world.copy()
        ending.apply(move)
        while ending.to_move is not None:
            ending.apply(rollout_move(ending, self.rng))
        return margin(ending.score(), seat)


def rollout_move(state: HatsState, rng: random.Random) -> HatsMove:
    """A quick random main action (or answer to a swap) for finishing a simulated game."""
    seat = state.to_move
    assert seat is not None
    card = rng.choice(state.hands[seat])
    if state.pending is not None:
        return Back(card)
    targets = [p for p in state.positions() if state._exchange_ok(card, p)]
    if targets and rng.random() < 0.85:
        return Exchange(card, rng.choice(targets))
    return BlackHat(card)


def _reason(ranked: Sequence[Estimate]) -> str:
    best = ranked[0]
    text = (
        f"in {len(best.leads)} simulated endings (the cards you cannot see dealt at random) it finished "
        f"on average {best.mean:+.1f} points against the best opponent"
    )
    if len(ranked) > 1:
        text += f"; the next best, {ranked[1].move}, averaged {ranked[1].mean:+.1f}"
    return text


BOTS = {"strong": MonteCarloBot}
