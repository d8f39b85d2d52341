"""The contract every hatskit game offers.

A game module (``hats``, ``sombrero``, ...) supplies a *state* class that knows
the rules and a :class:`GameSpec` that tells this module how to build, parse and
load it. :class:`Game` wraps a state with everything that is the same for every
game: the history of moves, undo, step-through (``state_at``), records and the
errors a failed call raises. A failed call never changes anything.

Bad input is refused here once for every game, before any game reads it: a move
text longer than ``MAX_MOVE_CHARS`` (no notation comes near it), a record text
longer than ``MAX_RECORD_CHARS`` or nested deeper than ``MAX_DEPTH``, and in any
record, position or options object a string longer than ``MAX_TEXT``, a whole
number beyond ``MAX_INT`` or more than ``MAX_ITEMS`` values (:func:`check_json_value`).
Seeds are whole numbers from 0 to ``MAX_INT``, so every record can hold its seed.
A seat is None or a seat of the game, a ply one of the game's plies; anything
else is a :class:`UsageError`.
"""

from __future__ import annotations

import copy
import random
import re
import reprlib
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any, NamedTuple, Protocol, Self

from hatskit.drawing import scoresheet_html, style_tag

# The players' names, seat 0 first; a game seats as many as it takes.
PLAYER_NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli")


class HatskitError(Exception):
    """Base of every error hatskit raises on purpose."""


class InvalidMoveError(HatskitError, ValueError):
    """A move text that cannot be parsed; the message quotes it."""


class IllegalMoveError(HatskitError, ValueError):
    """A well-formed move that the rules forbid here; ``reason`` says why."""

    def __init__(self, move: str, reason: str) -> None:
        super().__init__(f"{move} is not allowed: {reason}")
        self.move = move
        self.reason = reason


class RecordError(HatskitError, ValueError):
    """A record, position or option that does not load; the message names the field."""


class UsageError(HatskitError, ValueError):
    """A call the contract does not allow: a seat or ply the game does not have, undo at the start."""


@dataclass(frozen=True)
class Event:
    """One narrated thing a move caused, with the ruling it applied (e.g. "H2")."""

    text: str
    rule: str | None = None

    def __str__(self) -> str:
        return self.text


class ScoreLine(NamedTuple):
    """One explained row of a score sheet; ``round`` is its round in a game played in rounds.

    ``shows`` names the cards the line counts by their notation ("♥5", "Fedora*"), or the board's squares ("e4"),
    so a view can point at them while the reader reads the line (view.js); a line about nothing the table
    shows names none.
    """

    seat: int
    category: str
    points: int
    explanation: str
    round: int | None = None
    shows: tuple[str, ...] = ()


@dataclass(frozen=True)
class ScoreSheet:
    """Every point explained: totals are derived from the lines, never stored apart.

    In a game played in rounds (Madder than a Hatter) each line carries its
    round: ``rounds`` lists them, ``round_totals(r)`` gives one round's points
    per seat and ``totals`` stays the game total, the sum over every round. A
    sheet that is not ``final`` scores the position "if it ended now", and
    ``note`` says what it leaves out (cards still secret).
    """

    lines: tuple[ScoreLine, ...]
    seat_names: tuple[str, ...]
    teams: tuple[tuple[int, ...], ...] | None = None
    final: bool = True
    note: str = ""  # what a mid-game sheet leaves out, e.g. Hats' secret favorites

    @property
    def totals(self) -> list[int]:
        """Points per seat."""
        sums = [0] * len(self.seat_names)
        for line in self.lines:
            sums[line.seat] += line.points
        return sums

    @property
    def team_totals(self) -> list[int] | None:
        """Points per team (sum of its members), or None for a game without teams."""
        if self.teams is None:
            return None
        totals = self.totals
        return [sum(totals[seat] for seat in team) for team in self.teams]

    def lines_of(self, seat: int) -> list[ScoreLine]:
        """The lines that belong to one seat."""
        return [line for line in self.lines if line.seat == seat]

    @property
    def rounds(self) -> tuple[int, ...]:
        """The rounds the lines belong to, in order (empty for a game without rounds)."""
        return tuple(sorted({line.round for line in self.lines if line.round is not None}))

    def round_totals(self, round_number: int) -> list[int]:
        """Points per seat in one round."""
        sums = [0] * len(self.seat_names)
        for line in self.lines:
            if line.round == round_number:
                sums[line.seat] += line.points
        return sums

    def __repr__(self) -> str:
        teams = f" teams={self.team_totals}" if self.teams else ""
        return f"<ScoreSheet totals={self.totals}{teams} final={self.final}>"

    def _repr_html_(self) -> str:
        return style_tag() + scoresheet_html(self)


