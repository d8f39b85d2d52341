"""Hats Off! pictures: hat cards, the pile, loose cards and each player's place, as HTML strings.

A card shows a drawn hat and its name, so the eight hats differ in shape and
in words as well as in colour. Pictures are drawn from a seat's view, so a
seat's picture can only hold what that seat may see; ``table_html`` of a
state with no seat shows every card, for teaching.
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
from hatskit.games.hats_off.components import KIND_NAMES
from hatskit.games.hats_off.positions import HatsOffView
from hatskit.games.hats_off.positions import view as view_of
from hatskit.games.hats_off.scoring import cards
from hatskit.games.hats_off.state import HatsOffState

STYLE = """
.hk-ho-card { display: inline-flex; flex-direction: column; align-items: center; justify-content: center;
  width: 4.4em; height: 4.6em; margin: 2px; border: 2px solid #444; border-radius: 6px; background: #fffdf6;
  color: #222; vertical-align: top; }
.hk-ho-card svg { width: 3.4em; height: 2.6em; }
.hk-ho-name { font-size: .75em; font-weight: 700; line-height: 1.1; text-align: center; }
.hk-ho-big { transform: scale(1.35); margin: 14px 18px; }
.hk-ho-note { color: #555; font-size: .85em; }
.hk-ho-status { margin: 4px 0; font-weight: 600; }
"""

# One drawing per hat (viewBox 0 0 40 30), filled with the hat's colour; outlines in dark grey.
_SHAPES = {
    "top": '<rect x="12" y="3" width="16" height="19" rx="1"/>'
    '<rect x="12" y="16" width="16" height="3" fill="#c0152f"/><ellipse cx="20" cy="23" rx="16" ry="3"/>',
    "bowler": '<path d="M9 21 Q9 6 20 6 Q31 6 31 21 Z"/><ellipse cx="20" cy="22" rx="15" ry="3"/>',
    "cowboy": '<path d="M12 19 L13 8 Q16 5 20 8 Q24 5 27 8 L28 19 Z"/>'
    '<path d="M2 17 Q10 24 20 22 Q30 24 38 17 Q30 27 20 26 Q10 27 2 17 Z"/>',
    "beret": '<ellipse cx="20" cy="17" rx="16" ry="7"/><rect x="19" y="6" width="2" height="5"/>',
    "fez": '<path d="M12 24 L14 7 L26 7 L28 24 Z"/><path d="M20 7 Q30 6 30 17" fill="none" stroke-width="1.5"/>'
    '<circle cx="30" cy="18" r="1.8"/>',
    "beanie": '<path d="M8 22 Q8 7 20 7 Q32 7 32 22 Z"/><rect x="7" y="20" width="26" height="5" rx="1"/>'
    '<circle cx="20" cy="5" r="3.5"/>',
    "chef": '<circle cx="13" cy="10" r="6"/><circle cx="20" cy="7" r="6.5"/><circle cx="27" cy="10" r="6"/>'
    '<rect x="12" y="11" width="16" height="14" rx="1"/>',
    "party": '<path d="M20 3 L30 26 L10 26 Z"/>'
    '<path d="M15 15 L25 15 M12.5 21 L27.5 21" stroke="#fff" stroke-width="2"/>'
    '<circle cx="20" cy="3" r="2.5" fill="#f5c400"/>',
}
_COLOURS = {
    "top": "#2b2b2b",
    "bowler": "#6b3e1f",
    "cowboy": "#c27c2c",
    "beret": "#c0152f",
    "fez": "#e0602a",
    "beanie": "#1f4fb8",
    "chef": "#f4f4f4",
    "party": "#8a2be2",
}


def hat_svg(kind: str) -> str:
    """The drawing of one hat (decorative: the card's name says which hat it is)."""
    return (
        f'<svg viewBox="0 0 40 30" aria-hidden="true" fill="{_COLOURS[kind]}" stroke="#333" stroke-width="1">'
        f"{_SHAPES[kind]}</svg>"
    )


def hat_card_html(kind: str, extra_class: str = "", label: str | None = None) -> str:
    """A face-up card: the drawn hat over its name; ``label`` names it for screen readers and tests."""
    name = KIND_NAMES[kind]
    title = escape(label or name)
    return (
        f'<span class="hk-ho-card {extra_class}" data-hat="{kind}" title="{title}" aria-label="{title}">'
        f'{hat_svg(kind)}<span class="hk-ho-name">{escape(name)}</span></span>'
    )


def status_text(view: HatsOffView) -> str:
    """Who acts now, in words: the deal, the flip, a race (and who is still to move), or the result."""
    names = view["names"]
    waiting = _and([names[s] for s in view["acting"]])
    if view["phase"] == "wear":
        return f"The deal: {waiting} still to choose a head card (O1)"
    if view["phase"] == "flip":
        return f"{names[view['flipper']]} to flip the next card (O2)"
    if view["phase"] == "race":
        top = view["top"]
        what = "A race for the loose cards" if top is None else f"Race {view['race']} for the {KIND_NAMES[top]}"
        return f"{what}: waiting for {waiting} (O3)"
    return str(view["outcome"])


def _and(words: Sequence[str]) -> str:
    return " and ".join(words) if len(words) < 3 else f"{', '.join(words[:-1])} and {words[-1]}"


def _pile_html(view: HatsOffView) -> str:
    top = view["top"]
    if top is None:
        shown = '<span class="hk-ho-note">the pile is empty</span>'
    else:
        under = len(view["pile"]) - 1
        shown = hat_card_html(top, "hk-ho-big", f"top card: {KIND_NAMES[top]}")
        if under:
            shown += f'<span class="hk-ho-note">{under} unmatched card{"s" if under > 1 else ""} under it</span>'
    deck = back_html(f"deck: {view['deck_size']} cards") + f'<span class="hk-ho-note">deck {view["deck_size"]}</span>'
    return f'<div class="hk-row"><span class="hk-label">pile</span>{shown}{deck}</div>'


def _loose_html(view: HatsOffView) -> str:
    if not view["loose"]:
        return ""
    names = view["names"]
    cards = []
    for card in view["loose"]:
        how = "fell off" if card["fell"] else "wrongly played by"
        label = f"loose {KIND_NAMES[card['kind']]}, {how} {names[card['owner']]}"
        cards.append(hat_card_html(card["kind"], "", label))
    return f'<div class="hk-row"><span class="hk-label">loose: call Hats Off!</span>{"".join(cards)}</div>'


def _head_html(view: HatsOffView, seat: int, shown: str | None) -> str:
    name = view["names"][seat]
    if not view["has_head"][seat]:
        return '<span class="hk-ho-note">no head card</span>'
    if shown is None:
        return back_html(f"{name}'s head card, face down")
    looking = " (looking)" if view["looking"][seat] else ""
    return hat_card_html(shown, "", f"{name}'s head card: {KIND_NAMES[shown]}{looking}")


def seat_html(
    view: HatsOffView,
    seat: int,
    player: str,
    hand: Sequence[str] | None = None,
    head: str | None = None,
    on_pad: bool = False,
) -> str:
    """A seat's panel: its name and kind of ``player`` ("you", "adult bot"), its head card, its hand (``hand``
    None: backs, their count only; ``head`` None: the head card face down) and the pile of cards it won, counted.

    The seats that act now are marked to move: the flipper at a flip, everyone still to move in a race. A
    reader racing on the live table's pad (``on_pad``) has their head and hand there, so the panel leaves them out.
    """
    name = view["names"][seat]
    notes = ["has moved"] if seat in view["submitted"] else []
    notes += ["flips next (O2)"] if view["phase"] == "flip" and view["flipper"] == seat else []
    to_move = seat in view["acting"]
    if hand is None:
        cards = [back_html(f"{name}'s hand card")] * view["hand_sizes"][seat]
    else:
        cards = [hat_card_html(kind, "", f"{name}'s {KIND_NAMES[kind]}") for kind in sorted(hand)]
    won = view["won_counts"][seat]
    won_pile = hold_html("won", [back_html(f"{name} won {won}")] * min(won, WON_DRAWN), won, empty="none yet")
    holds = [won_pile]
    if not on_pad:
        holds[:0] = [
            slot_html("head", _head_html(view, seat, head)),
            hold_html("hand", cards, len(cards), fan=hand is None),
        ]
    return seat_panel_html(seat, seat_head_html(name, player, to_move, notes), holds, to_move)


WON_DRAWN = 4  # the won pile is drawn as at most this many backs; its count says how many it holds


def _match_html(view: HatsOffView) -> str:
    best_of = view["options"]["best_of"]
    if best_of == 1:
        return ""
    wins = ", ".join(f"{name} {count}" for name, count in zip(view["names"], view["round_wins"], strict=True))
    return f'<div class="hk-ho-note">Round {view["round"]} of best of {best_of} · rounds won: {escape(wins)}</div>'


def style_html() -> str:
    """The shared style sheet and the Hats Off! one, as <style> elements."""
    return f"{style_tag()}<style>{STYLE}</style>"


def cards_html(kinds: Sequence[str]) -> str:
    """A row of face-up cards with the style sheet: a picture on its own (the hats of the game, a hand)."""
    return f'{style_html()}<div class="hk hk-row">{"".join(hat_card_html(kind) for kind in kinds)}</div>'


def seat_row_html(view: HatsOffView, kinds: Sequence[str], seats: Sequence[int], on_pad: bool = False) -> str:
    """Some seats in public, side by side, for a live table's rows around its race pad: each seat's head card
    and hand as backs (or, ``on_pad``, left to the race pad, where the reader's own are), the cards it won, who
    flips next (O2). The deck's count and the round come after the reader's seat."""
    panels = "".join(seat_html(view, seat, kinds[seat], on_pad=on_pad) for seat in seats)
    deck = f'<div class="hk-ho-note">deck: {cards(view["deck_size"])} · round {view["round"]}</div>'
    return f'<div class="hk-seats">{panels}</div>' + (deck if view["seat"] in seats else "")


def view_html(
    view: HatsOffView,
    hands: Sequence[Sequence[str] | None] | None = None,
    heads: Sequence[str | None] | None = None,
    kinds: Sequence[str] | None = None,
) -> str:
    """A seat's view as a table: the other seats across the top, the pile in the middle, the viewer's seat at
    the bottom. ``hands`` and ``heads`` reveal the cards they give (None: a seat's stay hidden); ``kinds`` says
    who sits where (by default "you" at the viewer's seat, "player" elsewhere)."""
    bottom = view["seat"] if view["seat"] is not None else 0
    kinds = kinds or ["you" if seat == view["seat"] else "player" for seat in range(view["players"])]

    def seat(number: int) -> str:
        hand = hands[number] if hands is not None else view["hand"] if number == view["seat"] else None
        head = heads[number] if heads is not None else view["head"] if number == view["seat"] else None
        return seat_html(view, number, kinds[number], hand, head)

    around = around_table_html(view["players"], bottom, seat, _pile_html(view) + _loose_html(view))
    rows = [f'<div class="hk-ho-status">{escape(status_text(view))}</div>', around, _match_html(view)]
    return f'{style_html()}<div class="hk">{"".join(rows)}</div>'


def table_html(state: HatsOffState, seat: int | None = None) -> str:
    """A position as ``seat`` sees it; with no seat, every hand and head card shown (for teaching)."""
    if seat is not None:
        return view_html(view_of(state, seat))
    return view_html(view_of(state, None), state.hands, state.heads)
