"""*Walkthrough…* (widgets/table/walkthrough.py): the teacher's table leads, the students' tables follow and answer.

As tests/test_widgets_classmates.py: a real table host on loopback on the test's own asyncio loop, the pages are the
games' own tables made by ``from_link`` (the teacher's with the host's teacher link, a student's with ``?walk=``),
and every press is the button's own click or the page's own message.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
from typing import Any
from unittest.mock import patch

import hatskit
from hatskit.drawing import RULE_ID
from tablehost.server import TableServer
from tests.helpers import hand_button, random_game, said, tap
from tests.hosted import on_a_host, until
from tests.test_widgets_shared import press_a_move
from widgets import HatsTable, MadderTable, SombreroTable
from widgets.host import HOST_ENV
from widgets.table.frame import TableFrame
from widgets.table.links import table_from_query, teacher_from_query, teacher_secret_from_query
from widgets.table.walk_follow import ClassTable, Following
from widgets.table.walk_lead import Leading, LeadingTable, tally_html
from widgets.toolkit.parts import is_shown


def page(table_class: type[TableFrame], url: str, query: str, kept: dict[str, str] | None = None) -> Any:
    """A game page's own table as the notebook makes it (the bots answer at once), and the class name and token its
    browser kept."""
    game = hatskit.new_game(table_class.game_id, seed=5)
    with patch.dict(os.environ, {HOST_ENV: url}):
        table = table_class.from_link(game, query=query, bot_delay=0)
    table.classmates.kept_seats.receive({"msg": {"kept": {}, "class": kept}})
    return table


def lead_of(table: TableFrame) -> Leading:
    return table.walkthrough  # type: ignore[attr-defined, no-any-return]


def follow_of(table: TableFrame) -> Following:
    return table.walkthrough  # type: ignore[attr-defined, no-any-return]


async def leading(server: TableServer, table_class: type[TableFrame], shows: str) -> TableFrame:
    """The teacher's page, opened with the host's teacher link, leading a walkthrough of its table's game."""
    teacher = page(table_class, server.url, f"teacher={server.teacher_secret}")
    fold = lead_of(teacher)
    assert isinstance(fold, Leading) and is_shown(fold.start_button)
    fold.shows_box.value = shows
    fold.start_button.click()
    await until(lambda: fold.code is not None and isinstance(teacher, LeadingTable))
    assert f"Walkthrough {fold.code}" in fold.code_line.value
    return teacher


async def following(server: TableServer, table_class: type[TableFrame], code: str, name: str) -> TableFrame:
    """A student's page opened with the walkthrough's link, their name typed, *follow* pressed."""
    student = page(table_class, server.url, f"walk={code.lower()}")
    fold = follow_of(student)
    assert isinstance(fold, Following) and fold.open and "type your name" in said(fold.note)
    fold.name_box.value = name
    fold.follow_button.click()
    await until(lambda: isinstance(student, ClassTable))
    assert fold.kept.class_kept["name"] == name and fold.kept.class_kept["token"], "the browser keeps the token"
    return student


def code_of(teacher: TableFrame) -> str:
    """The code of the walkthrough ``teacher``'s table leads."""
    code = lead_of(teacher).code
    assert code is not None, "the teacher's table leads no walkthrough"
    return code


def walk_of(server: TableServer, teacher: TableFrame) -> Any:
    return server.host.classroom.walks[code_of(teacher)]


@on_a_host
async def test_the_students_tables_follow_every_move_and_step_of_the_teachers_table_seeing_only_the_teachers_seat(
    server: TableServer,
) -> None:
    teacher = await leading(server, HatsTable, shows="seat")
    code = code_of(teacher)
    assert not is_shown(teacher.setup), "no other game while the class follows"
    maya = await following(server, HatsTable, code, "Maya")
    await until(lambda: "1 following: Maya" in lead_of(teacher).code_line.value)
    rng = random.Random(2)
    for _ in range(3):
        press_a_move(teacher, rng)  # type: ignore[arg-type]  # the bots answer at once, as the teacher's
        await until(lambda: maya.game.ply == teacher.game.ply)
    host_game = walk_of(server, teacher).game
    assert [e.text for e in maya.game.events[-1]] == [e.text for e in host_game.events[-1]]
    assert said(maya.message) and not is_shown(maya.free_play_parts[1]) and not is_shown(maya.setup)
    teacher.go_to(2)
    await until(lambda: maya.game.ply == 2)
    assert maya.shown().view(0) == maya.game.view(None)
    frames = [f for f in follow_of(maya).client.frames if f.get("type") == "walk"]  # type: ignore[union-attr]
    assert frames and all([v["seat"] for v in f["views"]] == [0] for f in frames), "the teacher's seat only"
    assert not maya.decides(), "no question yet: nothing to press"
    lead_of(teacher).end_button.click()
    await until(lambda: follow_of(maya).client.walk_ended is not None and lead_of(teacher).code is None)  # type: ignore[union-attr]
    assert not isinstance(teacher, LeadingTable) and is_shown(teacher.setup), "the teacher's own table again"
    await until(lambda: "The walkthrough has ended" in said(follow_of(maya).note))
    elsewhere = page(SombreroTable, server.url, f"walk={code}")
    follow_of(elsewhere).name_box.value = "Ben"
    follow_of(elsewhere).follow_button.click()
    await until(lambda: "hk-error" in follow_of(elsewhere).note.value)


