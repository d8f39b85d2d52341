"""Teacher's kits: each ``docs/kits/<game>.md`` rendered to a printable A4 page ``docs/kits/<game>.html``.

A kit's Markdown file is the one source of its rules summary, quiz, answer key and
lesson plan; the rules are stated once, in the summary, and the other parts refer
to it. The file has this shape:

    # <the game's name>
    (an optional short note, printed at the top of the summary)
    ## Summary        one printed page: the turn, when a move is legal, scoring, tie-breaks
    ## Quiz           five questions, each under a heading "### <n>. <title>"
    ## Answer key     a numbered list, one item per question: "<n>. **the answer.** why (ruling id)"
    ## Lesson plan    45 minutes: a table of timed steps ("0–5", "5–12", ...) and notes
    ## Walkthrough plan  the positions to stop at in a walkthrough the teacher leads (README.md, "Leading
                     the class"), each under a heading "### Stop <n>. <title>"

Each ``##`` part starts a new printed page. A quiz question may show a position: a
fenced code block whose info string is ``position``, holding a position in hatskit's
format (docs/rulings.md, "Positions"). It is drawn with the game's own picture, from
the first player's seat, so other hands stay face down. A question without a position
of its own is about the last one shown above it. A comment ``<!-- ask: <query> -->`` in
a question names what tests/test_kits.py asks the engine to check the answer key
against; the queries are listed there.

A walkthrough plan names its deal in its **Open:** line, as the query a teacher adds to
their teacher link (`` `&seed=42&players=2&seats=reader,reader` ``). Each stop's **Play:**
paragraph lists, in backticks and in order, the moves that lead on from the stop before
(from the deal, for the first), and nothing else in backticks; each claim the stop makes
is a list item with a ``<!-- ask: <query> -->`` comment whose first bold text is the
answer, as in the answer key.
tests/test_kits.py replays every plan on the engine. A game played as a race (Hats Off!)
cannot be a walkthrough: its plan has no deal and says so.

After editing a kit run ``python docs/kits/build.py`` (with hatskit importable);
tests/test_kits.py fails while a page is out of date, and prints each kit to PDF with
Chromium to check that the pages are A4 and the summary fits on one.
"""

from __future__ import annotations

import html
import json
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import mistune

import hatskit
from hatskit.games.hats import SEAT_NAMES
from hatskit.games.hats.render import table_html
from hatskit.games.sombrero.render import board_html

KITS_DIR = Path(__file__).resolve().parent
PARTS = ("Summary", "Quiz", "Answer key", "Lesson plan", "Walkthrough plan")
QUESTIONS = 5
ASK = re.compile(r"<!--\s*ask:\s*(.+?)\s*-->")
QUESTION_HEADING = re.compile(r"^### (\d+)\. (.+)$", re.MULTILINE)
ANSWER_ITEM = re.compile(r"^(\d+)\. (.+?)(?=^\d+\. |\Z)", re.MULTILINE | re.DOTALL)
POSITION_BLOCK = re.compile(r"^```position\n(.*?)^```", re.MULTILINE | re.DOTALL)
STOP_HEADING = re.compile(r"^### Stop (\d+)\. (.+)$", re.MULTILINE)
OPEN_LINE = re.compile(r"^\*\*Open:\*\*(?:(?!\n\n).)*?`&([^`]+)`", re.MULTILINE | re.DOTALL)  # in its paragraph
PLAY_LINE = re.compile(r"^\*\*Play:\*\*((?:(?!\n\n).)*)", re.MULTILINE | re.DOTALL)  # its whole paragraph
BACKTICKED = re.compile(r"`([^`]+)`")
LIST_ITEM = re.compile(r"^- (.*(?:\n {2,}\S.*)*)", re.MULTILINE)

CSS = """
@page { size: A4; margin: 12mm 14mm; }
body { font-family: "DejaVu Sans", system-ui, sans-serif; font-size: 10pt; line-height: 1.35; color: #111;
  max-width: 182mm; margin: 0 auto; }
h1 { font-size: 11pt; color: #555; font-weight: 600; margin: 0 0 2mm; }
h2 { font-size: 17pt; margin: 0 0 3mm; }
h3 { font-size: 11.5pt; margin: 3mm 0 1mm; }
p, ul, ol { margin: 1mm 0 1.5mm; }
ul, ol { padding-left: 6mm; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: 0.95em; background: #f1eee4; padding: 0 2px; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #999; padding: 1.5mm 2mm; vertical-align: top; text-align: left; }
th { background: #eee8d8; }
.kit-part { break-before: page; }
.kit-part:first-of-type { break-before: auto; }
.kit-block { break-inside: avoid; }
.kit-note { border: 1px solid #c9a227; background: #fbf4dc; padding: 1.5mm 3mm; margin: 0 0 2mm; }
.kit-summary { font-size: 9.6pt; }
.kit-summary .kit-blocks { column-count: 2; column-gap: 7mm; }
.kit-summary h3 { break-after: avoid; }
.kit-quiz .kit-block { margin-bottom: 4mm; }
.kit-quiz .kit-block::after { content: ""; display: block; height: 14mm; border-bottom: 1px dotted #999; }
.kit-position { font-size: 7.5pt; margin: 1mm 0 1.5mm; }
.kit-position .hk-label { min-width: 9em; }
.kit-position table { width: auto; }
.kit-position .hk-sb-frame { font-size: 1.4em; }
.kit-position .hk-sb-board td { border: 0; }
.kit-position .kit-inventories th, .kit-position .kit-inventories td { font-size: 10pt; }
.kit-walkthrough-plan .kit-block { margin-bottom: 3mm; }
.kit-lesson-plan td:first-child { white-space: nowrap; font-weight: 600; }
.kit-lesson-plan th:first-child { width: 11mm; }
.kit-screen-only { background: #e8f0fb; border: 1px solid #8aa8d8; padding: 2mm 3mm; }
@media print { .kit-screen-only { display: none; } }
"""


