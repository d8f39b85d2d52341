"""Two students' tables at one host table (widgets/table/shared.py), in process: each kernel holds only its seat.

The host is a real :class:`tablehost.TableHost`, spoken to through its own protocol (``LocalHost``); the tables
are the games' own table classes with a shared seat. Moves are made by pressing as the page does
(tests/helpers.py, ``tap``); the host-side game is read only to check what the students' tables must not hold.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from dataclasses import dataclass
from typing import Any, cast

import pytest

import hatskit
import tablehost.tables as host_tables
from hatskit.core import UsageError
from hatskit.drawing import without_rules
from hatskit.games.hats_off import KIND_NAMES
from tablehost import TableHost
from tablehost.client import TableRefused
from tablehost.server import Settings, TableServer
from tests.helpers import said, shown_strings, tap
from widgets import HatsOffTable, HatsTable, MadderTable, SombreroTable
from widgets.games.hats_off import pad_action
from widgets.games.race import RacePad
from widgets.table.frame import TableFrame
from widgets.table.scheduler import ManualClock, Scheduler
from widgets.table.seat_at_host import ClientSeat, LocalHost, SharedSeat
from widgets.table.seat_game import STEP_TO_LATEST, SeatGame
from widgets.table.shared import SharedTable, at_host
from widgets.toolkit.parts import is_shown

PLY_LIMIT = 2000  # a game that runs longer than this has stopped making progress


class Classroom:
    """One host table with two students' tables (seats 0 and 1) and the host's bots in any other seat."""

    def __init__(
        self, table_class: type[TableFrame], game: str, players: int, clock: ManualClock | None = None, **fields: Any
    ) -> None:
        self.host = TableHost()
        link = LocalHost(self.host)
        self.maya = SharedSeat.open(link, game, players=players, name="Maya", **fields)
        self.ben = SharedSeat.join(link, self.maya.code, name="Ben")
        self.maya.start()
        timed = {} if clock is None else {"clock": clock}  # a table's timed events (a head card's moment)
        self.tables = [at_host(table_class, self.maya, **timed), at_host(table_class, self.ben, **timed)]

    @property
    def game(self) -> Any:
        """The host's own game (the tests' referee: never a student's)."""
        return self.host.tables[self.maya.code].game

    def acting_table(self) -> SharedTable | None:
        """The student's table whose seat acts now, if any."""
        return next((table for table in self.tables if table.decides()), None)


def press_a_move(table: SharedTable, rng: random.Random) -> None:
    """Press the parts of one offered move, as the page does; a move only a button makes (Madder's *done*) is
    that button's ``try_move``."""
    offered = table.moves_part.offered
    if offered:
        path = rng.choice(offered)["path"]
        tap(table, *(table.part_by_id(uid) for uid in path))  # type: ignore[misc]
    else:
        table.try_move(str(rng.choice(table.reader_moves())))


def check_both_follow(students: Classroom) -> None:
    """Each table shows the host's latest ply, its own seat's view of it, and who acts there."""
    game = students.game
    for seat, table in enumerate(students.tables):
        assert table.game.ply == table.shown_ply == game.ply, "a student's table follows every move"
        assert table.shown().view(seat) == json.loads(json.dumps(game.view(seat))), "its own view, exactly"
        assert table.shown().acting == (() if game.is_over else game.acting)


def play_to_the_end(students: Classroom, check: Any = None, seed: int = 7) -> None:
    """Students press moves until the host's game is over, every move checked on both tables."""
    rng = random.Random(seed)
    while not students.game.is_over:
        assert students.game.ply < PLY_LIMIT
        table = students.acting_table()
        assert table is not None, "a player must act whenever the host's bots wait"
        before = students.game.ply
        press_a_move(table, rng)
        assert students.game.ply > before, f"the move was played: {said(table.message)}"
        check_both_follow(students)
        if check is not None:
            check(students)


def press_first(table: SharedTable) -> None:
    """Press the parts of the first move the table offers, as the page does."""
    tap(table, *(table.part_by_id(uid) for uid in table.moves_part.offered[0]["path"]))  # type: ignore[misc]


