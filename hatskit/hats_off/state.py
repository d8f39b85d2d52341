"""The Hats Off! state: who may act, legality, races settled by time, refills, rounds, scores and views."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple, TypedDict

from hatskit.core import Event, Outcome, ScoreLine, ScoreSheet, SeededDraws, options_dict
from hatskit.hats_off.cards import (
    DEALT,
    FALL_CHANCE,
    HAND_SIZE,
    KIND_NAMES,
    MAX_MS,
    SEAT_NAMES,
    USAGE,
    Call,
    Flip,
    HatsOffMove,
    HatsOffOptions,
    Pass,
    Play,
    Wear,
    a_hat,
    all_cards,
    seconds,
)

# ---------------------------------------------------------------- state


class Loose(NamedTuple):
    """A face-up card waiting for a "Hats Off!" call: from a wrong play (O5) or a fallen hat (O6)."""

    kind: str
    owner: int
    fell: bool

    @property
    def rule(self) -> str:
        return "O6" if self.fell else "O5"


@dataclass
class _Settling:
    """What a race's settlement has found so far, in order of time."""

    callable: list[Loose]  # loose when the race began, not yet won
    new_loose: list[Loose] = field(default_factory=list)
    first_play: Play | None = None
    winning: Play | None = None
    first_caller: int | None = None
    first_call_rule: str = "O5"
    winners: list[int] = field(default_factory=list)


