"""Pieces every game's pictures share: the style sheet, cards and score sheets."""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # only for the hints: the contract (core) draws its score sheets with this module
    from hatskit.core import Event, Outcome, ScoreLine, ScoreSheet
    from hatskit.lessons import Lesson

# One style sheet for every view, keyed by ``hk-`` classes. In JupyterLab's dark theme (Voilà's
# ``?theme=dark``; its <body> says data-jp-theme-light="false") cards stay light, as cards are, and what
# lies on the page gets dark backgrounds and light text, keeping WCAG AA contrast. Colours always come
# with a symbol and a value, never alone (readers with colour-blindness).
CSS = """
.hk { font-family: system-ui, sans-serif; }
.hk-card { display: inline-flex; flex-direction: column; align-items: center; justify-content: center;
  width: 2.6em; height: 3.6em; margin: 2px; border: 2px solid #444; border-radius: 6px;
  background: #fffdf6; color: #222; font-weight: 700; font-size: 1.05em; line-height: 1.1; vertical-align: top; }
.hk-card .hk-kind { font-size: 1.3em; }
.hk-back { background: repeating-linear-gradient(45deg, #2b3a67, #2b3a67 4px, #3d4f88 4px, #3d4f88 8px);
  color: #fff; }
.hk-facedown { background: repeating-linear-gradient(135deg, #fffdf6 0 6px, #ddd9cc 6px 8px);
  border-style: dashed; text-decoration: line-through; }
.hk-k-star { color: #8a5700; } .hk-k-spade { color: #111; } .hk-k-heart { color: #c0152f; }
.hk-k-club { color: #1b7a2e; } .hk-k-diamond { color: #1f4fb8; } .hk-k-flower { color: #8a2be2; }
.hk-k-helm { color: #00707a; }
.hk-blackhat { background: #1d1d1d; color: #fff; border-color: #000; }
.hk-score { border-collapse: collapse; margin: 4px 0; }
.hk-score th, .hk-score td { border: 1px solid #ccc; padding: 2px 8px; text-align: left; }
.hk-score td.hk-pts, .hk-score th.hk-pts { text-align: right; }
.hk-score tr.hk-total td { font-weight: 700; background: #f3f0e6; }
.hk-row { display: flex; align-items: center; gap: 6px; flex-wrap: wrap; margin: 3px 0; }
.hk-label { min-width: 7em; font-weight: 600; }
.hk-pos { display: inline-flex; flex-direction: column; align-items: center; }
.hk-pos small { color: #555; }
.hk-movelist { margin: 0; padding-left: 2.4em; }
.hk-movelist li.hk-last { font-weight: 700; background: #fff1b8; }
.hk-movelist li.hk-last::after { content: " ◀"; }
body[data-jp-theme-light="false"] :is(.hk-table .hk-message, .hk-score tr.hk-total td) { background: #2b2b2b; }
body[data-jp-theme-light="false"] .hk-table .hk-message.hk-error { color: #ff9e9e; border-left-color: #ff9e9e; }
body[data-jp-theme-light="false"] :is(.hk, .hk-row, .hk-pos) :is(.hk-poslabel, .hk-rule, .hk-panel .hk-how,
  .hk-sb-legend,
  .hk-sb-label, .hk-ho-note, .hk-race-note, .hk-race-caption, small) { color: #c8c8c8; }
body[data-jp-theme-light="false"] .hk-movelist li.hk-last { background: #574400; }
body[data-jp-theme-light="false"] .hk-score :is(th, td) { border-color: #666; }
body[data-jp-theme-light="false"] .hk-table .hk-standin { color: #f0c46a; }
/* A seat (seat_panel_html): a place at the table with its name, its kind of player, its hand and what it has
   collected. The seat to move has a thick solid border and a "▶ to move" tag, not a colour alone. */
.hk-seatpanel { display: flex; flex-direction: column; gap: 2px; box-sizing: border-box; min-width: 0; max-width: 100%;
  padding: 4px 8px 6px; border: 2px dashed #8a8470; border-radius: 10px; background: #faf7ef; color: #222; }
.hk-seatpanel.hk-tomove { border: 4px solid #1747a6; padding: 2px 6px 4px; }
.hk-seathead { display: flex; flex-wrap: wrap; align-items: center; gap: 2px 6px; }
.hk-seatname { font-weight: 700; font-size: 1.05em; }
.hk-badge { padding: 0 .5em; border: 1px solid #6b6b6b; border-radius: 1em; font-size: .8em; background: #fff;
  color: #333; }
.hk-badge.hk-you { border-color: #1b5e20; background: #1b5e20; color: #fff; font-weight: 700; }
.hk-tomovetag { padding: 0 .5em; border-radius: 1em; font-size: .8em; font-weight: 700; background: #1747a6;
  color: #fff; }
.hk-seatnotes { font-size: .85em; color: #444; }
.hk-holds { display: flex; flex-wrap: wrap; align-items: center; gap: 2px 16px; }
.hk-hold { display: flex; flex-wrap: wrap; align-items: center; gap: 2px 6px; }
.hk-holdname { font-size: .85em; font-weight: 600; min-width: 5.5em; }
.hk-fan, .hk-stack { display: inline-flex; flex-wrap: wrap; align-items: flex-end; }
.hk-fan > .hk-back:nth-child(n+2) { margin-left: -.9em; }
.hk-fan > .hk-back:nth-child(odd) { transform: rotate(-4deg); }
.hk-fan > .hk-back:nth-child(even) { transform: rotate(4deg); }
.hk-stack > .hk-back:nth-child(n+2) { margin-left: -1.5em; }
.hk-seatempty { font-size: .85em; font-style: italic; color: #555; }
.hk-seats { display: flex; flex-wrap: wrap; justify-content: center; align-items: stretch; gap: 8px; }
.hk-seats > .hk-seatpanel { flex: 1 1 18em; max-width: 36em; }
.hk-middle { margin: 4px 0; padding: 6px 10px; border-radius: 16px; background: #e4eee0; color: #1a1a1a; }
body[data-jp-theme-light="false"] .hk-middle { background: #1e2b21; color: #eee; }
body[data-jp-theme-light="false"] .hk-seatpanel { border-color: #9a9a9a; background: #262626; color: #eee; }
body[data-jp-theme-light="false"] .hk-seatpanel.hk-tomove { border-color: #7fb0ff; }
body[data-jp-theme-light="false"] .hk-badge { border-color: #aaa; background: #333; color: #eee; }
body[data-jp-theme-light="false"] .hk-badge.hk-you { border-color: #8fdc97; background: #8fdc97; color: #111; }
body[data-jp-theme-light="false"] .hk-tomovetag { background: #7fb0ff; color: #111; }
body[data-jp-theme-light="false"] :is(.hk-seatnotes, .hk-seatempty) { color: #c8c8c8; }
"""

