"""What a Sombrero hint says: one sentence about what the suggested turn does, read off the board.

A hint suggests one action, but a bot plans the whole turn (S2): the sentence
tells what the rest of the planned turn does ("this step, followed by c3-b4,
saves the hat on c3"), so that a first action that only prepares the second
is not described as doing nothing. It is built from facts the engine computes,
never from the bot's scores: the hats the turn takes, whether it wins (S4),
the hats it saves from the opponent's next turn, the hats the mover could take
next, and the hats it leaves within the opponent's reach. Each fact is exact:
whole turns of the opponent are tried on the board, not estimated. The
numbers behind the choice (how deep the bot looked, its evaluation) go into
the hint's detail, in plain words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from hatskit.bots.sombrero.search import (
    EVALUATION_WEIGHTS,
    PROGRESS,
    REPEAT_COST,
    SearchResult,
    bitboards,
    evaluate,
    turns,
)
from hatskit.sombrero import (
    HATTED,
    SEAT_NAMES,
    Action,
    Jump,
    SombreroMove,
    SombreroState,
    move_of,
    perform,
    square_name,
)


def reachable_hats(board: list[int], seat: int, left: int, jump_captures: bool) -> set[int]:
    """The squares whose hats ``seat`` could take with ``left`` actions (1 or 2) from ``board`` (S3)."""
    found: set[int] = set()
    for _, taken in turns(board, seat, left, jump_captures):
        found.update(taken)
    return found


class TurnFacts(NamedTuple):
    """What the rest of a planned turn does, as the hint sentence tells it (squares are board indices)."""

    mover: int
    moves: tuple[SombreroMove, ...]  # the suggested action first, then the rest of the planned turn
    taken: tuple[int, ...]  # hats these actions take
    won: bool  # they win the game (S4)
    hats_left: int  # the opponent's hatted pieces afterwards
    threats: tuple[int, ...]  # the opponent's hats the mover's next action could take
    same_turn: bool  # the mover's next action still belongs to this turn
    saved: tuple[int, ...]  # the mover's hats the opponent could take in its next turn before, not after
    exposed: tuple[int, ...]  # the mover's hats the opponent could still take in its next turn


def turn_facts(state: SombreroState, moves: Sequence[SombreroMove]) -> TurnFacts:
    """The facts of playing ``moves`` (the rest of a turn, the suggested action first) in ``state``."""
    seat, jump_captures = state.turn, state.options.jump_captures
    assert seat is not None, "the game is over"
    after, taken, route = state.copy(), [], {}  # route: where each hat that moved came from
    for move in moves:
        after.apply(move)
        taken += after.last_captures
        route[move.target] = route.pop(move.origin, move.origin)
    won = after.turn is None and after.hats(1 - seat) <= 1
    board = list(after.board)
    danger_before = reachable_hats(list(state.board), 1 - seat, 2, jump_captures)
    danger_after = set() if won else reachable_hats(board, 1 - seat, 2, jump_captures)
    threats = set() if won else reachable_hats(board, seat, 1, jump_captures)
    now_at = {origin: target for target, origin in route.items()}
    saved = [
        square
        for square in danger_before
        if (now := now_at.get(square, square)) not in danger_after and board[now] == HATTED[seat]
    ]
    return TurnFacts(
        seat,
        tuple(moves),
        tuple(sorted(taken)),
        won,
        after.hats(1 - seat),
        tuple(sorted(threats)),
        after.turn == seat,
        tuple(sorted(saved)),
        tuple(sorted(danger_after)),
    )


def the_hats(squares: Sequence[int]) -> str:
    """``the hat on e5``, ``the hats on e5 and f6``, ``the hats on c3, e5 and f6``."""
    names = [square_name(square) for square in squares]
    if len(names) == 1:
        return f"the hat on {names[0]}"
    return f"the hats on {', '.join(names[:-1])} and {names[-1]}"


def sentence(facts: TurnFacts) -> str:
    """The one sentence a hint shows."""
    opponent = SEAT_NAMES[1 - facts.mover]
    first, rest = facts.moves[0], facts.moves[1:]
    text = f"this {'hat jump' if isinstance(first, Jump) else 'step'} "
    if rest:
        text = text.rstrip() + f", followed by {' then '.join(map(str, rest))}, "
    if facts.won:
        left = "only one hatted piece" if facts.hats_left else "no hatted piece"
        return text + f"takes {the_hats(facts.taken)} and wins the game: {opponent} has {left} left"
    clauses = [f"takes {the_hats(facts.taken)}"] if facts.taken else []
    if facts.saved:
        clauses.append(f"saves {the_hats(facts.saved)}, which {opponent} could have taken next turn")
    if facts.threats and len(clauses) < 2:
        when = "with your next action" if facts.same_turn else "on your next turn"
        clauses.append(f"threatens to take {the_hats(facts.threats)} {when}")
    if not clauses:
        if not facts.exposed:
            return text + f"leaves {opponent} no hat to take next turn"
        return text + f"is the least bad the bot found: {opponent} could still take {the_hats(facts.exposed)} next turn"
    text += " and ".join(clauses)
    if facts.exposed:
        text += f", but {opponent} could take {the_hats(facts.exposed)} next turn"
    return text


def describe(state: SombreroState, moves: Sequence[SombreroMove]) -> str:
    """The hint sentence for playing ``moves`` (the suggested action, then the rest of the planned turn)."""
    return sentence(turn_facts(state, moves))


def turn_text(state: SombreroState, actions: Sequence[Action]) -> str:
    """A planned turn in notation: ``e4-e5 then e5-f6``."""
    board = list(state.board)
    moves = []
    for action in actions:
        moves.append(str(move_of(board, action)))
        perform(board, action, state.options.jump_captures)
    return " then ".join(moves)


def search_detail(state: SombreroState, result: SearchResult) -> str:
    """The numbers behind the strong bot's turn, in plain words."""
    seat, jump_captures = state.turn, state.options.jump_captures
    assert seat is not None
    board = list(state.board)
    for action in result.actions:
        perform(board, action, jump_captures)
    terms = evaluate(board, bitboards(board), seat, jump_captures)
    turns_deep = (result.depth - state.actions_left) // 2 + 1
    counted = ", ".join(
        f"{words} {term:+d} ({weight} each)"
        for words, term, weight in zip(_TERM_WORDS, terms, EVALUATION_WEIGHTS, strict=True)
    )
    return (
        f"The strong bot planned the turn {turn_text(state, result.actions)}, looking {turns_deep} turn(s) ahead "
        f"through {result.nodes:,} positions; its search scores this turn {result.value:+d} for you "
        f"({EVALUATION_WEIGHTS[0]} is worth one hat). Right after the turn it counts: "
        f"{counted.format(opponent=SEAT_NAMES[1 - seat])}. Ending a turn in a position the game has already "
        f"been in costs {REPEAT_COST} for each earlier time, and when you are not behind, every hat taken on the "
        f"way (by either side) counts {PROGRESS} for you, so that the game moves on."
    )


# What each evaluation term counts, in the order of EVALUATION_WEIGHTS.
_TERM_WORDS = (
    "hats you have more than {opponent}",
    "hats you could soon take",
    "hats {opponent} could soon take",
    "steps you can make more than {opponent}",
    "steps by which your hatted pieces stand nearer {opponent}'s hats than {opponent}'s stand to yours",
)
