"""The oldest releases pyproject.toml allows still run the rules and the widgets: CI tests the floors.

`make test` (CI) runs the tests in the environment `make` builds, which pip fills with the newest releases the
ranges allow; a floor in pyproject.toml that nothing tests is a guess. The slow test builds a fresh virtual
environment in which each direct dependency is at its floor (.ci/oldest-constraints.txt), installs the project there
as a wheel would (`pip install -c ... <repo> pytest`, not editable, and nothing else of the test extra; pip compiles
nothing, the tests write the bytecode of what they import and the kernels they start read it), and runs the tests of
what stands on those libraries (every view, the notebooks as saved, Voilà's settings; the randomised ones at a fifth
of their size), printing the versions it tested. The rules and the game contract need no Jupyter library:
`make test` runs them once, with the rest. The installed copy of the page template (pyproject.toml's data-files) is
checked on the way.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

REPO = Path(__file__).resolve().parents[1]
CONSTRAINTS = REPO / ".ci" / "oldest-constraints.txt"
TEMPLATE = Path("share", "jupyter", "voila", "templates", "hatskit")
SHOWN = ("voila", "ipywidgets", "jupyterlab", "ipykernel", "anywidget", "jupyterlab-widgets", "jupyter-server")
SHOWN += ("nbconvert", "nbclient", "ipython", "jupyter-client", "tornado", "traitlets")


def constraints() -> dict[str, str]:
    """The exact versions .ci/oldest-constraints.txt pins, by canonical package name."""
    pins = {}
    for line in CONSTRAINTS.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, version = line.split("==")
            pins[canonicalize_name(name)] = version
    return pins


def test_the_constraints_pin_every_dependency_at_its_floor() -> None:
    dependencies = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    pins = constraints()
    for dependency in map(Requirement, dependencies):
        name = canonicalize_name(dependency.name)
        floors = [spec.version for spec in dependency.specifier if spec.operator == ">="]
        assert floors, f"{dependency} has no floor to test"
        assert name in pins, f".ci/oldest-constraints.txt does not pin {name}"
        assert Version(pins[name]) == Version(floors[0]), f"{name}=={pins[name]} pinned, pyproject's floor {floors[0]}"


def runner() -> list[str]:
    """The test extra's requirements these tests need beside the project: pytest alone (the browser, the hub, the
    linters and the property tests' tools stay out of the environment, and out of its install time)."""
    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    return [spec for spec in extras if canonicalize_name(Requirement(spec).name) == "pytest"]


@pytest.mark.slow
def test_the_rules_and_widgets_pass_on_the_oldest_releases_allowed(tmp_path: Path) -> None:
    started = time.monotonic()
    venv = tmp_path / "oldest-venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    pip = [python, "-m", "pip", "install", "--quiet", "--no-compile", "-c", str(CONSTRAINTS), str(REPO), *runner()]
    subprocess.run(pip, check=True, timeout=1200)
    installed = subprocess.run([python, "-m", "pip", "list", "--format=json"], capture_output=True, text=True)
    versions = {canonicalize_name(p["name"]): p["version"] for p in json.loads(installed.stdout)}
    tested = ", ".join(f"{name} {versions.get(name, 'absent')}" for name in SHOWN)
    print(f"oldest pins: {tested}; installed in {time.monotonic() - started:.0f} s")
    for name, version in constraints().items():
        assert versions.get(name) == version, f"{name}: {versions.get(name)} installed, the constraints say {version}"
    for name in ("conf.json", "index.html.j2"):  # the data-files a non-editable install copies into the environment
        assert (venv / TEMPLATE / name).read_text() == (REPO / TEMPLATE / name).read_text()
    # The tests come from this checkout, as does the code they import (pytest puts the repository first on
    # sys.path: pyproject.toml's pythonpath); every package they use is the fresh environment's.
    files = sorted(str(path.relative_to(REPO)) for path in (REPO / "tests").glob("test_widgets_*.py"))
    files += ["tests/test_voila_config.py", "tests/test_notebooks_saved.py"]
    tests = [python, "-m", "pytest", *files, "-m", "not slow and not site and not hub"]
    tests += ["-x", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"]
    environment = {**os.environ, "HATSKIT_TEST_SCALE": "0.2", "VIRTUAL_ENV": str(venv)}
    environment["PATH"] = f"{venv / 'bin'}{os.pathsep}{environment.get('PATH', '')}"
    environment.pop("PYTHONPATH", None)
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    run = subprocess.run(tests, cwd=REPO, env=environment, capture_output=True, text=True, timeout=2400)
    summary = run.stdout.strip().splitlines()[-1:] if run.stdout.strip() else []
    print(f"oldest pins: {' '.join(summary)}; {time.monotonic() - started:.0f} s in all")
    assert run.returncode == 0, (
        f"the tests failed on the oldest pins ({tested}):\n{run.stdout[-6000:]}{run.stderr[-3000:]}"
    )
