"""Madder than a Hatter's pictures as pure HTML: hat cards, the assembly line, inventories, a whole position.

A hat card shows its style's name (and a ★ for the Premium) on a colour of
its own, so the colour is never the only sign. Inventories are grouped by
style with the count and what the style scores now (M5).
"""

from __future__ import annotations

from collections.abc import Sequence

from hatskit.drawing import back_html, escape, style_tag
from hatskit.games.madder.components import (
    ABILITY,
    END,
    EXERCISE,
    HABERDASHERS,
    OVER,
    PLAY,
    SEAT_NAMES,
    CardSet,
    is_premium,
    style_of,
)
from hatskit.games.madder.scoring import style_counts, style_points
from hatskit.games.madder.state import MadderState

STYLE = """
.hk-hat { width: 4.4em; font-size: .85em; }
.hk-hat .hk-prem { color: #8a5700; }
.hk-s-0 { background: #fde8e8; } .hk-s-1 { background: #e6eefc; } .hk-s-2 { background: #e8f6ea; }
.hk-s-3 { background: #fff4d6; } .hk-s-4 { background: #efe6fa; } .hk-s-5 { background: #e3f5f6; }
.hk-s-6 { background: #f6ece2; } .hk-s-7 { background: #ececec; }
.hk-first { outline: 3px solid #1f6fd1; }
.hk-count { display: inline-flex; flex-direction: column; align-items: center; margin-right: 6px; }
.hk-count small { color: #444; }
"""
PHASE_WORDS = {
    PLAY: "players take turns",
    ABILITY: "a Premium ability waits",
    END: "end of the round: hats into your own inventory",
    HABERDASHERS: "the Haberdashers are revealed and used",
    OVER: "the game is over",
    EXERCISE: "a scoring exercise",
}


def hat_html(hat: str, cards: CardSet, extra_class: str = "") -> str:
    """One face-up hat: its style's name, ★ for the Premium, labelled for screen readers."""
    style = style_of(hat)
    label = escape(f"{style} (Premium)" if is_premium(hat) else style)
    star = '<span class="hk-prem">★</span>' if is_premium(hat) else ""
    colour = f"hk-s-{cards.styles.index(style)}" if style in cards.styles else ""
    return (
        f'<span class="hk-card hk-hat {colour} {extra_class}" title="{label}" aria-label="{label}">'
        f"<span>{escape(style)}</span>{star}</span>"
    )


def hats_row_html(hats: Sequence[str], cards: CardSet) -> str:
    """A row of face-up hats with the style sheets, for a page that shows nothing else (a notebook's card list)."""
    return f'{style_tag()}<style>{STYLE}</style><div class="hk">{_hats(hats, cards)}</div>'


def line_html(line: Sequence[str], cards: CardSet, deck_size: int) -> str:
    """The assembly line, first hat first (marked), then the deck (M2)."""
    cells = [
        f'<span class="hk-pos">{hat_html(hat, cards, "hk-first" if i == 0 else "")}<small>{_nth(i)}</small></span>'
        for i, hat in enumerate(line)
    ]
    deck = f'<span class="hk-pos">{back_html("deck")}<small>deck {deck_size}</small></span>'
    return f'<div class="hk-row"><span class="hk-label">assembly line</span>{"".join(cells)}{deck}</div>'


def _nth(index: int) -> str:
    return "first" if index == 0 else str(index + 1)


def inventory_html(inventory: Sequence[str], cards: CardSet) -> str:
    """An inventory grouped by style: the hats, how many and what they score now (M5)."""
    counts = style_counts(inventory)
    groups = []
    for style in (s for s in cards.styles if counts[s]):
        hats = _hats(sorted(h for h in inventory if style_of(h) == style), cards)
        points = style_points(counts[style])
        groups.append(f'<span class="hk-count"><span>{hats}</span><small>{counts[style]} → {points} pt</small></span>')
    return "".join(groups) or "<small>(empty)</small>"


def table_html(state: MadderState, seat: int | None = None) -> str:
    """A whole position as ``seat`` sees it (None: every hand and Haberdasher shown, for teaching)."""
    cards = state.cards
    rows = [f'<div class="hk-row"><small>{escape(cards.label)}</small></div>', _status(state)]
    if state.phase != EXERCISE:
        rows.append(line_html(state.line, cards, len(state.deck)))
    rows += [_seat_html(state, s, seat) for s in range(state.players)]
    if state.discard:
        rows.append(f'<div class="hk-row"><span class="hk-label">discarded</span>{_hats(state.discard, cards)}</div>')
    return f'{style_tag()}<style>{STYLE}</style><div class="hk">{"".join(rows)}</div>'


def _status(state: MadderState) -> str:
    if state.phase == EXERCISE:
        return f'<div class="hk-row">{PHASE_WORDS[EXERCISE]}</div>'
    turn = f" · {SEAT_NAMES[state.turn]} to move" if state.turn is not None else ""
    text = (
        f"Round {state.round} of {state.players} · {SEAT_NAMES[state.dealer]} deals · {PHASE_WORDS[state.phase]}{turn}"
    )
    return f'<div class="hk-row">{escape(text)}</div>'


def _hats(hats: Sequence[str], cards: CardSet) -> str:
    return "".join(hat_html(hat, cards) for hat in hats)


def _seat_html(state: MadderState, seat: int, viewer: int | None) -> str:
    name = escape(SEAT_NAMES[seat])
    inventory = inventory_html(state.inventories[seat], state.cards)
    rows = [f'<div class="hk-row"><span class="hk-label">{name} inventory</span>{inventory}</div>']
    if state.phase == EXERCISE:
        return "".join(rows)
    sees = viewer is None or viewer == seat
    hand = _hats(sorted(state.hands[seat]), state.cards) if sees else back_html("hidden hat") * len(state.hands[seat])
    rows.append(f'<div class="hk-row"><span class="hk-label">{name} hand</span>{hand}</div>')
    if state.haberdashers is not None:
        shown = sees or state.phase in (HABERDASHERS, OVER)
        card = state.cards.haberdasher(state.haberdashers[seat])
        label = f"<b>{escape(card.name)}</b>: {escape(card.text)}" if shown else back_html("secret Haberdasher")
        rows.append(f'<div class="hk-row"><span class="hk-label">{name} Haberdasher</span>{label}</div>')
    return "".join(rows)
