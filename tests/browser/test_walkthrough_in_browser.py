"""A walkthrough in Chromium: the teacher's Sombrero page leads, a student's phone follows and answers "your move?".

The teacher (1280 px, light) opens the Sombrero page with the host's teacher link (``?teacher=<secret>``), starts a
walkthrough from the *Walkthrough…* fold and reads its code; the student (390 px, dark) opens the page with
``?walk=CODE``, types her name and follows. The teacher plays on the page's own table by clicks; the student's table
shows the same moves. The teacher asks "your move?"; the student presses a move on her table; the teacher's screen
counts it. She then tries a line of her own and comes back to the class with one press. The host runs in this
test's process (tests/browser/conftest.py's ``HostThread``), Voilà serves the pages as `make app`
does.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import WIDGET_TIMEOUT_MS, HostThread, snap
from tests.browser.student import PATIENCE, STUDENTS, Kernel, Seen, press_one

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page


MAIN = ".hk-table.hk-main"
PAGE = "sombrero"


def opened(browser: Browser, url: str, width: int) -> tuple[Page, Kernel]:
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.set_default_timeout(WIDGET_TIMEOUT_MS)
    kernel = Kernel(page)
    page.goto(url)
    expect(page.locator(f"{MAIN} .hk-walkthrough")).to_be_attached()
    return page, kernel


def press_until(page: Page, kernel: Kernel, done: Callable[[], bool], seed: str) -> None:
    """Press what a student would on the main table (a piece, then a square it may go to) until ``done()``."""
    table, seen, rng = page.locator(MAIN), Seen(STUDENTS[PAGE]), random.Random(seed)
    for _ in range(40):
        if done():
            return
        now = seen.look(table)
        kind = next((kind for kind in ("allowed", "picks") if now[kind]), None)
        if kind is None:
            page.wait_for_timeout(50)
            continue
        press_one(table, kernel, kind, int(now[kind]), rng, seen)
    pytest.fail(f"not done after 40 presses: {table.locator('.hk-status').inner_text()}")


def moves_listed(table: Locator) -> int:
    return table.locator(".hk-movelist > li").count()


def test_the_students_phone_follows_the_teachers_moves_and_answers_your_move(
    browser: Browser, own_app: str, own_host: HostThread
) -> None:
    url = f"{own_app}/voila/render/{PAGE}.ipynb"
    teacher, teacher_kernel = opened(browser, f"{url}?teacher={own_host.server.teacher_secret}", 1280)
    lead = teacher.locator(f"{MAIN} .hk-walkthrough")
    lead.locator("summary").first.click()
    lead.get_by_role("button", name="start a walkthrough", exact=True).click()
    expect(lead.locator(".hk-walk-code")).to_contain_text("Walkthrough ")
    code = re.search(r"Walkthrough ([A-Z]{5})", lead.locator(".hk-walk-code").inner_text())[1]  # type: ignore[index]

    student, student_kernel = opened(browser, f"{url}?walk={code}&theme=dark", 390)
    follow = student.locator(f"{MAIN} .hk-walkthrough")
    follow.get_by_label("your name").fill("Maya")
    follow.get_by_role("button", name="follow", exact=True).click()
    expect(follow.locator(".hk-walk-note")).to_contain_text(f"You follow walkthrough {code}")
    expect(lead.locator(".hk-walk-code")).to_contain_text("1 following: Maya")

    table, theirs = teacher.locator(MAIN), student.locator(MAIN)
    press_until(teacher, teacher_kernel, lambda: moves_listed(table) >= 1, "teacher")
    walk = own_host.read(lambda: own_host.server.host.classroom.walks[code])
    expect(theirs.locator(".hk-movelist > li")).to_have_count(own_host.read(lambda: walk.at), timeout=PATIENCE)

    lead.get_by_role("button", name="ask: your move?", exact=True).click()
    expect(follow.locator(".hk-walk-note")).to_contain_text("Your move?")
    snap(student, "walkthrough-question-phone-dark")
    answered = theirs.locator(".hk-message", has_text="is in")
    press_until(student, student_kernel, lambda: answered.count() > 0, "student")
    expect(lead.locator(".hk-walk-tally")).to_contain_text("1 of 1 answered")
    expect(lead.locator(".hk-walk-tally")).to_contain_text("The strong bot plays", timeout=PATIENCE)
    snap(teacher, "walkthrough-tally-teacher")

    follow.get_by_role("button", name="try it here", exact=True).click()
    expect(follow.get_by_role("button", name="back to the class", exact=True)).to_be_visible()
    before = moves_listed(theirs)
    press_until(student, student_kernel, lambda: moves_listed(theirs) > 0 and moves_listed(theirs) != before, "own")
    follow.get_by_role("button", name="back to the class", exact=True).click()
    expect(theirs.locator(".hk-movelist > li")).to_have_count(own_host.read(lambda: walk.at))