# The short name of every ruling id (docs/rulings.md explains each one).
RULE_NAMES = {
    "H1": "Setup", "H2": "Exchange", "H3": "Black hat", "H4": "Optional action", "H5": "Four players",
    "H6": "End", "H7": "Duplicates on the table", "H8": "Hat collection", "H9": "Favorite hat",
    "H10": "Last cookie", "H11": "Winner",
    "O1": "Deal", "O2": "Flip", "O3": "Race", "O4": "Refill", "O5": "Wrong play", "O6": "Falling hat", "O7": "End",
    "O8": "Every game ends",
    "M1": "Rounds", "M2": "Deal", "M3": "Turn", "M4": "End of round", "M5": "Scoring", "M6": "Card texts",
    "S1": "Setup", "S2": "Actions", "S3": "Capture", "S4": "Win", "S5": "Draw",
}  # fmt: skip


def escape(text: object) -> str:
    """HTML-escape anything."""
    return html.escape(str(text), quote=True)


def style_tag() -> str:
    """The shared style sheet as a <style> element."""
    return f"<style>{CSS}</style>"


def card_html(kind: str, value: int, kind_name: str, extra_class: str = "", label: str | None = None) -> str:
    """A face-up card: symbol over value, coloured by type, labelled for screen readers (by default "♥5").

    Its notation ("♥5") is its ``data-hk-card``: the name a live table follows it by as it moves, and a score
    line points at it by (view.js).
    """
    label = escape(label or f"{kind}{value}")
    return (
        f'<span class="hk-card hk-k-{kind_name} {extra_class}" data-hk-card="{escape(kind)}{value}" title="{label}"'
        f' aria-label="{label}">'
        f'<span class="hk-kind">{escape(kind)}</span><span>{value}</span></span>'
    )


