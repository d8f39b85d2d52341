"""Build the course as a static site: voici apps and a JupyterLite lab, with Python running in the browser.

    .venv-site/bin/python lite/build.py [--output site]      (what `make site` runs)
    .venv-site/bin/python lite/build.py --output build/site-bench --floor-page    (benchmarks/site.py)

Everything a page loads ends up inside the output folder, so the site works on
a network with no internet; building it needs PyPI and npm and nothing else:

- Pyodide, from its npm package (``npm pack pyodide@VERSION``), at the version
  the installed ``jupyterlite-pyodide-kernel`` was made for;
- every wheel the kernel and the notebooks import: the kernel's own wheels
  (piplite, pyodide-kernel and its ipykernel and widgetsnbextension stand-ins,
  shipped inside the kernel's lab extension), wheels from PyPI at the versions
  Pyodide's own lock file names (ipython, jedi, micropip, ...) or else the
  newest that fits, and hatskit itself, built from this checkout;
- Font Awesome (npm), which Voilà's page template would otherwise load from a CDN;
- with Node.js, Pyodide compiles the bytecode of every module a page's kernel imports as it
  starts, into the wheels and Pyodide's standard library (compile_bytecode), so the browser
  does not compile them again on every visit.

How the kernel finds the wheels: Pyodide's npm package carries a
``pyodide-lock.json`` that names Pyodide's packages but ships none of their
files (they live on a CDN). This script writes a new lock file beside
``pyodide.js`` that lists only the wheels it put there, with their
dependencies, and the site's ``jupyter-lite.json`` tells the kernel to load all
of them as it starts (``loadPyodideOptions.packages``) and never to fall back
to PyPI. docs/static-site.md says why this route and not the others.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import re
import runpy
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from dataclasses import dataclass
from email.message import Message
from email.parser import Parser
from pathlib import Path

from jupyterlite_pyodide_kernel import constants as kernel_constants
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name, parse_wheel_filename
from packaging.version import InvalidVersion, Version

REPO = Path(__file__).resolve().parents[1]
LITE_DIR = REPO / "build" / "lite"  # JupyterLite's "lite dir": settings and static/pyodide, made afresh each build
CACHE = REPO / "build" / "lite-cache"  # npm tarballs, kept between builds
PYODIDE_DIR = LITE_DIR / "static" / "pyodide"  # the kernel's build step copies a Pyodide found here into the site
PYODIDE_FILES = ("pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "package.json")
KERNEL_PLUGIN = kernel_constants.PYODIDE_KERNEL_PLUGIN_ID

# What the kernel's worker installs by name before it runs a cell unless they are preloaded (these exact
# spellings), with micropip and piplite, which it needs to install anything at all.
KERNEL_PACKAGES = ("micropip", "piplite", "sqlite3", "ipykernel", "comm", "pyodide_kernel", "jedi", "ipython")
KERNEL_OWN = {"piplite", "pyodide-kernel", "ipykernel", "widgetsnbextension"}  # shipped in the kernel's extension
# Of those, the stand-ins for packages that ipywidgets requires, which pip must see when it resolves.
STAND_INS = ("ipykernel-", "widgetsnbextension-")
# hatskit's requirements that are for the server only: Voilà and JupyterLab serve `make app`, and in the
# browser the kernel brings its own ipykernel stand-in.
SERVER_ONLY = frozenset({"voila", "jupyterlab", "ipykernel"})
# Lab extensions the site turns off: Voilà's preview button needs a Voilà server, which a static site has not.
DISABLED_EXTENSIONS = ["@voila-dashboards/jupyterlab-preview"]
# Style sheets Voilà's and voici's page templates link from a CDN, and the local copy each link is pointed to.
FONT_AWESOME = "static/fontawesome"
CDN_STYLESHEETS = {
    "https://cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free@^5/css/all.min.css": "css/all.min.css",
    "https://cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free@^5/css/v4-shims.min.css": "css/v4-shims.min.css",
    "https://cdn.jsdelivr.net/npm/font-awesome@4.5.0/css/font-awesome.min.css": "css/all.min.css",
}
# benchmarks/site.py's yardstick: a page that starts Python and shows one button, built with the same tools
# (--floor-page), so a game page's time can be told as a multiple of what Pyodide itself costs.
FLOOR_NOTEBOOK = "floor.ipynb"
FLOOR_CODE = 'import ipywidgets\nipywidgets.Button(description="press")'
# A link from one notebook to another, in a page written from saved outputs: the site's pages end in .html.
NOTEBOOK_LINK = re.compile(r'href="(?![a-z][a-z0-9+.-]*:|/|#)([^"#?]*?)\.ipynb(?=["#?])')
LOADED_FROM_OUTSIDE = re.compile(r'<(?:link|script|img)\b[^>]*\b(?:href|src)="(https?://[^"]+)"')


@dataclass(frozen=True)
class Browser:
    """The Python that runs in the browser: its version, and the package versions its Pyodide was released with."""

    python: str  # "3.13.2"
    pins: tuple[str, ...]  # "ipython==9.0.2", ...

    @classmethod
    def from_lock(cls, lock: dict) -> Browser:
        """Read both from Pyodide's own lock file."""
        pins = []
        for name, package in lock["packages"].items():
            try:
                pins.append(f"{name}=={Version(package['version'])}")
            except InvalidVersion:
                continue
        return cls(lock["info"]["python"], tuple(pins))

    @property
    def python_version(self) -> str:
        return ".".join(self.python.split(".")[:2])

    def applies(self, requirement: Requirement) -> bool:
        """True when a requirement holds in this Python (no extras asked for)."""
        markers = {
            "sys_platform": "emscripten",
            "platform_system": "Emscripten",
            "platform_machine": "wasm32",
            "os_name": "posix",
            "implementation_name": "cpython",
            "platform_python_implementation": "CPython",
            "python_version": self.python_version,
            "python_full_version": self.python,
            "extra": "",
        }
        return requirement.marker is None or requirement.marker.evaluate(markers)


