"""The parts views are built of (widgets/toolkit/ui.py, parts.py): one widget model per view, one message a move."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from ipywidgets.widgets.widget import _instances

import hatskit
from tests.helpers import apply_patch, page_tree, press, shown_strings
from widgets import TABLES as GAME_TABLES
from widgets import HatsOffTable, HatsTable, MadderTable, SombreroTable
from widgets.teaching.exercise import MoveExercise
from widgets.toolkit import ui
from widgets.toolkit.parts import HIDDEN, View, is_shown, named_button, piece_button, set_face, set_marks, show
from widgets.toolkit.style import WIDGET_CSS

TABLES: dict[str, Callable[[], ui.Surface]] = {
    "hats": lambda: HatsTable(hatskit.new_game("hats", players=4, seed=1), ("reader", "greedy", "greedy", "greedy")),
    "sombrero": lambda: SombreroTable(hatskit.new_game("sombrero", seed=1), ("reader", "greedy")),
    "hats-off": lambda: HatsOffTable(hatskit.new_game("hats-off", players=4, seed=1)),
    "madder": lambda: MadderTable(hatskit.new_game("madder", players=3, seed=1), ("reader", "greedy", "greedy")),
    "exercise": lambda: MoveExercise(hatskit.new_game("hats", players=3, seed=1), "Try a move", seat=0),
}


@pytest.mark.parametrize("name", TABLES)
def test_a_view_is_at_most_a_dozen_widget_models(name: str) -> None:
    """Issue 28: a table was 57-132 models for the page to load; now its parts travel in one model's state."""
    before = set(_instances)
    TABLES[name]()
    made = [widget for key, widget in _instances.items() if key not in before]
    assert len(made) <= 12, [type(widget).__name__ for widget in made]


def test_every_view_names_the_kernels_one_module_which_carries_the_code_and_style_once() -> None:
    """A view's own state holds the short loader and a reference to the shared Module, not view.js or the style
    sheet, which go to the page once; a closed Module is made again for the next view."""
    first, second = View([]), View([])
    module = first.module
    assert second.module is module and WIDGET_CSS in module.css
    assert next(iter(module.modules)) == "view.js" and {"race.js", "sombrero.js", "hats.js"} <= set(module.modules)
    state = first.get_state()
    assert state["module"] == f"IPY_MODEL_{module.model_id}" and state["_esm"] == ui.LOADER
    assert state["channel"] == f"IPY_MODEL_{first.channel.model_id}" and second.channel is not first.channel
    assert len(str(state)) < 2_000 and state.get("_css", "") == ""
    module.close()
    assert View([]).module is not module


def sends(view: ui.Surface) -> list[dict[str, Any]]:
    """The trees the kernel sends ``view``'s page from now on, one per message."""
    sent: list[dict[str, Any]] = []
    view.channel.observe(lambda change: sent.append(change["new"]), names="tree")
    return sent


@pytest.mark.parametrize("game_id", ["hats", "madder", "sombrero"])
def test_a_move_is_one_message_from_the_page_and_one_back(game_id: str) -> None:
    """The page picks up on its own (tests/helpers.py, tap, does what view.js does): a move is the one message
    naming it, and the bots' answers come back inside the one message that answers it."""
    table = TABLES[game_id]()
    sent = sends(table)
    offered = table.moves_part.offered[0]
    press(table, table.moves_part, move=offered["move"])
    assert len(sent) == 1 and table.game.history[0] == table.game.parse(offered["move"])


@pytest.mark.parametrize("game_id", ["hats", "madder", "sombrero"])
def test_every_offered_path_is_a_legal_move_of_the_reader_and_names_parts_of_the_board(game_id: str) -> None:
    table = TABLES[game_id]()
    offered = table.moves_part.offered
    legal = {str(move) for move in table.reader_moves()}
    assert offered and {move["move"] for move in offered} <= legal
    board = set(table.moves_part.board)
    assert all(move["path"] and set(move["path"]) <= board for move in offered)


