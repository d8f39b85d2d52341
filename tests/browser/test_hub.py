"""The README's JupyterHub set-up, run for real: a JupyterHub on loopback, two students, the app as their start page.

The hub is the README's, less Kubernetes: `jupyterhub` from PyPI, the
`configurable-http-proxy` from npm (.ci/run installs it; this file's setup
installs it into build/hub-proxy when it is missing), a dummy authenticator
that takes any password, and the simple local process spawner, which runs each
student's server as a process of this machine (as root here, hence
`--allow-root`). What the README's Helm values and Dockerfile set for each
student's server is read from the README itself and applied to the spawner
(`notebookDir`, `defaultUrl`, `extraEnv`, the image's `ENV` lines), with the
image's /opt/hatskit standing for this checkout. So are the hub's: the table
host runs as the README's hub-managed service (`hub.services`, its command with
`--hub-auth` and its file on the hub's volume), with the README's roles and the
servers' token scopes (`hub.loadRoles`, `hub.config`); the cluster's names stand
for this machine's (the hub's Kubernetes service `hub` and the pod's 0.0.0.0 for
127.0.0.1, the chart's port for a free one, /srv/jupyterhub for the hub's
folder). The port must be the same wherever the values name it (the service,
the Kubernetes port, both network policies, the kernels' TABLETOP_URL): the
policies themselves are Kubernetes' to enforce, not this machine's. So when the
README changes, this test checks the new text.

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

Then two students play one Sombrero game from their two browsers: one opens a
table in "Play with classmates…" (her name already her hub user name), the other
opens the page's link with the table's code and joins, the first starts, and
each move pressed on one table shows on the other. Their kernels reach the
table host directly with their server's hub token (the README's TABLETOP_URL);
the browsers still ask nothing of any server but the hub. The table host takes
no connection without a hub token, nor one whose token lacks the service's
scope, and keeps the seats, held by the hub users, in its file on the hub's
volume. The hub user holds the seat: the second student's reloaded page comes
back to it with no seat token.

Then the class list: the teacher the README's values put in the hub's `teachers` group opens the index at
`?teacher=yes` and sees a student's lesson step arrive on it, live; a student opening that link is refused.

A JupyterHub and two servers take a minute or two to start and run, so this
file carries the ``hub`` mark: `make test` runs it (browser tests are never in
`make check`); ``-m 'not hub'`` leaves it out. Where jupyterhub, npm or
Chromium is missing it skips and says so, and fails under
HATSKIT_REQUIRE_BROWSER=1 (CI).
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.error import HTTPError
from urllib.parse import urlsplit

import psutil
import pytest
import yaml

from tablehost.auth import TEACHERS_GROUP
from tests.browser.conftest import GAME_TABLE, WIDGET_TIMEOUT_MS, wait_until_evaluates
from tests.conftest import NOTEBOOK_DIR, REPO, Server, free_port, stop, wait_until_answers

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Locator, Page, Route

pytestmark = pytest.mark.hub

README = REPO / "README.md"
IMAGE_ROOT = "/opt/hatskit"  # where the README's Dockerfile copies the repository; this checkout here
HUB_VOLUME = "/srv/jupyterhub"  # the hub pod's volume (the chart's sqlite-pvc); the hub's folder here
SERVICE = "tabletop"  # the README's name for the table host's hub-managed service
PROXY_DIR = REPO / "build" / "hub-proxy"  # where this file installs configurable-http-proxy from npm if need be
PROXY_PACKAGE = "configurable-http-proxy@5"
BIN = Path(sys.executable).parent
STUDENTS = ("ana", "ben")
SPAWN_MS = 180_000  # a student's server starting on a machine shared with other jobs
SHUTDOWN_SECONDS = 30
KERNEL_ID = "() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"
CULLING = "Culling kernels with idle durations > 300 seconds at 30 second intervals"  # jupyter_server's log line
TEMPLATE_MARK = "animation-timing-function: steps(8, end)"  # the hatskit template's spinner, turning in steps
PLAY_TABLE = ".hk-table.hk-main"  # a game page's play table, where "Play with classmates…" is
RETURN_MS = 30_000  # a reloaded page back at its seat: a rejoin on loopback takes a fraction of a second
TARGETS = "button.hk-legal:not(.hk-action)"  # the squares a piece picked up may go to
# The board as every seat sees it: each square's name and what stands there ("e4: White, hatted"), without what a
# title adds for its own reader (the squares the moves since their own last move went from or to).
# Every square's name and piece, in the order of the squares' names (each student sees their own side at the bottom).
BOARD = "(table) => [...table.querySelectorAll('button.hk-sq')].map((square) => square.title.split(';')[0]).sort()"


def readme_hub_section() -> str:
    text = README.read_text()
    start = text.index("## A class on JupyterHub")
    return text[start : text.index("\n## ", start + 1)]


def readme_image_environment() -> dict[str, str]:
    """The ENV lines of the README's single-user Dockerfile (not the hub's), its /opt/hatskit standing for this
    checkout."""
    dockerfiles = re.findall(r"```dockerfile\n(.*?)```", readme_hub_section(), re.S)
    singleuser = [text for text in dockerfiles if not re.match(r"FROM\s+\S+/k8s-hub:", text)]
    assert len(singleuser) == 1, "README's JupyterHub section has no single-user Dockerfile, or several"
    lines = re.findall(r"^ENV\s+(\w+)=(\S+)$", singleuser[0], re.M)
    return {name: value.replace(IMAGE_ROOT, str(REPO)) for name, value in lines}


def readme_helm_values() -> dict:
    """The README's Helm chart values (config.yaml)."""
    values = re.search(r"```yaml\n(.*?)```", readme_hub_section(), re.S)
    assert values, "README's JupyterHub section has no Helm values"
    return yaml.safe_load(values[1])


