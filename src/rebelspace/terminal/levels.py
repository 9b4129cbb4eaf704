"""The computer's levels in words, with their measured strength: one place, read from the
agent registry (which levels there are) and the published ladder (``play.ratings``: Elo
ratings with 95% intervals, the heuristic pinned at 1500), so a new level or a new ladder
changes every description at once."""

from __future__ import annotations

from typing import Any

from rebelspace.agents.registry import LEVEL_NAMES


def _ratings() -> dict[str, dict[str, Any]]:
    """The published rating of each level by name (none when the package ships no ladder)."""
    from rebelspace.play.ratings import level_ratings

    return {r["level"]: r for r in level_ratings()["levels"]}


def strength(level: str) -> str | None:
    """``Elo 1759 (1692-1842)``: a level's published rating and its 95% interval, or None."""
    rating = _ratings().get(level)
    if rating is None:
        return None
    low, high = rating["ci95"]
    return f"Elo {rating['elo']:.0f} ({low:.0f}-{high:.0f})"


def levels_words() -> str:
    """Every ISMCTS level with its strength, for ``play --help``."""
    ratings = _ratings()
    parts = [f"{name} {s}" for name in LEVEL_NAMES if (s := strength(name)) is not None]
    if not parts:
        return ""
    against = ", ".join(
        f"{name} {r['elo']:.0f}" for name, r in ratings.items() if name not in LEVEL_NAMES
    )
    return (
        "Measured strength (Elo with 95% intervals, `rebelspace ladder`): "
        + ", ".join(parts)
        + (f"; for scale: {against}" if against else "")
        + "."
    )
