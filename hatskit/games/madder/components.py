"""Madder than a Hatter's parts: the options, the seats, the deal's sizes and the card set read from data (M6).

The card texts live in ``cards.toml`` beside this module, not in code, so a
class that owns the printed game can enter its texts there (or name its own
file with the ``cards`` option). Each ability is an *effect* (one of the
primitives in :data:`EFFECTS`) with parameters.

What a card file may hold (the contract, checked completely when the file is
read; a RecordError names the file, the card and the field of any mistake): a
regular file of at most ``MAX_CARD_BYTES`` bytes of UTF-8 TOML text (no NUL
byte) at a path without a NUL byte, with exactly the fields ``label`` (a text),
``styles`` (8 different names, each a capital letter and then 1 to
``MAX_STYLE_LETTERS - 1`` small letters, so that every move's notation stays
short), 8 ``[[premium]]`` tables (``style``, ``name``, ``text``, ``effect``,
``params``; one per style) and 4 ``[[haberdasher]]`` tables (``name``,
``text``, ``effect``, ``params``; different names). A name is at most
``MAX_NAME`` characters with no control character and no space at either end;
a text at most ``MAX_CARD_TEXT``. ``effect`` is one of :data:`EFFECTS` (a
word, not an array or a table; ``bonus`` for Haberdashers only), and each
parameter is one of its allowed values, of the same type (``count = 2``, not
``2.0``).
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from hatskit.core import PLAYER_NAMES, RecordError, brief

DEFAULT_CARDS = Path(__file__).with_name("cards.toml")
STYLE_COUNT = 8
REGULAR_COPIES = 3  # and one Premium: four hats per style
HATS_PER_STYLE = REGULAR_COPIES + 1
HABERDASHER_COUNT = 4
PREMIUM_MARK = "*"
SEAT_NAMES = PLAYER_NAMES[:4]
PLAYER_COUNTS = (3, 4)
HAND_SIZE = {3: 3, 4: 2}  # face-down hats dealt to each player (M2)
LINE_SIZE = {3: 4, 4: 5}  # hats on the assembly line (M2)
# The phases of a round (M3, M4); a position with inventories only is an exercise, scored and never played.
PLAY, ABILITY, END, HABERDASHERS, OVER, EXERCISE = "play", "ability", "end", "haberdashers", "over", "exercise"
PHASES = (PLAY, ABILITY, END, HABERDASHERS, OVER, EXERCISE)
MAX_CARD_BYTES = 64 * 1024  # the stand-in file is about 5 KB
MAX_STYLE_LETTERS = 20  # the longest notation (a discard of three hats) then stays far under MAX_MOVE_CHARS
MAX_NAME = 60  # a card's name; a Haberdasher's name is written in every position
MAX_CARD_TEXT = 400
_STYLE_NAME = re.compile(rf"[A-Z][a-z]{{1,{MAX_STYLE_LETTERS - 1}}}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
FILE_FIELDS = ("label", "styles", "premium", "haberdasher")
CARD_FIELDS = {
    "premium": ("style", "name", "text", "effect", "params"),
    "haberdasher": ("name", "text", "effect", "params"),
}


@dataclass(frozen=True)
class MadderOptions:
    """Rule options. ``cards``: a card file to play with instead of the stand-in set (M6), a teacher's option
    that the table's set-up row does not show."""

    cards: str = field(
        default="", metadata={"teacher": True, "help": "a card file to play with instead of hatskit's own cards"}
    )


# ---------------------------------------------------------------- effect primitives


@dataclass(frozen=True)
class Param:
    """One parameter of an effect: the values it may take and its default (None: required)."""

    allowed: tuple[Any, ...]
    default: Any = None


SEAT_SCOPES = ("own", "other", "any")
EFFECTS: dict[str, dict[str, Param]] = {
    "move": {"from": Param(SEAT_SCOPES), "to": Param(SEAT_SCOPES)},
    "discard": {"from": Param((*SEAT_SCOPES, "line")), "count": Param((1, 2, 3), 1)},
    "swap": {},
    "take": {"from": Param(("line", *SEAT_SCOPES)), "to": Param(("hand", "own"), "hand")},
    "bonus": {"hats": Param((1, 2, 3, 4)), "points": Param(tuple(range(1, 11)))},
}
SCORING_EFFECTS = ("bonus",)  # act at scoring, not by a choice; Haberdashers only


@dataclass(frozen=True, eq=False)
class Ability:
    """A Premium hat's or a Haberdasher's card: its name, text and effect with parameters."""

    name: str
    text: str
    effect: str
    params: Mapping[str, Any]
    style: str | None = None  # the Premium's style; None for a Haberdasher

    @property
    def chooses(self) -> bool:
        """Whether its owner makes a choice (every effect but a scoring bonus)."""
        return self.effect not in SCORING_EFFECTS


