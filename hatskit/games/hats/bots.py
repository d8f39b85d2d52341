"""Hats' strong bot and its hints in words; ``BOTS`` is what ``hatskit.bots.make_bot`` offers for Hats.

The strong bot is the shared Monte Carlo bot (``hatskit.bots.montecarlo``):
it knows only its seat's view, deals the cards it cannot see into many worlds
that agree with it, plays each main action out in every world with quick
random play and keeps the best average lead (team against team with four
players). The optional action (H4's discard, H5's swap) is weighed first, in
worlds of its own, against keeping the card, and taken only when the gain is
clearly more than chance (:func:`clearly_positive`); the main action then comes
on the next call, with the new card in hand. Simulations call ``advance`` and
``scoring`` only, never the narration.

A hint's sentence is read off the public score sheet before and after the move
in one sampled world: cards the seat cannot see never change those lines, so
every world gives the same sentence. The simulation figures go into the hint's
detail. Ruling ids are explained in ``docs/rulings.md``; decision times are in
``benchmarks/README.md`` (``benchmarks/bench_hats.py``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from hatskit.bots.base import Hint, margin, moves_of
from hatskit.bots.montecarlo import Estimate, MonteCarloBot, simulation_summary
from hatskit.core import SeatView
from hatskit.games.hats.components import COOKIE_POINTS, SEAT_NAMES, Card, parse_card, partner
from hatskit.games.hats.moves import Back, BlackHat, Discard, Exchange, HatsMove, Swap
from hatskit.games.hats.positions import sample_world
from hatskit.games.hats.scoring import cookie_holder, face_up_positions, favorite_line, score
from hatskit.games.hats.state import HatsState, fits

OPTIONAL_MARGIN = 0.5  # points an optional action must gain on average before the bot takes it


def clearly_positive(estimate: Estimate) -> bool:
    """Whether an optional action's gain is worth taking: big enough, and more than chance could explain."""
    return estimate.mean >= max(OPTIONAL_MARGIN, 2 * estimate.error)


class HatsBot(MonteCarloBot):
    """The shared Monte Carlo bot, plus the optional action weighed first; see the module docstring."""

    sample_world = staticmethod(sample_world)

    def __init__(
        self,
        seed: int = 0,
        first_round: int = 400,
        finalists: int = 8,
        final_round: int = 96,
        optional_worlds: int = 48,
        optional_cards: int = 3,
        budget: float | None = None,
    ) -> None:
        super().__init__(seed, first_round, finalists, final_round, budget)
        self.optional_worlds = optional_worlds  # worlds per card an optional action could give away
        self.optional_cards = optional_cards  # the weakest cards of the hand that are weighed for it

    def hint(self, seat_view: SeatView) -> Hint:
        """The optional action when it clearly gains, else the best main action; both with their numbers."""
        view, legal = seat_view.view(), moves_of(seat_view)
        optional = self.weigh_optional(view, legal)
        if optional and clearly_positive(optional[0]):
            move = optional[0].move
            return Hint(move, describe(view, move), _optional_detail(optional, taken=True))
        estimates = self.estimate(view, legal)
        move = estimates[0].move
        detail = _main_detail(estimates) + _optional_detail(optional, taken=False)
        return Hint(move, describe(view, move), " ".join(filter(None, [cookie_note(view, move), detail])))

    def candidates(self, legal: Sequence[HatsMove]) -> list[HatsMove]:
        """Main actions (or answers to a swap): the optional action is weighed on its own, first."""
        return [m for m in legal if not isinstance(m, Discard | Swap)]

    def play_out(self, world: HatsState, move: HatsMove, seat: int) -> int:
        """``move`` in a copy of ``world``, finished at random: ``seat``'s lead at the end."""
        ending = world.copy()
        ending.advance(move)
        return finish(ending, seat, self.rng)

    def weigh_optional(self, view: dict[str, Any], legal: Sequence[HatsMove]) -> list[Estimate]:
        """Each optional action with its gain over keeping the card, world by world; best first."""
        optional = [m for m in legal if isinstance(m, Discard | Swap)]
        if not optional:
            return []
        seat, worlds = view["seat"], [sample_world(view, self.rng) for _ in range(self.optional_worlds)]
        optional = weakest(optional, worlds[0], self.optional_cards)
        seeds = [self.rng.random() for _ in worlds]
        kept = [self._follow_up(world, None, seat, seed) for world, seed in zip(worlds, seeds, strict=True)]
        estimates = [
            Estimate(m, tuple(self._follow_up(w, m, seat, s) - k for w, s, k in zip(worlds, seeds, kept, strict=True)))
            for m in optional
        ]
        return sorted(estimates, key=lambda e: e.mean, reverse=True)

    @staticmethod
    def _follow_up(world: HatsState, optional: Discard | Swap | None, seat: int, seed: float) -> int:
        """The ending after ``optional`` (or none), the partner's random answer and the best-scoring main action.

        Both arms of a comparison use the same ``seed`` for their random play.
        """
        rng, ending = random.Random(seed), world.copy()
        if optional is not None:
            ending.advance(optional)
        while ending.to_move != seat:  # the partner answers a swap
            ending.advance(rollout_move(ending, rng))
        ending.advance(quick_main_action(ending, seat))
        return finish(ending, seat, rng, quick=True)


