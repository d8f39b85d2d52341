"""Players the computer can seat: ``random``, ``greedy`` and a ``strong`` bot per game.

    >>> bot = make_bot("hats", "strong", seed=1)
    >>> hint = bot.hint(game)      # Hint(move, reason)
    >>> game.play(bot.choose(game))

A bot sees only what its seat may see where a game hides information.
"""

from __future__ import annotations

from collections.abc import Callable

from hatskit.bots.base import Bot, GreedyBot, Hint, RandomBot
from hatskit.core import HatskitError

BOT_KINDS = ("random", "greedy", "strong")
_STRONG: dict[str, Callable[[int], Bot]] = {}


def register_strong(game_id: str, factory: Callable[[int], Bot]) -> None:
    """A game module's strong bot joins the registry."""
    _STRONG[game_id] = factory


def make_bot(game_id: str, kind: str, seed: int = 0) -> Bot:
    """A bot of ``kind`` for ``game_id``, with its own seeded generator."""
    if kind == "random":
        return RandomBot(seed)
    if kind == "greedy":
        return GreedyBot(seed)
    if kind == "strong":
        _load_strong_bots()
        if game_id in _STRONG:
            return _STRONG[game_id](seed)
    raise HatskitError(f"no {kind!r} bot for {game_id!r}; kinds are: {', '.join(BOT_KINDS)}")


def _load_strong_bots() -> None:
    from hatskit.bots import hats  # noqa: F401  (each module registers itself)


__all__ = ["BOT_KINDS", "Bot", "GreedyBot", "Hint", "RandomBot", "make_bot", "register_strong"]