def check_ended(students: Classroom) -> None:
    """Both tables say the game is over, show the outcome and offer nothing."""
    for table in students.tables:
        assert "The game is over." in table.status.value
        assert table.shown().outcome() is not None
        assert not table.moves_part.offered


# -- Sombrero and Hats to their end -----------------------------------------------------------------------


def test_sombrero_two_students_play_to_the_end() -> None:
    students = Classroom(SombreroTable, "sombrero", 2)

    def same_board(students: Classroom) -> None:
        pieces = [[b.tooltip.split(";")[0] for b in table.squares.values()] for table in students.tables]
        assert pieces[0] == pieces[1], "both students see the same board"

    play_to_the_end(students, same_board)
    check_ended(students)


def test_hats_two_students_and_a_bot_play_to_the_end() -> None:
    students = Classroom(HatsTable, "hats", 3)
    assert [table.seat_kind(2) for table in students.tables] == ["greedy bot", "greedy bot"]
    assert students.tables[0].seat_kind(1) == "classmate Ben"
    check_hidden_hats(students)
    play_to_the_end(students, check_hidden_hats)
    check_ended(students)


def test_each_move_shows_on_the_other_students_table() -> None:
    students = Classroom(HatsTable, "hats", 3)
    maya, ben = students.tables
    assert said(maya.status) == "Ana (you) to move." and "Ana" in said(ben.status)
    press_first(maya)
    told = [event.text for event in students.game.events[0]]
    assert ben.game.ply == maya.game.ply == 1
    assert told[0].split(" (")[0] in said(ben.message), "Ben is told Ana's move, in the narration's words"
    assert said(ben.status) == "Ben (you) to move."
    assert ben.moves_part.offered and not maya.moves_part.offered


# -- refusals: the host's sentence, nothing changed ------------------------------------------------------


def test_a_move_out_of_turn_is_told_it_came_too_late_without_seat_numbers() -> None:
    """The host refuses it out of turn (its sentence names seats by number, for its clients); the student's table
    stops a press out of turn before it is sent, so one the host gets was sent from a position since gone."""
    students = Classroom(HatsTable, "hats", 3)
    maya, ben = students.tables
    notation = str(students.game.legal_moves(0)[0])
    assert not ben.try_move(notation)
    assert said(ben.message) == "Too late: the game moved on before your move arrived."
    assert "hk-error" in ben.message._dom_classes
    assert students.game.ply == ben.game.ply == maya.game.ply == 0
    assert ben.moves_part.offered == []


def test_a_move_against_the_rules_gets_the_rules_reason_and_changes_nothing() -> None:
    """The host judges it; the table says the rules' reason as a table of one's own does, without the notation."""
    students = Classroom(HatsTable, "hats", 3)
    maya = students.tables[0]
    legal = {str(move) for move in students.game.legal_moves(0)}
    wrong = f"{students.game.view(1)['hand'][0]}@1"  # a card of Ben's hand: never Ana's to play
    assert wrong not in legal
    offered = list(maya.moves_part.offered)
    maya.moves_part.receive({"move": wrong})  # a forged message: not offered, so the host judges it
    assert said(maya.message) == without_rules(students.game.why_illegal(wrong))[0] + ".", said(maya.message)
    assert wrong not in said(maya.message)
    assert students.game.ply == maya.game.ply == 0
    assert maya.moves_part.offered == offered


def test_nonsense_notation_is_refused_in_the_hosts_words() -> None:
    students = Classroom(SombreroTable, "sombrero", 2)
    white = students.tables[0]
    assert not white.try_move("z9-z10")
    assert said(white.message) and students.game.ply == 0


def test_a_square_that_cannot_be_picked_up_says_why_at_a_shared_table_too() -> None:
    """The seat's game leaves judging moves to the host; the table judges a press from the view (Sombrero hides
    nothing), so the sentence names what stands there, as on a table of one's own."""
    students = Classroom(SombreroTable, "sombrero", 2)
    white = students.tables[0]
    for name, reason in (("e4", "there is no piece on e4"), ("a1", "a1 is not your piece")):
        tap(white, white.squares[name])
        assert f"Pick up one of your hatted pieces first: {reason}" in said(white.message), said(white.message)
    assert students.game.ply == 0


# -- what a shared table does not do ----------------------------------------------------------------------


