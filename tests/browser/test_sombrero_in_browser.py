"""Sombrero in a browser: Voilà renders the board, Chromium picks up pieces, steps and captures by clicks.

The Sombrero notebook's table starts from the set-up (S1), where no capture is
within reach, so the capture is played on a prepared position: a one-cell
notebook that this module writes and serves with a second Voilà, started as
`make app` starts it (the same config/, the same installed packages).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import nbformat
import pytest
from playwright.sync_api import expect

import hatskit
from hatskit.games.sombrero import square_name
from tests.browser.conftest import GAME_TABLE, expect_refusal
from tests.browser.motion import end, forget_motion, middle, motion, near, start, watch_motion

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

    from tests.conftest import Server

# White to move: b3-c4 flanks d4 between c4 and e4 (S3). The view tests play the same puzzle.
CAPTURE = {
    "game": "sombrero",
    "to_move": "white",
    "white": {"hatted": ["e4", "b3", "g6", "h2"], "hatless": ["c2"]},
    "black": {"hatted": ["d4", "f6", "c7", "a2"]},
}
SOMBRERO_NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "sombrero.ipynb"
LIGHT, DARK = "rgb(240, 217, 181)", "rgb(181, 136, 99)"  # the board pictures' square colours
CAPTURE_CELL = f"""import hatskit
from widgets import SombreroTable

SombreroTable(hatskit.load({json.dumps(CAPTURE)}), seats=("reader", "greedy"))
"""
Served = tuple[str, Path]  # a Voilà server's base URL and the notebook it serves
OpenTable = Callable[[str, Path], "Locator"]
TITLES = "board => [...board.querySelectorAll('button.hk-sq')].map(button => button.title)"  # a1 to h8
LEGAL = re.compile(r"\bhk-legal\b")


@pytest.fixture(scope="module")
def puzzle(serve_app: Callable[..., Server], tmp_path_factory: pytest.TempPathFactory) -> Served:
    """A Voilà serving one notebook: a SombreroTable where White's b3-c4 takes d4's hat."""
    notebook = tmp_path_factory.mktemp("sombrero-puzzle") / "capture.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(CAPTURE_CELL)]), notebook)
    return serve_app(notebook.parent).url, notebook


def open_board(open_table: OpenTable, url: str, notebook: Path) -> Locator:
    """The notebook's first table, once all 64 squares of its board show."""
    table = open_table(url, notebook)
    expect(table.locator("button.hk-sq")).to_have_count(64)
    return table


def square(table: Locator, name: str) -> Locator:
    return table.locator(f'button[title^="{name}:"]')


def targets(game: hatskit.Game, origin: str) -> set[str]:
    """The squares the piece on ``origin`` may move to now."""
    return {square_name(move.target) for move in game.legal_moves() if square_name(move.origin) == origin}


def expect_lit_squares(table: Locator, names: set[str]) -> None:
    """Wait until exactly the squares ``names`` are highlighted as targets of the piece picked up."""
    expect(table.locator("button.hk-legal")).to_have_count(len(names))
    for name in names:
        expect(square(table, name)).to_have_class(LEGAL)


def test_sombrero_board_shows_pieces_and_plays_a_step_by_keyboard(open_table: OpenTable, voila: str) -> None:
    table = open_board(open_table, voila, SOMBRERO_NOTEBOOK)
    game = hatskit.new_game("sombrero")
    expect(square(table, "e1")).to_have_attribute("title", "e1: White, hatted")
    expect(square(table, "h1")).to_have_css("background-color", LIGHT)
    expect(square(table, "a1")).to_have_css("background-color", DARK)
    for name in ("e1", "a1"):  # a White and a Black hatted piece: two different pictures
        expect(square(table, name)).to_have_css("background-image", re.compile("svg"))
    black_piece = square(table, "a1").evaluate("button => getComputedStyle(button).backgroundImage")
    expect(square(table, "e1")).not_to_have_css("background-image", black_piece)
    expect(square(table, "e4")).to_have_css("background-image", "none")
    square(table, "e1").click()
    expect(table.locator('button.hk-selected[title^="e1:"]')).to_be_visible()
    expect_lit_squares(table, targets(game, "e1"))
    square(table, "e2").focus()
    square(table, "e2").press("Enter")
    expect(table.locator(".hk-message")).to_contain_text("White stepped e1-e2")
    expect(table.locator(".hk-sb-turn")).to_contain_text("action 2 of 2")
    expect(square(table, "e2")).to_have_attribute("title", "e2: White, hatted; e1-e2 went here in the last move")


def test_sombrero_a_piece_steps_to_its_square_as_the_reader_watches(
    open_table: OpenTable, voila: str, page: Page
) -> None:
    table = open_board(open_table, voila, SOMBRERO_NOTEBOOK)
    watch_motion(page)
    square(table, "e1").click()
    square(table, "e2").click()
    expect(table.locator(".hk-message")).to_contain_text("White stepped e1-e2")
    motion(page, "(m) => m.pseudo === '::after' && m.title.startsWith('e2: White, hatted')")  # its piece glides
    expect(table.locator(".hk-arriving")).to_have_count(0)  # once it has arrived, the square shows its piece


