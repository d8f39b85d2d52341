"""HatsOffTable driven as a reader would: answers from the race pad, the step-mode row, a clock moved by the test.

The pad's browser side is replaced by what it sends: ``table.pad._received`` gets
the message the ES module would send (an action, the turn it answers, the
reaction time measured in the browser). The scheduler runs on a ManualClock,
so the tests move time themselves and never sleep.
"""

from __future__ import annotations

import html
import re
from typing import Any

import ipywidgets as widgets
import pytest

import hatskit
from hatskit.core import Event
from hatskit.drawing import without_rules
from tests.helpers import RULE_ID, FixedBot, position, press, said, why, widget_states, with_deck
from widgets.games.hats_off import MOVED, OTHER_TIME, SPACE_BAR, HatsOffTable, answer_move, describe, prompt
from widgets.games.race import Answer, read_answer
from widgets.table.scheduler import ManualClock
from widgets.toolkit import ui
from widgets.toolkit.parts import is_shown

HEAD_SECONDS = 2.5


def race_table(bot_seconds: float, **changes: Any) -> tuple[HatsOffTable, ManualClock]:
    """Ana (the reader) against a bot that plays a match after ``bot_seconds``; Ana flips a fez next."""
    clock = ManualClock()
    game = hatskit.load(position(["beanie", "chef", "fez"], **changes))
    table = HatsOffTable(game, seats=("reader", "greedy"), bots={1: FixedBot(bot_seconds)}, clock=clock)
    return table, clock


def send(table: HatsOffTable, action: str, seconds: float = 0.0, turn: int | None = None) -> None:
    """What the pad's ES module sends: an action for the turn on screen, timed in the browser."""
    message = {"answer": action, "turn": table.pad.turn if turn is None else turn, "seconds": seconds}
    table.pad._received(table.pad, message, [])


def text(line: widgets.HTML) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", line.value))


# ------------------------------------------------------------------ race mode: fair on reaction times


def test_a_reader_answering_in_0_2_s_beats_a_bot_reacting_in_0_4_s() -> None:
    table, clock = race_table(0.4)
    send(table, "flip")
    assert table.pad.top == "fez" and table.pad.can_act
    clock.advance(30)  # however long the answer takes to arrive, the bot waits for it
    assert table.game.view(None)["submitted"] == [] and table.game.ply == 1
    send(table, "fez", 0.2)
    clock.advance(0)
    said = text(table.message)
    assert "Ana plays a fez from the hand at 0.2 s: a match!" in said
    assert "Ben's play at 0.4 s is too late" in said
    assert table.game.view(0)["won_counts"] == [2, 0]
    assert table.pad.result == "You won 2 cards. You played a fez from the hand at 0.2 s: a match!"


def test_the_same_answer_loses_to_a_bot_reacting_in_0_1_s() -> None:
    table, clock = race_table(0.1)
    send(table, "flip")
    clock.advance(30)
    send(table, "fez", 0.2)
    clock.advance(0)
    said = text(table.message)
    assert "Ben plays a fez from the hand at 0.1 s: a match!" in said
    assert "Ana's play at 0.2 s is too late: the pile is won (Ben was first)" in said
    assert table.pad.result.startswith("Ben won 2 cards. Your play at 0.2 s is too late")
    assert table.pad.result.endswith("(Ben was 0.10 s faster)"), "why the race went as it did, on the pad"
    assert "won (2)" in seats_text(table).split("Ben")[1]


def test_the_pad_says_when_the_readers_card_was_not_a_match() -> None:
    table, clock = race_table(0.4)
    send(table, "flip")
    send(table, "top", 0.2)
    clock.advance(0)
    assert "You played a top hat from the hand at 0.2 s, but the top card is a fez" in table.pad.result


def test_equal_reaction_times_go_to_the_lower_seat() -> None:
    table, clock = race_table(0.25)
    send(table, "flip")
    send(table, "fez", 0.25)
    clock.advance(0)
    assert "Ben's play at 0.25 s is too late: the pile is won (equal times go to the lower seat, Ana)" in text(
        table.message
    )