def back_html(label: str = "hidden card", extra_class: str = "") -> str:
    """A face-down card: its back only; ``extra_class`` lets a game size it as its faces (Madder's hats)."""
    classes = f"hk-card hk-back {extra_class}".strip()
    return f'<span class="{classes}" title="{escape(label)}" aria-label="{escape(label)}">?</span>'


def seat_head_html(name: str, kind: str, to_move: bool = False, notes: Sequence[str] = ()) -> str:
    """A seat's name line: its name, a badge for its kind of player ("you", "greedy bot", "a reader"), the
    "▶ to move" tag when it is that seat's turn, and its public notes (actions played, the last cookie)."""
    badge = "hk-badge hk-you" if kind == "you" else "hk-badge"
    tag = '<span class="hk-tomovetag">▶ to move</span>' if to_move else ""
    line = f'<span class="hk-seatnotes">{escape(" · ".join(notes))}</span>' if notes else ""
    return (
        f'<div class="hk-seathead"><span class="hk-seatname">{escape(name)}</span>'
        f'<span class="{badge}">{escape(kind)}</span>{tag}{line}</div>'
    )


def hold_html(
    label: str, cards: Sequence[str], count: int | None = None, fan: bool = False, empty: str = "none"
) -> str:
    """Cards a seat holds, after their name and count ("hand (3)", the count read before the cards). Face-down
    cards overlap: fanned out (``fan``, a hand) or piled up (a stack, black hats); face-up cards lie side by
    side, so each can be read. ``count`` defaults to the number of cards drawn."""
    number = len(cards) if count is None else count
    shown = "".join(cards) or f'<span class="hk-seatempty">{escape(empty)}</span>'
    return (
        f'<div class="hk-hold"><span class="hk-holdname">{escape(label)} ({number})</span>'
        f'<span class="{"hk-fan" if fan else "hk-stack"}">{shown}</span></div>'
    )


def slot_html(label: str, content: str) -> str:
    """The one card a seat keeps in a place of its own (a head card, a Haberdasher, a favorite hat), after
    the place's name: no count, as it is always one."""
    return f'<div class="hk-hold"><span class="hk-holdname">{escape(label)}</span>{content}</div>'


def seat_classes(seat: int, to_move: bool) -> list[str]:
    """The classes of the element that holds everything of seat ``seat``: the page finds a seat's cards by
    ``hk-seat-<n>`` (the score sheet points at one seat's cards), a test counts seats by ``hk-seat``."""
    return ["hk-seatpanel", "hk-seat", f"hk-seat-{seat}", *(["hk-tomove"] if to_move else [])]


def seat_contents_html(head: str, holds: Sequence[str]) -> str:
    """What a seat shows: its name line (:func:`seat_head_html`) above what it holds (:func:`hold_html`, its hand,
    its collection or inventory), side by side where there is room. A live table's seat box holds this with the
    reader's buttons (widgets/table/seating.py)."""
    return f'{head}<div class="hk-holds">{"".join(holds)}</div>'


def seat_panel_html(seat: int, head: str, holds: Sequence[str], to_move: bool = False) -> str:
    """One seat as a place at the table, the one picture every game draws a seat with (see
    :func:`seat_contents_html`)."""
    return f'<div class="{" ".join(seat_classes(seat, to_move))}">{seat_contents_html(head, holds)}</div>'


def seats_order(players: int, bottom: int) -> list[int]:
    """The seats across the top of a table seen from ``bottom``'s chair: the players after it, in turn order."""
    return [(bottom + step) % players for step in range(1, players)]


