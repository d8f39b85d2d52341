"""Helpers shared by several test files, one section per game; no test file imports another."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import ipywidgets as widgets

from hatskit.bots import Hint
from hatskit.core import SeatView
from hatskit.games.hats_off import Pass, Play, all_cards

# ------------------------------------------------------------------ Hats Off!


class FixedBot:
    """Plays a matching hand card after exactly ``seconds``, else passes: a bot whose speed a test knows."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.name = f"{seconds} s"

    def choose(self, seat_view: SeatView) -> Any:
        view = seat_view.view()
        if view["phase"] != "race":
            return seat_view.legal_moves()[0]
        if view["top"] in view["hand"]:
            return Play(view["seat"], 0, view["top"]).at(self.seconds)
        return Pass(view["seat"])

    def hint(self, seat_view: SeatView) -> Hint:
        return Hint(self.choose(seat_view), "a fixed reaction time")


def position(deck_top: list[str], **changes: Any) -> dict[str, Any]:
    """Two players before a flip by Ana: both hold a fez; ``deck_top`` lies on top of the deck (its top last)."""
    data = {
        "game": "hats-off",
        "players": 2,
        "phase": "flip",
        "flipper": 0,
        "flips": 0,
        "hands": [["fez", "top", "beret"], ["fez", "chef", "party"]],
        "heads": ["bowler", "cowboy"],
    } | changes
    return with_deck(data, deck_top)


def with_deck(data: dict[str, Any], deck_top: list[str]) -> dict[str, Any]:
    """The position with every card placed: the cards not held lie in the deck under ``deck_top``."""
    listed = Counter([*deck_top, *(k for hand in data["hands"] for k in hand), *(h for h in data["heads"] if h)])
    rest = sorted((Counter(all_cards()) - listed).elements())
    return data | {"deck": rest + deck_top, "pile": []}


def widget_states(root: widgets.Widget) -> list[tuple[str, dict[str, Any]]]:
    """Every widget of the tree with its synced state, references to other widgets blanked (their ids differ)."""
    found = []

    def walk(widget: widgets.Widget) -> None:
        state = widget.get_state()
        kept = {key: _blank_refs(value) for key, value in state.items() if key not in ("layout", "style")}
        found.append((type(widget).__name__, kept))
        for child in getattr(widget, "children", ()):
            walk(child)

    walk(root)
    return found


def _blank_refs(value: Any) -> Any:
    if isinstance(value, str):
        return re.sub(r"IPY_MODEL_\w+", "IPY_MODEL", value)
    if isinstance(value, list | tuple):
        return [_blank_refs(item) for item in value]
    if isinstance(value, dict):
        return {key: _blank_refs(item) for key, item in value.items()}
    return value
