"""Binder: binder/ pins what pyproject.toml allows, and an environment built from it serves the app.

The slow test does what repo2docker and Binder do, without Docker: a fresh
virtual environment, `pip install -r binder/requirements.txt` run from the
repository root, then `jupyter server` through `binder/start` (Voilà arrives as
its server extension, config/ as its settings) and the URL the Binder badge
opens, which must start no kernel, then a game page, which must name no other
server for the browser to load anything from (MathJax came from a public CDN
there; tests/browser/test_binder_in_browser.py follows the same pages' requests
in a browser).
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
import tomllib
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

if TYPE_CHECKING:
    from tests.conftest import Server

REPO = Path(__file__).resolve().parents[1]
REQUIREMENTS = REPO / "binder" / "requirements.txt"
START = REPO / "binder" / "start"
INDEX = REPO / "notebooks" / "index.ipynb"
INDEX_URL_PATH = "/voila/render/notebooks/index.ipynb"
GAME = REPO / "notebooks" / "hats.ipynb"
PAGE_CONFIG = re.compile(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', re.S)
LOADED = re.compile(r'<(?:link|script|img|iframe)\b[^>]*\b(?:href|src)="(https?://[^"]+)"')


def binder_pins() -> dict[str, str]:
    """The exact versions binder/requirements.txt pins, by canonical package name."""
    pins = {}
    for line in REQUIREMENTS.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-"):
            name, version = line.split("==")
            pins[canonicalize_name(name)] = version
    return pins


def index_title() -> str:
    """The text of the first heading in notebooks/index.ipynb."""
    cells = json.loads(INDEX.read_text())["cells"]
    headings = (re.search(r"^#+\s+(.+)$", "".join(cell["source"]), re.MULTILINE) for cell in cells)
    return next(heading[1].strip() for heading in headings if heading)


def addresses_elsewhere(page: str, server_url: str) -> list[str]:
    """Addresses of other servers that a page's elements load, or its page config tells its scripts to load."""
    config = PAGE_CONFIG.search(page)
    assert config, "the page has no jupyter-config-data"
    found = LOADED.findall(page)
    found += re.findall(r"https?://[^\s\"']+", config[1])  # fullMathjaxUrl was one
    return sorted(url for url in set(found) if not url.startswith(server_url))


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=300) as response:
        assert response.status == 200
        return response.read().decode()


def test_binder_pins_every_dependency_within_pyproject_ranges() -> None:
    pins = binder_pins()
    dependencies = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    for dependency in map(Requirement, dependencies):
        name = canonicalize_name(dependency.name)
        assert name in pins, f"binder/requirements.txt does not pin {name}"
        assert pins[name] in dependency.specifier, f"binder pins {name}=={pins[name]}, pyproject wants {dependency}"


@pytest.mark.slow
def test_binder_environment_serves_the_index_page(
    tmp_path: Path, start_server: Callable[[list[str], str], Server], assert_rendered: Callable[[str, Path], None]
) -> None:
    venv = tmp_path / "binder-venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "pip"), "install", "--quiet", "-r", str(REQUIREMENTS)]
    subprocess.run(pip, cwd=REPO, check=True, timeout=900)
    server_command = [str(START), str(venv / "bin" / "jupyter"), "server", "--port={port}", "--ServerApp.ip=127.0.0.1"]
    server_command += ["--no-browser", "--allow-root", "--IdentityProvider.token="]
    server = start_server(server_command, "/api")
    page = fetch(server.url + INDEX_URL_PATH)
    assert index_title() in html.unescape(page)
    assert_rendered(page, INDEX)  # hatskit imports there, and the server extension read config/voila.json
    with urllib.request.urlopen(server.url + "/api/kernels", timeout=60) as response:
        assert json.load(response) == []  # config/voila.py served the index from its saved outputs
    game_page = fetch(server.url + INDEX_URL_PATH.replace(INDEX.name, GAME.name))
    assert_rendered(game_page, GAME)
    assert addresses_elsewhere(game_page, server.url) == []  # config/jupyter_server_config.py: no MathJax CDN


@pytest.mark.parametrize(
    ("runtime_dir", "transport"), [("/home/jovyan/.local/share/jupyter/runtime", "ipc"), ("/" + "d" * 57, "tcp")]
)
def test_the_server_config_keeps_mathjax_home_and_kernels_on_sockets_that_fit(
    monkeypatch: pytest.MonkeyPatch, runtime_dir: str, transport: str
) -> None:
    from traitlets.config.loader import PyFileConfigLoader

    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", runtime_dir)
    config = PyFileConfigLoader("jupyter_server_config.py", path=str(REPO / "config")).load_config()
    assert config.KernelManager.get("transport", "tcp") == transport  # a socket path over 107 characters fails
    # a plain dict: jupyterhub-singleuser reads it back with `in`
    assert config.ServerApp.tornado_settings == {"mathjax_url": None, "mathjax_config": None}
    assert config.MappingKernelManager.cull_idle_timeout == 300
