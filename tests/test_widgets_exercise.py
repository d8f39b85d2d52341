"""MoveExercise driven as a reader would: type a move, click Try, read the feedback."""

from __future__ import annotations

import html
from typing import Any

import pytest

import hatskit
from hatskit import Game, HatskitError, IllegalMoveError, InvalidMoveError
from hatskit.drawing import without_rules
from tests.helpers import RULE_ID
from widgets.teaching.exercise import MoveExercise, most_points_now

# Ana (seat 0) to move; the table's position 3 holds ♥6, so only a heart can take it.
POSITION = {
    "game": "hats",
    "players": 3,
    "to_move": 0,
    "played": [0, 0, 0],
    "table": ["♣3", "♠4", "♥6", "★4", "★5", "✿5"],
    "hands": [
        ["♠1", "♣6", "⎈3", "✿3", "♥2", "★2", "★3", "✿2", "♦5"],
        ["♦6", "♠2", "♦3", "♥5", "♦4", "✿1", "♣1", "✿4", "⎈4"],
        ["♣4", "♥1", "⎈1", "♣2", "★1", "♠3", "♦1", "⎈2", "✿6"],
    ],
    "collections": [[], [], []],
    "black_hats": [[], [], []],
    "cookie": None,
}


# White to move: b3-c4 flanks d4 between c4 and e4 (S3).
CAPTURE = {
    "game": "sombrero",
    "to_move": "white",
    "actions_left": 2,
    "white": {"hatted": ["e4", "b3", "g6", "h2"], "hatless": ["c2"]},
    "black": {"hatted": ["d4", "f6", "c7", "a2"], "hatless": []},
}


def onto_position_3(game_before: Game, move: Any) -> tuple[bool, str]:
    """The goal of the test exercise: an exchange onto position 3."""
    met = getattr(move, "position", None) == 3
    return met, "it lands on position 3" if met else "it does not land on position 3"


def try_text(exercise: MoveExercise, notation: str) -> str:
    """Type ``notation``, click Try and return the feedback as plain text."""
    exercise.text.value = notation
    exercise.try_button.click()
    return html.unescape(exercise.feedback.value)


def shown_of(feedback: str) -> str:
    """What the reader reads without opening anything: the feedback before its "why?"."""
    return feedback.split('<details class="hk-why">')[0]


def why_of(feedback: str) -> str:
    """The feedback's folded "why?" ("" without one)."""
    return feedback.partition('<details class="hk-why">')[2]


@pytest.fixture
def game() -> Game:
    return hatskit.load(POSITION)


@pytest.fixture
def exercise(game: Game) -> MoveExercise:
    return MoveExercise(game, "Find an exchange onto position 3.", goal=onto_position_3)


def test_garbage_notation_gives_the_parse_error_and_changes_nothing(game: Game, exercise: MoveExercise) -> None:
    board_before, start_before = exercise.board.value, exercise.start.position()
    with pytest.raises(InvalidMoveError) as error:
        game.play("hat please")
    assert str(error.value) in try_text(exercise, "hat please")
    assert exercise.board.value == board_before
    assert exercise.start.position() == start_before and exercise.trial is None


def test_illegal_move_gives_the_rule_reason_and_changes_nothing(game: Game, exercise: MoveExercise) -> None:
    board_before = exercise.board.value
    with pytest.raises(IllegalMoveError) as error:
        game.play("♦5@3")
    feedback = try_text(exercise, "♦5@3")
    assert without_rules(error.value.reason)[0] in feedback and "rule H2: Exchange" in why_of(feedback)
    assert exercise.board.value == board_before
    assert exercise.start.ply == 0 and exercise.trial is None


def test_legal_move_narrates_its_events_and_the_goal_verdict(game: Game, exercise: MoveExercise) -> None:
    expected = game.state_at(0).play("♥2@3")
    feedback = try_text(exercise, "♥2@3")
    assert all(without_rules(event.text)[0] in feedback for event in expected)
    assert "Goal met" in feedback and "it lands on position 3" in feedback
    assert exercise.start.ply == 0 and exercise.start.position() == game.position()


