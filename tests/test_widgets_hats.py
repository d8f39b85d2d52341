"""HatsTable driven as a reader would: press cards, positions and controls as the page does, read what is shown.

A card picked up stays on the page (tests/helpers.py, tap): what it lights comes from the moves the table offers
(lit, picked), and the kernel hears only a completed move or a press that made none."""

from __future__ import annotations

import html
import re
import time
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pytest
from jupyter_client import KernelClient
from jupyter_client.manager import start_new_kernel

import hatskit
from hatskit import Game
from hatskit.bots import Hint
from hatskit.drawing import score_panel_html, without_rules
from hatskit.games.hats import Back, BlackHat, Discard, Exchange, Swap
from hatskit.games.hats.bots import HatsBot, what_to_do
from tests.helpers import (
    RULE_ID,
    hand,
    hand_button,
    lit,
    lit_positions,
    marked,
    picked,
    play_first_option,
    press,
    said,
    select,
    select_once,
    shown_strings,
    tap,
    tea_table,
    walk,
    why,
    widget_states,
)
from widgets import HatsTable
from widgets.table.scheduler import ManualClock
from widgets.toolkit import ui
from widgets.toolkit.parts import is_shown

BOTS = ("reader", "greedy", "greedy")
ROOT = Path(__file__).resolve().parents[1]
LESSONS = ROOT / "notebooks" / "lessons" / "hats.json"


def new_table(players: int = 3, seats: tuple[str, ...] = BOTS, seed: int = 7, **keywords: Any) -> HatsTable:
    """A table over a new seeded game whose bots answer at once."""
    return HatsTable(hatskit.new_game("hats", players=players, seed=seed), seats, bot_delay=0, **keywords)


def text(line: widgets.HTML) -> str:
    """An HTML widget's text, tags removed and spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", line.value)).split())


def reader_turn(game: Game, seat: int = 0) -> bool:
    return not game.is_over and game.to_move == seat


def snapshot(table: HatsTable) -> tuple[Any, ...]:
    """Everything a press could change but the message line: the game, every card and action button (classes
    included), the seats, the table's notes, the score and the moves offered to the page."""
    buttons = [*table.position_buttons, *table.hand_buttons, *table.action_buttons]
    faces = [(b.description, b.tooltip, tuple(b._dom_classes), b.disabled) for b in buttons]
    seats = [row.value for row in table.seat_rows]
    offered = (table.moves_part.offered, table.moves_part.board)
    return table.game.position(), table.game.ply, faces, seats, table.table_info.value, table.score_panel.value, offered


def parts_of(table: HatsTable, path: list[int]) -> list[Any]:
    """The parts an offered path names, by their ids."""
    return [table.part_by_id(uid) for uid in path]


# ------------------------------------------------------------------ selecting and playing


def test_selecting_a_card_highlights_exactly_its_legal_positions() -> None:
    table = new_table()
    exchanges = [move for move in table.game.legal_moves() if isinstance(move, Exchange)]
    seen = []
    for card in hand(table):
        select(table, card)
        expected = {move.position for move in exchanges if str(move.card) == card}
        assert lit_positions(table) == expected
        assert picked(table) == [hand_button(table, card)]
        seen.append(expected)
        select(table, card)  # a second press puts it down again
        assert not lit(table) and not picked(table)
    assert any(seen) and any(len(targets) < len(tea_table(table)) for targets in seen)
    assert not marked([*table.position_buttons, *table.hand_buttons], "hk-legal"), "the page lights, not the kernel"
    assert not marked(table.hand_buttons, "hk-selected")


def test_a_picked_card_marks_the_actions_it_may_take_as_allowed_and_a_press_there_plays() -> None:
    table = new_table()
    actions = [table.black_hat_button, table.optional_button]
    assert not lit(table), "nothing picked up, nothing allowed"
    card = hand(table)[0]
    select(table, card)
    assert all(button in lit(table) for button in actions), "black hat and discard, before a main move"
    before = table.game.ply
    tap(table, table.optional_button)
    assert table.game.ply == before + 1 and str(table.game.history[before]) == f"discard {card}"
    select(table, hand(table)[0])
    assert table.black_hat_button in lit(table)
    assert table.optional_button not in lit(table), "one discard a turn, then the main action"


def offered_paths_play_the_legal_moves(table: HatsTable) -> None:
    """One offered path per legal move of the reader: its hand card's button, then the position or the action
    button; pressed as the page does, each plays its move (then taken back, the bots held by the clock)."""
    legal = {str(move): move for move in table.reader_moves()}
    offered = table.moves_part.offered
    assert sorted(row["move"] for row in offered) == sorted(legal) and len(offered) == len(legal)
    targets = {BlackHat: table.black_hat_button, Discard: table.optional_button, Swap: table.optional_button}
    for row in offered:
        move = legal[row["move"]]
        where = table.position_buttons[move.position - 1] if isinstance(move, Exchange) else None
        where = where or targets.get(type(move), table.give_back_button)
        assert parts_of(table, row["path"]) == [hand_button(table, str(move.card)), where], row
        assert row["says"].startswith(f"{move.card} can ") and row["says"].endswith(f"({move})")
    start, ply = table.game.position(), table.game.ply
    for row in offered:
        tap(table, *parts_of(table, row["path"]))
        assert table.game.history[ply:] == [legal[row["move"]]], row["move"]
        table.undo()
        assert table.game.position() == start and table.moves_part.offered == offered


def test_the_offered_paths_are_exactly_the_readers_legal_moves_and_each_plays_its_move() -> None:
    table = HatsTable(hatskit.load(POSITION), BOTS, bot_delay=1.0, clock=ManualClock())
    offered_paths_play_the_legal_moves(table)  # exchanges, black hats and discards
    select(table, "⎈3")
    tap(table, table.optional_button)
    assert table.game.ply == 1 and not any(row["move"].startswith("discard") for row in table.moves_part.offered)
    offered_paths_play_the_legal_moves(table)  # after the discard: exchanges and black hats


