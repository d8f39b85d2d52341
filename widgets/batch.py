"""One message per answer: every widget change of a click, or of a bot's move, reaches the page at once.

ipywidgets sends each widget's changes as a message of its own. A Hats move
changes two dozen cards, lines and controls, so it reached the page as two
dozen messages, each carried by the server and handled by the browser in turn:
the table's last change came 50-100 ms after the click, where a trivial
button's echo takes 12 ms (``benchmarks/app.py``, issue 9).

While the kernel answers the reader's act on the page (a click, a key, a slider)
or runs a table's timed action (a bot's move, a card shown for a moment),
:func:`batched` holds those updates back; when the answer is complete they go
to the page as one message of a small anywidget, :class:`UpdateChannel`, whose
front end (``batch.js``) hands each update to its widget's model exactly as
ipywidgets' own update message would. The kernel-side widgets are unchanged:
their values are set at once, and code and tests read them as before.

Nothing is held back until the page has said that its channel listens: while
a page is still loading, in plain pytest, or where no front end runs, every
update goes out on its own as it always did. A page that loads later asks the
kernel for every widget's whole state anyway, so it misses nothing. (One gap:
JupyterLab reloaded onto a running kernel may lose a batch sent in the moment
between loading the states and its channel listening again; the widgets it
touched show their old values until they next change.)

A table is built whole the same way (:func:`opened_whole`): the widgets made
inside the block open their comms when it ends, each with the state it has
then, parts before the widgets that name them. Made one by one, they went out
as soon as made and were changed at once by the table's first showing: a
Sombrero page sent 259 updates after its 190 widgets, each a message for the
kernel to send and Voila to read before it could send the page.

Nothing is sent before a Voilà page connects (:func:`page_may_hear`). Voilà
runs the whole notebook before it sends the page, and the page then asks the
kernel for every widget's state in one message. Every widget's "comm open"
(its whole state) and every update sent before that reached nobody but Voilà,
which read each of them (four fifths of a game page's kernel messages: 142 of
176 on Hats, 187 of 224 on Sombrero) before it could send the page. So in a
kernel Voilà started for a page, a widget's comm is registered in the kernel
without a message, and its updates stay in the kernel, until the page opens
ipywidgets' control comm to load the states, or sends any message at all.
Output widgets are the exception: Voilà reads their messages to route what is
printed into them. In JupyterLab, nbval, pytest and the static site nothing of
this applies (the page listens from the start, or no page exists). Voilà's
progressive rendering, where the page listens for each widget while the
notebook runs, would never show the tables: config/voila.py refuses a game
page under it with a sentence.

How it hooks in: :func:`install` wraps five methods of ``ipywidgets.Widget``:
``_send`` (where every update leaves the kernel), ``_handle_msg`` (where
every message from the page arrives), and ``open``, ``send_state`` and
``close`` (where a widget's comm opens, its state goes out and its comm
closes). ipywidgets has no setting for this; outside a Voilà page that has not
connected yet, the wrappers change nothing outside a batch or an
``opened_whole`` block. This module installs them as it is imported.
"""

from __future__ import annotations

import os
import pathlib
import weakref
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import anywidget
import comm
import ipywidgets as widgets

Message = dict[str, Any]
Send = Callable[[widgets.Widget, Message, Any], None]

# What the page sends when the reader acts: a click ("custom") or a changed value ("update"). Anything else,
# above all a "request_state" from a page loading its widgets, is answered on the widget's own comm, where
# the page's loader waits for the answer: inside a batch it would go to the channel instead.
READER_ACTS = ("custom", "update")

_held: dict[widgets.Widget, dict[str, Any]] | None = None  # the updates of the answer under way, per widget
_channel: UpdateChannel | None = None
_unopened: list[widgets.Widget] | None = None  # the widgets made inside opened_whole(), not yet sent


def started_for_a_voila_page(environment: Mapping[str, str] = os.environ) -> bool:
    """Whether Voilà started this kernel to run a page (it sets VOILA_PREHEAT for each, pooled or not)."""
    return "VOILA_PREHEAT" in environment


_unheard = started_for_a_voila_page()  # no page has connected yet to this kernel, which Voilà runs for one


class UpdateChannel(anywidget.AnyWidget):
    """The page's end of the batches: one per kernel, drawn as nothing (see the module docstring)."""

    _esm = pathlib.Path(__file__).with_name("batch.js")

    def __init__(self) -> None:
        super().__init__()
        self.listening = False  # the page's front end said it applies batches
        self.on_msg(self._heard)

    def _heard(self, _: UpdateChannel, content: Any, buffers: list[bytes]) -> None:
        del buffers
        if isinstance(content, dict) and content.get("listening") is True:
            self.listening = True

    def deliver(self, updates: dict[widgets.Widget, dict[str, Any]]) -> None:
        """Send ``updates`` (each widget's changed state) to the page as one message."""
        pairs = [[widget.model_id, state] for widget, state in updates.items() if widget.comm is not None]
        if pairs:
            self.send({"updates": pairs})


def channel() -> UpdateChannel:
    """The kernel's update channel, made on first use."""
    global _channel
    if _channel is None:
        _channel = UpdateChannel()
    return _channel


@contextmanager
def batched() -> Iterator[None]:
    """Hold the widget updates made inside the block; send them as one message when it ends.

    Nested blocks join the outermost one. Where no page listens, updates go out
    one by one as usual.
    """
    global _held
    if _held is not None or _channel is None or not _channel.listening:
        yield
        return
    _held = {}
    try:
        yield
    finally:
        updates, _held = _held, None
        _channel.deliver(updates)