@dataclass(frozen=True)
class Wheel:
    """A wheel bound for the browser: its file, and what the lock file says about it."""

    path: Path
    name: str  # canonical: "pyodide-kernel"
    version: str
    depends: tuple[str, ...]  # canonical names, for the browser
    imports: tuple[str, ...]  # its top-level modules

    def lock_entry(self) -> dict[str, object]:
        """This wheel as a package of ``pyodide-lock.json``."""
        return {
            "name": self.name,
            "version": self.version,
            "file_name": self.path.name,
            "install_dir": "site",
            "sha256": hashlib.sha256(self.path.read_bytes()).hexdigest(),
            "package_type": "package",
            "imports": list(self.imports),
            "depends": list(self.depends),
            "unvendored_tests": False,
            "shared_library": False,
        }


def run(command: list[str], cwd: Path = REPO, env: dict[str, str] | None = None) -> None:
    """Run a build step, showing it; a failing step stops the build with its own message."""
    print("+", " ".join(command), flush=True)
    subprocess.run(command, cwd=cwd, check=True, env=env)


def page_functions() -> dict:
    """config/voila.py's functions, which decide for `make app` which pages need a kernel and how the rest look.

    Read as a module (it is a settings file, so it gets a settings object to fill).
    """
    from traitlets.config import Config

    return runpy.run_path(str(REPO / "config" / "voila.py"), init_globals={"get_config": Config})


def npm_tarball(spec: str, stem: str) -> Path:
    """``npm pack`` a package into the cache once (``stem``: the start of its tarball's name); later builds reuse it."""
    found = sorted(CACHE.glob(f"{stem}*.tgz"))
    if not found:
        CACHE.mkdir(parents=True, exist_ok=True)
        run(["npm", "pack", spec, "--silent", "--pack-destination", str(CACHE)])
        found = sorted(CACHE.glob(f"{stem}*.tgz"))
    return found[-1]


# -- Pyodide and its lock file ----------------------------------------------------------------------------


def pyodide_from_npm(version: str) -> dict:
    """Unpack Pyodide's npm package into the lite dir; return its own lock file (for the pins and the header)."""
    tarball = npm_tarball(f"pyodide@{version}", f"pyodide-{version}")
    PYODIDE_DIR.mkdir(parents=True)
    with tarfile.open(tarball) as archive:
        for name in PYODIDE_FILES:
            (PYODIDE_DIR / name).write_bytes(archive.extractfile(f"package/{name}").read())
        return json.load(archive.extractfile("package/pyodide-lock.json"))


