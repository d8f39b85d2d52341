"""Sombrero's bots and hints: a one-turn ``greedy``, an alpha-beta ``strong``, and the sentences of a hint.

A Sombrero turn is two actions by the same side (S2), so both bots choose a
whole turn, play its first action and remember the second: the next call plays
it if the position is the one they planned for (else they plan afresh). Both
know the positions their seat has seen (``SeatView.past_views``) and do not
steer back into one when another turn is about as good (the greedy bot among
equal turns, the strong bot within :data:`REPEAT_COST`), so a game between two
bots does not shuffle one piece back and forth.

The strong bot's search works on the board functions of ``state``
(:func:`perform` and :func:`take_back` on a plain board list), never on copies
of the state; bitboards find capture squares quickly. Its evaluation, from the
side about to act (its terms go into a hint's detail):

- **hats**: its hatted pieces minus the opponent's (S4 counts hats);
- **threat**: the most hats it could take in its coming turn by reaching a
  capture square with one action or two steps (S3);
- **danger**: the same for the opponent, who acts after it;
- **mobility**: its possible steps minus the opponent's;
- **closeness**: how near its hatted pieces stand to the opponent's hatted
  pieces, minus the same for the opponent: a side stands better when its
  pieces reach the opponent's hats sooner than the opponent's reach its own.

The search is limited by the number of positions it looks at, so the same
position gets the same answer (hints in a notebook repeat); a time limit
(:data:`SEARCH_SECONDS`) is only a safety net for a machine too busy to look at
them all in time, so that a hint still comes within 1.5 s. The search
knows the draws of S5, the quiet-game draw included.

Two bots that only weigh these terms can walk round each other for ever, each
waiting for the other to come near. So the side that searches, when
it is not behind, also wants the game to move on (:meth:`TurnSearch.progress`):

- every hat taken on the way, by either side, counts :data:`PROGRESS` for it,
  plus :data:`QUIET_PRESSURE` for each action already made without a hat taken
  (up to :data:`MOST_PROGRESS`, less than a hat): even trades look good to it,
  and better the longer the game has been quiet;
- each king step between its hatted pieces and the nearest enemy hat costs it
  :data:`APPROACH`: it walks towards something it could take later;
- ending a turn where the game has already been costs :data:`REPEAT_COST` for
  each earlier time.

The opponent is assumed not to care, and a side that is behind plays for the
hats alone. A side down to two or three hats can still hide them in a corner,
where they cannot be flanked; the quiet-game draw (S5, a hatskit decision) ends
such a game.

A hint's sentence says what the suggested action and the rest of the planned
turn do on the board ("this step, followed by c3-b4, saves the hat on c3"),
from facts worked out on the board, never from the bot's scores: the hats the
turn takes, whether it wins (S4), the hats it saves from the opponent's next
turn, the hats the mover could take next and the hats it leaves within the
opponent's reach. Each fact is exact: the opponent's whole turns are tried on
the board, not estimated. The numbers behind the choice go into the hint's detail.
Rulings in ``docs/rulings.md``.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from hatskit.bots.base import Hint, in_browser, moves_of
from hatskit.core import SeatView
from hatskit.games.sombrero.components import (
    DIRECTIONS,
    EMPTY,
    ENDGAME_ACTIONS,
    HATLESS,
    HATTED,
    QUIET_ACTIONS,
    SEAT_NAMES,
    square_name,
)
from hatskit.games.sombrero.moves import Action, Jump, SombreroMove, move_of
from hatskit.games.sombrero.positions import load_position
from hatskit.games.sombrero.state import (
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
    """``bits`` moved one square along a direction (``shift``), the wrapped-around ones dropped by ``mask``."""
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
    """The squares of ``bits``, lowest first."""
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
QUIET_PRESSURE = 2  # added to PROGRESS for each action of the quiet count (S5) at the root ...
MOST_PROGRESS = 80  # ... up to this: less than a hat, so a side never gives one away for nothing
APPROACH = 6  # for each king step between the searching side's hatted pieces and the nearest enemy hat
# The deepest the search goes, in actions: a quiet count this near its draw (S5) is part of a position.
QUIET_HORIZON = 2 * MAX_TURNS
CLOCK_EVERY = 256  # positions searched between two looks at the clock
REPEAT_COST = 40  # for each earlier time the game stood in the position a turn ends in
_EXACT, _LOWER, _UPPER = 0, 1, 2
_ZOBRIST_RNG = random.Random(20240501)
_ZOBRIST = [[_ZOBRIST_RNG.getrandbits(64) for _ in range(5)] for _ in range(64)]
_TURN_KEYS = [[_ZOBRIST_RNG.getrandbits(64) for _ in range(3)] for _ in range(2)]
_COUNT_KEYS = [[_ZOBRIST_RNG.getrandbits(64) for _ in range(ENDGAME_ACTIONS + 1)] for _ in range(2)]
_QUIET_KEYS = [_ZOBRIST_RNG.getrandbits(64) for _ in range(QUIET_HORIZON + 1)]
_SIDE_KEYS = [_TURN_KEYS[seat][2] for seat in range(2)]  # a side about to start its turn


def progress_per_hat(quiet_actions: int) -> int:
    """What a hat taken during the search counts for a searching side not behind, after ``quiet_actions``
    actions in a row without a hat taken (S5): more the longer the game has been quiet, never a whole hat."""
    return min(PROGRESS + QUIET_PRESSURE * quiet_actions, MOST_PROGRESS)


def board_hash(board: list[int]) -> int:
    """The Zobrist hash of a board: one random number per square and code, combined."""
    key = 0
    for square, code in enumerate(board):
        key ^= _ZOBRIST[square][code]
    return key


def turn_start_key(board: list[int], seat: int) -> int:
    """What identifies a position where ``seat`` starts a turn, for counting repetitions."""
    return board_hash(board) ^ _SIDE_KEYS[seat]


# What taking an action back needs: the hats it took, the hash and bitboards before it, whether S5 counted it
# and the quiet count before it.
_Played = tuple[list[int], int, list[int], bool, int]


def _good_enough(stored: tuple[int, int, int, Action | None] | None, depth: int, alpha: int, beta: int) -> int | None:
    """A remembered value that settles this node for the window (alpha, beta), if there is one."""
    if stored is None or stored[0] < depth:
        return None
    value, flag = stored[1], stored[2]
    if flag == _EXACT or (flag == _LOWER and value >= beta) or (flag == _UPPER and value <= alpha):
        return value
    return None


class _OutOfBudget(Exception):
    """Raised inside the search when it has looked at as many positions as it may, or its time is up."""


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

    def __init__(self, state: SombreroState, seen: Counter[int], max_nodes: float, deadline: float = math.inf) -> None:
        self.board = list(state.board)
        self.bits = bitboards(self.board)
        self.jump_captures = state.options.jump_captures
        self.seen = seen
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.endgame = list(state.endgame_actions)
        self.quiet = state.quiet_actions
        self.empty_turns = state.empty_turns
        self.hash = board_hash(self.board)
        self.table: dict[int, tuple[int, int, int, Action | None]] = {}
        self.leaves: dict[int, int] = {}
        self.nodes = 0
        self.partial: tuple[Action, int] | None = None
        self.searcher = state.turn
        self.hats_at_root = self.hats(0) + self.hats(1)
        self.per_hat = progress_per_hat(state.quiet_actions)

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
        """How many hatted pieces ``seat`` has on the searched board."""
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
        played = taken, self.hash, self.bits, counted, self.quiet
        self.hash, self.bits = key, bits
        self.endgame[seat] += counted
        self.quiet = 0 if taken else self.quiet + 1
        return played

    def _take_back(self, action: Action, seat: int, played: _Played) -> None:
        """Undo :meth:`_play`, restoring the hash, bitboards and S5 counters."""
        taken, self.hash, self.bits, counted, self.quiet = played
        take_back(self.board, action, taken)
        self.endgame[seat] -= counted

    def _key(self, seat: int, left: int) -> int:
        """The transposition key: the board, whose turn and how many actions left, and the S5 counts while they
        run or the quiet count is near enough to its draw for the search to reach it."""
        key = self.hash ^ _TURN_KEYS[seat][left]
        if self._counting():
            key ^= (
                _COUNT_KEYS[0][min(self.endgame[0], ENDGAME_ACTIONS)]
                ^ _COUNT_KEYS[1][min(self.endgame[1], ENDGAME_ACTIONS)]
            )
        if self.quiet >= QUIET_ACTIONS - QUIET_HORIZON:
            key ^= _QUIET_KEYS[self.quiet - QUIET_ACTIONS + QUIET_HORIZON]
        return key

    def _drawn(self) -> bool:
        """Whether a count has reached its draw: S5's at two hats a side, or the quiet count (S5)."""
        return min(self.endgame) >= ENDGAME_ACTIONS or self.quiet >= QUIET_ACTIONS

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
            if self._drawn():
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
        if self.nodes > self.max_nodes or (self.nodes % CLOCK_EVERY == 0 and time.perf_counter() > self.deadline):
            raise _OutOfBudget
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
        """What the searching side, when not behind, sees in a game that moves on (the module docstring).

        The hats taken (by either side) since the root count ``per_hat``, more
        the longer the game had been quiet, and its hatted pieces' distance to
        the enemy hats counts against it. Only the side that searches counts
        this, and the opponent is assumed not to care: a contempt for standing
        still, so that even trades look good to a side level or ahead and a game
        between two bots moves towards its end (S4, or a draw of S5).
        """
        own, enemy = self.bits[HATTED[self.searcher]], self.bits[HATTED[1 - self.searcher]]
        mine, theirs = own.bit_count(), enemy.bit_count()
        if mine < theirs:
            return 0
        bonus = self.per_hat * (self.hats_at_root - mine - theirs) - APPROACH * distance_sum(own, enemy)
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
            except _OutOfBudget:
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


