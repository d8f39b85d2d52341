"""Lessons: every lesson file loads and every lesson plays to its star at its table; bad files and bad moves.

A lesson is played here as a reader plays it: at the table (bots answering at
once), each step's move taken from the instruction's own pointer (the hint mark
a guided step puts on the table) or, for a task, from the step's answers.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

import hatskit
from hatskit.lessons import LessonError, lesson_bots, load_lessons
from tests.conftest import NOTEBOOK_DIR
from tests.helpers import press, walk
from widgets import HatsOffTable, HatsTable, MadderTable, SombreroTable
from widgets.table.frame import TableFrame
from widgets.toolkit import ui
from widgets.toolkit.parts import is_shown

LESSON_FILES = sorted((NOTEBOOK_DIR / "lessons").glob("*.json"))
TABLES: dict[str, type[TableFrame]] = {
    table.game_id: table for table in (HatsTable, SombreroTable, HatsOffTable, MadderTable)
}
HATS_LESSONS = NOTEBOOK_DIR / "lessons" / "hats.json"
HATS_OFF_LESSONS = NOTEBOOK_DIR / "lessons" / "hats_off.json"


def lesson_table(path: Path) -> TableFrame:
    game_id = json.loads(path.read_text(encoding="utf-8"))["game"]
    return TABLES[game_id].with_lessons(path, bot_delay=0)


def play_step(table: TableFrame) -> str:
    """The move the lesson's current step asks for, played at the table as the reader would."""
    guide = table.guide
    step = guide.lesson.steps[guide.step_number]
    move = table.hint_move if step.point else step.pointed(table.shown(), table.viewer)
    assert move is not None, f"{guide.lesson.key}, step {guide.step_number + 1}: nothing to play"
    assert table.try_move(str(move)), table.message.value
    return str(move)


@pytest.mark.parametrize("path", LESSON_FILES, ids=lambda path: path.stem)
def test_every_lesson_plays_to_its_star_at_its_table(path: Path) -> None:
    table = lesson_table(path)
    guide = table.guide
    for index, lesson in enumerate(guide.lessons):
        press(table, guide.buttons[index], do="click")
        assert not any(map(is_shown, table.free_play_parts)), "a lesson hides new game, stepping and sharing"
        for number in range(len(lesson.steps)):
            assert guide.step_number == number
            play_step(table)
        assert lesson.key in guide.stars, guide.instruction.value
        assert "you earned a star" in guide.instruction.value
        assert guide.buttons[index].description.startswith("★")
        assert all(map(is_shown, table.free_play_parts)), "the table's own controls come back once it is done"
    assert guide.progress.saved["stars"] == sorted(lesson.key for lesson in guide.lessons)


@pytest.mark.parametrize("path", LESSON_FILES, ids=lambda path: path.stem)
def test_after_every_lessons_star_the_same_table_plays_on_to_the_games_end(path: Path) -> None:
    """The closing line says "play on": every legal move the reader makes then is played, and the bots answer,
    in every round, until the game is over."""
    table = lesson_table(path)
    guide = table.guide
    for index, lesson in enumerate(guide.lessons):
        press(table, guide.buttons[index], do="click")
        for _ in lesson.steps:
            play_step(table)
        rng = random.Random(lesson.key)
        for _ in range(2000):
            if table.game.is_over:
                break
            move_on_from_a_rounds_end(table)
            assert table.decides(), f"{lesson.key}: after the star nobody moves ({table.status.value})"
            before = table.game.ply
            assert table.try_move(str(rng.choice(table.reader_moves()))), table.message.value
            assert table.game.ply > before and table.live
        assert table.game.is_over, f"{lesson.key}: no end after 2000 moves"


