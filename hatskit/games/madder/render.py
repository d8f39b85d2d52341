"""Madder than a Hatter's pictures as pure HTML: hat cards, the assembly line, inventories, a whole position.

A hat card shows a drawing of its style's hat above the style's name (and a
★ for the Premium) on a colour of its own, so neither colour nor drawing is
ever the only sign. A Haberdasher is a card of its own; face-down cards are
card backs. Inventories are grouped by style with the count and what the
style scores now (M5).
"""

from __future__ import annotations

from collections.abc import Sequence

from hatskit.drawing import (
    around_table_html,
    back_html,
    escape,
    hold_html,
    seat_head_html,
    seat_panel_html,
    slot_html,
    style_tag,
)
from hatskit.games.madder.components import (
    ABILITY,
    END,
    EXERCISE,
    HABERDASHERS,
    OVER,
    PLAY,
    SEAT_NAMES,
    Ability,
    CardSet,
    is_premium,
    style_of,
)
from hatskit.games.madder.scoring import style_counts, style_points
from hatskit.games.madder.state import MadderState

# The cards stay light in the dark theme, as cards are (hatskit.drawing), on tints made a little deeper there so
# they do not glare on the dark page. A hat is filled with its style's ink (--hk-ink) and outlined in the card's
# text colour (currentColor), so its band and outline follow the text; every text on a card keeps AA contrast.
STYLE = """
.hk-hat { position: relative; width: 5.2em; height: 4.6em; font-size: 1em; justify-content: flex-end;
  padding-bottom: .3em; box-sizing: border-box; }
.hk-hat .hk-prem { position: absolute; top: .1em; left: .25em; font-size: 1.2em; line-height: 1; color: #7a4d00; }
.hk-hatpic { width: 4.2em; height: 2.94em; fill: var(--hk-ink, #777); stroke: currentColor; stroke-width: 1.2;
  stroke-linejoin: round; overflow: visible; }
.hk-hatpic + span { font-size: .92em; white-space: nowrap; }
.hk-hatpic .hk-band { fill: currentColor; }
.hk-hatpic .hk-seam { fill: none; }
.hk-s-0 { --hk-ink: #c0392b; background: #fde8e8; } .hk-s-1 { --hk-ink: #2f62b3; background: #e6eefc; }
.hk-s-2 { --hk-ink: #2e8a4a; background: #e8f6ea; } .hk-s-3 { --hk-ink: #e0b030; background: #fff4d6; }
.hk-s-4 { --hk-ink: #7a52b3; background: #efe6fa; } .hk-s-5 { --hk-ink: #16868c; background: #e3f5f6; }
.hk-s-6 { --hk-ink: #a8682c; background: #f6ece2; } .hk-s-7 { --hk-ink: #6e6e6e; background: #ececec; }
body[data-jp-theme-light="false"] .hk-s-0 { background: #f1cfcf; }
body[data-jp-theme-light="false"] .hk-s-1 { background: #cbd9f2; }
body[data-jp-theme-light="false"] .hk-s-2 { background: #cde8d2; }
body[data-jp-theme-light="false"] .hk-s-3 { background: #f2e2b3; }
body[data-jp-theme-light="false"] .hk-s-4 { background: #ddd0f0; }
body[data-jp-theme-light="false"] .hk-s-5 { background: #c6e6e8; }
body[data-jp-theme-light="false"] .hk-s-6 { background: #e8d7c4; }
body[data-jp-theme-light="false"] .hk-s-7 { background: #d6d6d6; }
.hk-hatback { width: 5.2em; height: 4.6em; font-size: 1em; box-sizing: border-box; }
.hk-haberback { width: 7em; height: 4.6em; font-size: 1em; box-sizing: border-box; }
.hk-haber { width: 7em; height: auto; min-height: 4.6em; font-size: 1em; padding: .15em .3em .3em;
  box-sizing: border-box; border: 3px double #1d5c3a; background: #f3efe2; text-align: center;
  justify-content: flex-start; }
.hk-haber .hk-hatpic { --hk-ink: #1d5c3a; width: 2.6em; height: 1.8em; }
.hk-haber i { font-size: .85em; font-style: normal; font-weight: 600; }
.hk-haber b { font-size: .9em; }
.hk-first { outline: 3px solid #1f6fd1; }
.hk-count { display: inline-flex; flex-direction: column; align-items: center; margin-right: 6px; }
.hk-count small { color: #444; }
"""