def test_a_move_the_page_names_that_was_not_offered_is_judged_and_refused_in_words() -> None:
    table = TABLES["sombrero"]()
    before = page_tree(table)
    for forged in ("e1-e3", "e1-h8", "zz", "e1-e2" * 40):
        press(table, table.moves_part, move=forged)
        assert "hk-error" in table.message._dom_classes and table.game.ply == 0
    for junk in ({"move": 5}, {"path": []}, {"path": "e1"}, {"path": [10**9]}, {"path": [1.5]}, {"path": [1] * 99}):
        press(table, table.moves_part, **junk)
    kids = page_tree(table)["kids"]
    assert [kid for kid in kids if "hk-message" not in kid["c"]] == [
        kid for kid in before["kids"] if "hk-message" not in kid["c"]
    ]


def test_an_unknown_or_malformed_message_changes_nothing() -> None:
    table = TABLES["hats"]()
    before = page_tree(table)
    for content in [{"id": 10**9, "do": "click"}, {"do": "click"}, "click", {"id": table.slider.uid, "value": "many"}]:
        table._received(table, content, [])
    assert page_tree(table) == before


def test_a_field_takes_only_a_value_of_its_kind() -> None:
    table = TABLES["hats"]()
    press(table, table.slider, value=10**6)  # beyond the history: refused
    press(table, table.setup.players_box, value=7)  # no 8th choice
    assert table.slider.value == 0 and table.setup.players_box.value == 4


def test_the_page_gets_a_tooltip_text_and_classes_for_each_button() -> None:
    view = View([named_button("hint", "ask the strong bot", lambda: None, primary=True)])
    (root,) = [page_tree(view)]
    (button,) = root["kids"]
    assert (button["t"], button["text"], button["primary"]) == ("button", "hint", True)
    assert button["tip"] == "ask the strong bot"
    assert "ask the strong bot" in shown_strings(view)


def test_a_fold_sends_its_summary_and_state_and_takes_only_open_or_closed_from_the_page() -> None:
    fold = ui.Fold([named_button("Start", "start a new game", lambda: None)], summary="New game…")
    view = View([fold])
    (node,) = page_tree(view)["kids"]
    assert (node["t"], node["summary"], node["open"], node["primary"]) == ("fold", "New game…", False, False)
    assert [kid["text"] for kid in node["kids"]] == ["Start"]
    press(view, fold, value=True)  # the reader opened it: a redraw keeps it open
    assert fold.open and page_tree(view)["kids"][0]["open"]
    for wrong in (1, "no", None):
        press(view, fold, value=wrong)
    assert fold.open
    press(view, fold, value=False)
    assert not fold.open


def test_show_hides_by_class_and_the_style_sheet_hides_that_class() -> None:
    first, second = named_button("a", "a", lambda: None), named_button("b", "b", lambda: None)
    show(first, False)
    assert not is_shown(first) and HIDDEN in first._dom_classes and is_shown(second)
    show(first, True)
    assert is_shown(first) and HIDDEN not in first._dom_classes
    assert f".{HIDDEN} {{ display: none !important; }}" in WIDGET_CSS


def test_a_card_drawn_again_the_same_is_left_alone_but_one_changed_since_is_drawn_again() -> None:
    card = piece_button()
    set_face(card, "Beret", "a Beret in Ana's hand", ["hk-legal"], ["hk-legal", "hk-selected"], face="<svg/>")
    clock = card.changed
    set_face(card, "Beret", "a Beret in Ana's hand", ["hk-legal"], ["hk-legal", "hk-selected"], face="<svg/>")
    assert card.changed == clock  # nothing was set again
    card.description = "Fedora"  # changed since by something else: the next drawing puts it right
    set_marks(card, ["hk-selected"], ["hk-legal", "hk-selected"])
    set_face(card, "Beret", "a Beret in Ana's hand", ["hk-legal"], ["hk-legal", "hk-selected"], face="<svg/>")
    assert (card.description, card._dom_classes, card.face) == ("Beret", ("hk-legal",), "<svg/>")


