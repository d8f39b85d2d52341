"""TableFrame over a toy race game: several seats act at once, every acting bot is scheduled, controls switch off.

The toy game ("snap"): in each of three rounds every seat may tap, and the
first tap wins the round. It is registered for these tests only, with a bot
module that adds nothing to the generic random and greedy bots.
"""

from __future__ import annotations

import html
import re
import sys
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Self

import pytest

import hatskit
from hatskit.bots import Hint
from hatskit.core import Event, Game, GameSpec, InvalidMoveError, Outcome, ScoreLine, ScoreSheet
from hatskit.drawing import RULE_NAMES, Told, rule_name, told_html, without_rules
from tests.helpers import RULE_ID, play_first_option, said, tap, why
from widgets import HatsOffTable, HatsTable, MadderTable, SombreroTable
from widgets.table.frame import BOT, TableFrame
from widgets.table.scheduler import ManualClock
from widgets.toolkit import ui
from widgets.toolkit.parts import is_shown

NAMES = ("Ana", "Ben", "Cleo")
ROUNDS = 3


@dataclass(frozen=True)
class SnapOptions:
    """Rule options. ``rounds_to_win``: a toy option, to show the set-up row derives its controls."""

    rounds_to_win: int = field(default=2, metadata={"help": "the rounds a player must win to win the game"})


@dataclass(frozen=True)
class Tap:
    seat: int

    def __str__(self) -> str:
        return f"tap{self.seat}"


class SnapState:
    """Every seat acts at once until somebody taps; three rounds."""

    def __init__(self, wins: list[int] | None = None) -> None:
        self.wins = wins or [0, 0, 0]

    @property
    def to_move(self) -> int | None:
        return None

    @property
    def acting(self) -> tuple[int, ...]:
        return () if self.is_over else (0, 1, 2)

    @property
    def is_over(self) -> bool:
        return sum(self.wins) >= ROUNDS

    def seat_of(self, move: Tap) -> int:
        return move.seat

    def legal_moves(self, seat: int | None = None) -> list[Tap]:
        return [Tap(s) for s in self.acting if seat in (None, s)]

    def why_illegal(self, move: Tap) -> str | None:
        return None if move.seat in self.acting else f"{NAMES[move.seat]} may not tap now"

    def advance(self, move: Tap) -> None:
        self.wins[move.seat] += 1

    def copy(self) -> Self:
        return type(self)(list(self.wins))

    def seat_names(self) -> tuple[str, ...]:
        return NAMES


def narrate(before: SnapState, after: SnapState, move: Tap) -> list[Event]:
    return [Event(f"{NAMES[move.seat]} tapped first", "O3")]


def score(state: SnapState) -> ScoreSheet:
    lines = tuple(ScoreLine(seat, "rounds", wins, "rounds won") for seat, wins in enumerate(state.wins))
    return ScoreSheet(lines, NAMES, final=state.is_over)


def outcome(state: SnapState) -> Outcome | None:
    if not state.is_over:
        return None
    best = max(state.wins)
    return Outcome((state.wins.index(best),), f"{NAMES[state.wins.index(best)]} wins the snap")


def view(state: SnapState, seat: int | None) -> dict[str, Any]:
    return {"seat": seat, "wins": list(state.wins), "acting": list(state.acting)}


def parse_tap(text: str) -> Tap:
    found = re.fullmatch(r"tap([0-2])", text.strip())
    if found is None:
        raise InvalidMoveError(f"{text!r} is not a tap")
    return Tap(int(found[1]))


SPEC = GameSpec(
    game_id="snap",
    title="Snap",
    players=(3,),
    simultaneous=True,
    hidden_information=False,
    chance=False,
    options_type=SnapOptions,
    parse_move=parse_tap,
    new_state=lambda players, seed, options: SnapState(),
    load_position=lambda data: SnapState(list(data["wins"])),
    save_position=lambda state: {"game": "snap", "wins": list(state.wins)},
    view=view,
    sample_world=lambda view, rng: SnapState(list(view["wins"])),
    narrate=narrate,
    score=score,
    outcome=outcome,
    render=lambda state, seat=None: "",
    bot_module="snap_bots",
)


