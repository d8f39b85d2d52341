"""The teacher's view of the class (widgets/teaching/progress.py, class_report.py, classlist.py): a student's stars
and place reach the host under their name, and the teacher's list on the index follows them live.

As in ``test_widgets_classmates.py``, a real table host runs on loopback on the test's own asyncio loop (as the
kernel's loop runs it under Voilà); the student's page is a game's lessons table made as the notebooks make it, and
its browser's side (``progress.js``) is played by sending what a browser would have kept.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest.mock import patch

import pytest

import hatskit
from tablehost.server import TableServer
from tests.helpers import said
from tests.hosted import on_a_host, until
from tests.test_widgets_classmates import fold
from widgets import HatsTable, SombreroTable
from widgets.host import HOST_ENV
from widgets.table.frame import TableFrame
from widgets.teaching.class_report import NO_NAME_YET, SENT
from widgets.teaching.classlist import ClassList, where_text
from widgets.teaching.progress import Progress, name_given
from widgets.toolkit.parts import is_shown

LESSONS = Path(__file__).resolve().parents[1] / "notebooks" / "lessons"


def lessons_page(url: str, kept: dict[str, Any] | None = None, table_class: type[TableFrame] = HatsTable) -> Any:
    """A game page's lessons table, as the notebook makes it with the host in TABLETOP_URL; what its browser kept
    (``class``: the class name and token; ``saved``: the stars and place) sent as the page opens."""
    file = {HatsTable: "hats.json", SombreroTable: "sombrero.json"}[table_class]
    with patch.dict(os.environ, {HOST_ENV: url}):
        table = table_class.with_lessons(LESSONS / file)
    progress(table).receive({"msg": {"saved": (kept or {}).get("saved"), "class": (kept or {}).get("class")}})
    return table


def progress(table: TableFrame) -> Progress:
    return table.guide.progress  # type: ignore[attr-defined, no-any-return]


def student(server: TableServer, name: str) -> Any:
    """The host's row of ``name`` (None: not in the class)."""
    return server.host.classroom.students.get(name.casefold())


async def teachers_list(server: TableServer, secret: str | None = None) -> ClassList:
    """The index opened with the teacher's link: its class list, listed."""
    query = f"teacher={secret or server.teacher_secret}"
    view = ClassList.from_link(query=query, url=server.url)
    assert view is not None
    await until(lambda: view.client is not None or "cannot" in said(view.note))
    return view


async def closed(*things: Any) -> None:
    """Every client of the pages and lists closed before the host stops."""
    for thing in things:
        await (thing.close() if isinstance(thing, ClassList) else progress(thing).report.close())


@on_a_host
async def test_stars_and_place_reach_the_host_under_the_name_and_the_teachers_list_follows_live(
    server: TableServer,
) -> None:
    teacher = await teachers_list(server)
    assert "Nobody has joined your class yet" in said(teacher.note)
    maya = lessons_page(server.url)
    assert progress(maya).told == NO_NAME_YET, "the page says nothing goes anywhere without a name"
    await until(lambda: progress(maya).report.page_heard)
    assert student(server, "Maya") is None and not server.host.classroom.students, "nothing sent yet"
    progress(maya).named("Maya")
    await until(lambda: student(server, "Maya") is not None and student(server, "Maya").place is not None)
    assert progress(maya).told == SENT.format(name="Maya")
    assert "nobody else sees them" in progress(maya).told
    kept = progress(maya).class_kept
    assert kept["name"] == "Maya" and len(kept["token"]) > 30, "the browser keeps the class token"
    assert student(server, "Maya").place.lesson == "first-game"
    await until(lambda: 'data-hk-student="Maya"' in teacher.grid.value)
    maya.guide.stars.add("hats/first-game")
    maya.guide.begin(1)  # the next lesson, after the first one's star
    await until(lambda: student(server, "Maya").stars == {"hats/first-game"})
    await until(lambda: "lesson black-hat step 1" in teacher.grid.value)
    row = teacher.client.class_rows["Maya"]
    assert row["stars"] == ["hats/first-game"] and where_text(row) == "hats, lesson black-hat step 1"
    assert 'data-hk-lesson="hats/first-game" aria-label="star">★' in teacher.grid.value
    assert 'data-hk-lesson="hats/black-hat" aria-label="no star">' in teacher.grid.value
    assert "Your first game" in teacher.grid.value, "columns are the lessons, by their titles"
    await closed(teacher, maya)


@on_a_host
async def test_a_reload_comes_back_under_the_kept_name_and_the_stars_the_browser_kept_are_sent(
    server: TableServer,
) -> None:
    maya = lessons_page(server.url)
    progress(maya).named("Maya")
    await until(lambda: progress(maya).class_kept.get("token"))
    kept = {
        "class": progress(maya).class_kept,
        "saved": {"stars": ["hats/first-game"], "lesson": "", "step": 0},
    }
    again = lessons_page(server.url, kept)
    assert progress(again).told == SENT.format(name="Maya"), "the kept name, at once"
    await until(lambda: student(server, "Maya").stars == {"hats/first-game"})
    assert progress(again).class_kept == {}, "the same token: nothing new to keep"
    await closed(maya, again)


@on_a_host
async def test_the_name_typed_to_play_with_classmates_is_the_name_in_the_class_with_the_table(
    server: TableServer,
) -> None:
    lessons = lessons_page(server.url)
    with patch.dict(os.environ, {HOST_ENV: server.url}):
        play = HatsTable.from_link(hatskit.new_game("hats", seed=1), query="")
    fold(play).kept_seats.receive({"msg": {"kept": {}}})
    fold(play).name_box.value = "Ben"
    fold(play).open_button.click()
    await until(lambda: fold(play).seat is not None)
    code = fold(play).seat.code
    await until(lambda: student(server, "Ben") is not None and student(server, "Ben").place is not None)
    await until(lambda: student(server, "Ben").place.table == code)
    assert progress(lessons).told == SENT.format(name="Ben")
    await fold(play).seat.close()
    await closed(lessons)


