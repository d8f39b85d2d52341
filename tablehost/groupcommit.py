"""Frames held until what they tell is on the disk, without holding the host's loop: a group commit.

The host writes every change to SQLite on its loop and commits it at once, but
without waiting for the disk (WAL with ``synchronous=NORMAL``: a commit is in the
file, safe from a killed process, not yet from a power cut). Every frame it
sends waits in :class:`GroupCommit` until a sync (``Store.sync``, on a thread of
its own) has put every change made before the frame on the disk. While one sync
runs the loop goes on reading, checking and writing other tables' moves, and the
next sync covers all of them at once. So a move is still on the disk before
anyone is told of it, as with ``synchronous=FULL``, but a slow disk (a sync of
hundreds of milliseconds on a busy machine, benchmarks/README.md) holds the
frames that wait for it, not every table's requests behind one move's sync.

Frames leave in the order they were sent: a frame waits for the changes made
before it, and those are never fewer than an earlier frame's.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol

log = logging.getLogger("tablehost")


class Durable(Protocol):
    """What the group commit needs of a store (``tablehost.store.Store``)."""

    def changes(self) -> int: ...

    def sync(self) -> None: ...


class GroupCommit:
    """Sends (callables) in order, each once every change made before it is on the disk; ``None``: at once."""

    def __init__(self, store: Durable | None) -> None:
        self.store = store
        self.synced = 0 if store is None else store.changes()  # the changes the last finished sync covered
        self.waiting: deque[tuple[int, Callable[[], None]]] = deque()
        self._syncing: asyncio.Future[None] | None = None
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="tablehost-sync")

    def then(self, send: Callable[[], None]) -> None:
        """Call ``send`` now if every change so far is on the disk, else once it is (after the sends before it)."""
        if self.store is None:
            send()
            return
        mark = self.store.changes()
        if mark <= self.synced:
            send()
            return
        self.waiting.append((mark, send))
        if self._syncing is None:
            self._sync()

    async def drained(self) -> None:
        """Until nothing waits (the host stopping sends what it had told before it closes the connections)."""
        while self._syncing is not None:
            await asyncio.shield(self._syncing)

    def close(self) -> None:
        self._thread.shutdown(wait=True)

    def _sync(self) -> None:
        assert self.store is not None
        mark = self.store.changes()
        self._syncing = asyncio.wrap_future(self._thread.submit(self.store.sync))
        self._syncing.add_done_callback(lambda done: self._synced(mark, done))

    def _synced(self, mark: int, done: asyncio.Future[None]) -> None:
        """Send what waited for changes up to ``mark``; start the next sync if more wait."""
        self._syncing = None
        failed = None if done.cancelled() else done.exception()
        if failed is not None:  # the disk failed: said in the log; what was played is told all the same
            log.error("the table host could not sync its file; frames go out unsynced", exc_info=failed)
        self.synced = mark  # never less than before: the count only grows
        while self.waiting and self.waiting[0][0] <= self.synced:
            send = self.waiting.popleft()[1]
            try:
                send()
            except Exception:
                log.exception("a frame held for the disk failed to go out")
        if self.waiting:
            self._sync()
