"""MadderTable driven as a reader would: press hats, inventories and choices, read what is shown.

The page picks up and lights on its own, from the moves the table offers as paths of presses (tests/helpers.py,
tap, does what view.js does): a pick sends the kernel nothing, a completed path is one move.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest

import hatskit
from hatskit.core import EndPhase
from hatskit.games.madder import DECLINE, DONE, Play
from hatskit.games.madder.components import hat_words
from tests.helpers import (
    CLERK,
    COLLECTOR,
    RULE_ID,
    TAILOR,
    TRENDSETTER,
    end_position,
    lit,
    picked,
    picked_ids,
    said,
    tap,
    turn_position,
    why,
    widget_states,
)
from widgets import MadderTable
from widgets.games.madder import describe
from widgets.toolkit import ui
from widgets.toolkit.parts import is_shown

BOTS = ("reader", "greedy", "greedy")


def table_at(position: dict[str, Any], seats: tuple[str, ...] = BOTS) -> MadderTable:
    """A table over a loaded position whose bots answer at once."""
    return MadderTable(hatskit.load(position), seats, bot_delay=0)


def text(line: ui.HTML) -> str:
    """An HTML widget's text, tags removed and spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", line.value)).split())


def hand(table: MadderTable) -> list[str]:
    return [button.description for button in table.hand_buttons if button.description]


def hand_button(table: MadderTable, hat: str) -> ui.Button:
    return next(button for button in table.hand_buttons if button.description == hat_words(hat))


def click_hat(table: MadderTable, hat: str) -> None:
    """Press the hand hat ``hat`` as the page does: it is picked up (or put down) there."""
    tap(table, hand_button(table, hat))


def shown(buttons: list[ui.Button]) -> list[ui.Button]:
    return [button for button in buttons if is_shown(button)]


def kernel_lit(buttons: list[ui.Button]) -> list[ui.Button]:
    """The visible buttons the kernel marks as where to start (a waiting ability's hats), nothing picked."""
    return [button for button in shown(buttons) if "hk-legal" in button._dom_classes]


def page_lit(table: MadderTable) -> list[ui.Part]:
    """The parts the page lights as where the hat picked up may go, in the order the moves are offered."""
    return list(lit(table))


def says(table: MadderTable) -> dict[ui.Part, str]:
    """What each part the page lights adds to its name: what a press on it then does."""
    held = picked_ids(table)
    return {
        table.part_by_id(move["path"][-1]): move["says"]  # type: ignore[misc]
        for move in table.moves_part.offered
        if len(move["path"]) == len(held) + 1 and move["path"][: len(held)] == held
    }


def inventory_cards(table: MadderTable, seat: int) -> list[ui.Button]:
    """The visible card buttons of ``seat``'s inventory, style by style."""
    return shown([button for group in table.inventories[seat].buttons for button in group])


def named_cards(table: MadderTable, seat: int, hat: str) -> list[ui.Button]:
    """The visible cards of ``seat``'s inventory that show ``hat`` (twins: several)."""
    return [button for button in inventory_cards(table, seat) if button.description == hat_words(hat)]


def table_hats(table: MadderTable) -> list[ui.Button]:
    """Every hat on the table a waiting ability may choose from: the line's, then each inventory's."""
    seats = range(len(table.inventories))
    return shown(table.line_buttons) + [card for seat in seats for card in inventory_cards(table, seat)]


def card(table: MadderTable, name: str) -> ui.Button:
    """The hat on the table named (its tooltip) ``name``."""
    return next(button for button in table_hats(table) if button.tooltip == name)


def choices(table: MadderTable) -> list[ui.Button]:
    """The visible choice buttons in plain words."""
    return shown(list(table.choice_box.children))


def choice(table: MadderTable, words: str) -> ui.Button:
    """The visible choice button whose plain-word name is ``words``."""
    return next(button for button in choices(table) if button.description == words)


