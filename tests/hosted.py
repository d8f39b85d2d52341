"""A real table host on loopback, on the test's own asyncio loop: for the tests of the parts that talk to it.

The kernel-side tests of *Play with classmates…*, the walkthrough and the class list play against the host as a
page's kernel does (tablehost.client over a websocket), not against a stand-in. :func:`on_a_host` runs an async
test with a fresh host; :func:`until` waits on the loop while the host's frames are read.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from tablehost.server import Settings, TableServer

TEST_SECONDS = 60  # a hosted test that takes longer has hung


def run(test: Callable[[], Awaitable[Any]]) -> None:
    """Run an async test on a loop of its own, failing it after :data:`TEST_SECONDS`."""
    asyncio.run(asyncio.wait_for(test(), TEST_SECONDS))  # type: ignore[arg-type]


@asynccontextmanager
async def served() -> AsyncIterator[TableServer]:
    """A host on a free loopback port, its tables in memory, its bots answering at once."""
    server = TableServer(Settings(bind="127.0.0.1:0", bot_delay=0.01))
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


def on_a_host(test: Callable[[TableServer], Awaitable[None]]) -> Callable[[], None]:
    """``test(server)`` as a plain pytest test: run on a loop of its own against a fresh host (:func:`served`)."""

    def hosted() -> None:
        async def body() -> None:
            async with served() as server:
                await test(server)

        run(body)

    hosted.__name__, hosted.__qualname__, hosted.__doc__ = test.__name__, test.__qualname__, test.__doc__
    return hosted


async def until(condition: Callable[[], object], timeout: float = 10.0) -> None:
    """Wait on the loop until ``condition()`` holds (the host's frames are read by the seats' tasks meanwhile)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "waited too long for the host"
        await asyncio.sleep(0.005)
