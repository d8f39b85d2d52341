"""A student who leaves the script, in Chromium: presses what a table offers, by clicks, until the game ends.

A student who has finished the guided first game presses "play on"; one who
scrolls down plays the page's own table (in the dark theme); one at the bottom opens the finished
game on a table, steps back and plays their own line from there. Each of them
presses whatever the table offers: a card or piece of their own, then one of
the places the table marks as allowed (at random, seeded; each press a click,
Enter on the button, or the picked card dragged there), a Madder choice,
*done*, *on to the next round*, a race pad's card. It reads nothing of the game
from the kernel: it only waits, on the page's websocket, until the kernel has
answered each press that sent it a message (:class:`Kernel`). It fails the moment

- a press sends the kernel more than one message, or a pick-up sends one (the
  page picks up on its own, from the moves the table sent it as data);

- a place the table marks as allowed is pressed and no move is played (the
  dead end after the guided game: the target lit, the press ignored);
- the game is not over and nothing can be pressed, nor does a bot move within
  :data:`PATIENCE` seconds (Madder's stalled round);
- the game does not end within its game's number of presses.

The whole-game tests play against brisk bots (``brisk_voila``: a 0.05 s pause, not a
class's 0.8 s or Hats Off!'s 1.5 s), so a bot's move may land between the
student's look and press and switch the button off, or redraw the table under a
card being dragged: the student then looks again, as one would. A button that
may still be pressed and does not take the press fails, and so does a drop on a
place still offered, where it was, that plays nothing.
"""

from __future__ import annotations

import itertools
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.browser.test_lessons_in_browser import FIRST_CLICK, play_the_first_lesson
from tests.helpers import RULE_ID

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page, WebSocket

PATIENCE = 30_000  # ms: a bot's move, or the kernel's answer to a press, on a busy machine


@dataclass(frozen=True)
class Student:
    """How a student plays one game's table: what they pick up first, and what else they may press."""

    picks: str  # their own cards or pieces, pressed first (on a race pad: the move itself)
    presses: int  # how many presses a whole game takes at most
    picks_play: bool = False  # a pick is a move (a race pad's card): it may be pressed again at once


STUDENTS = {
    "hats": Student('button.hk-cardbtn[title$=" in your hand"]', 400),
    "madder_than_a_hatter": Student('button.hk-hatbtn[title*=" in your hand"]', 900),
    "hats_off": Student("button.hk-race-btn:not(.hk-race-off)", 900, picks_play=True),
    "sombrero": Student('button.hk-sq[title*=": White, hatted"]', 600),
}
# The buttons a student may press now, by kind, in the table's order: shown, enabled, not switched off.
# onwards: Madder's "on to round 2" (the round's end seen); allowed: a place the table marks as allowed;
# picks: the student's own cards or pieces that may be played now (their game's selector); choices: Madder's
# choices in words and decline; done: Madder's done at the end of a round; play: Hats Off!'s step mode.
PRESSABLE = """(table, [picks, tried]) => {
  const usable = (b) => b.getClientRects().length > 0 && !b.disabled && !b.closest("[hidden]")
    && b.getAttribute("aria-disabled") !== "true" && !b.classList.contains("hk-race-off");
  const text = (b) => b.textContent.trim();
  const kinds = {
    onwards: (b) => /^(on to round|see the final result)/.test(text(b)),
    allowed: (b) => b.matches(".hk-legal"),
    picks: (b) => b.matches(picks) && !/cannot be played/.test(b.title) && !tried.includes(b.dataset.part),
    choices: (b) => b.matches(".hk-choice") || text(b) === "decline",
    done: (b) => text(b) === "done",
    play: (b) => text(b) === "play",
  };
  const buttons = [...table.querySelectorAll("button")].filter(usable);
  return Object.fromEntries(Object.entries(kinds).map(([kind, is]) => [kind, buttons.filter(is).length]));
}"""
ORDER = ("onwards", "allowed", "choices", "picks", "done", "play")  # what a student presses first, when it is there
# The number of the move that led to the shown position (the move list marks it), 0 at the start: a move played
# at an earlier position starts a new line, so the list's length says nothing, but the marked move goes on.
SHOWN_MOVE = """(table) => [...table.querySelectorAll(".hk-movelist > li")]
  .findIndex((item) => item.getAttribute("aria-current") === "step") + 1"""
