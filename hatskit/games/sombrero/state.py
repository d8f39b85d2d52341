"""Sombrero's rules: the board functions the bots share, and the state that knows whose turn it is.

The board functions (``actions_of``, ``has_action``, ``flanked_runs``,
``perform``, ``take_back``, ``passed_over``) work on a plain list of 64 codes,
so the bots' searches change one board in place and never copy a state.
:class:`SombreroState` holds a whole position: it says who acts, which moves
are legal and why not (with the ruling's id), and ``advance`` carries out an
action and all that follows it (captures, the turn passing, a side passed
over, the end) without telling anything. Rulings are explained in
``docs/rulings.md`` (S2-S5 and the Sombrero decisions).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from hatskit.core import TurnBased
from hatskit.games.sombrero import scoring
from hatskit.games.sombrero.components import (
    BLACK,
    EMPTY,
    HATLESS,
    HATTED,
    NEIGHBOURS,
    OWNER,
    RAYS,
    SEAT_NAMES,
    WHITE,
    SombreroOptions,
    distance,
    square_name,
)
from hatskit.games.sombrero.moves import Action, Jump, SombreroMove, Step, move_of

_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven")

# ---------------------------------------------------------------- the board functions (shared with the bots)


def actions_of(board: Sequence[int], seat: int) -> list[Action]:
    """Every action of ``seat``: steps to empty neighbours, jumps onto own hatless neighbours (S2)."""
    hatted, hatless = HATTED[seat], HATLESS[seat]
    return [
        (origin, target)
        for origin, code in enumerate(board)
        if code == hatted
        for target in NEIGHBOURS[origin]
        if board[target] == EMPTY or board[target] == hatless
    ]


def has_action(board: Sequence[int], seat: int) -> bool:
    """Whether ``seat`` can act at all (S2), without listing every action."""
    hatted, hatless = HATTED[seat], HATLESS[seat]
    return any(
        board[target] in (EMPTY, hatless)
        for origin, code in enumerate(board)
        if code == hatted
        for target in NEIGHBOURS[origin]
    )


def flanked_runs(board: Sequence[int], square: int, seat: int) -> list[tuple[tuple[int, ...], int]]:
    """The runs a hatted piece of ``seat`` on ``square`` flanks, each with its closing piece (S3).

    A run is one or more enemy pieces, hatted or not, with no gap, and a hatted
    piece of ``seat`` right after it. Only the lines leaving ``square`` are
    looked at: the piece that acted is always one end of the line.
    """
    enemy = (HATTED[1 - seat], HATLESS[1 - seat])
    closer = HATTED[seat]
    runs = []
    for ray in RAYS[square]:
        if board[ray[0]] not in enemy:
            continue
        for length, beyond in enumerate(ray):
            if board[beyond] not in enemy:
                if board[beyond] == closer:
                    runs.append((ray[:length], beyond))
                break
    return runs


def hats_in_runs(board: Sequence[int], runs: Sequence[tuple[tuple[int, ...], int]]) -> list[int]:
    """The squares of the runs whose pieces still wear a hat, in run order."""
    return [square for run, _ in runs for square in run if board[square] in HATTED]


def move_piece(board: list[int], origin: int, target: int) -> bool:
    """Carry out a step or a hat jump on ``board``; True for a step."""
    piece = board[origin]
    if board[target] == EMPTY:
        board[target], board[origin] = piece, EMPTY
        return True
    board[target], board[origin] = piece, piece + 1
    return False


def perform(board: list[int], action: Action, jump_captures: bool) -> list[int]:
    """Carry out an action and its captures (S2, S3); returns the squares that lost their hats."""
    origin, target = action
    seat = OWNER[board[origin]]
    stepped = move_piece(board, origin, target)
    if not (stepped or jump_captures):
        return []
    taken = hats_in_runs(board, flanked_runs(board, target, seat))
    for square in taken:
        board[square] += 1
    return taken


def take_back(board: list[int], action: Action, taken: Sequence[int]) -> None:
    """Undo :func:`perform`, given the hats it took."""
    origin, target = action
    for square in taken:
        board[square] -= 1
    piece = board[target]
    if board[origin] == EMPTY:
        board[origin], board[target] = piece, EMPTY
    else:
        board[origin], board[target] = piece, piece + 1


def passed_over(board: Sequence[int], seat: int, left: int, empty_turns: int) -> list[tuple[int, int]]:
    """The sides the game passes over from ``seat`` with ``left`` actions, because they cannot act (S2).

    Each is ``(seat, actions left)``: with one action left the turn ends early,
    with two it is an empty turn. The walk stops at a side that can act, or at
    the second empty turn in a row (counting ``empty_turns`` already made),
    which draws the game.
    """
    passed = []
    while not has_action(board, seat):
        passed.append((seat, left))
        if left == 2:
            empty_turns += 1
            if empty_turns >= 2:
                break
        seat, left = 1 - seat, 2
    return passed


# ---------------------------------------------------------------- the state


@dataclass
class SombreroState(TurnBased):
    """A whole Sombrero position; ``turn`` is None once the game is over.

    ``last_captures`` are the squares whose hats the last action took, in the
    order it took them; ``endgame_actions`` (White's, Black's), ``empty_turns``
    and ``quiet_actions`` are the counts of S2 and S5.
    """

    options: SombreroOptions
    board: list[int]
    turn: int | None = WHITE
    actions_left: int = 2
    endgame_actions: list[int] = field(default_factory=lambda: [0, 0])
    empty_turns: int = 0
    last_captures: list[int] = field(default_factory=list)
    quiet_actions: int = 0

    @property
    def to_move(self) -> int | None:
        """The side to act: the same seat for both actions of its turn (S2)."""
        return self.turn

    def seat_names(self) -> tuple[str, ...]:
        """White, then Black."""
        return SEAT_NAMES

    def copy(self) -> SombreroState:
        """A state that shares nothing mutable with this one."""
        return SombreroState(
            self.options,
            list(self.board),
            self.turn,
            self.actions_left,
            list(self.endgame_actions),
            self.empty_turns,
            list(self.last_captures),
            self.quiet_actions,
        )

    def hats(self, seat: int) -> int:
        """How many hatted pieces ``seat`` has."""
        return self.board.count(HATTED[seat])

    def endgame_counting(self) -> bool:
        """Whether actions count towards the S5 draw: both sides have exactly two hatted pieces."""
        return self.hats(WHITE) == 2 and self.hats(BLACK) == 2

    # -- legality ---------------------------------------------------------

    def legal_moves(self, seat: int | None = None) -> list[SombreroMove]:
        """Every action of the side to move; never empty while the game goes on (no pass move, S2)."""
        if self.turn is None:
            return []
        return [move_of(self.board, action) for action in actions_of(self.board, self.turn)]

    def why_illegal(self, move: SombreroMove) -> str | None:
        """None when legal, else a sentence naming the rule broken."""
        if self.turn is None:
            return f"the game is over: {scoring.outcome(self)}"
        return self._origin_reason(move) or self._target_reason(move)

    def _origin_reason(self, move: SombreroMove) -> str | None:
        """Why the piece on the move's first square may not act, if it may not."""
        origin, piece = square_name(move.origin), self.board[move.origin]
        if piece == EMPTY:
            return f"there is no piece on {origin}"
        if OWNER[piece] != self.turn:
            return f"{origin} is not your piece: it is {SEAT_NAMES[OWNER[piece]]}'s"
        if piece in HATLESS:
            verb = "move" if isinstance(move, Step) else "pass a hat on"
            return f"{origin} has no hat: hatless pieces cannot {verb} (S2)"
        return None

    def _target_reason(self, move: SombreroMove) -> str | None:
        """Why the move's second square does not take this step or hat jump, if it does not."""
        apart = distance(move.origin, move.target)
        if apart != 1:
            origin, target = square_name(move.origin), square_name(move.target)
            what = "a piece steps" if isinstance(move, Step) else "a hat jumps"
            where = f"{target} is {_NUMBER_WORDS[apart]} squares away from {origin}" if apart else f"{origin} must move"
            return f"{where}: {what} only to one of the 8 squares around it (S2)"
        if isinstance(move, Step):
            return self._step_target_reason(move)
        return self._jump_target_reason(move)

    def _step_target_reason(self, move: Step) -> str | None:
        """A step goes to an empty square; onto a hatless friend, say how to pass the hat instead."""
        piece = self.board[move.target]
        if piece == EMPTY:
            return None
        hint = f" (to pass a hat there, write {Jump(move.origin, move.target)})" if piece == HATLESS[self.turn] else ""
        return f"{square_name(move.target)} is taken: a step goes to an empty square (S2){hint}"

    def _jump_target_reason(self, move: Jump) -> str | None:
        """A hat jumps onto a hatless piece of the mover's side."""
        target, piece = square_name(move.target), self.board[move.target]
        if piece == HATLESS[self.turn]:
            return None
        if piece == EMPTY:
            return f"{target} is empty: a hat jumps onto a hatless piece of your own (S2)"
        if OWNER[piece] != self.turn:
            return f"{target} is not your piece: a hat jumps only onto your own hatless pieces (S2)"
        return f"{target} already has a hat: a hat jumps only onto a hatless piece (S2)"

    # -- carrying a move out ------------------------------------------------

    def advance(self, move: SombreroMove) -> None:
        """Carry out a legal action, its captures (S3), the counts (S5) and the turn passing (S2, S4)."""
        seat = self.turn
        assert seat is not None, "the game is over"
        counted = self.endgame_counting()
        self.last_captures = perform(self.board, (move.origin, move.target), self.options.jump_captures)
        self.empty_turns = 0
        self.actions_left -= 1
        self.quiet_actions = 0 if self.last_captures else self.quiet_actions + 1
        if counted:
            self.endgame_actions[seat] += 1
        if scoring.ending(self) is not None:
            self.finish()
            return
        if self.actions_left == 0:
            self.turn, self.actions_left = 1 - seat, 2
        self.pass_over_stuck_sides()

    def pass_over_stuck_sides(self) -> None:
        """Pass the turn on while the side to move cannot act; a second empty turn in a row draws (S2)."""
        assert self.turn is not None
        for seat, left in passed_over(self.board, self.turn, self.actions_left, self.empty_turns):
            if left == 2:
                self.empty_turns += 1
            self.turn, self.actions_left = 1 - seat, 2
        if self.empty_turns >= 2:
            self.finish()

    def finish(self) -> None:
        """End the game: nobody is to move and no action is left."""
        self.turn, self.actions_left = None, 0
