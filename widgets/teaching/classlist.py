"""*Your class*: the teacher's list of the class on the course's first page, live, and a way to clear it.

    >>> ClassList.from_link()     # notebooks/index.ipynb: a view with ?teacher=<secret>, else None (nothing shown)

The host (``TABLETOP_URL``) keeps every student's stars and place under their name (docs/host.md, "The class
together"); only the teacher may list them. Who is the teacher: on a local host (``make app``), whoever opens the
link the host printed at its start, ``index.ipynb?teacher=<secret>`` (Voilà hands the query to the kernel in
``QUERY_STRING``; no student's page leads there); on JupyterHub, a hub admin or a member of the group
``teachers``, whom the hub names (the page's ``teacher`` value counts for nothing there). Anybody else is refused
with the host's sentence and shown nothing.

The list is a table: a row a student, a column a lesson or puzzle (the course's lesson files, in their order,
and any other key a student has a star for), a star where they earned one, and where they are now (the page, the
lesson and step, the table). It follows the host's pushes (``class_row``, ``class``), so it changes as students
play. *Clear the class…* asks once more before the host forgets every name, star and place.
"""

from __future__ import annotations

import asyncio
import html
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlencode

from hatskit.lessons import LessonError, load_lessons
from widgets.host import host_url, hub_token
from widgets.toolkit.parts import View, html_line, named_button, row, show

if TYPE_CHECKING:
    from tablehost.client import TableClient

TEACHER = "teacher"  # the query's name for the secret
LESSON_FILES = ("hats.json", "hats_off.json", "sombrero.json", "madder.json")  # the course's order
LESSON_DIRS = (Path("lessons"), Path(__file__).resolve().parents[2] / "notebooks" / "lessons")
LOOKING = "Looking for your class at the class's host…"
EMPTY = "Nobody has joined your class yet: a student's row appears once they give their name on a game page."
UNREACHABLE = "The class's host did not answer ({why}). Is the app still running? Reload this page to try again."
REFUSED = "This page cannot show the class: {why}."
CONFIRM = "Forget every student's name, stars and place? Students who come back join the class again by name."
CLEARED = "The class is cleared: {count} forgotten."


class ClassList(View):
    """The teacher's live class list and its *clear the class* button; see the module docstring."""

    def __init__(self, url: str, secret: str | None, hub_token: str | None = None) -> None:
        self.url, self.secret, self.hub_token = url, secret, hub_token
        self.client: TableClient | None = None
        self.titles = lesson_titles()
        self.cleared = ""  # what the last clearing forgot, said while the class is empty
        self.heading = html_line("hk-class-heading", "<h2>Your class</h2>")
        self.note = html_line("hk-class-note", html.escape(LOOKING))
        self.grid = html_line("hk-class-grid")
        self.clear_button = named_button("clear the class…", "forget every student of this class", self.ask_clear)
        self.confirm = html_line("hk-class-confirm", html.escape(CONFIRM))
        self.yes_button = named_button("yes, clear the class", "forget every student now", self.press_clear)
        self.no_button = named_button("no, keep it", "keep the class as it is", self.keep_class)
        self.asking = row([self.confirm, self.yes_button, self.no_button])
        self.lead = html_line("hk-class-lead", lead_html(secret or ""))
        super().__init__([self.heading, self.note, self.grid, row([self.clear_button]), self.asking, self.lead])
        self.add_class("hk-classlist")
        self._tasks: set[asyncio.Task[None]] = set()
        self._shown(False)

    @classmethod
    def from_link(cls, query: str | None = None, url: str | None = None) -> ClassList | None:
        """The teacher's list when the page's link asks for it (``?teacher=...``) and the page has a host; else None,
        so a student's index shows nothing about a class."""
        query = os.environ.get("QUERY_STRING", "") if query is None else query
        url = url or host_url()
        secret = teacher_secret(query)
        if url is None or secret is None:
            return None
        view = cls(url, secret, hub_token())
        view.start()
        return view

    # -- talking to the host -------------------------------------------------------------

    def start(self) -> None:
        """Connect and ask for the class, on the kernel's loop; the host pushes every change from then on."""
        self._run(self._watch())

    async def _watch(self) -> None:
        from tablehost.client import TableClient, TableRefused

        client = TableClient(self.url, hub_token=self.hub_token, teacher=self.secret, on_frame=self._frame)
        await client.connect()
        try:
            await client.class_list()
        except TableRefused:
            await client.close()  # not the teacher: nothing to follow
            raise
        self.client = client
        self._draw()

    def _frame(self, frame: dict[str, Any]) -> None:
        """A frame from the host: the class list (whole, or a row) is drawn again."""
        if frame.get("type") in ("class", "class_row"):
            self._draw()

    def _draw(self) -> None:
        rows = list(self.client.class_rows.values()) if self.client is not None else []
        self.grid.value = class_table_html(columns_of(self.titles, rows), self.titles, rows)
        if rows:
            self.cleared = ""  # the class fills again: the sentence about clearing it is old news
        self.note.value = "" if rows else html.escape(self.cleared or EMPTY)
        self._shown(True)
        self.flush()

    def ask_clear(self) -> None:
        """The first press: ask once more."""
        show(self.asking, True)
        self.flush()

    def keep_class(self) -> None:
        show(self.asking, False)
        self.flush()

    def press_clear(self) -> None:
        """The second press: the host forgets the class, and pushes the empty list."""
        show(self.asking, False)
        self._run(self._clear())

    async def _clear(self) -> None:
        assert self.client is not None, "the button shows once the class is listed"
        names = (await self.client.class_clear())["names"]
        count = f"{len(names)} student{'' if len(names) == 1 else 's'}"
        self.cleared = CLEARED.format(count=count)
        self._draw()

    def _run(self, work: Any) -> None:
        """Start ``work`` on the kernel's loop; a refusal or a lost host becomes the note's sentence."""
        task = asyncio.ensure_future(self._answered(work))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answered(self, work: Any) -> None:
        from tornado.httpclient import HTTPClientError

        from tablehost.client import TableRefused

        try:
            await work
        except TableRefused as refusal:
            self._refused(str(refusal))
        except (OSError, TimeoutError, ConnectionError, HTTPClientError) as error:
            self.note.value = f'<span class="hk-error">{html.escape(UNREACHABLE.format(why=error))}</span>'
            self.flush()

    def _refused(self, why: str) -> None:
        """The host said no (not the teacher): the sentence, and nothing of the class."""
        self.note.value = f'<span class="hk-error">{html.escape(REFUSED.format(why=why.rstrip(".")))}</span>'
        self.grid.value = ""
        self._shown(False)
        self.flush()

    def _shown(self, listed: bool) -> None:
        """The class's controls and the teacher's links, once the host has said this is the teacher."""
        show(self.clear_button, listed)
        show(self.lead, listed)
        show(self.asking, False)

    async def close(self) -> None:
        """Leave the host (a test's end; a page's kernel just stops)."""
        if self.client is not None:
            await self.client.close()


