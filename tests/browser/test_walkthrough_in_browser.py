"""A walkthrough in Chromium: the teacher's Sombrero page on a projector leads, three students follow and answer.

The teacher (1920 x 1080, a projector, light) opens the Sombrero page with the host's teacher link
(``?teacher=<secret>``), starts a walkthrough from the *Walkthrough…* fold and reads its code. Three students open
the page with ``?walk=CODE``, each at their own screen (Maya 1280 px light, Noor 390 px dark, Ravi 390 px light), type
their names and follow; the teacher's fold lists all three. The teacher plays by clicks on the page's own table (the
strong bot answers for Black) and asks "your move?" at two positions: after White's first action, and at White's
next turn. At the first, Maya and Noor press legal moves (Maya then presses a piece again: her verdict stays on her
message line), and Ravi presses a piece and then a square two away: the
page sends it as his try, the host refuses it by rule S2 and his message line says so; the teacher's tally counts
"3 of 3 answered" and the illegal try by its rule. At the second all three answer legal moves. After each question
the teacher plays on, and every student's table follows: its move list as long as the host's walk position. Noor
then steps away (*try it here*), plays a line of her own while the teacher plays on, and comes back (*back to the
class*): her table shows the class's position again, move for move and square for square. Last the teacher's tab
is reloaded: the students are told she is away, her page offers to take the walkthrough up again, and once she has
her table shows the class's position and leads on. Nothing on the phones' tables is cut off, squeezed or scrolls
sideways (``PHONE_PROBLEMS``).

The host runs in this test's process (tests/browser/conftest.py's ``HostThread``), Voilà serves the pages as `make
app` does. With HATSKIT_SCREENSHOTS set it saves the teacher's projector screen at the first tally, each student at
the first question and Noor on her own line (docs/screenshots/gallery.md, "A walkthrough").
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from hatskit.drawing import rule_name
from tests.browser.conftest import (
    PHONE_PROBLEMS,
    WCAG_CONTRAST,
    WIDGET_TIMEOUT_MS,
    HostThread,
    serious_violations,
    snap,
    wait_until_evaluates,
)
from tests.browser.student import PATIENCE, STUDENTS, Kernel, Seen, press_one

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page


MAIN = ".hk-table.hk-main"
PAGE = "sombrero"
PROJECTOR = {"width": 1920, "height": 1080}
# Each square of a board as "e4=hk-piece-white-hatted" ("e4=" where it is empty), in the order of the squares' names:
# two tables showing the same position give the same list, whichever way up their boards are.
BOARD = """(table) => [...table.querySelectorAll("button.hk-sq")].map((square) =>
  `${square.title.split(":")[0]}=${[...square.classList].find((c) => c.startsWith("hk-piece-")) || ""}`).sort()"""


@dataclass
class Follower:
    """A student's page: her name, her tab, its kernel messages and the seed of her random presses."""

    name: str
    page: Page
    kernel: Kernel

    @property
    def table(self) -> Locator:
        return self.page.locator(MAIN)

    @property
    def fold(self) -> Locator:
        return self.page.locator(f"{MAIN} .hk-walkthrough")

    @property
    def answer(self) -> Locator:
        """The message line once the host judged her try (legal or not)."""
        return self.table.locator(".hk-message", has_text=re.compile(r"Your answer, [^,]+, is in"))


def opened(browser: Browser, url: str, width: int, height: int = 900) -> tuple[Page, Kernel]:
    """A tab of its own opening ``url``, its kernel messages watched; not waited for (the pages load side by side)."""
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.set_default_timeout(WIDGET_TIMEOUT_MS)
    kernel = Kernel(page)
    page.goto(url, wait_until="commit")
    return page, kernel


def drawn(page: Page) -> None:
    """The page has loaded (Voilà has run every cell) and its table shows the walkthrough's fold."""
    page.wait_for_load_state("load")
    expect(page.locator(f"{MAIN} .hk-walkthrough")).to_be_attached()


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


def moves(table: Locator) -> Locator:
    return table.locator(".hk-movelist > li")


def moves_listed(table: Locator) -> int:
    return moves(table).count()


def teacher_to_move(teacher: Page) -> int:
    """Wait until the bot has answered and it is the teacher's White to move; the moves played, by then settled."""
    expect(teacher.locator(f"{MAIN} .hk-status")).to_contain_text("White (you) to move", timeout=PATIENCE)
    return moves_listed(teacher.locator(MAIN))


def all_follow(students: list[Follower], teacher: Page, host: HostThread, code: str) -> None:
    """Every student's table shows the teacher's position: as many moves listed as the host's walk has played, the
    same moves, the same board."""
    table = teacher.locator(MAIN)
    at = teacher_to_move(teacher)
    played, board = moves(table).all_inner_texts(), table.evaluate(BOARD)
    for student in students:
        expect(student.fold.locator(".hk-walk-note")).not_to_contain_text("Your move?")  # no question open now
        expect(moves(student.table)).to_have_count(at, timeout=PATIENCE)
        expect(moves(student.table)).to_have_text(played)
        wait_until_evaluates(student.table, BOARD, board)
    assert host.read(lambda: host.server.host.classroom.walks[code].at) == at


