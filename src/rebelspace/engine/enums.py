"""One word for each thing: the engine's small enumerations, each defined once.

Each concept is one enum here or beside the code that owns it, and every other name of it (a
tuple of wire names, a label, a typed alias) is derived from that enum, never copied: sides
(``Side``), with their indices and names, and the kinds of battle group (``GroupKind``). A
test (tests/test_import_graph.py) checks that each is spelled out once.

This module imports nothing, so every other module of the engine may import it.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum


class Side(StrEnum):
    """A side, as data, options, views and commands name it (the value is the wire name)."""

    REBEL = "rebel"
    IMPERIAL = "imperial"

    @property
    def label(self) -> str:
        """The side as the game log and messages name it: "Rebel", "Imperial"."""
        return self.value.capitalize()


#: The sides by index.
SIDES: tuple[Side, ...] = tuple(Side)
#: Side indices, for per-player structures throughout the engine.
REBEL, IMPERIAL = range(len(SIDES))
#: The sides' wire names by index, as plain strings (engine.SIDE_NAMES); FIRST_PLAYERS, the env's
#: AGENTS and the server's SEATS are this tuple.
SIDE_NAMES: tuple[str, ...] = tuple(s.value for s in SIDES)
#: The sides as the log names them, by index.
PLAYER_NAMES: tuple[str, ...] = tuple(s.label for s in SIDES)


class GroupKind(IntEnum):
    """The kind of a battle group (R12); the engine's index (per-kind tables are indexed by it)."""

    GROUND = 0
    SPACE = 1

    @property
    def wire(self) -> GroupKindName:
        """The kind as views, events' JSON and the log name it: its member name in lower case."""
        return GroupKindName(self.name.lower())


class GroupKindName(StrEnum):
    """``GroupKind``'s wire words, the type of the views' field (``GroupKind.wire``)."""

    GROUND = "ground"
    SPACE = "space"


#: The group kinds' wire words by kind, as plain strings.
KIND_NAMES: tuple[str, ...] = tuple(k.wire.value for k in GroupKind)
