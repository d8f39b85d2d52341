"""The Hats Off! table as widgets: a race against bots, or a class's table played step by step.

    >>> HatsOffTable(hatskit.new_game("hats-off", players=3, seed=7))                  # race mode
    >>> HatsOffTable(hatskit.new_game("hats-off", players=3, seed=7), mode="step")     # step mode

**Race mode.** One reader races bots. The race pad (:class:`widgets.games.race.RacePad`)
shows the pile's top card large in the middle, the loose cards, the reader's
hand and the face-down head card, with a button and a key per action; it times
every answer in the browser, from the moment the card was drawn on screen. A
play goes in as ``Ana:fez@0.413``: the reaction time, never the time it reached
the kernel. The bots' plays are held back until the reader has answered (or
passed when the pad's time ran out), then made with their own drawn reaction
times, so the engine settles the race on reaction times alone (O3) and network
delay never decides it. Where the reader has nothing to do in a race, the bots
play after ``bot_delay``. The head card is shown for ``head_seconds`` when it
changes, then hidden, unless the ``memory_aid`` option is on (O1). Undo, hint
and step-through are switched off: a race cannot be taken back. A lesson's step
(widgets/teaching/lessons.py) is marked on the pad's button for it; an answer the step
does not ask for is refused and the same decision opens again.

**Step mode.** The same game turn by turn for a class: every seat is the
reader's (bots may sit too), and the reader chooses who does what and after
how many seconds; when everyone has moved, the message line tells how the race
was settled, each event with its rule. Undo, hint and step-through work here.

**At a shared table** (``at_host(HatsOffTable, seat)``, widgets/table/shared.py)
the same race pad races classmates on other laptops: :meth:`HatsOffTable.play_answer`
is the hook the shared seat overrides, so a pad's answer goes to the table host's
``answer`` op as it is (action and measured time), and the host settles the race
and plays the bots at their reaction levels; the kernel holds only its seat's view.

Only reader seats' views reach widgets: a bot's hand and head card never do,
and nor does a sealed move of a bot (in race mode even the fact that a bot
has moved is left out until the race is settled).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, NamedTuple, cast

from hatskit.bots import Bot
from hatskit.core import Event, Game
from hatskit.drawing import seats_order, sentence, without_rules
from hatskit.games.hats_off import KIND_NAMES, MAX_RACES, Call, Flip, HatsOffMove, HatsOffView, Pass, Play, Wear
from hatskit.games.hats_off.bots import LEVELS, RacerBot
from hatskit.games.hats_off.render import seat_row_html, view_html
from hatskit.games.hats_off.scoring import cards
from widgets.games.race import WEAR, Answer, RacePad, loose_cards
from widgets.table.frame import BOT, READER, TableFrame
from widgets.table.scheduler import ManualClock, Timer
from widgets.toolkit import ui
from widgets.toolkit.parts import html_line, named_button, row, show

MODES = ("race", "step")
MATCH = "a match!"  # how the rules' narration tells a matching play
MOVED = " has moved (moves stay secret until everyone has moved)"  # ... and a seat's secret move in a race
HEAD = "head"  # the scheduler's tag for hiding the head card after its moment
WEAR_DELAY = 0.4  # seconds before a bot chooses its head card


class HatsOffTable(TableFrame):
    """A Hats Off! game at a table, in race mode or step mode; see the module docstring."""

    game_id = "hats-off"
    default_seats: ClassVar[tuple[str, ...]] = (READER, "greedy", "greedy")
    usual_bot_delay: ClassVar[float] = 1.5  # where the reader sits a race out, or a bot flips

    def __init__(
        self,
        game: Game,
        seats: Sequence[str] | None = None,
        mode: str = "race",
        level: str | None = None,
        bots: Mapping[int, Bot] | None = None,
        bot_delay: float | None = None,
        seed: int = 0,
        clock: ManualClock | None = None,
        answer_seconds: float = 4.0,
        head_seconds: float = 2.5,
        teacher: bool = False,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be 'race' or 'step', not {mode!r}")
        check_level(level)
        self.mode = mode
        self.can_undo = self.can_hint = self.can_step = mode == "step"
        self.level = level
        self.fixed_bots = dict(bots or {})
        self.answer_seconds, self.head_seconds = answer_seconds, head_seconds
        self._racers: dict[int, Bot] = {}
        self._racers_of: Game | None = None
        self._head_key: tuple[int, ...] | None = None
        self._head_seen: str | None = None  # the head card as it was shown when it changed
        self._head_timer: Timer | None = None
        self._turn_key: tuple[Any, ...] | None = None
        self._answered_turn: int | None = None  # the pad's decision an answer was sent for
        seats = tuple(seats) if seats is not None else default_seats(mode, len(game.seat_names))
        self._check_race_seats(seats)
        super().__init__(game, seats, bot_delay, seed, clock, teacher)
        if mode == "race":  # a lesson's bots react as its seats say: the level waits until the lesson is done
            self.free_play_parts = (*self.free_play_parts, self.level_box)
        if level is not None:
            self.set_level(level)
            self.flush()

    # -- a new game from the set-up row ------------------------------------------------

    def _seat_game(self, game: Game, seats: Sequence[str]) -> None:
        """A game seated: the pad's next decision and the next head card start afresh.

        A decision is known by where the game stands (round, phase, flips, race), never by ``id(self.game)``: a
        shared seat's game is a new object with every frame the host sends, and a pad opened anew for each would
        restart the reader's stopwatch mid-race and drop their answer as one for an older decision.
        """
        super()._seat_game(game, seats)
        self._turn_key = self._head_key = None

    def start(self, game: Game, seats: Sequence[str] | None = None) -> None:
        """A new game; race mode takes exactly one reader (the one at the screen), the rest bots."""
        try:
            self._check_race_seats(seats or ())
        except ValueError as error:
            self.say(f"No new game: {error}", error=True)
            return
        super().start(game, seats)

    def _check_race_seats(self, seats: Sequence[str]) -> None:
        readers = sum(kind == READER for kind in seats)
        if self.mode == "race" and seats and readers != 1:
            raise ValueError(f"a race has one reader and bots in the other seats, not {readers} readers")

    # -- bots: held back in a race until the reader has answered -------------------------

    def run_bots(self) -> None:
        """Schedule the bots, except in a race the reader has not answered yet: they wait for it."""
        if self._reader_racing():
            self.scheduler.cancel(BOT)
            return
        super().run_bots()

    def bot_delay_for(self, seat: int) -> float:
        """At once after the reader's answer; a pause where the reader sits a race out or a bot flips."""
        del seat
        view = self.game.view(None)
        if self.mode == "step":
            return self.bot_delay
        if view["phase"] == "wear":
            return WEAR_DELAY
        answered = any(reader in view["submitted"] for reader in self.reader_seats)
        return 0.0 if view["phase"] == "race" and answered else self.bot_delay

    def bot_move(self, seat: int) -> Any:
        """The bot's move from its seat's view; a race play carries its drawn reaction time."""
        return self._racer(seat).choose(self.game.seat_view(seat))

    @property
    def readers_share(self) -> bool:
        """Never: a race has one reader, and in step mode one reader plays every seat."""
        return False

    def seat_kind(self, seat: int) -> str:
        """ "you", "adult bot": a bot is named by how fast it reacts."""
        if seat in self.reader_seats:
            return super().seat_kind(seat)
        return f"{self._racer(seat).name} bot"

    def set_level(self, level: str | None) -> None:
        """Let every bot react like ``level`` (None: as its seat's kind says), from its next move on."""
        check_level(level)
        self.level, self._racers_of = level, None
        self.setup.name_bots(level)
        self.refresh()

    def _racer(self, seat: int) -> Bot:
        if seat in self.fixed_bots:
            return self.fixed_bots[seat]
        if self.level is None:
            return self.bots[seat]
        if self._racers_of is not self.game:
            self._racers, self._racers_of = {}, self.game
        if seat not in self._racers:
            self._racers[seat] = RacerBot(self.seed + seat, self.level)
        return self._racers[seat]

    def _reader_racing(self) -> bool:
        """True in race mode while a race is on and the reader may still answer it."""
        live = self.game.view(None)
        return self.mode == "race" and live["phase"] == "race" and any(s in live["acting"] for s in self.reader_seats)

    # -- building (again only when the player count changes) -------------------------------

    def build_table(self) -> list[ui.Part]:
        self.seat_rows = html_line("hk-ho-seats")
        self.own_seat = html_line("hk-ho-own")
        if self.mode == "race":
            self.pad = RacePad(self.answered, timeout=self.answer_seconds)
            return [self.seat_rows, self.pad, self.own_seat, self._level_box()]
        self.picture = html_line("hk-ho-picture")
        self.seat_box = ui.Choices(description="who", tooltip="the player who acts now")  # at most 5: pills
        self.move_box = ui.Choices(description="does", tooltip="what that player does")  # at most 6: pills
        self.time_pills = ui.Choices(options=TIMES, value=TIMES[1][1], description="after", tooltip=TIME_TIP)
        self.time_box = ui.BoundedFloatText(
            value=0.5, min=0, max=999.999, step=0.05, description="seconds", tooltip=TIME_TIP
        )
        self.play_button = named_button("play", "play the chosen move", self.play_chosen)
        self.seat_box.observe(lambda _: self._show_moves(), names="value")
        for box in (self.move_box, self.time_pills):
            box.observe(lambda _: self._show_time_box(), names="value")
        controls = [self.seat_box, self.move_box, self.time_pills, self.time_box, self.play_button]
        return [self.picture, row(controls, flex_flow="row wrap")]

    def _level_box(self) -> ui.Choices:
        """The bots' level, built once: a lesson hides it with the table's other free-play controls.

        A row of pills with the level's short name ("child"); who reacts like that ("a child of about 8-9") is
        the pill's description and the line under the row, so six choices fit a phone's width.
        """
        if getattr(self, "level_box", None) is None:
            levels = [("as each seat says", None), *((name, name) for name in LEVELS)]
            notes = ["each bot reacts as its seat says", *(f"like {level.who}" for level in LEVELS.values())]
            self.level_box = ui.Choices(
                options=levels,
                notes=notes,
                value=self.level,
                description="bots react like",
            )
            self.level_box.tooltip = "how fast every bot reacts, from a young child to a practised adult"
            self.level_box.observe(lambda change: self.set_level(change["new"]), names="value")
        return self.level_box

    # -- the reader acts -----------------------------------------------------------------

    def answered(self, answer: Answer) -> None:
        """An answer from the race pad, timed in the browser: played as the reader's move, or refused.

        One answer a decision: a second copy of the pad on the page answering it too, or answering it again before
        the position the first answer makes has come (from the host, at a shared table), is dropped here.
        """
        if not self.pad.can_act or self._answered_turn == self.pad.turn:
            return
        self._answered_turn = self.pad.turn
        self.play_answer(answer.action, answer.seconds, self._answer_refused)

    def play_answer(self, action: str, seconds: float, refused: Callable[[str], None]) -> None:
        """The reader's timed answer (the pad's action, the reaction time the browser measured), played here as
        their move: this kernel holds the game and settles the race. ``refused(sentence)`` when it may not be.

        The hook a shared seat overrides (``SharedTable.play_answer``, widgets/table/shared.py): there the answer
        goes to the host as it is, and the host settles the race on each device's own times.
        """
        notation = str(answer_move(self.viewer, Answer(action, seconds)))
        refusal = self.why_not(notation)
        if not self.try_move(notation):
            refused(refusal or "")

    def _answer_refused(self, refusal: str) -> None:
        """An answer refused (a lesson's step asks for another move, the host said no): the same decision opens
        again on the pad, with the sentence on the pad too, where the reader looks (as the message line says it)."""
        self._turn_key = None
        self.show_table(self.shown().view(self.viewer))
        self.pad.update(result=without_rules(sentence(refusal, capital=True))[0])

    def play_chosen(self) -> None:
        """Step mode: play what the row of choices says, timed by the seconds chosen when it is a race move."""
        chosen = self.move_box.value
        if chosen is None:
            self.say("Nobody you play for can act here: step forward, or wait for the bots.", error=True)
            return
        move = self.game.parse(chosen)
        self.try_move(str(move.at(self.chosen_seconds) if isinstance(move, Play | Call) else move))

    @property
    def chosen_seconds(self) -> float:
        """The seconds after the flip a step-mode play or call is made: a pill's, or the box's under *other…*."""
        return self.time_box.value if self.time_pills.value == OTHER_TIME else self.time_pills.value

    # -- hints in step mode: for the player chosen under "who", in words, chosen on the pills -------

    def hint_seat(self) -> int:
        """Step mode: the player chosen under "who" (any reader seat may act there); race mode has no hints."""
        chosen = self.seat_box.value if self.mode == "step" else None
        return self.viewer if chosen is None else chosen

    def move_words(self, move: Any, seat: int | None = None) -> str:
        """ "Ben: play the fez from the hand after 0.61 s": the move as the list says it, with its time."""
        words = f"{self.game.seat_names[move.seat]}: {describe(move)}"
        return f"{words} after {move.ms / 1000:.2f} s" if isinstance(move, Play | Call) else words

    def preselect(self, move: Any) -> None:
        """Choose the hinted player, move and seconds on the step table's pills, so "play" plays the hint."""
        if self.mode != "step" or move.seat not in [seat for _, seat in self.seat_box.options]:
            return
        self.seat_box.value = move.seat
        timed = isinstance(move, Play | Call)
        self.move_box.value = str(move.at(0)) if timed else str(move)
        if timed:
            self.show_seconds(move.ms / 1000)

    def show_seconds(self, seconds: float) -> None:
        """Choose ``seconds`` (a hint's time): its pill, or *other…* with the number in the box."""
        preset = next((value for _, value in TIMES if value == seconds), None)
        self.time_pills.value = OTHER_TIME if preset is None else preset
        self.time_box.value = seconds

    # -- showing -----------------------------------------------------------------------

    def show_table(self, shown: dict[str, Any]) -> None:
        view = cast(HatsOffView, shown)  # the frame passes game.view(viewer): a Hats Off! view
        kinds = [self.seat_kind(seat) for seat in range(view["players"])]
        if self.mode == "race":
            others = seats_order(view["players"], view["seat"])
            self.seat_rows.value = _live(seat_row_html(view, kinds, others))
            self.own_seat.value = _live(seat_row_html(view, kinds, [view["seat"]], on_pad=True))
            self._show_pad(view)
        else:
            self._show_steps(view, kinds)

    def _show_pad(self, view: HatsOffView) -> None:
        seat = view["seat"]
        can_act = self.live and seat in view["acting"]
        asked = prompt(view, can_act)
        shown = {
            "phase": view["phase"],
            "prompt": asked.text,
            "keys": asked.keys,
            "result": self._result_text(view),
            "top": view["top"],
            "under": max(len(view["pile"]) - 1, 0),
            "loose": loose_cards(view),
            "hand": list(view["hand"] or []),
            "has_head": view["has_head"][seat],
            "head": self._head_shown(view),
            "can_act": can_act,
            "can_call": can_act and may_call(view),
            "answer": "" if view["my_move"] is None else f"{self._my_move_words(view)}; waiting for the others",
            "hint": pad_action(self.game.parse(self.hint_move)) if can_act and self.hint_move is not None else "",
        }
        key = (view["round"], view["phase"], view["flips"], view["race"])
        if key != self._turn_key:
            self._turn_key = key
            self.pad.open_turn(**shown)
        else:
            self.pad.update(**shown)

    def told(self, events: list[Event]) -> list[Event]:
        """A race's "has moved" notes, one a seat, folded into one line: "Ana, Ben and Cleo have moved ...". Only
        notes that follow each other are folded: what a shared table tells since the reader's last move may span
        races, each settled in between, and a seat moves once in each."""
        lines: list[Event] = []
        for sealed, run in itertools.groupby(events, key=lambda event: event.text.endswith(MOVED)):
            notes = list(run)
            if sealed and len(notes) > 1:
                movers = _and([note.text.removesuffix(MOVED) for note in notes])
                notes = [Event(f"{movers} have moved{MOVED.removeprefix(' has moved')}", "O3")]
            lines.extend(notes)
        return lines

    def _my_move_words(self, view: HatsOffView) -> str:
        """The reader's sealed move in words: "you: play the fez from the hand after 0.23 s"."""
        move = self.game.parse(view["my_move"])
        timed = f" after {move.ms / 1000:.2f} s" if isinstance(move, Play | Call) else ""
        return f"you: {describe(move)}{timed}"

    def _head_shown(self, view: HatsOffView) -> str | None:
        """The reader's head card while its moment lasts, ``head_seconds`` from when it changed (O1), or always
        with the memory aid.

        The engine stops the seat "looking" at the next flip, which may come a fraction of a second later
        (the reader flips next after winning); the card seen when it changed stays for its whole moment.
        """
        if view["options"]["memory_aid"]:
            return view["head"]
        key = (view["round"], view["head_changes"][view["seat"]])
        if key != self._head_key and view["head"] is not None:
            self._head_key, self._head_seen = key, view["head"]
            self._head_timer = self.scheduler.call_later(self.head_seconds, self._hide_head, tag=HEAD)
        live = key == self._head_key and self._head_timer is not None and not self._head_timer.done
        return self._head_seen if live else None

    def _hide_head(self) -> None:
        self.show_table(self.shown().view(self.viewer))

    def _result_text(self, view: HatsOffView) -> str:
        """Who won cards in the moves the message line tells of: "Ben won 3 cards"."""
        before = self.view_before()["won_counts"]
        gains = [(seat, now - then) for seat, (now, then) in enumerate(zip(view["won_counts"], before, strict=True))]
        told = [f"{self._who(view, seat)} won {cards(gain)}" for seat, gain in gains if gain > 0]
        if not told and view["phase"] == "flip" and view["top"] is not None:
            told = [f"Nobody matched the {KIND_NAMES[view['top']]}"]
        why = self._race_reason(view, [seat for seat, gain in gains if gain > 0])
        return ". ".join(part for part in ("; ".join(told), why) if part)

    def _race_reason(self, view: HatsOffView, winners: list[int]) -> str:
        """Why the race went as it did for the reader, on the pad: their own play as the rules told it, in the
        second person, and by how much a faster player beat them ("Ben was 0.12 s faster")."""
        seat, name = view["seat"], view["names"][view["seat"]]
        plies = self.recent_plies()
        told = [event.text for ply in plies for event in self.game.events[ply]]
        mine = next((text for text in told if text.startswith((f"{name} plays ", f"{name}'s play"))), "")
        mine = mine.replace(f"{name} plays ", "You played ", 1).replace(f"{name}'s play", "Your play", 1)
        mine = mine[: mine.index(MATCH) + len(MATCH)] if MATCH in mine else mine  # the win is told before it
        timed = {move.seat: move.ms for ply in plies if isinstance(move := self.game.moves[ply], Play | Call)}
        faster = [other for other in winners if other != seat and other in timed and seat in timed]
        if faster and timed[faster[0]] < timed[seat]:
            gap = (timed[seat] - timed[faster[0]]) / 1000
            mine += f" ({view['names'][faster[0]]} was {gap:.2f} s faster)"
        return mine

    def _who(self, view: HatsOffView, seat: int) -> str:
        return "You" if seat == view["seat"] and len(self.reader_seats) == 1 else view["names"][seat]

    def _show_steps(self, view: HatsOffView, kinds: list[str]) -> None:
        shown = self.shown()
        views = {seat: shown.view(seat) for seat in self.reader_seats}
        hands = [views[s]["hand"] if s in views else None for s in range(view["players"])]
        heads = [views[s]["head"] if s in views else None for s in range(view["players"])]
        self.picture.value = _live(view_html(view, hands, heads, kinds))
        acting = [seat for seat in shown.acting if seat in self.reader_seats]
        keep = self.seat_box.value if self.seat_box.value in acting else (acting[0] if acting else None)
        self.seat_box.options = [(self.seat_label(seat), seat) for seat in acting]
        self.seat_box.value = keep
        self._show_moves()
        if self.hint_move is not None:  # a lesson's step (or a hint) points here: its move is picked in the boxes
            self.preselect(self.game.parse(self.hint_move))

    def _show_moves(self) -> None:
        seat = self.seat_box.value
        moves = [] if seat is None else self._moves_of(seat)
        self.move_box.options = [(describe(move), str(move)) for move in moves]
        self.move_box.value = str(moves[0]) if moves else None
        self.play_button.disabled = not moves
        self._show_time_box()

    def _moves_of(self, seat: int) -> list[Any]:
        """The legal moves of reader ``seat`` at the shown position: the viewer's are the frame's
        (:meth:`reader_moves`, asked once a refresh), so the move box and the page's paths share one answer."""
        return self.reader_moves() if seat == self.viewer else self.shown().legal_moves(seat)

    def _show_time_box(self) -> None:
        """The seconds only for a play or a call, the moves a race settles by time; the box only under *other…*."""
        chosen = self.move_box.value
        timed = chosen is not None and isinstance(self.game.parse(chosen), Play | Call)
        show(self.time_pills, timed)
        show(self.time_box, timed and self.time_pills.value == OTHER_TIME)