def test_undo_new_game_and_sharing_are_off() -> None:
    students = Classroom(HatsTable, "hats", 3)
    maya = students.tables[0]
    press_first(maya)
    assert not is_shown(maya.undo_button)
    assert not any(is_shown(part) for part in maya.free_play_parts if part is not maya.free_play_parts[1])
    ply = students.game.ply
    maya.undo()
    assert "there is no undo at a shared table" in said(maya.message).lower()
    assert students.game.ply == maya.game.ply == ply
    maya.copy_position()
    assert "links and position codes are for your own tables" in said(maya.message)
    maya.start(maya.game)
    assert students.game.ply == maya.game.ply == ply


def test_a_classmate_away_may_be_handed_to_a_bot_by_another_player() -> None:
    students = Classroom(SombreroTable, "sombrero", 2)
    maya = students.tables[0]
    assert not is_shown(maya.away_button)
    students.ben.connection.request("leave", code=students.ben.code, token=students.ben.token)  # gone for good
    assert is_shown(maya.away_button) and maya.away_button.description == "let a bot play for Ben (Black)"
    press_first(maya)
    press_first(maya)  # White's turn is two actions; then Black's, which nobody plays yet
    assert students.game.acting == (1,)
    maya.away_button.click()
    assert students.game.acting == (0,), "the host's bot played Black's turn"
    assert not is_shown(maya.away_button)
    assert students.maya.seat_entry(1)["kind"] == "handed"


def test_the_host_runs_the_bots_not_the_kernel() -> None:
    students = Classroom(HatsTable, "hats", 3)
    for table in students.tables:
        assert table.bots == {}
    maya, ben = students.tables
    press_first(maya)
    press_first(ben)
    assert students.game.ply == 3, "the host's bot answered at once, in process"
    assert maya.game.ply == 3 and "Cleo" in said(maya.message)


def test_the_seats_game_changes_only_by_frames() -> None:
    students = Classroom(HatsTable, "hats", 3)
    game: SeatGame = students.tables[1].game  # type: ignore[assignment]
    with pytest.raises(UsageError):
        game.view(0)
    with pytest.raises(UsageError):
        game.state  # noqa: B018
    with pytest.raises(UsageError):
        game.undo()
    assert game.legal_moves(1) == [] and game.why_illegal("♥5@2") is None
    with pytest.raises(TableRefused, match="too late"):
        game.play(str(students.game.legal_moves(0)[0]))
    own: SeatGame = students.tables[0].game  # type: ignore[assignment]
    assert own.play(str(own.legal_moves(0)[0])) == [], "sent: the narration comes with the next frame"
    assert own.ply == 0 and students.maya.game.ply == students.game.ply == 1, "the new position came as a frame"
    with pytest.raises(UsageError, match="Step to the latest position"):
        own.play(str(own.legal_moves(0)[0]) if own.legal_moves(0) else "♥5@2")


# -- stepping back, and a student who comes back ----------------------------------------------------------


def test_a_student_steps_back_through_their_own_views() -> None:
    students = Classroom(HatsTable, "hats", 3)
    rng = random.Random(3)
    for _ in range(4):
        press_a_move(students.acting_table(), rng)  # type: ignore[arg-type]
    while students.game.acting != (1,):
        press_a_move(students.acting_table(), rng)  # type: ignore[arg-type]
    maya, ben = students.tables
    ben.go_to(1)
    maya.go_to(1)
    assert ben.shown().view(1) == json.loads(json.dumps(students.game.seat_view(1).view_at(1)))
    assert not ben.moves_part.offered and not ben.decides()
    assert said(ben.status).endswith(f"It is your turn at move {students.game.ply}: step to the end to play.")
    assert "your turn" not in said(maya.status), "Maya waits for Ben"
    tap(ben, ben.hand_buttons[0])  # a press here plays nothing: his turn is at the latest position, not here
    assert said(ben.message) == STEP_TO_LATEST
    assert not ben.try_move(str(students.game.legal_moves()[0]) if students.game.legal_moves() else "x")
    assert "Step to the latest position" in said(ben.message)
    ben.go_to(students.game.ply)
    assert ben.live


