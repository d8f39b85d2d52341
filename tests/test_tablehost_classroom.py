"""The class together on the host, in process, through ``protocol.handle``: walkthroughs the teacher leads, "your
move?" and its tally, the class's stars and places, who is the teacher, and every refusal changing nothing.

Every frame a student is sent is kept and checked as it is sent (:class:`Room`): a student following a walkthrough
that shows the teacher's seat only is never sent another seat's cards, the seed, a token, the teacher secret, the
tally or another student's progress.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import hatskit
from hatskit.core import Game
from tablehost.auth import HubUserAuth, TeacherKey, is_teacher
from tablehost.classframes import tally_frame
from tablehost.classroom import CLASS_WATCH
from tablehost.protocol import handle
from tablehost.store import Store
from tablehost.tables import Sent, TableHost, Who
from tests.test_tablehost import FORBIDDEN_KEYS, FakeHub, _ready, hidden_from, keys_of, pattern

STUDENT_FRAMES = {"walk_joined", "walk", "walk_presence", "walk_tried", "walk_left", "closed", "class_joined"}
STUDENT_FRAMES |= {"class_saved", "error"}


class Room:
    """A host with its teacher and students, every request a JSON frame through ``protocol.handle``; every frame a
    member is sent is kept by its address and checked when it goes to a student."""

    def __init__(self, host: TableHost | None = None, secret: str | None = None) -> None:
        self.host = host or TableHost()
        self.secret = secret or self.host.classroom.teacher_link()
        self.tokens: dict[str, str] = {}  # a student's class token by name
        self.members: dict[str, int] = {}  # a student's member number by name
        self.frames: dict[tuple[str, int], list[dict[str, Any]]] = {}
        self.code = ""

    def send(self, frame: dict[str, Any], user: str | None = None, teacher: bool = False) -> Sent:
        sent = handle(self.host, json.dumps(frame, ensure_ascii=False), user, teacher)
        for code, index, pushed in sent.pushes:
            self.frames.setdefault((code, index), []).append(pushed)
            if code != CLASS_WATCH and index != 0:
                self.check(pushed)
        return sent

    def think(self) -> Sent:
        """The strong bot's move for the open question, found here and now, its tally push kept."""
        sent = self.host.classroom.think(self.code)
        for code, index, pushed in sent.pushes:
            self.frames.setdefault((code, index), []).append(pushed)
        return sent

    def teach(self, op: str, **fields: Any) -> dict[str, Any]:
        """A teacher's request (the code of the walkthrough open by default); its reply, refused or not."""
        return self.send({"op": op, "teacher": self.secret, "code": self.code, **fields}).reply

    def student(self, name: str, op: str, **fields: Any) -> dict[str, Any]:
        """A student's request under their own name and class token; the reply is checked as a student's."""
        frame = {"op": op, "code": self.code, "name": name, "token": self.tokens.get(name), **fields}
        reply = self.send(frame).reply
        self.check(reply)
        return reply

    def open(self, game_id: str = "hats", players: int = 3, **fields: Any) -> dict[str, Any]:
        reply = self.send({"op": "walk_open", "teacher": self.secret, "game": game_id, "players": players, **fields})
        self.code = reply.reply["code"]
        return reply.reply

    def join(self, *names: str) -> None:
        for name in names:
            reply = self.student(name, "walk_join")
            assert reply["type"] == "walk_joined", reply
            self.tokens[name], self.members[name] = reply.get("token", self.tokens.get(name)), reply["member"]

    @property
    def walk(self) -> Any:
        return self.host.classroom.walks[self.code]

    def to(self, name: str) -> list[dict[str, Any]]:
        """Every frame pushed to a student (by name) or to the teacher (``teacher``)."""
        return self.frames.get((self.code, 0 if name == "teacher" else self.members[name]), [])

    def last(self, name: str, kind: str = "walk") -> dict[str, Any]:
        return next(frame for frame in reversed(self.to(name)) if frame["type"] == kind)

    def play_until(self, seat: int) -> None:
        """The teacher plays each position's first legal move until ``seat`` may act."""
        while seat not in self.walk.position().acting:
            assert self.teach("walk_move", move=str(self.walk.position().legal_moves()[0]))["type"] == "walk_moved"

    def check(self, frame: dict[str, Any]) -> None:
        """What no student may be sent: the seed, a position's keys, the teacher secret, a token not their own (only
        a join's reply carries one), the tally; and in a walkthrough of one seat, any view but that seat's, or
        another seat's card anywhere but where the public score sheet shows it (at the end)."""
        text = json.dumps(frame, ensure_ascii=False)
        assert frame["type"] in STUDENT_FRAMES, frame["type"]
        assert self.secret not in text and not FORBIDDEN_KEYS & set(keys_of(frame))
        assert frame["type"] == "walk_joined" or not set(self.tokens.values()) & {frame.get("token")}
        walk = self.host.classroom.walks.get(self.code)
        if walk is None:
            return
        assert len(str(walk.game.head["seed"])) < 9 or str(walk.game.head["seed"]) not in text
        if walk.shows == "seat" and frame["type"] == "walk":
            position = walk.position()
            assert [entry["view"] for entry in frame["views"]] == [position.view(walk.seat)]
            rest = json.dumps({**frame, "views": None}, ensure_ascii=False)
            public = json.dumps(frame["score"], ensure_ascii=False)
            for secret in hidden_from(position, walk.seat):
                assert pattern(secret).search(public) or not pattern(secret).search(rest), f"sent {secret!r}: {rest}"


