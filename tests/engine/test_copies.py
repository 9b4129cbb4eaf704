"""Copies of a hero (edited card lists; actions.py, "Copies"): where two copies in play differ,
the player chooses which one attacks, blocks, is targeted, is picked as a casualty, takes an
attachment or a psion card, or is converted."""

from __future__ import annotations

from typing import Any

from rebelspace.engine import GameState, load_cards, load_scenario, new_game
from tests.engine.helpers import IMPERIAL, REBEL, legal, play, scenario

YP = "Young Protagonist"
CARDS = load_cards().with_changes({YP: {"count": 2}, "Battle Walkers": {"count": 3}})


def start(**fields: Any) -> GameState:
    return load_scenario(scenario(**fields), cards=CARDS)


def hero(attachments: list[str]) -> dict[str, Any]:
    return {"name": YP, "attachments": attachments}


def test_the_printed_card_list_has_no_copy_actions() -> None:
    space = new_game(0).action_space
    assert not any(a.copy for a in space.actions) and space.size == 2933


def test_identical_copies_add_no_choice() -> None:
    s = start(phase="attack", rebel={"active": [YP, YP]})
    assert not any("#" in text for text in legal(s))
    assert [u.copy for u in s.view(REBEL).you.active] == [1, 2]


def test_the_player_chooses_which_copy_attacks() -> None:
    s = start(phase="attack", rebel={"active": [hero(["Laser Sword"]), YP]})
    assert {f"new ground group with {YP}", f"new ground group with {YP} #2"} <= legal(s)
    s.apply(f"new ground group with {YP} #2")
    (group,) = s.view(REBEL).battle.groups  # type: ignore[union-attr]
    assert [(u.name, u.attachments, u.copy) for u in group.units] == [(YP, (), 2)]
    assert group.attack_value == 7
    # The equipped copy is the one left: plain "add" takes it, and no copy action is needed.
    assert f"add {YP} to group 1" in legal(s) and not any("#" in t for t in legal(s))


def test_the_loser_chooses_which_copy_is_a_casualty() -> None:
    """R19 with two copies of a hero in the winning group: 10 (with Laser Sword) and 7."""
    s = start(
        phase="attack",
        rebel={"active": [hero(["Laser Sword"]), YP]},
        imperial={"active": ["Battle Walkers", "Battle Walkers"]},
        battle={
            "groups": [
                {
                    "kind": "ground",
                    "units": [YP, YP],  # the zone's first copy (equipped), then the other
                    "blockers": ["Battle Walkers", "Battle Walkers"],
                }
            ]
        },
    )
    play(s, "pass", "pass")
    assert s.to_move == IMPERIAL
    assert legal(s) == {f"pick {YP} as a casualty", f"pick {YP} #2 as a casualty"}
    s.apply(f"pick {YP} #2 as a casualty")
    units = s.view(REBEL).battle  # the battle is over: the survivor went inactive
    assert units is None
    assert [(u.name, u.attachments) for u in s.view(REBEL).you.inactive] == [(YP, ("Laser Sword",))]


def test_the_player_chooses_which_copy_takes_an_attachment() -> None:
    """R23: the copy in the Active Zone can block on the opponent's turn; the other cannot."""
    s = start(phase="deploy", rebel={"active": [YP], "inactive": [YP], "hand": ["Laser Sword"]})
    assert legal(s) == {
        "done deploying",
        f"attach Laser Sword to {YP}",
        f"attach Laser Sword to {YP} #2",
    }
    s.apply(f"attach Laser Sword to {YP} #2")
    you = s.view(REBEL).you
    assert you.active[0].attachments == () and you.inactive[0].attachments == ("Laser Sword",)
    assert you.inactive[0].ground == 10 and you.inactive[0].copy == 2


def test_the_defender_chooses_which_copy_blocks_and_the_attacker_which_to_target() -> None:
    s = start(
        player="imperial",
        phase="attack",
        rebel={"active": [hero(["Laser Sword"]), YP]},
        imperial={"active": ["Battle Walkers", "Battle Walkers", "Battle Walkers"]},
    )
    play(s, "new ground group with Battle Walkers", "new ground group with Battle Walkers")
    play(s, "new ground group with Battle Walkers", "attack")
    assert f"block group 1 with {YP} #2" in legal(s)
    play(s, f"block group 1 with {YP} #2", "done blocking")
    blockers = s.view(IMPERIAL).battle.groups[0].blockers  # type: ignore[union-attr]
    assert [(u.attachments, u.copy) for u in blockers] == [((), 2)]
    # Only the equipped copy is left to target: the plain action takes it.
    assert f"group 2 targets {YP}" in legal(s) and not any("#" in t for t in legal(s))


def test_copy_actions_round_trip_as_text_and_id() -> None:
    space = start(phase="draw").action_space
    for text in (f"attach Laser Sword to {YP} #2", f"pick {YP} #1 as a casualty"):
        action = space[space.parse(text)]
        assert action.text == text and action.copy in (1, 2) and action.card >= 0