def readme_host_port(helm: dict) -> int:
    """The table host's port in the README's values, checked to be the same wherever they name it: the service's
    URL and command, the hub's Kubernetes service, the hub's network policy in, the students' out, TABLETOP_URL."""
    hub, singleuser = helm["hub"], helm["singleuser"]
    (extra,) = hub["service"]["extraPorts"]
    port = extra["port"]
    service = hub["services"][SERVICE]
    kernels_url = urlsplit(singleuser["extraEnv"]["TABLETOP_URL"])
    assert extra["targetPort"] == port, "the hub's Kubernetes service sends the table host's port elsewhere"
    assert urlsplit(service["url"]).port == port and f"--bind=0.0.0.0:{port}" in service["command"]
    assert "--hub-auth" in service["command"], "the service's table host does not take the hub's tokens"
    assert [rule["ports"] for rule in hub["networkPolicy"]["ingress"]] == [[{"port": port}]]
    assert [rule["ports"] for rule in singleuser["networkPolicy"]["egress"]] == [[{"port": port}]]
    assert kernels_url.port == port and kernels_url.hostname == urlsplit(service["url"]).hostname
    assert kernels_url.path == f"/services/{SERVICE}/ws", "the host serves /ws under its service prefix"
    assert readme_tables_file().startswith(f"{HUB_VOLUME}/"), "the table host's file is not on the hub's volume"
    return port


def readme_tables_file() -> str:
    """The table host's SQLite file, as the README's service command names it (``--db=``)."""
    command = readme_helm_values()["hub"]["services"][SERVICE]["command"]
    (path,) = [part.removeprefix("--db=") for part in command if part.startswith("--db=")]
    return path


def on_this_machine(value: Any, cluster_port: int, port: int, volume: Path) -> Any:
    """A Helm value with the cluster's names put for this machine's: the hub's Kubernetes service ``hub`` and the
    pod's every address (0.0.0.0) for loopback, the chart's port for ``port``, the hub's volume for ``volume``."""
    if isinstance(value, dict):
        return {key: on_this_machine(item, cluster_port, port, volume) for key, item in value.items()}
    if isinstance(value, list):
        return [on_this_machine(item, cluster_port, port, volume) for item in value]
    if isinstance(value, str):
        for address in (f"hub:{cluster_port}", f"0.0.0.0:{cluster_port}"):
            value = value.replace(address, f"127.0.0.1:{port}")
        return value.replace(HUB_VOLUME, str(volume))
    return value


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


