"""Where a benchmark's CPU went: the processes it started, told apart by kind, and the machine as a whole.

The browser benchmarks (page_cache.py, idle_page.py, classmates.py) and host_capacity.py read the same Linux
counters through these functions. Each script still chooses its own window and groups: a page's load counts
Chromium alone, an idle page each thread, a class every process by whose it is.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import psutil


def cpu_seconds(process: psutil.Process) -> float:
    """CPU seconds (user and system) a process has run so far; psutil.Error for one that is gone."""
    used = process.cpu_times()
    return used.user + used.system


def cpu_by_pid(processes: list[psutil.Process]) -> dict[int, float]:
    """:func:`cpu_seconds` of each process by pid, those gone meanwhile left out (not counted as zero)."""
    spent = {}
    for process in processes:
        with contextlib.suppress(psutil.Error):
            spent[process.pid] = cpu_seconds(process)
    return spent


def chromium_kind(process: psutil.Process) -> str | None:
    """renderer, gpu or browser+utility for one of Chromium's processes; None for any other."""
    with contextlib.suppress(psutil.Error):
        if not process.name().startswith("chrom"):
            return None
        line = " ".join(process.cmdline())
        if "--type=renderer" in line:
            return "renderer"
        return "gpu" if "--type=gpu-process" in line else "browser+utility"
    return None


def chromium_processes() -> list[psutil.Process]:
    """The Chromium processes this script started (through Playwright's driver), alive now."""
    return [process for process in psutil.Process().children(recursive=True) if chromium_kind(process)]


def thread_seconds(pid: int) -> dict[int, float]:
    """CPU seconds each live thread of a process has run, by thread id: Linux's /proc/PID/task/TID/schedstat, in
    nanoseconds (psutil's cpu_times counts 10 ms clock ticks, 0.5 ms/s in a 20 s window: coarser than an idle page);
    where there is no schedstat, the whole process's CPU seconds as one entry."""
    times: dict[int, float] = {}
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            times[int(task.name)] = int((task / "schedstat").read_text().split()[0]) / 1e9
    if not times:
        with contextlib.suppress(psutil.Error):
            times[0] = cpu_seconds(psutil.Process(pid))
    return times


def run_queue(pid: int) -> tuple[float, int]:
    """Seconds a process's threads waited on the run queue once ready to run, and how many times they ran, so far
    (schedstat's second and third fields)."""
    waited, runs = 0.0, 0
    for stat in Path(f"/proc/{pid}/task").glob("*/schedstat"):
        with contextlib.suppress(OSError, ValueError):
            _, wait_ns, slices = stat.read_text().split()
            waited, runs = waited + int(wait_ns) / 1e9, runs + int(slices)
    return waited, runs


def machine_seconds() -> float:
    """CPU seconds every core of the machine has been busy so far, whoever's work it was."""
    used = psutil.cpu_times()
    return used.user + used.nice + used.system + used.irq + used.softirq + getattr(used, "steal", 0.0)
