"""*Walkthrough…*: the teacher leads the class through one game, position by position (docs/host.md, "The class
together").

One fold beside *New game…* on a game page's own table (:func:`offer_walkthrough`, from ``TableFrame.from_link``),
with two sides:

- the **teacher's**, on a page opened with the teacher's link (``?teacher=<secret>`` the host printed; on
  JupyterHub ``?teacher=yes``, and the hub says who teaches): *start a walkthrough* of the game on the table,
  showing the class every hand or the teacher's seat only, gives a code and a link (``?walk=CODE``). The teacher's
  own table then leads (:class:`LeadingTable`): each move played on it and each step through it is sent to the
  host (``walk_move``, ``walk_step``); *ask: your move?* asks the class (``walk_ask``), and the answers come in
  counted (``walk_tally``): each move chosen, the illegal tries by the rule that stopped them, the strong bot's move.
- a **student's**, on a page opened with ``?walk=CODE``: their name (the browser keeps it with the class token),
  then the page's table follows the class (:class:`ClassTable`), drawn from the ``walk`` frames alone
  (:class:`WalkGame`: the kernel never holds a card the teacher did not show). While a question is open the student
  presses a move on the table: it goes to the host as their one try, and the host says whether it is legal, or
  which rule stops it and why. Where the class is shown the whole position (a game that hides nothing), *try it
  here* plays on from it on the student's own, and *back to the class* returns to the class's position.

This module puts the fold a page's link asks for on its table (:func:`offer_walkthrough`); the teacher's side is
``walk_lead.py``, a student's ``walk_follow.py``. As *Play with classmates…*, the connection runs on the kernel's
asyncio loop: a press starts a task, the fold says what it is doing until the host answers, and a refusal is the
host's sentence. This module imports tornado's client, so a page imports it only where a host exists.
"""

from __future__ import annotations

from widgets.host import hub_token
from widgets.table.frame import TableFrame
from widgets.table.links import LinkError, table_code_from_query, teacher_from_query, teacher_secret_from_query
from widgets.table.walk_follow import Following
from widgets.table.walk_lead import Leading

__all__ = ["offer_walkthrough"]


def offer_walkthrough(table: TableFrame, url: str, query: str) -> Leading | Following | None:
    """The fold the page's link asks for: the teacher's (``teacher=…``) or a student's (``walk=CODE``); else none."""
    try:
        code = table_code_from_query(query, "walk")
        teacher = teacher_from_query(query)
    except LinkError as error:
        table.say(f"This page's link could not be used ({error}).", error=True)
        return None
    if teacher and (teacher_secret_from_query(query) or hub_token()):
        fold: Leading | Following = Leading(table, url, teacher_secret_from_query(query))
    elif code is not None:
        fold = Following(table, url, code, table.classmates.kept_seats)
    else:
        return None
    top = table.free_play_parts[0]
    reveal = table.guard.reveal_box
    top.children = (*(part for part in top.children if part is not reveal), fold, reveal)
    table.walkthrough = fold  # type: ignore[attr-defined]
    return fold