def test_a_partners_swap_offers_only_give_back_paths() -> None:
    game = hatskit.new_game("hats", players=4, seed=5)
    for _ in range(2):
        game.play(next(m for m in game.legal_moves() if isinstance(m, Exchange)))
    game.play(Swap(game.state.hands[2][0]))
    table = HatsTable(game, ("reader", "greedy", "greedy", "greedy"), bot_delay=1.0, clock=ManualClock())
    assert all(row["move"].startswith("back ") for row in table.moves_part.offered)
    offered_paths_play_the_legal_moves(table)


def test_no_path_is_offered_when_it_is_not_the_readers_turn() -> None:
    table, _ = clocked_table()
    play_first_option(table)
    assert table.game.to_move == 1 and table.moves_part.offered == []
    board = set(table.moves_part.board)
    assert {button.uid for button in [*table.hand_buttons, *table.position_buttons, *table.action_buttons]} == board


def test_a_pick_changes_nothing_in_the_kernel() -> None:
    table = new_table()
    table.say("Pick a card.")
    before, message = widget_states(table), table.message.value
    for card in hand(table)[:3]:
        select(table, card)
        assert picked(table) == [hand_button(table, card)] and lit(table)
        assert widget_states(table) == before and table.message.value == message, "the page sent nothing"
    select(table, hand(table)[2])  # put down
    assert not picked(table) and widget_states(table) == before


def test_an_illegal_drop_gets_the_engines_sentence_and_changes_nothing() -> None:
    table = new_table()
    game = table.game
    card, position = next((c, p) for c in hand(table) for p in range(1, 7) if game.why_illegal(f"{c}@{p}"))
    before = snapshot(table)
    tap(table, hand_button(table, card), table.position_buttons[position - 1])  # a drag: a pick, then the drop
    assert said(table.message) == without_rules(game.why_illegal(f"{card}@{position}"))[0] + "."
    assert "hk-error" in table.message._dom_classes and not RULE_ID.search(said(table.message))
    assert snapshot(table) == before and game.ply == 0
    press(table, table.moves_part, path=[hand_button(table, card).uid, table.position_buttons[position - 1].uid])
    assert said(table.message) == without_rules(game.why_illegal(f"{card}@{position}"))[0] + ".", "the page's message"
    assert snapshot(table) == before


def test_cards_are_named_by_text_and_tooltip() -> None:
    table = new_table()
    view = table.game.view(0)
    assert tea_table(table) == view["table"]
    assert [b.tooltip.split(",")[0] for b in table.position_buttons] == [
        f"position {p}: {card}" for p, card in enumerate(view["table"], start=1)
    ]
    assert sorted(hand(table)) == sorted(view["hand"])
    assert all(b.tooltip == f"{b.description} in your hand" for b in table.hand_buttons if b.description)
    heart = next((b for b in table.hand_buttons if b.description.startswith("♥")), None)
    assert heart is None or ("hk-cardbtn" in heart._dom_classes and 'class="hk-card hk-k-heart' in heart.face)


def test_an_exchange_by_clicks_changes_table_message_and_score() -> None:
    table = new_table()
    game = table.game
    move = next(m for m in game.legal_moves() if isinstance(m, Exchange))
    taken = game.view(0)["table"][move.position - 1]
    score_before = table.score_panel.value
    select(table, str(move.card))
    tap(table, table.position_buttons[move.position - 1])
    assert game.history[0] == move and game.ply == 3  # both bots answered
    assert f"Ana exchanged {move.card} for {taken} at position {move.position}" in text(table.message)
    assert tea_table(table) == game.view(0)["table"] and str(move.card) not in hand(table)
    assert table.score_panel.value == score_panel_html(game.score(), game.outcome()) != score_before
    assert "hk-scorepanel" in table.score_panel._dom_classes and "hk-message" in table.message._dom_classes


def test_an_illegal_click_explains_and_changes_nothing() -> None:
    table = new_table()
    game = table.game
    card, position = next(
        (str(card), p) for card in game.state.hands[0] for p in range(1, 7) if game.why_illegal(f"{card}@{p}")
    )
    before = (game.history, tea_table(table), hand(table), table.score_panel.value)
    select(table, card)
    tap(table, table.position_buttons[position - 1])
    assert said(table.message) == without_rules(game.why_illegal(f"{card}@{position}"))[0] + "."
    assert "rule H2: Exchange" in why(table.message) and "hk-error" in table.message._dom_classes
    assert (game.history, tea_table(table), hand(table), table.score_panel.value) == before
    assert picked(table) == [hand_button(table, card)]  # the reader may try another position at once


def test_a_position_without_a_selected_card_asks_for_one() -> None:
    table = new_table()
    before = snapshot(table)
    for place in (table.position_buttons[0], table.black_hat_button):
        tap(table, place)
        assert said(table.message) == "First pick a card of your hand, then where it goes."
        assert "hk-error" in table.message._dom_classes and snapshot(table) == before and not picked(table)


def test_black_hat_by_clicks() -> None:
    table = new_table()
    card = hand(table)[0]
    select(table, card)
    tap(table, table.black_hat_button)
    assert table.game.history[0] == BlackHat(hatskit.games.hats.parse_card(card))
    assert card not in hand(table)
    assert "Ana made a black hat" in text(table.message)
    assert f'title="{card}"' in table.seat_rows[0].value  # your own black hat, shown to you only


