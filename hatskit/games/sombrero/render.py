"""Sombrero pictures: the 8x8 board as an HTML table with SVG pieces, and the status line under it.

A hatted piece wears a drawn sombrero (brim and crown) and a hatless piece is a
bare disc, so the two differ in shape as well as colour. White's pieces are
light discs, Black's dark ones; every square carries a title such as
"e4: White, hatted" for screen readers and browser tests.

A board sits in a frame of its own fixed size (23.4em square) that the browser
draws only once it comes near the screen (``content-visibility: auto``): a page
of many boards, such as the Sombrero notebook's, draws the few on screen first
(issue 9; the figures are in ``benchmarks/README.md``). The page's height never
changes as a board is drawn, and screen readers, find-in-page and printing
still reach every board.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from hatskit.drawing import escape, hold_html, seat_head_html, seat_panel_html, style_tag
from hatskit.games.sombrero import positions, scoring
from hatskit.games.sombrero.components import (
    ENDGAME_ACTIONS,
    FILES,
    HATTED,
    OWNER,
    QUIET_ACTIONS,
    QUIET_WARNING,
    SEAT_NAMES,
    square_name,
)
from hatskit.games.sombrero.state import SombreroState

# The frame holds the font size the board is measured in (JupyterLab's for tables, as the board had before
# it had a frame); the board's 9 rows and 9 columns are 2.6em each: 23.4em.
STYLE = """
.hk-sb-frame { font-size: var(--jp-ui-font-size1, 13px); margin: 4px 0;
  content-visibility: auto; contain-intrinsic-size: auto 23.4em auto 23.4em; }
