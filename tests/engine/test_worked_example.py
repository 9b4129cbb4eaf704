"""The rule sheet's worked example (R19), from the scenario files and played from the start.

"An attacking ground rebel group has the Princess (3), two soldiers (1,1), a cycle (2), and a
speeder (3). The defending imperial group is a Battle-Walker (4). The Walker is destroyed. The
Imperial player chooses whether the rebel loses a speeder and a soldier, or the cycle and both
soldiers." The card list prints Battle Walkers at 5 (R1 governs), so the sheet's example is
played against a blocker of value 4, and the real Battle Walkers get their own outcome set.
Every pick sequence is explored, so these are the exact sets of outcomes the engine allows.
"""

from __future__ import annotations

from pathlib import Path

from rebelspace.engine import load_scenario_file
from tests.engine.helpers import (
    IMPERIAL,
    REBEL,
    budget,
    casualty_outcomes,
    legal,
    play,
    start,
    step,
    zone,
)

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
GROUP = ["Princess", "Rebel Soldier", "Rebel Soldier", "Grav Cycles", "Air Speeders"]
SHEET_OUTCOMES = {
    ("Air Speeders", "Rebel Soldier"),
    ("Grav Cycles", "Rebel Soldier", "Rebel Soldier"),
}
WALKERS_OUTCOMES = {
    ("Air Speeders", "Grav Cycles"),
    ("Air Speeders", "Rebel Soldier", "Rebel Soldier"),
    ("Grav Cycles", "Rebel Soldier", "Rebel Soldier"),
}


def test_worked_example_scenario_blocker_of_value_4_gives_the_sheets_two_choices() -> None:
    s = load_scenario_file(SCENARIOS / "worked-example.json")
    assert (step(s), s.to_move) == ("casualties", IMPERIAL)  # the loser picks
    assert zone(s, IMPERIAL, "discard") == ["Fixed Defenses"]  # the blocker is destroyed
    assert budget(s) == 4
    assert legal(s) == {
        "pick Rebel Soldier as a casualty",
        "pick Grav Cycles as a casualty",
        "pick Air Speeders as a casualty",
    }  # never the Princess while her group holds a non-hero
    assert casualty_outcomes(s) == SHEET_OUTCOMES


def test_worked_example_scenario_real_battle_walkers_give_three_choices() -> None:
    s = load_scenario_file(SCENARIOS / "worked-example-battle-walkers.json")
    assert zone(s, IMPERIAL, "discard") == ["Battle Walkers"]
    assert budget(s) == 5
    assert casualty_outcomes(s) == WALKERS_OUTCOMES


def test_worked_example_picks_speeder_and_soldier() -> None:
    s = load_scenario_file(SCENARIOS / "worked-example.json")
    play(s, "pick Air Speeders as a casualty", "pick Rebel Soldier as a casualty")
    assert s.phase == "deploy"
    assert zone(s, REBEL, "discard") == ["Air Speeders", "Rebel Soldier"]
    assert zone(s, REBEL, "inactive") == ["Grav Cycles", "Princess", "Rebel Soldier"]


def test_worked_example_picks_cycle_and_both_soldiers() -> None:
    s = load_scenario_file(SCENARIOS / "worked-example.json")
    play(s, "pick Rebel Soldier as a casualty", "pick Grav Cycles as a casualty")
    assert legal(s) == {"pick Rebel Soldier as a casualty"}  # must keep picking: 1 point left
    s.apply("pick Rebel Soldier as a casualty")
    assert zone(s, REBEL, "discard") == ["Grav Cycles", "Rebel Soldier", "Rebel Soldier"]
    assert zone(s, REBEL, "inactive") == ["Air Speeders", "Princess"]


def test_worked_example_played_from_forming_groups_with_a_two_unit_blocker_of_value_4() -> None:
    s = start(
        turn=5,
        phase="attack",
        rebel={"active": GROUP},
        imperial={"active": ["Squad Leader", "Troopers"]},
    )
    play(s, "new ground group with Princess")
    for card in GROUP[1:]:
        s.apply(f"add {card} to group 1")
    play(s, "attack", "block group 1 with Squad Leader", "block group 1 with Troopers")
    play(s, "done blocking", "pass", "pass")
    assert zone(s, IMPERIAL, "discard") == ["Squad Leader", "Troopers"]
    assert casualty_outcomes(s) == SHEET_OUTCOMES


def test_worked_example_against_real_battle_walkers_played_from_forming_groups() -> None:
    s = start(
        turn=5, phase="attack", rebel={"active": GROUP}, imperial={"active": ["Battle Walkers"]}
    )
    play(s, "new ground group with Air Speeders")
    for card in ("Rebel Soldier", "Princess", "Grav Cycles", "Rebel Soldier"):
        s.apply(f"add {card} to group 1")
    play(s, "attack", "block group 1 with Battle Walkers", "done blocking", "pass", "pass")
    assert casualty_outcomes(s) == WALKERS_OUTCOMES
