"""The Madder than a Hatter table as widgets: the assembly line, every inventory, your hand and your Haberdasher.

    >>> MadderTable(hatskit.new_game("madder", players=3, seed=7), seats=("reader", "greedy", "strong"))

Click a hat of your hand to select it: the inventories it may go into light
up. Click *into Ben's inventory* to play it there (``Fedora>Ben``, M3). When a
Premium you played offers its ability, or your Haberdasher waits at the end of
the round, the cards are the choice: the hats it may choose (on the assembly
line, in an inventory) light up, and a click (or Enter or Space) on one plays
that choice (``take Boater@line``, ``discard Boater@Ben``). A hat that starts
several choices (yours in a swap, a hat to move) is picked up first, and what
becomes of it is then chosen on the table too: the hat to swap it for, the
second hat to discard with it, the inventory it moves into light up, and a
click there plays the choice; only what no second click names (discard it
alone) stays a button in plain words. *decline* leaves the
ability unused (M3, M4). At the end of the round you play hats into your own
inventory and press *done* (M4); the Haberdashers are then revealed and used
one by one from the dealer, each step shown as it happens.

Everything shown comes from ``game.view(seat)`` for the reader's seat: other
players' hands are card backs (their count only) and their Haberdashers stay
secret until the reveal. The card texts carry the card set's label, so the
stand-in cards are never taken for the printed ones (M6).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from hatskit.core import EndPhase, ScoreLine
from hatskit.drawing import escape, hold_html, seat_contents_html, seat_head_html, slot_html
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
from widgets.toolkit.parts import column, html_line, named_button, row, set_face, set_marks, show
from widgets.toolkit.style import narrow

MARKS = ("hk-legal", "hk-selected", "hk-hint")
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
        self._forget_picks()
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

    def _forget_picks(self) -> None:
        """What the reader has in hand: nothing picked up, no choice waiting, no round's end seen yet."""
        self._line: list[str] = []  # the hats on the line buttons, in order
        self._hand: list[str] = []  # the hats on the hand buttons, in order
        self._picks: dict[HatAt, list[Choice]] = {}  # the waiting ability's choices, by the hat each starts from
        self._seconds: dict[HatAt | int, Choice] = {}  # the picked-up hat's choices, by the second thing clicked
        self._choice_actions: list[Any] = []
        self._ability_waits = False
        self.picked: int | None = None  # the hand button clicked last
        self.first_hat: HatAt | None = None  # the hat picked up first, when it starts several choices
        self.seen_round_end: int | None = None  # the ply whose round's end the reader has moved on from

    def _line_row(self) -> ui.HBox:
        """The assembly line: a button for each hat it may hold, then the deck."""
        self.line_buttons = [self._line_button(index) for index in range(LINE_SLOTS)]
        self.deck_line = html_line("")
        self.line_row = row([html_line("hk-label", "assembly line"), *self.line_buttons, self.deck_line])
        self.line_row.add_class("hk-row")
        self.line_row.add_class("hk-line")
        return self.line_row

    def _seats_ring(self) -> SeatRing:
        """Every seat's picture, inventory cards and target button; the reader's hand and Haberdasher below."""
        players = len(self.game.seat_names)
        self.target_buttons = [self._target_button(seat) for seat in range(players)]
        self.seat_rows = [html_line("hk-seatpicture") for _ in range(players)]
        self.inventories = [InventoryCards(seat, self.choose_hat) for seat in range(players)]
        self.hand_label = html_line("hk-label")
        self.hand_buttons = [self._hand_button(index) for index in range(HAND_SLOTS)]
        self.haberdasher_line = html_line("hk-haberdasher")
        hand_row = row([self.hand_label, *self.hand_buttons])
        hand_row.add_class("hk-handrow")
        seats = [
            [_seat_cards(picture, inventory.hold), button]
            for picture, inventory, button in zip(self.seat_rows, self.inventories, self.target_buttons, strict=True)
        ]
        return SeatRing(seats, [hand_row, self.haberdasher_line])

    def _target_button(self, seat: int) -> ui.Button:
        name = self.game.seat_names[seat]
        return named_button(f"into {name}'s inventory", self._target_tip(seat), lambda: self.play_selected(seat))

    def _target_tip(self, seat: int) -> str:
        name = self.game.seat_names[seat]
        return f"play the selected hat into {name}'s inventory (at the end of the round, into your own only)"

    def _hand_button(self, index: int) -> ui.Button:
        button = named_button("", "", lambda: self.pick(index), width=None)
        button.add_class("hk-hatbtn")
        button.add_class("hk-cardbtn")
        return button

    def _line_button(self, index: int) -> ui.Button:
        """The assembly line's hat ``index``, a card pressed to choose it."""
        button = tap_card(lambda: self.choose_on_line(index))
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

    # -- clicks ------------------------------------------------------------------

    def pick(self, index: int) -> None:
        """Select (or put down) the hand hat on button ``index``."""
        hat = self._hand[index] if index < len(self._hand) else None
        self.picked = index
        if hat:
            self.select(None if hat == self.selected else hat)

    def play_selected(self, seat: int) -> None:
        """Play the selected hand hat into ``seat``'s inventory, or move the picked-up hat there (an ability's)."""
        if seat in self._seconds:
            self.try_move(str(self._seconds[seat]))
        elif self.selected is None:
            self.say("First click a hat in your hand, then the inventory it goes into.", error=True)
        else:
            self.try_move(str(Play(self.selected, seat)))

    def try_move(self, notation: str) -> bool:
        """A move played puts the picked hat down (a twin left in the hand is not picked for the next turn); a
        refused one keeps it picked."""
        picked, self.selected = self.selected, None
        if super().try_move(notation):
            return True
        self.selected = picked
        return False

    def choose(self, index: int) -> None:
        """What choice button ``index`` stands for: a choice to play, or back to the hats (None)."""
        action = self._choice_actions[index]
        if action is None:
            self.first_hat = None
            self.refresh()
        else:
            self.try_move(str(action))

    def choose_on_line(self, index: int) -> None:
        """The line hat on button ``index`` pressed (a stale press on an empty place does nothing)."""
        if index < len(self._line):
            self.choose_hat(HatAt(self._line[index], LINE))

    def choose_hat(self, item: HatAt) -> None:
        """A hat on the table pressed: the waiting ability's choice of it, picked up first when it starts several
        choices (pressed again, put down); with a hat of the hand picked up, an inventory's hat stands for its
        inventory (a drop there plays into it); else a sentence saying why not, changing nothing."""
        second = self._completed_by(item)
        chosen = self._picks.get(item, [])
        if second is not None:
            self.try_move(str(second))  # the other hat of a swap or a discard, or a hat of the inventory moved into
        elif not chosen and self.selected is not None and item.place != LINE:
            self.play_selected(int(item.place))  # a hat of the hand put (or dropped) on an inventory's hat
        elif not chosen:
            self.say(self._refusal(item), error=True)
        elif len(chosen) == 1:
            self.try_move(str(chosen[0]))
        else:
            self.first_hat = None if item == self.first_hat else item
            self.refresh()

    def _refusal(self, item: HatAt) -> str:
        """Why a press on ``item`` plays nothing: the waiting ability cannot choose it, or nothing waits."""
        the = _the(item, self.viewer)
        if self._ability_waits:
            return f"Your ability can't choose {the}: click one of the lit hats, or press “decline” (M3, M4)."
        return (
            f"You can't move {the} yourself: only a Premium hat's ability or a Haberdasher can. "
            "Play a hat from your hand into an inventory instead (M3, M4)."
        )

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

    def move_words(self, move: Any) -> str:
        """A hinted move in words, as the table's buttons say it: "play your Bowler ★ into Cleo's inventory"."""
        if isinstance(move, Play):
            return f"play your {hat_words(move.hat)} into {_whose(move.to, self.hint_seat())}"
        if move in (DECLINE, DONE):
            return "press “decline”" if move == DECLINE else "press “done”: you play no more hats this round"
        return describe(move, self.hint_seat())

    def no_target_text(self, item: str) -> str | None:
        """A hand hat with nowhere to go: an ability waits first, or the moment is not a playing one."""
        if any(isinstance(move, Play) and move.hat == item for move in self.reader_moves()):
            return None
        return (
            f"Your {hat_words(item)} has to wait: first click a lit hat to use the card that waits, "
            "or press “decline” (M3, M4)."
        )

    # -- showing ---------------------------------------------------------------------

    def show_table(self, view: dict[str, Any]) -> None:
        madder: MadderView = view  # type: ignore[assignment]
        cards = card_set(MadderOptions(**madder["options"]))
        hand = sorted(madder["hand"] or [])
        if self.selected not in hand:
            self.selected = None
        moves = self.reader_moves() if self.live or self.decides() else []
        hint = None if self.hint_move is None else self.game.parse(self.hint_move)
        self.round_info.value = _round_html(madder, cards)
        self._note_choices(moves)
        self._show_seats(madder, cards, moves, hint)
        self._show_hand(madder, cards, hand, moves, hint)
        self.haberdasher_line.value = _haberdasher_html(madder, cards)
        self._show_choices(madder, cards, moves, hint)
        self._show_line(madder, cards, hint)
        self.round_table.value = rounds_html(madder)
        self._show_round_end(madder, cards)

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

    def _show_seats(self, view: MadderView, cards: CardSet, moves: list[Any], hint: Any) -> None:
        targets = {move.to for move in moves if isinstance(move, Play) and move.hat == self.selected}
        look = partial(self._look, hint=hint)
        for seat, (button, seat_row) in enumerate(zip(self.target_buttons, self.seat_rows, strict=True)):
            seat_row.value = self._seat_html(view, cards, seat)
            self.inventories[seat].show(view["inventories"][seat], cards, look, view["to_move"] is None)
            moved = self._seconds.get(seat)  # the picked-up hat may move into this inventory
            marks = ["hk-legal"] if seat in targets or moved else []
            hinted = (isinstance(hint, Play) and hint.to == seat) or (moved is not None and moved == hint)
            marks += ["hk-hint"] if hinted else []
            button.tooltip = describe(moved, self.viewer) if moved else self._target_tip(seat)
            set_marks(button, marks, MARKS)
            button.disabled = view["to_move"] is None
            show(button, view["phase"] != OVER)  # the game is over: no hat goes anywhere now
        self.ring.place(self.viewer, [] if view["to_move"] is None else [view["to_move"]])

    def _show_hand(self, view: MadderView, cards: CardSet, hand: list[str], moves: list[Any], hint: Any) -> None:
        seat = view["seat"]
        owner = f"{view['names'][seat or 0]}'s" if self.readers_share else "Your"
        self.hand_label.value = f"{owner} hand" + ("" if hand else " (empty)")
        hinted = hint.hat if isinstance(hint, Play) else None
        self._hand = hand
        picked = self._picked_index(hand)
        for index, button in enumerate(self.hand_buttons):
            hat = hand[index] if index < len(hand) else None
            marks = ["hk-selected"] if index == picked else []
            marks += ["hk-hint"] if hat is not None and hat == hinted else []
            tip = _hand_tip(hat, moves) if hat else ""
            face = hat_html(hat, cards) if hat else ""
            set_face(button, hat_words(hat) if hat else "", tip, marks, MARKS, visible=bool(hat), face=face)
            button.disabled = view["to_move"] is None

    def _picked_index(self, hand: list[str]) -> int | None:
        """The hand button that was clicked for the selected hat: one of two identical hats, not both."""
        if self.selected is None:
            return None
        index = self.picked
        return (
            index
            if index is not None and index < len(hand) and hand[index] == self.selected
            else hand.index(self.selected)
        )

    def _note_choices(self, moves: list[Any]) -> None:
        """The waiting ability's choices, for the hats that light up and the buttons (the hat picked up first
        is put down when it starts none of them), and what a second click completes once it is picked up."""
        self._picks = {}
        for move in moves:
            if not isinstance(move, Play | EndPhase):
                for hat in first_hats(move):
                    self._picks.setdefault(hat, []).append(move)
        self._ability_waits = DECLINE in moves
        if self.first_hat not in self._picks:
            self.first_hat = None
        self._seconds = second_steps(self._first_choices(), self.first_hat)

    def _first_choices(self) -> list[Choice]:
        """The choices the picked-up hat starts (none while no hat is picked up)."""
        return self._picks.get(self.first_hat, []) if self.first_hat is not None else []

    def _completed_by(self, item: HatAt) -> Choice | None:
        """The picked-up hat's choice a press on ``item`` completes: ``item`` itself is its second hat, or it lies
        in the inventory the picked-up hat moves into."""
        return self._seconds.get(item) or self._seconds.get(item.place)  # type: ignore[call-overload]

    def _show_choices(self, view: MadderView, cards: CardSet, moves: list[Any], hint: Any) -> None:
        """The waiting ability's prompt; once a hat that starts several choices is picked up, what becomes of it
        as buttons in plain words (the hats themselves are the first step, :meth:`_look`); decline, done.

        An ability may offer 28-99 choices: they are asked in two steps, as a person plays them, first the hat
        the choice starts from (yours, in a swap), then what becomes of it. The hint is marked at both.
        """
        seat = view["seat"] or 0
        card = _waiting_card(view, cards) if DECLINE in moves else None
        where = (
            "Click a lit hat to choose it, or decline it."
            if self.first_hat is None
            else f"Now click {second_words(self._picks[self.first_hat], _the(self.first_hat, seat))}, or decline it."
        )
        self.ability_prompt.value = _ability_html(view, card, cards, where) if card is not None else ""
        chosen = self._first_choices()
        worded = [move for move in chosen if move not in self._seconds.values()]  # no second click names these
        offered = [(move, describe(move, seat), move == hint) for move in worded]
        offered += [(None, "← choose another hat", False)] if chosen else []
        self._show_offered(offered, card)
        show(self.decline_button, DECLINE in moves)
        show(self.done_button, DONE in moves)
        set_marks(self.decline_button, ["hk-hint"] if hint == DECLINE else [], MARKS)
        set_marks(self.done_button, ["hk-hint"] if hint == DONE else [], MARKS)

    def _look(self, item: HatAt, resting: str, hint: Any) -> tuple[list[str], str]:
        """A hat on the table: its marks (lit when the waiting ability may choose it, picked up, hinted) and its
        name, what a press on it does, or ``resting`` (where it lies) when a press does nothing. Once a hat is
        picked up, only what completes its choices lights up."""
        if item == self.first_hat:
            return ["hk-selected"], f"put down {_the(item, self.viewer)} (picked up)"
        if self.first_hat is not None:
            second = self._seconds.get(item)  # lit: the hat itself completes a choice, not only its inventory
            marks = (["hk-legal"] if second else []) + (["hk-hint"] if second is not None and second == hint else [])
            completed = self._completed_by(item)
            return marks, describe(completed, self.viewer) if completed else resting
        chosen = self._picks.get(item, [])
        marks = ["hk-legal"] if chosen else []
        marks += ["hk-hint"] if isinstance(hint, Choice) and first_hat(hint) == item else []
        if len(chosen) == 1:
            return marks, describe(chosen[0], self.viewer)
        return marks, f"pick up {_the(item, self.viewer)}, then choose what becomes of it" if chosen else resting

    def _show_line(self, view: MadderView, cards: CardSet, hint: Any) -> None:
        """The assembly line's hats as cards, then the deck: those the waiting ability may choose light up, each
        named by what a click on it does ("take the Boater from the assembly line")."""
        self._line = list(view["line"])
        for index, button in enumerate(self.line_buttons):
            hat = self._line[index] if index < len(self._line) else None
            where = f"{hat_words(hat)}, hat {index + 1} on the assembly line" if hat else ""
            marks, tip = self._look(HatAt(hat, LINE), where, hint) if hat else ([], "")
            face = line_hat_html(hat, index, cards) if hat else ""
            set_face(button, hat_words(hat) if hat else "", tip, marks, MARKS, visible=hat is not None, face=face)
            button.disabled = view["to_move"] is None
        self.deck_line.value = deck_html(view["deck_size"])

    def _show_offered(self, offered: list[tuple[Any, str, bool]], card: Ability | None) -> None:
        """Fill the choice buttons: (what a click does, its words, whether the hint points at it)."""
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


