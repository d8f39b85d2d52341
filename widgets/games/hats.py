"""The Hats table as widgets: the tea table, your hand and every seat's collection.

    >>> HatsTable(hatskit.new_game("hats", players=3, seed=7), seats=("reader", "greedy", "strong"))

Click (or drag) a card of your hand to pick it up: the table positions it may
take and the actions it may make light up. Click a position to exchange onto it
(H2), or press *black hat* (H3), *discard* (H4) or, with four players, *swap*
(H5); click the card again to put it down. When your partner swapped, pick the
card to return and press *give back*. The page does the picking from the moves
the table sends it (a hand card, then where it goes: :meth:`HatsTable.path_of`);
a press that makes no move gets a sentence saying why (the engine's, for a
position or an action the card may not take) and changes nothing.
The cards the last moves changed, on the tea table and in the collections,
carry a corner star until the next move. After the end the cards are switched
off, the reader's hand and actions are put away (the hand's last card is the
favorite hat, H6) and each seat shows its final collection and favorite hat.

Everything shown comes from ``game.view(seat)`` for the reader's seat, plus the
public score sheet: other players' hands appear as card backs (their count
only), their black hats as backs, and moves made out of sight are told by
their public events, never by their notation.
"""

from __future__ import annotations

import re
from typing import Any

from hatskit.core import Event
from hatskit.drawing import (
    Told,
    back_html,
    escape,
    hold_html,
    seat_contents_html,
    seat_head_html,
    slot_html,
    without_rules,
)
from hatskit.games.hats import (
    HAND_SIZE,
    KINDS,
    MAIN_ACTIONS,
    Back,
    BlackHat,
    Discard,
    Exchange,
    HatsMove,
    Swap,
    partner,
)
from hatskit.games.hats.bots import what_to_do
from hatskit.games.hats.render import hat_card_html
from widgets.table.frame import TableFrame
from widgets.table.seating import SeatRing
from widgets.toolkit import ui
from widgets.toolkit.parts import column, css_of, html_line, piece_button, row, set_face, set_marks, show

MARKS = ("hk-hint", "hk-changed")  # what the kernel draws; the page draws a pick (hk-selected) and its targets
CARD_CLASSES = ("hk-cardbtn", "hk-big", "hk-facedown", *MARKS)


