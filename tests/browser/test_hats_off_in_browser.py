"""Hats Off! in a browser: races won and lost on reaction times measured in Chromium, even over a slow network.

A one-cell-per-table notebook is written and served by a second Voilà: three
tables where Ana (the reader) is about to flip a fez, and Ben, a bot with a
fixed reaction time (0.4 s at the first table, 0.1 s at the second, 30 s at
the third), holds a fez too. The latency test routes the kernel's websocket
through Playwright (``page.route_web_socket``) and holds every message back
300 ms each way, as a school network or Binder might, and races at the first
two tables. The tests of clicks, keys and drags (mouse and finger) play at
the third: theirs are real clicks, key presses and pointer moves, which reach
a loaded machine's page half a second or more after the test asks for them,
and what they check (a match wins the pile, a wrong play from the head is told
as such, a card let go away from the pile plays nothing) must not hang on that.

The latency test's clicks carry the time they are made, as a mouse's do: the operating
system stamps a click when the button goes down and up, and the page reads that
stamp (``event.timeStamp``), however late a busy machine hands it the click.
A test's click travels from the page's timer through Python, Playwright and
the DevTools protocol, and on a loaded machine that took up to 0.2 s: a click
aimed at 0.2 s was stamped at 0.41 s and lost to the 0.4 s bot. So the test
stamps its clicks, through the DevTools protocol, with the moment it means,
and sends them once that moment has passed, as a busy laptop delivers a
reader's click: made then, handled later.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import re
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import nbformat
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import GAME_TABLE
from tests.helpers import FixedBot, position
from widgets.games.race import PAD_CSS

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page, WebSocketRoute

    from tests.conftest import Server

DELAY = 0.3  # seconds each way on the kernel's websocket
QUICK, SLOW = 0.25, 0.35  # a reader's answers, seconds from the card being drawn to the click: both beat 0.4 s
PATIENT = 30.0  # the third table's bot, later than any click, and earlier than the pad's pass below
FEZ_RACE = position(["beanie", "chef", "fez"])
# The pad passes for the reader after this long; generous, so that a busy CI machine, slow between drawing the
# card and delivering the test's key, cannot turn an answer into a pass (the 4 s pass is tested in the kernel).
ANSWER_SECONDS = 60.0
SETUP_CELL = f"""from typing import Any

import hatskit
from hatskit.bots import Hint
from hatskit.core import SeatView
from hatskit.games.hats_off import Pass, Play
from widgets.games.hats_off import HatsOffTable


{inspect.getsource(FixedBot)}

def fez_race(seconds):
    game = hatskit.load({json.dumps(FEZ_RACE)})
    bots = {{1: FixedBot(seconds)}}
    return HatsOffTable(game, seats=("reader", "greedy"), bots=bots, answer_seconds={ANSWER_SECONDS})
"""
Served = tuple[str, Path]


@pytest.fixture(scope="module")
def races(serve_app: Callable[..., Server], tmp_path_factory: pytest.TempPathFactory) -> Served:
    """A Voilà serving one notebook: a fez race against a 0.4 s bot, one against a 0.1 s bot, one against 30 s."""
    notebook = tmp_path_factory.mktemp("hats-off-races") / "races.ipynb"
    tables = ("fez_race(0.4)", "fez_race(0.1)", f"fez_race({PATIENT})")
    cells = [nbformat.v4.new_code_cell(source) for source in (SETUP_CELL, *tables)]
    nbformat.write(nbformat.v4.new_notebook(cells=cells), notebook)
    return serve_app(notebook.parent).url, notebook


class SlowNetwork:
    """A websocket route that forwards every message both ways, each held back ``delay`` seconds, in order."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.forwarded = 0

    def __call__(self, page_side: WebSocketRoute) -> None:
        server_side = page_side.connect_to_server()
        page_side.on_message(self._later(server_side.send))
        server_side.on_message(self._later(page_side.send))

    def _later(self, send: Callable[[Any], None]) -> Callable[[Any], None]:
        """A message handler that sends each message ``delay`` seconds after it came, never out of order."""
        waiting: deque[tuple[float, Any]] = deque()

        def pump() -> None:
            loop = asyncio.get_running_loop()
            while waiting and waiting[0][0] <= loop.time():
                send(waiting.popleft()[1])
                self.forwarded += 1
            if waiting:
                loop.call_at(waiting[0][0], pump)

        def received(message: Any) -> None:
            loop = asyncio.get_running_loop()  # Playwright's own loop, running this handler
            waiting.append((loop.time() + self.delay, message))
            if len(waiting) == 1:
                loop.call_at(waiting[0][0], pump)

        return received