def around_table_html(players: int, bottom: int, seat_html: Callable[[int], str], middle: str) -> str:
    """A table seen from ``bottom``'s chair, the layout every game's picture shares: the other seats across the
    top in turn order (``seat_html`` draws one), ``middle`` (the tea table, the line, the pile) on its cloth,
    and ``bottom``'s own seat below it."""
    others = "".join(seat_html(seat) for seat in seats_order(players, bottom))
    return f'<div class="hk-seats">{others}</div><div class="hk-middle">{middle}</div>{seat_html(bottom)}'


def scoresheet_html(sheet: ScoreSheet) -> str:
    """The score sheet as a table: one row per line, a total per seat (and team).

    A game played in rounds gets a round column and each seat's total per
    round before its game total. Without the style sheet: a page that shows
    many sheets (the score panel) carries it once; ``ScoreSheet._repr_html_``
    adds it for a lone sheet.
    """
    rows = []
    totals = sheet.totals
    rounds = bool(sheet.rounds)
    for seat, name in enumerate(sheet.seat_names):
        rows += _seat_rows(sheet, seat, name, rounds)
        rows.append(_row(name, "game total" if rounds else "total", totals[seat], "", total=True, rounds=rounds))
    for team, points in zip(sheet.teams or (), sheet.team_totals or (), strict=True):
        members = " + ".join(sheet.seat_names[s] for s in team)
        rows.append(_row(f"team {members}", "team total", points, "", total=True))
    caption = "" if sheet.final else f"<caption>If the game ended now{_note(sheet.note)}</caption>"
    round_head = "<th>round</th>" if rounds else ""
    head = f'<tr><th>player</th>{round_head}<th>category</th><th class="hk-pts">points</th><th>why</th></tr>'
    return f'<table class="hk hk-score">{caption}{head}{"".join(rows)}</table>'


def _seat_rows(sheet: ScoreSheet, seat: int, name: str, rounds: bool) -> list[str]:
    """A seat's lines; in a game of rounds each round closes with its total."""
    lines = sheet.lines_of(seat)
    if not rounds:
        return [_row(name, line.category, line.points, line.explanation) for line in lines]
    rows = []
    for number in sheet.rounds:
        for line in (line for line in lines if line.round == number):
            rows.append(_row(name, line.category, line.points, line.explanation, rounds=True, round_number=number))
        points = sheet.round_totals(number)[seat]
        rows.append(_row(name, f"round {number} total", points, "", total=True, rounds=True, round_number=number))
    return rows


def _note(note: str) -> str:
    return f" ({escape(note)})" if note else ""


def _row(
    name: str, category: str, points: int, why: str, total: bool = False, rounds: bool = False, round_number: int = 0
) -> str:
    cls = ' class="hk-total"' if total else ""
    round_cell = f"<td>{round_number or ''}</td>" if rounds else ""
    return (
        f"<tr{cls}><td>{escape(name)}</td>{round_cell}<td>{escape(category)}</td>"
        f'<td class="hk-pts">{points}</td><td>{escape(why)}</td></tr>'
    )


RULE_ID = re.compile(r"\b[HOMS]\d{1,2}\b")  # a ruling id: H10, O3, M4, S2
_ASIDE = re.compile(r"\s*\(([^()]*)\)")  # an aside in brackets, with the space before it


def without_rules(text: str) -> tuple[str, list[str]]:
    """A sentence as a student reads it, without its ruling ids, and the ids it named, in order.

    "... decline it (M3, M4)." gives ("... decline it.", ["M3", "M4"]); an aside that says more than ids keeps
    its words: "(your own only, M4)" becomes "(your own only)". Ids only count inside brackets, so a card or a
    square ("♥5", "e4") is never taken for one.
    """
    found: list[str] = []

    def drop(aside: re.Match[str]) -> str:
        ids = RULE_ID.findall(aside.group(1))
        if not ids:
            return aside.group(0)
        found.extend(ids)
        words = re.sub(r"\s*[,;]\s*(?=[,;])", "", RULE_ID.sub("", aside.group(1))).strip(" ,;-–")
        return f" ({words})" if words else ""

    return _ASIDE.sub(drop, text).strip(), found


