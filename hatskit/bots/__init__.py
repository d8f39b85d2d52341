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
    that is not one of ``BOT_KINDS`` or a seed that is not a whole number from 0
    to 2**63 - 1 is a UsageError that quotes it.
    """
    spec = spec_of(game_id)
    if not isinstance(kind, str) or kind not in BOT_KINDS:
        raise UsageError(f"no {brief(kind)} bot for {game_id}; the kinds are: {', '.join(BOT_KINDS)}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_INT:
        raise UsageError(f"a bot's seed is a whole number from 0 to 2**63 - 1, not {brief(seed)}")
    own: dict[str, Callable[[int], Bot]] = importlib.import_module(spec.bot_module).BOTS
    return (own.get(kind) or _GENERIC[kind])(seed)


__all__ = ["BOT_KINDS", "Bot", "GreedyBot", "Hint", "RandomBot", "make_bot"]
