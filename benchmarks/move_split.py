"""Where a move's time goes in the browser: the page, the kernel and the wire, against the trivial page's echo.

    PYTHONPATH=. .venv/bin/python benchmarks/move_split.py [--rounds 8] [--pages madder_than_a_hatter hats]

app.py times a move from the click to the table's last change (issue 42: within 1.2x of the trivial page's
echo). This script splits that time where the page's own kernel connection shows it, on the page's clock:
Chromium's DevTools protocol (a CDP session, Playwright's public door to it) reports every frame of the page's
kernel websocket with the time its network stack sent or received it, which its Performance metrics put on the
page's clock (the ticks since the page's navigation started: `performance.now()`); an init script notes the
click. For one move per visit (the first, so no bot is thinking), and for the trivial page's echo:

- *click to send*: the click event until the page sends the kernel its widget message;
- *send to answer*: until the first widget message comes back (the kernel's handling, Voilà's proxy and the
  wire both ways; the page's own handling of the frames is in the other two parts);
- *answer to still*: until the table's last change before it stays still for 300 ms (app.py's WATCH).

Each is a median over the visits, printed beside the trivial page's and as a ratio to it. Serves both as
app.py does (config/, a free loopback port, this checkout first on the kernels' PYTHONPATH).
"""

from __future__ import annotations

import argparse
import base64
import statistics
import tempfile
from pathlib import Path

from benchmarks.app import (
    CHROMIUM,
    CHROMIUM_ARGS,
    GAME_TABLE,
    PICKS,
    QUIET_MS,
    WATCH,
    first_control,
    move_aim,
    page_url,
    parse_frame,
    serve,
    trivial_notebook,
)
from tests.conftest import NOTEBOOK_DIR

# Notes each click's time on the page's clock (performance.now()).
CLICKS = """document.addEventListener("click",
  () => (window.hkClicks ??= []).push(performance.now()), { capture: true });"""
PARTS = ("click to send", "send to answer", "answer to still")
SETTLE_MS = 2500  # after the first control shows: the page's other tables finish drawing


def aim(page, name: str):
    """The control that completes a move, and what its answer changes (app.py's, the piece picked up as app.py's
    first click picks it)."""
    if name != "trivial":
        page.locator(GAME_TABLE).first.locator(PICKS[name]).filter(visible=True).first.click()
    return move_aim(page, name)


class KernelFrames:
    """The widget messages on a page's kernel websockets, each as (way, ms on the page's clock), from CDP's
    Network events; open it before the page loads."""

    def __init__(self, page) -> None:
        self.session = page.context.new_cdp_session(page)
        self.sockets: set[str] = set()  # the request ids of the kernel websockets
        self.messages: list[tuple[str, float]] = []
        self.session.on("Network.webSocketCreated", self._created)
        self.session.on("Network.webSocketFrameSent", lambda event: self._frame("sent", event))
        self.session.on("Network.webSocketFrameReceived", lambda event: self._frame("received", event))
        self.session.send("Network.enable")
        self.session.send("Performance.enable")

    def _created(self, event: dict) -> None:
        if "/api/kernels/" in event["url"]:
            self.sockets.add(event["requestId"])

    def _frame(self, way: str, event: dict) -> None:
        if event["requestId"] not in self.sockets:
            return
        response = event["response"]
        payload = base64.b64decode(response["payloadData"]) if response["opcode"] == 2 else response["payloadData"]
        message = parse_frame(way, payload)
        if message is not None and message.kind == "comm_msg":
            self.messages.append((way, event["timestamp"]))

    def on_page_clock(self) -> list[tuple[str, float]]:
        """The messages so far, their times in ms since the page's navigation started (``performance.now()``)."""
        metrics = {metric["name"]: metric["value"] for metric in self.session.send("Performance.getMetrics")["metrics"]}
        return [(way, (at - metrics["NavigationStart"]) * 1000) for way, at in self.messages]


def split_move(page, frames: KernelFrames, name: str) -> tuple[float, float, float] | None:
    """One move's three parts in ms (None: the page sent or got no widget message for it)."""
    control, watched = aim(page, name)
    page.wait_for_timeout(1000)  # the pick's own drawing is over
    page.evaluate(WATCH, [watched.element_handle(), QUIET_MS])
    control.click()
    _, last = page.evaluate("() => window.hkAnswer")
    page.wait_for_timeout(100)  # CDP's events for the last frames are in
    click = page.evaluate("() => window.hkClicks.at(-1)")
    wire = frames.on_page_clock()
    sent = next((at for way, at in wire if way == "sent" and at >= click), None)
    after = sent if sent is not None else click
    back = next((at for way, at in wire if way == "received" and at >= after), None)
    if sent is None or back is None or last is None:
        return None
    return sent - click, back - sent, click + last - back


def visit(browser, url: str, name: str) -> tuple[float, float, float] | None:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.add_init_script(CLICKS)
        frames = KernelFrames(page)
        page.goto(url)
        first_control(page, name)
        page.wait_for_timeout(SETTLE_MS)
        return split_move(page, frames, name)
    finally:
        context.close()


def report(measured: dict[str, list[tuple[float, float, float]]]) -> None:
    medians = {name: [statistics.median(part) for part in zip(*rows, strict=True)] for name, rows in measured.items()}
    reference = medians.pop("trivial")
    print("page: " + ", ".join(f"{part} (trivial {ms:.1f} ms)" for part, ms in zip(PARTS, reference, strict=True)))
    for name, parts in medians.items():
        cells = [f"{ms:.1f} ms ({ms / ref:.2f}x)" for ms, ref in zip(parts, reference, strict=True)]
        print(f"{name} ({len(measured[name])} moves): " + ", ".join(cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=8, help="visits per page, one move each (the median is printed)")
    parser.add_argument("--pages", nargs="*", choices=sorted(PICKS), default=sorted(PICKS), help="game pages")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be 1 or more")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as scratch:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        trivial_notebook(Path(scratch))
        measured: dict[str, list[tuple[float, float, float]]] = {name: [] for name in ["trivial", *args.pages]}
        with serve(Path(scratch)) as trivial, serve(NOTEBOOK_DIR) as app:
            for _ in range(args.rounds):  # the pages in turn, round after round, as app.py visits them
                for name, splits in measured.items():
                    split = visit(browser, page_url(trivial if name == "trivial" else app, name), name)
                    print(name, "no widget message seen" if split is None else " ".join(f"{ms:.1f}" for ms in split))
                    splits += [split] if split is not None else []
        browser.close()
    if not measured["trivial"]:
        raise SystemExit("the trivial page's echo could not be split: no ratio can be printed")
    report({name: splits for name, splits in measured.items() if splits})


if __name__ == "__main__":
    main()
