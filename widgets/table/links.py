"""Tables shared by link or by code: a teacher puts one deal or one position on thirty screens.

A page's address may end in a query that sets its table up:
``hats.ipynb?seed=42&players=4&seats=reader,strong,reader,greedy`` deals
game 42 for four, and ``?position=<code>`` puts a position on the table. Any
rule option of the game may be set the same way (``?memory_aid=yes``).
``?table=KBQTZ`` brings a student to a classmates' table (widgets/table/classmates.py),
``?walk=JZXVT`` to a walkthrough the teacher leads (widgets/table/walkthrough.py).
``?teacher=yes`` makes the page the teacher's screen, the only table that
offers the teacher's view of every hand (no page links to it); so does the
link the class's host prints, ``?teacher=<secret>``, which also lets the
page lead walkthroughs (the host checks the secret). Voilà
hands the query to the page's kernel (the ``QUERY_STRING`` environment
variable), where :func:`table_from_query` reads it; a bad query raises a
:class:`LinkError` whose sentence the table shows over its default game.

A *position code* is the position (``game.position()``) as compact JSON,
compressed and written in URL-safe base64: a short line of letters that
``game_from_code`` turns back into the game. It holds the hidden cards too,
so it is a teacher's tool: whoever decodes it sees every hand.
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from collections.abc import Sequence
from dataclasses import fields
from typing import Any
from urllib.parse import parse_qsl, urlencode

import hatskit
from hatskit import Game, HatskitError
from widgets.table.setup import NEW_SEAT, READER, check_seats, whole_number

MAX_TABLE_CODE = 12  # letters in a table code the link may carry (the host's are 5)
MAX_POSITION_BYTES = 100_000  # a code that unpacks to more than this is refused, not unpacked
PAGE_SETTINGS = ("theme", "template")  # Voilà's own query settings, left to Voilà
TABLE = "table"  # ?table=KBQTZ: a table the class's host keeps (widgets/table/classmates.py)
TEACHER = "teacher"  # ?teacher=yes: the teacher's screen, which may show every hand (no student's link has it)
WALK = "walk"  # ?walk=JZXVT: a walkthrough the teacher leads (widgets/table/walkthrough.py)
SECRET_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
TRUE_WORDS, FALSE_WORDS = ("yes", "true", "on", "1"), ("no", "false", "off", "0")


class LinkError(ValueError):
    """A link or position code the table cannot use; the message is the sentence the reader sees."""


def position_code(game: Game) -> str:
    """The game's current position as a short URL-safe code (it holds every hidden card)."""
    text = json.dumps(game.position(), separators=(",", ":"), ensure_ascii=False)
    return base64.urlsafe_b64encode(zlib.compress(text.encode(), 9)).decode().rstrip("=")


def game_from_code(code: str, game_id: str) -> Game:
    """The game at the position a code holds, or a LinkError saying why the code cannot be used."""
    shown = code if len(code) <= 24 else f"{code[:20]}…"
    if not code.strip():
        raise LinkError("there is no position code: paste one first")
    try:
        packed = base64.urlsafe_b64decode(code.strip() + "=" * (-len(code.strip()) % 4))
        unpacker = zlib.decompressobj()
        text = unpacker.decompress(packed, MAX_POSITION_BYTES)
        if unpacker.unconsumed_tail:
            raise LinkError(f"the position code {shown!r} is far too long to be a position")
        data = json.loads(text)
    except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError) as error:
        if isinstance(error, LinkError):
            raise
        raise LinkError(f"{shown!r} is not a position code: copy the whole code, with no letter missing") from None
    if not isinstance(data, dict) or data.get("game") != game_id or "moves" in data:
        raise LinkError(f"the position code {shown!r} is not a position of this game")
    try:
        return hatskit.load(data)
    except HatskitError as error:
        raise LinkError(f"the position code {shown!r} does not make a position: {error}") from None


def link_query(game: Game, seats: Sequence[str]) -> str:
    """The query of a link that sets up this table's game from its start (its deal, or the position it began at)."""
    head = game.head
    settings: dict[str, str] = {}
    if "start" in head:
        settings["position"] = position_code(hatskit.load(head["start"]))
    else:
        settings["seed"] = str(head["seed"])
        settings["players"] = str(head["players"])
        settings |= {name: _query_value(value) for name, value in head.get("options", {}).items()}
    settings["seats"] = ",".join(seats)
    return urlencode(settings, safe=",")


def table_from_query(game_id: str, query: str, default_seats: Sequence[str]) -> tuple[Game, tuple[str, ...]] | None:
    """The game and seats a page's query sets up (None when it sets nothing), or a LinkError saying what is wrong."""
    settings = _settings(query)
    if not settings:
        return None
    if "position" in settings:
        extra = sorted(set(settings) - {"position", "seats"})
        if extra:
            raise LinkError(f"a link with a position sets only the seats besides, not {', '.join(extra)}")
        game = game_from_code(settings["position"], game_id)
    else:
        game = _new_game(game_id, settings)
    text = settings.get("seats")
    players = len(game.seat_names)
    if text is None:
        return game, seats_for(default_seats, players)
    try:
        return game, check_seats([kind.strip() for kind in text.split(",")], players)
    except ValueError as error:
        raise LinkError(f"the link's seats cannot be used: {error}") from None