def with_hand(hats: list[str], **changes: Any) -> dict[str, Any]:
    position = turn_position(**changes)
    position["hands"][0] = hats
    return position


def page_states(table: MadderTable) -> Any:
    """What the page gets of ``table`` (widget_states), the moves offered naming parts by their place on the board:
    two tables' parts have different ids."""
    place = {uid: at for at, uid in enumerate(table.moves_part.board)}

    def by_place(node: Any) -> Any:
        if isinstance(node, list):
            return [by_place(kid) for kid in node]
        if not isinstance(node, dict):
            return node
        if node.get("t") == "moves":
            offered = [move | {"path": [place[uid] for uid in move["path"]]} for move in node["offered"]]
            return node | {"offered": offered, "board": list(range(len(node["board"])))}
        return {key: by_place(value) for key, value in node.items()}

    return by_place(widget_states(table))


def pressed_alike(table: MadderTable, fresh: MadderTable, path: list[int]) -> list[ui.Part]:
    """The parts of ``fresh`` at the places on the board that ``path``'s parts have on ``table``."""
    place = {uid: at for at, uid in enumerate(table.moves_part.board)}
    return [fresh.board()[place[uid]] for uid in path]


def haberdashers_position(**changes: Any) -> dict[str, Any]:
    """The end of round 1, every hand played and done: Ana's Haberdasher (the Clearance Clerk) waits."""
    return turn_position(phase="haberdashers", line=[], done=[0, 1, 2], hands=[[], [], []]) | changes


TAILOR_POSITION = haberdashers_position(
    haberdashers=[TAILOR, CLERK, COLLECTOR],
    inventories=[["Fedora", "Beret", "Newsboy"], ["Boater", "Stetson", "Trilby"], ["Bowler", "Homburg", "Beret"]],
)
ROW_IT_OVER = turn_position(phase="ability", ability="Boater*", inventories=[["Fedora", "Boater*"], [], ["Beret"]])


# ------------------------------------------------------------------ playing a hat


def test_a_hat_clicked_into_an_opponents_inventory() -> None:
    table = table_at(turn_position())
    click_hat(table, "Homburg")
    assert picked(table) == [hand_button(table, "Homburg")] and table.game.ply == 0
    assert all(button in page_lit(table) for button in table.target_buttons)
    assert table.target_buttons[1].description == "into Ben's inventory"
    assert says(table)[table.target_buttons[1]] == "play your Homburg into Ben's inventory"
    ben_boater = inventory_cards(table, 1)[0]
    assert ben_boater in page_lit(table) and says(table)[ben_boater] == "", "a drop there: the button says it once"
    tap(table, table.target_buttons[1])
    game = table.game
    assert game.history[0] == Play("Homburg", 1) and game.ply >= 3, "both bots answered"
    assert "Ana put a Homburg into Ben's inventory" in said(table.message) and "rule M3: Turn" in why(table.message)
    assert "Homburg" in [b.description for b in inventory_cards(table, 1)] and "Homburg" not in hand(table)
    assert "Newsboy" in hand(table), "Ana took the line's first hat"


def test_a_hat_of_the_hand_put_on_a_hat_of_an_inventory_goes_into_that_inventory() -> None:
    """A drop on Ben's Boater (view.js makes it the press there that a click would be) plays into Ben's inventory."""
    table = table_at(turn_position())
    click_hat(table, "Homburg")
    tap(table, inventory_cards(table, 1)[0])
    assert str(table.game.history[0]) == "Homburg>Ben" and "Homburg" not in hand(table)


def test_an_illegal_click_says_why_and_changes_nothing() -> None:
    table = table_at(turn_position())
    tap(table, table.target_buttons[1])
    assert "First click a hat in your hand" in text(table.message) and "hk-error" in table.message._dom_classes
    table = table_at(end_position())
    before = widget_states(table.table_area)
    click_hat(table, "Beret")
    assert [button in page_lit(table) for button in table.target_buttons] == [True, False, False]
    tap(table, table.target_buttons[1])
    assert "own inventory only" in said(table.message) and "rule M4: End of round" in why(table.message)
    assert "hk-error" in table.message._dom_classes and table.game.ply == 0
    assert widget_states(table.table_area) == before, "a pick and a refused drop change nothing in the kernel"
    click_hat(table, "Beret")  # put down again: the page shows the table as before
    assert not picked(table) and not page_lit(table)