def test_a_reloaded_page_gets_the_game_back_from_the_host() -> None:
    students = Classroom(HatsTable, "hats", 3)
    rng = random.Random(5)
    for _ in range(3):
        press_a_move(students.acting_table(), rng)  # type: ignore[arg-type]
    link = students.ben.connection.host
    again = SharedSeat(link, students.ben.code, students.ben.token)
    assert students.ben.ended, "the old page's connection is told its seat was taken up"
    assert "gets no more moves here" in said(students.tables[1].message)
    table = at_host(HatsTable, again)
    assert table.game.ply == students.game.ply
    assert [len(events) for events in table.game.events] == [len(events) for events in students.game.events]
    table.go_to(2)  # a view it was never sent: asked of the host (history)
    assert table.shown().view(1) == json.loads(json.dumps(students.game.seat_view(1).view_at(2)))


def test_a_hint_reads_only_the_seats_own_views() -> None:
    students = Classroom(SombreroTable, "sombrero", 2)
    white = students.tables[0]
    white.ask_hint()
    assert said(white.message).startswith("Hint:"), said(white.message)
    assert white.hint_move is not None and str(white.hint_move) in {str(m) for m in students.game.legal_moves(0)}


# -- no part of a student's table holds a card of another seat's hidden hand -------------------------------


def _card_pattern(cards: set[str]) -> re.Pattern[str]:
    """A card's notation standing alone ("♥5", not "♥50"; "Beret", not "Beret*")."""
    return re.compile("(" + "|".join(re.escape(card) for card in sorted(cards)) + r")(?![0-9*])")


def hidden_hats_cards(students: Classroom, seat: int) -> set[str]:
    """The Hats cards ``seat`` may not know: every other seat's hand and black hats (read from the host's game)."""
    game = students.game
    return {
        card
        for other in range(len(game.seat_names))
        if other != seat
        for card in [*game.view(other)["hand"], *game.view(other)["my_black_hats"]]
    }


def check_hidden(students: Classroom, hidden: Any) -> None:
    """Neither student's page, nor anything their kernel keeps of the game, holds a card hidden from them."""
    if students.game.is_over:
        return  # the end shows every favorite hat (H6) and every Haberdasher (M5)
    for seat, (table, student) in enumerate(zip(students.tables, (students.maya, students.ben), strict=True)):
        told = " ".join(event.text for events in students.game.events for event in events)  # public to every seat
        secret = {card for card in hidden(students, seat) if _card_pattern({card}).search(told) is None}
        if not secret:
            continue
        pattern = _card_pattern(secret)
        leaks = [text for text in shown_strings(table) if pattern.search(text)]
        assert not leaks, f"seat {seat}'s page holds another seat's hidden card: {leaks[:3]}"
        check_kept(students, seat, student)


def check_kept(students: Classroom, seat: int, student: SharedSeat) -> None:
    """What the kernel keeps of the game is the seat's own views, exactly as the host's engine masks them."""
    record = student._record
    assert record is not None
    own = students.game.seat_view(seat)
    assert record.views == {ply: json.loads(json.dumps(own.view_at(ply))) for ply in record.views}
    assert set(record.views) <= set(range(students.game.ply + 1))


def check_hidden_hats(students: Classroom) -> None:
    check_hidden(students, hidden_hats_cards)


def hidden_madder(students: Classroom, seat: int) -> set[str]:
    """What ``seat`` may not know at Madder: the other seats' Haberdashers until they are revealed, and the starred
    hats in other hands that ``seat`` has never seen (a plain hat has twins: one in view cannot be told from it)."""
    game = students.game
    own = game.view(seat)
    seen = {hat for view in game.seat_view(seat).past_views() for hat in _hats(view)}
    others = [other for other in range(len(game.seat_names)) if other != seat]
    haberdashers = set() if own["haberdashers"] else {game.view(other)["haberdasher"] for other in others}
    haberdashers -= {own["haberdasher"]}  # revealed at a round's end (M4), and a seat knows its own
    hats = {hat for other in others for hat in game.view(other)["hand"] if hat.endswith("*")} - seen
    return haberdashers | hats


