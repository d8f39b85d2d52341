"""The host's group commit (issue 43): a frame goes out only once what it tells is on the disk, the host's loop
goes on while the disk syncs, and one sync covers every change made while the one before it ran.

The store here is a stand-in whose sync waits until the test lets it finish, so
every step is a condition the test sets, never a race with a real disk; the
last test runs a real host on a file with its sync held the same way.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from tablehost.groupcommit import GroupCommit
from tablehost.store import Store
from tests.test_tablehost_server import run, seated, served


class HeldDisk:
    """A store's changes and sync, where each sync waits for ``finish`` and counts itself."""

    def __init__(self) -> None:
        self.written = 0
        self.syncs = 0
        self.started = threading.Event()
        self.finish = threading.Event()

    def changes(self) -> int:
        return self.written

    def sync(self) -> None:
        self.syncs += 1
        self.started.set()
        assert self.finish.wait(10), "the test never let the sync finish"
        self.finish.clear()


async def until(condition, seconds: float = 10.0) -> None:
    """Until ``condition()`` holds, yielding to the loop (the sync's thread reports back through it)."""
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the condition never held")


def test_a_frame_with_nothing_new_on_the_disk_goes_at_once_and_one_after_a_change_waits_for_the_sync() -> None:
    async def test() -> None:
        disk, sent = HeldDisk(), []
        commit = GroupCommit(disk)
        commit.then(lambda: sent.append("before any change"))
        assert sent == ["before any change"] and disk.syncs == 0
        disk.written += 1
        commit.then(lambda: sent.append("the move"))
        await until(disk.started.is_set)
        assert sent == ["before any change"]  # the sync runs: the move is not told yet
        disk.finish.set()
        await until(lambda: len(sent) == 2)
        assert sent[1] == "the move" and disk.syncs == 1
        commit.close()

    run(test)


def test_changes_made_while_a_sync_runs_share_the_next_one_and_the_frames_keep_their_order() -> None:
    async def test() -> None:
        disk, sent = HeldDisk(), []
        commit = GroupCommit(disk)
        disk.written += 1
        commit.then(lambda: sent.append(1))
        await until(disk.started.is_set)
        disk.started.clear()
        for frame in (2, 3, 4):  # three more moves while the first sync runs: the loop takes each at once
            disk.written += 1
            commit.then(lambda frame=frame: sent.append(frame))
        commit.then(lambda: sent.append("a reply that changed nothing, after them"))
        assert sent == []
        disk.finish.set()
        await until(disk.started.is_set)  # the second sync, for all three
        assert sent == [1]
        disk.finish.set()
        await until(lambda: len(sent) == 5)
        assert sent == [1, 2, 3, 4, "a reply that changed nothing, after them"] and disk.syncs == 2
        commit.close()

    run(test)


def test_without_a_store_every_frame_goes_at_once() -> None:
    sent: list[str] = []
    GroupCommit(None).then(lambda: sent.append("now"))
    assert sent == ["now"]


def test_a_host_on_a_file_tells_a_move_only_once_its_sync_is_done(tmp_path: Path, monkeypatch) -> None:
    disk = HeldDisk()
    real_sync = Store.sync

    def held_sync(store: Store) -> None:
        if not disk.syncs:  # the move's sync (the first once the table plays) waits for the test
            disk.sync()
        real_sync(store)

    async def test() -> None:
        async with served(db=str(tmp_path / "tables.sqlite")) as server:
            maya, ben = await seated(server.url, "sombrero", 2, humans=2)
            monkeypatch.setattr(Store, "sync", held_sync)
            mover = next(client for client in (maya, ben) if client.seat in client.state["acting"])
            other = ben if mover is maya else maya
            ply = other.state["ply"]
            moving = asyncio.ensure_future(mover.move(mover.state["legal"][0]))
            await until(disk.started.is_set)
            await asyncio.sleep(0.2)  # the move is written and held: neither seat has heard of it
            assert not moving.done() and other.state["ply"] == ply
            assert server.host.tables[mover.code].game.ply == ply + 1  # played on the host meanwhile
            disk.finish.set()
            await moving
            await other.wait_for(lambda c: c.state["ply"] == ply + 1)
            for client in (maya, ben):
                await client.close()

    run(test)
