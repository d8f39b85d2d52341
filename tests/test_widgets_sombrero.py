"""SombreroTable driven as a reader would: click squares and controls, read tooltips, marks and messages."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

import hatskit
from hatskit import Game
from hatskit.drawing import without_rules
from hatskit.games.sombrero import FILES, Jump, Step, square_name
from tests.helpers import RULE_ID, lit, picked, said, tap, why
from widgets import SombreroTable
from widgets.games.sombrero import GLYPHS, piece_class
from widgets.toolkit.parts import is_shown

# White to move: b3-c4 flanks d4 between c4 and e4 (S3); c2 is a hatless friend of b3 (a hat jump, S2).
CAPTURE = {
    "game": "sombrero",
    "to_move": "white",
    "actions_left": 2,
    "white": {"hatted": ["e4", "b3", "g6", "h2"], "hatless": ["c2"]},
    "black": {"hatted": ["d4", "f6", "c7", "a2"], "hatless": []},
}


def new_table(game: Game | None = None, seats: tuple[str, str] = ("reader", "greedy")) -> SombreroTable:
    """A table (the start position unless ``game`` is given) whose bot answers at once."""
    return SombreroTable(game or hatskit.new_game("sombrero"), seats, bot_delay=0)


def click(table: SombreroTable, *names: str) -> None:
    """Press squares as the page does (tests/helpers.py, tap): a pick stays on the page, a move is one message."""
    tap(table, *(table.squares[name] for name in names))


def marked(table: SombreroTable, mark: str) -> set[str]:
    """The squares whose buttons carry the CSS class ``mark`` as the kernel sends it."""
    return {name for name, button in table.squares.items() if mark in button._dom_classes}


def lit_squares(table: SombreroTable, mark: str = "hk-legal") -> set[str]:
    """The squares the page lights as targets of the piece picked up (with ``mark``)."""
    return {table.square_names[part.uid] for part, marks in lit(table).items() if mark in marks}


def picked_square(table: SombreroTable) -> str | None:
    """The square the page holds picked up."""
    held = picked(table)
    return table.square_names[held[-1].uid] if held else None


def text(line: Any) -> str:
    """An HTML widget's text, tags removed and spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", line.value)).split())


def contents(game: Game) -> dict[str, str]:
    """What each square holds, in the words of the tooltips, from the game's own view."""
    board = game.view(0)["board"]
    said = {
        name: f"{game.seat_names[piece['side']]}, {'hatted' if piece['hatted'] else 'hatless'}"
        for name, piece in board.items()
    }
    return {square_name(square): said.get(square_name(square), "empty") for square in range(64)}


def shown_contents(table: SombreroTable) -> dict[str, str]:
    """What each square's tooltip says stands there (before any note about marks)."""
    return {name: button.tooltip.split(";")[0].split(": ", 1)[1] for name, button in table.squares.items()}


def snapshot(table: SombreroTable) -> tuple[Any, ...]:
    """Everything a click could change: the game, every square, the turn line and the score."""
    squares = [(b.description, b.tooltip, tuple(b._dom_classes)) for b in table.squares.values()]
    return table.game.position(), table.game.ply, squares, table.turn_line.value, table.score_panel.value


def play_first_option(table: SombreroTable) -> None:
    """Pick up the first piece (a1 to h8) that can act and click the first square lit for it."""
    origins = sorted({move.origin for move in table.reader_moves()})
    click(table, square_name(origins[0]))
    targets = sorted(lit_squares(table), key=lambda name: (name[1], name[0]))
    click(table, targets[0])


# ------------------------------------------------------------------ the board


def test_every_square_is_a_named_button_on_a_board_with_h1_light() -> None:
    table = new_table()
    assert len(table.squares) == 64 and shown_contents(table) == contents(table.game)
    assert all(button.tooltip.startswith(f"{name}: ") for name, button in table.squares.items())
    light = marked(table, "hk-sb-light")
    assert "h1" in light and "a1" not in light and "a8" in light and len(light) == 32
    assert all(("hk-sb-light" in b._dom_classes) != ("hk-sb-dark" in b._dom_classes) for b in table.squares.values())
    neighbours = [(f + r, FILES[FILES.index(f) + 1] + r) for f in FILES[:-1] for r in "12345678"]
    assert all((a in light) != (b in light) for a, b in neighbours)
    assert not any(button.disabled for button in table.squares.values())  # focusable: Enter and Space click them


