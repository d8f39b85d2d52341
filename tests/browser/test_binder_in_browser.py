"""The app as Binder serves it, in a browser: a Jupyter server through binder/start, its pages asking no other server.

Binder (repo2docker) starts `jupyter server` through binder/start, and Voilà arrives as
that server's extension, not as the `voila` command of `make app`. The two differ: the
extension told every page to load MathJax from a public CDN until
config/jupyter_server_config.py gave the server the settings the `voila` command
passes (tests/test_binder.py builds Binder's own environment; this file uses the
test environment, which has the same pinned versions, so that a browser can look).

Every request and web socket of the browser context is recorded, and any other
server's is blocked: the index and each game page must ask only the Jupyter server.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import GAME_TABLE, VOILA
from tests.conftest import GAME_NOTEBOOKS, REPO

if TYPE_CHECKING:
    from playwright.sync_api import Page, Route

    from tests.conftest import Server

START = REPO / "binder" / "start"
JUPYTER = Path(VOILA).with_name("jupyter")


@pytest.fixture(scope="module")
def binder_server(start_server: Callable[[list[str], str], Server]) -> Server:
    """`jupyter server` started through binder/start from the repository root, as repo2docker starts it."""
    command = [str(START), str(JUPYTER), "server", "--port={port}", "--ServerApp.ip=127.0.0.1", "--no-browser"]
    command += ["--allow-root", "--IdentityProvider.token="]
    return start_server(command, "/api")


@pytest.fixture
def asked(page: Page, binder_server: Server) -> Iterator[list[str]]:
    """Every address the tab asks for; another server's request is blocked and fails the test afterwards."""
    urls: list[str] = []
    origin = urlsplit(binder_server.url).netloc

    def only_the_server(route: Route) -> None:
        urls.append(route.request.url)
        if urlsplit(route.request.url).netloc == origin or route.request.url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            route.abort()

    page.context.route("**/*", only_the_server)
    page.on("websocket", lambda socket: urls.append(socket.url))
    yield urls
    elsewhere = sorted({url for url in urls if urlsplit(url).netloc not in ("", origin)})
    if elsewhere:
        pytest.fail(f"the page asked other servers: {elsewhere}", pytrace=False)


@pytest.mark.parametrize("notebook", ["index", *GAME_NOTEBOOKS])
def test_a_page_served_as_binder_serves_it_asks_no_other_server(
    page: Page, binder_server: Server, asked: list[str], notebook: str
) -> None:
    page.goto(f"{binder_server.url}/voila/render/notebooks/{notebook}.ipynb")
    if notebook == "index":
        expect(page.locator("h1").first).to_be_visible()
        return
    expect(page.locator(GAME_TABLE).first).to_be_visible()
    page.wait_for_load_state("networkidle")  # the page's late requests too (MathJax came after the table)
    assert any("/api/kernels/" in url for url in asked), "the page's kernel web socket was not recorded"