def test_legal_move_that_misses_the_goal_says_so(exercise: MoveExercise) -> None:
    feedback = try_text(exercise, "black ♦5")
    assert "made a black hat" in feedback
    assert "Not the answer yet" in feedback and "does not land on position 3" in feedback


def test_the_board_shows_the_tried_move_and_reset_restores_the_start(exercise: MoveExercise) -> None:
    board_before = exercise.board.value
    try_text(exercise, "♥2@3")
    assert exercise.board.value != board_before and 'title="♥2"' in exercise.board.value
    exercise.reset_button.click()
    assert exercise.board.value == board_before
    assert exercise.text.value == "" and exercise.feedback.value == "" and exercise.trial is None


def test_each_try_starts_from_the_starting_position(exercise: MoveExercise) -> None:
    try_text(exercise, "♥2@3")
    assert "is legal" in try_text(exercise, "♥2@3")


def test_an_offered_move_is_tried_at_its_press_and_fills_the_move_box(game: Game) -> None:
    exercise = MoveExercise(game, choices=["♥2@3", "♦5@3"])
    assert [button.description for button in exercise.choices] == ["♥2@3", "♦5@3"]
    exercise.choices[1].click()
    assert exercise.text.value == "♦5@3" and "Not allowed" in exercise.feedback.value
    exercise.choices[0].click()
    assert exercise.text.value == "♥2@3" and "is legal" in exercise.feedback.value


def test_a_seat_exercise_never_shows_another_hand(game: Game) -> None:
    exercise = MoveExercise(game, seat=0)
    try_text(exercise, "♥2@3")
    for shown in (exercise.board.value, MoveExercise(game, seat=0).board.value):
        assert 'title="♠1"' in shown
        assert not any(f'title="{card}"' in shown for card in POSITION["hands"][1] + POSITION["hands"][2])


def test_a_seat_that_is_not_to_move_is_refused(game: Game) -> None:
    with pytest.raises(HatskitError, match="may act now"):
        MoveExercise(game, seat=1)


def test_most_points_now_judges_against_the_best_move(game: Game) -> None:
    # ✿3@6 collects ✿5 and leaves ✿ at position 6 (+6), and the first collected type brings the
    # cookie (+5): 11, the most one card can earn. A black hat earns 1 + the cookie = 6.
    assert most_points_now(game, game.parse("✿3@6")) == (True, "✿3@6 gains Ana +11 points now, as much as any move can")
    met, why = most_points_now(game, game.parse("black ♦5"))
    assert not met and "+6" in why and "+11" in why


def test_front_ends_without_widgets_get_the_prompt_and_position(exercise: MoveExercise) -> None:
    bundle, _ = exercise._repr_mimebundle_()  # anywidget answers (data, metadata)
    assert "Find an exchange onto position 3." in bundle["text/html"]
    assert exercise.board.value in bundle["text/html"]
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_a_sombrero_exercise_for_a_seat_shows_the_board() -> None:
    game = hatskit.new_game("sombrero")
    exercise = MoveExercise(game, "Step a piece.", seat=0)
    assert 'title="e1: White, hatted"' in exercise.board.value
    feedback = try_text(exercise, "e1-e2")
    assert "White stepped e1-e2" in feedback and 'title="e2: White, hatted"' in exercise.board.value


def test_the_rules_ids_wait_in_one_why_as_on_a_table(exercise: MoveExercise) -> None:
    feedback = try_text(exercise, "♥2@3")
    assert not RULE_ID.search(shown_of(feedback)) and "rule H2: Exchange" in why_of(feedback)
    sombrero = MoveExercise(hatskit.load(CAPTURE))
    feedback = try_text(sombrero, "b3-c4")
    assert "d4 lost its hat: flanked by c4 and e4" in shown_of(feedback) and not RULE_ID.search(shown_of(feedback))
    assert why_of(feedback).count("rule S3") == 1