MOVED_ON = f"""([table, moves, picked]) => ({SHOWN_MOVE})(table) > moves
  || /game is over/i.test(table.querySelector(".hk-status").textContent)
  || (picked && table.querySelector("[data-hk-pressed].hk-selected") !== null)"""
# The card or square picked up, where it can be carried from (a hat chosen where it lies cannot be).
CARRIED = "button.hk-selected:is(.hk-cardbtn:not(.hk-tapcard), .hk-sq)"
PRESS_MS = 10_000  # a button marked for a press takes it within this, unless a bot's move switched it off meanwhile
# Whether the button marked for a press (data-hk-pressed) is still one of its kind that may be pressed.
STILL_PRESSABLE = PRESSABLE.replace("(table, [picks, tried]) => {", "(table, [picks, tried, kind]) => {").replace(
    "return Object.fromEntries(Object.entries(kinds).map(([kind, is]) => [kind, buttons.filter(is).length]));",
    'return buttons.filter(kinds[kind]).some((b) => b.dataset.hkPressed === "1");',
)
FOCUSED = "(button) => button === document.activeElement"
# Whether the button just pressed is now picked up (a race pad redraws its buttons: then it is not there).
PICKED_UP = """(table) => table.querySelector("[data-hk-pressed].hk-selected") !== null"""
# Marks the ``index``-th pressable button of ``kind`` (data-hk-pressed), for the test to click and follow, and says
# what it is: its title, text and part, and how many cards or pieces are carried; null when the table changed since
# it was looked at (a bot moved) and it has no such button now.
MARK = PRESSABLE.replace("(table, [picks, tried]) => {", "(table, [picks, tried, kind, index]) => {").replace(
    "return Object.fromEntries(Object.entries(kinds).map(([kind, is]) => [kind, buttons.filter(is).length]));",
    """for (const old of table.querySelectorAll("[data-hk-pressed]")) delete old.dataset.hkPressed;
  const chosen = buttons.filter(kinds[kind])[index];
  if (!chosen) return null;
  chosen.dataset.hkPressed = "1";
  const carried = table.querySelectorAll(`CARRIED`).length;
  return { title: chosen.title, text: chosen.textContent, part: chosen.dataset.part || "", carried };""".replace(
        "CARRIED", CARRIED
    ),
)
# What the table shows at a glance (:func:`look`); a shown move other than ``seen`` (the last look's) clears the
# picks that led nowhere, as :class:`Seen` does.
LOOK = f"""(table, [picks, tried, seen]) => {{
  const moves = ({SHOWN_MOVE})(table);
  const status = table.querySelector(".hk-status").innerText.split(/\\s+/).join(" ").trim();
  return {{ status, moves, ...({PRESSABLE})(table, [picks, moves === seen ? tried : []]) }};
}}"""


def on_table(table: Locator, script: str, arg: Any = None) -> Any:
    """``script(the table's element, arg)``, run in the page at once. Not Locator.evaluate: it waits for the
    element and checks that it is the only one on every call, and those checks were most of a whole game's looks
    (benchmarks/README.md, the trim of make test's time). The table is there while the student plays."""
    return table.evaluate_all(f"([table], arg) => ({script})(table, arg)", arg)