def hub_config(directory: Path, proxy: str, host_port: int) -> str:
    """jupyterhub_config.py: loopback, dummy logins, local processes, and the README's values for the hub, its
    table host service (on ``host_port``) and every server."""
    values = readme_helm_values()
    hub, helm = values["hub"], values["singleuser"]
    cluster_port = readme_host_port(values)

    def here(value: Any) -> Any:
        return on_this_machine(value, cluster_port, host_port, directory)

    notebook_dir = helm["notebookDir"].replace(IMAGE_ROOT, str(REPO))
    services = [{"name": name, **here(service)} for name, service in hub["services"].items()]  # as z2jh does
    for service in services:
        if service["command"][0] == "python3":
            service["command"][0] = sys.executable  # the hub image's Python: this environment, where tablehost is
    settings = {
        **{f"{part}.{name}": value for part, names in hub["config"].items() for name, value in names.items()},
        "JupyterHub.services": services,  # Helm: hub.services
        "JupyterHub.load_roles": [{"name": name, **role} for name, role in hub["loadRoles"].items()],  # hub.loadRoles
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
        "Spawner.environment": {**readme_image_environment(), **here(helm["extraEnv"])},  # the ENV lines, extraEnv
        "Spawner.start_timeout": SPAWN_MS // 1000,
        "Spawner.http_timeout": SPAWN_MS // 1000,
    }
    return "".join(f"c.{name} = {value!r}\n" for name, value in settings.items())


@dataclass(frozen=True)
class Hub(Server):
    """The hub (its proxy's URL, its process and log) and the table host its service runs (its own URL)."""

    table_host: str  # http://127.0.0.1:PORT/services/tabletop: where the kernels' TABLETOP_URL leads, /ws aside
    tables: Path  # the table host's SQLite file, in the folder that stands for the hub's volume


@pytest.fixture(scope="module")
def hub(browser: Browser) -> Iterator[Hub]:
    """A JupyterHub on a free loopback port, set up as the README says, with the table host as its service; stopped,
    with every server and the service, after the module.

    Asks for the browser first, so that a machine without one skips (or fails) before anything is installed.
    """
    from tests.browser.conftest import not_run

    reason = missing_piece()
    if reason is not None:
        not_run(f"HUB TESTS NOT RUN: {reason}")
    # A short folder, as the image's /home/jovyan: a kernel's local socket lives under the student's home, and its
    # path must fit in 107 characters (config/jupyter_server_config.py); pytest's own temporary folders are too deep.
    directory = Path(tempfile.mkdtemp(prefix="hk-hub-"))
    host_port = free_port()
    (directory / "jupyterhub_config.py").write_text(hub_config(directory, installed_proxy(), host_port))
    port = free_port()
    log = directory / "hub.log"
    config = directory / "jupyterhub_config.py"
    command = [str(BIN / "jupyterhub"), "-f", str(config), "--ip=127.0.0.1", f"--port={port}"]
    environment = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    with log.open("wb") as sink:
        process = subprocess.Popen(command, cwd=directory, env=environment, stdout=sink, stderr=subprocess.STDOUT)
    table_host = f"http://127.0.0.1:{host_port}/services/{SERVICE}"
    tables = Path(readme_tables_file().replace(HUB_VOLUME, str(directory)))
    server = Hub(f"http://127.0.0.1:{port}", process, log, table_host, tables)
    service: list[psutil.Process] = []
    try:
        wait_until_answers(server, "/hub/api")
        wait_until_answers(Server(server.table_host, process, log), "/health")  # the hub started its service
        service = [child for child in psutil.Process(process.pid).children() if "tablehost" in child.cmdline()]
        yield server
    finally:
        stop(process)  # the hub stops its service as it stops; a killed hub would leave it running
        for left in service:
            if left.is_running():
                left.kill()
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


def sombrero_table(tab: Page, hub: Hub, name: str, query: str = "") -> Locator:
    """``name``'s Sombrero page (``query``: its link's), once its play table's board is drawn."""
    from playwright.sync_api import expect

    page_url = readme_helm_values()["singleuser"]["defaultUrl"].replace("index.ipynb", "sombrero.ipynb")
    tab.goto(f"{hub.url}/user/{name}{page_url}{query}")
    table = tab.locator(PLAY_TABLE)
    expect(table.locator("button.hk-sq")).to_have_count(64)
    return table