@contextmanager
def opened_whole() -> Iterator[None]:
    """Widgets made inside the block open their comms when it ends, each with the state it has then.

    See the module docstring. A widget closed inside the block is never
    opened; widgets made before it send their updates as usual. Nested blocks
    join the outermost one.
    """
    global _unopened
    if _unopened is not None:
        yield
        return
    _unopened = []
    try:
        yield
    finally:
        made, _unopened = _unopened, None
        opening: set[int] = set()
        for widget in made:
            _open_with_parts(widget, opening)


def _open_with_parts(widget: widgets.Widget, opening: set[int]) -> None:
    """Open ``widget``'s comm after those of the widgets its state names (its children, style, layout)."""
    if widget.comm is not None or id(widget) in opening or widget in _closed:
        return
    opening.add(id(widget))
    for name in widget.keys:
        for part in state_leaves(getattr(widget, name)):
            if isinstance(part, widgets.Widget):
                _open_with_parts(part, opening)
    _open_now(widget)


def state_leaves(value: Any) -> Iterator[Any]:
    """Every value a synced trait holds, through its lists, tuples and dicts: strings, numbers, widgets."""
    if isinstance(value, list | tuple):
        for item in value:
            yield from state_leaves(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from state_leaves(item)
    else:
        yield value


def _hold(widget: widgets.Widget, msg: Message, buffers: Any) -> bool:
    """Keep an update for the batch under way; False when it must go out now (not an update, or binary)."""
    if _held is None or widget is _channel or msg.get("method") != "update" or widget.comm is None:
        return False
    if buffers:  # binary parts cannot ride in the batch: what this widget had waiting goes first
        waiting = _held.pop(widget, None)
        if waiting is not None:
            _direct_send(widget, {"method": "update", "state": waiting, "buffer_paths": []}, None)
        return False
    _held.setdefault(widget, {}).update(msg["state"])
    return True


_direct_send: Send = widgets.Widget._send
_direct_handle: Callable[[widgets.Widget, Message], None] = widgets.Widget._handle_msg
_direct_open: Callable[[widgets.Widget], None] = widgets.Widget.open
_direct_send_state: Callable[..., None] = widgets.Widget.send_state
_direct_close: Callable[[widgets.Widget], None] = widgets.Widget.close
_closed: weakref.WeakSet[widgets.Widget] = weakref.WeakSet()  # closed before they were opened


def page_may_hear() -> bool:
    """Whether a page may hear this kernel's widget messages: False in a Voilà page's kernel until it connects.

    The page connects by opening ipywidgets' control comm (to load every state) or by sending any widget
    message (:func:`_handle_msg`); from then on every message goes out as ipywidgets sends it.
    """
    global _unheard
    if _unheard and widgets.Widget._control_comm is not None:
        _unheard = False
    return not _unheard


def _heard(widget: widgets.Widget) -> bool:
    """Whether what ``widget`` sends may reach a page now (an Output widget's always does: Voilà routes it)."""
    return page_may_hear() or isinstance(widget, widgets.Output)


def _open_unheard(self: widgets.Widget) -> None:
    """Give ``self`` a comm registered in the kernel, with no message: the page loads its state when it connects.

    Reading every synced trait first makes the parts ipywidgets makes on first reading (a default layout or
    style), as ipywidgets' own ``open`` does by reading the state; each opens itself as it is made. Left to
    the page's request for every state, they would be made while ipywidgets loops over the widgets, and the
    request fails ("dictionary changed size during iteration").
    """
    for name in self.keys:
        getattr(self, name)
    unheard = comm.create_comm(target_name="jupyter.widget", primary=False, comm_id=self._model_id)
    comm.get_comm_manager().register_comm(unheard)
    unheard._closed = False  # open: it sends, and closing it says so
    if hasattr(unheard, "kernel"):  # ipykernel's comm: ipywidgets sends only through one that has its kernel
        from ipykernel.kernelbase import Kernel  # here, not above: only a kernel's process comes this far

        unheard.kernel = Kernel.instance()
    self.comm = unheard


def _open_now(self: widgets.Widget) -> None:
    if _heard(self):
        _direct_open(self)
    else:
        _open_unheard(self)


def _open(self: widgets.Widget) -> None:
    if self.comm is not None:
        return
    if _unopened is None:
        _open_now(self)
    else:
        _unopened.append(self)


def _send_state(self: widgets.Widget, key: Any = None) -> None:
    if self.comm is not None:  # an unopened widget sends its whole state when it opens
        _direct_send_state(self, key)


def _close(self: widgets.Widget) -> None:
    if self.comm is None and _unopened is not None:
        _closed.add(self)
    _direct_close(self)


def _send(self: widgets.Widget, msg: Message, buffers: Any = None) -> None:
    if not _heard(self):
        return  # the page loads the whole state when it connects
    if not _hold(self, msg, buffers):
        _direct_send(self, msg, buffers)


def _handle_msg(self: widgets.Widget, msg: Message) -> None:
    global _unheard
    _unheard = False  # a page that speaks listens
    if msg.get("content", {}).get("data", {}).get("method") not in READER_ACTS:
        _direct_handle(self, msg)
        return
    with batched():
        _direct_handle(self, msg)


def install() -> None:
    """Route every widget's updates and every message from the page through the batches (once)."""
    widgets.Widget._send = _send
    widgets.Widget._handle_msg = _handle_msg
    widgets.Widget.open = _open
    widgets.Widget.send_state = _send_state
    widgets.Widget.close = _close


install()  # every widget, the first one included, goes through the wrappers