@pytest.mark.parametrize("path", LESSON_FILES, ids=lambda path: path.stem)
def test_what_a_step_says_to_press_is_named_as_the_screen_shows_it(path: Path) -> None:
    """A name in quotes in a step ("“into Ana's inventory”", "“Boater”") is what a button shown at that step
    says, not its tooltip ("take the Boater from the assembly line"): the reader follows the screen."""
    table = lesson_table(path)
    guide = table.guide
    for index, lesson in enumerate(guide.lessons):
        press(table, guide.buttons[index], do="click")
        for step in lesson.steps:
            shown = {part.description for part in walk(table) if isinstance(part, ui.Button) and is_shown(part)}
            missing = [name for name in re.findall(r"“([^”]+)”", step.say) if name not in shown]
            assert not missing, f"{lesson.key}: {step.say!r} names {missing}, and no button shown says that"
            play_step(table)


def move_on_from_a_rounds_end(table: TableFrame) -> None:
    """Press Madder's *next round* when a round's end is on screen (the bots wait for it), as a reader does."""
    next_round = getattr(table, "next_round_button", None)
    if next_round is not None and is_shown(table.round_end_box):
        press(table, next_round, do="click")


@pytest.mark.parametrize("path", LESSON_FILES, ids=lambda path: path.stem)
def test_every_lesson_replays_to_its_end_with_the_tables_bots(path: Path) -> None:
    """What a browser that comes back relies on: the steps, played again by the same bots, still fit."""
    for lesson in load_lessons(path):
        game = lesson.start()
        lesson.replay(game, len(lesson.steps), lesson_bots(lesson))


def test_a_guided_step_points_at_its_move_and_a_task_does_not() -> None:
    table = lesson_table(HATS_LESSONS)
    assert str(table.hint_move) == "discard ★1"
    assert "Step 1 of 5." in table.guide.instruction.value
    assert "ruling H4" in table.guide.instruction.value
    press(table, table.guide.buttons[1], do="click")  # the black hat: a task
    assert table.hint_move is None
    assert "find the move that scores most" in table.guide.instruction.value


def test_a_move_the_step_does_not_ask_for_is_refused_and_changes_nothing() -> None:
    table = lesson_table(HATS_LESSONS)
    ply = table.game.ply
    assert not table.try_move("black ♦1")
    assert "not what this step asks for" in table.message.value
    assert "Click ★1" in table.message.value
    assert not table.try_move("♦1@1")  # illegal: the engine's own reason
    assert "H2" in table.message.value
    assert table.game.ply == ply and table.guide.step_number == 0


def test_a_wrong_answer_to_a_task_says_keep_looking() -> None:
    table = lesson_table(HATS_LESSONS)
    press(table, table.guide.buttons[1], do="click")
    assert not table.try_move("✿3@5")
    assert "keep looking" in table.message.value
    assert table.guide.step_number == 0


def test_the_browser_keeps_the_stars_and_the_place_and_start_again_forgets_them() -> None:
    table = lesson_table(HATS_LESSONS)
    guide = table.guide
    for _ in range(2):
        play_step(table)
    kept = dict(guide.progress.saved)
    assert kept == {"stars": [], "lesson": "first-game", "step": 2}

    again = lesson_table(HATS_LESSONS)  # the page opened again: its script sends what the browser kept
    press(again, again.guide.progress, msg={"saved": {**kept, "stars": ["hats/puzzle-1", "chess/e4"]}})
    assert again.guide.step_number == 2
    assert "Welcome back" in again.guide.instruction.value
    assert str(again.hint_move) == "✿1@6"
    assert [str(move) for move in again.game.history] == [str(move) for move in table.game.history]
    assert again.guide.stars == {"hats/puzzle-1"}, "a star of a lesson this page does not have is dropped"
    same_type = next(
        button
        for lesson, button in zip(again.guide.lessons, again.guide.buttons, strict=True)
        if lesson.id == "puzzle-1"
    )
    assert same_type.description == "★ Same type"

    press(again, again.guide.again_button, do="click")
    assert again.guide.progress.saved == {"stars": [], "lesson": "first-game", "step": 0}
    assert again.game.ply == 0 and "forgotten" in again.guide.instruction.value


