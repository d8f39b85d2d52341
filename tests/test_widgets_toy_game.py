"""A fifth game joins as docs/tables.md's "How a fifth game joins" says, in this file alone: Pebbles.

Pebbles: a row of seven pebbles; Ana and Ben take turns taking one or two pebbles from its right end
("take 1", "take 2"); whoever takes the last pebble wins. Its rules follow hatskit/core.py's contract
(``State``, ``TurnBased``, ``GameSpec``); its table is a ``TableFrame`` built of widgets/toolkit/parts.py's
parts, with ``path_of``, ``board`` and ``explain`` as widgets/games/sombrero.py writes them; this module is
also the spec's ``bot_module`` (its ``BOTS``). Both are registered for the tests only (``monkeypatch``):
nothing in widgets/toolkit/ or widgets/table/ changes.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pytest

import hatskit
from hatskit import Game
from hatskit.bots import Hint, bot_kinds
from hatskit.bots.base import moves_of
from hatskit.core import (
    PLAYER_NAMES,
    Event,
    GameSpec,
    InvalidMoveError,
    Outcome,
    RecordError,
    ScoreLine,
    ScoreSheet,
    SeatView,
    TurnBased,
    brief,
    whole_number,
)
from hatskit.drawing import escape
from tests.helpers import said, tap
from widgets.games import TABLES
from widgets.table.frame import TableFrame
from widgets.toolkit import ui
from widgets.toolkit.parts import html_line, is_shown, named_button, piece_button, row, set_face

# ------------------------------------------------------------------ the rules (hatskit/games/<game>/)

GAME_ID = "pebbles"
ROW = 7  # pebbles at the start
TAKES = (1, 2)  # how many a turn may take


@dataclass(frozen=True)
class PebblesOptions:
    """Rule options: Pebbles has none."""


@dataclass(frozen=True)
class Take:
    """Take ``count`` pebbles from the right end of the row."""

    count: int

    def __str__(self) -> str:
        return f"take {self.count}"


MOVE = re.compile(r"take ([0-9])")


def parse_move(text: str) -> Take:
    """``take 1`` or ``take 2`` (any one digit reads; the rules judge it)."""
    found = MOVE.fullmatch(text.strip())
    if found is None:
        raise InvalidMoveError(f"{brief(text)} is not a Pebbles move: write take 1 or take 2")
    return Take(int(found[1]))


def pebbles(count: int) -> str:
    """ "1 pebble", "3 pebbles"."""
    return f"{count} pebble{'' if count == 1 else 's'}"


@dataclass
class PebblesState(TurnBased):
    """The pebbles left, the seat to move (None once the last is taken) and who took the last."""

    left: int = ROW
    to_move: int | None = 0
    winner: int | None = None

    def seat_names(self) -> tuple[str, ...]:
        return PLAYER_NAMES[:2]

    def legal_moves(self, seat: int | None = None) -> list[Any]:
        if self.is_over or seat not in (None, self.to_move):
            return []
        return [Take(count) for count in TAKES if count <= self.left]

    def why_illegal(self, move: Any) -> str | None:
        if not isinstance(move, Take) or move.count not in TAKES:
            return "you may take only one or two pebbles"
        if move.count > self.left:
            return f"{move} needs {pebbles(move.count)}, and only {pebbles(self.left)} is left"
        return None

    def advance(self, move: Any) -> None:
        self.left -= move.count
        if self.left == 0:
            self.winner, self.to_move = self.to_move, None
        else:
            self.to_move = 1 - (self.to_move or 0)

    def copy(self) -> PebblesState:
        return replace(self)


def new_state(players: int | None, seed: int, options: PebblesOptions) -> PebblesState:
    """Every game starts the same: seven pebbles, Ana to move (no chance, so the seed deals nothing)."""
    del players, seed, options
    return PebblesState()


def save_position(state: PebblesState) -> dict[str, Any]:
    return {"game": GAME_ID, "left": state.left, "to_move": state.to_move, "winner": state.winner}


def _seat_field(data: Mapping[str, Any], name: str) -> int | None:
    value = data.get(name)
    return None if value is None else whole_number(value, f"field {name!r}", most=1)


def load_position(data: Mapping[str, Any]) -> PebblesState:
    """A saved position; a RecordError names the field that does not load."""
    left = whole_number(data.get("left"), "field 'left'", most=ROW)
    state = PebblesState(left, _seat_field(data, "to_move"), _seat_field(data, "winner"))
    over = left == 0
    if (state.to_move is None) != over or (state.winner is None) == over:
        raise RecordError("with pebbles left a seat is to move and nobody has won; with none, someone has won")
    return state


def view(state: PebblesState, seat: int | None) -> dict[str, Any]:
    """Nothing is hidden: every seat, and a spectator, sees the whole position."""
    return {"seat": seat, "names": list(state.seat_names()), **save_position(state)}


def sample_world(seen: Mapping[str, Any], rng: random.Random) -> PebblesState:
    del rng  # nothing unseen to deal
    return PebblesState(seen["left"], seen["to_move"], seen["winner"])


def narrate(before: PebblesState, after: PebblesState, move: Take) -> list[Event]:
    name = PLAYER_NAMES[before.to_move or 0]
    return [Event(f"{name} takes {pebbles(move.count)}: {pebbles(after.left)} left.")]


def score(state: PebblesState) -> ScoreSheet:
    """One point for the seat that took the last pebble."""
    lines = tuple(
        ScoreLine(
            seat, "last pebble", int(state.winner == seat), "took the last pebble" if state.winner == seat else ""
        )
        for seat in range(2)
    )
    note = "" if state.is_over else "nobody has taken the last pebble yet"
    return ScoreSheet(lines, state.seat_names(), final=state.is_over, note=note)


def outcome(state: PebblesState) -> Outcome | None:
    if state.winner is None:
        return None
    return Outcome((state.winner,), f"{PLAYER_NAMES[state.winner]} took the last pebble and wins.")


def render(state: PebblesState, seat: int | None = None) -> str:
    del seat  # nothing hidden
    stones = "●" * state.left + "○" * (ROW - state.left)
    return f'<div class="hk hk-pebbles" title="{pebbles(state.left)} left">{escape(stones)}</div>'


class PebblesBot:
    """The ``strong`` bot (the table's hints ask for one): leaves a multiple of three pebbles where it can."""

    name = "strong"

    def __init__(self, seed: int = 0) -> None:
        del seed  # it never guesses

    def choose(self, seat_view: SeatView) -> Any:
        return self.hint(seat_view).move

    def hint(self, seat_view: SeatView) -> Hint:
        legal, left = moves_of(seat_view), seat_view.view()["left"]
        move = next((m for m in legal if m.count == left % 3), legal[0])
        return Hint(move, f"this leaves {pebbles(left - move.count)}")


BOTS = {"strong": PebblesBot}  # with the generic random and greedy bots (hatskit/bots/__init__.py)

SPEC = GameSpec(
    game_id=GAME_ID,
    title="Pebbles",
    players=(2,),
    simultaneous=False,
    hidden_information=False,
    chance=False,
    options_type=PebblesOptions,
    parse_move=parse_move,
    new_state=new_state,
    load_position=load_position,
    save_position=save_position,
    view=view,
    sample_world=sample_world,
    narrate=narrate,
    score=score,
    outcome=outcome,
    render=render,
    bot_module=__name__,
)

# ------------------------------------------------------------------ the table (widgets/games/<game>.py)

EXPLAIN = "You may take only one or two pebbles: press the last pebble, or the one before it."


class PebblesTable(TableFrame):
    """The row of pebbles, one piece_button each: the last pebble takes one, the one before it takes two."""

    game_id = GAME_ID
    default_seats = ("reader", "strong")
    shuffled = False  # nothing is dealt: the set-up row shows no deal number

    def build_table(self) -> list[ui.Part]:
        self.pebbles = [piece_button(f"pebble {index + 1}") for index in range(ROW)]
        self.left_line = html_line("hk-pebbles-left")
        self.take_buttons = [named_button(str(Take(n)), f"take {pebbles(n)}", self._taker(n)) for n in TAKES]
        return [self.left_line, row(self.pebbles), row(self.take_buttons)]

    def _taker(self, count: int) -> Any:
        return lambda: self.try_move(str(Take(count)))

    def show_table(self, view: dict[str, Any]) -> None:
        left, over = view["left"], view["to_move"] is None
        for index, button in enumerate(self.pebbles):
            set_face(button, "●", f"pebble {index + 1} of {left}", [], [], visible=index < left)
            button.disabled = over or index >= left
        self.left_line.value = escape(f"{pebbles(left)} left")

    def path_of(self, move: Take) -> list[ui.Part]:
        """The pebble ``move.count`` from the right end: the leftmost of those it takes."""
        return [self.pebbles[self._left() - move.count]]

    def target_words(self, move: Take) -> str:
        return f"press to {move}"

    def board(self) -> list[ui.Part]:
        return list(self.pebbles)

    def explain(self, path: Sequence[ui.Part]) -> str:
        if not self.decides() or self.shown().is_over:
            return super().explain(path)
        return EXPLAIN

    def _left(self) -> int:
        return self.shown().view(self.viewer)["left"]


# ------------------------------------------------------------------ the tests


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The one registration of each layer, for these tests only."""
    monkeypatch.setitem(hatskit.GAMES, GAME_ID, SPEC)
    monkeypatch.setitem(TABLES, GAME_ID, PebblesTable)
    yield


def new_table(bot: str = "strong", game: Game | None = None) -> TableFrame:
    """The registered table, the reader as Ana, the bot answering at once."""
    return TABLES[GAME_ID](game or hatskit.new_game(GAME_ID), ("reader", bot), bot_delay=0)


def offered(table: TableFrame) -> dict[str, list[int]]:
    """The moves the page is offered, each with its path of part ids."""
    return {move["move"]: move["path"] for move in table.moves_part.offered}


def play_offered(table: TableFrame, notation: str) -> None:
    """Press the parts of an offered path, as the page does."""
    tap(table, *(table.part_by_id(uid) for uid in offered(table)[notation]))


@pytest.mark.parametrize("bot", ["random", "greedy", "strong"])
def test_the_table_builds_with_a_reader_and_a_bot(bot: str) -> None:
    table = new_table(bot)
    assert table.seats == ("reader", bot) and table.game.ply == 0
    assert said(table.status) == "Ana (you) to move."
    assert bot_kinds(GAME_ID) == ["random", "greedy", "strong"]
    assert [kind for _, kind in table.setup.seat_choices] == ["reader", "random", "greedy", "strong"]
    assert not is_shown(table.setup.deal_box) and not is_shown(table.setup.players_box)


def test_the_page_is_offered_exactly_the_legal_moves_as_paths_over_the_board() -> None:
    table = new_table()
    ids = [pebble.uid for pebble in table.pebbles]
    assert table.moves_part.board == ids
    assert offered(table) == {"take 1": [ids[6]], "take 2": [ids[5]]}


def test_one_pebble_left_offers_take_1_only() -> None:
    table = new_table(game=hatskit.load({"game": GAME_ID, "left": 1, "to_move": 0, "winner": None}))
    assert offered(table) == {"take 1": [table.pebbles[0].uid]}
    assert [str(move) for move in table.reader_moves()] == ["take 1"]


@pytest.mark.parametrize("bot", ["random", "greedy", "strong"])
def test_a_game_played_through_the_pages_messages_ends_with_its_outcome(bot: str) -> None:
    table = new_table(bot)
    while not table.game.is_over:
        assert table.decides(), "the bot answers at once: the reader is always the one to move"
        play_offered(table, "take 1" if table.game.ply % 4 else max(offered(table)))
    result = table.game.outcome()
    assert result is not None and said(table.status) == "The game is over."
    assert result.reason in said(table.message)
    assert table.moves_part.offered == [] and all(pebble.disabled for pebble in table.pebbles)


def test_the_strong_bot_wins_when_the_reader_always_takes_one() -> None:
    table = new_table("strong")
    while not table.game.is_over:
        play_offered(table, "take 1")
    assert [str(move) for move in table.game.history] == ["take 1"] * 5 + ["take 2"]
    assert said(table.message).endswith("Ben took the last pebble and wins.")


def test_a_press_that_makes_no_move_is_explained_and_changes_nothing() -> None:
    table = new_table()
    play_offered(table, "take 1")
    ply, before = table.game.ply, table.moves_part.offered
    tap(table, table.pebbles[table.game.state.left - 3])  # the third pebble from the right end
    assert said(table.message) == EXPLAIN and "hk-error" in table.message._dom_classes
    assert table.game.ply == ply and table.moves_part.offered == before


def test_a_button_in_words_plays_or_is_refused_with_the_engines_sentence() -> None:
    table = new_table(game=hatskit.load({"game": GAME_ID, "left": 1, "to_move": 0, "winner": None}))
    take_one, take_two = table.take_buttons
    tap(table, take_two)
    assert said(table.message) == "Take 2 needs 2 pebbles, and only 1 pebble is left." and table.game.ply == 0
    tap(table, take_one)
    assert table.game.is_over and "Ana took the last pebble and wins." in said(table.message)


def test_a_hint_comes_from_the_games_strong_bot() -> None:
    table = new_table("random")
    tap(table, table.hint_button)
    assert said(table.message) == "Hint: take 1. This leaves 6 pebbles."


def test_a_record_and_a_position_load_back_and_a_new_game_starts_from_the_set_up() -> None:
    table = new_table()
    play_offered(table, "take 2")
    game = table.game
    assert hatskit.load(game.record()).position() == game.position() == hatskit.load(game.position()).position()
    tap(table, table.setup.new_game_button)
    assert table.game is not game and table.game.ply == 0 and offered(table).keys() == {"take 1", "take 2"}