@dataclass(frozen=True)
class Outcome:
    """Who won and why; no winners means a draw, several a shared win."""

    winners: tuple[int, ...]
    reason: str

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def __str__(self) -> str:
        return self.reason


@dataclass(frozen=True)
class EndPhase:
    """A move that ends an optional phase or declines an optional choice.

    ``done``: no more plays in a phase where playing is optional (Madder than
    a Hatter's end of round); ``decline``: an optional ability left unused. A
    table view shows it as a button labelled with its word.
    """

    word: str

    def __str__(self) -> str:
        return self.word


class State(Protocol):
    """What a game's state class offers: the rules, and nothing else.

    Several seats may act at once (a race in Hats Off!): ``acting`` names them,
    and a move knows its seat (``seat_of``). A turn-based game inherits all of
    that from :class:`TurnBased` and only says ``to_move``. ``advance`` carries
    out a move and tells nothing: the game's narration tells it afterwards from
    the states before and after (:meth:`GameSpec.apply`), so a bot's simulation
    formats no sentence it will not read.
    """

    @property
    def acting(self) -> tuple[int, ...]: ...
    @property
    def is_over(self) -> bool: ...
    def seat_of(self, move: Any) -> int: ...
    def seat_names(self) -> tuple[str, ...]: ...
    def legal_moves(self, seat: int | None = None) -> list[Any]: ...
    def why_illegal(self, move: Any) -> str | None: ...
    def advance(self, move: Any) -> None: ...
    def copy(self) -> Self: ...


class TurnBased:
    """The many-seats part of the contract for a game where one seat decides at a time."""

    to_move: Any  # int | None, a property of the state class

    @property
    def acting(self) -> tuple[int, ...]:
        """The one seat to move, or none when the game is over."""
        return () if self.to_move is None else (self.to_move,)

    @property
    def is_over(self) -> bool:
        return self.to_move is None

    def seat_of(self, move: Any) -> int:
        """A turn-based move is made by the seat to move."""
        return self.to_move


