"""Rules options: the few choices a designer may want to vary, as frozen configuration.

Every default is the project's ruling; a game never branches on anything but these fields.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

from .cards import SIDE_NAMES
from .errors import RebelSpaceError

TIE_RESULTS = ("both", "attacker", "defender")
FIRST_PLAYERS = SIDE_NAMES  # first_player names a side


class OptionsError(RebelSpaceError, ValueError):
    """A rules option has a bad name or value."""


def _bounded(default: int, low: int, high: int) -> Any:
    """An integer option's field, with the least and most it may be kept beside its default
    (``RulesOptions.bounds``): outside them a variant is not a game of Rebel Space any more
    (a starting hand of 500 empties the deck at setup) and is refused with a clear error."""
    return field(default=default, metadata={"bounds": (low, high)})


@dataclass(frozen=True, kw_only=True, slots=True)
class RulesOptions:
    """Rule variants. The defaults follow the rulings (R-numbers in brackets)."""

    tie: str = "both"  # R18: a tie destroys both groups; "attacker"/"defender" make that side win
    hand_limit: int = _bounded(12, 0, 30)  # R25
    deploy_points: int = _bounded(3, 0, 12)  # R23
    starting_hand: int = _bounded(5, 0, 12)  # R6
    draw_min: int = _bounded(1, 1, 6)  # R8
    draw_max: int = _bounded(2, 1, 6)  # R8, before "Draw 1 extra card per turn" bonuses
    target_inactive: bool = True  # R16: inactive units may be targeted
    max_groups: int = _bounded(8, 1, 16)  # R32 (ours): battle groups per side per attack phase
    # R6: the Rebel takes the first turn. A designer's variant, so that the balance lab can
    # tell the first-move advantage apart from the side advantage.
    first_player: str = "rebel"

    def __post_init__(self) -> None:
        if self.tie not in TIE_RESULTS:
            raise OptionsError(f"rules option tie must be one of {TIE_RESULTS}, got {self.tie!r}")
        if self.first_player not in FIRST_PLAYERS:
            raise OptionsError(
                f"rules option first_player must be one of {FIRST_PLAYERS}, "
                f"got {self.first_player!r}"
            )
        for name, (low, high) in self.bounds().items():
            value = getattr(self, name)
            if type(value) is not int or not low <= value <= high:
                raise OptionsError(
                    f"rules option {name} must be an integer >= {low} and at most {high}, "
                    f"got {value!r}"
                )
        if self.draw_min > self.draw_max:
            raise OptionsError(
                f"rules option draw_min ({self.draw_min}) is more than draw_max ({self.draw_max})"
            )
        if type(self.target_inactive) is not bool:
            raise OptionsError(
                f"rules option target_inactive must be true or false, got {self.target_inactive!r}"
            )

    @classmethod
    def bounds(cls) -> dict[str, tuple[int, int]]:
        """The integer options and the least and most each may be."""
        return {f.name: f.metadata["bounds"] for f in fields(cls) if "bounds" in f.metadata}

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RulesOptions:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise OptionsError(f"unknown rules option {unknown[0]!r}; known: {sorted(known)}")
        return cls(**data)

    def with_setting(self, text: str) -> RulesOptions:
        """Apply one ``name=value`` setting, as given on a command line (``tie=defender``)."""
        name, sep, raw = text.partition("=")
        name = name.strip()
        if not sep or not name:
            raise OptionsError(f"a rules setting looks like name=value, got {text!r}")
        current = self.to_dict()
        if name not in current:
            raise OptionsError(f"unknown rules option {name!r}; known: {sorted(current)}")
        value: Any = raw.strip()
        if isinstance(current[name], bool):
            if value.lower() not in ("true", "false"):
                raise OptionsError(f"rules option {name} must be true or false, got {raw!r}")
            value = value.lower() == "true"
        elif isinstance(current[name], int):
            try:
                value = int(value)
            except ValueError:
                raise OptionsError(f"rules option {name} must be an integer, got {raw!r}") from None
        current[name] = value
        return RulesOptions(**current)
