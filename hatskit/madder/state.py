"""The state of a Madder than a Hatter game: phases, legality with reasons, moves and their events.

A round runs through phases: ``play`` (turns: a hat into any inventory, then
the first hat of the line, M3), ``ability`` (the player who just played a
Premium uses or declines its ability, M3), ``end`` (from the dealer, each
player plays hats into their own inventory or says ``done``, M4) and
``haberdashers`` (revealed, then used from the dealer, M4). The round is then
scored (M5) and the next one dealt (M1, M2) until the game is ``over``. A
position with only inventories is an ``exercise``: it is scored, never played.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from hatskit.core import EndPhase, Event, Outcome, ScoreLine, ScoreSheet, SeededDraws, TurnBased, options_dict
from hatskit.madder.cards import Ability, CardSet, MadderOptions, style_of
from hatskit.madder.effects import carry_out, choice_reason, choices, has_choice
from hatskit.madder.moves import DECLINE, DONE, SEAT_NAMES, MadderMove, Play
from hatskit.madder.scoring import round_lines

PLAY, ABILITY, END, HABERDASHERS, OVER, EXERCISE = "play", "ability", "end", "haberdashers", "over", "exercise"
PHASES = (PLAY, ABILITY, END, HABERDASHERS, OVER, EXERCISE)
HAND_SIZE = {3: 3, 4: 2}  # face-down hats dealt to each player (M2)
LINE_SIZE = {3: 4, 4: 5}  # hats on the assembly line (M2)
SECRET_NOTE = "Haberdashers stay secret until the end of the round, so their bonuses are left out (M4)"


class MadderView(TypedDict):
    """What one seat may see (``seat`` None: a spectator)."""

    game: str
    seat: int | None
    players: int
    names: list[str]
    cards_label: str  # the card set's label: the stand-in set says it is hatskit's own
    styles: list[str]
    round: int
    rounds: int  # the regular rounds (one per player); a tie adds more (M1)
    dealer: int
    phase: str
    to_move: int | None
    inventories: list[list[str]]
    hand: list[str] | None  # the seat's own hand only
    hand_sizes: list[int]
    line: list[str]  # first hat first
    deck_size: int
    discard: list[str]  # face up, out of the round
    haberdasher: str | None  # the seat's own Haberdasher
    haberdashers: list[str] | None  # everyone's, once revealed
    ability: str | None  # the Premium whose ability waits for a choice
    done: list[int]  # seats that have finished the end-of-round step or their Haberdasher
    scores: list[list[int]]  # points per finished round, per seat
    options: dict[str, Any]


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
        """None when legal, else a sentence naming the rule broken."""
        if self.turn is None:
            return "the game is over (M1)"
        if isinstance(move, Play):
            return self._play_reason(move, self.turn)
        if isinstance(move, EndPhase):
            return self._end_phase_reason(move, self.turn)
        if self.phase not in (ABILITY, HABERDASHERS):
            return f"a {move.verb} choice belongs to a Premium ability or a Haberdasher, and none is waiting now (M3)"
        return choice_reason(self, self.turn, self.waiting_card(), move)

    def advance(self, move: object) -> None:
        """TRANSITION: carry out a legal move; the story it returns is dropped."""
        self.apply(move)

    def apply(self, move: MadderMove) -> list[Event]:
        """Carry out a legal move and narrate what it caused."""
        me = self.turn
        assert me is not None
        if isinstance(move, Play):
            return self._apply_play(move, me)
        if move == DONE:
            return [Event(f"{SEAT_NAMES[me]} is done playing hats for this round", "M4"), *self._next_end(me)]
        card = self.waiting_card()
        if move == DECLINE:
            text = f"{SEAT_NAMES[me]} declined {card.name}"
        else:
            assert not isinstance(move, EndPhase)
            text = f"{carry_out(self, me, card, move)} ({card.name})"
        if self.phase == HABERDASHERS:
            return [Event(text, "M4"), *self._refill(), *self._next_haberdasher(me)]
        self.phase, self.ability = PLAY, None
        return [Event(text, "M3"), *self._refill(), *self._finish_turn(me)]

    # -- legality ---------------------------------------------------------

    def _play_reason(self, move: Play, me: int) -> str | None:
        name = SEAT_NAMES[me]
        if self.phase in (ABILITY, HABERDASHERS):
            card = self.waiting_card()
            return f"{name} must first use {card.name} or decline it: {card.text} (M3, M4)"
        if move.seat >= self.players:
            return f"there is no {SEAT_NAMES[move.seat]} in a {self.players}-player game"
        if style_of(move.hat) not in self.cards.styles:
            return f"{move.hat} is not a hat of this game; the styles are {', '.join(self.cards.styles)}"
        if move.hat not in self.hands[me]:
            return f"{name} has no {move.hat} in hand"
        if self.phase == END and move.seat != me:
            return f"at the end of the round hats go into their player's own inventory only, so {name}'s (M4)"
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

    def _apply_play(self, move: Play, me: int) -> list[Event]:
        self.hands[me].remove(move.hat)
        self.inventories[move.seat].append(move.hat)
        whose = "their own" if move.seat == me else f"{SEAT_NAMES[move.seat]}'s"
        events = [
            Event(f"{SEAT_NAMES[me]} put a {move.hat} into {whose} inventory", "M4" if self.phase == END else "M3")
        ]
        if self.phase == END:
            return events + ([] if self.hands[me] else self._next_end(me))
        card = self.cards.premium_of(move.hat)
        if card is not None and has_choice(self, me, card):
            self.phase, self.ability = ABILITY, move.hat
            return [*events, Event(f"{SEAT_NAMES[me]} may use {card.name}: {card.text} Or decline it.", "M3")]
        if card is not None:
            events.append(Event(f"{card.name} has nothing to act on right now", "M3"))
        return events + self._finish_turn(me)

    def _finish_turn(self, me: int) -> list[Event]:
        """Take the first hat of the line; then the next player, or the end of the round's turns."""
        events = []
        if self.line:
            hat = self.line.pop(0)
            self.hands[me].append(hat)
            events.append(Event(f"{SEAT_NAMES[me]} took the first hat of the assembly line, a {hat}", "M3"))
        events += self._refill()
        if self.line:
            self.turn = (me + 1) % self.players
            return events
        self.phase = END
        events.append(Event("The deck and the assembly line are empty: the turns of this round are over", "M3"))
        events.append(Event("From the dealer on, each player may play hats into their own inventory only", "M4"))
        return events + self._next_end(None)

    def _refill(self) -> list[Event]:
        """An empty line is turned over again from the deck (fewer hats if the deck is short, M3)."""
        if self.line or not self.deck or self.phase not in (PLAY, ABILITY):
            return []
        count = min(LINE_SIZE[self.players], len(self.deck))
        self.line = [self.deck.pop() for _ in range(count)]
        return [Event(f"The assembly line was empty: {count} new hats are turned over from the deck", "M3")]

    # -- end of the round (M4) ---------------------------------------------

    def order_after(self, seat: int | None) -> list[int]:
        """The seats still to come in turn order from the dealer, after ``seat`` (None: all of them)."""
        order = [(self.dealer + k) % self.players for k in range(self.players)]
        return order if seat is None else order[order.index(seat) + 1 :]

    def _next_end(self, after: int | None) -> list[Event]:
        for seat in self.order_after(after):
            if self.hands[seat]:
                self.turn = seat
                return []
        return self._reveal()

    def _reveal(self) -> list[Event]:
        assert self.haberdashers is not None
        self.phase = HABERDASHERS
        shown = ", ".join(f"{SEAT_NAMES[s]}: {name}" for s, name in enumerate(self.haberdashers))
        return [Event(f"The Haberdashers are revealed ({shown})", "M4"), *self._next_haberdasher(None)]

    def _next_haberdasher(self, after: int | None) -> list[Event]:
        assert self.haberdashers is not None
        for seat in self.order_after(after):
            card = self.cards.haberdasher(self.haberdashers[seat])
            if has_choice(self, seat, card):
                self.turn = seat
                return []
        return self._end_round()

    def _end_round(self) -> list[Event]:
        lines = tuple(round_lines(self.inventories, self.haberdashers, self.cards, self.round))
        self.scores.append(lines)
        points = ScoreSheet(lines, self.seat_names()).totals
        said = ", ".join(f"{SEAT_NAMES[s]} {p}" for s, p in enumerate(points))
        events = [Event(f"Round {self.round} is scored: {said}", "M5")]
        totals = self.totals()
        leaders = [s for s, total in enumerate(totals) if total == max(totals)]
        if self.round >= self.players and len(leaders) == 1:
            self.phase, self.turn = OVER, None
            return [*events, Event(f"The game is over after {self.round} rounds", "M1")]
        if self.round >= self.players:
            tied = " and ".join(SEAT_NAMES[s] for s in leaders)
            events.append(Event(f"{tied} tie on {max(totals)} points: one more round is played", "M1"))
        self.round, self.dealer = self.round + 1, (self.dealer + 1) % self.players
        return events + self.deal()

    def deal(self) -> list[Event]:
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
        text = f"Round {self.round}: {SEAT_NAMES[self.dealer]} deals and takes the first turn"
        return [Event(text, "M1")]

    # -- scoring (M5) --------------------------------------------------------

    def totals(self) -> list[int]:
        """Game totals over the finished rounds."""
        return ScoreSheet(tuple(line for lines in self.scores for line in lines), self.seat_names()).totals

    def score(self) -> ScoreSheet:
        """Finished rounds, then the current one "if it ended now" (Haberdashers left out while secret)."""
        names = self.seat_names()
        if self.phase == EXERCISE:
            lines = round_lines(self.inventories, None, self.cards, None)
            return ScoreSheet(tuple(lines), names, note="a scoring exercise: the hats alone, no Haberdashers")
        done = tuple(line for lines in self.scores for line in lines)
        if self.phase == OVER:
            return ScoreSheet(done, names)
        revealed = self.haberdashers if self.phase == HABERDASHERS else None
        current = round_lines(self.inventories, revealed, self.cards, self.round)
        note = f"round {self.round} as if it ended now" + ("" if revealed else f"; {SECRET_NOTE}")
        return ScoreSheet(done + tuple(current), names, final=False, note=note)

    def outcome(self) -> Outcome | None:
        """The winner once the game is over (M1); an exercise names who has most points."""
        if self.phase not in (OVER, EXERCISE):
            return None
        totals = self.score().totals
        winners = tuple(s for s, total in enumerate(totals) if total == max(totals))
        who = " and ".join(SEAT_NAMES[s] for s in winners)
        if self.phase == EXERCISE:
            return Outcome(winners, f"scoring exercise: {who} score most, {max(totals)} points")
        extra = self.round - self.players
        tie = f", {extra} of them played to break a tie (M1)" if extra else " (M1)"
        return Outcome(winners, f"{who} wins with {max(totals)} points after {self.round} rounds{tie}")

    # -- views and positions --------------------------------------------------

    def view(self, seat: int | None) -> MadderView:  # type: ignore[override]
        """What ``seat`` may see: its own hand and Haberdasher; everyone's once revealed."""
        revealed = self.phase in (HABERDASHERS, OVER)
        own = seat is not None and self.haberdashers is not None
        return MadderView(
            game="madder", seat=seat, players=self.players, names=list(self.seat_names()),
            cards_label=self.cards.label, styles=list(self.cards.styles), round=self.round,
            rounds=self.players, dealer=self.dealer, phase=self.phase, to_move=self.turn,
            inventories=[list(i) for i in self.inventories],
            hand=list(self.hands[seat]) if seat is not None else None,
            hand_sizes=[len(h) for h in self.hands], line=list(self.line), deck_size=len(self.deck),
            discard=list(self.discard),
            haberdasher=self.haberdashers[seat] if own else None,  # type: ignore[index]
            haberdashers=list(self.haberdashers) if revealed and self.haberdashers else None,
            ability=self.ability, done=self.finished(), scores=self.round_points(),
            options=options_dict(self.options),
        )  # fmt: skip

    def finished(self) -> list[int]:
        """Seats that have finished the end-of-round step (or their Haberdasher), in order from the dealer."""
        if self.phase not in (END, HABERDASHERS) or self.turn is None:
            return []
        order = self.order_after(None)
        return order[: order.index(self.turn)]

    def round_points(self) -> list[list[int]]:
        """Points per finished round, per seat."""
        return [ScoreSheet(lines, self.seat_names()).totals for lines in self.scores]

    def position(self) -> dict[str, Any]:
        """The position format of the module docstring; an exercise keeps its inventories only."""
        head = {"game": "madder", "players": self.players}
        inventories = [list(i) for i in self.inventories]
        if self.phase == EXERCISE:
            return {**head, "inventories": inventories, "options": options_dict(self.options)}
        return {
            **head, "round": self.round, "dealer": self.dealer, "phase": self.phase, "to_move": self.turn,
            "inventories": inventories, "hands": [list(h) for h in self.hands], "line": list(self.line),
            "deck": list(self.deck), "discard": list(self.discard), "haberdashers": list(self.haberdashers or ()),
            "ability": self.ability, "scores": [_round_record(lines, self.players) for lines in self.scores],
            "options": options_dict(self.options), "seed": self.seed, "draws": self.draws,
        }  # fmt: skip


def _round_record(lines: Sequence[ScoreLine], players: int) -> list[list[list[Any]]]:
    """One round's lines per seat, each as [category, points, explanation]."""
    return [
        [[line.category, line.points, line.explanation] for line in lines if line.seat == s] for s in range(players)
    ]