# Waits in the page until the pad has drawn a decision numbered ``turn`` or later in which the fez may be played,
# and ``ms`` more milliseconds have passed by the page's own clock, then gives the middle of the fez button and that
# moment as milliseconds since the epoch (the clock the DevTools protocol stamps input with). The next click on the
# pad leaves, before the pad's own handler sees it, its time stamp and the time it was handled, both in ms after
# the card was drawn, and the name of the button it hit (``data-clicked``). Gives up after a minute, saying what
# the pad showed, rather than leave the test waiting for ever.
WAIT_THEN_AIM = """(pad, [turn, ms]) => new Promise((done, fail) => {
  const fez = () => pad.querySelector('button[aria-label^="play: your fez"]');
  const giveUp = setTimeout(() => fail(new Error(
    `no race for the fez after a minute: decision ${pad.dataset.turn}, fez ${fez()?.getAttribute("aria-disabled")}`
  )), 60000);
  const aim = () => {
    const box = fez().getBoundingClientRect();
    const shownAt = Number(pad.dataset.shownAt);
    const seen = (event) => {
      const hit = event.target.closest("button")?.getAttribute("aria-label") ?? event.target.className;
      pad.dataset.clicked = JSON.stringify([event.timeStamp - shownAt, performance.now() - shownAt, hit]);
    };
    pad.addEventListener("click", seen, { capture: true, once: true });
    clearTimeout(giveUp);
    done([box.x + box.width / 2, box.y + box.height / 2, performance.timeOrigin + shownAt + ms]);
  };
  const drawn = () => {
    const playable = fez()?.getAttribute("aria-disabled") === "false";
    const ready = Number(pad.dataset.turn) >= turn && pad.dataset.shownAt && playable;
    if (!ready) return requestAnimationFrame(drawn);
    setTimeout(aim, Number(pad.dataset.shownAt) + ms - performance.now());
  };
  drawn();
})"""


def race_pad(table: Locator) -> Locator:
    return table.locator(".hk-race")


def flip(table: Locator, by_key: bool = False) -> tuple[Locator, int]:
    """Ana flips (button, or the F key); returns the pad and the number of the race decision it opens."""
    pad = race_pad(table)
    flip_button = pad.get_by_role("button", name="flip the next card (key F)")
    expect(flip_button).to_have_attribute("aria-disabled", "false")
    turn = int(pad.get_attribute("data-turn") or "0")
    if by_key:
        pad.focus()
        pad.press("f")
    else:
        flip_button.click()
    return pad, turn + 1


def click_fez_after(page: Page, table: Locator, seconds: float) -> float:
    """Flip, then click the fez with the mouse ``seconds`` after the pad drew it; returns the click's time as
    the page saw it, in seconds after the pad drew the card.

    The click is stamped with the moment ``seconds`` after the drawing and sent once that moment has passed on
    the page's clock, as a mouse's click reaches a busy page: stamped when made, handled later.
    """
    pad, turn = flip(table)
    pad.scroll_into_view_if_needed()
    x, y, when = pad.evaluate(WAIT_THEN_AIM, [turn, seconds * 1000])
    devtools = page.context.new_cdp_session(page)
    for kind in ("mousePressed", "mouseReleased"):
        click = {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1, "timestamp": when / 1000}
        devtools.send("Input.dispatchMouseEvent", click)
    devtools.detach()
    expect(pad).to_have_attribute("data-clicked", re.compile(r"^\["))
    expect(pad.locator(".hk-race-top")).to_have_attribute("aria-label", "top card: fez")
    stamped, handled, hit = json.loads(pad.get_attribute("data-clicked") or "[]")
    assert hit.startswith("play: your fez"), f"the click meant for the fez hit {hit!r}"
    assert handled >= stamped  # the click came no earlier than its stamp says: it was really made by then
    return float(stamped) / 1000


def fez_button(pad: Locator) -> Locator:
    return pad.get_by_role("button", name=re.compile(r"^play: your fez"))


def narrated_time(table: Locator, who: str) -> float:
    """The reaction time the message line gives for ``who``'s play of the fez."""
    message = table.locator(".hk-message").inner_text()
    found = re.search(rf"{who}(?: plays a fez from the hand at|'s play at) ([\d.]+) s", message)
    assert found, message
    return float(found[1])


