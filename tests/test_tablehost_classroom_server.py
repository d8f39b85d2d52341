"""The class together over a real websocket: a class follows the teacher's walkthrough, answers "your move?" and
the teacher's tally fills in (the strong bot's move found on the host's thread); the teacher comes and goes; the
class list is live; clients come back by themselves; a host killed with SIGKILL comes back with the walkthrough,
its question and the stars, and its printed teacher link still holds.

As in ``test_tablehost_server.py``, the in-process servers run on this test's loop on a free loopback port, and
every wait is on a condition, never a sleep.
"""

from __future__ import annotations

import asyncio
import json
import signal
from pathlib import Path
from typing import Any

import pytest

from tablehost.auth import HubUserAuth
from tablehost.client import TableClient, TableRefused
from tablehost.server import MAX_UNKNOWN_CODES
from tests.test_tablehost import FakeHub, _ready
from tests.test_tablehost_server import HostProcess, ask, close_all, connected, raw, run, served


async def classroom(url: str, secret: str | None, students: int, **opening: Any) -> list[TableClient]:
    """The teacher's client (first) with a walkthrough open, and ``students`` clients following it."""
    (teacher,) = await connected(url, 1, teacher=secret)
    code = (await teacher.walk_open(**({"game": "hats", "players": 3} | opening)))["code"]
    pupils = await connected(url, students)
    for number, pupil in enumerate(pupils):
        await pupil.walk_join(code.lower(), name=f"Student {number}")
    for client in (teacher, *pupils):
        await client.wait_for(lambda c: c.walk is not None and c.walk_presence is not None)
    return [teacher, *pupils]


def asked_legal(client: TableClient) -> list[str]:
    """The legal moves, as the client was shown them, of the seat the open question asks about."""
    seat = client.walk["question"]["seat"]
    return next(entry["legal"] for entry in client.walk["views"] if entry["seat"] == seat)


async def moved(clients: list[TableClient], move: str | None = None) -> int:
    """The teacher plays ``move`` (or the first legal one) and every client is shown the new ply."""
    teacher = clients[0]
    position = teacher.walk
    legal = [m for entry in position["views"] for m in entry["legal"]]
    ply = (await teacher.walk_move(move or legal[0]))["ply"]
    for client in clients:
        await client.wait_for(lambda c: c.walk["ply"] == ply)
    return ply


def test_a_class_follows_the_teacher_answers_your_move_and_the_tally_fills_in() -> None:
    async def test() -> None:
        async with served() as server:
            clients = await classroom(server.url, server.teacher_secret, 3, shows="seat")
            teacher, maya, ben, cleo = clients
            assert [entry["seat"] for entry in maya.walk["views"]] == [0]
            assert maya.class_token is not None and maya.name == "Student 0"
            while 0 not in teacher.walk["acting"]:
                await moved(clients)
            ply = teacher.walk["ply"]
            asked = await teacher.walk_ask()
            for pupil in (maya, ben, cleo):
                await pupil.wait_for(lambda c: c.walk["question"] is not None)
            legal = maya.walk["views"][0]["legal"]
            assert (await maya.walk_try(legal[0]))["legal"] is True
            assert (await ben.walk_try(legal[0]))["legal"] is True
            refused = await cleo.walk_try(f"{maya.walk['views'][0]['view']['hand'][0]}@9")
            assert refused["legal"] is False and refused["rule"] == "H1"
            with pytest.raises(TableRefused, match="one try a question"):
                await cleo.walk_try(legal[0])
            await teacher.wait_for(lambda c: c.tally["answered"] == 3 and c.tally["best"] is not None, timeout=20)
            assert teacher.tally["number"] == asked["number"] and teacher.tally["choices"][0]["count"] == 2
            assert teacher.tally["best"] in legal and teacher.tally["rules"] == [{"rule": "H1", "count": 1}]
            assert all(f["type"] != "walk_tally" for pupil in (maya, ben, cleo) for f in pupil.frames)
            assert await moved(clients, legal[0]) == ply + 1 and maya.walk["question"] is None
            await teacher.walk_step(ply)
            await maya.wait_for(lambda c: c.walk["ply"] == ply and c.walk["plies"] == ply + 1)
            await close_all(clients)

    run(test)


def test_when_the_teacher_goes_the_class_keeps_the_position_and_is_told_and_clients_come_back_by_themselves() -> None:
    async def test() -> None:
        async with served() as server:
            clients = await classroom(server.url, server.teacher_secret, 2)
            teacher, maya, ben = clients
            await moved(clients)
            await teacher.close()  # the teacher's laptop sleeps
            await maya.wait_for(lambda c: c.walk_presence["teacher_here"] is False)
            assert (await maya.walk_state())["ply"] == 1
            for held in list(server.relay.sockets):
                if (maya.walk_code, 2) in held.seats:
                    held.close()  # the network blinks for Ben
            await ben.wait_for(lambda c: c.connections == 2 and any(f.get("re") == "walk_join-2" for f in c.frames))
            (back,) = await connected(server.url, 1, teacher=server.teacher_secret)
            await back.walk_join(maya.walk_code, role="teacher")
            await back.wait_for(lambda c: c.walk_presence is not None)
            for pupil in (maya, ben):
                await pupil.wait_for(lambda c: c.walk_presence["teacher_here"] is True)
            assert [s["here"] for s in back.walk_presence["students"]] == [True, True]
            await moved([back, maya, ben])
            assert (await back.walk_list())["walks"][0]["following"] == 2
            code = back.walk_code
            assert any(key[0] == code for key in server.relay.holders)
            await back.walk_close()
            await maya.wait_for(lambda c: c.walk_ended is not None and c.walk_code is None)
            assert not any(key[0] == code for key in server.relay.holders)  # nobody holds it any more
            await close_all([back, maya, ben])

    run(test)


