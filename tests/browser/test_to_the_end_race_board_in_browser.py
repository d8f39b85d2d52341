"""Every table of the Hats Off! and Sombrero pages played to its end in Chromium, by clicks, as a student
who leaves the script plays (tests/browser/student.py): after the guided first game ("play on"), the page's
own table, and the finished game opened on a table, stepped back and played on as a line of one's own, and
the last on a phone (390 px) for Sombrero.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.browser.student import (  # noqa: F401 (the tests and fixture every game page's module runs)
    for_games,
    kernel,
    test_a_line_of_ones_own_from_the_finished_game_plays_to_the_end,
    test_after_the_guided_game_play_on_plays_to_the_end,
    test_the_pages_play_table_plays_to_the_end,
)

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from tests.browser.student import Kernel

pytest_generate_tests = for_games("hats_off", "sombrero")


def test_on_a_phone_a_line_of_ones_own_plays_to_the_end(page: Page, kernel: Kernel, voila: str) -> None:  # noqa: F811
    page.set_viewport_size({"width": 390, "height": 844})
    test_a_line_of_ones_own_from_the_finished_game_plays_to_the_end(page, kernel, voila, "sombrero")
