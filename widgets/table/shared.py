"""A student's seat at a table the table host keeps ("Play a classmate"), in the kernel.

At a shared table the kernel holds no :class:`hatskit.Game`: a student can run code in their kernel, so it holds
only what the host sends its seat (``tablehost/frames.py``): its own view after each move, the public narration,
who may act, its legal moves as notation, the public score sheet and the outcome. Three pieces:

- :class:`SeatGame` stands in for ``hatskit.Game`` where a :class:`~widgets.table.frame.TableFrame` and the game
  tables read ``self.game`` and ``self.shown()``, built from those frames alone; views it was not sent (a seat that
  came back mid-game) it asks the host for with the ``history`` op;
- :class:`SeatAtHost` is the kernel's seat: its code and token, its connection, and the :class:`SeatGame` the
  frames build; it sends moves and never changes the game itself: the new position arrives as a frame
  (:class:`SharedSeat` in process, :class:`ClientSeat` over the network);
- :class:`SharedTable` is a mix-in that puts a shared seat on an existing table class (:func:`at_host`): a move
  the page completes goes to the host (a race pad's timed answer to its ``answer`` op, through the table's
  ``play_answer`` hook), undo and the set-up are off, the host runs the bots, and the table redraws when a frame
  arrives.

In process, :class:`LocalHost` carries requests to a :class:`tablehost.TableHost` through the host's own protocol
(JSON text in, JSON out, as on the wire) and hands each pushed frame to the connection that holds the seat at
once, then plays the host's bots; so a table redraws synchronously after each host call:

    >>> link = LocalHost(TableHost())
    >>> maya = SharedSeat.open(link, "hats", players=3, name="Maya")
    >>> ben = SharedSeat.join(link, maya.code, name="Ben")
    >>> maya.start()                       # seat 2 gets the host's greedy bot
    >>> tables = at_host(HatsTable, maya), at_host(HatsTable, ben)

Over the network, :class:`ClientSeat` is the same seat reading its frames from a
:class:`tablehost.client.TableClient` on the kernel's asyncio loop: frames redraw the table on the loop, a move is a
task there, and a refusal comes back to the message line when the host answers.

The seat's record and game are in ``seat_game.py``, the seats and the in-process link in ``seat_at_host.py``;
this module is the table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, cast

from widgets.table.frame import TableFrame
from widgets.table.seat_at_host import Refused, SeatAtHost
from widgets.table.seat_game import STEP_TO_LATEST, SeatGame
from widgets.table.setup import READER, bot_name
from widgets.toolkit import ui
from widgets.toolkit.parts import named_button, show

__all__ = ["HOST_AWAY", "KeptElsewhere", "SharedTable", "at_host", "mixed", "take_seat"]

AWAY_TIP = "your classmate has been away for a while: a bot plays their seat until they come back to the table"
NO_UNDO_HERE = "There is no undo at a shared table: every player has seen the move. The step bar shows earlier moves."
HOST_AWAY = "The table host cannot be reached just now: the game waits, and this table joins it again by itself."
HOST_BACK = "Back at the table: the game goes on."
NO_NEW_GAME = "This table is shared with classmates: its game is the host's, so no other game can be put on it."
NO_SHARING = "This table is shared with classmates through its code: links and position codes are for your own tables."


# -- a table at a shared seat --------------------------------------------------------------------------------


class KeptElsewhere(TableFrame):
    """A mix-in for a table whose game another keeps (the host's seat, a teacher's walkthrough): no other game is
    put on it, and no link or position code is given; each says why in the sentences the class names."""

    no_new_game: ClassVar[str]
    no_sharing: ClassVar[str]

    def start(self, game: Any, seats: Sequence[str] | None = None) -> None:
        """No other game: the one on the table is kept elsewhere."""
        del game, seats
        self.say(self.no_new_game, error=True)

    def copy_link(self) -> None:
        """No link: one would deal the game anew (a classmate joins by the table's code)."""
        self.say(self.no_sharing, error=True)

    def copy_position(self) -> None:
        """No position code: it would hold every hidden card, and the table holds only what its seat sees."""
        self.say(self.no_sharing, error=True)

    def load_position(self) -> None:
        self.say(self.no_sharing, error=True)


class SharedTable(KeptElsewhere):
    """A mix-in that seats a game's table at a :class:`SeatAtHost`: ``class T(SharedTable, HatsTable)`` (see
    :func:`at_host`). The page's moves go to the host, which judges them (a race pad's timed answers too, which it
    settles on each device's own times: :meth:`play_answer`); a refusal is the host's sentence on the message line,
    and nothing changes. There is no undo (a move at a shared table stays made), no set-up and no
    sharing by link or position code (its game is the host's), and no local bot (the host runs them). The table
    follows each frame as it arrives: the latest position, narrated since the reader's own last move.
    """

    can_undo = False
    no_new_game, no_sharing = NO_NEW_GAME, NO_SHARING
    shared: SeatAtHost
    _sending: bool  # a move of the reader's is on its way: the next frame is its answer

    def __init__(self, seat: SeatAtHost, **kwargs: Any) -> None:
        game = started_game(seat)
        self.shared, self._sending = seat, False
        kwargs["teacher"] = False  # the teacher's view shows every hand, and a seat's kernel holds only its own
        super().__init__(game, seat_kinds(seat), bot_delay=0, **kwargs)  # type: ignore[arg-type]
        self._sit()

    def _sit(self) -> None:
        """What makes a table a seat's: the host plays every bot, no set-up or sharing, and frames are followed."""
        self.bots = {}
        # New game…, undo, Share… and a table's own set-up controls (a bot level): the game and its bots are the host's
        for part in (self.free_play_parts[0], self.undo_button, *self.free_play_parts[2:]):
            show(part, False)
        self.away_button = named_button("let a bot play", AWAY_TIP, self.hand_away_to_bot)
        controls = self.free_play_parts[1]
        controls.children = (*controls.children, self.away_button)
        self._show_away()
        self.shared.listen(self._host_said)
        self.flush()

    # -- moves go to the host ------------------------------------------------------------------------

    def try_move(self, notation: str) -> bool:
        """Send a reader's move to the host; its refusal (out of turn, against the rules) goes on the message line
        in the host's words, and nothing changes. The new position arrives as a frame. False when the move was
        refused before this returned (in process, always known by then; over the network, later)."""
        return self._to_host(lambda refused: self.shared.send_move(notation, refused))

    def play_answer(self, action: str, seconds: float, refused: Refused) -> None:
        """A timed answer (a race pad's action, and the reaction time its device measured from when its own screen
        showed the decision) goes to the host's ``answer`` op as it is: the kernel neither judges nor settles it,
        the host settles the race on each device's own times, and its state frame shows the result. A refusal is
        the host's sentence, on the message line and to ``refused``."""
        self._to_host(lambda told: self.shared.send_answer(action, seconds, told), refused)

    def _to_host(self, send: Callable[[Refused], None], also: Refused | None = None) -> bool:
        """Send the reader's move with ``send(refused)``, from the latest position only; a refusal goes on the
        message line (and to ``also``). False when it was refused before this returned."""
        if not self.live:
            self._refused(STEP_TO_LATEST, also)
            return False
        refusals: list[str] = []

        def refused(sentence: str) -> None:
            refusals.append(sentence)
            self._sending = False
            self._refused(sentence, also)

        self._sending = True
        send(refused)
        return not refusals

    def _away_seat(self) -> int | None:
        """A seat whose player is away and that no bot plays yet: another player may hand it to a bot."""
        seats = (self.shared.presence or {}).get("seats", [])
        return next((e["seat"] for e in seats if e["kind"] == "player" and e["away"] and e["bot"] is None), None)

    def _show_away(self) -> None:
        """*let a bot play for Ben* while Ben is away, at a game still going."""
        seat = self._away_seat()
        show(self.away_button, seat is not None and not self.game.is_over)
        if seat is not None:
            self.away_button.description = f"let a bot play for {self.waiting_for(seat)}"

    def hand_away_to_bot(self) -> None:
        """Hand the away player's seat to a bot (at the table's bot level); the player takes it back by coming back."""
        seat = self._away_seat()
        if seat is not None:
            self.shared.send_hand_to_bot(seat, lambda sentence: self.say(sentence, error=True))

    def _refused(self, sentence: str, also: Refused | None) -> None:
        """A refusal on the message line, and to ``also`` (a race pad opens the same decision again)."""
        self.say(sentence, error=True)
        if also is not None:
            also(sentence)

    def play_offered(self, notation: str) -> None:
        """A move the page completed: sent to the host as it was offered (the host reads and judges it)."""
        self.try_move(notation)

    def decides(self) -> bool:
        """True when the reader may act at the shown position, which must be the latest: no new line is started."""
        return self.live and super().decides()

    def explain(self, path: Sequence[ui.Part]) -> str:
        """At an earlier position, presses make no move because every move is made at the latest (the game's own
        reasons would tell a reader whose turn it is there that it is not theirs)."""
        return STEP_TO_LATEST if not self.live else super().explain(path)

    def why_not(self, notation: str) -> str | None:
        """What the kernel can say before asking the host: not the latest position, not the reader's turn, notation
        that does not read. Whether a move is allowed is the host's to judge."""
        if not self.live:
            return STEP_TO_LATEST
        shown = self.shown()
        if not shown.is_over and not self.decides():
            return self.not_your_turn(shown)
        return shown.why_illegal(notation)

    # -- what a shared table does not do -------------------------------------------------------------

    def run_bots(self) -> None:
        """Nothing: the host runs the bots at a shared table."""

    def undo(self) -> None:
        """Nothing taken back: every player has seen the move."""
        self.say(NO_UNDO_HERE, error=True)

    def waiting_for(self, seat: int) -> str:
        """A classmate by the name they typed ("Maya (White)"); a host's bot by its seat's name."""
        entry = self.shared.seat_entry(seat)
        name = self.game.seat_names[seat]
        if entry is None or entry["kind"] == "bot" or entry["name"] in (None, "", name):
            return name
        return f"{entry['name']} ({name})"

    def seat_kind(self, seat: int) -> str:
        """Who sits at ``seat``, from the host's presence frame: "you", a classmate's typed name, a host bot."""
        if seat == self.shared.seat:
            return "you"
        entry = self.shared.seat_entry(seat)
        if entry is None:
            return "a classmate"
        if entry["bot"] is not None:
            bot = f"{bot_name(self.game_id, entry['bot'])} bot"
            return bot if entry["kind"] == "bot" else f"{bot} for {entry['name']}"
        return f"classmate {entry['name']}" + (", away" if entry["away"] else "")

    # -- frames ----------------------------------------------------------------------------------------

    def _host_said(self, kind: str, before: int) -> None:
        """A frame arrived: the new position is followed while the latest was shown, else the step bar grows; who
        sits where (presence), a seat closed or views fetched redraw the position shown."""
        if kind in ("presence", "closed", "history") and self.shared.game is not None:
            self._show_away()
            self.refresh()
        if kind == "closed":
            self.say(f"This table gets no more moves here ({self.shared.ended}).", error=True)
        if kind == "connection":
            self.say(HOST_BACK if self.shared.reachable else HOST_AWAY, error=not self.shared.reachable)
        if kind != "state" or self.shared.game is None:
            return
        self.game = self.shared.game
        if self.shown_ply != before:
            self.refresh()
            return
        start = before if self._sending else min(self.narrated_from, before)
        self._sending = False
        self._moved_to(self.game.ply, narrate_from=start)


_MIXED: dict[tuple[type, type], type] = {}


def mixed(mixin: type[TableFrame], table_class: type[TableFrame]) -> type[Any]:
    """``table_class`` with ``mixin`` before it, made once a pair (``SharedTable`` and ``HatsTable`` give
    ``SharedHatsTable``): what a game's table becomes at a host table (:class:`SharedTable`), leading a walkthrough
    or following one (widgets/table/walk_lead.py, walk_follow.py)."""
    if (mixin, table_class) not in _MIXED:
        name = f"{mixin.__name__.removesuffix('Table')}{table_class.__name__}"
        body = {"__doc__": mixin.__doc__, "__module__": mixin.__module__}
        _MIXED[(mixin, table_class)] = type(name, (mixin, table_class), body)
    return _MIXED[(mixin, table_class)]


def at_host(table_class: type[TableFrame], seat: SeatAtHost, **kwargs: Any) -> SharedTable:
    """A ``table_class`` table (``HatsTable``, ...) for a student's seat at a host table that has started."""
    return cast(SharedTable, mixed(SharedTable, table_class)(seat, **kwargs))


def take_seat(table: TableFrame, seat: SeatAtHost) -> SharedTable:
    """``table``, already on the page, becomes ``seat``'s table at the host (*Play with classmates…*).

    The same widget changes its class to the shared one (:func:`mixed`) rather than a new table being made:
    a press in Voilà cannot add an output to the page, and the student keeps the table where they pressed.
    """
    game = started_game(seat)
    table.scheduler.cancel()  # no bot of the game that was on the table moves any more
    table.__class__ = mixed(SharedTable, type(table))
    shared = cast(SharedTable, table)
    shared.shared, shared._sending, shared.teacher, shared.bot_delay = seat, False, False, 0
    TableFrame.start(shared, game, seat_kinds(seat))  # type: ignore[arg-type]  # (its own start refuses games)
    shared._sit()
    return shared


def started_game(seat: SeatAtHost) -> SeatGame:
    """The seat's game, or a ValueError saying why no table can be drawn for it yet."""
    if seat.game is None or seat.seat is None:
        raise ValueError(f"table {seat.code} has not started: a shared table is drawn once the game begins")
    return seat.game


def seat_kinds(seat: SeatAtHost) -> tuple[str, ...]:
    """The table's seats as a frame reads them: the reader at the seat's place, the others played elsewhere."""
    players = len(started_game(seat).seat_names)
    return tuple(READER if index == seat.seat else "random" for index in range(players))
