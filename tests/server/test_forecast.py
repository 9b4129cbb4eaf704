"""Battle forecasts in words (server/forecast.py) and the state message's ``rules`` and
``forecast`` (docs/protocol.md): who wins each battle as the cards stand, from the seat's side,
by the engine's values and its own battle result (R18 with the ``tie`` option); the damage of
a group nobody fights; a fought battle's result."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from rebelspace.engine import load_scenario
from rebelspace.server.forecast import battle_forecast
from tests.server.schema_helpers import schema_validator
from tests.server.server_helpers import create, scenario_message, state, tokens

# The Imperial attacks: Troopers (Ground 1) blocked by a Rebel Soldier (1), a Space Cruiser
# against the Rebel's Defense Shields, Battle Walkers (5) blocked by a Rebel Soldier (1).
BATTLE: dict[str, Any] = {
    "seed": 4,
    "player": "imperial",
    "phase": "attack",
    "imperial": {"active": ["Troopers", "Space Cruiser", "Battle Walkers"]},
    "rebel": {"active": ["Rebel Soldier", "Defense Shields", "Rebel Soldier"]},
    "battle": {
        "step": "tricks",
        "groups": [
            {"units": ["Troopers"], "blockers": ["Rebel Soldier"]},
            {"kind": "space", "units": ["Space Cruiser"]},
            {"units": ["Battle Walkers"], "blockers": ["Rebel Soldier"]},
        ],
    },
}


def texts(scenario: dict[str, Any], seat: int | None, tie: str = "both") -> list[str]:
    game = load_scenario(scenario)
    view = game.public_view() if seat is None else game.view(seat)
    forecast = battle_forecast(view, tie)
    assert forecast is not None
    return [f["text"] for f in forecast]


def test_each_side_is_told_its_own_battles_with_its_own_value_first() -> None:
    assert texts(BATTLE, 0) == [  # the Rebel defends
        "tie: both destroyed, 1 against 1",
        "unblocked: 0 damage to your deck (Defense Shields stop 1 damage from Ships)",
        "you lose this battle: 1 against 5",
    ]
    assert texts(BATTLE, 1) == [  # the Imperial attacks
        "tie: both destroyed, 1 against 1",
        "unblocked: 0 damage to Rebel's deck (Defense Shields stop 1 damage from Ships)",
        "you win this battle: 5 against 1",
    ]


def test_a_spectator_is_told_the_sides_names() -> None:
    assert texts(BATTLE, None) == [
        "tie: both destroyed, Imperial 1 against Rebel 1",
        "unblocked: 0 damage to Rebel's deck (Defense Shields stop 1 damage from Ships)",
        "Imperial wins this battle: Imperial 5 against Rebel 1",
    ]


@pytest.mark.parametrize(
    ("tie", "rebel", "imperial"),
    [
        ("both", "tie: both destroyed, 1 against 1", "tie: both destroyed, 1 against 1"),
        (
            "attacker",
            "you lose this battle: 1 against 1 (a tie goes to the attacker)",
            "you win this battle: 1 against 1 (a tie goes to the attacker)",
        ),
        (
            "defender",
            "you win this battle: 1 against 1 (a tie goes to the defender)",
            "you lose this battle: 1 against 1 (a tie goes to the defender)",
        ),
    ],
)
def test_a_tie_follows_the_tie_option(tie: str, rebel: str, imperial: str) -> None:
    scenario = {**BATTLE, "rules": {"tie": tie}}
    assert texts(scenario, 0, tie)[0] == rebel
    assert texts(scenario, 1, tie)[0] == imperial


def test_before_the_blocks_an_unblocked_groups_damage_is_if_unblocked() -> None:
    scenario = {
        "seed": 4,
        "player": "rebel",
        "phase": "attack",
        "rebel": {"active": ["Rebel Soldier"]},
        "imperial": {"active": ["Troopers"]},
        "battle": {"step": "block", "groups": [{"units": ["Rebel Soldier"]}]},
    }
    assert texts(scenario, 0) == texts(scenario, 1) == ["not blocked yet: 1 damage if unblocked"]


def test_a_fought_battle_says_who_won() -> None:
    scenario = {
        "seed": 4,
        "player": "imperial",
        "phase": "attack",
        "imperial": {"active": ["Troopers", "Battle Walkers", "Space Cruiser"]},
        "rebel": {"active": ["Rebel Soldier", "Rebel Soldier"]},
        "battle": {
            "step": "tricks",
            "groups": [
                {"units": ["Troopers", "Battle Walkers"], "blockers": ["Rebel Soldier"]},
                {"units": ["Space Cruiser"], "kind": "space"},
            ],
        },
        "actions": ["pass", "pass"],  # the battles begin: the Rebel picks a casualty
    }
    game = load_scenario(scenario)
    assert str(game.view(0).step) == "casualties"
    rebel = battle_forecast(game.view(0), "both")
    assert rebel is not None
    assert rebel[0] == {
        "group": 1,
        "outcome": "attacker",
        "fought": True,
        "text": "fought: you lost this battle",
    }
    assert texts(scenario, 1)[0] == "fought: you won this battle"
    assert texts(scenario, None)[0] == "fought: Imperial won this battle"


def test_no_battle_no_forecast() -> None:
    game = load_scenario({"seed": 4, "player": "rebel", "phase": "deploy"})
    assert battle_forecast(game.view(0), "both") is None


def test_the_message_carries_the_forecast_and_the_rules(client: TestClient) -> None:
    for seat in (0, 1, None):
        msg = scenario_message(client, BATTLE, seat)
        schema_validator().validate(msg)
        game = load_scenario(BATTLE)
        view = game.public_view() if seat is None else game.view(seat)
        assert msg["forecast"] == battle_forecast(view, "both")
        assert msg["rules"]["hand_limit"] == 12 and msg["rules"]["tie"] == "both"
    created = create(client, mode="hotseat", seed=4)
    msg = state(client, created["game_id"], tokens(created)["rebel"])
    assert msg["forecast"] is None  # the draw: no battle on
    schema_validator().validate(msg)
