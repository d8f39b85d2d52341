"""*Play with classmates…* (widgets/table/classmates.py): pages open, join, start and come back to a host table.

Each test runs a real table host on loopback (tablehost/server.py) on the test's own asyncio loop, as the kernel's
loop runs it under Voilà; the pages are the games' own tables made by ``from_link``, as the notebooks make them,
and every press is the button's own click. The page's side of the kept seats (``kept_seats.js``) is played by
sending what a browser would have kept.
"""

from __future__ import annotations

import os
import random
import socket
from dataclasses import replace
from pathlib import Path
from typing import Any
from unittest.mock import patch

import hatskit
from tablehost.server import Settings, TableServer
from tests.helpers import said, walk
from tests.hosted import on_a_host, run, until
from tests.test_widgets_shared import press_a_move
from widgets import HatsTable, SombreroTable
from widgets.host import HOST_ENV
from widgets.table.classmates import NO_CODE, NO_HOST, NO_NAME, Classmates, HostFold
from widgets.table.frame import TableFrame
from widgets.table.shared import HOST_AWAY, NO_NEW_GAME, NO_SHARING, NO_UNDO_HERE, SharedTable
from widgets.toolkit.parts import is_shown


def page(table_class: type[TableFrame], url: str | None, query: str = "", kept: dict[str, Any] | None = None) -> Any:
    """A game page's own table, as the notebook makes it, and what its browser kept sent as the page opens."""
    game = hatskit.new_game(table_class.game_id, seed=1)
    with patch.dict(os.environ, {HOST_ENV: url or ""}):
        table = table_class.from_link(game, query=query)
    table.classmates.kept_seats.receive({"msg": {"kept": kept or {}}})
    return table


def fold(table: TableFrame) -> Classmates:
    return table.classmates  # type: ignore[no-any-return]


def note(table: TableFrame) -> str:
    return said(fold(table).note)


async def seated(table: TableFrame) -> None:
    """Until the page sits at a table of the host and has heard who sits there (its lobby can be drawn)."""
    await until(lambda: fold(table).seat is not None and fold(table).seat.presence is not None)


async def opened(url: str, table_class: type[TableFrame] = HatsTable, players: int = 3) -> TableFrame:
    """Maya's page with a table opened at the host: its lobby shown."""
    maya = page(table_class, url)
    fold(maya).name_box.value = "Maya"
    fold(maya).players_box.value = players
    fold(maya).open_button.click()
    await seated(maya)
    return maya


def join_pressed(url: str, code: str, name: str, table_class: type[TableFrame] = HatsTable) -> TableFrame:
    """A classmate's page opened with the table's link, their name typed, *join* pressed (not yet answered)."""
    ben = page(table_class, url, query=f"table={code.lower()}")
    fold(ben).name_box.value = name
    fold(ben).join_button.click()
    return ben


def spy_on_sentences(fold: HostFold) -> list[tuple[str, bool]]:
    """Every sentence the fold says from now on, with whether it was said as an error (a later one replaces it)."""
    said: list[tuple[str, bool]] = []
    say = fold.say

    def noted(text: str, error: bool = False) -> None:
        said.append((text, error))
        say(text, error)

    fold.say = noted  # type: ignore[method-assign]
    return said


async def joined(url: str, code: str, name: str, table_class: type[TableFrame] = HatsTable) -> TableFrame:
    """A classmate's page opened with the table's link, their name typed, *join* pressed and answered."""
    ben = join_pressed(url, code, name, table_class)
    await seated(ben)
    return ben


@on_a_host
async def test_two_classmates_open_join_start_and_play_hats_to_the_end_each_at_their_own_seat(
    server: TableServer,
) -> None:
    maya = await opened(server.url)
    code = fold(maya).seat.code
    assert f"Table {code}" in fold(maya).lobby.value
    assert fold(maya).start_button.disabled, "Start waits for a classmate"
    assert fold(maya).kept_seats.keep["code"] == code, "the browser keeps Maya's seat"
    ben = await joined(server.url, code, "Ben")
    await until(lambda: not fold(maya).start_button.disabled)
    assert "Ben, connected" in fold(maya).lobby.value
    assert "Waiting for Maya to press Start." in fold(ben).lobby.value
    assert not is_shown(fold(ben).start_button), "only the one who opened the table starts it"
    fold(maya).start_button.click()
    await until(lambda: all(isinstance(t, SharedTable) for t in (maya, ben)))
    game = server.host.tables[code].game
    for seat, table in enumerate((maya, ben)):
        assert not is_shown(fold(table)), "the fold has done its work: the table is the seat's"
        assert table.shared.seat == seat  # type: ignore[attr-defined]
        assert table.ring.bottom.children == (table.ring.boxes[seat],), "their own seat at the bottom"
        assert not is_shown(table.undo_button) and not is_shown(table.free_play_parts[0]), "no undo, no set-up"
    await play_through(server, code, [maya, ben])
    assert game.is_over and game.ply > 20


