"""Classmates at their own laptops, in Chromium: *Play with classmates…*, one table, each hand on its own screen.

Maya (1280 px, light) opens a table from the page's fold and reads its code from the lobby; Ben (390 px, dark,
reduced motion) opens the page's link with ``?table=CODE``, types his name and joins, and at a table of four (Hats,
Madder, Hats Off!) so do Cleo (1280 px, dark) and Dan (390 px, light, reduced motion); Maya presses *Start* (at a
Madder table of three a bot takes the seat left). Hats, Madder and Hats Off! are played by two browsers and by
four; Sombrero, a game of two, by two below and in test_host_restart_in_browser.py.
Every main table then plays the game by clicks, keys and drag, as tests/browser/student.py's student does, until it
ends. Every frame each browser receives on its kernel's websocket is recorded, and after each move the frames for
the main table are searched for the cards the host's game hides from that seat (tests/test_tablehost.py's
``hidden_from``), less the cards the seat has seen in its own views. Ben then reloads the link and is back at his
seat.

The table host runs in this test's process, on a loop of its own thread, so the test can read the host's game
(only to know what is hidden: never to play); Voilà serves the pages as `make app` does, its kernels told the
host's address (TABLETOP_URL).
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import WIDGET_TIMEOUT_MS, HostThread, snap
from tests.browser.student import ORDER, PATIENCE, STUDENTS, Kernel, Seen, Student, kernel_message, moved_on, press_one
from tests.test_tablehost import card_ids, hidden_from, pattern

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page, WebSocket


MAIN = ".hk-table.hk-main"
BLACK = Student('button.hk-sq[title*=": Black, hatted"]', 600)  # Sombrero's student who sits at Black
PRESSES = 1500  # presses the classmates make at most in a whole game (Madder's three rounds, a Hats Off! match)


@dataclass
class Laptop:
    """One classmate's browser: their page, its kernel's messages, and every widget frame it received."""

    name: str
    page: Page
    kernel: Kernel
    dark: bool  # the page opened in the dark theme (``theme=dark`` in its address)
    received: list[tuple[str, str]] = field(default_factory=list)  # (comm id, the message's JSON text)
    sent_to: list[str] = field(default_factory=list)  # the comm ids of the widget messages the page sent

    @classmethod
    def open(cls, browser: Browser, name: str, width: int, dark: bool = False, still: bool = False) -> Laptop:
        """A browser of its own for ``name``: ``width`` px wide, asking for reduced motion if ``still``."""
        motion = "reduce" if still else "no-preference"
        context = browser.new_context(viewport={"width": width, "height": 900}, reduced_motion=motion)
        page = context.new_page()
        page.set_default_timeout(WIDGET_TIMEOUT_MS)
        laptop = cls(name, page, Kernel(page), dark)
        page.on("websocket", laptop._watch)
        return laptop

    @property
    def look(self) -> str:
        """Its width and theme, as its screenshots are named: ``390-dark``."""
        return f"{self.page.viewport_size['width']}-{'dark' if self.dark else 'light'}"  # type: ignore[index]

    def _watch(self, socket: WebSocket) -> None:
        socket.on("framereceived", lambda frame: self._note(frame, self.received))
        socket.on("framesent", lambda frame: self._note(frame, None))

    def _note(self, frame: str | bytes, into: list[tuple[str, str]] | None) -> None:
        header, _, content = kernel_message(frame)
        if header.get("msg_type") != "comm_msg":
            return
        if into is None:
            self.sent_to.append(content.get("comm_id", ""))
        else:
            into.append((content.get("comm_id", ""), json.dumps(content.get("data"), ensure_ascii=False)))

    @property
    def table(self) -> Locator:
        return self.page.locator(MAIN)

    @property
    def fold(self) -> Locator:
        return self.table.locator(".hk-classmates")

    def open_page(self, url: str, query: str = "") -> None:
        """The page at ``url`` with ``query`` (``table=CODE``) and the laptop's theme in its address."""
        query = "&".join(part for part in (query, "theme=dark" if self.dark else "") if part)
        self.page.goto(f"{url}?{query}" if query else url)
        expect(self.fold).to_be_attached()

    def sit(self, button: str) -> str:
        """Type the name, press ``button`` ("open a table", "join"): the main table's comm id (the press's)."""
        if not self.fold.get_by_label("your name").is_visible():
            self.fold.locator("summary").first.click()
        self.fold.get_by_label("your name").fill(self.name)
        self.fold.get_by_role("button", name=button, exact=True).click()
        expect(self.fold.locator(".hk-lobby")).to_contain_text("Table ")
        return next(comm for comm in reversed(self.sent_to) if comm)