@dataclass(frozen=True)
class GameSpec:
    """What kind of game one game is, and the functions that start, tell, score, save and draw it.

    This is a game's one registration point: ``hatskit.GAMES`` lists the specs,
    and every generic part (the ``Game`` wrapper, bots, views, the index) reads
    a game's nature here, as OpenSpiel's ``GameType`` does: its ``title``, the
    player counts it takes (``players``), whether several seats may act at once
    (``simultaneous``), whether a seat may not see everything
    (``hidden_information``) and whether shuffles or falls decide things no seat
    chooses (``chance``).

    The functions come from the game package's files, one concern each:
    ``parse_move`` (moves), ``narrate`` (narration: the events of a move, told
    from the states before and after it), ``score`` and ``outcome`` (scoring),
    ``new_state``, ``load_position``, ``save_position``, ``view`` and
    ``sample_world`` (positions: ``sample_world`` builds a full state that agrees
    with one seat's view, the cards that seat cannot see dealt at random, which
    is how bots think without reading the game) and ``render`` (the table as
    HTML, from the state and an optional viewing seat). ``bot_module`` names the
    module whose ``BOTS`` maps a bot kind to a factory taking a seed; it is
    imported only when a bot is asked for. ``options_type`` is a dataclass of
    rule options; a field whose metadata has ``"players"`` applies only to those
    player counts (views offer it only there).
    """

    game_id: str
    title: str
    players: tuple[int, ...]
    simultaneous: bool
    hidden_information: bool
    chance: bool
    options_type: type
    parse_move: Callable[[str], Any]
    new_state: Callable[[int | None, int, Any], State]
    load_position: Callable[[Mapping[str, Any]], State]
    save_position: Callable[[Any], dict[str, Any]]  # each takes the game's own state class
    view: Callable[[Any, int | None], dict[str, Any]]
    sample_world: Callable[[Mapping[str, Any], random.Random], State]
    narrate: Callable[[Any, Any, Any], list[Event]]
    score: Callable[[Any], ScoreSheet]
    outcome: Callable[[Any], Outcome | None]
    render: Callable[..., str]
    bot_module: str

    def read_move(self, move: Any) -> Any:
        """A move object from notation, or this game's own copy of a move object given instead.

        A move object is this game's when its notation reads back as an equal
        move, and then the move read back is what the rules see: a hand-built
        object whose fields only compare equal (a seat of 1.0, a subclass) never
        reaches them. Anything else (None, a number, another game's move, an
        object whose ``str()`` fails) is an InvalidMoveError, like notation that
        cannot be read. A game and a shared table's seat read moves so alike.
        """
        if isinstance(move, str):
            return self.parse_move(check_move_text(move))
        try:
            parsed = self.parse_move(check_move_text(str(move)))
        except Exception:
            parsed = None
        if parsed is None or parsed != move:
            raise InvalidMoveError(f"{brief(move)} is not a {self.game_id} move: give its notation or a legal move")
        return parsed

    def apply(self, state: State, move: Any) -> tuple[State, list[Event]]:
        """A legal ``move`` carried out on a copy of ``state``, and the events it caused (``state`` is unchanged)."""
        after = state.copy()
        after.advance(move)
        return after, self.narrate(state, after, move)


def make_options(options_type: type, given: Mapping[str, Any], game_id: str) -> Any:
    """Build a game's options dataclass, naming any unknown or mistyped option."""
    if not isinstance(given, Mapping):
        raise RecordError(f"field 'options' must be an object, not {brief(given)}")
    known = {f.name: f for f in fields(options_type)}
    for name, value in given.items():
        if name not in known:
            raise RecordError(f"unknown option {brief(name)} for {game_id}; options are: {', '.join(known)}")
        default = getattr(options_type(), name)
        if not _same_json_type(value, default):
            expected = type(default).__name__
            raise RecordError(f"option {name!r} of {game_id} must be a {expected}, not {brief(value)}")
    return options_type(**given)


def _same_json_type(value: object, default: object) -> bool:
    if isinstance(default, tuple | list):
        return isinstance(value, tuple | list)
    return default is None or type(value) is type(default)


