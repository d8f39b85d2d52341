"""The set-up panel every table shares: deal number, players, who sits where, rule options, and *Start*.

    >>> row = SetupRow("hats", player_counts=(2, 3, 4), shuffled=True, start=table.start, refuse=print)

The choices are folded into one *New game…* button (a :class:`widgets.toolkit.ui.Fold`):
a table shows the game, not a form, and on a phone a row of choice boxes would
push the cards below the screen. Opening it shows the choices and *Start*.
The short choices (how many players, who sits in each seat) are rows of pills
(:class:`widgets.toolkit.ui.Choices`), pressed as a game's buttons are, not drop-down lists.
Nothing changes until *Start* is pressed; then the panel builds the game from
its choices and hands it to ``start`` (the panel folds again once the game is
shown), or hands ``refuse`` the sentence that says which choice the game would
not take (the panel stays open). The deal is three pills: *new cards* (a fresh
shuffle, the default), *same cards again* (this game's deal, to try it another
way) and *deal number…*, which opens the box of the deal's number. The deal
number is the game's seed: the same number deals the same cards on every
screen, so a teacher can give a whole class one deal; the box shows the number
of the game on the table, to pass on.

The rule options are not written per game: one control per field of the
game's options dataclass (:attr:`hatskit.core.GameSpec.options_type`), chosen
by the field's type and metadata (pills for yes/no, for one of a few values
and for some of a few, a box for any other number or text), named after the
field and explained by the dataclass's docstring.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import Field, fields
from typing import Any

import hatskit
from hatskit import Game, HatskitError
from hatskit.bots import BOT_KINDS, bot_kinds, make_bot
from hatskit.core import new_seed
from widgets.toolkit import ui
from widgets.toolkit.parts import named_button, show

READER = "reader"
FRESH, AGAIN, BY_NUMBER = "fresh", "again", "number"  # the deal pills' values
SEAT_KINDS = (READER, *BOT_KINDS)
NEW_SEAT = "greedy"  # who sits in a seat that a larger table adds
_WHOLE = re.compile(r"[0-9]{1,30}")


class SetupRow(ui.Fold):
    """The choices for the next game and *Start*, folded under *New game…*; see the module docstring."""

    def __init__(
        self,
        game_id: str,
        player_counts: Sequence[int],
        shuffled: bool,
        start: Callable[[Game, tuple[str, ...]], None],
        refuse: Callable[[str], None],
    ) -> None:
        self.game_id = game_id
        self.start, self.refuse = start, refuse
        self.shuffled = shuffled
        self.shown_seed: int | None = None  # the deal of the game on the table
        self._showing = False  # values being set from the game, not by the reader
        self.new_game_button = named_button("Start", NEW_GAME_TIP, self.new_game, width=None, primary=True)
        self.deal_box = ui.Choices(options=DEAL_CHOICES, value=FRESH, description="deal", tooltip=DEAL_TIP)
        self.seed_box = ui.Text(description="deal number", tooltip=SEED_TIP)
        show(self.deal_box, shuffled)
        show(self.seed_box, False)
        self.players_box = ui.Choices(options=list(player_counts), description="players", tooltip=PLAYERS_TIP)
        show(self.players_box, len(player_counts) > 1)
        self.seat_choices = seat_choices(game_id)
        self.bots_named: str | None = None  # one name for every bot (Hats Off!'s "bots react like"): see name_bots
        self.seat_boxes = [self._seat_box() for _ in range(max(player_counts))]
        self.option_defaults = hatskit.GAMES[game_id].options_type()
        self.option_boxes = option_controls(type(self.option_defaults))
        self.kept_options: dict[str, Any] = {}
        self.option_players = option_player_counts(type(self.option_defaults))
        self.seed_box.observe(self._seed_typed, names="value")
        self.deal_box.observe(self._deal_chosen, names="value")
        self.players_box.observe(self._players_changed, names="value")
        rows = [[self.deal_box], [self.seed_box], [self.players_box], self.seat_boxes, list(self.option_boxes.values())]
        super().__init__([*map(ui.HBox, rows), self.new_game_button], summary="New game…", tooltip=SETUP_TIP)
        self.add_class("hk-setup")

    def show(self, game: Game, seats: Sequence[str]) -> None:
        """Show the choices that made ``game``: its deal number, player count, seats and options (folded away)."""
        self.open = False
        self._showing = True
        try:
            seed = self.shown_seed = game.head.get("seed")
            self.seed_box.value = "" if seed is None else str(seed)
            self.deal_box.value = FRESH
            self.deal_box.notes = deal_notes(seed)
            self.players_box.value = len(seats)
            self._show_seats(game.seat_names, seats)
            self._show_options(len(seats))
            given = game.head.get("options") or game.head.get("start", {}).get("options", {})
            self.kept_options = {name: value for name, value in given.items() if name not in self.option_boxes}
            for name, box in self.option_boxes.items():
                if name in given:
                    box.value = given[name]
        finally:
            self._showing = False

    def chosen(self) -> tuple[Game, tuple[str, ...]]:
        """The game and seats the panel's choices make; a ValueError or HatskitError says what is wrong."""
        players = self.players_box.value
        options = {
            name: box.value for name, box in self.option_boxes.items()
        } | self.kept_options  # the options the panel does not show stay as the game had them
        game = hatskit.new_game(self.game_id, players=players, seed=self._chosen_seed(), **options)
        seats = tuple(box.value for box in self.seat_boxes[:players])
        return game, check_seats(seats, players, self.game_id)

    def new_game(self) -> None:
        """Start the chosen game, or say which choice is wrong and change nothing."""
        try:
            game, seats = self.chosen()
        except (HatskitError, ValueError) as error:
            self.refuse(f"No new game: {error}")
            return
        self.start(game, seats)

    def _chosen_seed(self) -> int:
        """The deal the pills choose: a fresh one, this game's again, or the number in the box (empty: fresh)."""
        text = self.seed_box.value.strip()
        if self.deal_box.value == AGAIN and self.shown_seed is not None:
            return self.shown_seed
        if self.deal_box.value != BY_NUMBER or not text:
            return new_seed()
        number = whole_number(text)
        if number is None:
            raise ValueError(f"the deal number must be a whole number such as 4711, not {text!r}")
        return number

    def _seat_box(self) -> ui.Choices:
        return ui.Choices(options=self.seat_choices, value=NEW_SEAT, tooltip=SEAT_TIP)

    def name_bots(self, name: str | None) -> None:
        """Call every bot ``name`` ("child": every bot reacts like a child), or by its kind again (None).

        While one name covers every bot, a seat box offers a reader or that one bot: the kinds, which no
        longer differ, are not listed under one name three times.
        """
        self.bots_named = name
        for box in self.seat_boxes:
            kind = box.value
            box.options = self._choices_for(kind)
            box.value = kind

    def _choices_for(self, kind: str) -> list[tuple[str, str]]:
        if self.bots_named is None:
            offered = kind in (value for _, value in self.seat_choices)
            return self.seat_choices if offered else [*self.seat_choices, (f"{bot_name(self.game_id, kind)} bot", kind)]
        return [self.seat_choices[0], (f"{self.bots_named} bot", NEW_SEAT if kind == READER else kind)]

    def _show_seats(self, names: Sequence[str], kinds: Sequence[str]) -> None:
        """Name the first ``len(names)`` seat boxes and hide the rest."""
        for index, box in enumerate(self.seat_boxes):
            seated = index < len(names)
            show(box, seated)
            if seated:
                box.description = names[index]
                box.tooltip = f"who sits in {names[index]}'s seat: a reader at this screen or a bot"
                box.options = self._choices_for(kinds[index])
                box.value = kinds[index]

    def _players_changed(self, change: dict[str, Any]) -> None:
        """Show one seat box per player of the new count (new seats get a bot); the game starts on *Start*."""
        if self._showing:
            return
        names = hatskit.new_game(self.game_id, players=change["new"], seed=0).seat_names
        kinds = [box.value for box in self.seat_boxes[: len(names)]]
        self._show_seats(names, [kind if index < change["old"] else NEW_SEAT for index, kind in enumerate(kinds)])
        self._show_options(change["new"])

    def _show_options(self, players: int) -> None:
        """Show only the options that apply to ``players`` (Hats' ``removed`` is for two players, H1)."""
        for name, box in self.option_boxes.items():
            counts = self.option_players.get(name)
            show(box, counts is None or players in counts)

    def _seed_typed(self, change: dict[str, Any]) -> None:
        """A number typed (or pasted) into the box is the deal chosen."""
        if not self._showing:
            self.deal_box.value = BY_NUMBER

    def _deal_chosen(self, change: dict[str, Any]) -> None:
        """The box of the deal's number shows while *deal number…* is chosen."""
        show(self.seed_box, self.shuffled and change["new"] == BY_NUMBER)