def answer_legal(student: Follower) -> None:
    """Press a move the table marks as allowed, as a student would, until the host's judgement is on her table."""
    press_until(student.page, student.kernel, lambda: student.answer.count() > 0, student.name)
    expect(student.answer).not_to_have_class(re.compile(r"\bhk-error\b"))


def answer_two_squares_away(student: Follower) -> str:
    """Pick up a White hatted piece of the first rank and press the empty square two ranks up (no piece steps that
    far, S2): the page sends it as her try, and the host's refusal, with its rule, is on her message line. The try
    in the words she and the teacher's tally read it in."""
    square = student.table.locator("button.hk-sq")
    origin = next(f for f in "hgfe" if square.and_(student.page.locator(f'[title^="{f}1: White, hatted"]')).count())
    student.kernel.press(square.and_(student.page.locator(f'[title^="{origin}1:"]')), f"{origin}1")
    target = square.and_(student.page.locator(f'[title^="{origin}3: empty"]'))
    student.kernel.press(target, f"{origin}3")
    words = f"step from {origin}1 to {origin}3"
    expect(student.answer).to_contain_text(f"Your answer, {words}, is in, but it is not allowed here")
    expect(student.answer.locator("details.hk-why")).to_contain_text(rule_name("S2"))
    return words


def ask(lead: Locator, students: list[Follower]) -> None:
    lead.get_by_role("button", name="ask: your move?", exact=True).click()
    for student in students:
        expect(student.fold.locator(".hk-walk-note")).to_contain_text("Your move? Press it on the table.")


# The tally's words whose WCAG contrast is under 4.5 against the colour of their bar (--hk-bar) or of the fold
# behind the rest of the row: each a "move: ratio against colour".
WORDS_ON_BARS = f"""(tally) => {{
  {WCAG_CONTRAST}
  const fold = getComputedStyle(tally.closest(".hk-fold-body")).backgroundColor;
  const rows = [...tally.querySelectorAll(".hk-walk-choices > li")];
  return rows.flatMap((row) => [row, ...row.querySelectorAll(".hk-walk-why")].flatMap((words) => {{
    const colour = getComputedStyle(words).color;
    return [getComputedStyle(row).getPropertyValue("--hk-bar").trim(), fold]
      .map((behind) => [behind, contrast(colour, behind)]).filter(([, r]) => r < 4.5)
      .map(([behind, r]) => `${{row.querySelector("b").textContent}} ${{r.toFixed(2)}} against ${{behind}}`);
  }}));
}}"""


def projector(page: Page, name: str, top: Locator) -> None:
    """Save what a projector shows of the page (its 1920 x 1080 window, ``top`` scrolled to its top) where
    HATSKIT_SCREENSHOTS asks: the class reads the screen, not the whole table."""
    directory = os.environ.get("HATSKIT_SCREENSHOTS")
    if directory:
        top.evaluate("(element) => element.scrollIntoView({ block: 'start' })")
        page.screenshot(path=str(Path(directory) / f"{name}.png"), animations="disabled")