def test_an_illegal_drop_gets_a_sentence_and_changes_nothing() -> None:
    table = table_at(end_position())
    before = widget_states(table.table_area)
    click_hat(table, "Beret")
    tap(table, inventory_cards(table, 2)[0])  # dropped on Cleo's Bowler: at the end of the round, your own only
    assert "own inventory only" in said(table.message) and "rule M4: End of round" in why(table.message)
    assert table.game.ply == 0 and widget_states(table.table_area) == before
    assert picked(table) == [hand_button(table, "Beret")], "the hat stays picked up for another try"
    table = table_at(turn_position())
    before = widget_states(table.table_area)
    click_hat(table, "Beret")
    tap(table, table.line_buttons[0])  # dropped on the assembly line
    assert "goes into an inventory, not onto the assembly line" in said(table.message)
    assert not RULE_ID.search(said(table.message)) and "hk-error" in table.message._dom_classes
    assert table.game.ply == 0 and widget_states(table.table_area) == before


def test_a_pick_changes_nothing_in_the_kernel() -> None:
    """Picking up and putting down is the page's own: no message reaches the kernel, so no widget changes."""
    for position, first in (
        (turn_position(), lambda table: hand_button(table, "Homburg")),
        (TAILOR_POSITION, lambda table: named_cards(table, 0, "Fedora")[0]),  # Ana's Fedora: the first of a swap
    ):
        table = table_at(position)
        sent: list[Any] = []
        table.channel.observe(lambda change, sent=sent: sent.append(change["new"]), names="tree")
        before = widget_states(table)
        tap(table, first(table))
        assert picked(table) == [first(table)] and page_lit(table)
        table.flush()
        assert widget_states(table) == before and not sent and table.game.ply == 0
        tap(table, first(table))
        assert not picked(table)


# ------------------------------------------------------------------ the moves offered as paths


POSITIONS = {
    "a turn": turn_position(),
    "twins in the hand": with_hand(["Beret", "Beret", "Newsboy*"]),
    "the end of the round": end_position(),
    "Extra! Extra!": turn_position(
        phase="ability", ability="Newsboy*", line=["Newsboy", "Newsboy", "Trilby"], inventories=[["Newsboy*"], [], []]
    ),
    "Closing-Down Sale": turn_position(
        phase="ability", ability="Homburg*", inventories=[["Fedora", "Fedora", "Homburg*"], [], ["Bowler"]]
    ),
    "Row It Over": ROW_IT_OVER,
    "the Tailor": TAILOR_POSITION,
    "the Clearance Clerk": haberdashers_position(inventories=[["Beret", "Beret", "Fedora"], ["Boater"], ["Bowler"]]),
    "the Collector": haberdashers_position(haberdashers=[COLLECTOR, CLERK, TAILOR]),
}


@pytest.mark.parametrize("name", POSITIONS)
def test_the_paths_offered_cover_exactly_the_moves_a_press_names_and_each_plays_its_move(name: str) -> None:
    position = POSITIONS[name]
    table = table_at(position)
    legal = {str(move): move for move in table.reader_moves() if not isinstance(move, EndPhase)}
    offered = table.moves_part.offered
    worded = {button.description for button in choices(table)}
    named = {move["move"] for move in offered}
    assert named <= set(legal), "every path is a legal move of the reader"
    for notation, move in legal.items():
        in_words = not isinstance(move, Play) and describe(move, 0) in worded
        assert (notation in named) != in_words, f"{notation}: made by presses or by a button in words, not both"
    paths = [tuple(move["path"]) for move in offered]
    assert len(paths) == len(set(paths)), "a path makes one move"
    assert not [path for path in paths if any(path[: len(other)] == other for other in paths if other != path)], (
        "no path ends where another goes on: every path can be completed"
    )
    for move in offered:
        fresh = table_at(position)
        tap(fresh, *pressed_alike(table, fresh, move["path"]))
        assert str(fresh.game.history[0]) == move["move"], move


