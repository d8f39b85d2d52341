"""Hats pictures: cards, the tea table and a whole position, as pure HTML strings.

``table_html`` is the spec's ``render``: the table as one seat sees it, or with
every hand shown for teaching.
"""

from __future__ import annotations

from hatskit.drawing import (
    around_table_html,
    back_html,
    card_html,
    escape,
    hold_html,
    seat_head_html,
    seat_panel_html,
    style_tag,
)
from hatskit.games.hats.components import KIND_NAMES, SEAT_NAMES, Card, parse_card
from hatskit.games.hats.scoring import face_up_positions
from hatskit.games.hats.state import HatsState


def hat_card_html(card: Card | str, extra_class: str = "", label: str | None = None) -> str:
    """One face-up Hats card; ``label`` (its tooltip) defaults to the card's name."""
    card = parse_card(card) if isinstance(card, str) else card
    return card_html(card.kind, card.value, KIND_NAMES[card.kind], extra_class, label)


def tea_table_html(table: list[Card]) -> str:
    """The tea table from position 1 (next to Ø); duplicated types dimmed as at scoring (H7)."""
    face_up = set(face_up_positions(table).values())
    cells = ['<span class="hk-pos"><span class="hk-card" title="the Ø end">Ø</span><small>end</small></span>']
    for position, card in enumerate(table, start=1):
        dim = "" if position in face_up else "hk-facedown"
        cells.append(f'<span class="hk-pos">{hat_card_html(card, dim)}<small>{position}</small></span>')
    return f'<div class="hk-row"><span class="hk-label">tea table</span>{"".join(cells)}</div>'


def table_html(state: HatsState, seat: int | None = None) -> str:
    """A whole position as ``seat`` sees it (None: every hand shown, for teaching): the other seats across the
    top, the tea table in the middle, ``seat``'s own (Ana's for teaching) at the bottom."""
    cookie = SEAT_NAMES[state.cookie] if state.cookie is not None else "the napkin (nobody)"
    info = f'<div class="hk-row">Last cookie: <b>{escape(cookie)}</b> · deck {len(state.deck)} cards</div>'
    bottom = 0 if seat is None else seat
    body = around_table_html(
        state.players, bottom, lambda s: _seat_html(state, s, seat), tea_table_html(state.table) + info
    )
    return f'{style_tag()}<div class="hk">{body}</div>'


def _seat_html(state: HatsState, seat: int, viewer: int | None) -> str:
    """One seat's panel: its hand (backs unless ``viewer`` may see it), its collection, its black hats as backs."""
    hand = sorted(state.hands[seat])
    shown = viewer is None or viewer == seat
    cards = [hat_card_html(c) for c in hand] if shown else [back_html()] * len(hand)
    holds = [
        hold_html("hand", cards, fan=not shown),
        hold_html("collection", [hat_card_html(c) for c in state.collections[seat]], empty="none yet"),
        hold_html("black hats", [back_html("black hat")] * len(state.black_hats[seat])),
    ]
    kind = "you" if seat == viewer else "player"
    head = seat_head_html(SEAT_NAMES[seat], kind, state.to_move == seat)
    return seat_panel_html(seat, head, holds, state.to_move == seat)
