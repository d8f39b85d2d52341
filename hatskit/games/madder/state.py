"""Madder than a Hatter's state: whose turn, which moves are legal and why not, ``advance``, and the effects.

A round runs through the phases of ``components``: ``play`` (turns, M3),
``ability`` (the player who just played a Premium uses or declines it, M3),
``end`` (hats into your own inventory, then ``done``, M4) and ``haberdashers``
(revealed and used from the dealer, M4); the round is then scored (M5) and the
next one dealt (M1, M2) until the game is ``over``. The effect primitives
behind every Premium ability and Haberdasher (``move``, ``discard``, ``swap``,
``take``; ``bonus`` only scores) are rules too, so they are here: the choices a
card offers, why a choice is refused, the hats a choice moves (M6). The rulings
are in ``docs/rulings.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations
from typing import NamedTuple

from hatskit.core import EndPhase, InvalidMoveError, ScoreLine, SeededDraws, TurnBased, brief
from hatskit.games.madder.components import (
    ABILITY,
    END,
    HABERDASHERS,
    HAND_SIZE,
    LINE_SIZE,
    OVER,
    PLAY,
    SEAT_NAMES,
    Ability,
    CardSet,
    MadderOptions,
    style_of,
)
from hatskit.games.madder.moves import (
    DECLINE,
    DONE,
    LINE,
    Choice,
    Discard,
    HatAt,
    MadderMove,
    MoveHat,
    Place,
    Play,
    Swap,
    Take,
)
from hatskit.games.madder.scoring import round_lines, totals_of


@dataclass
class MadderState(TurnBased, SeededDraws):
    """A whole position, hidden cards included. The deck's top is its end; the line's first hat is first."""

    players: int
    options: MadderOptions
    cards: CardSet
    seed: int
    draws: int  # random events so far: the next one draws from game_random(seed, draws)
    inventories: list[list[str]]
    hands: list[list[str]]
    line: list[str]
    deck: list[str]
    discard: list[str]
    haberdashers: list[str] | None  # one name per seat; None in an exercise
    scores: list[tuple[ScoreLine, ...]]  # the lines of each finished round
    round: int = 1
    dealer: int = 0
    phase: str = PLAY
    turn: int | None = 0
    ability: str | None = None  # the Premium hat whose ability waits (phase ABILITY)

    # -- the contract ---------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return self.turn

    def seat_names(self) -> tuple[str, ...]:
        return SEAT_NAMES[: self.players]

    def copy(self) -> MadderState:
        return MadderState(
            self.players, self.options, self.cards, self.seed, self.draws,
            [list(i) for i in self.inventories], [list(h) for h in self.hands],
            list(self.line), list(self.deck), list(self.discard),
            None if self.haberdashers is None else list(self.haberdashers), list(self.scores),
            self.round, self.dealer, self.phase, self.turn, self.ability,
        )  # fmt: skip

    def legal_moves(self, seat: int | None = None) -> list[MadderMove]:
        me = self.turn
        if me is None:
            return []
        hand = sorted(set(self.hands[me]))
        if self.phase == PLAY:
            return [Play(hat, target) for hat in hand for target in range(self.players)]
        if self.phase == END:
            return [*(Play(hat, me) for hat in hand), DONE]
        return [*choices(self, me, self.waiting_card()), DECLINE]

    def waiting_card(self) -> Ability:
        """The ability that waits for the seat to move: its Premium's, or its Haberdasher."""
        assert self.turn is not None
        if self.phase == ABILITY:
            assert self.ability is not None
            return self.cards.premiums[style_of(self.ability)]
        assert self.haberdashers is not None
        return self.cards.haberdasher(self.haberdashers[self.turn])

    def why_illegal(self, move: MadderMove) -> str | None:
        """None when legal, else a sentence naming the rule broken (or the field of a malformed move object)."""
        malformed = malformed_reason(move)
        if malformed is not None:
            return malformed
        if self.turn is None:
            return "the game is over (M1)"
        if isinstance(move, Play):
            return self._play_reason(move, self.turn)
        if isinstance(move, EndPhase):
            return self._end_phase_reason(move, self.turn)
        if self.phase not in (ABILITY, HABERDASHERS):
            return f"a {move.verb} choice belongs to a Premium ability or a Haberdasher, and none is waiting now (M3)"
        return choice_reason(self, self.turn, self.waiting_card(), move)

    def advance(self, move: MadderMove) -> None:
        """Carry out a legal move; it tells nothing (``narration`` tells it from the states before and after)."""
        me = self.turn
        assert me is not None
        if isinstance(move, Play):
            self._advance_play(move, me)
        elif move == DONE:
            self._next_end(me)
        else:
            if move != DECLINE:
                assert not isinstance(move, EndPhase)
                carry_out(self, me, self.waiting_card(), move)
            self._after_choice(me)

    def totals(self) -> list[int]:
        """Game points per seat over the finished rounds."""
        return totals_of(self.scores, self.players)

    # -- legality ---------------------------------------------------------

    def _play_reason(self, move: Play, me: int) -> str | None:
        name = SEAT_NAMES[me]
        if self.phase in (ABILITY, HABERDASHERS):
            card = self.waiting_card()
            return f"{name} must first use {card.name} or decline it: {card.text} (M3, M4)"
        if move.to >= self.players:
            return f"there is no {SEAT_NAMES[move.to]} in a {self.players}-player game"
        if style_of(move.hat) not in self.cards.styles:
            return f"{move.hat} is not a hat of this game; the styles are {', '.join(self.cards.styles)}"
        if move.hat not in self.hands[me]:
            return f"{name} has no {move.hat} in hand"
        if self.phase == END and move.to != me:
            return "at the end of the round each player plays hats into their own inventory only (M4)"
        return None

    def _end_phase_reason(self, move: EndPhase, me: int) -> str | None:
        if move == DONE:
            if self.phase == END:
                return None
            if self.phase == PLAY:
                return "'done' belongs to the end of the round; on a turn a hat must be played (M3)"
            return f"to leave {self.waiting_card().name} unused, write 'decline'"
        if move == DECLINE:
            if self.phase in (ABILITY, HABERDASHERS):
                return None
            return "there is no ability waiting to be declined now (M3)"
        return f"{move.word!r} is not a move of this game"

    # -- turns (M3) ---------------------------------------------------------

    def _advance_play(self, move: Play, me: int) -> None:
        self.hands[me].remove(move.hat)
        self.inventories[move.to].append(move.hat)
        if self.phase == END:
            if not self.hands[me]:
                self._next_end(me)
            return
        card = self.cards.premium_of(move.hat)
        if card is not None and has_choice(self, me, card):
            self.phase, self.ability = ABILITY, move.hat
            return
        self._finish_turn(me)

    def _after_choice(self, me: int) -> None:
        """After an ability is used or declined: the next Haberdasher, or the rest of the turn."""
        if self.phase == HABERDASHERS:
            self._next_haberdasher(me)
            return
        self.phase, self.ability = PLAY, None
        self._refill()
        self._finish_turn(me)

    def _finish_turn(self, me: int) -> None:
        """Take the first hat of the line; then the next player, or the end of the round's turns."""
        if self.line:
            self.hands[me].append(self.line.pop(0))
        self._refill()
        if self.line:
            self.turn = (me + 1) % self.players
            return
        self.phase = END
        self._next_end(None)

    def _refill(self) -> None:
        """An empty line is turned over again from the deck (fewer hats if the deck is short, M3)."""
        if self.line or not self.deck or self.phase not in (PLAY, ABILITY):
            return
        count = min(LINE_SIZE[self.players], len(self.deck))
        self.line = [self.deck.pop() for _ in range(count)]

    # -- end of the round (M4) ---------------------------------------------

    def order_after(self, seat: int | None) -> list[int]:
        """The seats still to come in turn order from the dealer, after ``seat`` (None: all of them)."""
        order = [(self.dealer + k) % self.players for k in range(self.players)]
        return order if seat is None else order[order.index(seat) + 1 :]

    def _next_end(self, after: int | None) -> None:
        for seat in self.order_after(after):
            if self.hands[seat]:
                self.turn = seat
                return
        self.phase = HABERDASHERS
        self._next_haberdasher(None)

    def _next_haberdasher(self, after: int | None) -> None:
        assert self.haberdashers is not None
        for seat in self.order_after(after):
            if has_choice(self, seat, self.cards.haberdasher(self.haberdashers[seat])):
                self.turn = seat
                return
        self._end_round()

    def _end_round(self) -> None:
        """Score the round (M5); the game ends after a round per player with one leader, else the next deal (M1)."""
        lines = round_lines(self.inventories, self.haberdashers, self.cards, self.round)
        self.scores.append(tuple(line._replace(shows=()) for line in lines))  # a finished round's hats left the table
        totals = self.totals()
        if self.round >= self.players and totals.count(max(totals)) == 1:
            self.phase, self.turn = OVER, None
            return
        self.round, self.dealer = self.round + 1, (self.dealer + 1) % self.players
        self.deal()

    def deal(self) -> None:
        """Shuffle every hat and Haberdasher and deal a round from the dealer (M1, M2)."""
        rng = self.next_random()
        hats = self.cards.hats()
        rng.shuffle(hats)
        names = self.cards.haberdasher_names()
        rng.shuffle(names)
        self.haberdashers = names[: self.players]
        self.inventories = [[hats.pop()] for _ in range(self.players)]
        self.hands = [[hats.pop() for _ in range(HAND_SIZE[self.players])] for _ in range(self.players)]
        self.line = [hats.pop() for _ in range(LINE_SIZE[self.players])]
        self.deck, self.discard = hats, []
        self.phase, self.turn, self.ability = PLAY, self.dealer, None


