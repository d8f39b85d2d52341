"""What the host sends each seat, built in one place so that nothing else can slip in.

A seat is sent only:

- its view, ``game.view(seat)``: the engine masks every card the seat may not see;
- its own legal moves, as notation;
- the public narration of the moves since its last frame: the engine's events,
  told in words every seat may read ("Ben made a black hat (a card face down,
  1 point)", "Ana has moved (moves stay secret until everyone has moved)"),
  never the moves' notation, which would name a face-down card or a sealed move;
- in a game that hides nothing (Sombrero), those moves' notation too: the views
  show every move anyway, and a seat's table need not work out which it was;
- the seats that may act, the public score sheet (the engine leaves the secret
  cards out until the end) and the outcome;
- presence: who sits where, who is connected, who is away, who is a bot.

Never the seed, the deck's order, the initial deal, the record, another seat's
moves as notation in a game with hidden information, the undo history or another
seat's token.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hatskit.core import Event, Game, Outcome, ScoreSheet

if TYPE_CHECKING:
    from tablehost.tables import Seat, Table

HISTORY_LIMIT = 100  # views in one history reply


def events_frame(game: Game, first: int, last: int) -> list[dict[str, Any]]:
    """The public narration of moves ``first + 1`` to ``last``, each event with the ply of its move."""
    return [_event(ply + 1, event) for ply in range(first, last) for event in game.events[ply]]


def played_frame(game: Game, first: int, last: int) -> list[dict[str, Any]]:
    """Moves ``first + 1`` to ``last`` as notation, each with its ply, in a game that hides nothing; none in a game
    with hidden information, where a move's notation could name a card a seat may not see."""
    if game.spec.hidden_information:
        return []
    return [{"ply": ply + 1, "move": str(game.moves[ply])} for ply in range(first, last)]


def _event(ply: int, event: Event) -> dict[str, Any]:
    return {"ply": ply, "text": event.text, "rule": event.rule}


def score_frame(sheet: ScoreSheet) -> dict[str, Any]:
    """The public score sheet: totals, team totals, explained lines, whether it is final and what it leaves out."""
    lines = [
        {
            "seat": line.seat,
            "category": line.category,
            "points": line.points,
            "why": line.explanation,
            "round": line.round,
        }
        for line in sheet.lines
    ]
    return {
        "totals": sheet.totals,
        "teams": sheet.team_totals,
        "final": sheet.final,
        "note": sheet.note,
        "lines": lines,
    }


def outcome_frame(outcome: Outcome | None) -> dict[str, Any] | None:
    return None if outcome is None else {"winners": list(outcome.winners), "reason": outcome.reason}


class Shared:
    """What every seat's frame shares after one change (the score and outcome are computed once, not per seat)."""

    def __init__(self, table: Table) -> None:
        game = table.game
        self.score = score_frame(game.score())
        self.outcome = outcome_frame(game.outcome())
        self.acting = list(game.acting) if table.status == "playing" else []


def state_frame(table: Table, seat: int, since: int, shared: Shared | None = None) -> dict[str, Any]:
    """Seat ``seat``'s frame: its view and legal moves now, and the narration of the moves after ply ``since``."""
    game, shared = table.game, shared or Shared(table)
    legal = game.legal_moves(seat) if table.status == "playing" else []
    first = max(0, min(since, game.ply))  # the first move this frame tells of, less one
    return {
        "type": "state",
        "code": table.code,
        "seat": seat,
        "status": table.status,
        "ply": game.ply,
        "acting": shared.acting,
        "view": game.view(seat),
        "legal": [str(move) for move in legal],
        "events": events_frame(game, first, game.ply),
        "played": played_frame(game, first, game.ply),
        "score": shared.score,
        "outcome": shared.outcome,
    }


def history_frame(table: Table, seat: int, first: int, last: int) -> dict[str, Any]:
    """Seat ``seat``'s own step-through: its view after each ply from ``first`` to ``last``, with each move's narration.

    Views of that seat only (``SeatView.view_at``): what it saw then, never the position behind it.
    """
    game = table.game
    own = game.seat_view(seat)
    plies = [
        {"ply": ply, "view": own.view_at(ply), "events": events_frame(game, ply - 1, ply) if ply else []}
        for ply in range(first, last + 1)
    ]
    return {"type": "history", "code": table.code, "seat": seat, "ply": game.ply, "plies": plies}


def presence_frame(table: Table) -> dict[str, Any]:
    """Who is at the table: each seat's player (typed name), whether connected or away, bots, and who may act."""
    return {
        "type": "presence",
        "code": table.code,
        "game": table.game.game_id,
        "status": table.status,
        "opener": 0,
        "seats": [seat_entry(table, seat) for seat in table.seats],
        "acting": list(table.game.acting) if table.status == "playing" else [],
        "can_start": table.status == "waiting" and table.players_seated() >= 2,
    }


def seat_entry(table: Table, seat: Seat) -> dict[str, Any]:
    return {
        "seat": seat.index,
        "as": table.game.seat_names[seat.index],
        "name": seat.name,
        "kind": seat.kind,
        "bot": seat.bot,
        "connected": seat.connected,
        "away": seat.away,
    }


def seated_frame(table: Table, seat: int, token: str | None) -> dict[str, Any]:
    """The reply to open, join and rejoin: the table's code, the seat and (once, at the first sitting) its token."""
    frame = {
        "type": "seated",
        "code": table.code,
        "seat": seat,
        "as": table.game.seat_names[seat],
        "game": table.game.game_id,
        "players": len(table.seats),
        "options": table.game.head["options"],
        "status": table.status,
    }
    return frame | ({"token": token} if token is not None else {})