def search_turn(
    state: SombreroState, seen: Counter[int], max_nodes: int, rng: random.Random, deadline: float = math.inf
) -> SearchResult:
    """Iterative deepening over whole turns until about ``max_nodes`` positions are searched or, as a safety
    net, ``deadline`` (a :func:`time.perf_counter` reading) has passed.

    ``seen`` counts the turn-start positions the game has been through (keys
    of :func:`turn_start_key`). The first depth (the rest of this turn alone)
    always finishes, so a move is always found; equal first actions are tried
    in an order shuffled by ``rng``.
    """
    seat, left = state.turn, state.actions_left
    assert seat is not None, "the game is over"
    engine = TurnSearch(state, seen, max_nodes=math.inf)
    order = actions_of(engine.board, seat)
    rng.shuffle(order)
    order = engine.ordered(seat, order)
    best = (*engine.root(seat, left, left, order), left)
    engine.max_nodes, engine.deadline = max_nodes, deadline
    action, value, depth = engine.deepen(seat, left, order, best, MAX_TURNS)
    return SearchResult(engine.planned_turn(seat, left, action), value, depth, engine.nodes)


# ---------------------------------------------------------------- hints: what a suggested turn does


def reachable_hats(board: list[int], seat: int, left: int, jump_captures: bool) -> set[int]:
    """The squares whose hats ``seat`` could take with ``left`` actions (1 or 2) from ``board`` (S3)."""
    found: set[int] = set()
    for _, taken in turns(board, seat, left, jump_captures):
        found.update(taken)
    return found


