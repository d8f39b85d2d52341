"""Players the computer can seat: ``random``, ``greedy`` and a ``strong`` bot per game.

    >>> bot = make_bot("hats", "strong", seed=1)
    >>> hint = bot.hint(game.seat_view(game.to_move))      # Hint(move, reason)
    >>> game.play(bot.choose(game.seat_view(game.to_move)))

A bot is given a :class:`~hatskit.core.SeatView`, never the game: it sees only
what its seat may see. ``random`` and ``greedy`` work for every game; a game's
spec names its bot module (``GameSpec.bot_module``), whose ``BOTS`` adds the
game's ``strong`` bot and may replace the generic ``greedy``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from hatskit import spec_of
from hatskit.bots.base import Bot, GreedyBot, Hint, RandomBot
from hatskit.core import MAX_INT, UsageError, brief

BOT_KINDS = ("random", "greedy", "strong")
_GENERIC: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(game_id: str, kind: str, seed: int = 0) -> Bot:
    """A bot of ``kind`` for ``game_id``, with its own seeded generator.

    An unknown game is a RecordError (as everywhere a game id is read); a kind
    that is neither one of ``BOT_KINDS`` nor one of the game's own (Hats Off!'s
    reaction levels) or a seed that is not a whole number from 0 to 2**63 - 1 is
    a UsageError that quotes it.
    """
    factories = _factories(game_id)
    if not isinstance(kind, str) or kind not in factories:
        raise UsageError(f"no {brief(kind)} bot for {game_id}; the kinds are: {', '.join(factories)}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_INT:
        raise UsageError(f"a bot's seed is a whole number from 0 to 2**63 - 1, not {brief(seed)}")
    return factories[kind](seed)


def bot_kinds(game_id: str) -> list[str]:
    """The kinds of ``BOT_KINDS`` that ``game_id`` seats, in that order (a seat box offers these)."""
    return [kind for kind in BOT_KINDS if kind in _factories(game_id)]


def _factories(game_id: str) -> dict[str, Callable[[int], Bot]]:
    """Every bot ``game_id`` can seat by kind: the generic ones, replaced or joined by the game's own ``BOTS``."""
    return _GENERIC | importlib.import_module(spec_of(game_id).bot_module).BOTS


__all__ = ["BOT_KINDS", "Bot", "GreedyBot", "Hint", "RandomBot", "bot_kinds", "make_bot"]
