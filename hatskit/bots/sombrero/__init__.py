"""Sombrero bots that plan whole turns: a one-turn ``greedy`` and an alpha-beta ``strong``.

A Sombrero turn is two actions by the same side (S2), so both bots choose a
whole turn, play its first action and remember the second: the next call plays
it if the position is the one they planned for (else they plan afresh).

Both make progress: they know the positions their seat has seen
(``SeatView.past_views``) and do not steer back into one when another turn is
about as good (the greedy bot among equal turns, the strong bot within
:data:`~hatskit.bots.sombrero.search.REPEAT_COST`), so a game between two
bots does not shuffle one piece back and forth.

A hint's sentence says what the suggested action does on the board
(:mod:`hatskit.bots.sombrero.hints`); the numbers behind it go into its detail.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from hatskit.bots.base import Hint, in_browser
from hatskit.bots.sombrero.hints import describe, search_detail, turn_text
from hatskit.bots.sombrero.search import bitboards, reach, search_turn, turn_start_key, turns
from hatskit.core import SeatView
from hatskit.sombrero import HATTED, SEAT_NAMES, Action, SombreroMove, SombreroState, load_position, move_of

Board = tuple[int, ...]
PositionKey = tuple[Board, int | None, int]


@dataclass(frozen=True)
class Plan:
    """A turn chosen by a bot: its actions, and the numbers behind the choice in plain words."""

    actions: tuple[Action, ...]
    detail: str


def turn_starts(seat_view: SeatView) -> Counter[tuple[Board, int]]:
    """How often the game has stood at each position where a side starts its turn (board, side)."""
    seen: Counter[tuple[Board, int]] = Counter()
    for view in seat_view.past_views():
        state = load_position(view["position"])
        if state.turn is not None and state.actions_left == 2:
            seen[tuple(state.board), state.turn] += 1
    return seen


def _position_key(state: SombreroState) -> PositionKey:
    return tuple(state.board), state.turn, state.actions_left


class TurnBot:
    """Plays a planned turn action by action; subclasses say how to plan one."""

    name = "turn"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self._pending: tuple[PositionKey, SombreroMove, str] | None = None

    def choose(self, seat_view: SeatView) -> SombreroMove:
        return self._rest_of_turn(seat_view)[1][0]

    def hint(self, seat_view: SeatView) -> Hint:
        """The next action of the planned turn, what the rest of the turn does, and the numbers behind it."""
        state, moves, detail = self._rest_of_turn(seat_view)
        return Hint(moves[0], describe(state, moves), detail)

    def _rest_of_turn(self, seat_view: SeatView) -> tuple[SombreroState, list[SombreroMove], str]:
        """The position, the actions of the planned turn still to play and the plan's detail.

        Plans when needed; otherwise plays the second action it remembered.
        """
        state = seat_view.sample_world(self.rng)
        assert isinstance(state, SombreroState) and state.turn is not None, "a Sombrero game in progress"
        if self._pending is not None and self._pending[0] == _position_key(state):
            return state, [self._pending[1]], self._pending[2]
        plan = self.plan(state, turn_starts(seat_view))
        moves = [move_of(state.board, plan.actions[0])]
        after = state.copy()
        after.apply(moves[0])
        self._pending = None
        if len(plan.actions) > 1 and after.turn == state.turn:
            moves.append(move_of(after.board, plan.actions[1]))
            self._pending = _position_key(after), moves[1], plan.detail
        return state, moves, plan.detail

    def plan(self, state: SombreroState, seen: Counter[tuple[Board, int]]) -> Plan:
        """The turn to play from ``state``, knowing how often each turn start was ``seen``."""
        raise NotImplementedError


class SombreroGreedy(TurnBot):
    """Best one-turn gain: hats taken this turn minus the hats left exposed.

    *Exposed* means the most hats the opponent could take with a single action
    right after the turn. A turn that wins (S4) beats everything, the shortest
    first. Among equal gains a turn that ends in a position seen less often
    wins, then chance decides. Turns of the same length that reach the same
    board are weighed once.
    """

    name = "greedy"

    def plan(self, state: SombreroState, seen: Counter[tuple[Board, int]]) -> Plan:
        seat, jump_captures = state.turn, state.options.jump_captures
        assert seat is not None
        board, best, weighed = list(state.board), None, set()
        for actions, taken in turns(board, seat, state.actions_left, jump_captures):
            key = tuple(board), len(actions)
            if key in weighed:
                continue
            weighed.add(key)
            won = board.count(HATTED[1 - seat]) <= 1
            exposed = 0 if won else reach(board, bitboards(board), 1 - seat, jump_captures).one_action
            urgency = 3 - len(actions) if won else 0  # any win first, and the sooner the better
            score = (urgency, len(taken) - exposed, -seen[key[0], 1 - seat], self.rng.random())
            if best is None or score > best[0]:
                best = score, actions, len(taken), exposed
        assert best is not None, "the engine never leaves a side to move without an action"
        _, actions, taken, exposed = best
        detail = (
            f"The greedy bot looks at this turn only. The turn {turn_text(state, actions)} takes {taken} hat(s) "
            f"and leaves {SEAT_NAMES[1 - seat]} at most {exposed} to take with one action."
        )
        return Plan(actions, detail)


SERVER_NODES = 50_000  # about 0.7-1 s a turn on the project's 2-core machine (benchmarks/bench_sombrero.py)
# In the browser (Pyodide) the search runs about 3.2 times slower (benchmarks/site.py): 50,000 positions took
# 2.2 s there, 20,000 take about 0.9 s, so a hint comes within 2 s on a laptop twice as slow (issue 11).
BROWSER_NODES = 20_000


def default_nodes() -> int:
    """The positions a strong bot searches per turn where it runs: fewer in the browser."""
    return BROWSER_NODES if in_browser() else SERVER_NODES


class SombreroStrong(TurnBot):
    """Alpha-beta over whole turns with iterative deepening, limited to ``nodes`` positions per turn.

    A node limit instead of a time limit makes the same position get the same
    hint on every machine of a kind (server or browser: :func:`default_nodes`).
    """

    name = "strong"

    def __init__(self, seed: int = 0, nodes: int | None = None) -> None:
        super().__init__(seed)
        self.nodes = default_nodes() if nodes is None else nodes

    def plan(self, state: SombreroState, seen: Counter[tuple[Board, int]]) -> Plan:
        keys = Counter({turn_start_key(list(board), side): count for (board, side), count in seen.items()})
        result = search_turn(state, keys, self.nodes, self.rng)
        return Plan(result.actions, search_detail(state, result))


BOTS = {"greedy": SombreroGreedy, "strong": SombreroStrong}
