"""Madder than a Hatter's strong bot (Monte Carlo over the hats and Haberdashers it cannot see) and its hints.

It shares :mod:`hatskit.bots.montecarlo` with the Hats bot; a world is played
out only to the end of the current round (the next round is a fresh deal no
choice of this one changes), by a quick one-move look ahead, and its worth is
the lead in game points when the round is scored. Simulations call the state's
``advance`` and ``scoring``, never narration. A hint says in one sentence what
the move changes on the table now; the simulation's numbers go to its detail.
How the bot plays out a world is explained in ``docs/rulings.md`` ("The strong
bot"); its measured figures are in ``benchmarks/README.md``.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from hatskit.bots.base import Hint
from hatskit.bots.montecarlo import Estimate, MonteCarloBot, simulation_summary
from hatskit.core import EndPhase, SeatView
from hatskit.games.madder.components import (
    ABILITY,
    END,
    HATS_PER_STYLE,
    PLAY,
    PREMIUM_MARK,
    SEAT_NAMES,
    Ability,
    MadderOptions,
    card_set,
    hat_words,
    style_of,
)
from hatskit.games.madder.moves import DECLINE, DONE, Choice, MadderMove, Play
from hatskit.games.madder.positions import sample_world
from hatskit.games.madder.scoring import style_counts, style_points
from hatskit.games.madder.state import MadderState, Spot, choices, transfers

RANDOM_PLAY = 0.15  # chance of a random hat in the quick play-out
ABILITY_SAMPLE = 8  # choices of a Premium ability weighed in the quick play-out (all of a Haberdasher's)


class MadderBot(MonteCarloBot):
    """Samples the hidden cards and plays each candidate to the end of the round (see the module docstring)."""

    sample_world = staticmethod(sample_world)

    def __init__(self, seed: int = 0, first_round: int = 240, finalists: int = 5, final_round: int = 48) -> None:
        super().__init__(seed, first_round, finalists, final_round)

    def hint(self, seat_view: SeatView) -> Hint:
        """The best move, the same every time it is asked in the same position: the simulations draw from a
        generator seeded with the seat's view (issue 25)."""
        self.rng = random.Random(view_seed(seat_view.view()))
        return super().hint(seat_view)

    def play_out(self, world: MadderState, move: MadderMove, seat: int) -> int:
        """``seat``'s lead in game points when the round of ``world`` ends after ``move`` and quick play."""
        ending = world.copy()
        round_number = ending.round
        ending.advance(move)
        while ending.turn is not None and ending.round == round_number:
            ending.advance(rollout_move(ending, self.rng))
        totals = ending.totals()
        return totals[seat] - max(t for s, t in enumerate(totals) if s != seat)

    def explain(self, ranked: Sequence[Estimate], view: Mapping[str, Any]) -> Hint:
        """The hint: the move a student can follow among the best within the noise, in one sentence."""
        ranked = followable_first(ranked, view)
        move = ranked[0].move
        return Hint(move, describe(view, move), simulation_summary(ranked, "endings of this round"))


