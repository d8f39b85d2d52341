"""Two readers at one screen (pass the laptop) and the teacher's view: which hands reach the page."""

from __future__ import annotations

import hatskit
from tests.helpers import play_first_option, shown_strings
from widgets.games.hats import HatsTable
from widgets.games.madder import MadderTable
from widgets.games.sombrero import SombreroTable
from widgets.table.seats import REVEALED_NOTE, TEACHER_HEADING
from widgets.toolkit.parts import is_shown


def hats_table(seats: tuple[str, ...]) -> HatsTable:
    return HatsTable(hatskit.new_game("hats", players=3, seed=5), seats=seats, bot_delay=0)


def hand_cards(table: HatsTable | MadderTable, seat: int) -> set[str]:
    return {str(card) for card in table.game.state.hands[seat]}


def leaked(table: HatsTable | MadderTable, seat: int) -> set[str]:
    """The cards of ``seat``'s hand that no other place shows and that some widget's text carries."""
    public = " ".join(map(str, table.game.view(None).values()))
    private = {card for card in hand_cards(table, seat) if card not in public}
    assert private, "the test needs a card only the hand holds"
    return {card for text in shown_strings(table) for card in private if card in text}


def test_two_readers_see_a_pass_screen_and_no_hand_until_show() -> None:
    table = hats_table(("reader", "reader", "greedy"))
    assert is_shown(table.guard.screen)
    assert "Pass to Ana" in table.guard.screen_text.value
    assert not leaked(table, 0) and table.hint_button.disabled
    table.guard.show_button.click()
    assert not is_shown(table.guard.screen) and not table.hint_button.disabled
    assert leaked(table, 0)


def test_the_screen_comes_back_when_the_other_reader_acts() -> None:
    table = hats_table(("reader", "reader", "greedy"))
    table.guard.show_button.click()
    while table.game.to_move == 0:
        play_first_option(table)
    assert table.game.to_move == 1
    assert "Pass to Ben" in table.guard.screen_text.value
    assert not leaked(table, 0) and not leaked(table, 1)
    table.guard.show_button.click()
    assert leaked(table, 1) and not leaked(table, 0)


def test_one_reader_gets_no_screen() -> None:
    table = hats_table(("reader", "greedy", "greedy"))
    assert not is_shown(table.guard.screen)
    assert leaked(table, 0)


def test_madder_passes_the_laptop_too() -> None:
    table = MadderTable(
        hatskit.new_game("madder", players=3, seed=5), seats=("reader", "reader", "greedy"), bot_delay=0
    )
    seat = table.viewer
    secret = table.game.state.haberdashers[seat]
    assert "Pass to" in table.guard.screen_text.value
    assert table.guard.view(table.shown())["hand"] == []
    assert not any(secret in text for text in shown_strings(table))
    table.guard.show_button.click()
    assert any(secret in text for text in shown_strings(table))


def test_sombrero_hides_nothing_so_two_readers_share_the_board() -> None:
    table = SombreroTable(hatskit.new_game("sombrero"), seats=("reader", "reader"), bot_delay=0)
    assert not is_shown(table.guard.screen)
    assert "White (a reader) to move" in table.status.value  # not "you": both readers are
    assert not is_shown(table.guard.reveal_box)  # nothing hidden: no teacher's view to offer
    table.try_move(str(table.game.legal_moves()[0]))
    table.try_move(str(table.game.legal_moves()[0]))
    assert "Black (a reader) to move" in table.status.value


def test_a_students_table_never_offers_the_teachers_view() -> None:
    for table in (hats_table(("reader", "greedy", "greedy")), HatsTable.from_link(hatskit.new_game("hats"), query="")):
        assert not is_shown(table.guard.reveal_box)
        assert not any(TEACHER_HEADING in text for text in shown_strings(table))


def test_the_teachers_screen_offers_the_view_and_the_game_says_it_was_shown() -> None:
    table = HatsTable.from_link(hatskit.new_game("hats", seed=4), ("reader", "greedy", "greedy"), query="teacher=yes")
    assert is_shown(table.guard.reveal_box) and not table.guard.reveal_box.value
    assert not leaked(table, 1) and not leaked(table, 2)
    assert not any(TEACHER_HEADING in text for text in shown_strings(table))
    table.guard.reveal_box.value = True
    assert any(TEACHER_HEADING in text for text in shown_strings(table))
    assert leaked(table, 1) and leaked(table, 2)
    table.guard.reveal_box.value = False
    assert not leaked(table, 1) and not leaked(table, 2)
    assert any(REVEALED_NOTE in text for text in shown_strings(table)), "the game says its hands were shown"
    table.setup.new_game_button.click()
    assert not any(REVEALED_NOTE in text for text in shown_strings(table)), "a new game starts unseen"


def test_a_new_game_raises_the_screen_again() -> None:
    table = hats_table(("reader", "reader", "greedy"))
    table.guard.show_button.click()
    table.setup.new_game_button.click()
    assert is_shown(table.guard.screen) and not leaked(table, table.viewer)