@dataclass
class HatsOffState(SeededDraws):
    """A whole Hats Off! position, hidden cards included. The deck's top is its end."""

    players: int
    options: HatsOffOptions
    seed: int
    draws: int = 0  # random events so far: the next one draws from game_random(seed, draws)
    deck: list[str] = field(default_factory=list)
    pile: list[str] = field(default_factory=list)
    hands: list[list[str]] = field(default_factory=list)
    heads: list[str | None] = field(default_factory=list)
    looking: list[bool] = field(default_factory=list)
    head_changes: list[int] = field(default_factory=list)  # head cards worn this round, per seat
    won: list[list[str]] = field(default_factory=list)
    called: list[int] = field(default_factory=list)  # how many of the won cards came from calls
    loose: list[Loose] = field(default_factory=list)
    submitted: list[HatsOffMove | None] = field(default_factory=list)
    phase: str = "wear"
    flipper: int = 0  # who flips next (flip phase), else who flipped the pile's top card
    last_winner: int | None = None
    flips: int = 0  # flips this round
    race: int = 0  # races for the current top card: 1 right after the flip
    round: int = 1
    round_results: list[list[int]] = field(default_factory=list)

    # -- the contract ---------------------------------------------------

    @property
    def to_move(self) -> int | None:
        """The flipper while a card is to be flipped; None in a race or at the deal, where many may act."""
        return self.flipper if self.phase == "flip" else None

    @property
    def acting(self) -> tuple[int, ...]:
        """The seats that may act now: the flipper, or every seat with something to do that has not moved."""
        if self.phase == "flip":
            return (self.flipper,)
        if self.phase == "wear":
            return tuple(s for s in range(self.players) if self.heads[s] is None)
        if self.phase == "race":
            return tuple(s for s in range(self.players) if self.submitted[s] is None and self._may_act(s))
        return ()

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def seat_of(self, move: HatsOffMove) -> int:
        """Every move names its seat."""
        return move.seat

    def seat_names(self) -> tuple[str, ...]:
        return SEAT_NAMES[: self.players]

    def copy(self) -> HatsOffState:
        return replace(
            self,
            deck=list(self.deck),
            pile=list(self.pile),
            hands=[list(h) for h in self.hands],
            heads=list(self.heads),
            looking=list(self.looking),
            head_changes=list(self.head_changes),
            won=[list(w) for w in self.won],
            called=list(self.called),
            loose=list(self.loose),
            submitted=list(self.submitted),
            round_results=[list(r) for r in self.round_results],
        )

    def legal_moves(self, seat: int | None = None) -> list[HatsOffMove]:
        """The moves of ``seat`` (every acting seat when None); plays and calls are listed at time 0."""
        seats = self.acting if seat is None else (seat,) if seat in self.acting else ()
        return [move for s in seats for move in self._moves_of(s)]

    def _moves_of(self, seat: int) -> list[HatsOffMove]:
        if self.phase == "wear":
            return [Wear(seat, kind) for kind in sorted(set(self.hands[seat]))]
        if self.phase == "flip":
            return [Flip(seat)]
        moves: list[HatsOffMove] = []
        if self.pile:
            moves += [Play(seat, 0, kind) for kind in sorted(set(self.hands[seat]))]
            moves += [Play(seat, 0, None)] if self.heads[seat] is not None else []
        if self._may_call(seat):
            moves.append(Call(seat, 0))
        return [*moves, Pass(seat)]

    def why_illegal(self, move: HatsOffMove) -> str | None:
        """None when legal, else a sentence naming the rule broken."""
        if not isinstance(move, Wear | Flip | Pass | Play | Call):
            return f"{move!r} is not a Hats Off! move: {USAGE}"
        if self.phase == "over":
            return "the game is over (O7)"
        if not 0 <= move.seat < self.players:
            return f"there is no {move._prefix()[:-1]} in a {self.players}-player game"
        if isinstance(move, Wear):
            return self._wear_reason(move)
        if isinstance(move, Flip):
            return self._flip_reason(move)
        return self._race_reason(move)

    def advance(self, move: object) -> None:
        """TRANSITION: carry out a legal move; the story it returns is dropped."""
        self.apply(move)

    def apply(self, move: HatsOffMove) -> list[Event]:
        """Carry out a legal move and narrate what it caused."""
        if isinstance(move, Wear):
            return self._apply_wear(move)
        if isinstance(move, Flip):
            return self._apply_flip(move)
        self.submitted[move.seat] = move
        name = SEAT_NAMES[move.seat]
        events = [Event(f"{name} has moved (moves stay secret until everyone has moved)", "O3")]
        return events + (self._settle() if not self.acting else [])

    # -- legality ---------------------------------------------------------

    def _may_call(self, seat: int) -> bool:
        return any(card.owner != seat for card in self.loose)

    def _may_act(self, seat: int) -> bool:
        holds = bool(self.hands[seat]) or self.heads[seat] is not None
        return (bool(self.pile) and holds) or self._may_call(seat)

    def _wear_reason(self, move: Wear) -> str | None:
        name = SEAT_NAMES[move.seat]
        if self.phase != "wear":
            return "head cards are chosen only at the deal (O1)"
        if self.heads[move.seat] is not None:
            return f"{name} already wears a head card (O1)"
        if move.kind not in self.hands[move.seat]:
            return f"{name} holds no {KIND_NAMES.get(move.kind, move.kind)} to put on the head (O1)"
        return None

    def _flip_reason(self, move: Flip) -> str | None:
        if self.phase == "wear":
            return "every player must first choose a head card (O1)"
        if self.phase == "race":
            return "a race is on: the card must be matched or passed before the next flip (O3)"
        if move.seat != self.flipper:
            return f"it is {SEAT_NAMES[self.flipper]}'s turn to flip (O2)"
        return None

    def _race_reason(self, move: Pass | Play | Call) -> str | None:
        name = SEAT_NAMES[move.seat]
        if self.phase != "race":
            waiting = "every player must first choose a head card (O1)" if self.phase == "wear" else None
            return f"no race is on: {waiting or SEAT_NAMES[self.flipper] + ' must flip a card first (O2)'}"
        if self.submitted[move.seat] is not None:
            return f"{name} has already moved in this race: one move each, settled when everyone has moved (O3)"
        if not self._may_act(move.seat):
            return f"{name} has no card to play and no loose card to call for in this race"
        if isinstance(move, Pass):
            return None
        if not 0 <= move.ms <= MAX_MS:
            return f"a time is counted from when the race was shown, from 0 to {seconds(MAX_MS)} s"
        return self._call_reason(move) if isinstance(move, Call) else self._play_reason(move)

    def _call_reason(self, move: Call) -> str | None:
        if not self.loose:
            return "there is no loose card: Hats Off! wins a wrongly played card (O5) or a fallen hat (O6)"
        if not self._may_call(move.seat):
            return f"the loose card is {SEAT_NAMES[move.seat]}'s own, and nobody wins their own card (O5, O6)"
        return None

    def _play_reason(self, move: Play) -> str | None:
        name = SEAT_NAMES[move.seat]
        if not self.pile:
            return "the pile was just won: there is no card to match, only Hats Off! calls for loose cards (O3)"
        if move.from_head:
            return f"{name} has no head card: the deck ran out (O4)" if self.heads[move.seat] is None else None
        if move.kind not in self.hands[move.seat]:
            return f"{name} holds no {KIND_NAMES.get(str(move.kind), move.kind)} in the hand"
        return None

    # -- the deal and the flip ------------------------------------------------

    def _apply_wear(self, move: Wear) -> list[Event]:
        self.hands[move.seat].remove(move.kind)
        self._put_on_head(move.seat, move.kind)
        events = [Event(f"{SEAT_NAMES[move.seat]} looks at a card and puts it on the head, face down", "O1")]
        if not self.acting:
            self.phase = "flip"
            events.append(Event(f"Everyone wears a head card: {SEAT_NAMES[self.flipper]} flips first", "O2"))
        return events

    def _put_on_head(self, seat: int, kind: str) -> None:
        self.heads[seat] = kind
        self.looking[seat] = True
        self.head_changes[seat] += 1

    def _apply_flip(self, move: Flip) -> list[Event]:
        card = self.deck.pop()
        under = len(self.pile)
        self.pile.append(card)
        self.flips += 1
        self.looking = [False] * self.players
        text = f"{SEAT_NAMES[move.seat]} flips {a_hat(card)}"
        text += f" onto {under} unmatched card{'s' if under > 1 else ''}" if under else ""
        events = [Event(text, "O2")]
        if self.options.falling_hats:
            events += self._falls()
        self.race = 0
        return events + self._open_race()

    def _falls(self) -> list[Event]:
        """Each head card may fall off at a flip; the first other caller wins it (O6)."""
        events, rng = [], self.next_random()
        for seat in range(self.players):
            kind = self.heads[seat]
            if kind is None or rng.random() >= FALL_CHANCE:
                continue
            self.heads[seat], self.looking[seat] = None, False
            self.loose.append(Loose(kind, seat, fell=True))
            text = f"{SEAT_NAMES[seat]}'s hat falls off: {a_hat(kind)} lies face up"
            events.append(Event(f"{text}, for the first other player to call Hats Off!", "O6"))
            events += self._refill(seat, "O6")
        return events

    def _open_race(self) -> list[Event]:
        """Start a race: every seat with something to do may move; with nobody to move it settles at once."""
        self.phase = "race"
        self.race += 1
        self.submitted = [None] * self.players
        events = []
        if self.race > 1 and self.pile:
            loose = ", and the loose cards can be called for" if self.loose else ""
            events.append(Event(f"The race goes on: the {KIND_NAMES[self.pile[-1]]} can still be matched{loose}", "O5"))
        elif self.race > 1:
            events.append(Event("A race for the loose cards alone: only Hats Off! calls count", "O5"))
        return events + (self._settle() if not self.acting else [])

    def _refill(self, seat: int, rule: str) -> list[Event]:
        """Head first, then the hand up to three cards, while the deck lasts (O4)."""
        parts = []
        if self.heads[seat] is None and self.deck:
            self._put_on_head(seat, self.deck.pop())
            parts.append("looks at a new head card and puts it on")
        drawn = 0
        while len(self.hands[seat]) < HAND_SIZE and self.deck:
            self.hands[seat].append(self.deck.pop())
            drawn += 1
        if drawn:
            parts.append(f"draws {drawn} card{'s' if drawn > 1 else ''} into the hand")
        if parts:
            return [Event(f"{SEAT_NAMES[seat]} refills: {' and '.join(parts)}", rule)]
        short = self.heads[seat] is None or len(self.hands[seat]) < HAND_SIZE
        return [Event(f"The deck is empty: {SEAT_NAMES[seat]} cannot refill", "O4")] if short else []

    # -- settling a race ------------------------------------------------------

    def _settle(self) -> list[Event]:
        """Everyone has moved: go through the moves in order of time, equal times by seat (O3)."""
        made = [move for move in self.submitted if move is not None]
        timed = sorted((m for m in made if isinstance(m, Play | Call)), key=lambda m: (m.ms, m.seat))
        events = [Event(_settle_text(made), "O3")]
        settling = _Settling(callable=list(self.loose))
        self.loose = []
        for move in timed:
            events += self._settle_call(move, settling) if isinstance(move, Call) else self._settle_play(move, settling)
        events += self._return_to_deck(settling.callable)
        self.loose = settling.new_loose
        self.submitted = [None] * self.players
        if settling.winners:
            self.last_winner = settling.winners[-1]
        return events + self._after_race(settling, active=bool(timed))

    def _settle_call(self, move: Call, settling: _Settling) -> list[Event]:
        name, time = SEAT_NAMES[move.seat], seconds(move.ms)
        first = settling.first_play
        if first is not None:
            late = (
                f"{name} called Hats Off! at {time} s, after {SEAT_NAMES[first.seat]}'s play at {seconds(first.ms)} s"
            )
            return [Event(f"{late}: too late, a loose card must be called for before the next play", "O6")]
        mine = [card for card in settling.callable if card.owner != move.seat]
        if not mine:
            earlier = SEAT_NAMES[settling.first_caller] if settling.first_caller is not None else "nobody"
            return [Event(f"{name} called Hats Off! at {time} s, but {earlier} called first", settling.first_call_rule)]
        for card in mine:
            settling.callable.remove(card)
        if settling.first_caller is None:
            settling.first_caller, settling.first_call_rule = move.seat, mine[0].rule
        self.won[move.seat] += [card.kind for card in mine]
        self.called[move.seat] += len(mine)
        settling.winners.append(move.seat)
        return [Event(f"{name} called Hats Off! first, at {time} s, and wins {_loose_text(mine)}", mine[0].rule)]

    def _settle_play(self, move: Play, settling: _Settling) -> list[Event]:
        name, time = SEAT_NAMES[move.seat], seconds(move.ms)
        winning = settling.winning
        if winning is not None:
            winner = SEAT_NAMES[winning.seat]
            why = f"equal times go to the lower seat, {winner}" if winning.ms == move.ms else f"{winner} was first"
            return [Event(f"{name}'s play at {time} s is too late: the pile is won ({why}); the card stays", "O3")]
        settling.first_play = settling.first_play or move
        kind = self._take_played(move)
        where = "from the head" if move.from_head else "from the hand"
        top = self.pile[-1]
        if kind == top:
            settling.winning = move
            settling.winners.append(move.seat)
            cards, self.pile = [*self.pile, kind], []
            self.won[move.seat] += cards
            text = (
                f"{name} plays {a_hat(kind)} {where} at {time} s: a match! {name} wins the pile of {len(cards)} cards"
            )
            return [Event(text, "O3"), *self._refill(move.seat, "O4")]
        settling.new_loose.append(Loose(kind, move.seat, fell=False))
        text = (
            f"{name} plays {a_hat(kind)} {where} at {time} s, but the top card is {a_hat(top)}: a wrong play. "
            f"The {KIND_NAMES[kind]} lies loose for the first other player to call Hats Off!"
        )
        return [Event(text, "O5"), *self._refill(move.seat, "O5")]

    def _take_played(self, move: Play) -> str:
        if move.kind is None:
            kind = self.heads[move.seat]
            assert kind is not None, "a legal head play has a head card"
            self.heads[move.seat], self.looking[move.seat] = None, False
            return kind
        self.hands[move.seat].remove(move.kind)
        return move.kind

    def _return_to_deck(self, cards: Sequence[Loose]) -> list[Event]:
        """Loose cards nobody called for in time go back into the deck at a random place (O6)."""
        events, rng = [], self.next_random()
        for card in cards:
            self.deck.insert(rng.randrange(len(self.deck) + 1), card.kind)
            whose = f"{SEAT_NAMES[card.owner]}'s {KIND_NAMES[card.kind]}"
            events.append(Event(f"Nobody called for {whose} in time: it goes back into the deck", card.rule))
        return events

    def _after_race(self, settling: _Settling, active: bool) -> list[Event]:
        """What follows a settled race: another race, the next flip or the end of the round."""
        if settling.winning is not None:
            return self._open_race() if self.loose else self._next_flip(settling.winners[-1])
        if self.pile and active:
            return self._open_race()
        if not self.pile:  # a race for loose cards alone is over
            return self._next_flip(self.last_winner if self.last_winner is not None else self.flipper)
        left = (self.flipper + 1) % self.players
        text = f"Nobody matched the {KIND_NAMES[self.pile[-1]]}"
        if not self.deck:
            return [Event(f"{text}, and the deck is empty", "O7"), *self._end_round()]
        return [Event(f"{text}: the next flip passes to the left, to {SEAT_NAMES[left]}", "O2"), *self._next_flip(left)]

    def _next_flip(self, seat: int) -> list[Event]:
        self.flipper = seat
        if not self.deck:
            return [Event("The deck is empty and the race is over", "O7"), *self._end_round()]
        self.phase, self.race = "flip", 0
        return []

    # -- rounds and the end ---------------------------------------------------

    def _end_round(self) -> list[Event]:
        counts = [len(w) for w in self.won]
        self.round_results.append(counts)
        self.phase = "over"
        told = ", ".join(f"{name} {count}" for name, count in zip(self.seat_names(), counts, strict=True))
        events = [Event(f"Round {self.round} is over. Cards won: {told}", "O7")]
        if self.options.best_of > 1 and not self._match_decided():
            return events + self._deal_round(self.round + 1)
        outcome = self.outcome()
        assert outcome is not None
        return [*events, Event(outcome.reason, "O7")]

    def _match_decided(self) -> bool:
        wins = self.round_wins()
        return max(wins) > self.options.best_of // 2 or len(self.round_results) == self.options.best_of

    def round_wins(self) -> list[int]:
        """Rounds won per seat so far; a shared round counts for each player who shared it (O7)."""
        wins = [0] * self.players
        for counts in self.round_results:
            for seat in _leaders(counts):
                wins[seat] += 1
        return wins

    def _deal_round(self, number: int) -> list[Event]:
        """Shuffle all 56 cards with the game's generator and deal 4 to each player (O1)."""
        players = self.players
        self.deck = all_cards()
        self.next_random().shuffle(self.deck)
        self.hands = [[self.deck.pop() for _ in range(DEALT)] for _ in range(players)]
        self.heads, self.looking, self.head_changes = [None] * players, [False] * players, [0] * players
        self.won, self.called, self.loose, self.pile = [[] for _ in range(players)], [0] * players, [], []
        self.submitted = [None] * players
        self.phase, self.round, self.flips, self.race = "wear", number, 0, 0
        self.flipper, self.last_winner = (number - 1) % players, None
        return [Event(f"Round {number}: 4 cards each; every player chooses one to wear on the head", "O1")]

    def score(self) -> ScoreSheet:
        """Won cards per seat (O7); in a match, the rounds won, with this round's cards told apart."""
        if self.options.best_of == 1:
            lines = [line for seat in range(self.players) for line in self._card_lines(seat)]
            return ScoreSheet(tuple(lines), self.seat_names(), final=self.is_over)
        lines = [line for seat in range(self.players) for line in self._round_lines(seat)]
        note = "" if self.is_over else "a match counts rounds won; this round's cards decide who wins it"
        return ScoreSheet(tuple(lines), self.seat_names(), final=self.is_over, note=note)

    def _card_lines(self, seat: int) -> list[ScoreLine]:
        calls = self.called[seat]
        piles = len(self.won[seat]) - calls
        return [
            ScoreLine(seat, "piles", piles, f"{_cards(piles)} won by matching the top card (O3)"),
            ScoreLine(seat, "Hats Off! calls", calls, f"{_cards(calls)} won by calling Hats Off! (O5, O6)"),
        ]

    def _round_lines(self, seat: int) -> list[ScoreLine]:
        lines = []
        for number, counts in enumerate(self.round_results, start=1):
            won = seat in _leaders(counts)
            shared = " (shared)" if won and len(_leaders(counts)) > 1 else ""
            why = f"{_cards(counts[seat])}: the most, round won{shared} (O7)" if won else f"{_cards(counts[seat])}"
            lines.append(ScoreLine(seat, f"round {number}", int(won), why))
        if not self.is_over:
            piles = len(self.won[seat]) - self.called[seat]
            so_far = f"{_cards(len(self.won[seat]))} so far ({piles} from piles, {self.called[seat]} from calls)"
            lines.append(ScoreLine(seat, f"round {self.round} so far", 0, so_far))
        return lines

    def outcome(self) -> Outcome | None:
        """Most won cards, equal counts sharing (O7); a match: most rounds, then most cards over the match."""
        if not self.is_over:
            return None
        names = self.seat_names()
        if self.options.best_of == 1:
            counts = self.round_results[-1]
            return _winners_outcome(_leaders(counts), names, f"{_cards(max(counts))}", "")
        wins = self.round_wins()
        leaders = _leaders(wins)
        rounds = f"{wins[leaders[0]]} round{'s' if wins[leaders[0]] != 1 else ''} won"
        if len(leaders) == 1:
            return _winners_outcome(leaders, names, rounds, " the match")
        totals = [sum(counts[seat] for counts in self.round_results) for seat in range(self.players)]
        best = max(totals[seat] for seat in leaders)
        winners = [seat for seat in leaders if totals[seat] == best]
        return _winners_outcome(winners, names, f"{rounds}, then {_cards(best)} over the match", " the match")

    # -- views and positions --------------------------------------------------

    def view(self, seat: int | None) -> HatsOffView:
        """What ``seat`` may see: its own hand, its head card only while looking (O1), no sealed move of others."""
        mine = seat is not None
        outcome = self.outcome()
        own_move = self.submitted[seat] if mine else None
        return {
            "game": "hats-off",
            "seat": seat,
            "players": self.players,
            "names": list(self.seat_names()),
            "options": options_dict(self.options),
            "phase": self.phase,
            "acting": list(self.acting),
            "flipper": self.flipper,
            "last_winner": self.last_winner,
            "round": self.round,
            "round_results": [list(r) for r in self.round_results],
            "round_wins": self.round_wins(),
            "flips": self.flips,
            "race": self.race,
            "pile": list(self.pile),
            "top": self.pile[-1] if self.pile else None,
            "deck_size": len(self.deck),
            "hand": sorted(self.hands[seat]) if mine else None,
            "hand_sizes": [len(h) for h in self.hands],
            "has_head": [h is not None for h in self.heads],
            "head": self.heads[seat] if mine and (self.looking[seat] or self.options.memory_aid) else None,
            "looking": list(self.looking),
            "head_changes": list(self.head_changes),
            "loose": [{"kind": c.kind, "owner": c.owner, "fell": c.fell} for c in self.loose],
            "submitted": [s for s, m in enumerate(self.submitted) if m is not None],
            "my_move": None if own_move is None else str(own_move),
            "won": [list(w) for w in self.won],
            "won_counts": [len(w) for w in self.won],
            "called": list(self.called),
            "outcome": None if outcome is None else outcome.reason,
        }

    def position(self) -> dict[str, Any]:
        """A full snapshot, hidden cards and sealed moves included, loadable by ``load``."""
        return {
            "game": "hats-off",
            "players": self.players,
            "options": options_dict(self.options),
            "seed": self.seed,
            "draws": self.draws,
            "phase": self.phase,
            "flipper": self.flipper,
            "last_winner": self.last_winner,
            "round": self.round,
            "round_results": [list(r) for r in self.round_results],
            "flips": self.flips,
            "race": self.race,
            "deck": list(self.deck),
            "pile": list(self.pile),
            "hands": [list(h) for h in self.hands],
            "heads": list(self.heads),
            "looking": list(self.looking),
            "head_changes": list(self.head_changes),
            "won": [list(w) for w in self.won],
            "called": list(self.called),
            "loose": [{"kind": c.kind, "owner": c.owner, "fell": c.fell} for c in self.loose],
            "submitted": [str(m) for m in self.submitted if m is not None],
        }