def walk_state(room: Room, presence: bool = True) -> str:
    """Everything a refusal must leave as it was: the line, the ply shown, the members (and who is here), the
    question, the class."""
    classroom, walk = room.host.classroom, room.host.classroom.walks.get(room.code)
    members = None if walk is None else [(m.name, m.here if presence else None) for m in walk.members]
    line = None if walk is None else [walk.game.record(), walk.at, members]
    question = None if walk is None or walk.question is None else [walk.question.number, sorted(walk.question.answers)]
    students = sorted((s.name, sorted(s.stars), repr(s.place)) for s in classroom.students.values())
    return json.dumps([line, question, students, sorted(classroom.walks)], ensure_ascii=False)


def narration(game: Game, ply: int) -> list[str]:
    return [event.text for event in game.events[ply - 1]] if ply else []


# ---------------------------------------------------------------- following the teacher


def test_each_student_follows_every_move_and_step_of_the_teacher_with_its_narration() -> None:
    room = Room()
    opened = room.open("hats", 3)
    assert opened["type"] == "walk_joined" and opened["role"] == "teacher" and "token" not in opened
    room.join("Maya", "Ben", "Cleo")
    for _ in range(4):
        room.teach("walk_move", move=str(room.walk.game.legal_moves()[0]))
    game = room.walk.game
    for name in ("Maya", "Ben", "Cleo"):
        walks = [frame for frame in room.to(name) if frame["type"] == "walk"]
        assert [frame["ply"] for frame in walks] == [0, 1, 2, 3, 4]
        assert [[e["text"] for e in frame["events"]] for frame in walks] == [narration(game, p) for p in range(5)]
        assert walks[-1]["views"] == [
            {"seat": s, "view": game.view(s), "legal": [str(m) for m in game.legal_moves(s)]} for s in range(3)
        ]
    stepped = room.teach("walk_step", ply=1)
    assert stepped == {"type": "walk_stepped", "code": room.code, "ply": 1, "plies": 4}
    back = room.last("Ben")
    assert back["ply"] == 1 and back["plies"] == 4 and [e["text"] for e in back["events"]] == narration(game, 1)
    assert back["views"][2]["view"] == game.view_at(1, 2)
    again = room.teach("walk_move", move=str(game.moves[1]))  # the line's next move only steps on
    assert (again["ply"], again["plies"], room.walk.game is game) == (2, 4, True)
    other = next(str(m) for m in room.walk.position().legal_moves() if str(m) != str(game.moves[2]))
    assert room.teach("walk_move", move=other)["plies"] == 3  # another move there starts a new line
    assert room.walk.game.moves[2] == room.walk.game.parse(other) and room.last("Cleo")["plies"] == 3


