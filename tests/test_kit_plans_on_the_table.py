"""The teacher's kits' walkthrough plans (docs/kits/*.md, "Walkthrough plan"), done on the page as a teacher does them.

tests/test_kits.py checks each plan against the engine: its deal, its moves, its claims. This file checks that a
teacher can do the plan on the game page, as it says: against a real table host on loopback in the test's own
asyncio loop (as tests/test_widgets_walkthrough.py), the teacher's table is the game's own table made by
``from_link`` with the host's teacher link and the plan's **Open:** query. It must deal the plan's game with every
seat the teacher's (no bot moves by itself), and the plan's steps must clear any pass-the-laptop screen. The
teacher starts the walkthrough from its fold and students follow (``?walk=CODE``). At each stop the teacher presses
the stop's moves on the table as the page does (the offered path whose notation is the plan's move, or the button
that makes it), the students' tables follow, the teacher presses *ask: your move?*, one student presses a move the
stop names as allowed and the teacher's tally counts it (other students press the stop's other allowed moves), and
further students press each illegal try the stop names: the tally counts each, refused by the rule the kit cites.
A refused move the kit marks *Not a try:* is one the teacher asks aloud, because a student's table cannot send it
(a hidden button, a press that picks something else up): the test checks that no press sends it, so the mark stays
true. All of it runs with the tables' bots off (every seat a reader, ``bot_delay=0``) in a few seconds.

Hats Off! has no walkthrough (a race): its plan is prose, and tests/test_kits.py checks it says so.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import hatskit
from tablehost.server import TableServer
from tests.helpers import said, tap
from tests.hosted import run, served, until
from tests.test_kits import REPO, _module, plan_deal
from tests.test_widgets_walkthrough import code_of, follow_of, following, lead_of, page, walk_of
from widgets import HatsTable, MadderTable, SombreroTable
from widgets.table.frame import TableFrame
from widgets.table.setup import READER
from widgets.table.walk_lead import SHOWS, Leading, LeadingTable
from widgets.toolkit import ui
from widgets.toolkit.parts import is_shown

build = _module("hatskit_kits_build_on_the_table", REPO / "docs" / "kits" / "build.py")
TABLES: dict[str, type[TableFrame]] = {"hats": HatsTable, "madder": MadderTable, "sombrero": SombreroTable}
KITS = [build.parse_kit(REPO / "docs" / "kits" / f"{name}.md") for name in TABLES]
SHOWS_CHOSEN = re.compile(r"the class sees: ([^\"”*]+)[\"”*]")  # the plan's choice in the fold, if it names one
CITED = re.compile(r"\b([HOMS]\d+)\b")
ILLEGAL = re.compile(r"legal (.+)")
NOT_A_TRY = "*Not a try:*"  # a refused move the plan asks about aloud: the table does not let a student press it


def kit_id(kit: Any) -> str:
    return str(kit.name)


# -- the plan, read as a teacher reads it --------------------------------------------------------------------


def allowed(stop: Any) -> list[str]:
    """The moves a stop names as ones to play: each claim's first move, unless the claim says it is not allowed."""
    moves = [named_move(claim) for claim in stop.claims if not refused(claim)]
    return list(dict.fromkeys(move for move in moves if move))


def illegal_tries(stop: Any) -> list[tuple[str, set[str]]]:
    """The tries a stop names as not allowed for a student to press, each with the rule ids the kit cites for it."""
    return [(named_move(claim), set(CITED.findall(claim.markdown))) for claim in refused_claims(stop, aloud=False)]


def asked_aloud(stop: Any) -> list[str]:
    """The moves a stop says are not allowed and marks *Not a try:* (the table does not let a student press them)."""
    return [named_move(claim) for claim in refused_claims(stop, aloud=True)]


def refused_claims(stop: Any, aloud: bool) -> list[Any]:
    return [claim for claim in stop.claims if refused(claim) and (NOT_A_TRY in claim.markdown) == aloud]


def named_move(claim: Any) -> str:
    found = build.BACKTICKED.search(claim.markdown)
    return found.group(1) if found else ""


def refused(claim: Any) -> bool:
    """A ``legal`` claim whose answer is **No**."""
    return bool(ILLEGAL.fullmatch(claim.ask)) and "**No.**" in claim.markdown


def shows_of(kit: Any) -> str | None:
    """What the plan tells the teacher to choose under "the class sees" (None: it leaves the fold's choice)."""
    found = SHOWS_CHOSEN.search(kit.parts["Walkthrough plan"])
    return dict(SHOWS)[found.group(1).strip()] if found else None


# -- pressing the table as the page does ---------------------------------------------------------------------


