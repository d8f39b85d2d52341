"""The Hats table as widgets: the tea table, your hand and every seat's collection.

    >>> HatsTable(hatskit.new_game("hats", players=3, seed=7), seats=("reader", "greedy", "strong"))

Click a card of your hand to select it: the table positions it may take light
up (a card that fits none says so). Click a position to exchange onto it (H2),
or press *black hat* (H3), *discard* (H4) or, with four players, *swap* (H5).
When your partner swapped, select the card to return and press *give back*.
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
from collections.abc import Callable
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
    Swap,
    partner,
)
from hatskit.games.hats.bots import what_to_do
from hatskit.games.hats.render import hat_card_html
from widgets.table.frame import TableFrame
from widgets.table.seating import SeatRing
from widgets.toolkit import ui
from widgets.toolkit.parts import column, html_line, named_button, row, set_face, set_marks, show

MARKS = ("hk-legal", "hk-selected", "hk-hint", "hk-changed")
CARD_CLASSES = ("hk-cardbtn", "hk-big", "hk-facedown", *MARKS)


class HatsTable(TableFrame):
    """A Hats game at a table of readers and bots; see the module docstring."""

    game_id = "hats"
    default_seats = ("reader", "greedy", "strong")

    # -- building (once) ---------------------------------------------------------

    def build_table(self) -> list[ui.Part]:
        players = len(self.game.seat_names)
        positions = range(1, len(self.game.view(None)["table"]) + 1)
        self.position_buttons = [_card_button(lambda p=p: self.play_selected(f"{{card}}@{p}")) for p in positions]
        self.hand_buttons = [_card_button(lambda i=i: self.pick(i)) for i in range(HAND_SIZE)]
        optional = "swap" if players == 4 else "discard"
        self.action_templates: dict[ui.Button, str] = {}  # each action button and the move it makes of the card
        self.black_hat_button = self._action_button("black hat", "black {card}")
        self.optional_button = self._action_button(optional, f"{optional} {{card}}")
        self.give_back_button = self._action_button("give back", "back {card}")
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

    def _action_button(self, name: str, template: str) -> ui.Button:
        """A button that plays ``template`` with the selected card; its tooltip says what and why."""
        button = named_button(name, ACTION_TIPS[name], lambda: self.play_selected(template))
        button.add_class("hk-action")
        self.action_templates[button] = template
        return button

    def _labelled_positions(self) -> list[ui.VBox]:
        return [
            column([button, html_line("hk-poslabel", str(position))])
            for position, button in enumerate(self.position_buttons, start=1)
        ]

    # -- clicks ------------------------------------------------------------------

    def pick(self, index: int) -> None:
        """Select (or unselect) the hand card shown on button ``index``."""
        card = self.hand_buttons[index].description
        if card:
            self.select(None if card == self.selected else card)

    def no_target_text(self, item: str) -> str | None:
        """A hand card that fits no table position: it can still be a black hat (or given back to a partner)."""
        moves = self.reader_moves()
        if any(isinstance(move, Exchange) and str(move.card) == item for move in moves):
            return None
        if any(isinstance(move, Back) for move in moves):
            return None
        return (
            f"{item} can take no card on the tea table now: it needs a card of its own type, or one with a lower "
            f"number (H2). You can still make {item} a black hat (H3)."
        )

    def move_words(self, move: Any) -> str:
        """A hinted move in words: "put ♥4 on position 4 and take ♥5", "discard ♥2 and draw a new card ..."."""
        return what_to_do(self.shown().view(self.hint_seat()), move)

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

    def play_selected(self, template: str) -> None:
        """Play ``template`` (such as ``"black {card}"``) with the selected hand card."""
        if self.selected is None:
            self.say("First select a card in your hand, then choose where it goes.", error=True)
            return
        self.try_move(template.format(card=self.selected))

    # -- showing ---------------------------------------------------------------------

    def show_table(self, view: dict[str, Any]) -> None:
        hand = sorted(view["hand"], key=_card_order)
        if self.selected not in hand:
            self.selected = None
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
        exchanges = [move for move in self.reader_moves() if isinstance(move, Exchange)]
        targets = {move.position for move in exchanges if str(move.card) == self.selected}
        for position, (button, card) in enumerate(zip(self.position_buttons, view["table"], strict=True), start=1):
            face_down = position not in view["face_up"]
            changed = card != table_before[position - 1]
            marks = ["hk-facedown"] if face_down else []
            marks += ["hk-legal"] if position in targets else []
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
            marks = ["hk-selected"] if card == self.selected else []
            marks += ["hk-hint"] if card == hinted else []
            _show_card(button, card, f"{card} in your hand", marks)

    def _show_actions(self, view: dict[str, Any], hint: Any) -> None:
        """Black hat, discard or swap, or give back: those the picked-up card may do are marked as allowed, as
        the positions it may take are."""
        answering = view["swap_waiting"] is not None and view["to_move"] == view["seat"]
        for button in (self.black_hat_button, self.optional_button):
            show(button, not answering)
        show(self.give_back_button, answering)
        acting = {BlackHat: self.black_hat_button, Discard: self.optional_button, Swap: self.optional_button}
        hinted = acting.get(type(hint)) or (self.give_back_button if isinstance(hint, Back) else None)
        allowed_moves = {str(move) for move in self.reader_moves()} if self.selected is not None else set()
        for button, template in self.action_templates.items():
            allowed = template.format(card=self.selected) in allowed_moves
            set_marks(button, ["hk-legal"] * allowed + ["hk-hint"] * (button is hinted), MARKS)

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
    "black hat": "put the selected card face down into your collection: 1 point",
    "discard": "discard the selected card face down and draw the top card of the deck",
    "swap": "pass the selected card face down to your partner, who gives one back",
    "give back": "give the selected card back to your partner",
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
        return f"{names[giver]} passed you {card} face down: select a card of your hand and press give back."
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


def _card_button(action: Callable[[], None]) -> ui.Button:
    """A card-sized button, blank until a card is shown on it (sized by the style sheet)."""
    return named_button("", "", action, width=None)
