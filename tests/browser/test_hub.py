"""The README's JupyterHub set-up, run for real: a JupyterHub on loopback, two students, the app as their start page.

The hub is the README's, less Kubernetes: `jupyterhub` from PyPI, the
`configurable-http-proxy` from npm (.ci/run installs it; this file's setup
installs it into build/hub-proxy when it is missing), a dummy authenticator
that takes any password, and the simple local process spawner, which runs each
student's server as a process of this machine (as root here, hence
`--allow-root`). What the README's Helm values and Dockerfile set for each
student's server is read from the README itself and applied to the spawner
(`notebookDir`, `defaultUrl`, the image's `ENV` lines), with the image's
/opt/hatskit standing for this checkout. So when the README changes, this test
checks the new text.

Two students log in from two browser contexts. Each must land on the app's
index (its `defaultUrl`), which starts no kernel; open Hats from the index's
link and play a move by clicks; and ask nothing of any server but the hub (every
request and web socket of the context is recorded, and any other is blocked).
Under the hub the page template of share/jupyter/voila/templates/hatskit
(which `pip install` puts in the environment's share/jupyter) is in force (its
style is on the page, Font Awesome and MathJax come from no CDN), the code is
hidden, and the kernel settings config/jupyter_server_config.py takes from
voila.json hold (culling every 30 s after 300 s idle, never a connected kernel,
kernels on local sockets). A student's closed tab stops that
student's kernel at once and leaves the other's alone.

A JupyterHub and two servers take a minute or two to start and run, so this
file carries the ``hub`` mark: `make test` runs it (browser tests are never in
`make check`); ``-m 'not hub'`` leaves it out. Where jupyterhub, npm or
Chromium is missing it skips and says so, and fails under
HATSKIT_REQUIRE_BROWSER=1 (CI).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import psutil
import pytest
import yaml

from tests.browser.conftest import GAME_TABLE, WIDGET_TIMEOUT_MS
from tests.conftest import NOTEBOOK_DIR, REPO, free_port, stop, wait_until_answers

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Locator, Page, Route

    from tests.conftest import Server

pytestmark = pytest.mark.hub

README = REPO / "README.md"
IMAGE_ROOT = "/opt/hatskit"  # where the README's Dockerfile copies the repository; this checkout here
PROXY_DIR = REPO / "build" / "hub-proxy"  # where this file installs configurable-http-proxy from npm if need be
PROXY_PACKAGE = "configurable-http-proxy@5"
BIN = Path(sys.executable).parent
STUDENTS = ("ana", "ben")
SPAWN_MS = 180_000  # a student's server starting on a machine shared with other jobs
SHUTDOWN_SECONDS = 30
KERNEL_ID = "() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"
CULLING = "Culling kernels with idle durations > 300 seconds at 30 second intervals"  # jupyter_server's log line
TEMPLATE_MARK = "animation-timing-function: steps(8, end)"  # the hatskit template's spinner, turning in steps


def readme_hub_section() -> str:
    text = README.read_text()
    start = text.index("## A class on JupyterHub")
    return text[start : text.index("\n## ", start + 1)]


def readme_image_environment() -> dict[str, str]:
    """The README Dockerfile's ENV lines, its /opt/hatskit standing for this checkout."""
    dockerfile = re.search(r"```dockerfile\n(.*?)```", readme_hub_section(), re.S)
    assert dockerfile, "README's JupyterHub section has no Dockerfile"
    lines = re.findall(r"^ENV\s+(\w+)=(\S+)$", dockerfile[1], re.M)
    return {name: value.replace(IMAGE_ROOT, str(REPO)) for name, value in lines}


def readme_helm_values() -> dict:
    """The README's Helm chart values (config.yaml)."""
    values = re.search(r"```yaml\n(.*?)```", readme_hub_section(), re.S)
    assert values, "README's JupyterHub section has no Helm values"
    return yaml.safe_load(values[1])


def missing_piece() -> str | None:
    """What this machine lacks for a hub (Chromium and Playwright are the browser fixture's to check)."""
    if importlib.util.find_spec("jupyterhub") is None or not (BIN / "jupyterhub-singleuser").exists():
        return "jupyterhub is not installed (pip install -e '.[test]')"
    if proxy_command() is None and shutil.which("npm") is None:
        return "configurable-http-proxy is not installed, and there is no npm to install it (apt-get install npm)"
    return None


def proxy_command() -> str | None:
    """configurable-http-proxy on PATH (.ci/run installs it there), or the copy this file installed."""
    local = PROXY_DIR / "node_modules" / ".bin" / "configurable-http-proxy"
    return shutil.which("configurable-http-proxy") or (str(local) if local.exists() else None)


