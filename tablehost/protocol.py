"""The host's protocol: a JSON text frame in, a reply and the seats' pushes out, with no network.

A request is a JSON object with an ``op``; it may carry an ``id`` (a number or a
short text), which the reply echoes as ``re``. The ops and their fields
(``docs/host.md`` has an example of each, and every reply):

=============  =================================================================
``open``       ``game``, ``players``, ``name``, ``options``, ``bots``
``join``       ``code``, ``name``
``rejoin``     ``code``, ``token``, ``since`` (the last ply the device saw)
``start``      ``code``, ``token``, ``bots``
``move``       ``code``, ``token``, ``move`` (notation), ``seat`` (optional check)
``answer``     ``code``, ``token``, ``action``, ``seconds`` (a Hats Off! race pad's)
``history``    ``code``, ``token``, ``first``, ``last``
``hand_to_bot`` ``code``, ``token``, ``seat``, ``bots``
``leave``      ``code``, ``token``
``ping``       nothing
=============  =================================================================

The class together (``classroom.py``; ``docs/host.md``, "The class together"):
``teacher`` is the local teacher secret (on a hub, the connection's user must
be a teacher), ``name`` and ``token`` a student's class name and class token.

================  ==============================================================
``walk_open``     ``teacher``, ``game``, ``players``, ``options``, ``seat``, ``shows``, ``name``, ``seed``
``walk_join``     ``code``, ``name``, ``token``, ``role`` (``student``, or ``teacher`` with ``teacher``)
``walk_state``    ``code``, ``name``, ``token``, ``role``
``walk_move``     ``teacher``, ``code``, ``move``
``walk_step``     ``teacher``, ``code``, ``ply``
``walk_ask``      ``teacher``, ``code``, ``seat`` (optional)
``walk_try``      ``code``, ``name``, ``token``, ``number``, ``move``
``walk_leave``    ``code``, ``name``, ``token``, ``role``
``walk_close``    ``teacher``, ``code``
``walk_list``     ``teacher``
``class_join``    ``name``, ``token`` (none the first time)
``class_stars``   ``name``, ``token``, ``game``, ``stars``
``class_where``   ``name``, ``token``, ``page``, ``lesson``, ``step``, ``table``
``class_list``    ``teacher``
``class_clear``   ``teacher``, ``name`` (optional: everyone)
================  ==============================================================

On JupyterHub (``--hub-auth``) the connection's hub user stands for ``token``.
A refused request gets ``{"type": "error", "op": ..., "re": ..., "message": ...}``
and the connection stays open.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hatskit.core import RecordError, brief, check_json_text
from tablehost.tables import BadRequest, Sent, TableError, TableHost, Who

MAX_FRAME = 64 * 1024  # bytes in one frame the host reads; a request needs a few hundred
MAX_ID = 64  # characters in a request id
NO_UNDO = "there is no undo at a shared table: every player has seen the move; ask for history to step back through it"

Handler = Callable[[TableHost, Who, dict[str, Any]], Sent]

OPS: dict[str, Handler] = {
    "open": lambda host, who, f: host.open(
        who, f.get("game"), f.get("players"), f.get("name"), f.get("options"), f.get("bots", "greedy")
    ),
    "join": lambda host, who, f: host.join(who, f.get("code"), f.get("name")),
    "rejoin": lambda host, who, f: host.rejoin(who, f.get("code"), f.get("since")),
    "start": lambda host, who, f: host.start(who, f.get("code"), f.get("bots")),
    "move": lambda host, who, f: host.move(who, f.get("code"), f.get("move"), f.get("seat")),
    "answer": lambda host, who, f: host.answer(who, f.get("code"), f.get("action"), f.get("seconds")),
    "history": lambda host, who, f: host.history(who, f.get("code"), f.get("first", 0), f.get("last")),
    "hand_to_bot": lambda host, who, f: host.hand_to_bot(who, f.get("code"), f.get("seat"), f.get("bots")),
    "leave": lambda host, who, f: host.leave(who, f.get("code")),
    "ping": lambda host, who, f: Sent({"type": "pong"}),
}

CLASS_OPS: dict[str, Handler] = {
    "walk_open": lambda host, who, f: host.classroom.walk_open(
        who,
        f.get("game"),
        f.get("players"),
        f.get("options"),
        f.get("seat", 0),
        f.get("shows", "all"),
        f.get("name"),
        f.get("seed"),
    ),
    "walk_join": lambda host, who, f: host.classroom.walk_join(
        who, f.get("code"), f.get("name"), f.get("role", "student")
    ),
    "walk_state": lambda host, who, f: host.classroom.walk_state(
        who, f.get("code"), f.get("name"), f.get("role", "student")
    ),
    "walk_move": lambda host, who, f: host.classroom.walk_move(who, f.get("code"), f.get("move")),
    "walk_step": lambda host, who, f: host.classroom.walk_step(who, f.get("code"), f.get("ply")),
    "walk_ask": lambda host, who, f: host.classroom.walk_ask(who, f.get("code"), f.get("seat")),
    "walk_try": lambda host, who, f: host.classroom.walk_try(
        who, f.get("code"), f.get("name"), f.get("number"), f.get("move")
    ),
    "walk_leave": lambda host, who, f: host.classroom.walk_leave(
        who, f.get("code"), f.get("name"), f.get("role", "student")
    ),
    "walk_close": lambda host, who, f: host.classroom.walk_close(who, f.get("code")),
    "walk_list": lambda host, who, f: host.classroom.walk_list(who),
    "class_join": lambda host, who, f: host.classroom.class_join(who, f.get("name")),
    "class_stars": lambda host, who, f: host.classroom.class_stars(who, f.get("name"), f.get("game"), f.get("stars")),
    "class_where": lambda host, who, f: host.classroom.class_where(
        who, f.get("name"), f.get("page"), f.get("lesson"), f.get("step"), f.get("table")
    ),
    "class_list": lambda host, who, f: host.classroom.class_list(who),
    "class_clear": lambda host, who, f: host.classroom.class_clear(who, f.get("name")),
}
OPS |= CLASS_OPS


def read_frame(message: str | bytes) -> dict[str, Any]:
    """The request in a text frame, or BadRequest saying what is wrong with it (quoting it briefly)."""
    if not isinstance(message, str):
        raise BadRequest(f"the host reads JSON text frames, not binary ones ({len(message)} bytes)")
    if len(message.encode("utf-8", "replace")) > MAX_FRAME:
        raise BadRequest(f"a frame of {len(message)} characters is more than the host reads ({MAX_FRAME} bytes)")
    try:
        check_json_text(message)
        frame = json.loads(message)
    except RecordError as error:
        raise BadRequest(str(error).replace("the record", "the frame")) from None
    except ValueError:
        raise BadRequest(f"the host reads JSON frames; this frame is not JSON: {brief(message)}") from None
    if not isinstance(frame, dict):
        raise BadRequest(f'a frame is a JSON object with an "op", not {brief(frame)}')
    return frame


def request_id(frame: dict[str, Any]) -> int | str | None:
    """The request's ``id`` to echo as ``re``: a whole number or a text of up to MAX_ID characters."""
    rid = frame.get("id")
    if (
        rid is None
        or (isinstance(rid, int) and not isinstance(rid, bool))
        or (isinstance(rid, str) and len(rid) <= MAX_ID)
    ):
        return rid
    raise BadRequest(f"a request id is a whole number or a text of up to {MAX_ID} characters, not {brief(rid)}")


