"""The table host killed mid-game (``kill -9``) and started again, in Chromium: the pages play on without a reload.

Issue 43: every table resumes where it was, no move is lost, and the pages reconnect by themselves.
tests/test_tablehost_server.py checks it between a host and its clients; here two browsers play one Sombrero game
on the pages `make app` serves. Maya (1280 px, light) opens a table in *Play with classmates…*, Ben (390 px, dark)
opens its link and joins, Maya starts; Maya plays her turn's two steps and Ben one of his. Then the host is killed
with SIGKILL, with no chance to close or flush anything, and started again on the same port and file, as `make app`
starts it (``python -m tablehost --bind 127.0.0.1:PORT --db FILE``): a process of its own, which a kill can stop,
unlike conftest's host in a thread. Neither page is reloaded. Every connection the pages' kernels held comes back by
itself (the host's ``/health`` counts them again), each page still lists the three moves, once each, on the same
board, and the game goes on: Ben plays his turn's second step and Maya sees it, then Maya plays and Ben sees it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import snap, wait_until_evaluates
from tests.browser.test_classmates_in_browser import Laptop, seat_together
from tests.browser.test_hub import BOARD, expect_seated, step
from tests.conftest import REPO, Server, free_port, wait_until_answers

if TYPE_CHECKING:
    from playwright.sync_api import Browser

RECONNECT_SECONDS = 30  # the clients retry with a backoff of at most 5 s (tablehost/client.py); a busy machine
NOT_RELOADED = "() => window.hkNotReloaded === true"  # a mark set on the page before the kill, gone on a reload


@dataclass
class KillableHost:
    """The table host as `make app` runs it, a process of its own on a fixed port and file: killed and started
    again at will. Its output from every start goes to one log."""

    port: int
    tables: Path  # its SQLite file
    log: Path
    process: subprocess.Popen[bytes] | None = None
    starts: list[float] = field(default_factory=list)  # when each start answered (monotonic seconds)

    @property
    def url(self) -> str:
        """Where the kernels find it (TABLETOP_URL)."""
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> None:
        """Start the host on the same port and file, and wait until it answers ``/health``."""
        command = [sys.executable, "-m", "tablehost", "--bind", f"127.0.0.1:{self.port}", "--db", str(self.tables)]
        with self.log.open("ab") as sink:
            self.process = subprocess.Popen(command, cwd=REPO, stdout=sink, stderr=subprocess.STDOUT)
        wait_until_answers(Server(f"http://127.0.0.1:{self.port}", self.process, self.log), "/health")
        self.starts.append(time.monotonic())

    def kill(self) -> None:
        """SIGKILL: the host closes nothing, flushes nothing, tells nobody."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        assert self.process.wait(timeout=10) == -signal.SIGKILL

    def health(self) -> dict[str, Any]:
        """What ``/health`` says: the tables, the games in play and the open connections."""
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/health", timeout=5) as answer:
            return json.load(answer)

    def wait_for_connections(self, expected: int) -> float:
        """Wait until ``expected`` connections are open again (the pages' kernels came back by themselves); the
        seconds since the last start."""
        deadline = time.monotonic() + RECONNECT_SECONDS
        while (now := self.health())["connections"] < expected:
            if time.monotonic() > deadline:
                pytest.fail(f"{now['connections']} of {expected} connections came back:\n{self.log.read_text()}")
            time.sleep(0.1)
        return time.monotonic() - self.starts[-1]


@pytest.fixture(scope="module")
def killable_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KillableHost]:
    """The table host on a free port with its tables in a file of its own; stopped after the module."""
    directory = tmp_path_factory.mktemp("killable-host")
    host = KillableHost(free_port(), directory / "tables.sqlite", directory / "host.log")
    host.start()
    yield host
    if host.process is not None and host.process.poll() is None:
        host.process.terminate()
        host.process.wait(timeout=20)


@pytest.fixture(scope="module")
def app(serve_app: Callable[..., Server], killable_host: KillableHost) -> str:
    """Voilà serving notebooks/ as `make app` does, its kernels told the killable host's address."""
    return serve_app(host=killable_host.url).url


def test_the_host_killed_mid_game_and_started_again_the_pages_play_on_without_a_reload(
    browser: Browser, app: str, killable_host: KillableHost
) -> None:
    """Maya and Ben at one Sombrero table play three steps; the host is killed (SIGKILL) and started again on the
    same port and file; both pages, never reloaded, keep the three moves and play on, each seeing the other's."""
    maya, ben = Laptop.open(browser, "Maya", 1280), Laptop.open(browser, "Ben", 390, dark=True)
    code, _ = seat_together([maya, ben], f"{app}/voila/render/sombrero.ipynb")
    start = maya.fold.get_by_role("button", name="Start", exact=True)
    expect(start).to_be_enabled()
    start.click()
    expect_seated(maya.table, "White", "Ben")
    expect_seated(ben.table, "Black", "Maya")
    for ply, (mover, side, watcher) in enumerate([(maya, "White", ben)] * 2 + [(ben, "Black", maya)], start=1):
        step(mover.table, side, watcher.table, ply)  # two steps a turn: Ben's turn is half played
    board = maya.table.evaluate(BOARD)
    for laptop in (maya, ben):
        laptop.page.evaluate("() => { window.hkNotReloaded = true; }")
    connections = killable_host.health()["connections"]  # each page's seat, and its report to the class list
    assert connections >= 2, f"the pages hold {connections} connections to the host"

    killable_host.kill()
    killable_host.start()
    assert killable_host.health()["playing"] == 1, f"the host came back without the game at table {code}"
    seconds = killable_host.wait_for_connections(connections)
    print(f"{connections} connections back {seconds:.1f} s after the host started again")

    for laptop in (maya, ben):
        assert laptop.page.evaluate(NOT_RELOADED), f"{laptop.name}'s page was loaded again"
        expect(laptop.table.locator(".hk-movelist > li")).to_have_count(3)  # the same moves, none twice
        expect(laptop.table.locator(".hk-message.hk-error")).to_have_count(0)
        wait_until_evaluates(laptop.table, BOARD, board)  # the same board, where the kill left it
    snap(maya.page, "host-restart-maya")
    snap(ben.page, "host-restart-ben-phone-dark")
    step(ben.table, "Black", maya.table, 4)  # his turn's second step, after the restart: Maya sees it
    step(maya.table, "White", ben.table, 5)  # and hers: Ben sees it
    expect_seated(maya.table, "White", "Ben")
    expect_seated(ben.table, "Black", "Maya")
    for laptop in (maya, ben):
        assert laptop.page.evaluate(NOT_RELOADED), f"{laptop.name}'s page was loaded again"
        laptop.page.context.close()