def write_lock(pyodide_lock: dict, wheels: dict[str, Wheel]) -> None:
    """Copy the wheels beside pyodide.js and list them, and only them, in its lock file."""
    for wheel in wheels.values():
        shutil.copy2(wheel.path, PYODIDE_DIR / wheel.path.name)
    lock = {"info": pyodide_lock["info"], "packages": {name: wheel.lock_entry() for name, wheel in wheels.items()}}
    (PYODIDE_DIR / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, ensure_ascii=False) + "\n")


# -- wheels ---------------------------------------------------------------------------------------------------


def gather_wheels(into: Path, browser: Browser) -> dict[str, Wheel]:
    """Every wheel the browser may load, described by canonical name: hatskit's, the kernel's and PyPI's."""
    own = hatskit_wheel(into)
    kernel = kernel_wheels()
    for wheel in kernel:
        shutil.copy2(wheel, into)
    stand_ins = [wheel for wheel in kernel if wheel.name.startswith(STAND_INS)]
    wanted = [name for name in KERNEL_PACKAGES if canonicalize_name(name) not in KERNEL_OWN | {"sqlite3"}]
    download(browser_requirements(own, browser) + wanted, stand_ins, browser, into)
    check_python([path for path in into.glob("*.whl") if path.name not in {wheel.name for wheel in kernel}], browser)
    placeholder_sqlite3(into)
    described = [describe(path, browser, SERVER_ONLY if path == own else frozenset()) for path in into.glob("*.whl")]
    return {wheel.name: wheel for wheel in described}


def hatskit_wheel(into: Path) -> Path:
    """Build hatskit (its packages hatskit and widgets) from this checkout, named after its contents.

    The wheel's build tag carries its digest, so a rebuilt site never shares a
    file name with the last one: a browser that cached the old wheel would
    otherwise fetch it against the new lock file's digest, and Pyodide refuses
    a file whose digest does not match.
    """
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(into), str(REPO)])
    built = next(into.glob("hatskit-*.whl"))
    name, version, _, _ = parse_wheel_filename(built.name)
    digest = hashlib.sha256(built.read_bytes()).hexdigest()[:12]
    return built.rename(into / f"{name}-{version}-0x{digest}-py3-none-any.whl")


def kernel_wheels() -> list[Path]:
    """The wheels the Pyodide kernel ships in its lab extension (of widgetsnbextension: ipywidgets 8's)."""
    extension = Path(sys.prefix, "share", "jupyter", "labextensions", kernel_constants.PYODIDE_KERNEL_NPM_NAME)
    wheels = sorted((extension / "static" / "pypi").glob("*.whl"))
    return [wheel for wheel in wheels if not wheel.name.startswith("widgetsnbextension-3.")]


def browser_requirements(wheel: Path, browser: Browser) -> list[str]:
    """A wheel's requirements that apply in the browser, the server-only ones left out."""
    requirements = [Requirement(text) for text in metadata(wheel).get_all("Requires-Dist") or []]
    return [str(r) for r in requirements if canonicalize_name(r.name) not in SERVER_ONLY and browser.applies(r)]


def download(requirements: list[str], local: list[Path], browser: Browser, into: Path) -> None:
    """Fetch pure-Python wheels for the browser's Python from PyPI; ``local`` wheels take part in the resolution."""
    constraints = into / "constraints.txt"
    constraints.write_text("\n".join(browser.pins) + "\n")
    target = ["--python-version", browser.python_version, "--only-binary=:all:"]
    pure = ["--platform", "any", "--implementation", "py", "--abi", "none"]
    # The kernel 0.7.0's own wheels claim Python 3.11 only (they run on Pyodide's 3.13), so pip is told to
    # ignore Requires-Python, and check_python then checks it for every other wheel.
    pip = [sys.executable, "-m", "pip", "download", "--quiet", "--ignore-requires-python", "--dest", str(into)]
    run([*pip, *target, *pure, "-c", str(constraints), *requirements, *map(str, local)])


def check_python(wheels: list[Path], browser: Browser) -> None:
    """Stop the build if a wheel says it does not run on the browser's Python."""
    wrong = []
    for wheel in wheels:
        needs = metadata(wheel).get("Requires-Python")
        if needs and Version(browser.python) not in SpecifierSet(needs):
            wrong.append(f"{wheel.name} needs Python {needs}")
    if wrong:
        raise SystemExit(f"lite/build.py: wheels that do not run on Pyodide's Python {browser.python}: {wrong}")