def test_twins_in_the_hand_are_two_buttons_each_with_its_own_paths() -> None:
    table = table_at(with_hand(["Beret", "Beret", "Newsboy"]))
    first, second = table.hand_buttons[:2]
    starts = {move["path"][0] for move in table.moves_part.offered if move["move"] == "Beret>Ben"}
    assert starts == {first.uid, second.uid}


# ------------------------------------------------------------------ abilities


def test_a_premium_ability_is_chosen_by_a_click_on_a_lit_hat_in_an_inventory() -> None:
    """Issue 29: Closing-Down Sale lights every inventory's hats, each named by what a click on it does."""
    table = table_at(with_hand(["Homburg*", "Beret", "Fedora"]))
    assert not kernel_lit(table_hats(table)) and not is_shown(table.decline_button)
    tap(table, hand_button(table, "Homburg*"), table.target_buttons[0])
    prompt = text(table.ability_prompt)
    assert "Closing-Down Sale" in prompt and "stand-in" in prompt and table.game.ply == 1
    assert "Click a lit hat to choose it, or decline it." in prompt
    assert {button.tooltip for button in kernel_lit(table_hats(table))} == {
        "discard the Fedora from your inventory",
        "discard the Homburg ★ from your inventory",
        "discard the Boater from Ben's inventory",
        "discard the Bowler from Cleo's inventory",
    }
    assert not kernel_lit(table.line_buttons) and not choices(table), "the cards are the choice"
    tap(table, card(table, "discard the Boater from Ben's inventory"))
    assert str(table.game.history[1]) == "discard Boater@Ben"
    assert table.game.view(0)["inventories"][1][:1] != ["Boater"] and "Ana discarded" in text(table.message)
    assert not text(table.ability_prompt)


def test_an_assembly_line_hat_is_taken_by_a_click_on_its_lit_card() -> None:
    """Issue 29: Extra! Extra! lights the line's hats; a click on one plays ``take`` it, the same notation as before."""
    table = table_at(with_hand(["Newsboy*", "Beret", "Fedora"]))
    assert not kernel_lit(table.line_buttons)
    tap(table, hand_button(table, "Newsboy*"), table.target_buttons[1])
    line = shown(table.line_buttons)
    assert [button.description for button in line] == ["Newsboy", "Stetson", "Trilby", "Bowler"]
    assert kernel_lit(table.line_buttons) == line, "every hat on the line may be taken"
    assert "Click a lit hat to choose it, or decline it." in text(table.ability_prompt)
    assert not choices(table), "no second, worded copy of the cards' choices"
    trilby = line[2]
    assert trilby.tooltip == "take the Trilby from the assembly line" and '<span class="hk-card hk-hat' in trilby.face
    tap(table, trilby)
    assert str(table.game.history[1]) == "take Trilby@line" and "Trilby" in hand(table)
    assert not kernel_lit(table.line_buttons) and not is_shown(table.decline_button)


def test_a_line_hat_clicked_when_no_ability_may_take_it_says_why_and_changes_nothing() -> None:
    table = table_at(with_hand(["Homburg*", "Beret", "Fedora"]))
    table_parts = (table.line_row, table.choice_box, *table.hand_buttons, *table.target_buttons)
    before = [widget_states(part) for part in table_parts]
    tap(table, table.line_buttons[0])
    refusal = said(table.message)  # what to do instead, in the student's words; the rules wait behind "why?"
    assert "You can't move the Newsboy from the assembly line yourself" in refusal and not RULE_ID.search(refusal)
    assert "Play a hat from your hand into an inventory instead." in refusal and "rule M3: Turn" in why(table.message)
    assert table.game.ply == 0 and [widget_states(part) for part in table_parts] == before
    tap(table, hand_button(table, "Homburg*"), table.target_buttons[0])  # Closing-Down Sale: not from the line
    ply = table.game.ply
    tap(table, table.line_buttons[1])
    assert "can't choose the Stetson from the assembly line" in text(table.message) and table.game.ply == ply
    assert table.line_buttons[1].tooltip == "Stetson, hat 2 on the assembly line" and is_shown(table.decline_button)


