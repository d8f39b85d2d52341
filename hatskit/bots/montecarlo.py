"""Monte Carlo over hidden cards: what the strong bots of the card games (Hats, Madder) share.

A bot knows only its seat's view. For a decision it deals the cards it cannot
see at random into many *worlds* that agree with the view (the game's
``sample_world``), plays each candidate move in every world, finishes with
quick play (the game's own ``play_out``) and averages the lead reached over
the best opponent. The same worlds serve every candidate, so the comparison
between moves is fair. Candidates are narrowed in two rounds: about
``first_round`` endings shared out among all of them (4 to 12 worlds each),
then ``final_round`` worlds for each of the ``finalists`` best. In the browser
(Pyodide) the final round stops at a time budget (:func:`default_budget`); the
numbers behind a hint say how many endings were actually played.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean, stdev
from typing import Any, ClassVar

from hatskit.bots.base import Hint, in_browser, moves_of
from hatskit.core import SeatView, State


@dataclass(frozen=True)
class Estimate:
    """A candidate move and the lead it reached in each simulated ending."""

    move: Any
    leads: tuple[int, ...]

    @property
    def mean(self) -> float:
        return fmean(self.leads)

    @property
    def error(self) -> float:
        """The standard error of the mean: how far chance alone could move it."""
        return stdev(self.leads) / len(self.leads) ** 0.5 if len(self.leads) > 1 else float("inf")


BROWSER_BUDGET = 1.5  # seconds a decision may take in the browser (Pyodide): a hint within 2 s (issue 11)
MIN_FINAL_WORLDS = 8  # worlds per finalist however short the time


def default_budget() -> float:
    """The time budget a strong bot gets where it runs: none on a server, ``BROWSER_BUDGET`` in the browser."""
    return BROWSER_BUDGET if in_browser() else 0.0


class MonteCarloBot:
    """Samples the hidden cards and plays each candidate out; a game's subclass says how."""

    name = "strong"
    sample_world: ClassVar[Callable[[Mapping[str, Any], random.Random], Any]]

    def __init__(
        self,
        seed: int = 0,
        first_round: int = 400,
        finalists: int = 8,
        final_round: int = 96,
        budget: float | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        self.first_round = first_round  # endings shared by all candidates: 4 to 12 worlds each
        self.finalists = finalists
        self.final_round = final_round  # worlds per finalist
        self.budget = default_budget() if budget is None else budget  # seconds per decision; 0: no limit

    def choose(self, seat_view: SeatView) -> Any:
        return self.hint(seat_view).move

    def hint(self, seat_view: SeatView) -> Hint:
        legal = moves_of(seat_view)
        if len(legal) == 1:
            return Hint(legal[0], "it is the only move there is")
        view = seat_view.view()
        return self.explain(self.estimate(view, legal), view)

    def estimate(self, view: Mapping[str, Any], legal: Sequence[Any]) -> list[Estimate]:
        """Candidates ranked best first, after both rounds of simulation."""
        started = time.perf_counter()
        candidates = self.candidates(legal)
        first_worlds = max(4, min(12, self.first_round // len(candidates)))
        sample = type(self).sample_world
        worlds = [sample(view, self.rng) for _ in range(first_worlds)]
        ranked = self._rank(candidates, worlds, view["seat"])
        finalists = [e.move for e in ranked[: self.finalists]]
        final_worlds = self._final_worlds(time.perf_counter() - started, first_worlds * len(candidates), len(finalists))
        worlds += [sample(view, self.rng) for _ in range(final_worlds - first_worlds)]
        return self._rank(finalists, worlds, view["seat"]) + ranked[self.finalists :]

    def _final_worlds(self, spent: float, endings: int, finalists: int) -> int:
        """Worlds per finalist: ``final_round``, or as many as the rest of the time budget pays for (at least
        ``MIN_FINAL_WORLDS``), judged by what the first round's endings cost."""
        if not self.budget:
            return self.final_round
        affordable = (self.budget - spent) / (max(spent / endings, 1e-9) * finalists)
        return max(MIN_FINAL_WORLDS, min(self.final_round, int(affordable)))

    def _rank(self, moves: Sequence[Any], worlds: Sequence[State], seat: int) -> list[Estimate]:
        estimates = [Estimate(m, tuple(self.play_out(w, m, seat) for w in worlds)) for m in moves]
        return sorted(estimates, key=lambda e: e.mean, reverse=True)

    def candidates(self, legal: Sequence[Any]) -> list[Any]:
        """The moves worth simulating (all of them unless a game says otherwise)."""
        return list(legal)

    def play_out(self, world: Any, move: Any, seat: int) -> int:
        """Play ``move`` in (a copy of) ``world``, finish quickly and return ``seat``'s lead."""
        raise NotImplementedError

    def explain(self, ranked: Sequence[Estimate], view: Mapping[str, Any]) -> Hint:
        """The best candidate as a hint."""
        raise NotImplementedError


def simulation_summary(ranked: Sequence[Estimate], ending: str) -> str:
    """The numbers behind a choice: its average lead and the runner-up's."""
    best = ranked[0]
    text = (
        f"in {len(best.leads)} simulated {ending} (the cards you cannot see dealt at random) it finished "
        f"on average {best.mean:+.1f} points against the best opponent"
    )
    if len(ranked) > 1:
        text += f"; the next best, {ranked[1].move}, averaged {ranked[1].mean:+.1f}"
    return text