def installed_proxy() -> str:
    """configurable-http-proxy, installed from npm into build/hub-proxy if it is nowhere yet."""
    found = proxy_command()
    if found is None:
        npm = ["npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(PROXY_DIR), PROXY_PACKAGE]
        subprocess.run(npm, check=True, timeout=300)
        found = proxy_command()
    assert found, f"`npm install {PROXY_PACKAGE}` left no configurable-http-proxy in {PROXY_DIR}"
    return found


def hub_config(directory: Path, proxy: str) -> str:
    """jupyterhub_config.py: loopback, dummy logins, local processes, and the README's values for every server."""
    helm = readme_helm_values()["singleuser"]
    notebook_dir = helm["notebookDir"].replace(IMAGE_ROOT, str(REPO))
    settings = {
        "JupyterHub.hub_ip": "127.0.0.1",
        "JupyterHub.hub_port": free_port(),
        "JupyterHub.db_url": f"sqlite:///{directory / 'hub.sqlite'}",
        "JupyterHub.cookie_secret_file": str(directory / "cookie_secret"),
        "JupyterHub.authenticator_class": "dummy",
        "Authenticator.allow_all": True,
        "JupyterHub.spawner_class": "simple",
        "JupyterHub.cleanup_servers": True,
        "ConfigurableHTTPProxy.command": [proxy],
        "ConfigurableHTTPProxy.api_url": f"http://127.0.0.1:{free_port()}",
        "ConfigurableHTTPProxy.pid_file": str(directory / "proxy.pid"),
        "SimpleLocalProcessSpawner.home_dir_template": str(directory / "{username}"),
        "Spawner.cmd": [str(BIN / "jupyterhub-singleuser")],  # the image's, from this environment
        "Spawner.args": ["--allow-root"],  # this machine runs everything as root; the image runs as jovyan
        "Spawner.notebook_dir": notebook_dir,  # Helm: singleuser.notebookDir
        "Spawner.default_url": helm["defaultUrl"],  # Helm: singleuser.defaultUrl
        "Spawner.environment": readme_image_environment(),  # the image's ENV lines
        "Spawner.start_timeout": SPAWN_MS // 1000,
        "Spawner.http_timeout": SPAWN_MS // 1000,
    }
    return "".join(f"c.{name} = {value!r}\n" for name, value in settings.items())


@pytest.fixture(scope="module")
def hub(browser: Browser) -> Iterator[Server]:
    """A JupyterHub on a free loopback port, set up as the README says; stopped, with every server, after the module.

    Asks for the browser first, so that a machine without one skips (or fails) before anything is installed.
    """
    from tests.browser.conftest import not_run
    from tests.conftest import Server

    reason = missing_piece()
    if reason is not None:
        not_run(f"HUB TESTS NOT RUN: {reason}")
    # A short folder, as the image's /home/jovyan: a kernel's local socket lives under the student's home, and its
    # path must fit in 107 characters (config/jupyter_server_config.py); pytest's own temporary folders are too deep.
    directory = Path(tempfile.mkdtemp(prefix="hk-hub-"))
    (directory / "jupyterhub_config.py").write_text(hub_config(directory, installed_proxy()))
    port = free_port()
    log = directory / "hub.log"
    config = directory / "jupyterhub_config.py"
    command = [str(BIN / "jupyterhub"), "-f", str(config), "--ip=127.0.0.1", f"--port={port}"]
    environment = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    with log.open("wb") as sink:
        process = subprocess.Popen(command, cwd=directory, env=environment, stdout=sink, stderr=subprocess.STDOUT)
    server = Server(f"http://127.0.0.1:{port}", process, log)
    try:
        wait_until_answers(server, "/hub/api")
        yield server
    finally:
        stop(process)
        shutil.rmtree(directory, ignore_errors=True)


@dataclass
class Student:
    """A student's browser context, logged in to the hub, and every address it asked for."""

    name: str
    context: BrowserContext
    asked: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)

    def record(self, page: Page) -> Page:
        page.on("websocket", lambda socket: self.asked.append(socket.url))
        return page


def logged_in(browser: Browser, hub: Server, name: str) -> tuple[Student, Page]:
    """A new browser context for ``name``, logged in on the hub's form; its tab once the hub has sent it on."""
    student = Student(name, browser.new_context(viewport={"width": 1280, "height": 1600}))
    hub_origin = urlsplit(hub.url).netloc

    def only_the_hub(route: Route) -> None:
        url = route.request.url
        student.asked.append(url)
        if urlsplit(url).netloc == hub_origin or url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            student.blocked.append(url)
            route.abort()

    student.context.route("**/*", only_the_hub)
    page = student.record(student.context.new_page())
    page.set_default_timeout(WIDGET_TIMEOUT_MS)
    page.goto(f"{hub.url}/hub/login")
    page.locator('input[name="username"]').fill(name)
    page.locator('input[name="password"]').fill("any password")
    page.locator('input[type="submit"], button[type="submit"]').first.click()
    return student, page