class KitError(ValueError):
    """A kit file that does not have the shape this module documents; the message names the file."""


@dataclass(frozen=True)
class Question:
    """One quiz question: its number, its Markdown, the position it is about and the engine query."""

    number: int
    title: str
    markdown: str
    position: dict[str, Any] | None
    ask: str | None


@dataclass(frozen=True)
class Claim:
    """One thing a walkthrough stop says the engine will answer: the list item's Markdown and its query."""

    markdown: str
    ask: str


@dataclass(frozen=True)
class Stop:
    """One stop of a walkthrough plan: the moves that lead to it from the stop before, and its claims."""

    number: int
    title: str
    markdown: str
    moves: tuple[str, ...]
    claims: tuple[Claim, ...]


@dataclass(frozen=True)
class Kit:
    """A parsed kit: the game's name, the note under it and the Markdown of each part."""

    source: Path
    title: str
    note: str
    parts: dict[str, str] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The kit's file stem, which is also the name of its HTML page."""
        return self.source.stem

    def questions(self) -> list[Question]:
        """The quiz questions in order, each with the position it is about (its own or the last shown)."""
        position, questions = None, []
        for number, title, markdown in _numbered_blocks(self.parts["Quiz"]):
            block = POSITION_BLOCK.search(markdown)
            position = json.loads(block.group(1)) if block else position
            ask = ASK.search(markdown)
            questions.append(Question(number, title, markdown, position, ask.group(1) if ask else None))
        return questions

    def walkthrough_query(self) -> str | None:
        """The query the plan's **Open:** line adds to the teacher link (``seed=42&players=2&...``), or None."""
        found = OPEN_LINE.search(self.parts["Walkthrough plan"])
        return found.group(1) if found else None

    def stops(self) -> list[Stop]:
        """The walkthrough plan's stops in order, each with its moves (from the stop before) and its claims."""
        stops = []
        for number, title, markdown in _numbered_blocks(self.parts["Walkthrough plan"], STOP_HEADING):
            play = PLAY_LINE.search(markdown)
            moves = tuple(BACKTICKED.findall(play.group(1))) if play else ()
            claims = tuple(
                Claim(item, ask.group(1)) for item in LIST_ITEM.findall(markdown) if (ask := ASK.search(item))
            )
            stops.append(Stop(number, title, markdown, moves, claims))
        return stops

    def answers(self) -> dict[int, str]:
        """The answer key's items by question number, as Markdown."""
        return {int(n): text.strip() for n, text in ANSWER_ITEM.findall(self.parts["Answer key"])}


def parse_kit(path: Path) -> Kit:
    """Read a kit file and check its shape: a title, the parts in order, five questions and answers."""
    text = path.read_text(encoding="utf-8")
    head, *chunks = re.split(r"^## ", text, flags=re.MULTILINE)
    if not head.startswith("# "):
        raise KitError(f"{path.name}: the first line must be '# <the game's name>'")
    title, _, note = head[2:].partition("\n")
    parts = {}
    for chunk in chunks:
        name, _, body = chunk.partition("\n")
        parts[name.strip()] = body.strip()
    if tuple(parts) != PARTS:
        raise KitError(f"{path.name}: the parts must be {', '.join(PARTS)} in this order, not {', '.join(parts)}")
    kit = Kit(path, title.strip(), note.strip(), parts)
    _check_quiz(kit)
    return kit


def _check_quiz(kit: Kit) -> None:
    numbers = [question.number for question in kit.questions()]
    expected = list(range(1, QUESTIONS + 1))
    if numbers != expected:
        raise KitError(f"{kit.source.name}: the quiz must have questions {expected}, not {numbers}")
    if sorted(kit.answers()) != expected:
        raise KitError(f"{kit.source.name}: the answer key must answer {expected}, not {sorted(kit.answers())}")


