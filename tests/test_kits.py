"""Teacher's kits (docs/kits): their shape, their answer keys checked against the engine, their pages printed to A4.

The printing tests need Chromium and Playwright. Where they are missing those tests
skip with a message saying so; with HATSKIT_REQUIRE_BROWSER=1 (CI sets it) they fail
instead, as the browser tests do (tests/browser/conftest.py).

An answer-key check is named in its question by a comment ``<!-- ask: <query> -->``.
The query is asked of the question's position, after the moves that follow
``after`` (comma-separated), if any:

- ``legal <move>``: is the move allowed before those moves? The key says **Yes** or
  **No**; a No must cite the ruling the engine's refusal cites.
- ``cards-for <position>`` (Hats): the hand cards that may be exchanged onto that
  table position; the key names exactly those cards.
- ``points <player> [<category>, ...]``: the player's points on the score sheet, all
  of them or only the lines of those categories; the key's first number.
- ``cookie`` (Hats): who holds the last cookie; the key names that player, or nobody.
- ``taken`` (Sombrero): how many hats the moves took from the side not moving.
- ``hatted <square>`` (Sombrero): does the piece there wear a hat? **Yes** or **No**.
- ``winner``: the winners; the key names them.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest

import hatskit
from hatskit.core import Game

if TYPE_CHECKING:
    from playwright.sync_api import Page

REPO = Path(__file__).resolve().parents[1]
A4_POINTS = (595.28, 841.89)
POINT_TOLERANCE = 1.0
ENGINE_CHECKED = {"hats", "sombrero"}  # every question of these kits must be checked against the engine
GAME_IDS = {"hats", "hats-off", "madder", "sombrero"}  # the four games of the project


def _module(name: str, path: Path) -> ModuleType:
    """A Python file that is not in a package (docs/kits/build.py, a conftest), loaded as a module."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


build = _module("hatskit_kits_build", REPO / "docs" / "kits" / "build.py")
browser_setup = _module("hatskit_browser_setup", REPO / "tests" / "browser" / "conftest.py")
KITS = [build.parse_kit(path) for path in build.kit_paths()]
QUESTIONS = [(kit, question) for kit in KITS for question in kit.questions()]
RULING_IDS = set(re.findall(r"^- \*\*([HOMS]\d+) ", (REPO / "docs" / "rulings.md").read_text(), re.MULTILINE))
CITED = re.compile(r"\b([HOMS]\d+)\b")


def kit_id(kit: Any) -> str:
    return kit.name


def question_id(case: tuple[Any, Any]) -> str:
    kit, question = case
    return f"{kit.name}-q{question.number}"


# -- shape --------------------------------------------------------------------------------------------------


def test_every_game_has_a_kit_and_every_kit_a_game() -> None:
    names = {kit.name for kit in KITS}
    assert set(hatskit.GAMES) <= names, f"games without a teacher's kit: {set(hatskit.GAMES) - names}"
    assert names == GAME_IDS


@pytest.mark.parametrize("kit", KITS, ids=kit_id)
def test_rulings_cited_exist_and_belong_to_the_game(kit: Any) -> None:
    letter = {"hats": "H", "hats-off": "O", "madder": "M", "sombrero": "S"}[kit.name]
    cited = set(CITED.findall(kit.source.read_text(encoding="utf-8")))
    assert cited, f"{kit.name} cites no ruling"
    assert cited <= RULING_IDS, f"{kit.name} cites rulings docs/rulings.md lacks: {cited - RULING_IDS}"
    assert {ruling[0] for ruling in cited} == {letter}, f"{kit.name} cites another game's rulings: {cited}"


@pytest.mark.parametrize("kit", KITS, ids=kit_id)
def test_each_answer_is_given_in_bold_and_names_its_ruling(kit: Any) -> None:
    for number, answer in kit.answers().items():
        assert answer.startswith("**"), f"{kit.name} answer {number} does not start with the answer in bold"
        assert CITED.search(answer), f"{kit.name} answer {number} names no ruling"


@pytest.mark.parametrize("kit", KITS, ids=kit_id)
def test_lesson_plan_steps_fill_45_minutes_without_gaps(kit: Any) -> None:
    steps = re.findall(r"^\| (\d+)–(\d+) \|", kit.parts["Lesson plan"], re.MULTILINE)
    assert steps, f"{kit.name}: no timed steps ('| 0–5 | ... |') in the lesson plan"
    ends = [0] + [int(end) for _, end in steps]
    assert [int(start) for start, _ in steps] == ends[:-1], f"{kit.name}: the steps must follow on: {steps}"
    assert ends[-1] == 45


