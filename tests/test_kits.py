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

Every kit has a walkthrough plan (docs/kits/build.py says its shape). A plan is replayed
on the engine: the deal its **Open:** line adds to the teacher link, read as the game page
reads it (``table_from_query``), every seat a reader so no bot moves by itself; each
stop's moves, which must be legal in order; and each stop's claims, asked as the answer
key's questions are (the item's first bold text is the answer). A game played as a race
(Hats Off!) cannot be a walkthrough (widgets/table/walkthrough.py refuses it): its plan
has no deal and no moves, and must say so.
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
from widgets.table.links import table_from_query
from widgets.table.setup import READER

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


def test_a_kit_without_all_its_parts_is_refused(tmp_path: Path) -> None:
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


# -- walkthrough plans against the engine -------------------------------------------------------------------

GAME_PAGES = {"hats": "hats", "hats-off": "hats_off", "madder": "madder_than_a_hatter", "sombrero": "sombrero"}
STOPS = range(2, 5)  # a plan stops at two to four positions
NO_WALKTHROUGH = re.compile(r"\bno walkthrough\b|\bcannot be a walkthrough\b|refuses to start a walkthrough", re.I)


def is_race(kit: Any) -> bool:
    """Whether the kit's game is played as a race, which the app will not lead as a walkthrough."""
    return hatskit.GAMES[kit.name].simultaneous


@pytest.mark.parametrize("kit", KITS, ids=kit_id)
def test_every_kit_has_a_walkthrough_plan(kit: Any) -> None:
    plan, stops = kit.parts["Walkthrough plan"], kit.stops()
    assert len(stops) in STOPS, f"{kit.name}: the walkthrough plan has {len(stops)} stops, not 2 to 4"
    assert [stop.number for stop in stops] == list(range(1, len(stops) + 1)), f"{kit.name}: stops out of order"
    if is_race(kit):
        assert NO_WALKTHROUGH.search(plan), f"{kit.name}: a race's plan must say plainly it cannot be a walkthrough"
        assert kit.walkthrough_query() is None and not any(stop.moves for stop in stops), (
            f"{kit.name}: a race has no walkthrough to replay, so its plan names no deal and no moves"
        )
        return
    page = GAME_PAGES[kit.name]
    assert (REPO / "notebooks" / f"{page}.ipynb").exists(), f"{kit.name}: no game page {page}.ipynb"
    assert f"{page}.ipynb?teacher=" in plan, f"{kit.name}: the plan must say which page to open: {page}.ipynb"
    assert kit.walkthrough_query(), f"{kit.name}: no **Open:** line with the query to add (`&seed=...`)"
    for stop in stops:
        assert "your move?" in stop.markdown, f"{kit.name} stop {stop.number}: no 'your move?' question"
        assert stop.claims, f"{kit.name} stop {stop.number}: no claim checked against the engine"


@pytest.mark.parametrize("kit", [kit for kit in KITS if not is_race(kit)], ids=kit_id)
def test_walkthrough_plan_replays_on_the_engine(kit: Any) -> None:
    problems = plan_problems(kit)
    assert not problems, "\n".join(problems)


def plan_problems(kit: Any) -> list[str]:
    """Everything in ``kit``'s walkthrough plan the engine disagrees with, each naming the kit and the stop."""
    query = kit.walkthrough_query()
    if query is None:
        return [f"{kit.name}: the walkthrough plan names no deal (an **Open:** line with `&seed=...`)"]
    game, problems = plan_deal(kit.name, query)
    for stop in kit.stops():
        for move in stop.moves:
            reason = game.why_illegal(move)
            if reason is not None:
                return [*problems, f"{kit.name} stop {stop.number}: the move {move!r} is refused: {reason}"]
            game.play(move)
        problems += [
            f"{kit.name} stop {stop.number}: {problem}"
            for claim in stop.claims
            if (problem := claim_problem(game, claim))
        ]
    return problems


def plan_deal(game_id: str, query: str) -> tuple[Game, list[str]]:
    """The game the teacher's page deals from the plan's query, and what is wrong with the query for a walkthrough."""
    found = table_from_query(game_id, query, (READER,))
    assert found is not None, f"{game_id}: the plan's query {query!r} sets up nothing"
    game, seats = found
    problems = []
    if "seed" not in game.head or "seed" not in query:
        problems.append(f"{game_id}: the plan's query {query!r} names no seed: a walkthrough needs a known deal")
    if set(seats) != {READER}:
        problems.append(f"{game_id}: the plan's seats {seats} must all be readers, or bots move by themselves")
    return game, problems


def claim_problem(game: Game, claim: Any) -> str | None:
    """What is wrong with one claim of a stop at ``game``'s position (None: the engine agrees)."""
    try:
        kind, expected, rule = engine_answer(game, claim.ask)
    except Exception as error:  # a move of the query the engine refuses, a player it does not know
        return f"the engine cannot answer {claim.ask!r}: {error}"
    bold = re.search(r"\*\*(.+?)\*\*", claim.markdown)
    if bold is None:
        return f"the claim {claim.ask!r} gives no answer in bold"
    if key_says(kind, bold.group(1)) != expected:
        return f"the plan says {bold.group(1)!r}, the engine {expected!r} ({claim.ask})"
    if not CITED.search(claim.markdown) or (rule and rule not in claim.markdown):
        return f"the claim {claim.ask!r} must cite its ruling{f' ({rule}, as the engine does)' if rule else ''}"
    return None


def test_a_wrong_plan_is_caught(tmp_path: Path) -> None:
    """A plan with a move the engine refuses, or a claim it disagrees with, fails with the kit, stop and move."""
    source = (REPO / "docs" / "kits" / "hats.md").read_text(encoding="utf-8")
    wrong_move = tmp_path / "hats.md"
    wrong_move.write_text(source.replace("**Play:** `♦4@3` (Ben)", "**Play:** `♥4@2` (Ben)"), encoding="utf-8")
    problems = plan_problems(build.parse_kit(wrong_move))
    assert any("hats stop 3: the move '♥4@2' is refused" in problem and "(H2)" in problem for problem in problems)
    wrong_claim = tmp_path / "wrong" / "hats.md"
    wrong_claim.parent.mkdir()
    wrong_claim.write_text(source.replace("- `★5@1` (taking ♣3): **8 points**", "- `★5@1` (taking ♣3): **9 points**"))
    problems = plan_problems(build.parse_kit(wrong_claim))
    assert problems == ["hats stop 3: the plan says '9 points', the engine 8 (points Ana after ★5@1)"], problems


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
