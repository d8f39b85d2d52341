"""The strong Hats bot: Monte Carlo over the cards it cannot see.

The bot knows only its seat's view. For every decision it deals the unseen
cards (other hands, other black hats, deck, discard pile) at random into many
*worlds* consistent with that view, plays each candidate move in every world,
finishes the game with quick random play and averages the final lead over the
best opponent (team against team with four players). The same worlds serve
every candidate, so the comparison between moves is fair. Main actions are
narrowed in two rounds: about 400 endings shared out among all of them (4 to
12 worlds each), then 96 worlds for each of the 8 best.

The optional action (H4's discard, or H5's swap with four players) is weighed
first, in its own worlds: each world keeps the card, or gives it away and gets
the world's card in return (the deck's top card, or a card of the partner's
hand), then plays the main action that scores the most points at once
(:func:`quick_main_action`) and finishes at random. The difference between
the two endings, world by world, is what giving that card away is worth. The
bot takes the optional action only when that gain is clearly positive: at
least :data:`OPTIONAL_MARGIN` points on average and two standard errors above
nothing. Its main action is then chosen on the next call, with the new card
in hand. On this project's 2-core machine a decision takes about 0.5 s
(median); see benchmarks/bench_hats.py.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from hatskit.bots.base import Hint, margin
from hatskit.bots.hats.hints import describe, exchange_targets
from hatskit.bots.montecarlo import Estimate, MonteCarloBot, simulation_summary
from hatskit.core import SeatView
from hatskit.hats import (
    Back,
    BlackHat,
    Card,
    Discard,
    Exchange,
    HatsMove,
    HatsState,
    Swap,
    face_up_positions,
    favorite_line,
    sample_world,
)

OPTIONAL_MARGIN = 0.5  # points an optional action must gain on average before the bot takes it


def clearly_positive(estimate: Estimate) -> bool:
    """Whether an optional action's gain is worth taking: big enough, and more than chance could explain."""
    return estimate.mean >= max(OPTIONAL_MARGIN, 2 * estimate.error)


class HatsBot(MonteCarloBot):
    """The shared Monte Carlo bot, plus the optional action weighed first; see the module docstring."""

    sample_world = staticmethod(sample_world)

    def __init__(
        self,
        seed: int = 0,
        first_round: int = 400,
        finalists: int = 8,
        final_round: int = 96,
        optional_worlds: int = 48,
        optional_cards: int = 3,
        budget: float | None = None,
    ) -> None:
        super().__init__(seed, first_round, finalists, final_round, budget)
        self.optional_worlds = optional_worlds  # worlds per card an optional action could give away
        self.optional_cards = optional_cards  # the weakest cards of the hand that are weighed for it

    def hint(self, seat_view: SeatView) -> Hint:
        view, legal = seat_view.view(), seat_view.legal_moves()
        optional = self.weigh_optional(view, legal)
        if optional and clearly_positive(optional[0]):
            move = optional[0].move
            return Hint(move, describe(view, move), _optional_detail(optional, taken=True))
        estimates = self.estimate(view, legal)
        move = estimates[0].move
        return Hint(move, describe(view, move), _main_detail(estimates) + _optional_detail(optional, taken=False))

    def candidates(self, legal: Sequence[HatsMove]) -> list[HatsMove]:
        """Main actions (or answers to a swap): the optional action is weighed on its own, first."""
        return [m for m in legal if not isinstance(m, Discard | Swap)]

    def play_out(self, world: HatsState, move: HatsMove, seat: int) -> int:
        ending = world.copy()
        ending.advance(move)
        return finish(ending, seat, self.rng)

    def weigh_optional(self, view: dict[str, Any], legal: Sequence[HatsMove]) -> list[Estimate]:
        """Each optional action with its gain over keeping the card, world by world; best first."""
        optional = [m for m in legal if isinstance(m, Discard | Swap)]
        if not optional:
            return []
        seat, worlds = view["seat"], [sample_world(view, self.rng) for _ in range(self.optional_worlds)]
        optional = weakest(optional, worlds[0], self.optional_cards)
        seeds = [self.rng.random() for _ in worlds]
        kept = [self._follow_up(world, None, seat, seed) for world, seed in zip(worlds, seeds, strict=True)]
        estimates = [
            Estimate(m, tuple(self._follow_up(w, m, seat, s) - k for w, s, k in zip(worlds, seeds, kept, strict=True)))
            for m in optional
        ]
        return sorted(estimates, key=lambda e: e.mean, reverse=True)

    @staticmethod
    def _follow_up(world: HatsState, optional: Discard | Swap | None, seat: int, seed: float) -> int:
        """The ending after ``optional`` (or none), the partner's random answer and the best-scoring main action.

        Both arms of a comparison use the same ``seed`` for their random play.
        """
        rng, ending = random.Random(seed), world.copy()
        if optional is not None:
            ending.advance(optional)
        while ending.to_move != seat:  # the partner answers a swap
            ending.advance(rollout_move(ending, rng))
        ending.advance(quick_main_action(ending, seat))
        return finish(ending, seat, rng, quick=True)