SETUP_TIP = "new game: choose the deal, the players, who sits where and the options, then press Start"
NEW_GAME_TIP = "start a new game with these choices"
DEAL_CHOICES = (("new cards", FRESH), ("same cards again", AGAIN), ("deal number…", BY_NUMBER))
DEAL_TIP = "the cards of the next game: freshly shuffled, this game's again, or the deal a number gives"
SEED_TIP = "deal number: the same number deals the same cards on every screen; type one, then press Start"
PLAYERS_TIP = "players: how many sit at the table (four play as two teams); press Start to begin"
SEAT_TIP = "who sits in this seat: a reader or a bot"


def deal_notes(seed: int | None) -> tuple[str, ...]:
    """The line under the deal pills for each choice; the number of this game's deal, to pass on."""
    this = "" if seed is None else f" (deal {seed})"
    return (
        "freshly shuffled cards",
        f"the cards of this game{this}, to play them another way",
        "the same number deals the same cards on every screen",
    )


def whole_number(text: str) -> int | None:
    """The whole number ``text`` spells in ASCII digits (at most 30 of them), else None.

    ``str.isdigit`` also accepts "²" and "٣", which ``int`` refuses or reads as
    another number, and ``int`` refuses over 4,300 digits: a typed box or a link
    gets a sentence, never a ValueError from ``int``.
    """
    return int(text) if _WHOLE.fullmatch(text) else None


