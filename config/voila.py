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
  a round trip to the kernel before it sends the page (about 5 ms each, more
  with a class on one machine; benchmarks/README.md), so a Hats page now runs
  9 of its 27 code cells. In JupyterLab the tag changes nothing.
- Voilà's page posts
  that cookie's value to `/voila/api/shutdown/<kernel>` when the reader leaves
  (closes the tab, follows a link, reloads); without the cookie the server
  refuses the post ("'_xsrf' argument missing from POST") and the kernel waits
  for the culler set in voila.json.

As the server starts, it also writes the bytecode of hatskit and widgets
(`compile_page_modules`), and has Voilà compile its page templates once for
the server's life rather than once a page (`TemplateBytecode`).
"""

import compileall
import html
import importlib.util
import os
import re
from collections.abc import Callable

import jinja2
import jinja2.bccache
import jinja2.utils
import nbformat
import tornado.web
from nbconvert import HTMLExporter
from nbconvert.filters import ansi2html
from voila.exporter import VoilaExporter

STYLE_ELEMENT = re.compile(r"<style>.*?</style>", re.S)  # as the games' pictures (hatskit/games/*/render.py) write them
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
SAVED_TAG = "show-saved-output"  # a code cell shown from its saved outputs on a game page (with_saved_outputs)
# A game page's widgets stay silent until the page connects (widgets/batch.py); Voilà's progressive rendering
# runs the notebook while the page listens for each widget as it is made, so its tables would never show.
PROGRESSIVE_REFUSED = "hatskit's game pages need Voilà's progressive_rendering off (config/voila.json leaves it off)"
# An output's frame as JupyterLab's renderers leave it on the page (text, and HTML from a trusted notebook).
_TEXT_OUTPUT = '<div class="jp-RenderedText jp-OutputArea-output" data-mime-type="text/plain">'
_HTML_OUTPUT = (
    '<div class="lm-Widget jp-RenderedHTMLCommon jp-RenderedHTML jp-mod-trusted jp-OutputArea-output"'
    ' data-mime-type="text/html">'
)
# JupyterLab's look, as on Voilà's pages, without the scripts a text page never needs: require.js (for
# old-style widgets), and MathJax and Mermaid from a CDN (so the index loads nothing from the internet);
# an empty icon, as on Voilà's pages, so the browser asks for no /favicon.ico (a 404 in the console);
# links underlined, as on the game pages (config/share/voila/templates/hatskit).
TEXT_PAGE_TEMPLATE = """{%- extends 'lab/index.html.j2' -%}
{%- block html_head_css -%}<link rel="icon" href="data:;base64,=">
<style>.jp-RenderedHTMLCommon a:link, .jp-RenderedHTMLCommon a:visited { text-decoration: underline; }</style>
{%- endblock html_head_css -%}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
"""


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

    The cell becomes a raw cell holding its outputs as they look once drawn on
    the page (:func:`_output_markup`); the page template
    (config/share/voila/templates/hatskit) writes it as it is.
    """
    shown = nbformat.from_dict(notebook)
    styles: set[str] = set()  # the style sheets written so far
    shown.cells = [_saved_cell(cell, styles) if _shows_saved(cell) else cell for cell in shown.cells]
    return shown


def _shows_saved(cell: nbformat.NotebookNode) -> bool:
    tagged = SAVED_TAG in cell.get("metadata", {}).get("tags", [])
    return cell.cell_type == "code" and tagged and cell.get("execution_count") is not None


def _saved_cell(cell: nbformat.NotebookNode, styles: set[str]) -> nbformat.NotebookNode:
    """The raw cell that shows ``cell``'s outputs; nbconvert checks it with the whole notebook before the page."""
    cell_id = html.escape(cell.get("id", ""))
    markup = (
        f'<div id="cell-id={cell_id}" class="jp-Cell jp-CodeCell jp-Notebook-cell jp-mod-noInput">'
        '<div class="jp-Cell-outputWrapper">'
        '<div class="jp-Collapser jp-OutputCollapser jp-Cell-outputCollapser"></div>'
        '<div class="jp-OutputArea jp-Cell-outputArea">'
        f"{''.join(_output_markup(output, styles) for output in cell.outputs)}</div></div></div>"
    )
    raw = nbformat.from_dict({"cell_type": "raw", "metadata": {SAVED_TAG: True}, "source": markup})
    if "id" in cell:
        raw.id = cell.id  # the id of the code cell it stands for, unique in the notebook
    return raw