TIME_TIP = "how many seconds after the card was shown the play or call is made (the earliest wins)"
OTHER_TIME = "other"
# Step mode's seconds as pills, a quick and a slow reaction among them; *other…* opens a box for any time.
TIMES = (("0.3 s", 0.3), ("0.5 s", 0.5), ("1 s", 1.0), ("2 s", 2.0), ("other…", OTHER_TIME))


def default_seats(mode: str, players: int) -> tuple[str, ...]:
    """Race mode: the reader in Ana's seat, adult bots in the others; step mode: the reader in every seat."""
    return (READER,) * players if mode == "step" else (READER, *("greedy",) * (players - 1))


def check_level(level: str | None) -> None:
    """A ValueError naming the levels unless ``level`` is one of them (or None)."""
    if level is not None and level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}: the levels are {', '.join(LEVELS)}")


def answer_move(seat: int, answer: Answer) -> HatsOffMove:
    """The move an answer from the race pad stands for, timed with the pad's reaction time."""
    action = answer.action
    if action == "flip":
        return Flip(seat)
    if action == "pass":
        return Pass(seat)
    if action.startswith(WEAR):
        return Wear(seat, action.removeprefix(WEAR))
    if action == "off":
        return Call(seat).at(answer.seconds)
    return Play(seat, 0, None if action == "head" else action).at(answer.seconds)