def test_your_black_hat_does_not_look_like_a_duplicate_that_will_not_score() -> None:
    table = new_table()
    card = hand(table)[0]
    select(table, card)
    tap(table, table.black_hat_button)
    own = re.search(rf'<[^>]*title="{re.escape(card)}"[^>]*>', table.seat_rows[0].value)
    assert own is not None and "hk-blackhat" in own.group() and "hk-facedown" not in own.group()


def test_discard_by_clicks_draws_and_keeps_the_turn() -> None:
    table = new_table()
    card = hand(table)[-1]
    select(table, card)
    tap(table, table.optional_button)
    assert table.game.history == [Discard(hatskit.games.hats.parse_card(card))]
    assert card not in hand(table) and len(hand(table)) == 9 and table.game.to_move == 0
    assert "discarded a card face down and drew" in text(table.message)
    select(table, hand(table)[0])
    tap(table, table.optional_button)
    assert "already used the optional action" in text(table.message) and table.game.ply == 1


# ------------------------------------------------------------------ bots, history and hints


def test_a_full_game_against_greedy_and_strong_bots_by_clicks() -> None:
    table = new_table(seats=("reader", "greedy", "strong"))
    game = table.game
    for _ in range(8):
        assert reader_turn(game) and "Ana (you) to move" in text(table.status)
        play_first_option(table)
    outcome = game.outcome()
    assert game.is_over and outcome is not None
    assert without_rules(outcome.reason)[0] in said(table.message) and "over" in text(table.status)
    assert "rule H11: Winner" in why(table.message)
    for seat, favorite in enumerate(game.view(0)["favorites"]):
        assert f'title="{favorite}"' in table.seat_rows[seat].value
    assert not is_shown(table.hand_row) and not is_shown(table.actions_row), "the hand's last card is the favorite"
    table.go_to(game.ply - 1)
    assert is_shown(table.hand_row) and is_shown(table.actions_row), "a step back shows the hand again"


def test_the_step_bar_says_which_move_shows_and_sharing_waits_folded_under_one_button() -> None:
    table = new_table()
    play_first_option(table)
    play_first_option(table)
    table.back_button.click()
    assert table.slider.description == f"move {table.game.ply - 1} of {table.game.ply}"
    steps = [table.first_button, table.back_button, table.forward_button, table.last_button]
    assert [button.description for button in steps] == ["first", "back", "forward", "last"]
    assert all(f'<span class="hk-sr">{button.description}</span>' in button.face for button in steps)  # its name
    share = next(part for part in table.children if "hk-share" in part._dom_classes)
    assert isinstance(share, ui.Fold) and share.summary == "Share…" and not share.open
    assert table.code_box in share.parts() and table.clipboard in share.parts()


def test_step_through_shows_earlier_positions() -> None:
    table = new_table()
    game = table.game
    play_first_option(table)
    play_first_option(table)
    assert game.ply == 6 and table.forward_button.disabled
    table.first_button.click()
    assert table.shown_ply == table.slider.value == 0 and table.back_button.disabled
    assert tea_table(table) == game.state_at(0).view(0)["table"]
    assert sorted(hand(table)) == sorted(game.state_at(0).view(0)["hand"])
    table.forward_button.click()
    assert tea_table(table) == game.state_at(1).view(0)["table"]
    assert all(event.text in text(table.message) for event in game.events[0])
    table.slider.value = 4
    assert tea_table(table) == game.state_at(4).view(0)["table"] and "Move 4 of 6" in text(table.status)
    assert "It is your turn at move 6: step to the end to play." in text(table.status), "the bots wait for the reader"
    assert table.score_panel.value == score_panel_html(game.state_at(4).score(), None)
    table.back_button.click()
    assert table.shown_ply == 3
    table.last_button.click()
    assert table.shown_ply == 6 and tea_table(table) == game.view(0)["table"]


def test_playing_from_an_earlier_position_starts_a_new_branch() -> None:
    table = new_table()
    game = table.game
    play_first_option(table)
    old_branch = game.history
    table.slider.value = 0
    card = hand(table)[-1]
    select(table, card)
    tap(table, table.black_hat_button)
    assert game.ply == 3 and game.history[0] == BlackHat(hatskit.games.hats.parse_card(card)) != old_branch[0]
    assert table.shown_ply == 3 and table.slider.max == 3


def test_undo_returns_to_the_readers_previous_decision() -> None:
    table = new_table()
    game = table.game
    play_first_option(table)
    play_first_option(table)
    second_decision = game.state_at(3).position()
    table.undo_button.click()
    assert game.ply == 3 and game.position() == second_decision and table.shown_ply == 3
    table.undo_button.click()
    assert game.ply == 0 and table.undo_button.disabled
    table.undo()  # as the kernel's own code may: the page's button is switched off
    assert "no move of yours" in text(table.message) and game.ply == 0


def test_the_hint_marks_a_legal_move_and_gives_a_reason() -> None:
    table = new_table()
    table.hint_button.click()
    move = table.game.parse(table.hint_move)
    words = what_to_do(table.game.view(0), move)  # the move in words, not its notation
    assert table.game.why_illegal(move) is None and said(table.message).startswith(f"Hint: {words}. ")
    assert [b.description for b in table.hand_buttons if "hk-hint" in b._dom_classes] == [str(move.card)]
    if isinstance(move, Exchange):
        assert marked(table.position_buttons, "hk-hint") == {move.position}
    else:
        assert (
            "hk-hint" in (table.black_hat_button if isinstance(move, BlackHat) else table.optional_button)._dom_classes
        )


def test_an_empty_hand_slot_is_never_marked_as_the_hint() -> None:
    table = new_table()
    while len(hand(table)) == len(table.hand_buttons):  # until the hand leaves a slot empty
        play_first_option(table)
    assert table.hint_move is None
    assert not marked(table.hand_buttons, "hk-hint"), "an empty slot of the hand wears the hint's mark"


