"""A puzzle from a teacher's JSON file, shown as a "try a move" exercise.

    >>> puzzles = load_puzzles("puzzles/hats.json")   # checked: a bad file names its field
    >>> puzzle_exercise(puzzles[0])

The file format is described in ``hatskit.puzzles``; the exercise is a
``MoveExercise`` (widgets/teaching/exercise.py) whose goal is "one of the file's
answers" and whose explanation is the file's own sentence.
"""

from __future__ import annotations

from typing import Any

from hatskit import Game
from hatskit.puzzles import Puzzle, load_puzzles
from widgets.teaching.exercise import Goal, MoveExercise

__all__ = ["answer_goal", "load_puzzles", "puzzle_exercise"]


def answer_goal(puzzle: Puzzle) -> Goal:
    """Goal: the legal move is one of the puzzle's answers; the explanation says why."""

    def goal(_game_before: Game, move: Any) -> tuple[bool, str]:
        if puzzle.solved_by(move):
            return True, puzzle.explanation
        return False, f"{move} is allowed, but it does not solve this puzzle: keep looking"

    return goal


def puzzle_exercise(puzzle: Puzzle) -> MoveExercise:
    """The puzzle's position, question and choices as an exercise, shown from its seat."""
    return MoveExercise(
        puzzle.game, puzzle.question, goal=answer_goal(puzzle), seat=puzzle.seat, choices=puzzle.choices
    )
