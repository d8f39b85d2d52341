"""Sombrero bots that plan whole turns: a one-turn ``greedy`` and an alpha-beta ``strong``.

A Sombrero turn is two actions by the same side (S2), so both bots choose a
whole turn, play its first action and remember the second: the next call plays
it if the position is the one they planned for (else they plan afresh). Both
work on the engine's fast core (:func:`hatskit.sombrero.perform` and
:func:`~hatskit.sombrero.take_back` on a plain board list), never on copies of
the state; the strong bot adds bitboards to find capture squares quickly.

The strong bot's evaluation, from the side about to act, whose terms a hint shows:

- **hats**: its hatted pieces minus the opponent's (S4 counts hats);
- **threat**: the most hats it could take in its coming turn by reaching a
  capture square with one action or two steps (S3);
- **danger**: the same for the opponent, who acts after it;
- **mobility**: its possible steps minus the opponent's.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from hatskit.bots.base import Hint
from hatskit.core import SeatView
from hatskit.sombrero import (
    DIRECTIONS,
    EMPTY,
    ENDGAME_ACTIONS,
    HATLESS,
    HATTED,
    SEAT_NAMES,
    Action,
    SombreroMove,
    SombreroState,
    actions_of,
    flanked_runs,
    hats_in_runs,
    move_of,
    perform,
    square_name,
    take_back,
)

# ---------------------------------------------------------------- bitboards

# A bitboard is an int whose bit ``s`` stands for square ``s``; ``bits[code]`` holds
# the squares with that code (EMPTY, or a hatted or hatless piece of a side).
_FULL = (1 << 64) - 1
_FILE_A = sum(1 << (8 * rank) for rank in range(8))
_FILE_H = _FILE_A << 7
# One step in each direction: how far the bits move (left when positive) and the
# mask that drops the bits which would wrap around from one edge file to the other.
_SHIFTS = tuple(
    (file_step + 8 * rank_step, _FULL & ~(_FILE_A if file_step == 1 else _FILE_H if file_step == -1 else 0))
    for file_step, rank_step in DIRECTIONS
)


def bitboards(board: list[int]) -> list[int]:
    """The five bitboards of a board: empty squares, then each piece code."""
    bits = [0] * 5
    for square, code in enumerate(board):
        bits[code] |= 1 << square
    return bits


def _step(bits: int, shift: int, mask: int) -> int:
    return ((bits << shift) if shift > 0 else (bits >> -shift)) & mask


def spread(bits: int) -> int:
    """Every square next to one of ``bits``."""
    around = 0
    for shift, mask in _SHIFTS:
        around |= ((bits << shift) if shift > 0 else (bits >> -shift)) & mask
    return around


def _grow(seeds: int, within: int, shift: int, mask: int) -> int:
    """``seeds`` extended step by step along one direction while the squares stay ``within``."""
    while True:
        grown = seeds | (within & _step(seeds, shift, mask))
        if grown == seeds:
            return seeds
        seeds = grown


def capture_squares(bits: list[int], seat: int, landing: int) -> int:
    """The ``landing`` squares from which a piece of ``seat`` would take at least one hat (S3).

    Per direction: runs of enemy pieces grow from a hatted closer, are kept when
    they hold a hat, and the square just past such a run is a capture square.
    """
    closers, enemy_hats = bits[HATTED[seat]], bits[HATTED[1 - seat]]
    enemy = enemy_hats | bits[HATLESS[1 - seat]]
    found = 0
    for shift, mask in _SHIFTS:
        run = enemy & ((closers << shift) if shift > 0 else (closers >> -shift)) & mask
        if run:
            run = _grow(run, enemy, shift, mask)
            hatted_run = _grow(run & enemy_hats, run, shift, mask)
            found |= landing & _step(hatted_run, shift, mask)
    return found


def _squares_in(bits: int) -> Iterator[int]:
    while bits:
        lowest = bits & -bits
        yield lowest.bit_length() - 1
        bits ^= lowest


# ---------------------------------------------------------------- evaluation


def hats_taken_from(board: list[int], square: int, seat: int) -> int:
    """Hats ``seat`` would take by stepping (or jumping a hat) onto ``square`` from a neighbour (S3).

    The board need not be changed first: the square the piece comes from is a
    neighbour, so it can neither sit inside a run nor close one.
    """
    return len(hats_in_runs(board, flanked_runs(board, square, seat)))


class Reach(NamedTuple):
    """What one side could take soon: with one action, and with two steps; and its number of steps."""

    one_action: int
    one_action_square: int | None
    two_actions: int
    two_actions_square: int | None
    steps: int


def reach(board: list[int], bits: list[int], seat: int, jump_captures: bool) -> Reach:
    """The most hats ``seat`` could take by reaching a capture square in one action or two steps.

    Two steps are an estimate: the route runs through an empty square and the
    runs are judged as they stand now.
    """
    hatted, empty = bits[HATTED[seat]], bits[EMPTY]
    landing = empty | bits[HATLESS[seat]] if jump_captures else empty
    one, steps = 0, 0
    for shift, mask in _SHIFTS:
        moved = ((hatted << shift) if shift > 0 else (hatted >> -shift)) & mask
        steps += (moved & empty).bit_count()
        one |= moved & landing
    targets = capture_squares(bits, seat, landing)
    best = [0, None, 0, None]
    if targets:
        two = one | (spread(one & empty) & empty)
        for square in _squares_in(targets & two):
            taken = hats_taken_from(board, square, seat)
            if (1 << square) & one and taken > best[0]:
                best[:2] = taken, square
            if taken > best[2]:
                best[2:] = taken, square
    return Reach(best[0], best[1], best[2], best[3], steps)


EVALUATION_WEIGHTS = (100, 70, -35, 2)  # hats, threat, danger, mobility


class Evaluation(NamedTuple):
    """The terms of the evaluation, from the side about to act (see the module docstring)."""

    hats: int
    threat: int
    danger: int
    mobility: int

    @property
    def total(self) -> int:
        hats, threat, danger, mobility = EVALUATION_WEIGHTS
        return hats * self.hats + threat * self.threat + danger * self.danger + mobility * self.mobility

    def explain(self) -> str:
        parts = ("hats", "threat", "danger", "mobility")
        return ", ".join(
            f"{name} {term:+d}×{weight}" for name, term, weight in zip(parts, self, EVALUATION_WEIGHTS, strict=True)
        )


def evaluate(board: list[int], bits: list[int], seat: int, jump_captures: bool) -> Evaluation:
    """How good ``board`` is for ``seat``, who is about to start a turn."""
    mine, theirs = reach(board, bits, seat, jump_captures), reach(board, bits, 1 - seat, jump_captures)
    hats = bits[HATTED[seat]].bit_count() - bits[HATTED[1 - seat]].bit_count()
    return Evaluation(hats, mine.two_actions, theirs.two_actions, mine.steps - theirs.steps)


# ---------------------------------------------------------------- planning whole turns


@dataclass(frozen=True)
class Plan:
    """A turn chosen by a bot: its actions and why."""

    actions: tuple[Action, ...]
    reason: str


PositionKey = tuple[tuple[int, ...], int | None, int]


def _position_key(state: SombreroState) -> PositionKey:
    return tuple(state.board), state.turn, state.actions_left


def _turn_text(state: SombreroState, actions: tuple[Action, ...]) -> str:
    board = list(state.board)
    moves = []
    for action in actions:
        moves.append(str(move_of(board, action)))
        perform(board, action, state.options.jump_captures)
    return " then ".join(moves)


class TurnBot:
    """Plays a planned turn action by action; subclasses say how to plan one."""

    name = "turn"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self._pending: tuple[PositionKey, Hint] | None = None

    def choose(self, seat_view: SeatView) -> SombreroMove:
        return self.hint(seat_view).move

    def hint(self, seat_view: SeatView) -> Hint:
        """The next action of the planned turn, with the reason for the whole turn."""
        state = seat_view.sample_world(self.rng)
        assert isinstance(state, SombreroState) and state.turn is not None, "a Sombrero game in progress"
        if self._pending is not None and self._pending[0] == _position_key(state):
            return self._pending[1]
        plan = self.plan(state)
        first = move_of(state.board, plan.actions[0])
        self._remember_rest(state, plan, first)
        return Hint(first, plan.reason)

    def _remember_rest(self, state: SombreroState, plan: Plan, first: SombreroMove) -> None:
        self._pending = None
        after = state.copy()
        after.apply(first)
        if len(plan.actions) > 1 and after.turn == state.turn:
            second = move_of(after.board, plan.actions[1])
            self._pending = _position_key(after), Hint(second, f"completes the planned turn: {plan.reason}")

    def plan(self, state: SombreroState) -> Plan:
        raise NotImplementedError


# ---------------------------------------------------------------- greedy


def turns(board: list[int], seat: int, left: int, jump_captures: bool) -> Iterator[tuple[tuple[Action, ...], int]]:
    """Every way to play the rest of a turn, with the hats it takes; ``board`` shows each turn's end as it is yielded.

    A turn stops early when it wins (S4) or when no second action exists (S2).
    The board is restored when the iteration finishes.
    """
    for action in actions_of(board, seat):
        taken = perform(board, action, jump_captures)
        seconds = actions_of(board, seat) if left == 2 and board.count(HATTED[1 - seat]) > 1 else []
        if not seconds:
            yield (action,), len(taken)
        for second in seconds:
            more = perform(board, second, jump_captures)
            yield (action, second), len(taken) + len(more)
            take_back(board, second, more)
        take_back(board, action, taken)


class SombreroGreedy(TurnBot):
    """Best one-turn gain: hats taken this turn minus the hats left exposed.

    *Exposed* means the most hats the opponent could take with a single action
    right after the turn. A turn that wins (S4) beats everything, the shortest
    first. Equal gains are broken at random. Turns of the same length that
    reach the same board are weighed once.
    """

    name = "greedy"

    def plan(self, state: SombreroState) -> Plan:
        seat, jump_captures = state.turn, state.options.jump_captures
        assert seat is not None
        board, best, seen = list(state.board), None, set()
        for actions, taken in turns(board, seat, state.actions_left, jump_captures):
            key = tuple(board), len(actions)
            if key in seen:
                continue
            seen.add(key)
            won = board.count(HATTED[1 - seat]) <= 1
            exposed = 0 if won else reach(board, bitboards(board), 1 - seat, jump_captures).one_action
            urgency = 3 - len(actions) if won else 0  # any win first, and the sooner the better
            score = (urgency, taken - exposed, self.rng.random())
            if best is None or score > best[0]:
                best = score, actions, taken, exposed
        assert best is not None, "the engine never leaves a side to move without an action"
        _, actions, taken, exposed = best
        opponent = SEAT_NAMES[1 - seat]
        reason = (
            f"the turn {_turn_text(state, actions)} takes {taken} hat(s) and leaves {opponent} at most "
            f"{exposed} to take with one action: gain {taken - exposed:+d}"
        )
        return Plan(actions, reason)


# ---------------------------------------------------------------- strong: alpha-beta over whole turns

WIN = 1_000_000
_EXACT, _LOWER, _UPPER = 0, 1, 2
_ZOBRIST_RNG = random.Random(20240501)
_ZOBRIST = [[_ZOBRIST_RNG.getrandbits(64) for _ in range(5)] for _ in range(64)]
_TURN_KEYS = [[_ZOBRIST_RNG.getrandbits(64) for _ in range(3)] for _ in range(2)]
_COUNT_KEYS = [[_ZOBRIST_RNG.getrandbits(64) for _ in range(ENDGAME_ACTIONS + 1)] for _ in range(2)]


# What taking an action back needs: the hats it took, the hash and bitboards before it, and whether S5 counted it.
_Played = tuple[list[int], int, list[int], bool]


def _good_enough(stored: tuple[int, int, int, Action | None] | None, depth: int, alpha: int, beta: int) -> int | None:
    """A remembered value that settles this node for the window (alpha, beta), if there is one."""
    if stored is None or stored[0] < depth:
        return None
    value, flag = stored[1], stored[2]
    if flag == _EXACT or (flag == _LOWER and value >= beta) or (flag == _UPPER and value <= alpha):
        return value
    return None


class _OutOfTime(Exception):
    """Raised inside the search when the time budget is spent."""


class SearchResult(NamedTuple):
    """The chosen turn, its value for the side to move, and how far the search looked."""

    actions: tuple[Action, ...]
    value: int
    depth: int
    nodes: int


class TurnSearch:
    """Alpha-beta over actions on one board changed in place and restored.

    A ply is one action; the side changes every second ply (or earlier when a
    turn ends early, S2), so depths always end at a turn boundary and the leaf
    is evaluated for the side about to start its turn. A transposition table
    merges the many action orders that reach the same position.
    """

    def __init__(self, state: SombreroState, deadline: float) -> None:
        self.board = list(state.board)
        self.bits = bitboards(self.board)
        self.jump_captures = state.options.jump_captures
        self.deadline = deadline
        self.endgame = list(state.endgame_actions)
        self.empty_turns = state.empty_turns
        self.hash = 0
        for square, code in enumerate(self.board):
            self.hash ^= _ZOBRIST[square][code]
        self.table: dict[int, tuple[int, int, int, Action | None]] = {}
        self.leaves: dict[int, int] = {}
        self.nodes = 0
        self.partial: tuple[Action, int] | None = None

    # -- making and taking back actions ---------------------------------

    def hats(self, seat: int) -> int:
        return self.bits[HATTED[seat]].bit_count()

    def _counting(self) -> bool:
        """Whether actions count towards the S5 draw now."""
        return self.hats(0) == 2 == self.hats(1)

    def _play(self, action: Action, seat: int) -> _Played:
        """Carry out ``action``, keeping the hash, bitboards and S5 counters in step."""
        board, origin, target = self.board, action[0], action[1]
        changed = [(origin, board[origin]), (target, board[target])]
        counted = self._counting()
        taken = perform(board, action, self.jump_captures)
        changed += [(square, board[square] - 1) for square in taken]
        key, bits = self.hash, list(self.bits)
        for square, before in changed:
            after, bit = board[square], 1 << square
            key ^= _ZOBRIST[square][before] ^ _ZOBRIST[square][after]
            bits[before] ^= bit
            bits[after] ^= bit
        played = taken, self.hash, self.bits, counted
        self.hash, self.bits = key, bits
        self.endgame[seat] += counted
        return played

    def _take_back(self, action: Action, seat: int, played: _Played) -> None:
        taken, self.hash, self.bits, counted = played
        take_back(self.board, action, taken)
        self.endgame[seat] -= counted

    def _key(self, seat: int, left: int) -> int:
        key = self.hash ^ _TURN_KEYS[seat][left]
        if self._counting():
            key ^= (
                _COUNT_KEYS[0][min(self.endgame[0], ENDGAME_ACTIONS)]
                ^ _COUNT_KEYS[1][min(self.endgame[1], ENDGAME_ACTIONS)]
            )
        return key

    # -- ordering ---------------------------------------------------------

    def ordered(self, seat: int, actions: list[Action], first: Action | None = None) -> list[Action]:
        """``first``, then captures (most hats first), then steps next to a capture square; a stable sort."""
        board, bits = self.board, self.bits
        landing = bits[EMPTY] | (bits[HATLESS[seat]] if self.jump_captures else 0)
        targets = capture_squares(bits, seat, landing)
        if not targets and first is None:
            return actions
        approaches = spread(targets)

        def priority(action: Action) -> tuple[bool, int, bool]:
            bit = 1 << action[1]
            gain = hats_taken_from(board, action[1], seat) if bit & targets else 0
            return action == first, gain, bool(bit & approaches)

        return sorted(actions, key=priority, reverse=True)

    # -- the search -------------------------------------------------------

    def value_after(self, action: Action, seat: int, left: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The value for ``seat`` of playing ``action`` and searching on."""
        played = self._play(action, seat)
        try:
            if self.hats(1 - seat) <= 1:
                return WIN - ply
            if min(self.endgame) >= ENDGAME_ACTIONS:
                return 0
            if left == 2:
                return self.search(depth - 1, alpha, beta, seat, 1, ply + 1)
            return -self.search(depth - 1, -beta, -alpha, 1 - seat, 2, ply + 1)
        finally:
            self._take_back(action, seat, played)

    def search(self, depth: int, alpha: int, beta: int, seat: int, left: int, ply: int) -> int:
        """Negamax value for ``seat``, who has ``left`` actions of this turn to make."""
        self.nodes += 1
        if self.nodes % 1024 == 0 and time.perf_counter() > self.deadline:
            raise _OutOfTime
        key = self._key(seat, left)
        if depth <= 0:
            return self.leaf(key, seat)
        stored = self.table.get(key)
        known = _good_enough(stored, depth, alpha, beta)
        if known is not None:
            return known
        actions = self.ordered(seat, actions_of(self.board, seat), stored[3] if stored else None)
        if not actions:
            return self.stuck(depth, alpha, beta, seat, left, ply)
        start_alpha, best, best_action = alpha, -WIN - 1, None
        streak, self.empty_turns = self.empty_turns, 0
        for action in actions:
            value = self.value_after(action, seat, left, depth, alpha, beta, ply)
            if value > best:
                best, best_action = value, action
                alpha = max(alpha, value)
                if alpha >= beta:
                    break
        self.empty_turns = streak
        flag = _UPPER if best <= start_alpha else _LOWER if best >= beta else _EXACT
        self.table[key] = (depth, best, flag, best_action)
        return best

    def leaf(self, key: int, seat: int) -> int:
        """The evaluation for ``seat``, remembered: two action orders often reach the same leaf."""
        value = self.leaves.get(key)
        if value is None:
            value = self.leaves[key] = evaluate(self.board, self.bits, seat, self.jump_captures).total
        return value

    def stuck(self, depth: int, alpha: int, beta: int, seat: int, left: int, ply: int) -> int:
        """A side without an action ends its turn; a second empty turn in a row draws (S2)."""
        if left == 1:
            return -self.search(depth - 1, -beta, -alpha, 1 - seat, 2, ply)
        if self.empty_turns >= 1:
            return 0
        self.empty_turns += 1
        try:
            return -self.search(depth - 2, -beta, -alpha, 1 - seat, 2, ply)
        finally:
            self.empty_turns -= 1

    def root(self, seat: int, left: int, depth: int, order: list[Action]) -> tuple[Action, int]:
        """Search every first action at ``depth``; the best one and its value."""
        best, best_action, alpha = -WIN - 1, order[0], -WIN - 1
        for action in order:
            value = self.value_after(action, seat, left, depth, alpha, WIN + 1, 0)
            if value > best:
                best, best_action, alpha = value, action, value
                self.partial = best_action, best
        return best_action, best

    def deepen(
        self, seat: int, left: int, order: list[Action], best: tuple[Action, int, int], max_turns: int
    ) -> tuple[Action, int, int]:
        """One whole turn deeper each time, until a win is proven, time runs out or ``max_turns`` is reached.

        A search cut short keeps its best fully searched first action: the
        previous best is searched first, so that one is at least as sound.
        """
        for depth in range(left + 2, left + 2 * max_turns, 2):
            if abs(best[1]) >= WIN - 2 * max_turns:
                break
            order = [best[0]] + [other for other in order if other != best[0]]
            self.partial = None
            try:
                best = (*self.root(seat, left, depth, order), depth)
            except _OutOfTime:
                if self.partial is not None:
                    best = (*self.partial, depth)
                break
        return best

    def planned_turn(self, seat: int, left: int, first: Action) -> tuple[Action, ...]:
        """The first action and, from the table, the second the search prefers after it."""
        if left == 1:
            return (first,)
        played = self._play(first, seat)
        stored = self.table.get(self._key(seat, 1))
        self._take_back(first, seat, played)
        return (first, stored[3]) if stored and stored[3] else (first,)


