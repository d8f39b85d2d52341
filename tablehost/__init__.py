"""The table host: one authoritative process that owns every shared table and runs the rules.

Students' kernels are its clients; each gets only its own seat's view. The
pieces, from the inside out:

- ``tables``: :class:`TableHost`, in process and network-free (hot-seat and the
  tests use it as it is): seats, turns, bots, presence;
- ``frames``: the only place that builds what a seat is sent;
- ``store``: SQLite, each move committed before it is told;
- ``protocol``: a JSON frame in, a reply and the seats' pushes out;
- ``auth``: seat tokens on a local host, hub users on JupyterHub; who is the teacher;
- ``classroom`` (with ``walkthrough`` and ``classframes``): the class together, walkthroughs the teacher
  leads and the class's stars and places, reached as ``TableHost.classroom``;
- ``server``: the tornado websocket app; ``client``: the kernels' side;
- ``python -m tablehost``: run it. ``docs/host.md`` describes the protocol.
"""

from tablehost.tables import (
    BadRequest,
    MoveRefused,
    NotNow,
    NotSaved,
    NotYourSeat,
    SeatsFull,
    Sent,
    Table,
    TableError,
    TableHost,
    UnknownTable,
    Who,
)

__all__ = [
    "BadRequest",
    "MoveRefused",
    "NotNow",
    "NotSaved",
    "NotYourSeat",
    "SeatsFull",
    "Sent",
    "Table",
    "TableError",
    "TableHost",
    "UnknownTable",
    "Who",
]