def malformed_reason(move: object) -> str | None:
    """Why ``move`` is not a Madder than a Hatter move object that notation can write (the contract of ``moves``)."""
    if not isinstance(move, Play | EndPhase | MoveHat | Discard | Swap | Take):
        return f"{brief(move)} is not a Madder than a Hatter move"
    try:
        str(move)
    except InvalidMoveError as error:
        return str(error)
    return None


# ---------------------------------------------------------------- the effects of abilities (M6)
# "from"/"to" scopes are read from the user's seat: "own" (the user's inventory), "other" (another
# player's), "any" (anybody's) and "line"; a take goes into the user's "hand" or "own" inventory.


def seats_in(scope: str, user: int, players: int) -> list[int]:
    """The seats a scope names, seen from ``user``."""
    if scope == "own":
        return [user]
    return [seat for seat in range(players) if scope == "any" or seat != user]


def places_in(scope: str, user: int, players: int) -> list[Place]:
    """The places a scope names, seen from ``user``: the line, or seats."""
    return [LINE] if scope == LINE else list(seats_in(scope, user, players))


def holder(state: MadderState, place: Place) -> list[str]:
    """The hats at a place: an inventory or the line."""
    return state.line if place == LINE else state.inventories[int(place)]


def choices(state: MadderState, user: int, card: Ability) -> list[Choice]:
    """Every choice the card offers ``user`` now (none for a scoring bonus)."""
    return list(_choices(state, user, card))