def _hats(view: dict[str, Any]) -> list[str]:
    """Every hat a Madder view shows: the seat's hand, the line, the discard pile and every inventory."""
    return [
        *(view["hand"] or []),
        *view["line"],
        *view["discard"],
        *(hat for shop in view["inventories"] for hat in shop),
    ]


def test_madder_two_students_and_a_bot_never_see_each_others_hands() -> None:
    students = Classroom(MadderTable, "madder", 3)
    check_hidden(students, hidden_madder)
    play_to_the_end(students, lambda s: check_hidden(s, hidden_madder), seed=11)
    check_ended(students)


# -- over the network: the same tables, their seats' frames from a TableClient on the loop -----------------


@dataclass
class Networked:
    """Two students' tables whose seats reach a real host on loopback (the shape ``check_hidden`` reads)."""

    server: TableServer
    maya: ClientSeat
    ben: ClientSeat
    tables: list[SharedTable]

    @property
    def game(self) -> Any:
        return self.server.host.tables[self.maya.code].game


async def until(condition: Any, timeout: float = 10.0) -> None:
    """Wait on the loop until ``condition()`` holds (frames are read by the clients' tasks meanwhile)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "waited too long for the host"
        await asyncio.sleep(0.005)


async def networked(table_class: type[TableFrame], game: str, players: int) -> Networked:
    server = TableServer(Settings(bind="127.0.0.1:0", bot_delay=0.01))
    url = await server.start()
    maya = await ClientSeat.open(url, game, players, "Maya", backoff=(0.05, 0.4))
    ben = await ClientSeat.join(url, maya.code, "Ben", backoff=(0.05, 0.4))
    await maya.start()
    await until(lambda: maya.game is not None and ben.game is not None)
    return Networked(server, maya, ben, [at_host(table_class, maya), at_host(table_class, ben)])


async def close(students: Networked, *more: ClientSeat) -> None:
    for seat in (students.maya, students.ben, *more):
        await seat.close()
    await students.server.stop()


def test_over_the_network_two_students_play_hats_with_a_bot() -> None:
    asyncio.run(asyncio.wait_for(_network_hats(), 60))


async def _network_hats() -> None:
    students = await networked(HatsTable, "hats", 3)
    again: list[ClientSeat] = []
    try:
        ben = students.tables[1]
        assert ben.try_move(str(students.game.legal_moves(0)[0])), "sent: the host answers on the loop"
        await until(lambda: "Too late" in said(ben.message))
        assert students.game.ply == 0
        rng = random.Random(2)
        while not students.game.is_over:
            await until(lambda: students.game.is_over or any(table.decides() for table in students.tables))
            table = next((table for table in students.tables if table.decides()), None)
            if table is None:
                break
            ply = students.game.ply
            press_a_move(table, rng)
            await until(lambda ply=ply: all(t.game.ply > ply for t in students.tables))
            await until(lambda: all(t.game.ply == students.game.ply for t in students.tables))
            check_hidden_hats(students)  # type: ignore[arg-type]
        await until(lambda: all(t.shown().outcome() is not None for t in students.tables))
        check_ended(students)  # type: ignore[arg-type]
        assert students.game.ply > 20, "a whole game was played"
        again.append(await ClientSeat.rejoin(students.server.url, students.ben.code, students.ben.token))
        await until(lambda: students.ben.ended is not None)  # the old page is told its seat was taken up
        reloaded = at_host(HatsTable, again[0])
        reloaded.go_to(1)
        assert reloaded.shown().view(1) == json.loads(json.dumps(students.game.seat_view(1).view_at(1)))
    finally:
        await close(students, *again)


# -- Hats Off!: classmates race from their own laptops, and the host settles each race on the devices' times ----

DELAY = 0.3  # seconds a slow network holds each message, each way (as the race pad's browser test does)
MAYA = 0.35  # Maya's reaction, timed by her pad from when her own screen showed the card


def deal_a_race(monkeypatch: pytest.MonkeyPatch) -> str:
    """The host deals a two-player game from the first seed whose first card to be flipped both players hold (the
    host draws its seeds in secret: the test picks one); the kind of that card."""
    seed = next(seed for seed in range(1000) if _both_hold_the_first_flip(hatskit.new_game("hats-off", 2, seed)))
    monkeypatch.setattr(host_tables, "_new_game", lambda game, players, options: hatskit.new_game(game, players, seed))
    return hatskit.new_game("hats-off", 2, seed).state.deck[-1]


def _both_hold_the_first_flip(game: hatskit.Game) -> bool:
    """Whether the deck's top card, the first to be flipped, is in both hands."""
    return all(game.state.deck[-1] in hand for hand in game.state.hands)