def seat_together(laptops: list[Laptop], url: str, players: str = "") -> tuple[str, dict[str, str]]:
    """The first laptop opens a table (for ``players``) from the page's fold; each other opens its link and joins,
    one after the other, so the n-th sits at seat n. The table's code, and each one's main table's comm id."""
    opener, *classmates = laptops
    opener.open_page(url)
    if players:
        opener.fold.locator("summary").first.click()
        opener.fold.get_by_role("radio", name=players, exact=True).click()
    comms = {opener.name: opener.sit("open a table")}
    code = re.search(r"Table ([A-Z]{5})", opener.fold.locator(".hk-lobby").inner_text())[1]  # type: ignore[index]
    snap(opener.page, f"classmates-lobby-{opener.name.lower()}")
    for laptop in classmates:
        laptop.open_page(url, f"table={code}")
        expect(laptop.fold.get_by_label("table code")).to_have_value(code)
        comms[laptop.name] = laptop.sit("join")
    return code, comms


# Each game whose hidden cards must stay hidden, by two browsers and by four: its page, the players pill pressed
# (none: the first offered, with a bot in the seat nobody took), and how many classmates sit down.
HIDING = {
    "hats-2": ("hats", "2", 2),
    "hats-4": ("hats", "4", 4),
    "madder-2": ("madder_than_a_hatter", "", 2),
    "madder-4": ("madder_than_a_hatter", "4", 4),
    "hats-off-2": ("hats_off", "2", 2),
    "hats-off-4": ("hats_off", "4", 4),
}
# Each classmate's laptop: name, width, dark theme, reduced motion (Ben's and Dan's phones-width pages ask for it, as
# a student's settings may: a shared table is played both with the cards' slides and without).
CLASS = (("Maya", 1280, False, False), ("Ben", 390, True, True), ("Cleo", 1280, True, False), ("Dan", 390, False, True))


@pytest.mark.parametrize("game", HIDING)
def test_classmates_play_to_the_end_each_browser_sent_only_what_their_seat_may_see(
    browser: Browser, own_app: str, own_host: HostThread, game: str
) -> None:
    page, players, seated = HIDING[game]
    laptops = [Laptop.open(browser, *laptop) for laptop in CLASS[:seated]]
    maya, ben = laptops[:2]
    code, comms = seat_together(laptops, f"{own_app}/voila/render/{page}.ipynb", players=players)
    for laptop in laptops[1:]:
        expect(laptop.fold.locator(".hk-lobby")).to_contain_text("Waiting for Maya to press Start.")
        expect(maya.fold.locator(".hk-lobby")).to_contain_text(f"{laptop.name}, connected")
    maya.fold.get_by_role("button", name="Start", exact=True).click()
    for laptop in laptops:
        expect(laptop.fold).to_be_hidden()
        snap(laptop.page, f"classmates-{game}-{laptop.name.lower()}-{laptop.look}")
    secrets = Secrets(own_host, code, comms)
    seens = [Seen(STUDENTS[page]) for _ in laptops]
    presses = play_together(laptops, seens, random.Random(f"classmates {game}"), all_over, secrets.check)
    assert own_host.read(lambda: own_host.server.host.tables[code].game.is_over)
    secrets.check_searched()
    print(f"{presses} presses; {secrets.checked} searches of the frames for hidden cards")
    ben.page.reload()
    expect(ben.table.locator(".hk-status")).to_contain_text("The game is over")
    expect(ben.fold).to_be_hidden()


@dataclass
class Secrets:
    """The cards the host's game hides from each seat, searched for in the frames its browser's main table got."""

    own_host: HostThread
    code: str
    comms: dict[str, str]  # each classmate's main table's comm id
    seen: dict[str, int] = field(default_factory=dict)  # frames searched so far, by classmate
    own_named: dict[str, int] = field(default_factory=dict)  # frames that named the seat's own hand, by classmate
    checked: int = 0
    known: dict[int, set[str]] = field(default_factory=dict)  # cards each seat's own views have shown so far
    plies_read: dict[int, int] = field(default_factory=dict)  # the views of each seat read for them: plies 0 to n-1
    told: set[str] = field(default_factory=set)  # cards the narration, which every seat reads, has named
    events_read: int = 0

    def check(self, laptops: list[Laptop]) -> None:
        for seat, laptop in enumerate(laptops):
            hidden, own = self.own_host.read(lambda seat=seat: (self._hidden(seat), self._own(seat)))
            frames = laptop.received[self.seen.get(laptop.name, 0) :]
            self.seen[laptop.name] = self.seen.get(laptop.name, 0) + len(frames)
            for comm, text in frames:
                if comm != self.comms[laptop.name]:
                    continue  # the page's other tables (the lesson, the examples) deal games of their own
                leaks = [card for card in hidden if pattern(card).search(text)]
                assert not leaks, f"{laptop.name}'s browser was sent {leaks}: {text[:300]}"
                named = any(pattern(card).search(text) for card in own)
                self.own_named[laptop.name] = self.own_named.get(laptop.name, 0) + named
            self.checked += 1

    def check_searched(self) -> None:
        """The search could have found a card: the same frames name each seat's own hand in the searched form."""
        assert self.checked > 10, f"the frames were searched after each move ({self.checked} searches)"
        assert all(self.own_named.get(name) for name in self.comms), f"own cards named: {self.own_named}"

    def _own(self, seat: int) -> set[str]:
        game = self.own_host.server.host.tables[self.code].game
        return set(game.view(seat).get("hand") or [])

    def _hidden(self, seat: int) -> set[str]:
        """What ``seat`` may not know now: hidden from it, and never shown in any of its own views so far, nor named
        by the narration. It runs on the host's loop, which the pages' moves wait for: each view and event is read
        once, as it comes (the seat's views and the events only grow: a shared table has no undo)."""
        game = self.own_host.server.host.tables[self.code].game
        if game.is_over:
            return set()  # the end shows every hand's favourite hat (H6)
        ids, first = card_ids(game), self.plies_read.get(seat, 0)
        views = json.dumps([game.view_at(ply, seat) for ply in range(first, game.ply + 1)], ensure_ascii=False)
        self.plies_read[seat] = game.ply + 1
        self.known.setdefault(seat, set()).update(card for card in ids if pattern(card).search(views))
        told = " ".join(event.text for events in game.events[self.events_read :] for event in events)
        self.events_read = len(game.events)
        self.told.update(card for card in ids if pattern(card).search(told))
        return hidden_from(game, seat) - self.known[seat] - self.told