def clocked_table(seats: tuple[str, ...] = ("reader", "greedy", "greedy")) -> tuple[HatsTable, ManualClock]:
    """A table whose bots wait 1 s each on a clock the test moves."""
    clock = ManualClock()
    return HatsTable(hatskit.new_game("hats", players=3, seed=7), seats, bot_delay=1.0, clock=clock), clock


def test_bots_wait_their_delay_one_after_another() -> None:
    table, clock = clocked_table(("greedy", "reader", "greedy"))
    game = table.game
    assert game.ply == 0 and "Ana is thinking…" in text(table.status)
    clock.advance(0.5)
    assert game.ply == 0
    clock.advance(0.5)
    assert game.ply == 1 and "Ben (you) to move" in text(table.status)
    play_first_option(table)
    assert game.ply == 2 and "Cleo is thinking…" in text(table.status)
    clock.advance(1.0)
    assert game.ply == 3 and "Ana is thinking…" in text(table.status)


def test_undo_cancels_the_bots_pending_move() -> None:
    table, clock = clocked_table()
    play_first_option(table)
    assert table.game.ply == 1 and table.scheduler.pending()
    table.undo_button.click()
    assert table.game.ply == 0 and not table.scheduler.pending()
    clock.advance(5)
    assert table.game.ply == 0 and "Ana (you) to move" in text(table.status)


def test_stepping_back_pauses_the_bots_and_the_latest_position_resumes_them() -> None:
    table, clock = clocked_table()
    play_first_option(table)
    table.first_button.click()
    clock.advance(5)
    assert table.game.ply == 1 and not table.scheduler.pending()
    table.last_button.click()
    clock.advance(2.0)
    assert table.game.ply == 3 and table.live and "Ana (you) to move" in text(table.status)


def test_a_new_game_cancels_the_pending_bots() -> None:
    table, clock = clocked_table()
    play_first_option(table)
    old = table.game
    table.setup.new_game_button.click()
    clock.advance(5)
    assert old.ply == 1 and table.game is not old and table.game.ply == 0


KERNEL_SETUP = """
import hatskit
from hatskit.games.hats import Exchange
from hatskit.bots import Hint
from widgets import HatsTable
from widgets.toolkit import ui
from widgets.table.scheduler import ManualClock
g = hatskit.new_game("hats", players=3, seed=7)
t = HatsTable(g, ("reader", "greedy", "greedy"), bot_delay=1.0)
m = next(m for m in g.legal_moves() if isinstance(m, Exchange))
print(t.channel.model_id, t.moves_part.uid, m)
"""


def kernel_output(client: KernelClient, code: str) -> str:
    """Run ``code`` in the kernel and return what it printed."""
    printed: list[str] = []

    def keep(message: dict[str, Any]) -> None:
        if message["msg_type"] == "stream":
            printed.append(message["content"]["text"])

    reply = client.execute_interactive(code, output_hook=keep, timeout=60)
    assert reply["content"]["status"] == "ok", reply["content"]
    return "".join(printed).strip()


def test_a_click_in_a_real_kernel_lets_the_bots_answer_after_their_delay() -> None:
    """The page's completed move (a card picked up, then its position) arrives as a comm message; the bots must
    answer later, on the kernel's loop."""
    manager, client = start_new_kernel(kernel_name="python3", cwd=str(ROOT))
    try:
        table, moves, notation = kernel_output(client, KERNEL_SETUP).split()
        content = {"id": int(moves), "move": notation}
        click = {"comm_id": table, "data": {"method": "custom", "content": content}}
        client.shell_channel.send(client.session.msg("comm_msg", click))
        right_after = kernel_output(client, "print(g.ply, t.status.value)")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and kernel_output(client, "print(g.ply)") != "3":
            time.sleep(0.25)
        later = kernel_output(client, "print(g.ply, t.status.value)")
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    assert right_after == "1 Ben is thinking…"
    assert later == "3 Ana (you) to move."


def test_the_widget_tree_is_built_once() -> None:
    table = new_table()
    before = {part.uid for part in walk(table)}
    play_first_option(table)
    table.first_button.click()
    table.hint_button.click()
    assert {part.uid for part in walk(table)} == before


def test_bad_seats_are_refused_with_a_sentence() -> None:
    game = hatskit.new_game("hats", players=3, seed=1)
    for seats, words in [(("reader", "greedy"), "3 seats"), (("reader", "wizard", "greedy"), "unknown seat kind")]:
        with pytest.raises(ValueError, match=words):
            HatsTable(game, seats, bot_delay=0)
    with pytest.raises(ValueError, match="must be 'reader'"):
        HatsTable(game, ("greedy", "greedy", "random"), bot_delay=0)


# ------------------------------------------------------------------ four players


def test_four_players_swap_by_clicks_and_the_partner_gives_back() -> None:
    table = new_table(players=4, seats=("reader", "greedy", "greedy", "greedy"))
    game = table.game
    assert table.optional_button.description == "swap" and "Ana + Cleo against Ben + Dev" in text(table.table_info)
    card = hand(table)[0]
    select(table, card)
    tap(table, table.optional_button)
    assert game.history[0] == Swap(hatskit.games.hats.parse_card(card)) and isinstance(game.history[1], Back)
    assert card not in hand(table) and len(hand(table)) == 9 and game.to_move == 0
    assert "Cleo passed a card back to Ana" in text(table.message)


