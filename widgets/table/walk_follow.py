"""*Walkthrough…*, a student's side (widgets/table/walkthrough.py says what a walkthrough is): follow the class
under one's name on the page's own table (:class:`ClassTable`), drawn from the host's ``walk`` frames alone
(:class:`WalkGame`: the kernel never holds a card the teacher did not show); answer "your move?" with a press, and
where the position is whole try a line of one's own and come back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import hatskit
from hatskit.core import UsageError, brief
from hatskit.drawing import sentence
from tablehost.client import TableClient, TableRefused
from widgets.host import hub_token, hub_user
from widgets.table.classmates import Asking, KeptSeats
from widgets.table.frame import TableFrame
from widgets.table.seat_game import Frame, SeatGame, SeatRecord
from widgets.table.setup import READER
from widgets.table.shared import KeptElsewhere, mixed
from widgets.toolkit import ui
from widgets.toolkit.parts import html_line, named_button, row, show

FOLLOW_TIP = "follow your teacher's walkthrough on this table"
WALK_AWAY = "The class's host cannot be reached just now: this table follows your teacher again by itself."
NO_NAME = "Type your name first: it is what your teacher sees."
FOLLOWING_NEW_GAME = "This table follows your teacher's walkthrough: its game is the class's."
NO_UNDO = "There is no undo in a walkthrough: your teacher plays the moves."
NO_SHARING = "This table follows your teacher's walkthrough: links and position codes are for your own tables."
NOT_ASKED = "Wait for your teacher to ask “your move?”: then press your move on the table."
TRY_TIP = "play on from the class's position on your own, as any side"
BACK_TIP = "leave your own line and follow your teacher again, at the class's position"


# -- what a student has been shown ---------------------------------------------------------------------------


@dataclass
class WalkRecord(SeatRecord):
    """Every position the class was shown, by ply: a :class:`SeatRecord` of the walkthrough's seat (the teacher's)
    and, in ``seen``, every view each ``walk`` frame allowed (``{ply: {seat: {"view", "legal"}}}``)."""

    seen: dict[int, dict[int, Frame]] = field(default_factory=dict)

    def take_walk(self, frame: Frame) -> None:
        """A ``walk`` frame: the position shown now. Plies after it are forgotten: a step back or a new line may
        change them, and the class follows the teacher, not a line of its own."""
        ply = frame["ply"]
        self._forget_after(ply)
        entries = {entry["seat"]: entry for entry in frame["views"]}
        own = entries.get(self.seat) or next(iter(entries.values()))
        status = "over" if frame["outcome"] is not None else "playing"
        state = {"ply": ply, "view": own["view"], "events": frame["events"], "legal": own["legal"]}
        self.take_state(state | {"acting": frame["acting"], "status": status} | _scored(frame))
        self.latest = ply
        self.seen[ply] = entries

    def _forget_after(self, ply: int) -> None:
        for kept in (self.views, self.frames, self.seen, self.moves):
            for later in [p for p in kept if p > ply or (kept is self.moves and p >= ply)]:
                del kept[later]
        del self.events[ply:]


def _scored(frame: Frame) -> Frame:
    return {"score": frame["score"], "outcome": frame["outcome"]}


class WalkGame(SeatGame):
    """The class's game as a student's table reads it (:class:`~widgets.table.seat_game.SeatGame`), with every seat's
    view the teacher allowed, not the walkthrough seat's alone. Nothing is played here: a student's move is a try."""

    _record: WalkRecord

    def view(self, seat: int | None) -> Frame:
        """A seat's view at this ply, if the class is shown it (``None``: what every seat shown sees alike)."""
        if seat is None:
            return self._public()
        if seat == self.seat:
            return self._own()
        entry = self._entry(seat)
        if entry is None:
            raise UsageError(f"the class is not shown seat {brief(seat)}'s view in this walkthrough")
        return cast(Frame, entry["view"])

    def _public(self) -> Frame:
        """The fields every seat shown sees alike (the public ones a table reads); with one seat shown, its view."""
        views = [entry["view"] for entry in self._entries().values()]
        return {key: value for key, value in self._own().items() if all(view.get(key) == value for view in views)}

    def legal_moves(self, seat: int | None = None) -> list[Any]:
        """The seat's legal moves as the host listed them, at the class's position only."""
        entry = self._entry(self.seat if seat is None else seat)
        if entry is None or self._ply != self._record.latest:
            return []
        return [self.parse(notation) for notation in entry["legal"]]

    def _entry(self, seat: int) -> Frame | None:
        return self._entries().get(seat)

    def _entries(self) -> dict[int, Frame]:
        """Each shown seat's entry at this ply, or at the nearest ply before it the student saw (one joined late)."""
        seen = self._record.seen
        earlier = [ply for ply in seen if ply <= self._ply] or list(seen)
        return seen[max(earlier)] if earlier else {}

    def state_at(self, ply: int) -> WalkGame:
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= self._record.latest:
            raise UsageError(f"a ply of this game is a whole number from 0 to {self._record.latest}, not {brief(ply)}")
        return WalkGame(self._record, ply)