.hk-sb-frame > .hk-sb-board { font-size: inherit; margin: 0; border-collapse: collapse; }
.hk-sb-board td { width: 2.6em; height: 2.6em; padding: 0; text-align: center; vertical-align: middle; }
.hk-sb-light { background: #f0d9b5; } .hk-sb-dark { background: #b58863; }
.hk-sb-label { color: #555; font-size: .85em; font-weight: 600; }
.hk-sb-board td.hk-sb-hl { box-shadow: inset 0 0 0 4px #1f6fd1; }
.hk-sb-board svg { width: 2.4em; height: 2.4em; display: block; margin: auto; }
.hk-sb-status { margin: 2px 0; }
.hk-sb-side svg { width: 1.8em; height: 1.8em; display: block; }
"""
_FILL = ("#fbf8ef", "#2b2b2b")
_LINE = ("#222", "#000")
_BAND = ("#c0152f", "#e0a100")

# From this many actions in a row without a hat taken, the status line says how near the quiet-game draw is.
QUIET_NOTICE = 20
# The rulings behind the draw counts, for the status line's tooltip: the line itself names no ruling id.
DRAW_RULES = (
    f"Ruling S5: at two hatted pieces a side, {ENDGAME_ACTIONS} more actions each draw the game; and hatskit's "
    f"quiet-game draw (S5): {QUIET_ACTIONS} actions in a row without a hat taken draw it (docs/rulings.md)"
)


def piece_svg(seat: int, hatted: bool) -> str:
    """One piece: a disc for its body, plus a sombrero when it wears a hat."""
    fill, line = _FILL[seat], _LINE[seat]
    body = f'<circle cx="20" cy="27" r="10" fill="{fill}" stroke="{line}" stroke-width="2"/>'
    hat = (
        f'<ellipse cx="20" cy="17" rx="17" ry="4.5" fill="{fill}" stroke="{line}" stroke-width="2"/>'
        f'<path d="M12 16 Q13 4 20 4 Q27 4 28 16 Z" fill="{fill}" stroke="{line}" stroke-width="2"/>'
        f'<path d="M13 13 L27 13" stroke="{_BAND[seat]}" stroke-width="2.5"/>'
        if hatted
        else ""
    )
    return f'<svg viewBox="0 0 40 40" aria-hidden="true">{body}{hat}</svg>'


def side_html(seat: int, name: str, player: str, hats: int, to_move: bool) -> str:
    """One side's seat panel beside the board: its name, who plays it (``player``: "you", "strong bot"), its
    hats as a hatted piece with their count, and the "to move" tag while it acts (S2)."""
    piece = (
        f'<span class="hk-sb-side" role="img" aria-label="{escape(name)} hatted piece">{piece_svg(seat, True)}</span>'
    )
    return seat_panel_html(seat, seat_head_html(name, player, to_move), [hold_html("hats", [piece], hats)], to_move)


def square_html(state: SombreroState, square: int, highlighted: bool) -> str:
    """One board cell: its colour (a light square at h1), its piece and its title."""
    file, rank = square % 8, square // 8
    classes = ["hk-sb-light" if (file + rank) % 2 else "hk-sb-dark"] + (["hk-sb-hl"] if highlighted else [])
    code = state.board[square]
    seat = OWNER[code]
    if seat is None:
        label, picture = f"{square_name(square)}: empty", ""
    else:
        hatted = code in HATTED
        label = f"{square_name(square)}: {SEAT_NAMES[seat]}, {'hatted' if hatted else 'hatless'}"
        picture = piece_svg(seat, hatted)
    name = square_name(square)
    return (
        f'<td class="{" ".join(classes)}" data-square="{name}" title="{escape(label)}" '
        f'aria-label="{escape(label)}">{picture}</td>'
    )


def board_html(state: SombreroState, highlight: Iterable[str] | None = None, status: bool = True) -> str:
    """The board seen from White's side (rank 8 on top) with file and rank labels.

    ``highlight`` names squares to ring (say legal targets); by default the
    squares whose pieces lost their hats in the last action are ringed.
    """
    ringed = set(highlight) if highlight is not None else {square_name(s) for s in state.last_captures}
    rows = []
    for rank in range(7, -1, -1):
        cells = "".join(
            square_html(state, rank * 8 + file, square_name(rank * 8 + file) in ringed) for file in range(8)
        )
        rows.append(f'<tr><td class="hk-sb-label">{rank + 1}</td>{cells}</tr>')
    files = "".join(f'<td class="hk-sb-label">{letter}</td>' for letter in FILES)
    rows.append(f"<tr><td></td>{files}</tr>")
    table = (
        f'<div class="hk-sb-frame"><table class="hk-sb-board" aria-label="Sombrero board">{"".join(rows)}</table></div>'
    )
    line = status_html(state) if status else ""
    return f'{style_tag()}<style>{STYLE}</style><div class="hk">{table}{line}</div>'


def status_html(state: SombreroState) -> str:
    """The status line under a board; while it shows a draw count, its tooltip names the rulings behind it."""
    counting = scoring.outcome(state) is None and bool(draw_counts(positions.view(state, None)))
    title = f' title="{escape(DRAW_RULES)}"' if counting else ""
    return f'<div class="hk-sb-status"{title}>{escape(status_text(state))}</div>'


def status_text(state: SombreroState) -> str:
    """Who acts now (or how the game ended), the hats each side has and the S5 count."""
    hats = f"hats: White {state.hats(0)}, Black {state.hats(1)}"
    ended = scoring.outcome(state)
    if ended is not None:
        return f"{ended.reason} · {hats}"
    seat = state.to_move
    assert seat is not None, "a game without an outcome has a side to move"
    actions = "2 actions" if state.actions_left == 2 else "1 action"
    return " · ".join([f"{SEAT_NAMES[seat]} to move, {actions} left", hats, *draw_counts(positions.view(state, None))])


def draw_counts(view: Mapping[str, Any]) -> list[str]:
    """The draw counts a player should watch, in plain words: the count at two hats a side (S5), and the
    quiet count (S5, a hatskit decision) from :data:`QUIET_NOTICE` actions on, long before its draw."""
    counts = []
    names = view["names"]
    if view["endgame_counting"]:
        white, black = view["endgame_actions"]
        made = f"{names[0]} {white}/{ENDGAME_ACTIONS}, {names[1]} {black}/{ENDGAME_ACTIONS}"
        counts.append(f"two hats each: after {ENDGAME_ACTIONS} actions each it is a draw ({made})")
    quiet = view["quiet_actions"]
    if quiet >= QUIET_NOTICE:
        soon = f", {QUIET_ACTIONS - quiet} actions from now" if quiet >= QUIET_WARNING else ""
        counts.append(f"no hat taken in {quiet} actions: at {QUIET_ACTIONS} it is a draw{soon}")
    return counts


def table_html(state: SombreroState, seat: int | None = None) -> str:
    """A whole position as ``seat`` sees it: Sombrero hides nothing, so every seat sees the board."""
    del seat
    return board_html(state)