@on_a_host
async def test_a_table_for_another_number_of_players_than_the_pages_game_is_drawn_for_its_own(
    server: TableServer,
) -> None:
    maya = await opened(server.url, HatsTable, players=2)  # the page's game is for three
    ben = await joined(server.url, fold(maya).seat.code, "Ben")
    await until(lambda: not fold(maya).start_button.disabled)
    fold(maya).start_button.click()
    await until(lambda: all(isinstance(t, SharedTable) for t in (maya, ben)))
    for table in (maya, ben):
        assert len(table.ring.boxes) == 2 and table.moves_part.board, "two seats, and the tea table to press"
    assert "Maya (Ana) is thinking…" in ben.status.value


@on_a_host
async def test_a_page_table_that_became_a_shared_one_answers_every_button_as_shared(server: TableServer) -> None:
    """The table changed its class when its game started at the host (``take_seat``): the buttons and the page's
    messages, made before that, reach the shared table's own methods. A button the page hides can still be sent
    by a forged message: undo, a link, a position code or a new game each get their refusal and change nothing."""
    maya = await opened(server.url, players=2)
    await joined(server.url, fold(maya).seat.code, "Ben")
    await until(lambda: not fold(maya).start_button.disabled)
    fold(maya).start_button.click()
    await until(lambda: isinstance(maya, SharedTable) and maya.decides())
    press_a_move(maya, random.Random(1))  # type: ignore[arg-type]  # a move the page completed goes to the host
    await until(lambda: maya.game.ply == 1 and not maya.undo_button.disabled)
    ply, dealt = maya.game.ply, maya.game.view(0)
    copies = [part for part in walk(maya.free_play_parts[2]) if getattr(part, "description", "").startswith("copy ")]
    for press, sentence in [
        (maya.undo_button.click, NO_UNDO_HERE),
        *((copy.click, NO_SHARING) for copy in copies),
        (maya.setup.new_game_button.click, NO_NEW_GAME),
    ]:
        press()
        assert said(maya.message) == sentence and "hk-error" in maya.message._dom_classes
    assert (maya.game.ply, maya.game.view(0)) == (ply, dealt), "nothing changed"


async def play_through(server: TableServer, code: str, tables: list[TableFrame]) -> None:
    """Press moves on whichever student's table may act until the host's game is over."""
    game, rng = server.host.tables[code].game, random.Random(3)
    while not game.is_over:
        await until(lambda: game.is_over or any(t.decides() for t in tables))
        table = next((t for t in tables if t.decides()), None)
        if table is None:
            break
        ply = game.ply
        press_a_move(table, rng)  # type: ignore[arg-type]
        await until(lambda ply=ply: all(t.game.ply > ply for t in tables))


def test_while_the_host_is_down_the_tables_say_so_and_once_it_is_back_the_game_goes_on(tmp_path: Path) -> None:
    """The host stopped mid-game and started again on its port and file: each table says the host cannot be reached,
    then no longer, and the next move is played; nothing was reloaded."""

    async def test() -> None:
        settings = Settings(bind="127.0.0.1:0", db=str(tmp_path / "tables.sqlite"), bot_delay=0.01)
        server = TableServer(settings)
        await server.start()
        maya = await opened(server.url, players=2)
        ben = await joined(server.url, fold(maya).seat.code, "Ben")
        await until(lambda: not fold(maya).start_button.disabled)
        fold(maya).start_button.click()
        await until(lambda: all(isinstance(t, SharedTable) for t in (maya, ben)))
        await server.stop()
        await until(lambda: all(HOST_AWAY in said(t.message) for t in (maya, ben)))
        again = TableServer(replace(settings, bind=server.url.split("/")[2]))
        await again.start()
        try:
            back = (maya, ben)  # the host's frames after "Back at the table" may narrate over it: the away line is gone
            await until(lambda: all(t.shared.reachable and HOST_AWAY not in said(t.message) for t in back), timeout=20)
            mover = next(t for t in (maya, ben) if t.decides())
            press_a_move(mover, random.Random(1))  # type: ignore[arg-type]
            await until(lambda: maya.game.ply == ben.game.ply == 1)
        finally:
            await again.stop()

    run(test)