def weakest(moves: list[Discard | Swap], world: HatsState, count: int) -> list[Discard | Swap]:
    """The ``count`` moves whose cards can take the fewest table cards (H2), the lowest values first."""
    return sorted(moves, key=lambda m: (len(exchange_targets(world, m.card)), m.card.value))[:count]


def finish(state: HatsState, seat: int, rng: random.Random, quick: bool = False) -> int:
    """Play ``state`` to the end at random; ``seat``'s final lead over the best other side.

    With ``quick``, ``seat`` itself plays :func:`quick_main_action` instead, so
    that the cards in its hand are put to use and a better card shows.
    """
    while state.to_move is not None:
        own = quick and state.to_move == seat and state.pending is None
        state.advance(quick_main_action(state, seat) if own else rollout_move(state, rng))
    return margin(state.score(), seat)


def rollout_move(state: HatsState, rng: random.Random) -> HatsMove:
    """A quick random main action (or answer to a swap) for finishing a simulated game."""
    seat = state.to_move
    assert seat is not None
    card = rng.choice(state.hands[seat])
    if state.pending is not None:
        return Back(card)
    targets = exchange_targets(state, card)
    if targets and rng.random() < 0.85:
        return Exchange(card, rng.choice(targets))
    return BlackHat(card)


def quick_main_action(state: HatsState, seat: int) -> HatsMove:
    """The main action that raises ``seat``'s points the most at once, looking no further.

    It counts collection points (H8), a black hat's 1 point, and the best
    favorite the cards left in hand could still make (H9), so that a low card
    worth keeping to the end is not thrown onto the table for a few points.
    Cookie and opponents are left out: it is quick. Ties go to the first
    found, low cards first and black hats before exchanges.
    """
    hand, table, collection = state.hands[seat], state.table, state.collections[seat]
    kinds = Counter(card.kind for card in collection)
    favorites = {card: favorite_line(seat, card, collection).points for card in hand}
    before = _points(kinds, face_up_positions(table))
    best: tuple[int, HatsMove] | None = None
    for card in sorted(hand, key=lambda card: card.value):
        options: list[tuple[HatsMove, Card | None, int]] = [(BlackHat(card), None, 1)]
        for position, there in enumerate(table, start=1):
            if card.kind == there.kind or card.value > there.value:
                changed = [*table[: position - 1], card, *table[position:]]
                kinds[there.kind] += 1
                points = _points(kinds, face_up_positions(changed)) - before
                kinds[there.kind] -= 1
                options.append((Exchange(card, position), there, points))
        for move, taken, gain in options:
            gain += _best_favorite(favorites, card, taken)
            if best is None or gain > best[0]:
                best = gain, move
    assert best is not None, "a main action needs a card in hand"
    return best[1]


def _best_favorite(favorites: dict[Card, int], played: Card, taken: Card | None) -> int:
    """The best favorite left in hand after ``played`` goes and ``taken`` joins the collection (H9)."""
    left = [
        points + (taken.value if taken is not None and taken.kind == card.kind else 0)
        for card, points in favorites.items()
        if card != played
    ]
    return max(left, default=0)


def _points(kinds: Counter[str], face_up: dict[str, int]) -> int:
    return sum(count * face_up.get(kind, 0) for kind, count in kinds.items())


def _main_detail(ranked: Sequence[Estimate]) -> str:
    summary = simulation_summary(ranked, "endings")
    return f"{summary[0].upper()}{summary[1:]}."


def _optional_detail(optional: Sequence[Estimate], taken: bool) -> str:
    if not optional:
        return ""
    best = optional[0]
    what = "discard" if isinstance(best.move, Discard) else "swap"
    gain = (
        f"giving {best.move.card} away and then making the best-scoring main action ended on average "
        f"{best.mean:+.1f} points (give or take {best.error:.1f}) against keeping it, in {len(best.leads)} "
        f"simulated games"
    )
    if taken:
        return f"Before the main action, a {what} is worth it here: {gain}."
    return f" The best {what}, {best.move}, would not help clearly enough: {gain}."


BOTS = {"strong": HatsBot}