class SnapTable(TableFrame):
    """A race table: a tap button; undo, hint and step-through switched off."""

    game_id = "snap"
    default_seats = ("reader", "random", "random")
    can_undo = can_hint = can_step = False

    def build_table(self) -> list[ui.Part]:
        self.tap_button = ui.Button(description="tap", tooltip="tap: be the first")
        self.tap_button.on_click(lambda _: self.try_move(f"tap{self.viewer}"))
        self.wins_line = ui.HTML()
        return [self.tap_button, self.wins_line]

    def show_table(self, view: dict[str, Any]) -> None:
        self.wins_line.value = " · ".join(f"{NAMES[s]}: {w}" for s, w in enumerate(view["wins"]))

    def bot_delay_for(self, seat: int) -> float:
        return 0.5 * seat + 0.5  # Ben reacts in 1.0 s, Cleo in 1.5 s


@pytest.fixture(autouse=True)
def snap_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(hatskit.GAMES, "snap", SPEC)
    bots = types.ModuleType("snap_bots")
    bots.BOTS = {}  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "snap_bots", bots)
    yield


def new_game() -> Game:
    return hatskit.new_game("snap", seed=1)


def text(line: ui.HTML) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", line.value)).split())


def test_every_acting_seat_is_named_and_every_acting_bot_is_scheduled() -> None:
    clock = ManualClock()
    table = SnapTable(new_game(), clock=clock)
    assert text(table.status) == "Ana (you), Ben (random bot) and Cleo (random bot) to move."
    assert table.decides() and table.viewer == 0 and [str(m) for m in table.reader_moves()] == ["tap0"]
    assert [timer.due for timer in table.scheduler.pending(BOT)] == [1.0, 1.5]
    clock.advance(1.0)
    assert table.game.history == [Tap(1)] and "Ben tapped first" in text(table.message)
    assert [timer.due for timer in table.scheduler.pending(BOT)] == [2.0, 2.5]  # both bots react again


def test_a_reader_tap_wins_the_round_and_the_bots_start_again() -> None:
    clock = ManualClock()
    table = SnapTable(new_game(), clock=clock)
    clock.advance(0.9)
    table.tap_button.click()
    assert table.game.history == [Tap(0)] and "Ana tapped first" in text(table.message)
    assert [timer.due for timer in table.scheduler.pending(BOT)] == [1.9, 2.4]


def test_a_reader_cannot_play_another_seats_move() -> None:
    table = SnapTable(new_game(), clock=ManualClock())
    assert not table.try_move("tap2")
    assert "tap2 is a move for Cleo (random bot), not for you." in text(table.message)
    assert table.game.ply == 0


def test_a_race_view_switches_off_undo_hint_and_step_through() -> None:
    table = SnapTable(new_game(), clock=ManualClock())
    hidden = [table.undo_button, table.hint_button, table.first_button, table.back_button, table.slider]
    assert all(not is_shown(control) for control in hidden)
    assert is_shown(table.setup.new_game_button)


def test_the_set_up_row_derives_the_option_controls_from_the_options_dataclass() -> None:
    table = SnapTable(new_game(), clock=ManualClock())
    box = table.setup.option_boxes["rounds_to_win"]
    assert isinstance(box, ui.IntText) and box.value == 2 and box.description == "rounds to win"
    assert box.tooltip == "rounds to win: the rounds a player must win to win the game"  # its field's help
    box.value = 3
    table.setup.new_game_button.click()
    assert table.game.head["options"] == {"rounds_to_win": 3}


def test_bots_play_a_whole_race_at_once_without_a_delay() -> None:
    table = SnapTable(new_game(), seats=("reader", "random", "random"), bot_delay=0)
    assert table.game.is_over and len(table.game.history) == ROUNDS
    assert all(move.seat in (1, 2) for move in table.game.history)
    assert "wins the snap" in text(table.message)


def test_a_loaded_position_shows_no_deal_number() -> None:
    table = SnapTable(hatskit.load({"game": "snap", "wins": [1, 0, 0]}), clock=ManualClock())
    assert table.setup.seed_box.value == "" and text(table.wins_line) == "Ana: 1 · Ben: 0 · Cleo: 0"


# ------------------------------------------------------------------ the words a student reads


class CitingBot:
    """A stand-in strong bot whose hint's reason cites a rule, as the engines' sentences do."""

    name = "citing"

    def __init__(self, rule: str) -> None:
        self.rule = rule

    def choose(self, seat_view: Any) -> Any:
        return seat_view.legal_moves()[0]

    def hint(self, seat_view: Any) -> Hint:
        return Hint(seat_view.legal_moves()[0], f"it is the move the rules want here ({self.rule})", "1 in 3 worlds")


