"""Links and position codes: a query sets a table up, a code holds a position, bad ones change nothing."""

from __future__ import annotations

import base64
import html
import json
import random
import zlib

import pytest

import hatskit
from hatskit import Game
from widgets.games.hats import HatsTable
from widgets.games.hats_off import HatsOffTable
from widgets.games.sombrero import SombreroTable
from widgets.table.frame import TableFrame
from widgets.table.links import (
    LinkError,
    game_from_code,
    link_query,
    position_code,
    table_from_query,
    teacher_from_query,
)

TABLES: list[type[TableFrame]] = [HatsTable, SombreroTable, HatsOffTable]
LINKED_GAMES = [("hats", {"players": 4}), ("sombrero", {}), ("hats-off", {"players": 3, "memory_aid": True})]


def played(game_id: str, moves: int, seed: int = 7, **options: object) -> Game:
    """A game with some random legal moves played, so its position is not the deal."""
    game = hatskit.new_game(game_id, seed=seed, **options)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_moves()))
    return game


@pytest.mark.parametrize(("game_id", "options"), LINKED_GAMES)
def test_position_code_gives_the_same_position_back(game_id: str, options: dict) -> None:
    game = played(game_id, 5, **options)
    code = position_code(game)
    assert set(code) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert game_from_code(code, game_id).position() == game.position()


@pytest.mark.parametrize(("game_id", "options"), LINKED_GAMES)
def test_link_query_sets_up_the_same_deal_options_and_seats(game_id: str, options: dict) -> None:
    game = hatskit.new_game(game_id, seed=4711, **options)
    seats = ("reader", *["strong"] * (len(game.seat_names) - 1))
    linked, linked_seats = table_from_query(game_id, link_query(game, seats), ("reader", "greedy"))
    assert linked.head == game.head
    assert linked.position() == game.position()
    assert linked_seats == seats


def test_the_issues_example_link_deals_game_42_for_four() -> None:
    game, seats = table_from_query("hats", "?seed=42&players=4&seats=reader,strong,reader,greedy", ("reader",))
    assert game.position() == hatskit.new_game("hats", players=4, seed=42).position()
    assert seats == ("reader", "strong", "reader", "greedy")


def test_a_link_without_seats_fits_the_default_seats_to_its_player_count() -> None:
    game, seats = table_from_query("hats", "players=4&seed=1", ("reader", "greedy", "strong"))
    assert len(game.seat_names) == 4
    assert seats == ("reader", "greedy", "strong", "greedy")


def test_a_position_link_puts_that_position_on_the_table() -> None:
    game = played("sombrero", 6)
    linked, seats = table_from_query("sombrero", f"position={position_code(game)}&seats=strong,reader", ("reader",))
    assert linked.position() == game.position()
    assert seats == ("strong", "reader")


def test_a_query_with_only_voilas_own_settings_sets_nothing() -> None:
    assert table_from_query("hats", "", ("reader",)) is None
    assert table_from_query("hats", "theme=dark", ("reader",)) is None


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ("seed=forty", "'forty'"),
        ("seed=%C2%B2", "'²'"),  # "²".isdigit() is true, and int() refuses it
        ("players=%D9%A3", "'٣'"),  # an Arabic three: int() would read it as 3
        ("seed=" + "9" * 5000, "seed"),  # int() refuses over 4,300 digits
        ("players=9", "9"),
        ("seats=reader,bob,greedy", "bob"),
        ("seats=greedy,greedy,greedy", "reader"),
        ("colour=red", "colour"),
        ("seed=1&seed=2", "seed more than once"),
        ("position=abc", "'abc' is not a position code"),
        ("position=&seed=3", "not seed"),
        ("removed=x,y&seed=3", "x"),
    ],
)
def test_a_bad_link_raises_a_sentence_that_quotes_it(query: str, says: str) -> None:
    with pytest.raises(LinkError, match=says):
        table_from_query("hats", query, ("reader", "greedy", "strong"))