class Kernel:
    """The page's kernel messages, watched on its websocket: a press counts as answered once the kernel has
    finished the message it sent (its "idle" status) and the page has drawn what came before that.

    Waiting for the table to look different instead raced with the table itself: a second press went out while
    the answer to the first was on its way, and a place marked for the first was then pressed for the second.
    """

    def __init__(self, page: Page) -> None:
        self.page = page
        self.sent: list[str] = []  # the ids of the widget messages the page sent, in order
        self.said: list[Any] = []  # what each of them said (its content's data)
        self.finished: set[str] = set()  # the ids of the messages the kernel has finished
        self.pick_ups = 0  # the presses that picked something up, each of which sent nothing
        page.on("websocket", lambda socket: self._watch(socket))

    def _watch(self, socket: WebSocket) -> None:
        socket.on("framesent", lambda frame: self._note(frame, sent=True))
        socket.on("framereceived", lambda frame: self._note(frame, sent=False))

    def _note(self, frame: str | bytes, sent: bool) -> None:
        header, parent, content = kernel_message(frame)
        if sent and header.get("msg_type") == "comm_msg":
            self.sent.append(header["msg_id"])
            self.said.append(content.get("data"))
        elif not sent and header.get("msg_type") == "status" and content.get("execution_state") == "idle":
            self.finished.add(parent.get("msg_id", ""))

    def press(
        self,
        button: Locator,
        what: str,
        way: str = "click",
        source: Locator | None = None,
        timeout: float | None = None,
    ) -> int:
        """Press ``button`` by a click, by Enter on it (``way="keys"``) or by dragging ``source`` onto it
        (``way="drag"``), waiting up to ``timeout`` ms for it to take a press (the page's default when None); when
        that sent the kernel a message, wait until the kernel has answered it. The number of messages it sent: 0 (a
        pick-up, done on the page) or 1, never more."""
        before = len(self.sent)
        if way == "drag" and source is not None:
            source.drag_to(button, timeout=timeout)
        elif way == "keys":
            button.focus(timeout=timeout)
            if not button.evaluate(FOCUSED):  # switched off since it was marked: Enter would go elsewhere
                raise PlaywrightTimeout(f"{what} could not take the focus")
            self.page.keyboard.press("Enter")
        else:
            button.click(timeout=timeout)
        self.page.evaluate(DRAWN)  # the page has handled the click, and sent what it sends
        sent = len(self.sent) - before
        print("  sent:", *self.said[before:])
        if sent > 1:
            pytest.fail(f"{what}: one press sent the kernel {sent} messages: {self.said[before:]}")
        deadline = time.monotonic() + PATIENCE / 1000
        while sent and self.sent[-1] not in self.finished:
            if time.monotonic() > deadline:
                pytest.fail(f"{what}: no answer from the kernel within {PATIENCE // 1000} s")
            self.page.wait_for_timeout(20)
        self.page.evaluate(DRAWN)
        return sent


# Resolves once the page has handled the messages that came before (they are tasks queued ahead of this one).
DRAWN = "() => new Promise((done) => setTimeout(() => requestAnimationFrame(() => done()), 0))"