@dataclass(frozen=True, eq=False)
class CardSet:
    """The styles and the texts a game is played with, and the file they came from."""

    label: str
    styles: tuple[str, ...]
    premiums: Mapping[str, Ability]  # by style
    haberdashers: tuple[Ability, ...]
    source: str

    def hats(self) -> list[str]:
        """All 32 hat cards in a fixed order: per style three regular and the Premium."""
        return [hat for style in self.styles for hat in [style] * REGULAR_COPIES + [style + PREMIUM_MARK]]

    def haberdasher(self, name: str) -> Ability:
        """The Haberdasher card called ``name``."""
        return next(card for card in self.haberdashers if card.name == name)

    def haberdasher_names(self) -> list[str]:
        """The Haberdashers' names in the file's order."""
        return [card.name for card in self.haberdashers]

    def premium_of(self, hat: str) -> Ability | None:
        """The ability of a Premium hat, None for a regular one."""
        return self.premiums[style_of(hat)] if is_premium(hat) else None


def style_of(hat: str) -> str:
    """``Fedora*`` -> ``Fedora``."""
    return hat.removesuffix(PREMIUM_MARK)


def is_premium(hat: str) -> bool:
    """``Fedora*`` is a Premium hat; ``Fedora`` is not."""
    return hat.endswith(PREMIUM_MARK)


def hat_words(hat: str) -> str:
    """A hat as a reader meets it on the cards: "Newsboy ★" for the Premium, not the notation's "Newsboy*"."""
    return f"{style_of(hat)} ★" if is_premium(hat) else hat


# ---------------------------------------------------------------- reading the file


def card_set(options: MadderOptions) -> CardSet:
    """The card set the options name (the stand-in set by default)."""
    return load_cards(options.cards or str(DEFAULT_CARDS))


@lru_cache(maxsize=8)
def load_cards(path: str) -> CardSet:
    """Read and check a card file completely (module docstring); a RecordError names file, card and field."""
    where = f"cards file {path}" if path.isprintable() else f"cards file {path!r}"
    data = _parse_toml(_read_text(path, where), where)
    _known_fields(data, FILE_FIELDS, where)
    label = _text(data, "label", where, MAX_CARD_TEXT)
    styles = _styles(data, where)
    premiums = _premiums(data, styles, where)
    haberdashers = tuple(_card(entry, f"{where}, haberdasher", None) for entry in _tables(data, "haberdasher", where))
    _check_haberdashers(haberdashers, where)
    return CardSet(label, styles, premiums, haberdashers, path)


