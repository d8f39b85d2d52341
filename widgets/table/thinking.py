"""A bot thinks at low CPU priority, so that a classmate's page opens first.

A strong bot's decision is a burst of CPU. On a server that a whole class
shares, the first students' bots think just while the other students' pages
are opening, and both want the same cores (``benchmarks/classroom.py``
measures a class; benchmarks/README.md has the figures).

:func:`think` works a decision out in one worker thread whose Linux niceness
is :data:`BOT_NICENESS` steps below the kernel's own. The kernel waits for the
answer, doing nothing else in the meantime, so no game state is ever read by
two threads at once; only the CPU's order changes. On an idle machine the bot
answers as fast as at the kernel's own priority. Elsewhere (macOS, Windows,
Pyodide in the static site, which has no threads) and where the system refuses
the lower priority, the decision runs at once, in the calling thread.

A hint the reader asks for is not a bot's own move: the reader is waiting for
it, so it is worked out at the kernel's own priority.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import TypeVar

Answer = TypeVar("Answer")

BOT_NICENESS = 10  # steps of niceness below the kernel's own work (0-19: larger is lower priority)


def think(decide: Callable[[], Answer]) -> Answer:
    """``decide()``'s answer, worked out at low CPU priority where the system allows it."""
    thinker = _thinker()
    return decide() if thinker is None else thinker.submit(decide).result()


@cache
def _thinker() -> ThreadPoolExecutor | None:
    """The one low-priority worker thread, or None where threads have no niceness of their own."""
    if sys.platform != "linux":  # a thread's id is a process id only on Linux
        return None
    worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hatskit-bot")
    if worker.submit(_lower_priority).result():
        return worker
    worker.shutdown()  # refused: no idle thread is left behind
    return None


def _lower_priority() -> bool:
    """Put the calling thread ``BOT_NICENESS`` steps lower; False where the system refuses."""
    thread = threading.get_native_id()
    try:
        niceness = os.getpriority(os.PRIO_PROCESS, thread)
        os.setpriority(os.PRIO_PROCESS, thread, min(19, niceness + BOT_NICENESS))
    except OSError:
        return False
    return True
