"""Small helpers for the ruling and card tests: build a position, play actions, read zones.

Positions come from ``load_scenario`` (its docstring documents the format); the helpers only
save typing. Zones are read back as sorted card names, so a test says what a player sees.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rebelspace.engine import GameState, load_scenario
from rebelspace.engine.state import CASUALTY, STEP_NAMES

REBEL, IMPERIAL = 0, 1
ZONES = ("hand", "active", "inactive", "discard", "deck")


def scenario(**fields: Any) -> dict[str, Any]:
    """A scenario dict for ``load_scenario``; keywords are its JSON fields (seed 1 by default)."""
    data: dict[str, Any] = {"seed": 1}
    data.update(fields)
    return data


def start(**fields: Any) -> GameState:
    """Load the position ``scenario(**fields)`` describes."""
    return load_scenario(scenario(**fields))


def play(state: GameState, *texts: str) -> GameState:
    """Apply each action text in turn (raising ``IllegalActionError`` on the first illegal one)."""
    for text in texts:
        state.apply(text)
    return state


def names(state: GameState, cards: Iterable[int]) -> list[str]:
    """Sorted card names of instances."""
    return sorted(state.name(c) for c in cards)


def zone(state: GameState, player: int, which: str) -> list[str]:
    """Sorted card names in one of ``player``'s zones (hand, active, inactive, discard, deck)."""
    assert which in ZONES, which
    return names(state, getattr(state, which)[player])


def step(state: GameState) -> str:
    """The name of the step the game waits in ("block", "battle tricks", "casualties", ...)."""
    return STEP_NAMES[state.step]


def budget(state: GameState) -> int | None:
    """What the casualty picker may still take (R19), as the public view shows it."""
    battle = state.view(state.to_move).battle
    return None if battle is None else battle.casualty_budget


def legal(state: GameState) -> set[str]:
    """The legal action texts of the player whose decision it is."""
    return set(state.legal_action_texts())


def unit(state: GameState, name: str) -> int:
    """The first instance named ``name`` in play, on either side."""
    for p in (REBEL, IMPERIAL):
        for u in state.active[p] + state.inactive[p]:
            if state.name(u) == name:
                return u
    raise AssertionError(f"{name} is not in play")


def attached(state: GameState, hero: str) -> list[str]:
    """Sorted names of the cards attached to the hero named ``hero`` in play."""
    return names(state, state.att[unit(state, hero)])


def casualty_outcomes(state: GameState) -> set[tuple[str, ...]]:
    """Every set of casualties the loser can end up picking, over all pick sequences (R19).

    Each outcome is the sorted tuple of picked card names (a multiset: two Soldiers show twice).
    """
    outcomes: set[tuple[str, ...]] = set()

    def explore(s: GameState, picked: tuple[str, ...]) -> None:
        if s.step != CASUALTY:
            outcomes.add(tuple(sorted(picked)))
            return
        for text in s.legal_action_texts():
            name = text.removeprefix("pick ").removesuffix(" as a casualty")
            child = s.clone()
            child.apply(text)
            explore(child, (*picked, name))

    explore(state.clone(), ())
    return outcomes


def blocked_battle(
    attackers: list[str],
    blockers: list[str],
    hand: Iterable[str] = (),
    defender_hand: Iterable[str] = (),
    **fields: Any,
) -> GameState:
    """R17's battle-tricks window of one ground battle: the Rebel's ``attackers`` (its whole
    Active Zone) blocked by the Imperial ``blockers`` (its whole Active Zone), the Rebel to
    act; ``fields`` are further scenario fields (``actions``, ``seed``...)."""
    return start(
        phase="attack",
        rebel={"hand": list(hand), "active": attackers},
        imperial={"hand": list(defender_hand), "active": blockers},
        battle={
            "step": "tricks",
            "groups": [{"kind": "ground", "units": attackers, "blockers": blockers}],
        },
        **fields,
    )
