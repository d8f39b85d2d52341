"""Sombrero (Diset S.A.): take your opponent's hats by flanking their pieces.

Rules in brief (ruling ids of docs/rulings.md in brackets):

- An 8x8 board, squares a1-h8, a light square at h1. White sits at rank 1 and
  starts with e1 f1 g1 h1 a8 b8 c8 d8; Black with a1 b1 c1 d1 e8 f8 g8 h8. All
  sixteen pieces start hatted; White moves first [S1].
- A turn is two actions by the same side (the same piece may act twice). An
  action is a *step*: a hatted piece moves to one of its 8 neighbouring squares,
  which must be empty; or a *hat jump*: a hatted piece gives its hat to a
  neighbouring hatless piece of its own side and becomes hatless. Hatless pieces
  never act [S2].
- After a step, every straight line (8 directions) from the piece that moved is
  checked: a gapless run of enemy pieces, hatted or not, closed at the far end by
  a hatted piece of the mover's side, loses all its hats. Only the mover
  captures, so stepping between two enemies is safe; a hatless piece never closes
  a run. With the option ``jump_captures`` a hat jump captures the same way,
  checked from the piece that received the hat [S3].
- A side left with one hatted piece or none loses at once [S4]. Once both sides
  have exactly two hatted pieces, the game is drawn when each side has made 20
  more actions [S5]. A side that cannot act ends its turn early; two turns in a
  row without any action end the game as a draw [S2].

Decisions of hatskit where neither the rulebook nor docs/rulings.md speak:

- A side that cannot act is passed over by the engine, which narrates it in the
  events of the action that led there (S2). There is no pass move, so
  ``legal_moves`` is never empty while the game goes on; a loaded position whose
  side to move cannot act starts with that side already passed over.
- An action counts towards the S5 draw when both sides had exactly two hatted
  pieces before it; the counters (``endgame_actions``, White's then Black's) and
  the run of empty turns (``empty_turns``) are part of every position.
- A quiet game ends too: when 80 actions in a row (20 turns a side) take no
  hat, the game is a draw, whatever the hats left [S5, a hatskit decision]. The
  rulebook only ends a stalled game at two hatted pieces a side; without this, a
  side guarding its last hats in a corner could make a game last for ever. An
  event warns 20 actions before. The count (``quiet_actions``) is part of every
  position.
- A position may leave pieces out (exercise positions), but never holds more
  than 8 pieces of a side. The seed is kept in records but Sombrero uses no chance.
- The fields the rules derive must agree with them. A finished game (S2, S4,
  S5) has ``to_move`` null and ``actions_left`` 0 (or leaves them out); a game
  that goes on names the side to move. ``empty_turns`` is 1 only at the start of
  a turn (``actions_left`` 2) whose opponent cannot act; an empty turn of the
  side to move is counted on loading. ``endgame_actions`` are counted only at
  two hatted pieces a side. ``last_captures`` are the hats one action took, so
  they belong to one side: while the game goes on, the side that did not make
  the last action (the side to move if it has both actions left and no empty
  turn came between, else the other).

Notation: a square is its file and rank (``e4``). Moves: ``e1-e2`` a step,
``e1>f2`` a hat jump from e1 to f2.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from hatskit.core import (
    Event,
    GameSpec,
    InvalidMoveError,
    Outcome,
    RecordError,
    ScoreLine,
    ScoreSheet,
    TurnBased,
    brief,
    make_options,
    options_dict,
    whole_number,
)

# ---------------------------------------------------------------- options


@dataclass(frozen=True)
class SombreroOptions:
    """Rule options. ``jump_captures``: a hat jump captures too, seen from the receiver (S3)."""

    jump_captures: bool = False


# ---------------------------------------------------------------- board and pieces

FILES = "abcdefgh"
WHITE, BLACK = 0, 1
SIDES = ("white", "black")
SEAT_NAMES = ("White", "Black")
ENDGAME_ACTIONS = 20
QUIET_ACTIONS = 80  # actions in a row without a hat taken that draw the game (S5, a hatskit decision)
QUIET_WARNING = QUIET_ACTIONS - 20
EMPTY = 0
# A square holds EMPTY or a piece code; a hatted code plus one is the same side's hatless code.
HATTED = (1, 3)
HATLESS = (2, 4)
OWNER = (None, WHITE, WHITE, BLACK, BLACK)
_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven")


def square_name(square: int) -> str:
    """``e4`` for square 28: squares count from a1 (0) along the ranks to h8 (63)."""
    return f"{FILES[square % 8]}{square // 8 + 1}"


def parse_square(text: str, error: type[Exception] = InvalidMoveError) -> int:
    """The square called ``text`` (``e4``); the error quotes the text."""
    name = str(text).strip().lower()
    if len(name) != 2 or name[0] not in FILES or name[1] not in "12345678":
        raise error(f"{text!r} is not a square: files run a-h and ranks 1-8, like e4")
    return FILES.index(name[0]) + 8 * (int(name[1]) - 1)


def distance(a: int, b: int) -> int:
    """Squares between ``a`` and ``b`` for a king-like walker (0 for the same square)."""
    return max(abs(a % 8 - b % 8), abs(a // 8 - b // 8))


DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))


def _ray(square: int, step: tuple[int, int]) -> tuple[int, ...]:
    file, rank = square % 8 + step[0], square // 8 + step[1]
    squares = []
    while 0 <= file < 8 and 0 <= rank < 8:
        squares.append(file + 8 * rank)
        file, rank = file + step[0], rank + step[1]
    return tuple(squares)


# Precomputed once: the neighbours of each square, and the straight lines leaving it
# that are long enough to hold a run and its closer (at least two squares).
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(ray[0] for step in DIRECTIONS if (ray := _ray(square, step))) for square in range(64)
)
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(ray for step in DIRECTIONS if len(ray := _ray(square, step)) >= 2) for square in range(64)
)


def start_board() -> list[int]:
    """The S1 setup: each side has four pieces at home and four on the far rank's other half."""
    board = [EMPTY] * 64
    for name in ("e1", "f1", "g1", "h1", "a8", "b8", "c8", "d8"):
        board[parse_square(name)] = HATTED[WHITE]
    for name in ("a1", "b1", "c1", "d1", "e8", "f8", "g8", "h8"):
        board[parse_square(name)] = HATTED[BLACK]
    return board