def hats_case() -> tuple[TableFrame, Callable[[], None], Callable[[], None]]:
    table = HatsTable(hatskit.new_game("hats", players=3, seed=7), ("reader", "greedy", "greedy"), bot_delay=0)
    card, position = next(
        (str(card), p)
        for card in table.game.state.hands[0]
        for p in range(1, 7)
        if table.game.why_illegal(f"{card}@{p}")
    )

    def refuse() -> None:
        held = next(button for button in table.hand_buttons if button.description == card)
        tap(table, held, table.position_buttons[position - 1])

    return table, lambda: play_first_option(table), refuse


def madder_case() -> tuple[TableFrame, Callable[[], None], Callable[[], None]]:
    table = MadderTable(hatskit.new_game("madder", players=3, seed=7), ("reader", "greedy", "greedy"), bot_delay=0)
    return table, lambda: table.try_move(str(table.reader_moves()[0])), lambda: tap(table, table.line_buttons[0])


def sombrero_case() -> tuple[TableFrame, Callable[[], None], Callable[[], None]]:
    table = SombreroTable(hatskit.new_game("sombrero"), ("reader", "greedy"), bot_delay=0)
    return (
        table,
        lambda: tap(table, table.squares["e1"], table.squares["e2"]),
        lambda: tap(table, table.squares["e2"], table.squares["e4"]),
    )


def hats_off_case() -> tuple[TableFrame, Callable[[], None], Callable[[], None]]:
    table = HatsOffTable(hatskit.new_game("hats-off", players=3, seed=7), mode="step", bot_delay=0)
    return table, lambda: table.try_move(str(table.reader_moves()[0])), lambda: table.try_move("Ana:flip")


# Each game's table, what its narration, its refusal and a hint cite: (case, narrated, refused, hinted).
CASES = {
    "hats": (hats_case, "H2", "H2", "H4"),
    "madder": (madder_case, "M3", "M4", "M3"),
    "sombrero": (sombrero_case, "S2", "S2", "S3"),
    "hats-off": (hats_off_case, "O1", "O1", "O3"),
}


@pytest.mark.parametrize("game_id", CASES)
def test_the_message_line_says_no_rule_id_and_names_the_rules_behind_one_why(game_id: str) -> None:
    """Narration, a refusal and a hint, each in a student's words; the rules wait, named, behind "why?"."""
    case, narrated, refused, hinted = CASES[game_id]
    table, play, refuse = case()
    for act, rule, error in ((play, narrated, False), (refuse, refused, True)):
        act()
        assert ("hk-error" in table.message._dom_classes) == error, table.message.value
        assert not RULE_ID.search(said(table.message)), said(table.message)
        assert f"{rule_name(rule)}" in why(table.message) and table.message.value.count("<details") == 1
    table.hint_bot = CitingBot(hinted)
    table.hint_button.click()
    assert said(table.message).startswith("Hint: ") and not RULE_ID.search(said(table.message))
    assert f"{rule_name(hinted)}" in why(table.message) and "1 in 3 worlds" in why(table.message)
    assert rule_name(hinted) == f"rule {hinted}: {RULE_NAMES[hinted]}"


def test_a_sentence_loses_its_ids_and_keeps_its_words() -> None:
    assert without_rules("Click a lit hat, or decline it (M3, M4).") == (
        "Click a lit hat, or decline it.",
        ["M3", "M4"],
    )
    assert without_rules("into Ben's inventory (M3; at the end of the round your own only, M4)") == (
        "into Ben's inventory (at the end of the round your own only)",
        ["M3", "M4"],
    )
    assert without_rules("Cleo exchanged ★4 for ★5 at position 3 (same type ★)") == (
        "Cleo exchanged ★4 for ★5 at position 3 (same type ★)",
        [],
    )
    assert without_rules("e4 is taken: a step goes to an empty square (S2)") == (
        "e4 is taken: a step goes to an empty square",
        ["S2"],
    )