class HatsTable(TableFrame):
    """A Hats game at a table of readers and bots; see the module docstring."""

    game_id = "hats"
    default_seats = ("reader", "greedy", "strong")
    script = "hats.js"  # what only this game draws on the page: a black hat turning over

    # -- building (once) ---------------------------------------------------------

    def build_table(self) -> list[ui.Part]:
        players = len(self.game.seat_names)
        positions = range(1, len(self.game.view(None)["table"]) + 1)
        self.position_buttons = [_card_button() for _ in positions]
        self.hand_buttons = [_card_button() for _ in range(HAND_SIZE)]
        optional = "swap" if players == 4 else "discard"
        self.black_hat_button = _action_button("black hat")
        self.optional_button = _action_button(optional)
        self.give_back_button = _action_button("give back")
        self.seat_rows = [html_line("hk-seatcards") for _ in range(players)]
        self.table_info = html_line("hk-info")
        self.hand_label = html_line("hk-label")
        self.hand_row = row([self.hand_label, *self.hand_buttons])
        self.hand_row.add_class("hk-handrow")
        self.actions_row = row([self.black_hat_button, self.optional_button, self.give_back_button])
        self.ring = SeatRing([[line] for line in self.seat_rows], [self.hand_row, self.actions_row])
        tea_table = row([html_line("hk-label", "tea table"), html_line("", ENDMARK), *self._labelled_positions()])
        middle = column([tea_table, self.table_info])
        middle.add_class("hk-middle")
        return [self.ring.top, middle, self.ring.bottom]

    def _labelled_positions(self) -> list[ui.VBox]:
        return [
            column([button, html_line("hk-poslabel", str(position))])
            for position, button in enumerate(self.position_buttons, start=1)
        ]

    # -- the moves, as the page picks them ------------------------------------------

    def path_of(self, move: HatsMove) -> list[ui.Part]:
        """The hand button showing the move's card, then its position (H2) or its action button (H3-H5)."""
        held = self._hand_button(str(move.card))
        return [] if held is None else [held, self._target(move)]

    def _hand_button(self, card: str) -> ui.Button | None:
        """The hand button showing ``card`` now (the hand is shown sorted; a card is in a game once, H1)."""
        return next((button for button in self.hand_buttons if card and button.description == card), None)

    def _target(self, move: HatsMove) -> ui.Button:
        if isinstance(move, Exchange):
            return self.position_buttons[move.position - 1]
        if isinstance(move, BlackHat):
            return self.black_hat_button
        return self.give_back_button if isinstance(move, Back) else self.optional_button  # discard or swap

    def target_words(self, move: HatsMove) -> str:
        """What a lit position or action adds to its name: "♣6 can go here and take ♣3 (♣6@1)"."""
        card = move.card
        if isinstance(move, Exchange):
            there = self.position_buttons[move.position - 1].description
            return f"{card} can go here and take {there} ({move})"
        words = {BlackHat: "become a black hat", Discard: "be discarded", Swap: "be passed to your partner"}
        return f"{card} can {words.get(type(move), 'be given back')} ({move})"

    def board(self) -> list[ui.Part]:
        return [*self.hand_buttons, *self.position_buttons, *self.action_buttons]

    def explain(self, path: list[ui.Part]) -> str:
        """Why presses made no move: a place pressed before a card, a card that can go nowhere, or a position or
        action the engine refuses for the card picked up."""
        if not self.decides() or self.shown().is_over:
            return super().explain(path)
        first, last = path[0], path[-1]
        if _index(self.hand_buttons, first) is None:
            return "First pick a card of your hand, then where it goes."
        if len(path) == 1 or _index(self.hand_buttons, last) is not None:
            return self._why_not_picked(last)
        return self.why_not(self._notation(getattr(first, "description", ""), last)) or super().explain(path)

    def _why_not_picked(self, button: ui.Part) -> str:
        """Why a hand card is not picked up: it can go nowhere now, or (in a lesson) the step asks for another."""
        card = getattr(button, "description", "")
        mine = [move for move in self.reader_moves() if str(move.card) == card]
        if not card or not mine:
            return f"{card or 'That'} can go nowhere now: it can take no card on the tea table and make no action."
        return self.why_not(str(mine[0])) or super().explain([button])

    def _notation(self, card: str, target: ui.Part) -> str:
        """The move the reader tried: ``card`` onto a position (H2), or the action of the button pressed."""
        position = _index(self.position_buttons, target)
        if position is not None:
            return f"{card}@{position + 1}"
        if target is self.black_hat_button:
            return f"black {card}"
        keyword = "back" if target is self.give_back_button else self.optional_button.description
        return f"{keyword} {card}"

    def move_words(self, move: Any, seat: int | None = None) -> str:
        """A hinted move in words: "put ♥4 on position 4 and take ♥5", "discard ♥2 and draw a new card ..."."""
        return what_to_do(self.shown().view(self.hint_seat() if seat is None else seat), move)

    def said(self, events: list[Event]) -> list[Told]:
        """One short line a move: "Cleo exchanged ★4 for ★5 at position 3 and takes the last cookie". Why it was
        allowed (same type) and why the cookie moved wait, whole, behind "why?"."""
        lines: list[Told] = []
        for event in events:
            short = _short(event)
            main = lines[-1] if lines and getattr(lines[-1].sources[-1], "rule", None) in MAIN_RULES else None
            if event.rule == COOKIE and main is not None:  # the cookie moved with that main action
                mover = main.text.split(" ", 1)[0]
                joined = short.removeprefix(f"{mover} ") if short.startswith(f"{mover} ") else None
                other = f"t{short[1:]}" if short.startswith("The ") else short  # "..., and the last cookie goes"
                text = f"{main.text} and {joined}" if joined else f"{main.text}, and {other}"
                lines[-1] = Told(text, (*main.sources, event))
            else:
                lines.append(Told(short, (event,)))
        return lines

    # -- showing ---------------------------------------------------------------------

    def show_table(self, view: dict[str, Any]) -> None:
        hand = sorted(view["hand"], key=_card_order)
        hint = None if self.hint_move is None else self.game.parse(self.hint_move)
        before = self.view_before()
        self._show_tea_table(view, before["table"], hint)
        self._show_hand(view, hand, hint)
        self._show_actions(view, hint)
        for seat, seat_row in enumerate(self.seat_rows):
            seat_row.value = self._seat_html(view, seat, before["collections"][seat])
        self.ring.place(view["seat"], [] if view["to_move"] is None else [view["to_move"]])
        self.table_info.value = _info_html(view)
        over = view["to_move"] is None
        for button in [*self.position_buttons, *self.hand_buttons, *self.action_buttons]:
            button.disabled = over
        for part in (self.hand_row, self.actions_row):
            show(part, not over)  # the hand's last card is now the favorite hat, shown in the seat (H6)

    @property
    def action_buttons(self) -> list[ui.Button]:
        return [self.black_hat_button, self.optional_button, self.give_back_button]

    def _show_tea_table(self, view: dict[str, Any], table_before: list[str], hint: Any) -> None:
        for position, (button, card) in enumerate(zip(self.position_buttons, view["table"], strict=True), start=1):
            face_down = position not in view["face_up"]
            changed = card != table_before[position - 1]
            marks = ["hk-facedown"] if face_down else []
            marks += ["hk-hint"] if isinstance(hint, Exchange) and hint.position == position else []
            marks += ["hk-changed"] if changed else []
            duplicate = ", face down at scoring: its type lies nearer Ø too and counts only there" if face_down else ""
            news = f", put here in the last {_moves(len(self.recent_plies()))}" if changed else ""
            _show_card(button, card, f"position {position}: {card}{duplicate}{news}", marks)

    def _show_hand(self, view: dict[str, Any], hand: list[str], hint: Any) -> None:
        owner = f"{view['names'][view['seat']]}'s" if self.readers_share else "Your"
        self.hand_label.value = f"{owner} hand"
        hinted = str(hint.card) if hint is not None else None
        for index, button in enumerate(self.hand_buttons):
            card = hand[index] if index < len(hand) else None
            marks = ["hk-hint"] if card is not None and card == hinted else []
            _show_card(button, card, f"{card} in your hand", marks)

    def _show_actions(self, view: dict[str, Any], hint: Any) -> None:
        """Black hat, discard or swap, or give back, as the turn has them; the hinted one marked. (Those the card
        picked up may make light up on the page, as the positions it may take do.)"""
        answering = view["swap_waiting"] is not None and view["to_move"] == view["seat"]
        for button in (self.black_hat_button, self.optional_button):
            show(button, not answering)
        show(self.give_back_button, answering)
        acting = {BlackHat: self.black_hat_button, Discard: self.optional_button, Swap: self.optional_button}
        hinted = acting.get(type(hint)) or (self.give_back_button if isinstance(hint, Back) else None)
        for button in self.action_buttons:
            set_marks(button, ["hk-hint"] * (button is hinted), MARKS)

    def _seat_html(self, view: dict[str, Any], seat: int, collection_before: list[str]) -> str:
        """One seat: who sits there, its notes, its hand (backs for others; the reader's is the buttons below),
        its collection and its black hats.

        After the end the hand is the favorite hat, shown face up (H6), and the collection is the final one.
        """
        notes = [f"{view['played'][seat]}/{MAIN_ACTIONS} main actions"]
        notes += ["holds the last cookie"] if view["cookie"] == seat else []
        head = seat_head_html(view["names"][seat], self.seat_kind(seat), view["to_move"] == seat, notes)
        new = [card for card in view["collections"][seat] if card not in collection_before]
        collection = [_collected_html(card, card in new) for card in view["collections"][seat]]
        final = "final " if view["favorites"] else ""
        holds = [hold_html(f"{final}collection", collection, empty="none yet"), _black_hats_html(view, seat)]
        if view["favorites"]:
            holds.insert(0, slot_html("favorite hat", hat_card_html(view["favorites"][seat])))
        elif seat != view["seat"]:
            holds.insert(0, hold_html("hand", [back_html("hidden card")] * view["hand_sizes"][seat], fan=True))
        return seat_contents_html(head, holds)