def seat_choices(game_id: str) -> list[tuple[str, str]]:
    """The seat box's choices, each bot named as the table names it ("adult bot" in Hats Off!, "greedy bot")."""
    return [("a reader (you)", READER), *((f"{bot_name(game_id, kind)} bot", kind) for kind in bot_kinds(game_id))]


def bot_name(game_id: str, kind: str) -> str:
    """What a bot of ``kind`` is called at ``game_id``'s table: the bot's own name."""
    return make_bot(game_id, kind).name


def check_seats(seats: Sequence[str], players: int, game_id: str | None = None) -> tuple[str, ...]:
    """The seats as a tuple, or a ValueError saying what is wrong with them.

    A seat is a reader or one of ``SEAT_KINDS``' bots; given ``game_id``, also one of that game's own bots
    (Hats Off!'s reaction levels: a lesson seats "child" bots, see hatskit/lessons.py).
    """
    seats = tuple(seats)
    if len(seats) != players:
        raise ValueError(f"this game has {players} seats, but {len(seats)} were given: {list(seats)}")
    unknown = [kind for kind in seats if kind not in SEAT_KINDS and not _game_bot(game_id, kind)]
    if unknown:
        raise ValueError(f"unknown seat kind(s) {unknown}: a seat is one of {', '.join(SEAT_KINDS)}")
    if READER not in seats:
        raise ValueError(f"at least one seat must be {READER!r}, the person at the screen")
    return seats


def _game_bot(game_id: str | None, kind: Any) -> bool:
    """Whether ``game_id`` seats a bot of ``kind`` (False without a game)."""
    try:
        return game_id is not None and make_bot(game_id, kind) is not None
    except HatskitError:
        return False


def option_controls(options_type: type) -> dict[str, ui.Field]:
    """One control per rule option, chosen by the type of the option's default value, or by the values its field
    metadata allows (``"choices"``: Hats Off!'s rounds in a match).

    An option whose field metadata says ``"teacher"`` (Madder's card file) is left out of the panel: a
    student never needs it, and a teacher gives it in code or in the page's link.
    """
    defaults = options_type()
    return {
        field.name: _control(field.name, getattr(defaults, field.name), option_tip(field), field.metadata)
        for field in fields(options_type)
        if not field.metadata.get("teacher")
    }


def option_player_counts(options_type: type) -> dict[str, tuple[int, ...]]:
    """The options that apply to some player counts only (field metadata ``"players"``), with those counts."""
    return {
        field.name: tuple(field.metadata["players"]) for field in fields(options_type) if "players" in field.metadata
    }


def _control(name: str, default: Any, tip: str, metadata: Mapping[str, Any]) -> ui.Field:
    """A rule option's control: a yes-or-no rule, or one of a few values, is a row of pills, as the players are;
    a list option (Hats' two types left out) is pills of its ``choices``, as many pressed as its default holds;
    any other number or text is a box."""
    label = name.replace("_", " ")
    if isinstance(default, bool):
        return ui.Choices(options=[("off", False), ("on", True)], value=default, description=label, tooltip=tip)
    if isinstance(default, tuple | list):
        options = list(metadata["choices"])
        return ui.Picks(options=options, value=tuple(default), limit=len(default), description=label, tooltip=tip)
    if "choices" in metadata:
        return ui.Choices(options=list(metadata["choices"]), value=default, description=label, tooltip=tip)
    if isinstance(default, int):
        return ui.IntText(value=default, description=label, tooltip=tip)
    return ui.Text(value=default, description=label, tooltip=tip)


def option_tip(option: Field[Any]) -> str:
    """What an option does, in the words its field gives a reader (metadata ``"help"``); the ruling it follows is
    named in the options' docstring and docs/rulings.md, not in the tooltip a student reads."""
    return f"{option.name.replace('_', ' ')}: {option.metadata['help']}"