def test_a_choice_keeps_its_value_among_new_options_or_takes_the_first() -> None:
    box = ui.Choices(options=[("Ana", 0), ("Ben", 1)], value=1)
    box.options = [("Ben", 1), ("Cleo", 2)]
    assert box.value == 1
    box.options = [("Dev", 3)]
    assert box.value == 3
    with pytest.raises(Exception, match="not one of the choices"):
        box.value = 9


def test_a_row_of_choice_pills_sends_its_labels_notes_and_chosen_index() -> None:
    """ui.Choices is drawn as pills: the page gets the labels, a note per pill, the chosen index."""
    pills = ui.Choices(
        options=[("any", None), ("child", "child")], notes=["as each seat says", "like a child of 8-9"], value="child"
    )
    pills.description = "bots react like"
    node = pills.node()
    assert (node["t"], node["labels"], node["notes"], node["value"]) == (
        "choices",
        ["any", "child"],
        ["as each seat says", "like a child of 8-9"],
        1,
    )
    assert node["label"] == "bots react like" and not node["off"]
    pills.notes = ("only one",)  # not one per option: no notes rather than notes on the wrong pills
    assert pills.node()["notes"] == []


@pytest.mark.parametrize("sent", [2, -1, "1", 1.0, True, None, [0]])
def test_a_row_of_choice_pills_refuses_what_is_not_one_of_its_pills(sent: Any) -> None:
    """A pill's index from the page is read as its value; anything else changes nothing (no error)."""
    pills = ui.Choices(options=["2", "3"], value="3")
    view = View([pills])
    press(view, pills, value=sent)
    assert pills.value == "3"
    press(view, pills, value=0)
    assert pills.value == "2"
    pills.disabled = True
    press(view, pills, value=1)
    assert pills.value == "2", "a disabled row of pills takes no choice"


def test_pills_of_which_some_are_chosen_keep_at_most_their_limit_and_refuse_what_is_not_a_pill() -> None:
    """ui.Picks: a press chooses a pill or lets it go; past the limit the pill chosen first is let go; the page
    gets the chosen indices; anything but a pill's index changes nothing."""
    picks = ui.Picks(options=[("★ star", "★"), ("♠ spade", "♠"), ("✿ flower", "✿")], value=("✿", "★"), limit=2)
    view = View([picks])
    assert (picks.node()["t"], picks.node()["value"], picks.node()["labels"][0]) == ("picks", [2, 0], "★ star")
    press(view, picks, value=1)
    assert picks.value == ("★", "♠"), "the first chosen, ✿, is let go"
    press(view, picks, value=0)
    assert picks.value == ("♠",), "pressed again, a pill is let go"
    for sent in (3, -1, "1", True, None, [0]):
        press(view, picks, value=sent)
    assert picks.value == ("♠",)
    with pytest.raises(Exception, match="not among the choices"):
        picks.value = ("♥",)


def test_nothing_is_sent_to_the_anywidget_model_after_it_opens(monkeypatch: pytest.MonkeyPatch) -> None:
    """anywidget drops every message to its model for good once the model's module took over two seconds to
    load (a busy page), so the tree, the patches and the page's hello travel on the view's Channel only."""
    table = SombreroTable(hatskit.new_game("sombrero"), ("reader", "greedy"), bot_delay=0)
    to_view: list[Any] = []
    to_channel: list[Any] = []
    monkeypatch.setattr(table.comm, "send", lambda data, buffers=None: to_view.append(data))
    monkeypatch.setattr(table.channel.comm, "send", lambda data, buffers=None: to_channel.append(data))
    table._received(table.channel, {"hello": True}, [])
    press(table, table.moves_part, move=table.moves_part.offered[0]["move"])
    table.close()
    assert to_view == []
    assert [message["method"] for message in to_channel] == ["custom"]  # the move's one patch
    assert to_channel[0]["content"]["v"] == table.channel.tree["v"] + 1


