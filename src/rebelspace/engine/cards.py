"""Card types: the two printed card lists as validated, immutable data records.

Over 500 lines: the card file's validation is most of it: one check per field, each with the
error message a designer reads; splitting loading from checking would put the schema in two
places.

The designer's card lists are the source of truth for deck contents (R1), so they live in a data
file (``rebelspace/data/cards.toml``) that a designer can edit, not in code. This module loads
that file (or rows of equivalent data), checks every field, and turns each printed line into a
frozen :class:`CardType`. Everything a rule needs to know about a card is derived here once:

* its *kind* from the printed type (R2): units, attachments, psion cards and actions;
* its *keywords* from the Notes column (R3), e.g. ``pilot``, ``ship``, ``facility``;
* for action cards, the single *ability* that their notes describe, keyed for the effect code.

Validation errors are :class:`~rebelspace.engine.errors.CardDataError` whose message names the
file, the card and the field, so a designer editing the file can fix it without reading code.

>>> db = load_cards()
>>> db.deck_size(REBEL), db.deck_size(IMPERIAL)
(76, 67)
>>> sorted(db.by_name("Smuggler").keywords)
['captain', 'pilot']
"""

from __future__ import annotations

import difflib
import functools
import os
import re
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from importlib import resources
from typing import Any

from .abilities import ABILITY_NOTES
from .enums import IMPERIAL, REBEL, SIDE_NAMES
from .errors import (
    CardDataError,
    UnknownCardError,  # re-exported: see errors.py
)

__all__ = [
    "ABILITIES",
    "ABILITY_NOTES",
    "ACTION",
    "ATTACHMENT",
    "GROUND",
    "GS",
    "HERO",
    "IMPERIAL",
    "KEYWORDS",
    "KEYWORD_NOTES",
    "PRINTED_TYPES",
    "PSION",
    "REBEL",
    "SIDE_NAMES",
    "SPACE",
    "UNIT_KINDS",
    "CardDB",
    "CardType",
    "UnknownCardError",
    "cards_from_data",
    "deck_report",
    "load_cards",
]


# Kinds (R2). G/S units are both ground and space units.
HERO, GROUND, SPACE, GS = "hero", "ground", "space", "gs"
ATTACHMENT, PSION, ACTION = "attachment", "psion", "action"
UNIT_KINDS = frozenset({HERO, GROUND, SPACE, GS})

#: Printed type -> kind (R2). The printed spelling is kept on the card as ``printed_type``.
PRINTED_TYPES: Mapping[str, str] = {
    "Hero": HERO,
    "Ground": GROUND,
    "Space": SPACE,
    "G/S": GS,
    "Comp": ATTACHMENT,
    "Compan": ATTACHMENT,
    "Item": ATTACHMENT,
    "Psi": PSION,
    "Act": ACTION,
    "State": ACTION,
}

#: Notes text (exact, case-sensitive) -> keyword (R3).
KEYWORD_NOTES: Mapping[str, str] = {
    "Pilot": "pilot",
    "Captain": "captain",
    "Psionic": "psionic",
    "Fighter": "fighter",
    "Ship": "ship",
    "Facility": "facility",
    "Defense": "defense",
    "May Attack": "may_attack",
    "Draw 1 extra card per turn": "extra_draw",
    "Destroy 1 attacking Ship": "ion_cannon",
    "Attacking Ships do no Damage": "shields",
    "Companion": "companion",
    "Attach to Hero": "attach_to_hero",
}

# ABILITY_NOTES (notes text of action cards -> ability key, R26-R30) comes from the abilities
# themselves (engine/abilities/): each ability's module says which Notes text gives it.

KEYWORDS = frozenset(KEYWORD_NOTES.values())
ABILITIES = frozenset(ABILITY_NOTES.values())

_RATINGS = ("ground", "space", "damage")
_INT_FIELDS = ("count", *_RATINGS, "cost")
_ALL_FIELDS = ("name", "side", "type", *_INT_FIELDS, "notes")
_MAX_COST = 9
# Far above any printed number, low enough that a card file (or a record from a client) can
# never make a game of millions of cards.
_MAX_COUNT = 200
_MAX_RATING = 99
_NOTE_SPLIT = re.compile(r"[,;]")