# ---------------------------------------------------------------- the fast core (shared with the bots)

Action = tuple[int, int]  # (origin, target): a step when the target is empty, else a hat jump


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


# ---------------------------------------------------------------- moves


@dataclass(frozen=True)
class _SquareMove:
    """An action from square ``origin`` to a neighbouring ``target``, written with a separator."""

    separator: ClassVar[str]
    origin: int
    target: int

    def __str__(self) -> str:
        return f"{square_name(self.origin)}{self.separator}{square_name(self.target)}"


class Step(_SquareMove):
    """A hatted piece moves from ``origin`` to the empty neighbouring ``target`` (S2)."""

    separator = "-"


class Jump(_SquareMove):
    """The hat on ``origin`` jumps onto the neighbouring hatless friend on ``target`` (S2)."""

    separator = ">"


SombreroMove = Step | Jump
# Each square is read as at most four characters, so no text makes the match backtrack for long.
_MOVE = re.compile(r"\s*([^\s>-]{1,4})\s*([->])\s*([^\s>-]{1,4})\s*")


def parse_move(text: str) -> SombreroMove:
    """A move from its notation; InvalidMoveError quotes what could not be read."""
    match = _MOVE.fullmatch(str(text))
    if not match:
        raise InvalidMoveError(f"{text!r} is not a Sombrero move: write e1-e2 (a step) or e1>f2 (a hat jump)")
    try:
        origin, target = parse_square(match.group(1)), parse_square(match.group(3))
    except InvalidMoveError as error:
        raise InvalidMoveError(f"{text!r} is not a Sombrero move: {error}") from None
    return Step(origin, target) if match.group(2) == "-" else Jump(origin, target)


def move_of(board: Sequence[int], action: Action) -> SombreroMove:
    """The move object of a legal action on ``board``."""
    return Step(*action) if board[action[1]] == EMPTY else Jump(*action)


# ---------------------------------------------------------------- state


