"""The Madder than a Hatter table as widgets: the assembly line, every inventory, your hand and your Haberdasher.

    >>> MadderTable(hatskit.new_game("madder", players=3, seed=7), seats=("reader", "greedy", "strong"))

Click (or drag) a hat of your hand to pick it up: the inventories it may go
into light up. Click *into Ben's inventory*, or drop the hat on one of Ben's
hats, to play it there (``Fedora>Ben``, M3); click the hat again to put it
down. When a Premium you played offers its ability, or your Haberdasher waits
at the end of the round, the cards are the choice: the hats it may choose (on
the assembly line, in an inventory) light up, and a click (or Enter or Space)
on one plays that choice (``take Boater@line``, ``discard Boater@Ben``). A hat
that starts several choices (yours in a swap, a hat to move, a hat discarded
with another) is picked up first, and what becomes of it is then chosen on the
table too: the hat to swap it for, the second hat to discard with it, the
inventory it moves into light up, and a click there plays the choice; only
what no click names (one hat discarded alone, when it may go with another)
stays a button in plain words. *decline* leaves the ability unused (M3, M4).
At the end of the round you play hats into your own inventory and press
*done* (M4); the Haberdashers are then revealed and used one by one from the
dealer, each step shown as it happens.

The page does the picking up and the lighting, from the moves the table sends
it as paths of presses (:meth:`MadderTable.paths_of`): two Berets in a hand
are two buttons, and each makes its own path. A press that makes no move gets
a sentence saying why (:meth:`MadderTable.explain`) and changes nothing.

Everything shown comes from ``game.view(seat)`` for the reader's seat: other
players' hands are card backs (their count only) and their Haberdashers stay
secret until the reveal. The card texts carry the card set's label, so the
stand-in cards are never taken for the printed ones (M6).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from hatskit.core import EndPhase, ScoreLine
from hatskit.drawing import escape, hold_html, seat_contents_html, seat_head_html, slot_html, without_rules
from hatskit.games.madder import DECLINE, DONE, Discard, HatAt, MadderOptions, MoveHat, Play, Swap, Take, card_set
from hatskit.games.madder.components import (
    ABILITY,
    END,
    HABERDASHERS,
    LINE_SIZE,
    OVER,
    SEAT_NAMES,
    STYLE_COUNT,
    Ability,
    CardSet,
    hat_words,
    is_premium,
    style_of,
)
from hatskit.games.madder.moves import LINE, Choice, Place
from hatskit.games.madder.positions import MadderView
from hatskit.games.madder.render import (
    PHASE_WORDS,
    STYLE,
    deck_html,
    haberdasher_html,
    hat_back_html,
    hat_html,
    inventory_groups,
    inventory_html,
    line_hat_html,
)
from widgets.table.frame import TableFrame
from widgets.table.seating import SeatRing
from widgets.toolkit import ui
from widgets.toolkit.parts import column, css_of, html_line, named_button, piece_button, row, set_face, set_marks, show
from widgets.toolkit.style import narrow

MARKS = ("hk-legal", "hk-hint")  # the kernel's marks; the page draws a pick's own (hk-selected, its targets' hk-legal)
HAND_SLOTS = 8  # more than a hand ever holds: 3 dealt, at most one more from an ability
LINE_SLOTS = max(LINE_SIZE.values())  # the most hats the assembly line holds
STYLE_SLOTS = 4  # the most hats of one style in an inventory: three regular and one Premium
Look = Callable[[HatAt, str], tuple[list[str], str]]  # a table hat's marks and name (MadderTable._look)
WIDGET_CSS = """
.hk-table .hk-cardbtn.hk-hatbtn > .hk-hat { font-size: 1.1em; }
/* A seat's hats and Haberdasher as big as the render's STYLE draws them (a seat's cards are small in style.py) */
.hk-table .hk-seatcards .hk-hat { width: 5.2em; height: 4.6em; font-size: 1em; }
.hk-table .hk-seatcards .hk-haber { width: 7em; height: auto; font-size: 1em; }
.hk-table .hk-seatcards .hk-hatback { box-sizing: content-box; }  /* the other hands: small backs, as in style.py */
.hk-table .hk-others .hk-seatcards :is(.hk-hat, .hk-haber) { font-size: .8em; }  /* the others' shops, smaller */
.hk-table .hk-habertext { flex: 1 1 16em; }
.hk-table .hk-seatpanel > .hk-btn { align-self: flex-start; }
.hk-table .hk-line { align-items: center; justify-content: center; gap: 2px 6px; }
.hk-table .hk-btn.hk-cardbtn.hk-linebtn { display: inline-flex; flex-direction: column; align-items: center; }
/* A seat's picture (its name, hand, Haberdasher) and its inventory's card buttons lie in one row, as the picture's
   holds do: the picture's own boxes give way (display: contents) so its holds and the inventory wrap together. */
