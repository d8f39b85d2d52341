"""What every bot shares: the Bot protocol, hints, and the random and greedy bots."""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from typing import Any, Protocol

from hatskit.core import GameSpec, ScoreSheet, SeatView, State, UsageError


def in_browser() -> bool:
    """True where Python runs in the reader's browser (Pyodide, the static site), where it runs slower than on the
    server (docs/static-site.md has the figures): the strong bots think less there, so a hint comes within 2 s."""
    return sys.platform == "emscripten"


@dataclass(frozen=True)
class Hint:
    """A suggested move, one sentence a 12-year-old follows, and the numbers behind it.

    ``reason`` is what a table shows ("this puts your third ♠ on position 6");
    ``detail`` is for the curious, folded away behind a "why?".
    """

    move: Any
    reason: str
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.move}: {self.reason}"


class Bot(Protocol):
    """Anything that picks a move for a seat from what that seat may know."""

    name: str

    def choose(self, seat_view: SeatView) -> Any: ...
    def hint(self, seat_view: SeatView) -> Hint: ...


def moves_of(seat_view: SeatView) -> list[Any]:
    """The seat's legal moves, or a UsageError saying it has none: no bot is asked to move a seat that cannot."""
    legal = seat_view.legal_moves()
    if not legal:
        name = seat_view.seat_names[seat_view.seat]
        raise UsageError(f"{name} (seat {seat_view.seat}) has no move to make now, so no bot can choose one")
    return legal


def margin(sheet: ScoreSheet, seat: int) -> int:
    """Points ahead of the best other side (teams count as one side)."""
    totals, teams = sheet.totals, sheet.teams
    if teams is not None:
        team_totals = sheet.team_totals or []
        mine = next(i for i, team in enumerate(teams) if seat in team)
        return team_totals[mine] - max(t for i, t in enumerate(team_totals) if i != mine)
    return totals[seat] - max(t for s, t in enumerate(totals) if s != seat)


class RandomBot:
    """Plays a uniformly random legal move."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, seat_view: SeatView) -> Any:
        return self.rng.choice(moves_of(seat_view))

    def hint(self, seat_view: SeatView) -> Hint:
        return Hint(self.choose(seat_view), "picked at random among the legal moves")


class GreedyBot:
    """Looks one move ahead: the move that most improves its lead on the score sheet.

    It tries each move in one world sampled from its seat's view and reads the
    public score sheet there, which does not depend on the cards it cannot see.
    """

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, seat_view: SeatView) -> Any:
        return self.hint(seat_view).move

    def hint(self, seat_view: SeatView) -> Hint:
        seat = seat_view.seat
        before = margin(seat_view.score(), seat)
        world = seat_view.sample_world(self.rng)
        gains = {move: self._margin_after(seat_view.spec, world, move, seat) - before for move in moves_of(seat_view)}
        best = max(gains.values())
        move = self.rng.choice([m for m, gain in gains.items() if gain == best])
        return Hint(move, f"changes the lead over the best opponent by {best:+d} points right now")

    @staticmethod
    def _margin_after(spec: GameSpec, world: State, move: Any, seat: int) -> int:
        after = world.copy()
        after.advance(move)
        return margin(spec.score(after), seat)