def test_the_grid_runs_rank_8_to_1_with_file_letters_at_the_bottom() -> None:
    table = new_table()
    grid = next(child for child in table.table_area.children if "hk-sb-grid" in getattr(child, "_dom_classes", ()))
    rows = [grid.children[start : start + 9] for start in range(0, 81, 9)]
    assert [row[0].value for row in rows] == [*"87654321", ""]
    assert [label.value for label in rows[-1][1:]] == list(FILES)
    assert [button.tooltip[:2] for button in rows[0][1:]] == [f"{file}8" for file in FILES]
    assert rows[7][8] is table.squares["h1"]


def test_pieces_differ_in_glyph_and_picture_by_side_and_hat() -> None:
    game = hatskit.load({**CAPTURE, "black": {"hatted": ["d4", "f6", "c7"], "hatless": ["a2"]}})
    table = new_table(game)
    for name, side, hatted in (("e4", 0, True), ("c2", 0, False), ("d4", 1, True), ("a2", 1, False)):
        button = table.squares[name]
        assert button.description == GLYPHS[side, hatted] and piece_class(side, hatted) in button._dom_classes
    assert len(set(GLYPHS.values())) == 4 and table.squares["e5"].description == ""


# ------------------------------------------------------------------ picking up and acting


def test_picking_up_a_piece_lights_exactly_its_legal_targets() -> None:
    table = new_table(hatskit.load(CAPTURE))
    moves = table.game.legal_moves()
    for origin in sorted({square_name(move.origin) for move in moves}):
        click(table, origin)
        mine = [move for move in moves if square_name(move.origin) == origin]
        assert lit_squares(table) == {square_name(move.target) for move in mine}
        assert lit_squares(table, "hk-jump") == {square_name(move.target) for move in mine if isinstance(move, Jump)}
        assert picked_square(table) == origin
        click(table, origin)  # a second click puts it down
        assert not lit(table) and picked_square(table) is None
    assert "hk-jump" not in table.squares["c3"]._dom_classes


def test_a_step_by_clicks_moves_the_piece_and_counts_the_action() -> None:
    table = new_table()
    assert "White (you), action 1 of 2" in text(table.turn_line)
    click(table, "e1")
    assert "e2" in lit_squares(table)
    click(table, "e2")
    assert table.game.history == [Step(4, 12)] and "White stepped e1-e2" in text(table.message)
    assert shown_contents(table)["e1"] == "empty" and shown_contents(table)["e2"] == "White, hatted"
    assert marked(table, "hk-moved") == {"e1", "e2"}
    assert "e1-e2 went from here in the last move" in table.squares["e1"].tooltip
    assert "White (you), action 2 of 2" in text(table.turn_line) and picked_square(table) is None


def test_the_bot_answers_both_actions_at_once_and_the_count_starts_again() -> None:
    table = new_table()
    click(table, "e1", "e2", "e2", "e3")
    game = table.game
    assert game.ply == 4 and game.to_move == 0 and "White (you), action 1 of 2" in text(table.turn_line)
    assert all(str(event) in text(table.message) for events in game.events[1:] for event in events)
    assert text(table.message).count("Black stepped") == 2 and shown_contents(table) == contents(game)


def test_a_bot_in_the_first_seat_moves_before_the_reader() -> None:
    table = new_table(seats=("greedy", "reader"))
    assert table.game.ply == 2 and table.game.to_move == 1 and "Black (you), action 1 of 2" in text(table.turn_line)
    click(table, "a1")
    assert lit_squares(table)


def test_an_illegal_target_explains_and_changes_nothing() -> None:
    table = new_table()
    click(table, "e1")
    before = snapshot(table)
    for target, reason in (
        ("e3", "e3 is two squares away from e1"),
        ("d1", "d1 is taken: a step goes to an empty square"),
    ):
        click(table, target)
        refusal = without_rules(table.game.why_illegal(f"e1-{target}"))[0] + "."  # the engine's, ids behind "why?"
        assert reason in said(table.message) and said(table.message) == refusal and "rule S2" in why(table.message)
        assert "hk-error" in table.message._dom_classes and snapshot(table) == before
    assert picked_square(table) == "e1"  # the reader may choose another target at once


def test_a_square_that_cannot_be_picked_up_says_why() -> None:
    table = new_table(hatskit.load(CAPTURE))
    before = snapshot(table)
    for name, reason in (("e5", "there is no piece on e5"), ("d4", "d4 is not your piece"), ("c2", "c2 has no hat")):
        click(table, name)
        assert f"Pick up one of your hatted pieces first: {reason}" in text(table.message)
        assert snapshot(table) == before