def press_offered(table: TableFrame, move: str) -> None:
    """Press ``move`` as the page does: the parts of the path the table offers for it, else the button named so."""
    paths = [row["path"] for row in table.moves_part.offered if row["move"] == move]
    if paths:
        tap(table, *(table.part_by_id(uid) for uid in paths[0]))  # type: ignore[misc]
        return
    button = named_button(table, move)
    offered = sorted({row["move"] for row in table.moves_part.offered})
    assert button is not None and is_shown(button), f"the table offers no press for {move}; it offers {offered}"
    tap(table, button)


def named_button(table: TableFrame, move: str) -> ui.Button | None:
    """The button that makes ``move`` on its own (Madder's *decline*, *done*), shown or not."""
    buttons = (part for part in table.root.parts() if isinstance(part, ui.Button) and part.description == move)
    return next(buttons, None)


def presses_for(table: TableFrame, move: str) -> list[ui.Part]:
    """The parts a student presses for ``move``, a move the table does not offer: the table's own path (a card and
    its position, a square and the next), for a Madder gift the hat in the hand, then *into …* its player, or the
    button named so."""
    if isinstance(table, MadderTable) and ">" in move:
        hat, name = move.split(">")
        first = next(row["path"][0] for row in table.moves_part.offered if row["move"].startswith(f"{hat}>"))
        return [table.part_by_id(first), table.target_buttons[table.game.seat_names.index(name)]]  # type: ignore[list-item]
    path = list(table.path_of(table.shown().parse(move)))
    button = named_button(table, move)
    return path or ([] if button is None else [button])


# -- the teacher and the class ---------------------------------------------------------------------------------


async def opened_as_planned(server: TableServer, kit: Any) -> TableFrame:
    """The teacher's page opened with the host's teacher link and the plan's query, the pass-the-laptop screen
    cleared as the plan says, and a walkthrough started from the fold as the plan says."""
    table_class, query = TABLES[kit.name], kit.walkthrough_query()
    teacher = page(table_class, server.url, f"teacher={server.teacher_secret}&{query}")
    assert "could not be used" not in said(teacher.message), said(teacher.message)
    deal = dict(part.split("=") for part in query.split("&"))
    assert teacher.game.head["seed"] == int(deal["seed"]) and len(teacher.game.seat_names) == int(deal["players"])
    assert teacher.game.position() == plan_deal(kit.name, query)[0].position(), "the deal tests/test_kits.py replays"
    assert tuple(teacher.seats) == (READER,) * int(deal["players"]) and not teacher.bots, "every seat the teacher's"
    assert teacher.game.ply == 0, "no bot moved"
    clear_the_screen(teacher, kit)
    fold = lead_of(teacher)
    assert isinstance(fold, Leading) and is_shown(fold.start_button)
    if (shows := shows_of(kit)) is not None:
        fold.shows_box.value = shows
    fold.start_button.click()
    await until(lambda: fold.code is not None and isinstance(teacher, LeadingTable))
    return teacher


def clear_the_screen(teacher: TableFrame, kit: Any) -> None:
    """Where every seat is the teacher's in a game of hidden hands the table puts up the pass-the-laptop screen; the
    plan must say to switch on *teacher's view*, and that must clear it."""
    if not is_shown(teacher.guard.screen):
        assert teacher.moves_part.offered, f"{kit.name}: no screen, and yet nothing to press"
        return
    assert not teacher.moves_part.offered, "behind the screen the table offers no move"
    plan = kit.parts["Walkthrough plan"]
    assert "*teacher's view*" in plan, f"{kit.name}: the table asks to pass the laptop; the plan never says why not"
    assert is_shown(teacher.guard.reveal_box)
    teacher.guard.reveal_box.value = True  # the toggle the plan names, as the page sets it
    assert not is_shown(teacher.guard.screen) and teacher.moves_part.offered, "the teacher's view clears the screen"


async def played(server: TableServer, teacher: TableFrame, moves: tuple[str, ...], students: list[Any]) -> None:
    """The stop's moves pressed on the teacher's table, one by one; every student's table shows each."""
    for move in moves:
        ply = teacher.game.ply
        press_offered(teacher, move)
        assert teacher.game.ply == ply + 1 and str(teacher.game.moves[-1]) == move, f"{move}: {said(teacher.message)}"
        assert not is_shown(teacher.guard.screen), f"after {move}: the table asks to pass the laptop"
    await until(lambda: walk_of(server, teacher).at == teacher.game.ply)
    await until(lambda: all(student.game.ply == teacher.game.ply for student in students))