def open_races(
    page: Page, open_table: Callable[[str, Path], Locator], races: Served
) -> tuple[Locator, Locator, Locator]:
    """The three tables, once each has turned its reader's head card face down (O1: it shows for its first
    2.5 s), so that a race is played on a pad that no longer changes by itself."""
    open_table(*races)
    tables = page.locator(GAME_TABLE)
    expect(tables).to_have_count(3)
    for table in (tables.nth(0), tables.nth(1), tables.nth(2)):
        head = race_pad(table).locator(".hk-race-head")
        expect(head).to_have_attribute("aria-label", "play your head card, face down (key H)")
    return tables.nth(0), tables.nth(1), tables.nth(2)


def test_over_300_ms_each_way_a_click_at_250_or_350_ms_beats_a_400_ms_bot_and_loses_to_a_100_ms_one(
    page: Page, open_table: Callable[[str, Path], Locator], races: Served
) -> None:
    network = SlowNetwork(DELAY)
    page.route_web_socket(re.compile(r"/api/kernels/[^/]+/channels"), network)
    against_slow, against_fast, _ = open_races(page, open_table, races)

    started = time.monotonic()
    clicked = click_fez_after(page, against_slow, SLOW)
    assert clicked == pytest.approx(SLOW, abs=0.001)  # the page saw the click when it was made, not when it came
    message = against_slow.locator(".hk-message")
    expect(message).to_contain_text("a match! Ana wins the pile of 2 cards")
    assert time.monotonic() - started >= 4 * DELAY  # flip there and back, answer there and back: all slowed
    assert narrated_time(against_slow, "Ana") == round(clicked * 1000) / 1000  # the race's time is the click's
    expect(message).to_contain_text("Ben's play at 0.4 s is too late")
    expect(race_pad(against_slow).locator(".hk-race-result")).to_have_text(
        f"You won 2 cards. You played a fez from the hand at {narrated_time(against_slow, 'Ana'):g} s: a match!"
    )

    clicked = click_fez_after(page, against_fast, QUICK)
    assert clicked == pytest.approx(QUICK, abs=0.001)
    message = against_fast.locator(".hk-message")
    expect(message).to_contain_text("Ben plays a fez from the hand at 0.1 s: a match! Ben wins the pile of 2 cards")
    assert narrated_time(against_fast, "Ana") == round(clicked * 1000) / 1000
    result = race_pad(against_fast).locator(".hk-race-result")
    expect(result).to_contain_text("Ben won 2 cards. Your play at")  # the pad says why the race went as it did
    expect(result).to_contain_text("s faster)")
    assert network.forwarded > 0


def test_clicking_the_matching_card_wins_the_pile(
    page: Page, open_table: Callable[[str, Path], Locator], races: Served
) -> None:
    *_, table = open_races(page, open_table, races)
    ana = table.locator(".hk-seat-0")
    expect(ana).to_contain_text("Ana")
    expect(ana.locator(".hk-badge")).to_have_text("you")
    assert "chef" not in table.inner_html() and "party" not in table.inner_html()  # Ben's cards stay in the kernel
    pad, _ = flip(table)
    expect(pad.locator(".hk-race-prompt")).to_contain_text("Match the fez!")
    fez_button(pad).click()
    expect(table.locator(".hk-message")).to_contain_text("a match! Ana wins the pile of 2 cards")
    expect(pad.locator(".hk-race-result")).to_contain_text("You won 2 cards. You played a fez from the hand at")
    expect(ana).to_contain_text("won (2)")
    expect(pad.locator(".hk-race-prompt")).to_contain_text("Your turn to flip the next card. Press F.")  # O2


def test_keys_flip_and_play_the_head_card(
    page: Page, open_table: Callable[[str, Path], Locator], races: Served
) -> None:
    *_, table = open_races(page, open_table, races)
    pad, _ = flip(table, by_key=True)
    expect(pad.locator(".hk-race-top")).to_have_attribute("aria-label", "top card: fez")
    pad.press("h")  # the head card is a bowler: a wrong play (O5), but a legal answer
    message = table.locator(".hk-message")
    expect(message).to_contain_text("Ana plays a bowler hat from the head")
    expect(message).to_contain_text(f"Ben plays a fez from the hand at {PATIENT:g} s: a match!")


# A key pressed on the page itself (nothing focused), as the page's keyboard hands it on; gives each pad's
# answer to it ("flip", or null for none), read in the same task as the key, before any kernel could answer.
KEY_ON_THE_PAGE = """([pads, key]) => {
  for (const pad of pads) delete pad.dataset.answered;
  document.activeElement?.blur();
  document.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
  return pads.map((pad) => pad.dataset.answered ?? null);
}"""