def pad_action(move: HatsOffMove) -> str:
    """The race pad's action for ``move`` (its button's name), the inverse of :func:`answer_move`."""
    if isinstance(move, Wear):
        return f"{WEAR}{move.kind}"
    if isinstance(move, Flip | Pass):
        return "flip" if isinstance(move, Flip) else "pass"
    if isinstance(move, Call):
        return "off"
    return "head" if move.kind is None else str(move.kind)


def describe(move: HatsOffMove) -> str:
    """A move in words, for the step-mode list ("play the fez from the hand"); the rule ids stay in the why."""
    if isinstance(move, Wear):
        return f"put the {KIND_NAMES[move.kind]} on the head"
    if isinstance(move, Flip):
        return "flip the next card"
    if isinstance(move, Pass):
        return "pass"
    if isinstance(move, Call):
        return "call Hats Off!"
    if move.kind is None:
        return "play the head card, face down"
    return f"play the {KIND_NAMES[move.kind]} from the hand"


SPACE_BAR = "space\u00a0bar"  # the key's name, kept on one line wherever the prompt wraps


class Prompt(NamedTuple):
    """What the pad asks of the reader now, in one line, and the keys for it apart: a phone has none."""

    text: str
    keys: str = ""  # "Press F.", or "" where the reader may do nothing now


