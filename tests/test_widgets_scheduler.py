"""The table's scheduler: many timed events at once, cancelled cleanly, driven by a manual clock (no sleeping)."""

from __future__ import annotations

import asyncio
from typing import Any

from widgets.table.scheduler import ManualClock, Scheduler


def recorder() -> tuple[list[str], Any]:
    """A list and a function making actions that append their name to it."""
    done: list[str] = []
    return done, lambda name: lambda: done.append(name)


def test_several_events_wait_for_the_clock_and_run_in_order_of_time() -> None:
    clock = ManualClock()
    scheduler = Scheduler(clock)
    done, act = recorder()
    scheduler.call_later(0.9, act("Cleo plays"), tag="bot")
    scheduler.call_later(0.4, act("Ben plays"), tag="bot")
    scheduler.call_later(2.0, act("head card hidden"), tag="card")
    assert done == [] and len(scheduler.pending()) == 3
    clock.advance(0.5)
    assert done == ["Ben plays"]
    clock.advance(1.5)
    assert done == ["Ben plays", "Cleo plays", "head card hidden"] and scheduler.pending() == []
    assert clock.now == 2.0


def test_equal_times_run_in_the_order_they_were_scheduled() -> None:
    clock = ManualClock()
    scheduler = Scheduler(clock)
    done, act = recorder()
    for name in "abc":
        scheduler.call_later(1.0, act(name))
    clock.advance(1.0)
    assert done == ["a", "b", "c"]


def test_an_event_scheduled_by_an_event_runs_when_its_own_time_comes() -> None:
    clock = ManualClock()
    scheduler = Scheduler(clock)
    done, act = recorder()
    scheduler.call_later(1.0, lambda: (done.append("first"), scheduler.call_later(1.0, act("second"))))
    clock.advance(1.5)
    assert done == ["first"]
    clock.advance(0.5)
    assert done == ["first", "second"]


def test_cancel_drops_every_pending_event_or_one_tags_worth() -> None:
    clock = ManualClock()
    scheduler = Scheduler(clock)
    done, act = recorder()
    scheduler.call_later(1.0, act("bot"), tag="bot")
    scheduler.call_later(1.0, act("hat falls"), tag="hat")
    scheduler.cancel("bot")
    assert [timer.tag for timer in scheduler.pending()] == ["hat"]
    scheduler.call_later(0.5, act("bot again"), tag="bot")
    scheduler.cancel()
    clock.advance(5)
    assert done == [] and scheduler.pending() == []


def test_without_a_clock_or_loop_events_run_at_once_in_order_and_never_nested() -> None:
    scheduler = Scheduler()
    done: list[str] = []
    depth = [0]

    def chain(count: int) -> None:
        depth[0] += 1
        done.append(f"{count} at depth {depth[0]}")
        if count < 3:
            scheduler.call_later(0.5, lambda: chain(count + 1))
            scheduler.call_later(0.1, lambda: done.append(f"quick after {count}"))
        depth[0] -= 1

    scheduler.call_later(0.8, lambda: chain(1))
    assert done == [
        "1 at depth 1",
        "quick after 1",
        "2 at depth 1",
        "quick after 2",
        "3 at depth 1",
    ]
    assert scheduler.pending() == []


def test_on_a_running_loop_events_go_to_loop_call_later_and_cancel_there() -> None:
    async def scenario() -> tuple[list[float], list[str], bool]:
        loop = asyncio.get_running_loop()
        delays: list[float] = []
        original = loop.call_later

        def spy(delay: float, callback: Any, *args: Any) -> asyncio.TimerHandle:
            delays.append(delay)
            return original(0, callback, *args)  # due at once: the test does not wait out the delay

        loop.call_later = spy  # type: ignore[method-assign]
        scheduler = Scheduler()
        done, act = recorder()
        scheduler.call_later(0.8, act("Ben plays"))
        cancelled = scheduler.call_later(1.6, act("Cleo plays"))
        cancelled.cancel()
        assert done == []  # not run inside call_later: it waits for the loop
        for _ in range(3):
            await asyncio.sleep(0)
        return delays, done, cancelled.handle is not None and cancelled.handle.cancelled()

    delays, done, handle_cancelled = asyncio.run(scenario())
    assert delays == [0.8, 1.6] and done == ["Ben plays"] and handle_cancelled