def test_a_walkthrough_of_the_teachers_seat_only_sends_students_that_seats_view_never_the_position() -> None:
    room = Room()
    room.open("hats", 4, shows="seat", seat=1)
    room.join("Maya", "Ben")
    rng = random.Random(3)
    while not room.walk.game.is_over:
        room.teach("walk_move", move=str(rng.choice(room.walk.game.legal_moves())))
        if rng.random() < 0.1:
            room.teach("walk_step", ply=rng.randrange(room.walk.game.ply + 1))
            room.teach("walk_step", ply=room.walk.game.ply)
    frames = [frame for frame in room.to("Maya") if frame["type"] == "walk"]
    assert len(frames) > 40 and all([entry["seat"] for entry in frame["views"]] == [1] for frame in frames)
    final = frames[-1]
    assert final["views"][0]["view"] == room.walk.game.view(1) and final["outcome"] is not None
    assert [entry["seat"] for entry in room.last("teacher")["views"]] == [0, 1, 2, 3]  # the teacher sees every seat


def test_a_change_is_one_frame_for_every_student_and_each_view_is_computed_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    room = Room()
    room.open("hats", 3, shows="all")
    room.join(*(f"Student {n}" for n in range(30)))
    calls: list[int | None] = []
    view = Game.view
    monkeypatch.setattr(Game, "view", lambda game, seat: calls.append(seat) or view(game, seat))
    move = str(room.walk.game.legal_moves()[0])
    sent = room.send({"op": "walk_move", "teacher": room.secret, "code": room.code, "move": move})
    students = [frame for code, index, frame in sent.pushes if index != 0]
    assert len(students) == 30 and all(frame is students[0] for frame in students)
    assert sorted(calls) == [0, 1, 2]  # the teacher's frame and the students' share them


# ---------------------------------------------------------------- your move?


def test_your_move_judges_each_students_one_try_and_the_teacher_sees_the_tally_with_the_strong_bots_move() -> None:
    room = Room()
    room.open("hats", 3, shows="seat", seed=7)
    room.join("Maya", "Ben", "Cleo", "Dev", "Eli", "Fay")
    room.play_until(0)
    assert room.teach("walk_ask")["seat"] == 0
    assert room.last("Maya")["question"] == {"number": 1, "ply": room.walk.at, "seat": 0}
    position = room.walk.position()
    legal = [str(move) for move in position.legal_moves(0)]
    hand = position.view(0)["hand"]
    wrong = next(f"{card}@{p}" for card in hand for p in range(1, 7) if f"{card}@{p}" not in legal)
    absent = next(f"{kind}{value}@1" for kind in "♥♦♣♠★✿⎈" for value in range(1, 7) if f"{kind}{value}" not in hand)
    tries = {"Maya": legal[0], "Ben": legal[0], "Cleo": legal[-1], "Dev": wrong, "Eli": f"{hand[0]}@9", "Fay": absent}
    replies = {name: room.student(name, "walk_try", number=1, move=move) for name, move in tries.items()}
    assert replies["Maya"] | {"legal": True, "rule": None, "why": None} == replies["Maya"]
    assert replies["Dev"]["legal"] is False and replies["Dev"]["rule"] == "H2" and replies["Dev"]["move"] == wrong
    assert replies["Dev"]["why"].endswith("(H2)")
    assert replies["Eli"]["rule"] == "H1" and replies["Fay"]["rule"] is None  # "... is not in Ana's hand"
    tally = room.last("teacher", "walk_tally")
    assert (tally["answered"], tally["following"], tally["illegal"], tally["best"]) == (6, 6, 3, None)
    first = {"move": legal[0], "count": 2, "legal": True, "rule": None, "why": None, "best": False}
    assert tally["choices"][0] == first
    assert sorted(str(r["rule"]) for r in tally["rules"]) == ["H1", "H2", "None"]
    found = room.think()
    assert found.pushes[0][2]["best"] in legal and room.walk.question.best == found.pushes[0][2]["best"]
    room.walk.question.best = legal[0]  # say the bot chose the move two students tried: that choice is starred
    assert [choice["move"] for choice in tally_frame(room.walk)["choices"] if choice["best"]] == [legal[0]]
    for name in tries:
        assert all(frame["type"] != "walk_tally" for frame in room.to(name))  # the tally is the teacher's