class TurnFacts(NamedTuple):
    """What the rest of a planned turn does, as the hint sentence tells it (squares are board indices)."""

    mover: int
    moves: tuple[SombreroMove, ...]  # the suggested action first, then the rest of the planned turn
    taken: tuple[int, ...]  # hats these actions take
    won: bool  # they win the game (S4)
    hats_left: int  # the opponent's hatted pieces afterwards
    threats: tuple[int, ...]  # the opponent's hats the mover's next action could take
    same_turn: bool  # the mover's next action still belongs to this turn
    saved: tuple[int, ...]  # the mover's hats the opponent could take in its next turn before, not after
    exposed: tuple[int, ...]  # the mover's hats the opponent could still take in its next turn


def turn_facts(state: SombreroState, moves: Sequence[SombreroMove]) -> TurnFacts:
    """The facts of playing ``moves`` (the rest of a turn, the suggested action first) in ``state``."""
    seat, jump_captures = state.turn, state.options.jump_captures
    assert seat is not None, "the game is over"
    after, taken, now_at = play_out(state, moves)
    won = after.turn is None and after.hats(1 - seat) <= 1
    board = list(after.board)
    danger_before = reachable_hats(list(state.board), 1 - seat, 2, jump_captures)
    danger_after = set() if won else reachable_hats(board, 1 - seat, 2, jump_captures)
    threats = set() if won else reachable_hats(board, seat, 1, jump_captures)
    saved = [
        square
        for square in danger_before
        if (now := now_at.get(square, square)) not in danger_after and board[now] == HATTED[seat]
    ]
    return TurnFacts(
        seat,
        tuple(moves),
        tuple(sorted(taken)),
        won,
        after.hats(1 - seat),
        tuple(sorted(threats)),
        after.turn == seat,
        tuple(sorted(saved)),
        tuple(sorted(danger_after)),
    )