def test_a_key_on_the_page_goes_to_the_pad_used_last_and_to_no_other(
    page: Page, open_table: Callable[[str, Path], Locator], races: Served
) -> None:
    """Each table is its own view; the pads share one module on the page (widgets/toolkit/ui.py, module_text), so the
    pad used last is the page's. With a module per view, each view's pad used last took the key: both flipped."""
    first, _, last = open_races(page, open_table, races)
    first_pad, last_pad = race_pad(first), race_pad(last)
    for pad in (first_pad, last_pad):
        expect(pad.get_by_role("button", name="flip the next card (key F)")).to_have_attribute("aria-disabled", "false")
        pad.click(position={"x": 3, "y": 3})  # on the pad, on none of its buttons: it becomes the pad used last
    pads = [first_pad.element_handle(), last_pad.element_handle()]
    assert page.evaluate(KEY_ON_THE_PAGE, [pads, "f"]) == [None, "flip"]


# Notes, in the page, the time of the next press and the next let-go of the pointer, in ms after the pad drew
# the decision on screen (``data-pressed``, ``data-dropped``), as the pad's own handlers see them.
NOTE_PRESS_AND_DROP = """pad => {
  const after = (event) => String(event.timeStamp - Number(pad.dataset.shownAt));
  const once = { capture: true, once: true };
  document.addEventListener("pointerdown", (event) => (pad.dataset.pressed = after(event)), once);
  document.addEventListener("pointerup", (event) => (pad.dataset.dropped = after(event)), once);
}"""


RACE_PAD = Path(__file__).resolve().parents[2] / "widgets" / "games" / "race.js"
# A race pad drawn on this page alone, its model a plain object: race.js's ``script``, the model's values (a race on
# a fez, unless ``changed`` says otherwise). What the pad sends, and ``open(turn)``, which sends it a new decision.
PAD_ALONE = """async (script, changed) => {
  const { render } = await import(URL.createObjectURL(new Blob([script], { type: "text/javascript" })));
  const props = { turn: 1, phase: "race", prompt: "", result: "", top: "fez", under: 0, loose: [], hand: [],
    has_head: false, head: null, can_act: true, can_call: false, answer: "", hint: "", timeout: 60, cards: {},
    ...changed };
  const listeners = new Map();
  const sent = [];
  const model = {
    get: (name) => props[name],
    on: (event, callback) => listeners.set(event, [...(listeners.get(event) || []), callback]),
    send: (content) => sent.push(content),
  };
  const open = (turn) => {
    props.turn = turn;
    for (const callback of listeners.get("change:turn") || []) callback();
  };
  render({ model, el: document.body, motion: { dragPx: 6, glide: () => {}, stillWanted: () => true } });
  return { sent, open };
}"""
# Two decisions open within one frame, the reader answers the second, and a third opens a moment later; what the
# pad sent, once two timeouts have passed.
TWO_DECISIONS_IN_ONE_FRAME = f"""async ([script, timeout]) => {{
  const {{ sent, open }} = await ({PAD_ALONE})(script, {{ hand: ["beret"], timeout }});
  const pause = (seconds) => new Promise((done) => setTimeout(done, seconds * 1000));
  open(2);
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  document.querySelector(".hk-race-btn[title^='pass']").click();
  await pause(timeout * 0.3);
  open(3);
  await pause(timeout * 2);
  return sent;
}}"""


def test_two_decisions_within_one_frame_start_one_stopwatch(page: Page) -> None:
    """A pad that is sent two decisions before it can draw the first starts one stopwatch, for the one on
    screen: a second would run on, unseen, and pass for the reader in a later decision, well before its time."""
    timeout = 0.5
    sent = page.evaluate(TWO_DECISIONS_IN_ONE_FRAME, [RACE_PAD.read_text(), timeout])
    assert [(answer["answer"], answer["turn"]) for answer in sent] == [("pass", 2), ("pass", 3)], sent
    assert sent[1]["seconds"] >= timeout * 0.99, f"the pad passed {sent[1]['seconds']:.2f} s into a decision"


def middle(locator: Locator) -> tuple[float, float]:
    box = locator.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def carry(page: Page, card: Locator, to: Locator) -> None:
    """Press on ``card`` with the mouse, wait a moment, carry it to the middle of ``to`` and hold it there."""
    card.locator("xpath=ancestor::*[contains(@class, 'hk-race')][1]").scroll_into_view_if_needed()
    page.mouse.move(*middle(card))
    page.mouse.down()
    page.wait_for_timeout(300)  # held before it moves: the race's time must be the drop's, not the press's
    page.mouse.move(*middle(to), steps=12)