def test_a_second_try_a_late_try_and_a_try_that_is_no_move_are_refused_and_not_counted() -> None:
    room = Room()
    room.open("sombrero", 2, shows="all")
    room.join("Maya", "Ben")
    assert "no question is open" in room.student("Maya", "walk_try", move="a1-a2")["message"]
    room.teach("walk_ask")
    legal = room.last("Maya")["views"][0]["legal"]
    room.student("Maya", "walk_try", number=1, move=legal[0])
    before = walk_state(room)
    for name, fields, words in [
        ("Maya", {"move": legal[1]}, f"Maya tried {legal[0]} at question 1 already, so '{legal[1]}' is not counted"),
        ("Ben", {"move": "a1-a9"}, "'a1-a9' is not"),
        ("Ben", {"move": 42}, "a move is its notation as text, not 42"),
        ("Ben", {"number": 2, "move": legal[0]}, "question 2 is closed: the open question is number 1"),
        ("Ben", {"number": "one", "move": legal[0]}, "number is a whole number from 0 to"),
    ]:
        refused = room.student(name, "walk_try", **fields)
        assert refused["type"] == "error" and words in refused["message"], refused
        assert walk_state(room) == before
    room.teach("walk_move", move=legal[0])  # playing on closes the question
    assert room.last("Ben")["question"] is None
    assert "no question is open" in room.student("Ben", "walk_try", number=1, move=legal[0])["message"]


def test_a_question_asks_about_a_seat_the_class_is_shown_that_acts() -> None:
    room = Room()
    room.open("hats", 3, shows="seat", seat=2)
    room.join("Maya")
    before = walk_state(room)
    assert "the teacher's seat (Cleo) does not act at ply 0" in room.teach("walk_ask")["message"]
    assert "seat 1 does not act at ply 0" in room.teach("walk_ask", seat=1)["message"]
    assert "a question about seat 0 asks blind" in room.teach("walk_ask", seat=0)["message"]
    assert walk_state(room) == before
    room.play_until(2)
    asked = room.teach("walk_ask")
    assert asked == {"type": "walk_asked", "code": room.code, "number": 1, "ply": room.walk.at, "seat": 2}
    race = Room()
    race.open("hats-off", 3, shows="all")
    assert "seats 0, 1, 2 may act at ply 0: say which" in race.teach("walk_ask")["message"]
    assert race.teach("walk_ask", seat=1)["seat"] == 1


# ---------------------------------------------------------------- the teacher comes and goes


def test_a_teacher_who_leaves_leaves_the_class_at_the_last_position_and_the_students_are_told() -> None:
    room = Room()
    room.open("hats", 3)
    room.join("Maya", "Ben")
    room.teach("walk_move", move=str(room.walk.game.legal_moves()[0]))
    room.teach("walk_ask", seat=room.walk.position().acting[0])
    gone = room.host.classroom.connected(room.code, 0, False)  # the teacher's connection closed
    told = [frame for code, index, frame in gone.pushes if index != 0]
    assert len(told) == 2 and told[0] == {"type": "walk_presence", "code": room.code, "teacher": "Teacher"} | {
        "teacher_here": False
    }
    assert room.student("Maya", "walk_state")["ply"] == 1  # the last position, again on request
    legal = room.last("Maya")["views"][room.walk.question.seat]["legal"]
    assert room.student("Maya", "walk_try", move=legal[0])["legal"] is True  # answers still count
    back = room.send({"op": "walk_join", "code": room.code, "role": "teacher", "teacher": room.secret})
    assert back.reply["role"] == "teacher" and room.last("Ben", "walk_presence")["teacher_here"] is True
    again = hatskit.load(back.reply["record"])  # a reloaded teacher's page deals and replays the same game
    assert again.record() == room.walk.game.record() and back.reply["ply"] == room.walk.at == 1
    assert room.last("teacher", "walk_tally")["answered"] == 1  # the tally waits for the teacher
    left = room.teach("walk_leave", role="teacher")
    assert left["member"] == 0 and room.last("Maya", "walk_presence")["teacher_here"] is False
    roster = room.last("teacher", "walk_presence")["students"]
    assert [(s["name"], s["here"]) for s in roster] == [("Maya", True), ("Ben", True)]
    assert room.student("Ben", "walk_leave")["member"] == 2
    closed = room.send({"op": "walk_close", "teacher": room.secret, "code": room.code})
    assert closed.reply == {"type": "walk_closed", "code": room.code}
    assert room.last("Maya", "closed")["message"] == f"Teacher ended walkthrough {room.code}"
    assert room.student("Maya", "walk_state")["message"] == f"no walkthrough has the code {room.code}"


