"""Helpers shared by several test files (never imported from another test file), one section a game."""

from __future__ import annotations

import html
import json
import os
import random
import re
import signal
import weakref
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import hatskit
from hatskit.bots import Hint
from hatskit.core import SeatView
from hatskit.games.hats_off import Pass, Play, all_cards
from widgets import HatsTable, TableFrame
from widgets.toolkit import ui
from widgets.toolkit.parts import is_shown

# ------------------------------------------------------------------ every game: how much randomised tests run
# `make test` runs every randomised test in full (SCALE 1); `make check`, the quick loop, sets
# HATSKIT_TEST_SCALE=0.2 and runs a fifth as many random games and examples; HATSKIT_LONG=1 runs ten times as many.

SCALE = 10.0 if os.environ.get("HATSKIT_LONG") == "1" else float(os.environ.get("HATSKIT_TEST_SCALE", "1"))


def scaled(count: int) -> int:
    """``count`` random games or examples, times SCALE (at least one)."""
    return max(1, round(count * SCALE))


# ------------------------------------------------------------------ every game: a refusal comes at once


@contextmanager
def within_a_second() -> Iterator[None]:
    """Fail, rather than hang, once the block has spent a second of this process's CPU time (its user and system
    time: Linux's profiling timer). An engine stuck on a huge number spends it; a busy machine that keeps the test
    waiting for a core does not, so a wall clock's second would fail a refusal that took a millisecond."""

    def too_slow(signum: int, frame: Any) -> None:
        raise TimeoutError("the call took more than a second of CPU time")

    previous = signal.signal(signal.SIGPROF, too_slow)
    signal.setitimer(signal.ITIMER_PROF, 1.0)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


# ------------------------------------------------------------------ every game: the contract suite's random games

# Option sets worth covering per game; a game not listed runs with its defaults.
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "hats": [{"players": 2}, {"players": 3}, {"players": 4}, {"players": 2, "removed": ["★", "♠"]}],
    "hats-off": [
        {"players": 2},
        {"players": 3},
        {"players": 5},
        {"players": 4, "falling_hats": True},
        {"players": 3, "best_of": 3},
    ],
    "madder": [{"players": 3}, {"players": 4}],
    "sombrero": [{}, {"jump_captures": True}],
}
# Checked positions per variant: 160 to 380 Hats games, or about 30 long Sombrero ones (times SCALE).
PLY_BUDGET = scaled(int(os.environ.get("HATSKIT_RANDOM_PLIES", "8000")))
PLY_CAP = 1000  # a best-of-three Hats Off! match of random moves runs 330 to 930 plies


def variants() -> list[Any]:
    cases = []
    for game_id in hatskit.GAMES:
        for options in VARIANTS.get(game_id, [{}]):
            label = game_id + "".join(f"-{k}={v}" for k, v in options.items())
            cases.append(pytest.param(game_id, options, id=label))
    return cases


def seats_of(game: hatskit.Game) -> list[int | None]:
    return [None, *range(len(game.seat_names))]


def check_position(game: hatskit.Game) -> None:
    """Everything that must hold in any position of any game."""
    legal = game.legal_moves()
    assert bool(legal) != game.is_over, "legal moves exist exactly while the game is not over"
    assert bool(game.acting) != game.is_over, "some seat may act exactly while the game is not over"
    by_seat = [game.legal_moves(seat) for seat in range(len(game.seat_names))]
    for seat, moves in enumerate(by_seat):
        assert bool(moves) == (seat in game.acting), f"seat {seat} has moves iff it is acting"
    assert sorted(map(str, legal)) == sorted(str(m) for moves in by_seat for m in moves)
    for move in legal:
        assert game.why_illegal(move) is None, f"{move} is listed as legal but why_illegal objects"
        assert game.parse(str(move)) == move, f"notation {move} does not read back as the same move"
    position = game.position()
    assert hatskit.load(position).position() == position, "the position does not reload to itself"
    sheet = game.score()
    for seat, total in enumerate(sheet.totals):
        assert total == sum(line.points for line in sheet.lines if line.seat == seat)
    for seat in seats_of(game):
        json.dumps(game.view(seat))


