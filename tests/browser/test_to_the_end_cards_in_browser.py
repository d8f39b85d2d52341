"""Every table of the Hats and Madder than a Hatter pages played to its end in Chromium, by clicks, as a student
who leaves the script plays (tests/browser/student.py): after the guided first game ("play on"), the page's
own table, and the finished game opened on a table, stepped back and played on as a line of one's own.
"""

from __future__ import annotations

from tests.browser.student import (  # noqa: F401 (the tests and fixture every game page's module runs)
    for_games,
    kernel,
    test_a_line_of_ones_own_from_the_finished_game_plays_to_the_end,
    test_after_the_guided_game_play_on_plays_to_the_end,
    test_the_pages_play_table_plays_to_the_end,
)

pytest_generate_tests = for_games("hats", "madder_than_a_hatter")
