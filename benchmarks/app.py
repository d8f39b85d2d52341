"""The app's pages in Chromium against a trivial one-button notebook served the same way.

    PYTHONPATH=. .venv/bin/python benchmarks/app.py [--rounds 2] [--pages hats sombrero] [--pool 1]
        [--keep-cells 0,1,46,47 --pages hats]

Serves notebooks/ as `make app` does (config/ on JUPYTER_CONFIG_PATH, a free
loopback port) and, from a second server with the same config, a generated
notebook holding one button that echoes its clicks. The servers and their
kernels get this checkout first on PYTHONPATH, made absolute (`kernels_path`:
a kernel starts in notebooks/, where `.` would name the wrong directory).
Drives Debian's Chromium (Playwright), visiting the pages in turn, round after
round (`interleaved_visits`), then once more each reading the page's kernel
connection, and prints, each as a ratio against the trivial notebook measured
in the same run, with the targets of issue 42:

- *time to interactive* of each game page, issue 28's definition: from the
  request until every control the page will show is there (the main table
  drawn whole: set-up row, step controls, play area and share row; the count
  of the page's other controls still for 1.5 s) and a click on the main
  table's first move control has been answered (the trivial page: its button
  is there and a click is echoed); target 1.3x. Beside it, the *first
  control*: until the first move control of the page's first game table (the
  lessons' table left out, as the browser tests leave it) shows and a click on
  it is answered; target 1.15x, which issue 42 sets for the guided game's first
  control. All of it is seen by the page itself on the frame it happens in;
- a *move's latency*: from the click that completes a legal move until the
  table shows all of it (the trivial page: click to echo); target 1.2x. It is
  timed inside the page, from the browser's click event to the
  last change of the table before it stays still for 300 ms, so Playwright's
  own work around a click (finding the button, waiting for it to be still) is
  not counted;
- *widget models*: how many ipywidgets models the page's widget manager
  loads (those the kernel opens towards the page and those in its answer with
  every widget's state), and how many of them make up the main table (the
  model with the hk-main class and the models it refers to); target: a table
  is 12 models at most (57-132 before issue 28);
- *a move's widget messages*: the completing click's, between the page and its
  kernel (comm messages): the reader's own (the page's until the kernel's first
  answer; the kernel's until it reports itself idle after handling the click,
  the bots answering bot_delay later), target one each way; and all of them
  until no widget message has passed for 5 s (the bots' answers included);
- a *kernel's memory*: the resident memory of the page's kernel process after
  the move, minus the trivial page's kernel; target +40 MB.

Moves are made on Hats, Sombrero and Madder than a Hatter (PICKS); Hats
Off!, whose race pad answers in the browser, gets every figure but the move's,
its first click being its table's last button (hint: its bots answer at once). Console errors of any page are printed.

With --pool N it then restarts the game server with `make app POOL=N`
(Voilà's pre-heated kernels, config/voila.py) and prints the memory the pool
holds while nobody reads, and the time to interactive of a page served from it.

With --keep-cells (one page) the page is served from a copy of notebooks/ in
which its notebook keeps only the cells named (0-based, in order): what the
rest of the page costs is the difference from a run without it.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import nbformat
import psutil

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, GAME_TABLE, app_command, compile_bytecode  # noqa: E402  (`make app`'s command)
from tests.conftest import GAME_NOTEBOOKS, NOTEBOOK_DIR, NOTEBOOKS, free_port, stop  # noqa: E402

TIMEOUT_MS = 120_000
MB = 1024 * 1024
KERNEL_GONE_S = 10  # how long a closed tab's kernel may take to stop
# Per game, the first click of a move (a card of the reader's hand, a White piece): the page answers it by
# lighting the legal targets, and a click on the first lit target completes the move.
PICKS = {
    "hats": 'button[title$=" in your hand"]',
    "sombrero": 'button.hk-sq[title*=": White"]',
    "madder_than_a_hatter": 'button[title*=" in your hand"]',  # a Premium's title goes on after "in your hand"
}
# Where the timed move goes: a place on the table, not an action in words (Hats' black hat, whose card turns over
# for 320 ms, changing the table half-way: that is the motion, not the move's latency).
TARGET = "button.hk-legal:not(.hk-action)"
# What a page's first click is aimed at: [the first element matching this, or None for the whole page; the
# controls in it; whether the last one shown is meant rather than the first]. Another game's: its last button.
CONTROLS = {"trivial": [None, "button.bench-button", False]} | {
    name: [GAME_TABLE, pick, False] for name, pick in PICKS.items()
}
OTHER_CONTROL = [GAME_TABLE, "button:enabled", True]
TRIVIAL_CODE = """\
import ipywidgets as widgets