# One drawing per hat style (viewBox 0 0 40 28, the hat seen from the side), keyed by the style's name in small
# letters: a few paths each, filled with the style's ink; "hk-band" parts take the outline's colour. A card
# file may name styles hatskit has no drawing of: those hats get GENERIC_HAT.
HAT_DRAWINGS = {
    "beret": '<path d="M3 16C1 10 12 7 22 7C33 7 40 11 37 16C35 19 27 19.5 20 19.5C12 19.5 4 19 3 16Z"/>'
    '<path class="hk-band" d="M10 19Q20 21 30 19V20.5Q20 22.5 10 20.5Z"/><rect x="21" y="3" width="2.4" height="4.5"/>',
    "boater": '<rect x="11" y="7" width="18" height="12"/><rect class="hk-band" x="11" y="13" width="18" height="4"/>'
    '<rect x="2" y="19" width="36" height="3" rx="1.5"/>',
    "bowler": '<path d="M10 20C10 5 30 5 30 20Z"/><rect class="hk-band" x="10.3" y="16.5" width="19.4" height="3"/>'
    '<path d="M5 18Q7 21 20 21Q33 21 35 18Q35 23.5 20 23.5Q5 23.5 5 18Z"/>',
    "fedora": '<path d="M12 19L13.5 9Q16 6 20 9Q24 6 26.5 9L28 19Z"/>'
    '<path class="hk-band" d="M12.5 15.5H27.5L27.9 18.5H12.1Z"/><path d="M2 21Q20 16 38 21Q20 24.5 2 21Z"/>',
    "homburg": '<path d="M12 19V8Q16 5.5 19.5 8.5Q20 10 20.5 8.5Q24 5.5 28 8V19Z"/>'
    '<path class="hk-seam" d="M20 9.5V12"/><rect class="hk-band" x="12" y="15" width="16" height="3.5"/>'
    '<path d="M3 17Q5 21 20 21Q35 21 37 17Q39 23.5 20 23.5Q1 23.5 3 17Z"/>',
    "newsboy": '<path d="M8 20C5 11 21 5 33 12C37 15 35 20 30 20Z"/><path class="hk-seam" d="M21 8Q16 13 16.5 20"/>'
    '<circle cx="21" cy="8" r="1.6"/><path class="hk-band" d="M9 18.5Q3 19.5 1 23Q9 23.5 15 20.5Z"/>',
    "stetson": '<path d="M13 17L14 5Q17 2.5 20 5.5Q23 2.5 26 5L27 17Z"/>'
    '<rect class="hk-band" x="13.2" y="13" width="13.6" height="3"/>'
    '<path d="M1 11Q5 18.5 20 18Q35 18.5 39 11Q38 22.5 20 22.5Q2 22.5 1 11Z"/>',
    "trilby": '<path d="M13 21L15 12Q18.5 9.5 21.5 12Q25 9.5 28 12.5L30 21Z"/>'
    '<path class="hk-band" d="M13.6 17.5H29.2L29.7 20H13.2Z"/>'
    '<path d="M8 22.5Q12 20 21 21Q30 21.5 34 17Q35.5 21 30 23Q20 24.5 8 22.5Z"/>',
}
GENERIC_HAT = '<path d="M11 19L12.5 8H27.5L29 19Z"/><ellipse cx="20" cy="20.5" rx="16" ry="2.5"/>'
# The Haberdasher's card: a pair of tailor's scissors.
SCISSORS = (
    '<circle cx="8" cy="8" r="5"/><circle cx="8" cy="20" r="5"/>'
    '<path d="M12 10.5L37 19.5L35 21L11.5 13.5ZM12 17.5L37 8.5L35 7L11.5 14.5Z"/>'
)


PHASE_WORDS = {
    PLAY: "players take turns",
    ABILITY: "a Premium ability waits",
    END: "end of the round: hats into your own inventory",
    HABERDASHERS: "the Haberdashers are revealed and used",
    OVER: "the game is over",
    EXERCISE: "a scoring exercise",
}


def hat_svg(style: str) -> str:
    """The drawing of a style's hat; aria-hidden, since the card's label already names the hat."""
    return _svg(HAT_DRAWINGS.get(style.lower(), GENERIC_HAT))


def _svg(shapes: str) -> str:
    """Shapes in the cards' viewBox; width and height keep it small where no style sheet sizes it."""
    return f'<svg class="hk-hatpic" viewBox="0 0 40 28" width="40" height="28" aria-hidden="true">{shapes}</svg>'


def hat_html(hat: str, cards: CardSet, extra_class: str = "") -> str:
    """One face-up hat: its style's drawing over its name, ★ for the Premium, labelled for screen readers, and
    known to a live table by its notation ("Fedora*", ``data-hk-card``) as every card is (drawing.card_html)."""
    style = style_of(hat)
    label = escape(f"{style} (Premium)" if is_premium(hat) else style)
    star = '<span class="hk-prem">★</span>' if is_premium(hat) else ""
    colour = f"hk-s-{cards.styles.index(style)}" if style in cards.styles else ""
    return (
        f'<span class="hk-card hk-hat {colour} {extra_class}" data-hk-card="{escape(hat)}" title="{label}"'
        f' aria-label="{label}">'
        f"{star}{hat_svg(style)}<span>{escape(style)}</span></span>"
    )


def hat_back_html(label: str = "hidden hat") -> str:
    """A face-down hat: the shared card back, as big as a hat's face."""
    return back_html(label, "hk-hatback")