_FIRST_WORD = re.compile(r"[a-z]+(?![\w@])")  # "the", "into", "it's": not "e4", "tap2" or "fez@0.2"


def sentence(text: str, capital: bool = False) -> str:
    """``text`` as a line a student reads, with exactly one mark at its end: a full stop unless the words (without
    ruling ids, :func:`without_rules`) already end with ? ! . or …. The stop goes after any ids in brackets, so it
    still ends the words once the message line has dropped them. ``capital`` raises the first letter of a first
    word made of letters only, for the engines' and the table host's sentences, which start small because they
    are also part of longer ones ("the beanie has been raced …"); a line that starts with a move or a square
    ("tap2 is …", "e4 is taken …") keeps its first letter."""
    text = text.strip()
    text = text[:1].upper() + text[1:] if capital and _FIRST_WORD.match(text) else text
    return text if not text or without_rules(text)[0].endswith((".", "!", "?", "…")) else f"{text}."


def rule_name(rule: str) -> str:
    """A ruling id in words, as a "why?" names it: "rule H10: Last cookie"."""
    name = RULE_NAMES.get(rule, "")
    return f"rule {rule}: {name}" if name else f"rule {rule}"


class Told(NamedTuple):
    """One line of the message line: what a student reads (``text``, no ids), and the sentences behind it
    (``sources``, the engine's, ids and all: an :class:`~hatskit.core.Event` or a sentence), bold or not."""

    text: str
    sources: tuple[Event | str, ...] = ()
    strong: bool = False

    @classmethod
    def of(cls, source: Event | str, strong: bool = False) -> Told:
        """A sentence (or an event) shown whole, without its ids."""
        return cls(without_rules(str(source))[0], (source,), strong)


def told_html(lines: Sequence[Told | Event | str], notes: Sequence[str] = ()) -> str:
    """A message as a student reads it: each line without its ruling ids, then ONE folded "why?" for the
    whole message, naming every rule its sentences applied ("rule H10: Last cookie").

    The one place every table turns the engines' sentences (ids and all) into the message line: narration,
    refusals, notes and hints. A sentence that says more than its line shows (a bot's move told short) is
    given whole in the "why?", with its rules; ``notes`` (a hint's numbers) come last. Without ids or notes
    there is no "why?". The fold follows the lines, so a screen reader (the message line is a live region,
    ``role="log"``) reads the lines first and then only "why?", closed.
    """
    told = [line if isinstance(line, Told) else Told.of(line) for line in lines]
    shown = "<br>".join(f"<b>{escape(line.text)}</b>" if line.strong else escape(line.text) for line in told)
    items: list[str] = []
    named: set[str] = set()
    for line in told:
        for source in line.sources:
            full, rules = without_rules(str(source))
            rule = getattr(source, "rule", None)
            rules += [rule] if rule is not None and rule not in rules else []
            fresh = [rule for rule in rules if rule not in named]
            if full not in line.text:  # the line told it short: the whole sentence, with its rules
                names = f' — <span class="hk-rule">{escape(", ".join(map(rule_name, rules)))}</span>' if rules else ""
                items.append(f"{escape(full)}{names}")
            else:
                items += [f'<span class="hk-rule">{escape(rule_name(rule))}</span>' for rule in fresh]
            named.update(rules)
    items += [escape(note) for note in notes if note]
    if not items:
        return shown
    listed = "".join(f"<li>{item}</li>" for item in items)
    return f'{shown}<details class="hk-why"><summary>why?</summary><ul>{listed}</ul></details>'


