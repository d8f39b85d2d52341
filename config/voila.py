"""Voilà's prelaunch hook for hatskit: text pages need no kernel, and game pages can shut theirs on leaving.

Voilà reads this file and voila.json from every directory on JUPYTER_CONFIG_PATH:
`make app` and the browser tests put config/ there, as do binder/start and the
README's JupyterHub image for Voilà's server extension. (Named voila.py, it must
stay out of the repository root, where it would hide the voila package from
Python.) Voilà calls the hook for every page it renders, before it starts that
page's kernel.

- A notebook whose saved outputs hold no live widget, and whose code cells have
  all run, is answered from those saved outputs (the index: text, cards and a
  board picture), with the code hidden as voila.json asks: no kernel starts.
  nbval (`make test`) checks that the saved outputs are what the code produces.
- Any other page gets its kernel, and the `_xsrf` cookie. Its code cells
  tagged `show-saved-output` are shown from their saved outputs instead of
  run (`with_saved_outputs`): pictures and worked examples whose outputs nbval
  checks in `make test`, and whose names no cell that still runs needs
  (tests/test_notebooks_saved.py checks both). Voilà runs every code cell as
  a round trip to the kernel before it sends the page, and each round trip
  waits longer while a class opens pages on one machine (benchmarks/README.md
  has the figures), so a game page runs only the cells that make its live
  table. In JupyterLab the tag changes nothing. Its markdown cells are drawn
  once for the server's life too, not for every page.
- Voilà's page posts
  that cookie's value to `/voila/api/shutdown/<kernel>` when the reader leaves
  (closes the tab, follows a link, reloads); without the cookie the server
  refuses the post ("'_xsrf' argument missing from POST") and the kernel waits
  for the culler set in voila.json.

It changes Voilà, nbconvert and ipywidgets only through their public extension
points (issue 28): this file's settings and hook, the page template it names
(hatskit, in share/jupyter/voila/templates/hatskit: Voilà looks for templates in
every Jupyter data directory, and `make app`, binder/start and the README's
image put share/jupyter on JUPYTER_PATH, while a non-editable `pip install .`
copies it into the environment's share/jupyter as pyproject.toml's data-files;
setuptools' editable installs leave data-files out), and nbconvert's
HTMLExporter with its own lab template for the saved outputs. So (what each
other way would buy: benchmarks/README.md):
- the page template leaves ipywidgets' wait for every widget's state, and
  Voilà's moving of the cells into its shell, as they are: changing either
  means replacing the page's own functions (window.setTimeout, voila_finish),
  and with each table one anywidget a page has few widget models to wait for;
- Voilà compiles its page templates for each page: keeping them for the
  server's life means replacing the private VoilaExporter._create_environment;
- the server writes no bytecode of hatskit and widgets into the checkout, and
  this file does not set JUPYTER_PATH (the places above put share/jupyter there).
"""

import functools
import json
import os
import re

import jinja2
import nbformat
import tornado.web
from nbconvert import HTMLExporter

STYLE_ELEMENT = re.compile(r"<style>.*?</style>", re.S)  # as the games' pictures (hatskit/games/*/render.py) write them
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
SAVED_TAG = "show-saved-output"  # a code cell shown from its saved outputs on a game page (with_saved_outputs)
# JupyterLab's look, as on Voilà's pages, without the scripts a text page never needs: require.js (for
# old-style widgets), and MathJax and Mermaid from a CDN (so the index loads nothing from the internet);
# an empty icon, as on Voilà's pages, so the browser asks for no /favicon.ico (a 404 in the console);
# links underlined and, on a phone, the text's tables packed closer and its code wrapped, as on the game pages
# (share/jupyter/voila/templates/hatskit: no text scrolls sideways); and the lessons lists' stars filled in
# from what this browser kept (widgets/teaching/progress.js), by a script of its own at the end of the page.
TEXT_PAGE_TEMPLATE = """{%- extends 'lab/index.html.j2' -%}
{%- block html_head_css -%}<link rel="icon" href="data:;base64,=">
<style>.jp-RenderedHTMLCommon a:link, .jp-RenderedHTMLCommon a:visited { text-decoration: underline; }
@media (max-width: 480px) { .jp-RenderedMarkdown :is(td, th) { padding: 2px 3px; }
  .jp-RenderedMarkdown pre { white-space: pre-wrap; overflow-wrap: anywhere; } }</style>
{%- endblock html_head_css -%}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block footer_js -%}<style>.hk-lessonlist { list-style: none; padding-left: 1em; }
.hk-lessonlist .hk-starsays { position: absolute; left: -9999px; }</style>
<script>
// The stars of the lessons lists (hatskit.drawing.stars_html), from what this browser kept for each game
// (widgets/teaching/progress.js, localStorage "hatskit.lessons.<game>"): no server is asked.
for (const item of document.querySelectorAll("[data-hk-lesson]")) {
  const key = item.dataset.hkLesson;
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem("hatskit.lessons." + key.split("/")[0]) || "null"); } catch (e) {}
  if (kept && Array.isArray(kept.stars) && kept.stars.includes(key)) {
    item.querySelector(".hk-star").textContent = "★";
    item.querySelector(".hk-starsays").textContent = "(star earned)";
  }
}
</script>
{%- endblock footer_js -%}
"""
# A cell's outputs as nbconvert's lab template draws them, without its code or prompts: that template's
# base.html.j2 is the cells alone, with no page around them. One exporter for the server's life, so
# nbconvert compiles its templates once.
SAVED_OUTPUTS = HTMLExporter(
    template_name="lab",
    template_file="base.html.j2",
    exclude_input=True,
    exclude_input_prompt=True,
    exclude_output_prompt=True,
)