def keep_for_the_race(students: Classroom, kind: str) -> None:
    """Both students put a card other than ``kind`` on their heads (O1): the first card flipped, they both hold."""
    for table in students.tables:
        answer_on_pad(table, f"wear {next(card for card in pad_of(table).hand if card != kind)}", 1.0)
    assert students.game.view(None)["phase"] == "flip" and students.game.view(None)["flipper"] == 0


def pad_of(table: SharedTable) -> RacePad:
    """The race pad of a shared Hats Off! table."""
    return cast(HatsOffTable, table).pad


def answer_on_pad(table: SharedTable, action: str, seconds: float, turn: int | None = None) -> None:
    """What the race pad's script sends its kernel: an action for the decision on screen (or for ``turn``), timed
    on the device from when its own screen showed that decision."""
    pad = pad_of(table)
    pad._received(pad, {"answer": action, "turn": pad.turn if turn is None else turn, "seconds": seconds}, [])


def answer_a_decision(table: SharedTable, rng: random.Random) -> None:
    """One of the reader's legal moves, answered on the pad as a student would, with a reaction time."""
    answer_on_pad(table, pad_action(rng.choice(table.reader_moves())), round(rng.uniform(0.15, 2.0), 3))


def check_only_own_seat(students: Classroom) -> None:
    """Each pad shows its seat's own hand, and no head card but one its seat was shown; no page, and no frame its
    kernel was sent last, holds another seat's sealed move before the race is settled. (What the kernel keeps of
    every ply, ``check_kept`` compares with the seat's own views: once a match, it reads them all.)"""
    game = students.game
    for seat, (table, student) in enumerate(zip(students.tables, (students.maya, students.ben), strict=True)):
        record = student._record
        assert record is not None
        pad, seen = pad_of(table), {view["head"] for view in record.views.values()}
        assert pad.hand == game.view(seat)["hand"] and pad.head in {None, *seen}, "its own head card, as it saw it"
        page = " ".join(shown_strings(table))
        last = json.dumps(record.frames[record.latest], ensure_ascii=False)
        for sealed in (move for move in game.state.submitted if move is not None and move.seat != seat):
            assert str(sealed) not in page and str(sealed) not in last


def race_to_the_end(students: Classroom, clock: ManualClock, rng: random.Random, check: bool = True) -> None:
    """Students answer every decision their pads show until the host's game is over (both tables checked after
    each answer, unless ``check`` is False); the clock moves on between decisions (a head card's moment passes)."""
    while not students.game.is_over:
        assert students.game.ply < PLY_LIMIT
        assert any(pad_of(table).can_act for table in students.tables), "a student acts whenever the bots wait"
        for table in students.tables:
            if pad_of(table).can_act:
                answer_a_decision(table, rng)
                if check:
                    check_both_follow(students)
                    check_only_own_seat(students)
        clock.advance(1.0)


def host_record(students: Classroom) -> str:
    """Everything a refused answer must leave as it was at the host: the game's moves and position."""
    return json.dumps([students.game.record(), students.game.position()], ensure_ascii=False)


def test_two_students_and_a_host_bot_race_a_whole_hats_off_match() -> None:
    """Maya and Ben answer every decision on their pads until the match ends; the host settles the races and plays
    Cleo at a child's reaction level. Each table follows every move, showing only its own seat's view."""
    clock = ManualClock()
    students = Classroom(HatsOffTable, "hats-off", 3, clock=clock, bots="child")
    for table in students.tables:
        assert table.bots == {} and table.seat_kind(2) == "child bot", "the host plays the bot, at its level"
        assert not is_shown(cast(HatsOffTable, table).level_box), "the bots' level is the host's, not the kernel's"
    check_only_own_seat(students)
    race_to_the_end(students, clock, random.Random(4))
    check_ended(students)
    for seat, student in enumerate((students.maya, students.ben)):
        check_kept(students, seat, student)
    assert all(not pad_of(table).can_act and pad_of(table).phase == "over" for table in students.tables)
    told = [event.text for events in students.game.events for event in events]
    for name in ("Ana", "Ben", "Cleo"):  # the students' times as their pads measured them, the bot's as drawn
        assert any(re.match(rf"{name} (plays|called).* at \d+\.\d+ s", text) for text in told), name