def user_servers(hub: Server) -> dict[str, psutil.Process]:
    """Each student's running server (a process the hub spawned), by the student's name."""
    found = {}
    for child in psutil.Process(hub.process.pid).children():
        try:
            user = child.environ().get("JUPYTERHUB_USER")
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
        if user:
            found[user] = child
    return found


def kernels_of(hub: Server, name: str) -> list[psutil.Process]:
    """The kernels a student's server runs now (its child processes running ipykernel)."""
    server = user_servers(hub).get(name)
    kernels = []
    for child in server.children() if server else []:
        try:
            if "ipykernel_launcher" in child.cmdline():
                kernels.append(child)
        except (psutil.NoSuchProcess, psutil.ZombieProcess):
            continue
    return kernels


def wait_for_kernels(hub: Server, name: str, expected: int, within: float = SHUTDOWN_SECONDS) -> list[psutil.Process]:
    deadline = time.monotonic() + within
    while len(found := kernels_of(hub, name)) != expected:
        if time.monotonic() > deadline:
            pytest.fail(f"{name}'s server runs {len(found)} kernels, not {expected}:\n{hub.log.read_text()[-3000:]}")
        time.sleep(0.25)
    return found


def connection_file(kernel: psutil.Process) -> dict:
    """The connection settings a kernel was started with (its ``-f`` file)."""
    arguments = kernel.cmdline()
    return json.loads(Path(arguments[arguments.index("-f") + 1]).read_text())


def play_a_hats_move(table: Locator) -> None:
    """Pick up a hand card that lights a table position and put it there: the message line tells the exchange."""
    from playwright.sync_api import expect

    from tests.browser.test_site import pick_a_card_with_an_exchange

    card, target = pick_a_card_with_an_exchange(table)
    target.click()
    expect(table.locator(".hk-message")).to_contain_text(f"exchanged {card} for ")
    expect(table.locator(f'button[title="{card} in your hand"]')).to_have_count(0)


def test_two_students_on_the_hub_land_on_the_app_play_hats_and_ask_nothing_of_other_servers(
    browser: Browser, hub: Server, assert_rendered: Callable[[str, Path], None]
) -> None:
    from playwright.sync_api import expect

    default_url = readme_helm_values()["singleuser"]["defaultUrl"]
    students, tabs = zip(*(logged_in(browser, hub, name) for name in STUDENTS), strict=True)
    for student, tab in zip(students, tabs, strict=True):
        index = f"{hub.url}/user/{student.name}{default_url}"
        expect(tab).to_have_url(index, timeout=SPAWN_MS)  # the hub spawned the server, which sent the tab on
        expect(tab.locator("h1").first).to_be_visible()
        assert kernels_of(hub, student.name) == []  # the index from its saved outputs, and no kernel pool
    assert sorted(user_servers(hub)) == sorted(STUDENTS)

    for tab in tabs:
        with tab.expect_navigation() as navigation:
            tab.locator('a[href="hats.ipynb"], a[href$="/hats.ipynb"]').first.click()
        response = navigation.value
        assert response is not None and response.status == 200, f"Hats under the hub:\n{hub.log.read_text()[-3000:]}"
        page_html = response.text()  # as the server sent it, before any script ran
        assert_rendered(page_html, NOTEBOOK_DIR / "hats.ipynb")  # every cell ran, code hidden (voila.json)
        assert TEMPLATE_MARK in page_html, "the hatskit page template is not in force under the hub"
        assert "fontawesome-free" not in page_html
        expect(tab.locator(GAME_TABLE).first).to_be_visible()
    for student, tab in zip(students, tabs, strict=True):
        play_a_hats_move(tab.locator(GAME_TABLE).first)
        (kernel,) = wait_for_kernels(hub, student.name, 1)
        assert connection_file(kernel)["transport"] == "ipc"  # voila.json's KernelManager, through the server config

    log = hub.log.read_text()
    assert log.count(CULLING) >= len(STUDENTS), "voila.json's culling is not in force on the students' servers"
    assert "Culling kernels even with connected clients" not in log
    for student in students:
        hub_origin = urlsplit(hub.url).netloc
        elsewhere = sorted({url for url in student.asked if urlsplit(url).netloc not in ("", hub_origin)})
        assert not elsewhere, f"{student.name}'s pages asked other servers: {elsewhere}"
        assert any("/api/kernels/" in url for url in student.asked), "no kernel web socket was recorded"

    # Ana closes her Hats tab: her kernel stops at once (Voilà's shutdown request), Ben's keeps running.
    tabs[0].close(run_before_unload=True)
    wait_for_kernels(hub, "ana", 0)
    assert len(kernels_of(hub, "ben")) == 1
    assert "'_xsrf' argument missing" not in hub.log.read_text()  # the shutdown request was let in
    for student in students:
        student.context.close()
