"""The table host on a real socket (issue 43): clients play through it, bad frames are refused in a sentence,
hub users hold seats, and a host killed with SIGKILL mid-game comes back on the same file with every move.

The in-process tests run the server on this test's own asyncio loop, on a free
loopback port; the kill test runs ``python -m tablehost`` as a process. Every
wait is on a condition (a frame arriving, a connection back), never a sleep.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from tornado.httpclient import AsyncHTTPClient, HTTPClientError
from tornado.websocket import WebSocketClientConnection, websocket_connect

from tablehost.auth import Auth, HubUserAuth
from tablehost.client import TableClient, TableConnectionLost, TableRefused
from tablehost.server import MAX_UNKNOWN_CODES, TOO_BIG, Settings, TableServer
from tests.test_tablehost import FakeHub

REPO = Path(__file__).resolve().parents[1]
LIMIT = 60.0  # seconds any one test's loop may run


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), LIMIT))


@asynccontextmanager
async def served(auth: Auth | None = None, **settings: Any) -> AsyncIterator[TableServer]:
    server = TableServer(Settings(bind="127.0.0.1:0", bot_delay=0.02, **settings), auth)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def connected(url: str, count: int, **options: Any) -> list[TableClient]:
    clients = [TableClient(url, backoff=(0.05, 0.4), **options) for _ in range(count)]
    for client in clients:
        await client.connect()
    return clients


async def seated(url: str, game: str, players: int, humans: int) -> list[TableClient]:
    """``humans`` clients at one table of ``game``, started (bots in the other seats)."""
    clients = await connected(url, humans)
    code = (await clients[0].open(game, players, "Maya"))["code"]
    for number, client in enumerate(clients[1:], start=1):
        await client.join(code.lower(), f"Player {number}")
    await clients[0].start()
    for client in clients:
        await client.wait_for(lambda c: c.state is not None and c.presence["status"] == "playing")
    return clients


async def play(clients: list[TableClient], plies: int) -> None:
    """The client whose seat may act plays its first legal move, until the game reaches ``plies`` (bots answer)."""
    while clients[0].state["ply"] < plies:
        ply = clients[0].state["ply"]
        mover = next((c for c in clients if c.seat in c.state["acting"] and c.state["ply"] == ply), None)
        if mover is not None:
            await mover.move(mover.state["legal"][0])
        for client in clients:
            await client.wait_for(lambda c, ply=ply: c.state["ply"] > ply)


async def close_all(clients: list[TableClient]) -> None:
    for client in clients:
        await client.close()


async def raw(url: str) -> WebSocketClientConnection:
    return await websocket_connect(url, max_message_size=16 * 1024 * 1024)


async def ask(ws: WebSocketClientConnection, text: str) -> dict[str, Any]:
    await ws.write_message(text)
    answer = await ws.read_message()
    assert isinstance(answer, str), f"the connection closed: {ws.close_code} {ws.close_reason}"
    return json.loads(answer)


# ---------------------------------------------------------------- over the wire


def test_two_players_and_a_bot_play_through_the_host_each_seeing_its_own_seat() -> None:
    async def test() -> None:
        async with served() as server:
            maya, ben = await seated(server.url, "hats", 3, humans=2)
            assert maya.presence["seats"][1] | {"connected": True} == maya.presence["seats"][1]
            await play([maya, ben], 9)
            assert maya.state["view"]["seat"] == 0 and ben.state["view"]["seat"] == 1
            assert maya.state["view"]["hand"] != ben.state["view"]["hand"]
            assert {e["ply"] for f in ben.frames if f["type"] == "state" for e in f["events"]} >= set(range(1, 10))
            for held in server.relay.sockets:  # frames go out at once, not after the client's delayed ack
                assert held.ws_connection.stream.socket.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
            health = await AsyncHTTPClient().fetch(server.url.replace("ws://", "http://").replace("/ws", "/health"))
            assert json.loads(health.body) == {"status": "ok", "tables": 1, "playing": 1, "connections": 2}
            await ben.close()
            await maya.wait_for(lambda c: c.presence["seats"][1]["connected"] is False)
            await close_all([maya])

    run(test)


def test_a_refused_move_is_a_sentence_and_the_connection_stays() -> None:
    async def test() -> None:
        async with served() as server:
            maya, ben = await seated(server.url, "sombrero", 2, humans=2)
            with pytest.raises(TableRefused, match="is out of turn: seat 0 \\(Maya\\) is to move, not seat 1"):
                await ben.move(maya.state["legal"][0])
            with pytest.raises(TableRefused, match="'a1-a9' is not"):
                await maya.move("a1-a9")
            assert (await maya.move(maya.state["legal"][0]))["ply"] == 1
            await close_all([maya, ben])

    run(test)


def test_frames_that_are_not_json_or_too_big_are_refused_in_a_sentence() -> None:
    async def test() -> None:
        async with served() as server:
            ws = await raw(server.url)
            not_json = await ask(ws, "hello, host")
            assert not_json == {"type": "error", "op": None, "message": not_json["message"]}
            assert not_json["message"] == "the host reads JSON frames; this frame is not JSON: 'hello, host'"
            assert (await ask(ws, '{"op": "fly", "id": 3}'))["message"].startswith("unknown op 'fly'; the ops are")
            assert await ask(ws, '{"op": "ping", "id": 4}') == {"type": "pong", "re": 4}  # still connected
            await ws.write_message("x" * (1024 * 1024))
            assert json.loads(await ws.read_message())["message"] == TOO_BIG
            assert await ws.read_message() is None  # a frame that big is not read: the connection closes
            assert server.host.tables == {}

    run(test)


def test_a_connection_that_guesses_codes_is_closed() -> None:
    async def test() -> None:
        async with served() as server:
            ws = await raw(server.url)
            for _ in range(MAX_UNKNOWN_CODES):
                refused = await ask(ws, json.dumps({"op": "join", "code": "BBBBB", "name": "Guess"}))
                assert refused["message"] == "no table has the code BBBBB"
            assert await ws.read_message() is None
            assert ws.close_code == 1008 and "codes that no table has" in ws.close_reason

    run(test)


def test_on_a_hub_the_connection_is_a_hub_user_and_holds_the_seat_by_name() -> None:
    async def test() -> None:
        async with served(HubUserAuth(FakeHub()), prefix="/services/tabletop/") as server:
            url = server.url.replace("/ws", "/services/tabletop/ws")  # where a hub-managed service is reached
            (maya,) = await connected(url, 1, hub_token="good")
            opened = await maya.open("sombrero", 2)
            await maya.wait_for(lambda c: c.presence is not None)
            assert "token" not in opened and maya.presence["seats"][0]["name"] == "maya"
            for token, status in ((None, 401), ("bad", 403), ("narrow", 403)):
                with pytest.raises(HTTPClientError) as refused:
                    await TableClient(url, hub_token=token).connect()
                assert refused.value.code == status
            await close_all([maya])

    run(test)


def test_a_client_reconnects_by_itself_and_gets_the_moves_it_missed() -> None:
    async def test() -> None:
        async with served() as server:
            maya, ben = await seated(server.url, "sombrero", 2, humans=2)
            await play([maya, ben], 4)  # White's two actions, Black's two: White to move
            for held in list(server.relay.sockets):
                if (maya.code, 1) in held.seats:
                    held.close()  # the network blinks for Ben
            await maya.wait_for(lambda c: c.presence["seats"][1]["connected"] is False)
            await maya.move(maya.state["legal"][0])
            await ben.wait_for(lambda c: c.connections == 2 and c.state["ply"] == 5)
            assert ben.state["events"][-1]["ply"] == 5
            await maya.wait_for(lambda c: c.presence["seats"][1]["connected"] is True)
            await close_all([maya, ben])

    run(test)


# ---------------------------------------------------------------- a real process, killed and started again


class HostProcess:
    """``python -m tablehost`` on a file; ``url`` is what it printed."""

    def __init__(self, db: Path, bind: str = "127.0.0.1:0") -> None:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        command = [sys.executable, "-m", "tablehost", "--bind", bind, "--db", str(db), "--bot-delay", "0.02"]
        self.process = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.url = ""

    async def ready(self) -> str:
        assert self.process.stdout is not None
        line = (await asyncio.to_thread(self.process.stdout.readline)).decode()
        assert line.startswith("table host listening on ws://"), line
        self.url = line.split()[4]
        return self.url

    def output(self) -> str:
        assert self.process.stdout is not None
        return self.process.stdout.read().decode()


def test_a_host_killed_mid_game_resumes_every_table_and_the_clients_come_back_by_themselves(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite"

    async def test() -> None:
        first = HostProcess(db)
        url = await first.ready()
        maya, ben = await seated(url, "sombrero", 2, humans=2)
        await play([maya, ben], 5)
        (lobby,) = await connected(url, 1)
        waiting = (await lobby.open("hats", 3, "Lee"))["code"]
        in_flight = asyncio.ensure_future(maya.move(maya.state["legal"][0]) if 0 in maya.state["acting"] else _noop())
        await asyncio.sleep(0)  # the move is written to the socket, not yet answered
        first.process.send_signal(signal.SIGKILL)
        await asyncio.to_thread(first.process.wait)
        acked = await _acked(in_flight)
        await maya.wait_for(lambda c: not c.connected)
        second = HostProcess(db, bind=url.split("/")[2])
        assert await second.ready() == url
        await _resumed([maya, ben, lobby], acked)
        (late,) = await connected(url, 1)
        assert (await late.join(waiting, "Kim"))["seat"] == 1
        await play([maya, ben], 7 + acked)
        await close_all([maya, ben, lobby, late])
        _assert_stored(db, maya.code, 7 + acked)
        second.process.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(second.process.wait, 10) == 0
        assert "table host stopped" in second.output()

    run(test)


async def _noop() -> dict[str, Any]:
    return {}


async def _acked(in_flight: asyncio.Future[dict[str, Any]]) -> int:
    """1 if the move sent as the host was killed was acknowledged (then it must survive), else 0."""
    try:
        return 1 if (await in_flight).get("type") == "moved" else 0
    except (TableConnectionLost, TimeoutError):
        return 0


async def _resumed(clients: list[TableClient], acked: int) -> None:
    """Every client back on the new host by itself, its seat rejoined and its game where it stood."""
    maya, ben, lobby = clients
    for client in clients:
        await client.wait_for(lambda c: any(f.get("re") == "rejoin-2" for f in c.frames), timeout=20)
    for client in (maya, ben):
        await client.wait_for(lambda c: c.state["ply"] >= 5 + acked and c.presence["seats"][1 - c.seat]["connected"])
    assert maya.state["ply"] == ben.state["ply"] in (5 + acked, 6)
    await lobby.wait_for(lambda c: c.frames[-1]["type"] == "presence" and c.frames[-1]["seats"][0]["connected"])


def _assert_stored(db: Path, code: str, plies: int) -> None:
    with sqlite3.connect(db) as stored:
        assert [ply for (ply,) in stored.execute("SELECT ply FROM moves WHERE code = ? ORDER BY ply", (code,))] == list(
            range(1, plies + 1)
        )
