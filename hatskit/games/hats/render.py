"""Hats pictures: cards, the tea table and a whole position, as pure HTML strings.

``table_html`` is the spec's ``render``: the table as one seat sees it, or with
every hand shown for teaching.
"""

from __future__ import annotations

from hatskit.drawing import back_html, card_html, escape, style_tag
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
    """A whole position as ``seat`` sees it (None: every hand shown, for teaching)."""
    rows = [tea_table_html(state.table)]
    for s in range(state.players):
        rows.append(_seat_html(state, s, show_hand=seat is None or seat == s))
    cookie = SEAT_NAMES[state.cookie] if state.cookie is not None else "the napkin (nobody)"
    rows.append(f'<div class="hk-row">Last cookie: <b>{escape(cookie)}</b> · deck {len(state.deck)} cards</div>')
    return f'{style_tag()}<div class="hk">{"".join(rows)}</div>'


def _seat_html(state: HatsState, seat: int, show_hand: bool) -> str:
    """One seat's hand (backs unless shown) and collection, its black hats as backs."""
    hand = state.hands[seat]
    shown_hand = "".join(hat_card_html(c) for c in sorted(hand)) if show_hand else back_html() * len(hand)
    collection = "".join(hat_card_html(c) for c in state.collections[seat])
    blacks = back_html("black hat") * len(state.black_hats[seat])
    name = escape(SEAT_NAMES[seat])
    return (
        f'<div class="hk-row"><span class="hk-label">{name} hand</span>{shown_hand}</div>'
        f'<div class="hk-row"><span class="hk-label">{name} collection</span>{collection}{blacks}</div>'
    )