def test_sombrero_illegal_step_says_why_and_changes_nothing(
    open_table: OpenTable, voila: str, expect_evaluated: Callable[[Locator, str, Any], None]
) -> None:
    table = open_board(open_table, voila, SOMBRERO_NOTEBOOK)
    game = hatskit.new_game("sombrero")
    square(table, "e1").click()
    expect(table.locator('button.hk-selected[title^="e1:"]')).to_be_visible()
    expect_lit_squares(table, targets(game, "e1"))
    before = table.evaluate(TITLES)  # every square drawn, the lit ones with their "e1 can step here"
    square(table, "e3").click()
    reason = game.why_illegal("e1-e3")
    expect_refusal(table, reason)
    expect_evaluated(table, TITLES, before)


def test_sombrero_capture_by_clicks_takes_the_hat(open_table: OpenTable, puzzle: Served) -> None:
    table = open_board(open_table, *puzzle)
    expect(square(table, "d4")).to_have_attribute("title", "d4: Black, hatted")
    square(table, "b3").click()
    expect(table.locator('button.hk-selected[title^="b3:"]')).to_be_visible()
    expect(square(table, "c4")).to_have_class(LEGAL)
    square(table, "c4").click()
    expect(table.locator(".hk-message")).to_contain_text("d4 lost its hat: flanked by c4 and e4")
    captured = table.locator("button.hk-captured")
    expect(captured).to_have_count(1)
    expect(captured).to_have_attribute("title", "d4: Black, hatless; lost its hat in the last move")
    expect(table.locator(".hk-sb-turn")).to_contain_text("hats: White 4, Black 3")


def test_sombrero_a_piece_dragged_to_its_square_captures_as_a_click_does(open_table: OpenTable, puzzle: Served) -> None:
    table = open_board(open_table, *puzzle)
    square(table, "b3").drag_to(square(table, "c4"))  # pick up, carry, let go: the two clicks a reader makes
    expect(table.locator(".hk-message")).to_contain_text("d4 lost its hat: flanked by c4 and e4")
    expect(square(table, "c4")).to_have_attribute("title", re.compile(r"^c4: White, hatted"))
    expect(table.locator(".hk-ghost")).to_have_count(0)


def expect_pointed_squares(table: Locator, names: list[str]) -> None:
    """Wait until exactly the squares ``names`` are marked as what a score line counts."""
    expect(table.locator("button.hk-sq.hk-pointed")).to_have_count(len(names))
    for name in names:
        expect(square(table, name)).to_have_class(re.compile(r"\bhk-pointed\b"))


def test_sombrero_a_score_line_points_at_the_squares_of_the_hats_it_counts(
    open_table: OpenTable, puzzle: Served, page: Page
) -> None:
    table = open_board(open_table, *puzzle)
    white, black = (sorted(CAPTURE[side]["hatted"]) for side in ("white", "black"))
    summaries = table.locator(".hk-scorepanel summary")
    summaries.first.locator(".hk-how").click()  # White's total opens onto its line
    line = table.locator('.hk-scorepanel tr[data-hk-seat="0"]')
    line.hover()
    expect_pointed_squares(table, white)
    page.mouse.move(0, 0)
    expect(table.locator(".hk-pointed")).to_have_count(0)
    summaries.nth(1).click()
    table.locator('.hk-scorepanel tr[data-hk-seat="1"]').focus()  # the keyboard reaches the same pointing
    expect_pointed_squares(table, black)


# The board pictures' frames a reader can open (not folded away in a closed answer), in page order.
OPEN_FRAMES = ".hk-sb-frame:not(details:not([open]) *)"
DRAWN = "frame => frame.firstElementChild.checkVisibility({ contentVisibilityAuto: true })"
HEIGHT = "frame => frame.getBoundingClientRect().height"


@pytest.mark.parametrize("width", [1280, 390])
def test_board_pictures_are_drawn_near_the_screen_in_the_room_they_hold(
    page: Page, voila: str, width: int, expect_evaluated: Callable[[Locator, str, Any], None]
) -> None:
    """The notebook's board pictures far below the screen wait to be drawn (issue 9); each, once scrolled to and
    drawn, is exactly as tall as the room its frame held, so the page never moves under the reader."""
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(f"{voila}/voila/render/{SOMBRERO_NOTEBOOK.name}")
    page.locator(GAME_TABLE).first.wait_for()
    page.evaluate("window.scrollTo(0, 0)")
    frames = page.locator(OPEN_FRAMES)
    held = [(frame.evaluate(DRAWN), frame.evaluate(HEIGHT)) for frame in frames.all()]
    waiting = [index for index, (drawn, _) in enumerate(held) if not drawn]
    assert len(waiting) > len(held) // 2, f"only {len(waiting)} of {len(held)} board pictures waited to be drawn"
    for index in waiting:
        frame = frames.nth(index)
        frame.scroll_into_view_if_needed()
        expect_evaluated(frame, DRAWN, True)
        drawn_height = frame.evaluate(HEIGHT)
        assert abs(drawn_height - held[index][1]) < 0.5, (
            f"board picture {index + 1}: {held[index][1]} -> {drawn_height} px"
        )