def teacher_from_query(query: str) -> bool:
    """True when the link asks for the teacher's screen (``teacher=yes``), where every hand may be shown."""
    given = [value for name, value in parse_qsl(query.lstrip("?"), keep_blank_values=True) if name == TEACHER]
    if not given:
        return False
    if len(given) > 1 or not (given[0].lower() in TRUE_WORDS + FALSE_WORDS or _is_secret(given[0])):
        raise LinkError(f"the link's teacher setting must be given once, as yes or no, not {', '.join(given)!r}")
    return given[0].lower() in TRUE_WORDS or _is_secret(given[0])


def teacher_secret_from_query(query: str) -> str | None:
    """The class's teacher secret the host printed (``teacher=<secret>``), or None (``teacher=yes`` holds none).
    Only the table host can tell whether it is the teacher's: the page sends it with the teacher's requests."""
    given = [value for name, value in parse_qsl(query.lstrip("?"), keep_blank_values=True) if name == TEACHER]
    return given[0] if len(given) == 1 and _is_secret(given[0]) else None


def _is_secret(text: str) -> bool:
    """Whether ``text`` has the shape of a host's teacher secret (``secrets.token_urlsafe``), not a yes or no."""
    return 16 <= len(text) <= 128 and set(text) <= SECRET_CHARACTERS and text.lower() not in TRUE_WORDS + FALSE_WORDS


def table_code_from_query(query: str, name: str = TABLE) -> str | None:
    """The classmates' table the link leads to (``table=KBQTZ``; ``name="walk"``: the walkthrough, ``walk=JZXVT``),
    in capitals, or None; a LinkError when it is not a code."""
    given = [value for key, value in parse_qsl(query.lstrip("?"), keep_blank_values=True) if key == name]
    if not given:
        return None
    code = given[0].strip().upper()
    if len(given) > 1 or not (code.isascii() and code.isalpha() and len(code) <= MAX_TABLE_CODE):
        raise LinkError(f"the link's {name} must be one code of letters such as KBQTZ, not {', '.join(given)!r}")
    return code


def _settings(query: str) -> dict[str, str]:
    """The query's settings by name (Voilà's own left out); a name given twice is an error."""
    pairs = [(name, value) for name, value in parse_qsl(query.lstrip("?"), keep_blank_values=True)]
    pairs = [(name, value) for name, value in pairs if name not in (*PAGE_SETTINGS, TEACHER, TABLE, WALK)]
    names = [name for name, _ in pairs]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise LinkError(f"the link sets {', '.join(twice)} more than once")
    return dict(pairs)


def _new_game(game_id: str, settings: dict[str, str]) -> Game:
    options_type = hatskit.GAMES[game_id].options_type
    known = ["seed", "players", "seats", "position", *(field.name for field in fields(options_type))]
    unknown = sorted(set(settings) - set(known))
    if unknown:
        raise LinkError(f"the link has the unknown setting(s) {', '.join(unknown)}; it may set {', '.join(known)}")
    defaults = options_type()
    chosen = {name: text for name, text in settings.items() if name in known[4:]}
    options = {name: _option(name, text, getattr(defaults, name)) for name, text in chosen.items()}
    players = _whole(settings["players"], "players") if "players" in settings else None
    seed = _whole(settings["seed"], "seed (the deal number)") if "seed" in settings else None
    try:
        return hatskit.new_game(game_id, players=players, seed=seed, **options)
    except (HatskitError, ValueError) as error:
        raise LinkError(f"the link's game cannot start: {error}") from None


def seats_for(default_seats: Sequence[str], players: int) -> tuple[str, ...]:
    """Default seats fitted to ``players``: cut, or filled with bots; a reader in the first seat if none is left."""
    seats = [*default_seats[:players], *[NEW_SEAT] * (players - len(default_seats))]
    return check_seats(seats if READER in seats else [READER, *seats[1:]], players)


def _option(name: str, text: str, default: Any) -> Any:
    """An option's value from the link's text, by the type of its default."""
    if isinstance(default, bool):
        if text.lower() not in TRUE_WORDS + FALSE_WORDS:
            raise LinkError(f"the link's {name} must be yes or no, not {text!r}")
        return text.lower() in TRUE_WORDS
    if isinstance(default, int):
        return _whole(text, name)
    if isinstance(default, tuple | list):
        return [word for word in text.replace(",", " ").split() if word]
    return text


def _whole(text: str, what: str) -> int:
    number = whole_number(text)
    if number is None:
        raise LinkError(f"the link's {what} must be a whole number such as 42, not {text!r}")
    return number


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple | list):
        return ",".join(str(item) for item in value)
    return str(value)
