"""Hats Off! scoring: the score sheet of won cards (O7), rounds won in a match, and the outcome.

``state`` imports ``round_wins`` to know when a match is decided, so this
module reads the state only as a type (ruling O7 in ``docs/rulings.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from hatskit.core import Outcome, ScoreLine, ScoreSheet

if TYPE_CHECKING:
    from hatskit.games.hats_off.state import HatsOffState


def round_wins(round_results: Sequence[Sequence[int]], players: int) -> list[int]:
    """Rounds won per seat; a shared round counts for each player who shared it (O7)."""
    wins = [0] * players
    for counts in round_results:
        for seat in leaders(counts):
            wins[seat] += 1
    return wins


def score(state: HatsOffState) -> ScoreSheet:
    """Won cards per seat (O7); in a match, the rounds won, with this round's cards told apart."""
    names = state.seat_names()
    if state.options.best_of == 1:
        lines = [line for seat in range(state.players) for line in _card_lines(state, seat)]
        return ScoreSheet(tuple(lines), names, final=state.is_over)
    lines = [line for seat in range(state.players) for line in _round_lines(state, seat)]
    note = "" if state.is_over else "a match counts rounds won; this round's cards decide who wins it"
    return ScoreSheet(tuple(lines), names, final=state.is_over, note=note)


def _card_lines(state: HatsOffState, seat: int) -> list[ScoreLine]:
    calls = state.called[seat]
    piles = len(state.won[seat]) - calls
    return [
        ScoreLine(seat, "piles", piles, f"{cards(piles)} won by matching the top card (O3)"),
        ScoreLine(seat, "Hats Off! calls", calls, f"{cards(calls)} won by calling Hats Off! (O5, O6)"),
    ]


def _round_lines(state: HatsOffState, seat: int) -> list[ScoreLine]:
    lines = []
    for number, counts in enumerate(state.round_results, start=1):
        won = seat in leaders(counts)
        shared = " (shared)" if won and len(leaders(counts)) > 1 else ""
        why = f"{cards(counts[seat])}: the most, round won{shared} (O7)" if won else f"{cards(counts[seat])}"
        lines.append(ScoreLine(seat, f"round {number}", int(won), why))
    if not state.is_over:
        piles = len(state.won[seat]) - state.called[seat]
        so_far = f"{cards(len(state.won[seat]))} so far ({piles} from piles, {state.called[seat]} from calls)"
        lines.append(ScoreLine(seat, f"round {state.round} so far", 0, so_far))
    return lines


def outcome(state: HatsOffState) -> Outcome | None:
    """Most won cards, equal counts sharing (O7); a match: most rounds, then most cards over the match."""
    if not state.is_over:
        return None
    names = state.seat_names()
    if state.options.best_of == 1:
        counts = state.round_results[-1]
        return _winners_outcome(leaders(counts), names, f"{cards(max(counts))}", "")
    wins = round_wins(state.round_results, state.players)
    first = leaders(wins)
    rounds = f"{wins[first[0]]} round{'s' if wins[first[0]] != 1 else ''} won"
    if len(first) == 1:
        return _winners_outcome(first, names, rounds, " the match")
    totals = [sum(counts[seat] for counts in state.round_results) for seat in range(state.players)]
    best = max(totals[seat] for seat in first)
    winners = [seat for seat in first if totals[seat] == best]
    return _winners_outcome(winners, names, f"{rounds}, then {cards(best)} over the match", " the match")


def cards(count: int) -> str:
    """``1 card``, ``3 cards``."""
    return f"{count} card" if count == 1 else f"{count} cards"


def leaders(values: Sequence[int]) -> list[int]:
    """The seats with the highest value."""
    best = max(values)
    return [seat for seat, value in enumerate(values) if value == best]


def _winners_outcome(winners: Sequence[int], names: Sequence[str], what: str, match: str) -> Outcome:
    who = " and ".join(names[s] for s in winners)
    if len(winners) == 1:
        return Outcome(tuple(winners), f"{who} wins{match} with {what} (O7)")
    return Outcome(tuple(winners), f"{who} share the win{match}: {what} each (O7)")