def test_the_pad_shows_the_readers_cards_and_the_move_goes_in_with_the_browser_time() -> None:
    table, _ = race_table(0.4)
    assert (table.pad.phase, table.pad.can_act, table.pad.top) == ("flip", True, None)
    assert (table.pad.prompt, table.pad.keys) == ("Your turn to flip the next card.", "Press\u00a0F.")
    send(table, "flip")
    pad = table.pad
    assert (pad.phase, pad.top, pad.hand, pad.has_head, pad.head) == (
        "race",
        "fez",
        ["beret", "fez", "top"],
        True,
        None,
    )
    assert "Match the fez" in pad.prompt and not pad.can_call
    send(table, "fez", 0.3456)
    assert str(table.game.history[1]) == "Ana:fez@0.346"


def test_a_timed_out_pad_passes_and_then_the_bots_play() -> None:
    table, clock = race_table(0.4, hands=[["top", "beret", "party"], ["fez", "chef", "party"]])
    send(table, "flip")
    send(table, "pass", 4.0)
    clock.advance(0)
    assert "Ben plays a fez from the hand at 0.4 s: a match!" in text(table.message)


def test_the_bots_play_after_a_pause_in_a_race_the_reader_sits_out() -> None:
    clock = ManualClock()
    data = position(["beanie", "chef", "fez"], hands=[[], ["fez", "chef", "party"]], heads=[None, "cowboy"])
    table = HatsOffTable(hatskit.load(data), seats=("reader", "greedy"), bots={1: FixedBot(0.4)}, clock=clock)
    send(table, "flip")  # Ana has no card left, but she still flips (O2)
    assert table.pad.top == "fez" and not table.pad.can_act
    assert "nothing to play" in table.pad.prompt
    clock.advance(table.bot_delay - 0.01)
    assert table.game.ply == 1
    clock.advance(0.01)
    assert "Ben plays a fez from the hand at 0.4 s" in text(table.message)


def test_stale_malformed_and_repeated_answers_change_nothing() -> None:
    table, _ = race_table(0.4)
    send(table, "flip")
    turn = table.pad.turn
    for message in (
        {"answer": "fez", "turn": turn - 1, "seconds": 0.1},  # for the decision before
        {"answer": "chef", "turn": turn, "seconds": 0.1},  # not in the reader's hand
        {"answer": "fez", "turn": turn, "seconds": "soon"},
        {"answer": "fez", "turn": turn, "seconds": float("nan")},
        {"answer": "fez", "turn": turn, "seconds": True},
        "fez",
    ):
        table.pad._received(table.pad, message, [])
    assert table.game.ply == 1
    assert read_answer({"answer": "fez", "turn": turn, "seconds": -3}, turn, ["fez"]) == Answer("fez", 0.0)
    send(table, "fez", 0.2)
    ply = table.game.ply
    table.answered(Answer("top", 0.1))  # a second copy of the pad answering the same decision
    assert table.game.ply == ply


def test_the_head_card_shows_for_a_moment_then_hides() -> None:
    clock = ManualClock()
    table = HatsOffTable(hatskit.new_game("hats-off", players=2, seed=3), seats=("reader", "greedy"), clock=clock)
    worn = table.pad.hand[1]
    send(table, f"wear {worn}")
    assert table.pad.head == worn
    clock.advance(HEAD_SECONDS - 0.01)
    assert table.pad.head == worn
    clock.advance(0.01)
    assert table.pad.head is None and table.game.view(0)["head"] == worn  # still looking, no longer shown


def test_the_memory_aid_keeps_the_head_card_in_view() -> None:
    clock = ManualClock()
    game = hatskit.new_game("hats-off", players=2, seed=3, memory_aid=True)
    table = HatsOffTable(game, seats=("reader", "greedy"), clock=clock)
    worn = table.pad.hand[0]
    send(table, f"wear {worn}")
    clock.advance(60)
    send(table, "flip")
    assert table.pad.head == worn


