"""What every bot shares: the Bot protocol, hints, and the random and greedy bots."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol

from hatskit.core import Game, ScoreSheet


@dataclass(frozen=True)
class Hint:
    """A suggested move and a reason a reader can follow."""

    move: Any
    reason: str

    def __str__(self) -> str:
        return f"{self.move}: {self.reason}"


class Bot(Protocol):
    """Anything that picks a move for the seat to move."""

    name: str

    def choose(self, game: Game) -> Any: ...
    def hint(self, game: Game) -> Hint: ...


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

    def choose(self, game: Game) -> Any:
        return self.rng.choice(game.legal_moves())

    def hint(self, game: Game) -> Hint:
        return Hint(self.choose(game), "picked at random among the legal moves")


class GreedyBot:
    """Looks one move ahead: the move that most improves its lead on the score sheet.

    The score sheet only holds public information, so trying a move on a copy
    of the state tells this bot nothing its seat may not know.
    """

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Any:
        return self.hint(game).move

    def hint(self, game: Game) -> Hint:
        seat = game.to_move
        assert seat is not None, "the game is over"
        before = margin(game.score(), seat)
        gains = {move: self._margin_after(game, move, seat) - before for move in game.legal_moves()}
        best = max(gains.values())
        move = self.rng.choice([m for m, gain in gains.items() if gain == best])
        return Hint(move, f"changes the lead over the best opponent by {best:+d} points right now")

    @staticmethod
    def _margin_after(game: Game, move: Any, seat: int) -> int:
        after = game.state.copy()
        after.apply(move)
        return margin(after.score(), seat)