def test_four_players_give_back_answers_the_partners_swap() -> None:
    game = hatskit.new_game("hats", players=4, seed=5)
    for _ in range(2):
        game.play(next(m for m in game.legal_moves() if isinstance(m, Exchange)))
    passed = game.state.hands[2][0]
    game.play(Swap(passed))
    table = HatsTable(game, ("reader", "greedy", "greedy", "greedy"), bot_delay=0)
    assert is_shown(table.give_back_button) and not is_shown(table.black_hat_button)
    assert f"Cleo passed you {passed} face down" in text(table.table_info)
    given = hand(table)[0]
    select(table, given)
    assert set(lit(table)) == {table.give_back_button}, "a card may only go back now"
    tap(table, table.position_buttons[0])
    assert "must first give a card back to Cleo" in text(table.message) and game.ply == 3
    assert picked(table) == [hand_button(table, given)]  # still picked up after the refused move
    tap(table, table.give_back_button)
    assert game.history[3] == Back(hatskit.games.hats.parse_card(given))
    assert str(passed) in hand(table) and given not in hand(table) and reader_turn(game)


# ------------------------------------------------------------------ hidden information


def unseen_cards(game: Game, seat: int) -> set[str]:
    """Cards ``seat`` may not know: every card of the game minus those its view shows."""
    state = game.state
    places = [state.table, state.deck, state.discard, *state.hands, *state.collections, *state.black_hats]
    everything = {str(card) for place in places for card in place}
    if state.pending is not None:
        everything.add(str(state.pending.card))
    view = game.view(seat)
    known = [view["table"], view["hand"], view["my_black_hats"], *view["collections"], view["favorites"] or []]
    return everything - {card for cards in known for card in cards} - {view.get("swap_card")}


@pytest.mark.parametrize(
    ("players", "seats"),
    [(3, ("reader", "random", "greedy")), (4, ("reader", "greedy", "random", "greedy"))],
)
def test_no_hidden_card_ever_reaches_a_widget(players: int, seats: tuple[str, ...]) -> None:
    table = new_table(players, seats, seed=11)
    game = table.game
    discarding = True
    for _ in range(40):  # 8 main actions, 8 optional ones and a few swaps to answer
        if game.is_over:
            break
        others_hidden = {str(c) for s in range(1, players) for c in game.state.hands[s] + game.state.black_hats[s]}
        forbidden = unseen_cards(game, 0)
        assert others_hidden <= forbidden
        leaks = {card for text in shown_strings(table) for card in forbidden if card in text}
        assert not leaks, f"hidden cards shown at ply {game.ply}: {leaks}"
        if discarding and game.why_illegal(f"{table.optional_button.description} {hand(table)[0]}") is None:
            select_once(table, hand(table)[0])
            tap(table, table.optional_button)
        else:
            play_first_option(table)
        discarding = not discarding
    assert game.is_over
    assert not {card for text in shown_strings(table) for card in unseen_cards(game, 0) if card in text}


# ------------------------------------------------------------------ the set-up row


def visible(widget: widgets.Widget) -> bool:
    return is_shown(widget)


def test_the_set_up_row_shows_the_deal_players_seats_and_options() -> None:
    table = new_table(seats=("reader", "greedy", "strong"))
    setup = table.setup
    assert setup.seed_box.value == "7" and setup.players_box.value == 3 and visible(setup.players_box)
    seats = [(box.description, box.value) for box in setup.seat_boxes if visible(box)]
    assert seats == [("Ana", "reader"), ("Ben", "greedy"), ("Cleo", "strong")]
    assert list(setup.option_boxes) == ["removed"] and setup.option_boxes["removed"].value == ("✿", "⎈")
    assert "put back in the box when two play" in setup.option_boxes["removed"].tooltip
    assert not visible(setup.option_boxes["removed"]), "three players use every type: nothing to leave out (H1)"
    assert all(box.tooltip for box in [setup.new_game_button, setup.seed_box, setup.players_box, *setup.seat_boxes])


def test_the_set_up_is_folded_under_new_game_stays_open_when_refused_and_folds_once_a_game_starts() -> None:
    table = new_table()
    setup = table.setup
    assert (setup.summary, setup.open, setup.primary) == ("New game…", False, False)
    press(table, setup, value=True)  # the reader opens it
    setup.seed_box.value = "forty"
    setup.new_game_button.click()
    assert setup.open and "No new game: the deal number must be a whole number" in text(table.message)
    setup.seed_box.value = "4711"
    setup.new_game_button.click()
    assert not setup.open and table.game.head["seed"] == 4711


def test_a_typed_deal_number_deals_that_deal_on_every_screen() -> None:
    tables = [new_table(seed=seed) for seed in (1, 2)]
    for table in tables:
        table.setup.seed_box.value = "4711"
        table.setup.new_game_button.click()
    same = hatskit.new_game("hats", players=3, seed=4711)
    assert all(table.game.head["seed"] == 4711 and hand(table) == sorted_hand(same) for table in tables)
    assert tea_table(tables[0]) == tea_table(tables[1]) == same.view(0)["table"]


def test_same_cards_again_deals_this_games_deal_and_deal_number_opens_the_box_of_its_number() -> None:
    table = new_table(seed=7)
    setup = table.setup
    assert setup.deal_box.value == "fresh" and visible(setup.deal_box) and not visible(setup.seed_box)
    assert "(deal 7)" in setup.deal_box.notes[1], "the number of the deal on the table, to pass on"
    press(table, setup.deal_box, value=2)
    assert visible(setup.seed_box) and setup.seed_box.value == "7"
    press(table, setup.deal_box, value=1)
    assert not visible(setup.seed_box)
    play_first_option(table)
    setup.new_game_button.click()
    assert table.game.head["seed"] == 7 and table.game.ply == 0 and setup.deal_box.value == "fresh"


def sorted_hand(game: Game) -> list[str]:
    return sorted(game.view(0)["hand"], key=lambda card: ("★♠♥♣♦✿⎈".index(card[0]), int(card[1:])))