def test_a_capture_by_clicks_marks_the_hat_until_the_next_move() -> None:
    table = new_table(hatskit.load(CAPTURE))
    click(table, "b3", "c4")
    assert "d4 lost its hat: flanked by c4 and e4" in said(table.message) and "rule S3: Capture" in why(table.message)
    assert marked(table, "hk-captured") == {"d4"}
    assert table.squares["d4"].tooltip == "d4: Black, hatless; lost its hat in the last move"
    assert "hats: White 4, Black 3" in text(table.turn_line)
    click(table, "g6", "g7")
    assert not marked(table, "hk-captured") and table.squares["d4"].tooltip == "d4: Black, hatless"


def test_a_capture_stays_marked_through_the_bots_answer() -> None:
    table = new_table(hatskit.load({**CAPTURE, "actions_left": 1}))
    click(table, "b3", "c4")
    assert table.game.ply == 3 and "d4 lost its hat" in text(table.message) and "Black stepped" in text(table.message)
    assert "d4" in marked(table, "hk-captured")
    assert table.squares["d4"].tooltip == "d4: Black, hatless; lost its hat in the last 3 moves"


def test_a_hat_jump_by_clicks() -> None:
    table = new_table(hatskit.load(CAPTURE))
    click(table, "b3")
    jump = next(move for move in table.moves_part.offered if move["move"] == "b3>c2")
    assert jump["says"] == "b3 can pass its hat here (b3>c2)" and lit_squares(table, "hk-jump") == {"c2"}
    click(table, "c2")
    assert table.game.history == [Jump(17, 10)] and "passed the hat of b3 to c2" in text(table.message)
    assert (shown_contents(table)["b3"], shown_contents(table)["c2"]) == ("White, hatless", "White, hatted")


# ------------------------------------------------------------------ history, hints and a whole game


def test_step_through_and_undo_with_the_frame_buttons() -> None:
    table = new_table()
    click(table, "e1", "e2", "e2", "e3")
    game = table.game
    table.first_button.click()
    assert table.shown_ply == 0 and shown_contents(table) == contents(game.state_at(0))
    table.forward_button.click()
    assert shown_contents(table) == contents(game.state_at(1)) and "White stepped e1-e2" in text(table.message)
    assert "White (you), action 2 of 2" in text(table.turn_line) and "Move 1 of 4" in text(table.status)
    table.last_button.click()
    table.undo_button.click()
    assert game.ply == 1 and shown_contents(table) == contents(game) and "Took back 3 move(s)" in text(table.message)


def test_the_hint_marks_a_legal_first_action() -> None:
    table = new_table(hatskit.load(CAPTURE), seats=("reader", "strong"))
    table.hint_button.click()
    move = table.game.parse(table.hint_move)
    origin, target = square_name(move.origin), square_name(move.target)
    assert table.game.why_illegal(move) is None and said(table.message).startswith(
        f"Hint: step from {origin} to {target}. "
    )
    assert marked(table, "hk-hint") == {square_name(move.origin), square_name(move.target)}
    assert f"the hint: {move}" in table.squares[square_name(move.target)].tooltip


def test_a_game_by_clicks_against_greedy_ends() -> None:
    table = new_table()
    game = table.game
    for _ in range(200):
        if game.is_over:
            break
        play_first_option(table)
    outcome = game.outcome()
    assert outcome is not None and "over" in text(table.status) and table.hint_button.disabled
    ending = without_rules(outcome.reason)[0]
    shown = " ".join([text(table.status), text(table.turn_line), said(table.message)])
    assert shown.count(ending) == 1, "the ending sentence is told once, in the message line"
    assert ending in said(table.message) and "over" in text(table.turn_line) and not RULE_ID.search(shown)
    assert all(button.disabled for button in table.squares.values())
    table.moves_part.receive({"path": [table.squares["e4"].uid]})  # a press, were the square not switched off
    assert "The game is over" in text(table.message)


def test_the_board_is_built_once() -> None:
    table = new_table(hatskit.load(CAPTURE))

    def tree() -> tuple[Any, ...]:
        """The table's rows and what each row holds (the grid's rows hold the square buttons)."""
        return table.children, *(getattr(child, "children", ()) for child in table.children)

    before = tree()
    click(table, "b3", "c4")
    table.hint_button.click()
    table.first_button.click()
    assert tree() == before


def test_a_game_of_another_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="SombreroTable shows a Sombrero game, not 'hats'"):
        SombreroTable(hatskit.new_game("hats", players=2, seed=1), ("reader", "greedy"), bot_delay=0)


# ------------------------------------------------------------------ refusals, the last moves, the set-up row