def test_a_message_told_short_gives_the_whole_sentence_behind_why_and_reads_lines_first() -> None:
    exchange, cookie = Event("Cleo exchanged ★4 for ★5 at position 3 (same type ★)", "H2"), Event("Cleo wins (H11)")
    message = told_html([Told("Cleo exchanged ★4 for ★5 at position 3", (exchange,)), Told.of(cookie, strong=True)])
    shown, fold = message.split("<details", 1)
    assert shown == "Cleo exchanged ★4 for ★5 at position 3<br><b>Cleo wins</b>"  # a screen reader reads these first
    assert fold.startswith(' class="hk-why"><summary>why?</summary>') and message.endswith("</details>")
    assert "Cleo exchanged ★4 for ★5 at position 3 (same type ★) — " in fold and "rule H2: Exchange" in fold
    assert "rule H11: Winner" in fold and "Cleo wins" not in fold, "a sentence shown whole is not told again"
    assert told_html(["Link copied."]) == "Link copied.", "no ids, no why?"


# A typed move each game's engine refuses, after the case's move: a notation that does not read, or a rule's.
TYPED_REFUSALS = {"hats": "★9@1", "madder": "decline", "sombrero": "a1-a2", "hats-off": "Ana:pass"}


@pytest.mark.parametrize("game_id", CASES)
def test_a_refusal_ends_with_one_full_stop_and_keeps_its_rule_behind_why(game_id: str) -> None:
    """An engine's refusal has no full stop of its own (it is an exception's message too): the table adds one."""
    case, _, refused, _ = CASES[game_id]
    table, play, refuse = case()
    play()
    refuse()
    assert rule_name(refused) in why(table.message) and table.message.value.count("<details") == 1
    for typed in (None, TYPED_REFUSALS[game_id]):
        assert typed is None or not table.try_move(typed)
        line = said(table.message)
        assert "hk-error" in table.message._dom_classes
        assert line.endswith(".") and not line.endswith(".."), line


def test_the_full_stop_goes_after_the_ids_the_line_drops_and_is_never_doubled() -> None:
    table = SnapTable(new_game(), clock=ManualClock())
    for sentence, shown in (
        ("e4 is taken: a step goes to an empty square (S2)", "e4 is taken: a step goes to an empty square."),
        ("Click a lit hat, or decline it (M3, M4).", "Click a lit hat, or decline it."),
        ("Click a lit hat. (M3)", "Click a lit hat."),
        ("into Ben's inventory (your own only, M4)", "Into Ben's inventory (your own only)."),
        ("tap2 is not a card of yours (O4)", "tap2 is not a card of yours."),  # a move keeps its first letter
        ("Is it yours?  ", "Is it yours?"),
    ):
        table.say(sentence, error=True)
        assert said(table.message) == shown
        assert all(rule_name(rule) in why(table.message) for rule in RULE_ID.findall(sentence))


@pytest.mark.parametrize("game_id", CASES)
def test_one_refresh_asks_the_game_for_the_readers_moves_once(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's widgets and the paths the page is sent read the reader's moves from one ask a refresh; outside
    a refresh each ask is answered afresh."""
    table = CASES[game_id][0]()[0]
    assert table.decides()
    asked: list[int | None] = []
    legal_moves = Game.legal_moves

    def counted(game: Game, seat: int | None = None) -> list[Any]:
        asked.append(seat)
        return legal_moves(game, seat)

    monkeypatch.setattr(Game, "legal_moves", counted)
    table.refresh()
    assert asked == [table.viewer]
    assert table.moves_part.offered or game_id == "hats-off", "the page is still sent the moves' paths"
    moves = table.reader_moves()
    assert moves and asked == [table.viewer] * 2


def test_a_page_bots_pause_is_a_class_pace_unless_hatskit_bot_delay_shortens_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def pauses() -> tuple[float, float]:
        turns = HatsTable(hatskit.new_game("hats", players=2, seed=1), seats=("reader", "greedy"))
        race = HatsOffTable(hatskit.new_game("hats-off", players=2, seed=1), seats=("reader", "greedy"))
        return turns.bot_delay, race.bot_delay

    monkeypatch.delenv("HATSKIT_BOT_DELAY", raising=False)
    assert pauses() == (0.8, 1.5)
    monkeypatch.setenv("HATSKIT_BOT_DELAY", "0.2")
    assert pauses() == (0.2, 0.2)
    monkeypatch.setenv("HATSKIT_BOT_DELAY", "soon")
    with pytest.raises(ValueError, match="HATSKIT_BOT_DELAY must be a number of seconds, not 'soon'"):
        pauses()
