"""Puzzles as data: every shipped file loads, and a bad file names its puzzle and field."""

from __future__ import annotations

import copy
import html
import json
from pathlib import Path
from typing import Any

import pytest

from hatskit.drawing import without_rules
from hatskit.puzzles import PuzzleError, load_puzzles, read_puzzles
from widgets.teaching.puzzles import puzzle_exercise

PUZZLES = Path(__file__).resolve().parent.parent / "notebooks" / "puzzles"
SHIPPED = sorted(PUZZLES.glob("*.json"))

GOOD = {
    "question": "Take a Black hat with a single step.",
    "position": {
        "game": "sombrero",
        "to_move": "white",
        "actions_left": 2,
        "white": {"hatted": ["e4", "b3", "g6", "h2"], "hatless": []},
        "black": {"hatted": ["d4", "f6", "c7", "a2"], "hatless": []},
    },
    "answer": "b3-c4",
    "explanation": "c4 and e4 close rank 4 around d4 (S3).",
    "choices": ["b3-c3", "b3-c4"],
}


def bad_file(change: dict[str, Any], drop: str = "") -> str:
    """A two-puzzle file whose second puzzle has ``change`` applied and ``drop`` removed."""
    second = copy.deepcopy(GOOD) | change
    second.pop(drop, None)
    return json.dumps([GOOD, second], ensure_ascii=False)


def test_the_notebooks_ship_puzzles_for_each_game_with_try_it_puzzles() -> None:
    assert {path.stem for path in SHIPPED} == {"hats", "madder", "sombrero"}


@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: path.stem)
def test_every_shipped_puzzle_loads_with_legal_answers(path: Path) -> None:
    puzzles = load_puzzles(path)
    assert puzzles
    for puzzle in puzzles:
        legal = {str(move) for move in puzzle.game.legal_moves()}
        assert puzzle.answers and set(puzzle.answers) <= legal
        assert puzzle.game.spec.game_id == path.stem


@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: path.stem)
def test_a_shipped_answer_solves_its_exercise_and_another_move_does_not(path: Path) -> None:
    for puzzle in load_puzzles(path):
        exercise = puzzle_exercise(puzzle)
        exercise.try_move(puzzle.answers[0])
        assert "Goal met" in exercise.feedback.value
        assert html.escape(without_rules(puzzle.explanation)[0]) in exercise.feedback.value
        wrong = [str(m) for m in puzzle.game.legal_moves() if str(m) not in puzzle.answers]
        if wrong:
            exercise.try_move(wrong[0])
            assert "Not the answer yet" in exercise.feedback.value


def test_a_good_file_reads_back_its_fields() -> None:
    (puzzle,) = read_puzzles(json.dumps([GOOD]))
    assert (puzzle.number, puzzle.question, puzzle.answers) == (1, GOOD["question"], ("b3-c4",))
    assert puzzle.choices == ("b3-c3", "b3-c4") and puzzle.seat is None
    assert puzzle.solved_by("b3-c4") and not puzzle.solved_by("b3-c3")


@pytest.mark.parametrize(
    ("change", "drop", "expected"),
    [
        ({}, "answer", "x.json, puzzle 2: the field 'answer' is missing"),
        ({}, "position", "x.json, puzzle 2: the field 'position' is missing"),
        ({"answer": "H9"}, "", "x.json, puzzle 2: 'answer' is 'H9', which is not a move in this position"),
        ({"answer": "d4-d5"}, "", "x.json, puzzle 2: 'answer' is 'd4-d5', which is not a move in this position"),
        ({"answer": []}, "", "x.json, puzzle 2: 'answer' must be a move or a list of moves, not []"),
        ({"position": {"game": "chess"}}, "", "x.json, puzzle 2: 'position' cannot be loaded"),
        ({"position": "e4"}, "", "x.json, puzzle 2: 'position' must be a JSON object, not \"e4\""),
        ({"question": ""}, "", "x.json, puzzle 2: 'question' must be a sentence"),
        ({"seat": 1}, "", "x.json, puzzle 2: 'seat' is 1, but only seat(s) [0] may move here"),
        ({"choices": "b3-c4"}, "", "x.json, puzzle 2: 'choices' must be a list of moves"),
        ({"hint": "look left"}, "", "x.json, puzzle 2: unknown field 'hint'"),
    ],
)
def test_a_bad_puzzle_names_its_number_and_field(change: dict[str, Any], drop: str, expected: str) -> None:
    with pytest.raises(PuzzleError) as caught:
        read_puzzles(bad_file(change, drop), "x.json")
    assert str(caught.value).startswith(expected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[{", "x.json: is not valid JSON"),
        ('{"question": "?"}', "x.json: must be a JSON list of puzzles"),
        ("[]", "x.json: must be a JSON list of puzzles, not []"),
        ("[3]", "x.json, puzzle 1: must be a JSON object, not 3"),
    ],
)
def test_a_file_that_is_not_a_list_of_puzzles_says_so(text: str, expected: str) -> None:
    with pytest.raises(PuzzleError, match="^" + expected.replace("[", r"\[").replace("]", r"\]")):
        read_puzzles(text, "x.json")


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    with pytest.raises(PuzzleError, match=r"nope\.json: cannot be read"):
        load_puzzles(missing)