def test_once_a_view_says_hello_a_move_is_one_patch_of_the_parts_it_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The page gets the whole tree once; a move then sends only the nodes that changed, numbered, and a view
    that applies the patches to the tree it had holds what a newly opened view would get."""
    table = SombreroTable(hatskit.new_game("sombrero"), ("reader", "greedy"), bot_delay=0)
    table._received(table, {"hello": True}, [])
    page = {int(uid): node for uid, node in table.channel.tree["nodes"].items()}
    version = table.channel.tree["v"]
    patches: list[dict[str, Any]] = []
    monkeypatch.setattr(table.channel, "send", lambda content, buffers=None: patches.append(content))
    press(table, table.moves_part, move=table.moves_part.offered[0]["move"])
    press(table, table.moves_part, move=table.moves_part.offered[0]["move"])
    assert len(patches) == 2 and [patch["v"] for patch in patches] == [version + 1, version + 2]
    assert 0 < len(patches[1]["nodes"]) < len(page) / 2, "a move sends the parts it changed, not the table"
    for patch in patches:
        apply_patch(page, patch)
    table._received(table, {"hello": True}, [])  # a view that opens now gets the whole tree
    assert {int(uid): node for uid, node in table.channel.tree["nodes"].items()} == page


@pytest.mark.parametrize("game_id", ["hats", "madder", "sombrero"])
def test_late_in_a_game_a_move_sends_the_move_lists_new_line_not_the_list(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two readers (or three) play 40 moves: every patch after the list outgrew a few lines carries the move list
    as its changed middle (ui.spliced), and the patches applied as view.js applies them hold the whole tree."""
    game = hatskit.new_game(game_id, **({"players": 3} if game_id != "sombrero" else {}))
    table = GAME_TABLES[game_id](game, ["reader"] * len(game.seat_names), bot_delay=0)
    table.guard.reveal_box.value = True  # no pass-the-laptop screen between the readers
    table._received(table, {"hello": True}, [])
    page = {int(uid): node for uid, node in table.channel.tree["nodes"].items()}
    patches: list[dict[str, Any]] = []
    monkeypatch.setattr(table.channel, "send", lambda content, buffers=None: patches.append(content))
    for _ in range(40):
        press(table, table.moves_part, move=table.moves_part.offered[-1]["move"])
        table.flush()
        apply_patch(page, patches[-1])
    late = [patch["nodes"][str(table.move_list.uid)] for patch in patches[-10:]]
    assert all(len(node["splice"][2]) < len(table.move_list.value) / 4 for node in late), "the list went whole"
    table._received(table, {"hello": True}, [])
    assert {int(uid): node for uid, node in table.channel.tree["nodes"].items()} == page


def test_game_knowledge_lives_in_each_games_module_not_in_the_shared_one() -> None:
    """view.js knows parts, never games: the board's keys and moving hats are sombrero.js's, the black hat's
    turn hats.js's; each is an ES module of its own (export), handed to view.js by the loader (use)."""
    shared = ui.front_end_modules()["view.js"]
    for game_word in ("hk-sb-grid", "hk-blackhat", "hk-piece-", "hat jump", "Sombrero", "Madder", "Hats Off"):
        assert game_word not in shared, game_word
    for name in ("sombrero.js", "hats.js", "race.js", "clipboard.js", "progress.js"):
        assert "\nexport " in ui.front_end_modules()[name], name


def test_a_pick_up_hides_the_refusal_on_the_message_line_on_the_page_alone() -> None:
    """A press that picks something up is the reader doing something right: the picker (view.js) hides a refusal
    left on the message line (hk-message with hk-error) and sends the kernel nothing for it."""
    shared = ui.front_end_modules()["view.js"]
    picker = shared[shared.index("function picker(") :]
    picker = picker[: picker.index("\n}\n")]
    pick_up = picker[picker.index("} else if (chosen) {") :]
    pick_up = pick_up[: pick_up.index("} else {")]
    assert "hideRefusal();" in pick_up and "send(" not in pick_up
    hide = picker[picker.index("function hideRefusal()") :]
    hide = hide[: hide.index("\n  }\n")]
    assert '"hk-message"' in hide and '"hk-error"' in hide and "send(" not in hide