def test_a_premium_ability_is_declined() -> None:
    table = table_at(with_hand(["Newsboy*", "Beret", "Fedora"]))
    tap(table, hand_button(table, "Newsboy*"), table.target_buttons[1])
    assert is_shown(table.decline_button)
    assert "take the Trilby from the assembly line" in {b.tooltip for b in kernel_lit(table.line_buttons)}
    click_hat(table, "Beret")
    assert "Your Beret has to wait: first click a lit hat to use the card that waits" in said(table.message)
    assert not picked(table) and table.game.ply == 1
    table.decline_button.click()
    assert table.game.history[1] == DECLINE and "Ana declined Extra! Extra!" in text(table.message)
    assert not is_shown(table.decline_button)


def test_an_ability_with_many_choices_asks_for_your_hat_first_then_the_other() -> None:
    table = table_at(TAILOR_POSITION)
    assert len(table.game.legal_moves()) > 9, "The Tailor offers more choices than a row of buttons should"
    assert [button.description for button in kernel_lit(table_hats(table))] == ["Newsboy", "Fedora", "Beret"]
    assert not choices(table)
    assert "Click a lit hat to pick it up, then click the hat to swap it for" in text(table.ability_prompt)
    fedora = card(table, "pick up the Fedora from your inventory, then choose what becomes of it")
    ben_boater = inventory_cards(table, 1)[0]
    tap(table, ben_boater)  # Ben's hat is the second step of a swap, not the first
    assert "The Boater from Ben's inventory comes second" in said(table.message) and table.game.ply == 0
    tap(table, fedora)
    assert picked(table) == [fedora] and table.game.ply == 0
    swaps = [says(table)[part] for part in page_lit(table)]
    assert swaps[0] == "swap your Fedora for Ben's Boater" and len(swaps) == 6, "the other hats are the second step"
    assert not choices(table), "no button to put the hat down: a press on it again does"
    tap(table, ben_boater)
    assert str(table.game.history[0]) == "swap Fedora@Ana Boater@Ben"


def test_a_swap_the_ability_refuses_gets_the_engines_sentence() -> None:
    table = table_at(TAILOR_POSITION)
    [ana_beret], [cleo_beret] = named_cards(table, 0, "Beret"), named_cards(table, 2, "Beret")
    tap(table, ana_beret, cleo_beret)  # a Beret for a Beret: no swap
    assert "The Tailor does not allow that choice" in said(table.message) and table.game.ply == 0
    assert picked(table) == [ana_beret]


def test_a_hat_to_move_is_picked_up_then_the_inventory_it_goes_into_is_clicked() -> None:
    table = table_at(ROW_IT_OVER)
    fedora = card(table, "pick up the Fedora from your inventory, then choose what becomes of it")
    assert "then click the inventory it moves into" in text(table.ability_prompt)
    tap(table, fedora)
    assert [part for part in page_lit(table) if part in table.target_buttons] == table.target_buttons[1:]
    assert says(table)[table.target_buttons[2]] == "move the Fedora from your inventory into Cleo's inventory"
    tap(table, inventory_cards(table, 2)[0])  # a hat of Cleo's inventory stands for it, as a drop there would
    assert str(table.game.history[0]) == "move Fedora Ana>Cleo"


def test_an_inventory_pressed_first_says_to_pick_the_hat_to_move() -> None:
    table = table_at(ROW_IT_OVER)
    tap(table, table.target_buttons[1])
    assert "First click the lit hat to move" in said(table.message) and table.game.ply == 0