def test_a_new_head_card_from_a_refill_shows_for_a_moment_too() -> None:
    table, clock = race_table(0.4)
    send(table, "flip")
    send(table, "fez", 0.2)
    clock.advance(0)
    assert table.pad.head is None  # the head card did not change: won with a hand card
    table2, clock2 = race_table(0.4, hands=[["top", "beret", "party"], ["chef", "chef", "party"]], heads=["fez", "top"])
    send(table2, "flip")
    send(table2, "head", 0.3)
    clock2.advance(0)
    new_head = table2.game.state.heads[0]
    assert "Ana plays a fez from the head at 0.3 s: a match!" in text(table2.message)
    assert table2.pad.head == new_head
    clock2.advance(HEAD_SECONDS)
    assert table2.pad.head is None


def test_the_readers_next_move_leaves_a_new_head_card_its_whole_moment() -> None:
    """O1's moment is 2.5 s from the change, however soon the reader moves next (it hid at the next move)."""
    table, clock = race_table(0.4, hands=[["top", "beret", "party"], ["chef", "chef", "party"]], heads=["fez", "top"])
    send(table, "flip")
    send(table, "head", 0.3)
    clock.advance(0)
    new_head = table.game.state.heads[0]
    clock.advance(0.5)
    assert table.pad.can_act, "the reader has a move to make while the new head card shows"
    ply = table.game.ply
    send(table, (table.pad.phase == "flip" and "flip") or "pass")
    assert table.game.ply > ply
    assert table.pad.head == new_head, "still within its moment"
    clock.advance(HEAD_SECONDS - 0.5)
    assert table.pad.head is None


def test_undo_hint_and_step_through_are_off_in_race_mode_and_on_in_step_mode() -> None:
    race, _ = race_table(0.4)
    step = HatsOffTable(hatskit.load(position(["fez"])), mode="step")
    steps = ("first_button", "back_button", "forward_button", "last_button", "slider", "undo_button", "hint_button")
    assert all(not is_shown(getattr(race, name)) for name in steps)
    assert all(is_shown(getattr(step, name)) for name in steps)


def test_race_mode_seats_one_reader_and_says_no_to_a_new_game_with_two() -> None:
    game = hatskit.new_game("hats-off", players=2, seed=1)
    with pytest.raises(ValueError, match="one reader"):
        HatsOffTable(game, seats=("reader", "reader"))
    with pytest.raises(ValueError, match="mode"):
        HatsOffTable(game, mode="slow motion")
    with pytest.raises(ValueError, match="young child"):
        HatsOffTable(game, level="toddler")
    table = HatsOffTable(game, seats=("reader", "greedy"), clock=ManualClock())
    table.start(hatskit.new_game("hats-off", players=2, seed=2), ("reader", "reader"))
    assert table.game is game and "No new game: a race has one reader" in text(table.message)


def test_a_level_seats_bots_that_react_like_it_and_the_reader_may_change_it() -> None:
    table = HatsOffTable(hatskit.new_game("hats-off", players=3, seed=1), level="young child", clock=ManualClock())
    assert table.seat_label(1) == "Ben (young child bot)" and table.seat_label(0) == "Ana (you)"
    assert "Ben young child bot" in seats_text(table) and table.level_box.value == "young child"
    table.level_box.value = "quick adult"
    assert "Cleo quick adult bot" in seats_text(table)
    table.level_box.value = None
    assert "Cleo adult bot" in seats_text(table)  # a greedy seat reacts like an adult