def search_turn(state: SombreroState, budget: float, rng: random.Random, max_turns: int = 6) -> SearchResult:
    """Iterative deepening over whole turns until ``budget`` seconds are spent.

    The first depth (the rest of this turn alone) always finishes, so a move is
    always found; equal first actions are tried in an order shuffled by ``rng``.
    """
    seat, left = state.turn, state.actions_left
    assert seat is not None, "the game is over"
    engine = TurnSearch(state, deadline=float("inf"))
    order = actions_of(engine.board, seat)
    rng.shuffle(order)
    order = engine.ordered(seat, order)
    best = (*engine.root(seat, left, left, order), left)
    engine.deadline = time.perf_counter() + budget
    action, value, depth = engine.deepen(seat, left, order, best, max_turns)
    return SearchResult(engine.planned_turn(seat, left, action), value, depth, engine.nodes)


def explain_turn(state: SombreroState, result: SearchResult) -> str:
    """The chosen turn in words: what it takes, threatens and prevents, and how it was found."""
    seat, jump_captures = state.turn, state.options.jump_captures
    assert seat is not None
    board = list(state.board)
    danger_before = reach(board, bitboards(board), 1 - seat, jump_captures)
    taken = [square for action in result.actions for square in perform(board, action, jump_captures)]
    parts = [f"plays {_turn_text(state, result.actions)}"]
    if taken:
        parts.append(f"takes the hat{'s' if len(taken) > 1 else ''} of {', '.join(map(square_name, taken))} (S3)")
    if board.count(HATTED[1 - seat]) <= 1:
        return f"{'; '.join(parts)}; this wins: {SEAT_NAMES[1 - seat]} is left with one hatted piece or none (S4)"
    bits = bitboards(board)
    parts += _threat_notes(board, bits, seat, danger_before, jump_captures)
    turns_deep = (result.depth - state.actions_left) // 2 + 1
    terms = evaluate(board, bits, seat, jump_captures).explain()
    return (
        f"{'; '.join(parts)}. Searched {turns_deep} turn(s) deep ({result.nodes} positions), "
        f"value {result.value:+d}; after this turn: {terms}"
    )