def pack(data: object) -> str:
    return base64.urlsafe_b64encode(zlib.compress(json.dumps(data).encode())).decode()


@pytest.mark.parametrize(
    ("code", "says"),
    [
        ("", "no position code"),
        ("not a code!", "is not a position code"),
        (pack([1, 2]), "not a position of this game"),
        (pack({"game": "sombrero"}), "not a position of this game"),
        (pack({"game": "hats", "players": 3}), "does not make a position"),
        (base64.urlsafe_b64encode(zlib.compress(b" " * 200_000)).decode(), "far too long"),
    ],
)
def test_a_bad_position_code_raises_a_sentence(code: str, says: str) -> None:
    with pytest.raises(LinkError, match=says):
        game_from_code(code, "hats")


def test_from_link_without_a_query_is_the_given_table() -> None:
    game = hatskit.new_game("hats", seed=3)
    table = HatsTable.from_link(game, seats=("reader", "greedy", "strong"), query="", bot_delay=0)
    assert table.game is game


def test_from_link_reads_voilas_query_string(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUERY_STRING", "seed=42&players=4&seats=reader,strong,reader,greedy")
    table = HatsTable.from_link(hatskit.new_game("hats", seed=3), bot_delay=0)
    assert table.game.head["seed"] == 42
    assert table.seats == ("reader", "strong", "reader", "greedy")


def test_from_link_with_a_bad_link_shows_the_default_table_and_says_why() -> None:
    game = hatskit.new_game("sombrero", seed=3)
    table = SombreroTable.from_link(game, seats=("reader", "strong"), query="seats=reader,dragon", bot_delay=0)
    assert table.game is game
    assert "This page's link could not be used" in html.unescape(table.message.value)
    assert "dragon" in table.message.value


@pytest.mark.parametrize("table_type", TABLES)
def test_copy_position_then_load_position_puts_the_same_position_back(table_type: type[TableFrame]) -> None:
    game = played(table_type.game_id, 4)
    table = table_type(game, bot_delay=0)
    before = table.shown().position()
    table.copy_position()
    assert table.clipboard.copies == 1
    assert "holds every hidden card" in table.message.value
    table.start(hatskit.new_game(table_type.game_id, seed=99), seats=table.seats)
    table.code_box.value = table.clipboard.text
    table.load_position()
    assert table.game.position() == before
    assert "Position loaded" in table.message.value


@pytest.mark.parametrize("table_type", TABLES)
def test_a_bad_code_in_the_box_changes_nothing_and_says_why(table_type: type[TableFrame]) -> None:
    table = table_type(played(table_type.game_id, 3), bot_delay=0)
    before, seats = table.game.record(), table.seats
    table.code_box.value = "eNpLz"
    table.load_position()
    assert table.game.record() == before
    assert table.seats == seats
    assert "No position loaded" in table.message.value
    assert "hk-error" in table.message._dom_classes


def test_copy_link_copies_a_query_that_sets_up_this_table() -> None:
    table = HatsTable(hatskit.new_game("hats", players=4, seed=8), seats=("reader", "strong", "greedy", "random"))
    table.copy_link()
    text = table.clipboard.text
    assert text.startswith("?")
    game, seats = table_from_query("hats", text, ("reader",))
    assert game.head == table.game.head
    assert seats == table.seats


def test_the_teacher_setting_is_read_apart_from_the_game_and_must_be_yes_or_no() -> None:
    assert teacher_from_query("seed=3&teacher=yes") and not teacher_from_query("seed=3")
    assert table_from_query("hats", "teacher=yes", ("reader", "greedy")) is None, "it sets no game"
    for query in ("teacher=maybe", "teacher=yes&teacher=no"):
        with pytest.raises(LinkError, match="teacher setting must be given once, as yes or no"):
            teacher_from_query(query)
    table = HatsTable.from_link(hatskit.new_game("hats", seed=3), query="teacher=maybe", bot_delay=0)
    assert "could not be used" in table.message.value and not table.teacher