@pytest.mark.parametrize(
    "kept", [None, "stars", {"stars": "all", "lesson": 3, "step": -1}, {"lesson": "first-game", "step": 99}]
)
def test_what_a_browser_kept_in_a_bad_shape_counts_as_nothing(kept: Any) -> None:
    table = lesson_table(HATS_LESSONS)
    press(table, table.guide.progress, msg={"saved": kept})
    assert table.guide.stars == set() and table.guide.step_number == 0 and table.game.ply == 0


# ------------------------------------------------------------------ a race game's lessons (Hats Off!)


def answer(table: HatsOffTable, action: str, seconds: float = 0.0) -> None:
    """What the race pad's script sends for the decision on screen: an action and its time in the browser."""
    table.pad._received(table.pad, {"answer": action, "turn": table.pad.turn, "seconds": seconds}, [])


def test_a_race_table_marks_the_steps_move_on_its_pad_and_takes_the_pads_timed_answer() -> None:
    table = lesson_table(HATS_OFF_LESSONS)
    assert isinstance(table, HatsOffTable)
    assert table.pad.hint == "wear beret" and "Step 1 of 6." in table.guide.instruction.value
    assert not is_shown(table.level_box), "the bots react as the lesson seats them until it is done"
    answer(table, "wear beret")
    assert table.pad.hint == "flip"
    answer(table, "flip")
    assert table.pad.hint == "fez" and "click it, quick!" in table.guide.instruction.value
    answer(table, "fez", 0.93)
    assert "Ana:fez@0.93" in [str(move) for move in table.game.history]
    assert table.guide.step_number == 3 and table.pad.hint == "flip"
    assert "Nobody put a fez down before you" in table.guide.instruction.value


def test_a_pad_answer_the_step_does_not_ask_for_is_refused_in_words_and_the_pad_opens_again() -> None:
    table = lesson_table(HATS_OFF_LESSONS)
    for action in ("wear beret", "flip"):
        answer(table, action)
    ply, turn = table.game.ply, table.pad.turn
    answer(table, "pass", 4.0)  # the pad's own pass when its time ran out
    assert table.game.ply == ply and table.guide.step_number == 2
    assert "That move is allowed, but it is not what this step asks for. You have a fez" in table.message.value
    assert table.pad.turn == turn + 1 and table.pad.can_act and table.pad.hint == "fez", "the same race, open again"
    assert table.pad.result.startswith("That move is allowed, but it is not"), "on the pad too"
    answer(table, "fez", 1.2)
    assert table.guide.step_number == 3


def test_a_race_lesson_continues_where_the_student_stopped_however_slow_their_answers_were() -> None:
    """The browser keeps the step, not the times: the replay plays the races at 0 s and must reach the same game."""
    table = lesson_table(HATS_OFF_LESSONS)
    for action, seconds in [("wear beret", 0.0), ("flip", 0.0), ("fez", 3.9), ("flip", 0.0)]:
        answer(table, action, seconds)
    again = lesson_table(HATS_OFF_LESSONS)
    press(again, again.guide.progress, msg={"saved": dict(table.guide.progress.saved)})
    assert again.guide.step_number == 4 and again.pad.hint == "pass"
    view, seen = table.game.view(0), again.game.view(0)
    assert {key: view[key] for key in view if key != "ply"} == {key: seen[key] for key in seen if key != "ply"}


def test_bots_that_answer_at_once_still_wait_for_the_reader_in_the_next_race() -> None:
    table = lesson_table(HATS_OFF_LESSONS)
    for _ in range(5):
        play_step(table)
    assert str(table.game.history[-1]) == "Ben:flip", "nobody moved in the new race before the reader"
    assert "A chef&#x27;s hat, and you hold one" in table.guide.instruction.value


def test_a_race_lesson_in_step_mode_picks_the_steps_move_in_the_tables_boxes() -> None:
    table = HatsOffTable.with_lessons(HATS_OFF_LESSONS, mode="step", bot_delay=0)
    for number, move in enumerate(["Ana:wear beret", "Ana:flip", "Ana:fez@0"]):
        assert table.guide.step_number == number and table.move_box.value == move
        press(table, table.play_button, do="click")
    assert table.guide.step_number == 3


