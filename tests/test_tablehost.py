"""The table host in process (issue 43): seats, turns, refusals, reconnection, the store, and no secret sent.

Every whole game here is played by seats that see only what the host sends
them: each picks its moves from its own frames' legal moves. Each frame a seat
is sent is checked as it is sent (:class:`Players`): it holds exactly the
engine's view of that seat and that seat's legal moves, and none of what the
seat may not know (another seat's hidden cards, a sealed race move, the deck's
order, the seed).
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import hatskit
from hatskit.core import brief
from tablehost.auth import AuthError, HubUserAuth, bearer_token
from tablehost.protocol import MAX_FRAME, NO_UNDO, handle
from tablehost.store import Store, StoreError
from tablehost.tables import (
    CODE_LENGTH,
    CODE_LETTERS,
    BadRequest,
    MoveRefused,
    NotNow,
    NotSaved,
    NotYourSeat,
    SeatsFull,
    Sent,
    TableError,
    TableHost,
    UnknownTable,
    Who,
    hash_token,
    race_move,
)

FORBIDDEN_KEYS = {"seed", "deck", "hands", "heads", "record", "moves", "token_hash", "start", "user", "submitted_moves"}
STATE_KEYS = {  # a state frame's fields, exactly
    *("type", "code", "seat", "status", "ply", "acting"),
    *("view", "legal", "events", "played", "score", "outcome"),
}
# A Madder hat taken from the assembly line, which lies face up (M3): every seat saw it, even one turned over from
# the deck and taken in the same move, so that no position a seat was shown had it on the line.
TAKEN_FROM_THE_LINE = re.compile(r"took the first hat of the assembly line, a (\w+)( ★)?")  # in a reader's words


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# ---------------------------------------------------------------- what a seat may not know


def card_ids(game: hatskit.Game) -> set[str]:
    """The unique things of a game a seat may see or not: Hats cards, Madder's Premium hats and Haberdashers."""
    position = game.position()
    if game.game_id == "hats":
        return {card for key in ("table", "deck", "discard") for card in position[key]} | {
            card for key in ("hands", "collections", "black_hats") for cards in position[key] for card in cards
        }
    if game.game_id == "madder":
        styles = hatskit.new_game("madder", 3, seed=1).view(0)["styles"]
        return {f"{style}*" for style in styles} | set(position["haberdashers"] or [])
    return set()


def hidden_from(game: hatskit.Game, seat: int) -> set[str]:
    """What ``seat`` may not see now: other seats' hands, black hats and secret cards, the deck, sealed moves."""
    position = game.position()
    others = [s for s in range(len(game.seat_names)) if s != seat]
    if game.game_id == "hats":
        held = [c for s in others for key in ("hands", "black_hats") for c in position[key][s]]
        return set(position["deck"]) | set(position["discard"]) | set(held)
    if game.game_id == "madder":
        held = {c for s in others for c in position["hands"][s] if c.endswith("*")}
        return held | {c for c in position["deck"] if c.endswith("*")} | _secret_haberdashers(game, seat)
    if game.game_id == "hats-off":
        mine = f"{game.seat_names[seat]}:"
        return {move for move in position["submitted"] if not move.startswith(mine)}
    return set()


def _secret_haberdashers(game: hatskit.Game, seat: int) -> set[str]:
    names = game.position()["haberdashers"] or []
    return {name for s, name in enumerate(names) if s != seat} if game.view(seat)["haberdashers"] is None else set()


def forms(token: str) -> list[str]:
    """The ways a frame could write ``token``: Madder writes a Premium hat "Homburg ★" in words."""
    return [token, token[:-1] + " ★"] if token.endswith("*") else [token]


def pattern(token: str) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(form) + r"(?!\d)" for form in forms(token)))