def play_out(state: SombreroState, moves: Sequence[SombreroMove]) -> tuple[SombreroState, list[int], dict[int, int]]:
    """The state after ``moves``, the hats they took, and where each hat that moved now is (by its first square)."""
    after, taken, route = state.copy(), [], {}  # route: where each hat that moved came from
    for move in moves:
        after.advance(move)
        taken += after.last_captures
        route[move.target] = route.pop(move.origin, move.origin)
    return after, taken, {origin: target for target, origin in route.items()}


def the_hats(squares: Sequence[int]) -> str:
    """``the hat on e5``, ``the hats on e5 and f6``, ``the hats on c3, e5 and f6``."""
    names = [square_name(square) for square in squares]
    if len(names) == 1:
        return f"the hat on {names[0]}"
    return f"the hats on {', '.join(names[:-1])} and {names[-1]}"


def sentence(facts: TurnFacts) -> str:
    """The one sentence a hint shows."""
    opponent = SEAT_NAMES[1 - facts.mover]
    first, rest = facts.moves[0], facts.moves[1:]
    text = f"this {'hat jump' if isinstance(first, Jump) else 'step'} "
    if rest:
        text = text.rstrip() + f", followed by {' then '.join(map(str, rest))}, "
    if facts.won:
        left = "only one hatted piece" if facts.hats_left else "no hatted piece"
        return text + f"takes {the_hats(facts.taken)} and wins the game: {opponent} has {left} left"
    clauses = [f"takes {the_hats(facts.taken)}"] if facts.taken else []
    if facts.saved:
        clauses.append(f"saves {the_hats(facts.saved)}, which {opponent} could have taken next turn")
    if facts.threats and len(clauses) < 2:
        when = "with your next action" if facts.same_turn else "on your next turn"
        clauses.append(f"threatens to take {the_hats(facts.threats)} {when}")
    if not clauses:
        if not facts.exposed:
            return text + f"leaves {opponent} no hat to take next turn"
        return text + f"is the least bad the bot found: {opponent} could still take {the_hats(facts.exposed)} next turn"
    text += " and ".join(clauses)
    if facts.exposed:
        text += f", but {opponent} could take {the_hats(facts.exposed)} next turn"
    return text


def describe(state: SombreroState, moves: Sequence[SombreroMove]) -> str:
    """The hint sentence for playing ``moves`` (the suggested action, then the rest of the planned turn)."""
    return sentence(turn_facts(state, moves))


def turn_text(state: SombreroState, actions: Sequence[Action]) -> str:
    """A planned turn in notation: ``e4-e5 then e5-f6``."""
    board = list(state.board)
    moves = []
    for action in actions:
        moves.append(str(move_of(board, action)))
        perform(board, action, state.options.jump_captures)
    return " then ".join(moves)


def search_detail(state: SombreroState, result: SearchResult) -> str:
    """The numbers behind the strong bot's turn, in plain words."""
    seat, jump_captures = state.turn, state.options.jump_captures
    assert seat is not None
    board = list(state.board)
    for action in result.actions:
        perform(board, action, jump_captures)
    terms = evaluate(board, bitboards(board), seat, jump_captures)
    turns_deep = (result.depth - state.actions_left) // 2 + 1
    counted = ", ".join(
        f"{words} {term:+d} ({weight} each)"
        for words, term, weight in zip(_TERM_WORDS, terms, EVALUATION_WEIGHTS, strict=True)
    )
    return (
        f"The strong bot planned the turn {turn_text(state, result.actions)}, looking {turns_deep} turn(s) ahead "
        f"through {result.nodes:,} positions; its search scores this turn {result.value:+d} for you "
        f"({EVALUATION_WEIGHTS[0]} is worth one hat). Right after the turn it counts: "
        f"{counted.format(opponent=SEAT_NAMES[1 - seat])}. Ending a turn in a position the game has already "
        f"been in costs {REPEAT_COST} for each earlier time, and when you are not behind, every hat taken on the "
        f"way (by either side) counts {progress_per_hat(state.quiet_actions)} for you (more the longer no hat has "
        f"been taken) and each step between one of your hatted pieces and {SEAT_NAMES[1 - seat]}'s nearest hat "
        f"costs {APPROACH}, so that the game moves on."
    )


