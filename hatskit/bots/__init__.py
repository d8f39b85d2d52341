"""Players the computer can seat: ``random``, ``greedy`` and a ``strong`` bot per game.

    >>> bot = make_bot("hats", "strong", seed=1)
    >>> hint = bot.hint(game)      # Hint(move, reason)
    >>> game.play(bot.choose(game))

``random`` and ``greedy`` work for every game; a game module registers its own
``strong`` bot (and may register a ``greedy`` that suits it better). A bot sees
only what its seat may see where a game hides information.
"""

from __future__ import annotations

from collections.abc import Callable

from hatskit.bots.base import Bot, GreedyBot, Hint, RandomBot
from hatskit.core import HatskitError

BOT_KINDS = ("random", "greedy", "strong")
_GENERIC: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": GreedyBot}
_PER_GAME: dict[tuple[str, str], Callable[[int], Bot]] = {}


def register_bot(game_id: str, kind: str, factory: Callable[[int], Bot]) -> None:
    """A game's own bot of ``kind`` (taking a seed) joins the registry."""
    _PER_GAME[game_id, kind] = factory


def make_bot(game_id: str, kind: str, seed: int = 0) -> Bot:
    """A bot of ``kind`` for ``game_id``, with its own seeded generator."""
    _load_game_bots()
    factory = _PER_GAME.get((game_id, kind)) or _GENERIC.get(kind)
    if factory is None:
        raise HatskitError(f"no {kind!r} bot for {game_id!r}; kinds are: {', '.join(BOT_KINDS)}")
    return factory(seed)


def _load_game_bots() -> None:
    from hatskit.bots import hats, sombrero  # noqa: F401  (each module registers its bots on import)


__all__ = ["BOT_KINDS", "Bot", "GreedyBot", "Hint", "RandomBot", "make_bot", "register_bot"]