def needs_kernel(notebook: nbformat.NotebookNode) -> bool:
    """Whether a page must run: a saved output is a live widget, or a code cell has never run."""
    code_cells = [cell for cell in notebook.cells if cell.cell_type == "code" and cell.source.strip()]
    outputs = [output for cell in code_cells for output in cell.outputs]
    never_run = any(cell.execution_count is None for cell in code_cells)
    return never_run or any(WIDGET_VIEW in output.get("data", {}) for output in outputs)


def text_page(notebook: nbformat.NotebookNode, name: str, strip_sources: bool, theme: str) -> str:
    """The notebook as one HTML page from its saved outputs, without running anything."""
    exporter = HTMLExporter(
        extra_loaders=[jinja2.DictLoader({"text_page.html.j2": TEXT_PAGE_TEMPLATE})],
        template_file="text_page.html.j2",
        theme=theme,
        exclude_input=strip_sources,
        exclude_input_prompt=True,
        exclude_output_prompt=True,
    )
    page, _ = exporter.from_notebook_node(notebook, resources={"metadata": {"name": name}})
    return page


def with_saved_outputs(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A copy of ``notebook`` in which each run code cell tagged SAVED_TAG is its saved outputs, not code to run.

    The cell becomes a raw cell holding its outputs as nbconvert's lab template draws them
    (:func:`_drawn`); the page template (share/jupyter/voila/templates/hatskit) writes it as it is.
    Written into the page, an HTML output is read with the page instead of drawn by the page's scripts
    one output after another once the page has loaded (benchmarks/README.md has the measurements).
    A style sheet that an earlier picture on the page already wrote is left out (:func:`_new_styles_only`).

    Each markdown cell becomes a raw cell holding its HTML in the same way: Voilà would turn its markdown
    into HTML again for every page, spending the server's time (benchmarks/README.md has how much),
    while the text changes only with the notebook.
    """
    shown = nbformat.from_dict(notebook)  # a copy: the notebook read from disk is left alone
    styles: set[str] = set()  # the style sheets written so far
    for index, cell in enumerate(shown.cells):
        if _shows_saved(cell):
            for output in cell.outputs:
                if "text/html" in output.get("data", {}):
                    output.data["text/html"] = _new_styles_only(_text(output.data["text/html"]), styles)
            shown.cells[index] = _saved_cell(cell)
        elif cell.cell_type == "markdown":
            shown.cells[index] = _saved_cell(cell)
    return shown


def _shows_saved(cell: nbformat.NotebookNode) -> bool:
    """A code cell tagged SAVED_TAG that has run, none of whose outputs is HTML holding a script.

    Written into the page, such a script would run as the page is read, before the page's own scripts
    have loaded, where in JupyterLab and on Voilà's page it runs once they have: that cell still runs.
    """
    tagged = SAVED_TAG in cell.get("metadata", {}).get("tags", [])
    if cell.cell_type != "code" or not tagged or cell.get("execution_count") is None:
        return False
    return not any("<script" in _text(output.get("data", {}).get("text/html", "")).lower() for output in cell.outputs)


def _text(value: str | list[str]) -> str:
    return value if isinstance(value, str) else "".join(value)  # a multi-line string as nbformat may store it


def _saved_cell(cell: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The raw cell that shows ``cell`` as drawn (a code cell's outputs, a markdown cell's text); nbconvert checks
    it with the whole notebook before the page."""
    raw = nbformat.v4.new_raw_cell(_drawn(json.dumps(cell, sort_keys=True)), metadata={SAVED_TAG: True})
    if "id" in cell:
        raw.id = cell.id  # the id of the code cell it stands for, unique in the notebook
    else:
        del raw["id"]  # an older notebook format, whose cells have none
    return raw


@functools.lru_cache(maxsize=1024)
def _drawn(cell_json: str) -> str:
    """A cell as nbconvert's lab template draws it (a code cell: its outputs alone), kept for the next page with
    the same cell.

    nbconvert's HTMLExporter is slow for a cell (it reads its own HTML back to add alternative texts),
    and would be so on every page view; a page's saved outputs change only with the notebook, so each cell
    is drawn once for the server's life (the cache holds every such cell of the four game notebooks).
    """
    cell = nbformat.from_dict(json.loads(cell_json))
    page, _ = SAVED_OUTPUTS.from_notebook_node(nbformat.v4.new_notebook(cells=[cell]))
    return page.strip()


def _new_styles_only(html_text: str, styles: set[str]) -> str:
    """``html_text`` without the style sheets already in ``styles`` (the page's earlier outputs); adds its new ones.

    Every picture carries the style sheets it needs, so that it looks right on its own in JupyterLab; on one
    page a single copy of each serves them all, and every further copy is one more sheet the browser matches
    against every element each time it recomputes the page's style (benchmarks/README.md has the measurements).
    """

    def kept(element: re.Match[str]) -> str:
        if element.group(0) in styles:
            return ""
        styles.add(element.group(0))
        return element.group(0)

    return STYLE_ELEMENT.sub(kept, html_text)


def prelaunch_hook(
    handler: tornado.web.RequestHandler, notebook: nbformat.NotebookNode, cwd: str
) -> nbformat.NotebookNode:
    """Answer a text page without a kernel (tornado's Finish ends the request), else set the `_xsrf` cookie.

    A game page's cells tagged SAVED_TAG are shown from their saved outputs (:func:`with_saved_outputs`).
    A text page takes its theme from the link (``?theme=dark``) as Voilà's game pages do (voila.json). The index
    opened with the teacher's link (``?teacher=<secret>``) runs, for its live class list
    (widgets/teaching/classlist.py). Any value runs it: only the host can judge the secret, and a kernel started
    for a wrong one costs what opening a game page costs; its page then says the link is not a teacher's.
    """
    if needs_kernel(notebook) or handler.get_argument("teacher", ""):  # the teacher's class list runs (classlist.py)
        handler.xsrf_token  # noqa: B018  (reading it sets the cookie)
        return with_saved_outputs(notebook)
    settings = handler.voila_configuration
    name = os.path.splitext(os.path.basename(handler.request.path))[0]
    asked = handler.get_argument("theme", settings.theme) if settings.allow_theme_override == "YES" else ""
    theme = asked if asked in ("light", "dark") else settings.theme
    raise tornado.web.Finish(text_page(notebook, name, settings.strip_sources, theme))


def pool_size() -> int:
    """Pre-heated kernels per game page that `make app POOL=N` asks for (HATSKIT_POOL), 0 when none."""
    value = os.environ.get("HATSKIT_POOL", "").strip() or "0"
    if not value.isdecimal():
        raise ValueError(f"HATSKIT_POOL must be a whole number of kernels, not {value!r}")
    return int(value)


c = get_config()  # noqa: F821  (traitlets provides get_config to config files)
c.VoilaConfiguration.template = "hatskit"
if pool_size() > 0:
    # Voilà refuses a prelaunch hook together with pre-heated kernels: with a pool the index gets a kernel
    # of its own per visit (it is left out of the pool), and kernels of closed tabs wait for the culler.
    c.VoilaConfiguration.preheat_kernel = True
    c.VoilaConfiguration.default_pool_size = pool_size()
    c.VoilaKernelManager.preheat_denylist = ["index.ipynb"]
else:
    c.VoilaConfiguration.prelaunch_hook = prelaunch_hook