@dataclass
class SombreroState(TurnBased):
    """A whole Sombrero position; ``turn`` is None once the game is over."""

    options: SombreroOptions
    board: list[int]
    turn: int | None = WHITE
    actions_left: int = 2
    endgame_actions: list[int] = field(default_factory=lambda: [0, 0])
    empty_turns: int = 0
    last_captures: list[int] = field(default_factory=list)
    quiet_actions: int = 0

    # -- the contract ---------------------------------------------------

    @property
    def to_move(self) -> int | None:
        """The side to act: the same seat for both actions of its turn (S2)."""
        return self.turn

    def seat_names(self) -> tuple[str, ...]:
        return SEAT_NAMES

    def copy(self) -> SombreroState:
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

    def legal_moves(self, seat: int | None = None) -> list[SombreroMove]:
        if self.turn is None:
            return []
        return [move_of(self.board, action) for action in actions_of(self.board, self.turn)]

    def why_illegal(self, move: SombreroMove) -> str | None:
        """None when legal, else a sentence naming the rule broken."""
        if self.turn is None:
            return f"the game is over: {self.outcome()}"
        return self._origin_reason(move) or self._target_reason(move)

    def advance(self, move: object) -> None:
        """TRANSITION: carry out a legal move; the story it returns is dropped."""
        self.apply(move)

    def apply(self, move: SombreroMove) -> list[Event]:
        """Carry out a legal action, its captures and what follows them; narrate it all."""
        seat = self.turn
        assert seat is not None, "the game is over"
        counted = self.endgame_counting()
        events = [self._narrate(move, seat)]
        events += self._move_and_capture(move, seat)
        self.empty_turns = 0
        self.actions_left -= 1
        self.quiet_actions = 0 if self.last_captures else self.quiet_actions + 1
        if counted:
            self.endgame_actions[seat] += 1
        return events + self._after_action(counted)

    # -- legality ---------------------------------------------------------

    def _origin_reason(self, move: SombreroMove) -> str | None:
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
        target, piece = square_name(move.target), self.board[move.target]
        apart = distance(move.origin, move.target)
        if apart != 1:
            what = "a step goes" if isinstance(move, Step) else "a hat jumps"
            where = "does not leave its square" if apart == 0 else f"is {_NUMBER_WORDS[apart]} squares away"
            return f"{move} {where}: {what} to one of the 8 neighbouring squares (S2)"
        if isinstance(move, Step):
            if piece == EMPTY:
                return None
            hint = (
                f" (to pass a hat there, write {Jump(move.origin, move.target)})" if piece == HATLESS[self.turn] else ""
            )
            return f"{target} is taken: a step goes to an empty square (S2){hint}"
        if piece == HATLESS[self.turn]:
            return None
        if piece == EMPTY:
            return f"{target} is empty: a hat jumps onto a hatless piece of your own (S2)"
        if OWNER[piece] != self.turn:
            return f"{target} is not your piece: a hat jumps only onto your own hatless pieces (S2)"
        return f"{target} already has a hat: a hat jumps only onto a hatless piece (S2)"

    # -- effects ------------------------------------------------------------

    def _narrate(self, move: SombreroMove, seat: int) -> Event:
        name = SEAT_NAMES[seat]
        if isinstance(move, Step):
            return Event(f"{name} stepped {move}", "S2")
        origin, target = square_name(move.origin), square_name(move.target)
        return Event(f"{name} passed the hat of {origin} to {target} ({move}): {origin} is now hatless", "S2")

    def _move_and_capture(self, move: SombreroMove, seat: int) -> list[Event]:
        """Move the piece or the hat, then name every hat taken and the two pieces that flanked it (S3)."""
        self.last_captures = perform(self.board, (move.origin, move.target), self.options.jump_captures)
        closers = {square: closer for run, closer in flanked_runs(self.board, move.target, seat) for square in run}
        flanker = square_name(move.target)
        return [
            Event(
                f"{square_name(square)} lost its hat: flanked by {flanker} and {square_name(closers[square])} (S3)",
                "S3",
            )
            for square in self.last_captures
        ]

    def _after_action(self, counted: bool) -> list[Event]:
        if self._ending() is not None:
            return self._finish()
        events = []
        if not counted and self.endgame_counting():
            events.append(
                Event("Both sides have two hatted pieces: after 20 more actions each it is a draw (S5)", "S5")
            )
        if self.quiet_actions == QUIET_WARNING:
            warning = f"No hat taken in {QUIET_WARNING} actions: if the next {QUIET_ACTIONS - QUIET_WARNING} take none"
            events.append(Event(f"{warning}, the game is a draw (S5)", "S5"))
        if self.actions_left == 0:
            return events + self._next_turn()
        return events + self._skip_if_stuck()

    def _next_turn(self) -> list[Event]:
        assert self.turn is not None
        self.turn, self.actions_left = 1 - self.turn, 2
        return self._skip_if_stuck()

    def _skip_if_stuck(self) -> list[Event]:
        """A side that cannot act loses the rest of its turn; two empty turns draw (S2)."""
        events = []
        while self.turn is not None and not has_action(self.board, self.turn):
            name = SEAT_NAMES[self.turn]
            if self.actions_left == 1:
                events.append(Event(f"{name} has no second action: the turn ends early (S2)", "S2"))
            else:
                self.empty_turns += 1
                events.append(Event(f"{name} cannot act: an empty turn ({self.empty_turns} in a row) (S2)", "S2"))
                if self.empty_turns >= 2:
                    return events + self._finish()
            self.turn, self.actions_left = 1 - self.turn, 2
        return events

    def _finish(self) -> list[Event]:
        ending = self._ending()
        assert ending is not None
        self.turn, self.actions_left = None, 0
        return [Event(ending[0].reason, ending[1])]

    # -- counting, scoring and the end ------------------------------------------

    def hats(self, seat: int) -> int:
        """How many hatted pieces ``seat`` has."""
        return self.board.count(HATTED[seat])

    def squares_of(self, code: int) -> list[str]:
        """The names of the squares holding piece ``code``, from a1 to h8."""
        return [square_name(square) for square, held in enumerate(self.board) if held == code]

    def endgame_counting(self) -> bool:
        """Whether actions count towards the S5 draw: both sides have exactly two hatted pieces."""
        return self.hats(WHITE) == 2 and self.hats(BLACK) == 2

    def _ending(self) -> tuple[Outcome, str] | None:
        """How the game ended (the outcome and its rule), or None while it goes on."""
        for loser in (WHITE, BLACK):
            left = self.hats(loser)
            if left <= 1:
                winner = 1 - loser
                what = "only one hatted piece" if left else "no hatted piece"
                reason = f"{SEAT_NAMES[winner]} wins: {SEAT_NAMES[loser]} has {what} left (S4)"
                return Outcome((winner,), reason), "S4"
        if min(self.endgame_actions) >= ENDGAME_ACTIONS:
            reason = f"draw: both sides made {ENDGAME_ACTIONS} actions with two hatted pieces each (S5)"
            return Outcome((), reason), "S5"
        if self.empty_turns >= 2:
            return Outcome((), "draw: two turns in a row passed without any action (S2)"), "S2"
        if self.quiet_actions >= QUIET_ACTIONS:
            reason = f"draw: {QUIET_ACTIONS} actions in a row ({QUIET_ACTIONS // 4} turns a side) took no hat (S5)"
            return Outcome((), reason), "S5"
        return None

    def outcome(self) -> Outcome | None:
        """Who won and why (S4), or the draw and its rule (S2, S5); None while playing."""
        ending = self._ending()
        return None if ending is None else ending[0]

    def score(self) -> ScoreSheet:
        """One line per side: its hatted pieces, the count that decides S4."""
        lines = []
        for seat in (WHITE, BLACK):
            squares = self.squares_of(HATTED[seat])
            where = f"hatted on {', '.join(squares)}" if squares else "no hatted piece"
            lines.append(ScoreLine(seat, "hats", len(squares), f"{where} (one or none left loses, S4)"))
        return ScoreSheet(tuple(lines), SEAT_NAMES, final=self.turn is None)

    # -- views and positions --------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything is public in Sombrero, so every seat sees the same."""
        ending = self.outcome()
        return {
            "game": "sombrero",
            "seat": seat,
            "names": list(SEAT_NAMES),
            "to_move": self.turn,
            "actions_left": self.actions_left,
            "board": {
                square_name(square): {"side": OWNER[code], "hatted": code in HATTED}
                for square, code in enumerate(self.board)
                if code != EMPTY
            },
            "hats": [self.hats(WHITE), self.hats(BLACK)],
            "last_captures": [square_name(square) for square in self.last_captures],
            "endgame_counting": self.endgame_counting(),
            "endgame_actions": list(self.endgame_actions),
            "empty_turns": self.empty_turns,
            "quiet_actions": self.quiet_actions,
            "options": options_dict(self.options),
            "outcome": None if ending is None else ending.reason,
            "position": self.position(),  # all of it is public: what a bot loads to think
        }

    def position(self) -> dict[str, Any]:
        """The position format (docs/rulings.md, "Positions"), with the S2 and S5 counters and the last captures."""
        return {
            "game": "sombrero",
            "to_move": None if self.turn is None else SIDES[self.turn],
            "actions_left": self.actions_left,
            **{
                SIDES[seat]: {"hatted": self.squares_of(HATTED[seat]), "hatless": self.squares_of(HATLESS[seat])}
                for seat in (WHITE, BLACK)
            },
            "options": options_dict(self.options),
            "endgame_actions": list(self.endgame_actions),
            "empty_turns": self.empty_turns,
            "last_captures": [square_name(square) for square in self.last_captures],
            "quiet_actions": self.quiet_actions,
        }


