"""A clipboard for the kernel: what it is given goes to the reader's clipboard and shows in a box.

The kernel cannot reach the clipboard; this part's script (``clipboard.js``)
can. Nothing reaches the browser before :meth:`Clipboard.copy` is called, so
a position code (which holds hidden cards) is sent only when a teacher asks
for it.
"""

from __future__ import annotations

import traitlets

from widgets.toolkit import ui

CLIPBOARD_CSS = """
.hk-copy { display: none; align-items: center; gap: 6px; }
.hk-copy.hk-copy-shown { display: flex; }
.hk-copybox { flex: 1 1 auto; min-width: 0; font-family: monospace; }
"""


class Clipboard(ui.Custom):
    """Copies text (a query such as "?seed=42" becomes the page's full link) and shows it."""

    script = "clipboard.js"
    css_text = CLIPBOARD_CSS
    text = traitlets.Unicode("").tag(sync=True)
    copies = traitlets.Int(0).tag(sync=True)
    label = traitlets.Unicode("the text last copied").tag(sync=True)

    def copy(self, text: str) -> None:
        """Send ``text`` to the reader's clipboard (and the box beside the buttons), in the view's next message."""
        self.text = text
        self.copies += 1