def test_a_fez_carried_onto_the_pile_wins_it_at_the_time_it_is_let_go(
    page: Page, open_table: Callable[[str, Path], Locator], races: Served
) -> None:
    *_, table = open_races(page, open_table, races)
    pad, turn = flip(table)
    expect(pad).to_have_attribute("data-turn", str(turn))
    expect(pad).to_have_attribute("data-shown-at", re.compile(r"\d"))
    pad.evaluate(NOTE_PRESS_AND_DROP)
    carry(page, fez_button(pad), pad.locator(".hk-race-top"))
    expect(pad.locator(".hk-race-top")).to_have_class(re.compile(r"\bhk-race-drop\b"))  # the place it can go
    page.mouse.up()
    message = table.locator(".hk-message")
    expect(message).to_contain_text("a match! Ana wins the pile of 2 cards")
    pressed, dropped = (float(pad.get_attribute(name) or "nan") for name in ("data-pressed", "data-dropped"))
    assert dropped >= pressed + 300
    assert narrated_time(table, "Ana") == pytest.approx(dropped / 1000, abs=0.0011)  # the race's time is the drop's
    expect(pad.locator(".hk-race-top")).not_to_have_class(re.compile(r"\bhk-race-drop\b"))


# A race pad on a page of its own that scrolls every way (three windows wide and tall, the pad in the middle), with
# its style sheet, its race open: a fez on the pile, a fez in the hand. What the pad sends goes into ``window.sent``.
PAD_ON_A_WIDE_PAGE = f"""async ([script, style]) => {{
  document.head.insertAdjacentHTML("beforeend", `<style>${{style}}</style>`);
  Object.assign(document.body.style, {{ width: "100vw", height: "100vh", padding: "100vh 100vw", margin: "0" }});
  const fez = '<div class="hk-ho-card" style="width: 60px; height: 80px">fez</div>';
  window.sent = (await ({PAD_ALONE})(script, {{ hand: ["fez"], cards: {{ fez }} }})).sent;
}}"""


def test_a_fez_held_still_while_the_page_scrolls_the_pile_under_it_is_let_go_on_the_pile(page: Page) -> None:
    """A mouse holds the fez still while the page scrolls until the pile is under the pointer (a wheel turned): letting
    go there plays it, as carrying it there does. The pointer never moved, so only where it is let go counts."""
    page.evaluate(PAD_ON_A_WIDE_PAGE, [RACE_PAD.read_text(), PAD_CSS])
    pad = page.locator(".hk-race").first
    expect(pad).to_have_attribute("data-shown-at", re.compile(r"\d"))
    fez, pile = fez_button(pad), pad.locator(".hk-race-top")
    fez.scroll_into_view_if_needed()
    (x, y), (to_x, to_y) = middle(fez), middle(pile)
    page.mouse.move(x, y)
    page.mouse.down()
    page.evaluate("([x, y]) => window.scrollBy({ left: x, top: y, behavior: 'instant' })", [to_x - x, to_y - y])
    page.mouse.up()
    expect(pad).to_have_attribute("data-answered", "fez")
    assert [sent["answer"] for sent in page.evaluate("window.sent")] == ["fez"]


def running_race(page: Page, open_table: Callable[[str, Path], Locator], races: Served) -> tuple[Locator, Locator]:
    """The races page's last table, its card flipped and its pad's clock running: the table and its pad."""
    *_, table = open_races(page, open_table, races)
    pad, _ = flip(table)
    expect(pad).to_have_class(re.compile(r"\bhk-race-running\b"))
    return table, pad


# The race clock's bar while it runs: what its transition changes, how much of the clock it covers as laid out,
# and whether its running animations are all played by the compositor's kind (transform, not width).
CLOCK = """(pad) => {
  const bar = pad.querySelector(".hk-race-bar");
  const played = bar.getAnimations().map((animation) => animation.transitionProperty);
  return [getComputedStyle(bar).transitionProperty, bar.offsetWidth === bar.parentElement.clientWidth, played];
}"""


