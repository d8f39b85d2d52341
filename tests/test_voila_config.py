"""config/voila.py, the settings file Voilà reads as it starts: the bytecode it writes, the cells shown as saved,
the page templates compiled once."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import jinja2
import nbformat
import pytest
import tornado.web
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


def code_cell(source: str, outputs: list[dict[str, Any]], tags: tuple[str, ...] = ("show-saved-output",)) -> Any:
    cell = nbformat.v4.new_code_cell(source, execution_count=1, outputs=[nbformat.from_dict(o) for o in outputs])
    cell.metadata["tags"] = list(tags)
    return cell


PICTURE = {"output_type": "execute_result", "execution_count": 1, "metadata": {}, "data": {"text/html": "<b>♥5</b>"}}
SCRIPTED = {**PICTURE, "data": {"text/html": "<b>♥5</b><SCRIPT>alert('x')</script>", "text/plain": "<HTML>"}}
PRINTED = {"output_type": "stream", "name": "stdout", "text": "Ana <wins> & Ben\n"}


def test_a_tagged_cell_that_ran_is_shown_from_its_saved_outputs(voila_config: dict[str, Any]) -> None:
    notebook = nbformat.v4.new_notebook(cells=[code_cell("show()", [PICTURE, PRINTED])])
    (cell,) = voila_config["with_saved_outputs"](notebook).cells
    assert cell.cell_type == "raw" and cell.metadata == {"show-saved-output": True}
    assert "<pre>Ana &lt;wins&gt; &amp; Ben\n</pre>" in cell.source
    assert 'jp-OutputArea-executeResult"><div class="lm-Widget jp-RenderedHTMLCommon' in cell.source
    assert 'data-mime-type="text/html"><b>♥5</b></div>' in cell.source  # as JupyterLab's renderer leaves it
    assert "vnd.voila.cell-output" not in cell.source
    assert notebook.cells[0].cell_type == "code"  # the notebook read from disk is left alone


def test_an_output_with_a_script_is_left_for_the_page_to_draw(voila_config: dict[str, Any]) -> None:
    notebook = nbformat.v4.new_notebook(cells=[code_cell("show()", [SCRIPTED])])
    (cell,) = voila_config["with_saved_outputs"](notebook).cells
    script = re.search(r'<script type="application/vnd.voila.cell-output\+json">(.*?)</script>', cell.source, re.S)
    assert script and "</script>" not in script.group(1) and "<" not in script.group(1)
    assert json.loads(script.group(1)) == {**SCRIPTED, "trusted": True}


def test_untagged_cells_and_tagged_cells_that_never_ran_still_run(voila_config: dict[str, Any]) -> None:
    never_ran = code_cell("x = 1", [])
    never_ran.execution_count = None
    cells = [code_cell("show()", [PICTURE], tags=()), never_ran, nbformat.v4.new_markdown_cell("# Hats")]
    shown = voila_config["with_saved_outputs"](nbformat.v4.new_notebook(cells=cells))
    assert [cell.cell_type for cell in shown.cells] == ["code", "code", "markdown"]


def game_page() -> Any:
    live = code_cell("import widgets", [], tags=())
    live.execution_count = None  # a page that runs: it gets a kernel
    return nbformat.v4.new_notebook(cells=[live, code_cell("show()", [PICTURE])])


def voila_handler(progressive_rendering: bool = False) -> SimpleNamespace:
    settings = SimpleNamespace(progressive_rendering=progressive_rendering)
    return SimpleNamespace(xsrf_token=b"token", voila_configuration=settings)


def test_a_game_page_gets_the_notebook_with_its_saved_outputs(voila_config: dict[str, Any]) -> None:
    shown = voila_config["prelaunch_hook"](voila_handler(), game_page(), cwd=".")
    assert [cell.cell_type for cell in shown.cells] == ["code", "raw"]


def test_a_game_page_under_progressive_rendering_is_refused_with_a_sentence(voila_config: dict[str, Any]) -> None:
    """Its widgets wait for the page to connect (widgets/batch.py): run progressively, its tables would never show."""
    with pytest.raises(tornado.web.HTTPError, match="progressive_rendering off") as refused:
        voila_config["prelaunch_hook"](voila_handler(progressive_rendering=True), game_page(), cwd=".")
    assert refused.value.status_code == 500


def test_a_style_sheet_is_written_once_a_page(voila_config: dict[str, Any]) -> None:
    board, legend = "<style>.hk { color: red; }</style>", "<style>.legend { margin: 0; }</style>"
    pictures = [{**PICTURE, "data": {"text/html": f"{board}{more}<b>♥{n}</b>"}} for n, more in enumerate(("", legend))]
    cells = [code_cell("show()", [pictures[0]]), code_cell("show()", [pictures[1], pictures[0]])]
    first, second = voila_config["with_saved_outputs"](nbformat.v4.new_notebook(cells=cells)).cells
    assert f"{board}<b>♥0</b>" in first.source
    assert f'text/html">{legend}<b>♥1</b>' in second.source and 'text/html"><b>♥0</b>' in second.source
    assert cells[0].outputs[0].data["text/html"].startswith(board)  # the notebook read from disk is left alone


def counting_compiles(environment: jinja2.Environment, compiled: list[str]) -> jinja2.Environment:
    """``environment``, noting in ``compiled`` the name of every template it parses and compiles."""
    compile_source = environment.compile

    def compile_noted(source: str, name: str | None = None, *args: Any, **kwargs: Any) -> Any:
        compiled.append(name or "")
        return compile_source(source, name, *args, **kwargs)

    environment.compile = compile_noted  # type: ignore[method-assign]
    return environment


def test_voilas_page_templates_are_compiled_once_for_the_server(voila_config: dict[str, Any]) -> None:
    """Voilà makes a Jinja environment for every page; the second page's template comes compiled."""
    templates = {"page.j2": "{{ name }} has {{ 2 + 3 }} hats"}
    create = voila_config["compiling_once"](lambda exporter: jinja2.Environment(loader=jinja2.DictLoader(templates)))
    compiled: list[str] = []
    pages = [counting_compiles(create(None), compiled).get_template("page.j2").render(name="Ana") for _ in range(2)]
    assert pages == ["Ana has 5 hats"] * 2
    assert compiled == ["page.j2"]
    templates["page.j2"] = "{{ name }} has no hats"  # an edited template is compiled again
    assert counting_compiles(create(None), compiled).get_template("page.j2").render(name="Ben") == "Ben has no hats"
    assert compiled == ["page.j2", "page.j2"]


def test_the_settings_file_gives_voilas_exporter_the_compiled_templates(monkeypatch: pytest.MonkeyPatch) -> None:
    from voila.exporter import VoilaExporter

    run_settings_file(monkeypatch)
    create_environment = VoilaExporter._create_environment
    run_settings_file(monkeypatch)  # read again in the same process: Voilà's function is wrapped once
    assert VoilaExporter._create_environment is create_environment
    environment = VoilaExporter(template_name="lab").environment
    assert environment.bytecode_cache is create_environment.bytecode