WALK_PAGES = (("Hats", "hats"), ("Madder than a Hatter", "madder_than_a_hatter"), ("Sombrero", "sombrero"))


def lead_html(secret: str) -> str:
    """The game pages opened as the teacher (the link's secret passed on), where *Walkthrough…* leads the class."""
    links = " · ".join(
        f'<a href="{page}.ipynb?{urlencode({TEACHER: secret})}">{html.escape(title)}</a>' for title, page in WALK_PAGES
    )
    return f"<p>Lead the class through a game: open {links} from here, then press “Walkthrough…” there.</p>"


def teacher_secret(query: str) -> str | None:
    """The ``teacher`` value of the page's link (its secret), or None when the link has none."""
    given = [value for name, value in parse_qsl(query.lstrip("?"), keep_blank_values=True) if name == TEACHER]
    return given[0].strip() if given and given[0].strip() else None


def lesson_titles() -> dict[str, str]:
    """Every lesson's and puzzle's key and title, in the course's order (the lesson files beside the notebooks)."""
    folder = next((folder for folder in LESSON_DIRS if folder.is_dir()), None)
    titles: dict[str, str] = {}
    for name in LESSON_FILES if folder is not None else ():
        try:
            titles |= {lesson.key: lesson.title for lesson in load_lessons(folder / name)}
        except (LessonError, OSError):
            continue  # a missing or broken file: its stars still show, under their keys
    return titles


def columns_of(titles: dict[str, str], rows: list[dict[str, Any]]) -> list[str]:
    """The lessons in the course's order, then any other key a student has a star for (sorted)."""
    others = sorted({key for row_ in rows for key in row_.get("stars", []) if key not in titles})
    return [*titles, *others]


def class_table_html(columns: list[str], titles: dict[str, str], rows: list[dict[str, Any]]) -> str:
    """The class as a table: a row a student, a column a lesson (★ where earned), and where they are now."""
    if not rows:
        return ""
    head = "".join(
        f'<th scope="col" title="{html.escape(key)}">{html.escape(titles.get(key, key))}</th>' for key in columns
    )
    body = "".join(_student_row(columns, row_) for row_ in rows)
    return (
        '<table class="hk-class-table"><thead><tr><th scope="col">student</th>'
        f'{head}<th scope="col">where now</th></tr></thead><tbody>{body}</tbody></table>'
    )


def _student_row(columns: list[str], row_: dict[str, Any]) -> str:
    stars = set(row_.get("stars", []))
    cells = "".join(
        f'<td data-hk-lesson="{html.escape(key)}" aria-label="{"star" if key in stars else "no star"}">'
        f"{'★' if key in stars else ''}</td>"
        for key in columns
    )
    name = html.escape(str(row_.get("name", "")))
    return (
        f'<tr data-hk-student="{name}"><th scope="row">{name}</th>{cells}<td>{html.escape(where_text(row_))}</td></tr>'
    )


def where_text(row_: dict[str, Any]) -> str:
    """Where a student is, in words: ``hats, lesson black-hat step 3, table KBQTZ`` (nothing yet: a dash)."""
    where = row_.get("where") or {}
    if not where:
        return "–"
    parts = [str(where.get("page", ""))]
    if where.get("lesson"):
        step = where.get("step")
        parts.append(f"lesson {where['lesson']}" + ("" if step is None else f" step {step + 1}"))
    if where.get("table"):
        parts.append(f"table {where['table']}")
    return ", ".join(parts)