def test_new_game_without_a_typed_number_deals_a_fresh_deal_and_shows_its_number() -> None:
    table = new_table()
    play_first_option(table)
    table.setup.new_game_button.click()
    seed = table.game.head["seed"]
    assert seed != 7 and table.setup.seed_box.value == str(seed) and table.game.ply == 0
    assert table.shown_ply == 0 and "Ana (you) to move" in text(table.status)


def test_four_players_as_two_teams_with_a_second_reader_as_partner() -> None:
    table = new_table()
    frame_rows = table.children
    setup = table.setup
    setup.players_box.value = 4
    assert [box.description for box in setup.seat_boxes if visible(box)] == ["Ana", "Ben", "Cleo", "Dev"]
    setup.seat_boxes[2].value = "reader"
    setup.new_game_button.click()
    game = table.game
    assert len(game.seat_names) == 4 and table.seats == ("reader", "greedy", "reader", "greedy")
    assert table.children == frame_rows  # only the table area was built again
    assert len(table.seat_rows) == 4 and table.optional_button.description == "swap"
    assert "Ana + Cleo against Ben + Dev" in text(table.table_info)
    table.guard.show_button.click()  # two readers pass the laptop: Ana shows her hand first
    play_first_option(table)  # Ana, then Ben (a bot), then Cleo decides at this screen
    assert "Pass to Cleo" in table.guard.screen_text.value and not hand(table)
    table.guard.show_button.click()
    assert game.to_move == 2 and table.viewer == 2 and "Cleo (a reader) to move" in text(table.status)
    assert "Cleo's hand" in text(table.hand_label) and sorted(hand(table)) == sorted(game.view(2)["hand"])


def test_two_players_with_other_types_left_out_pressed_as_pills() -> None:
    table = new_table()
    table.setup.players_box.value = 2
    removed = table.setup.option_boxes["removed"]
    assert visible(removed) and removed.pairs[2] == ("♥ heart", "♥")
    press(table, removed, value=2)  # ♥: a third type pressed lets go of the first pressed, ✿
    press(table, removed, value=1)  # ♠ lets go of ⎈
    assert removed.value == ("♥", "♠")
    table.setup.new_game_button.click()
    game = table.game
    assert len(game.seat_names) == 2 and game.head["options"]["removed"] == ["♥", "♠"]
    assert len(table.position_buttons) == 5 and len(table.seat_rows) == 2
    shown = tea_table(table) + hand(table)
    assert not any(card[0] in "♥♠" for card in shown) and any(card[0] == "✿" for card in shown + ["✿"])


def test_a_choice_the_game_refuses_is_explained_and_changes_nothing() -> None:
    table = new_table()
    game = table.game
    press(table, table.setup.option_boxes["removed"], value=5)  # ✿ let go: one type left out, not two
    table.setup.new_game_button.click()
    assert "No new game: option 'removed' must name two different types" in text(table.message)
    assert table.game is game and "hk-error" in table.message._dom_classes
    press(table, table.setup.option_boxes["removed"], value=5)
    for seed in ("seven", "²", "9" * 5000):  # "²".isdigit() is true, and int() refuses it and 5,000 digits
        table.setup.seed_box.value = seed
        table.setup.new_game_button.click()
        assert "the deal number must be a whole number" in text(table.message) and table.game is game
    table.setup.seed_box.value = ""
    for box in table.setup.seat_boxes[:3]:
        box.value = "greedy"
    table.setup.new_game_button.click()
    assert "at least one seat must be 'reader'" in text(table.message) and table.game is game


# ------------------------------------------------------------------ what just happened, refusals, the end


def test_the_cards_the_last_moves_changed_are_marked_bots_moves_too() -> None:
    table = new_table()
    before = table.game.view(0)
    play_first_option(table)
    after = table.game.view(0)
    changed = {p for p, (a, b) in enumerate(zip(before["table"], after["table"], strict=True), start=1) if a != b}
    assert changed and marked(table.position_buttons, "hk-changed") == changed
    assert all("put here in the last 3 moves" in table.position_buttons[p - 1].tooltip for p in changed)
    for seat in (1, 2):  # the bots' collected cards are marked in their seat rows
        new = set(after["collections"][seat]) - set(before["collections"][seat])
        assert all(f'title="{card}, new in the last moves"' in table.seat_rows[seat].value for card in new)
    table.first_button.click()
    assert not marked(table.position_buttons, "hk-changed")


POSITION = {
    "game": "hats",
    "players": 3,
    "to_move": 0,
    "played": [0, 0, 0],
    "table": ["♣3", "♠4", "♥6", "★4", "★5", "✿5"],
    "hands": [
        ["♠1", "♣6", "⎈3", "✿3", "♥2", "★2", "★3", "✿2", "♦5"],
        ["♦6", "♠2", "♦3", "♥5", "♦4", "✿1", "♣1", "✿4", "⎈4"],
        ["♣4", "♥1", "⎈1", "♣2", "★1", "♠3", "♦1", "⎈2", "✿6"],
    ],
    "collections": [[], [], []],
    "black_hats": [[], [], []],
    "cookie": None,
}


def test_a_card_that_fits_no_position_lights_only_its_actions_and_a_position_says_why() -> None:
    table = HatsTable(hatskit.load(POSITION), BOTS, bot_delay=0)
    tap(table, table.position_buttons[0])
    assert "hk-error" in table.message._dom_classes
    select(table, "⎈3")  # no ⎈ on the table, and every card there is 3 or more
    assert picked(table) == [hand_button(table, "⎈3")] and not lit_positions(table)
    assert set(lit(table)) == {table.black_hat_button, table.optional_button}, "it may still be a black hat"
    tap(table, table.position_buttons[0])
    assert said(table.message) == without_rules(table.game.why_illegal("⎈3@1"))[0] + "."
    assert said(table.message).startswith("⎈3 cannot take ♣3 at position 1: only a ♣ or a number higher than 3")
    assert "rule H2" in why(table.message) and picked(table) == [hand_button(table, "⎈3")]
    select(table, "♣6")  # another card picked at once: its positions light
    assert picked(table) == [hand_button(table, "♣6")] and lit_positions(table)


