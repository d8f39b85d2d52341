"""The teacher's view of the class, in Chromium: a student's star reaches the teacher's list on the index.

Maya's browser kept a star of the Hats lessons (localStorage, as if she had earned it earlier); on the Hats page
she types her name in *Play with classmates…* and opens a table. The lessons' line then says what is sent and to
whom, and her browser keeps her class name and token (``hatskit.class``). The teacher opens the index with the link
the host printed (``?teacher=<secret>``): *Your class* lists Maya with her star and the table she sits at. The
index opened with a forged secret says so in a sentence and lists nobody; opened as a student opens it, it says
nothing about a class.

The table host runs in this test's process on a loop of its own thread (as in test_classmates_in_browser.py), so
the test knows the teacher's secret the host drew; Voilà serves the pages as `make app` does.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from playwright.sync_api import expect

from tests.browser.conftest import WIDGET_TIMEOUT_MS, HostThread

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


KEPT_STAR = {"stars": ["hats/first-game"], "lesson": "black-hat", "step": 0}


def new_page(browser: Browser) -> Page:
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.set_default_timeout(WIDGET_TIMEOUT_MS)
    return page


def test_a_students_star_reaches_the_teachers_list_and_only_the_teachers_link_shows_it(
    browser: Browser, own_app: str, own_host: HostThread
) -> None:
    maya = new_page(browser)
    maya.add_init_script(f"localStorage.setItem('hatskit.lessons.hats', {json.dumps(json.dumps(KEPT_STAR))})")
    maya.goto(f"{own_app}/voila/render/hats.ipynb")
    lessons = maya.locator(".hk-lesson-table")
    expect(lessons.get_by_text("until you give your name in “Play with classmates…”")).to_be_visible()
    fold = maya.locator(".hk-table.hk-main .hk-classmates")
    fold.locator("summary").first.click()
    fold.get_by_label("your name").fill("Maya")
    fold.get_by_role("button", name="open a table", exact=True).click()
    expect(fold.locator(".hk-lobby")).to_contain_text("Table ")
    code = re.search(r"Table ([A-Z]{5})", fold.locator(".hk-lobby").inner_text())[1]  # type: ignore[index]
    expect(lessons.get_by_text("go to your teacher's class list under the name Maya")).to_be_visible()
    maya.wait_for_function("() => (JSON.parse(localStorage.getItem('hatskit.class') || '{}').name === 'Maya')")
    kept = json.loads(maya.evaluate("localStorage.getItem('hatskit.class')") or "{}")
    assert kept.get("name") == "Maya" and len(kept.get("token", "")) > 30, kept

    secret = own_host.server.teacher_secret
    teacher = new_page(browser)
    teacher.goto(f"{own_app}/voila/render/index.ipynb?teacher={secret}")
    listed = teacher.locator(".hk-classlist")
    expect(listed.get_by_role("heading", name="Your class")).to_be_visible()
    maya_row = listed.locator('tr[data-hk-student="Maya"]')
    expect(maya_row).to_contain_text(f"table {code}")
    expect(maya_row.locator('td[data-hk-lesson="hats/first-game"]')).to_have_text("★")
    expect(maya_row.locator('td[data-hk-lesson="hats/black-hat"]')).to_have_text("")

    forged = new_page(browser)
    forged.goto(f"{own_app}/voila/render/index.ipynb?teacher=not-the-secret")
    expect(forged.locator(".hk-classlist")).to_contain_text("This page cannot show the class")
    expect(forged.locator('tr[data-hk-student="Maya"]')).to_have_count(0)

    student = new_page(browser)
    student.goto(f"{own_app}/voila/render/index.ipynb")
    expect(student.locator("h1").first).to_be_visible()
    expect(student.get_by_text("Your class")).to_have_count(0)
    for page in (maya, teacher, forged, student):
        page.context.close()
