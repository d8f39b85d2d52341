"""Watching what view.js animates: each Element.animate call, logged with where it starts and ends.

Each entry also says how many slides of the element were still under way when it started (``sliding``).
A slide animates `translate` (a card) or `transform` (a picture on a square's ::after) from an offset to
nothing, so where the animation starts is the middle of where the element is drawn plus that first offset,
and where it ends is the middle of where the element is drawn, both from the corner of its table (a click
may scroll the page in between). The tests compare both with where the card
or piece was before the move and where the engine put it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

Motion = dict[str, Any]
Spot = tuple[float, float]

WATCH_MOTION = """() => {
  window.hkMotion = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, options) {
    const box = this.getBoundingClientRect();
    const table = (this.closest(".hk-table") || document.documentElement).getBoundingClientRect();
    const seat = this.closest(".hk-seat");
    const holder = this.parentElement && this.parentElement.closest("button[title]");
    window.hkMotion.push({
      text: this.textContent.trim(), title: this.title || "", classes: String(this.className),
      pointer: getComputedStyle(this).pointerEvents,
      sliding: this.getAnimations().filter((a) => !["finished", "idle"].includes(a.playState)
        && a.effect.getKeyframes().some((frame) => "translate" in frame)).length,
      holder: holder ? holder.title : "", seat: seat ? seat.innerText.split("\\n")[0] : "",
      pseudo: (options && options.pseudoElement) || "", frames: JSON.parse(JSON.stringify(frames)),
      end: [box.left + box.width / 2 - table.left, box.top + box.height / 2 - table.top],
    });
    return animate.call(this, frames, options);
  };
}"""
MIDDLE = """e => {
  const [box, table] = [e.getBoundingClientRect(), e.closest(".hk-table").getBoundingClientRect()];
  return [box.left + box.width / 2 - table.left, box.top + box.height / 2 - table.top];
}"""
OFFSET = re.compile(r"(-?[\d.e-]+)px[, ]+(-?[\d.e-]+)px")


def watch_motion(page: Page) -> None:
    """Log every animation from now on (and forget those logged before)."""
    page.evaluate(WATCH_MOTION)


def forget_motion(page: Page) -> None:
    page.evaluate("() => { window.hkMotion = []; }")


def motion(page: Page, test: str, arg: Any = None) -> Motion:
    """The first animation logged that passes ``test`` (a JavaScript function of the entry and ``arg``), once
    there is one."""
    found = page.wait_for_function(f"(arg) => window.hkMotion.find(m => ({test})(m, arg))", arg=arg)
    return found.json_value()


def middle(element: Locator) -> Spot:
    """Where ``element``'s middle is drawn now, from its table's corner (as the log's: the page may scroll)."""
    x, y = element.evaluate(MIDDLE)
    return x, y


def settle(page: Page) -> None:
    """Wait until nothing on the page moves, so what is measured is where things rest."""
    page.wait_for_function("() => document.getAnimations().length === 0")


def start(entry: Motion) -> Spot:
    """Where an animation logged by WATCH_MOTION starts: the element's middle moved by the first offset."""
    first = entry["frames"][0]
    offset = OFFSET.search(first.get("translate") or first.get("transform") or "0px 0px")
    dx, dy = (float(offset[1]), float(offset[2])) if offset else (0.0, 0.0)
    return entry["end"][0] + dx, entry["end"][1] + dy


def end(entry: Motion) -> Spot:
    return entry["end"][0], entry["end"][1]


def near(spot: Spot, other: Spot) -> bool:
    """Two places within 2 px of each other (sub-pixel layout rounds differently in places)."""
    return abs(spot[0] - other[0]) < 2 and abs(spot[1] - other[1]) < 2