ACTION_TIPS = {
    "black hat": "put the card you picked up face down into your collection: 1 point",
    "discard": "discard the card you picked up face down and draw the top card of the deck",
    "swap": "pass the card you picked up face down to your partner, who gives one back",
    "give back": "give the card you picked up back to your partner",
}
MAIN_RULES = ("H2", "H3")  # the events of an exchange and a black hat
COOKIE = "H10"  # the event of the last cookie changing hands
ENDMARK = '<span class="hk-card" title="the Ø end of the table">Ø</span>'


def _info_html(view: dict[str, Any]) -> str:
    """Deck, discard pile, cookie holder, teams and a waiting swap: all public."""
    names = view["names"]
    holder = names[view["cookie"]] if view["cookie"] is not None else "on the napkin (nobody)"
    lines = [f"deck: {view['deck_size']} cards · discard pile: {view['discard_size']} · last cookie: {holder}"]
    if view["teams"]:
        teams = " against ".join(" + ".join(names[seat] for seat in team) for team in view["teams"])
        lines.append(f"teams: {teams}; instead of a discard you may swap a card face down with your partner")
    if view["swap_waiting"] is not None:
        lines.append(_swap_line(view))
    return "<br>".join(escape(line) for line in lines)


def _swap_line(view: dict[str, Any]) -> str:
    giver = view["swap_waiting"]
    names, taker = view["names"], partner(giver)
    card = view.get("swap_card")
    if view["seat"] == giver:
        return f"You passed {card} face down to {names[taker]}, who now gives a card back."
    if view["seat"] == taker:
        return f"{names[giver]} passed you {card} face down: pick a card of your hand and press give back."
    return f"{names[giver]} passed a card face down to {names[taker]}, who now gives one back."


