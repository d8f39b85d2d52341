"""Bad input on Madder than a Hatter gets a named error, within a second, and changes nothing (issue 26).

One test (or one parametrized test) per class of the issue; each failed before
its fix: the call raised TypeError, IndexError or UnicodeDecodeError from inside
the engine, hung on a FIFO, or quietly accepted what it should have refused
(a boolean seat played into Ben's inventory, ``count = 2.0`` loaded and then
broke a legal move, a style name with a newline started a game whose own
position did not load back). The hint tests are issue 25's.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import hatskit
from hatskit import HatskitError, InvalidMoveError, RecordError
from hatskit.bots import make_bot
from hatskit.bots.montecarlo import Estimate
from hatskit.games.madder import Discard, HatAt, MoveHat, Play, Swap, Take, load_cards
from hatskit.games.madder.bots import MadderBot
from hatskit.games.madder.components import DEFAULT_CARDS
from tests.helpers import CLERK, COLLECTOR, TRENDSETTER, turn_position, within_a_second


def snapshot(game: hatskit.Game) -> tuple[str, str, int]:
    return json.dumps(game.record()), json.dumps(game.position()), game.ply


def refused(game: hatskit.Game, move: object) -> str:
    """The sentence ``why_illegal`` gives for ``move``; ``play`` refuses it with a named error and changes nothing."""
    before = snapshot(game)
    with within_a_second():
        reason = game.why_illegal(move)
        with pytest.raises(HatskitError) as caught:
            game.play(move)
    assert isinstance(reason, str) and snapshot(game) == before
    assert isinstance(caught.value, InvalidMoveError | hatskit.IllegalMoveError)
    return reason


# ---------------------------------------------------------------- hand-built moves


NOT_SEATS = [None, 1.0, "Ben", True, False, -1, 4, 99, 2**70, float("nan"), [1]]


@pytest.mark.parametrize("to", NOT_SEATS, ids=repr)
def test_a_play_whose_target_is_not_a_seat_is_refused_quoting_it(to: object) -> None:
    game = hatskit.load(turn_position())
    reason = refused(game, Play("Newsboy", to))  # type: ignore[arg-type]
    assert "not a madder move" in reason


HAND_BUILT = {
    'MoveHat("Fedora", None, 1)': lambda: MoveHat("Fedora", None, 1),
    'MoveHat("Fedora", 0, 7)': lambda: MoveHat("Fedora", 0, 7),
    "MoveHat(None, 0, 1)": lambda: MoveHat(None, 0, 1),
    'Discard((HatAt("Fedora", 2.0),))': lambda: Discard((HatAt("Fedora", 2.0),)),
    'Discard((HatAt("Fedora", True),))': lambda: Discard((HatAt("Fedora", True),)),
    "Discard(None)": lambda: Discard(None),
    'Discard(("Fedora@Ana",))': lambda: Discard(("Fedora@Ana",)),
    "Discard(())": lambda: Discard(()),
    'Swap(HatAt("Fedora", 0), None)': lambda: Swap(HatAt("Fedora", 0), None),
    'Swap(HatAt("Fedora", 0), HatAt("Boater", "Ben"))': lambda: Swap(HatAt("Fedora", 0), HatAt("Boater", "Ben")),
    'Take(HatAt("Boater", 9))': lambda: Take(HatAt("Boater", 9)),
    'Take(HatAt(["Boater"], "line"))': lambda: Take(HatAt(["Boater"], "line")),
    "Play(None, 1)": lambda: Play(None, 1),
    "Play(3, 1)": lambda: Play(3, 1),
}


@pytest.mark.parametrize("built", list(HAND_BUILT))
def test_a_choice_or_play_built_with_fields_that_are_not_places_is_refused(built: str) -> None:
    game = hatskit.load(turn_position(phase="haberdashers", line=[], hands=[[], [], []]))
    assert "not a madder move" in refused(game, HAND_BUILT[built]())


def test_the_state_itself_says_why_a_hand_built_move_is_malformed() -> None:
    state = hatskit.load(turn_position()).state
    with within_a_second():
        assert "seat" in state.why_illegal(Play("Newsboy", None))  # type: ignore[arg-type]
        assert "seat" in state.why_illegal(Play("Newsboy", True))  # type: ignore[arg-type]
        assert "not a Madder than a Hatter move" in state.why_illegal(5)  # type: ignore[arg-type]


# ---------------------------------------------------------------- card files (M6)


def card_file(tmp_path: Path, old: str, new: str) -> str:
    text = DEFAULT_CARDS.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "cards.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return str(path)


def refused_cards(path: str, *expected: str) -> str:
    with within_a_second(), pytest.raises(RecordError) as caught:
        load_cards(path)
    message = str(caught.value)
    assert repr(path) in message or path in message, message
    for part in expected:
        assert part in message, message
    return message


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b'label = "caf\xe9"\n', "is not UTF-8 text"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "is not UTF-8 text"),
        (b'label = "x"\x00\x01\x02\n', "binary"),
    ],
    ids=["latin-1", "png", "nul-bytes"],
)
def test_a_card_file_that_is_not_text_is_refused(tmp_path: Path, content: bytes, expected: str) -> None:
    path = tmp_path / "cards.toml"
    path.write_bytes(content)
    refused_cards(str(path), expected)


def test_a_card_path_with_a_nul_byte_is_refused() -> None:
    refused_cards("cards\x00.toml", "NUL")
    with within_a_second(), pytest.raises(RecordError, match="NUL"):
        hatskit.new_game("madder", cards="our\x00cards.toml")


def test_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "cards.toml"
    os.mkfifo(fifo)
    refused_cards(str(fifo), "not a regular file")


def test_a_device_and_a_folder_are_refused_at_once(tmp_path: Path) -> None:
    refused_cards("/dev/zero", "not a regular file")
    refused_cards(str(tmp_path), "not a regular file")


def test_a_card_file_too_large_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    path = tmp_path / "cards.toml"
    path.write_text("# " + "x" * 3_000_000 + "\n", encoding="utf-8")
    refused_cards(str(path), "bytes")


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('effect = "take"', 'effect = ["take"]', "premium 'Extra! Extra!': field 'effect' must be one of"),
        ('effect = "take"', 'effect = { name = "take" }', "premium 'Extra! Extra!': field 'effect' must be one of"),
        ('from = "own", count = 2', 'from = "own", count = 2.0', "'The Clearance Clerk': field 'params.count'"),
        ("hats = 3, points = 3", "hats = 3, points = 3.0", "'The Trendsetter': field 'params.points'"),
        ("hats = 3, points = 3", "hats = 3.0, points = 3", "'The Trendsetter': field 'params.hats'"),
        ('"Stetson", "Trilby"]', '"Stetson", "Trilby\\n"]', "field 'styles': 'Trilby\\n'"),
        ('"Stetson", "Trilby"]', '"Stetson", "T' + "r" * 30 + '"]', "field 'styles': 'Trrrr"),
        ('name = "The Tailor"', 'name = "The ' + "T" * 2000 + '"', "field 'name'"),
        ('name = "The Tailor"', 'name = "The Tailor\\n"', "field 'name'"),
        ('text = "Take any one hat', 'txt = "Take any one hat', "premium 'Extra! Extra!': field 'txt' is not"),
        ("label = ", "lable = ", "field 'lable' is not"),
        ('style = "Newsboy"', "style = 5", "field 'style' must be one of"),
    ],
    ids=[
        "effect-array",
        "effect-table",
        "count-float",
        "points-float",
        "hats-float",
        "style-newline",
        "style-too-long",
        "name-too-long",
        "name-newline",
        "unknown-card-field",
        "unknown-file-field",
        "style-number",
    ],
)
def test_a_card_file_is_checked_completely_and_names_file_card_and_field(
    tmp_path: Path, old: str, new: str, expected: str
) -> None:
    refused_cards(card_file(tmp_path, old, new), expected)


def test_a_game_played_with_a_checked_card_file_saves_positions_that_load(tmp_path: Path) -> None:
    longest = "Q" + "u" * 19  # as long as a style name may be
    path = card_file(tmp_path, '"Stetson", "Trilby"]', f'"Stetson", "{longest}"]')
    Path(path).write_text(Path(path).read_text(encoding="utf-8").replace('"Trilby"', f'"{longest}"'), encoding="utf-8")
    game = hatskit.new_game("madder", players=3, seed=4, cards=path)
    bot = make_bot("madder", "random", 1)
    while game.ply < 60:
        game.play(bot.choose(game.seat_view(game.to_move)))
        assert hatskit.load(game.position()).position() == game.position()


# ---------------------------------------------------------------- positions


@pytest.mark.parametrize(
    "scores",
    [
        [[-1, 3, 2]],
        [[True, 3, 2]],
        [[[["Fedora", -1, "a Fedora"]], [], []]],
        [[[["Fedora", True, "a Fedora"]], [], []]],
        [[[["Fedora", 1.0, "a Fedora"]], [], []]],
    ],
    ids=["negative-round", "bool-round", "negative-line", "bool-line", "float-line"],
)
def test_a_finished_round_with_points_below_zero_or_not_a_number_is_refused(scores: list[Any]) -> None:
    with within_a_second(), pytest.raises(RecordError, match="field 'scores', round 1"):
        hatskit.load(turn_position(round=2, dealer=1, to_move=1, scores=scores))


def test_what_load_accepts_saves_and_loads_again() -> None:
    for position in (
        turn_position(round=2, dealer=1, to_move=1, scores=[[[["Fedora", 1, "why"]], [], [["x", 0, ""]]]]),
        turn_position(phase="haberdashers", line=[], hands=[[], [], []], haberdashers=[COLLECTOR, TRENDSETTER, CLERK]),
        {"game": "madder", "players": 4, "inventories": [["Fedora*"], [], ["Boater"], []]},
    ):
        saved = hatskit.load(position).position()
        assert hatskit.load(saved).position() == saved


# ---------------------------------------------------------------- hints (issue 25)


def test_a_hint_asked_twice_in_the_same_position_gives_the_same_move() -> None:
    game = hatskit.load(turn_position(inventories=[["Fedora"], ["Boater", "Newsboy"], ["Bowler"]]))
    bot = make_bot("madder", "strong", 1)
    first, second = bot.hint(game.seat_view(0)), bot.hint(game.seat_view(0))
    assert (first.move, first.reason, first.detail) == (second.move, second.reason, second.detail)
    assert make_bot("madder", "strong", 99).hint(game.seat_view(0)).move == first.move


def test_within_the_noise_a_hint_prefers_a_move_a_student_can_follow() -> None:
    view = hatskit.load(turn_position()).view(0)
    gift = Estimate(Play("Newsboy", 1), (1, 0, 1, 0, 1, 0))  # Ben's first Newsboy: a point for Ben
    own = Estimate(Play("Newsboy", 0), (1, 0, 0, 0, 1, 0))  # Ana's first Newsboy: a point for Ana
    hint = MadderBot().explain([gift, own], view)
    assert hint.move == Play("Newsboy", 0) and "a cost" not in hint.reason


def test_beyond_the_noise_the_better_move_stays_the_hint() -> None:
    view = hatskit.load(turn_position()).view(0)
    gift = Estimate(Play("Newsboy", 1), (3, 3, 3, 3, 3, 4))
    own = Estimate(Play("Newsboy", 0), (0, 0, 0, 0, 1, 0))
    assert MadderBot().explain([gift, own], view).move == Play("Newsboy", 1)
