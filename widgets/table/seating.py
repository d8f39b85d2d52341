"""The seats around a table's middle: the other players across the top, the reader's own seat at the bottom.

Every seat is one box, carrying :func:`hatskit.drawing.seat_classes` (``hk-seat-<n>``): the renderer's seat
panel picture and any buttons of that seat (Madder's *into Ben's inventory*). The reader's seat also holds
the reader's own controls (their hand's card buttons, the actions), so everything of a seat is inside its box.
When readers at one screen take turns, the seat of the reader whose turn it is moves to the bottom, with the
hand. Only the boxes' children and marks change: the parts are built once.
"""

from __future__ import annotations

from collections.abc import Sequence

from hatskit.drawing import seat_classes, seats_order
from widgets.toolkit import ui
from widgets.toolkit.parts import column, row, set_marks

TO_MOVE = "hk-tomove"


class SeatRing:
    """The boxes of every seat, and where they sit: :attr:`top` (the others) and :attr:`bottom` (the reader)."""

    def __init__(self, seat_parts: Sequence[Sequence[ui.Part]], own: Sequence[ui.Part]) -> None:
        """``seat_parts[n]``: what seat n always shows; ``own``: the reader's controls, in the reader's seat."""
        self.seat_parts = [tuple(parts) for parts in seat_parts]
        self.own = tuple(own)
        self.boxes = [column(parts) for parts in self.seat_parts]
        for seat, box in enumerate(self.boxes):
            for css_class in seat_classes(seat, to_move=False):
                box.add_class(css_class)
        self.top = row([])
        self.top.add_class("hk-others")
        self.bottom = column([])
        self.bottom.add_class("hk-own")

    def place(self, reader: int, to_move: Sequence[int]) -> None:
        """Seat ``reader`` at the bottom with the reader's controls, the others across the top in turn order,
        and mark the seats to move."""
        top = tuple(self.boxes[seat] for seat in seats_order(len(self.boxes), reader))
        if self.top.children != top:
            self.top.children = top
        if self.bottom.children != (self.boxes[reader],):
            self.bottom.children = (self.boxes[reader],)
        for seat, box in enumerate(self.boxes):
            children = self.seat_parts[seat] + (self.own if seat == reader else ())
            if box.children != children:
                box.children = children
            set_marks(box, [TO_MOVE] if seat in to_move else [], [TO_MOVE])