def random_game(game_id: str, options: dict[str, Any], seed: int, check: bool = True) -> hatskit.Game:
    """A game played by random acting seats choosing random moves of their own."""
    game = hatskit.new_game(game_id, seed=seed, **options)
    rng = random.Random(seed)
    while not game.is_over and game.ply < PLY_CAP:
        if check:
            check_position(game)
        seat = rng.choice(game.acting)
        move = rng.choice(game.legal_moves(seat))
        game.play(move)
        assert game.movers[-1] == seat, "the move is credited to the seat that made it"
    if check:
        check_position(game)
    return game


# ------------------------------------------------------------------ every table: the page's picks
# The page picks up and drops on its own, from the moves a table offers as data (ui.Moves; view.js, picker);
# tap() does here what the page does there, so a view test presses cards and squares as a reader does and
# sends the kernel exactly the messages the page would: a pick none, a completed path {move}, any other {path}.

_PICKED: weakref.WeakKeyDictionary[TableFrame, list[int]] = weakref.WeakKeyDictionary()


def _begins(path: list[int], start: list[int]) -> bool:
    return len(start) <= len(path) and path[: len(start)] == start


def picked_ids(table: TableFrame) -> list[int]:
    """The ids of what the page holds picked up, kept only while it still begins an offered path."""
    offered = [move["path"] for move in table.moves_part.offered]
    held = _PICKED.get(table, [])
    if not any(_begins(path, held) and len(path) > len(held) for path in offered):
        held = []
    _PICKED[table] = held
    return held


def tap(table: TableFrame, *parts: ui.Part) -> None:
    """Press ``parts`` in turn as the page does (a disabled part does nothing; one off the board is a click)."""
    for part in parts:
        assert is_shown(part), f"the page cannot press a hidden part: {part.tooltip or part}"
        if getattr(part, "disabled", False):
            continue
        if part.uid not in table.moves_part.board:
            part.click()  # type: ignore[attr-defined]
            continue
        _tap_piece(table, part.uid)


def _tap_piece(table: TableFrame, uid: int) -> None:
    held, offered = picked_ids(table), table.moves_part.offered
    if held and held[-1] == uid:
        _PICKED[table] = held[:-1]
        return
    tried = [*held, uid]
    chosen = next((path for path in (tried, [uid]) if any(_begins(m["path"], path) for m in offered)), None)
    done = next((m for m in offered if chosen and m["path"] == chosen), None)
    if done is not None:
        _PICKED[table] = []
        table.moves_part.receive({"move": done["move"]})
    elif chosen is not None:
        _PICKED[table] = chosen
    else:
        table.moves_part.receive({"path": tried})


def picked(table: TableFrame) -> list[ui.Part]:
    """What the page shows picked up (hk-selected), in the order it was picked."""
    return [table.part_by_id(uid) for uid in picked_ids(table)]  # type: ignore[misc]


def lit(table: TableFrame) -> dict[ui.Part, set[str]]:
    """The parts the page lights as where the pick may go, each with its marks (hk-legal, and a move's own)."""
    held, marks = picked_ids(table), {}
    if not held:
        return {}
    for move in table.moves_part.offered:
        path = move["path"]
        if len(path) > len(held) and _begins(path, held):
            part = table.part_by_id(path[len(held)])
            own = {move["mark"]} if move["mark"] and len(path) == len(held) + 1 else set()
            marks[part] = marks.get(part, {"hk-legal"}) | own
    return marks


# ------------------------------------------------------------------ Hats: the HatsTable at a click


def hand(table: HatsTable) -> list[str]:
    """The cards of the reader's hand as the buttons name them."""
    return [button.description for button in table.hand_buttons if button.description]