def keys_of(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from keys_of(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from keys_of(inner)


class Players:
    """The players of one in-process table: their tokens, what each has been sent, and a check of every frame."""

    def __init__(self, host: TableHost, game_id: str, players: int, humans: int, **options: Any) -> None:
        self.host = host
        sent = host.open(Who(), game_id, players, "Seat Zero", options)
        self.code, self.tokens = sent.reply["code"], [sent.reply["token"]]
        self.frames: dict[int, list[dict[str, Any]]] = {seat: [] for seat in range(players)}
        self.knows: dict[int, set[str]] = {seat: set() for seat in range(players)}
        self.checked = 0
        self.take(sent, 0)
        for seat in range(1, humans):
            joined = host.join(Who(), self.code, f"Seat {seat}")
            self.tokens.append(joined.reply["token"])
            self.take(joined, seat)

    @property
    def game(self) -> hatskit.Game:
        return self.host.tables[self.code].game

    def who(self, seat: int) -> Who:
        return Who(self.tokens[seat])

    def start(self, bots: str = "greedy") -> None:
        self.take(self.host.start(self.who(0), self.code, bots), 0)

    def take(self, sent: Sent, asker: int | None) -> Sent:
        """Check every frame of ``sent`` as the host sends it, against the game as it stands."""
        self._learn()
        if asker is not None and sent.reply:
            self._check(asker, sent.reply)
        for code, seat, frame in sent.pushes:
            assert code == self.code
            self._check(seat, frame)
        return sent

    def _learn(self) -> None:
        """What each seat has seen so far (its own views, and hats taken in public): a card it once saw it may name
        later."""
        game, ids = self.game, card_ids(self.game)
        public = {
            style + ("*" if premium else "")
            for ply in game.events
            for event in ply
            for style, premium in TAKEN_FROM_THE_LINE.findall(event.text)
        }
        for seat in self.knows:
            text = json.dumps(game.view(seat), ensure_ascii=False)
            self.knows[seat] |= {card for card in ids if pattern(card).search(text)} | public

    def _check(self, seat: int, frame: dict[str, Any]) -> None:
        self.frames[seat].append(frame)
        self.checked += 1
        game, text = self.game, json.dumps(frame, ensure_ascii=False)
        assert not FORBIDDEN_KEYS & set(keys_of(frame)), frame
        assert "token" not in frame or frame["type"] == "seated"
        assert str(game.head["seed"]) not in text
        for secret in hidden_from(game, seat) - self.knows[seat]:
            assert not pattern(secret).search(text), f"seat {seat} was sent {secret!r}: {text[:300]}"
        if frame["type"] == "state" and frame["ply"] == game.ply:
            assert set(frame) == STATE_KEYS
            assert frame["view"] == game.view(seat)
            assert frame["legal"] == [str(move) for move in game.legal_moves(seat)]
            plies = [event["ply"] for event in frame["events"]]
            first = plies[0] - 1 if plies else game.ply
            told = [event["text"] for event in frame["events"]]
            assert told == [event.text for ply in range(first, game.ply) for event in game.events[ply]]
            named = [] if game.spec.hidden_information else [str(move) for move in game.moves[first:]]
            assert [entry["move"] for entry in frame["played"]] == named, "notation only where nothing is hidden"

    def latest(self, seat: int) -> dict[str, Any]:
        return next(frame for frame in reversed(self.frames[seat]) if frame["type"] == "state")

    def move(self, seat: int, move: str) -> Sent:
        return self.take(self.host.move(self.who(seat), self.code, move), seat)


def play_to_end(players: Players, rng: random.Random, answer: bool = False, limit: int = 3000) -> None:
    """Every seat picks a move from its own latest frame until the game ends (a race seat sometimes answers as its
    race pad would, with a reaction time measured on its device)."""
    for _ in range(limit):
        state = players.latest(0)
        if state["status"] != "playing":
            return
        seat = rng.choice(state["acting"])
        move = rng.choice(players.latest(seat)["legal"])
        if answer and rng.random() < 0.5:
            players.take(pad_answer(players, seat, move, rng), seat)
        else:
            players.move(seat, timed(move, rng))
    pytest.fail(f"the game did not end in {limit} moves")


def timed(move: str, rng: random.Random) -> str:
    """A race move's notation with a device's reaction time in place of the legal list's ``@0``."""
    return move.replace("@0", f"@{rng.uniform(0.15, 2.5):.3f}") if move.endswith("@0") else move


def pad_answer(players: Players, seat: int, move: str, rng: random.Random) -> Sent:
    """The race pad's answer for a legal race move (widgets/games/race.py's format), sent as an answer."""
    action = move.split(":", 1)[1].removesuffix("@0")
    return players.host.answer(players.who(seat), players.code, action, round(rng.uniform(0.15, 2.5), 3))


def table_state(host: TableHost, code: str) -> str:
    """Everything a refusal must leave as it was: the game's record and position, seats and status."""
    table = host.tables[code]
    seats = [(s.name, s.token_hash, s.user, s.bot, s.connected, s.away) for s in table.seats]
    return json.dumps([table.game.record(), table.game.position(), seats, table.status], ensure_ascii=False)


# ---------------------------------------------------------------- seating and starting


def test_a_table_has_a_short_code_and_each_seat_its_own_token() -> None:
    host = TableHost()
    players = Players(host, "hats", 3, humans=3)
    code = players.code
    assert len(code) == CODE_LENGTH and set(code) <= set(CODE_LETTERS)
    assert len(set(players.tokens)) == 3 and all(len(token) >= 40 for token in players.tokens)
    assert [s.token_hash for s in host.tables[code].seats] == [hash_token(t) for t in players.tokens]
    codes = {host.open(Who(), "sombrero", 2, "A").reply["code"] for _ in range(300)}
    assert len(codes) == 300  # unguessable enough: 19**5 codes, drawn with secrets


def test_a_code_is_read_in_any_case_and_the_next_free_seat_is_taken() -> None:
    host = TableHost()
    code = host.open(Who(), "hats", 4, "Maya").reply["code"]
    seated = host.join(Who(), f"  {code.lower()} ", "Ben")
    assert seated.reply["seat"] == 1 and seated.reply["as"] == "Ben"
    assert host.join(Who(), code, "Cleo").reply["seat"] == 2
    presence = seated.to(code, 0)[-1]
    assert presence["type"] == "presence" and [s["name"] for s in presence["seats"]] == ["Maya", "Ben", None, None]
    assert presence["can_start"] and [s["connected"] for s in presence["seats"]] == [True, True, False, False]


def test_the_opener_starts_once_two_sit_and_bots_fill_the_other_seats() -> None:
    host = TableHost()
    opened = host.open(Who(), "madder", 4, "Maya", bots="strong")
    code, opener = opened.reply["code"], Who(opened.reply["token"])
    with pytest.raises(NotNow, match="starts once two or more players sit; Maya sits alone"):
        host.start(opener, code)
    ben = Who(host.join(Who(), code, "Ben").reply["token"])
    with pytest.raises(NotYourSeat, match=r"only the opener \(Maya, seat 0\) starts"):
        host.start(ben, code)
    with pytest.raises(BadRequest, match="no 'superbot' bot for madder"):
        host.start(opener, code, "superbot")
    started = host.start(opener, code, "greedy")
    assert started.reply == {"type": "started", "code": code, "bots": "greedy"}
    assert [s.kind for s in host.tables[code].seats] == ["player", "player", "bot", "bot"]
    assert [f["type"] for f in started.to(code, 1)] == ["state", "presence"]
    with pytest.raises(NotNow, match=f"table {code} has started: only its players come back"):
        host.join(Who(), code, "Late")


def test_leaving_before_the_start_frees_the_seat_and_the_opener_leaving_closes_the_table() -> None:
    host = TableHost()
    opened = host.open(Who(), "hats", 3, "Maya")
    code = opened.reply["code"]
    ben = Who(host.join(Who(), code, "Ben").reply["token"])
    assert host.leave(ben, code).reply["type"] == "left"
    assert host.join(Who(), code, "Cleo").reply["seat"] == 1
    closed = host.leave(Who(opened.reply["token"]), code)
    assert closed.to(code, 1)[0]["type"] == "closed"
    with pytest.raises(UnknownTable, match=f"no table has the code {code}"):
        host.join(Who(), code, "Dev")


# ---------------------------------------------------------------- refusals leave the table unchanged


def started_hats(host: TableHost) -> Players:
    players = Players(host, "hats", 3, humans=2)
    players.start()
    return players


def refusals(players: Players) -> list[tuple[Any, type[TableError], str]]:
    """Each bad request with the error and a piece of the sentence it must get (the input quoted)."""
    host, code, game = players.host, players.code, players.game
    legal = players.latest(0)["legal"][0]
    stranger = "x" * 43
    return [
        (lambda: host.move(players.who(0), code, legal, seat=1), NotYourSeat, "a move for seat 1 was sent"),
        (lambda: host.move(players.who(1), code, legal), NotNow, f"{brief(legal)} is out of turn: seat 0 (Seat Zero)"),
        (lambda: host.move(players.who(0), code, "♥9@2"), MoveRefused, "'♥9@2'"),
        (lambda: host.move(players.who(0), code, "fly away"), MoveRefused, "fly away"),
        (lambda: host.move(players.who(0), code, ["♥5@2"]), MoveRefused, "not ['♥5@2']"),
        (lambda: host.move(players.who(0), code, "x" * 5000), MoveRefused, "too long for a move"),
        (lambda: host.move(Who(stranger), code, legal), NotYourSeat, "the seat token 'xxxxxx…' holds no seat"),
        (lambda: host.move(Who(None), code, legal), NotYourSeat, "a seat token is needed"),
        (lambda: host.move(Who(12), code, legal), NotYourSeat, "not 12"),
        (lambda: host.move(players.who(0), "AEIOU", legal), UnknownTable, "'AEIOU' is not a table code"),
        (lambda: host.move(players.who(0), "<script>", legal), UnknownTable, "'<script>' is not a table code"),
        (lambda: host.move(players.who(0), 12345, legal), UnknownTable, "12345 is not a table code"),
        (lambda: host.move(players.who(0), _other_code(code), legal), UnknownTable, "no table has the code"),
        (lambda: host.join(Who(), code, "Late"), NotNow, "has started"),
        (lambda: host.start(players.who(0), code), NotNow, "has started already"),
        (lambda: host.history(players.who(0), code, 5), BadRequest, f"from 0 to {game.ply}, not 5"),
        (lambda: host.answer(players.who(0), code, "fez", 0.5), BadRequest, "answer is for Hats Off! races"),
        (lambda: host.hand_to_bot(players.who(0), code, 1), NotNow, "seat 1 is not away"),
        (lambda: host.rejoin(players.who(0), code, since=-1), BadRequest, "not -1"),
    ]


def _other_code(code: str) -> str:
    return ("B" if code[0] != "B" else "C") + code[1:]


def test_every_refusal_is_a_sentence_quoting_the_input_and_changes_nothing() -> None:
    host = TableHost()
    players = started_hats(host)
    for call, error, words in refusals(players):
        before = table_state(host, players.code)
        with pytest.raises(error) as refused:
            call()
        assert words in str(refused.value)
        assert table_state(host, players.code) == before, words


def test_a_full_table_and_a_taken_name_are_refused() -> None:
    host = TableHost()
    code = host.open(Who(), "sombrero", 2, "Maya").reply["code"]
    with pytest.raises(BadRequest, match="'maya' already sits at table"):
        host.join(Who(), code, "maya")
    with pytest.raises(BadRequest, match="a name is 1 to 24 printable characters, not '   '"):
        host.join(Who(), code, "   ")
    host.join(Who(), code, "Ben")
    before = table_state(host, code)
    with pytest.raises(SeatsFull, match=f"table {code} is full: its 2 seats are taken"):
        host.join(Who(), code, "Cleo")
    assert table_state(host, code) == before


def test_bad_tables_are_refused_when_opened() -> None:
    host = TableHost()
    with pytest.raises(BadRequest, match="unknown game 'chess'"):
        host.open(Who(), "chess", 2, "Maya")
    with pytest.raises(BadRequest, match="takes 2 players, not 3"):
        host.open(Who(), "sombrero", 3, "Maya")
    with pytest.raises(BadRequest, match="unknown option 'wild'"):
        host.open(Who(), "hats", 3, "Maya", {"wild": True})
    with pytest.raises(BadRequest, match="options are an object of rule options, not 'wild'"):
        host.open(Who(), "hats", 3, "Maya", "wild")
    assert host.tables == {}


def test_a_move_after_the_end_is_refused() -> None:
    host = TableHost()
    players = Players(host, "hats", 2, humans=2)
    players.start()
    play_to_end(players, random.Random(3))
    before = table_state(host, players.code)
    with pytest.raises(NotNow, match=f"the game at table {players.code} is over: '♥5@2' was not played"):
        host.move(players.who(0), players.code, "♥5@2")
    assert table_state(host, players.code) == before


def test_a_race_move_for_another_seat_is_refused() -> None:
    host = TableHost()
    players = Players(host, "hats-off", 3, humans=3)
    players.start()
    theirs = players.latest(1)["legal"][0]
    before = table_state(host, players.code)
    with pytest.raises(NotYourSeat, match=f"{re.escape(brief(theirs))} is a move for seat 1, not for seat 0, yours"):
        host.move(players.who(0), players.code, theirs)
    assert table_state(host, players.code) == before


def frames_refused(host: TableHost) -> list[tuple[str | bytes, str]]:
    """Frames that are not requests, with a piece of the sentence each must get."""
    return [
        ("hello world", "this frame is not JSON: 'hello world'"),
        ("{" * 3, "not JSON"),
        ("[" * 50_000, "nested more than 12 levels deep"),
        ("x" * (1024 * 1024), f"a frame of 1048576 characters is more than the host reads ({MAX_FRAME} bytes)"),
        (b"\x00\x01", "not binary ones (2 bytes)"),
        ("[1, 2]", 'a frame is a JSON object with an "op", not [1, 2]'),
        ('{"op": "fly"}', "unknown op 'fly'; the ops are: open, join, rejoin, start, move"),
        ('{"op": "undo"}', NO_UNDO),
        ('{"id": [1], "op": "ping"}', "a request id is a whole number or a text"),
        ('{"op": "open", "game": "hats", "players": 3}', "a name is 1 to 24 printable characters, not None"),
    ]


def test_a_move_the_rules_refuse_carries_their_reason_alone_for_the_players_table() -> None:
    host = TableHost()
    players = started_hats(host)
    game = players.game
    wrong = next(f"{c}@{p}" for c in game.view(0)["hand"] for p in range(1, 7) if game.why_illegal(f"{c}@{p}"))
    for move, reason in ((wrong, game.why_illegal(wrong)), ("fly away", None)):
        frame = {"op": "move", "code": players.code, "token": players.tokens[0], "move": move}
        reply = handle(host, json.dumps(frame)).reply
        assert reply["type"] == "error" and reply.get("reason") == reason, reply
        assert brief(move) in reply["message"], "the host's sentence still quotes the move"
    assert game.ply == 0


def test_frames_that_are_not_requests_get_a_sentence_and_change_nothing() -> None:
    host = TableHost()
    players = started_hats(host)
    before = table_state(host, players.code)
    for frame, words in frames_refused(host):
        sent = handle(host, frame)
        assert sent.reply["type"] == "error" and words in sent.reply["message"], (frame[:20], sent.reply)
        assert sent.pushes == [] and table_state(host, players.code) == before
    assert len(host.tables) == 1
    assert handle(host, '{"op": "ping", "id": 7}').reply == {"type": "pong", "re": 7}
    error = handle(host, json.dumps({"op": "move", "id": "m1", "code": players.code, "token": "no", "move": "x"}))
    assert error.reply["re"] == "m1" and error.reply["op"] == "move" and isinstance(error.refused, NotYourSeat)


# ---------------------------------------------------------------- whole games, every frame checked


@pytest.mark.parametrize(("seats", "face_down"), [(4, "passed a card face down"), (3, "discarded a card face down")])
def test_a_whole_hats_game_sends_no_seat_another_seats_cards(seats: int, face_down: str) -> None:
    """Four seats swap cards face down between partners; three discard face down and draw."""
    host = TableHost()
    players = Players(host, "hats", seats, humans=seats)
    players.start()
    play_to_end(players, random.Random(11))
    assert players.game.is_over and players.latest(2)["outcome"] is not None
    assert players.checked > seats * players.game.ply
    told = [e["text"] for frame in players.frames[0] for e in frame.get("events", [])]
    assert any(face_down in text for text in told) and any("made a black hat" in text for text in told)


def test_a_whole_madder_game_sends_no_seat_another_seats_hats_or_haberdasher() -> None:
    host = TableHost()
    players = Players(host, "madder", 3, humans=3)
    players.start()
    play_to_end(players, random.Random(5))
    assert players.game.is_over and players.latest(1)["status"] == "over"
    assert any("Haberdashers are revealed" in e["text"] for f in players.frames[1] for e in f.get("events", []))


def test_a_whole_hats_off_game_keeps_every_sealed_move_sealed_until_the_race_is_settled() -> None:
    host = TableHost()
    players = Players(host, "hats-off", 3, humans=3)
    players.start()
    play_to_end(players, random.Random(8), answer=True)
    assert players.game.is_over
    told = [e["text"] for f in players.frames[0] for e in f.get("events", [])]
    assert any(text.endswith("has moved (moves stay secret until everyone has moved)") for text in told)
    assert any(re.search(r"at \d\.\d\d s", text) for text in told)  # the devices' times settle the races


def test_a_whole_sombrero_game_is_played_to_its_end() -> None:
    host = TableHost()
    players = Players(host, "sombrero", 2, humans=2)
    players.start()
    play_to_end(players, random.Random(2))
    final = players.latest(1)
    assert final["status"] == "over" and final["legal"] == [] and final["acting"] == []
    assert final["outcome"]["reason"] and players.frames[0][-1]["type"] == "presence"


def test_a_race_pad_answer_is_the_engine_move_timed_by_the_device() -> None:
    assert str(race_move(1, "fez", 0.4134)) == "Ben:fez@0.413"
    assert str(race_move(0, "head", 1)) == "Ana:head@1"
    assert str(race_move(2, "off", 0.5)) == "Cleo:off@0.5"
    assert [str(race_move(0, a, None)) for a in ("pass", "flip", "wear fez")] == [
        "Ana:pass",
        "Ana:flip",
        "Ana:wear fez",
    ]
    with pytest.raises(MoveRefused, match=r"a time is a number of seconds from 0 to 999\.999 .*, not 'soon'"):
        race_move(0, "fez", "soon")
    with pytest.raises(MoveRefused, match="not None"):
        race_move(0, None, 0.3)


# ---------------------------------------------------------------- history, presence, reconnection, bots


def test_history_is_the_seats_own_views_and_there_is_no_undo() -> None:
    host = TableHost()
    players = started_hats(host)
    for _ in range(3):
        seat = players.latest(0)["acting"][0]
        if seat == 2:
            players.take(host.run_bots(players.code), None)
        else:
            players.move(seat, players.latest(seat)["legal"][-1])
    reply = host.history(players.who(1), players.code).reply
    own = players.game.seat_view(1)
    assert [entry["view"] for entry in reply["plies"]] == [own.view_at(p) for p in range(players.game.ply + 1)]
    assert reply["plies"][0]["events"] == [] and reply["plies"][1]["events"][0]["ply"] == 1
    players.take(Sent(reply), 1)
    assert handle(host, json.dumps({"op": "undo", "code": players.code})).reply["message"] == NO_UNDO


def test_a_lost_player_is_marked_away_handed_to_a_bot_and_takes_the_seat_back() -> None:
    clock = Clock()
    host = TableHost(clock=clock, away_after=30)
    players = Players(host, "sombrero", 2, humans=2)
    players.start()
    gone = host.connected(players.code, 1, False).to(players.code, 0)[0]
    assert gone["seats"][1]["connected"] is False and gone["seats"][1]["away"] is False
    clock.now += 29
    assert host.check_away().pushes == []
    clock.now += 1
    assert host.check_away().to(players.code, 0)[0]["seats"][1]["away"] is True
    handed = host.hand_to_bot(players.who(0), players.code, 1, "random")
    assert handed.reply["bot"] == "random" and handed.to(players.code, 0)[0]["seats"][1]["kind"] == "handed"
    players.move(0, players.latest(0)["legal"][0])
    players.move(0, players.latest(0)["legal"][0])
    players.take(host.run_bots(players.code), None)
    assert players.game.ply == 4 and players.game.acting == (0,)
    back = players.take(host.rejoin(players.who(1), players.code, since=0), 1)
    assert back.reply["type"] == "seated" and "token" not in back.reply
    state = back.to(players.code, 1)[0]
    assert state["ply"] == 4 and sorted({e["ply"] for e in state["events"]}) == [1, 2, 3, 4]
    assert host.tables[players.code].seats[1].kind == "player" and host.bot_turns(players.code) == []


def test_a_seat_played_by_a_bot_refuses_its_players_move_until_rejoined() -> None:
    clock = Clock()
    host = TableHost(clock=clock, away_after=5)
    players = Players(host, "sombrero", 2, humans=2)
    players.start()
    host.leave(players.who(0), players.code)
    host.hand_to_bot(players.who(1), players.code, 0)
    with pytest.raises(NotNow, match="a greedy bot plays seat 0 now; rejoin to take the seat back"):
        host.move(players.who(0), players.code, players.latest(0)["legal"][0])


def test_bots_answer_in_their_seats_and_a_stale_bot_move_is_dropped() -> None:
    host = TableHost()
    players = Players(host, "hats", 3, humans=2)
    players.start("random")
    players.move(0, players.latest(0)["legal"][0])
    players.move(1, players.latest(1)["legal"][0])
    turn = host.bot_turns(players.code)[0]
    assert turn.seat == 2 and turn.ply == 2
    played = players.take(host.play_bot(turn, turn.choose()), None)
    assert played.reply["seat"] == 2 and players.game.ply == 3
    with pytest.raises(NotNow, match=r"was chosen at ply 2; the game is at 3|no longer wanted"):
        host.play_bot(turn, turn.choose())


# ---------------------------------------------------------------- the store


def test_every_table_is_replayed_from_the_store_and_its_tokens_still_hold_their_seats(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite"
    host = TableHost(Store(path))
    players = started_hats(host)
    for _ in range(4):
        seat = players.latest(0)["acting"][0]
        sent = host.run_bots(players.code) if seat == 2 else players.move(seat, players.latest(seat)["legal"][0])
        players.take(sent, None)
    waiting = host.open(Who(), "sombrero", 2, "Lobby").reply["code"]
    with pytest.raises(StoreError, match="another table host is using"):
        Store(path)
    position = players.game.position()
    assert players.tokens[0].encode() not in path.read_bytes() + Path(f"{path}-wal").read_bytes()
    host.store.close()
    again = TableHost(Store(path))
    assert again.tables[players.code].game.position() == position and again.skipped == {}
    back = again.rejoin(players.who(1), players.code.lower())
    assert back.to(players.code, 1)[0]["view"] == players.game.view(1)
    assert again.join(Who(), waiting, "Ben").reply["seat"] == 1


def test_a_move_the_file_cannot_take_is_not_played(tmp_path: Path) -> None:
    host = TableHost(Store(tmp_path / "tables.sqlite"))
    players = started_hats(host)
    before = table_state(host, players.code)
    host.store.db.close()  # as a full disk or a vanished file would
    with pytest.raises(NotSaved, match=r"the host could not save this to its file .*; nothing was played"):
        host.move(players.who(0), players.code, players.latest(0)["legal"][0])
    assert table_state(host, players.code) == before


def test_a_table_that_no_longer_replays_is_skipped_and_named(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite"
    host = TableHost(Store(path))
    players = started_hats(host)
    players.move(0, players.latest(0)["legal"][0])
    host.store.db.execute("UPDATE moves SET move = 'nonsense'")
    host.store.close()
    again = TableHost(Store(path))
    assert players.code not in again.tables and "'nonsense'" in again.skipped[players.code]


def test_finished_games_and_old_lobbies_leave_memory_and_a_game_in_play_stays(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite"
    host = TableHost(Store(path), keep=100)
    playing, lobby = started_hats(host), host.open(Who(), "sombrero", 2, "Lobby").reply["code"]
    done = Players(host, "hats", 2, humans=2)
    done.start()
    play_to_end(done, random.Random(1))
    now = time.time()
    assert host.forget_old(now) == []
    assert sorted(host.forget_old(now + 101)) == sorted([lobby, done.code]) and list(host.tables) == [playing.code]
    host.store.db.execute("UPDATE tables SET created = 0")
    host.store.close()
    assert list(TableHost(Store(path), keep=100).tables) == [playing.code]  # the others stay in the file only


def test_a_host_holding_all_the_tables_it_may_refuses_another() -> None:
    host = TableHost(max_tables=2)
    host.open(Who(), "hats", 3, "A")
    host.open(Who(), "hats", 3, "B")
    with pytest.raises(NotNow, match="this host holds 2 tables, all it may"):
        host.open(Who(), "hats", 3, "C")


# ---------------------------------------------------------------- JupyterHub users


def test_on_a_hub_seats_belong_to_user_names_and_need_no_token() -> None:
    host = TableHost()
    opened = host.open(Who(user="maya"), "hats", 3)
    code = opened.reply["code"]
    assert "token" not in opened.reply and host.tables[code].seats[0].name == "maya"
    assert host.join(Who(user="ben"), code, "Ben B.").reply["seat"] == 1
    assert host.join(Who(user="ben"), code).reply["seat"] == 1  # again: the same seat, not another
    with pytest.raises(NotYourSeat, match="'cleo' holds no seat at table"):
        host.start(Who(user="cleo"), code)
    host.start(Who(user="maya"), code)
    legal = host.rejoin(Who(user="maya"), code).to(code, 0)[0]["legal"]
    with pytest.raises(NotNow, match="out of turn"):
        host.move(Who(user="ben"), code, legal[0])
    assert host.move(Who(user="maya"), code, legal[0]).reply["ply"] == 1


class FakeHub:
    """HubAuth's two methods the host uses, answering for two tokens."""

    access_scopes = frozenset({"access:services!service=tabletop"})

    def user_for_token(self, token: str, use_cache: bool = True, session_id: str = "", *, sync: bool = True) -> Any:
        if token == "down":
            raise ConnectionError("Failed to connect to Hub API")
        users = {"good": {"name": "maya", "scopes": ["access:services!service=tabletop"]}, "narrow": {"name": "ben"}}
        return _ready(users.get(token))

    def check_scopes(self, required: Any, user: dict[str, Any]) -> Any:
        return set(required) & set(user.get("scopes", []))


async def _ready(value: Any) -> Any:
    return value


def test_hub_auth_reads_the_token_header_asks_the_hub_and_checks_the_service_scope() -> None:
    import asyncio

    auth = HubUserAuth(FakeHub())
    assert asyncio.run(auth.identify({"Authorization": "token good"})) == "maya"
    assert asyncio.run(auth.identify({"Authorization": "Bearer good"})) == "maya"
    for header, status, words in [
        (None, 401, "a connection carries 'Authorization: token"),
        ("token bad", 403, "the hub knows no user with this token"),
        ("token narrow", 403, "the hub user 'ben' may not use this table host"),
        ("token down", 503, "the hub could not check the token now: 'Failed to connect to Hub API'"),
    ]:
        with pytest.raises(AuthError, match=words) as refused:
            asyncio.run(auth.identify({} if header is None else {"Authorization": header}))
        assert refused.value.status == status
    assert bearer_token(" token  abc ") == "abc"