def has_choice(state: MadderState, user: int, card: Ability) -> bool:
    """Whether the card offers ``user`` any choice now (without listing them all)."""
    return next(_choices(state, user, card), None) is not None


def _choices(state: MadderState, user: int, card: Ability) -> Iterator[Choice]:
    return _CHOICES[card.effect](state, user, card) if card.chooses else iter(())


def _move_choices(state: MadderState, user: int, card: Ability) -> Iterator[Choice]:
    sources = seats_in(card.params["from"], user, state.players)
    targets = seats_in(card.params["to"], user, state.players)
    return (
        MoveHat(hat, source, target)
        for source in sources
        for hat in sorted(set(state.inventories[source]))
        for target in targets
        if target != source
    )


def _discard_choices(state: MadderState, user: int, card: Ability) -> Iterator[Choice]:
    places = places_in(card.params["from"], user, state.players)
    pool = sorted((HatAt(hat, place) for place in places for hat in holder(state, place)), key=str)
    seen = set()
    for count in range(1, card.params["count"] + 1):
        for combo in combinations(pool, count):
            if combo not in seen:
                seen.add(combo)
                yield Discard(combo)


def _swap_choices(state: MadderState, user: int, card: Ability) -> Iterator[Choice]:
    return (
        Swap(HatAt(mine, user), HatAt(theirs, other))
        for mine in sorted(set(state.inventories[user]))
        for other in seats_in("other", user, state.players)
        for theirs in sorted(set(state.inventories[other]))
        if theirs != mine
    )