# ---------------------------------------------------------------- worlds (what a bot imagines)


def sample_world(view: Mapping[str, Any], rng: random.Random) -> SombreroState:
    """The state a seat's view shows: Sombrero hides nothing, so there is nothing to sample."""
    del rng
    return load_position(view["position"])


# ---------------------------------------------------------------- setup and loading


def new_state(players: int | None, seed: int, options: SombreroOptions) -> SombreroState:
    """The S1 setup; Sombrero is for two and uses no chance, so ``seed`` changes nothing."""
    if players not in (None, 2):
        raise RecordError(f"Sombrero is a game for 2 players, not {players!r}")
    return SombreroState(options, start_board())


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
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise RecordError(f'field {where!r} must be a list of square names like "e4", not {names!r}')
    try:
        return [parse_square(name, RecordError) for name in names]
    except RecordError as error:
        raise RecordError(f"field {where!r}: {error}") from None


def _counters(data: Mapping[str, Any]) -> list[int]:
    counters = data.get("endgame_actions", [0, 0])
    if not isinstance(counters, list) or len(counters) != 2:
        raise RecordError(f"field 'endgame_actions' must list White's and Black's S5 actions, not {brief(counters)}")
    return [whole_number(n, "field 'endgame_actions'", 0, ENDGAME_ACTIONS) for n in counters]