@pytest.mark.parametrize(("ben", "winner"), [(0.512, "Ana"), (0.213, "Ben")])
def test_over_300_ms_each_way_the_race_goes_to_the_faster_reaction_not_the_first_answer_in(
    monkeypatch: pytest.MonkeyPatch, ben: float, winner: str
) -> None:
    """The shared table's mirror of the race pad's +300 ms browser test: Maya's network holds every message 0.3 s
    each way, Ben's none. Maya presses 0.35 s after her screen showed the card, so her answer reaches the host
    0.95 s after the flip, after Ben's (0.512 s or 0.213 s); the host settles on the pads' times alone."""
    kind = deal_a_race(monkeypatch)
    clock = ManualClock()
    students = Classroom(HatsOffTable, "hats-off", 2, clock=clock)
    maya, ben_table = students.tables
    keep_for_the_race(students, kind)
    network = Scheduler(clock)
    students.maya.connection.on_frame = lambda frame: network.call_later(DELAY, lambda: students.maya.receive(frame))
    network.call_later(ben, lambda: answer_on_pad(ben_table, kind, ben))  # Ben's press, at the host at once
    answer_on_pad(maya, "flip", 0.0)  # t = 0: the host turns the card over (Maya's flip has reached it)
    assert pad_of(ben_table).top == kind and pad_of(maya).phase == "flip", "Ben sees the card at once, Maya not yet"
    clock.advance(DELAY)  # t = 0.3: the card reaches Maya's screen; her pad times her from now
    turn = pad_of(maya).turn
    assert pad_of(maya).top == kind and pad_of(maya).can_act
    clock.advance(MAYA)  # t = 0.65: Maya presses her matching card
    network.call_later(DELAY, lambda: answer_on_pad(maya, kind, MAYA, turn))  # ... and reaches the host at 0.95
    clock.advance(DELAY - 0.01)
    assert students.game.view(None)["submitted"] == [1] and "Ben has moved" in said(maya.message)
    assert pad_of(maya).turn == turn, "Ben's move did not open Maya's decision anew: her stopwatch kept running"
    assert str(ben) not in " ".join(shown_strings(maya)), "Ben's sealed time never reached Maya's page"
    clock.advance(0.01)  # t = 0.95: Maya's answer arrives, the last one in
    assert [str(move) for move in students.game.history[-2:]] == [f"Ben:{kind}@{ben:g}", f"Ana:{kind}@{MAYA:g}"]
    faster, slower = ("Ana", MAYA), ("Ben", ben)
    if winner == "Ben":
        faster, slower = slower, faster
    told = said(ben_table.message)
    assert f"{faster[0]} plays a {KIND_NAMES[kind]} from the hand at {faster[1]:g} s: a match!" in told
    assert f"{slower[0]}'s play at {slower[1]:g} s is too late" in told
    assert students.game.view(0)["won_counts"] == ([2, 0] if winner == "Ana" else [0, 2])
    clock.advance(DELAY)  # the settled race reaches Maya's screen
    result = pad_of(maya).result
    assert result.startswith("You won 2 cards" if winner == "Ana" else f"Ben won 2 cards. Your play at {MAYA:g} s")
    check_both_follow(students)


