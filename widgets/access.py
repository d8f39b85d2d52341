"""Keyboard and screen-reader help every table gets from the frame (``access.js``, an anywidget).

What ipywidgets cannot say from the kernel: each button named by its tooltip
("♥5 in your hand", "e4: White, hatted"), aria-pressed on the picked-up card
or piece, the message line a live region, the move slider named, a skip link
to the first table, and the Sombrero board as one tab stop moved with the
arrow keys. It draws nothing and sends nothing to the kernel.
"""

from __future__ import annotations

import pathlib

import anywidget


class TableAccess(anywidget.AnyWidget):
    """The table's keyboard and screen-reader helper; see the module docstring."""

    _esm = pathlib.Path(__file__).with_name("access.js")