class LooseView(TypedDict):
    """A loose card as every seat sees it: face up, with the seat it came from."""

    kind: str
    owner: int
    fell: bool


class HatsOffView(TypedDict):
    """What one seat (or a spectator, seat None) may see of a Hats Off! position.

    ``hand`` and ``head`` are the seat's own (None for a spectator); ``head`` is
    shown only while the owner is looking (``looking[seat]``) or with the
    memory aid (O1). ``submitted`` names the seats that have moved in this race,
    never their moves; ``my_move`` is the seat's own sealed move.
    """

    game: str
    seat: int | None
    players: int
    names: list[str]
    options: dict[str, Any]
    phase: str
    acting: list[int]
    flipper: int
    last_winner: int | None
    round: int
    round_results: list[list[int]]
    round_wins: list[int]
    flips: int
    race: int
    pile: list[str]
    top: str | None
    deck_size: int
    hand: list[str] | None
    hand_sizes: list[int]
    has_head: list[bool]
    head: str | None
    looking: list[bool]
    head_changes: list[int]
    loose: list[LooseView]
    submitted: list[int]
    my_move: str | None
    won: list[list[str]]
    won_counts: list[int]
    called: list[int]
    outcome: str | None


# ---------------------------------------------------------------- narration helpers


def _settle_text(made: Sequence[HatsOffMove]) -> str:
    if not made:
        return "Nobody can play or call for a card in this race"
    passed = [SEAT_NAMES[m.seat] for m in made if isinstance(m, Pass)]
    text = "Everyone has moved: the race is settled in order of time, equal times by seat"
    return text + (f" (passed: {', '.join(passed)})" if passed else "")


def _loose_text(cards: Sequence[Loose]) -> str:
    return " and ".join(f"{SEAT_NAMES[c.owner]}'s {KIND_NAMES[c.kind]}" for c in cards)


def _cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


def _leaders(values: Sequence[int]) -> list[int]:
    best = max(values)
    return [seat for seat, value in enumerate(values) if value == best]


def _winners_outcome(winners: Sequence[int], names: Sequence[str], what: str, match: str) -> Outcome:
    who = " and ".join(names[s] for s in winners)
    if len(winners) == 1:
        return Outcome(tuple(winners), f"{who} wins{match} with {what} (O7)")
    return Outcome(tuple(winners), f"{who} share the win{match}: {what} each (O7)")