@on_a_host
async def test_your_move_counts_a_legal_answer_and_an_illegal_try_with_its_rule_on_the_teachers_screen(
    server: TableServer,
) -> None:
    teacher = await leading(server, HatsTable, shows="seat")
    code = code_of(teacher)
    maya = await following(server, HatsTable, code, "Maya")
    ben = await following(server, HatsTable, code, "Ben")
    lead_of(teacher).ask_button.click()
    await until(lambda: maya.decides() and ben.decides())
    assert "Your move?" in said(follow_of(maya).note)
    press_a_move(maya, random.Random(1))  # type: ignore[arg-type]
    await until(lambda: "is in: a legal move" in said(maya.message))
    assert not maya.decides(), "one try a question"
    verdict = maya.message.value
    tap(maya, maya.hand_buttons[0])  # a press once her answer is in: the table offers nothing now
    assert maya.message.value == verdict, "her answer's judgement stays on the line, not a red wait"
    card, position = an_illegal_move(ben)
    tap(ben, hand_button(ben, card), ben.position_buttons[position])
    await until(lambda: "not allowed here" in said(ben.message))
    await until(lambda: "2 of 2 answered" in lead_of(teacher).tally_line.value)
    tally = lead_of(teacher).tally_line.value
    assert "Illegal tries: 1 (<abbr title='rule H" in tally and f"<b>put {card} on position {position + 1} and" in tally
    shown = re.sub(r"<[^>]+>", "", tally)  # what the projector shows: the rules by name, their ids in tooltips
    assert "✘ not allowed: " in shown and not RULE_ID.search(shown), shown
    await until(lambda: "The strong bot's move" in lead_of(teacher).tally_line.value, timeout=30)
    assert "@" not in said(lead_of(teacher).tally_line), "the projector shows the answers in words, not notation"
    press_a_move(teacher, random.Random(4))  # type: ignore[arg-type]  # the teacher plays on
    await until(lambda: maya.game.ply == teacher.game.ply and "(closed)" in lead_of(teacher).tally_line.value)
    assert not maya.decides()


@on_a_host
async def test_a_student_is_told_the_rule_for_a_press_that_sends_no_try_and_the_hosts_reason_keeps_its_square(
    server: TableServer,
) -> None:
    """Sombrero's position is whole on a student's table: a press of an empty square is told the rule's reason (not a
    made-up move), and the host's judgement of a two-press try reads as it was written ("h3 is …", not "H3 is …")."""
    teacher = await leading(server, SombreroTable, shows="all")
    maya = await following(server, SombreroTable, code_of(teacher), "Maya")
    lead_of(teacher).ask_button.click()
    await until(maya.decides)
    tap(maya, maya.squares["e4"])
    assert said(maya.message).endswith(f"{teacher.game.why_illegal('e4-e4')}."), said(maya.message)
    assert "e4-e4" not in said(maya.message) and maya.decides(), "no try was spent"
    tap(maya, maya.squares["h1"], maya.squares["h3"])
    await until(lambda: "not allowed here" in said(maya.message))
    assert "not allowed here: h3 is two squares away" in said(maya.message), said(maya.message)


@on_a_host
async def test_a_teachers_reloaded_page_takes_the_open_walkthrough_up_again_at_the_classs_position(
    server: TableServer,
) -> None:
    teacher = await leading(server, SombreroTable, shows="all")
    code = code_of(teacher)
    maya = await following(server, SombreroTable, code, "Maya")
    for seed in (1, 2):
        press_a_move(teacher, random.Random(seed))  # type: ignore[arg-type]  # White's turn, then the bot's
    line = [str(move) for move in teacher.game.history]
    await until(lambda: maya.game.ply == len(line) and walk_of(server, teacher).at == len(line))
    await lead_of(teacher).client.close()  # type: ignore[union-attr]  # the tab is closed
    again = page(SombreroTable, server.url, f"teacher={server.teacher_secret}")
    fold = lead_of(again)
    await until(lambda: is_shown(fold.resume_button))
    assert f"Walkthrough {code} of this game is still open (1 following)" in said(fold.note)
    fold.resume_button.click()
    await until(lambda: isinstance(again, LeadingTable) and fold.code == code)
    assert [str(move) for move in again.game.history] == line and again.shown_ply == len(line)
    press_a_move(again, random.Random(3))  # type: ignore[arg-type]  # and the class follows on
    await until(lambda: maya.game.ply > len(line) and walk_of(server, again).at == maya.game.ply)
    assert not is_shown(fold.resume_button)