def test_the_level_is_a_row_of_short_pills_with_who_reacts_so_under_them() -> None:
    """Issue 29: "child (a child of about 8-9)" made a wide drop-down list; a pill says "child", its note the rest."""
    table = HatsOffTable(hatskit.new_game("hats-off", players=3, seed=1), clock=ManualClock())
    node = table.level_box.node()
    assert node["t"] == "choices" and node["labels"][2] == "child" and node["notes"][2] == "like a child of about 8-9"
    assert max(len(label) for label in node["labels"]) <= len("as each seat says")
    press(table, table.level_box, value=2)  # the page's press on the "child" pill
    assert table.level_box.value == "child" and "Ben child bot" in seats_text(table)


def test_the_set_up_row_names_the_bots_as_the_table_does_when_a_level_is_chosen() -> None:
    """Issue 25: with "bots react like: child" the seats said "child bot" and the set-up row "adult bot"."""
    table = HatsOffTable(hatskit.new_game("hats-off", players=3, seed=1), clock=ManualClock())
    ben = table.setup.seat_boxes[1]
    table.level_box.value = "child"
    assert ben.pairs == [("a reader (you)", "reader"), ("child bot", "greedy")] and ben.value == "greedy"
    assert "Ben child bot" in seats_text(table)
    press(table, ben, value=0)  # the reader takes Ben's seat for the next game: still a choice of the two
    assert ben.value == "reader" and [label for label, _ in ben.pairs] == ["a reader (you)", "child bot"]
    table.level_box.value = None
    assert [label for label, _ in ben.pairs] == ["a reader (you)", "random bot", "adult bot", "quick adult bot"]


def test_a_whole_race_game_by_answers_ends_with_the_score() -> None:
    clock = ManualClock()
    table = HatsOffTable(hatskit.new_game("hats-off", players=3, seed=11), clock=clock)
    for _ in range(400):
        if table.game.is_over:
            break
        pad = table.pad
        if pad.can_act and pad.phase == "wear":
            send(table, f"wear {pad.hand[0]}")
        elif pad.can_act and pad.phase == "flip":
            send(table, "flip")
        elif pad.can_act:
            send(table, pad.top if pad.top in pad.hand else "off" if pad.can_call else "pass", 0.55)
        clock.advance(2)
    assert table.game.is_over and table.pad.phase == "over"
    assert table.pad.prompt == without_rules(str(table.game.outcome()))[0]  # "Ben wins with 19 cards"
    assert not RULE_ID.search(table.pad.prompt), "the ids stay in the why"
    counts = table.game.view(0)["won_counts"]
    assert f"won ({counts[1]})" in seats_text(table).split("Ben")[1]


# ------------------------------------------------------------------ hidden cards never reach a widget


def twin_tables(first: dict[str, Any], second: dict[str, Any]) -> list[tuple[HatsOffTable, ManualClock]]:
    tables = []
    for data in (first, second):
        clock = ManualClock()
        tables.append((HatsOffTable(hatskit.load(data), seats=("reader", "greedy", "greedy"), clock=clock), clock))
    return tables


def three(deck_top: list[str], hands: list[list[str]], heads: list[str | None]) -> dict[str, Any]:
    """Three players before Ana's flip, every card placed, ``deck_top`` on top of the deck."""
    data = {"game": "hats-off", "players": 3, "phase": "flip", "flipper": 0, "flips": 0, "hands": hands, "heads": heads}
    return with_deck(data, deck_top)


def test_no_widget_state_depends_on_the_bots_cards_or_their_sealed_moves() -> None:
    """Two games that differ only in what Ana cannot see give the same widget states, even mid-race."""
    mine = ["fez", "top", "beret"]
    first = three(
        ["chef", "fez"], [mine, ["fez", "party", "cowboy"], ["beanie", "beanie", "chef"]], ["top", "party", "fez"]
    )
    second = three(
        ["chef", "fez"], [mine, ["bowler", "beanie", "party"], ["fez", "cowboy", "top"]], ["top", "chef", "top"]
    )
    (one, clock_one), (two, clock_two) = twin_tables(first, second)
    assert widget_states(one) == widget_states(two)
    for table, clock in ((one, clock_one), (two, clock_two)):
        send(table, "flip")
        clock.advance(30)  # the bots hold back their plays until Ana has answered
    assert widget_states(one) == widget_states(two)


