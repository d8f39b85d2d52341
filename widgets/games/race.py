"""The Hats Off! race pad: a small front-end piece that times the reader's answers in the browser.

On Binder or a school network a click reaches the kernel a noticeable while
after it was made, and a flipped card reaches the screen later still. Timed at the
kernel, every race would go to a fast bot. So the pad (a part with its own
script, ``race.js``, drawn by the table's one widget: widgets/toolkit/ui.py) starts a stopwatch when a decision
has been *drawn on screen* (the first animation frame after the change) and
stops it at the reader's click or key press; the answer goes to the kernel
with that reaction time. The table settles races on such times (O3), so how
long messages take on the way never decides a race. With no answer after
``timeout`` seconds the pad passes, timed in the browser too. At a table
shared with classmates (widgets/table/shared.py) the kernel settles nothing:
it passes the answer, action and time, on to the table host's ``answer`` op,
and the host settles the race on each device's own times, each measured from
when that device's own screen showed the card.

The pad shows what the table gives it, all from the reader's own view: the
top card of the pile, the loose cards, the reader's hand and (only while the
table shows it) the reader's head card. Nothing of another seat is synced.

Keys: 1-4 a hand card, H the head card, space bar "Hats Off!", P pass,
F flip. The prompt names the keys of the moment (``keys``); a phone or a tablet,
which has none, is shown no keys. A card carried from the hand or the head onto
the pile's top card (mouse or finger) is played when it is let go, and timed
then; let go anywhere else, it goes back and nothing is played. A decision
carries a number (``turn``); an answer to an older one is ignored, so a late
message can never count in a newer race. ``hint`` names the action the table
points at (a lesson's step): its button is marked ``hk-hint``.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, TypedDict

import traitlets

from hatskit.games.hats_off import KINDS, MAX_MS, HatsOffView
from hatskit.games.hats_off.render import STYLE, hat_card_html
from widgets.toolkit import ui

PAD_CSS = """
.hk-race { outline: none; padding: 8px; border: 2px solid #ccc; border-radius: 10px; background: #fbfaf5;
  display: flex; flex-direction: column; align-items: center; gap: 6px; max-width: 40em; }
