"""The app in a browser: Voilà serves notebooks/ and Chromium plays Hats by clicks.

The Hats notebook's interactive table (part 5) is rebuilt here from the same
seed and seats, with bots that answer at once (the bots are seeded, so they
play the same moves as in the browser). That replica knows every hidden card
and what the page should say after each click.
"""

from __future__ import annotations

import ast
import json
import re
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

import hatskit
from hatskit.hats import KIND_NAMES, Exchange, cards_of_game
from widgets import HatsTable

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
SCREENSHOT = REPO / "docs" / "hats-table.png"
GAMES = ("Hats", "Hats Off!", "Madder than a Hatter", "Sombrero")
TABLE_CALL = re.compile(
    r'HatsTable\(hatskit\.new_game\("hats", players=(?P<players>\d), seed=(?P<seed>\d+)\), seats=(?P<seats>\([^)]*\))\)'
)


@pytest.fixture
def replica() -> HatsTable:
    """The Hats notebook's interactive table, rebuilt with bots that answer at once."""
    notebook = json.loads((NOTEBOOKS / "hats.ipynb").read_text())
    source = "\n".join("".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code")
    match = TABLE_CALL.search(source)
    assert match, "notebooks/hats.ipynb no longer builds its table as HatsTable(hatskit.new_game(...), seats=...)"
    game = hatskit.new_game("hats", players=int(match["players"]), seed=int(match["seed"]))
    return HatsTable(game, seats=ast.literal_eval(match["seats"]), bot_delay=0)


@pytest.fixture
def open_notebook(page: Page, voila: str, assert_rendered: Callable[[str, Path], None]) -> Callable[[str], None]:
    """A function that loads a notebook as a Voilà page and checks that every cell ran with its code hidden."""

    def load(name: str) -> None:
        page.goto(f"{voila}/voila/render/{name}")  # returns once Voilà has run every cell
        assert_rendered(page.content(), NOTEBOOKS / name)

    return load


@pytest.fixture
def hats_table(open_table: Callable[[str, Path], Locator], voila: str) -> Locator:
    """The Hats notebook's interactive table, the first on the page, once its widgets show."""
    return open_table(voila, NOTEBOOKS / "hats.ipynb")


def hidden_cards(replica: HatsTable) -> set[str]:
    """Every card of the game that the reader's seat may not see now, by symbol and by name."""
    view = replica.game.view(0)
    seen = {*view["hand"], *view["table"], *view["my_black_hats"], *(view["favorites"] or [])}
    seen.update(card for collection in view["collections"] for card in collection)
    hidden = {str(card) for card in cards_of_game(view["players"], replica.game.state.options)} - seen
    return hidden | {KIND_NAMES[card[0]] + card[1:] for card in hidden}


def assert_hides(table: Locator, replica: HatsTable) -> None:
    """No hidden card is anywhere in the table's HTML, hidden elements and tooltips included."""
    markup = table.evaluate("element => element.outerHTML")
    assert all(card in markup for card in replica.game.view(0)["hand"]), "the search misses the cards shown"
    leaked = sorted(card for card in hidden_cards(replica) if card in markup)
    assert not leaked, f"hidden cards reached the browser: {leaked}"


def totals_shown(table: Locator) -> list[str]:
    """The score panel's total rows as text, one per seat."""
    return [" ".join(row.split()) for row in table.locator(".hk-scorepanel tr.hk-total").all_inner_texts()]


def totals_of(replica: HatsTable) -> list[str]:
    """The total rows the score panel should show for the replica's game."""
    totals = replica.game.score().totals
    return [f"{name} total {points}" for name, points in zip(replica.game.seat_names, totals, strict=False)]


def hand_card(table: Locator, card: str) -> Locator:
    """The reader's hand card, found by its tooltip as a screen reader would name it."""
    return table.locator(f'button[title="{card} in your hand"]')


def position(table: Locator, number: int) -> Locator:
    """The tea table's position ``number``, found by its tooltip ("position 2: ♦4")."""
    return table.locator(f'button[title^="position {number}:"]')


def lit_positions(table: Locator) -> set[int]:
    """The table positions highlighted as legal targets."""
    titles = table.locator("button.hk-legal").evaluate_all("buttons => buttons.map(button => button.title)")
    return {int(re.match(r"position (\d+):", title)[1]) for title in titles}


def table_state(table: Locator) -> dict[str, list[str]]:
    """What the table shows apart from the message line: cards with their tooltips, seats, status and score."""
    buttons = table.locator("button").evaluate_all("buttons => buttons.map(b => `${b.textContent}|${b.title}`)")
    lines = [".hk-status", ".hk-seat", ".hk-info", ".hk-scorepanel"]
    return {"buttons": buttons} | {line: table.locator(line).all_inner_texts() for line in lines}


@pytest.mark.parametrize("notebook", sorted(path.name for path in NOTEBOOKS.glob("*.ipynb")))
def test_every_notebook_renders_in_voila_with_its_code_hidden(
    notebook: str, voila: str, assert_rendered: Callable[[str, Path], None]
) -> None:
    with urllib.request.urlopen(f"{voila}/voila/render/{notebook}", timeout=300) as response:
        assert_rendered(response.read().decode(), NOTEBOOKS / notebook)


def test_index_names_every_game_and_links_to_hats(page: Page, open_notebook: Callable[[str], None]) -> None:
    open_notebook("index.ipynb")
    text = page.locator("body").inner_text()
    assert [game for game in GAMES if game not in text] == []
    hrefs = page.eval_on_selector_all("a[href]", "links => links.map(link => link.getAttribute('href'))")
    hats_links = [href for href in hrefs if href.split("?")[0].split("/")[-1] == "hats.ipynb"]
    assert hats_links, f"no link to hats.ipynb among {hrefs}"
    page.locator(f'a[href="{hats_links[0]}"]').first.click()
    page.wait_for_url(re.compile(r"/voila/render/hats\.ipynb"))
    page.locator(".hk-table").first.wait_for()


def play_first_exchange(table: Locator, replica: HatsTable) -> list[str]:
    """Click the reader's first legal exchange, wait for the bots' replies; return the expected narration."""
    move = next(move for move in replica.reader_moves() if isinstance(move, Exchange))
    hand_card(table, str(move.card)).click()
    position(table, move.position).click()
    assert replica.try_move(str(move))
    narration = [str(event) for events in replica.game.events for event in events]
    table.locator(".hk-message").filter(has_text=narration[-1]).wait_for()
    return narration


def test_hats_selecting_a_card_lights_its_legal_positions(hats_table: Locator, replica: HatsTable) -> None:
    table = hats_table
    assert {"black hat", "discard", "hint", "undo"} <= set(table.locator("button").all_inner_texts())
    for card in replica.game.view(0)["hand"][:3]:
        hand_card(table, card).click()
        expected = {m.position for m in replica.reader_moves() if isinstance(m, Exchange) and str(m.card) == card}
        table.locator(f'button.hk-selected[title="{card} in your hand"]').wait_for()
        assert lit_positions(table) == expected


def test_hats_exchange_by_clicks_narrates_scores_and_undoes(hats_table: Locator, replica: HatsTable) -> None:
    table = hats_table
    start, totals_at_start = table_state(table), totals_shown(table)
    assert totals_at_start == totals_of(replica)
    narration = play_first_exchange(table, replica)
    assert narration[0].startswith("Ana exchanged")
    assert table.locator(".hk-message").inner_text().splitlines() == narration
    assert totals_shown(table) == totals_of(replica) != totals_at_start
    hand_card(table, replica.game.view(0)["hand"][0]).click()
    table.locator("button.hk-legal").first.wait_for()
    SCREENSHOT.parent.mkdir(exist_ok=True)
    table.screenshot(path=str(SCREENSHOT), animations="disabled")
    table.get_by_role("button", name="undo", exact=True).click()
    table.locator(".hk-message").filter(has_text="Took back").wait_for()
    assert table_state(table) == start


def test_hats_illegal_exchange_says_why_and_changes_nothing(hats_table: Locator, replica: HatsTable) -> None:
    table = hats_table
    card, number, reason = next(
        (card, number, reason)
        for card in replica.game.view(0)["hand"]
        for number in range(1, len(replica.position_buttons) + 1)
        if (reason := replica.game.why_illegal(f"{card}@{number}")) is not None
    )
    before = table_state(table)
    hand_card(table, card).click()
    position(table, number).click()
    message = table.locator(".hk-message.hk-error")
    message.filter(has_text=reason).wait_for()
    assert message.inner_text() == reason
    assert table_state(table) == before


def test_hats_hidden_cards_never_reach_the_page(hats_table: Locator, replica: HatsTable) -> None:
    table = hats_table
    assert_hides(table, replica)
    play_first_exchange(table, replica)
    assert_hides(table, replica)