@on_a_host
async def test_a_reloaded_page_with_the_tables_link_comes_back_to_the_same_seat(server: TableServer) -> None:
    maya = await opened(server.url, SombreroTable, players=2)
    code = fold(maya).seat.code
    ben = await joined(server.url, code, "Ben", SombreroTable)
    kept = {code: {"token": fold(ben).kept_seats.keep["token"], "name": "Ben"}}
    fold(maya).start_button.click()
    await until(lambda: isinstance(maya, SharedTable) and maya.decides())
    press_a_move(maya, random.Random(1))  # type: ignore[arg-type]
    await until(lambda: server.host.tables[code].game.ply == 1)
    again = page(SombreroTable, server.url, query=f"table={code}", kept=kept)
    await until(lambda: isinstance(again, SharedTable))
    assert again.shared.seat == 1 and again.game.ply == 1  # type: ignore[attr-defined]
    assert fold(again).name_box.value == "Ben"
    await until(lambda: fold(ben).seat.ended is not None)  # the old page is told its seat went elsewhere


@on_a_host
async def test_a_classmate_who_leaves_the_lobby_frees_the_seat_and_may_open_or_join_again(server: TableServer) -> None:
    maya = await opened(server.url)
    ben = await joined(server.url, fold(maya).seat.code, "Ben")
    await until(lambda: "Ben, connected" in fold(maya).lobby.value)
    fold(ben).leave_button.click()
    await until(lambda: fold(ben).seat is None)
    await until(lambda: "Ben, connected" not in fold(maya).lobby.value and fold(maya).start_button.disabled)
    assert all(is_shown(part) for part in fold(ben).choices) and not is_shown(fold(ben).lobby)


@on_a_host
async def test_a_name_and_a_code_are_asked_for_in_a_sentence_and_nothing_is_sent(server: TableServer) -> None:
    table = page(HatsTable, server.url)
    table.classmates.open_button.click()
    assert note(table) == NO_NAME
    table.classmates.join_button.click()
    assert note(table) == NO_CODE
    assert fold(table).seat is None and server.host.tables == {}


@on_a_host
async def test_an_unknown_code_gets_the_hosts_sentence_and_the_page_stays_as_it_was(server: TableServer) -> None:
    table = page(HatsTable, server.url, query="table=zzzzz")
    assert fold(table).code_box.value == "ZZZZZ" and fold(table).open
    fold(table).name_box.value = "Ben"
    fold(table).join_button.click()
    await until(lambda: "hk-error" in fold(table).note.value)
    assert "ZZZZZ" in note(table) and note(table).endswith(".")
    assert fold(table).seat is None and not isinstance(table, SharedTable)


def test_a_host_that_does_not_answer_is_said_in_words() -> None:
    async def test() -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]  # a port nothing listens on once closed
        table = page(HatsTable, f"ws://127.0.0.1:{port}/ws")
        fold(table).name_box.value = "Maya"
        fold(table).open_button.click()
        await until(lambda: "hk-error" in fold(table).note.value)
        assert note(table).startswith("The class's table host did not answer")
        assert fold(table).seat is None

    run(test)


def test_without_a_host_the_fold_says_classmates_play_on_one_screen_here() -> None:
    table = page(HatsTable, None)
    assert note(table) == NO_HOST
    assert not any(is_shown(part) for part in fold(table).choices)


def test_a_table_code_that_is_not_letters_is_refused_by_the_link() -> None:
    table = HatsTable.from_link(hatskit.new_game("hats", seed=1), query="table=12;drop")
    assert "the link's table must be one code of letters" in said(table.message)
    assert fold(table).code_box.value == ""


@on_a_host
async def test_a_join_pressed_while_the_page_asks_the_hub_for_a_seat_is_made_once_the_hub_answers(
    server: TableServer,
) -> None:
    maya = await opened(server.url)
    code = fold(maya).seat.code
    with patch("widgets.table.classmates._hub", return_value={"hub_token": "ben's hub token"}):
        ben = join_pressed(server.url, code, "Ben")  # as the page opens it asks for Ben's seat; join before the answer
        assert note(ben) == f"Joining table {code}…", "not refused, not lost"
        said_to_ben = spy_on_sentences(fold(ben))
        fold(ben).join_button.click()  # an impatient second press: one join all the same, and no refusal
        await seated(ben)
    assert not [text for text, error in said_to_ben if error]
    assert [entry["name"] for entry in fold(maya).seat.presence["seats"] if entry.get("name")] == ["Maya", "Ben"]