def test_the_race_clock_empties_by_a_scale_the_compositor_plays(
    page: Page, open_table: Callable[[str, Path], Locator], races: Served
) -> None:
    """A race's clock runs for seconds, on every pad of a class: a shrinking width would lay the page out and paint
    it every frame for all that time; a scale of the full bar is drawn by the compositor alone."""
    table, pad = running_race(page, open_table, races)
    assert pad.evaluate(CLOCK) == ["transform", True, ["transform"]]
    fez_button(pad).click()
    expect(table.locator(".hk-message")).to_contain_text("a match! Ana wins the pile of 2 cards")


# How much of its clock the running bar covers (its scale), once it covers less than all of it.
BAR_LEFT = """(pad) => new Promise((done) => {
  const bar = pad.querySelector(".hk-race-bar");
  const look = () => {
    const left = new DOMMatrix(getComputedStyle(bar).transform).a;
    if (left < 1) done([left, getComputedStyle(bar).transitionDuration]);
    else setTimeout(look, 100);
  };
  look();
})"""


def test_without_motion_the_race_clock_steps_down_each_second_and_still_shows_the_time_left(
    page: Page, open_table: Callable[[str, Path], Locator], races: Served
) -> None:
    """A reader who asks for reduced motion has no transitions; the race's clock must not then show an empty bar
    for the whole race (the time left is what it is there for)."""
    page.emulate_media(reduced_motion="reduce")
    table, pad = running_race(page, open_table, races)
    left, duration = pad.evaluate(BAR_LEFT)
    seconds_left = left * ANSWER_SECONDS
    assert duration == "0s" and 0 < left < 1, f"the bar covers {left:.0%} of the clock, its transition {duration}"
    assert seconds_left == pytest.approx(round(seconds_left)), f"a step of whole seconds: {seconds_left} s left"
    fez_button(pad).click()
    expect(table.locator(".hk-message")).to_contain_text("a match! Ana wins the pile of 2 cards")


def test_a_fez_let_go_away_from_the_pile_goes_back_and_nothing_is_played(
    page: Page, open_table: Callable[[str, Path], Locator], races: Served
) -> None:
    *_, table = open_races(page, open_table, races)
    pad, turn = flip(table)
    expect(pad).to_have_attribute("data-turn", str(turn))
    carry(page, fez_button(pad), pad.locator(".hk-race-prompt"))
    page.mouse.up()
    expect(pad.locator(".hk-race-said")).to_have_text(
        "Nothing played: to play a card, let go of it on the top card of the pile."
    )
    expect(pad.locator(".hk-race-top")).not_to_have_class(re.compile(r"\bhk-race-drop\b"))
    assert pad.get_attribute("data-answered") is None and pad.get_attribute("data-turn") == str(turn)
    expect(table.locator(".hk-message")).not_to_contain_text("Ana plays")
    fez_button(pad).click()  # the race was still open: the fez is still in the hand, and wins it now
    expect(table.locator(".hk-message")).to_contain_text("a match! Ana wins the pile of 2 cards")


def test_a_finger_carries_the_fez_onto_the_pile_too_and_is_shown_no_keys(
    page: Page, open_table: Callable[[str, Path], Locator], races: Served
) -> None:
    *_, table = open_races(page, open_table, races)
    pad, turn = flip(table)
    expect(pad).to_have_attribute("data-turn", str(turn))
    pad.scroll_into_view_if_needed()
    key_hints = [pad.locator(".hk-race-keys"), fez_button(pad).locator("kbd"), pad.locator(".hk-race-pass .hk-keys")]
    expect(pad.locator(".hk-race-prompt")).to_have_text("Match the fez! Keys: 1-3 your hand, H your head, P pass")
    for hint in key_hints:  # a mouse: its keyboard's keys are named
        expect(hint).to_be_visible()
    (x, y), (to_x, to_y) = middle(fez_button(pad)), middle(pad.locator(".hk-race-top"))
    devtools = page.context.new_cdp_session(page)
    devtools.send("Emulation.setTouchEmulationEnabled", {"enabled": True})
    for hint in key_hints:  # a finger (a coarse pointer that cannot hover): a phone has no keys to name
        expect(hint).to_have_css("display", "none")  # still there (a mouse may come back), not shown
    expect(pad.locator(".hk-race-prompt")).to_contain_text("Match the fez!")
    devtools.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 13):
        point = {"x": x + (to_x - x) * step / 12, "y": y + (to_y - y) * step / 12}
        devtools.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    expect(pad.locator(".hk-race-top")).to_have_class(re.compile(r"\bhk-race-drop\b"))
    devtools.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    devtools.detach()
    expect(table.locator(".hk-message")).to_contain_text("a match! Ana wins the pile of 2 cards")