@pytest.mark.parametrize("kit", KITS, ids=kit_id)
def test_lesson_plan_uses_the_apps_teaching_tools(kit: Any) -> None:
    plan = kit.parts["Lesson plan"].lower()
    for tool in (r"\bbots?\b", r"\bhint\b", r"\bstep (back|through)\b", r"\bpuzzles?\b"):
        assert re.search(tool, plan), f"{kit.name}: the plan never uses {tool!r} (bots, hints, step-through, puzzles)"


@pytest.mark.parametrize("kit", KITS, ids=kit_id)
def test_printable_page_is_up_to_date(kit: Any) -> None:
    page = build.page_path(kit)
    assert page.exists(), f"{page.name} is missing: run python docs/kits/build.py"
    assert page.read_text(encoding="utf-8") == build.render_kit(kit), (
        f"{page.name} is out of date: run python docs/kits/build.py"
    )


def test_a_kit_without_its_four_parts_is_refused(tmp_path: Path) -> None:
    broken = tmp_path / "broken.md"
    broken.write_text("# Broken\n\n## Summary\n\nText.\n\n## Lesson plan\n\nText.\n", encoding="utf-8")
    with pytest.raises(build.KitError, match=r"broken\.md: the parts must be Summary, Quiz"):
        build.parse_kit(broken)


# -- answer keys against the engine ------------------------------------------------------------------------


@pytest.mark.parametrize("kit", [kit for kit in KITS if kit.name in ENGINE_CHECKED], ids=kit_id)
def test_every_question_of_an_engine_checked_kit_is_asked_of_the_engine(kit: Any) -> None:
    unchecked = [question.number for question in kit.questions() if question.ask is None]
    assert not unchecked, f"{kit.name}: questions {unchecked} have no <!-- ask: ... --> check"


@pytest.mark.parametrize("case", [case for case in QUESTIONS if case[1].ask], ids=question_id)
def test_answer_key_agrees_with_the_engine(case: tuple[Any, Any]) -> None:
    kit, question = case
    assert question.position is not None, f"{kit.name} question {question.number} asks without a position"
    game_id = question.position["game"]
    if game_id not in hatskit.GAMES:
        pytest.skip(f"ANSWER KEY NOT CHECKED: {game_id!r} is not a registered game yet ({kit.name} q{question.number})")
    answer = kit.answers()[question.number]
    kind, expected, rule = engine_answer(hatskit.load(question.position), question.ask)
    bold = re.match(r"\*\*(.+?)\*\*", answer)
    assert bold, f"answer {question.number} has no bold answer"
    assert key_says(kind, bold.group(1)) == expected, (
        f"{kit.name} q{question.number}: the key says {bold.group(1)!r}, the engine {expected!r} ({question.ask})"
    )
    if rule:
        assert rule in answer, f"{kit.name} q{question.number}: the engine cites {rule}, the key does not"


def engine_answer(before: Game, ask: str) -> tuple[str, Any, str | None]:
    """What the engine says to ``ask``: the kind of answer, the answer, and a ruling id the key must cite."""
    query, _, moves = ask.partition(" after ")
    after = hatskit.load(before.position())
    for move in filter(None, (text.strip() for text in moves.split(","))):
        after.play(move)
    name, _, argument = query.partition(" ")
    return QUERIES[name](before, after, argument.strip())


def _legal(before: Game, after: Game, move: str) -> tuple[str, Any, str | None]:
    reason = before.why_illegal(move)
    cited = CITED.findall(reason or "")
    return "yes-no", reason is None, cited[-1] if cited else None


def _cards_for(before: Game, after: Game, position: str) -> tuple[str, Any, None]:
    moves = before.legal_moves()
    return "cards", {str(move.card) for move in moves if getattr(move, "position", None) == int(position)}, None


def _points(before: Game, after: Game, argument: str) -> tuple[str, Any, None]:
    player, _, categories = argument.partition(" ")
    seat = after.seat_names.index(player)
    wanted = {category.strip() for category in categories.split(",") if category.strip()}
    lines = [line for line in after.score().lines_of(seat) if not wanted or line.category in wanted]
    return "number", sum(line.points for line in lines), None


def _cookie(before: Game, after: Game, argument: str) -> tuple[str, Any, None]:
    holder = after.state.cookie
    return "names", {"nobody" if holder is None else after.seat_names[holder]}, None