def test_two_hats_to_discard_are_clicked_in_either_order_and_one_alone_is_a_button() -> None:
    clerk = haberdashers_position(inventories=[["Fedora", "Beret", "Newsboy"], ["Boater"], ["Bowler"]])
    for order in ((2, 0), (0, 2)):
        table = table_at(clerk)
        newsboy = card(table, "pick up the Newsboy from your inventory, then choose what becomes of it")
        [beret] = named_cards(table, 0, "Beret")
        assert "a lit hat to pick it up, then click another hat to discard with it" in text(table.ability_prompt)
        assert choice(table, "discard the Newsboy from your inventory")
        if order == (2, 0):
            tap(table, newsboy)
            assert sorted(says(table).values()) == [
                "discard the Beret from your inventory and the Newsboy from your inventory",
                "discard the Fedora from your inventory and the Newsboy from your inventory",
            ]
            tap(table, beret)
        else:
            tap(table, beret, newsboy)
        assert str(table.game.history[0]) == "discard Beret@Ana Newsboy@Ana"


def test_two_twin_hats_are_discarded_by_a_press_on_each() -> None:
    table = table_at(haberdashers_position(inventories=[["Beret", "Beret", "Fedora"], ["Boater"], ["Bowler"]]))
    first, second = named_cards(table, 0, "Beret")
    tap(table, first)
    assert picked(table) == [first] and second in page_lit(table) and table.game.ply == 0
    tap(table, second)
    assert str(table.game.history[0]) == "discard Beret@Ana Beret@Ana"


def test_a_premium_reads_as_on_its_card_and_one_of_two_identical_hats_is_picked_alone() -> None:
    table = table_at(with_hand(["Beret", "Beret", "Newsboy*"]))
    assert hand(table) == ["Beret", "Beret", "Newsboy ★"]
    faces = [button.face for button in shown(table.hand_buttons)]
    assert all("hk-card hk-hat hk-s-" in face for face in faces), "drawn as the cards on the table are"
    tap(table, table.hand_buttons[1])
    assert picked(table) == [table.hand_buttons[1]]


def test_a_hat_played_is_put_down_and_its_twin_left_in_the_hand_is_not_picked() -> None:
    table = table_at(with_hand(["Beret", "Beret", "Newsboy"]))
    tap(table, table.hand_buttons[0], table.target_buttons[1])  # the bots answer at once; Ana still holds a Beret
    assert "Beret" in hand(table) and table.game.ply >= 3
    assert not picked(table) and not page_lit(table)


def test_a_refused_move_keeps_the_hat_picked() -> None:
    table = table_at(end_position(hands=[["Beret", "Beret", "Newsboy"], ["Trilby"], ["Boater"]]))
    click_hat(table, "Beret")
    tap(table, table.target_buttons[1])  # at the end of the round only into your own inventory (M4)
    assert picked(table) == [table.hand_buttons[0]] and "hk-error" in table.message._dom_classes


def test_hats_and_haberdashers_are_drawn_cards_whose_drawings_screen_readers_skip() -> None:
    faces = [button.face for button in shown(table_at(with_hand(["Beret", "Newsboy*", "Trilby"])).hand_buttons)]
    revealed = turn_position(
        phase="haberdashers", line=[], haberdashers=[TAILOR, CLERK, COLLECTOR], done=[0, 1, 2], hands=[[], [], []]
    )
    table = table_at(revealed)
    seats = [seat_row.value for seat_row in table.seat_rows]
    assert all("<svg" in face for face in faces) and '<span class="hk-prem">★</span>' in faces[1]
    assert all('class="hk-card hk-haber"' in seat for seat in seats), "each revealed Haberdasher a card of its own"
    assert 'class="hk-card hk-haber"' in table.haberdasher_line.value and TAILOR in text(table.haberdasher_line)
    line = [button.face for button in table.line_buttons]
    drawn = " ".join([*faces, *seats, table.haberdasher_line.value, *line, table.deck_line.value])
    assert all('aria-hidden="true"' in svg for svg in re.findall(r"<svg[^>]*>", drawn)) and "http" not in drawn