.hk-table .hk-seatcards.hk-holds { align-items: center; gap: 2px 16px; }
.hk-table .hk-seatpicture, .hk-table .hk-seatpicture > .hk-holds { display: contents; }
.hk-table .hk-seatpicture > .hk-seathead { flex: 1 1 100%; }
.hk-table .hk-invhold .hk-count { gap: 0; }
.hk-table .hk-btn.hk-choice { height: auto; min-height: 2em; white-space: normal; text-align: left; }
.hk-table .hk-rounds td, .hk-table .hk-rounds th { padding: 1px 8px; text-align: center; }
.hk-table .hk-standin { color: #6a4b00; font-style: italic; }
.hk-table .hk-roundend h4 { margin: 4px 0; }
.hk-table .hk-roundshops { display: flex; flex-wrap: wrap; gap: 6px 18px; }
.hk-table .hk-roundshop ul { margin: 2px 0; padding-left: 1.2em; font-size: .9em; }
/* An inventory drawn alone on the page (a saved picture, outside any .hk box) says what each style scores in the
   render's dark grey: on the dark page it takes the light grey of the page's other notes. The
   rule is here, not in the render's STYLE: the saved pictures hold STYLE as it was, and nbval compares them. */
body[data-jp-theme-light="false"] .hk-count small { color: #c8c8c8; }
""" + narrow("""
/* On a phone the assembly line stays one row, five hats and the deck with four players, the table's
   and an exercise's picture of it: its hats as small as the others' shops, the deck a narrow pile. */
.hk-table .hk-line { gap: 2px; }
.hk-table .hk-line .hk-linebtn > .hk-hat, .hk-exercise .hk-row > .hk-pos > .hk-hat { font-size: .8em; }
:is(.hk-table .hk-line, .hk-exercise .hk-row) .hk-hatback { width: 3.2em; font-size: .8em; }
""")


class MadderTable(TableFrame):
    """A Madder than a Hatter game at a table of readers and bots; see the module docstring."""

    game_id = "madder"
    default_seats = ("reader", "greedy", "strong")

    # -- building (once) ---------------------------------------------------------

    def build_table(self) -> list[ui.Part]:
        self._forget_layout()
        self.round_info = html_line("hk-info")
        middle = column([self.round_info, self._line_row()])
        middle.add_class("hk-middle")
        self.ring = self._seats_ring()
        self.ability_prompt = html_line("hk-ability")
        self.choice_box = column([])
        self.decline_button = named_button("decline", DECLINE_TIP, lambda: self.try_move(str(DECLINE)))
        self.done_button = named_button("done", DONE_TIP, lambda: self.try_move(str(DONE)))
        self.round_table = html_line("hk-rounds")
        self.round_end = html_line("hk-roundend")
        self.next_round_button = named_button("next round", NEXT_ROUND_TIP, self.next_round, primary=True)
        self.round_end_box = column([self.round_end, self.next_round_button])
        return [  # a round's end shows under the reader's own seat, where they look after their move
            html_line("", f"<style>{STYLE}{WIDGET_CSS}</style>"),
            self.ring.top,
            middle,
            self.ring.bottom,
            self.round_end_box,
            self.ability_prompt,
            self.choice_box,
            row([self.decline_button, self.done_button]),
            self.round_table,
        ]

    def _forget_layout(self) -> None:
        """Nothing laid out yet: no hat on a button, no move offered, no round's end seen."""
        self._line: list[str] = []  # the hats on the line buttons, in order
        self._hand: list[str] = []  # the hats on the hand buttons, in order
        self._hand_on: dict[int, str] = {}  # a hand button's id: the hat it shows
        self._hat_on: dict[int, HatAt] = {}  # a line or inventory card's id: the hat it shows, and where
        self._cards_of: dict[HatAt, list[ui.Button]] = {}  # a hat on the table: its cards (twins are several)
        self._moves: list[Any] = []  # the reader's legal moves at the shown position
        self._paths: dict[str, list[list[ui.Part]]] = {}  # a move's notation: the paths of presses that make it
        self._drops: set[tuple[int, ...]] = set()  # the paths ending on a hat that stands for its inventory
        self._starts: dict[HatAt, list[Choice]] = {}  # the waiting ability's choices, by a hat each starts from
        self._one_press: dict[HatAt, Choice] = {}  # the choices one press on a hat makes, by that hat
        self._two_press: set[HatAt] = set()  # the hats a choice of two presses starts from
        self._worded: list[Choice] = []  # the choices no press names: buttons in plain words
        self._choice_actions: list[Choice] = []  # what each choice button plays
        self.seen_round_end: int | None = None  # the ply whose round's end the reader has moved on from

    def _line_row(self) -> ui.HBox:
        """The assembly line: a button for each hat it may hold, then the deck."""
        self.line_buttons = [self._line_button() for _ in range(LINE_SLOTS)]
        self.deck_line = html_line("")
        self.line_row = row([html_line("hk-label", "assembly line"), *self.line_buttons, self.deck_line])
        self.line_row.add_class("hk-row")
        self.line_row.add_class("hk-line")
        return self.line_row

    def _seats_ring(self) -> SeatRing:
        """Every seat's picture, inventory cards and target button; the reader's hand and Haberdasher below."""
        players = len(self.game.seat_names)
        self.target_buttons = [self._target_button(seat) for seat in range(players)]
        self._seat_of = {button.uid: seat for seat, button in enumerate(self.target_buttons)}
        self.seat_rows = [html_line("hk-seatpicture") for _ in range(players)]
        self.inventories = [InventoryCards(seat) for seat in range(players)]
        self.hand_label = html_line("hk-label")
        self.hand_buttons = [self._hand_button() for _ in range(HAND_SLOTS)]
        self.haberdasher_line = html_line("hk-haberdasher")
        hand_row = row([self.hand_label, *self.hand_buttons])
        hand_row.add_class("hk-handrow")
        seats = [
            [_seat_cards(picture, inventory.hold), button]
            for picture, inventory, button in zip(self.seat_rows, self.inventories, self.target_buttons, strict=True)
        ]
        return SeatRing(seats, [hand_row, self.haberdasher_line])

    def _target_button(self, seat: int) -> ui.Button:
        """Where a picked-up hat goes into ``seat``'s inventory: a press here is a pick's second step (no action of
        its own)."""
        name = self.game.seat_names[seat]
        tip = f"put the hat you picked up into {name}'s inventory (at the end of the round, into your own only)"
        return ui.Button(description=f"into {name}'s inventory", tooltip=tip, css=css_of(width="auto"))

    def _hand_button(self) -> ui.Button:
        button = piece_button()
        button.add_class("hk-hatbtn")
        button.add_class("hk-cardbtn")
        return button

    def _line_button(self) -> ui.Button:
        """A hat of the assembly line, a card pressed to choose it."""
        button = tap_card()
        button.add_class("hk-linebtn")
        return button

    def _choice_buttons(self, count: int) -> list[ui.Button]:
        """At least ``count`` choice buttons: the pool grows when an ability offers more choices than ever."""
        pool = list(self.choice_box.children)
        while len(pool) < count:
            button = named_button("", "", partial(self.choose, len(pool)))
            button.add_class("hk-choice")
            pool.append(button)
        self.choice_box.children = tuple(pool)
        return pool

    # -- the moves, as the page picks them ------------------------------------------

    def paths_of(self, move: Any) -> list[tuple[list[ui.Part], str]]:
        """Every path of presses that makes ``move`` (none: a button in plain words makes it).

        A hand hat, then *into X's inventory* or a hat of that inventory (where a drag lets go); a hat a waiting
        ability chooses alone; a hat that starts several choices, then the hat to swap it for, the other hat to
        discard with it (either first) or the inventory it moves into. A path names buttons, not hats: each of
        two Berets makes its own. Each comes with the words its last press gains while lit, none on a hat that
        stands for its inventory (its *into …* button says them, so a screen reader hears them once).
        """
        paths = self._paths.get(str(move), [])
        words = self.target_words(move) if paths else ""
        return [(path, "" if tuple(part.uid for part in path) in self._drops else words) for path in paths]

    def target_words(self, move: Any) -> str:
        """What the last press of a path of ``move`` does, added to that part's name while it is lit."""
        if isinstance(move, Play):
            return f"play your {hat_words(move.hat)} into {_whose(move.to, self.viewer)}"
        return describe(move, self.viewer)

    def board(self) -> list[ui.Part]:
        """Every hat (the hand's, the line's, the inventories') and every *into …* button: their presses are picks."""
        cards = [button for inventory in self.inventories for group in inventory.buttons for button in group]
        return [*self.hand_buttons, *self.line_buttons, *cards, *self.target_buttons]

    def explain(self, path: Sequence[ui.Part]) -> str:
        """Why presses made no move: a hat taken where the rules refuse it (the engine's sentence), or a press
        that nothing may start from (what to press instead)."""
        if not self.decides() or self.shown().is_over:
            return super().explain(path)
        pressed = path[-1]
        refused = self._why_not_there(path[0], pressed) if len(path) > 1 else None
        return refused or self._why_not_alone(pressed)

    def _why_not_there(self, first: ui.Part, pressed: ui.Part) -> str | None:
        """The engine's sentence for the move the picked-up ``first`` and ``pressed`` would make (None: they name
        none, and ``pressed`` is judged alone)."""
        if first.uid in self._hand_on:
            hat, place = self._hand_on[first.uid], self._place_of(pressed)
            if place == LINE:
                return (
                    f"Your {hat_words(hat)} goes into an inventory, not onto the assembly line: "
                    "press “into …” under the player you choose (M3)."
                )
            return None if place is None else self.why_not(str(Play(hat, int(place))))
        item = self._hat_on.get(first.uid)
        attempt = None if item is None else self._attempt(item, pressed)
        return None if attempt is None else self.why_not(str(attempt))

    def _attempt(self, item: HatAt, pressed: ui.Part) -> Choice | None:
        """The choice the picked-up ``item`` and a press on ``pressed`` name, of the kind ``item`` starts."""
        kinds = {type(move) for move in self._starts.get(item, [])}
        other, place = self._hat_on.get(pressed.uid), self._place_of(pressed)
        if MoveHat in kinds and place is not None and place != LINE:
            return MoveHat(item.hat, int(item.place), int(place))
        if other is not None and Swap in kinds:
            return Swap(item, other)
        if other is not None and Discard in kinds:
            return Discard((item, other))
        return None

    def _place_of(self, part: ui.Part) -> Place | None:
        """The inventory (a seat) or the line a part stands for: an *into …* button's, or where its hat lies."""
        if part.uid in self._seat_of:
            return self._seat_of[part.uid]
        item = self._hat_on.get(part.uid)
        return None if item is None else item.place

    def _why_not_alone(self, part: ui.Part) -> str:
        """Why a press on ``part`` neither makes a move nor picks anything up."""
        if part.uid in self._hand_on:
            hat = self._hand_on[part.uid]
            if DECLINE in self._moves:
                return (
                    f"Your {hat_words(hat)} has to wait: first click a lit hat to use the card that waits, "
                    "or press “decline” (M3, M4)."
                )
            return self.why_not(str(Play(hat, self.viewer))) or super().explain([part])
        if part.uid in self._hat_on:
            return self._refusal(self._hat_on[part.uid], part)
        if part.uid in self._seat_of:
            return self._why_not_into(self._seat_of[part.uid])
        return "There is no hat there now: press one of the hats you see."

    def _refusal(self, item: HatAt, part: ui.Part) -> str:
        """Why a press on ``item`` plays nothing: it comes second in a choice, the waiting ability cannot choose
        it, or nothing waits."""
        the = _the(item, self.viewer)
        if DECLINE not in self._moves:
            return (
                f"You can't move {the} yourself: only a Premium hat's ability or a Haberdasher can. "
                "Play a hat from your hand into an inventory instead (M3, M4)."
            )
        if any(len(path) == 2 and path[1] is part for paths in self._paths.values() for path in paths):
            return f"{the[:1].upper()}{the[1:]} comes second: first click one of the lit hats, then this one (M3, M4)."
        return f"Your ability can't choose {the}: click one of the lit hats, or press “decline” (M3, M4)."

    def _why_not_into(self, seat: int) -> str:
        """Why a press on *into …* with nothing picked up plays nothing: a hat has to be picked up first."""
        if DECLINE in self._moves:
            if any(isinstance(move, MoveHat) and move.target == seat for move in self._moves):
                return "First click the lit hat to move, then the inventory it goes into."
            return "The card that waits comes first: click one of the lit hats, or press “decline” (M3, M4)."
        if not self._hand and DONE in self._moves:
            return "Your hand is empty: press “done” to play no more hats this round (M4)."
        return "First click a hat in your hand, then the inventory it goes into."

    # -- the other presses ----------------------------------------------------------

    def choose(self, index: int) -> None:
        """Choice button ``index`` pressed: play the choice it names (a stale press on a hidden one does nothing)."""
        if index < len(self._choice_actions):
            self.try_move(str(self._choice_actions[index]))

    def next_round(self) -> None:
        """The reader has seen the round's end: on to the next round, and the bots play on."""
        self.seen_round_end = self.shown_ply
        self.refresh()
        self.narrate()
        if self.live:
            self.run_bots()

    def paused(self) -> str | None:
        """While a round's end is on screen the bots wait for *on to round N*, and the reader is told so."""
        ended = self.ended_round() if self.live else None
        if ended is None:
            return None
        return f"Round {ended} is over: see its points, then press “{onward_words(self.shown().view(None))}”."

    def run_bots(self) -> None:
        """The bots wait while a round's end is on screen, until the reader moves on."""
        if self.live and self.ended_round() is not None:
            return
        super().run_bots()

    def ended_round(self) -> int | None:
        """The round that the move to the shown position scored, while its end is on screen (the reader has not
        pressed *next round*): the last move scores a round and deals the next in one step, so without this
        the scored shops would vanish at once."""
        ply = self.shown_ply
        if ply == 0 or ply == self.seen_round_end:
            return None
        scored = len(self.shown().view(None)["scores"])
        return scored if scored > len(self.game.state_at(ply - 1).view(None)["scores"]) else None

    def move_words(self, move: Any, seat: int | None = None) -> str:
        """A hinted move in words, as the table's buttons say it: "play your Bowler ★ into Cleo's inventory"."""
        user = self.hint_seat() if seat is None else seat
        if isinstance(move, Play):
            return f"play your {hat_words(move.hat)} into {_whose(move.to, user)}"
        if move in (DECLINE, DONE):
            return "press “decline”" if move == DECLINE else "press “done” (no more hats this round)"
        return describe(move, user)

    # -- showing ---------------------------------------------------------------------

    def show_table(self, view: dict[str, Any]) -> None:
        madder: MadderView = view  # type: ignore[assignment]
        cards = card_set(MadderOptions(**madder["options"]))
        hint = None if self.hint_move is None else self.game.parse(self.hint_move)
        self.round_info.value = _round_html(madder, cards)
        self._lay_out(madder, cards, sorted(madder["hand"] or []))
        self._note_moves(self.reader_moves())
        self._show_seats(madder, cards, hint)
        self._show_hand(madder, cards, hint)
        self.haberdasher_line.value = _haberdasher_html(madder, cards)
        self._show_choices(madder, cards, hint)
        self._show_line(madder, cards, hint)
        self.round_table.value = rounds_html(madder)
        self._show_round_end(madder, cards)

    def _lay_out(self, view: MadderView, cards: CardSet, hand: list[str]) -> None:
        """Which hat each button shows: the hand's in order, the line's in order, each inventory's style by style."""
        self._hand, self._line = hand, list(view["line"])
        self._hand_on = {button.uid: hat for button, hat in zip(self.hand_buttons, hand, strict=False)}
        placed = [(button, HatAt(hat, LINE)) for button, hat in zip(self.line_buttons, self._line, strict=False)]
        for seat, inventory in enumerate(self.inventories):
            placed += [
                (button, HatAt(hat, seat)) for button, hat in inventory.lay_out(view["inventories"][seat], cards)
            ]
        self._hat_on = {button.uid: item for button, item in placed}
        self._cards_of = {}
        for button, item in placed:
            self._cards_of.setdefault(item, []).append(button)

    def _note_moves(self, moves: list[Any]) -> None:
        """The paths of presses that make each move (:meth:`paths_of`), and the waiting ability's choices that no
        press names (one hat discarded alone when it may go with another, three hats at once): those are buttons."""
        self._moves = moves
        choices = [move for move in moves if not isinstance(move, Play | EndPhase)]
        self._starts = {}
        for move in choices:
            for item in first_hats(move):
                self._starts.setdefault(item, []).append(move)
        self._paths, self._drops, self._one_press, self._two_press = {}, set(), {}, set()
        for move in moves:
            if isinstance(move, EndPhase):
                continue
            paths = self._play_paths(move) if isinstance(move, Play) else self._choice_paths(move)
            if paths:
                self._paths[str(move)] = paths
        for move in choices:
            for path in self._paths.get(str(move), []):
                first = self._hat_on[path[0].uid]
                if len(path) == 1:
                    self._one_press[first] = move
                else:
                    self._two_press.add(first)
        self._worded = [move for move in choices if str(move) not in self._paths]

    def _play_paths(self, move: Play) -> list[list[ui.Part]]:
        """Each hand button showing the hat, then *into …* or a hat of that inventory (where a drag lets go)."""
        held = [button for button in self.hand_buttons if self._hand_on.get(button.uid) == move.hat]
        drops = [self.target_buttons[move.to], *self._cards_in(move.to)]
        self._drops |= {(hat.uid, drop.uid) for hat in held for drop in drops[1:]}
        return [[hat, drop] for hat in held for drop in drops]

    def _choice_paths(self, move: Choice) -> list[list[ui.Part]]:
        """A hat the choice alone starts from: one press on it. A hat that starts several: it, then what becomes
        of it. A hat discarded alone that may also go with another, or three hats at once: no path (a button)."""
        if isinstance(move, Discard):
            items = move.items
            if len(items) == 1:
                alone = len(self._starts[items[0]]) == 1
                return [[card] for card in self._cards(items[0])] if alone else []
            if len(items) != 2:
                return []
            orders = [items] if items[0] == items[1] else [items, items[::-1]]  # twins: each card first in turn
            return [[a, b] for one, other in orders for a in self._cards(one) for b in self._cards(other) if a is not b]
        first = _first_hat(move)
        if len(self._starts[first]) == 1:
            return [[card] for card in self._cards(first)]
        if isinstance(move, MoveHat):
            self._drops |= {(card.uid, drop.uid) for card in self._cards(first) for drop in self._seconds(move)[1:]}
        return [[card, second] for card in self._cards(first) for second in self._seconds(move)]

    def _seconds(self, move: Choice) -> list[ui.Part]:
        """What a second press is on to complete ``move`` once its first hat is picked up: the hat to swap it for,
        the inventory it moves into (its *into …* button, or one of its hats that starts no choice of its own)."""
        if isinstance(move, Swap):
            return list(self._cards(move.theirs))
        if isinstance(move, MoveHat):
            hats = [card for card in self._cards_in(move.target) if self._hat_on[card.uid] not in self._starts]
            return [self.target_buttons[move.target], *hats]
        return []

    def _cards(self, item: HatAt) -> list[ui.Button]:
        return self._cards_of.get(item, [])

    def _cards_in(self, seat: int) -> list[ui.Button]:
        """The cards of ``seat``'s inventory, style by style."""
        return [card for item, cards in self._cards_of.items() if item.place == seat for card in cards]

    def _show_round_end(self, view: MadderView, cards: CardSet) -> None:
        """The scored round's shops and points, line by line, under the reader's seat until they move on."""
        ended = self.ended_round()
        show(self.round_end_box, ended is not None)
        if ended is None:
            self.round_end.value = ""
            return
        lines = [line for line in self.shown().score().lines if line.round == ended]
        self.round_end.value = round_end_html(ended, lines, view, cards)
        self.next_round_button.description = onward_words(view)

    def _show_seats(self, view: MadderView, cards: CardSet, hint: Any) -> None:
        look = partial(self._look, hint=hint)
        hinted = hint.to if isinstance(hint, Play) else hint.target if isinstance(hint, MoveHat) else None
        for seat, (button, seat_row) in enumerate(zip(self.target_buttons, self.seat_rows, strict=True)):
            seat_row.value = self._seat_html(view, cards, seat)
            self.inventories[seat].show(cards, look, view["to_move"] is None)
            set_marks(button, ["hk-hint"] if seat == hinted else [], MARKS)
            button.disabled = view["to_move"] is None
            show(button, view["phase"] != OVER)  # the game is over: no hat goes anywhere now
        self.ring.place(self.viewer, [] if view["to_move"] is None else [view["to_move"]])

    def _show_hand(self, view: MadderView, cards: CardSet, hint: Any) -> None:
        seat = view["seat"]
        owner = f"{view['names'][seat or 0]}'s" if self.readers_share else "Your"
        self.hand_label.value = f"{owner} hand" + ("" if self._hand else " (empty)")
        hinted = hint.hat if isinstance(hint, Play) else None
        for index, button in enumerate(self.hand_buttons):
            hat = self._hand[index] if index < len(self._hand) else None
            marks = ["hk-hint"] if hat is not None and hat == hinted else []
            tip = _hand_tip(hat, self._moves) if hat else ""
            face = hat_html(hat, cards) if hat else ""
            set_face(button, hat_words(hat) if hat else "", tip, marks, MARKS, visible=bool(hat), face=face)
            button.disabled = view["to_move"] is None

    def _show_choices(self, view: MadderView, cards: CardSet, hint: Any) -> None:
        """The waiting ability's prompt; the choices no press on a hat names, as buttons in plain words (the hats
        themselves are the choice, :meth:`_look`); decline, done.

        An ability may offer 28-99 choices: they are made in two presses, as a person plays them, first the hat
        the choice starts from (yours, in a swap), then what becomes of it. The hint is marked at both.
        """
        seat = view["seat"] or 0
        card = _waiting_card(view, cards) if DECLINE in self._moves else None
        self.ability_prompt.value = _ability_html(view, card, cards, self._prompt()) if card is not None else ""
        self._show_offered([(move, describe(move, seat), move == hint) for move in self._worded], card)
        show(self.decline_button, DECLINE in self._moves)
        show(self.done_button, DONE in self._moves)
        set_marks(self.decline_button, ["hk-hint"] if hint == DECLINE else [], MARKS)
        set_marks(self.done_button, ["hk-hint"] if hint == DONE else [], MARKS)

    def _prompt(self) -> str:
        """What the waiting ability asks the reader to press: a lit hat, and what then for a choice of two."""
        kinds = {
            type(move)
            for move in self._moves
            if not isinstance(move, Play) and any(len(path) == 2 for path in self._paths.get(str(move), []))
        }
        seconds = [words for kind, words in SECOND_WORDS.items() if kind in kinds]
        press = f"pick it up, then click {' or '.join(seconds)}" if seconds else "choose it"
        below = "press a choice below, " if self._worded else ""
        return f"Click a lit hat to {press}, {below}or decline it."

    def _look(self, item: HatAt, resting: str, hint: Any) -> tuple[list[str], str]:
        """A hat on the table: its marks (lit when the waiting ability may start from it, hinted) and its name,
        what a press on it does, or ``resting`` (where it lies) when a press on it starts nothing."""
        starts = item in self._one_press or item in self._two_press
        marks = ["hk-legal"] if starts else []
        marks += ["hk-hint"] if isinstance(hint, Choice) and item in _hats_of(hint) else []
        if item in self._one_press:
            return marks, describe(self._one_press[item], self.viewer)
        if starts:
            return marks, f"pick up {_the(item, self.viewer)}, then choose what becomes of it"
        return marks, resting

    def _show_line(self, view: MadderView, cards: CardSet, hint: Any) -> None:
        """The assembly line's hats as cards, then the deck: those the waiting ability may choose light up, each
        named by what a click on it does ("take the Boater from the assembly line")."""
        for index, button in enumerate(self.line_buttons):
            hat = self._line[index] if index < len(self._line) else None
            where = f"{hat_words(hat)}, hat {index + 1} on the assembly line" if hat else ""
            marks, tip = self._look(HatAt(hat, LINE), where, hint) if hat else ([], "")
            face = line_hat_html(hat, index, cards) if hat else ""
            set_face(button, hat_words(hat) if hat else "", tip, marks, MARKS, visible=hat is not None, face=face)
            button.disabled = view["to_move"] is None
        self.deck_line.value = deck_html(view["deck_size"])

    def _show_offered(self, offered: list[tuple[Choice, str, bool]], card: Ability | None) -> None:
        """Fill the choice buttons: (the choice a click plays, its words, whether the hint points at it)."""
        buttons = self._choice_buttons(len(offered))
        self._choice_actions = [action for action, _, _ in offered]
        for index, button in enumerate(buttons):
            _, words, hinted = offered[index] if index < len(offered) else (None, "", False)
            show(button, index < len(offered))
            button.description = words
            button.tooltip = f"{words} · {card.text}" if card is not None and index < len(offered) else words
            set_marks(button, ["hk-hint"] if hinted else [], MARKS)

    def _seat_html(self, view: MadderView, cards: CardSet, seat: int) -> str:
        """One seat: who sits there, its notes, its hand (backs for others; the reader's is the buttons below) and
        its Haberdasher once revealed; its inventory, where the hats played into it lie (M3), is its cards
        (:class:`InventoryCards`)."""
        notes = ["deals"] if view["dealer"] == seat else []
        notes += ["✓ done"] if seat in view["done"] else []
        head = seat_head_html(view["names"][seat], self.seat_kind(seat), view["to_move"] == seat, notes)
        holds = (
            [] if seat == view["seat"] else [hold_html("hand", [hat_back_html()] * view["hand_sizes"][seat], fan=True)]
        )
        revealed = view["haberdashers"]
        if revealed is not None:
            holds.append(slot_html("Haberdasher", haberdasher_html(cards.haberdasher(revealed[seat]))))
        return seat_contents_html(head, holds)


def tap_card() -> ui.Button:
    """A hat on the table as a card button, pressed where it lies and never carried off (``hk-tapcard``); its
    presses are the page's picks (:meth:`MadderTable.board`)."""
    button = piece_button()
    for name in ("hk-cardbtn", "hk-tapcard"):  # drawn as the seat draws it, not as a hand hat ("hk-hatbtn")
        button.add_class(name)
    return button


def _seat_cards(picture: ui.HTML, inventory: ui.Part) -> ui.HBox:
    """A seat's picture and its inventory's cards, in one row as the picture's holds (WIDGET_CSS)."""
    cards = row([picture, inventory])
    cards.add_class("hk-seatcards")
    cards.add_class("hk-holds")
    return cards


class InventoryCards:
    """One seat's inventory as card buttons, grouped by style as the drawn inventory is (``inventory_groups``),
    each style's caption under it: a waiting ability's choice of one of its hats is that card, pressed.

    Built once (a group per style, a button per hat a style can have), and shown or hidden as hats come and go.
    """

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self._groups: list[tuple[list[str], str]] = []  # each shown style's hats and caption, in order
        self._count = 0
        self.name = html_line("hk-holdname")
        self.buttons = [[tap_card() for _ in range(STYLE_SLOTS)] for _ in range(STYLE_COUNT)]
        self.captions = [html_line("") for _ in range(STYLE_COUNT)]
        self.groups = [
            column([row(buttons), caption]) for buttons, caption in zip(self.buttons, self.captions, strict=True)
        ]
        for group in self.groups:
            group.add_class("hk-count")
        self.empty = html_line("", "<small>(empty)</small>")
        stack = row([*self.groups, self.empty])
        stack.add_class("hk-stack")
        self.hold = row([self.name, stack])
        self.hold.add_class("hk-hold")
        self.hold.add_class("hk-invhold")

    def lay_out(self, inventory: Sequence[str], cards: CardSet) -> list[tuple[ui.Button, str]]:
        """Which card shows which hat of ``inventory``, style by style (:meth:`show` then draws them)."""
        self._groups, self._count = inventory_groups(inventory, cards), len(inventory)
        return [
            (buttons[slot], hat)
            for buttons, (hats, _) in zip(self.buttons, self._groups, strict=False)
            for slot, hat in enumerate(hats[:STYLE_SLOTS])
        ]

    def show(self, cards: CardSet, look: Look, disabled: bool) -> None:
        """Show the hats laid out, each marked and named by ``look``; ``disabled`` when nobody is to move."""
        groups = self._groups
        self.name.value = f"inventory ({self._count})"
        show(self.empty, not groups)
        for index, (group, caption, buttons) in enumerate(zip(self.groups, self.captions, self.buttons, strict=True)):
            hats, words = groups[index] if index < len(groups) else ([], "")
            show(group, bool(hats))
            caption.value = words
            for slot, button in enumerate(buttons):
                self._show_card(button, hats[slot] if slot < len(hats) else None, cards, look, disabled)

    def _show_card(self, button: ui.Button, hat: str | None, cards: CardSet, look: Look, disabled: bool) -> None:
        """One card: ``hat``, marked and named by ``look``, or hidden (most of an inventory's cards are empty
        slots)."""
        text, tip, marks, face = "", "", [], ""
        if hat is not None:
            marks, tip = look(HatAt(hat, self.seat), f"{hat_words(hat)} in {SEAT_NAMES[self.seat]}'s inventory")
            text, face = hat_words(hat), hat_html(hat, cards)
        set_face(button, text, tip, marks, MARKS, visible=hat is not None, face=face)
        if button.disabled != disabled:
            button.disabled = disabled


NEXT_ROUND_TIP = "you have seen how the round scored: go on (the computer players wait for this)"


def onward_words(view: MadderView) -> str:
    """The button that leaves a round's end: on to the next round, or to the result after the last."""
    return "see the final result" if view["phase"] == OVER else f"on to round {view['round']}"


def round_end_html(number: int, lines: Sequence[ScoreLine], view: MadderView, cards: CardSet) -> str:
    """ "Round 1 is over": each shop as it was scored, drawn from its style lines, and every line's points."""
    blocks = []
    for seat, name in enumerate(view["names"]):
        own = [line for line in lines if line.seat == seat]
        shop = [style for line in own if line.category in cards.styles for style in [line.category] * _count(line)]
        rows = "".join(f"<li>{escape(line.category)}: <b>{line.points:+d}</b> {_reason(line)}</li>" for line in own)
        total = sum(line.points for line in own)
        blocks.append(
            f'<div class="hk-roundshop"><b>{escape(name)}: {total} point{"" if total == 1 else "s"}</b>'
            f'<div class="hk-row">{inventory_html(shop, cards)}</div><ul>{rows}</ul></div>'
        )
    return f'<h4>Round {number} is over</h4><div class="hk-roundshops">{"".join(blocks)}</div>'


def _count(line: ScoreLine) -> int:
    """The hats of a style line's style: scoring writes the count first ("2 Bowlers: ...")."""
    first = line.explanation.split(" ", 1)[0]
    return int(first) if first.isdigit() else 0


def _reason(line: ScoreLine) -> str:
    """A score line's reason, small, without its rule id (the rules notes explain the ids)."""
    return f"<small>{escape(without_rules(line.explanation)[0])}</small>"


DECLINE_TIP = "leave the waiting ability unused"
DONE_TIP = "play no more hats from your hand this round"


SECOND_WORDS = {  # what a second press is on, by the kind of choice, as the ability's prompt asks for it
    Swap: "the hat to swap it for",
    MoveHat: "the inventory it moves into",
    Discard: "another hat to discard with it",
}


def first_hats(move: Choice) -> tuple[HatAt, ...]:
    """The hats a choice may be started from: any of a discard's hats (picked in any order), else its first."""
    return move.items if isinstance(move, Discard) else (_first_hat(move),)


def _first_hat(move: Choice) -> HatAt:
    """The hat a choice starts from: the one moved, the first discarded, yours in a swap, the one taken."""
    if isinstance(move, MoveHat):
        return HatAt(move.hat, move.source)
    if isinstance(move, Discard):
        return move.items[0]
    if isinstance(move, Swap):
        return move.mine
    return move.item


def _hats_of(move: Choice) -> tuple[HatAt, ...]:
    """Every hat on the table a choice names (a hint marks them all): the one moved or taken, both of a swap."""
    return (move.mine, move.theirs) if isinstance(move, Swap) else first_hats(move)


def describe(move: Choice, user: int) -> str:
    """A choice in plain words for its button: "move the Fedora from your inventory into Ben's"."""
    if isinstance(move, MoveHat):
        return f"move the {hat_words(move.hat)} from {_whose(move.source, user)} into {_whose(move.target, user)}"
    if isinstance(move, Discard):
        return "discard " + " and ".join(_the(item, user) for item in move.items)
    if isinstance(move, Swap):
        theirs = move.theirs
        return f"swap your {hat_words(move.mine.hat)} for {SEAT_NAMES[int(theirs.place)]}'s {hat_words(theirs.hat)}"
    assert isinstance(move, Take)
    return f"take {_the(move.item, user)}"


def _whose(place: Place, user: int) -> str:
    return "your inventory" if place == user else f"{SEAT_NAMES[int(place)]}'s inventory"


def _the(item: HatAt, user: int) -> str:
    where = "the assembly line" if item.place == LINE else _whose(item.place, user)
    return f"the {hat_words(item.hat)} from {where}"


def _waiting_card(view: MadderView, cards: CardSet) -> Ability:
    """The card whose choice waits: the Premium just played, or the viewer's Haberdasher."""
    if view["phase"] == ABILITY and view["ability"] is not None:
        return cards.premiums[style_of(view["ability"])]
    assert view["haberdasher"] is not None
    return cards.haberdasher(view["haberdasher"])


def _ability_html(view: MadderView, card: Ability, cards: CardSet, where: str) -> str:
    kind = "your Premium's ability" if view["phase"] == ABILITY else "your Haberdasher"
    return (
        f"<b>{escape(card.name)}</b> ({kind}): {escape(card.text)} {escape(where)} "
        f'<small class="hk-standin">{escape(cards.label)}</small>'
    )


def _haberdasher_html(view: MadderView, cards: CardSet) -> str:
    """The viewer's own Haberdasher: its card, and beside it its text with the card set's label (M6); secret until
    the round's end, when every seat's is turned up (M4)."""
    name = view["haberdasher"]
    if name is None:
        return ""
    card = cards.haberdasher(name)
    secret = "secret until the end of the round" if view["haberdashers"] is None else "turned up for everyone now"
    return (
        f'<div class="hk-row">{haberdasher_html(card)}<span class="hk-habertext">'
        f"Your Haberdasher ({secret}): <b>{escape(card.name)}</b>: "
        f'{escape(card.text)} <small class="hk-standin">{escape(cards.label)}</small></span></div>'
    )


def _round_html(view: MadderView, cards: CardSet) -> str:
    extra = " (a tie: an extra round)" if view["round"] > view["rounds"] else ""
    names = view["names"]
    text = (
        f"Round {view['round']} of {view['rounds']}{extra} · {names[view['dealer']]} deals · "
        f"{PHASE_WORDS[view['phase']]}"
    )
    if view["phase"] == END:
        text += " · the others wait for each player's done"
    if view["phase"] == HABERDASHERS:
        text += " · one after the other from the dealer"
    return f"{escape(text)}<br><small>Premium hats (★) and Haberdashers: {escape(cards.label)}</small>"


def _hand_tip(hat: str, moves: list[Any]) -> str:
    ability = ", a Premium: its ability works when you play it on your turn" if is_premium(hat) else ""
    playable = "" if any(isinstance(m, Play) and m.hat == hat for m in moves) else ", cannot be played right now"
    return f"{hat} in your hand{ability}{playable}"


def rounds_html(view: MadderView) -> str:
    """The points of every finished round per player, and the game totals so far (M1, M5)."""
    names = view["names"]
    head = "".join(f"<th>{escape(name)}</th>" for name in names)
    rows = [
        f"<tr><td>round {number}</td>{''.join(f'<td>{p}</td>' for p in points)}</tr>"
        for number, points in enumerate(view["scores"], start=1)
    ]
    totals = [sum(points[seat] for points in view["scores"]) for seat in range(len(names))]
    rows.append(f"<tr class='hk-total'><td>game total</td>{''.join(f'<td>{t}</td>' for t in totals)}</tr>")
    if not view["scores"]:
        rows.insert(0, f"<tr><td colspan='{len(names) + 1}'>no round finished yet</td></tr>")
    caption = "<caption>Points per round</caption>"
    return f'<table class="hk-score">{caption}<tr><th></th>{head}</tr>{"".join(rows)}</table>'