def test_the_readers_own_head_card_leaves_every_widget_once_its_moment_is_over() -> None:
    hands = [["top", "beret", "party"], ["fez", "party", "cowboy"], ["beanie", "chef", "top"]]
    looking = {"looking": [True, False, False], "head_changes": [1, 1, 1]}
    first = three(["chef", "fez"], hands, ["fez", "party", "fez"]) | looking
    second = three(["chef", "fez"], hands, ["beanie", "party", "fez"]) | looking
    (one, clock_one), (two, clock_two) = twin_tables(first, second)
    assert (one.pad.head, two.pad.head) == ("fez", "beanie")
    assert widget_states(one) != widget_states(two)  # the check can see a head card
    clock_one.advance(HEAD_SECONDS)
    clock_two.advance(HEAD_SECONDS)
    assert widget_states(one) == widget_states(two)


# ------------------------------------------------------------------ step mode: the reader decides who does what


def step_table() -> HatsOffTable:
    return HatsOffTable(hatskit.load(position(["beanie", "chef", "fez"])), mode="step", bot_delay=0)


def choose(table: HatsOffTable, seat: int, move: str, seconds: float = 0.5) -> None:
    table.seat_box.value = seat
    table.move_box.value = move
    table.show_seconds(seconds)
    table.play_button.click()


def test_step_mode_lists_who_may_act_and_what_they_may_do_in_words() -> None:
    table = step_table()
    assert table.seat_box.options == (("Ana (you)", 0),)
    assert table.move_box.options == (("flip the next card", "Ana:flip"),)
    assert not is_shown(table.time_pills) and not is_shown(table.time_box)  # a flip is not timed
    choose(table, 0, "Ana:flip")
    assert is_shown(table.time_pills) and not is_shown(table.time_box), "a play's seconds: pills, the box folded"
    assert [seat for _, seat in table.seat_box.options] == [0, 1]
    table.seat_box.value = 1
    labels = [label for label, _ in table.move_box.options]
    assert labels == [
        "play the chef's hat from the hand",
        "play the fez from the hand",
        "play the party hat from the hand",
        "play the head card, face down",
        "pass",
    ]


def test_step_mode_seconds_are_pills_and_other_opens_a_box_for_any_time() -> None:
    table = step_table()
    choose(table, 0, "Ana:flip")
    table.seat_box.value, table.move_box.value = 1, "Ben:fez@0"
    assert [label for label, _ in table.time_pills.options] == ["0.3 s", "0.5 s", "1 s", "2 s", "other…"]
    table.time_pills.value = OTHER_TIME
    assert is_shown(table.time_box)
    table.time_box.value = 0.42
    table.play_button.click()
    assert table.game.history[-1] == table.game.parse("Ben:fez@0.42"), "the box's time, not a pill's"
    table.show_seconds(0.3)
    assert (table.time_pills.value, is_shown(table.time_box)) == (0.3, False), "a time with a pill takes the pill"


def test_a_step_mode_hint_is_for_the_player_under_who_in_words_and_picked_in_the_list() -> None:
    table = step_table()
    choose(table, 0, "Ana:flip")
    table.seat_box.value = 1
    table.hint_button.click()
    said = text(table.message)
    assert said.startswith("Hint: Ben: play the fez from the hand after 0.")
    assert "Ben:fez@" not in said, "words, not race notation"
    assert (table.seat_box.value, table.move_box.value) == (1, "Ben:fez@0")
    assert 0 < table.chosen_seconds < 4
    table.play_button.click()
    assert table.game.view(None)["submitted"] == [1], "play plays the hinted move"