# ------------------------------------------------------------------ the end of the round


def test_end_of_round_done_then_the_haberdasher_step_and_the_round_table() -> None:
    table = table_at(end_position())
    assert is_shown(table.done_button) and "end of the round" in text(table.round_info)
    assert "Your Haberdasher (secret until the end of the round)" in text(table.haberdasher_line)
    tap(table, hand_button(table, "Newsboy"), table.target_buttons[0])
    table.done_button.click()
    view = table.game.view(0)
    assert view["phase"] == "haberdashers" and view["to_move"] == 0, "the bots were done; Ana's Clearance Clerk waits"
    assert CLERK in text(table.ability_prompt) and "stand-in" in text(table.ability_prompt)
    assert TRENDSETTER in text(table.seat_rows[1]) and COLLECTOR in text(table.seat_rows[2]), "revealed (M4)"
    assert "Your Haberdasher (turned up for everyone now)" in text(table.haberdasher_line), "no longer secret"
    assert "✓ done" not in text(table.seat_rows[0])
    fedora = card(table, "pick up the Fedora from your inventory, then choose what becomes of it")
    tap(table, fedora)  # up to two hats: the Fedora with another, or alone by its button
    assert "discard the Fedora from your inventory" in {b.description for b in choices(table)}
    table.decline_button.click()
    assert table.game.view(0)["round"] == 2 and "Round 1 is scored" in text(table.message)
    end = text(table.round_end)
    assert is_shown(table.round_end_box) and "Round 1 is over" in end, "the scored shops stay until the reader goes on"
    assert "Fedora: +1 1 Fedora: exactly one hat of a style scores 1" in end and "(M5)" not in end
    assert table.game.view(0)["to_move"] != 0 and not table.scheduler.pending(), "the bots wait for the reader"
    waiting = "Round 1 is over: see its points, then press “on to round 2”."
    assert text(table.status) == waiting and waiting in text(table.message), "the wait is said where the reader looks"
    parts = list(table.table_area.children)
    assert parts.index(table.round_end_box) > parts.index(table.ring.bottom), "under the reader's own seat"
    table.next_round_button.click()
    assert not is_shown(table.round_end_box)
    assert waiting not in text(table.status) + text(table.message), "the bots play on"
    rows = text(table.round_table)
    points = table.game.view(0)["scores"][0]
    assert f"round 1 {' '.join(map(str, points))}" in rows and "game total" in rows
    assert "round 1 ·" in table.score_panel.value


def test_a_full_game_against_bots_finishes() -> None:
    table = MadderTable(hatskit.new_game("madder", players=3, seed=11), BOTS, bot_delay=0)
    clicks = 0
    while not table.game.is_over:
        play_something(table)
        clicks += 1
        assert clicks < 400
    assert text(table.status) == "The game is over." and "wins with" in text(table.message)
    rows = text(table.round_table)
    assert all(f"round {number}" in rows for number in range(1, table.game.state.round + 1))
    assert not any(map(is_shown, table.target_buttons)), "no hat goes into an inventory once the game is over"


def play_something(table: MadderTable) -> None:
    """One reader decision by presses: on from a round's end, the first choice in words, else the first move
    offered, pressed along its path (a hat, then where it goes), else done."""
    if is_shown(table.round_end_box):
        table.next_round_button.click()
        return
    if choices(table):
        choices(table)[0].click()
        return
    offered = table.moves_part.offered
    if offered:
        tap(table, *(table.part_by_id(uid) for uid in offered[0]["path"]))  # type: ignore[misc]
        return
    table.done_button.click()


# ------------------------------------------------------------------ hidden cards never reach a widget