def _printed_fields(kind: str) -> tuple[str, ...]:
    """Rating/cost fields the sheet prints for a kind: all four, ratings only (Psi), or none."""
    if kind == ACTION:
        return ()
    if kind == PSION:
        return _RATINGS
    return (*_RATINGS, "cost")


@dataclass(frozen=True, slots=True)
class CardType:
    """One printed line of a card list: what every copy of that card is.

    Copies in play are the engine's business; this record is shared and immutable. Ratings that
    the sheet does not print (action cards) are 0, and a cost that is not printed (Psi cards,
    actions) is ``None``, so rules can add ratings without special cases.
    """

    index: int
    name: str
    side: int
    kind: str
    printed_type: str
    count: int
    ground: int
    space: int
    damage: int
    cost: int | None
    notes: str
    keywords: frozenset[str]
    ability: str | None

    @property
    def is_unit(self) -> bool:
        """Heroes, Ground, Space and G/S cards are units (R2)."""
        return self.kind in UNIT_KINDS

    @property
    def is_hero(self) -> bool:
        return self.kind == HERO

    @property
    def is_ground_unit(self) -> bool:
        """A Ground or G/S card (R2). Heroes are not ground units, though they fight on ground."""
        return self.kind in (GROUND, GS)

    @property
    def is_space_unit(self) -> bool:
        """A Space or G/S card (R2)."""
        return self.kind in (SPACE, GS)

    @property
    def is_attachment(self) -> bool:
        return self.kind == ATTACHMENT

    @property
    def is_psion(self) -> bool:
        return self.kind == PSION

    @property
    def is_action(self) -> bool:
        return self.kind == ACTION

    def has(self, keyword: str) -> bool:
        """Whether the card's notes give it ``keyword`` (R3), e.g. ``card.has("ship")``."""
        return keyword in self.keywords

    def __str__(self) -> str:
        return self.name


class CardDB:
    """All card types of both sides, in canonical order (:func:`canonical_key`, not the
    file's), with lookups used by the engine.

    Immutable by convention: change a database with :meth:`with_changes`, which validates the
    result and returns a new one (the balance lab relies on this).
    """

    __slots__ = ("types", "source", "_by_name", "_by_side")

    types: tuple[CardType, ...]
    source: str

    def __init__(self, types: Sequence[CardType], source: str = "<data>") -> None:
        self.types = tuple(types)
        self.source = source
        self._by_name = {t.name: t for t in self.types}
        self._by_side = tuple(
            tuple(t for t in self.types if t.side == side) for side in (REBEL, IMPERIAL)
        )

    def __len__(self) -> int:
        return len(self.types)

    def __iter__(self) -> Iterator[CardType]:
        return iter(self.types)

    def __eq__(self, other: object) -> bool:
        # Equal contents are equal databases, wherever they were loaded from.
        if not isinstance(other, CardDB):
            return NotImplemented
        return self.types == other.types

    def __hash__(self) -> int:
        return hash(self.types)

    def __repr__(self) -> str:
        return f"CardDB({len(self.types)} card types from {self.source!r})"

    def by_name(self, name: str) -> CardType:
        """The card type named exactly ``name``; :class:`UnknownCardError` (a KeyError) if none."""
        try:
            return self._by_name[name]
        except KeyError:
            near = difflib.get_close_matches(name, list(self._by_name), n=3, cutoff=0.5)
            hint = f"; did you mean {', '.join(repr(n) for n in near)}?" if near else ""
            raise UnknownCardError(f"no card named {name!r} in {self.source}{hint}") from None

    def side_types(self, side: int) -> tuple[CardType, ...]:
        """The card types of one side, in canonical order (including any with count 0)."""
        return self._by_side[_check_side_index(side)]

    def deck_size(self, side: int) -> int:
        """Number of cards in that side's deck: the sum of the printed counts (R1)."""
        return sum(t.count for t in self.side_types(side))

    def to_data(self) -> list[dict[str, Any]]:
        """JSON-serialisable rows with the same fields as the TOML file.

        Fields the sheet does not print for a card's kind are omitted, so
        ``cards_from_data(db.to_data()) == db``.
        """
        rows: list[dict[str, Any]] = []
        for t in self.types:
            row: dict[str, Any] = {
                "name": t.name,
                "side": SIDE_NAMES[t.side],
                "type": t.printed_type,
                "count": t.count,
            }
            for field in _printed_fields(t.kind):
                row[field] = getattr(t, field)
            row["notes"] = t.notes
            rows.append(row)
        return rows

    def with_changes(self, changes: Mapping[str, Mapping[str, int]]) -> CardDB:
        """A new, validated database with some integer fields changed.

        ``db.with_changes({"Space Cruiser": {"space": 8}})``. Only ``count``, ``ground``,
        ``space``, ``damage`` and ``cost`` may change, and only fields printed for that kind of
        card. An unknown card or field, or an invalid new value, raises CardDataError.
        """
        source = f"{self.source} (with changes)"
        rows = self.to_data()
        index = {row["name"]: row for row in rows}
        for name, fields in changes.items():
            row = index.get(name)
            if row is None:
                near = difflib.get_close_matches(name, list(index), n=3, cutoff=0.5)
                hint = f"; did you mean {', '.join(repr(n) for n in near)}?" if near else ""
                raise CardDataError(f'{source}: card "{name}": no such card{hint}')
            for field, value in fields.items():
                if field not in _INT_FIELDS:
                    raise CardDataError(
                        f'{source}: card "{name}": field "{field}" cannot be changed '
                        f"(changeable: {', '.join(_INT_FIELDS)})"
                    )
                if field != "count" and field not in row:
                    raise CardDataError(
                        f'{source}: card "{name}": field "{field}" is not printed for '
                        f"{row['type']} cards"
                    )
                row[field] = value
        return cards_from_data(rows, source=source)