async def asked(teacher: TableFrame, students: list[Any]) -> None:
    """*ask: your move?* pressed: every student's table asks for the move."""
    lead_of(teacher).ask_button.click()
    await until(lambda: all(student.decides() for student in students))
    assert all("Your move?" in said(follow_of(student).note) for student in students)
    assert f"0 of {len(students)} answered" in tally(teacher), said(lead_of(teacher).note)


def tally(teacher: TableFrame) -> str:
    return said(lead_of(teacher).tally_line)


async def answered(teacher: TableFrame, student: Any, move: str, count: int, following: int) -> None:
    """A student presses a move the stop allows on their table; the teacher's tally counts it."""
    press_offered(student, move)
    await until(lambda: "is in: a legal move" in said(student.message))
    await until(lambda: f"{count} of {following} answered" in tally(teacher))
    assert f"{in_words(teacher, move)}: 1" in tally(teacher) and not student.decides(), tally(teacher)


def in_words(teacher: TableFrame, move: str) -> str:
    """An answer as the tally says it to the class: in the words of a hint to the asked seat, not in notation."""
    asked = lead_of(teacher).tally
    assert asked is not None
    words = teacher.notation_words(move, asked["seat"])
    shown = tally(teacher)
    assert words != move and f"{move}: " not in shown, f"{move} is in notation on the projector: {shown}"
    return words


async def tried(teacher: TableFrame, student: Any, move: str, rules: set[str], count: int, following: int) -> None:
    """A student presses a try the stop names as not allowed; the tally counts it, refused by the rule the kit cites."""
    presses = presses_for(student, move)
    assert presses and all(is_shown(part) for part in presses), f"{move}: the student's table has nothing to press"
    tap(student, *presses)
    assert "went to your teacher" in said(student.message), f"{move}: no try is sent: {said(student.message)}"
    await until(lambda: "not allowed here" in said(student.message))
    await until(lambda: f"{count} of {following} answered" in tally(teacher))
    counted, drawn = tally(teacher), lead_of(teacher).tally_line.value
    assert f"{in_words(teacher, move)}: 1 ✘ not allowed" in counted, counted
    cited = [rule for rule in rules if f"<abbr title='rule {rule}: " in drawn]  # the rule named, its id the tooltip
    assert cited, f"{move}: {rules}: {drawn}"


def not_pressed(student: Any, move: str) -> None:
    """A move the plan asks about aloud: no press on the student's table sends it (the table says why, or picks
    something else up)."""
    presses = presses_for(student, move)
    if not all(is_shown(part) for part in presses):
        return  # a hidden button (Madder's *done* in the turns): nothing to press
    tap(student, *presses)
    assert student.decides() and follow_of(student).question() is not None, f"{move} was sent: it could be counted"


async def class_answers(teacher: TableFrame, students: list[Any], stop: Any, where: str) -> None:
    """At an asked stop: each move the stop allows answered by one student (Maya the first), then each try it names
    as not allowed pressed by another and counted, then each move it asks about aloud found not to be pressable."""
    moves, tries, aloud = allowed(stop), illegal_tries(stop), asked_aloud(stop)
    assert moves, f"{where}: no move named as allowed"
    for count, (student, move) in enumerate(zip(students, moves, strict=False), start=1):
        await answered(teacher, student, move, count, len(students))
    rest = students[len(moves) :]
    for count, (student, (move, rules)) in enumerate(zip(rest, tries, strict=False), start=len(moves) + 1):
        await tried(teacher, student, move, rules, count, len(students))
    for student, move in zip(rest[len(tries) :], aloud, strict=False):
        not_pressed(student, move)


# -- the plans ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kit", KITS, ids=kit_id)
def test_a_teacher_opens_the_plans_link_plays_every_stop_and_the_class_answers_your_move(kit: Any) -> None:
    stops = kit.stops()
    seats = max(len(allowed(stop)) + len(illegal_tries(stop)) + len(asked_aloud(stop)) for stop in stops)

    async def test() -> None:
        async with served() as server:
            teacher = await opened_as_planned(server, kit)
            code = code_of(teacher)
            names = ["Maya", *[f"Student {n}" for n in range(2, seats + 1)]]
            students = [await following(server, TABLES[kit.name], code, name) for name in names]
            for stop in stops:
                await played(server, teacher, stop.moves, students)
                await asked(teacher, students)
                await class_answers(teacher, students, stop, f"{kit.name} stop {stop.number}")

    run(test)


def test_every_game_a_teacher_can_lead_a_walkthrough_of_has_its_plan_done_here() -> None:
    names = {name for name, spec in hatskit.GAMES.items() if not spec.simultaneous}
    assert names == set(TABLES), "a game played in turns needs its plan done on the table here"