def placeholder_sqlite3(into: Path) -> Path:
    """An empty ``sqlite3`` package, since Pyodide's real one (compiled) is not in its npm package.

    The kernel asks for sqlite3 by name, for IPython's history database; the
    kernel turns that history off and IPython runs without the module. An empty
    package answers the request without leaving the site.
    """
    dist_info = "sqlite3-1.0.0.dist-info"
    files = {
        f"{dist_info}/METADATA": "Metadata-Version: 2.1\nName: sqlite3\nVersion: 1.0.0\nSummary: "
        "placeholder: Pyodide's compiled sqlite3 is not in its npm package, and IPython keeps no history here\n",
        f"{dist_info}/WHEEL": "Wheel-Version: 1.0\nGenerator: hatskit lite/build.py\nRoot-Is-Purelib: true\n"
        "Tag: py3-none-any\n",
    }
    rows = [f"{path},sha256={record_digest(text.encode())},{len(text.encode())}" for path, text in files.items()]
    files[f"{dist_info}/RECORD"] = "\n".join([*rows, f"{dist_info}/RECORD,,"]) + "\n"
    wheel = into / "sqlite3-1.0.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in files.items():
            archive.writestr(zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0)), text)
    return wheel


def record_digest(data: bytes) -> str:
    """A file's digest as a wheel's RECORD writes it."""
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def metadata(wheel: Path) -> Message:
    """A wheel's METADATA, parsed."""
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA") and n.count("/") == 1)
        return Parser().parsestr(archive.read(name).decode())


def describe(path: Path, browser: Browser, leave_out: frozenset[str] = frozenset()) -> Wheel:
    """What the lock file needs to know about one wheel; ``leave_out``: requirements it does without here."""
    name, version, _, _ = parse_wheel_filename(path.name)
    requirements = [Requirement(text) for text in metadata(path).get_all("Requires-Dist") or []]
    depends = sorted({canonicalize_name(r.name) for r in requirements if browser.applies(r)} - leave_out)
    with zipfile.ZipFile(path) as archive:
        tops = {entry.split("/")[0].removesuffix(".py") for entry in archive.namelist()}
    imports = sorted(top for top in tops if top.isidentifier())
    return Wheel(path, canonicalize_name(name), str(version), tuple(depends), tuple(imports))


def needed(wheels: dict[str, Wheel], roots: list[str]) -> dict[str, Wheel]:
    """The wheels reachable from ``roots`` through their browser dependencies; a missing one stops the build."""
    kept: dict[str, Wheel] = {}
    todo = [canonicalize_name(root) for root in roots]
    while todo:
        name = todo.pop()
        if name in kept:
            continue
        if name not in wheels:
            raise SystemExit(f"lite/build.py: no wheel for {name!r}, which the browser needs")
        kept[name] = wheels[name]
        todo.extend(wheels[name].depends)
    return dict(sorted(kept.items()))


# -- bytecode ---------------------------------------------------------------------------------------------------

