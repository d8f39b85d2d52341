"""The app in a browser: Voilà serves notebooks/ and Chromium plays Hats by clicks.

The Hats notebook's interactive table (part 5) is rebuilt here from the same
seed and seats, with bots that answer at once (the bots are seeded, so they
play the same moves as in the browser). That replica knows every hidden card
and what the page should say after each click.
"""

from __future__ import annotations

import ast
import html
import json
import re
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

import hatskit
from hatskit.core import Event
from hatskit.drawing import without_rules
from hatskit.games.hats import KIND_NAMES, Exchange, cards_of_game
from tests.browser.conftest import GAME_TABLE, WIDGET_TIMEOUT_MS, expect_refusal
from tests.browser.motion import end, forget_motion, logged_motion, middle, motion, near, settle, start, watch_motion
from tests.conftest import NOTEBOOK_DIR, NOTEBOOKS, REPO
from widgets import HatsTable
from widgets.toolkit import ui

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page, WebSocketRoute

ExpectEvaluated = Callable[["Locator", str, Any], None]

SCREENSHOT = REPO / "docs" / "hats-table.png"
GAMES = ("Hats", "Hats Off!", "Madder than a Hatter", "Sombrero")
# What the table shows apart from the message line: hand and table cards with their tooltips, seats, status and
# score (the parts the hats_table fixture waits for).
TABLE_STATE = """table => ({
  cards: [...table.querySelectorAll(`button[title$=" in your hand"], button[title^="position "]`)].map(
    b => `${b.textContent}|${b.title}`),
  ...Object.fromEntries([".hk-status", ".hk-seat", ".hk-info", ".hk-scorepanel"].map(
    line => [line, [...table.querySelectorAll(line)].map(element => element.innerText)])),
})"""
MESSAGE_LINES = "message => message.innerText.split('\\n').filter((line) => line !== 'why?')"  # "why?" folded
TABLE_CALL = re.compile(
    r"HatsTable(?:\.from_link)?"
    r'\(hatskit\.new_game\("hats", players=(?P<players>\d), seed=(?P<seed>\d+)\), seats=(?P<seats>\([^)]*\))\)'
)


