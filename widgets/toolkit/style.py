"""The look of the views: hatskit's shared style sheet plus what the parts need.

view.js draws a button part as ``<button class="hk-btn ...">`` with the
description as its text and the tooltip as its ``title``; it also carries
ipywidgets' ``jupyter-button`` class, for the look of the buttons around it in
JupyterLab and Voilà, light and dark. The rules below turn such a button into a
card: a ``hk-cardbtn`` button's face is the game renderer's card (``hk-card`` and a type class such as
``hk-k-heart``, from :data:`hatskit.drawing.CSS`), and the marks of its roles go on that card:
``hk-legal`` a target the selected piece may take, ``hk-selected`` the chosen
piece, ``hk-hint`` the strong bot's suggestion, ``hk-changed`` a card the last
moves changed (a corner star). Every mark changes the border *shape* or adds a
sign as well as a colour, so none is told by colour alone.
``hk-hidden`` hides a part (:func:`widgets.toolkit.parts.show`). A fold (the set-up's
*New game…*) is a ``<details>`` whose summary looks like a button. On a narrow
table (:func:`narrow`, a phone) every control is at least 44 px on its short side. A short choice is a row of
pills (``hk-pill`` in ``hk-choices``, :class:`widgets.toolkit.ui.Choices`), the chosen one ticked and filled.
"""

from __future__ import annotations

from hatskit.drawing import CSS