def _short(event: Event) -> str:
    """An event told short, without its ids: an exchange without why it was allowed ("(same type ★)"), the cookie
    without why it moved (what follows the colon)."""
    text = without_rules(event.text)[0]
    if event.rule == "H2":
        return re.sub(r"\s*\([^()]*\)$", "", text)
    return text.split(": ", 1)[0] if event.rule == COOKIE else text


def _collected_html(card: str, new: bool) -> str:
    """A collection card; one the last moves brought carries the corner star and says so."""
    return hat_card_html(card, "hk-changed", f"{card}, new in the last moves") if new else hat_card_html(card)


def _moves(count: int) -> str:
    return "move" if count == 1 else f"{count} moves"


def _black_hats_html(view: dict[str, Any], seat: int) -> str:
    """A seat's black hats as a stack of backs; the viewer's own as black cards, face down for everyone else
    but shown to their owner.

    Black, not dimmed: a dimmed card is a duplicate type that will not score (H7).
    """
    if seat == view["seat"]:
        cards = [hat_card_html(card, "hk-blackhat") for card in view["my_black_hats"]]
    else:
        cards = [back_html("black hat")] * view["black_hat_counts"][seat]
    return hold_html("black hats", cards, view["black_hat_counts"][seat])


def _card_order(card: str) -> tuple[int, int]:
    return KINDS.index(card[0]), int(card[1:])


def _show_card(button: ui.Button, card: str | None, tooltip: str, marks: list[str]) -> None:
    """Show ``card`` on ``button`` as the renderer draws it (a duplicate type dimmed, H7), or hide an empty slot."""
    face = hat_card_html(card, "hk-facedown" if "hk-facedown" in marks else "", tooltip) if card else ""
    classes = ["hk-cardbtn", "hk-big", *marks]
    set_face(button, card or "", tooltip if card else "", classes, CARD_CLASSES, visible=bool(card), face=face)


def _card_button() -> ui.Button:
    """A card-sized button, blank until a card is shown on it (sized by the style sheet); its presses are picks."""
    return piece_button()


def _action_button(name: str) -> ui.Button:
    """Black hat, discard, swap or give back: a press completes the path of the card picked up (no action of its
    own); its tooltip says what it does."""
    button = ui.Button(description=name, tooltip=ACTION_TIPS[name], css=css_of(width="auto"))
    button.add_class("hk-action")
    return button


def _index(buttons: list[ui.Button], part: ui.Part) -> int | None:
    """Where ``part`` is among ``buttons`` (by identity), or None."""
    return next((index for index, button in enumerate(buttons) if button is part), None)
