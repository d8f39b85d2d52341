"""view.js alone in Chromium, fed the tree and the patches a kernel's :class:`widgets.toolkit.ui.Surface` sends.

The tables' tests play whole pages; this one looks at one thing they cannot see from outside: that what the page
draws from a patch is the markup the kernel holds, when a patch carries only the changed middle of a long markup
(``ui.spliced``) and the markup holds letters JavaScript counts as two (an emoji in a classmate's name).
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from widgets.toolkit import ui

# The page's part of it: view.js as the loader imports it, drawing into #table from a stand-in for the view's
# Channel model (its tree, its patches, what the page sends back).
LOAD_VIEW = """async ({ code, tree }) => {
  const url = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
  const view = (await import(url)).default;
  const heard = {};
  window.hkSent = [];
  window.hkPatch = (message) => heard["msg:custom"](message);
  const model = {
    get: (name) => (name === "tree" ? tree : undefined),
    on: (event, callback) => { heard[event] = callback; },
    send: (content) => window.hkSent.push(content),
  };
  view.render({ model, el: document.getElementById("table") });
}"""

# True when the drawn line's markup is what the browser makes of the kernel's markup.
DRAWN_AS = """(html) => {
  const fresh = document.createElement("div");
  fresh.innerHTML = html;
  return document.querySelector("#table .hk-line").innerHTML === fresh.innerHTML;
}"""


def move_list(lines: list[str]) -> str:
    items = "".join(f"<li>{line}</li>" for line in lines)
    return f'<div class="hk-panel"><b>Moves</b><ol>{items}</ol></div>'


@pytest.fixture
def line_on_page(page: Page, monkeypatch: pytest.MonkeyPatch) -> tuple[ui.HTML, ui.Surface, list[dict[str, Any]]]:
    """A surface with one long line of HTML, drawn by view.js on ``page``; its patches go to the page as sent."""
    line = ui.HTML(move_list([f"Zoë 🎩 took the Boater {number}" for number in range(30)]))
    line.add_class("hk-line")
    surface = ui.Surface([line])
    patches: list[dict[str, Any]] = []
    monkeypatch.setattr(surface.channel, "send", lambda content, buffers=None: patches.append(content))
    surface._received(surface.channel, {"hello": True}, [])
    page.set_content('<div id="table"></div>')
    page.evaluate(LOAD_VIEW, {"code": ui.front_end_modules()["view.js"], "tree": surface.channel.tree})
    expect(page.locator("#table .hk-line li")).to_have_count(30)
    return line, surface, patches


def test_a_long_markup_sent_as_its_changed_middle_is_drawn_as_the_kernel_holds_it(
    line_on_page: tuple[ui.HTML, ui.Surface, list[dict[str, Any]]], page: Page
) -> None:
    line, surface, patches = line_on_page
    lines = [f"Zoë 🎩 took the Boater {number}" for number in range(30)]
    changes = [
        [*lines, "🎩🎩 Ben 🧢 passed"],  # a line more, after letters counted as two
        [lines[0] + " 🎩", *lines[1:], "🎩🎩 Ben 🧢 passed"],  # near the start, the end kept
        ["Zoé", *lines[1:], "🎩🎩 Ben 🧢 passed"],  # the start shrinks
        ["Zoé", *lines[1:20]],  # lines gone: nothing new in the middle
    ]
    for change in changes:
        line.value = move_list(change)
        surface.flush()
        node = patches[-1]["nodes"][str(line.uid)]
        assert "html" not in node and len(node["splice"][2]) < len(line.value) / 2, "only the changed middle is sent"
        page.evaluate("(message) => window.hkPatch(message)", patches[-1])
        expect(page.locator("#table .hk-line li")).to_have_count(len(change))
        assert page.evaluate(DRAWN_AS, line.value), f"the page does not draw {line.value!r}"
    assert page.evaluate("() => window.hkSent") == [{"hello": True}], "the page missed a patch and asked again"
