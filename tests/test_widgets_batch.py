"""widgets/batch.py: a click's or a bot's changes reach the page as one message, and exactly as the kernel has them."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import comm
import ipywidgets as widgets
import pytest
from ipywidgets.widgets import widget as widget_module
from ipywidgets.widgets.widget import _instances

import hatskit
from hatskit.games.hats import Exchange
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


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """Every comm a widget opens, as (comm id, the state it carries), in order."""
    opens: list[tuple[str, dict[str, Any]]] = []
    create = widget_module.comm.create_comm

    def recorded(**args: Any) -> Any:
        made = create(**args)
        opens.append((made.comm_id, args["data"]["state"]))
        return made

    monkeypatch.setattr(widget_module.comm, "create_comm", recorded)
    yield opens


def test_a_table_reaches_the_page_whole_each_widget_once_and_no_update(
    sent: Sent, opened: list[tuple[str, dict[str, Any]]]
) -> None:
    """Built and shown inside opened_whole, a Sombrero table was 190 comms and 259 updates; now no update."""
    table = SombreroTable.from_link(hatskit.new_game("sombrero"), ("reader", "greedy"), query="")
    assert not sent
    by_id = {widget.model_id: widget for widget in _instances.values()}
    assert len(opened) == len({model_id for model_id, _ in opened}) > 100
    for model_id, state in opened:  # each opened with its state as built and shown
        assert state == by_id[model_id].get_state(list(state))
    order = [model_id for model_id, _ in opened]
    assert order.index(table.squares["e1"].model_id) < order.index(table.model_id)
    assert "hk-main" in dict(opened)[table.model_id]["_dom_classes"]


def test_parts_open_before_the_widgets_that_name_them(opened: list[tuple[str, dict[str, Any]]]) -> None:
    with batch.opened_whole():
        box = widgets.VBox()
        line = widgets.HTML("late")
        box.children = (line,)
        assert box.comm is None and line.comm is None
    order = [model_id for model_id, _ in opened]
    assert order.index(line.model_id) < order.index(box.model_id)
    assert order.index(line.layout.model_id) < order.index(line.model_id)
    assert dict(opened)[box.model_id]["children"] == [f"IPY_MODEL_{line.model_id}"]


def test_a_widget_made_before_the_block_still_sends_its_updates(sent: Sent) -> None:
    outside = widgets.HTML()
    with batch.opened_whole():
        outside.value = "changed"
        widgets.HTML("inside")
    assert [(widget, msg["state"]) for widget, msg in sent] == [(outside, {"value": "changed"})]


def test_what_was_made_opens_even_when_the_block_fails_and_a_widget_closed_in_it_stays_closed() -> None:
    with pytest.raises(RuntimeError), batch.opened_whole():
        kept, closed = widgets.HTML("kept"), widgets.HTML("closed")
        closed.close()
        with batch.opened_whole():  # joins the outer block
            inner = widgets.HTML("inner")
        assert inner.comm is None
        raise RuntimeError("the build failed")
    assert kept.comm is not None and inner.comm is not None
    assert closed.comm is None


@pytest.fixture
def published(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, str]]]:
    """Every comm message the kernel publishes, as (message type, comm id): here comms publish nothing."""
    messages: list[tuple[str, str]] = []

    def publish(self: comm.base_comm.BaseComm, msg_type: str, *_: Any, **__: Any) -> None:
        messages.append((msg_type, self.comm_id))

    monkeypatch.setattr(comm.DummyComm, "publish_msg", publish)
    yield messages


@pytest.fixture
def unheard(monkeypatch: pytest.MonkeyPatch, published: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A kernel Voilà runs for a page that has not connected yet; yields what the kernel publishes."""
    monkeypatch.setattr(batch, "_unheard", True)
    monkeypatch.setattr(widgets.Widget, "_control_comm", None)
    return published


def test_voila_sets_the_variable_that_marks_a_page_kernel() -> None:
    assert batch.started_for_a_voila_page({"VOILA_PREHEAT": "False"})
    assert batch.started_for_a_voila_page({"VOILA_PREHEAT": "True"})
    assert not batch.started_for_a_voila_page({"QUERY_STRING": ""})


def test_before_a_voila_page_connects_a_table_sends_nothing_and_the_page_finds_all_of_it(
    unheard: list[tuple[str, str]],
) -> None:
    table = SombreroTable.from_link(hatskit.new_game("sombrero"), ("reader", "greedy"), query="")
    table.try_move(str(table.reader_moves()[0]))  # updates too stay in the kernel
    assert unheard == []
    states = widgets.Widget.get_manager_state()["state"]  # what the page's request_states receives
    manager = comm.get_comm_manager()
    for widget in [table, table.squares["e1"], table.message, table.layout]:
        assert manager.get_comm(widget.model_id) is widget.comm  # the page's messages reach it
        assert states[widget.model_id]["state"] == widget.get_state()
    assert batch.page_may_hear() is False


def test_once_the_page_opens_its_control_comm_every_message_goes_out(
    unheard: list[tuple[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    before = widgets.HTML("before")
    monkeypatch.setattr(widgets.Widget, "_control_comm", object())  # the page loads every state
    before.value = "changed"
    after = widgets.HTML("after")
    assert unheard[0] == ("comm_msg", before.model_id)
    assert ("comm_open", after.model_id) in unheard and ("comm_open", after.layout.model_id) in unheard


def test_a_message_from_the_page_ends_the_wait_and_is_answered(unheard: list[tuple[str, str]]) -> None:
    button, echo = widgets.Button(), widgets.Label()
    button.on_click(lambda _: setattr(echo, "value", "clicked"))
    click(button)
    assert batch.page_may_hear() is True
    assert unheard == [("comm_msg", echo.model_id)]


def test_an_output_widget_speaks_at_once_because_voila_routes_what_is_printed_into_it(
    unheard: list[tuple[str, str]],
) -> None:
    out = widgets.Output()
    out.msg_id = "a cell's request"
    assert [message for message in unheard if message[1] == out.model_id] == [
        ("comm_open", out.model_id),
        ("comm_msg", out.model_id),
    ]


def test_the_pages_request_for_every_state_is_answered_with_the_parts_made_on_first_reading(
    unheard: list[tuple[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A default layout or style is made when first read: made during the request, it broke ipywidgets' loop."""
    line = widgets.HTML("made while the page runs")
    answers: list[dict[str, Any]] = []
    control = SimpleNamespace(send=lambda data, buffers=None: answers.append(data))
    monkeypatch.setattr(widgets.Widget, "_control_comm", control)  # the page has opened its control comm
    widgets.Widget._handle_control_comm_msg({"content": {"data": {"method": "request_states"}}})
    (answer,) = answers
    assert answer["method"] == "update_states"
    assert {line.model_id, line.layout.model_id, line.style.model_id} <= set(answer["states"])
