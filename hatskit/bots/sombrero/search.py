"""The strong Sombrero bot's search: bitboards, the evaluation and alpha-beta over whole turns.

Everything works on the engine's fast core (:func:`hatskit.sombrero.perform`
and :func:`~hatskit.sombrero.take_back` on a plain board list), never on copies
of the state; bitboards find capture squares quickly.

The evaluation, from the side about to act (its terms go into a hint's detail):

- **hats**: its hatted pieces minus the opponent's (S4 counts hats);
- **threat**: the most hats it could take in its coming turn by reaching a
  capture square with one action or two steps (S3);
- **danger**: the same for the opponent, who acts after it;
- **mobility**: its possible steps minus the opponent's;
- **closeness**: how near its hatted pieces stand to the opponent's hatted
  pieces, minus the same for the opponent: what makes a side with nothing to
  take walk towards something it could take later.

The search is limited by the number of positions it looks at, not by time, so
the same position always gets the same answer (hints in a notebook repeat).
It also knows the positions the game has already been through: ending a turn
in one of them costs :data:`REPEAT_COST` for each earlier time, so a side
shuffles back and forth only when every other turn is clearly worse. And the
searching side, when it is not behind, counts :data:`PROGRESS` for every hat
taken on the way, by either side (:meth:`TurnSearch.progress`): even trades
look good to it, which moves a game towards S4 or S5.

What it cannot do is end every game: a hatted piece in a corner can never be
flanked (no square lies beyond it), nor one on an edge next to a friend in the
corner, so a side down to two hats can hide them there and step out and back
each turn; S1-S5 have no rule that ends such a game (see
benchmarks/bench_sombrero.py ``--self-play``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import NamedTuple

from hatskit.sombrero import (
    DIRECTIONS,
    EMPTY,
    ENDGAME_ACTIONS,
    HATLESS,
    HATTED,
    Action,
    SombreroState,
    actions_of,
    flanked_runs,
    has_action,
    hats_in_runs,
    perform,
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
    """Every square next to one of ``bits``: the sideways neighbours, then those and ``bits`` one rank up and down."""
    sideways = ((bits << 1) & _FULL & ~_FILE_A) | ((bits >> 1) & ~_FILE_H)
    row = bits | sideways
    return (sideways | (row << 8) | (row >> 8)) & _FULL


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


# ---------------------------------------------------------------- whole turns


def turns(
    board: list[int], seat: int, left: int, jump_captures: bool
) -> Iterator[tuple[tuple[Action, ...], list[int]]]:
    """Every way to play the rest of a turn, with the squares whose hats it takes.

    ``board`` shows each turn's end as it is yielded and is restored when the
    iteration finishes. A turn stops early when it wins (S4) or when no second
    action exists (S2).
    """
    for action in actions_of(board, seat):
        taken = perform(board, action, jump_captures)
        seconds = actions_of(board, seat) if left == 2 and board.count(HATTED[1 - seat]) > 1 else []
        if not seconds:
            yield (action,), taken
        for second in seconds:
            more = perform(board, second, jump_captures)
            yield (action, second), taken + more
            take_back(board, second, more)
        take_back(board, action, taken)


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


def distance_sum(pieces: int, targets: int) -> int:
    """The sum over ``pieces`` of each one's king-step distance to the nearest of ``targets`` (4 at most).

    Counted ring by ring: a piece outside the squares within ``k`` steps of the
    targets adds one for each such ring. Farther than 4 counts as 4: beyond
    that, two turns of steps bring no capture within reach anyway.
    """
    total, near = 0, targets
    for _ in range(4):
        outside = pieces & ~near
        if not outside or not near:
            break
        total += outside.bit_count()
        near |= spread(near)
    return total


EVALUATION_WEIGHTS = (100, 70, -35, 2, 3)  # hats, threat, danger, mobility, closeness


class Evaluation(NamedTuple):
    """The terms of the evaluation, from the side about to act (see the module docstring)."""

    hats: int
    threat: int
    danger: int
    mobility: int
    closeness: int

    @property
    def total(self) -> int:
        return sum(term * weight for term, weight in zip(self, EVALUATION_WEIGHTS, strict=True))


def evaluate(board: list[int], bits: list[int], seat: int, jump_captures: bool) -> Evaluation:
    """How good ``board`` is for ``seat``, who is about to start a turn."""
    mine, theirs = reach(board, bits, seat, jump_captures), reach(board, bits, 1 - seat, jump_captures)
    own, enemy = bits[HATTED[seat]], bits[HATTED[1 - seat]]
    closeness = distance_sum(enemy, own) - distance_sum(own, enemy)
    return Evaluation(
        own.bit_count() - enemy.bit_count(), mine.two_actions, theirs.two_actions, mine.steps - theirs.steps, closeness
    )


# ---------------------------------------------------------------- strong: alpha-beta over whole turns

WIN = 1_000_000
DECIDED = WIN - 10_000  # a value beyond this is a proven win (or loss), whatever repetitions cost on the way
MAX_TURNS = 6  # the deepest the search goes, in whole turns
PROGRESS = 20  # for each hat taken during the search, when the searching side is not behind
REPEAT_COST = 40  # for each earlier time the game stood in the position a turn ends in
_EXACT, _LOWER, _UPPER = 0, 1, 2
_ZOBRIST_RNG = random.Random(20240501)
_ZOBRIST = [[_ZOBRIST_RNG.getrandbits(64) for _ in range(5)] for _ in range(64)]
_TURN_KEYS = [[_ZOBRIST_RNG.getrandbits(64) for _ in range(3)] for _ in range(2)]
_COUNT_KEYS = [[_ZOBRIST_RNG.getrandbits(64) for _ in range(ENDGAME_ACTIONS + 1)] for _ in range(2)]
_SIDE_KEYS = [_TURN_KEYS[seat][2] for seat in range(2)]  # a side about to start its turn


def board_hash(board: list[int]) -> int:
    """The Zobrist hash of a board: one random number per square and code, combined."""
    key = 0
    for square, code in enumerate(board):
        key ^= _ZOBRIST[square][code]
    return key


def turn_start_key(board: list[int], seat: int) -> int:
    """What identifies a position where ``seat`` starts a turn, for counting repetitions."""
    return board_hash(board) ^ _SIDE_KEYS[seat]


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


class _OutOfNodes(Exception):
    """Raised inside the search when it has looked at as many positions as it may."""


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

    def __init__(self, state: SombreroState, seen: Counter[int], max_nodes: float) -> None:
        self.board = list(state.board)
        self.bits = bitboards(self.board)
        self.jump_captures = state.options.jump_captures
        self.seen = seen
        self.max_nodes = max_nodes
        self.endgame = list(state.endgame_actions)
        self.empty_turns = state.empty_turns
        self.hash = board_hash(self.board)
        self.table: dict[int, tuple[int, int, int, Action | None]] = {}
        self.leaves: dict[int, int] = {}
        self.nodes = 0
        self.partial: tuple[Action, int] | None = None
        self.searcher = state.turn
        self.hats_at_root = self.hats(0) + self.hats(1)

    # -- making and taking back actions ---------------------------------

    def repeat_cost(self, seat: int) -> int:
        """What ending ``seat``'s turn here costs for the times the game already stood here.

        The next turn is the opponent's, or ``seat``'s again when the opponent
        cannot act (S2): the game's history then shows ``seat`` to move.
        """
        times = self.seen.get(self.hash ^ _SIDE_KEYS[1 - seat], 0)
        again = self.seen.get(self.hash ^ _SIDE_KEYS[seat], 0)
        if again and not has_action(self.board, 1 - seat):
            times += again
        return REPEAT_COST * times

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
            cost = self.repeat_cost(seat)
            return -self.search(depth - 1, -beta - cost, -alpha - cost, 1 - seat, 2, ply + 1) - cost
        finally:
            self._take_back(action, seat, played)

    def search(self, depth: int, alpha: int, beta: int, seat: int, left: int, ply: int) -> int:
        """Negamax value for ``seat``, who has ``left`` actions of this turn to make."""
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _OutOfNodes
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
        return value + self.progress(seat)

    def progress(self, seat: int) -> int:
        """What the searching side, when not behind, sees in hats taken (by either side) since the root.

        Only the side that searches counts it, and the opponent is assumed not
        to care: a contempt for standing still, so that even trades look good to
        a side level or ahead and a game between two bots moves towards its end
        (S4, or S5 once both sides are down to two hats).
        """
        mine, theirs = self.hats(self.searcher), self.hats(1 - self.searcher)
        if mine < theirs:
            return 0
        bonus = PROGRESS * (self.hats_at_root - mine - theirs)
        return bonus if seat == self.searcher else -bonus

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
        """One whole turn deeper each time, until a win is proven, the nodes run out or ``max_turns`` is reached.

        A search cut short keeps its best fully searched first action: the
        previous best is searched first, so that one is at least as sound.
        """
        for depth in range(left + 2, left + 2 * max_turns, 2):
            if abs(best[1]) >= DECIDED:
                break
            order = [best[0]] + [other for other in order if other != best[0]]
            self.partial = None
            try:
                best = (*self.root(seat, left, depth, order), depth)
            except _OutOfNodes:
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


def search_turn(state: SombreroState, seen: Counter[int], max_nodes: int, rng: random.Random) -> SearchResult:
    """Iterative deepening over whole turns until about ``max_nodes`` positions are searched.

    ``seen`` counts the turn-start positions the game has been through (keys
    of :func:`turn_start_key`). The first depth (the rest of this turn alone)
    always finishes, so a move is always found; equal first actions are tried
    in an order shuffled by ``rng``.
    """
    seat, left = state.turn, state.actions_left
    assert seat is not None, "the game is over"
    engine = TurnSearch(state, seen, max_nodes=float("inf"))
    order = actions_of(engine.board, seat)
    rng.shuffle(order)
    order = engine.ordered(seat, order)
    best = (*engine.root(seat, left, left, order), left)
    engine.max_nodes = max_nodes
    action, value, depth = engine.deepen(seat, left, order, best, MAX_TURNS)
    return SearchResult(engine.planned_turn(seat, left, action), value, depth, engine.nodes)