class Following(Asking):
    """A student's fold: their name, then the table follows the class; a try at each question, and a line of their
    own where the position allows it; see the module docstring."""

    def __init__(self, table: TableFrame, url: str, code: str, kept: KeptSeats) -> None:
        self.table, self.code = table, code
        self._start_asking(url)
        self.token: str | None = None  # the class token the browser kept for the name
        self.token_name = ""  # ... and that name
        self.record: WalkRecord | None = None
        self.answered: dict[int, Frame] = {}  # the host's judgement of each question's try, by number
        self.kept = kept
        kept.on_msg(self._page_kept)
        self._build()
        super().__init__(self._parts(), summary="Walkthrough…", tooltip=FOLLOW_TIP)
        self.add_class("hk-walkthrough")
        self.open = True
        self.settled()

    def _build(self) -> None:
        self.note = html_line("hk-walk-note")
        self.name_box = ui.Text(
            value=hub_user() or "", description="your name", placeholder="the name your teacher sees"
        )
        self.follow_button = named_button("follow", FOLLOW_TIP, self.press_follow)
        self.follow_button.primary = True
        self.try_button = named_button("try it here", TRY_TIP, self.try_here)
        self.back_button = named_button("back to the class", BACK_TIP, self.back_to_class)
        self.back_button.primary = True

    def _parts(self) -> list[ui.Part]:
        self.before = row([self.name_box, self.follow_button])
        return [self.note, self.before, row([self.try_button, self.back_button]), self.kept]

    def _show_parts(self) -> None:
        table = self.class_table
        show(self.before, self.client is None)
        show(self.try_button, table is not None and not table.trying and table.can_try())
        show(self.back_button, table is not None and table.trying)

    @property
    def class_table(self) -> ClassTable | None:
        return self.table if isinstance(self.table, ClassTable) else None

    def _page_kept(self, part: ui.Custom, content: Any, buffers: Any) -> None:
        """What the browser kept, sent as the page opens: a class name with its token (``hatskit.class``, which the
        lessons' progress keeps too) follows at once."""
        del part, buffers
        entry = content.get("class") if isinstance(content, dict) else None
        if isinstance(entry, dict) and isinstance(entry.get("token"), str) and isinstance(entry.get("name"), str):
            self.name_box.value, self.token = entry["name"], entry["token"]
            self.token_name = entry["name"]
        if self.client is None and (self.token is not None or hub_token()):
            self.press_follow()
        elif not self._busy:  # a join already asked for keeps its "Joining…" until the host answers
            self.settled()

    # -- following ---------------------------------------------------------------------------------

    def press_follow(self) -> None:
        name = self.name_box.value.strip()
        if not name:
            self.say(NO_NAME, error=True)
        elif self.client is None:
            self._run(f"Joining walkthrough {self.code}…", self._join(name))

    async def _join(self, name: str) -> None:
        async with self.connected(None) as client:
            client.name = name
            client.class_token = self.token if name.casefold() == self.token_name.casefold() else None
            reply = await client.walk_join(self.code, name=name)
            if reply["game"] != self.table.game_id:
                raise TableRefused({"message": other_game(self.code, reply["game"])})
            await client.wait_for(lambda c: c.walk is not None)
        if reply.get("token"):
            self.kept.class_kept = {"name": reply["name"], "token": reply["token"]}
        self.client = client
        self.record = WalkRecord(hatskit.GAMES[reply["game"]], reply["seat"], lambda first, last: [])
        assert client.walk is not None
        self.record.take_walk(client.walk)
        follow_class(self.table, self)
        self._show_parts()

    def game(self) -> WalkGame:
        assert self.record is not None
        return WalkGame(self.record, self.record.latest)

    def seats(self) -> tuple[str, ...]:
        """The student's table's seats: every seat the class is shown is the reader's (the one that acts shows)."""
        walk = self._walk()
        shown = {entry["seat"] for entry in walk["views"]}
        players = len(self.game().seat_names)
        return tuple(READER if seat in shown else "random" for seat in range(players))

    def _walk(self) -> Frame:
        assert self.client is not None and self.client.walk is not None
        return self.client.walk

    def question(self) -> Frame | None:
        """The open question the student has not answered yet."""
        if self.client is None or self.client.walk is None or self.client.walk_ended:
            return None
        question = self.client.walk.get("question")
        return None if question is None or question["number"] in self.answered else question

    def judgement(self) -> Frame | None:
        """The host's judgement of the student's try at the question open now (None before she tried)."""
        asked = (self.client.walk or {}).get("question") if self.client is not None else None
        return None if asked is None else self.answered.get(asked["number"])

    def heard(self, frame: Frame) -> None:
        """The class's position, the teacher's presence, or the end of the walkthrough."""
        kind = frame.get("type")
        table = self.class_table
        if table is None or self.record is None:
            return
        if kind == "walk":
            self.record.take_walk(frame)
            table.class_moved()
        elif kind == "closed":
            table.refresh()
        elif kind not in ("walk_presence", "connection"):
            return
        self.settled()

    def settled(self) -> None:
        """Where the student is: following, asked, answered, away on their own line, or the walkthrough ended."""
        self.say(self._where())
        self._show_parts()

    def _where(self) -> str:
        client = self.client
        if client is None:
            return f"Your teacher's walkthrough {self.code}: type your name and press follow."
        if not client.connected and client.failed is None:
            return WALK_AWAY
        if client.walk_ended:
            return f"The walkthrough has ended ({client.walk_ended}): the table keeps its last position."
        teacher = (client.walk_presence or {}).get("teacher") or "your teacher"
        away = "" if (client.walk_presence or {}).get("teacher_here", True) else f" {teacher} is away for now."
        doing = "You follow" if not (self.class_table and self.class_table.trying) else "You are on your own line of"
        asked = " Your move? Press it on the table." if self.question() is not None else ""
        return f"{doing} walkthrough {self.code} with {teacher}.{away}{asked}"

    # -- trying a move -----------------------------------------------------------------------------

    def send_try(self, notation: str) -> None:
        """The student's one try at the open question: the host judges it and counts it for the teacher."""
        question = self.question()
        if self.client is not None and question is not None:
            self._run(f"Sending your answer, {notation}…", self._try(self.client, question["number"], notation))

    async def _try(self, client: TableClient, number: int, notation: str) -> None:
        """The try, and the host's judgement on the table's message line (a refusal, which counts no try, too)."""
        table = self.class_table
        try:
            reply = await client.walk_try(notation, number)
        except TableRefused as refusal:
            if table is not None:
                table.say(refusal.sentence, error=True)  # the table's say makes it a sentence
            raise
        self.answered[number] = reply
        if table is not None:
            table.judged(reply)

    def try_here(self) -> None:
        table = self.class_table
        if table is not None:
            table.try_here()
            self.settled()

    def back_to_class(self) -> None:
        table = self.class_table
        if table is not None:
            table.back_to_class()
            self.settled()


