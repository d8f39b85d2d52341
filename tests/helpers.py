"""Helpers shared by several test files, one section per game (never imported from another test file)."""

from __future__ import annotations

import re
from typing import Any

import ipywidgets as widgets

# ---------------------------------------------------------------- Hats Off!
# widget_states was written for the Hats Off! table tests; the Madder table tests use it too.


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


# ---------------------------------------------------------------- Madder than a Hatter

CLERK, TRENDSETTER, COLLECTOR, TAILOR = "The Clearance Clerk", "The Trendsetter", "The Collector", "The Tailor"


def turn_position(**changes: Any) -> dict[str, Any]:
    """Round 1 of a three-player game, Ana (the dealer) to play; the deck is what is listed nowhere."""
    position = {
        "game": "madder",
        "players": 3,
        "round": 1,
        "dealer": 0,
        "phase": "play",
        "to_move": 0,
        "inventories": [["Fedora"], ["Boater"], ["Bowler"]],
        "hands": [["Newsboy", "Homburg", "Beret"], ["Trilby", "Stetson", "Fedora"], ["Boater", "Homburg", "Beret"]],
        "line": ["Newsboy", "Stetson", "Trilby", "Bowler"],
        "haberdashers": [CLERK, TRENDSETTER, COLLECTOR],
        "scores": [],
    }
    return position | changes


def end_position(**changes: Any) -> dict[str, Any]:
    """The turn position at the end of the round (phase ``end``, the line empty)."""
    return turn_position(phase="end", line=[], **changes)
