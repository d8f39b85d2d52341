"""The events of a Sombrero action, told from the states before and after it.

In order: the action (S2), each hat it took and the two pieces that flanked
it (S3, from ``last_captures``, kept on the state in the order they were
taken), then either the end of the game, or the S5 count starting, the quiet
count's warning (S5) and the sides passed over because they could not act
(S2), and the end if the second empty turn drew the game. Rulings in
``docs/rulings.md``.
"""

from __future__ import annotations

from hatskit.core import Event
from hatskit.games.sombrero import scoring
from hatskit.games.sombrero.components import QUIET_ACTIONS, QUIET_WARNING, SEAT_NAMES, square_name
from hatskit.games.sombrero.moves import SombreroMove, Step
from hatskit.games.sombrero.state import SombreroState, flanked_runs, passed_over


def narrate(before: SombreroState, after: SombreroState, move: SombreroMove) -> list[Event]:
    """The events of ``move``, which took ``before`` to ``after``."""
    seat = before.turn
    assert seat is not None, "the game was over"
    events = [action_event(move, seat), *capture_events(after, move, seat)]
    ending = scoring.ending(after)
    if ending is not None and after.empty_turns < 2:  # the action itself ended the game (S4, S5)
        return [*events, Event(ending[0].reason, ending[1])]
    events += count_events(before, after) + pass_events(before, after, seat)
    if ending is not None:  # the second empty turn in a row (S2)
        events.append(Event(ending[0].reason, ending[1]))
    return events


def action_event(move: SombreroMove, seat: int) -> Event:
    """What ``seat`` did: a step, or a hat passed on (S2)."""
    name = SEAT_NAMES[seat]
    if isinstance(move, Step):
        return Event(f"{name} stepped {move}", "S2")
    origin, target = square_name(move.origin), square_name(move.target)
    return Event(f"{name} passed the hat of {origin} to {target} ({move}): {origin} is now hatless", "S2")


def capture_events(after: SombreroState, move: SombreroMove, seat: int) -> list[Event]:
    """Every hat the action took, with the piece that acted and the one that closed the run (S3)."""
    closers = {square: closer for run, closer in flanked_runs(after.board, move.target, seat) for square in run}
    flanker = square_name(move.target)
    return [
        Event(f"{square_name(square)} lost its hat: flanked by {flanker} and {square_name(closers[square])} (S3)", "S3")
        for square in after.last_captures
    ]


def count_events(before: SombreroState, after: SombreroState) -> list[Event]:
    """The S5 count starting at two hatted pieces a side, and the quiet count's warning (S5)."""
    events = []
    if not before.endgame_counting() and after.endgame_counting():
        events.append(Event("Both sides have two hatted pieces: after 20 more actions each it is a draw (S5)", "S5"))
    if after.quiet_actions == QUIET_WARNING:
        warning = f"No hat taken in {QUIET_WARNING} actions: if the next {QUIET_ACTIONS - QUIET_WARNING} take none"
        events.append(Event(f"{warning}, the game is a draw (S5)", "S5"))
    return events


def pass_events(before: SombreroState, after: SombreroState, seat: int) -> list[Event]:
    """The sides passed over after the action because they could not act (S2).

    They follow from the board after the action: the same walk ``advance``
    made, from the mover's second action or the opponent's turn.
    """
    left = before.actions_left - 1
    turn, left = (seat, left) if left else (1 - seat, 2)
    events, empty = [], 0
    for stuck, stuck_left in passed_over(after.board, turn, left, 0):
        name = SEAT_NAMES[stuck]
        if stuck_left == 1:
            events.append(Event(f"{name} has no second action: the turn ends early (S2)", "S2"))
        else:
            empty += 1
            events.append(Event(f"{name} cannot act: an empty turn ({empty} in a row) (S2)", "S2"))
    return events