def an_illegal_move(table: Any) -> tuple[str, int]:
    """A card of the hand that has a legal move, and a tea-table position it may not go to."""
    legal = {str(move) for move in table.reader_moves()}
    for card in {str(move).split("@")[0] for move in legal if "@" in str(move)}:
        for position in range(len(table.position_buttons)):
            if f"{card}@{position + 1}" not in legal and is_shown(table.position_buttons[position]):
                return card, position
    raise AssertionError("every card may go everywhere")


@on_a_host
async def test_a_student_tries_a_line_of_their_own_and_comes_back_to_the_class_with_one_press(
    server: TableServer,
) -> None:
    teacher = await leading(server, SombreroTable, shows="all")
    maya = await following(server, SombreroTable, code_of(teacher), "Maya")
    fold = follow_of(maya)
    assert is_shown(fold.try_button) and not is_shown(fold.back_button)
    fold.try_button.click()
    assert maya.trying and is_shown(fold.back_button) and maya.decides()  # type: ignore[attr-defined]
    press_a_move(maya, random.Random(3))  # type: ignore[arg-type]
    assert maya.game.ply == 1 and isinstance(maya.game, hatskit.Game), "her own move, on her own game"
    press_a_move(teacher, random.Random(5))  # type: ignore[arg-type]
    await until(lambda: walk_of(server, teacher).at >= 1)
    await asyncio.sleep(0.05)
    assert maya.game.ply == 1 and maya.trying, "her line stays while the class moves on"  # type: ignore[attr-defined]
    fold.back_button.click()
    assert not maya.trying and maya.game.ply == teacher.game.ply  # type: ignore[attr-defined]
    assert maya.shown().view(None)["position"] == teacher.game.view(None)["position"]
    finished = random_game("hats", {"players": 3}, seed=1, check=False)
    assert finished.is_over and maya.waiting_text(finished) == "The game is over.", "a press at the end: not 'Nobody'"


@on_a_host
async def test_only_the_teachers_link_and_a_walkthroughs_link_bring_the_fold(server: TableServer) -> None:
    plain = page(HatsTable, server.url, "")
    assert not hasattr(plain, "walkthrough")
    yes = page(HatsTable, server.url, "teacher=yes")  # a teacher's screen, but no secret: the host says no
    assert not hasattr(yes, "walkthrough") and yes.teacher
    forged = page(HatsTable, server.url, "teacher=" + "x" * 43)
    lead_of(forged).start_button.click()
    await until(lambda: "hk-error" in lead_of(forged).note.value)
    assert "is not this host's" in said(lead_of(forged).note) and lead_of(forged).code is None
    lost = page(HatsTable, server.url, "walk=zzzzz")
    follow_of(lost).name_box.value = "Maya"
    follow_of(lost).follow_button.click()
    await until(lambda: "hk-error" in follow_of(lost).note.value)
    assert "ZZZZZ" in said(follow_of(lost).note) and not isinstance(lost, ClassTable)
    assert lead_of(forged).client is None and follow_of(lost).client is None
    await until(lambda: not server.relay.sockets)  # a refused request leaves no connection open at the host


@on_a_host
async def test_a_reloaded_students_page_follows_again_at_once_under_the_name_and_token_the_browser_kept(
    server: TableServer,
) -> None:
    teacher = await leading(server, SombreroTable, shows="all")
    code = code_of(teacher)
    maya = await following(server, SombreroTable, code, "Maya")
    kept = dict(follow_of(maya).kept.class_kept)
    press_a_move(teacher, random.Random(5))  # type: ignore[arg-type]
    again = page(SombreroTable, server.url, f"walk={code}", kept=kept)
    await until(lambda: isinstance(again, ClassTable) and again.game.ply == teacher.game.ply)
    assert follow_of(again).name_box.value == "Maya" and not is_shown(follow_of(again).before)
    thief = page(SombreroTable, server.url, f"walk={code}")  # another browser, the same name, no token
    follow_of(thief).name_box.value = "maya"
    follow_of(thief).follow_button.click()
    await until(lambda: "hk-error" in follow_of(thief).note.value)
    assert not isinstance(thief, ClassTable)
    assert said(follow_of(thief).note).startswith("Somebody in this class uses the name maya already: type another")
    assert "token" not in said(follow_of(thief).note), "the host's words for its clients are not a student's"