def _check_side_index(side: int) -> int:
    if side not in (REBEL, IMPERIAL) or isinstance(side, bool):
        raise ValueError(f"side must be REBEL (0) or IMPERIAL (1), got {side!r}")
    return side


@functools.cache
def _packaged_file() -> tuple[str, bytes]:
    """The packaged ``data/cards.toml``: its name for messages, and its bytes (read once)."""
    resource = resources.files("rebelspace").joinpath("data", "cards.toml")
    source = str(resource)
    try:
        return source, resource.read_bytes()
    except OSError as exc:  # a broken install, not a designer's mistake, but say so clearly
        raise CardDataError(f"{source}: cannot read packaged card file: {exc}") from exc


def load_cards(path: str | os.PathLike[str] | None = None) -> CardDB:
    """Load and validate a card file; ``None`` means the packaged ``data/cards.toml``."""
    if path is None:
        source, raw = _packaged_file()
    else:
        source = os.fspath(path)
        try:
            with open(path, "rb") as fh:
                raw = fh.read()
        except FileNotFoundError:
            raise CardDataError(f"{source}: card file not found") from None
        except OSError as exc:
            raise CardDataError(f"{source}: cannot read card file: {exc.strerror}") from exc
    try:
        document = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise CardDataError(f"{source}: card file is not valid UTF-8: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise CardDataError(f"{source}: TOML syntax error: {exc}") from exc
    extra = sorted(set(document) - {"card"})
    if extra:
        raise CardDataError(
            f"{source}: unknown top-level key(s) {', '.join(extra)}; expected only [[card]] tables"
        )
    rows = document.get("card")
    if not isinstance(rows, list):
        raise CardDataError(f"{source}: no [[card]] tables found")
    return cards_from_data(rows, source=source)


def canonical_key(card: CardType) -> tuple[int, int, str]:
    """Where a card type sits in every card list: the content decides, never the file's order.

    Decks are built, shuffled and dealt in this order, action ids follow it, and agents break
    ties by it, so a card file whose rows are shuffled gives byte-identical games and the same
    lab run (issue 35). The printed cards keep the printed sheet's order (the packaged
    ``cards.toml``; without that reference every seeded game, the position bank and the
    published figures would change); any other card follows them by side and then by name.
    """
    printed = _printed_order()
    return (printed.get(card.name, len(printed)), card.side, card.name)


@functools.cache
def _printed_order() -> dict[str, int]:
    """Name -> position in the packaged card list, read without building a database (it is
    the reference of :func:`canonical_key`, which building a database needs)."""
    _, raw = _packaged_file()
    rows = tomllib.loads(raw.decode("utf-8")).get("card", [])
    names = [
        row["name"] for row in rows if isinstance(row, dict) and isinstance(row.get("name"), str)
    ]
    return {name: i for i, name in enumerate(names)}


def cards_from_data(
    rows: Sequence[Mapping[str, Any]], source: str = "<data>", *, stored: bool = False
) -> CardDB:
    """Validate rows shaped like the TOML ``[[card]]`` tables and build a database.

    The card types are put in canonical order (:func:`canonical_key`). ``stored=True`` keeps
    the rows' order instead: for card lists saved with a game or a lab run, which are replayed
    in the order they were played in (a list saved by this code is canonical already; one
    saved before cards had a canonical order may not be, and its games must still replay).
    """
    if isinstance(rows, str | bytes) or not isinstance(rows, Sequence):
        kind = type(rows).__name__
        raise CardDataError(f"{source}: card data must be a list of rows, got {kind}")
    parsed: list[CardType] = []
    seen: dict[str, int] = {}
    for number, row in enumerate(rows, start=1):
        # Validated in file order, so that an error names the row the designer sees.
        card = _parse_row(row, index=len(parsed), number=number, source=source)
        if card.name in seen:
            raise CardDataError(
                f'{source}: card "{card.name}": field "name" is a duplicate '
                f"(rows {seen[card.name]} and {number})"
            )
        seen[card.name] = number
        parsed.append(card)
    ordered = parsed if stored else sorted(parsed, key=canonical_key)
    types = [replace(t, index=i) for i, t in enumerate(ordered)]
    db = CardDB(types, source=source)
    for side, side_name in enumerate(SIDE_NAMES):
        if not db.side_types(side):
            raise CardDataError(f'{source}: field "side": no cards for side "{side_name}"')
        if db.deck_size(side) == 0:
            raise CardDataError(
                f'{source}: field "count": the {side_name} deck has no cards (all counts are 0)'
            )
    return db


Fail = Callable[[str, str], CardDataError]  # (field, problem) -> the error naming the card


def _check_fields(row: Mapping[str, Any], fail: Fail) -> None:
    """Every field known, and the fields every card has present."""
    for field in row:
        if field not in _ALL_FIELDS:
            raise fail(str(field), f"is not a known field (known: {', '.join(_ALL_FIELDS)})")
    for field in ("side", "type", "count", "notes"):
        if field not in row:
            raise fail(field, "is missing")


def _number(value: Any, field: str, fail: Fail) -> int:
    """A count, cost or rating: a non-negative integer within the field's bound."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise fail(field, f"must be a non-negative integer, got {value!r}")
    if field == "cost" and value > _MAX_COST:
        raise fail(field, f"must be an integer from 0 to {_MAX_COST}, got {value!r}")
    if field == "count" and value > _MAX_COUNT:
        raise fail(field, f"must be an integer from 0 to {_MAX_COUNT}, got {value!r}")
    if field in _RATINGS and value > _MAX_RATING:
        raise fail(field, f"must be an integer from 0 to {_MAX_RATING}, got {value!r}")
    return value


def _check_printed(
    row: Mapping[str, Any], printed: Sequence[str], printed_type: str, fail: Fail
) -> None:
    """The ratings and cost printed on this type of card given, and no others."""
    for field in printed:
        if field not in row:
            raise fail(field, f"is missing (required for {printed_type} cards)")
    for field in (*_RATINGS, "cost"):
        if field in row and field not in printed:
            raise fail(field, f"is not printed for {printed_type} cards; remove it")


def _check_abilities(
    kind: str,
    printed_type: str,
    notes: str,
    keywords: set[str],
    abilities: list[str],
    fail: Fail,
) -> None:
    """An action card has exactly one ability and no keyword; other cards no ability."""
    if kind == ACTION:
        if len(abilities) != 1 or keywords:
            raise fail(
                "notes",
                f"of a {printed_type} card must be exactly one ability "
                f"(known: {'; '.join(repr(a) for a in ABILITY_NOTES)}), got {notes!r}",
            )
    elif abilities:
        raise fail("notes", f"gives an action ability to a {printed_type} card: {notes!r}")


def _read_notes(notes: str, fail: Fail) -> tuple[set[str], list[str]]:
    """The keywords and the action abilities the notes name, in order."""
    keywords: set[str] = set()
    abilities: list[str] = []
    for piece in (p.strip() for p in _NOTE_SPLIT.split(notes)):
        if not piece:
            continue
        if piece in KEYWORD_NOTES:
            keywords.add(KEYWORD_NOTES[piece])
        elif piece in ABILITY_NOTES:
            abilities.append(ABILITY_NOTES[piece])
        else:
            raise fail("notes", f"has an unknown keyword or ability {piece!r}")
    return keywords, abilities


def _parse_row(row: Any, *, index: int, number: int, source: str) -> CardType:
    """Validate one row and build its CardType; every error names file, card and field."""
    if not isinstance(row, Mapping):
        raise CardDataError(
            f"{source}: card #{number}: must be a table of fields, got {type(row).__name__}"
        )
    raw_name = row.get("name")
    label = f'card "{raw_name}"' if isinstance(raw_name, str) and raw_name else f"card #{number}"

    def fail(field: str, problem: str) -> CardDataError:
        return CardDataError(f'{source}: {label}: field "{field}" {problem}')

    if "name" not in row:
        raise fail("name", "is missing")
    name = row["name"]
    if not isinstance(name, str) or not name.strip():
        raise fail("name", f"must be a non-empty string, got {name!r}")

    _check_fields(row, fail)
    side_name = row["side"]
    if side_name not in SIDE_NAMES:
        raise fail("side", f'must be "rebel" or "imperial", got {side_name!r}')
    side = SIDE_NAMES.index(side_name)

    printed_type = row["type"]
    if not isinstance(printed_type, str) or printed_type not in PRINTED_TYPES:
        raise fail("type", f"must be one of {', '.join(PRINTED_TYPES)}, got {printed_type!r}")
    kind = PRINTED_TYPES[printed_type]

    printed = _printed_fields(kind)
    _check_printed(row, printed, printed_type, fail)
    values = {field: _number(row[field], field, fail) for field in ("count", *printed)}

    notes = row["notes"]
    if not isinstance(notes, str):
        raise fail("notes", f"must be a string, got {notes!r}")
    keywords, abilities = _read_notes(notes, fail)
    _check_abilities(kind, printed_type, notes, keywords, abilities, fail)

    return CardType(
        index=index,
        name=name,
        side=side,
        kind=kind,
        printed_type=printed_type,
        count=values["count"],
        ground=values.get("ground", 0),
        space=values.get("space", 0),
        damage=values.get("damage", 0),
        cost=values.get("cost"),
        notes=notes,
        keywords=frozenset(keywords),
        ability=abilities[0] if abilities else None,
    )


def deck_report(db: CardDB, stated: int = 65) -> str:
    """Text for ``rebelspace decks``: both decks as tables, then each deck's size.

    R1: the lists govern, and the report shows how far each deck is from the ``stated`` size
    the sheet's introduction gives (65), so a designer sees the effect of an edit at once.
    """
    headers = ("Card", "Type", "#", "G", "S", "D", "Cost", "Notes")
    right = {2, 3, 4, 5, 6}  # the numeric columns are right-aligned

    def fmt(r: Sequence[str], widths: Sequence[int]) -> str:
        cells = [
            r[i].rjust(widths[i]) if i in right else r[i].ljust(widths[i]) for i in range(len(r))
        ]
        return "  ".join(cells).rstrip()

    def cell(t: CardType, field: str) -> str:
        if field not in _printed_fields(t.kind):
            return "-" if field == "cost" and t.kind == PSION else ""
        return str(getattr(t, field))

    lines: list[str] = [f"Card lists: {db.source}"]
    for side, side_name in enumerate(SIDE_NAMES):
        rows = [
            (
                t.name,
                t.printed_type,
                str(t.count),
                cell(t, "ground"),
                cell(t, "space"),
                cell(t, "damage"),
                cell(t, "cost"),
                t.notes,
            )
            for t in db.side_types(side)
        ]
        widths = [max(len(r[i]) for r in (headers, *rows)) for i in range(len(headers))]

        lines += ["", f"{side_name.capitalize()} deck", fmt(headers, widths)]
        lines.append("  ".join("-" * w for w in widths))
        lines += [fmt(r, widths) for r in rows]
    lines.append("")
    for side, side_name in enumerate(SIDE_NAMES):
        size = db.deck_size(side)
        lines.append(
            f"{side_name.capitalize()} deck: {size} cards "
            f"(stated {stated}, difference {size - stated:+d})"
        )
    return "\n".join(lines) + "\n"