def kernel_message(frame: str | bytes) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The header, parent header and content of a kernel websocket frame (Jupyter's v1 binary protocol: a count
    of offsets, the offsets, then the channel and the message's JSON parts); empty for any other frame."""
    if isinstance(frame, str) or len(frame) < 8:
        return {}, {}, {}
    count = int.from_bytes(frame[:8], "little")
    offsets = [int.from_bytes(frame[8 + 8 * i : 16 + 8 * i], "little") for i in range(count)]
    parts = [frame[start:end] for start, end in itertools.pairwise([*offsets, len(frame)])]
    if len(parts) < 5:
        return {}, {}, {}
    header, parent, _, content = (json.loads(part) for part in parts[1:5])
    return header, parent, content


def look(table: Locator, student: Student, tried: list[str], seen: int) -> dict[str, Any]:
    """What the table shows: over or not, the moves in its list, a bot thinking, and the pressable buttons (those
    in ``tried`` left out while the table still shows move ``seen``), in one look."""
    now = on_table(table, LOOK, [student.picks, tried, seen])
    status = now.pop("status")
    return {"over": "game is over" in status.lower(), "thinking": "thinking" in status, **now}


def press_one(table: Locator, kernel: Kernel, kind: str, count: int, rng: random.Random, seen: Seen) -> str | None:
    """Press one of the ``count`` pressable buttons of ``kind`` at random, as a mouse would, and wait for the
    kernel's answer; the button's name (printed, so a failure shows the presses that led to it), or None when
    the table changed since it was looked at and has no such button now."""
    marked = on_table(table, MARK, [seen.student.picks, seen.tried, kind, rng.randrange(count)])
    if marked is None:
        return None  # the table changed since it was looked at: look again
    pressed = table.locator("[data-hk-pressed]")
    name = f"{kind} {marked['title'] or marked['text']!r}"
    print(name)
    if kind == "picks" and not seen.student.picks_play:
        seen.tried.append(marked["part"])
    held = table.locator(CARRIED)
    ways = ("click", "keys", "drag") if kind == "allowed" and marked["carried"] == 1 else ("click", "keys")
    way = "click" if seen.student.picks_play else rng.choice(ways)  # a race pad's own keys are its tests'
    print(f"  by {way}")
    place = placed(table, pressed) if way == "drag" else None
    try:
        sent = kernel.press(pressed, name, way, held, timeout=PRESS_MS)
    except PlaywrightTimeout:
        if on_table(table, STILL_PRESSABLE, [seen.student.picks, [], kind]):
            raise  # it may still be pressed, and was not: the page's fault
        print("  a bot moved before the press, and it can no longer be pressed: look again")
        return None
    if on_table(table, PICKED_UP):
        assert sent == 0, f"{name}: picking up sent the kernel a message ({kernel.said[-1]})"
        kernel.pick_ups += 1
    elif place is not None and not sent and table_moved(table, pressed, place, [seen.student.picks, [], kind]):
        print("  the table changed under the drag (a classmate's or a bot's move): look again")
        return None
    return name


def placed(table: Locator, button: Locator) -> tuple[float, float] | None:
    """Where ``button`` is on its table (so the page's scrolling does not count as a move)."""
    box, frame = button.bounding_box(), table.bounding_box()
    return None if box is None or frame is None else (box["x"] - frame["x"], box["y"] - frame["y"])


def table_moved(table: Locator, target: Locator, place: tuple[float, float], still: list[Any]) -> bool:
    """Whether a drop that sent nothing met a table that changed under the pointer: the target moved, is no
    longer offered, or nothing is carried now. Else the drop on a place still offered did nothing: the page's
    fault, which the caller's check reports."""
    now = placed(table, target)
    moved = now is None or max(abs(now[0] - place[0]), abs(now[1] - place[1])) > 1
    return moved or table.locator(CARRIED).count() != 1 or not on_table(table, STILL_PRESSABLE, still)


@dataclass
class Seen:
    """What a student remembers while the game stands still: the picks that led nowhere (by part), not tried
    again until something moves."""

    student: Student
    moves: int = -1
    tried: list[str] = field(default_factory=list)

    def look(self, table: Locator) -> dict[str, Any]:
        """What the table shows now (:func:`look`); a move since the last look clears the memory."""
        now = look(table, self.student, self.tried, self.moves)
        if now["moves"] != self.moves:
            self.moves, self.tried = int(now["moves"]), []
        return now


def play_to_the_end(kernel: Kernel, table: Locator, game: str, rng: random.Random) -> int:
    """Press what a student would until the game is over; the number of presses it took."""
    seen = Seen(STUDENTS[game])
    for presses in range(seen.student.presses):
        now = seen.look(table)
        if now["over"]:
            ended = table.inner_text()  # what a student reads at the end, the closed "why?" and "how?" left out
            assert not RULE_ID.search(ended), f"{game}: a ruling id shows at the end, not only in a why: {ended}"
            return presses
        kind = next((kind for kind in ORDER if now[kind]), None)
        if kind is None and not (now["thinking"] or game == "hats_off"):
            nothing = "nothing picked up can go anywhere" if seen.tried else "there is nothing to press"
            pytest.fail(f"{game}: the game is not over and {nothing}: {status(table)}")
        if kind is None:  # the bots think, or a race's clock runs
            moved_on(table, int(now["moves"]), "nobody moved within {} s, and the game is not over")
            continue
        name = press_one(table, kernel, kind, int(now[kind]), rng, seen)
        if name is not None and kind == "allowed":  # a move played, or a hat picked up that starts several choices
            failure = f"{name} was marked as allowed, and pressing it played nothing"
            moved_on(table, int(now["moves"]), failure, picked=True)
    pytest.fail(f"{game}: not over after {seen.student.presses} presses: {status(table)}")


def moved_on(table: Locator, moves: int, failure: str, picked: bool = False) -> None:
    """Wait until the game moved on from the position after ``moves`` moves (a later one is shown, or the game
    is over), or (``picked``) the pressed button is picked up; else fail with ``failure``."""
    try:
        table.page.wait_for_function(MOVED_ON, arg=[table.element_handle(), moves, picked], timeout=PATIENCE)
    except PlaywrightTimeout:
        pytest.fail(f"{failure.format(PATIENCE // 1000)}: {status(table)}")


def status(table: Locator) -> str:
    """The status and message lines, for a failure's sentence."""
    lines = table.locator(".hk-status, .hk-message").all_inner_texts()
    return " / ".join(" ".join(line.split()) for line in lines)


# -- the tests every page's module runs, each for its own games (its pytest_generate_tests gives ``game``) ------
# They live here once, and each test module imports them: pytest runs what a test module holds.


def for_games(*games: str) -> Callable[[pytest.Metafunc], None]:
    """A test module's ``pytest_generate_tests``: each of these tests it imports, for each of ``games``."""

    def generate(metafunc: pytest.Metafunc) -> None:
        if "game" in metafunc.fixturenames:
            metafunc.parametrize("game", games)

    return generate


STEPS_BACK = 6  # the finished game's last moves taken back (at least), to play one's own line to the end from there


@pytest.fixture
def kernel(page: Page) -> Kernel:
    """The page's kernel messages, watched from before the page opens."""
    return Kernel(page)


def open_game_page(page: Page, voila: str, game: str, query: str = "") -> None:
    page.goto(f"{voila}/voila/render/{game}.ipynb{query}")
    expect(page.locator(".hk-table.hk-main .hk-message")).to_have_attribute("aria-live", "polite")


# Whether the page is drawn dark (Voilà's ?theme=dark): its background's red, green and blue all low.
DARK_PAGE = "() => getComputedStyle(document.body).backgroundColor.match(/\\d+/g).slice(0, 3).every((c) => +c < 80)"


def test_after_the_guided_game_play_on_plays_to_the_end(
    page: Page, kernel: Kernel, brisk_voila: str, game: str
) -> None:
    open_game_page(page, brisk_voila, game)
    table = play_the_first_lesson(page, FIRST_CLICK[game])
    expect(table.locator(".hk-guide")).to_contain_text("you earned a star")
    play_to_the_end(kernel, table, game, random.Random(f"play on {game}"))


def test_the_pages_play_table_plays_to_the_end(page: Page, kernel: Kernel, brisk_voila: str, game: str) -> None:
    open_game_page(page, brisk_voila, game, "?theme=dark")  # a whole game in the dark theme (the other tables: light)
    assert page.evaluate(DARK_PAGE), "the page is drawn dark"
    play_to_the_end(kernel, page.locator(".hk-table.hk-main"), game, random.Random(f"play {game}"))
    if not STUDENTS[game].picks_play:  # every pick-up was counted, and each sent nothing
        assert kernel.pick_ups > 0, f"{game}: the student picked nothing up on the way to the end"


def test_a_line_of_ones_own_from_the_finished_game_plays_to_the_end(
    page: Page, kernel: Kernel, brisk_voila: str, game: str
) -> None:
    open_game_page(page, brisk_voila, game)
    page.get_by_role("button", name="open this game on a table").click()
    table = page.locator(".hk-table").last
    expect(table.locator(".hk-status")).to_contain_text("The game is over")
    status = table.locator(".hk-status")
    for _ in range(STEPS_BACK):
        kernel.press(table.get_by_role("button", name="back", exact=True), "back")
    while "starts a new line" not in status.inner_text():  # back to a move of the student's own
        kernel.press(table.get_by_role("button", name="back", exact=True), "back")
    play_to_the_end(kernel, table, game, random.Random(f"replay {game}"))
