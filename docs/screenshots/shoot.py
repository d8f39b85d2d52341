"""Pictures of every game's table at the start, mid-game and the end, at 1280 px and 390 px, light and dark.

    .venv/bin/python docs/screenshots/shoot.py          # about five minutes; writes docs/screenshots/

Voilà serves the notebooks as `make app` does, and Chromium opens each game page
with a position in its link (``?position=<code>``, widgets/table/links.py), so the
page's own table shows that moment as a student's screen shows it: the
reader's seat, hidden hands face down. The moments come from one seeded game
of greedy bots: its start, the position halfway through, and its end. Each
picture is the page's play table alone; ``gallery.md`` lists them all.
"""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO))

import hatskit  # noqa: E402
from hatskit.bots import make_bot  # noqa: E402
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, app_command, compile_bytecode  # noqa: E402
from tests.conftest import GAME_NOTEBOOKS, free_port  # noqa: E402
from widgets.table.links import position_code  # noqa: E402

PAGES = {game_id: notebook for notebook, game_id in GAME_NOTEBOOKS.items()}  # each game's page
TITLES = {"hats": "Hats", "sombrero": "Sombrero", "hats-off": "Hats Off!", "madder": "Madder than a Hatter"}
MOMENTS = ("start", "mid", "end")
WIDTHS = (1280, 390)
THEMES = ("light", "dark")
SEED = 7  # the deal every picture shows
GALLERY_INTRO = (
    "Each picture is a game page's own table as a student sees it (their seat; other hands face down), opened "
    "with the moment in its link (`?position=`): the start, halfway and the end of one game of greedy bots. "
    "`.venv/bin/python docs/screenshots/shoot.py` makes them all again."
)


def moments(game_id: str) -> dict[str, hatskit.Game]:
    """The game's start, its halfway position and its end, played by seeded greedy bots."""
    game = hatskit.new_game(game_id, seed=SEED)
    bots = [make_bot(game_id, "greedy", seed=seat) for seat in range(len(game.seat_names))]
    while not game.is_over:
        seat = game.acting[0]
        game.play(bots[seat].choose(game.seat_view(seat)))
    return {"start": game.state_at(0), "mid": game.state_at(game.ply // 2), "end": game}


def picture_name(game_id: str, moment: str, width: int, theme: str) -> str:
    return f"{PAGES[game_id]}-{moment}-{width}-{theme}.png"


def shoot(base: str) -> None:
    """Every picture, one page visit each."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        for game_id, page_name in PAGES.items():
            for moment, game in moments(game_id).items():
                code = position_code(game)
                for width in WIDTHS:
                    for theme in THEMES:
                        page = browser.new_page(viewport={"width": width, "height": 3000})
                        page.set_default_timeout(120_000)
                        page.goto(f"{base}/voila/render/{page_name}.ipynb?position={code}&theme={theme}")
                        table = page.locator(".hk-table.hk-main")
                        expect(table.locator(".hk-message")).not_to_be_empty()
                        page.wait_for_timeout(400)  # the last slide of a card ends
                        table.screenshot(path=HERE / picture_name(game_id, moment, width, theme), animations="disabled")
                        page.close()
                        print(picture_name(game_id, moment, width, theme), flush=True)
        browser.close()


def gallery() -> str:
    """The page that shows every picture: a table per game, a row per moment."""
    lines = ["# Every table, at the start, mid-game and the end", "", GALLERY_INTRO, ""]
    for game_id, title in TITLES.items():
        lines += [
            f"## {title}",
            "",
            "| | 1280 px, light | 1280 px, dark | 390 px, light | 390 px, dark |",
            "|---|---|---|---|---|",
        ]
        for moment in MOMENTS:
            cells = [
                f"![{title}, {moment}, {w} px, {t}]({picture_name(game_id, moment, w, t)})"
                for w in WIDTHS
                for t in THEMES
            ]
            lines.append(f"| {moment} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def main() -> None:
    port = free_port()
    compile_bytecode()
    command = [part.replace("{port}", str(port)) for part in app_command(REPO / "notebooks")]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                urllib.request.urlopen(base, timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        shoot(base)
    finally:
        server.terminate()
    page = HERE / "gallery.md"
    page.write_text(gallery() + "\n" + sections_of_others(page.read_text(encoding="utf-8")), encoding="utf-8")


def sections_of_others(text: str) -> str:
    """The sections of the gallery another script's pictures fill (the walkthrough's, from its browser test),
    kept as they are: every ``## `` section whose heading is not a game's."""
    kept = [section for section in text.split("\n## ")[1:] if section.splitlines()[0] not in TITLES.values()]
    return "\n".join(f"## {section}" for section in kept)


if __name__ == "__main__":
    main()