# Run by Node.js in Pyodide itself (so the bytecode is for the browser's Python, whatever Python runs the build).
# Neither the wheels nor Pyodide's standard library ship bytecode, so without this the browser compiles every module
# it imports on every visit, a large part of the kernel's start (benchmarks/README.md, issue 31, has the figures).
# This imports what a page's kernel imports at its start (the kernel, the widgets, hatskit and all its modules)
# and adds the bytecode of exactly those modules: hash-based .pyc files, used as they are without a look at the
# source, which stays beside them (tracebacks, the lab). Bytecode for modules no page imports at its start (most
# of pygments' lexers, jedi for the lab's completion, the packages' tests) would only make the download bigger.
COMPILE_JS = """
const [pyodideDir, wheelDir, ...wheels] = process.argv.slice(2);
const { loadPyodide } = await import(pyodideDir + "/pyodide.mjs");
const py = await loadPyodide({ indexURL: pyodideDir + "/" });
py.FS.mkdirTree("/host/pyodide"); py.FS.mkdirTree("/host/wheels");
py.FS.mount(py.FS.filesystems.NODEFS, { root: pyodideDir }, "/host/pyodide");
py.FS.mount(py.FS.filesystems.NODEFS, { root: wheelDir }, "/host/wheels");
py.globals.set("wheels", py.toPy(wheels));
py.runPython(process.env.HATSKIT_COMPILE_PY);
"""
COMPILE_PY = """
import importlib, importlib.util, marshal, os, pkgutil, sys, sysconfig, zipfile

STARTUP = ["pyodide_kernel", "IPython", "ipykernel", "comm", "ipywidgets", "anywidget", "micropip", "piplite"]
purelib = sysconfig.get_paths()["purelib"]
stdlib = next(entry for entry in sys.path if entry.endswith(".zip"))
unpacked = "/tmp/site-packages"
for name in wheels:
    with zipfile.ZipFile(f"/host/wheels/{name}") as archive:
        archive.extractall(unpacked)
sys.path.insert(0, unpacked)
for module in STARTUP:
    try:
        importlib.import_module(module)
    except Exception as error:  # a module that needs the browser: what it imported before is still counted
        print(f"lite/build.py: bytecode: importing {module} stopped at {error!r}")
# Over tornado: never in the browser's Python.
ONLINE = {"widgets.table.shared", "widgets.table.seat_at_host", "widgets.table.seat_game"}
ONLINE |= {"widgets.table.walkthrough", "widgets.table.walk_lead", "widgets.table.walk_follow"}
for package in ("hatskit", "widgets"):
    walked = pkgutil.walk_packages(importlib.import_module(package).__path__, package + ".", onerror=print)
    for module in walked:
        if module.name not in ONLINE:
            importlib.import_module(module.name)
imported = {os.path.normpath(m.__file__) for m in list(sys.modules.values()) if getattr(m, "__file__", None)}


def bytecode(source, filename):
    code = compile(source, filename, "exec", dont_inherit=True)
    unchecked = (0b01).to_bytes(4, "little")  # hash-based, not checked against the source
    return importlib.util.MAGIC_NUMBER + unchecked + importlib.util.source_hash(source) + marshal.dumps(code)


# The zip file at path, rewritten with the bytecode of each wanted .py member; its last member stays last (RECORD).
def with_bytecode(path, wanted, filename, cached):
    with zipfile.ZipFile(path) as archive:
        members = [(info, archive.read(info)) for info in archive.infolist()]
    added = [
        (zipfile.ZipInfo(cached(info.filename), info.date_time), bytecode(data, filename(info.filename)))
        for info, data in members
        if info.filename.endswith(".py") and wanted(info.filename)
    ]
    with zipfile.ZipFile(path + ".part", "w") as archive:
        for info, data in [*members[:-1], *added, *members[-1:]]:
            archive.writestr(info, data, zipfile.ZIP_DEFLATED)
    os.replace(path + ".part", path)
    return len(added)


count = 0
for name in wheels:
    whole = name.startswith("hatskit-")
    count += with_bytecode(
        f"/host/wheels/{name}",
        lambda member, whole=whole: whole or os.path.join(unpacked, member) in imported,
        lambda member: f"{purelib}/{member}",
        importlib.util.cache_from_source,
    )
# The standard library is imported from its zip file, where a module's bytecode is <module>.pyc beside it.
count += with_bytecode(
    "/host/pyodide/python_stdlib.zip",
    lambda member: f"{stdlib}/{member}" in imported,
    lambda member: f"{stdlib}/{member}",
    lambda member: member + "c",
)
print(f"lite/build.py: bytecode for {count} modules")
"""


def compile_bytecode(wheels: dict[str, Wheel], pyodide_lock: dict) -> None:
    """Give the shipped wheels and Pyodide's standard library their bytecode, compiled by Pyodide (COMPILE_PY).

    Pyodide starts only with a lock file beside it: this writes one that names no package, which write_lock
    then replaces.
    """
    lock = {"info": pyodide_lock["info"], "packages": {}}
    (PYODIDE_DIR / "pyodide-lock.json").write_text(json.dumps(lock) + "\n")
    script = LITE_DIR / "compile.mjs"
    script.write_text(COMPILE_JS)
    paths = {wheel.path.parent for wheel in wheels.values()}
    assert len(paths) == 1, f"the wheels lie in more than one folder: {paths}"
    command = ["node", str(script), str(PYODIDE_DIR), str(paths.pop()), *(w.path.name for w in wheels.values())]
    print("+", " ".join(command[:4]), "...", flush=True)
    subprocess.run(command, check=True, env={**os.environ, "HATSKIT_COMPILE_PY": COMPILE_PY})


