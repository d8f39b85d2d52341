"""Interactive tables over hatskit, one anywidget a table.

- ``widgets/toolkit``: the parts a table is built of and the page's one module that draws them;
- ``widgets/table``: the table every game shares (``TableFrame``) and the moves it sends the page as data;
- ``widgets/games``: one table a game, registered in ``widgets.games.TABLES``;
- ``widgets/teaching``: lessons, puzzles and stars around a table.
"""

from widgets.games import TABLES, HatsOffTable, HatsTable, MadderTable, SombreroTable
from widgets.table.frame import TableFrame
from widgets.table.scheduler import ManualClock, Scheduler
from widgets.toolkit.later import on_request

__all__ = [
    "TABLES",
    "HatsOffTable",
    "HatsTable",
    "MadderTable",
    "ManualClock",
    "Scheduler",
    "SombreroTable",
    "TableFrame",
    "on_request",
]
