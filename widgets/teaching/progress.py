"""A student's progress through a game's lessons, kept in their own browser, and told to the teacher's class list.

The kernel forgets everything when the page closes; the browser's
``localStorage`` does not, and it needs no server or account (Voilà, the
static site and JupyterLab alike). This part's script (``progress.js``) reads
what the browser kept for this game as the page opens and sends it here
(:meth:`Progress.on_saved`); what the kernel sets in :attr:`saved` it writes
back. What it keeps: the keys of the lessons with a star, and the lesson and
step the student reached. Nothing secret is in it.

With the class's host (``TABLETOP_URL``: ``make app``, JupyterHub) the same stars and place also go to the
teacher's class list (:class:`~widgets.teaching.class_report.ClassReport`), under the name the student gave in
*Play with classmates…* (:meth:`Progress.named`; on a hub, the hub user), and not before. The browser keeps that
name and its class token beside the stars (``hatskit.class``), as it keeps seat tokens; the part's line
(:attr:`told`) says what is sent and to whom. Without a host the line is empty and nothing leaves the browser.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

import traitlets

from widgets.host import host_url, hub_token, hub_user
from widgets.teaching.class_report import ClassReport
from widgets.toolkit import ui

Heard = Callable[[dict[str, Any]], None]


class Progress(ui.Custom):
    """The lessons' stars and place for one game, as the browser keeps them (``hatskit.lessons.<game>``)."""

    script = "progress.js"
    game = traitlets.Unicode("").tag(sync=True)  # which game's progress: the browser keeps each game's apart
    saved = traitlets.Dict().tag(sync=True)  # {"stars": [lesson keys], "lesson": id, "step": n}; written when set
    class_kept = traitlets.Dict().tag(sync=True)  # {"name", "token"}: the browser keeps it as "hatskit.class"
    told = traitlets.Unicode("").tag(sync=True)  # the line: what goes to the teacher's class list (empty: nothing)

    def __init__(self, game: str, url: str | None = None) -> None:
        super().__init__(game=game, css="font-size: 0.85em")  # the line, small: the lessons' box stays short
        self._heard: list[Heard] = []
        self.on_msg(self._received_saved)
        url = url or host_url()
        self.report = None if url is None else self._report(url, game)
        _pages.add(self)

    def _report(self, url: str, game: str) -> ClassReport:
        """The class report with this page's host (on a hub, its user and token)."""
        hub = {"hub_token": hub_token(), "hub_user": hub_user()}
        return ClassReport(url, game, tell=self._tell, keep=self._keep_class, **hub)

    def on_saved(self, handler: Heard) -> None:
        """Call ``handler`` with what the browser had kept, once the page has sent it."""
        self._heard.append(handler)

    def keep(self, stars: Sequence[str], lesson: str, step: int) -> None:
        """Have the browser keep these stars and this place (in the view's next message), and tell the class list."""
        self.saved = {"stars": sorted(set(stars)), "lesson": lesson, "step": step}
        if self.report is not None:
            self.report.progress(self.saved["stars"], lesson, step)

    def named(self, name: str, table: str | None = None, token: str | None = None) -> None:
        """The name the student gave (in *Play with classmates…*), the table they sit at and the name's class token
        if the page has it: the class list's row."""
        if self.report is not None:
            self.report.named(name, table, token)

    def _tell(self, text: str) -> None:
        self.told = text

    def _keep_class(self, kept: dict[str, str]) -> None:
        self.class_kept = dict(kept)

    def _received_saved(self, _part: ui.Custom, content: Any, _buffers: Sequence[bytes]) -> None:
        """The browser's kept progress (and class name); anything malformed counts as nothing kept."""
        kept = content.get("saved") if isinstance(content, dict) else None
        if self.report is not None:
            self.report.kept(checked_class(content.get("class") if isinstance(content, dict) else None))
        for handler in self._heard:
            handler(checked_progress(kept))


_pages: weakref.WeakSet[Progress] = weakref.WeakSet()  # the page's lessons parts (one kernel, one page)


def name_given(url: str, name: str, table: str | None = None, token: str | None = None) -> None:
    """The name a student gave on this page (*Play with classmates…*, seated at ``table``; a walkthrough's follower,
    with the class ``token`` the host gave it): every lessons part of the page with the same host reports under it
    from now on."""
    for progress in list(_pages):
        if progress.report is not None and progress.report.url == url:
            progress.named(name, table, token)


def checked_progress(kept: Any) -> dict[str, Any]:
    """Only the well-formed parts of what a browser says it kept: stars as text, a lesson name, a whole step."""
    if not isinstance(kept, dict):
        return {"stars": [], "lesson": "", "step": 0}
    stars = kept.get("stars")
    step = kept.get("step")
    return {
        "stars": [star for star in stars if isinstance(star, str)] if isinstance(stars, list) else [],
        "lesson": kept["lesson"] if isinstance(kept.get("lesson"), str) else "",
        "step": step if isinstance(step, int) and not isinstance(step, bool) and step >= 0 else 0,
    }


def checked_class(kept: Any) -> dict[str, str]:
    """The class name and token a browser says it kept, as text, or nothing."""
    if not isinstance(kept, dict):
        return {}
    return {key: kept[key].strip() for key in ("name", "token") if isinstance(kept.get(key), str) and kept[key].strip()}
