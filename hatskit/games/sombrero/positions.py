"""Sombrero positions: the S1 set-up, loading and saving the position format, a seat's view, worlds.

The format is described in ``docs/rulings.md`` ("Positions"); a loaded
position must agree with the rules, as the Sombrero decisions there say
(S2-S5). Everything in Sombrero is public, so a view is the whole position
and a sampled world is that position.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from hatskit.core import Outcome, RecordError, brief, make_options, options_dict, whole_number
from hatskit.games.sombrero import scoring
from hatskit.games.sombrero.components import (
    BLACK,
    EMPTY,
    ENDGAME_ACTIONS,
    HATLESS,
    HATTED,
    OWNER,
    QUIET_ACTIONS,
    SEAT_NAMES,
    SIDES,
    WHITE,
    SombreroOptions,
    parse_square,
    square_name,
    squares_of,
    start_board,
)
from hatskit.games.sombrero.state import SombreroState, has_action


def new_state(players: int | None, seed: int, options: SombreroOptions) -> SombreroState:
    """The S1 set-up for two (``SPEC.players``, checked before); no chance, so ``seed`` changes nothing."""
    del players, seed
    return SombreroState(options, start_board())


# ---------------------------------------------------------------- saving and viewing


def save_position(state: SombreroState) -> dict[str, Any]:
    """The position format, with the S2 and S5 counts and the last captures."""
    return {
        "game": "sombrero",
        "to_move": None if state.turn is None else SIDES[state.turn],
        "actions_left": state.actions_left,
        **{
            SIDES[seat]: {
                "hatted": squares_of(state.board, HATTED[seat]),
                "hatless": squares_of(state.board, HATLESS[seat]),
            }
            for seat in (WHITE, BLACK)
        },
        "options": options_dict(state.options),
        "endgame_actions": list(state.endgame_actions),
        "empty_turns": state.empty_turns,
        "last_captures": [square_name(square) for square in state.last_captures],
        "quiet_actions": state.quiet_actions,
    }


def view(state: SombreroState, seat: int | None) -> dict[str, Any]:
    """Everything is public in Sombrero, so every seat sees the same."""
    ending = scoring.outcome(state)
    return {
        "game": "sombrero",
        "seat": seat,
        "names": list(SEAT_NAMES),
        "to_move": state.turn,
        "actions_left": state.actions_left,
        "board": {
            square_name(square): {"side": OWNER[code], "hatted": code in HATTED}
            for square, code in enumerate(state.board)
            if code != EMPTY
        },
        "hats": [state.hats(WHITE), state.hats(BLACK)],
        "last_captures": [square_name(square) for square in state.last_captures],
        "endgame_counting": state.endgame_counting(),
        "endgame_actions": list(state.endgame_actions),
        "empty_turns": state.empty_turns,
        "quiet_actions": state.quiet_actions,
        "options": options_dict(state.options),
        "outcome": None if ending is None else ending.reason,
        "position": save_position(state),  # all of it is public: what a bot loads to think
    }


def sample_world(view: Mapping[str, Any], rng: random.Random) -> SombreroState:
    """The state a seat's view shows: Sombrero hides nothing, so there is nothing to sample."""
    del rng
    return load_position(view["position"])


# ---------------------------------------------------------------- loading


def load_position(data: Mapping[str, Any]) -> SombreroState:
    """A state from the position format; every inconsistency is a RecordError naming the field."""
    options = make_options(SombreroOptions, data.get("options", {}), "sombrero")
    board = [EMPTY] * 64
    for seat in (WHITE, BLACK):
        _place_side(board, data, seat)
    state = SombreroState(
        options,
        board,
        endgame_actions=_counters(data),
        empty_turns=whole_number(data.get("empty_turns", 0), "field 'empty_turns'", 0, 2),
        last_captures=_last_captures(data, board),
        quiet_actions=whole_number(data.get("quiet_actions", 0), "field 'quiet_actions'", 0, QUIET_ACTIONS),
    )
    _set_turn(state, data)
    return state


def _place_side(board: list[int], data: Mapping[str, Any], seat: int) -> None:
    """Put one side's hatted and hatless pieces on ``board``: never two on a square, never more than 8 (S1)."""
    side = SIDES[seat]
    pieces = data.get(side)
    if not isinstance(pieces, Mapping):
        raise RecordError(f"field {side!r} must be an object with 'hatted' and 'hatless' square lists")
    placed = 0
    for kind, code in (("hatted", HATTED[seat]), ("hatless", HATLESS[seat])):
        for square in _squares(pieces.get(kind, []), f"{side}.{kind}"):
            if board[square] != EMPTY:
                raise RecordError(f"field '{side}.{kind}': {square_name(square)} already holds a piece")
            board[square] = code
            placed += 1
    if placed > 8:
        raise RecordError(f"field {side!r}: a side has 8 pieces, not {placed} (S1)")