# -- the site --------------------------------------------------------------------------------------------------


def app_contents() -> Path:
    """notebooks/ as the apps show it: in each game notebook, the cells tagged show-saved-output are their outputs.

    As on `make app` (config/voila.py, with_saved_outputs), such a cell becomes a raw cell holding its saved
    outputs as drawn, which the page template writes as it is and voici never runs: Python in the browser runs
    only the cells that make the live table. The lab gets the notebooks as they are (restore_lab_notebooks).
    """
    import nbformat

    functions = page_functions()
    contents = LITE_DIR / "contents"
    shutil.copytree(REPO / "notebooks", contents, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    for path in contents.glob("*.ipynb"):
        notebook = nbformat.read(path, as_version=4)
        if functions["needs_kernel"](notebook):
            nbformat.write(functions["with_saved_outputs"](notebook), path)
    return contents


def restore_lab_notebooks(output: Path) -> None:
    """Put the notebooks as they are, with their code, where the lab opens them (files/ and its listing)."""
    listing_file = output / "api" / "contents" / "all.json"
    listing = json.loads(listing_file.read_text())
    for path in (REPO / "notebooks").glob("*.ipynb"):
        shutil.copy2(path, output / "files" / path.name)
        for entry in listing["content"]:
            if entry["path"] == path.name:
                entry["size"] = path.stat().st_size
    listing_file.write_text(json.dumps(listing, indent=2) + "\n")


def write_settings(preload: list[str]) -> None:
    """The lite dir's jupyter-lite.json (what the pages read) and jupyter_lite_config.json (what the build reads)."""
    kernel = {"disablePyPIFallback": True, "loadPyodideOptions": {"packages": preload}}
    config_data = {"disabledExtensions": DISABLED_EXTENSIONS, "litePluginSettings": {KERNEL_PLUGIN: kernel}}
    site = {"jupyter-lite-schema-version": 0, "jupyter-config-data": config_data}
    (LITE_DIR / "jupyter-lite.json").write_text(json.dumps(site, indent=1) + "\n")
    # the pages look as `make app`'s do, in its page template (share/jupyter/voila/templates/hatskit), which writes
    # the saved outputs of app_contents as they are and shows the page before Python has run it
    voila = {**json.loads((REPO / "config" / "voila.json").read_text())["VoilaConfiguration"], "template": "hatskit"}
    build = {"VoilaConfiguration": voila, "LiteBuildConfig": {"no_sourcemaps": True}}
    (LITE_DIR / "jupyter_lite_config.json").write_text(json.dumps(build, indent=1) + "\n")


def floor_contents() -> Path:
    """A folder holding the benchmark's one-button notebook."""
    import nbformat

    folder = LITE_DIR / "floor"
    folder.mkdir(parents=True)
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(FLOOR_CODE)])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    nbformat.write(notebook, folder / FLOOR_NOTEBOOK)
    return folder


def voici_build(output: Path, floor_page: bool = False) -> None:
    """Build the voici apps and the JupyterLite lab from every notebook in notebooks/ into ``output``."""
    voici = str(Path(sys.executable).parent / "voici")
    places = ["--lite-dir", str(LITE_DIR), "--output-dir", str(output), "--contents", str(app_contents())]
    if floor_page:
        places += ["--contents", str(floor_contents())]
    templates = os.pathsep.join(filter(None, [str(REPO / "share" / "jupyter"), os.environ.get("JUPYTER_PATH")]))
    environment = {**os.environ, "JUPYTER_PATH": templates}  # where voici finds the hatskit page template
    run([voici, "build", *places, "--apps", "lab", "--apps", "voici"], cwd=LITE_DIR, env=environment)
    restore_lab_notebooks(output)