# ---------------------------------------------------------------- the class's progress


def test_the_teacher_sees_every_students_stars_and_place_live_and_nobody_else_does() -> None:
    room = Room()
    for name in ("Maya", "Ben"):
        joined = room.student(name, "class_join")
        assert joined["type"] == "class_joined" and joined["name"] == name
        room.tokens[name] = joined["token"]
    listed = room.send({"op": "class_list", "teacher": room.secret}).reply
    assert listed == {"type": "class", "columns": [], "rows": listed["rows"], "watch": 1}
    assert [row["name"] for row in listed["rows"]] == ["Maya", "Ben"]
    saved = room.student("Maya", "class_stars", game="sombrero", stars=["sombrero/puzzle-1", "sombrero/first-game"])
    room.student("Ben", "class_stars", game="hats", stars=["hats/first-game"])
    assert saved["row"]["stars"] == ["sombrero/first-game", "sombrero/puzzle-1"] and saved["row"]["name"] == "Maya"
    where = room.student("Maya", "class_where", page="hats", lesson="black-hat", step=3, table="kbqtz")
    assert where["row"]["where"] == {"page": "hats", "lesson": "black-hat", "step": 3, "table": "KBQTZ"}
    room.student("Maya", "class_stars", game="sombrero", stars=["sombrero/first-game"])  # replaces that game's
    rows = [frame["row"] for frame in room.frames[(CLASS_WATCH, 1)]]
    assert [row["name"] for row in rows] == ["Maya", "Ben", "Maya", "Maya"] and rows[-1]["stars"] == [
        "sombrero/first-game"
    ]
    again = room.send({"op": "class_list", "teacher": room.secret}).reply
    assert again["columns"] == ["hats/first-game", "sombrero/first-game"] and again["watch"] == 2
    for name in ("Maya", "Ben"):
        assert "class_list" in room.student(name, "class_list")["op"]  # refused: no teacher secret
    cleared = room.send({"op": "class_clear", "teacher": room.secret, "name": "ben"})
    assert cleared.reply == {"type": "class_cleared", "names": ["Ben"]} and len(cleared.pushes) == 2
    assert (
        "'Ben' is not in the class: join it first"
        in room.student("Ben", "class_stars", game="hats", stars=[])["message"]
    )
    assert room.send({"op": "class_clear", "teacher": room.secret}).reply["names"] == ["Maya"]
    assert room.host.classroom.students == {}


def test_answers_and_stars_sent_under_another_name_are_refused_and_change_nothing() -> None:
    room = Room()
    room.open("sombrero", 2)
    room.join("Maya", "Ben")
    room.teach("walk_ask")
    legal = room.last("Maya")["views"][0]["legal"]
    before = walk_state(room)
    maya = room.tokens["Maya"]
    for frame, words in [
        ({"op": "walk_try", "name": "Ben", "token": maya, "move": legal[0]}, f"the class token '{maya[:6]}…' is not"),
        ({"op": "walk_try", "name": "Ben", "move": legal[0]}, "'Ben' is in the class already: send the class token"),
        ({"op": "class_stars", "name": "Ben", "token": maya, "game": "sombrero", "stars": []}, "is not Ben's"),
        ({"op": "class_where", "name": "Ben", "token": maya, "page": "hats"}, "send under your own name"),
        ({"op": "walk_join", "name": "ben", "token": maya}, "is not ben's"),
        ({"op": "walk_try", "name": "Zed", "token": maya, "move": legal[0]}, "'Zed' is not in the class: join it"),
        ({"op": "class_join", "name": "MAYA"}, "'MAYA' is in the class already"),
    ]:
        refused = room.send({"code": room.code, **frame}).reply
        assert refused["type"] == "error" and words in refused["message"], (frame, refused)
        assert walk_state(room) == before
    hub = room.send({"op": "class_stars", "name": "ben", "game": "hats", "stars": []}, user="maya").reply
    assert hub["message"] == "the hub user 'maya' sends under their own name, not 'ben'"