WIDGET_CSS = """
/* A move exercise (widgets/teaching/exercise.py) is laid out as a table on a phone, and says its verdict in the
   theme's colours, a sign (✔, ✘) as well as the colour. */
:is(.hk-table, .hk-exercise) { gap: 4px; container: hk-table / inline-size; }
.hk-table { font-family: system-ui, sans-serif; }
/* A projector or a wide screen (a teacher leading a walkthrough, 1920 px): the table, its board and its folds
   drawn a third larger, to be read from the back of a room; every size inside is in em. */
@media (min-width: 1600px) { .hk-table { font-size: 1.3em; } }
.hk-exercise .hk-verdict.hk-good { color: #1b5e20; }
.hk-exercise .hk-verdict.hk-bad { color: #b00020; }
body[data-jp-theme-light="false"] .hk-exercise .hk-verdict.hk-good { color: #8fdc97; }
body[data-jp-theme-light="false"] .hk-exercise .hk-verdict.hk-bad { color: #ff9e9e; }
.hk-hidden { display: none !important; }
.hk-table .hk-btn.hk-legal { border: 3px dashed #1b7a2e; background: #eefbe9; color: #1a1a1a; }
.hk-table .hk-btn.hk-selected { border: 4px double #b8860b; background: #fff1b8; color: #1a1a1a; }
.hk-table .hk-btn.hk-hint { outline: 3px dotted #d35400; outline-offset: 2px; }
/* A card button is the renderer's card (its face) and nothing around it: the marks go on the card. */
.hk-table .hk-btn.hk-cardbtn:is(*, .hk-legal, .hk-selected, .hk-changed) { width: auto; height: auto; padding: 0;
  margin: 2px; border: none; background: none; box-shadow: none; line-height: normal; font-size: inherit;
  color: inherit; border-radius: 7px; }
.hk-table .hk-btn.hk-cardbtn:disabled { opacity: 1; cursor: default; }
.hk-table .hk-cardbtn > .hk-card { margin: 0; }
.hk-table :is(.hk-cardbtn, .hk-sq) { touch-action: none; }  /* a finger drags a card rather than scroll the page */
.hk-ghost { position: fixed; z-index: 1000; pointer-events: none; transform: rotate(-4deg);
  opacity: .9; margin: 0; border: none; background: none; padding: 0; }
.hk-table .hk-card { position: relative; }  /* a sliding card passes over the others (view.js) */
.hk-table .hk-cardbtn.hk-big > .hk-card { width: 2.8em; height: 3.8em; font-size: 1.25em; }
.hk-table .hk-cardbtn.hk-legal > .hk-card { border: 3px dashed #1b7a2e; background: #eefbe9; }
.hk-table .hk-cardbtn.hk-selected > .hk-card { border: 4px double #b8860b; background: #fff1b8; }
.hk-table .hk-btn.hk-action.hk-hint { font-weight: 700; }
/* The cards a hovered or focused score line counts (view.js): a thick ring and a lift, not colour alone. */
.hk-table .hk-card.hk-pointed { outline: 4px solid #d35400; outline-offset: 1px; transform: translateY(-3px); }
.hk-table .hk-btn.hk-sq.hk-pointed { outline: 3px solid #d35400; outline-offset: -3px;
  box-shadow: inset 0 0 0 5px #fff; }  /* a square: ringed inside, its piece left clear */
.hk-table .hk-panel tr[data-hk-shows]:is(:hover, :focus) { background: #fff1b8; color: #1a1a1a; }
.hk-table .hk-message { min-height: 1.6em; padding: 2px 6px; border-left: 4px solid #888; background: #f7f5ef; }
.hk-table .hk-message.hk-error { border-left: 4px dashed #b00020; color: #b00020; }
.hk-table .hk-status { font-weight: 600; }
.hk-table .hk-poslabel { text-align: center; color: #555; font-size: .85em; }
/* Seats around the table (widgets/table/seating.py): the others across the top, side by side and wrapping, the middle
   (tea table, assembly line, pile) on a green cloth, the reader's own seat below it. The cards a seat panel
   draws are small; the reader's hand buttons keep their size. */
.hk-table .hk-others { align-self: stretch; justify-content: center; align-items: stretch; gap: 8px; }
.hk-table .hk-others > .hk-seatpanel { flex: 1 1 18em; max-width: 36em; }
.hk-table .hk-middle { align-self: stretch; align-items: center; gap: 2px; }
.hk-table .hk-own { align-self: stretch; align-items: center; }
.hk-table .hk-own > .hk-seatpanel { max-width: 100%; }
.hk-table .hk-seatpanel > .hk-hbox { align-items: center; }
.hk-table .hk-seatcards .hk-card { width: 1.7em; height: 2.4em; font-size: .85em; }
body[data-jp-theme-light="false"] .hk-table .hk-middle .hk-poslabel { color: #c8c8c8; }
.hk-table .hk-changed { position: relative; }
.hk-table .hk-changed:not(.hk-cardbtn), .hk-table .hk-cardbtn.hk-changed > .hk-card { box-shadow: 0 0 0 3px #7a4fc2; }
.hk-table .hk-changed::before { content: "✱"; position: absolute; top: 0; right: .15em; font-size: .7em;
  line-height: 1; color: #7a4fc2; }
.hk-table .hk-top { align-items: flex-start; gap: 4px 10px; padding-bottom: 4px; border-bottom: 1px solid #ddd; }
.hk-table .hk-top > .hk-fold { flex: 1 1 auto; }
/* The teacher's toggle sits at the table's right edge: room for its focus ring, which the table's box would cut. */
.hk-table .hk-top > .hk-toggle { margin: 7px 8px 2px 2px; }
/* A button that builds a table when pressed (widgets/toolkit/later.py) is a finger tall on every screen. */
.hk-request .hk-btn { min-height: 44px; }
/* A fold (widgets/toolkit/ui.py Fold) is <details>: its summary looks like a button, with a sign of open or closed. */
.hk-fold > .hk-summary { list-style: none; width: max-content; max-width: 100%; }
.hk-fold > .hk-summary::-webkit-details-marker { display: none; }
.hk-fold > .hk-summary::before { content: "▸" / ""; display: inline-block; width: 1em; }
.hk-fold[open] > .hk-summary::before { content: "▾" / ""; }
/* An open fold (New game…, Share…) is a card laid on the table, not a bare form. */
.hk-fold-body { flex-direction: column; gap: 4px; margin: 4px 0 2px; padding: 8px 10px; border: 1px solid #d8d2c0;
  border-radius: 10px; background: #faf8f1; }
body[data-jp-theme-light="false"] .hk-fold-body { background: #26282e; border-color: #5a5d66; }
.hk-fold-body > .hk-hbox { align-items: center; gap: 2px 10px; }
.hk-fold-body > .hk-hbox:empty { display: none; }
.hk-fold-body > .hk-btn { align-self: flex-start; }
.hk-fold-body .hk-field input[type=text] { width: 10em; }
.hk-fold-body .hk-field input[type=number] { width: 5em; }
.hk-table .hk-message details { display: inline-block; margin-left: .5em; }
.hk-table .hk-rule { font-size: .8em; color: #555; text-decoration: underline dotted; cursor: help; }
.hk-table .hk-panel .hk-lead { margin: 2px 0 4px; }
.hk-table .hk-panel details { margin: 1px 0; }
.hk-table .hk-panel summary { cursor: pointer; }
.hk-table .hk-panel summary .hk-how { color: #555; font-size: .85em; }
/* The focus ring: 3 px of dark blue in a white halo, on every card and square whatever its marks, on
   keyboard and mouse focus alike (beats ipywidgets' 1 px `.hk-btn:focus:enabled`). */
.hk-table.hk :is(button, .hk-btn):is(:focus, :focus-visible), .hk-table.hk .hk-area:focus-visible {
  outline: 3px solid #1747a6; outline-offset: 2px; box-shadow: 0 0 0 6px #fff; z-index: 1; }
.hk-skip { position: absolute; left: -9999px; top: 0; z-index: 1000; padding: 8px 12px; background: #1747a6;
  color: #fff; font-weight: 700; }
.hk-skip:focus { left: 8px; top: 8px; }
/* The controls read as a game's, not a form's: a step bar (first, back, the move and its slider, forward,
   last) with round buttons that show a drawn sign, their names kept for screen readers (.hk-sr); and the
   sharing folded under one Share… button. */
.hk-sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.hk-table .hk-controls { align-items: center; gap: 4px 8px; }
.hk-table .hk-stepbar { align-items: center; gap: 2px; padding: 2px 6px; border: 1px solid #bbb;
  border-radius: 999px; background: #f4f1e8; flex-wrap: nowrap; max-width: 100%; }
.hk-table .hk-stepbar .hk-btn.hk-step { position: relative; display: inline-flex; align-items: center;
  justify-content: center; width: 32px; height: 32px; padding: 0; border-radius: 50%; }
.hk-table .hk-stepbar .hk-slider { flex-direction: column; align-items: stretch; gap: 0; min-width: 0;
  flex: 1 1 11em; margin: 0 4px; }
.hk-table .hk-stepbar .hk-fieldname { font-size: .85em; text-align: center; white-space: nowrap; }
.hk-table .hk-stepbar .hk-slider input[type=range] { min-width: 0; width: 100%; margin: 0; }
.hk-table .hk-share { padding-top: 4px; border-top: 1px solid #ddd; }
body[data-jp-theme-light="false"] .hk-table .hk-stepbar { background: #2b2d33; border-color: #666; }
/* Brief movement where a card or a hat has just moved (none for readers who ask for reduced motion). A
   picked or lit card changes colour at once, without a fade, and an arriving card slides without growing:
   every frame of movement is drawn again on every tab of a class (benchmarks/README.md, issue 9). */
.hk-table .hk-btn.hk-changed { animation: hk-arrive .3s ease-out; }
.hk-table .hk-sq.hk-moved { animation: hk-flash .5s ease-out; }
@keyframes hk-arrive { from { transform: translateY(-8px); } to { transform: none; } }
@keyframes hk-flash { from { filter: brightness(1.35); } to { filter: none; } }
/* A card slides out of its button and into another (view.js): the buttons let it show on its way. */
.hk-table .hk-btn.hk-cardbtn { overflow: visible; }
/* A hat moving on a board (view.js: a Sombrero hat jump, a capture): the top of the hatted picture, on the
   square's ::after, gliding over the squares it passes; the square beneath shows the piece without it. */
.hk-table .hk-btn.hk-sq.hk-hat-moving { overflow: visible; }
.hk-table .hk-btn.hk-sq.hk-hat-moving::after { content: ""; position: absolute; inset: 0; z-index: 5;
  pointer-events: none; background-image: var(--hk-hat); background-size: inherit; background-repeat: no-repeat;
  background-position: center; clip-path: inset(0 0 45% 0); }
@media (prefers-reduced-motion: reduce) { .hk-table * { transition: none !important; animation: none !important; } }
/* A row that scrolls sideways (a phone's lessons, PHONE_CSS) fades out at an edge where more of it lies: the
   fades follow the scrolling (a scroll timeline, no motion of their own), and a row that fits shows none. */
@property --hk-fade-start { syntax: "<length>"; inherits: false; initial-value: 0px; }
@property --hk-fade-end { syntax: "<length>"; inherits: false; initial-value: 0px; }
@keyframes hk-fade-edges { from { --hk-fade-start: 0px; --hk-fade-end: 32px; }
  10%, 90% { --hk-fade-start: 32px; --hk-fade-end: 32px; } to { --hk-fade-start: 32px; --hk-fade-end: 0px; } }
.hk-box { display: flex; box-sizing: border-box; }
.hk-hbox { flex-direction: row; flex-wrap: wrap; align-items: baseline; }
.hk-vbox { flex-direction: column; }
.hk-grid { display: grid; }
.hk-html { line-height: 1.4; }
.hk-field { display: inline-flex; align-items: center; gap: 6px; margin: 2px 4px; max-width: 100%; }
.hk-field input { font: inherit; min-height: 28px; box-sizing: border-box;
  padding: 2px 6px; border: 1px solid var(--jp-border-color1, #9e9e9e); border-radius: 2px; min-width: 0;
  background: var(--jp-layout-color1, #fff); color: var(--jp-ui-font-color1, #222); }
.hk-field input[type=range] { min-width: 10em; accent-color: #1f6fd1; }
/* A row of choice pills (ui.Choices): the chosen pill is filled, bold and ticked, not told by colour alone; the
   others take the theme's own colours. The note under the row says the chosen pill's longer word. */
.hk-choices { flex-wrap: wrap; }
.hk-choices > .hk-pills { display: flex; flex-wrap: wrap; gap: 4px; min-width: 0; }
.hk-choices .hk-btn.hk-pill { width: auto; height: auto; min-height: 32px; margin: 0; padding: 4px 12px;
  border: 2px solid var(--jp-border-color1, #757575); border-radius: 999px; line-height: 1.25; white-space: normal;
  background: var(--jp-layout-color1, #fff); color: var(--jp-ui-font-color1, #1a1a1a); }
.hk-choices .hk-btn.hk-pill[aria-checked=true] { border-color: #1747a6; background: #1747a6; color: #fff;
  font-weight: 700; }
.hk-choices .hk-btn.hk-pill[aria-checked=true]::before { content: "✓ " / ""; }
body[data-jp-theme-light="false"] .hk-choices .hk-btn.hk-pill[aria-checked=true] { border-color: #9cc2ff;
  background: #9cc2ff; color: #0d1a33; }
.hk-choicenote { flex: 1 1 100%; font-size: .9em; font-style: italic; }
.hk-btn { margin: 2px; }
.hk-btn.hk-toggle[aria-pressed=true] { box-shadow: inset 0 0 0 2px #1f6fd1; font-weight: 700; }
.hk-table .hk-play { gap: 8px 18px; align-items: flex-start; justify-content: center; }
.hk-table .hk-play > .hk-area { flex: 1 1 26em; min-width: 0; align-items: center; }
.hk-table .hk-side { flex: 0 1 22em; min-width: 0; padding-left: 10px; border-left: 3px solid #ddd; }
.hk-table .hk-movepanel { max-height: 18em; overflow-y: auto; font-size: .9em; }
/* The panel scrolls, so it cuts what lies outside it: room for a move's number of three digits, bold ("103."). */
.hk-table .hk-movepanel .hk-movelist { padding-left: 3.3em; }
.hk-table .hk-btn { flex-shrink: 0; }
.hk-table .hk-slider { min-width: 12em; }
/* A lesson (widgets/teaching/lessons.py): the lessons with their stars, then the instruction in a box of its own. */
.hk-table .hk-lessons { gap: 4px; padding: 6px 8px; border: 2px solid #1f6fd1; border-radius: 8px;
  background: #f2f7ff; }
.hk-table .hk-lessons .hk-btn.hk-selected { font-weight: 700; box-shadow: inset 0 0 0 2px #1f6fd1; }
.hk-table .hk-guide p { margin: 2px 0; }
.hk-table .hk-guide .hk-guide-say { font-size: 1.1em; }
.hk-table .hk-guide .hk-guide-done { color: #1b5e20; }
.hk-table .hk-guide .hk-guide-star { font-weight: 700; color: #7a4a00; }
.hk-table .hk-guide summary { cursor: pointer; text-decoration: underline; }
body[data-jp-theme-light="false"] .hk-table .hk-lessons { background: #1d2633; border-color: #6fa8ff; }
body[data-jp-theme-light="false"] .hk-table .hk-guide .hk-guide-done { color: #8fdc97; }
body[data-jp-theme-light="false"] .hk-table .hk-guide .hk-guide-star { color: #ffd27a; }
/* The teacher's tally of a question (widgets/table/walk_lead.py), read from a projector: each move chosen on a bar
   as long as its share of the answers (--hk-share); an illegal one's bar is red and says ✘ and why in words. */
.hk-table .hk-walk-choices { display: grid; gap: 3px; max-width: 40em; margin: 4px 0; padding: 0; list-style: none; }
.hk-table .hk-walk-choices > li { padding: 2px 8px; border: 1px solid #c9c2ad; border-radius: 4px;
  background: linear-gradient(to right, var(--hk-bar) var(--hk-share), transparent var(--hk-share)); }
.hk-table .hk-walk-ok { --hk-bar: #cfe3ff; }
.hk-table .hk-walk-no { --hk-bar: #f8d3d3; }
.hk-table .hk-walk-why { color: #8a0018; }
body[data-jp-theme-light="false"] .hk-table .hk-walk-choices > li { border-color: #5a5d66; }
body[data-jp-theme-light="false"] .hk-table .hk-walk-ok { --hk-bar: #2c4670; }
body[data-jp-theme-light="false"] .hk-table .hk-walk-no { --hk-bar: #6a2c2c; }
body[data-jp-theme-light="false"] .hk-table .hk-walk-why { color: #ff9e9e; }
"""