@on_a_host
async def test_a_name_given_elsewhere_on_the_page_with_its_token_is_the_lessons_name_too(server: TableServer) -> None:
    first = lessons_page(server.url)
    progress(first).named("Maya")
    await until(lambda: progress(first).class_kept.get("token"))
    token = progress(first).class_kept["token"]
    other = lessons_page(server.url, {"saved": {"stars": ["hats/first-game"]}})
    name_given(server.url, "Maya", "KBQTZ", token)  # as a walkthrough's follower would, with its token
    await until(lambda: student(server, "Maya").stars == {"hats/first-game"})
    await until(lambda: student(server, "Maya").place.table == "KBQTZ")
    assert not progress(other).report.refused
    await closed(first, other)


@on_a_host
async def test_another_names_stars_are_refused_in_a_sentence_and_the_row_stays_its_own(server: TableServer) -> None:
    maya = lessons_page(server.url)
    progress(maya).named("Maya")
    await until(lambda: student(server, "Maya") is not None and student(server, "Maya").place is not None)
    forged = {"class": {"name": "maya", "token": "not-mayas-token"}, "saved": {"stars": ["hats/first-game"]}}
    other = lessons_page(server.url, forged)
    await until(lambda: progress(other).report.refused)
    assert "said no" in progress(other).told and "nothing is sent under the name maya" in progress(other).told
    assert student(server, "Maya").stars == set(), "Maya's row is hers alone"
    none_given = lessons_page(server.url, {"class": {"name": "Maya"}})
    await until(lambda: progress(none_given).report.refused)
    progress(none_given).named("Cleo")  # another name: the page starts afresh under it
    await until(lambda: student(server, "Cleo") is not None)
    assert progress(none_given).told == SENT.format(name="Cleo")
    await closed(maya, other, none_given)


@on_a_host
async def test_the_teacher_clears_the_class_after_a_second_press(server: TableServer) -> None:
    teacher = await teachers_list(server)
    pages = [lessons_page(server.url) for _ in range(2)]
    for page, name in zip(pages, ["Maya", "Ben"], strict=True):
        progress(page).named(name)
    await until(
        lambda: 'data-hk-student="Maya"' in teacher.grid.value and 'data-hk-student="Ben"' in teacher.grid.value
    )
    await until(lambda: all(progress(page).report.settled for page in pages))  # nothing more on its way
    assert is_shown(teacher.clear_button) and not is_shown(teacher.asking)
    teacher.clear_button.click()
    assert is_shown(teacher.asking), "a second step before the class is forgotten"
    teacher.no_button.click()
    assert not is_shown(teacher.asking) and len(server.host.classroom.students) == 2
    teacher.clear_button.click()
    teacher.yes_button.click()
    await until(lambda: not server.host.classroom.students and teacher.grid.value == "")
    await until(lambda: "cleared: 2 students forgotten" in said(teacher.note))
    await closed(teacher, *pages)


@on_a_host
async def test_a_forged_secret_is_refused_in_a_sentence_and_shows_nothing_of_the_class(server: TableServer) -> None:
    maya = lessons_page(server.url)
    progress(maya).named("Maya")
    await until(lambda: student(server, "Maya") is not None)
    forged = await teachers_list(server, secret="not-the-secret")
    assert said(forged.note).startswith("This page cannot show the class:")
    assert forged.grid.value == "" and not is_shown(forged.clear_button) and forged.client is None
    assert not is_shown(forged.lead), "no way on to the game pages as the teacher"
    teacher = await teachers_list(server)
    assert is_shown(teacher.lead) and f"sombrero.ipynb?teacher={server.teacher_secret}" in teacher.lead.value
    await closed(maya, teacher)


def test_without_the_teachers_link_or_a_host_the_index_says_nothing_about_a_class() -> None:
    assert ClassList.from_link(query="", url="ws://127.0.0.1:1/ws") is None
    with patch.dict(os.environ, {HOST_ENV: ""}):
        assert ClassList.from_link(query="teacher=abc") is None
        page = HatsTable.with_lessons(LESSONS / "hats.json")
    assert progress(page).report is None and progress(page).told == "", "no host: nothing leaves the browser"


def test_the_index_runs_a_kernel_only_for_the_teachers_link() -> None:
    """config/voila.py answers the index from its saved outputs, with no kernel; the teacher's link runs it, for the
    live list (a student's index, with no such link, stays a text page)."""
    import nbformat
    import tornado.web

    from tests.test_voila_config import run_settings_file

    hook = run_settings_file()["prelaunch_hook"]
    index = nbformat.read(LESSONS.parent / "index.ipynb", as_version=4)
    settings = SimpleNamespace(
        strip_sources=True, theme="light", allow_theme_override="NO", progressive_rendering=False
    )

    def handler(query: dict[str, str]) -> SimpleNamespace:
        return SimpleNamespace(
            xsrf_token=b"token",
            voila_configuration=settings,
            request=SimpleNamespace(path="/voila/render/index.ipynb"),
            get_argument=lambda name, default="": query.get(name, default),
        )

    shown = hook(handler({"teacher": "3q2-kJ5S"}), index, cwd=".")
    assert any("ClassList.from_link()" in cell.source for cell in shown.cells if cell.cell_type == "code")
    with pytest.raises(tornado.web.Finish):
        hook(handler({}), index, cwd=".")
