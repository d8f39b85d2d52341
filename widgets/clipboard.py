"""A clipboard for the kernel: what it is given goes to the reader's clipboard and shows in a box.

ipywidgets cannot reach the clipboard; this anywidget (``clipboard.js``)
can. Nothing reaches the browser before :meth:`Clipboard.copy` is called, so
a position code (which holds hidden cards) is sent only when a teacher asks
for it.
"""

from __future__ import annotations

import pathlib

import anywidget
import traitlets

CLIPBOARD_CSS = """
.hk-copy { display: none; align-items: center; gap: 6px; }
.hk-copy.hk-copy-shown { display: flex; }
.hk-copybox { flex: 1 1 auto; min-width: 0; font-family: monospace; }
"""


class Clipboard(anywidget.AnyWidget):
    """Copies text (a query such as "?seed=42" becomes the page's full link) and shows it."""

    _esm = pathlib.Path(__file__).with_name("clipboard.js")
    _css = CLIPBOARD_CSS
    text = traitlets.Unicode("").tag(sync=True)
    copies = traitlets.Int(0).tag(sync=True)
    label = traitlets.Unicode("the text last copied").tag(sync=True)

    def copy(self, text: str) -> None:
        """Send ``text`` to the reader's clipboard (and the box beside the buttons)."""
        with self.hold_sync():  # one message: the box never copies the old text
            self.text = text
            self.copies += 1
