"""widgets/batch.py: a click's or a bot's changes reach the page as one message, and exactly as the kernel has them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import ipywidgets as widgets
import pytest
from ipywidgets.widgets.widget import _instances

import hatskit
from hatskit.hats import Exchange
from widgets import HatsTable, SombreroTable, batch
from widgets.scheduler import ManualClock

Sent = list[tuple[widgets.Widget, dict[str, Any]]]


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Iterator[Sent]:
    """Every message that leaves the kernel, as (widget, message), with the page's channel listening."""
    messages: Sent = []
    monkeypatch.setattr(batch, "_direct_send", lambda widget, msg, buffers=None: messages.append((widget, msg)))
    monkeypatch.setattr(batch.channel(), "listening", True)
    yield messages


def click(button: widgets.Button) -> None:
    """A click as the page sends it: a custom message arriving at the button's comm."""
    button._handle_msg({"content": {"data": {"method": "custom", "content": {"event": "click"}}}, "buffers": []})


def reader_table(clock: ManualClock | None = None) -> HatsTable:
    table = HatsTable(hatskit.new_game("hats", players=3, seed=7), ("reader", "greedy", "greedy"), clock=clock)
    table.select(str(next(move for move in table.reader_moves() if isinstance(move, Exchange)).card))
    return table


def batches(messages: Sent) -> list[list[list[Any]]]:
    return [msg["content"]["updates"] for widget, msg in messages if widget is batch.channel()]


def test_a_move_by_click_reaches_the_page_as_one_message_that_matches_the_kernel(sent: Sent) -> None:
    table = reader_table(ManualClock())
    target = next(button for button in table.position_buttons if "hk-legal" in button._dom_classes)
    sent.clear()
    click(target)
    assert len(sent) == 1 and sent[0][0] is batch.channel(), [(type(w).__name__, m["method"]) for w, m in sent]
    (updates,) = batches(sent)
    by_id = {widget.model_id: widget for widget in _instances.values()}
    for model_id, state in updates:  # each update is the widget's state in the kernel now
        assert by_id[model_id].get_state(list(state)) == state
    changed = {model_id for model_id, _ in updates}
    assert {target.model_id, table.message.model_id, table.move_list.model_id} <= changed
    assert len(changed) == len(updates) > 5  # one entry per widget, however often it changed


def test_a_widgets_state_asked_by_a_loading_page_is_answered_on_its_own_comm(sent: Sent) -> None:
    """The page's widget loader waits for the answer on the widget's comm: a batch would send it elsewhere."""
    table = reader_table(ManualClock())
    sent.clear()
    table.message._handle_msg({"content": {"data": {"method": "request_state"}}, "buffers": []})
    assert not batches(sent)
    assert [(widget, msg["method"]) for widget, msg in sent] == [(table.message, "update")]
    assert sent[0][1]["state"] == table.message.get_state()


def test_before_the_page_listens_every_update_goes_out_on_its_own(sent: Sent, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch.channel(), "listening", False)
    table = reader_table(ManualClock())
    sent.clear()
    click(next(button for button in table.position_buttons if "hk-legal" in button._dom_classes))
    assert not batches(sent) and len(sent) > 5
    assert {msg["method"] for _, msg in sent} == {"update"}


def test_a_bots_timed_move_is_one_message(sent: Sent) -> None:
    clock = ManualClock()
    table = reader_table(clock)
    click(next(button for button in table.position_buttons if "hk-legal" in button._dom_classes))
    sent.clear()
    clock.advance(table.bot_delay)  # Ben, the first bot, moves
    assert len(batches(sent)) == 1 and len(sent) == 1


def test_a_sombrero_step_back_is_one_message(sent: Sent) -> None:
    table = SombreroTable(hatskit.new_game("sombrero"), ("reader", "greedy"), bot_delay=0)
    table.try_move(str(table.reader_moves()[0]))
    sent.clear()
    click(table.back_button)
    assert len(sent) == 1 and batches(sent)


def test_nested_batches_join_the_outermost(sent: Sent) -> None:
    first, second = widgets.HTML(), widgets.HTML()
    with batch.batched():
        first.value = "a"
        with batch.batched():
            second.value = "b"
        assert not sent
        first.value = "c"
    assert batches(sent) == [[[first.model_id, {"value": "c"}], [second.model_id, {"value": "b"}]]]


def test_binary_updates_go_out_at_once_after_what_their_widget_had_waiting(sent: Sent) -> None:
    picture, line = widgets.Image(format="png"), widgets.HTML()
    with batch.batched():
        line.value = "before"
        picture.width = "10"
        picture.value = b"\x89PNG"
        assert [(widget, msg["state"], msg["buffer_paths"]) for widget, msg in sent] == [
            (picture, {"width": "10"}, []),
            (picture, {}, [["value"]]),  # the bytes travel beside the message
        ]
    assert batches(sent) == [[[line.model_id, {"value": "before"}]]]


def test_a_widget_closed_during_the_batch_is_left_out(sent: Sent) -> None:
    kept, closed = widgets.HTML(), widgets.HTML()
    with batch.batched():
        kept.value = "kept"
        closed.value = "gone"
        closed.close()
    assert batches(sent) == [[[kept.model_id, {"value": "kept"}]]]


@pytest.mark.parametrize("content", [{"listening": "yes"}, {"listening": 1}, ["listening"], "listening", None])
def test_the_channel_listens_only_when_the_page_says_so_plainly(content: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    channel = batch.channel()
    monkeypatch.setattr(channel, "listening", False)
    channel._handle_custom_msg(content, [])
    assert channel.listening is False
    channel._handle_custom_msg({"listening": True}, [])
    assert channel.listening is True