def view_seed(view: Mapping[str, Any]) -> int:
    """A seed that depends on the seat's view only: the same position gives the same simulations."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big")


def followable_first(ranked: Sequence[Estimate], view: Mapping[str, Any]) -> list[Estimate]:
    """``ranked`` with the move a student can follow first, among those within the simulations' noise of the best.

    Within the noise (the difference of the means under the combined standard error, in the same worlds), a
    move that scores for the mover or spoils a rival now comes before one that changes nothing, and that before
    one that gives a rival a point (or costs the mover one); the simulated order decides the rest.
    """
    best = ranked[0]
    close = [
        index
        for index, estimate in enumerate(ranked)
        if len(estimate.leads) == len(best.leads)
        and best.mean - estimate.mean <= math.hypot(best.error, estimate.error)
    ]
    chosen = min(close, key=lambda index: (_kind_of(view, ranked[index].move), index))
    return [ranked[chosen], *(estimate for index, estimate in enumerate(ranked) if index != chosen)]


def _kind_of(view: Mapping[str, Any], move: MadderMove) -> int:
    """0: the move scores for its maker or spoils a rival now; 1: it changes no points now; 2: it helps a rival
    or costs its maker."""
    value = immediate_value(view, move)
    return 0 if value > 0 else 1 if value == 0 else 2


def immediate_value(view: Mapping[str, Any], move: MadderMove) -> int:
    """Points the move changes now, for its maker: their own gain minus the rivals' gains."""
    counts = [style_counts(inventory) for inventory in view["inventories"]]
    me = view["seat"]
    if isinstance(move, Play):
        return choice_value(counts, me, [(move.hat, Spot("hand", me), Spot("inventory", move.to))])
    if isinstance(move, EndPhase):
        return 0
    return choice_value(counts, me, transfers(me, waiting_card(view), move))


def waiting_card(view: Mapping[str, Any]) -> Ability:
    """The ability that waits for the seat's choice: the Premium just played, or the seat's Haberdasher."""
    cards = card_set(MadderOptions(**view["options"]))
    return cards.premiums[style_of(view["ability"])] if view["ability"] else cards.haberdasher(view["haberdasher"])


# ---------------------------------------------------------------- quick play-out


def rollout_move(state: MadderState, rng: random.Random) -> MadderMove:
    """A quick move for finishing a simulated round: the one-move look ahead of ``docs/rulings.md``."""
    me = state.turn
    assert me is not None
    if state.phase == PLAY:
        return _quick_play(state, me, rng)
    if state.phase == END:
        return _useful_end_play(state, me)
    offered = choices(state, me, state.waiting_card())
    if state.phase == ABILITY and len(offered) > ABILITY_SAMPLE:
        offered = rng.sample(offered, ABILITY_SAMPLE)
    return best_choice(state, me, offered)


def best_choice(state: MadderState, me: int, offered: Sequence[Choice]) -> MadderMove:
    """The choice that gains most points now (own gain minus the others'), or decline if none gains."""
    card = state.waiting_card()
    counts = [style_counts(inventory) for inventory in state.inventories]
    best, chosen = 0, DECLINE
    for move in offered:
        value = choice_value(counts, me, transfers(me, card, move))
        if value > best:
            best, chosen = value, move
    return chosen


def choice_value(counts: Sequence[Mapping[str, int]], me: int, moved: Sequence[tuple[str, Spot, Spot]]) -> int:
    """Points the hats ``moved`` change now: the user's gain minus the gains of the others."""
    return sum(delta if seat == me else -delta for seat, delta in point_changes(counts, moved).items())


def point_changes(counts: Sequence[Mapping[str, int]], moved: Sequence[tuple[str, Spot, Spot]]) -> dict[int, int]:
    """How many points each inventory's styles gain (or lose) when the hats ``moved`` move.

    Counted from the styles' counts per inventory, without copying anything: it
    runs inside every simulated ending.
    """
    changes: dict[int, int] = {}
    shifted: dict[tuple[int, str], int] = {}
    for hat, source, target in moved:
        style = style_of(hat)
        for spot, step in ((source, -1), (target, 1)):
            if spot.kind == "inventory":
                count = shifted.get((spot.seat, style), counts[spot.seat].get(style, 0))
                shifted[spot.seat, style] = count + step
                changes[spot.seat] = changes.get(spot.seat, 0) + _POINTS[count + step] - _POINTS[count]
    return changes


_POINTS = [style_points(count) for count in range(HATS_PER_STYLE + 1)]


def play_gain(inventory: Sequence[str], hat: str) -> int:
    """Points one more hat of this style adds to an inventory (M5)."""
    style = style_of(hat)
    count = inventory.count(style) + inventory.count(style + PREMIUM_MARK)
    return _GAIN[count]


