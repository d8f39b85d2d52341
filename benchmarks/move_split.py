"""Where a move's time goes in the browser: the page, the kernel and the wire, against the trivial page's echo.

    PYTHONPATH=. .venv/bin/python benchmarks/move_split.py [--rounds 8] [--pages madder_than_a_hatter hats]

app.py times a move from the click to the table's last change (issue 42: within 1.2x of the trivial page's
echo). This script splits that time where the page's own kernel connection shows it, on the page's clock: an
init script notes every frame the page sends to and receives from its kernel (Jupyter's message type read
from the frame as it passes), and the click. For one move per visit (the first, so no bot is thinking), and
for the trivial page's echo:

- *click to send*: the click event until the page sends the kernel its widget message;
- *send to answer*: until the first widget message comes back (the kernel's handling, Voilà's proxy and the
  wire both ways);
- *answer to still*: until the table's last change before it stays still for 300 ms (app.py's WATCH).

Each is a median over the visits, printed beside the trivial page's and as a ratio to it. Serves both as
app.py does (config/, a free loopback port, this checkout first on the kernels' PYTHONPATH).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from benchmarks.app import (
    CHROMIUM,
    CHROMIUM_ARGS,
    GAME_TABLE,
    PICKS,
    QUIET_MS,
    TARGET,
    WATCH,
    first_control,
    page_url,
    pick_movable,
    serve,
    trivial_notebook,
)
from tests.conftest import NOTEBOOK_DIR

# Notes [way, page time, message type] for every frame on the page's kernel connections, and each click.
WIRE = r"""(() => {
  const log = (window.hkWire = []);
  const kernel = (url) => String(url).includes("/api/kernels/");
  const kind = (data) => {
    try {
      if (typeof data === "string") return JSON.parse(data).header.msg_type;
      const view = new DataView(data);  // Jupyter's v1 protocol: offsets, then channel, header, ...
      const start = Number(view.getBigUint64(16, true)), end = Number(view.getBigUint64(24, true));
      return JSON.parse(new TextDecoder().decode(new Uint8Array(data, start, end - start))).msg_type;
    } catch { return "?"; }
  };
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (kernel(this.url)) log.push(["sent", performance.now(), kind(data)]);
    return send.call(this, data);
  };
  window.WebSocket = class extends window.WebSocket {
    constructor(...args) {
      super(...args);
      const note = (e) => log.push(["received", performance.now(), kind(e.data)]);
      if (kernel(args[0])) this.addEventListener("message", note);
    }
  };
  document.addEventListener("click", () => log.push(["click", performance.now(), ""]), { capture: true });
})();"""
PARTS = ("click to send", "send to answer", "answer to still")
SETTLE_MS = 2500  # after the first control shows: the page's other tables finish drawing


def aim(page, name: str):
    """The control that completes a move, and what its answer changes (the trivial page: its button and label)."""
    if name == "trivial":
        return page.locator("button.bench-button"), page.locator(".widget-label").first
    table = page.locator(GAME_TABLE).first
    table.locator(PICKS[name]).filter(visible=True).first.click()
    pick_movable(table, name)
    return table.locator(TARGET).first, table


def split_move(page, name: str) -> tuple[float, float, float] | None:
    """One move's three parts in ms (None: the page sent or got no widget message for it)."""
    control, watched = aim(page, name)
    page.wait_for_timeout(1000)  # the pick's own drawing is over
    page.evaluate(WATCH, [watched.element_handle(), QUIET_MS])
    mark = page.evaluate("() => window.hkWire.length")
    control.click()
    _, last = page.evaluate("() => window.hkAnswer")
    wire = page.evaluate(f"() => window.hkWire.slice({mark})")
    click = next(at for way, at, _ in wire if way == "click")
    sent = next((at for way, at, kind in wire if way == "sent" and kind == "comm_msg" and at >= click), None)
    after = sent if sent is not None else click
    back = next((at for way, at, kind in wire if way == "received" and kind == "comm_msg" and at >= after), None)
    if sent is None or back is None or last is None:
        return None
    return sent - click, back - sent, click + last - back


def visit(browser, url: str, name: str) -> tuple[float, float, float] | None:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.add_init_script(WIRE)
        page.goto(url)
        first_control(page, name)
        page.wait_for_timeout(SETTLE_MS)
        return split_move(page, name)
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
