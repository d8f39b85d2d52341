"""Bots and hints (issue 6): they make progress, take the optional discard where it is right, and their
sentences are true.

Each hint sentence is checked against the game itself, through the public API
only: the move is played on the real game and the claims (hats taken, saved,
threatened; cards collected, points before and after) are recomputed from
its events, legal moves and score sheet, never from the bot's own code.
"""

from __future__ import annotations

import itertools
import math
import random
import re
import sys
from collections import Counter
from typing import Any

import pytest

import hatskit
from hatskit.bots import Hint, make_bot
from hatskit.bots.montecarlo import BROWSER_BUDGET, MIN_FINAL_WORLDS
from hatskit.core import Game
from hatskit.games.hats import BlackHat, Card, Discard, Exchange, HatsState, parse_card
from hatskit.games.hats.bots import HatsBot, quick_main_action
from hatskit.games.sombrero import SEAT_NAMES, SIDES, Jump, SombreroState, parse_square, square_name
from hatskit.games.sombrero.bots import (
    BROWSER_NODES,
    CLOCK_EVERY,
    SEARCH_SECONDS,
    SERVER_NODES,
    SombreroGreedy,
    SombreroStrong,
    search_turn,
    the_hats,
    turn_start_key,
)

QUICK = 2_000  # positions the strong Sombrero bot may search in these tests


def small_hats_bot(seed: int = 1) -> HatsBot:
    """A strong Hats bot with fewer simulated endings: the same reasoning, quicker."""
    return HatsBot(seed, first_round=80, final_round=16, optional_worlds=24)


def play_bots(game: Game, bots: list[Any], cap: int) -> Counter[tuple[tuple[int, ...], int]]:
    """Let the bots play (seat i is ``bots[i]``) until the end or ``cap`` actions; how often each turn start came."""
    starts: Counter[tuple[tuple[int, ...], int]] = Counter()
    while not game.is_over and game.ply < cap:
        if game.state.actions_left == 2:  # type: ignore[attr-defined]
            starts[tuple(game.state.board), game.to_move] += 1  # type: ignore[attr-defined]
        game.play(bots[game.to_move].choose(game.seat_view(game.to_move)))
    return starts


# ---------------------------------------------------------------- Sombrero: progress


def test_strong_sombrero_bots_playing_each_other_end_the_game_without_coming_back_to_a_position_three_times() -> None:
    game = hatskit.new_game("sombrero")
    starts = play_bots(game, [SombreroStrong(1, QUICK), SombreroStrong(2, QUICK)], cap=240)
    assert max(starts.values()) <= 2, "a bot shuffled back and forth"
    assert game.is_over


def test_greedy_sombrero_bots_playing_each_other_end_the_game() -> None:
    for seed in range(3):
        game = hatskit.new_game("sombrero")
        starts = play_bots(game, [SombreroGreedy(seed), SombreroGreedy(seed + 10)], cap=600)
        assert game.is_over and max(starts.values()) <= 2


def follow_the_hints(seed: int, cap: int) -> list[int]:
    """A game as the notebook's play table has it: the reader (White) plays every hint of a strong bot seeded
    ``seed`` against a strong bot seeded ``seed + 1``, both searching as in the browser (no clock, so the game
    is the same on every machine); the actions after which a hat had just been taken, and the last action."""
    game, taken = hatskit.new_game("sombrero"), []
    hinter = SombreroStrong(seed, BROWSER_NODES, seconds=math.inf)
    page_bot = SombreroStrong(seed + 1, BROWSER_NODES, seconds=math.inf)
    while not game.is_over and game.ply < cap:
        move = hinter.hint(game.seat_view(0)).move if game.to_move == 0 else page_bot.choose(game.seat_view(1))
        if any(event.rule == "S3" for event in game.play(move)):
            taken.append(game.ply)
    assert game.is_over, f"not over after {cap} actions"
    return [*taken, game.ply]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0])  # one game, about 30 s: benchmarks/sombrero_progress.py plays more
def test_a_reader_following_the_hints_against_the_page_bot_sees_hats_taken_until_the_game_ends(seed: int) -> None:
    """The game ends by the play (S4, or S5 at two hats each), never after a long quiet stretch."""
    marks = follow_the_hints(seed, cap=250)
    quiet = max(later - earlier for earlier, later in itertools.pairwise([0, *marks]))
    assert quiet < 60, f"{quiet} actions in a row without a hat taken; hats taken after actions {marks[:-1]}"