def step(mover: Locator, side: str, watcher: Locator, ply: int) -> None:
    """The student at ``mover`` picks up her first hatted piece (of ``side``) and steps it to the first square it
    lights up, by clicks: move ``ply`` shows on her table, then on her classmate's, the same board on both."""
    from playwright.sync_api import expect

    from tests.browser.student import SHOWN_MOVE

    expect(mover.locator(".hk-status")).to_contain_text("(you) to move")
    mover.locator(f'button.hk-sq[title*=": {side}, hatted"]').first.click()
    target = mover.locator(TARGETS).first
    expect(target).to_be_visible()  # picked up on the page, from the moves the seat was sent
    target.click()
    wait_until_evaluates(mover, SHOWN_MOVE, ply)  # the host played it
    told = mover.locator(".hk-movelist > li").nth(ply - 1).inner_text()
    expect(watcher.locator(".hk-movelist > li").nth(ply - 1)).to_have_text(told)
    wait_until_evaluates(watcher, SHOWN_MOVE, ply)
    wait_until_evaluates(watcher, BOARD, mover.evaluate(BOARD))


def expect_seated(table: Locator, side: str, classmate: str) -> None:
    """The page's table is the student's seat at the host: the fold gone, their own side marked "you", the other's
    their classmate's."""
    from playwright.sync_api import expect

    expect(table.locator(".hk-classmates")).to_be_hidden()
    expect(table.locator(".hk-seatpanel:has(.hk-badge.hk-you) .hk-seatname")).to_have_text(side)
    expect(table.locator(".hk-badge", has_text="classmate")).to_have_text(f"classmate {classmate}")


def answer_status(url: str, token: str | None = None) -> int:
    """The HTTP status a request to ``url`` gets, with ``token`` as a hub token or none."""
    headers = {} if token is None else {"Authorization": f"token {token}"}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=30) as answer:
            return answer.status
    except HTTPError as error:
        return error.code