def test_step_mode_settles_the_race_when_everyone_has_moved_and_tells_the_rule() -> None:
    table = step_table()
    choose(table, 0, "Ana:flip")
    choose(table, 1, "Ben:fez@0", 0.3)
    assert "has moved" in text(table.picture) and table.game.view(None)["phase"] == "race"
    choose(table, 0, "Ana:fez@0", 0.45)
    told = said(table.message)
    assert "Ben plays a fez from the hand at 0.3 s: a match! Ben wins the pile" in told
    assert "Ana's play at 0.45 s is too late: the pile is won (Ben was first)" in told
    assert not RULE_ID.search(told), "the rules are named behind why?, not after every line"
    assert "rule O3: Race" in why(table.message) and "rule O4: Refill" in why(table.message)


def test_step_mode_shows_each_readers_own_cards_and_takes_back_a_move() -> None:
    table = step_table()
    picture = html.unescape(table.picture.value)
    assert "Ana's fez" in picture and "Ben's chef's hat" in picture
    assert "Ana's head card, face down" in picture  # nobody is looking at their head card
    choose(table, 0, "Ana:flip")
    choose(table, 1, "Ben:pass")
    table.undo_button.click()
    assert table.game.ply == 1 and table.game.view(None)["submitted"] == []


def test_moves_from_answers_and_in_words() -> None:
    assert str(answer_move(1, Answer("head", 0.61))) == "Ben:head@0.61"
    assert str(answer_move(0, Answer("off", 0.5))) == "Ana:off@0.5"
    assert str(answer_move(2, Answer("wear fez", 1.0))) == "Cleo:wear fez"
    assert str(answer_move(0, Answer("pass", 4.0))) == "Ana:pass"
    assert describe(hatskit.load(position(["fez"])).parse("Ben:off@0.2")) == "call Hats Off!"


def test_a_game_object_of_another_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="Hats Off!"):
        HatsOffTable(hatskit.new_game("sombrero"))


def test_the_prompt_offers_the_call_only_for_a_card_the_reader_may_win_and_says_why_not() -> None:
    table, _ = race_table(0.4)
    send(table, "flip")
    view = table.game.view(0)
    own = view | {"loose": [{"kind": "top", "owner": 0, "fell": False}]}
    other = view | {"loose": [{"kind": "top", "owner": 1, "fell": False}]}
    assert "your own, so you cannot call" in prompt(own, True).text and SPACE_BAR not in prompt(own, True).keys
    assert "be first to call Hats Off!" in prompt(other, True).text
    assert prompt(other, True).keys == f"Keys: 1-3 your hand, H your head, P pass, {SPACE_BAR} Hats Off!"
    assert "call" not in prompt(view, True).text and SPACE_BAR not in prompt(view, True).keys
    assert not any(f"(O{number})" in prompt(view, True).text for number in range(1, 8)), "ids stay in the why"
    assert "Keys" not in prompt(view, True).text, "the keys go apart from the prompt: a phone has none"
    assert prompt(view, False).keys == "", "no keys for a reader who may do nothing now"


def test_the_set_up_row_names_the_bots_as_the_table_does() -> None:
    table = HatsOffTable(hatskit.new_game("hats-off", players=3, seed=3), seats=("reader", "greedy", "strong"))
    labels = [label for label, _ in table.setup.seat_boxes[1].options]
    assert labels == ["a reader (you)", "random bot", "adult bot", "quick adult bot"]
    assert [table.seat_label(seat) for seat in (1, 2)] == ["Ben (adult bot)", "Cleo (quick adult bot)"]