NARROW_PX = 600  # a table narrower than this is on a phone (or in a narrow notebook panel)


def narrow(css: str) -> str:
    """``css`` for a narrow table only (a phone): the one breakpoint every sheet shares.

    A container query on the table, not a media query on the window: a table in a narrow JupyterLab panel is
    laid out as on a phone, and a wide one stays compact.
    """
    return f"@container hk-table (max-width: {NARROW_PX}px) {{\n{css}}}\n"


# On a phone every control is at least 44 px on its short side (a finger, WCAG 2.5.5), and the set-up panel lists
# one choice a line, its name beside its pills or a box as wide as the screen.
PHONE_CSS = narrow("""
:is(.hk-table, .hk-exercise) :is(button, summary, input) { min-width: 44px; min-height: 44px; }
:is(.hk-table, .hk-exercise) :is(.hk-btn, .hk-summary) { height: auto; line-height: 1.25; }
.hk-table summary { box-sizing: border-box; padding-block: 12px; }
.hk-table .hk-summary { display: inline-flex; align-items: center; padding-block: 0; }
.hk-fold-body > .hk-hbox { flex-direction: column; align-items: stretch; }
.hk-fold-body .hk-field { margin: 0; }
.hk-fold-body .hk-fieldname { flex: 0 0 7.5em; }
.hk-fold-body .hk-field > :is(input, .hk-pills) { flex: 1 1 0; width: auto; }
.hk-fold-body > .hk-btn { align-self: stretch; width: auto; }
.hk-table .hk-controls > .hk-stepbar { flex: 1 1 100%; }
.hk-share .hk-fold-body > .hk-hbox:first-child { flex-direction: row; }
.hk-share .hk-fold-body > .hk-hbox:first-child > .hk-btn { flex: 1 1 0; }
.hk-table .hk-stepbar .hk-btn.hk-step { width: 44px; height: 44px; }
.hk-table .hk-choices .hk-btn.hk-pill { min-width: 44px; min-height: 44px; }
/* A guided lesson leaves the table in sight: its lessons are one row that scrolls sideways (a thin
   scroll bar, the edges fading where more lies, the next lesson cut at the edge), its instruction in the text's
   size with "why?" at the end of its line. */
.hk-table .hk-lessons { gap: 2px; padding: 4px 6px; }
.hk-table .hk-lessons > .hk-hbox:first-child { flex-wrap: nowrap; align-items: center; overflow-x: auto;
  scroll-snap-type: x proximity; scrollbar-width: thin; padding-bottom: 2px; }
.hk-table .hk-lessons > .hk-hbox:first-child > .hk-btn { flex: 0 0 auto; scroll-snap-align: start;
  white-space: nowrap; }
@supports (animation-timeline: scroll()) {
  .hk-table .hk-lessons > .hk-hbox:first-child { animation: hk-fade-edges linear both;
    animation-timeline: scroll(self inline); mask-image: linear-gradient(to right, transparent,
      #000 var(--hk-fade-start), #000 calc(100% - var(--hk-fade-end)), transparent); }
}
.hk-table .hk-guide .hk-guide-say { display: inline; font-size: 1em; }
.hk-table .hk-guide .hk-guide-say + details:not([open]) { display: inline-block; margin-left: .4em;
  vertical-align: middle; }
/* A numbered row of the middle (the tea table's positions, the assembly line) stays one row, read left to right:
   its name goes above it, and the tea table's Ø end is narrow. */
.hk-table .hk-middle { padding-inline: 6px; }
.hk-table .hk-middle > .hk-hbox { justify-content: center; }
.hk-table .hk-middle > .hk-hbox > .hk-label { flex: 1 0 100%; min-width: 0; }
.hk-table .hk-middle > .hk-hbox > .hk-html > .hk-card { width: 1.3em; }
/* So does an exercise's picture of one (its cards with their places beneath, .hk-pos). */
.hk-exercise .hk-row:has(> .hk-pos) { justify-content: center; gap: 2px; }
.hk-exercise .hk-row:has(> .hk-pos) > .hk-label { flex: 1 0 100%; min-width: 0; }
""")


def view_css() -> str:
    """The style sheet of a view: hatskit's drawings and the parts (the page's modules bring their own)."""
    return "\n".join([CSS, WIDGET_CSS, PHONE_CSS])