_GAIN = [style_points(count + 1) - style_points(count) for count in range(HATS_PER_STYLE)]


def _quick_play(state: MadderState, me: int, rng: random.Random) -> Play:
    hand = state.hands[me]
    if rng.random() < RANDOM_PLAY:
        return Play(rng.choice(hand), rng.randrange(state.players))
    best, chosen = -99.0, Play(hand[0], me)
    for hat in set(hand):
        style = style_of(hat)
        for seat, inventory in enumerate(state.inventories):
            gain = _GAIN[inventory.count(style) + inventory.count(style + PREMIUM_MARK)]
            value = (gain if seat == me else -gain) + rng.random() * 0.5
            if value > best:
                best, chosen = value, Play(hat, seat)
    return chosen


def _useful_end_play(state: MadderState, me: int) -> MadderMove:
    inventory = state.inventories[me]
    for hat in state.hands[me]:
        if play_gain(inventory, hat) > 0:
            return Play(hat, me)
    return DONE


# ---------------------------------------------------------------- hints in words


def describe(view: Mapping[str, Any], move: MadderMove) -> str:
    """One sentence a 12-year-old follows: what the move changes on the table right now."""
    if isinstance(move, Play):
        return _describe_play(view, move)
    if isinstance(move, EndPhase):
        return _describe_end(view, move)
    return _describe_choice(view, move)


def _describe_play(view: Mapping[str, Any], move: Play) -> str:
    me, style = view["seat"], style_of(move.hat)
    count = style_counts(view["inventories"][move.to])[style]
    name = SEAT_NAMES[move.to]
    where = "your own inventory" if move.to == me else f"{name}'s inventory"
    before, after = style_points(count), style_points(count + 1)
    if move.to == me and count == 0:
        why = f"your first {style} scores 1 point"
    elif move.to == me and count == 3:
        why = f"your fourth {style} makes an Exclusive, worth 3 points"
    elif move.to != me and count == 1:
        why = f"{name}'s single {style} stops scoring, as 2 of a style score nothing"
    else:
        whose = "your" if move.to == me else f"{name}'s"
        why = f"{whose} {style}s go from {count} to {count + 1}, worth {after} instead of {before} points"
    costly = after < before if move.to == me else after > before
    if costly:
        why += ", a cost, but every other choice did worse in simulated games"
    card = card_set(MadderOptions(**view["options"])).premium_of(move.hat)
    if card is not None and view["phase"] == PLAY:
        why += f", and then you may use its ability, {card.name}"
    return f"Put the {hat_words(move.hat)} into {where}: {why}."


def _describe_end(view: Mapping[str, Any], move: EndPhase) -> str:
    if move == DECLINE:
        return "Decline: none of the choices helps you more than leaving everything as it is."
    inventory = view["inventories"][view["seat"]]
    if any(play_gain(inventory, hat) > 0 for hat in view["hand"] or ()):
        return "Stop here: keeping your last hats came out better in simulated endings than playing them."
    return "Stop here: none of the hats left in your hand would add points to your inventory."


def _describe_choice(view: Mapping[str, Any], move: Choice) -> str:
    me = view["seat"]
    card = waiting_card(view)
    counts = [style_counts(inventory) for inventory in view["inventories"]]
    changes = point_changes(counts, transfers(me, card, move))
    said = [_change(seat == me, SEAT_NAMES[seat], delta) for seat, delta in sorted(changes.items()) if delta]
    if not said:
        return f"That use of {card.name} changes no points now, but it did best in simulated games."
    return f"That use of {card.name}: right now " + " and ".join(said) + "."


def _change(mine: bool, name: str, delta: int) -> str:
    points = f"{abs(delta)} point" + ("" if abs(delta) == 1 else "s")
    if mine:
        return f"you {'gain' if delta > 0 else 'lose'} {points}"
    return f"{name} {'gains' if delta > 0 else 'loses'} {points}"


BOTS = {"strong": MadderBot}