def tea_table(table: HatsTable) -> list[str]:
    """The tea table's cards as the position buttons name them, position 1 first."""
    return [button.description for button in table.position_buttons]


def marked(buttons: list[ui.Button], mark: str) -> set[int]:
    """The 1-based indexes of the buttons carrying the CSS class ``mark``."""
    return {index for index, button in enumerate(buttons, start=1) if mark in button._dom_classes}


def hand_button(table: HatsTable, card: str) -> ui.Button:
    """The hand button showing ``card``."""
    return next(button for button in table.hand_buttons if button.description == card)


def select(table: HatsTable, card: str) -> None:
    """Press ``card`` in the reader's hand as the page does (tap): it picks the card up, or puts it down when it is
    the card picked up, and the kernel hears nothing of either (a card that begins no move gets a sentence)."""
    tap(table, hand_button(table, card))


def select_once(table: HatsTable, card: str) -> None:
    """Make ``card`` the card the page holds picked up (a press on the card picked up would put it down)."""
    if picked(table) != [hand_button(table, card)]:
        select(table, card)


def lit_positions(table: HatsTable) -> set[int]:
    """The 1-based table positions the page lights for the card picked up."""
    lit_now = lit(table)
    return {position for position, button in enumerate(table.position_buttons, start=1) if button in lit_now}


def play_first_option(table: HatsTable) -> None:
    """Pick up the first hand card, then give it back, or press its first lit position, or black hat."""
    select_once(table, hand(table)[0])
    targets = sorted(lit_positions(table))
    if is_shown(table.give_back_button):
        tap(table, table.give_back_button)
    elif targets:
        tap(table, table.position_buttons[targets[0] - 1])
    else:
        tap(table, table.black_hat_button)


RULE_ID = re.compile(r"\b[HOMS]\d{1,2}\b")  # a ruling id, as docs/rulings.md names them
FOLD = re.compile(r"<details\b.*?</details>", re.S)


def _plain(markup: str) -> str:
    """Markup's text: tags removed, entities read, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def said(line: ui.HTML) -> str:
    """What a message line says by default: its text outside the folded "why?"."""
    return _plain(FOLD.sub(" ", line.value))


def why(line: ui.HTML) -> str:
    """What a message line's folded "why?" says ("" when it has none)."""
    return " ".join(_plain(fold) for fold in FOLD.findall(line.value))


def walk(part: ui.Part | ui.Surface) -> Iterator[ui.Part]:
    """The part (a view's root) and every part inside it."""
    return (part.root if isinstance(part, ui.Surface) else part).parts()


def page_tree(view: ui.Surface) -> dict[str, Any]:
    """What the page has of ``view`` once the kernel sends it: its tree of parts (widgets/toolkit/ui.py), each part's
    node as sent, children in place of their ids."""
    view.flush()
    sent = view.snapshot()
    return nested(sent["root"], {int(uid): node for uid, node in sent["nodes"].items()})