def localize_stylesheets(output: Path) -> None:
    """Copy Font Awesome (npm) into the site and point the pages' CDN links at the copy."""
    tarball = npm_tarball("@fortawesome/fontawesome-free@5", "fortawesome-fontawesome-free-5")
    target = output / FONT_AWESOME
    with tarfile.open(tarball) as archive:
        for member in archive.getmembers():
            relative = member.name.removeprefix("package/")
            if member.isfile() and (relative.startswith("webfonts/") or relative in CDN_STYLESHEETS.values()):
                (target / relative).parent.mkdir(parents=True, exist_ok=True)
                (target / relative).write_bytes(archive.extractfile(member).read())
    for page in output.rglob("*.html"):
        text = page.read_text()
        for url, local in CDN_STYLESHEETS.items():
            text = text.replace(url, os.path.relpath(target / local, page.parent))
        page.write_text(text)


def write_text_pages(output: Path) -> list[str]:
    """Every notebook without a live widget, as plain HTML from its saved outputs: no Python in the browser.

    voici's page starts Python and runs the whole notebook before it shows anything, even for the index,
    whose outputs are text and pictures, and does so again on every visit. config/voila.py decides
    which pages need a kernel and writes the others as `make app` sends them; the same functions write
    them here, with their links to other notebooks pointing at those notebooks' pages.
    """
    import nbformat

    voila = page_functions()
    settings = json.loads((REPO / "config" / "voila.json").read_text())["VoilaConfiguration"]
    written = []
    for path in sorted((REPO / "notebooks").glob("*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        if voila["needs_kernel"](notebook):
            continue
        page = voila["text_page"](notebook, path.stem, settings["strip_sources"], settings["theme"])
        (output / "voici" / "render" / f"{path.stem}.html").write_text(NOTEBOOK_LINK.sub(r'href="\1.html', page))
        written.append(path.stem)
    return written


def write_landing_page(output: Path) -> None:
    """The site's front page opens the course's index as an app, with a link to the lab.

    JupyterLite's own front page redirects to the lab; its ``jupyter-config-data``
    element stays in the new page, because the lab's pages read it from there.
    """
    front = output / "index.html"
    config = re.search(r'<script id="jupyter-config-data".*?</script>', front.read_text(), re.DOTALL)
    if config is None:
        raise SystemExit(f"lite/build.py: {front} has no jupyter-config-data element any more")
    front.write_text(
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>hatskit</title>\n'
        '<meta http-equiv="refresh" content="0; url=voici/render/index.html">\n'
        f"{config.group(0)}\n</head>\n"
        '<body><p><a href="voici/render/index.html">Open the hat games</a> · '
        '<a href="lab/index.html">the notebooks with their code (JupyterLab in the browser)</a></p></body></html>\n'
    )


def check_offline(output: Path) -> None:
    """Stop the build if any page still loads a file from another site."""
    outside = []
    for page in output.rglob("*.html"):
        outside += [f"{page.relative_to(output)}: {url}" for url in LOADED_FROM_OUTSIDE.findall(page.read_text())]
    if outside:
        raise SystemExit("lite/build.py: these pages load files from outside the site:\n" + "\n".join(sorted(outside)))


def build(output: Path, floor_page: bool = False) -> None:
    """The whole build: a fresh lite dir, Pyodide, the wheels and their lock, voici, then the offline touches."""
    shutil.rmtree(LITE_DIR, ignore_errors=True)
    shutil.rmtree(output, ignore_errors=True)
    pyodide_lock = pyodide_from_npm(kernel_constants.PYODIDE_VERSION)
    browser = Browser.from_lock(pyodide_lock)
    wheels = gather_wheels(LITE_DIR / "wheels", browser)
    preload = [*KERNEL_PACKAGES, "hatskit"]
    shipped = needed(wheels, preload)
    compile_bytecode(shipped, pyodide_lock)
    write_lock(pyodide_lock, shipped)
    write_settings(preload)
    voici_build(output, floor_page)
    text_pages = write_text_pages(output)
    localize_stylesheets(output)
    write_landing_page(output)
    check_offline(output)
    print(f"lite/build.py: Pyodide {kernel_constants.PYODIDE_VERSION} and {len(shipped)} wheels: {', '.join(shipped)}")
    print(f"lite/build.py: pages without Python (plain HTML): {', '.join(text_pages)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=REPO / "site", help="the folder to build (replaced)")
    parser.add_argument("--floor-page", action="store_true", help="add the benchmark's one-button page")
    args = parser.parse_args()
    start = time.perf_counter()
    build(args.output.resolve(), args.floor_page)
    print(f"lite/build.py: built {args.output} in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