def _taken(before: Game, after: Game, argument: str) -> tuple[str, Any, None]:
    other = 1 - before.to_move
    return "number", before.score().totals[other] - after.score().totals[other], None


def _hatted(before: Game, after: Game, square: str) -> tuple[str, Any, None]:
    position = after.position()
    return "yes-no", any(square in position[side]["hatted"] for side in ("white", "black")), None


def _winner(before: Game, after: Game, argument: str) -> tuple[str, Any, None]:
    outcome = after.outcome()
    return "names", {after.seat_names[seat] for seat in outcome.winners} if outcome else set(), None


QUERIES: dict[str, Callable[[Game, Game, str], tuple[str, Any, str | None]]] = {
    "legal": _legal,
    "cards-for": _cards_for,
    "points": _points,
    "cookie": _cookie,
    "taken": _taken,
    "hatted": _hatted,
    "winner": _winner,
}


def key_says(kind: str, bold: str) -> Any:
    """The answer key's bold answer read as the engine's kind of answer."""
    if kind == "yes-no":
        assert re.match(r"(Yes|No)\b", bold), f"a yes-or-no answer must start with Yes or No: {bold!r}"
        return bold.startswith("Yes")
    if kind == "number":
        return int(re.search(r"[−-]?\d+", bold).group().replace("−", "-"))
    if kind == "cards":
        return set(re.findall(r"[★♠♥♣♦✿⎈][1-6]", bold))
    names = set(re.findall(r"\b(Ana|Ben|Cleo|Dev|White|Black|nobody)\b", bold, re.IGNORECASE))
    return {"nobody"} if {name.lower() for name in names} == {"nobody"} else names


def test_a_wrong_answer_key_is_caught() -> None:
    """Each kind of answer, read from a wrong key, differs from the engine's answer."""
    wrong = {"yes-no": lambda right: "No." if right else "Yes.", "number": lambda right: f"{right + 1} points."}
    wrong |= {"cards": lambda right: " and ".join(sorted(right)[1:]), "names": lambda right: "Dev."}
    for kit, question in QUESTIONS:
        if question.ask and question.position["game"] in hatskit.GAMES:
            kind, expected, _ = engine_answer(hatskit.load(question.position), question.ask)
            assert key_says(kind, wrong[kind](expected)) != expected, f"{kit.name} q{question.number}"


# -- printing -----------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def chromium_page() -> Iterator[Page]:
    """A headless Chromium tab, or a loud skip (a failure under HATSKIT_REQUIRE_BROWSER=1) where there is none."""
    reason = browser_setup.missing_browser()
    if reason is not None:
        message = f"KIT PRINTING NOT CHECKED: {reason}"
        if os.environ.get("HATSKIT_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{message}, and HATSKIT_REQUIRE_BROWSER=1 requires it", pytrace=False)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(browser_setup.CHROMIUM), headless=True, args=browser_setup.CHROMIUM_ARGS
        )
        yield browser.new_page()
        browser.close()


def print_pages(page: Page, url: str | None = None, html: str | None = None) -> list[tuple[float, float]]:
    """Print a page to PDF as Chromium's print dialog does (paper size from the page's CSS); each page's size."""
    if url:
        page.goto(url)
    else:
        page.set_content(html or "")
    pdf = page.pdf(prefer_css_page_size=True, print_background=True)
    pages = re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf)
    boxes = [tuple(float(n) for n in box.split()[2:]) for box in re.findall(rb"/MediaBox\s*\[([^\]]*)\]", pdf)]
    assert len(boxes) == len(pages), "every page object should carry its own MediaBox"
    return boxes


@pytest.mark.parametrize("kit", KITS, ids=kit_id)
def test_kit_prints_on_a4_with_a_one_page_summary(chromium_page: Page, kit: Any) -> None:
    whole = print_pages(chromium_page, url=build.page_path(kit).as_uri())
    for width, height in whole:
        assert abs(width - A4_POINTS[0]) < POINT_TOLERANCE and abs(height - A4_POINTS[1]) < POINT_TOLERANCE, (
            f"{kit.name}: a page is {width} x {height} pt, not A4"
        )
    parts = {part: len(print_pages(chromium_page, html=build.render_kit(kit, [part]))) for part in build.PARTS}
    assert parts["Summary"] == 1, f"{kit.name}: the summary takes {parts['Summary']} pages"
    assert parts["Answer key"] == 1, f"{kit.name}: the answer key takes {parts['Answer key']} pages"
    assert len(whole) == sum(parts.values()), f"{kit.name}: each part must start a new page: {parts}, {len(whole)}"
