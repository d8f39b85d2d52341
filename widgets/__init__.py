"""ipywidgets views over hatskit: one table view per game on a shared frame."""

from widgets.frame import TableFrame
from widgets.hats import HatsTable
from widgets.hats_off import HatsOffTable
from widgets.later import on_request
from widgets.madder import MadderTable
from widgets.scheduler import ManualClock, Scheduler
from widgets.sombrero import SombreroTable

__all__ = [
    "HatsOffTable",
    "HatsTable",
    "MadderTable",
    "ManualClock",
    "Scheduler",
    "SombreroTable",
    "TableFrame",
    "on_request",
]