@on_a_host
async def test_what_the_browser_kept_arriving_during_a_join_leaves_joining_on_the_fold(server: TableServer) -> None:
    teacher = await leading(server, HatsTable, shows="all")
    student = page(HatsTable, server.url, f"walk={code_of(teacher)}")
    fold = follow_of(student)
    fold.name_box.value = "Maya"
    fold.follow_button.click()
    student.classmates.kept_seats.receive({"msg": {"kept": {}, "class": None}})  # a late page's message
    assert "Joining walkthrough" in said(fold.note)
    await until(lambda: isinstance(student, ClassTable))


def test_a_walkthrough_code_that_is_not_letters_is_refused_by_the_link() -> None:
    table = page(HatsTable, "ws://127.0.0.1:9/ws", "walk=12;drop")
    assert "the link's walk must be one code of letters" in said(table.message)
    assert not hasattr(table, "walkthrough")


@on_a_host
async def test_a_walkthrough_of_every_hand_shows_the_students_each_seats_hand_and_no_pass_the_laptop_screen(
    server: TableServer,
) -> None:
    teacher = await leading(server, HatsTable, shows="all")
    maya = await following(server, HatsTable, code_of(teacher), "Maya")
    press_a_move(teacher, random.Random(2))  # type: ignore[arg-type]
    await until(lambda: maya.game.ply == teacher.game.ply)
    hands = [teacher.game.view(seat)["hand"] for seat in range(3)]
    shown = maya.guard.revealed.value
    assert "every hand is showing" in shown and all(" ".join(hand) in shown for hand in hands)
    assert not is_shown(maya.guard.screen) and is_shown(maya.table_area), "no screen: the class sees them"
    assert not is_shown(follow_of(maya).try_button), "a hidden deck: no line of one's own from here"
    lead_of(teacher).ask_button.click()
    await until(lambda: maya.decides())
    press_a_move(maya, random.Random(1))  # type: ignore[arg-type]
    await until(lambda: "is in: a legal move" in said(maya.message))
    assert said(maya.message).startswith(("Your answer, put ", "Your answer, discard ", "Your answer, make ")), said(
        maya.message
    )  # her move in the hint's words, not its notation


@on_a_host
async def test_a_students_answer_is_told_in_words_not_in_the_games_notation(server: TableServer) -> None:
    teacher = await leading(server, MadderTable, shows="seat")
    maya = await following(server, MadderTable, code_of(teacher), "Maya")
    lead_of(teacher).ask_button.click()
    await until(lambda: maya.decides())
    press_a_move(maya, random.Random(1))  # type: ignore[arg-type]
    await until(lambda: "is in: a legal move" in said(maya.message))
    answer = said(maya.message).split(", is in")[0]
    assert answer.startswith("Your answer, play your ") and not re.search(r"[>*@]", answer), answer
    await until(lambda: "1 of 1 answered" in said(lead_of(teacher).tally_line))
    await until(lambda: "The strong bot's move" in said(lead_of(teacher).tally_line), timeout=30)
    projected = said(lead_of(teacher).tally_line)  # the teacher's tally says the answers as the class reads them
    assert f"{answer.removeprefix('Your answer, ')}: 1" in projected and not re.search(r"[>*@]", projected), projected


def test_a_question_closed_before_the_strong_bot_chose_does_not_say_it_is_thinking_still() -> None:
    tally = {"number": 4, "ply": 27, "seat": 1, "answered": 0, "following": 2, "choices": [], "rules": [], "illegal": 0}
    names = ("Ana", "Ben", "Cleo")
    assert "The strong bot is thinking…" in said_html(tally_html(tally, names))
    closed = said_html(tally_html(tally, names, closed=True))
    assert closed.startswith("Question 4 (closed): Ben's move after move 27.") and "thinking" not in closed
    assert "The question closed before the strong bot chose a move." in closed
    best = tally | {"best": "♠4@6", "words": {"♠4@6": "put ♠4 on position 6 and take ♦2"}}
    worded = said_html(tally_html(best, names, closed=True))
    assert "★ The strong bot's move: put ♠4 on position 6 and take ♦2." in worded


def said_html(markup: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", markup).split())


def test_the_hosts_teacher_link_makes_the_teachers_screen_and_a_walk_code_sets_no_game() -> None:
    secret = "3q2-kJ5S" + "x" * 35
    assert teacher_from_query(f"teacher={secret}") and teacher_secret_from_query(f"teacher={secret}") == secret
    assert teacher_secret_from_query("teacher=yes") is None and teacher_secret_from_query("") is None
    assert table_from_query("hats", "walk=JZXVT", ("reader",)) is None