def haberdasher_html(card: Ability) -> str:
    """A face-up Haberdasher as a card of its own (scissors, "Haberdasher", its name); its text is its tooltip."""
    label = escape(f"Haberdasher {card.name}: {card.text}")
    return (
        f'<span class="hk-card hk-haber" data-hk-card="{escape(card.name)}" title="{label}" aria-label="{label}">'
        f"{_svg(SCISSORS)}<i>Haberdasher</i><b>{escape(card.name)}</b></span>"
    )


def hats_row_html(hats: Sequence[str], cards: CardSet) -> str:
    """A row of face-up hats with the style sheets, for a page that shows nothing else (a notebook's card list)."""
    return f'{style_tag()}<style>{STYLE}</style><div class="hk">{_hats(hats, cards)}</div>'


def line_html(line: Sequence[str], cards: CardSet, deck_size: int) -> str:
    """The assembly line, first hat first (marked), then the deck (M2)."""
    cells = [f'<span class="hk-pos">{line_hat_html(hat, index, cards)}</span>' for index, hat in enumerate(line)]
    label = '<span class="hk-label">assembly line</span>'
    return f'<div class="hk-row">{label}{"".join(cells)}{deck_html(deck_size)}</div>'


def line_hat_html(hat: str, index: int, cards: CardSet) -> str:
    """The ``index``-th hat of the assembly line and its place under it; the first one is marked (M2).

    The live table's line cards (widgets/games/madder.py) are this drawing too, so a card an ability may take is the
    card the printed picture shows.
    """
    return f"{hat_html(hat, cards, 'hk-first' if index == 0 else '')}<small>{nth_on_line(index)}</small>"


def deck_html(deck_size: int) -> str:
    """The deck beside the assembly line: a back and how many hats are left in it."""
    return f'<span class="hk-pos">{hat_back_html("deck")}<small>deck {deck_size}</small></span>'


def nth_on_line(index: int) -> str:
    """A place on the assembly line in words: "first", then "2", "3", ..."""
    return "first" if index == 0 else str(index + 1)


def inventory_html(inventory: Sequence[str], cards: CardSet) -> str:
    """An inventory grouped by style: the hats, how many and what they score now (M5)."""
    groups = [
        f'<span class="hk-count"><span>{_hats(hats, cards)}</span>{caption}</span>'
        for hats, caption in inventory_groups(inventory, cards)
    ]
    return "".join(groups) or "<small>(empty)</small>"


def inventory_groups(inventory: Sequence[str], cards: CardSet) -> list[tuple[list[str], str]]:
    """An inventory's styles in the card set's order: each style's hats and the caption under them, how many
    and what they score now (M5). The live table's inventory cards (widgets/games/madder.py) are grouped by it too."""
    counts = style_counts(inventory)
    return [
        (
            sorted(hat for hat in inventory if style_of(hat) == style),
            f"<small>{counts[style]} → {style_points(counts[style])} pt</small>",
        )
        for style in cards.styles
        if counts[style]
    ]


def table_html(state: MadderState, seat: int | None = None) -> str:
    """A whole position as ``seat`` sees it (None: every hand and Haberdasher shown, for teaching): the other
    seats across the top, the assembly line in the middle, ``seat``'s own (Ana's for teaching) at the bottom."""
    cards = state.cards
    middle = [f'<div class="hk-row"><small>{escape(cards.label)}</small></div>', _status(state)]
    if state.phase != EXERCISE:
        middle.append(line_html(state.line, cards, len(state.deck)))
    if state.discard:
        middle.append(f'<div class="hk-row"><span class="hk-label">discarded</span>{_hats(state.discard, cards)}</div>')
    bottom = 0 if seat is None else seat
    body = around_table_html(state.players, bottom, lambda s: _seat_html(state, s, seat), "".join(middle))
    return f'{style_tag()}<style>{STYLE}</style><div class="hk">{body}</div>'


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
    """One seat's panel: its hand (backs unless ``viewer`` may see it), its Haberdasher (a back while secret)
    and its inventory; a scoring exercise has inventories only."""
    inventory = state.inventories[seat]
    holds = [hold_html("inventory", [inventory_html(inventory, state.cards)], len(inventory))]
    sees = viewer is None or viewer == seat
    if state.phase != EXERCISE:
        hats = state.hands[seat]
        hand = _hats(sorted(hats), state.cards) if sees else hat_back_html() * len(hats)
        holds.insert(0, hold_html("hand", [hand], len(hats), fan=not sees))
    if state.phase != EXERCISE and state.haberdashers is not None:
        shown = sees or state.phase in (HABERDASHERS, OVER)
        card = state.cards.haberdasher(state.haberdashers[seat])
        label = f"{haberdasher_html(card)}<span>{escape(card.text)}</span>" if shown else _secret_haberdasher()
        holds.insert(1, slot_html("Haberdasher", label))
    to_move = state.turn == seat and state.phase not in (EXERCISE, OVER)
    head = seat_head_html(SEAT_NAMES[seat], "you" if seat == viewer else "player", to_move)
    return seat_panel_html(seat, head, holds, to_move)


def _secret_haberdasher() -> str:
    """A Haberdasher not yet revealed: its card back, as wide as its face."""
    return back_html("secret Haberdasher", "hk-haberback")
