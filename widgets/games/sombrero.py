"""The Sombrero board as widgets: 64 square buttons, the turn's action count and marks for moves and captures.

    >>> SombreroTable(hatskit.new_game("sombrero"), seats=("reader", "strong"))

Click (or drag) one of your hatted pieces to pick it up: the empty squares it
may step to get a dot, the hatless friends it may pass its hat to get a corner
flag (S2). Click one of them to act (``e1-e2`` or ``e1>f2``), or the piece
again to put it down. The page does the picking from the moves the table sends
it (a piece's square, then its target: :meth:`SombreroTable.path_of`); a press
that makes no move gets the engine's sentence (a piece with nowhere to go says
so) and changes nothing. The squares the moves just played
went from and to carry a corner mark, and pieces whose hats went are ringed,
until the next move; the message line tells who flanked them (S3). After the
end the squares are switched off.

Each square is a Button (focusable; Enter and Space click it). Its tooltip
names the square and what stands there ("e4: White, hatted"), the words the
board pictures of :mod:`hatskit.games.sombrero.render` use, and its picture is the
renderer's own SVG piece, drawn as the button's background, so the interactive
board and the printed ones look alike. A hatted piece wears a sombrero, a
hatless one is a bare disc: they differ in shape, not only in colour. The
button's text is the piece as a glyph (outline for White, filled for Black;
△ ▲ hatted, ○ ● hatless); it stays invisible beside the picture and shows
where a forced-colours mode drops background pictures.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from typing import Any
from urllib.parse import quote

import hatskit
from hatskit.drawing import escape
from hatskit.games.sombrero.components import BLACK, FILES, SIDES, WHITE, parse_square, square_name
from hatskit.games.sombrero.moves import Jump, Step
from hatskit.games.sombrero.render import draw_counts, piece_svg, side_html
from widgets.table.frame import TableFrame
from widgets.toolkit import ui
from widgets.toolkit.parts import html_line, piece_button, set_face
from widgets.toolkit.style import narrow

SEATS = (WHITE, BLACK)
GLYPHS = {(WHITE, True): "△", (WHITE, False): "○", (BLACK, True): "▲", (BLACK, False): "●"}
MARKS = ("hk-hint", "hk-captured", "hk-moved")


def piece_class(seat: int, hatted: bool) -> str:
    """The CSS class that draws a piece: ``hk-piece-white-hatted``, ``hk-piece-black-hatless``, ... (view.js steps a
    piece by this class: the one square that lost a piece of a kind and the one that gained it)."""
    return f"hk-piece-{SIDES[seat]}-{'hatted' if hatted else 'hatless'}"


PIECE_CLASSES = tuple(piece_class(seat, hatted) for seat in SEATS for hatted in (True, False))
SQUARE_CLASSES = (*PIECE_CLASSES, *MARKS)
SQUARE = ".hk-table .hk-sb-grid .hk-btn.hk-sq"  # beats the shared sheet's `background` on marks
BOARD_CSS = f"""
.hk-sb-grid {{ width: max-content; margin: 4px 0; grid-template-columns: 1.6em repeat(8, auto); }}
.hk-sb-grid .hk-sb-label {{ display: flex; margin: 0; height: auto; justify-content: center; align-items: center;
  color: #555; font-size: .85em; font-weight: 600; }}
.hk-sb-grid .hk-sq {{ position: relative; width: 2.9em; height: 2.9em; margin: 0; padding: 0;
  border: 2px solid transparent; border-radius: 0; color: transparent; }}
{SQUARE} {{ background-repeat: no-repeat; background-position: center; background-size: 2.4em 2.4em; }}
{SQUARE}.hk-sb-light {{ background-color: #f0d9b5; }}
{SQUARE}.hk-sb-dark {{ background-color: #b58863; }}
{SQUARE}.hk-captured {{ box-shadow: inset 0 0 0 4px #1f6fd1; }}
{SQUARE}.hk-hint {{ outline-offset: -7px; }}
{SQUARE}.hk-moved::before {{ content: ""; position: absolute; left: 0; top: 0; width: 0; height: 0;
  border-style: solid; border-width: 1.1em 1.1em 0 0; border-color: #7a4fc2 transparent transparent transparent; }}
{SQUARE}.hk-legal::after {{ content: ""; position: absolute; left: 50%; top: 50%; width: .8em; height: .8em;
  margin: -.4em; border-radius: 50%; background: #1b7a2e; }}
{SQUARE}.hk-legal.hk-jump::after {{ left: auto; top: 0; right: 0; margin: 0; width: 0; height: 0;
  border-radius: 0; background: none; border-style: solid; border-width: 0 1.4em 1.4em 0;
  border-color: transparent #1b7a2e transparent transparent; }}
/* A piece arriving by a step (view.js) shows on ::after, gliding in over the squares it passes. */
{SQUARE}.hk-arriving {{ background-position: -999em -999em; overflow: visible; }}
{SQUARE}.hk-arriving::after {{ content: ""; position: absolute; inset: 0; z-index: 5; pointer-events: none;
  background-image: inherit; background-size: inherit; background-repeat: no-repeat; background-position: center; }}
@media (forced-colors: active) {{ .hk-sb-grid .hk-sq {{ color: ButtonText; }} }}
.hk-table .hk-sb-legend {{ color: #555; font-size: .85em; }}
@media (min-width: 720px) {{ .hk-sb-grid .hk-sq {{ width: 3.8em; height: 3.8em; }}
  {SQUARE} {{ background-size: 3.2em 3.2em; }} }}
""" + narrow(".hk-sb-grid { grid-template-columns: 1em repeat(8, auto); }\n")  # eight 44 px squares on a phone
LEGEND = (
    "Marks: • a square the piece you picked up can step to · ◥ a hatless friend it can pass its hat to · "
    "double border: the piece picked up · ◤ a square the moves just played went from or to · "
    "ring: lost its hat in the moves just played · "
    "dotted outline: the hint"
)


def piece_image(seat: int, hatted: bool) -> str:
    """The renderer's SVG of a piece as a CSS ``url()``, so the buttons show the same pieces as the pictures."""
    svg = piece_svg(seat, hatted).replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
    return f'url("data:image/svg+xml,{quote(svg)}")'


def board_style() -> str:
    """The board's style sheet: squares, marks and one background picture per kind of piece."""
    pieces = "".join(
        f"{SQUARE}.{piece_class(seat, hatted)} {{ background-image: {piece_image(seat, hatted)}; }}\n"
        for seat in SEATS
        for hatted in (True, False)
    )
    return f"<style>{BOARD_CSS}{pieces}</style>"


def is_light(square: int) -> bool:
    """Whether ``square`` is light: h1 is (S1), and the colours alternate along files and ranks."""
    return (square % 8 + square // 8) % 2 == 1


class SombreroTable(TableFrame):
    """A Sombrero game at a table of a reader and a bot (or two readers); see the module docstring."""

    game_id = "sombrero"
    default_seats = ("reader", "strong")
    script = "sombrero.js"  # what only this game draws on the page: the board keys, a piece stepping, a hat moving
    shuffled = False  # no cards to deal: every Sombrero game starts the same (S1)

    # -- building (once) ---------------------------------------------------------

    def build_table(self) -> list[ui.Part]:
        self.squares = {square_name(square): self._square_button(square) for square in range(64)}
        self.square_names = {button.uid: name for name, button in self.squares.items()}
        self.turn_line = html_line("hk-sb-turn")
        self.side_lines = [html_line("hk-sb-seat") for _ in SEATS]
        self.grid = ui.GridBox(self._grid_cells(WHITE))
        self.grid.add_class("hk-sb-grid")
        self.board_style = html_line("", board_style())
        self.legend = html_line("hk-sb-legend", escape(LEGEND))
        self.bottom_side = WHITE
        return self._board_parts()

    def _board_parts(self) -> list[ui.Part]:
        """The board with ``bottom_side``'s pieces and panel at the bottom, the other side's at the top."""
        top, bottom = self.side_lines[1 - self.bottom_side], self.side_lines[self.bottom_side]
        return [self.board_style, self.turn_line, top, self.grid, bottom, self.legend]

    def _orient(self) -> None:
        """Turn the board so a lone reader's own side is at the bottom (Black too, as at a classmates' table);
        two readers at one screen share it with White at the bottom."""
        bottom = self.reader_seats[0] if len(self.reader_seats) == 1 else WHITE
        if bottom != self.bottom_side:
            self.bottom_side = bottom
            self.grid.children = tuple(self._grid_cells(bottom))
            self.table_area.children = tuple(self._board_parts())

    def _square_button(self, square: int) -> ui.Button:
        """A square: it knows its name and colour; show_table gives it its piece, tooltip and marks."""
        button = piece_button(square_name(square))
        button.add_class("hk-sq")
        button.add_class("hk-sb-light" if is_light(square) else "hk-sb-dark")
        return button

    def _grid_cells(self, bottom: int) -> list[ui.Part]:
        """Each rank's label and squares, then the file letters: rank 8 at the top with White at the bottom, rank 1
        at the top (files from h) with Black at the bottom."""
        ranks, files = ("87654321", FILES) if bottom == WHITE else ("12345678", FILES[::-1])
        cells: list[ui.Part] = []
        for rank in ranks:
            cells += [self._labels[rank], *(self.squares[file + rank] for file in files)]
        return [*cells, self._labels[""], *(self._labels[file] for file in files)]

    @functools.cached_property
    def _labels(self) -> dict[str, ui.HTML]:
        """The rank and file labels (and the corner's empty one), made once and placed by :meth:`_grid_cells`."""
        return {text: html_line("hk-sb-label", text) for text in ["", *"12345678", *FILES]}

    # -- the moves, as the page picks them ------------------------------------------

    def path_of(self, move: Step | Jump) -> list[ui.Part]:
        """A piece's square, then the square it steps to or the hatless friend it passes its hat to (S2)."""
        return [self.squares[square_name(move.origin)], self.squares[square_name(move.target)]]

    def target_mark(self, move: Step | Jump) -> str:
        """A hat jump's target wears a corner flag instead of the step's dot."""
        return "hk-jump" if isinstance(move, Jump) else ""

    def target_words(self, move: Step | Jump) -> str:
        origin = square_name(move.origin)
        kind = "pass its hat" if isinstance(move, Jump) else "step"
        return f"{origin} can {kind} here ({move})"

    def board(self) -> list[ui.Part]:
        return list(self.squares.values())

    def explain(self, path: list[ui.Part]) -> str:
        """Why presses made no move: a piece that cannot be picked up or is stuck, or an action the engine refuses."""
        names = [self.square_names[part.uid] for part in path]
        if not self.decides() or self.shown().is_over:
            return super().explain(path)
        if len(names) == 1:
            return self._why_not_picked(names[0])
        return self.why_not(self._notation(names[0], names[-1])) or super().explain(path)

    def _why_not_picked(self, name: str) -> str:
        """Why ``name`` is not picked up: a hatted piece of the mover's with nowhere to go is stuck (S2); else the
        engine judges a step that stays on its square, and its reason says what stands there (no piece, not
        yours, no hat). It judges the view's position, which Sombrero shows whole: a shared table's game leaves
        every judgement to the host."""
        view = self._view()
        piece = view["board"].get(name)
        if piece is not None and piece["side"] == view["to_move"] and piece["hatted"]:
            return (
                f"{name} is stuck: no empty square and no hatless friend of yours next to it (S2). "
                "Pick up another of your hatted pieces."
            )
        reason = hatskit.load(view["position"]).why_illegal(f"{name}-{name}")
        return f"Pick up one of your hatted pieces first: {reason}." if reason else "Pick up one of your hatted pieces."

    def move_words(self, move: Any, seat: int | None = None) -> str:
        """A hinted action in words: "step from e1 to e2", "pass the hat from d3 to d4"."""
        origin, target = square_name(move.origin), square_name(move.target)
        return (
            f"pass the hat from {origin} to {target}" if isinstance(move, Jump) else f"step from {origin} to {target}"
        )

    def _notation(self, origin: str, target: str) -> str:
        """A hat jump onto a hatless piece of the mover's side, a step anywhere else (S2)."""
        view = self._view()
        piece = view["board"].get(target)
        onto_friend = piece is not None and piece["side"] == view["to_move"] and not piece["hatted"]
        return str((Jump if onto_friend else Step)(parse_square(origin), parse_square(target)))

    # -- showing -------------------------------------------------------------------

    def show_table(self, view: dict[str, Any]) -> None:
        self._orient()
        notes = self._annotations(view)
        over = view["to_move"] is None
        for name, button in self.squares.items():
            _show_square(button, name, view, notes[name])
            button.disabled = over
        self.turn_line.value = escape(self._turn_text(view))
        for seat, line in zip(SEATS, self.side_lines, strict=True):
            kind = self.seat_kind(seat)
            line.value = side_html(seat, view["names"][seat], kind, view["hats"][seat], view["to_move"] == seat)

    def _annotations(self, view: dict[str, Any]) -> defaultdict[str, list[tuple[str, str]]]:
        """Each square's marks, each with the words its tooltip adds (empty words add none)."""
        notes: defaultdict[str, list[tuple[str, str]]] = defaultdict(list)
        span = _moves(len(self.recent_plies()))
        for ply in self.recent_plies():
            move = self.game.moves[ply]
            if move is None:  # a classmate's move the seat has not had the views to tell yet
                continue
            notes[square_name(move.origin)].append(("hk-moved", f"{move} went from here in the last {span}"))
            notes[square_name(move.target)].append(("hk-moved", f"{move} went here in the last {span}"))
        for name in self._lost_hats(view):
            notes[name].append(("hk-captured", f"lost its hat in the last {span}"))
        if self.hint_move is not None:
            hint = self.game.parse(self.hint_move)
            for square in (hint.origin, hint.target):
                notes[square_name(square)].append(("hk-hint", f"the hint: {hint}"))
        return notes

    def _lost_hats(self, view: dict[str, Any]) -> set[str]:
        """The pieces that lost their hats in the moves the message line tells of and are still hatless (S3)."""
        taken = {
            name for ply in self.recent_plies() for name in self.game.state_at(ply + 1).view(None)["last_captures"]
        }
        return taken & {name for name, piece in view["board"].items() if not piece["hatted"]}

    def _turn_text(self, view: dict[str, Any]) -> str:
        """Whose turn and which of its two actions comes next (S2), the hats each side has, the draw counts."""
        names = view["names"]
        hats = f"hats: {names[WHITE]} {view['hats'][WHITE]}, {names[BLACK]} {view['hats'][BLACK]}"
        if view["to_move"] is None:
            return f"The game is over · {hats}"
        parts = [f"{self.seat_label(view['to_move'])}, action {3 - view['actions_left']} of 2", hats]
        return " · ".join(parts + draw_counts(view))

    def _view(self) -> dict[str, Any]:
        return self.shown().view(self.viewer)


def _show_square(button: ui.Button, name: str, view: dict[str, Any], notes: list[tuple[str, str]]) -> None:
    """Give a square button its piece (glyph and picture), its tooltip and its marks."""
    piece = view["board"].get(name)
    drawn = [piece_class(piece["side"], piece["hatted"])] if piece else []
    glyph = GLYPHS[piece["side"], piece["hatted"]] if piece else ""
    tooltip = "; ".join([f"{name}: {_contents(view, piece)}", *(words for _, words in notes if words)])
    set_face(button, glyph, tooltip, drawn + [mark for mark, _ in notes], SQUARE_CLASSES)


def _contents(view: dict[str, Any], piece: dict[str, Any] | None) -> str:
    """What stands on a square, in the board pictures' words: "empty", "White, hatted"."""
    if piece is None:
        return "empty"
    return f"{view['names'][piece['side']]}, {'hatted' if piece['hatted'] else 'hatless'}"


def _moves(count: int) -> str:
    return "move" if count == 1 else f"{count} moves"
