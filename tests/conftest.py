"""Fixtures shared across the test suites: local servers that a test starts, waits for and stops."""

from __future__ import annotations

import html
import json
import re
import socket
import subprocess
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
NOTEBOOK_DIR = REPO / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))  # the index and every game's notebook
# The notebooks with a play table, by name, each with the id of the game it teaches (hatskit.GAMES).
GAME_NOTEBOOKS = {"hats": "hats", "sombrero": "sombrero", "hats_off": "hats-off", "madder_than_a_hatter": "madder"}
STARTUP_SECONDS = 90
VOILA_CELL_ERROR = "There was an error when executing cell"  # shown, tracebacks hidden, for a failed cell


@dataclass(frozen=True)
class Server:
    """A server process started by a test: its base URL and the file its output goes to."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path


def free_port() -> int:
    """A localhost port that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_answers(server: Server, path: str) -> None:
    """Poll ``path`` until the server answers 200; fail with its log if it dies or stays silent."""
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            pytest.fail(f"server exited with status {server.process.returncode}:\n{server.log.read_text()}")
        try:
            with urllib.request.urlopen(server.url + path, timeout=5):
                return
        except OSError:
            time.sleep(0.25)
    pytest.fail(f"server did not answer {path} within {STARTUP_SECONDS} s:\n{server.log.read_text()}")


def stop(process: subprocess.Popen[bytes]) -> None:
    """Ask the process to shut down (it stops its kernels), and kill it if it does not."""
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="session")
def start_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[list[str], str], Server]]:
    """A function that runs a server command from the repository root on a free port.

    ``{port}`` in the command is replaced by the port; the function returns once
    ``ready_path`` answers. Every server started this way is stopped after the session.
    """
    started: list[subprocess.Popen[bytes]] = []

    def start(command: list[str], ready_path: str) -> Server:
        port = free_port()
        log = tmp_path_factory.mktemp("server") / "output.log"
        with log.open("wb") as sink:
            argv = [part.format(port=port) for part in command]
            process = subprocess.Popen(argv, cwd=REPO, stdout=sink, stderr=subprocess.STDOUT)
        started.append(process)
        server = Server(f"http://127.0.0.1:{port}", process, log)
        wait_until_answers(server, ready_path)
        return server

    yield start
    for process in started:
        stop(process)


def code_sources(notebook: Path) -> list[str]:
    """The sources of a notebook's code cells."""
    cells = json.loads(notebook.read_text())["cells"]
    return ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]


def page_text(page_html: str) -> str:
    """A page's text: tags dropped (code Voilà shows is split by highlighting tags), entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", page_html))


@pytest.fixture(scope="session")
def assert_rendered() -> Callable[[str, Path], None]:
    """A check of a page Voilà rendered from a notebook, as voila.json asks: every cell ran, no code shows.

    With tracebacks hidden, a failed cell leaves one sentence. Only code cells of
    two lines or more are looked for: a one-liner such as ``game.score()`` may
    also be quoted in the prose.
    """

    def check(page_html: str, notebook: Path) -> None:
        assert VOILA_CELL_ERROR not in page_html, f"a cell of {notebook.name} failed while Voilà rendered it"
        text = page_text(page_html)
        shown = [code for code in code_sources(notebook) if "\n" in code.strip() and code in text]
        assert not shown, f"the code of {notebook.name} shows (strip_sources not applied): {shown[0][:60]!r}"

    return check