def check_kernels_reach_the_host(hub: Hub, name: str) -> None:
    """Each of the student's kernels has the README's TABLETOP_URL (here, the service's loopback address) and the
    hub token of its server, which the hub says is the student's and may use the table host's service."""
    kernels = kernels_of(hub, name)
    assert kernels, f"{name} runs no kernel"
    for kernel in kernels:
        environment = kernel.environ()
        assert environment.get("TABLETOP_URL") == hub.table_host.replace("http://", "ws://", 1) + "/ws"
        assert environment.get("JUPYTERHUB_USER") == name
        token = environment["JUPYTERHUB_API_TOKEN"]
        request = urllib.request.Request(f"{hub.url}/hub/api/user", headers={"Authorization": f"token {token}"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            model = json.load(answer)
        assert model["name"] == name
        assert f"access:services!service={SERVICE}" in model["scopes"], f"{name}'s token: {sorted(model['scopes'])}"


def token_without_the_service(student: Student, hub: Hub) -> str:
    """A new hub token of the student's own (the hub's token API, as the logged-in browser may ask it) that may
    read their name but not use the table host's service."""
    xsrf = next(cookie["value"] for cookie in student.context.cookies(f"{hub.url}/hub/") if cookie["name"] == "_xsrf")
    scopes = [f"read:users:name!user={student.name}"]
    answer = student.context.request.post(
        f"{hub.url}/hub/api/users/{student.name}/tokens", data={"scopes": scopes}, headers={"X-XSRFToken": xsrf}
    )
    assert answer.ok, f"the hub gave no token: {answer.status} {answer.text()}"
    return answer.json()["token"]


def stored(hub: Hub, code: str) -> tuple[list[tuple[int, str]], int]:
    """The seats of table ``code`` in the host's file on the hub's volume (seat, hub user), and its moves."""
    with contextlib.closing(sqlite3.connect(f"file:{hub.tables}?mode=ro", uri=True)) as db:
        seats = db.execute("SELECT seat, user FROM seats WHERE code = ? ORDER BY seat", (code,)).fetchall()
        (moves,) = db.execute("SELECT count(*) FROM moves WHERE code = ?", (code,)).fetchone()
    return seats, moves


@dataclass
class Seated:
    """Two students' browsers, each with the Sombrero page's table seated at one table of the hub's table host."""

    students: tuple[Student, ...]
    tabs: tuple[Page, ...]
    tables: list[Locator]  # ana's (White), ben's (Black)
    code: str

    def close(self, hub: Hub) -> None:
        """Check that no page asked a server but the hub (the kernels reach the table host, not the browsers), and
        close the browsers."""
        hub_origin = urlsplit(hub.url).netloc
        for student in self.students:
            elsewhere = sorted({url for url in student.asked if urlsplit(url).netloc not in ("", hub_origin)})
            student.context.close()
            assert not elsewhere and not student.blocked, f"{student.name}'s pages asked other servers: {elsewhere}"


def seat_two_students(browser: Browser, hub: Hub) -> Seated:
    """Ana and Ben log in; Ana opens a table in "Play with classmates…" on her Sombrero page (her name is her hub
    user name already), Ben opens the table's link (the fold open with the code, his name his hub user name) and
    joins, Ana sees him connected and starts: each page's table is then its student's seat."""
    from playwright.sync_api import expect

    default_url = readme_helm_values()["singleuser"]["defaultUrl"]
    students, tabs = zip(*(logged_in(browser, hub, name) for name in STUDENTS), strict=True)
    for student, tab in zip(students, tabs, strict=True):
        expect(tab).to_have_url(f"{hub.url}/user/{student.name}{default_url}", timeout=SPAWN_MS)
    ana = sombrero_table(tabs[0], hub, "ana")
    fold = ana.locator(".hk-classmates")
    fold.locator("summary").click()
    expect(fold.get_by_label("your name")).to_have_value("ana")
    fold.get_by_role("button", name="open a table").click()
    lobby = fold.locator(".hk-lobby")
    expect(lobby).to_contain_text(re.compile(r"Table [A-Z]{5}\."))
    code = re.search(r"Table ([A-Z]{5})\.", lobby.inner_text())[1]  # type: ignore[index]

    ben = sombrero_table(tabs[1], hub, "ben", f"?table={code}")
    ben_fold = ben.locator(".hk-classmates")
    expect(ben_fold).to_have_attribute("open", "")
    expect(ben_fold.get_by_label("table code")).to_have_value(code)
    expect(ben_fold.get_by_label("your name")).to_have_value("ben")
    ben_fold.get_by_role("button", name="join").click()
    expect(ben_fold.locator(".hk-lobby")).to_contain_text("Waiting for ana to press Start.")
    expect(lobby).to_contain_text("ben, connected")
    start = fold.get_by_role("button", name="Start")
    expect(start).to_be_enabled()
    start.click()
    expect_seated(ana, "White", "ben")
    expect_seated(ben, "Black", "ana")
    return Seated(students, tabs, [ana, ben], code)


def test_two_hub_users_play_one_sombrero_game_from_their_own_browsers(browser: Browser, hub: Hub) -> None:
    assert answer_status(f"{hub.table_host}/ws") == 401, "the table host let in a connection without a hub token"
    assert answer_status(f"{hub.table_host}/ws", "not-a-token-of-the-hub") == 403
    shared = seat_two_students(browser, hub)
    ana, ben = shared.tables
    for name in STUDENTS:
        check_kernels_reach_the_host(hub, name)
    narrow = token_without_the_service(shared.students[0], hub)  # ana's, but without access:services!service=…
    assert answer_status(f"{hub.table_host}/ws", narrow) == 403, "the host let in a token without the service's scope"
    for ply, (mover, side, watcher) in enumerate([(ana, "White", ben)] * 2 + [(ben, "Black", ana)] * 2, start=1):
        step(mover, side, watcher, ply)  # two actions a turn
    assert stored(hub, shared.code) == ([(0, "ana"), (1, "ben")], 4), "not the hub users' seats, on the hub's volume"
    shared.close(hub)


def test_a_hub_users_reloaded_page_comes_back_to_the_seat_with_no_seat_token(browser: Browser, hub: Hub) -> None:
    from playwright.sync_api import expect

    from tests.browser.student import SHOWN_MOVE

    shared = seat_two_students(browser, hub)
    try:
        ana, ben = shared.tables
        for ply in (1, 2):
            step(ana, "White", ben, ply)
        shared.tabs[1].reload()  # the same link, ?table=CODE; the hub user holds the seat
        ben = shared.tabs[1].locator(PLAY_TABLE)
        expect(ben.locator("button.hk-sq")).to_have_count(64)
        expect(ben.locator(".hk-classmates")).to_be_hidden(timeout=RETURN_MS)
        expect_seated(ben, "Black", "ana")
        wait_until_evaluates(ben, SHOWN_MOVE, 2)
        wait_until_evaluates(ben, BOARD, ana.evaluate(BOARD))
        step(ben, "Black", ana, 3)
    finally:
        shared.close(hub)


def readme_teachers() -> list[str]:
    """The hub users the README's values put in the teachers' group (``hub.config`` ``JupyterHub.load_groups``),
    the group the table host counts teachers by (tablehost/auth.py)."""
    groups = readme_helm_values()["hub"]["config"].get("JupyterHub", {}).get("load_groups", {})
    assert TEACHERS_GROUP in groups, f"README's hub values make no {TEACHERS_GROUP!r} group (hub.config)"
    return list(groups[TEACHERS_GROUP]["users"])


def test_a_hub_teacher_follows_a_students_lesson_on_the_class_list_and_a_student_is_refused_it(
    browser: Browser, hub: Hub
) -> None:
    """The class list on a hub, with the teachers' group the README's values make (``hub.config``).

    The README's teacher logs in (her server starts while the students' pages open) and opens the index with
    ``?teacher=yes``: the table host asks the hub whose token her kernel holds, finds her in the ``teachers``
    group, and lists the class. Ben, a student, opens Hats and does the first step of its first lesson: his row
    (under his hub user, with no name typed) shows where he is now, live, on her list. Ana, a student too, opens
    the same link and is refused with the page's sentence, and no row of the class shows on her page. The check
    of the group is the host's (tablehost/auth.py), made here against a real hub's user model rather than a fake.
    """
    from playwright.sync_api import expect

    from tests.browser.test_lessons_in_browser import FIRST_CLICK, LESSON_TABLE, follow_one_step
    from widgets.teaching.class_report import SENT
    from widgets.teaching.classlist import REFUSED

    (teacher_name,) = readme_teachers()
    assert teacher_name not in STUDENTS
    default_url = readme_helm_values()["singleuser"]["defaultUrl"]

    def index(name: str) -> str:
        return f"{hub.url}/user/{name}{default_url}"

    teacher, teacher_tab = logged_in(browser, hub, teacher_name)  # the hub spawns her server meanwhile
    students, tabs = zip(*(logged_in(browser, hub, name) for name in STUDENTS), strict=True)
    for student, tab in zip(students, tabs, strict=True):
        expect(tab).to_have_url(index(student.name), timeout=SPAWN_MS)
    ana_tab, ben_tab = tabs
    ana_tab.goto(f"{index('ana')}?teacher=yes", wait_until="commit")  # the three pages load side by side
    ben_tab.goto(index("ben").replace("index.ipynb", "hats.ipynb"), wait_until="commit")
    expect(teacher_tab).to_have_url(index(teacher_name), timeout=SPAWN_MS)
    teacher_tab.goto(f"{index(teacher_name)}?teacher=yes", wait_until="commit")

    refused = ana_tab.locator(".hk-classlist")
    why = f"'ana' is not a teacher on this hub: a hub admin or a member of the {TEACHERS_GROUP!r} group leads the class"
    expect(refused.locator(".hk-class-note")).to_have_text(REFUSED.format(why=why))
    expect(refused.locator("tr[data-hk-student]")).to_have_count(0)
    expect(refused.get_by_role("button", name="clear the class…")).to_be_hidden()

    listed = teacher_tab.locator(".hk-classlist")
    expect(listed.get_by_role("heading", name="Your class")).to_be_visible()
    expect(listed.get_by_role("button", name="clear the class…")).to_be_visible()  # the host counts her a teacher
    lessons = ben_tab.locator(LESSON_TABLE)
    expect(lessons.get_by_text(SENT.format(name="ben"))).to_be_visible()  # his hub user is his name in the class
    ben_row = listed.locator('tr[data-hk-student="ben"]')
    expect(ben_row).to_contain_text("hats, lesson first-game step 1")
    follow_one_step(lessons, FIRST_CLICK["hats"])
    expect(ben_row).to_contain_text("hats, lesson first-game step 2")  # pushed to her open list
    expect(ben_row.locator('td[data-hk-lesson="hats/first-game"]')).to_have_text("")  # no star yet
    expect(refused.locator("tr[data-hk-student]")).to_have_count(0)

    hub_origin = urlsplit(hub.url).netloc
    for person in (teacher, *students):
        elsewhere = sorted({url for url in person.asked if urlsplit(url).netloc not in ("", hub_origin)})
        person.context.close()
        assert not elsewhere and not person.blocked, f"{person.name}'s pages asked other servers: {elsewhere}"