def _last_captures(data: Mapping[str, Any], board: Sequence[int]) -> list[int]:
    squares = _squares(data.get("last_captures", []), "last_captures")
    for square in squares:
        if board[square] not in HATLESS:
            raise RecordError(f"field 'last_captures': {square_name(square)} holds no hatless piece")
    if len(set(squares)) != len(squares) or len({OWNER[board[square]] for square in squares}) > 1:
        raise RecordError("field 'last_captures': one action takes hats of one side, each once (S3)")
    return squares


def _set_turn(state: SombreroState, data: Mapping[str, Any]) -> None:
    """Set whose turn it is from ``to_move`` and ``actions_left``, checking them and the counters against the rules."""
    if max(state.hats(WHITE), state.hats(BLACK)) <= 1:
        raise RecordError("fields 'white' and 'black': both sides have at most one hatted piece (S4)")
    if any(state.endgame_actions) and max(state.hats(WHITE), state.hats(BLACK)) > 2:
        raise RecordError("field 'endgame_actions': S5 counts only once both sides have two hatted pieces")
    ending = state._ending()
    if ending is not None:
        _check_finished(data, ending[0])
        state.turn, state.actions_left = None, 0
        return
    to_move = data.get("to_move")
    if to_move not in SIDES:
        raise RecordError(f'field \'to_move\' must be "white" or "black" while the game goes on, not {brief(to_move)}')
    state.turn = SIDES.index(to_move)
    state.actions_left = whole_number(data.get("actions_left", 2), "field 'actions_left'", 1, 2)
    _check_empty_turns(state)
    _check_last_captures(state)
    state._skip_if_stuck()


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


def _render(state: SombreroState, seat: int | None = None) -> str:
    from hatskit.render.sombrero import board_html  # TRANSITION: the renderer imports this module

    return board_html(state)


def _narrate(before: SombreroState, after: SombreroState, move: object) -> list:
    return before.copy().apply(move)  # TRANSITION: told by carrying the move out again


SPEC = GameSpec(
    game_id="sombrero",
    title="Sombrero",
    players=(2,),
    simultaneous=False,
    hidden_information=False,
    chance=False,
    options_type=SombreroOptions,
    parse_move=parse_move,
    new_state=new_state,
    load_position=load_position,
    save_position=SombreroState.position,
    view=SombreroState.view,
    sample_world=sample_world,
    narrate=_narrate,
    score=SombreroState.score,
    outcome=SombreroState.outcome,
    render=_render,
    bot_module="hatskit.bots.sombrero",
)
