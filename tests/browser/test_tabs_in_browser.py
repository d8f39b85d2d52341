"""The tests' own browser (tests/browser/conftest.py, :class:`Tabs`): a test's tab finds the caches the tests
before it filled, and nothing else they left. A test that found another's stars, seat tokens or cookies would
pass or fail by the order the tests ran in."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.browser.conftest import Tabs

# What a student's page may leave behind in its origin: local storage (stars, lessons, seat tokens), a cookie, an
# IndexedDB database (the static site's lab keeps its files there).
LEAVE_TRACES = """async () => {
  localStorage.setItem("hk-trace", "1");
  document.cookie = "hk-trace=1; path=/";
  await new Promise((done) => { const opening = indexedDB.open("hk-trace"); opening.onsuccess = done; });
}"""
TRACES = """async () => ({
  local: localStorage.getItem("hk-trace"),
  cookie: document.cookie.includes("hk-trace"),
  databases: (await indexedDB.databases()).map((database) => database.name),
})"""
# Voilà's script (a game page's first), fetched as a page fetches it: whether its body came over the network. The
# address is the test's own (a query the server leaves aside): the tests before it fetched the script in this profile.
SCRIPT = f"/voila/static/voila.js?probe={uuid.uuid4().hex}"
FETCHED_WHOLE = f"""async () => {{
  await (await fetch("{SCRIPT}")).text();
  const [entry] = performance.getEntriesByName(new URL("{SCRIPT}", location.href).href);
  return entry.transferSize > entry.encodedBodySize;
}}"""


def test_a_tab_after_a_test_finds_the_pages_scripts_cached_and_nothing_it_left(tabs: Tabs, voila: str) -> None:
    url = f"{voila}/voila/render/index.ipynb"
    earlier = tabs.context.new_page()
    earlier.goto(url)
    earlier.evaluate(LEAVE_TRACES)
    assert earlier.evaluate(FETCHED_WHOLE), "the first fetch of Voilà's script came from a cache"
    assert earlier.evaluate(TRACES) == {"local": "1", "cookie": True, "databases": ["hk-trace"]}
    tabs.forget({voila})
    later = tabs.context.new_page()
    later.goto(url)
    assert later.evaluate(TRACES) == {"local": None, "cookie": False, "databases": []}
    assert not later.evaluate(FETCHED_WHOLE), "Voilà's script came whole over the network again"
    tabs.forget({voila})
