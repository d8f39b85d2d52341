"""One table a game, each in its own module (with its own front-end module where it draws something the shared
view cannot); ``TABLES`` is where a game's table registers."""

from widgets.games.hats import HatsTable
from widgets.games.hats_off import HatsOffTable
from widgets.games.madder import MadderTable
from widgets.games.sombrero import SombreroTable
from widgets.table.frame import TableFrame

TABLES: dict[str, type[TableFrame]] = {
    table.game_id: table for table in (HatsTable, HatsOffTable, MadderTable, SombreroTable)
}

__all__ = ["TABLES", "HatsOffTable", "HatsTable", "MadderTable", "SombreroTable"]