def other_game(code: str, game_id: str) -> str:
    """Why a walkthrough cannot be followed on this page: it is of another game."""
    return f"walkthrough {code} is a game of {hatskit.GAMES[game_id].title}: open its link on that game's page"


class ClassTable(KeptElsewhere):
    """A mix-in for a student's table in a walkthrough: it shows the class's position as each ``walk`` frame comes
    (:class:`WalkGame`), and a move pressed while a question is open is the student's try, judged by the host
    (a press the page itself finds no move for is tried too: the host names the rule). No undo, set-up, sharing,
    hint or bots. *try it here* puts a game of the student's own on it from the class's position (where the
    position is whole in the view), until *back to the class*."""

    no_new_game, no_sharing = FOLLOWING_NEW_GAME, NO_SHARING
    follow: Following
    trying: bool  # on the student's own line
    _tried: str | None = None  # a move the table explained a press as, while it explains

    # -- the class's position ----------------------------------------------------------------------

    def class_moved(self) -> None:
        """A new position from the teacher: shown with its narration (kept for later while on an own line)."""
        if not self.trying:
            self.game = self.follow.game()
            self._moved_to(self.game.ply, narrate_from=self.game.ply - 1)

    def _sit(self) -> None:
        """What a table following the class hides: New game…, the classmates' fold, undo, hint, the step bar and
        sharing (its game is the class's)."""
        self.bots = {}
        for part in (self.setup, getattr(self, "classmates", self.setup), self.guard.reveal_box):
            show(part, False)
        every = not self.trying and self.seats.count(READER) > 1 and self.spec.hidden_information
        self.guard.reveal_box.value = every  # every hand the teacher shows, under the teacher's-view heading
        show(self.free_play_parts[1], self.trying)  # the step bar and undo, on the student's own line
        show(self.free_play_parts[2], False)
        self.flush()

    # -- a question --------------------------------------------------------------------------------

    def decides(self) -> bool:
        """On the class's position: True while a question the student has not answered is about a seat shown."""
        if self.trying:
            return super().decides()
        question = self.follow.question()
        return (
            question is not None
            and self.live
            and question["ply"] == self.game.ply
            and question["seat"] in self.reader_seats
            and question["seat"] in self.shown().acting
        )

    def try_move(self, notation: str) -> bool:
        if self.trying:
            return super().try_move(notation)
        reason = self.why_not(notation)
        if reason is not None:
            self.say(reason, error=True)
            return False
        self.follow.send_try(notation)
        return True

    def play_offered(self, notation: str) -> None:
        if self.trying:
            super().play_offered(notation)
        else:
            self.try_move(notation)

    def why_not(self, notation: str) -> str | None:
        """What the kernel can say: no question open, notation that does not read, a move the host did not list as
        legal (the host's judgement, with its rule, comes when it is tried); while a table explains a press, the
        move it names is noted to be tried."""
        if self.trying:
            return super().why_not(notation)
        if not self.decides():
            return NOT_ASKED
        self._tried = notation
        unread = self.shown().why_illegal(notation)
        if unread is not None or notation in map(str, self.reader_moves()):
            return unread
        return self._rules_say(notation) or f"{notation} is not one of the moves allowed here"

    def _rules_say(self, notation: str) -> str | None:
        """The rule that stops ``notation``, where the class's position is whole in the view (Sombrero), so a press
        that sends no try (a hatless piece) is told why; elsewhere the host's reason comes back with the try."""
        if not self.can_try():
            return None
        return hatskit.load(self.follow.game().view(None)["position"]).why_illegal(notation)

    def explain(self, path: Sequence[ui.Part]) -> str:
        """Presses that make no legal move: where they name a move, it is tried (the host says which rule stops it)."""
        if self.trying:
            return super().explain(path)
        if not self.decides():
            return self.waiting_text(self.shown()) if self.follow.answered else NOT_ASKED
        self._tried = None
        sentence = super().explain(path)
        tried, self._tried = self._tried, None
        if tried is None or len(path) < 2 or not self.decides() or self.shown().why_illegal(tried) is not None:
            return sentence
        self.follow.send_try(tried)
        return f"Your answer, {tried}, went to your teacher: the host judges it."

    def judged(self, reply: Frame) -> None:
        """The host's judgement of the student's try, on the message line (the rule behind "why?")."""
        self.refresh()
        self._say_judgement(reply)

    def _refused_path(self, ids: list[int]) -> None:
        """A press once her answer is in (the table offers no move now) shows its judgement again, not a red "wait":
        the verdict stays on the line however often she presses, and the press is no second try."""
        judgement = None if self.trying else self.follow.judgement()
        if judgement is None:
            super()._refused_path(ids)
        elif all(self.part_by_id(uid) is not None for uid in ids):
            self._say_judgement(judgement)

    def _say_judgement(self, reply: Frame) -> None:
        move = self.notation_words(str(reply["move"]))  # as a hint says it: "play your Beret into …"
        if reply["legal"]:
            self.say(f"Your answer, {move}, is in: a legal move. Your teacher plays on when the class has answered.")
        else:
            why = sentence(str(reply.get("why") or "it is against the rules"))  # it may start with a square: e1 …
            self.say(f"Your answer, {move}, is in, but it is not allowed here: {why}", error=True)

    # -- what the class's table says and does not do -----------------------------------------------

    def waiting_text(self, shown: Any) -> str:
        if self.trying:
            return super().waiting_text(shown)
        if shown.is_over:
            return "The game is over."
        if self.follow.judgement() is not None:
            return "Your answer is in: your teacher plays on when the class has answered."
        return f"{self._acting_names(shown)} to move: your teacher plays."

    def seat_kind(self, seat: int) -> str:
        """The teacher's seat is theirs; another may be the teacher's or a bot's of their table: the page knows
        only that it is played there."""
        if self.trying:
            return "you"
        return "your teacher" if seat == self.game.seat else "played at your teacher's table"

    @property
    def hides_hands(self) -> bool:
        """Never: the students see what the teacher shows them; no pass-the-laptop screen."""
        return False

    def run_bots(self) -> None:
        if self.trying:
            super().run_bots()

    def undo(self) -> None:
        if self.trying:
            super().undo()
        else:
            self.say(NO_UNDO, error=True)

    # -- a line of the student's own -------------------------------------------------------------------

    def can_try(self) -> bool:
        """Whether the class's position is whole in the view (a game that hides nothing): a line can start there."""
        game = self.follow.game()
        return "position" in game.view(None) and not self.spec.simultaneous

    def try_here(self) -> None:
        """Play on from the class's position on the student's own, as every side."""
        if self.trying or not self.can_try():
            return
        own = hatskit.load(self.follow.game().view(None)["position"])
        self.trying = True
        TableFrame.start(self, own, tuple(READER for _ in own.seat_names))  # type: ignore[arg-type]
        self._sit()
        self.say("Your own line from the class's position: play any side. “back to the class” follows your teacher.")

    def back_to_class(self) -> None:
        """Leave the student's own line for the class's position, as the teacher shows it now."""
        self.trying = False
        TableFrame.start(self, self.follow.game(), self.follow.seats())  # type: ignore[arg-type]
        self._sit()


def follow_class(table: TableFrame, fold: Following) -> ClassTable:
    """``table``, already on the page, follows the class (its class gains :class:`ClassTable`): a press cannot add
    an output to a Voilà page, and the student keeps the table where they are."""
    table.scheduler.cancel()
    table.__class__ = mixed(ClassTable, type(table))
    following = cast(ClassTable, table)
    following.follow, following.trying, following.teacher, following.bot_delay = fold, False, False, 0
    fold.table = following
    TableFrame.start(following, fold.game(), fold.seats())  # type: ignore[arg-type]  # (its own start refuses)
    following._sit()
    return following