.hk-race:focus-within, .hk-race:focus { border-color: #1f6fd1; }
.hk-race-prompt { font-weight: 700; text-align: center; min-height: 1.3em; }
.hk-race-centre { display: flex; align-items: center; justify-content: center; gap: 14px; flex-wrap: wrap;
  min-height: 9.5em; }
.hk-race .hk-race-big { transform: scale(1.7); margin: 36px 40px; }
.hk-race-note { color: #555; font-size: .85em; text-align: center; }
.hk-race-loosecard { display: flex; flex-direction: column; align-items: center; max-width: 7em;
  font-size: .8em; text-align: center; }
.hk-race-result { min-height: 1.3em; text-align: center; font-weight: 600; color: #6b3e1f; }
.hk-race-you { display: flex; gap: 18px; align-items: flex-end; flex-wrap: wrap; justify-content: center; }
/* A caption sits clear of the cards under it, and the cards of a hand clear of each other, with their hint's
   dotted ring (3 px, 3 px out) around them: "your hand" lay on the second card's ring. */
.hk-race-caption { font-size: .8em; color: #555; text-align: center; margin-bottom: 7px; }
.hk-race-hand { display: flex; gap: 12px; flex-wrap: wrap; justify-content: center; }
.hk-race-btn { position: relative; border: 2px solid #888; border-radius: 8px; background: #fff; padding: 3px;
  cursor: pointer; font: inherit; min-height: 2.6em; }
.hk-race-btn:focus-visible { outline: 3px solid #1f6fd1; outline-offset: 2px; }
.hk-race-btn kbd { position: absolute; right: 3px; bottom: 2px; font-size: .75em; background: #eee;
  border: 1px solid #aaa; border-radius: 3px; padding: 0 3px; }
.hk-race-btn.hk-race-off { cursor: default; opacity: .5; border-style: dashed; }
.hk-race-btn.hk-hint { outline: 3px dotted #d35400; outline-offset: 3px; }
.hk-race :is(.hk-race-card, .hk-race-head) { touch-action: none; user-select: none; }  /* a finger carries a card */
.hk-race-ghost { position: fixed; left: 0; top: 0; z-index: 1000; pointer-events: none; transform: rotate(-4deg);
  box-shadow: 0 6px 14px rgba(0, 0, 0, .3); }
.hk-race-btn.hk-race-carried { opacity: .45; border-style: dotted; }
.hk-race-top.hk-race-drop { outline: 3px dashed #1b7a2e; outline-offset: 4px; border-radius: 10px;
  background: #eefbe9; }
/* The face-down head card is as large as a face-up one (its "?" drawn larger), and peeking thickens the border
   into the padding: the hand beside it stays put when the head card turns over. */
.hk-race-head .hk-back { display: inline-flex; width: calc(4.4em / 1.4); height: calc(4.6em / 1.4); margin: 2px;
  border: 2px solid #444; border-radius: 6px; align-items: center; justify-content: center; font-size: 1.4em; }
.hk-race-peek { border-color: #b8860b; border-style: double; border-width: 4px; padding: 1px; }
.hk-race-actions { display: flex; gap: 8px; flex-wrap: wrap; justify-content: center; }
.hk-race-actions .hk-race-btn { padding: 6px 14px; font-weight: 700; }
.hk-race-call { background: #fff1b8; }
/* A phone or a tablet has no keys: under a finger the key hints (the cards' numbers, the buttons' letters, the
   prompt's keys) are left out. */
@media (hover: none) and (pointer: coarse) { .hk-race :is(kbd, .hk-keys) { display: none; } }
.hk-race-keys { font-weight: 400; }
.hk-race-clock { width: 60%; height: 6px; background: #eee; border-radius: 3px; overflow: hidden; }
.hk-race-bar { height: 100%; background: #1f6fd1; transform: scaleX(0); transform-origin: left center; }
.hk-race-said { min-height: 1.2em; font-size: .9em; color: #333; }
@media (max-width: 480px) { .hk-race .hk-race-big { transform: scale(1.35); margin: 22px 24px; } }
body[data-jp-theme-light="false"] .hk-race { background: #23252b; border-color: #5a5d66; color: #eeeeee; }
body[data-jp-theme-light="false"] .hk-race-btn { background: #30343c; color: #eeeeee; border-color: #8a8d96; }
body[data-jp-theme-light="false"] .hk-race-call { background: #5c4a00; }
body[data-jp-theme-light="false"] .hk-race-top.hk-race-drop { outline-color: #7fd68a; background: #1f3a24; }
body[data-jp-theme-light="false"] .hk-race-btn kbd { background: #44474f; color: #eeeeee; border-color: #7a7d86; }
body[data-jp-theme-light="false"] .hk-race-result { color: #f2c894; }
body[data-jp-theme-light="false"] :is(.hk-race-said, .hk-race-note, .hk-race-caption) { color: #d8d8d8; }
body[data-jp-theme-light="false"] .hk-race-clock { background: #44474f; }
body[data-jp-theme-light="false"] .hk-race-bar { background: #6fa8f0; }
"""

ACTIONS = ("head", "off", "pass", "flip")
WEAR = "wear "


class Answer(NamedTuple):
    """What the reader chose in the browser, and how long after the decision was drawn (seconds)."""

    action: str  # a hat (play it from the hand), "wear <hat>", "head", "off", "pass" or "flip"
    seconds: float


class LooseCard(TypedDict):
    """A loose card as the pad draws it: its hat and a sentence naming where it came from."""

    kind: str
    label: str


class RacePad(ui.Custom):
    """The browser side of a Hats Off! table; see the module docstring."""

    script = "race.js"
    css_text = STYLE + PAD_CSS

    turn = traitlets.Int(0).tag(sync=True)
    phase = traitlets.Unicode("over").tag(sync=True)
    prompt = traitlets.Unicode("").tag(sync=True)
    keys = traitlets.Unicode("").tag(sync=True)  # the keys for what the prompt asks ("Press F."), or ""
    result = traitlets.Unicode("").tag(sync=True)
    top = traitlets.Unicode(None, allow_none=True).tag(sync=True)
    under = traitlets.Int(0).tag(sync=True)
    loose = traitlets.List(traitlets.Dict()).tag(sync=True)
    hand = traitlets.List(traitlets.Unicode()).tag(sync=True)
    has_head = traitlets.Bool(False).tag(sync=True)
    head = traitlets.Unicode(None, allow_none=True).tag(sync=True)
    can_act = traitlets.Bool(False).tag(sync=True)
    can_call = traitlets.Bool(False).tag(sync=True)
    answer = traitlets.Unicode("").tag(sync=True)
    hint = traitlets.Unicode("").tag(sync=True)  # the action the table points at ("fez", "head", "flip"...), or ""
    timeout = traitlets.Float(4.0).tag(sync=True)
    cards = traitlets.Dict().tag(sync=True)

    def __init__(self, on_answer: Callable[[Answer], None], timeout: float = 4.0) -> None:
        super().__init__(timeout=timeout, cards={kind: hat_card_html(kind) for kind in KINDS})
        self.on_answer = on_answer
        self.on_msg(self._received)

    def open_turn(self, **shown: Any) -> None:
        """Show a new decision (the traits in ``shown``); the browser times answers from when it is drawn."""
        self.answer = ""
        self.turn += 1
        for name, value in shown.items():
            setattr(self, name, value)

    def update(self, **shown: Any) -> None:
        """Change what is shown without opening a new decision (a head card hidden, an answer taken)."""
        for name, value in shown.items():
            setattr(self, name, value)

    def _received(self, _: Any, content: dict[str, Any], buffers: Sequence[bytes]) -> None:
        """An answer from the browser: kept if it is for the decision on screen and well formed."""
        del buffers
        answer = read_answer(content, self.turn, self.hand)
        if answer is not None:
            self.on_answer(answer)


def read_answer(content: Any, turn: int, hand: Sequence[str]) -> Answer | None:
    """The answer in a browser message, or None when it is stale (another turn) or malformed."""
    if not isinstance(content, dict) or content.get("turn") != turn:
        return None
    action, seconds = content.get("answer"), content.get("seconds")
    if not isinstance(seconds, int | float) or isinstance(seconds, bool) or not math.isfinite(seconds):
        return None
    known = action in ACTIONS or action in hand or (isinstance(action, str) and action.removeprefix(WEAR) in hand)
    if not known:
        return None
    return Answer(str(action), min(max(float(seconds), 0.0), MAX_MS / 1000))


def loose_cards(view: HatsOffView) -> list[LooseCard]:
    """The loose cards of a view, each with where it came from (public: they lie face up)."""
    names = view["names"]
    told = []
    for card in view["loose"]:
        owner = names[card["owner"]]
        how = f"fell off {owner}'s head" if card["fell"] else f"wrongly played by {owner}"
        told.append(LooseCard(kind=card["kind"], label=html.escape(f"{card['kind']}: {how}")))
    return told
