"""config/voila.py, the settings file Voilà reads as it starts: the bytecode it writes for the game pages."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from traitlets.config import Config

CONFIG_FILE = Path(__file__).resolve().parents[1] / "config" / "voila.py"


def run_settings_file(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Run config/voila.py as Voilà does and return the names it defines (the environment it extends is restored)."""
    monkeypatch.setenv("JUPYTER_PATH", os.environ.get("JUPYTER_PATH", ""))
    namespace: dict[str, Any] = {"get_config": Config, "__file__": str(CONFIG_FILE)}
    exec(compile(CONFIG_FILE.read_text(encoding="utf-8"), str(CONFIG_FILE), "exec"), namespace)
    return namespace


@pytest.fixture
def voila_config(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    return run_settings_file(monkeypatch)


def test_compile_page_modules_writes_missing_bytecode(
    voila_config: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "hk_probe_package"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "rules.py").write_text("ANSWER = 42\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    voila_config["compile_page_modules"](("hk_probe_package",))
    assert list((package / "__pycache__").glob("rules.*.pyc")), "no bytecode written for rules.py"


def test_compile_page_modules_passes_over_a_package_that_is_not_installed(voila_config: dict[str, Any]) -> None:
    voila_config["compile_page_modules"](("hk_no_such_package",))  # nothing to compile, nothing raised


def test_the_settings_file_writes_the_game_packages_bytecode(monkeypatch: pytest.MonkeyPatch) -> None:
    repository = CONFIG_FILE.parents[1]
    removed = [repository / "hatskit" / "puzzles.py", repository / "widgets" / "later.py"]
    for module in removed:
        for bytecode in (module.parent / "__pycache__").glob(f"{module.stem}.*.pyc"):
            bytecode.unlink()
    run_settings_file(monkeypatch)
    for module in removed:
        assert list((module.parent / "__pycache__").glob(f"{module.stem}.*.pyc")), f"no bytecode for {module.name}"
