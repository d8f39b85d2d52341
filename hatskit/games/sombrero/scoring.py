"""Sombrero's score sheet and outcome: the hatted pieces each side has (S4), and how a game ends.

A game ends when a side has one hatted piece or none (S4), when both sides
made their 20 actions at two hatted pieces a side or 80 actions in a row took
no hat (S5), or after two empty turns in a row (S2); rulings in
``docs/rulings.md``. The functions read a state but import none, so the rules
in ``state`` can ask whether the game has ended.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hatskit.core import Outcome, ScoreLine, ScoreSheet
from hatskit.games.sombrero.components import (
    BLACK,
    ENDGAME_ACTIONS,
    HATTED,
    QUIET_ACTIONS,
    SEAT_NAMES,
    WHITE,
    squares_of,
)

if TYPE_CHECKING:
    from hatskit.games.sombrero.state import SombreroState


def ending(state: SombreroState) -> tuple[Outcome, str] | None:
    """How the game ended (the outcome and its ruling's id), or None while it goes on."""
    for loser in (WHITE, BLACK):
        left = state.hats(loser)
        if left <= 1:
            winner = 1 - loser
            what = "only one hatted piece" if left else "no hatted piece"
            reason = f"{SEAT_NAMES[winner]} wins: {SEAT_NAMES[loser]} has {what} left (S4)"
            return Outcome((winner,), reason), "S4"
    return _draw(state)


def _draw(state: SombreroState) -> tuple[Outcome, str] | None:
    """The draw the counts have reached (S5, then S2, then the quiet count), if any."""
    if min(state.endgame_actions) >= ENDGAME_ACTIONS:
        reason = f"draw: both sides made {ENDGAME_ACTIONS} actions with two hatted pieces each (S5)"
        return Outcome((), reason), "S5"
    if state.empty_turns >= 2:
        return Outcome((), "draw: two turns in a row passed without any action (S2)"), "S2"
    if state.quiet_actions >= QUIET_ACTIONS:
        reason = f"draw: {QUIET_ACTIONS} actions in a row ({QUIET_ACTIONS // 4} turns a side) took no hat (S5)"
        return Outcome((), reason), "S5"
    return None


def outcome(state: SombreroState) -> Outcome | None:
    """Who won and why (S4), or the draw and its rule (S2, S5); None while playing."""
    ended = ending(state)
    return None if ended is None else ended[0]


def score(state: SombreroState) -> ScoreSheet:
    """One line per side: its hatted pieces, the count that decides S4; it names their squares, so the table
    can point at them."""
    lines = []
    for seat in (WHITE, BLACK):
        squares = squares_of(state.board, HATTED[seat])
        where = f"hatted on {', '.join(squares)}" if squares else "no hatted piece"
        explanation = f"{where} (one or none left loses, S4)"
        lines.append(ScoreLine(seat, "hats", len(squares), explanation, shows=tuple(squares)))
    return ScoreSheet(tuple(lines), SEAT_NAMES, final=state.turn is None)