clicks = widgets.Label("no click yet")
button = widgets.Button(description="click me")
button.add_class("bench-button")
button.on_click(lambda _: setattr(clicks, "value", f"click {clicks.value.count('|') + 1} |"))
widgets.VBox([button, clicks])
"""
# The table changed since the given snapshot of its HTML (the answer to a click, whatever it shows).
CHANGED = "([element, before]) => element.innerHTML !== before"
# The opening of a page is watched by the page itself, on every frame (wait_for_function's "raf" polling).
# Playwright's own waits look again after 0, 20, 50, 100 and 100 ms, then every 500 ms: a control that showed
# 0.3 s into the wait was seen up to half a second late (a trace showed the page idle that long), so the time
# to interactive was rounded up by anything from nothing to 0.5 s, at random.
_VISIBLE = """const visible = element => {
  const box = element.getBoundingClientRect();
  return box.width > 0 && box.height > 0 && element.checkVisibility({ visibilityProperty: true });
};"""
# The control a reader clicks first, once it shows (see CONTROLS); null until then.
SHOWN = f"""([within, selector, last]) => {{
  {_VISIBLE}
  const scope = within === null ? document : document.querySelector(within);
  const shown = scope === null ? [] : [...scope.querySelectorAll(selector)].filter(visible);
  return (last ? shown.at(-1) : shown[0]) ?? null;
}}"""
# performance.now() once the click is answered: a picked-up card or piece shows, or else the area changed.
ANSWERED = f"""([area, before, picked]) => {{
  {_VISIBLE}
  const answered = picked ? [...area.querySelectorAll("button.hk-selected")].some(visible) : area.innerHTML !== before;
  return answered ? performance.now() : null;
}}"""
QUIET_MS = 300  # a move is all shown when its table then stays still this long (bots wait 800 ms before they act)
# Sets window.hkAnswer to a promise of [first, last]: milliseconds from the next click event until the first and
# the last change of `element` before it stays still for `quiet` ms ([null, null] when nothing changes). A card's
# inline style written as its slide sets off (view.js's `lift`: its z-index and pointer-events for the trip, in the
# frame that first paints the move) is the slide's, not the move's, and the slide itself changes nothing in the
# page: counted, it put the move's end one frame after the change that shows it.
WATCH = f"""([element, quiet]) => {{
  let clicked = null, first = null, last = null, timer = null;
  const sliding = (record) =>
    record.attributeName === "style" && record.target.getAnimations({{ subtree: true }}).length > 0;
  window.hkAnswer = new Promise(resolve => {{
    const done = () => {{ observer.disconnect(); resolve([first, last]); }};
    const observer = new MutationObserver((records) => {{
      if (clicked === null || records.every(sliding)) return;
      last = performance.now() - clicked;
      first ??= last;
      clearTimeout(timer);
      timer = setTimeout(done, quiet);
    }});
    observer.observe(element, {{ subtree: true, childList: true, attributes: true, characterData: true }});
    document.addEventListener("click", () => {{ clicked = performance.now(); timer = setTimeout(done, {TIMEOUT_MS}); }},
      {{ capture: true, once: true }});
  }});
}}"""

# Issue 28's time to interactive: every control the page will show is there. Installed before the page's own
# scripts (an init script), it looks on every frame and keeps, on the page's clock: when the main table was
# first drawn whole (its set-up row, step controls, play area and share row: `hkControls.whole`), and when the
# count of controls outside that table (the other tables, the exercises; the trivial page's button) last
# changed (`hkControls.changed`). A click on the main table changes that table's own controls, so they are
# not counted: the table arrives as one tree, drawn in one go.
CONTROLS_WATCH = """(() => {
  const MAIN = ".hk-table.hk-main";
  const PARTS = [".hk-setup", "button[title='the position before the first move']", ".hk-area", ".hk-share"];
  const CONTROLS = "button, input, select, textarea";
  const state = (window.hkControls = { whole: null, count: 0, changed: null, inMain: 0 });
  const look = () => {
    const main = document.querySelector(MAIN);
    const inMain = main === null ? 0 : main.querySelectorAll(CONTROLS).length;
    const count = document.querySelectorAll(CONTROLS).length - inMain;
    const now = performance.now();
    if (count !== state.count) Object.assign(state, { count, changed: now });
    if (state.whole === null && main !== null && PARTS.every(part => main.querySelector(part) !== null)) {
      Object.assign(state, { whole: now, inMain });
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})();"""
STILL_MS = 1500  # the controls outside the main table are all there once their count stays this long
# A move and the bots' answers are over once no widget message passed this long: the bots wait bot_delay (0.8 s)
# and then think (a strong Sombrero turn took over 1.2 s on a busy machine; 2 s here missed it).
WIRE_QUIET_S = 5.0
WIDGET_MESSAGES = ("comm_open", "comm_msg", "comm_close")


@dataclass
class Message:
    """One Jupyter message on the page's kernel connection: "sent" (page to kernel) or "received"."""

    way: str
    channel: str
    header: dict
    parent: dict
    content: dict

    @property
    def kind(self) -> str:
        return self.header.get("msg_type", "")

    @property
    def widget(self) -> bool:
        return self.kind in WIDGET_MESSAGES


def parse_frame(way: str, payload: str | bytes) -> Message | None:
    """A WebSocket frame of the kernel connection as a message: JSON, or jupyter_server's binary v1 protocol
    (a count of offsets, the offsets, then channel, header, parent header, metadata, content and buffers)."""
    try:
        if isinstance(payload, str):
            raw = json.loads(payload)
            parts = [raw.get("channel", ""), raw["header"], raw["parent_header"], raw["content"]]
            return Message(way, *parts)
        count = int.from_bytes(payload[:8], "little")
        offsets = [int.from_bytes(payload[8 + 8 * i : 16 + 8 * i], "little") for i in range(count)]
        pieces = [payload[start:end] for start, end in itertools.pairwise(offsets)]
        channel, header, parent, _, content = pieces[0].decode(), *(json.loads(piece) for piece in pieces[1:5])
        return Message(way, channel, header, parent, content)
    except (ValueError, KeyError, IndexError, UnicodeDecodeError):
        return None


class Wire:
    """Every frame on a page's kernel connections (Playwright's WebSocket events), parsed when read."""

    def __init__(self, page) -> None:
        self.frames: list[tuple[str, float, str | bytes]] = []
        page.on("websocket", self._opened)

    def _opened(self, socket) -> None:
        if "/api/kernels/" not in socket.url:
            return
        socket.on("framesent", lambda payload: self.frames.append(("sent", time.monotonic(), payload)))
        socket.on("framereceived", lambda payload: self.frames.append(("received", time.monotonic(), payload)))

    def messages(self, start: int = 0) -> list[Message]:
        parsed = (parse_frame(way, payload) for way, _, payload in self.frames[start:])
        return [message for message in parsed if message is not None]

    def quiet(self, page, seconds: float, limit: float = 30) -> None:
        """Wait until no widget message passed for ``seconds`` (at most ``limit`` s); Playwright reads the events."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            widget = [at for way, at, payload in self.frames if _is_widget(payload)]
            if not widget or time.monotonic() - widget[-1] >= seconds:
                return
            page.wait_for_timeout(100)


def _is_widget(payload: str | bytes) -> bool:
    text = payload if isinstance(payload, str) else payload[:400].decode(errors="replace")
    return any(f'"msg_type":"{kind}"' in text.replace(" ", "") for kind in WIDGET_MESSAGES)


@dataclass
class Models:
    """The widget models a page's widget manager loads, and how many of them make up its main table."""

    page: int
    table: int
    names: dict[str, int]


def widget_models(messages: list[Message]) -> Models:
    """The page's models: those the kernel opened towards the page, and those in its answer with every state
    (ipywidgets' `update_states`); the main table's: the model with the hk-main class and the models it refers to."""
    states: dict[str, dict] = {}
    for message in messages:
        if message.way != "received":
            continue
        data = message.content.get("data", {})
        if message.kind == "comm_open" and message.content.get("target_name") == "jupyter.widget":
            states[message.content["comm_id"]] = data.get("state", {})
        elif message.kind == "comm_msg" and data.get("method") == "update_states":
            states |= {model: entry.get("state", {}) for model, entry in data.get("states", {}).items()}
    names: dict[str, int] = {}
    for state in states.values():
        names[state.get("_model_name", "?")] = names.get(state.get("_model_name", "?"), 0) + 1
    main = [model for model, state in states.items() if "hk-main" in state.get("_dom_classes", ())]
    return Models(len(states), len(_referred(main[:1], states)) if main else 0, names)


def _referred(models: list[str], states: dict[str, dict]) -> set[str]:
    """These models and every model their states refer to ("IPY_MODEL_<id>"), recursively."""
    seen: set[str] = set()
    while models:
        model = models.pop()
        if model in seen or model not in states:
            continue
        seen.add(model)
        text = json.dumps(states[model])
        models.extend(part.split('"')[0] for part in text.split("IPY_MODEL_")[1:])
    return seen


@dataclass
class MoveMessages:
    """Widget messages of one move: the reader's own (the click until the kernel is done with it), and all of
    them until the wire is quiet (the bots' answers included)."""

    own_sent: int
    own_received: int
    all_sent: int
    all_received: int
    all_kernel: int  # every message either way until quiet (status, comm and the rest)


def move_messages(messages: list[Message]) -> MoveMessages:
    """Count ``messages`` (from just before the completing click on): see MoveMessages.

    The reader's own: the page's widget messages until the kernel's first widget message after the click, and
    the kernel's widget messages until it reports itself idle after handling the click's message (the bots
    answer bot_delay later, after that).
    """
    sent = [message for message in messages if message.way == "sent" and message.widget]
    if not sent:
        return MoveMessages(0, 0, 0, 0, len(messages))
    click = sent[0].header.get("msg_id")
    own_sent = own_received = 0
    answered = done = False
    for message in messages:
        if message.way == "sent" and message.widget and not answered:
            own_sent += 1
        elif message.way == "received" and not done:
            if message.widget:
                own_received += 1
                answered = True
            elif message.kind == "status" and message.content.get("execution_state") == "idle":
                done = message.parent.get("msg_id") == click
    received = [message for message in messages if message.way == "received" and message.widget]
    return MoveMessages(own_sent, own_received, len(sent), len(received), len(messages))


@dataclass
class Served:
    """A Voilà server started by this script: its URL and process."""

    url: str
    process: subprocess.Popen[bytes]

    def kernels(self) -> list[psutil.Process]:
        """The server's kernel processes (its children running ipykernel)."""
        children = psutil.Process(self.process.pid).children(recursive=True)
        return [child for child in children if "ipykernel" in " ".join(_cmdline(child))]

    def memory(self) -> int:
        """Resident bytes of the server and all its kernels."""
        processes = [psutil.Process(self.process.pid), *self.kernels()]
        return sum(_rss(process) for process in processes)


def _cmdline(process: psutil.Process) -> list[str]:
    with contextlib.suppress(psutil.Error):
        return process.cmdline()
    return []


def _rss(process: psutil.Process) -> int:
    with contextlib.suppress(psutil.Error):
        return process.memory_info().rss
    return 0


@contextlib.contextmanager
def serve(directory: Path, pool: int = 0, *options: str) -> Iterator[Served]:
    """Voilà serving ``directory`` as `make app POOL=pool` does, on a free loopback port, until the block ends."""
    compile_bytecode()
    port = free_port()
    argv = [part.format(port=port) for part in app_command(directory, *options)]
    env = {**os.environ, "HATSKIT_POOL": str(pool), "PYTHONPATH": kernels_path()}
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(argv, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
        served = Served(f"http://127.0.0.1:{port}", process)
        try:
            wait_until_answers(served, log)
            yield served
        finally:
            stop(process)


def kernels_path() -> str:
    """PYTHONPATH for the server and its kernels: this checkout first, then the caller's entries made absolute.

    Voilà starts a page's kernel in the notebook's directory, so the documented `PYTHONPATH=.` would name
    notebooks/ there, and a kernel would import hatskit and widgets from wherever the environment's editable
    install points (another checkout's code, in a git worktree) rather than from this checkout.
    """
    given = [entry for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep) if entry]
    entries = [str(REPO), *(str(Path(entry).resolve()) for entry in given)]
    return os.pathsep.join(dict.fromkeys(entries))


def wait_until_answers(served: Served, log: tempfile._TemporaryFileWrapper[bytes]) -> None:
    """Poll the server's tree page until it answers; raise with its log if it dies or stays silent."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if served.process.poll() is not None:
            log.seek(0)
            raise RuntimeError(f"Voilà exited:\n{log.read().decode(errors='replace')}")
        with contextlib.suppress(OSError), urllib.request.urlopen(served.url + "/", timeout=5):
            return
        time.sleep(0.25)
    raise RuntimeError("Voilà did not answer within 120 s")


def cell_numbers(text: str) -> list[int]:
    """Cell numbers from a list such as "0,1,46,47"; argparse turns a malformed one's ValueError into a usage error."""
    return [int(part) for part in text.split(",")]


def trimmed_copy(directory: Path, name: str, kept: list[int]) -> Path:
    """A copy of notebooks/ (its lessons and puzzles too) in which page ``name`` keeps only the cells ``kept``."""
    shutil.copytree(NOTEBOOK_DIR, directory)
    path = directory / f"{name}.ipynb"
    notebook = nbformat.read(path, as_version=4)
    missing = [index for index in kept if not 0 <= index < len(notebook.cells)]
    if missing:
        raise SystemExit(f"--keep-cells: {name}.ipynb has {len(notebook.cells)} cells, no cell {missing[0]}")
    notebook.cells = [notebook.cells[index] for index in kept]
    nbformat.write(notebook, path)
    return directory


def trivial_notebook(directory: Path) -> Path:
    """Write the one-button notebook into ``directory``."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(TRIVIAL_CODE)])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = directory / "trivial.ipynb"
    nbformat.write(notebook, path)
    return path


def page_url(served: Served, name: str) -> str:
    return f"{served.url}/voila/render/{name}.ipynb"


def first_control(page, name: str):
    """The control a reader clicks first, once it shows (CONTROLS): a button, a move control, or a table's last button.

    (A table's first button is "new game", which may redraw the same deal: no visible answer to wait for.)
    """
    shown = page.wait_for_function(SHOWN, arg=control_of(name), polling="raf", timeout=TIMEOUT_MS)
    return shown.as_element()


def control_of(name: str) -> list[str | bool | None]:
    """SHOWN's argument for a page: where its first control is, and which one (see CONTROLS)."""
    return CONTROLS.get(name, OTHER_CONTROL)


def answered_area(page, name: str):
    """What a click changes: the trivial page's echo, or the first table."""
    return page.locator(".widget-label").first if name == "trivial" else page.locator(GAME_TABLE).first


def open_interactive(page, url: str, name: str) -> tuple[float, float]:
    """Seconds from the request until the first control shows and a click on it is answered (issue 9's time to
    interactive), and until every control is there and that click is answered (issue 28's).

    Both are seen by the page on the frame they happen in (SHOWN, ANSWERED, CONTROLS_WATCH); the ends are read
    on the page's clock, which starts as the browser starts the request (``performance.timeOrigin``, on the same
    wall clock). Every control is there at the later of the main table drawn whole and the last change in the
    count of the other controls, once that count has stayed still for STILL_MS (the page's context must have
    CONTROLS_WATCH as an init script).
    """
    start = time.time()
    page.goto(url, timeout=TIMEOUT_MS)
    control = first_control(page, name)
    area = answered_area(page, name)
    before = area.inner_html()
    control.click()
    answer = [area.element_handle(), before, name in PICKS]
    answered = page.wait_for_function(ANSWERED, arg=answer, polling="raf", timeout=TIMEOUT_MS).json_value()
    whole_needed = name != "trivial"
    still = f"""() => {{
      const state = window.hkControls;
      if (state === undefined || ({str(whole_needed).lower()} && state.whole === null)) return null;
      const there = Math.max(state.whole ?? 0, state.changed ?? 0);
      return performance.now() - (state.changed ?? 0) >= {STILL_MS} ? there : null;
    }}"""
    there = page.wait_for_function(still, polling="raf", timeout=TIMEOUT_MS).json_value()
    origin = page.evaluate("performance.timeOrigin")
    return (origin + answered) / 1000 - start, (origin + max(answered, there)) / 1000 - start


def click_latency(page, name: str, wire: Wire | None = None) -> tuple[float | None, MoveMessages | None]:
    """Seconds from the click that completes a move (the trivial page: a button click) until the page shows it all;
    with ``wire``, the move's widget messages (move_messages), counted until the wire is quiet."""
    aimed = move_aim(page, name)
    if aimed is None:
        return None, None
    control, watched = aimed
    page.evaluate(WATCH, [watched.element_handle(), QUIET_MS])
    if wire is not None:
        wire.quiet(page, 0.5)  # the pick's answer is in
    mark = len(wire.frames) if wire is not None else 0
    control.click()
    first, last = page.evaluate("() => window.hkAnswer")
    if first is None:
        raise RuntimeError(f"{name}: the click changed nothing within {TIMEOUT_MS} ms")
    if wire is None:
        return last / 1000, None
    wire.quiet(page, WIRE_QUIET_S)
    return last / 1000, move_messages(wire.messages(mark))


def move_aim(page, name: str):
    """The control that completes a move and what its answer changes, the move's piece picked up (the page's first
    control picked one: CONTROLS); the trivial page's button and label; None on a page with no move to time."""
    if name == "trivial":
        return page.locator("button.bench-button"), page.locator(".widget-label").first
    if name not in PICKS:
        return None
    table = page.locator(GAME_TABLE).first
    pick_movable(table, name)
    return table.locator(TARGET).first, table


def pick_movable(table, name: str) -> None:
    """Pick up the first card or piece that has a legal target (the one picked first may have none)."""
    candidates = table.locator(PICKS[name]).filter(visible=True)
    for index in range(candidates.count()):
        if index:
            candidates.nth(index).click()
        table.locator("button.hk-selected").first.wait_for(state="visible", timeout=TIMEOUT_MS)
        with contextlib.suppress(Exception):
            table.locator(TARGET).first.wait_for(state="visible", timeout=3000)
            return
    raise RuntimeError(f"no {PICKS[name]} of the first table has a legal target")


@dataclass
class Visit:
    """One page opened in a fresh browser context: its figures."""

    interactive: float  # issue 9's: the first control shown and answered
    latency: float | None
    kernel_bytes: int
    every_control: float = 0.0  # issue 28's: every control there and the first click answered
    models: Models | None = None
    move: MoveMessages | None = None
    errors: tuple[str, ...] = ()


def visit(browser, served: Served, name: str, count: bool = True) -> Visit:
    """Open a page in a fresh context, make a move, and measure its new kernel's memory; close it.

    With ``count``, its kernel connection is read as well (widget models, the move's messages): Playwright
    then hands every frame to this process, which costs the page a little, so app.py counts on visits of
    their own (see interleaved_visits).
    """
    known = {kernel.pid for kernel in served.kernels()}
    context = browser.new_context(viewport={"width": 1280, "height": 1600})
    context.add_init_script(CONTROLS_WATCH)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    wire = Wire(page) if count else None
    try:
        interactive, every_control = open_interactive(page, page_url(served, name), name)
        models = widget_models(wire.messages()) if wire is not None else None
        latency, move = click_latency(page, name, wire)
        fresh = [kernel for kernel in served.kernels() if kernel.pid not in known]
        kernel_bytes = max((_rss(kernel) for kernel in fresh), default=0)
    except Exception as error:
        raise RuntimeError(f"{name}: {error}") from error
    finally:
        leave(page, served, known)
        context.close()
    return Visit(interactive, latency, kernel_bytes, every_control, models, move, tuple(errors))


def leave(page, served: Served, known: set[int]) -> None:
    """Close the tab as a reader does (its unload asks the server to stop its kernel); wait until the kernel is gone.

    Kernels left for the culler piled up over the rounds (one a visit) and slowed the later visits.
    """
    page.close(run_before_unload=True)
    deadline = time.monotonic() + KERNEL_GONE_S
    while any(kernel.pid not in known for kernel in served.kernels()):
        if time.monotonic() > deadline:
            print(f"a kernel was still running {KERNEL_GONE_S} s after its tab closed", file=sys.stderr)
            return
        time.sleep(0.1)


def interleaved_visits(browser, pages: dict[str, Served], rounds: int) -> dict[str, Visit]:
    """The median of each figure over ``rounds`` visits of each page, after one visit of each that is not counted.

    Each round visits every page once, in turn, so that a change in the machine's load falls on all pages
    alike (visited page by page, the first page's rounds met another machine than the last's). The visit
    not counted pays what only a server's first page pays (its first templates, its first imports).
    A page that fails is reported and left out of the later rounds: one broken page must not hide the others.
    """
    visits: dict[str, list[Visit]] = {name: [] for name in pages}
    for counted in [False] + [True] * rounds:
        for name in [name for name in pages if name in visits]:
            try:
                measured = visit(browser, pages[name], name, count=False)
            except RuntimeError as error:
                print(f"{name:>22}: NOT MEASURED, {str(error).splitlines()[0]}")
                del visits[name]
                continue
            if counted:
                visits[name].append(measured)
    medians = {name: median_of(measured) for name, measured in visits.items()}
    for name in medians:  # then one more visit of each, reading its kernel connection (not timed)
        try:
            read = visit(browser, pages[name], name, count=True)
        except RuntimeError as error:
            print(f"{name:>22}: MESSAGES NOT COUNTED, {str(error).splitlines()[0]}")
            continue
        medians[name].models, medians[name].move = read.models, read.move
        medians[name].errors += read.errors
    return medians


def median_of(visits: list[Visit]) -> Visit:
    """The median of each figure over some visits of one page (their console errors, each once)."""
    latencies = [v.latency for v in visits if v.latency is not None]
    return Visit(
        statistics.median(v.interactive for v in visits),
        statistics.median(latencies) if latencies else None,
        int(statistics.median(v.kernel_bytes for v in visits)),
        statistics.median(v.every_control for v in visits),
        errors=tuple(dict.fromkeys(error for v in visits for error in v.errors)),
    )


def report_pages(reference: Visit, measured: dict[str, Visit]) -> None:
    """Print each page's figures as ratios against the trivial notebook, with issue 28's targets."""
    print(
        f"trivial notebook: every control {reference.every_control:.2f} s, first control {reference.interactive:.2f} s,"
        f" echo {reference.latency:.3f} s, kernel {reference.kernel_bytes / MB:.0f} MB, {_models(reference)}"
    )
    if reference.move is not None:
        print(f"{'trivial':>22}: click {_messages(reference.move)}")
    for name, figures in measured.items():
        latency = (
            "n/a (no click protocol)"
            if figures.latency is None
            else f"{figures.latency / reference.latency:.2f}x ({figures.latency:.3f} s)"
        )
        extra = (figures.kernel_bytes - reference.kernel_bytes) / MB
        print(
            f"{name:>22}: every control {figures.every_control / reference.every_control:.2f}x (target 1.3x,"
            f" {figures.every_control:.2f} s) | first control {figures.interactive / reference.interactive:.2f}x"
            f" (target 1.15x, {figures.interactive:.2f} s) | move {latency} (target 1.2x)"
            f" | kernel {extra:+.0f} MB (target +40 MB)"
        )
        print(f"{'':>22}  {_models(figures)} (target: table 12 at most)")
        if figures.move is not None:
            print(f"{'':>22}  move {_messages(figures.move)} (target: 1 each way)")
    for name, figures in {"trivial": reference, **measured}.items():
        for error in figures.errors[:5]:
            print(f"{name:>22}: console error: {error[:300]}")


def _models(figures: Visit) -> str:
    if figures.models is None:
        return "widget models not counted"
    kinds = ", ".join(f"{kind} {number}" for kind, number in sorted(figures.models.names.items()))
    return f"widget models: page {figures.models.page}, main table {figures.models.table} ({kinds})"


def _messages(move: MoveMessages) -> str:
    return (
        f"widget messages: own {move.own_sent} page->kernel, {move.own_received} kernel->page; until still"
        f" ({WIRE_QUIET_S:.0f} s without one) {move.all_sent} and {move.all_received} ({move.all_kernel} kernel"
        " messages of every kind)"
    )


def idle_pool(served: Served, pages: int, pool: int, settle: float) -> int:
    """Wait until the pool holds ``pool`` kernels for each page and they are quiet; their resident bytes."""
    deadline = time.monotonic() + 300
    while len(served.kernels()) < pages * pool and time.monotonic() < deadline:
        time.sleep(1)
    time.sleep(settle)  # the pooled kernels render their notebooks before they rest
    return sum(_rss(kernel) for kernel in served.kernels())


def measure_pool(browser, pool: int, measured: list[str], baseline: dict[str, Visit]) -> None:
    """Restart the game server with a pool of pre-heated kernels; print what it holds idle and what it gains."""
    with serve(NOTEBOOK_DIR, pool) as served:
        held = idle_pool(served, len(NOTEBOOKS) - 1, pool, settle=30)  # the index is left out of the pool
        print(f"POOL={pool}: {len(served.kernels())} idle kernels hold {held / MB:.0f} MB", end="")
        print(f" (server and kernels {served.memory() / MB:.0f} MB)")
        for name in measured:
            heated = visit(browser, served, name, count=False)
            gain = baseline[name].interactive / heated.interactive
            print(f"{name:>22}: interactive {heated.interactive:.2f} s from the pool, {gain:.1f}x faster than without")
            time.sleep(5)  # the pool refills (Voilà waits fill_delay, then renders the notebook again)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2, help="visits per page (the median is printed)")
    parser.add_argument(
        "--pages", nargs="*", choices=GAME_NOTEBOOKS, help="game notebooks by name (default: every game page)"
    )
    parser.add_argument("--pool", type=int, default=0, help="also measure `make app POOL=N` (0: skip)")
    parser.add_argument(
        "--keep-cells", type=cell_numbers, help="serve the one page in --pages with only these cells, e.g. 0,1,46,47"
    )
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be 1 or more")
    if args.keep_cells and (len(args.pages or []) != 1 or args.pool):
        parser.error(
            "--keep-cells needs exactly one page in --pages (each notebook numbers its cells its own way) and no --pool"
        )
    names = args.pages or list(GAME_NOTEBOOKS)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as scratch:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        trivial_notebook(Path(scratch))
        served_dir = NOTEBOOK_DIR
        if args.keep_cells:
            served_dir = trimmed_copy(Path(scratch) / "pages", names[0], args.keep_cells)
        with serve(Path(scratch)) as trivial, serve(served_dir) as app:
            pages = {"trivial": trivial, **{name: app for name in names}}
            measured = interleaved_visits(browser, pages, args.rounds)
        if "trivial" not in measured:
            raise SystemExit("the trivial notebook could not be measured: no ratio can be printed")
        reference = measured.pop("trivial")
        report_pages(reference, measured)
        if args.pool > 0:
            measure_pool(browser, args.pool, list(measured), measured)
        browser.close()


if __name__ == "__main__":
    main()
