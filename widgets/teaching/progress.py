"""A student's progress through a game's lessons, kept in their own browser.

The kernel forgets everything when the page closes; the browser's
``localStorage`` does not, and it needs no server or account (Voilà, the
static site and JupyterLab alike). This part's script (``progress.js``) reads
what the browser kept for this game as the page opens and sends it here
(:meth:`Progress.on_saved`); what the kernel sets in :attr:`saved` it writes
back. What it keeps: the keys of the lessons with a star, and the lesson and
step the student reached. Nothing secret is in it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import traitlets

from widgets.toolkit import ui

Heard = Callable[[dict[str, Any]], None]


class Progress(ui.Custom):
    """The lessons' stars and place for one game, as the browser keeps them (``hatskit.lessons.<game>``)."""

    script = "progress.js"
    game = traitlets.Unicode("").tag(sync=True)  # which game's progress: the browser keeps each game's apart
    saved = traitlets.Dict().tag(sync=True)  # {"stars": [lesson keys], "lesson": id, "step": n}; written when set

    def __init__(self, game: str) -> None:
        super().__init__(game=game)
        self._heard: list[Heard] = []
        self.on_msg(self._received_saved)

    def on_saved(self, handler: Heard) -> None:
        """Call ``handler`` with what the browser had kept, once the page has sent it."""
        self._heard.append(handler)

    def keep(self, stars: Sequence[str], lesson: str, step: int) -> None:
        """Have the browser keep these stars and this place (in the view's next message)."""
        self.saved = {"stars": sorted(set(stars)), "lesson": lesson, "step": step}

    def _received_saved(self, _part: ui.Custom, content: Any, _buffers: Sequence[bytes]) -> None:
        """The browser's kept progress; anything malformed counts as nothing kept."""
        kept = content.get("saved") if isinstance(content, dict) else None
        for handler in self._heard:
            handler(checked_progress(kept))


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
