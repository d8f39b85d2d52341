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

from hatskit.bots.base import Bot, GreedyBot, Hint, RandomBot
from hatskit.core import HatskitError

BOT_KINDS = ("random", "greedy", "strong")
_GENERIC: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(game_id: str, kind: str, seed: int = 0) -> Bot:
    """A bot of ``kind`` for ``game_id``, with its own seeded generator."""
    from hatskit import spec_of

    spec = spec_of(game_id)
    own: dict[str, Callable[[int], Bot]] = importlib.import_module(spec.bot_module).BOTS
    factory = own.get(kind) or _GENERIC.get(kind)
    if factory is None:
        raise HatskitError(f"no {kind!r} bot for {game_id!r}; kinds are: {', '.join(BOT_KINDS)}")
    return factory(seed)


__all__ = ["BOT_KINDS", "Bot", "GreedyBot", "Hint", "RandomBot", "make_bot"]