def _output_markup(output: nbformat.NotebookNode, styles: set[str]) -> str:
    """One output as the page's scripts would leave it drawn: text and HTML written as they are.

    Written into the page, an HTML output is read with the page instead of drawn by the page's scripts
    one output after another once the page has loaded (benchmarks/README.md has the measurements).
    Anything else, and HTML holding a script (which must run after the page's own), is left for those
    scripts to draw, as Voilà's lab template writes it.
    """
    kind = " jp-OutputArea-executeResult" if output.output_type == "execute_result" else ""
    if output.output_type == "stream":
        return f'<div class="jp-OutputArea-child">{_TEXT_OUTPUT}<pre>{ansi2html(output.text)}</pre></div></div>'
    html_text = output.get("data", {}).get("text/html")
    if html_text is not None and "<script" not in html_text.lower():
        return f'<div class="jp-OutputArea-child{kind}">{_HTML_OUTPUT}{_new_styles_only(html_text, styles)}</div></div>'
    data = jinja2.utils.htmlsafe_json_dumps({**output, "trusted": True})  # Voilà's tojson: no "</script>" inside
    script = f'<script type="application/vnd.voila.cell-output+json">{data}</script>'
    return f'<div class="jp-OutputArea-child{kind}">{script}</div>'


def _new_styles_only(html_text: str, styles: set[str]) -> str:
    """``html_text`` without the style sheets already in ``styles`` (the page's earlier outputs); adds its new ones.

    Every picture carries the style sheets it needs, so that it looks right on its own in JupyterLab; on one
    page a single copy of each serves them all. Sombrero's 23 pictures wrote 46 copies of the same two sheets,
    which the browser matched against every element each time it recomputed the page's style
    (benchmarks/README.md has the measurements).
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

    A game page under Voilà's progressive rendering is refused with a sentence: its widgets would never show.

    A game page's cells tagged SAVED_TAG are shown from their saved outputs (:func:`with_saved_outputs`).
    A text page takes its theme from the link (``?theme=dark``) as Voilà's game pages do (voila.json).
    """
    if needs_kernel(notebook):
        if handler.voila_configuration.progressive_rendering:
            raise tornado.web.HTTPError(500, reason=PROGRESSIVE_REFUSED)
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


def compile_page_modules(packages: tuple[str, ...] = ("hatskit", "widgets")) -> None:
    """Write the bytecode of the packages every game page imports, where it is missing or stale.

    `pip install -e .` leaves them in the repository and compiles nothing there, and where
    PYTHONDONTWRITEBYTECODE is set (this project's machines, many container images) no kernel
    writes it either: every game page compiled them anew (benchmarks/README.md has the cost).
    Quietly does nothing where the directory is read-only.
    """
    for package in packages:
        spec = importlib.util.find_spec(package)
        for directory in spec.submodule_search_locations if spec and spec.submodule_search_locations else []:
            compileall.compile_dir(directory, quiet=2)


class TemplateBytecode(jinja2.BytecodeCache):
    """The page templates, compiled once for the server's life instead of once a page.

    Voilà makes a new nbconvert exporter, and with it a new Jinja environment, for every page it
    renders, so Jinja parsed and compiled the whole lab template (about 20 files) again each time: a
    third of Voilà's own CPU for a Hats page (benchmarks/README.md). Jinja checks each template's
    source against the one its code was compiled from, so an edited template is compiled again.
    Only Voilà's exporter uses it: the text pages' exporter compiles its templates without async.
    """

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


def compiling_once(
    create_environment: Callable[[VoilaExporter], jinja2.Environment],
) -> Callable[[VoilaExporter], jinja2.Environment]:
    """Voilà's `_create_environment`, giving every environment it makes one shared TemplateBytecode.

    Given a function it made itself, it returns that function: read twice in one process (the tests
    read it once a test), this file still wraps Voilà's function only once.
    """
    if hasattr(create_environment, "bytecode"):
        return create_environment
    bytecode = TemplateBytecode()

    def create(exporter: VoilaExporter) -> jinja2.Environment:
        environment = create_environment(exporter)
        environment.bytecode_cache = bytecode
        return environment

    create.bytecode = bytecode  # type: ignore[attr-defined]
    return create


VoilaExporter._create_environment = compiling_once(VoilaExporter._create_environment)

# Voilà looks for page templates in the Jupyter data directories (JUPYTER_PATH first). Read before
# Voilà collects its templates (the app and the server extension both load this file first), this
# puts config/share/voila/templates/hatskit there: the lab page without Font Awesome from a CDN.
TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "share")
os.environ["JUPYTER_PATH"] = os.pathsep.join(filter(None, [TEMPLATES, os.environ.get("JUPYTER_PATH")]))

compile_page_modules()

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