def test_a_forged_teacher_secret_and_a_student_are_refused_every_teachers_op() -> None:
    room = Room()
    room.open("hats", 3)
    room.join("Maya")
    before = walk_state(room)
    teacher_ops = [
        {"op": "walk_open", "game": "hats", "players": 3},
        {"op": "walk_move", "move": str(room.walk.game.legal_moves()[0])},
        {"op": "walk_step", "ply": 0},
        {"op": "walk_ask", "seat": 0},
        {"op": "walk_close"},
        {"op": "walk_list"},
        {"op": "walk_join", "role": "teacher"},
        {"op": "walk_leave", "role": "teacher"},
        {"op": "class_list"},
        {"op": "class_clear"},
    ]
    forged = TeacherKey().draw()
    for frame in teacher_ops:
        for teacher, words in [
            (forged, f"the teacher secret '{forged[:6]}…' is not this host's"),
            (None, "only the teacher may do this, with the secret of the teacher's link, not None"),
            (room.tokens["Maya"], "is not this host's"),
            (["x"], "not ['x']"),
        ]:
            refused = room.send({"code": room.code, "teacher": teacher, **frame}).reply
            assert refused["type"] == "error" and words in refused["message"], (frame, refused)
            assert walk_state(room) == before
    assert room.host.classroom.watchers == set()


def test_bad_fields_are_refused_in_a_sentence_quoting_them_and_change_nothing() -> None:
    room = Room()
    room.open("hats", 3)
    room.join("Maya")
    before = walk_state(room)
    for frame, words in [
        ({"op": "walk_open", "game": "chess"}, "chess"),
        (
            {"op": "walk_open", "game": "hats", "players": 3, "shows": "most"},
            "shows is one of 'all', 'seat', not 'most'",
        ),
        ({"op": "walk_open", "game": "hats", "players": 3, "seat": 3}, "seat is a whole number from 0 to 2, not 3"),
        ({"op": "walk_open", "game": "hats", "players": 3, "seed": -1}, "seed is a whole number"),
        ({"op": "walk_open", "game": "hats", "players": 3, "options": [1]}, "options are an object"),
        ({"op": "walk_step", "ply": 5}, "ply is a whole number from 0 to 0, not 5"),
        ({"op": "walk_move", "move": "♥5@2♥5@2"}, "'♥5@2♥5@2'"),
        ({"op": "walk_join", "role": "owner"}, "role is one of 'student', 'teacher', not 'owner'"),
        ({"op": "walk_join", "code": "BBBBB"}, "no walkthrough has the code BBBBB"),
        ({"op": "walk_join", "code": "hello"}, "'hello' is not a walkthrough code"),
        ({"op": "walk_join", "code": 5}, "5 is not a walkthrough code"),
    ]:
        refused = room.send({"teacher": room.secret, "code": room.code, **frame}).reply
        assert refused["type"] == "error" and words in refused["message"], (frame, refused)
        assert walk_state(room) == before
    token = room.tokens["Maya"]
    for frame, words in [
        ({"op": "class_stars", "game": "golf", "stars": []}, "'golf' is not a game: the games are hats"),
        ({"op": "class_stars", "game": "hats", "stars": ["sombrero/first-game"]}, "is not a star of hats"),
        ({"op": "class_stars", "game": "hats", "stars": ["hats/First Game"]}, "'hats/First Game' is not a star"),
        ({"op": "class_stars", "game": "hats", "stars": "hats/first-game"}, "stars are a list of up to 100 keys"),
        ({"op": "class_where", "page": ""}, "a page is 1 to 64 printable characters"),
        ({"op": "class_where", "page": "hats", "step": -1}, "step is a whole number from 0 to 1000, not -1"),
        ({"op": "class_where", "page": "hats", "lesson": "Lesson 1"}, "not 'Lesson 1'"),
        ({"op": "class_where", "page": "hats", "table": "XYZ"}, "a table is a table's code, such as KBQTZ, not 'XYZ'"),
        ({"op": "class_join", "name": "x" * 30}, "a name is 1 to 24 printable characters"),
    ]:
        refused = room.send({"name": "Maya", "token": token, **frame}).reply
        assert refused["type"] == "error" and words in refused["message"], (frame, refused)
        assert walk_state(room) == before