def test_three_students_follow_the_teachers_projector_answer_two_questions_and_the_teacher_leads_on_after_a_reload(
    browser: Browser, own_app: str, own_host: HostThread
) -> None:
    url = f"{own_app}/voila/render/{PAGE}.ipynb"
    teacher, teacher_kernel = opened(browser, f"{url}?teacher={own_host.server.teacher_secret}", **PROJECTOR)
    drawn(teacher)
    lead = teacher.locator(f"{MAIN} .hk-walkthrough")
    lead.locator("summary").first.click()
    lead.get_by_role("button", name="start a walkthrough", exact=True).click()
    expect(lead.locator(".hk-walk-code")).to_contain_text("Walkthrough ")
    code = re.search(r"Walkthrough ([A-Z]{5})", lead.locator(".hk-walk-code").inner_text())[1]  # type: ignore[index]

    screens = {"Maya": (1280, ""), "Noor": (390, "&theme=dark"), "Ravi": (390, "")}  # width, theme
    students = [Follower(name, *opened(browser, f"{url}?walk={code}{dark}", w)) for name, (w, dark) in screens.items()]
    for student in students:
        drawn(student.page)
        name_box = student.fold.get_by_label("your name")
        name_box.fill(student.name)
        name_box.press("Tab")  # the name goes to the kernel as the box is left: the press below sends one message
        follow = student.fold.get_by_role("button", name="follow", exact=True)
        if not student.kernel.press(follow, f"{student.name}'s follow"):
            pytest.fail(f"{student.name}'s press on follow sent her kernel nothing")
    for student in students:
        expect(student.fold.locator(".hk-walk-note")).to_contain_text(f"You follow walkthrough {code}")
    expect(lead.locator(".hk-walk-code")).to_contain_text("3 following: Maya, Noor, Ravi")
    maya, noor, ravi = students
    table, tally = teacher.locator(MAIN), lead.locator(".hk-walk-tally")

    press_until(teacher, teacher_kernel, lambda: moves_listed(table) >= 1, "teacher")  # White's first action
    all_follow(students, teacher, own_host, code)
    ask(lead, students)
    for phone in (noor, ravi):  # nothing cut off, squeezed or scrolling sideways at 390 px
        wait_until_evaluates(phone.table, PHONE_PROBLEMS, [])
    snap(maya.page, "walkthrough-student-1280-light")
    snap(noor.page, "walkthrough-student-390-dark")
    snap(ravi.page, "walkthrough-student-390-light")
    answer_legal(maya)
    piece = maya.table.locator(STUDENTS[PAGE].picks).first  # pressed again once her answer is in
    if maya.kernel.press(piece, "Maya's piece after her answer") != 1:
        pytest.fail("a press once her answer was in sent her kernel nothing: the page cannot say why")
    expect(maya.answer).to_be_visible()  # her verdict stays on the line, not a red "wait"
    expect(maya.answer).not_to_have_class(re.compile(r"\bhk-error\b"))
    answer_legal(noor)
    illegal = answer_two_squares_away(ravi)
    expect(tally).to_contain_text("Question 1")
    expect(tally).to_contain_text("3 of 3 answered")
    expect(tally).to_contain_text("Illegal tries: 1 (Actions: 1).")  # the rule by name; "rule S2" is its tooltip
    expect(tally).to_contain_text(f"{illegal}: 1 ✘ not allowed: ")  # in words on the projector, as the class reads
    expect(tally).not_to_contain_text("(S2)")
    expect(tally).to_contain_text("The strong bot's move: step from", timeout=PATIENCE)
    projector(teacher, "walkthrough-teacher-projector-1920", lead)
    assert serious_violations(teacher) == []
    wait_until_evaluates(tally, WORDS_ON_BARS, [])  # what axe-core cannot read: words over a bar's gradient

    played = moves_listed(table)  # the teacher plays on: White's second action, then the bot's turn
    press_until(teacher, teacher_kernel, lambda: moves_listed(table) > played, "teacher")
    expect(tally).to_contain_text("(closed)")
    all_follow(students, teacher, own_host, code)

    ask(lead, students)  # the second question, at White's next turn
    for student in students:
        answer_legal(student)
    expect(tally).to_contain_text("Question 2")
    expect(tally).to_contain_text("3 of 3 answered")
    expect(tally).to_contain_text("Illegal tries: 0.")

    noor.fold.get_by_role("button", name="try it here", exact=True).click()  # Noor steps away
    expect(noor.fold.get_by_role("button", name="back to the class", exact=True)).to_be_visible()
    expect(noor.fold.locator(".hk-walk-note")).to_contain_text(f"You are on your own line of walkthrough {code}")
    press_until(noor.page, noor.kernel, lambda: moves_listed(noor.table) >= 2, "Noor's own line")
    played = moves_listed(table)  # the teacher plays on without her
    press_until(teacher, teacher_kernel, lambda: moves_listed(table) > played, "teacher")
    expect(tally).to_contain_text("(closed)")
    all_follow([maya, ravi], teacher, own_host, code)
    expect(moves(noor.table)).to_have_count(2)  # still her own line
    wait_until_evaluates(noor.table, PHONE_PROBLEMS, [])
    snap(noor.page, "walkthrough-student-390-dark-own-line")
    noor.fold.get_by_role("button", name="back to the class", exact=True).click()
    expect(noor.fold.locator(".hk-walk-note")).to_contain_text(f"You follow walkthrough {code}")
    all_follow(students, teacher, own_host, code)

    teacher.reload()  # the teacher's tab reloaded mid-walkthrough: the class keeps its position, told she is away
    drawn(teacher)
    for student in students:
        expect(student.fold.locator(".hk-walk-note")).to_contain_text("is away for now", timeout=PATIENCE)
    lead.locator("summary").first.click()
    still_open = f"Walkthrough {code} of this game is still open (3 following)"
    expect(lead.locator(".hk-walk-note")).to_contain_text(still_open)
    lead.get_by_role("button", name="take it up again", exact=True).click()
    expect(lead.locator(".hk-walk-code")).to_contain_text("3 following: Maya, Noor, Ravi")
    all_follow(students, teacher, own_host, code)  # her table deals the same game and shows the class's position
    played = moves_listed(table)
    press_until(teacher, teacher_kernel, lambda: moves_listed(table) > played, "teacher")
    all_follow(students, teacher, own_host, code)
    for student in students:
        expect(student.fold.locator(".hk-walk-note")).not_to_contain_text("away")
