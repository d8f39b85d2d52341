"""The strong Hats bot: Monte Carlo over the cards it cannot see.

The bot knows only its seat's view. The machinery is the one every card
game's strong bot shares (:mod:`hatskit.bots.montecarlo`): it deals the unseen
cards (other hands, other black hats, deck, discard pile) at random into many
worlds consistent with that view, plays each candidate in every world,
finishes the game with quick random play and averages the final lead over the
best opponent (team against team with four players): about 400 endings shared
out among all candidates, then 96 worlds for each of the 8 best. On this project's
2-core machine a decision takes 0.4 s (median); see benchmarks/bench_hats.py.

It does not take the optional discard or swap itself: a card not yet drawn
cannot be judged well with a few hundred endings, and the main action is where
the points are. It does answer a partner's swap (H5), choosing the card by
the same simulation.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from hatskit.bots.base import Hint, margin
from hatskit.bots.montecarlo import Estimate, MonteCarloBot, simulation_summary
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


class HatsBot(MonteCarloBot):
    """Samples the hidden cards and plays each candidate to the end; see the module docstring."""

    sample_world = staticmethod(sample_world)

    def candidates(self, legal: Sequence[HatsMove]) -> list[HatsMove]:
        return [m for m in legal if not isinstance(m, Discard | Swap)] or list(legal)

    def play_out(self, world: HatsState, move: HatsMove, seat: int) -> int:
        ending = world.copy()
        ending.apply(move)
        while ending.to_move is not None:
            ending.apply(rollout_move(ending, self.rng))
        return margin(ending.score(), seat)

    def explain(self, ranked: Sequence[Estimate], view: Mapping[str, Any]) -> Hint:
        return Hint(ranked[0].move, simulation_summary(ranked, "endings"))


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


BOTS = {"strong": HatsBot}