def read_field(data: Mapping[str, Any], name: str, kind: type) -> Any:
    """A required field of a position, of type ``kind`` (bools are not numbers); RecordError names it."""
    if name not in data:
        raise RecordError(f"field {name!r} is missing")
    value = data[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise RecordError(f"field {name!r} must be a {kind.__name__}, not {brief(value)}")
    return value


def options_dict(options: Any) -> dict[str, Any]:
    """The JSON-safe form of an options dataclass (tuples become lists)."""
    return {name: list(v) if isinstance(v, tuple) else v for name, v in asdict(options).items()}


def game_random(seed: int, number: int) -> random.Random:
    """Generator ``number`` (0, 1, ...) of a game started with ``seed``.

    Each random event of a game (a shuffle, a round of falling hats) draws from
    its own generator, made from the seed and the event's number, so a position
    needs only those two small numbers to replay every later draw exactly.
    Generator 0 is ``Random(seed)`` itself; seeds below 2**64 make every
    (seed, number) pair a different generator.
    """
    return random.Random(seed + number * 2**64)


class SeededDraws:
    """A state whose random events draw from ``game_random(seed, draws)``, so a position keeps two numbers."""

    seed: int
    draws: int  # random events so far

    def next_random(self) -> random.Random:
        """The generator of the game's next random event."""
        self.draws += 1
        return game_random(self.seed, self.draws - 1)


def seeded_shuffle(items: list[Any], seed: int, number: int) -> None:
    """Shuffle ``items`` in place as shuffle ``number`` of a game started with ``seed`` (see game_random)."""
    game_random(seed, number).shuffle(items)


def new_seed() -> int:
    """A fresh seed for a game started without one (it is kept in the record)."""
    return random.SystemRandom().randrange(2**31)


# ---------------------------------------------------------------- input guards (one place for every game)

MAX_MOVE_CHARS = 100  # the longest notation of any game is far shorter
MAX_RECORD_CHARS = 2_000_000  # a record of thousands of moves fits many times over
MAX_DEPTH = 12  # a record holds a start position holding lists of names: five levels
MAX_ITEMS = 200_000  # values in one record, position or options object
MAX_TEXT = 1_000  # characters in one string value
MAX_INT = 2**63 - 1  # the largest whole number a record holds (a seed, a count)


class _Brief(reprlib.Repr):
    """A short repr for error messages: never deep, long, or a number too long to print."""

    def repr_int(self, x: int, level: int) -> str:
        return repr(x) if abs(x) <= MAX_INT else f"a number of {x.bit_length() * 3 // 10}+ digits"


_BRIEF = _Brief()
_BRIEF.maxstring = _BRIEF.maxother = 40


def brief(value: object) -> str:
    """``value`` quoted for a message, however large or deep it is."""
    return _BRIEF.repr(value)


def whole_number(value: object, what: str, least: int = 0, most: int = MAX_INT) -> int:
    """``value`` if it is a whole number from ``least`` to ``most`` (not a bool), else a RecordError."""
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        top = "2**63 - 1" if most == MAX_INT else most
        raise RecordError(f"{what} must be a whole number from {least} to {top}, not {brief(value)}")
    return value


def check_move_text(text: str) -> str:
    """``text`` if it is short enough to be a move; checked before any game parses it."""
    if len(text) > MAX_MOVE_CHARS:
        raise InvalidMoveError(f"{brief(text)} is too long for a move ({len(text)} characters)")
    return text


_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*+"')
_JSON_BRACKET = re.compile(r"[\[\]{}]")


def check_json_text(text: str) -> None:
    """Refuse a record text too long or nested too deep before ``json.loads`` reads it."""
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(f"the record is {len(text)} characters long; records hold at most {MAX_RECORD_CHARS}")
    depth = 0
    for bracket in _JSON_BRACKET.finditer(_JSON_STRING.sub("", text)):
        depth += 1 if bracket.group() in "[{" else -1
        if depth > MAX_DEPTH:
            raise RecordError(f"the record is nested more than {MAX_DEPTH} levels deep")


def check_json_value(value: object, what: str) -> None:
    """Refuse a record, position or options object too deep, too big or holding too long a value.

    A walk with its own stack, so no depth of nesting can exhaust Python's; a
    message names the top-level field where the trouble lies.
    """
    stack: list[tuple[object, int, str]] = [(value, 0, what)]
    seen = 0
    while stack:
        item, depth, where = stack.pop()
        seen += 1
        if seen > MAX_ITEMS:
            raise RecordError(f"{what} holds more than {MAX_ITEMS} values")
        if isinstance(item, str) and len(item) > MAX_TEXT:
            raise RecordError(f"{where} holds a text of {len(item)} characters: {brief(item)}")
        if isinstance(item, int) and abs(item) > MAX_INT:
            raise RecordError(f"{where} holds {brief(item)}, more than any field can hold")
        if isinstance(item, Mapping | list | tuple):
            if depth >= MAX_DEPTH:
                raise RecordError(f"{where} is nested more than {MAX_DEPTH} levels deep")
            stack += _children(item, depth, where)


def _children(item: Mapping[Any, Any] | list[Any] | tuple[Any, ...], depth: int, where: str) -> list[Any]:
    """The keys and values inside ``item`` for the walk; a value at the top is named by its key."""
    if not isinstance(item, Mapping):
        return [(child, depth + 1, where) for child in item]
    named = [(child, depth + 1, f"field {brief(key)}" if depth == 0 else where) for key, child in item.items()]
    return [(key, depth + 1, where) for key in item] + named


@dataclass
class Game:
    """A game in progress: its states, the moves between them and their events.

    ``states[i]`` is the position after ``i`` moves. Stored states are never
    mutated: a move is applied to a copy, which is why undo and ``state_at`` are
    exact, the seeded generator included.
    """

    spec: GameSpec
    head: dict[str, Any]
    states: list[State]
    moves: list[Any] = field(default_factory=list)
    events: list[list[Event]] = field(default_factory=list)

    @property
    def game_id(self) -> str:
        return self.spec.game_id

    @property
    def state(self) -> State:
        """The current position (read-only: play moves through the game)."""
        return self.states[-1]

    @property
    def to_move(self) -> int | None:
        """The one acting seat when exactly one seat may act; None when the game is over or several may act."""
        acting = self.state.acting
        return acting[0] if len(acting) == 1 else None

    @property
    def acting(self) -> tuple[int, ...]:
        """The seats that may act now; empty when the game is over."""
        return self.state.acting

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    @property
    def movers(self) -> list[int]:
        """The seat that made each move of the history."""
        return [state.seat_of(move) for state, move in zip(self.states, self.moves, strict=False)]

    @property
    def history(self) -> list[Any]:
        return list(self.moves)

    @property
    def ply(self) -> int:
        return len(self.moves)

    @property
    def seat_names(self) -> tuple[str, ...]:
        return self.state.seat_names()

    def parse(self, move: Any) -> Any:
        """A move object from notation, or the game's own copy of a move object (:meth:`GameSpec.read_move`)."""
        return self.spec.read_move(move)

    def check_seat(self, seat: object, spectator: bool = True) -> int | None:
        """``seat`` if it is a seat of this game (or None for a spectator, where allowed), else a UsageError."""
        if seat is None and spectator:
            return None
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.seat_names):
            also = " or None" if spectator else ""
            raise UsageError(f"a seat is a whole number from 0 to {len(self.seat_names) - 1}{also}, not {brief(seat)}")
        return seat

    def check_ply(self, ply: object) -> int:
        """``ply`` if it is one of this game's plies (0 to ``self.ply``; not a bool), else a UsageError."""
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= self.ply:
            raise UsageError(f"a ply of this game is a whole number from 0 to {self.ply}, not {brief(ply)}")
        return ply

    def legal_moves(self, seat: int | None = None) -> list[Any]:
        """The legal moves of ``seat``, or of every acting seat when no seat is named."""
        seat = self.check_seat(seat)
        if seat is not None and seat not in self.acting:
            return []
        return [] if self.is_over else self.state.legal_moves(seat)

    def why_illegal(self, move: Any) -> str | None:
        """None when the move is legal now, else the sentence that says why not."""
        try:
            parsed = self.parse(move)
        except InvalidMoveError as error:
            return str(error)
        if self.is_over:
            return "the game is over"
        return self.state.why_illegal(parsed)

    def play(self, move: Any) -> list[Event]:
        """Play a move (notation or object); returns the events it caused."""
        parsed = self.parse(move)
        reason = "the game is over" if self.is_over else self.state.why_illegal(parsed)
        if reason is not None:
            raise IllegalMoveError(str(parsed), reason)
        return self.push(parsed)

    def push(self, move: Any) -> list[Event]:
        """Play ``move``, one of :meth:`legal_moves` at this very position, without reading or judging it again.

        For a caller that took the move from the legal moves it was just given (a table offers them to the page
        and gets one back by its notation); anything else goes through :meth:`play`.
        """
        after, caused = self.spec.apply(self.state, move)
        self.states.append(after)
        self.moves.append(move)
        self.events.append(caused)
        return caused

    def undo(self) -> Any:
        """Take back the last move and return it."""
        if not self.moves:
            raise UsageError("there is no move to undo")
        self.states.pop()
        self.events.pop()
        return self.moves.pop()

    def state_at(self, ply: int) -> Game:
        """The game as it stood after ``ply`` moves (a separate object)."""
        self.check_ply(ply)
        return Game(self.spec, self.head, self.states[: ply + 1], self.moves[:ply], self.events[:ply])

    def score(self) -> ScoreSheet:
        return self.spec.score(self.state)

    def outcome(self) -> Outcome | None:
        return self.spec.outcome(self.state)

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see now (None: a spectator who sees only the public)."""
        return self.spec.view(self.state, self.check_seat(seat))

    def view_at(self, ply: int, seat: int | None) -> dict[str, Any]:
        """What ``seat`` saw after ``ply`` moves (a :class:`SeatView`'s memory), without a game at that ply."""
        return self.spec.view(self.states[self.check_ply(ply)], self.check_seat(seat))

    def seat_view(self, seat: int) -> SeatView:
        """All that ``seat`` may know of this game: what bots and hints are given."""
        return SeatView(self, self.check_seat(seat, spectator=False))

    def record(self) -> dict[str, Any]:
        """A JSON-safe record that ``load`` replays to this exact game (a copy: changing it changes nothing)."""
        return {**copy.deepcopy(self.head), "moves": [str(move) for move in self.moves]}

    def position(self) -> dict[str, Any]:
        """A JSON-safe snapshot of the current position, loadable by ``load``."""
        return self.spec.save_position(self.state)

    def _repr_html_(self) -> str:
        return self.spec.render(self.state)

    def __repr__(self) -> str:
        return f"<Game {self.game_id} ply={self.ply} to_move={self.to_move}>"


class SeatView:
    """One seat's window on a game: all a bot or a hint may read.

    It answers with the seat's view (hidden cards masked), the seat's legal
    moves, the public score sheet, the seat's own earlier views and worlds
    sampled to agree with its view; it hands out no state of the game, so a bot
    cannot read a card its seat may not see.
    """

    __slots__ = ("_game", "seat")

    def __init__(self, game: Any, seat: int) -> None:  # a Game, or one seat's stand-in that answers the same calls
        self._game = game
        self.seat = seat

    @property
    def game_id(self) -> str:
        return self._game.game_id

    @property
    def ply(self) -> int:
        return self._game.ply

    @property
    def seat_names(self) -> tuple[str, ...]:
        return self._game.seat_names

    @property
    def spec(self) -> GameSpec:
        """The game's rules as functions (no position): a bot scores and advances its own sampled worlds with them."""
        return self._game.spec

    def view(self) -> dict[str, Any]:
        return self._game.view(self.seat)

    def legal_moves(self) -> list[Any]:
        return self._game.legal_moves(self.seat)

    def parse(self, move: Any) -> Any:
        return self._game.parse(move)

    def score(self) -> ScoreSheet:
        """The public score sheet (secret cards left out until the end)."""
        return self._game.score()

    def past_views(self) -> list[dict[str, Any]]:
        """This seat's view after each ply so far, the current one last (what it has seen)."""
        return [self._game.view_at(ply, self.seat) for ply in range(self.ply + 1)]

    def view_at(self, ply: int) -> dict[str, Any]:
        """This seat's view as it was after ``ply`` moves: one past view, without building them all."""
        return self._game.view_at(ply, self.seat)

    def sample_world(self, rng: random.Random) -> State:
        """A full state that agrees with this seat's view, the unseen cards dealt by ``rng``."""
        return self._game.spec.sample_world(self.view(), rng)
