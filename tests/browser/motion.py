"""Watching what the tables animate: each animation a script starts, logged with where it starts and ends.

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

# Looks at the page's animations on every frame (the public `document.getAnimations()`, with no browser function
# replaced; a script's own animations only, not CSS transitions) and logs each new one once. Its box is read in the
# first frame it plays in, so the slide's offset at that moment is taken off to get where the element is drawn.
WATCH_MOTION = """() => {
  window.hkMotion = [];
  if (window.hkMotionWatched) return;
  window.hkMotionWatched = true;
  const logged = new WeakSet();
  const slides = (el) => el.getAnimations().filter((a) => !["finished", "idle"].includes(a.playState)
    && a.effect.getKeyframes().some((frame) => "translate" in frame));
  const note = (animation) => {
    const el = animation.effect.target;
    const box = el.getBoundingClientRect();
    const table = (el.closest(".hk-table") || document.documentElement).getBoundingClientRect();
    const style = getComputedStyle(el);
    const [dx = 0, dy = 0] = (style.translate.match(/-?[\\d.e-]+(?=px)/g) || []).map(Number);
    const seat = el.closest(".hk-seat");
    const holder = el.parentElement && el.parentElement.closest("button[title]");
    window.hkMotion.push({
      text: el.textContent.trim(), title: el.title || "",
      pointer: style.pointerEvents,
      sliding: slides(el).filter((other) => other !== animation).length,
      holder: holder ? holder.title : "", seat: seat ? seat.innerText.split("\\n")[0] : "",
      pseudo: animation.effect.pseudoElement || "", frames: animation.effect.getKeyframes(),
      end: [box.left + box.width / 2 - dx - table.left, box.top + box.height / 2 - dy - table.top],
    });
  };
  const look = (noting) => {
    for (const animation of document.getAnimations()) {
      if (logged.has(animation) || animation instanceof CSSTransition || animation instanceof CSSAnimation) continue;
      logged.add(animation);
      if (noting && animation.effect && animation.effect.target) note(animation);
    }
    requestAnimationFrame(() => look(true));
  };
  look(false); // what already moves is not logged: only what starts from now on
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


def logged_motion(page: Page) -> list[Motion]:
    """The whole log, read two frames from now: a slide the page's last change set off starts in the next frame,
    and the watcher logs it in the one after (read at once, the log could miss it)."""
    return page.evaluate(
        "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(window.hkMotion))))"
    )


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
