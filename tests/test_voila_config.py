"""config/voila.py, the settings file Voilà reads as it starts: the cells shown as saved, the pages refused, and
the page template it names, which pip installs where Voilà finds templates (pyproject.toml's data-files)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import nbformat
import pytest
from nbconvert import HTMLExporter
from traitlets.config import Config

CONFIG_FILE = Path(__file__).resolve().parents[1] / "config" / "voila.py"


def run_settings_file() -> dict[str, Any]:
    """Run config/voila.py as Voilà does and return the names it defines."""
    namespace: dict[str, Any] = {"get_config": Config, "__file__": str(CONFIG_FILE)}
    exec(compile(CONFIG_FILE.read_text(encoding="utf-8"), str(CONFIG_FILE), "exec"), namespace)
    return namespace


@pytest.fixture
def voila_config() -> dict[str, Any]:
    return run_settings_file()


def code_cell(source: str, outputs: list[dict[str, Any]], tags: tuple[str, ...] = ("show-saved-output",)) -> Any:
    cell = nbformat.v4.new_code_cell(source, execution_count=1, outputs=[nbformat.from_dict(o) for o in outputs])
    cell.metadata["tags"] = list(tags)
    return cell


PICTURE = {"output_type": "execute_result", "execution_count": 1, "metadata": {}, "data": {"text/html": "<b>♥5</b>"}}
SCRIPTED = {**PICTURE, "data": {"text/html": "<b>♥5</b><SCRIPT>alert('x')</script>", "text/plain": "<HTML>"}}
PRINTED = {"output_type": "stream", "name": "stdout", "text": "Ana <wins> & Ben\n"}


def lab_drawing(cell: Any) -> str:
    """``cell``'s outputs as nbconvert's own lab template draws them, code and prompts left out."""
    exporter = HTMLExporter(template_name="lab", template_file="base.html.j2", exclude_input=True)
    exporter.exclude_input_prompt = exporter.exclude_output_prompt = True
    return exporter.from_notebook_node(nbformat.v4.new_notebook(cells=[cell]))[0].strip()


def test_a_tagged_cell_that_ran_is_shown_from_its_saved_outputs(voila_config: dict[str, Any]) -> None:
    notebook = nbformat.v4.new_notebook(cells=[code_cell("show()", [PICTURE, PRINTED])])
    (cell,) = voila_config["with_saved_outputs"](notebook).cells
    assert cell.cell_type == "raw" and cell.metadata == {"show-saved-output": True}
    assert cell.id == notebook.cells[0].id
    assert cell.source == lab_drawing(notebook.cells[0])  # as nbconvert draws it: no markup of this project's own
    assert f'id="cell-id={cell.id}"' in cell.source and "jp-mod-noInput" in cell.source
    assert "<pre>Ana &lt;wins&gt; &amp; Ben\n</pre>" in cell.source
    assert 'jp-OutputArea-executeResult" data-mime-type="text/html">\n<b>♥5</b>\n</div>' in cell.source
    assert "show()" not in cell.source and "vnd.voila.cell-output" not in cell.source
    assert notebook.cells[0].cell_type == "code"  # the notebook read from disk is left alone


def test_a_cell_whose_output_holds_a_script_still_runs(voila_config: dict[str, Any]) -> None:
    """Written into the page, its script would run before the page's own scripts have loaded."""
    notebook = nbformat.v4.new_notebook(cells=[code_cell("show()", [SCRIPTED]), code_cell("show()", [PICTURE])])
    assert [cell.cell_type for cell in voila_config["with_saved_outputs"](notebook).cells] == ["code", "raw"]


def test_a_cell_shown_again_is_drawn_once_for_the_server(voila_config: dict[str, Any]) -> None:
    notebook = nbformat.v4.new_notebook(cells=[code_cell("show()", [PICTURE, PRINTED])])
    first = voila_config["with_saved_outputs"](notebook).cells[0].source
    drawn = voila_config["_drawn"].cache_info()
    assert voila_config["with_saved_outputs"](notebook).cells[0].source == first
    assert voila_config["_drawn"].cache_info().hits == drawn.hits + 1
    notebook.cells[0].outputs[1].text = "Ben wins\n"  # an edited notebook is drawn anew
    assert "Ben wins" in voila_config["with_saved_outputs"](notebook).cells[0].source


def test_untagged_cells_and_tagged_cells_that_never_ran_still_run(voila_config: dict[str, Any]) -> None:
    never_ran = code_cell("x = 1", [])
    never_ran.execution_count = None
    cells = [code_cell("show()", [PICTURE], tags=()), never_ran]
    shown = voila_config["with_saved_outputs"](nbformat.v4.new_notebook(cells=cells))
    assert [cell.cell_type for cell in shown.cells] == ["code", "code"]


def test_a_markdown_cell_is_shown_as_nbconverts_lab_template_draws_it(voila_config: dict[str, Any]) -> None:
    """Drawn once for the server (not for every page), the same HTML as Voilà's own page would hold."""
    text = nbformat.v4.new_markdown_cell("# Hats\n\nSwap cards with the *tea table*.")
    notebook = nbformat.v4.new_notebook(cells=[text])
    (cell,) = voila_config["with_saved_outputs"](notebook).cells
    assert cell.cell_type == "raw" and cell.metadata == {"show-saved-output": True} and cell.id == text.id
    assert cell.source == lab_drawing(text)
    assert '<h1 id="Hats">Hats<a class="anchor-link" href="#Hats">' in cell.source
    assert "<p>Swap cards with the <em>tea table</em>.</p>" in cell.source and "jp-MarkdownCell" in cell.source
    assert notebook.cells[0].cell_type == "markdown"  # the notebook read from disk is left alone


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


def test_a_style_sheet_is_written_once_a_page(voila_config: dict[str, Any]) -> None:
    board, legend = "<style>.hk { color: red; }</style>", "<style>.legend { margin: 0; }</style>"
    pictures = [{**PICTURE, "data": {"text/html": f"{board}{more}<b>♥{n}</b>"}} for n, more in enumerate(("", legend))]
    cells = [code_cell("show()", [pictures[0]]), code_cell("show()", [pictures[1], pictures[0]])]
    first, second = voila_config["with_saved_outputs"](nbformat.v4.new_notebook(cells=cells)).cells
    assert f"{board}<b>♥0</b>" in first.source
    assert f'text/html">\n{legend}<b>♥1</b>' in second.source and 'text/html">\n<b>♥0</b>' in second.source
    assert board not in second.source
    assert cells[0].outputs[0].data["text/html"].startswith(board)  # the notebook read from disk is left alone


def test_voila_finds_the_page_template_on_the_jupyter_path_make_app_gives_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """`make app`, binder/start and the README's image put share/jupyter on JUPYTER_PATH (setuptools' editable
    installs leave pyproject.toml's data-files out); the template named there extends Voilà's lab page."""
    from jupyter_core.paths import jupyter_path

    assert run_settings_file()["c"].VoilaConfiguration.template == "hatskit"
    monkeypatch.setenv("JUPYTER_PATH", str(CONFIG_FILE.parents[1] / "share" / "jupyter"))
    found = Path(jupyter_path("voila", "templates", "hatskit")[0])
    assert json.loads((found / "conf.json").read_text()) == {"base_template": "lab"}
    assert (found / "index.html.j2").read_text().count("{%- extends 'lab/index.html.j2' -%}") == 1