def weakest(moves: list[Discard | Swap], world: HatsState, count: int) -> list[Discard | Swap]:
    """The ``count`` moves whose cards can take the fewest table cards (H2), the lowest values first."""
    return sorted(moves, key=lambda m: (len(exchange_targets(world, m.card)), m.card.value))[:count]


def finish(state: HatsState, seat: int, rng: random.Random, quick: bool = False) -> int:
    """Play ``state`` to the end at random; ``seat``'s final lead over the best other side.

    With ``quick``, ``seat`` itself plays :func:`quick_main_action` instead, so
    that the cards in its hand are put to use and a better card shows.
    """
    while state.to_move is not None:
        own = quick and state.to_move == seat and state.pending is None
        state.advance(quick_main_action(state, seat) if own else rollout_move(state, rng))
    return margin(score(state), seat)


def rollout_move(state: HatsState, rng: random.Random) -> HatsMove:
    """A quick random main action (or answer to a swap) for finishing a simulated game."""
    seat = state.to_move
    assert seat is not None
    card = rng.choice(state.hands[seat])
    if state.pending is not None:
        return Back(card)
    targets = exchange_targets(state, card)
    if targets and rng.random() < 0.85:
        return Exchange(card, rng.choice(targets))
    return BlackHat(card)


def quick_main_action(state: HatsState, seat: int) -> HatsMove:
    """The main action that raises ``seat``'s points the most at once, looking no further.

    It counts collection points (H8), a black hat's 1 point, and the best
    favorite the cards left in hand could still make (H9), so that a low card
    worth keeping to the end is not thrown onto the table for a few points.
    Cookie and opponents are left out: it is quick. Ties go to the first
    found, low cards first and black hats before exchanges.
    """
    hand, table, collection = state.hands[seat], state.table, state.collections[seat]
    kinds = Counter(card.kind for card in collection)
    favorites = {card: favorite_line(seat, card, collection).points for card in hand}
    before = _points(kinds, face_up_positions(table))
    best: tuple[int, HatsMove] | None = None
    for card in sorted(hand, key=lambda card: card.value):
        options: list[tuple[HatsMove, Card | None, int]] = [(BlackHat(card), None, 1)]
        for position, there in enumerate(table, start=1):
            if card.kind == there.kind or card.value > there.value:
                changed = [*table[: position - 1], card, *table[position:]]
                kinds[there.kind] += 1
                points = _points(kinds, face_up_positions(changed)) - before
                kinds[there.kind] -= 1
                options.append((Exchange(card, position), there, points))
        for move, taken, gain in options:
            gain += _best_favorite(favorites, card, taken)
            if best is None or gain > best[0]:
                best = gain, move
    assert best is not None, "a main action needs a card in hand"
    return best[1]


def _best_favorite(favorites: dict[Card, int], played: Card, taken: Card | None) -> int:
    """The best favorite left in hand after ``played`` goes and ``taken`` joins the collection (H9)."""
    left = [
        points + (taken.value if taken is not None and taken.kind == card.kind else 0)
        for card, points in favorites.items()
        if card != played
    ]
    return max(left, default=0)


def _points(kinds: Counter[str], face_up: dict[str, int]) -> int:
    """Collection points (H8) of a collection counted by type, for this table."""
    return sum(count * face_up.get(kind, 0) for kind, count in kinds.items())


def _main_detail(ranked: Sequence[Estimate]) -> str:
    """The numbers behind a main action, as the hint's detail."""
    summary = simulation_summary(ranked, "endings")
    return f"{summary[0].upper()}{summary[1:]}."


def _optional_detail(optional: Sequence[Estimate], taken: bool) -> str:
    """The numbers behind the optional action, taken or left, as the hint's detail."""
    if not optional:
        return ""
    best = optional[0]
    what = "discard" if isinstance(best.move, Discard) else "swap"
    gain = (
        f"giving {best.move.card} away and then making the best-scoring main action ended on average "
        f"{best.mean:+.1f} points (give or take {best.error:.1f}) against keeping it, in {len(best.leads)} "
        f"simulated games"
    )
    if taken:
        return f"Before the main action, a {what} is worth it here: {gain}."
    return f" The best {what}, {best.move}, would not help clearly enough: {gain}."