def tap_card(action: Callable[[], None]) -> ui.Button:
    """A hat on the table as a card button that is pressed where it lies, never carried off (``hk-tapcard``)."""
    button = named_button("", "", action, width=None)
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

    def __init__(self, seat: int, press: Callable[[HatAt], None]) -> None:
        self.seat, self._press_hat = seat, press
        self._hats: list[list[str]] = []  # the hats of each shown group, in order
        self.name = html_line("hk-holdname")
        self.buttons = [
            [tap_card(partial(self._press, group, slot)) for slot in range(STYLE_SLOTS)] for group in range(STYLE_COUNT)
        ]
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

    def _press(self, group: int, slot: int) -> None:
        """The card in ``slot`` of style group ``group`` pressed (a stale press on a hidden card does nothing)."""
        hats = self._hats[group] if group < len(self._hats) else []
        if slot < len(hats):
            self._press_hat(HatAt(hats[slot], self.seat))

    def show(self, inventory: Sequence[str], cards: CardSet, look: Look, disabled: bool) -> None:
        """Show ``inventory``'s hats, each marked and named by ``look``; ``disabled`` when nobody is to move."""
        groups = inventory_groups(inventory, cards)
        self._hats = [hats for hats, _ in groups]
        self.name.value = f"inventory ({len(inventory)})"
        show(self.empty, not groups)
        for index, (group, caption, buttons) in enumerate(zip(self.groups, self.captions, self.buttons, strict=True)):
            hats, words = groups[index] if index < len(groups) else ([], "")
            show(group, bool(hats))
            caption.value = words
            for slot, button in enumerate(buttons):
                hat = hats[slot] if slot < len(hats) else None
                where = f"{hat_words(hat)} in {SEAT_NAMES[self.seat]}'s inventory" if hat else ""
                marks, tip = look(HatAt(hat, self.seat), where) if hat else ([], "")
                face = hat_html(hat, cards) if hat else ""
                set_face(button, hat_words(hat) if hat else "", tip, marks, MARKS, visible=hat is not None, face=face)
                button.disabled = disabled