@pytest.fixture
def replica() -> HatsTable:
    """The Hats notebook's interactive table, rebuilt with bots that answer at once."""
    notebook = json.loads((NOTEBOOK_DIR / "hats.ipynb").read_text())
    source = "\n".join("".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code")
    match = TABLE_CALL.search(source)
    assert match, "notebooks/hats.ipynb builds its table no longer as HatsTable.from_link(hatskit.new_game(..), ..)"
    game = hatskit.new_game("hats", players=int(match["players"]), seed=int(match["seed"]))
    return HatsTable(game, seats=ast.literal_eval(match["seats"]), bot_delay=0)


@pytest.fixture
def hats_table(open_table: Callable[[str, Path], Locator], voila: str, replica: HatsTable) -> Locator:
    """The Hats notebook's interactive table, the first on the page, once every part of it shows.

    The widgets of a page appear one by one, in any order; a test that keeps what
    the table shows to compare later must wait for all of them first.
    """
    table = open_table(voila, NOTEBOOK_DIR / "hats.ipynb")
    expect(table.locator(".hk-status")).not_to_be_empty()
    expect(table.locator(".hk-seat")).to_have_count(replica.game.view(0)["players"])
    expect(table.locator(".hk-info")).to_be_attached()
    expect(table.locator('button[title^="position "]')).to_have_count(len(replica.position_buttons))
    for card in replica.game.view(0)["hand"]:
        expect(hand_card(table, card)).to_be_visible()
    expect(table.locator(".hk-scorepanel summary.hk-total")).to_have_text(totals_of(replica), use_inner_text=True)
    return table


def hidden_cards(replica: HatsTable) -> set[str]:
    """Every card of the game that the reader's seat may not see now, by symbol and by name."""
    view = replica.game.view(0)
    seen = {*view["hand"], *view["table"], *view["my_black_hats"], *(view["favorites"] or [])}
    seen.update(card for collection in view["collections"] for card in collection)
    hidden = {str(card) for card in cards_of_game(view["players"], replica.game.state.options)} - seen
    return hidden | {KIND_NAMES[card[0]] + card[1:] for card in hidden}


def assert_hides(table: Locator, replica: HatsTable) -> None:
    """No hidden card is anywhere in the table's HTML, hidden elements and tooltips included.

    The caller has waited for the table to show what it should, so one read of its markup is complete.
    """
    markup = table.evaluate("element => element.outerHTML")
    assert all(card in markup for card in replica.game.view(0)["hand"]), "the search misses the cards shown"
    leaked = sorted(card for card in hidden_cards(replica) if card in markup)
    assert not leaked, f"hidden cards reached the browser: {leaked}"


def totals_of(replica: HatsTable) -> list[str]:
    """The total rows the score panel should show for the replica's game."""
    totals = replica.game.score().totals
    return [f"{name}: {points} how?" for name, points in zip(replica.game.seat_names, totals, strict=False)]


def message_line(event: Event) -> str:
    """An event's sentence as the message line's text holds it: without its rule id (``told_html``), on a line or,
    where a table tells the move short, whole behind "why?"."""
    return without_rules(event.text)[0]


def told_lines(message_html: str) -> list[str]:
    """The lines a message line's HTML shows before its folded "why?", as text."""
    shown = re.sub(r"<details.*?</details>", "", message_html, flags=re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", line)).strip() for line in shown.split("<br>")]


def hand_card(table: Locator, card: str) -> Locator:
    """The reader's hand card, found by its tooltip as a screen reader would name it."""
    return table.locator(f'button[title="{card} in your hand"]')


def position(table: Locator, number: int) -> Locator:
    """The tea table's position ``number``, found by its tooltip ("position 2: ♦4")."""
    return table.locator(f'button[title^="position {number}:"]')


def expect_lit_positions(table: Locator, numbers: set[int]) -> None:
    """Wait until exactly the table positions ``numbers`` are highlighted as legal targets."""
    expect(table.locator('button.hk-legal[title^="position "]')).to_have_count(len(numbers))
    for number in numbers:
        expect(position(table, number)).to_have_class(re.compile(r"\bhk-legal\b"))


@pytest.mark.parametrize("notebook", [path.name for path in NOTEBOOKS])
def test_every_notebook_renders_in_voila_with_its_code_hidden(
    notebook: str, voila: str, assert_rendered: Callable[[str, Path], None]
) -> None:  # the page as the server sends it: no browser, nothing drawn later
    with urllib.request.urlopen(f"{voila}/voila/render/{notebook}", timeout=300) as response:
        assert_rendered(response.read().decode(), NOTEBOOK_DIR / notebook)


def test_index_names_every_game_and_links_to_hats(page: Page, voila: str) -> None:
    page.goto(f"{voila}/voila/render/index.ipynb")
    for game in GAMES:
        expect(page.locator("body")).to_contain_text(game)
    hats_link = page.locator('a[href="hats.ipynb"], a[href$="/hats.ipynb"]').first
    expect(hats_link).to_be_visible()
    hats_link.click()
    expect(page).to_have_url(re.compile(r"/voila/render/hats\.ipynb$"))
    expect(page.locator(GAME_TABLE).first).to_be_visible()


def play_first_exchange(table: Locator, replica: HatsTable) -> list[str]:
    """Click the reader's first legal exchange, wait for the bots' replies; return the expected narration."""
    move = next(move for move in replica.reader_moves() if isinstance(move, Exchange))
    hand_card(table, str(move.card)).click()
    position(table, move.position).click()
    assert replica.try_move(str(move))
    narration = told_lines(replica.message.value)
    table.locator(".hk-message").filter(has_text=narration[-1]).wait_for()
    for card in replica.game.view(0)["hand"]:  # the reader's new hand is drawn
        expect(hand_card(table, card)).to_be_visible()
    return narration


def test_hats_selecting_a_card_lights_its_legal_positions(hats_table: Locator, replica: HatsTable) -> None:
    table = hats_table
    for name in ("black hat", "discard", "hint", "undo"):
        expect(table.get_by_role("button", name=name, exact=True)).to_be_visible()
    for card in replica.game.view(0)["hand"][:3]:
        hand_card(table, card).click()
        expected = {m.position for m in replica.reader_moves() if isinstance(m, Exchange) and str(m.card) == card}
        expect(table.locator(f'button.hk-selected[title="{card} in your hand"]')).to_be_visible()
        expect_lit_positions(table, expected)


def test_hats_exchange_by_clicks_narrates_scores_and_undoes(
    hats_table: Locator, replica: HatsTable, expect_evaluated: ExpectEvaluated
) -> None:
    table = hats_table
    start, totals_at_start = table.evaluate(TABLE_STATE), totals_of(replica)  # the fixture waited for these
    narration = play_first_exchange(table, replica)
    assert narration[0].startswith("Ana exchanged")
    expect_evaluated(table.locator(".hk-message"), MESSAGE_LINES, narration)
    assert totals_of(replica) != totals_at_start
    expect(table.locator(".hk-scorepanel summary.hk-total")).to_have_text(totals_of(replica), use_inner_text=True)
    hand_card(table, replica.game.view(0)["hand"][0]).click()
    expect(table.locator("button.hk-legal").first).to_be_visible()
    SCREENSHOT.parent.mkdir(exist_ok=True)
    table.screenshot(path=str(SCREENSHOT), animations="disabled")
    table.get_by_role("button", name="undo", exact=True).click()
    expect(table.locator(".hk-message")).to_contain_text("Took back")
    expect_evaluated(table, TABLE_STATE, start)


def illegal_exchange(replica: HatsTable) -> tuple[str, int, str]:
    """A hand card, a table position it may not go to, and the engine's sentence that says why."""
    return next(
        (card, number, reason)
        for card in replica.game.view(0)["hand"]
        for number in range(1, len(replica.position_buttons) + 1)
        if (reason := replica.game.why_illegal(f"{card}@{number}")) is not None
    )


def test_hats_illegal_exchange_says_why_and_changes_nothing(
    hats_table: Locator, replica: HatsTable, expect_evaluated: ExpectEvaluated
) -> None:
    table = hats_table
    card, number, reason = illegal_exchange(replica)
    before = table.evaluate(TABLE_STATE)  # the fixture waited for every part of the table
    hand_card(table, card).click()
    expect(table.locator(f'button.hk-selected[title="{card} in your hand"]')).to_be_visible()
    position(table, number).click()
    expect_refusal(table, reason)
    expect_evaluated(table, TABLE_STATE, before)


def test_hats_hidden_cards_never_reach_the_page(hats_table: Locator, replica: HatsTable) -> None:
    table = hats_table
    assert_hides(table, replica)
    play_first_exchange(table, replica)
    assert_hides(table, replica)


# A page too busy to load its views' modules within anywidget's two seconds (a slow laptop opening a long lesson,
# a class of pages on one server): each view's module (the LOADER, found by its size) resolves 2.5 s late.
SLOW_VIEW_MODULES = """(size) => {
  const make = URL.createObjectURL;
  URL.createObjectURL = function (blob) {
    if (!(blob instanceof Blob) || blob.type !== "text/javascript" || blob.size !== size) return make.call(URL, blob);
    const module = JSON.stringify(make.call(URL, blob));
    const wait = "await new Promise((done) => setTimeout(done, 2500));";
    const late = `${wait}\\nexport * from ${module};\\nexport { default } from ${module};`;
    return make.call(URL, new Blob([late], { type: "text/javascript" }));
  };
}"""
SLOW_LOAD = "[anywidget] Failed to initialize model."


def test_hats_a_table_whose_module_loaded_slowly_still_hears_its_kernel(
    page: Page, open_table: Callable[[str, Path], Locator], voila: str, replica: HatsTable
) -> None:
    """anywidget drops every message to a model whose module took over two seconds to load, for as long as the
    page is open: such a table drew, took presses and never showed what the kernel did with them. The tables
    talk through a plain model beside it (widgets/toolkit/ui.py, Channel), so a move still shows."""
    uncaught: list[str] = []
    page.on("pageerror", lambda error: uncaught.append(str(error)))
    page.add_init_script(f"({SLOW_VIEW_MODULES})({len(ui.LOADER.encode())});")
    table = open_table(voila, NOTEBOOK_DIR / "hats.ipynb")
    for card in replica.game.view(0)["hand"]:
        expect(hand_card(table, card)).to_be_visible()
    play_first_exchange(table, replica)
    assert SLOW_LOAD in uncaught, f"the page loaded its modules in time, so this test showed nothing: {uncaught}"


# Notes on the page's own clock when the first widget output starts waiting for its widget (the renderer's words).
WAITING_SEEN = """new MutationObserver((_, observer) => {
  if (!document.body?.textContent.includes("Loading widget...")) return;
  window.hkWaitingSince = Date.now();
  observer.disconnect();
}).observe(document, { subtree: true, childList: true, characterData: true });"""
WIDGETS_KNOWN = "window.jupyterapp?.widgetManager?.restoredStatus === true"  # Voilà's app, its manager's own flag
LATE_MS = 1998  # after the manager's last look for a missing widget (every 0.1 s) and before its two seconds end


class HeldWidgetStates:
    """The kernel's websocket, forwarded both ways at once, except the kernel's answer that carries every
    widget's state (``update_states``), held until :meth:`release`."""

    def __init__(self) -> None:
        self.held: list[str | bytes] = []
        self.page_side: WebSocketRoute | None = None

    def __call__(self, page_side: WebSocketRoute) -> None:
        server_side = page_side.connect_to_server()
        self.page_side = page_side
        page_side.on_message(server_side.send)
        server_side.on_message(self._from_kernel)

    def _from_kernel(self, message: str | bytes) -> None:
        assert self.page_side is not None
        raw = message if isinstance(message, bytes) else message.encode()
        if b'"update_states"' in raw:
            self.held.append(message)
        else:
            self.page_side.send(message)

    def wait_for_states(self, page: Page) -> None:
        """Until the kernel has sent the widgets' states (Playwright's loop forwards messages while the page waits)."""
        deadline = time.monotonic() + WIDGET_TIMEOUT_MS / 1000
        while not self.held and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        assert self.held, "the kernel never sent the widgets' states"

    def release(self) -> None:
        assert self.page_side is not None
        for message in self.held:
            self.page_side.send(message)


def test_a_page_whose_widgets_come_as_the_widget_manager_stops_waiting_still_shows_its_tables(
    page: Page, voila: str
) -> None:
    """ipywidgets 8.1.9's widget manager (jupyterlab_widgets 3.0.17) waits two seconds for a widget it does not know
    yet, then shows "Error displaying widget: model not found" for good, even when the widgets came from the
    kernel in the last moments of the wait (ipywidgets issue 4026). A page's widgets come that late over a slow
    network: the Hats Off! test at 300 ms each way met it on a busy machine, a page without a single table.
    pyproject.toml keeps the manager before that wait. Here the kernel's answer with the widgets' states is held
    and the page's clock run so that the answer comes exactly then; the page must show its tables."""
    network = HeldWidgetStates()
    page.route_web_socket(re.compile(r"/api/kernels/[^/]+/channels"), network)
    page.clock.install()
    page.add_init_script(WAITING_SEEN)
    page.goto(f"{voila}/voila/render/hats.ipynb")
    page.wait_for_function("window.hkWaitingSince !== undefined")
    page.clock.pause_at((page.evaluate("Date.now()") + 500) / 1000)  # timers stand still from half a second on
    network.wait_for_states(page)
    page.clock.run_for(LATE_MS - page.evaluate("Date.now() - window.hkWaitingSince"))
    network.release()
    page.wait_for_function(WIDGETS_KNOWN)
    page.clock.resume()
    drawn = page.locator(".hk-table.hk-main .hk-message").or_(page.get_by_text("Error displaying widget"))
    expect(drawn.first).to_be_visible()
    expect(page.get_by_text("Error displaying widget")).to_have_count(0)
    expect(page.locator(".hk-table.hk-main .hk-message")).to_have_attribute("aria-live", "polite")


# ------------------------------------------------------------------ moves you can watch, and drag and drop


def first_exchange(replica: HatsTable) -> Exchange:
    return next(move for move in replica.reader_moves() if isinstance(move, Exchange))


def test_hats_a_card_dragged_onto_its_place_is_played(hats_table: Locator, replica: HatsTable) -> None:
    table, move = hats_table, first_exchange(replica)
    hand_card(table, str(move.card)).drag_to(position(table, move.position))
    assert replica.try_move(str(move))
    expect(table.locator(".hk-message")).to_contain_text(message_line(replica.game.events[0][0]))
    expect(position(table, move.position)).to_have_attribute("title", re.compile(rf"^position {move.position}: "))
    expect(table.locator(".hk-ghost")).to_have_count(0)


def test_hats_a_card_played_by_keys(hats_table: Locator, replica: HatsTable) -> None:
    table, move = hats_table, first_exchange(replica)
    hand_card(table, str(move.card)).press("Enter")
    expect(table.locator(f'button.hk-selected[title="{move.card} in your hand"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    position(table, move.position).press("Space")
    assert replica.try_move(str(move))
    expect(table.locator(".hk-message")).to_contain_text(message_line(replica.game.events[0][0]))


def test_hats_an_illegal_drop_says_why_and_changes_nothing(
    hats_table: Locator, replica: HatsTable, expect_evaluated: ExpectEvaluated
) -> None:
    table = hats_table
    card, number, reason = illegal_exchange(replica)
    before = table.evaluate(TABLE_STATE)
    hand_card(table, card).drag_to(position(table, number))
    expect_refusal(table, reason)
    expect_evaluated(table, TABLE_STATE, before)


def test_hats_the_played_and_the_taken_card_slide_where_the_engine_put_them(
    hats_table: Locator, replica: HatsTable, page: Page
) -> None:
    table, move = hats_table, first_exchange(replica)
    taken = replica.game.view(0)["table"][move.position - 1]
    watch_motion(page)
    hand_card(table, str(move.card)).click()
    position(table, move.position).click()
    # A card's drawing reads as its notation ("♥5"); the played card ends on its position, the taken one in
    # the reader's collection (no button holds it there: a seat's row), as the engine says.
    expect(table.locator(".hk-message")).to_contain_text("Ana exchanged")
    played = [str(move.card), f"position {move.position}: {move.card}"]
    motion(page, "(m, [card, place]) => m.text === card && m.holder.startsWith(place)", played)
    motion(page, "(m, card) => m.text === card && m.holder === '' && m.seat === 'Ana'", str(taken))


# What the browser's compositor plays on its own: a slide of these does not lay out and paint the page again each
# frame of every move (view.js, lift), which a school laptop feels.
COMPOSITED = {"translate", "scale", "rotate", "transform", "opacity", "filter"}
KEYFRAME_TIMING = {"offset", "computedOffset", "easing", "composite"}


def test_a_sliding_card_animates_only_what_the_compositor_plays_and_takes_no_pointer_on_its_way(
    hats_table: Locator, replica: HatsTable, page: Page
) -> None:
    table, move = hats_table, first_exchange(replica)
    watch_motion(page)
    hand_card(table, str(move.card)).click()
    position(table, move.position).click()
    motion(page, "(m) => m.frames.some((frame) => 'translate' in frame)")
    logged = logged_motion(page)
    animated = {name for entry in logged for frame in entry["frames"] for name in frame} - KEYFRAME_TIMING
    assert animated <= COMPOSITED, f"animated on the page's main thread: {animated - COMPOSITED}"
    slides = [entry for entry in logged if any("translate" in frame for frame in entry["frames"])]
    assert all(entry["pointer"] == "none" for entry in slides), "a card on its way would take a press from a place"
    settle(page)
    assert table.locator(".hk-card[style*='pointer-events'], .hk-card[style*='z-index']").count() == 0


# Notes (window.hkBare) each card whose style changes while it slides so that it takes presses again.
WATCH_BARE_SLIDES = """() => {
  window.hkBare = [];
  const sliding = (card) => card.getAnimations().some((animation) => animation.playState === "running"
    && animation.effect.getKeyframes().some((frame) => "translate" in frame));
  new MutationObserver((records) => {
    for (const { target } of records) {
      if (target.matches(".hk-card") && sliding(target) && target.style.pointerEvents !== "none") {
        window.hkBare.push(target.textContent.trim());
      }
    }
  }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["style"] });
}"""


def test_a_card_sent_back_before_it_lands_has_one_slide_at_a_time(
    hats_table: Locator, replica: HatsTable, page: Page
) -> None:
    """Undo pressed while the exchange's cards are still on their way (the slides run twenty times slower here): each
    card goes back from where it is seen, and a card element still sliding has its first slide ended. Two slides of
    one property on one element would both be played on the page's main thread, every frame, and the first one's
    end gave the card back its pointer halfway through the second."""
    table, move = hats_table, first_exchange(replica)
    page.context.new_cdp_session(page).send("Animation.setPlaybackRate", {"playbackRate": 0.05})
    watch_motion(page)
    hand_card(table, str(move.card)).click()
    position(table, move.position).click()
    at_position = "(m, place) => m.holder.startsWith(place) && m.frames[0].translate"
    motion(page, at_position, f"position {move.position}:")
    forget_motion(page)
    page.evaluate(WATCH_BARE_SLIDES)
    table.get_by_role("button", name="undo", exact=True).click()
    motion(page, at_position, f"position {move.position}:")
    slides = [entry for entry in logged_motion(page) if entry["frames"][0].get("translate")]
    settle(page)
    assert page.evaluate("() => window.hkBare") == [], "a card on its way took presses again before it landed"
    twice = [entry["text"] for entry in slides if entry["sliding"]]
    assert not twice, f"cards with two slides under way at once: {twice}"
    assert table.locator(".hk-card[style*='pointer-events'], .hk-card[style*='z-index']").count() == 0


def test_no_card_slides_for_a_reader_who_asks_for_reduced_motion(
    hats_table: Locator, replica: HatsTable, page: Page
) -> None:
    page.emulate_media(reduced_motion="reduce")
    table, move = hats_table, first_exchange(replica)
    watch_motion(page)
    hand_card(table, str(move.card)).click()
    position(table, move.position).click()
    assert replica.try_move(str(move))
    expect(table.locator(".hk-message")).to_contain_text(message_line(replica.game.events[-1][-1]))
    assert logged_motion(page) == []


def test_hats_a_black_hat_turns_face_down_on_its_way_and_back_up_on_undo(
    hats_table: Locator, replica: HatsTable, page: Page
) -> None:
    table, card = hats_table, replica.game.view(0)["hand"][0]
    black_hat = table.locator(".hk-seat .hk-card.hk-blackhat", has_text=card)
    in_hand = hand_card(table, card).locator(".hk-card")
    watch_motion(page)
    hand_card(table, card).click()
    expect(table.locator(f'button.hk-selected[title="{card} in your hand"]')).to_be_visible()
    settle(page)  # picking it up redraws the hand
    from_hand = middle(in_hand)
    table.get_by_role("button", name="black hat", exact=True).click()
    assert replica.try_move(f"black {card}")
    assert card in replica.game.view(0)["my_black_hats"]  # the engine put it face down among Ana's black hats
    went = motion(
        page, "(m, card) => m.text === card && !m.holder.endsWith(' in your hand') && m.frames[0].translate", card
    )
    assert (went["seat"], near(start(went), from_hand)) == ("Ana", True)  # a seat panel's first line: its name
    motion(page, "(m, card) => m.text === card && m.frames[1].rotate === 'y 90deg'", card)  # it turns over
    narration = [message_line(event) for events in replica.game.events for event in events]
    table.locator(".hk-message").filter(has_text=narration[-1]).wait_for()  # the bots have answered
    settle(page)
    assert near(end(went), middle(black_hat))
    from_seat = middle(black_hat)
    forget_motion(page)
    table.get_by_role("button", name="undo", exact=True).click()
    back = motion(
        page, "(m, card) => m.text === card && m.holder.endsWith(' in your hand') && m.frames[0].translate", card
    )
    assert near(start(back), from_seat)
    motion(page, "(m, card) => m.text === card && m.frames[1].rotate === 'y 90deg'", card)
    expect(black_hat).to_have_count(0)
    settle(page)
    assert near(end(back), middle(in_hand))


def test_hats_another_seats_black_hat_comes_from_its_hand(hats_table: Locator, replica: HatsTable, page: Page) -> None:
    """The reader plays the first exchange offered until a bot makes a black hat: a back leaves its hand."""
    table, made, turns = hats_table, None, 0
    while made is None:
        move, count, turns = first_exchange(replica), len(replica.game.events), turns + 1
        assert replica.try_move(str(move)) and turns <= 8, "no bot made a black hat in this game's first turns"
        made = next((e.text for es in replica.game.events[count:] for e in es if " made a black hat" in e.text), None)
        if made is not None:  # where the backs of its hand rest (before a pick lights the table and moves them)
            name = made.split()[0]
            seat = table.locator(f".hk-seat-{replica.game.seat_names.index(name)}").locator(".hk-back")
            settle(page)
            backs = [middle(back) for back in seat.all() if back.get_attribute("title") == "hidden card"]
            watch_motion(page)
        hand_card(table, str(move.card)).click()
        position(table, move.position).click()
        expect(table.locator(".hk-movelist li")).to_have_count(replica.game.ply)  # the bots have answered
    went = motion(page, "(m, name) => m.title === 'black hat' && m.seat.startsWith(name)", name)
    assert any(near(start(went), back) for back in backs)  # where a back of its hand was (backs look alike)
    settle(page)
    assert near(end(went), middle(seat.and_(page.locator('[title="black hat"]')).last))


def test_hats_a_players_score_lines_opened_stay_open_while_the_game_goes_on(
    hats_table: Locator, replica: HatsTable
) -> None:
    """A reader who opens a total's "how?" reads its lines while the bots play on: every move changes the score
    sheet, and before view.js wrote new markup into the elements it had, each closed the fold again."""
    table = hats_table
    fold = table.locator(".hk-scorepanel details").first
    fold.locator("summary").click()
    expect(fold).to_have_attribute("open", "")
    first_line = table.locator(".hk-movelist li").first
    play_first_exchange(table, replica)
    expect(table.locator(".hk-scorepanel summary").first).to_contain_text(f"Ana: {replica.game.score().totals[0]} ")
    expect(fold).to_have_attribute("open", "")
    expect(table.locator(".hk-movelist li")).to_have_count(replica.game.ply)
    first_move = "; ".join(without_rules(event.text)[0] for event in replica.game.events[0])
    expect(first_line).to_have_text(first_move, use_inner_text=True)


def test_hats_a_score_line_points_at_the_cards_it_counts(hats_table: Locator, replica: HatsTable, page: Page) -> None:
    table = hats_table
    play_first_exchange(table, replica)
    line = next(line for line in replica.game.score().lines_of(0) if line.shows)
    table.locator(".hk-scorepanel summary").first.click()  # Ana's total opens onto her lines
    row = table.locator(f'.hk-scorepanel tr[data-hk-shows="{" ".join(line.shows)}"]')
    row.hover()
    for card in line.shows:  # the collected card, and the table card whose position it scores
        expect(table.locator(".hk-area .hk-card.hk-pointed").filter(has_text=card).first).to_be_visible()
    page.mouse.move(0, 0)
    expect(table.locator(".hk-card.hk-pointed")).to_have_count(0)
    row.focus()  # the keyboard reaches the same pointing
    expect(table.locator(".hk-card.hk-pointed").filter(has_text=line.shows[0]).first).to_be_visible()