def test_a_lesson_seats_a_games_own_bots_and_the_set_up_row_names_them() -> None:
    table = lesson_table(HATS_OFF_LESSONS)
    assert table.seats == ("reader", "child", "child")
    assert table.seat_label(1) == "Ben (child bot)"
    ben = table.setup.seat_boxes[1]
    assert ben.value == "child" and ("child bot", "child") in ben.pairs
    with pytest.raises(ValueError, match="unknown seat kind"):
        HatsTable(hatskit.new_game("hats", players=2, seed=1), ("reader", "child"), bot_delay=0)


def write(tmp_path: Path, lessons: Any, game: str = "hats") -> Path:
    path = tmp_path / "lessons.json"
    path.write_text(json.dumps({"game": game, "lessons": lessons}, ensure_ascii=False), encoding="utf-8")
    return path


def guided(**changes: Any) -> dict[str, Any]:
    lesson = {
        "id": "first",
        "title": "First",
        "deal": {"players": 3, "seed": 1},
        "steps": [{"say": "Discard your ★1.", "moves": ["discard ★1"], "done": "Done."}],
    }
    return {key: value for key, value in {**lesson, **changes}.items() if value is not None}


@pytest.mark.parametrize(
    ("lessons", "message"),
    [
        ([guided(id="First Game")], "lesson 1: 'id' must be small letters"),
        ([guided(), guided()], "two lessons have the id 'first'"),
        ([guided(colour="red")], "lesson 1: unknown field 'colour'"),
        ([guided(deal=None)], "needs exactly one of deal, position, puzzle"),
        ([guided(deal={"players": 9, "seed": 1})], "lesson 1: 'deal' cannot start a game"),
        ([guided(seats=["greedy", "greedy", "greedy"])], "'seats' must list 3 seats, one of them 'reader'"),
        ([guided(seats=["reader", "clever", "greedy"])], "no 'clever' bot for hats"),
        ([guided(steps=[])], "'steps' must be a list of steps"),
        ([guided(steps=[{"say": "Go.", "moves": ["♦1@1"], "done": "Done."}])], "step 1: 'moves' is [\"♦1@1\"]"),
        ([guided(steps=[{"say": "Go.", "moves": "discard ★1", "done": "Done."}])], "step 1: 'moves' must be a list"),
        ([guided(steps=[{"say": "", "moves": ["discard ★1"], "done": "Done."}])], "step 1: 'say' must be a sentence"),
        ([guided(steps=[{"say": "Go.", "moves": ["discard ★1"], "done": "D.", "point": 1}])], "'point' must be true"),
        ([guided(deal=None, puzzle="hats.json#1")], "cannot be read"),
        ([guided(deal=None, puzzle=f"{NOTEBOOK_DIR / 'puzzles' / 'hats.json'}#9")], "'puzzle' must name a puzzle"),
    ],
)
def test_a_bad_lesson_file_names_the_lesson_the_step_and_the_field(
    tmp_path: Path, lessons: list[Any], message: str
) -> None:
    path = write(tmp_path, lessons)
    with pytest.raises(LessonError) as raised:
        load_lessons(path)
    assert message in str(raised.value)
    assert str(path) in str(raised.value) or "hats.json" in str(raised.value)


def test_a_lesson_file_that_is_not_a_lesson_file(tmp_path: Path) -> None:
    path = tmp_path / "lessons.json"
    path.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(LessonError, match='must be a JSON object with "game" and "lessons"'):
        load_lessons(path)
    path.write_text("{", encoding="utf-8")
    with pytest.raises(LessonError, match="is not valid JSON"):
        load_lessons(path)
    with pytest.raises(LessonError, match="cannot be read"):
        load_lessons(tmp_path / "missing.json")