def _squares(names: object, where: str) -> list[int]:
    """The squares of a list of square names; a RecordError names the field ``where``."""
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise RecordError(f'field {where!r} must be a list of square names like "e4", not {names!r}')
    try:
        return [parse_square(name, RecordError) for name in names]
    except RecordError as error:
        raise RecordError(f"field {where!r}: {error}") from None


def _counters(data: Mapping[str, Any]) -> list[int]:
    """White's and Black's S5 counts, each from 0 to 20."""
    counters = data.get("endgame_actions", [0, 0])
    if not isinstance(counters, list) or len(counters) != 2:
        raise RecordError(f"field 'endgame_actions' must list White's and Black's S5 actions, not {brief(counters)}")
    return [whole_number(n, "field 'endgame_actions'", 0, ENDGAME_ACTIONS) for n in counters]


def _last_captures(data: Mapping[str, Any], board: Sequence[int]) -> list[int]:
    """The hats the last action took: hatless pieces now, of one side, each once (S3)."""
    squares = _squares(data.get("last_captures", []), "last_captures")
    for square in squares:
        if board[square] not in HATLESS:
            raise RecordError(f"field 'last_captures': {square_name(square)} holds no hatless piece")
    if len(set(squares)) != len(squares) or len({OWNER[board[square]] for square in squares}) > 1:
        raise RecordError("field 'last_captures': one action takes hats of one side, each once (S3)")
    return squares


def _set_turn(state: SombreroState, data: Mapping[str, Any]) -> None:
    """Set whose turn it is from ``to_move`` and ``actions_left``, checking them and the counts against the rules."""
    if max(state.hats(WHITE), state.hats(BLACK)) <= 1:
        raise RecordError("fields 'white' and 'black': both sides have at most one hatted piece (S4)")
    if any(state.endgame_actions) and max(state.hats(WHITE), state.hats(BLACK)) > 2:
        raise RecordError("field 'endgame_actions': S5 counts only once both sides have two hatted pieces")
    ending = scoring.ending(state)
    if ending is not None:
        _check_finished(data, ending[0])
        state.finish()
        return
    to_move = data.get("to_move")
    if to_move not in SIDES:
        raise RecordError(f'field \'to_move\' must be "white" or "black" while the game goes on, not {brief(to_move)}')
    state.turn = SIDES.index(to_move)
    state.actions_left = whole_number(data.get("actions_left", 2), "field 'actions_left'", 1, 2)
    _check_empty_turns(state)
    _check_last_captures(state)
    state.pass_over_stuck_sides()


def _check_finished(data: Mapping[str, Any], outcome: Outcome) -> None:
    """A finished game names nobody to move and has no actions left."""
    given_to_move, given_left = data.get("to_move"), data.get("actions_left", 0)
    if given_to_move is not None or isinstance(given_left, bool) or given_left != 0:
        raise RecordError(f"fields 'to_move' and 'actions_left' must be null and 0: the game is over ({outcome})")


def _check_empty_turns(state: SombreroState) -> None:
    """An empty turn is counted when a side cannot act; the next action sets the count back to 0 (S2)."""
    assert state.turn is not None
    if state.empty_turns != 1:
        return
    if state.actions_left != 2:
        raise RecordError("field 'empty_turns' must be 0: an action was made since the empty turn (S2)")
    if has_action(state.board, 1 - state.turn):
        raise RecordError(
            f"field 'empty_turns' must be 0: {SEAT_NAMES[1 - state.turn]} can act, so its turn was not empty (S2)"
        )


def _check_last_captures(state: SombreroState) -> None:
    """The hats the last action took belong to the side that did not make it (S3), and reset the quiet count."""
    assert state.turn is not None
    if state.last_captures and state.quiet_actions:
        raise RecordError("field 'quiet_actions' must be 0: the last action took a hat (S5)")
    actor = 1 - state.turn if state.actions_left == 2 and state.empty_turns == 0 else state.turn
    if any(OWNER[state.board[square]] == actor for square in state.last_captures):
        raise RecordError(
            f"field 'last_captures': the last action was {SEAT_NAMES[actor]}'s, "
            f"so the hats it took were {SEAT_NAMES[1 - actor]}'s (S3)"
        )
