"""A bot thinks at low CPU priority while the kernel waits (widgets/table/thinking.py)."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable

import pytest

import hatskit
import widgets.table.frame
from widgets import HatsTable
from widgets.table.thinking import BOT_NICENESS, _thinker, think


def where_and_how_nice() -> tuple[int, int]:
    thread = threading.get_native_id()
    return thread, os.getpriority(os.PRIO_PROCESS, thread)


def test_a_decision_is_worked_out_in_a_lower_priority_thread() -> None:
    if _thinker() is None:
        pytest.skip("SKIPPED LOUDLY: this system gives threads no niceness of their own (not Linux, or refused)")
    thread, niceness = think(where_and_how_nice)
    assert thread != threading.get_native_id()
    assert niceness == min(19, os.getpriority(os.PRIO_PROCESS, 0) + BOT_NICENESS)


def test_a_failing_decision_raises_in_the_caller() -> None:
    def refuse() -> None:
        raise ValueError("no move left")

    with pytest.raises(ValueError, match="no move left"):
        think(refuse)


def test_a_table_bot_decides_through_the_thinker(monkeypatch: pytest.MonkeyPatch) -> None:
    decided: list[object] = []

    def recording(decide: Callable[[], object]) -> object:
        decided.append(answer := think(decide))
        return answer

    monkeypatch.setattr(widgets.table.frame, "think", recording)
    table = HatsTable(hatskit.new_game("hats", players=2, seed=3), seats=("greedy", "reader"), bot_delay=0)
    assert [str(move) for move in decided] == [str(move) for move in table.game.history]
    assert len(decided) == 1