def test_the_teacher_watches_the_class_list_live_and_a_student_sees_only_their_own_row() -> None:
    async def test() -> None:
        async with served() as server:
            (teacher,) = await connected(server.url, 1, teacher=server.teacher_secret)
            maya, ben = await connected(server.url, 2)
            await maya.class_join("Maya")
            await ben.class_join("Ben")
            listed = await teacher.class_list()
            assert [row["name"] for row in listed["rows"]] == ["Maya", "Ben"]
            saved = await maya.class_stars("hats", ["hats/first-game", "hats/puzzle-1"])
            assert saved["row"]["name"] == "Maya"
            await ben.class_where("sombrero", "first-game", 2, None)
            await teacher.wait_for(lambda c: c.class_rows["Ben"]["where"] is not None)
            assert teacher.class_rows["Maya"]["stars"] == ["hats/first-game", "hats/puzzle-1"]
            assert all(f["type"] not in ("class", "class_row") for f in ben.frames)
            with pytest.raises(TableRefused, match="only the teacher may do this"):
                await maya.class_list()
            for held in list(server.relay.sockets):
                if any(key[0] == "#class" for key in held.seats):
                    held.close()  # the teacher's connection drops: the client watches again by itself
            await teacher.wait_for(lambda c: any(f.get("re") == "class_list-2" for f in c.frames))
            await maya.class_stars("sombrero", ["sombrero/puzzle-2"])
            await teacher.wait_for(lambda c: "sombrero/puzzle-2" in c.class_rows["Maya"]["stars"])
            assert len(server.host.classroom.watchers) == 1
            await close_all([teacher, maya, ben])

    run(test)


def test_forged_secrets_and_guessed_walkthrough_codes_are_refused_over_the_wire() -> None:
    async def test() -> None:
        async with served() as server:
            ws = await raw(server.url)
            forged = await ask(ws, json.dumps({"op": "walk_open", "id": 1, "game": "hats", "teacher": "x" * 43}))
            assert forged["message"] == "the teacher secret 'xxxxxx…' is not this host's: " + (
                "the teacher's link is printed when the host starts"
            )
            for _ in range(MAX_UNKNOWN_CODES):
                refused = await ask(ws, json.dumps({"op": "walk_join", "code": "BBBBB", "name": "Guess"}))
                assert refused["message"] == "no walkthrough has the code BBBBB"
            assert await ws.read_message() is None and ws.close_code == 1008
            assert server.host.classroom.walks == {} and server.host.classroom.students == {}

    run(test)


def test_on_a_hub_the_teacher_is_a_hub_admin_and_students_are_hub_users() -> None:
    class Hub(FakeHub):
        def user_for_token(self, token: str, use_cache: bool = True, session_id: str = "", *, sync: bool = True) -> Any:
            groups = ["teachers"] if token == "ada" else []
            return _ready({"name": token, "scopes": ["access:services!service=tabletop"], "groups": groups})

    async def test() -> None:
        async with served(HubUserAuth(Hub()), hub_auth=True) as server:
            assert server.teacher_secret is None  # no secret on a hub: the hub says who teaches
            (ada,) = await connected(server.url, 1, hub_token="ada")
            (maya,) = await connected(server.url, 1, hub_token="maya")
            code = (await ada.walk_open("sombrero", 2))["code"]
            joined = await maya.walk_join(code)
            assert joined["name"] == "maya" and "token" not in joined
            with pytest.raises(TableRefused, match="'maya' is not a teacher on this hub"):
                await maya.walk_list()
            await maya.class_stars("sombrero", ["sombrero/first-game"])
            assert (await ada.class_list())["rows"][0]["stars"] == ["sombrero/first-game"]
            await close_all([ada, maya])

    run(test)


def test_a_host_killed_mid_walkthrough_comes_back_with_it_and_its_teacher_link_holds(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite"

    async def test() -> None:
        first = HostProcess(db)
        url = await first.ready()
        link = await asyncio.to_thread(first.process.stdout.readline)  # type: ignore[union-attr]
        assert link.decode().startswith("teacher: ?teacher=")
        secret = link.decode().split("?teacher=")[1].split()[0]
        clients = await classroom(url, secret, 2, game="sombrero", players=2)
        teacher, maya, ben = clients
        await moved(clients)
        await teacher.walk_ask()
        await maya.wait_for(lambda c: c.walk["question"] is not None)
        await maya.walk_try(asked_legal(maya)[0])
        await maya.class_stars("sombrero", ["sombrero/first-game"])
        first.process.send_signal(signal.SIGKILL)
        await asyncio.to_thread(first.process.wait)
        second = HostProcess(db, bind=url.split("/")[2])
        assert await second.ready() == url
        again = (await asyncio.to_thread(second.process.stdout.readline)).decode()  # type: ignore[union-attr]
        assert again.startswith("teacher: the link printed on ") and secret not in again
        for client in clients:  # every client follows again by itself, the teacher by the same secret
            await client.wait_for(lambda c: any(f.get("re") == "walk_join-2" for f in c.frames), timeout=20)
        await teacher.wait_for(lambda c: c.tally is not None and c.tally["answered"] == 1 and c.tally["best"])
        with pytest.raises(TableRefused, match="one try a question"):
            await maya.walk_try(asked_legal(maya)[0])
        assert (await ben.walk_try(asked_legal(ben)[0]))["legal"] is True
        assert (await teacher.class_list())["rows"][0]["stars"] == ["sombrero/first-game"]
        await moved(clients)
        await close_all(clients)
        second.process.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(second.process.wait, 10) == 0

    run(test)