def _numbered_blocks(markdown: str, heading: re.Pattern[str] = QUESTION_HEADING) -> Iterable[tuple[int, str, str]]:
    """Each "### <n>. <title>" block of ``markdown`` (or ``heading``'s): its number, title and Markdown to the next."""
    starts = list(heading.finditer(markdown))
    for match, following in zip(starts, [*starts[1:], None], strict=True):
        end = following.start() if following else len(markdown)
        yield int(match.group(1)), match.group(2), markdown[match.start() : end]


# -- pictures ---------------------------------------------------------------------------------------------


def picture(position: dict[str, Any]) -> str:
    """A position drawn as the app draws it (Hats from the first seat, Sombrero from White's side)."""
    game = position.get("game")
    if game == "hats":
        return table_html(hatskit.load(position).state, seat=0)
    if game == "sombrero":
        return board_html(hatskit.load(position).state)
    if game == "madder":
        return _inventories_html(position["inventories"])
    raise KitError(f"no picture for a position of game {game!r}")


def _inventories_html(inventories: list[list[str]]) -> str:
    """Madder than a Hatter inventories in words (a ``*`` marks a style's Premium hat), one line per player.

    Drawn here rather than by the engine: a scoring exercise needs only names, and the
    kit must print before the game's notebook exists.
    """
    rows = []
    for seat, hats in enumerate(inventories):
        names = [f"{hat[:-1]} (Premium)" if hat.endswith("*") else hat for hat in hats] or ["nothing"]
        rows.append(f"<tr><th>{SEAT_NAMES[seat]}'s inventory</th><td>{html.escape(', '.join(names))}</td></tr>")
    return f'<table class="kit-inventories">{"".join(rows)}</table>'


class KitRenderer(mistune.HTMLRenderer):
    """Markdown to HTML, with ``position`` code blocks drawn as pictures."""

    def block_code(self, code: str, info: str | None = None) -> str:
        if info == "position":
            return f'<div class="kit-position">{picture(json.loads(code))}</div>\n'
        return super().block_code(code, info)


STYLE_SHEET = re.compile(r"<style>(.*?)</style>", re.DOTALL)
MARKDOWN = mistune.create_markdown(renderer=KitRenderer(escape=False), plugins=["table"])


# -- pages ------------------------------------------------------------------------------------------------


def render_kit(kit: Kit, parts: Iterable[str] = PARTS) -> str:
    """The printable HTML page of ``kit``, holding ``parts`` (all of them unless told), each from a new page."""
    sections = "".join(_section(kit, part) for part in parts)
    screen_note = (
        '<p class="kit-screen-only">Print this page on A4 (Ctrl+P; this note does not print). The summary is'
        " one page; the quiz, the answer key, the lesson plan and the walkthrough plan each start on a new page.</p>"
    )
    sheets, sections = _style_sheets_lifted(sections)
    return (
        f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(kit.title)}: a teacher's kit</title>\n<style>{CSS}</style>\n{sheets}</head>\n"
        f"<body>\n{screen_note}\n{sections}</body>\n</html>\n"
    )


def _style_sheets_lifted(body: str) -> tuple[str, str]:
    """The pictures' style sheets, each once, for the page's head; and ``body`` without them.

    Every picture carries the sheets it needs, so it can stand alone in a notebook; on a printed page of
    several pictures one copy of each is enough.
    """
    sheets = dict.fromkeys(STYLE_SHEET.findall(body))
    return "".join(f"<style>{sheet}</style>\n" for sheet in sheets), STYLE_SHEET.sub("", body)


def _section(kit: Kit, part: str) -> str:
    slug = "kit-" + part.lower().replace(" ", "-")
    markdown = kit.parts[part]
    intro, blocks = _split_blocks(markdown)
    note = f'<div class="kit-note">{MARKDOWN(kit.note)}</div>' if part == "Summary" and kit.note else ""
    rendered = "".join(f'<div class="kit-block">{MARKDOWN(block)}</div>' for block in blocks)
    return (
        f'<section class="kit-part {slug}">\n<h1>{html.escape(kit.title)} · a teacher\'s kit</h1>\n'
        f"<h2>{html.escape(part)}</h2>\n{note}{MARKDOWN(intro)}"
        f'<div class="kit-blocks">{rendered}</div>\n</section>\n'
    )


def _split_blocks(markdown: str) -> tuple[str, list[str]]:
    """The Markdown before the first "###" heading, and each "###" block, kept whole on a printed page."""
    intro, *blocks = re.split(r"^(?=### )", markdown, flags=re.MULTILINE)
    return intro, blocks


def kit_paths() -> list[Path]:
    """Every kit's Markdown file."""
    return sorted(KITS_DIR.glob("*.md"))


def page_path(kit: Kit) -> Path:
    """Where the kit's printable page is written."""
    return kit.source.with_suffix(".html")


def main() -> int:
    """Write every kit's printable page next to its Markdown file."""
    for path in kit_paths():
        kit = parse_kit(path)
        page_path(kit).write_text(render_kit(kit), encoding="utf-8")
        print(f"wrote {page_path(kit).relative_to(KITS_DIR.parents[1])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