def test_a_race_answer_twice_late_for_another_seat_or_after_the_end_gets_the_hosts_sentence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each answer the pad would not send gets to the host here (a second pad, a message that arrives late, a
    forged one); the host's sentence comes back, and neither the host's game nor either table changes."""
    kind = deal_a_race(monkeypatch)
    clock = ManualClock()
    students = Classroom(HatsOffTable, "hats-off", 2, clock=clock)
    maya, ben = students.tables

    def refused(table: SharedTable, action: str, seconds: float, sentence: str) -> None:
        """The answer, sent as the pad's would be (past the pad's own checks: as a second pad, a late message or a
        forged one would come), gets the host's sentence on the message line and the pad; nothing changes."""
        other = students.tables[1 - students.tables.index(table)]
        before = host_record(students), [t.game.ply for t in students.tables], other.message.value
        told: list[str] = []
        hats_off = cast(HatsOffTable, table)

        def on_the_pad(sentence: str) -> None:
            told.append(sentence)
            hats_off._answer_refused(sentence)

        hats_off.play_answer(action, seconds, on_the_pad)
        words = sentence.lower()  # the message line starts it with a capital
        assert len(told) == 1 and words in told[0].lower(), told
        assert words in said(table.message).lower() and "hk-error" in table.message._dom_classes
        assert words in pad_of(table).result.lower(), "on the pad too, where the reader looks"
        assert (host_record(students), [t.game.ply for t in students.tables], other.message.value) == before

    keep_for_the_race(students, kind)
    refused(ben, "flip", 0.0, "too late: the game moved on before your move arrived")  # another seat's decision
    answer_on_pad(maya, "flip", 0.0)
    refused(maya, f"Ben:{kind}", 0.2, "is not a Hats Off! move")  # an answer naming another seat
    answer_on_pad(maya, kind, 0.3)
    refused(maya, kind, 0.2, "too late: the game moved on before your move arrived")  # twice: before the frame came
    old_turn = pad_of(ben).turn
    answer_on_pad(ben, "pass", 1.0)  # the race is settled: Ana wins the card
    refused(ben, kind, 0.1, "too late: the game moved on before your move arrived")  # late: its race is settled
    record, message = host_record(students), ben.message.value
    answer_on_pad(ben, kind, 0.1, turn=old_turn)  # the pad drops an answer to an older decision: never sent
    assert host_record(students) == record and ben.message.value == message
    race_to_the_end(students, clock, random.Random(9), check=False)
    refused(maya, "pass", 0.5, f"the game at table {students.maya.code} is over")  # after the end


def test_over_the_network_two_students_race_a_whole_hats_off_match_with_a_bot() -> None:
    asyncio.run(asyncio.wait_for(_network_race(), 60))


async def _network_race() -> None:
    students = await networked(HatsOffTable, "hats-off", 3)
    tables = students.tables
    try:
        await until(lambda: students.game.ply == 1 and caught_up(students))  # the host's bot chose its head card
        maya, hand = tables[0], pad_of(tables[0]).hand
        answer_on_pad(maya, f"wear {hand[0]}", 1.0)
        answer_on_pad(maya, f"wear {hand[1]}", 1.0)  # the same decision again, before the host's frame came
        await until(lambda: not pad_of(maya).can_act and not students.maya._tasks)
        assert students.game.state.heads[0] == hand[0] and "hk-error" not in maya.message._dom_classes, "one answer"
        told: list[str] = []
        cast(HatsOffTable, tables[1]).play_answer("flip", 0.0, told.append)  # nobody flips while heads are chosen
        await until(lambda: bool(told))
        assert "every player must first choose a head card" in said(tables[1].message).lower()
        assert 1 in students.game.acting and students.game.view(None)["phase"] == "wear", "nothing changed"
        rng = random.Random(6)
        while not students.game.is_over:
            await until(lambda: students.game.is_over or (caught_up(students) and any_pad_open(students)))
            if students.game.is_over:
                break
            check_both_follow(students)  # type: ignore[arg-type]
            check_only_own_seat(students)  # type: ignore[arg-type]
            for table in (table for table in tables if pad_of(table).can_act):
                turn = pad_of(table).turn
                answer_a_decision(table, rng)
                await until(lambda table=table, turn=turn: pad_of(table).turn != turn or not pad_of(table).can_act)
                assert "hk-error" not in table.message._dom_classes, said(table.message)
        await until(lambda: caught_up(students) and all(t.shown().outcome() is not None for t in tables))
        check_ended(students)  # type: ignore[arg-type]
    finally:
        await close(students)


def caught_up(students: Networked) -> bool:
    """Both tables show the host's latest ply."""
    return all(table.game.ply == students.game.ply for table in students.tables)


def any_pad_open(students: Networked) -> bool:
    return any(pad_of(table).can_act for table in students.tables)