# What each evaluation term counts, in the order of EVALUATION_WEIGHTS.
_TERM_WORDS = (
    "hats you have more than {opponent}",
    "hats you could soon take",
    "hats {opponent} could soon take",
    "steps you can make more than {opponent}",
    "steps by which your hatted pieces stand nearer {opponent}'s hats than {opponent}'s stand to yours",
)


# ---------------------------------------------------------------- the bots

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
    """What a remembered second action is tied to: the board, the side to act and its actions left."""
    return tuple(state.board), state.turn, state.actions_left


class TurnBot:
    """Plays a planned turn action by action; subclasses say how to plan one."""

    name = "turn"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self._pending: tuple[PositionKey, SombreroMove, str] | None = None

    def choose(self, seat_view: SeatView) -> SombreroMove:
        """The next action of the planned turn."""
        return self._rest_of_turn(seat_view)[1][0]

    def hint(self, seat_view: SeatView) -> Hint:
        """The next action of the planned turn, what the rest of the turn does, and the numbers behind it."""
        state, moves, detail = self._rest_of_turn(seat_view)
        return Hint(moves[0], describe(state, moves), detail)

    def _rest_of_turn(self, seat_view: SeatView) -> tuple[SombreroState, list[SombreroMove], str]:
        """The position, the actions of the planned turn still to play and the plan's detail.

        Plans when needed; otherwise plays the second action it remembered.
        """
        moves_of(seat_view)  # a UsageError for a seat with no move to make
        state = seat_view.sample_world(self.rng)
        assert isinstance(state, SombreroState) and state.turn is not None, "a Sombrero game in progress"
        if self._pending is not None and self._pending[0] == _position_key(state):
            return state, [self._pending[1]], self._pending[2]
        plan = self.plan(state, turn_starts(seat_view))
        moves = [move_of(state.board, plan.actions[0])]
        after = state.copy()
        after.advance(moves[0])
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


# Positions the strong bot searches per turn: on the server, and in the browser (Pyodide), where the search runs
# slower, so that a hint still comes within 2 s (issue 11). The times are in benchmarks/README.md and
# docs/static-site.md (benchmarks/bench_sombrero.py and benchmarks/site.py measure them).
SERVER_NODES = 50_000
BROWSER_NODES = 20_000
SEARCH_SECONDS = 1.2  # the most a turn's search may take however busy the machine: a hint comes within 1.5 s


def default_nodes() -> int:
    """The positions a strong bot searches per turn where it runs: fewer in the browser."""
    return BROWSER_NODES if in_browser() else SERVER_NODES


class SombreroStrong(TurnBot):
    """Alpha-beta over whole turns with iterative deepening, limited to ``nodes`` positions per turn.

    A node limit instead of a time limit makes the same position get the same
    hint on every machine of a kind (server or browser: :func:`default_nodes`).
    ``seconds`` is a safety net on top: on a machine too busy to search
    ``nodes`` positions in that time, the bot plays the best turn found when
    the time is up, so a hint still comes within 1.5 s.
    """

    name = "strong"

    def __init__(self, seed: int = 0, nodes: int | None = None, seconds: float = SEARCH_SECONDS) -> None:
        super().__init__(seed)
        self.nodes = default_nodes() if nodes is None else nodes
        self.seconds = seconds

    def plan(self, state: SombreroState, seen: Counter[tuple[Board, int]]) -> Plan:
        deadline = time.perf_counter() + self.seconds
        keys = Counter({turn_start_key(list(board), side): count for (board, side), count in seen.items()})
        result = search_turn(state, keys, self.nodes, self.rng, deadline)
        return Plan(result.actions, search_detail(state, result))


BOTS = {"greedy": SombreroGreedy, "strong": SombreroStrong}