def test_no_widget_state_depends_on_the_others_hands_or_haberdashers() -> None:
    """Two games that differ only in what Ana cannot see give the same widget states."""
    first = turn_position(seed=5)
    second = turn_position(seed=5, haberdashers=[CLERK, TAILOR, TRENDSETTER])
    second["hands"] = [first["hands"][0], first["hands"][2], first["hands"][1]]
    one, two = table_at(first), table_at(second)
    assert page_states(one) == page_states(two)
    for table in (one, two):
        click_hat(table, "Beret")
        tap(table, table.line_buttons[0])  # a refused drop: a sentence, the same for both
    assert page_states(one) == page_states(two)


def test_other_haberdashers_reach_no_widget_before_the_reveal() -> None:
    table = MadderTable(hatskit.new_game("madder", players=3, seed=2), BOTS, bot_delay=0)
    checked = 0
    while not table.game.is_over:
        state = table.game.state
        if state.round == 1 and state.phase in ("play", "ability", "end"):  # later rounds may repeat revealed names
            secrets = {name for seat, name in enumerate(state.haberdashers) if seat != 0}
            values = json.dumps(page_states(table), ensure_ascii=False)
            assert not any(name in values for name in secrets)
            checked += 1
        play_something(table)
    assert checked > 10


def test_the_set_up_row_leaves_the_card_file_to_the_teacher_and_keeps_it() -> None:
    table = table_at(turn_position())
    assert "cards" not in table.setup.option_boxes, "no unexplained 'cards' box for a student"
    game, _ = table.setup.chosen()
    assert game.head["options"] == {"cards": ""}


# ------------------------------------------------------------------ seats around the table


def test_each_seats_inventory_button_sits_in_its_panel_the_readers_hand_at_the_bottom() -> None:
    table = table_at(turn_position())
    boxes = table.ring.boxes
    assert all(button in list(box.parts()) for box, button in zip(boxes, table.target_buttons, strict=True))
    assert all(f"hk-seat-{seat}" in box._dom_classes for seat, box in enumerate(boxes))
    assert table.ring.top.children == (boxes[1], boxes[2]) and table.ring.bottom.children == (boxes[0],)
    assert all(button in list(boxes[0].parts()) for button in table.hand_buttons)
    assert text(table.seat_rows[0]).startswith("Ana you ▶ to move") and "hk-tomove" in boxes[0]._dom_classes
    assert text(table.seat_rows[1]).startswith("Ben greedy bot") and "hk-tomove" not in boxes[1]._dom_classes
    ben = table.game.view(0)
    assert f"hand ({ben['hand_sizes'][1]})" in text(table.seat_rows[1])
    assert table.inventories[1].name.value == f"inventory ({len(ben['inventories'][1])})"
    assert all(box in list(boxes[seat].parts()) for seat, box in enumerate(i.hold for i in table.inventories))
    assert table.seat_rows[1].value.count('title="hidden hat"') == ben["hand_sizes"][1], "Ben's hand: backs only"


def test_a_hint_names_its_move_as_the_tables_buttons_do_not_in_notation() -> None:
    table = MadderTable(hatskit.new_game("madder", players=3, seed=2026), ("reader", "greedy", "strong"), bot_delay=0)
    table.ask_hint()
    shown = text(table.message).split("why?")[0]
    assert shown.startswith("Hint: play your ") and " inventory. " in shown, shown
    assert ">" not in shown and "*" not in shown, "no notation ('Bowler*>Cleo') in what the student reads first"


def test_decline_and_done_in_words_read_as_one_phrase_a_count_can_follow() -> None:
    """The teacher's tally puts a count after each answer ("…: 2"): the words hold no colon of their own."""
    table = MadderTable(hatskit.new_game("madder", players=3, seed=2026), BOTS, bot_delay=0)
    words = [table.move_words(move) for move in (DECLINE, DONE)]
    assert words == ["press “decline”", "press “done” (no more hats this round)"]
    assert all(":" not in said for said in words), words