def dispatch(host: TableHost, frame: dict[str, Any], user: str | None = None, teacher: bool = False) -> Sent:
    """Carry out one request for a connection (``user``: its hub user, if any; ``teacher``: the hub counts that
    user a teacher)."""
    op = frame.get("op")
    if op == "undo":
        raise BadRequest(NO_UNDO)
    if not isinstance(op, str) or op not in OPS:
        raise BadRequest(f"unknown op {brief(op)}; the ops are: {', '.join(OPS)}")
    return OPS[op](host, Who(frame.get("token"), user, frame.get("teacher"), teacher), frame)


def handle(host: TableHost, message: str | bytes, user: str | None = None, teacher: bool = False) -> Sent:
    """A text frame answered: its reply (an error frame when refused: the table unchanged) and the seats' pushes."""
    op, rid = None, None
    try:
        frame = read_frame(message)
        op = frame.get("op") if isinstance(frame.get("op"), str) else None
        rid = request_id(frame)
        sent = dispatch(host, frame, user, teacher)
    except TableError as error:
        return Sent(error_frame(str(error), op, rid, error.reason), refused=error)
    if rid is not None:
        sent.reply = {**sent.reply, "re": rid}
    return sent


def error_frame(
    message: str, op: str | None = None, rid: int | str | None = None, reason: str | None = None
) -> dict[str, Any]:
    """A refusal: what was asked (``op``, ``re``) and the sentence that says why not (and, where the error has one,
    its ``reason`` in a player's words: :class:`~tablehost.tables.TableError`)."""
    frame: dict[str, Any] = {"type": "error", "op": op, "message": message}
    frame |= {} if reason is None else {"reason": reason}
    return frame if rid is None else frame | {"re": rid}