def _threat_notes(board: list[int], bits: list[int], seat: int, danger_before: Reach, jump_captures: bool) -> list[str]:
    """What the turn threatens next, and the opponent's threat it stops or leaves."""
    opponent = SEAT_NAMES[1 - seat]
    mine, theirs = reach(board, bits, seat, jump_captures), reach(board, bits, 1 - seat, jump_captures)
    notes = []
    if mine.two_actions_square is not None:
        notes.append(
            f"threatens {_hats(mine.two_actions)} next turn by reaching {square_name(mine.two_actions_square)}"
        )
    if danger_before.two_actions_square is not None and theirs.two_actions < danger_before.two_actions:
        where = square_name(danger_before.two_actions_square)
        notes.append(f"stops {opponent}'s threat of {_hats(danger_before.two_actions)} by reaching {where}")
    elif theirs.two_actions_square is not None:
        where = square_name(theirs.two_actions_square)
        notes.append(f"still leaves {opponent} a chance at {_hats(theirs.two_actions)} by reaching {where}")
    return notes


def _hats(count: int) -> str:
    return "1 hat" if count == 1 else f"{count} hats"


class SombreroStrong(TurnBot):
    """Alpha-beta over whole turns with iterative deepening and a time budget (seconds)."""

    name = "strong"

    def __init__(self, seed: int = 0, budget: float = 1.0) -> None:
        super().__init__(seed)
        self.budget = budget

    def plan(self, state: SombreroState) -> Plan:
        result = search_turn(state, self.budget, self.rng)
        return Plan(result.actions, explain_turn(state, result))


BOTS = {"greedy": SombreroGreedy, "strong": SombreroStrong}