# ---------------------------------------------------------------- who is the teacher


def test_the_teacher_secret_is_kept_hashed_and_holds_after_a_restart_until_a_new_one_is_drawn(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite"
    host = TableHost(Store(path))
    secret = host.classroom.teacher_link()
    assert secret is not None and host.classroom.teacher_link() is None  # drawn once
    host.store.close()
    assert secret.encode() not in b"".join(p.read_bytes() for p in tmp_path.iterdir())
    again = TableHost(Store(path))
    assert again.classroom.teacher_link() is None and again.classroom.key_drawn is not None
    assert Room(again, secret).send({"op": "walk_list", "teacher": secret}).reply == {"type": "walks", "walks": []}
    new = again.classroom.teacher_link(new=True)
    assert new is not None and new != secret
    assert "is not this host's" in handle(again, json.dumps({"op": "walk_list", "teacher": secret})).reply["message"]


def test_on_a_hub_a_teacher_is_an_admin_or_in_the_teachers_group_and_a_student_is_their_hub_user() -> None:
    assert is_teacher({"name": "ada", "admin": True}) and is_teacher({"name": "bo", "groups": ["teachers"]})
    assert not is_teacher({"name": "cy", "admin": False, "groups": ["students"]}) and not is_teacher({"name": "d"})
    host = TableHost()  # no secret drawn: on a hub nobody can be the teacher by one
    ada = handle(host, json.dumps({"op": "walk_open", "game": "sombrero", "players": 2}), "ada", teacher=True)
    code = ada.reply["code"]
    assert ada.reply["name"] == "ada"
    refused = handle(host, json.dumps({"op": "walk_step", "code": code, "ply": 0}), "maya")
    assert refused.reply["message"] == "'maya' is not a teacher on this hub: a hub admin or a member of the " + (
        "'teachers' group leads the class"
    )
    forged = handle(host, json.dumps({"op": "walk_step", "code": code, "ply": 0, "teacher": "guess"}), "maya")
    assert forged.reply["type"] == "error"
    joined = handle(host, json.dumps({"op": "walk_join", "code": code}), "maya").reply
    assert joined["name"] == "maya" and "token" not in joined
    assert handle(host, json.dumps({"op": "class_where", "page": "hats"}), "maya").reply["type"] == "class_saved"
    assert handle(host, json.dumps({"op": "class_list"}), "ada", teacher=True).reply["rows"][0]["name"] == "maya"

    class TeachersHub(FakeHub):
        def user_for_token(self, token: str, use_cache: bool = True, session_id: str = "", *, sync: bool = True) -> Any:
            scopes = ["access:services!service=tabletop"]
            return _ready({"name": token, "scopes": scopes, "admin": token == "ada", "groups": [token[:8]]})

    auth = HubUserAuth(TeachersHub())
    assert asyncio.run(auth.identity({"Authorization": "token ada"})).teacher is True
    assert asyncio.run(auth.identity({"Authorization": "token teachers"})).teacher is True
    assert asyncio.run(auth.identity({"Authorization": "token maya"})).teacher is False


# ---------------------------------------------------------------- the store


def test_a_restarted_host_has_every_walkthrough_question_answer_and_star(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite"
    room = Room(TableHost(Store(path)))
    room.open("hats", 3, shows="seat")
    room.join("Maya", "Ben")
    room.play_until(0)
    room.teach("walk_move", move=str(room.walk.position().legal_moves()[0]))
    room.play_until(0)
    room.teach("walk_step", ply=room.walk.at)
    room.teach("walk_ask")
    legal = room.last("Maya")["views"][0]["legal"]
    room.student("Maya", "walk_try", move=legal[0])
    room.think()
    room.student("Ben", "class_stars", game="hats", stars=["hats/first-game"])
    room.student("Ben", "class_where", page="hats", lesson="first-game", step=2)
    before, tally = walk_state(room, presence=False), room.last("teacher", "walk_tally")
    room.host.store.close()
    again = Room(TableHost(Store(path)), room.secret)
    again.code, again.tokens, again.members = room.code, room.tokens, room.members
    assert walk_state(again, presence=False) == before and again.host.classroom.skipped == {}
    assert "tried" in again.student("Maya", "walk_try", move=legal[-1])["message"]  # her try is still counted
    again.send({"op": "walk_join", "code": room.code, "role": "teacher", "teacher": room.secret})
    assert again.last("teacher", "walk_tally") | {"following": 1} == tally | {"following": 1}
    assert again.student("Ben", "walk_try", move=legal[0])["legal"] is True
    row = again.send({"op": "class_list", "teacher": room.secret}).reply["rows"][1]
    assert row["stars"] == ["hats/first-game"] and row["where"]["step"] == 2


def test_a_change_the_file_cannot_take_is_refused_and_not_made(tmp_path: Path) -> None:
    room = Room(TableHost(Store(tmp_path / "tables.sqlite")))
    room.open("sombrero", 2)
    room.join("Maya")
    room.host.store.db.execute("DROP TABLE answers")  # as a full disk or a damaged file would
    room.host.store.db.execute("DROP TABLE walk_members")
    room.teach("walk_ask")
    before = walk_state(room)
    legal = room.last("Maya")["views"][0]["legal"]
    refused = room.student("Maya", "walk_try", move=legal[0])
    assert "the host could not save this to its file" in refused["message"]
    assert "could not save" in room.student("Ben", "walk_join")["message"]
    assert walk_state(room) == before and "ben" not in room.host.classroom.students  # no name without its token


def test_a_walkthrough_that_no_longer_replays_is_skipped_and_named(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite"
    room = Room(TableHost(Store(path)))
    room.open("sombrero", 2)
    room.teach("walk_move", move=str(room.walk.game.legal_moves()[0]))
    room.host.store.db.execute("UPDATE walk_moves SET move = 'nonsense'")
    room.host.store.close()
    again = TableHost(Store(path))
    assert room.code not in again.classroom.walks and "'nonsense'" in again.classroom.skipped[room.code]
    with sqlite3.connect(path) as stored:
        assert stored.execute("SELECT COUNT(*) FROM walks").fetchone() == (1,)


def test_a_class_holding_all_the_students_it_may_refuses_another_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tablehost.classroom.MAX_STUDENTS", 2)
    room = Room()
    for name in ("Maya", "Ben"):
        room.tokens[name] = room.student(name, "class_join")["token"]
    refused = room.student("Cleo", "class_join")
    assert refused["message"] == "the class holds 2 students, all it may: 'Cleo' waits for the teacher to clear it"
    assert room.student("Maya", "class_join")["type"] == "class_joined"  # a student already in it proves the name


def test_walkthrough_codes_and_table_codes_never_meet() -> None:
    room = Room()
    codes = {room.open("sombrero", 2)["code"] for _ in range(20)}
    tables = {room.host.open(Who(), "sombrero", 2, "T").reply["code"] for _ in range(20)}
    assert len(codes) == 20 and codes.isdisjoint(tables) and codes | tables <= room.host.classroom.codes


def test_every_game_can_be_walked_through_and_asked_about() -> None:
    for game_id, players in (("hats", 3), ("madder", 3), ("sombrero", 2), ("hats-off", 3)):
        room = Room()
        room.open(game_id, players)
        room.join("Maya")
        seat = room.walk.position().acting[0]
        assert room.teach("walk_ask", seat=seat)["type"] == "walk_asked"
        move = room.last("Maya")["views"][seat]["legal"][0].replace("@0", "@0.5")
        assert room.student("Maya", "walk_try", move=move)["legal"] is True
        assert room.think().pushes[0][2]["best"] is not None