Looks = list[dict[str, Any]]


def play_together(
    laptops: list[Laptop], seens: list[Seen], rng: random.Random, done: Callable[[Looks], bool], after: Any = None
) -> int:
    """Whoever's table offers something to press presses what a student would (in a race several may: one of them,
    at random), until ``done(what each table shows)``; ``after(laptops)`` after every press. It fails when
    no table offers anything for as long as a move may take. The number of presses."""
    stuck_since = time.monotonic()
    for presses in range(PRESSES):
        looks = [seen.look(laptop.table) for seen, laptop in zip(seens, laptops, strict=True)]
        if done(looks):
            return presses
        ready = [at for at, now in enumerate(looks) if not now["over"] and any(now[kind] for kind in ORDER)]
        if not ready:  # a classmate's move, or the host's bot, is on its way to these tables
            assert time.monotonic() - stuck_since < PATIENCE / 1000, f"nothing to press: {[*map(status, laptops)]}"
            laptops[0].page.wait_for_timeout(50)
            continue
        at = rng.choice(ready)
        laptop, now, seen = laptops[at], looks[at], seens[at]
        kind = next(kind for kind in ORDER if now[kind])
        name = press_one(laptop.table, laptop.kernel, kind, int(now[kind]), rng, seen)
        if name is not None and kind == "allowed":  # a move played, or a hat picked up that starts several choices
            failure = f"{name} was marked as allowed, and pressing it played nothing"
            moved_on(laptop.table, int(now["moves"]), failure, picked=True)
        stuck_since = time.monotonic()
        if after is not None:
            after(laptops)
    pytest.fail(f"not done after {PRESSES} presses")


def status(laptop: Laptop) -> str:
    return " ".join(laptop.table.locator(".hk-status").inner_text().split())


def all_over(looks: Looks) -> bool:
    return all(now["over"] for now in looks)


def moves_played(laptops: list[Laptop], seens: list[Seen], rng: random.Random, moves: int) -> None:
    """``moves`` more moves played, seen on every table."""
    start = max(seen.look(laptop.table)["moves"] for seen, laptop in zip(seens, laptops, strict=True))
    play_together(laptops, seens, rng, lambda looks: min(now["moves"] for now in looks) >= start + moves)


def test_a_classmate_who_reloads_mid_game_is_back_at_their_seat_and_plays_on(
    browser: Browser, own_app: str, own_host: HostThread
) -> None:
    maya, ben = Laptop.open(browser, "Maya", 1280), Laptop.open(browser, "Ben", 1280)
    code, _ = seat_together([maya, ben], f"{own_app}/voila/render/sombrero.ipynb")
    expect(maya.fold.get_by_role("button", name="Start", exact=True)).to_be_enabled()
    maya.fold.get_by_role("button", name="Start", exact=True).click()
    rng, seens = random.Random("reload"), [Seen(STUDENTS["sombrero"]), Seen(BLACK)]
    moves_played([maya, ben], seens, rng, moves=3)
    ben.page.reload()  # the browser kept his seat: the page goes back to it by itself
    expect(ben.fold).to_be_hidden()
    expect(ben.table).to_contain_text("Black (you)")
    expect(ben.table.locator(".hk-movelist > li")).to_have_count(
        own_host.read(lambda: own_host.server.host.tables[code].game.ply)
    )
    moves_played([maya, ben], [Seen(STUDENTS["sombrero"]), Seen(BLACK)], rng, moves=3)