def test_a_card_pressed_when_it_begins_no_move_says_why() -> None:
    table, _ = clocked_table()
    play_first_option(table)  # Ben thinks
    before = snapshot(table)
    tap(table, table.hand_buttons[0])
    assert said(table.message) == "It is not your turn: Ben (greedy bot) is to move."
    assert "hk-error" in table.message._dom_classes and not picked(table) and snapshot(table) == before
    lesson = HatsTable.with_lessons(LESSONS, bot_delay=0)  # its first step asks for "discard ★1", and only that
    assert [row["move"] for row in lesson.moves_part.offered] == ["discard ★1"]
    card = next(card for card in hand(lesson) if card != "★1")
    tap(lesson, hand_button(lesson, card))
    assert said(lesson.message).startswith("That move is allowed, but it is not what this step asks for.")
    assert not picked(lesson) and lesson.game.ply == 0
    select(lesson, "★1")
    assert set(lit(lesson)) == {lesson.optional_button}, "the step's move, and no other"


def test_after_the_end_the_cards_are_off_and_the_seats_show_their_final_collections() -> None:
    table = new_table()
    while not table.game.is_over:
        play_first_option(table)
    view = table.game.view(0)
    buttons = [*table.position_buttons, *table.hand_buttons, table.black_hat_button, table.optional_button]
    assert all(button.disabled for button in buttons) and table.hint_button.disabled
    assert not table.undo_button.disabled and not table.setup.new_game_button.disabled
    assert table.setup.primary, "New game… stands out as the next thing to press"
    for seat, row in enumerate(table.seat_rows):
        assert "final collection (" in text(row) and "hidden card" not in row.value
        assert all(f'title="{card}' in row.value for card in view["collections"][seat])
        assert f'title="{view["favorites"][seat]}"' in row.value


def test_events_name_their_rules_behind_one_why() -> None:
    table = new_table()
    play_first_option(table)
    assert table.message.value.count("<details") == 1 and not RULE_ID.search(said(table.message))
    assert "rule H2: Exchange" in why(table.message) or "rule H3: Black hat" in why(table.message)


# ------------------------------------------------------------------ the score panel and hints


def test_the_score_panel_leads_with_totals_and_folds_each_players_lines() -> None:
    table = new_table()
    while not table.game.is_over:
        play_first_option(table)
    panel = table.score_panel.value
    outcome, sheet = table.game.outcome(), table.game.score()
    assert outcome is not None and panel.index(html.escape(without_rules(outcome.reason)[0])) < panel.index("<details>")
    assert panel.count("<details>") == 3
    lead = re.sub(r"<details>.*?</summary>.*?</details>", "", panel)
    assert "<tr" not in lead  # no line outside the folds
    for name, total in zip(sheet.seat_names, sheet.totals, strict=True):
        assert f'<summary class="hk-total">{name}: {total} ' in panel
    for line in sheet.lines:
        assert html.escape(line.explanation) in panel


class ExplainingBot:
    """A stand-in strong bot whose hint carries numbers with markup in them."""

    name = "explaining"

    def choose(self, seat_view: Any) -> Any:
        return seat_view.legal_moves()[0]

    def hint(self, seat_view: Any) -> Hint:
        return Hint(seat_view.legal_moves()[0], "this keeps <your> best card", "value 3 < 5 & <b>wins</b>")


def test_a_hint_shows_its_reason_with_the_numbers_folded_behind_why() -> None:
    table = new_table()
    table.hint_bot = ExplainingBot()
    table.hint_button.click()
    message = table.message.value
    move = table.game.legal_moves()[0]
    words = what_to_do(table.game.view(0), move)
    assert message.startswith(html.escape(f"Hint: {words}. This keeps <your> best card."))
    assert "<summary>why?</summary><ul><li>value 3 &lt; 5 &amp; &lt;b&gt;wins&lt;/b&gt;</li></ul></details>" in message


# ♦2, ♦3 and ♦4 can each take only ♦6, at position 1: the strong bot hints a discard (as in test_bots.py).
DISCARD_HINT = {
    "game": "hats",
    "players": 2,
    "to_move": 0,
    "played": [4, 4],
    "seed": 3,
    "table": ["♦6", "♠6", "♥4", "♥3", "★3"],
    "hands": [["♣5", "♦3", "♦2", "♦4", "★1"], ["♣3", "♣1", "♥2", "♥6", "♣6"]],
    "collections": [["★5", "♥1", "★4", "♠1"], ["♠2", "♥5", "★2"]],
    "black_hats": [[], ["♠4"]],
    "cookie": 1,
}


def test_a_hint_is_one_sentence_on_what_to_do_and_one_on_why() -> None:
    table = HatsTable(hatskit.load(DISCARD_HINT), ("reader", "greedy"), bot_delay=0)
    table.hint_bot = HatsBot(2)
    table.hint_button.click()
    hint = said(table.message)
    sentences = re.fullmatch(r"Hint: ([^.]+)\. ([^.]+)\.", hint)
    assert sentences, f"two sentences, what to do and why: {hint!r}"
    what, because = sentences.groups()
    card = str(table.game.parse(table.hint_move).card)
    assert what == f"discard {card} and draw a new card from the deck, before your main action"
    assert because == f"{card} can only take the card at position 1"
    assert "a discard is worth it" in why(table.message) and not RULE_ID.search(hint)


