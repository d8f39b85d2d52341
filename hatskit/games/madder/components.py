"""Madder than a Hatter's parts: the options, the seats, the deal's sizes and the card set read from data (M6).

The card texts live in ``cards.toml`` beside this module, not in code, so a
class that owns the printed game can enter its texts there. Each ability is an
*effect* (one of the primitives in :data:`EFFECTS`) with parameters; reading
the file checks every card and names the card and field of any mistake.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from hatskit.core import PLAYER_NAMES, RecordError

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
_STYLE_NAME = re.compile(r"^[A-Z][a-z]+$")


@dataclass(frozen=True)
class MadderOptions:
    """Rule options. ``cards``: a card file to play with instead of the stand-in set (M6)."""

    cards: str = ""


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
        return next(card for card in self.haberdashers if card.name == name)

    def haberdasher_names(self) -> list[str]:
        return [card.name for card in self.haberdashers]

    def premium_of(self, hat: str) -> Ability | None:
        """The ability of a Premium hat, None for a regular one."""
        return self.premiums[style_of(hat)] if is_premium(hat) else None


def style_of(hat: str) -> str:
    """``Fedora*`` -> ``Fedora``."""
    return hat.removesuffix(PREMIUM_MARK)


def is_premium(hat: str) -> bool:
    return hat.endswith(PREMIUM_MARK)


# ---------------------------------------------------------------- reading the file


def card_set(options: MadderOptions) -> CardSet:
    """The card set the options name (the stand-in set by default)."""
    return load_cards(options.cards or str(DEFAULT_CARDS))


@lru_cache(maxsize=8)
def load_cards(path: str) -> CardSet:
    """Read and check a card file; a RecordError names the card and the field of a mistake."""
    where = f"cards file {path}"
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise RecordError(f"{where} cannot be read: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise RecordError(f"{where} is not valid TOML: {error}") from None
    label = _text(data, "label", where)
    styles = _styles(data, where)
    premiums = _premiums(data, styles, where)
    haberdashers = tuple(_card(entry, f"{where}, haberdasher", None) for entry in _tables(data, "haberdasher", where))
    _check_haberdashers(haberdashers, where)
    return CardSet(label, styles, premiums, haberdashers, path)


def _text(data: Mapping[str, Any], name: str, where: str) -> str:
    value = data.get(name)
    if not isinstance(value, str) or not value.strip():
        raise RecordError(f"{where}: field {name!r} must be a non-empty text, not {value!r}")
    return value


def _tables(data: Mapping[str, Any], name: str, where: str) -> list[Mapping[str, Any]]:
    tables = data.get(name)
    if not isinstance(tables, list) or not all(isinstance(t, Mapping) for t in tables):
        raise RecordError(f"{where}: the cards of kind {name!r} must be [[{name}]] tables")
    return tables


def _styles(data: Mapping[str, Any], where: str) -> tuple[str, ...]:
    styles = data.get("styles")
    if not isinstance(styles, list) or len(styles) != STYLE_COUNT or len(set(map(str, styles))) != STYLE_COUNT:
        raise RecordError(f"{where}: field 'styles' must list {STYLE_COUNT} different style names, not {styles!r}")
    for style in styles:
        if not isinstance(style, str) or not _STYLE_NAME.match(style):
            raise RecordError(
                f"{where}: field 'styles': {style!r} must be one word, a capital letter and then small letters"
            )
    return tuple(styles)


def _premiums(data: Mapping[str, Any], styles: tuple[str, ...], where: str) -> dict[str, Ability]:
    premiums: dict[str, Ability] = {}
    for number, entry in enumerate(_tables(data, "premium", where), start=1):
        style = entry.get("style")
        who = f"{where}, premium #{number} ({entry.get('name', 'no name')!r})"
        if style not in styles:
            raise RecordError(f"{who}: field 'style' must be one of {', '.join(styles)}, not {style!r}")
        if style in premiums:
            raise RecordError(f"{who}: field 'style': {style} already has a Premium hat")
        premiums[style] = _card(entry, f"{where}, premium", style)
    missing = [style for style in styles if style not in premiums]
    if missing:
        raise RecordError(f"{where}: every style needs one [[premium]]; missing {', '.join(missing)}")
    return premiums


def _card(entry: Mapping[str, Any], kind: str, style: str | None) -> Ability:
    name = entry.get("name")
    who = f"{kind} {name!r}" if isinstance(name, str) and name.strip() else f"{kind} without a name"
    name = _text(entry, "name", who)
    text = _text(entry, "text", who)
    effect = entry.get("effect")
    if effect not in EFFECTS:
        raise RecordError(f"{who}: field 'effect' must be one of {', '.join(EFFECTS)}, not {effect!r}")
    if style is not None and effect in SCORING_EFFECTS:
        raise RecordError(f"{who}: field 'effect': {effect!r} scores at the end of the round, for Haberdashers only")
    params = entry.get("params", {})
    if not isinstance(params, Mapping):
        raise RecordError(f"{who}: field 'params' must be a table like {{ from = \"own\" }}, not {params!r}")
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
        if value not in param.allowed or isinstance(value, bool):
            allowed = ", ".join(map(repr, param.allowed))
            raise RecordError(f"{who}: field 'params.{key}' must be one of {allowed}, not {value!r}")
        params[key] = value
    if effect in ("move", "take") and params["from"] == params["to"] == "own":
        raise RecordError(f"{who}: field 'params': {effect!r} from 'own' to 'own' would leave the hat where it is")
    return params


def _check_haberdashers(haberdashers: tuple[Ability, ...], where: str) -> None:
    names = [card.name for card in haberdashers]
    if len(names) != HABERDASHER_COUNT or len(set(names)) != HABERDASHER_COUNT:
        raise RecordError(f"{where}: there must be {HABERDASHER_COUNT} [[haberdasher]] cards with different names")