def test_the_set_up_rows_rule_options_are_pills_pressed_as_the_page_does() -> None:
    """Yes-or-no rules are off and on; the rounds in a match are the three a match may have (O7)."""
    table = HatsOffTable(hatskit.new_game("hats-off", players=3, seed=3), clock=ManualClock())
    boxes = table.setup.option_boxes
    assert all(isinstance(box, ui.Choices) for box in boxes.values())
    assert boxes["falling_hats"].pairs == [("off", False), ("on", True)] and boxes["falling_hats"].value is False
    assert boxes["best_of"].pairs == [("1", 1), ("3", 3), ("5", 5)] and boxes["best_of"].value == 1
    press(table, boxes["best_of"], value=2)  # the page's press on the "5" pill
    press(table, boxes["memory_aid"], value=1)
    with pytest.raises(ValueError):
        boxes["best_of"].read(3)  # a fourth pill of three: refused, nothing changes
    table.setup.new_game_button.click()
    assert table.game.head["options"] == {"falling_hats": False, "best_of": 5, "memory_aid": True}


def test_only_the_teachers_screen_offers_a_race_tables_hidden_cards() -> None:
    student = HatsOffTable.from_link(hatskit.new_game("hats-off", players=3, seed=3), query="")
    teacher = HatsOffTable.from_link(hatskit.new_game("hats-off", players=3, seed=3), query="teacher=yes")
    assert not is_shown(student.guard.reveal_box) and is_shown(teacher.guard.reveal_box)


def test_the_message_line_folds_the_seats_secret_moves_into_one_line() -> None:
    table, clock = race_table(0.4)
    send(table, "flip")
    send(table, "fez", 0.2)
    clock.advance(0)
    said = text(table.message)
    assert "Ana and Ben have moved (moves stay secret until everyone has moved)" in said
    assert "Ana has moved" not in said and "Ben has moved" not in said


def test_secret_moves_fold_race_by_race_when_the_message_spans_two_races() -> None:
    table, _ = race_table(0.4)
    moved = [Event(f"{name}{MOVED}", "O3") for name in ("Ana", "Ben", "Ben", "Ana")]
    settled, flip = Event("Everyone has moved: the earliest play counts first", "O3"), Event("Ben flips a fez", "O2")
    lines = [event.text for event in table.told([*moved[:2], settled, flip, *moved[2:]])]
    assert lines == [
        f"Ana and Ben have moved{MOVED.removeprefix(' has moved')}",
        settled.text,
        flip.text,
        f"Ben and Ana have moved{MOVED.removeprefix(' has moved')}",
    ]


def test_the_prompt_of_the_last_race_for_a_card_offers_only_the_call() -> None:
    loose = [{"kind": "top", "owner": 1, "fell": False}]
    data = {"game": "hats-off", "players": 2, "phase": "race", "race": 5, "flips": 1, "pile": ["fez"], "loose": loose}
    view = hatskit.load(data | {"hands": [["top", "beret"], ["fez", "chef"]], "heads": ["bowler", "cowboy"]}).view(0)
    assert prompt(view, can_act=True).text == "The fez had its 4 races: only Hats Off! calls count now."
    assert prompt(view, can_act=True).keys == "(space\u00a0bar)", "the key's name never wraps between its words"


def seats_text(table: HatsOffTable) -> str:
    """The other seats' panels as one line of words, spaces collapsed: "Ben young child bot ▶ to move ..."."""
    return " ".join(text(table.seat_rows).split())


def test_the_other_seats_sit_above_the_pad_the_readers_below_each_marked_while_it_acts() -> None:
    table, _ = race_table(0.1)
    parts = list(table.table_area.children)
    assert parts.index(table.seat_rows) < parts.index(table.pad) < parts.index(table.own_seat)
    assert "hk-seat-1" in table.seat_rows.value and "hk-seat-0" not in table.seat_rows.value
    own = " ".join(text(table.own_seat).split())
    assert "hk-seat-0" in table.own_seat.value and own.startswith("Ana you ▶ to move"), "Ana flips next (O2)"
    assert "flips next" in own and "▶ to move" not in seats_text(table) and not RULE_ID.search(own)
    assert seats_text(table).startswith("Ben") and "hand (" in seats_text(table) and "won (" in seats_text(table)
    assert "fez" not in table.seat_rows.value and "beanie" not in table.own_seat.value, "hands stay on the pad"