RULE_IDS = re.compile(r"\s*\(M\d(, M\d)*\)$")  # "(M5)" at the end of a score line's reason
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
    return f"<small>{escape(RULE_IDS.sub('', line.explanation))}</small>"


DECLINE_TIP = "leave the waiting ability unused"
DONE_TIP = "play no more hats from your hand this round"


def first_hats(move: Choice) -> tuple[HatAt, ...]:
    """The hats a choice may be started from: any of a discard's hats (picked in any order), else its first."""
    return move.items if isinstance(move, Discard) else (first_hat(move),)


def second_steps(chosen: Sequence[Choice], picked: HatAt | None) -> dict[HatAt | int, Choice]:
    """The picked-up hat's choices that one more click completes, by what that click is on: the other hat of a
    swap or a two-hat discard, the inventory (a seat) a moved hat goes into. A click that would name two choices
    (a three-hat discard) names none: those choices stay buttons in plain words."""
    found: dict[HatAt | int, list[Choice]] = {}
    for move in chosen:
        second = _second_step(move, picked)
        if second is not None:
            found.setdefault(second, []).append(move)
    return {second: moves[0] for second, moves in found.items() if len(moves) == 1}


def _second_step(move: Choice, picked: HatAt | None) -> HatAt | int | None:
    if isinstance(move, Swap):
        return move.theirs
    if isinstance(move, MoveHat):
        return move.target
    if isinstance(move, Discard) and len(move.items) == 2:
        other = move.items[1] if move.items[0] == picked else move.items[0]
        return None if other == picked else other  # two hats alike in one place: one card, so a button
    return None


def second_words(chosen: Sequence[Choice], the: str) -> str:
    """What the prompt asks for once ``the`` hat is picked up, by the kind of choices it starts."""
    if all(isinstance(move, Swap) for move in chosen):
        return f"the lit hat to swap {the} for"
    if all(isinstance(move, MoveHat) for move in chosen):
        return f"the lit inventory {the} moves into"
    return f"a lit hat to discard with {the}, or choose below"


def first_hat(move: Choice) -> HatAt:
    """The hat a choice starts from: the one moved, the first discarded, yours in a swap, the one taken."""
    if isinstance(move, MoveHat):
        return HatAt(move.hat, move.source)
    if isinstance(move, Discard):
        return move.items[0]
    if isinstance(move, Swap):
        return move.mine
    return move.item


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
    """The viewer's own Haberdasher: its card, and beside it its text with the card set's label (M6)."""
    name = view["haberdasher"]
    if name is None:
        return ""
    card = cards.haberdasher(name)
    return (
        f'<div class="hk-row">{haberdasher_html(card)}<span class="hk-habertext">'
        f"Your Haberdasher (secret until the end of the round): <b>{escape(card.name)}</b>: "
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
