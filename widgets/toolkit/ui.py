"""The parts a hatskit view is built of, and the one anywidget that draws them all (``view.js``).

    >>> surface = Surface()
    >>> surface.children = [Button(description="hint", tooltip="ask the strong bot"), HTML(value="<b>Ana</b> to move")]

A game's table (or an exercise) is a tree of small parts in the kernel: boxes,
folds, buttons, lines of HTML, text and number boxes, rows of choice
pills (one chosen, or some), a slider, and the few parts with front-end code
of their own (the Hats Off! race pad, the clipboard).
They are plain traitlets objects, not widget models. The page gets the whole
tree once, as one synced value of the view's :class:`Channel`, and then
only the parts that changed, as one numbered patch a change (a long markup
that kept its start and end, as its changed middle: :func:`spliced`); the reader's
clicks and typing come back as messages naming a part. So a table is one
anywidget, :class:`Surface` (with its layout and its channel, beside the
kernel's one :class:`Module` that every view shares) however many cards it
shows, and a move is one message from the page and one back. The tree holds
what the parts hold and nothing more: a view puts in a part only what the
reader's seat may see.

Why a tree of parts and not a per-game module that draws from the game's state
(docs/tables.md has the longer answer): the views and their tests already
speak ipywidgets' vocabulary (``description``, ``tooltip``, ``value``,
``disabled``, ``on_click``, ``observe``), so the parts keep it; every game
gets the same keyboard, focus, live-region and naming rules from one module;
and a part's id stays the same from one move to the next, so the module can
tell a card that moved from a card that changed (what animation needs).

Each part notes when it last changed. When the kernel changes any part, every
surface sends the nodes of its changed parts at the next turn of the kernel's
event loop (:meth:`Surface.flush`); without a running loop (a test) a surface
sends when :meth:`Surface.flush` is called, and the parts' values can be read
directly.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import functools
import hashlib
import inspect
import itertools
import pathlib
import weakref
from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar

import anywidget
import ipywidgets
import traitlets

_ids = itertools.count(1)
_changes = itertools.count(1)  # a clock of changes: each part notes when it last changed (Part.changed)
_surfaces: weakref.WeakSet[Surface] = weakref.WeakSet()
_flush_planned = False  # every surface flushes at the event loop's next turn
SPLICED_FROM = 512  # characters: a shorter markup goes whole in a patch, as a splice would save the page little
HERE = pathlib.Path(__file__).parent


class Part(traitlets.HasTraits):
    """One thing on a view: its CSS classes, its tooltip and its inline style (``css``)."""

    kind: ClassVar[str] = "part"  # how view.js draws it
    _dom_classes = traitlets.Tuple()
    tooltip = traitlets.Unicode(None, allow_none=True)
    css = traitlets.Unicode("")  # an inline style: a width, a grid's columns

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        self.uid = next(_ids)
        self.changed = next(_changes)
        self.observe(_touched)

    def add_class(self, name: str) -> None:
        if name not in self._dom_classes:
            self._dom_classes = (*self._dom_classes, name)

    def node(self) -> dict[str, Any]:
        """What view.js needs to draw this part (a box's children by their ids)."""
        node = {"id": self.uid, "t": self.kind, "c": list(self._dom_classes)}
        if self.tooltip:
            node["tip"] = self.tooltip
        if self.css:
            node["css"] = self.css
        return node | self.props()

    def props(self) -> dict[str, Any]:
        """The kind's own fields of :meth:`node`."""
        return {}

    def parts(self) -> Iterator[Part]:
        """This part and every part inside it."""
        yield self

    def receive(self, content: dict[str, Any]) -> None:
        """A message from the page for this part (a click, a new value); malformed ones change nothing."""
        del content


class Box(Part):
    """Parts side by side (``HBox``), one above the other (``VBox``), or in a grid (``GridBox``)."""

    kind = "vbox"
    children = traitlets.Tuple()

    def __init__(self, children: Sequence[Part] = (), **settings: Any) -> None:
        super().__init__(children=tuple(children), **settings)

    def node(self) -> dict[str, Any]:
        return super().node() | {"kids": [child.uid for child in self.children]}

    def parts(self) -> Iterator[Part]:
        yield self
        for child in self.children:
            yield from child.parts()


class VBox(Box):
    kind = "vbox"


class HBox(Box):
    kind = "hbox"


class GridBox(Box):
    kind = "grid"


class Fold(Box):
    """Parts folded away under one line that says what they hold (``summary``): opened by the reader or the kernel.

    The page draws it as ``<details>``: its summary opens and closes it by click, Enter or Space and says
    whether it is open (``aria-expanded``), so a row of settings takes one button's room until it is wanted.
    The page tells the kernel when the reader opens or closes it (``{id, value}``), so a redraw leaves it as
    the reader left it; ``primary`` makes the summary stand out as the next thing to press.
    """

    kind = "fold"
    summary = traitlets.Unicode("")
    open = traitlets.Bool(False)
    primary = traitlets.Bool(False)

    def props(self) -> dict[str, Any]:
        return {"summary": self.summary, "open": self.open, "primary": self.primary}

    def receive(self, content: dict[str, Any]) -> None:
        if isinstance(content.get("value"), bool):
            self.open = content["value"]


class HTML(Part):
    """A line of HTML the kernel writes (escaped where it holds text from elsewhere)."""

    kind = "html"
    value = traitlets.Unicode("")

    def __init__(self, value: str = "", **settings: Any) -> None:
        super().__init__(value=value, **settings)

    def props(self) -> dict[str, Any]:
        return {"html": self.value}


class Button(Part):
    """A button: its words (``description``), what it does (``tooltip``), pressed by click, Enter or Space.

    A card or a square shows a picture instead of words: ``face``, the game's renderer's markup for it
    (hatskit/games/<game>/render.py), so the live table and the printed pictures are one drawing.
    """

    kind = "button"
    description = traitlets.Unicode("")
    face = traitlets.Unicode("")  # HTML from a renderer; shown instead of the description when set
    disabled = traitlets.Bool(False)
    button_style = traitlets.Unicode("")  # "primary": the button to press next stands out

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        self._clicks: list[Callable[[Button], None]] = []
        # What widgets.toolkit.parts.set_face last drew here, with this part's change clock just after: while
        # both match, nothing has changed the button since, and set_face has nothing to do.
        self.face_drawn: tuple[object, ...] = ()

    def on_click(self, action: Callable[[Button], None]) -> None:
        self._clicks.append(action)

    def click(self) -> None:
        """Press the button, as the reader does (a disabled button does nothing)."""
        if not self.disabled:
            for action in self._clicks:
                action(self)

    def props(self) -> dict[str, Any]:
        face = {"face": self.face} if self.face else {}
        return {"text": self.description, "off": self.disabled, "primary": self.button_style == "primary"} | face

    def receive(self, content: dict[str, Any]) -> None:
        if content.get("do") == "click":
            self.click()


class ToggleButton(Part):
    """A button that stays pressed (``value`` True) until pressed again."""

    kind = "toggle"
    description = traitlets.Unicode("")
    value = traitlets.Bool(False)
    disabled = traitlets.Bool(False)

    def props(self) -> dict[str, Any]:
        return {"text": self.description, "value": self.value, "off": self.disabled}

    def receive(self, content: dict[str, Any]) -> None:
        if content.get("do") == "click" and not self.disabled:
            self.value = not self.value


class Field(Part):
    """A control with a visible name (``description``) and a ``value`` the reader sets."""

    description = traitlets.Unicode("")
    disabled = traitlets.Bool(False)

    def props(self) -> dict[str, Any]:
        return {"label": self.description, "value": self.value, "off": self.disabled}  # type: ignore[attr-defined]

    def receive(self, content: dict[str, Any]) -> None:
        if "value" in content and not self.disabled:
            with contextlib.suppress(traitlets.TraitError, TypeError, ValueError):
                self.value = self.read(content["value"])

    def read(self, sent: Any) -> Any:
        """The value the page sent, as this field holds it (a TraitError or ValueError: ignored)."""
        return sent


class Text(Field):
    kind = "text"
    value = traitlets.Unicode("")
    placeholder = traitlets.Unicode("")

    def props(self) -> dict[str, Any]:
        return super().props() | {"placeholder": self.placeholder}

    def read(self, sent: Any) -> str:
        if not isinstance(sent, str):
            raise ValueError(sent)
        return sent[:10_000]


class IntText(Field):
    kind = "number"
    value = traitlets.Int(0)

    def read(self, sent: Any) -> int:
        return int(str(sent).strip())


class BoundedFloatText(Field):
    kind = "number"
    value = traitlets.Float(0.0)
    min = traitlets.Float(0.0)
    max = traitlets.Float(100.0)
    step = traitlets.Float(0.1)

    @traitlets.validate("value")
    def _within(self, proposal: dict[str, Any]) -> float:
        return min(max(float(proposal["value"]), self.min), self.max)

    def props(self) -> dict[str, Any]:
        return super().props() | {"min": self.min, "max": self.max, "step": self.step}

    def read(self, sent: Any) -> float:
        value = float(str(sent).strip())
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(sent)
        return value


class IntSlider(Field):
    """A slider over whole numbers; the page sends a value when the reader lets go (or presses an arrow key)."""

    kind = "slider"
    value = traitlets.Int(0)
    min = traitlets.Int(0)
    max = traitlets.Int(100)

    def __init__(self, value: int = 0, **settings: Any) -> None:
        super().__init__(value=value, **settings)

    def props(self) -> dict[str, Any]:
        return super().props() | {"min": self.min, "max": self.max}

    def read(self, sent: Any) -> int:
        if not isinstance(sent, int) or isinstance(sent, bool) or not self.min <= sent <= self.max:
            raise ValueError(sent)
        return sent


class Options(Field):
    """A field whose value is chosen among ``options``: labels, or (label, value) pairs."""

    options = traitlets.Tuple()

    @traitlets.validate("options")
    def _as_tuples(self, proposal: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(tuple(o) if isinstance(o, list | tuple) else o for o in proposal["value"])

    @property
    def pairs(self) -> list[tuple[str, Any]]:
        return [(str(o[0]), o[1]) if isinstance(o, tuple | list) else (str(o), o) for o in self.options]

    @property
    def values(self) -> list[Any]:
        return [value for _, value in self.pairs]

    def props(self) -> dict[str, Any]:
        """The fields every choice sends; a subclass adds its ``value`` as the page reads it."""
        return {"label": self.description, "off": self.disabled, "labels": [label for label, _ in self.pairs]}

    def index_sent(self, sent: Any) -> int:
        """The option the page names by its index (a ValueError for anything else)."""
        if not isinstance(sent, int) or isinstance(sent, bool) or not 0 <= sent < len(self.options):
            raise ValueError(sent)
        return sent


class Choices(Options):
    """One of a few choices (``value``: the chosen value), drawn as a row of pill buttons: one press shows and
    makes the choice.

    New options keep the value when it is still among them, else take the first. The page draws a radio group:
    one Tab stop, the arrow keys move the choice, the chosen pill is marked by a tick and its weight as well as
    its colour. ``notes`` (optional, one per option) is a longer word on each choice: the pill's description,
    and the line under the group for the chosen one, so a pill can stay short.
    """

    kind = "choices"
    value = traitlets.Any(None, allow_none=True)
    notes = traitlets.Tuple()

    @traitlets.observe("options")
    def _options_changed(self, change: dict[str, Any]) -> None:
        values = self.values
        if self.value not in values:
            self.value = values[0] if values else None

    @traitlets.validate("value")
    def _among_options(self, proposal: dict[str, Any]) -> Any:
        values = self.values
        if proposal["value"] not in values and (values or proposal["value"] is not None):
            raise traitlets.TraitError(f"{proposal['value']!r} is not one of the choices {values}")
        return proposal["value"]

    def props(self) -> dict[str, Any]:
        values = self.values
        notes = [str(note) for note in self.notes] if len(self.notes) == len(self.options) else []
        return super().props() | {"value": values.index(self.value) if self.value in values else -1, "notes": notes}

    def read(self, sent: Any) -> Any:
        return self.pairs[self.index_sent(sent)][1]


class Picks(Options):
    """Some of a few choices (``value``: the chosen values, in the order chosen), drawn as pills that stay pressed.

    A press chooses a pill or lets it go. ``limit`` is how many stay chosen (0: any number): a press past it
    lets go of the pill chosen first, as a hand that holds two cards puts one down to pick up another.
    The page draws a group of check-box pills, each its own Tab stop, marked by a tick as well as colour.
    """

    kind = "picks"
    value = traitlets.Tuple()
    limit = traitlets.Int(0)

    @traitlets.validate("value")
    def _among_options(self, proposal: dict[str, Any]) -> tuple[Any, ...]:
        values = self.values
        unknown = [value for value in proposal["value"] if value not in values]
        if unknown:
            raise traitlets.TraitError(f"{unknown!r} are not among the choices {values}")
        return tuple(proposal["value"])

    def props(self) -> dict[str, Any]:
        values = self.values
        return super().props() | {"value": [values.index(value) for value in self.value], "notes": []}

    def read(self, sent: Any) -> tuple[Any, ...]:
        pressed = self.pairs[self.index_sent(sent)][1]
        if pressed in self.value:
            return tuple(value for value in self.value if value != pressed)
        kept = self.value[max(0, len(self.value) - self.limit + 1) :] if self.limit else self.value
        return (*kept, pressed)


class Custom(Part):
    """A part with front-end code of its own, in a file beside this one (``script``).

    The file defines ``function render({ model, el, motion })`` as an anywidget
    module would: ``model.get`` reads this part's traits tagged ``sync=True``,
    ``model.on("change:<name>")`` hears them change, and ``model.send``
    reaches :meth:`on_msg`'s handlers here. ``motion`` is the table's own way
    to carry and glide a card (view.js, PART_MOTION), for a part whose cards
    move as the table's do (the race pad).
    """

    kind = "custom"
    script: ClassVar[str]  # its ES module's file name, beside the class's module: also the part's name in view.js
    css_text: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        front_end(cls, cls.script, cls.css_text)

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        self._handlers: list[Callable[[Custom, Any, Sequence[bytes]], None]] = []

    def on_msg(self, handler: Callable[[Custom, Any, Sequence[bytes]], None]) -> None:
        self._handlers.append(handler)

    def props(self) -> dict[str, Any]:
        return {"part": self.script, "props": {name: getattr(self, name) for name in self.trait_names(sync=True)}}

    def receive(self, content: dict[str, Any]) -> None:
        for handler in self._handlers:
            handler(self, content.get("msg"), [])


class Moves(Part):
    """The moves the reader may make now, as data: the page picks up, lights targets and drops on its own.

    Each offered move is a *path*, the parts a reader presses in turn to make it (a card, then where it goes;
    a square, then the square it steps to), with its notation, a class the path's last part wears while it is
    a target (``mark``: Sombrero's hat-jump flag) and the words it then adds to its name (``says``).
    ``board`` lists the parts whose presses are picks: a press on one that begins a path picks up (no
    message), one that completes a path sends ``{id, move}``, and any other sends ``{id, path}``, the presses
    that made no move, for the kernel to say why. A press on the part last picked puts it down. Nothing here
    is secret: a path names only parts the reader sees.
    """

    kind = "moves"
    offered = traitlets.List()  # [{"move": notation, "path": [part ids], "mark": a class or "", "says": words or ""}]
    board = traitlets.List()  # the ids of the parts whose presses are picks

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        self._moved: Callable[[str], None] | None = None
        self._refused: Callable[[list[int]], None] | None = None

    def on_move(self, handler: Callable[[str], None]) -> None:
        """``handler(notation)`` when the page completes a path."""
        self._moved = handler

    def on_refused(self, handler: Callable[[list[int]], None]) -> None:
        """``handler(part ids)`` when the page's presses made no move."""
        self._refused = handler

    def props(self) -> dict[str, Any]:
        """The rows without their empty ``mark`` and ``says`` (most moves have neither; view.js reads a missing one
        as empty): they are sent every move."""
        rows = [{key: value for key, value in row.items() if value != ""} for row in self.offered]
        return {"offered": rows, "board": self.board}

    def receive(self, content: dict[str, Any]) -> None:
        move, path = content.get("move"), content.get("path")
        if isinstance(move, str) and self._moved is not None:
            self._moved(move)
        elif _ids_list(path) and self._refused is not None:
            self._refused(path)


def _ids_list(value: Any) -> bool:
    """True for a short list of part ids, as the page sends a path (anything else is ignored)."""
    return isinstance(value, list) and 0 < len(value) <= 8 and all(type(item) is int for item in value)


class Module(ipywidgets.Widget):
    """The code and style every view on a page draws with, sent to the page once per kernel, not once per view.

    anywidget sends a widget's ``_esm`` and ``_css`` with every model's state, and imports the ``_esm`` for each
    model anew: a page of several views would carry the same module and style sheet once per view, and compile
    and run the module once per view, each copy with its own state (race.js's pad that takes the keys).
    So every view's ``_esm`` is the short LOADER, which finds this model through anywidget's
    ``model.widget_manager.get_model`` (its id is the view's ``module`` trait), imports each of ``modules``
    (view.js, the library of the tables, and each part's or game's own module, :func:`front_end`) as an ES
    module of its own and adds ``css``, once per page, keyed by a hash of all of it (benchmarks/README.md has
    what it saves). It is ipywidgets' plain ``WidgetModel``, as a link between two widgets is: a model with no
    view and no layout.
    """

    key = traitlets.Unicode().tag(sync=True)
    modules = traitlets.Dict().tag(sync=True)  # each ES module's text, by its file name
    css = traitlets.Unicode().tag(sync=True)


_modules: dict[str, Module] = {}  # the kernel's carriers, by the key of their code and style


def shared_module(modules: dict[str, str], css: str) -> Module:
    """The kernel's one :class:`Module` with ``modules`` and ``css``, made again if it was closed."""
    text = "\n".join([*modules, *modules.values(), css])
    key = "hatskit.view." + hashlib.sha1(text.encode()).hexdigest()[:12]  # a changed module is new
    module = _modules.get(key)
    if module is None or module.comm is None:
        module = _modules[key] = Module(key=key, modules=modules, css=css)
    return module


class Channel(ipywidgets.Widget):
    """A view's line to the kernel: its parts as ``tree``, the patches after it and the page's messages back.

    A :class:`Surface` talks through this plain ipywidgets model, not through its own anywidget model, because
    anywidget holds every message to a model until that model's ``_esm`` has loaded and gives up on it for good
    once that took two seconds (its ``Runtime``'s ``ready``): on a page so busy that the load took longer (a
    slow laptop opening a long lesson; a class of 32 pages on two cores did it), the table drew and then never
    heard the kernel again, so a student's press was played and never shown. A plain model takes each message
    as it comes. Like :class:`Module`, it has no view and no layout.
    """

    tree = traitlets.Dict().tag(sync=True)  # {"v": version, "root": id, "nodes": {id: node}}


class Surface(anywidget.AnyWidget):
    """The one widget view of a hatskit view: the parts in :attr:`children`, drawn by view.js; see the module
    docstring.

    The page gets the parts as its :class:`Channel`'s ``tree``, every part's node by its id, and then, once a
    view on the page has said hello, only the nodes that changed, as a numbered patch (one message). A view that
    misses a patch (or a view that opens later) says hello again and gets ``tree`` anew. The code that draws it
    comes with the kernel's one :class:`Module` (``module``): view.js and the page's other modules
    (:func:`front_end`), with a subclass's ``style``. Both travel in the model's first state, so nothing is
    ever sent to the anywidget model itself (:class:`Channel` says why).
    """

    _esm = ""  # LOADER, for a subclass drawn by view.js and the page's other modules
    style: ClassVar[str] = ""  # the style of the page's views, beside what the modules bring (front_end_css)
    module = traitlets.Instance(Module, allow_none=True).tag(sync=True, **ipywidgets.widget_serialization)
    channel = traitlets.Instance(Channel, allow_none=True).tag(sync=True, **ipywidgets.widget_serialization)

    def __init__(self, children: Sequence[Part] = (), **kwargs: Any) -> None:
        module = shared_module(front_end_modules(), self.style + "\n" + front_end_css()) if self._esm else None
        super().__init__(module=module, channel=Channel(), **kwargs)
        self.root = VBox(children)
        self._ids: dict[int, Part] = {}  # the parts the page has, by id
        self._sent: dict[int, dict[str, Any]] = {}  # their nodes as the page has them
        self._flushed_at = 0  # the change clock when the page was last sent what changed
        self._version = 0
        self._live = False  # a view has said hello: changes go as patches
        self.channel.on_msg(self._received)
        _surfaces.add(self)

    def close(self) -> None:
        """Close the view's model and its channel (none yet if the view failed as it was made)."""
        if self.channel is not None:
            self.channel.close()
        super().close()

    @property
    def children(self) -> tuple[Part, ...]:
        return self.root.children

    @children.setter
    def children(self, parts: Sequence[Part]) -> None:
        self.root.children = tuple(parts)

    def flush(self) -> None:
        """Send the page what changed since it was last sent anything (nothing when nothing did)."""
        parts = {part.uid: part for part in self.root.parts()}
        since, self._flushed_at = self._flushed_at, next(_changes)
        nodes = {uid: part.node() for uid, part in parts.items() if part.changed > since or uid not in self._sent}
        changed = {uid: node for uid, node in nodes.items() if self._sent.get(uid) != node}
        gone = [uid for uid in self._sent if uid not in parts]
        self._ids = parts
        if not changed and not gone:
            return
        had = {uid: self._sent[uid] for uid in changed if uid in self._sent}
        self._sent.update(changed)
        for uid in gone:
            del self._sent[uid]
        self._version += 1
        if self._live:
            patch = {str(uid): spliced(had.get(uid), node) for uid, node in changed.items()}
            self.channel.send({"v": self._version, "nodes": patch, "gone": gone})
        else:
            self.channel.tree = self.snapshot()

    def part_by_id(self, uid: int) -> Part | None:
        """The part of this view whose id is ``uid`` (None: no such part here)."""
        return next((part for part in self.root.parts() if part.uid == uid), None)

    def snapshot(self) -> dict[str, Any]:
        """Every node the page has, for a view that draws the whole table."""
        return {"v": self._version, "root": self.root.uid, "nodes": {str(uid): n for uid, n in self._sent.items()}}

    def _received(self, _: Any, content: Any, buffers: Sequence[bytes]) -> None:
        """A message from the page: a view's hello, or one for a part (a stale or unknown part id is ignored)."""
        del buffers
        if not isinstance(content, dict):
            return
        if content.get("hello") is True:
            self._live = True
            self.flush()
            self.channel.tree = self.snapshot()
            return
        part = self._ids.get(content.get("id"))  # type: ignore[arg-type]
        if part is not None:
            part.receive(content)
        self.flush()


def spliced(had: dict[str, Any] | None, node: dict[str, Any]) -> dict[str, Any]:
    """``node`` as a patch carries it: a long markup that kept its start and its end goes as what changed between
    them (``splice``: how much of the page's markup to keep before and after, and the new middle), which view.js
    fits into the markup it has. A move then sends a move list's new line and a score sheet's changed totals, not
    the whole list and sheet again: a move's answer stays the same size however long the game has gone on."""
    new, old = node.get("html"), (had or {}).get("html")
    if not isinstance(new, str) or not isinstance(old, str) or len(new) < SPLICED_FROM:
        return node
    shorter = min(len(old), len(new))
    head = _longest(shorter, lambda known, size: new.startswith(old[known:size], known))
    tail = _longest(  # the end kept may not overlap the start kept
        shorter - head, lambda known, size: new.endswith(old[len(old) - size : len(old) - known], 0, len(new) - known)
    )
    middle = new[head : len(new) - tail]
    whole = {key: value for key, value in node.items() if key != "html"}
    return whole | {"splice": [_utf16_length(new[:head]), _utf16_length(new[len(new) - tail :]), middle]}


def _longest(most: int, matches: Callable[[int, int], bool]) -> int:
    """The longest size up to ``most`` that ``matches`` (a start or an end two strings share), found by halving;
    ``matches(known, size)`` compares only the characters past the ``known`` ones, so each step is one comparison
    in C over what is not yet known to match."""
    low, high = 0, most
    while low < high:
        size = (low + high + 1) // 2
        low, high = (size, high) if matches(low, size) else (low, size - 1)
    return low


_UTF16 = codecs.getencoder("utf-16-le")  # looked up as the kernel imports this, not at a page's first move


def _utf16_length(text: str) -> int:
    """The length of ``text`` as JavaScript counts it (UTF-16 code units): a name may hold an emoji."""
    return len(_UTF16(text)[0]) // 2


def _touched(change: dict[str, Any]) -> None:
    """A part changed: it notes when, and every surface sends what changed at the loop's next turn."""
    global _flush_planned
    change["owner"].changed = next(_changes)
    if _flush_planned:
        return
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return  # no loop: a test reads the parts, or calls flush
    _flush_planned = True
    loop.call_soon(_flush_all)


def _flush_all() -> None:
    global _flush_planned
    _flush_planned = False
    for surface in list(_surfaces):
        surface.flush()


_front_end: dict[str, tuple[pathlib.Path, str]] = {"view.js": (HERE / "view.js", "")}


def front_end(owner: type, script: str, css: str = "") -> None:
    """Put the ES module ``script`` (a file beside the module that defines ``owner``) and its style on every view's
    page: a custom part's (its ``render``) or a game table's (its ``table`` hooks, view.js ``use``)."""
    _front_end[script] = (pathlib.Path(inspect.getfile(owner)).parent / script, css)


def front_end_modules() -> dict[str, str]:
    """The text of every ES module a page imports, by its file name, view.js first (read once a kernel, not
    once a view: a page makes seven)."""
    return _module_texts(tuple((name, path) for name, (path, _) in _front_end.items()))


@functools.cache
def _module_texts(files: tuple[tuple[str, pathlib.Path], ...]) -> dict[str, str]:
    return {name: path.read_text(encoding="utf-8") for name, path in files}


def front_end_css() -> str:
    """The style the page's modules bring with them, in the order they were put on the page."""
    return "\n".join(css for _, css in _front_end.values() if css)


# Every view's ``_esm``: it finds the view's Module and Channel (anywidget's model.widget_manager.get_model, by
# the ids in the view's ``module`` and ``channel`` traits), adds the Module's style sheet and imports its text
# once per page (the first view to draw starts it; the others wait for the same import), and lets that one
# module draw the view from the Channel: view.js's render gets the channel as its model, and the listeners it
# adds leave with the view.
LOADER = """function imported(text) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
  return import(url).finally(() => URL.revokeObjectURL(url));
}
async function load(module) {
  const style = document.createElement("style");
  style.dataset.hatskit = module.get("key");
  style.textContent = module.get("css");
  document.head.append(style);
  const names = Object.keys(module.get("modules"));
  const modules = await Promise.all(names.map((name) => imported(module.get("modules")[name])));
  const view = modules[names.indexOf("view.js")].default;
  names.forEach((name, at) => name !== "view.js" && view.use(name, modules[at]));
  return view;
}
function linked(model, name) {
  const id = model.get(name).slice("IPY_MODEL_".length); // a widget reference, as ipywidgets writes it
  return model.widget_manager.get_model(id);
}
export default {
  async render({ model, el }) {
    const [module, channel] = await Promise.all([linked(model, "module"), linked(model, "channel")]);
    const loaded = (globalThis[module.get("key")] ??= load(module));
    const owner = {};
    const line = {
      get: (name) => channel.get(name),
      on: (event, callback) => channel.on(event, callback, owner),
      send: (content) => channel.send(content),
    };
    const cleanup = (await loaded).render({ model: line, el });
    return () => {
      channel.off(null, null, owner);
      if (typeof cleanup === "function") cleanup();
    };
  },
};
"""