def test_a_bots_turn_is_one_short_line_a_move_with_the_detail_behind_why() -> None:
    table = new_table()
    table.try_move(str(table.reader_moves()[0]))
    shown = html.unescape(table.message.value.split("<details", 1)[0]).split("<br>")
    assert len(shown) == len(table.recent_plies()) == 3, "Ana's move and the two bots' answers, a line each"
    assert shown[2] == "Cleo exchanged ♣4 for ✿1 at position 6 and takes the last cookie"
    for event in (event for ply in table.recent_plies() for event in table.game.events[ply]):
        assert without_rules(event.text)[0] in why(table.message), "the whole sentence, for the curious"
    assert not RULE_ID.search(said(table.message)) and ":" not in said(table.message)
    assert "rule H2: Exchange" in why(table.message) and "rule H10: Last cookie" in why(table.message)


# ------------------------------------------------------------------ playing inside a replay


def test_a_move_inside_a_replay_keeps_the_original_game_reachable() -> None:
    recorded = hatskit.new_game("hats", players=3, seed=3)
    bot = hatskit.bots.make_bot("hats", "greedy", seed=1)
    while not recorded.is_over:
        recorded.play(bot.choose(recorded.seat_view(recorded.to_move)))
    original = [str(move) for move in recorded.history]
    table = HatsTable(hatskit.load(recorded.record()), BOTS, bot_delay=0)
    table.slider.value = 3
    assert "the game as it was is kept" in text(table.status) and not visible(table.line_button)
    card = next(c for c in hand(table) if f"black {c}" != original[3])
    select(table, card)
    tap(table, table.black_hat_button)
    game = table.game
    branch = [str(move) for move in game.history]
    assert branch[:3] == original[:3] and branch[3] == f"black {card}" and game.ply == 6
    assert visible(table.line_button) and table.line_button.description == "back to the original game"
    table.line_button.click()
    assert [str(move) for move in game.history] == original and table.shown_ply == 3
    assert "Back on the original game" in text(table.message)
    assert table.line_button.description == "back to your moves"
    table.line_button.click()
    assert [str(move) for move in game.history] == branch and table.shown_ply == 3


def test_a_move_reaches_the_page_as_one_message_with_the_cards_it_changed() -> None:
    """The table is one widget model (widgets/toolkit/ui.py): a move, the bots' answers included, is one update."""
    table = new_table(seats=("reader", "greedy", "greedy"), clock=ManualClock())
    exchange = next(move for move in table.reader_moves() if isinstance(move, Exchange))
    select(table, str(exchange.card))  # a pick: the page holds it, the kernel hears nothing
    table.flush()
    before = table.position_buttons[exchange.position - 1].node()
    sent: list[dict[str, Any]] = []
    table.channel.observe(lambda change: sent.append(change["new"]), names="tree")
    press(table, table.moves_part, move=str(exchange))  # the position pressed: the page sends the move it completes
    assert len(sent) == 1 and table.game.ply == 1
    assert table.position_buttons[exchange.position - 1].node()["text"] != before["text"]


# ------------------------------------------------------------------ seats around the table


def inside(box: Any) -> list[Any]:
    """Every part inside a seat's box (the box itself first)."""
    return list(box.parts())


def test_each_seat_panel_names_its_player_and_its_kind_and_marks_the_seat_to_move() -> None:
    table = new_table(seats=("reader", "greedy", "strong"))
    panels = [text(line) for line in table.seat_rows]
    assert panels[0].startswith("Ana you ▶ to move") and "▶ to move" not in panels[1] + panels[2]
    assert panels[1].startswith("Ben greedy bot") and panels[2].startswith("Cleo strong bot")
    assert [f"hk-seat-{seat}" in box._dom_classes for seat, box in enumerate(table.ring.boxes)] == [True] * 3
    assert [("hk-tomove" in box._dom_classes) for box in table.ring.boxes] == [True, False, False]
    assert 'class="hk-badge hk-you">you<' in table.seat_rows[0].value
    assert (
        f"hand ({table.game.view(0)['hand_sizes'][1]})" in panels[1]
        and "collection (" in panels[1]
        and "black hats (0)" in panels[1]
    )


def test_the_others_sit_across_the_top_and_the_reader_at_the_bottom_with_the_hand_buttons() -> None:
    table = new_table()
    boxes = table.ring.boxes
    assert table.ring.top.children == (boxes[1], boxes[2]) and table.ring.bottom.children == (boxes[0],)
    assert all(button in inside(boxes[0]) for button in [*table.hand_buttons, table.black_hat_button])
    assert not any(button in inside(box) for box in boxes[1:] for button in table.hand_buttons)
    backs = table.seat_rows[1].value.count('title="hidden card"')
    assert backs == table.game.view(0)["hand_sizes"][1] > 0, "Ben's hand: card backs, as many as he holds"


def test_readers_at_one_screen_move_the_seat_to_move_to_the_bottom_with_their_hand() -> None:
    table = new_table(players=4, seats=("reader", "greedy", "reader", "greedy"))
    table.guard.show_button.click()
    play_first_option(table)  # Ana, then Ben (a bot); Cleo decides at this screen
    table.guard.show_button.click()
    boxes = table.ring.boxes
    assert table.viewer == 2 and table.ring.bottom.children == (boxes[2],)
    assert table.ring.top.children == (boxes[3], boxes[0], boxes[1]), "the others in turn order after Cleo"
    assert all(button in inside(boxes[2]) for button in table.hand_buttons)
    assert text(table.seat_rows[2]).startswith("Cleo a reader ▶ to move") and "hk-tomove" in boxes[2]._dom_classes
    ana = table.seat_rows[0].value
    assert ana.count('title="hidden card"') == table.game.view(2)["hand_sizes"][0] > 0
    assert not any(f'title="{card}"' in ana for card in table.game.view(0)["hand"]), "Ana's hand stays hidden"