def prompt(view: HatsOffView, can_act: bool) -> Prompt:
    """What the reader may do now, and its keys (rule ids stay in the "why" and the rules notes)."""
    phase = view["phase"]
    if phase == "over":
        return Prompt(without_rules(str(view["outcome"]))[0])
    if not can_act:
        return Prompt(_waiting(view))
    if phase == "wear":
        return Prompt("Choose a card to wear on your head: look at it well, it is your only look.", "Keys\u00a01-4.")
    if phase == "flip":
        return Prompt("Your turn to flip the next card.", "Press\u00a0F.")
    return _race_prompt(view)


def _waiting(view: HatsOffView) -> str:
    """The prompt of a reader who may do nothing now: what the table waits for."""
    if view["phase"] == "wear":
        return "The others are choosing their head cards…"
    if view["phase"] == "flip":
        return f"{view['names'][view['flipper']]} flips…"
    waiting = "You have nothing to play or call for in this race" if view["my_move"] is None else "Moved"
    return f"{waiting}: waiting for the others…"


def _race_prompt(view: HatsOffView) -> Prompt:
    """A race the reader may answer: what to match, or only the call (a loose card alone, a card with no race left)."""
    if view["top"] is None:
        return Prompt("A loose card! Be first to call Hats Off!", f"({SPACE_BAR})")
    if view["race"] > MAX_RACES:
        return Prompt(
            f"The {KIND_NAMES[view['top']]} had its {MAX_RACES} races: only Hats Off! calls count now.",
            f"({SPACE_BAR})",
        )
    callable_here = may_call(view)
    call = f", {SPACE_BAR} Hats Off!" if callable_here else ""
    keys = f"Keys: 1-3 your hand, H your head, P pass{call}"
    return Prompt(f"Match the {KIND_NAMES[view['top']]}!{_call_prompt(view, callable_here)}", keys)


def may_call(view: HatsOffView) -> bool:
    """True when a loose card lies there that the reader may win by calling: one that is not their own (O5, O6)."""
    return any(card["owner"] != view["seat"] for card in view["loose"])


def _call_prompt(view: HatsOffView, callable_here: bool) -> str:
    """The call's part of the prompt when a loose card lies there: that the reader may call (``callable_here``,
    :func:`may_call`), else why not."""
    if callable_here:
        return " A loose card: be first to call Hats Off!"
    if view["loose"]:
        return " The loose card is your own, so you cannot call Hats Off! for it."
    return ""


def _live(drawing: str) -> str:
    """The renderer's picture as the live table shows it: its rule ids ("flips next (O2)") left to the rules
    notes and the message line's "why?" (the saved pictures in the notebook keep them)."""
    return without_rules(drawing)[0]


def _and(names: Sequence[str]) -> str:
    """ "Ana", "Ana and Ben", "Ana, Ben and Cleo"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


__all__ = ["HatsOffTable", "answer_move", "describe", "pad_action"]