def nested(uid: int, nodes: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """Part ``uid``'s node from ``nodes`` (by id), with its children's nodes in place of their ids."""
    node = dict(nodes[uid])
    if "kids" in node:
        node["kids"] = [nested(kid, nodes) for kid in node["kids"]]
    return node


def apply_patch(page: dict[int, dict[str, Any]], patch: dict[str, Any]) -> None:
    """Apply a surface's patch to the nodes ``page`` holds by id, as view.js does (render's ``patch``): a long
    markup sent as its changed middle keeps the start and end it names, counted in UTF-16 units as JavaScript does."""
    for uid, node in patch["nodes"].items():
        if "splice" in node:
            head, tail, middle = node["splice"]
            units = page[int(uid)]["html"].encode("utf-16-le")
            kept = units[: 2 * head].decode("utf-16-le"), units[len(units) - 2 * tail :].decode("utf-16-le")
            node = {key: value for key, value in node.items() if key != "splice"} | {"html": middle.join(kept)}
        page[int(uid)] = node
    for uid in patch["gone"]:
        del page[uid]


def press(view: ui.Surface, part: ui.Part, **content: Any) -> None:
    """Act on ``part`` as the page does: its message (``do="click"``, ``value=...``) reaches ``view``."""
    view.flush()
    view._received(view, {"id": part.uid, **content}, [])


def shown_strings(view: ui.Surface) -> list[str]:
    """Every string the page gets of ``view``: texts, tooltips, values, classes, a custom part's traits..."""
    return [value for value in _leaves(page_tree(view)) if isinstance(value, str)]


def _leaves(value: Any) -> Iterator[Any]:
    if isinstance(value, list | tuple):
        for item in value:
            yield from _leaves(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    else:
        yield value


# ------------------------------------------------------------------ Hats Off!


class FixedBot:
    """Plays a matching hand card after exactly ``seconds``, else passes: a bot whose speed a test knows."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.name = f"{seconds} s"

    def choose(self, seat_view: SeatView) -> Any:
        view = seat_view.view()
        if view["phase"] != "race":
            return seat_view.legal_moves()[0]
        if view["top"] in view["hand"]:
            return Play(view["seat"], 0, view["top"]).at(self.seconds)
        return Pass(view["seat"])

    def hint(self, seat_view: SeatView) -> Hint:
        return Hint(self.choose(seat_view), "a fixed reaction time")


def position(deck_top: list[str], **changes: Any) -> dict[str, Any]:
    """Two players before a flip by Ana: both hold a fez; ``deck_top`` lies on top of the deck (its top last)."""
    data = {
        "game": "hats-off",
        "players": 2,
        "phase": "flip",
        "flipper": 0,
        "flips": 0,
        "hands": [["fez", "top", "beret"], ["fez", "chef", "party"]],
        "heads": ["bowler", "cowboy"],
    } | changes
    return with_deck(data, deck_top)


def with_deck(data: dict[str, Any], deck_top: list[str]) -> dict[str, Any]:
    """The position with every card placed: the cards not held lie in the deck under ``deck_top``."""
    listed = Counter([*deck_top, *(k for hand in data["hands"] for k in hand), *(h for h in data["heads"] if h)])
    rest = sorted((Counter(all_cards()) - listed).elements())
    return data | {"deck": rest + deck_top, "pile": []}


def widget_states(root: ui.Part | ui.Surface) -> Any:
    """What the page gets of ``root`` (a view, or a part of one), with the parts' ids blanked (they differ)."""
    node = (
        page_tree(root) if isinstance(root, ui.Surface) else nested(root.uid, {p.uid: p.node() for p in root.parts()})
    )
    return _blank_ids(node)


def _blank_ids(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return [_blank_ids(item) for item in value]
    if isinstance(value, dict):
        return {key: _blank_ids(item) for key, item in value.items() if key != "id"}
    return value


# ---------------------------------------------------------------- Madder than a Hatter

CLERK, TRENDSETTER, COLLECTOR, TAILOR = "The Clearance Clerk", "The Trendsetter", "The Collector", "The Tailor"


def turn_position(**changes: Any) -> dict[str, Any]:
    """Round 1 of a three-player game, Ana (the dealer) to play; the deck is what is listed nowhere."""
    position = {
        "game": "madder",
        "players": 3,
        "round": 1,
        "dealer": 0,
        "phase": "play",
        "to_move": 0,
        "inventories": [["Fedora"], ["Boater"], ["Bowler"]],
        "hands": [["Newsboy", "Homburg", "Beret"], ["Trilby", "Stetson", "Fedora"], ["Boater", "Homburg", "Beret"]],
        "line": ["Newsboy", "Stetson", "Trilby", "Bowler"],
        "haberdashers": [CLERK, TRENDSETTER, COLLECTOR],
        "scores": [],
    }
    return position | changes


def end_position(**changes: Any) -> dict[str, Any]:
    """The turn position at the end of the round (phase ``end``, the line empty)."""
    return turn_position(phase="end", line=[], **changes)