def score_panel_html(sheet: ScoreSheet, outcome: Outcome | None) -> str:
    """A score sheet in short: the outcome (or "if the game ended now") and the totals lead,
    each player's lines folded away behind their total (a <details> per player)."""
    lead = f"<b>{escape(without_rules(outcome.reason)[0])}</b>" if outcome is not None else ""  # the ids: in "how?"
    if not sheet.final:
        lead = f"If the game ended now{_note(without_rules(sheet.note)[0])}:"
    totals = sheet.totals
    folds = [_player_fold(sheet, seat, name, totals[seat]) for seat, name in enumerate(sheet.seat_names)]
    for team, points in zip(sheet.teams or (), sheet.team_totals or (), strict=True):
        members = " + ".join(sheet.seat_names[s] for s in team)
        folds.append(f'<div class="hk-total">team {escape(members)}: {points}</div>')
    return f'<div class="hk hk-panel"><div class="hk-lead">{lead}</div>{"".join(folds)}</div>'


def move_list_html(plies: Sequence[Sequence[Event]], shown: int) -> str:
    """The game's moves as a numbered list, each told by its events (public words only, as the message
    line tells them, without their rule ids: a move stepped to is told on the message line, its rules behind
    "why?"); the move that led to the shown position is marked (bold, a ◀, aria-current). Without moves it says
    so of this table: a game opened from a link at a later position, its end even, has none here either."""
    marked = ' class="hk-last" aria-current="step"'
    told = ["; ".join(_told(event.text) for event in events) or "a move" for events in plies]
    items = [f"<li{marked if number == shown else ''}>{line}</li>" for number, line in enumerate(told, start=1)]
    body = f'<ol class="hk-movelist">{"".join(items)}</ol>' if items else "<div>No moves on this table yet.</div>"
    return f'<div class="hk hk-panel"><div class="hk-lead"><b>Moves</b></div>{body}</div>'


@functools.lru_cache(maxsize=4096)
def _told(text: str) -> str:
    """An event's sentence as the move list shows it. Kept: the list is drawn whole after every move, and all but
    its last lines were drawn the same way before."""
    return escape(without_rules(text)[0])


def _player_fold(sheet: ScoreSheet, seat: int, name: str, total: int) -> str:
    """One player's total, opening onto the lines that make it up.

    A line that counts cards or squares names them (``data-hk-shows``) and its seat (``data-hk-seat``), and
    takes the keyboard's focus, so a live table can point at them while the line is hovered or focused
    (widgets/toolkit/view.js); the seat keeps it from pointing at a card of the same name in another seat's panel.
    """
    rows = "".join(
        f"<tr{_shows(line)}><td>{escape(_round_prefix(line.round) + line.category)}</td>"
        f'<td class="hk-pts">{line.points}</td><td>{escape(line.explanation)}</td></tr>'
        for line in sheet.lines_of(seat)
    )
    head = '<tr><th>category</th><th class="hk-pts">points</th><th>why</th></tr>'
    summary = f'<summary class="hk-total">{escape(name)}: {total} <span class="hk-how">how?</span></summary>'
    return f'<details>{summary}<table class="hk-score">{head}{rows}</table></details>'


def _shows(line: ScoreLine) -> str:
    """A score row's attributes naming what it counts and whose line it is (none for a line about nothing shown)."""
    if not line.shows:
        return ""
    return f' data-hk-shows="{escape(" ".join(line.shows))}" data-hk-seat="{line.seat}" tabindex="0"'


def _round_prefix(round_number: int | None) -> str:
    """ "round 2 · " before a line of a game played in rounds, nothing otherwise."""
    return "" if round_number is None else f"round {round_number} · "


def stars_html(lessons: Sequence[Lesson]) -> str:
    """The lessons as a list on a page without a kernel (the index): each ☆ becomes ★ where this browser kept a star.

    The page's own script fills the stars in (config/voila.py, TEXT_PAGE_TEMPLATE), from what
    widgets/teaching/progress.js keeps; without it (a notebook on GitHub) every lesson shows ☆.
    """
    items = "".join(
        f'<li data-hk-lesson="{escape(lesson.key)}"><span class="hk-star" aria-hidden="true">☆</span> '
        f'{escape(lesson.title)} <span class="hk-starsays">(no star yet)</span></li>'
        for lesson in lessons
    )
    return f'<ul class="hk-lessonlist">{items}</ul>'