def _take_choices(state: MadderState, user: int, card: Ability) -> Iterator[Choice]:
    places = places_in(card.params["from"], user, state.players)
    return (Take(HatAt(hat, place)) for place in places for hat in sorted(set(holder(state, place))))


_CHOICES: dict[str, Callable[[MadderState, int, Ability], Iterator[Choice]]] = {
    "move": _move_choices,
    "discard": _discard_choices,
    "swap": _swap_choices,
    "take": _take_choices,
}


def choice_reason(state: MadderState, user: int, card: Ability, move: Choice) -> str | None:
    """None when ``move`` is one of the card's choices, else a sentence saying why not."""
    if move.verb != card.effect:
        return f"{card.name} is a {card.effect} ability, not a {move.verb}: {card.text}"
    missing = _missing(state, named_hats(move))
    if missing:
        return missing
    if move in choices(state, user, card):
        return None
    return f"{card.name} does not allow that choice: {card.text}"


def named_hats(move: Choice) -> list[HatAt]:
    """The hats a choice names where they are now."""
    if isinstance(move, MoveHat):
        return [HatAt(move.hat, move.source)]
    if isinstance(move, Discard):
        return list(move.items)
    if isinstance(move, Swap):
        return [move.mine, move.theirs]
    return [move.item]


def _missing(state: MadderState, named: Iterable[HatAt]) -> str | None:
    for (hat, place), wanted in Counter((item.hat, item.place) for item in named).items():
        if place != LINE and int(place) >= state.players:
            return f"there is no {SEAT_NAMES[int(place)]} in a {state.players}-player game"
        if holder(state, place).count(hat) < wanted:
            where = "the assembly line" if place == LINE else f"{SEAT_NAMES[int(place)]}'s inventory"
            return f"{where} does not hold {count_of(hat, wanted)}"
    return None


def count_of(hat: str, count: int) -> str:
    """``a Fedora``, ``2 Fedoras``."""
    return f"a {hat}" if count == 1 else f"{count} {hat}s"


class Spot(NamedTuple):
    """Where a hat is or goes: an inventory, a hand (with their seat), the line or the discard pile."""

    kind: str  # "inventory", "hand", LINE or "discard"
    seat: int = -1


def spot_of(place: Place) -> Spot:
    """The spot of a place named in a move: the line or an inventory."""
    return Spot(LINE) if place == LINE else Spot("inventory", int(place))


def transfers(user: int, card: Ability, move: Choice) -> list[tuple[str, Spot, Spot]]:
    """The hats a legal choice moves, each as (hat, from, to): every effect is made of these."""
    if isinstance(move, MoveHat):
        return [(move.hat, spot_of(move.source), spot_of(move.target))]
    if isinstance(move, Discard):
        return [(item.hat, spot_of(item.place), Spot("discard")) for item in move.items]
    if isinstance(move, Swap):
        mine, theirs = spot_of(move.mine.place), spot_of(move.theirs.place)
        return [(move.mine.hat, mine, theirs), (move.theirs.hat, theirs, mine)]
    into = Spot("hand", user) if card.params["to"] == "hand" else Spot("inventory", user)
    return [(move.item.hat, spot_of(move.item.place), into)]


def hats_at(state: MadderState, spot: Spot) -> list[str]:
    """The list of hats at a spot (changed in place when a hat moves)."""
    if spot.kind == "inventory":
        return state.inventories[spot.seat]
    if spot.kind == "hand":
        return state.hands[spot.seat]
    return state.line if spot.kind == LINE else state.discard


def carry_out(state: MadderState, user: int, card: Ability, move: Choice) -> None:
    """Make a legal choice's changes: a hat leaves its place as its first copy there (on the line, nearest the
    first hat)."""
    for hat, source, target in transfers(user, card, move):
        hats_at(state, source).remove(hat)
        hats_at(state, target).append(hat)