# ---------------------------------------------------------------- hints in words

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def exchange_targets(state: HatsState, card: Card) -> list[int]:
    """The table positions (1-based) where ``card`` may be exchanged: same type or higher value (H2)."""
    return [position for position, there in enumerate(state.table, start=1) if fits(card, there)]


def what_to_do(view: Mapping[str, Any], move: HatsMove) -> str:
    """What ``move`` does, in the words of the hint's first sentence: "put ♥4 on position 4 and take ♥5"."""
    card = move.card
    if isinstance(move, Exchange):
        return f"put {card} on position {move.position} and take {view['table'][move.position - 1]}"
    if isinstance(move, BlackHat):
        return f"make {card} a black hat"
    if isinstance(move, Discard):
        return f"discard {card} and draw a new card from the deck, before your main action"
    if isinstance(move, Swap):
        return f"pass {card} face down to your partner {SEAT_NAMES[partner(view['seat'])]}, who gives you one back"
    return f"give {card} back to {SEAT_NAMES[partner(view['seat'])]}, your partner, who swapped with you"


def describe(view: Mapping[str, Any], move: HatsMove) -> str:
    """Why ``move`` is good for the seat whose ``view`` this is, as one sentence: the hint's second, after
    :func:`what_to_do`'s words."""
    world = sample_world(view, random.Random(0))  # any world: the public lines are the same in all
    why = (
        _main_action(world, view["seat"], move)
        if isinstance(move, Exchange | BlackHat)
        else _optional(world, view, move)
    )
    return f"{why[0].upper()}{why[1:]}."


def cookie_note(view: Mapping[str, Any], move: HatsMove) -> str:
    """Who gets the last cookie after ``move`` and why, when the move changes it (for the hint's "why?")."""
    world = sample_world(view, random.Random(0))
    after = world.copy()
    after.advance(move)
    if after.cookie == world.cookie:
        return ""
    return f"The last cookie: {cookie_holder(after.collections, after.black_hats, world.cookie)[1]}."


def _main_action(world: HatsState, seat: int, move: Exchange | BlackHat) -> str:
    """Why a main action: what it takes or makes, the cookie, and the score if the game ended now."""
    after = world.copy()
    after.advance(move)
    if isinstance(move, Exchange):
        text = _exchange(world, after, seat, move)
    else:
        text = "a black hat is 1 point for sure"
        if not exchange_targets(world, move.card):
            text += f", and {move.card} can't take any card on the table"
    if after.cookie == seat != world.cookie:
        text += f", and you take the last cookie ({COOKIE_POINTS} points)"
    elif world.cookie == seat != after.cookie:
        text += ", though you lose the last cookie"
    before_total, after_total = score(world).totals[seat], score(after).totals[seat]
    change = f"stays at {after_total}" if before_total == after_total else f"goes from {before_total} to {after_total}"
    return f"{text}; your score {change} if the game ended now"


def _exchange(before: HatsState, after: HatsState, seat: int, move: Exchange) -> str:
    """Why an exchange: the card taken, what it is worth now, and what the move changed (H7, H8)."""
    taken = before.table[move.position - 1]
    collection = after.collections[seat]
    count = sum(card.kind == taken.kind for card in collection)
    old, new = face_up_positions(before.table), face_up_positions(after.table)
    text = f"{taken} is your {_ORDINALS[count - 1]} {taken.kind}"
    where = new.get(taken.kind, 0)
    if where and count == 1:
        text += f", worth {_worth(where)} while {taken.kind} is at position {where}"
    elif where:
        text += (
            f", and each {taken.kind} you collected is worth {_worth(where)} while {taken.kind} is at position {where}"
        )
    else:
        text += f", but no {taken.kind} is face up on the table now, so your {taken.kind} score nothing yet"
    kind, held = move.card.kind, sum(card.kind == move.card.kind for card in before.collections[seat])
    if kind != taken.kind and held and old.get(kind, 0) != new.get(kind, 0):
        text += f"; your {kind} now score {new.get(kind, 0)} each instead of {old.get(kind, 0)}"
    return text


def _worth(count: int) -> str:
    """A number of points in words."""
    return "1 point" if count == 1 else f"{count} points"


def _optional(world: HatsState, view: Mapping[str, Any], move: Discard | Swap | Back) -> str:
    """Why discard, swap or give back: what the card could do on the table says why it goes."""
    card, hand = move.card, [parse_card(name) for name in view["hand"]]
    targets = exchange_targets(world, card)
    if not targets:
        return f"{card} can't take any card on the table"
    if len(targets) == 1:
        return f"{card} can only take the card at position {targets[0]}"
    if all(len(targets) <= len(exchange_targets(world, other)) for other in hand):
        return f"{card} can take fewer cards on the table than any other card in your hand"
    if isinstance(move, Back):
        return f"giving {card} back did best in the simulated games"
    return f"a new card did better than {card} in the simulated games"


BOTS = {"strong": HatsBot}