def turn_end(game: Game, actions: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """The board after playing ``actions`` (squares) in ``game``, which is left as it was."""
    trial = hatskit.load(game.position())
    for origin, target in actions:
        trial.play(f"{square_name(origin)}{'-' if trial.state.board[target] == 0 else '>'}{square_name(target)}")  # type: ignore[attr-defined]
    return tuple(trial.state.board)  # type: ignore[attr-defined]


def planned_end(game: Game, seen: Counter[int]) -> tuple[int, ...]:
    state = game.state
    assert isinstance(state, SombreroState)
    return turn_end(game, search_turn(state, seen, QUICK, random.Random(1)).actions)


@pytest.mark.parametrize(
    ("white", "black"),
    [(("a1", "h8", "d4"), ("a8", "h1", "e6")), (("e1", "f1", "g1", "h1"), ("a8", "b8", "c8", "d8"))],
)
def test_strong_search_leaves_out_a_turn_ending_where_the_game_has_been_when_another_is_about_as_good(
    white: tuple[str, ...], black: tuple[str, ...]
) -> None:
    game = board_game(white=white, black=black)
    favourite = planned_end(game, Counter())
    seen = Counter({turn_start_key(list(favourite), 1): 2})
    assert planned_end(game, seen) != favourite


def test_strong_search_still_takes_a_hat_when_that_ends_where_the_game_has_been() -> None:
    game = board_game(white=("b1", "e5", "a8"), black=("c3", "h8", "h1"), black_hatless=("d4",))
    capture = planned_end(game, Counter())
    assert capture[parse_square("c3")] == 4, "b1-b2 takes the hat on c3 (S3)"
    again = planned_end(game, Counter({turn_start_key(list(capture), 1): 1}))
    assert again[parse_square("c3")] == 4, "a hat is worth more than avoiding a position seen once"


def test_the_same_position_gets_the_same_strong_hint_every_time() -> None:
    game = board_game(white=("a1", "e5", "b8"), black=("c7", "d6", "h8", "h1"))
    bots = [make_bot("sombrero", "strong", seed=4) for _ in range(2)]
    for bot in bots:
        bot.seconds = math.inf  # the clock is a safety net for a busy machine, where the answer may differ
    hints = [bot.hint(game.seat_view(0)) for bot in bots]
    assert hints[0] == hints[1]


# ---------------------------------------------------------------- Sombrero: true sentences


def board_game(white: tuple[str, ...], black: tuple[str, ...], **fields: Any) -> Game:
    """A Sombrero game from a position given square by square, White to start a turn."""
    position = {
        "game": "sombrero",
        "to_move": "white",
        "actions_left": 2,
        "white": {"hatted": list(white), "hatless": list(fields.pop("white_hatless", ()))},
        "black": {"hatted": list(black), "hatless": list(fields.pop("black_hatless", ()))},
    }
    return hatskit.load(position | fields)


def lost_hats(events: list[hatskit.Event]) -> set[int]:
    """The squares the events say lost their hats."""
    return {parse_square(m.group(1)) for e in events if (m := re.match(r"(\w\d) lost its hat", e.text))}


def takeable(game: Game, side: int, actions: int) -> set[int]:
    """Every square whose hat ``side`` could take with ``actions`` actions from this board, trying them all."""
    if game.is_over:
        return set()
    trial = hatskit.load(game.position() | {"to_move": SIDES[side], "actions_left": actions})
    found: set[int] = set()
    if trial.to_move != side:
        return found
    for move in trial.legal_moves():
        found |= lost_hats(trial.play(move))
        if actions == 2 and trial.to_move == side:
            for second in trial.legal_moves():
                found |= lost_hats(trial.play(second))
                trial.undo()
        trial.undo()
    return found


def check_sombrero_sentence(game: Game, hint: Hint) -> None:
    """Every claim of the hint's sentence holds on the real game, and nothing it should say is left out.

    The sentence tells what the rest of the planned turn does: the hinted
    action, "followed by" the second one when the bot plans one.
    """
    mover, reason = game.to_move, hint.reason
    assert mover is not None
    opponent = SEAT_NAMES[1 - mover]
    opening = re.match(r"this (step|hat jump)(?:, followed by (\S+),)? ", reason)
    assert opening and opening.group(1) == ("hat jump" if isinstance(hint.move, Jump) else "step"), reason
    danger_before = takeable(game, 1 - mover, 2)
    after, taken, now_at = hatskit.load(game.record()), set(), {}
    for move in [hint.move, *([after.parse(opening.group(2))] if opening.group(2) else [])]:
        assert after.to_move == mover, f"{reason}: {move} is not part of the same turn"
        taken |= lost_hats(after.play(move))
        now_at = {start: move.target if now == move.origin else now for start, now in now_at.items()}
        now_at.setdefault(move.origin, move.target)
    assert ("takes the hat" in reason) == bool(taken), reason
    if taken:
        assert f"takes {the_hats(sorted(taken))}" in reason, reason
    outcome = after.outcome()
    won = outcome is not None and outcome.winners == (mover,)
    assert ("wins the game" in reason) == won, reason
    if won:
        return
    exposed, threats = takeable(after, 1 - mover, 2), takeable(after, mover, 1)
    board = after.position()[SIDES[mover]]["hatted"]
    saved = {
        square
        for square in danger_before
        if (now := now_at.get(square, square)) not in exposed and square_name(now) in board
    }
    assert ("saves" in reason) == bool(saved), reason
    if saved:
        assert f"saves {the_hats(sorted(saved))}, which {opponent} could have taken next turn" in reason
    if "threatens" in reason:
        when = "with your next action" if after.to_move == mover else "on your next turn"
        assert f"threatens to take {the_hats(sorted(threats))} {when}" in reason, reason
    else:
        assert not threats or (taken and saved), f"{reason}: leaves out the threat on {threats}"
    if exposed:
        assert re.search(f"{opponent} could (still )?take {re.escape(the_hats(sorted(exposed)))} next turn", reason)
    else:
        assert "could take" not in reason and "could still take" not in reason, reason


def sombrero_positions() -> list[Game]:
    """Positions from greedy against random games at several moments, and hand-made ones with captures."""
    games = []
    for seed in range(4):
        game = hatskit.new_game("sombrero")
        bots = [make_bot("sombrero", "greedy", seed), make_bot("sombrero", "random", seed)]
        play_bots(game, bots, cap=15 + 11 * seed)
        if not game.is_over:
            games.append(game)
    games.append(board_game(white=("b1", "e5", "a8"), black=("c3", "h8"), black_hatless=("d4",)))  # b1-b2 wins
    games.append(board_game(white=("a1", "e5", "b8"), black=("c7", "d6", "h8", "h1")))
    games.append(board_game(white=("c3", "h1", "a8"), black=("b2", "e5", "h8", "d3")))  # c3 is in danger
    return games


@pytest.mark.parametrize("kind", ["strong", "greedy"])
def test_sombrero_hint_sentences_are_true(kind: str) -> None:
    for game in sombrero_positions():
        bot = SombreroStrong(5, QUICK) if kind == "strong" else SombreroGreedy(5)
        for _ in range(2):  # both actions of the planned turn
            hint = bot.hint(game.seat_view(game.to_move))
            check_sombrero_sentence(game, hint)
            assert "positions" in hint.detail if kind == "strong" else "this turn only" in hint.detail
            game.play(hint.move)
            if game.is_over:
                break


# ---------------------------------------------------------------- Hats: the optional discard


def hats_position(**fields: Any) -> Game:
    """A two-player Hats position, Ana to move with six main actions made each."""
    position = {
        "game": "hats",
        "players": 2,
        "to_move": 0,
        "played": [6, 6],
        "seed": 3,
    }
    return hatskit.load(position | fields)


def test_quick_main_action_takes_the_card_that_scores_most_at_once() -> None:
    game = hatskit.load(
        {
            "game": "hats",
            "players": 2,
            "to_move": 0,
            "played": [2, 2],
            "table": ["♦3", "★5", "♣2", "♥6", "♠6"],
            "hands": [["♠4", "★1", "♥1", "♣1", "♦1", "♠1", "♥2"], ["♥3", "♣3", "♣4", "♣5", "♣6", "★2", "★3"]],
            "collections": [["♠2", "♠3"], ["♦2", "★4"]],
            "black_hats": [[], []],
        }
    )
    state = game.state
    assert isinstance(state, HatsState)
    # A third ♠ while ♠ stays at position 5 scores 5 at once (♠4 or ♠1 on ♠6, the first found wins); ♠4 on
    # positions 1 or 3 would move ♠ down the table, and ♥ or ★ on their own type score 4 or 2.
    assert str(quick_main_action(state, 0)) == "♠4@5"


def test_strong_hats_bot_discards_one_of_three_cards_that_can_only_go_to_position_1() -> None:
    """♦2, ♦3 and ♦4 can each take only ♦6, at position 1: one of them is better swapped for a new card."""
    game = hats_position(
        played=[4, 4],
        table=["♦6", "♠6", "♥4", "♥3", "★3"],
        hands=[["♣5", "♦3", "♦2", "♦4", "★1"], ["♣3", "♣1", "♥2", "♥6", "♣6"]],
        collections=[["★5", "♥1", "★4", "♠1"], ["♠2", "♥5", "★2"]],
        black_hats=[[], ["♠4"]],
        cookie=1,
    )
    hint = HatsBot(2).hint(game.seat_view(0))
    assert isinstance(hint.move, Discard) and hint.move.card.kind == "♦", hint
    check_hats_sentence(game, hint)
    assert "can only take the card at position 1" in hint.reason and "a discard is worth it" in hint.detail


def test_strong_hats_bot_keeps_its_cards_when_a_discard_would_not_help() -> None:
    """Every card can take something and none is weak: the bot goes straight to its main action."""
    game = hats_position(
        table=["♦1", "★1", "♣1", "♥1", "♠1"],
        hands=[["♦6", "♠6", "♥6"], ["♥3", "♣3", "♣4"]],
        collections=[["♠2", "♠3", "♠4", "♠5", "★5", "★2"], ["♦2", "♦3", "★3", "★4", "♣5", "♣2"]],
        black_hats=[[], []],
    )
    hint = HatsBot(2).hint(game.seat_view(0))
    assert not isinstance(hint.move, Discard), hint
    check_hats_sentence(game, hint)


# ---------------------------------------------------------------- Hats: true sentences


def face_up(table: list[str], kind: str) -> int:
    """The position of the lowest copy of ``kind`` on the table (H7), or 0."""
    return next((p for p, name in enumerate(table, start=1) if parse_card(name).kind == kind), 0)


def h2(card: Card, there: Card) -> bool:
    """Whether ``card`` may be exchanged for ``there``: same type or higher value (H2)."""
    return card.kind == there.kind or card.value > there.value


def check_hats_sentence(game: Game, hint: Hint) -> None:
    """Every claim of a Hats hint sentence holds on the real game."""
    seat, reason, move = game.to_move, hint.reason, hint.move
    assert seat is not None
    view = game.view(seat)
    table = [parse_card(name) for name in view["table"]]
    card = move.card
    targets = {p for p, there in enumerate(table, start=1) if h2(card, there)}
    if "can't take any card on the table" in reason:
        assert not targets
    if match := re.search(r"can only take the card at position (\d)", reason):
        assert targets == {int(match.group(1))}
    if "fewer cards on the table than any other card in your hand" in reason:
        hand = [parse_card(name) for name in view["hand"]]
        assert all(len(targets) <= sum(h2(other, there) for there in table) for other in hand), reason
    if isinstance(move, Exchange | BlackHat):
        check_main_action_sentence(game, hint, view)


def check_main_action_sentence(game: Game, hint: Hint, view: dict[str, Any]) -> None:
    seat, reason, move = game.to_move, hint.reason, hint.move
    after = hatskit.load(game.record())
    after.play(move)
    shown = after.view(seat)
    before, now = game.score().totals[seat], after.score().totals[seat]
    told = f"stays at {now}" if before == now else f"goes from {before} to {now}"
    assert reason.endswith(f"; your score {told} if the game ended now."), reason
    assert ("you take the last cookie" in reason) == (shown["cookie"] == seat != view["cookie"]), reason
    cookie_events = [e.text.split(": ", 1)[1] for e in after.events[-1] if e.rule == "H10"]
    if "the last cookie" in reason:  # why the cookie moves waits in the detail, behind "why?"
        assert hint.detail.startswith(f"The last cookie: {cookie_events[0]}."), hint.detail
    assert ("you lose the last cookie" in reason) == (view["cookie"] == seat != shown["cookie"]), reason
    if not isinstance(move, Exchange):
        assert reason.startswith("A black hat is 1 point for sure")
        return
    taken = view["table"][move.position - 1]
    kind = parse_card(taken).kind
    count = sum(parse_card(name).kind == kind for name in shown["collections"][seat])
    ordinal = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")[count - 1]
    assert reason.startswith(f"{taken} is your {ordinal} {kind}")
    where = face_up(shown["table"], kind)
    if where:
        worth = "1 point" if where == 1 else f"{where} points"
        assert f"worth {worth} while {kind} is at position {where}" in reason, reason
    else:
        assert f"no {kind} is face up on the table now" in reason, reason
    if match := re.search(r"your (\S) now score (\d+) each instead of (\d+)", reason):
        moved = match.group(1)
        assert (int(match.group(2)), int(match.group(3))) == (
            face_up(shown["table"], moved),
            face_up(view["table"], moved),
        )


def hats_positions() -> list[Game]:
    """Positions from seeded games of greedy bots, two and three players, early, middle and late."""
    games = []
    for seed, players in ((1, 2), (2, 3), (3, 3), (4, 2), (5, 3)):
        game = hatskit.new_game("hats", players=players, seed=seed)
        greedy = make_bot("hats", "greedy", seed)
        for _ in range(random.Random(seed).randrange(4 * players, 8 * players)):
            game.play(greedy.choose(game.seat_view(game.to_move)))
        games.append(game)
    return games


def test_hats_hint_sentences_are_true() -> None:
    bot = small_hats_bot()
    for game in hats_positions():
        for _ in range(3):  # the hint, then the next decisions of the game (a discard is followed by the main action)
            if game.is_over:
                break
            hint = bot.hint(game.seat_view(game.to_move))
            check_hats_sentence(game, hint)
            assert "simulated" in hint.detail
            game.play(hint.move)


def test_four_player_hints_explain_the_swap_and_the_answer() -> None:
    game = hatskit.new_game("hats", players=4, seed=11)
    bot = small_hats_bot()
    for _ in range(12):
        hint = bot.hint(game.seat_view(game.to_move))
        check_hats_sentence(game, hint)
        game.play(hint.move)


# ---------------------------------------------------------------- thinking time in the browser (issue 11)


def test_in_the_browser_the_strong_card_game_bots_think_within_a_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    assert HatsBot().budget == 0, "on a server the bots play their full count of endings"
    monkeypatch.setattr(sys, "platform", "emscripten")  # what Pyodide reports
    assert HatsBot().budget == BROWSER_BUDGET
    assert make_bot("madder", "strong").budget == BROWSER_BUDGET


def test_in_the_browser_the_strong_sombrero_bot_searches_fewer_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    assert make_bot("sombrero", "strong").nodes == SERVER_NODES
    monkeypatch.setattr(sys, "platform", "emscripten")
    assert make_bot("sombrero", "strong").nodes == BROWSER_NODES < SERVER_NODES


def test_a_strong_sombrero_search_whose_time_is_up_stops_at_its_next_look_at_the_clock() -> None:
    state = hatskit.new_game("sombrero").state
    assert isinstance(state, SombreroState)
    first_depth = search_turn(state, Counter(), 0, random.Random(1)).nodes  # the rest of this turn: always searched
    hurried = search_turn(state, Counter(), SERVER_NODES, random.Random(1), deadline=0.0)
    assert first_depth < hurried.nodes <= first_depth + CLOCK_EVERY
    assert len(hurried.actions) == 2, "still a whole turn"


def test_a_strong_sombrero_hint_out_of_time_names_the_few_positions_it_searched() -> None:
    assert make_bot("sombrero", "strong").seconds == SEARCH_SECONDS <= 1.5, "the page's bot and the hints have a cap"
    game = hatskit.new_game("sombrero")
    hint = SombreroStrong(1, SERVER_NODES, seconds=0.0).hint(game.seat_view(0))
    searched = int(re.search(r"through ([\d,]+) positions", hint.detail)[1].replace(",", ""))
    assert searched < QUICK < SERVER_NODES, "the rest of this turn (under 1,000 positions), then one look at the clock"
    assert game.why_illegal(hint.move) is None


def test_a_bot_out_of_time_plays_no_final_round() -> None:
    game = hatskit.new_game("hats", players=3, seed=4)
    hurried = HatsBot(2, budget=1e-6).hint(game.seat_view(0))
    endings = int(re.search(r"In (\d+) simulated endings", hurried.detail)[1])
    assert MIN_FINAL_WORLDS <= endings <= 12, "the finalists get no worlds beyond the first round's (4 to 12)"
    unhurried = HatsBot(2).hint(game.seat_view(0))
    assert "in 96 simulated endings" in unhurried.detail.lower()