def _read_text(path: str, where: str) -> str:
    """The file's text: a small regular file of UTF-8 text, read without waiting on a pipe or a device."""
    if "\x00" in path:
        raise RecordError(f"{where} cannot be read: a path cannot hold a NUL byte")
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as error:
        raise RecordError(f"{where} cannot be read: {error.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise RecordError(f"{where} is not a regular file (a folder, a pipe or a device): name a .toml file")
        content = _read_at_most(handle, MAX_CARD_BYTES + 1)
    finally:
        os.close(handle)
    if len(content) > MAX_CARD_BYTES:
        raise RecordError(f"{where} is larger than {MAX_CARD_BYTES} bytes; a card file is a small text file")
    return _decode(content, where)


def _read_at_most(handle: int, size: int) -> bytes:
    chunks: list[bytes] = []
    while size > 0 and (chunk := os.read(handle, size)):
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _decode(content: bytes, where: str) -> str:
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RecordError(f"{where} is not UTF-8 text: byte {error.start} cannot be read (save it as UTF-8)") from None
    if "\x00" in text:
        raise RecordError(f"{where} is a binary file, not text: it holds a NUL byte at {text.index(chr(0))}")
    return text


def _parse_toml(text: str, where: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RecordError(f"{where} is not valid TOML: {error}") from None
    except RecursionError:
        raise RecordError(f"{where} is not valid TOML: it is nested too deeply") from None


def _known_fields(data: Mapping[str, Any], known: tuple[str, ...], where: str) -> None:
    for name in data:
        if name not in known:
            raise RecordError(f"{where}: field {brief(name)} is not a field here (the fields: {', '.join(known)})")


def _text(data: Mapping[str, Any], name: str, where: str, longest: int) -> str:
    value = data.get(name)
    if not isinstance(value, str) or not value.strip() or len(value) > longest or _CONTROL.search(value):
        raise RecordError(
            f"{where}: field {name!r} must be a non-empty text of at most {longest} characters without control "
            f"characters, not {brief(value)}"
        )
    return value


def _name(data: Mapping[str, Any], where: str) -> str:
    """A card's name: a text of at most ``MAX_NAME`` characters with no space at either end."""
    name = _text(data, "name", where, MAX_NAME)
    if name != name.strip():
        raise RecordError(f"{where}: field 'name' must not start or end with a space, not {brief(name)}")
    return name


def _tables(data: Mapping[str, Any], name: str, where: str) -> list[Mapping[str, Any]]:
    tables = data.get(name)
    if not isinstance(tables, list) or not all(isinstance(t, Mapping) for t in tables):
        raise RecordError(f"{where}: the cards of kind {name!r} must be [[{name}]] tables")
    return tables


def _styles(data: Mapping[str, Any], where: str) -> tuple[str, ...]:
    styles = data.get("styles")
    if not isinstance(styles, list) or len(styles) != STYLE_COUNT or len(set(map(str, styles))) != STYLE_COUNT:
        raise RecordError(f"{where}: field 'styles' must list {STYLE_COUNT} different style names, not {brief(styles)}")
    for style in styles:
        if not isinstance(style, str) or not _STYLE_NAME.fullmatch(style):
            raise RecordError(
                f"{where}: field 'styles': {brief(style)} must be one word, a capital letter and then small letters, "
                f"2 to {MAX_STYLE_LETTERS} letters in all"
            )
    return tuple(styles)


def _premiums(data: Mapping[str, Any], styles: tuple[str, ...], where: str) -> dict[str, Ability]:
    premiums: dict[str, Ability] = {}
    for number, entry in enumerate(_tables(data, "premium", where), start=1):
        style = entry.get("style")
        who = f"{where}, premium #{number} ({brief(entry.get('name', 'no name'))})"
        if not isinstance(style, str) or style not in styles:
            raise RecordError(f"{who}: field 'style' must be one of {', '.join(styles)}, not {brief(style)}")
        if style in premiums:
            raise RecordError(f"{who}: field 'style': {style} already has a Premium hat")
        premiums[style] = _card(entry, f"{where}, premium", style)
    missing = [style for style in styles if style not in premiums]
    if missing:
        raise RecordError(f"{where}: every style needs one [[premium]]; missing {', '.join(missing)}")
    return premiums


def _card(entry: Mapping[str, Any], kind: str, style: str | None) -> Ability:
    name = entry.get("name")
    readable = isinstance(name, str) and name.strip() and len(name) <= MAX_NAME and name.isprintable()
    who = f"{kind} {name!r}" if readable else f"{kind} without a usable name"
    _known_fields(entry, CARD_FIELDS["premium" if style is not None else "haberdasher"], who)
    name, text = _name(entry, who), _text(entry, "text", who, MAX_CARD_TEXT)
    effect = entry.get("effect")
    if not isinstance(effect, str) or effect not in EFFECTS:
        raise RecordError(f"{who}: field 'effect' must be one of {', '.join(EFFECTS)}, not {brief(effect)}")
    if style is not None and effect in SCORING_EFFECTS:
        raise RecordError(f"{who}: field 'effect': {effect!r} scores at the end of the round, for Haberdashers only")
    params = entry.get("params", {})
    if not isinstance(params, Mapping):
        raise RecordError(f"{who}: field 'params' must be a table like {{ from = \"own\" }}, not {brief(params)}")
    return Ability(name, text, effect, _params(params, effect, who), style)


def _params(given: Mapping[str, Any], effect: str, who: str) -> dict[str, Any]:
    schema = EFFECTS[effect]
    for key in given:
        if key not in schema:
            known = ", ".join(schema) or "none"
            raise RecordError(f"{who}: field 'params.{key}' is not a parameter of {effect!r} (its parameters: {known})")
    params = {}
    for key, param in schema.items():
        value = given.get(key, param.default)
        if type(value) not in {type(allowed) for allowed in param.allowed} or value not in param.allowed:
            allowed = ", ".join(map(repr, param.allowed))
            raise RecordError(f"{who}: field 'params.{key}' must be one of {allowed}, not {brief(value)}")
        params[key] = value
    if effect in ("move", "take") and params["from"] == params["to"] == "own":
        raise RecordError(f"{who}: field 'params': {effect!r} from 'own' to 'own' would leave the hat where it is")
    return params


def _check_haberdashers(haberdashers: tuple[Ability, ...], where: str) -> None:
    names = [card.name for card in haberdashers]
    if len(names) != HABERDASHER_COUNT or len(set(names)) != HABERDASHER_COUNT:
        raise RecordError(f"{where}: there must be {HABERDASHER_COUNT} [[haberdasher]] cards with different names")