def test_a_pick_stays_on_the_page_and_a_refused_press_is_told() -> None:
    table = new_table()
    before = snapshot(table)
    click(table, "e1")
    assert picked_square(table) == "e1" and snapshot(table) == before  # the kernel heard nothing
    click(table, "a1")
    assert "hk-error" in table.message._dom_classes and "a1 is four squares away from e1" in text(table.message)


def test_a_piece_with_nowhere_to_go_says_so() -> None:
    # g6 stands boxed in by black pieces on every side, no hatless friend next to it.
    boxed = {
        "game": "sombrero",
        "to_move": "white",
        "actions_left": 2,
        "white": {"hatted": ["g6", "a1", "b1"], "hatless": []},
        "black": {"hatted": ["f5", "g5", "h5", "f6", "h6", "f7", "g7", "h7"], "hatless": []},
    }
    table = new_table(hatskit.load(boxed))
    click(table, "g6")
    assert picked_square(table) is None and not lit(table)
    assert "g6 is stuck: no empty square and no hatless friend of yours next to it." in said(table.message)
    assert "Pick up another of your hatted pieces." in said(table.message) and "rule S2" in why(table.message)
    click(table, "a1")
    assert lit_squares(table)


def test_the_squares_of_the_last_actions_are_marked_the_bots_too() -> None:
    table = new_table()
    click(table, "e1", "e2", "e2", "e3")
    game = table.game
    # the reader's second action and the bot's two answers: what the message line tells of
    squares = {square_name(s) for move in game.history[1:] for s in (move.origin, move.target)}
    assert game.ply == 4 and marked(table, "hk-moved") == squares
    bot_move = game.history[3]
    assert f"{bot_move} went here in the last 3 moves" in table.squares[square_name(bot_move.target)].tooltip
    table.back_button.click()
    assert marked(table, "hk-moved") == {square_name(game.history[2].origin), square_name(game.history[2].target)}


def test_the_set_up_row_offers_the_jump_capture_option_and_no_deal_or_player_count() -> None:
    table = new_table()
    setup = table.setup
    assert not is_shown(setup.seed_box) and not is_shown(setup.players_box)
    assert [box.description for box in setup.seat_boxes] == ["White", "Black"]
    option = setup.option_boxes["jump_captures"]
    assert option.value is False and "after a hat jump, the piece that got the hat takes hats too" in option.tooltip
    option.value = True
    setup.seat_boxes[0].value, setup.seat_boxes[1].value = "greedy", "reader"
    setup.new_game_button.click()
    assert table.game.head["options"] == {"jump_captures": True} and table.seats == ("greedy", "reader")
    assert table.game.ply == 2 and "Black (you), action 1 of 2" in text(table.turn_line)


def test_a_reader_playing_black_sees_the_board_turned_with_black_at_the_bottom() -> None:
    table = SombreroTable(hatskit.new_game("sombrero"), seats=("greedy", "reader"), bot_delay=0)
    rows = list(table.table_area.children)
    black, white = table.side_lines[1], table.side_lines[0]
    assert rows.index(white) < rows.index(table.grid) < rows.index(black)
    squares = [table.square_names[p.uid] for p in table.grid.children if p.uid in table.square_names]
    assert squares[0] == "h1" and squares[-1] == "a8", "rank 1 at the top, files from h: Black's own view"
    table.start(hatskit.new_game("sombrero"), ("reader", "greedy"))
    squares = [table.square_names[p.uid] for p in table.grid.children if p.uid in table.square_names]
    assert squares[0] == "a8" and table.table_area.children.index(table.side_lines[0]) == 4, "White's again"


def test_rule_ids_wait_behind_one_why_each_rule_named_once() -> None:
    table = new_table(hatskit.load(CAPTURE))
    click(table, "b3", "c4")
    assert not RULE_ID.search(said(table.message)) and table.message.value.count("<details") == 1
    assert why(table.message).count("rule S3: Capture") == 1 and why(table.message).count("rule S2: Actions") == 1


def test_a_badge_for_each_side_black_above_the_board_white_below_the_side_to_move_marked() -> None:
    table = new_table()
    rows = list(table.table_area.children)
    black, white = table.side_lines[1], table.side_lines[0]
    assert rows.index(black) < rows.index(next(p for p in rows if "hk-sb-grid" in p._dom_classes)) < rows.index(white)
    assert text(white).startswith("White you ▶ to move") and "hats (8)" in text(white)
    assert text(black).startswith("Black greedy bot") and "to move" not in text(black) and "hats (8)" in text(black)
    assert "hk-seat-0" in white.value and "hk-seat-1" in black.value and "hk-tomove" in white.value
