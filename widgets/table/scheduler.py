"""Timed events for a table: bots reacting, a card shown for a moment, a hat falling.

    >>> scheduler = Scheduler()
    >>> timer = scheduler.call_later(0.8, lambda: print("Ben plays"), tag="bot")
    >>> scheduler.cancel()          # undo, step-through, a new game: nothing stale fires

A table hands every delayed action to one :class:`Scheduler`. It holds any
number at once, each with a tag, and cancels them all or one tag's worth.
Where an action runs depends on where the table lives:

- given a :class:`ManualClock` (tests), actions wait until the test calls
  ``clock.advance(seconds)``, then run in the order of their times, so a test
  drives the pace without sleeping;
- on a running asyncio loop (ipykernel's, in JupyterLab and in Voilà alike),
  each action is handed to ``loop.call_later``: the kernel handles widget
  messages on that same loop, so timed actions and clicks never run at once;
- with a delay of 0, or where no loop runs (a plain script), actions run at
  once, in the order of their times, one after another: an action that
  schedules another does not nest it, it queues it.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(eq=False)
class Timer:
    """One scheduled action: when it falls due, what it does, and its tag."""

    due: float
    order: int
    action: Callable[[], None]
    tag: str
    handle: asyncio.TimerHandle | None = field(default=None, repr=False)
    done: bool = False  # it ran or was cancelled

    def cancel(self) -> None:
        """Make sure the action never runs (harmless once it ran)."""
        self.done = True
        if self.handle is not None:
            self.handle.cancel()

    def fire(self) -> None:
        """Run the action unless it ran or was cancelled already."""
        if not self.done:
            self.done = True
            self.action()

    def key(self) -> tuple[float, int]:
        """Earlier times first; equal times in the order they were scheduled."""
        return self.due, self.order


class ManualClock:
    """A clock a test moves by hand: :meth:`advance` runs what falls due, in order of time."""

    def __init__(self) -> None:
        self.now = 0.0
        self._timers: list[Timer] = []

    def add(self, timer: Timer) -> None:
        self._timers.append(timer)

    def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds``, running every action due by then (also those scheduled meanwhile)."""
        end = self.now + seconds
        while due := [timer for timer in self._timers if not timer.done and timer.due <= end]:
            timer = min(due, key=Timer.key)
            self.now = timer.due
            timer.fire()
        self._timers = [timer for timer in self._timers if not timer.done]
        self.now = end


class Scheduler:
    """Delayed actions for one table: see the module docstring for where they run."""

    def __init__(self, clock: ManualClock | None = None) -> None:
        self.clock = clock
        self._timers: list[Timer] = []
        self._numbers = itertools.count()
        self._queue: list[Timer] = []  # actions run at once, waiting their turn
        self._now = 0.0  # the time of the action running at once
        self._running = False

    def call_later(self, delay: float, action: Callable[[], None], tag: str = "") -> Timer:
        """Run ``action`` after ``delay`` seconds; the returned timer can cancel it."""
        self._timers = [timer for timer in self._timers if not timer.done]
        loop = _running_loop() if self.clock is None and delay > 0 else None
        start = self.clock.now if self.clock is not None else self._now
        timer = Timer(start + delay, next(self._numbers), action, tag)
        self._timers.append(timer)
        if self.clock is not None:
            self.clock.add(timer)
        elif loop is not None:
            timer.handle = loop.call_later(delay, timer.fire)
        else:
            self._queue.append(timer)
            self._run_queue()
        return timer

    def cancel(self, tag: str | None = None) -> None:
        """Cancel every pending action, or only those with ``tag``."""
        for timer in self.pending(tag):
            timer.cancel()

    def pending(self, tag: str | None = None) -> list[Timer]:
        """The actions still to run (with ``tag``, when one is given), earliest first."""
        waiting = [timer for timer in self._timers if not timer.done and tag in (None, timer.tag)]
        return sorted(waiting, key=Timer.key)

    def _run_queue(self) -> None:
        """Run the queued actions in order of time; an action queued meanwhile waits its turn, never nests."""
        if self._running:
            return  # the call running the queue reaches this action in its turn
        self._running = True
        try:
            while self._queue:
                timer = min(self._queue, key=Timer.key)
                self._queue.remove(timer)
                self._now = max(self._now, timer.due)
                timer.fire()
        finally:
            self._running = False
            for timer in self._queue:  # left only when an action failed: nothing stale runs later
                timer.cancel()
            self._queue.clear()


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