# ------------------------------------------------------------------ hats you can watch move (S2, S3)


def play(table: Locator, origin: str, target: str, narration: str) -> None:
    """Pick up the piece on ``origin``, press ``target``, and wait for the message line to say ``narration``."""
    square(table, origin).click()
    expect(table.locator(f'button.hk-selected[title^="{origin}:"]')).to_be_visible()
    square(table, target).click()
    expect(table.locator(".hk-message")).to_contain_text(narration)


AFTER = "(m, name) => m.pseudo === '::after' && m.title.startsWith(name + ':')"  # a square's picture, animated


def test_sombrero_a_hat_jump_glides_the_hat_to_the_friend_and_back_on_undo(
    open_table: OpenTable, puzzle: Served, page: Page
) -> None:
    table = open_board(open_table, *puzzle)
    b3, c2 = middle(square(table, "b3")), middle(square(table, "c2"))
    watch_motion(page)
    play(table, "b3", "c2", "White passed the hat of b3 to c2 (b3>c2)")
    hat = motion(page, AFTER, "c2")  # the engine put the hat on c2: it glides there from b3
    assert (near(start(hat), b3), near(end(hat), c2)) == (True, True)
    expect(square(table, "b3")).to_have_attribute("title", re.compile("^b3: White, hatless"))
    expect(table.locator(".hk-hat-moving")).to_have_count(0)  # once there, c2 shows its own picture again
    forget_motion(page)
    table.get_by_role("button", name="undo", exact=True).click()
    expect(square(table, "b3")).to_have_attribute("title", re.compile("^b3: White, hatted"))
    back = motion(page, AFTER, "b3")
    assert (near(start(back), c2), near(end(back), b3)) == (True, True)
    expect(table.locator(".hk-hat-moving")).to_have_count(0)


def test_sombrero_a_captured_hat_lifts_off_and_comes_back_on_undo(
    open_table: OpenTable, puzzle: Served, page: Page
) -> None:
    table = open_board(open_table, *puzzle)
    watch_motion(page)
    play(table, "b3", "c4", "d4 lost its hat: flanked by c4 and e4")
    lift = motion(page, AFTER, "d4")
    assert [frame["opacity"] for frame in lift["frames"]] == ["1", "0"]  # d4's hat goes up and fades
    assert near(start(lift), middle(square(table, "d4")))
    motion(page, AFTER, "c4")  # the piece itself steps b3-c4
    forget_motion(page)
    table.get_by_role("button", name="undo", exact=True).click()
    expect(square(table, "d4")).to_have_attribute("title", "d4: Black, hatted")
    land = motion(page, AFTER, "d4")
    assert [frame["opacity"] for frame in land["frames"]] == ["0", "1"]  # and comes down again
    step = motion(page, AFTER, "b3")
    assert near(start(step), middle(square(table, "c4")))
    expect(table.locator(".hk-hat-moving, .hk-arriving")).to_have_count(0)


def test_sombrero_no_hat_moves_for_a_reader_who_asks_for_reduced_motion(
    open_table: OpenTable, puzzle: Served, page: Page
) -> None:
    page.emulate_media(reduced_motion="reduce")
    table = open_board(open_table, *puzzle)
    watch_motion(page)
    play(table, "b3", "c4", "d4 lost its hat: flanked by c4 and e4")
    table.get_by_role("button", name="undo", exact=True).click()
    expect(square(table, "d4")).to_have_attribute("title", "d4: Black, hatted")
    assert page.evaluate("() => window.hkMotion") == []


def test_sombrero_stepping_back_and_forward_through_a_hat_jump_moves_the_hat_both_ways(
    open_table: OpenTable, puzzle: Served, page: Page
) -> None:
    table = open_board(open_table, *puzzle)
    b3, c2 = middle(square(table, "b3")), middle(square(table, "c2"))
    play(table, "b3", "c2", "White passed the hat of b3 to c2 (b3>c2)")
    expect(table.locator(".hk-hat-moving")).to_have_count(0)
    watch_motion(page)
    table.get_by_role("button", name="back", exact=True).click()
    back = motion(page, AFTER, "b3")
    assert (near(start(back), c2), near(end(back), b3)) == (True, True)
    forget_motion(page)
    table.get_by_role("button", name="forward", exact=True).click()
    again = motion(page, AFTER, "c2")
    assert (near(start(again), b3), near(end(again), c2)) == (True, True)
