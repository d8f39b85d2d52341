"""Game pages show cells tagged show-saved-output from their saved outputs (config/voila.py, drawn by nbconvert's
lab template) instead of running them: none may be needed.

nbval (`make test`) runs every cell and checks that each tagged cell's saved
outputs are what its code gives now; here each game notebook runs as its page
does, the tagged cells left out: nothing fails, and every other cell whose
outputs nbval checks gives the same outputs as when the whole notebook runs.
"""

from __future__ import annotations

import json
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

from tests.conftest import GAME_NOTEBOOKS, NOTEBOOK_DIR

SAVED_TAG = "show-saved-output"


def checked_by_nbval(cell: Any) -> bool:
    return cell.cell_type == "code" and "NBVAL_IGNORE_OUTPUT" not in cell.source


def tagged(cell: Any) -> bool:
    return SAVED_TAG in cell.metadata.get("tags", [])


def comparable(outputs: list[Any]) -> list[tuple[str, str]]:
    """Each output's text: what nbval compares (the plain text, and HTML where there is some)."""
    return [
        (output.output_type, output.get("text") or output.get("data", {}).get("text/html") or str(output.get("data")))
        for output in outputs
    ]


@pytest.mark.parametrize("name", GAME_NOTEBOOKS)
def test_tagged_cells_have_run_and_are_checked_by_nbval(name: str) -> None:
    notebook = nbformat.read(NOTEBOOK_DIR / f"{name}.ipynb", as_version=4)
    cells = [cell for cell in notebook.cells if tagged(cell)]
    assert len(cells) >= 10, f"{name}: the page runs every cell again"
    assert all(checked_by_nbval(cell) and cell.execution_count is not None for cell in cells)
    # config/voila.py runs a tagged cell whose saved HTML holds a script (written into the page, the script would
    # run too early): none may hold one, since the next test leaves every tagged cell out
    assert not [cell.source for cell in cells if "<script" in json.dumps(cell.outputs).lower()]


@pytest.mark.parametrize("name", GAME_NOTEBOOKS)
def test_the_page_runs_without_its_tagged_cells_and_the_rest_shows_the_same(name: str) -> None:
    notebook = nbformat.read(NOTEBOOK_DIR / f"{name}.ipynb", as_version=4)
    saved = [comparable(cell.outputs) for cell in notebook.cells if checked_by_nbval(cell)]
    # A print may reach the client in several stream messages; nbval joins them before it compares, so here too.
    client = NotebookClient(
        notebook, kernel_name="python3", skip_cells_with_tag=SAVED_TAG, allow_errors=False, coalesce_streams=True
    )
    client.execute(cwd=str(NOTEBOOK_DIR))  # raises CellExecutionError naming the cell that needed a left-out one
    for cell, outputs in zip([cell for cell in notebook.cells if checked_by_nbval(cell)], saved, strict=True):
        if not tagged(cell):
            assert comparable(cell.outputs) == outputs, cell.source


@pytest.mark.parametrize("name", ["index", *GAME_NOTEBOOKS])
def test_no_notebook_saves_its_widgets_state(name: str) -> None:
    """A notebook run with `jupyter nbconvert --execute` saves every widget's state in its metadata: each table's
    whole tree, which made hats.ipynb five times its size and is sent with every page. The tables are live
    (their state comes from the page's own kernel), so none is kept: run notebooks with
    `--ExecutePreprocessor.store_widget_state=False` (or from JupyterLab, which keeps none unless asked)."""
    notebook = nbformat.read(NOTEBOOK_DIR / f"{name}.ipynb", as_version=4)
    assert "widgets" not in notebook.metadata
