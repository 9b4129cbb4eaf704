"""Rulings on the attack phase up to the battles: R11-R17 and the project's R32, R34-R36.

Forming groups, the Ion Cannon, blocks, targets and the battle-tricks window. Battle results,
casualties and damage are in test_rulings_battle.py.
"""

from __future__ import annotations

import pytest

from rebelspace.engine import GameState, IllegalActionError
from rebelspace.engine.state import GROUND_BATTLE, SPACE_BATTLE
from rebelspace.engine.views import HeroPlacesView
from tests.engine.helpers import IMPERIAL, REBEL, legal, play, start, step, zone

# ----------------------------------------------------------------------------- R11 who may attack


def test_r11_only_units_in_the_active_zone_may_attack() -> None:
    s = start(
        phase="attack",
        rebel={"active": ["Rebel Soldier"], "inactive": ["Grav Cycles", "Princess"]},
    )
    assert legal(s) == {"no attack", "new ground group with Rebel Soldier"}


def test_r11_defense_cards_never_attack() -> None:
    s = start(
        phase="attack",
        rebel={"active": ["Ion Cannon", "Defense Shields", "Rebel Soldier"]},
    )
    assert legal(s) == {"no attack", "new ground group with Rebel Soldier"}
    s = start(player="imperial", phase="attack", imperial={"active": ["Fixed Defenses", "Bombers"]})
    assert legal(s) == {"no attack", "new space group with Bombers"}
    with pytest.raises(IllegalActionError):
        s.apply("new ground group with Fixed Defenses")


def test_r11_facilities_attack_only_when_they_say_may_attack() -> None:
    s = start(
        player="imperial",
        phase="attack",
        imperial={"active": ["Giant Space Station", "Fixed Defenses"]},
    )
    assert legal(s) == {"no attack", "new space group with Giant Space Station"}


def test_r11_attachments_go_with_their_hero() -> None:
    s = start(
        phase="attack",
        rebel={"active": [{"name": "Princess", "attachments": ["Laser Sword", "Robot Sidekick"]}]},
    )
    assert not any("Laser Sword" in t or "Robot Sidekick" in t for t in legal(s))
    play(s, "new ground group with Princess", "attack")
    assert "Rebel attacks with ground group 1 (Princess: ground 7)" in s.log_lines()


# ----------------------------------------------------------------------------- R12 battle groups


def test_r12_ground_group_holds_ground_units_and_heroes_not_space_units() -> None:
    s = start(
        phase="attack",
        rebel={"active": ["Rebel Soldier", "Princess", "Stunt Fighters", "Superior Pilot"]},
    )
    play(s, "new ground group with Rebel Soldier")
    texts = legal(s)
    assert {"add Princess to group 1", "add Superior Pilot to group 1"} <= texts
    assert "add Stunt Fighters to group 1" not in texts


def test_r12_space_group_holds_one_pilot_per_fighter() -> None:
    s = start(
        phase="attack",
        rebel={
            "active": ["Stunt Fighters", "Stunt Fighters", "Superior Pilot", "Young Protagonist"]
        },
    )
    play(s, "new space group with Stunt Fighters", "add Superior Pilot to group 1")
    assert "add Young Protagonist to group 1" not in legal(s)
    play(s, "add Stunt Fighters to group 1")
    assert "add Young Protagonist to group 1" in legal(s)


def test_r12_space_group_holds_one_captain_per_ship() -> None:
    s = start(
        phase="attack",
        rebel={"active": ["Rebel Warship", "Converted Freighter", "Princess", "Rebel Commander"]},
    )
    play(s, "new space group with Rebel Warship", "add Princess to group 1")
    assert "add Rebel Commander to group 1" not in legal(s)
    play(s, "add Converted Freighter to group 1")
    assert "add Rebel Commander to group 1" in legal(s)


def test_r12_a_pilot_does_not_take_a_captains_place_nor_a_captain_a_pilots() -> None:
    s = start(
        phase="attack",
        rebel={"active": ["Rebel Warship", "Stunt Fighters", "Superior Pilot", "Princess"]},
    )
    play(s, "new space group with Rebel Warship", "new space group with Stunt Fighters")
    texts = legal(s)
    assert "add Superior Pilot to group 1" not in texts
    assert "add Princess to group 2" not in texts
    assert {"add Princess to group 1", "add Superior Pilot to group 2"} <= texts


def test_r12_a_space_groups_view_counts_its_hero_places_and_a_ground_groups_has_none() -> None:
    s = start(
        phase="attack",
        rebel={
            "active": ["Stunt Fighters", "Stunt Fighters", "Superior Pilot", "Rebel Warship",
                       "Princess", "Rebel Soldier"]
        },
    )  # fmt: skip
    play(
        s,
        "new space group with Stunt Fighters",
        "add Superior Pilot to group 1",
        "add Stunt Fighters to group 1",
        "new space group with Rebel Warship",
        "add Princess to group 2",
        "new ground group with Rebel Soldier",
    )
    battle = s.view(REBEL).battle
    assert battle is not None
    fighters, ship, ground = battle.groups
    assert fighters.hero_places == HeroPlacesView(fighters=2, ships=0, heroes=1)
    assert ship.hero_places == HeroPlacesView(fighters=0, ships=1, heroes=1)
    assert ground.kind == "ground" and ground.hero_places is None
    # The same numbers reach the client: the view's JSON carries them as an object.
    shown = s.view(REBEL).to_dict()["battle"]["groups"][0]["hero_places"]
    assert shown == {"fighters": 2, "ships": 0, "heroes": 1}


def test_r12_pilot_and_captain_hero_fills_either_place() -> None:
    s = start(
        phase="attack",
        rebel={
            "active": [
                "Stunt Fighters", "Rebel Warship", "Smuggler", "Superior Pilot", "Princess",
                "Rebel Warship", "Stunt Fighters",
            ]
        },
    )  # fmt: skip
    # Alone with a Ship, or alone with a Fighter, the Smuggler may ride.
    play(s, "new space group with Rebel Warship", "new space group with Stunt Fighters")
    assert {"add Smuggler to group 1", "add Smuggler to group 2"} <= legal(s)
    # With one Fighter and one Ship, the Smuggler takes whichever place the other hero leaves.
    play(s, "add Stunt Fighters to group 1", "add Smuggler to group 1")
    assert {"add Superior Pilot to group 1", "add Princess to group 1"} <= legal(s)
    play(s, "add Princess to group 1")
    assert "add Superior Pilot to group 1" not in legal(s)


def test_r12_a_gs_only_group_is_declared_ground_or_space() -> None:
    s = start(
        player="imperial",
        phase="attack",
        imperial={"active": ["Robotic Probe", "Robotic Probe", "Troopers", "Interceptors"]},
    )
    play(s, "new ground group with Robotic Probe", "new space group with Robotic Probe")
    assert s.gkind == [GROUND_BATTLE, SPACE_BATTLE]
    texts = legal(s)
    assert {"add Troopers to group 1", "add Interceptors to group 2"} <= texts
    assert "add Interceptors to group 1" not in texts and "add Troopers to group 2" not in texts
    play(s, "attack")
    battle = s.view(REBEL).battle
    assert battle is not None and [g.kind for g in battle.groups] == ["ground", "space"]


def test_r12_a_group_holds_at_least_one_unit() -> None:
    s = start(phase="attack", rebel={"active": ["Rebel Soldier"]})
    assert "attack" not in legal(s)
    with pytest.raises(IllegalActionError):
        s.apply("attack")
    with pytest.raises(IllegalActionError):
        s.apply("add Rebel Soldier to group 1")


def test_r12_defender_forms_blocking_groups_under_the_same_rules_defense_units_included() -> None:
    s = start(
        player="imperial",
        phase="attack",
        rebel={
            "active": [
                "Ion Cannon", "Defense Shields", "Stunt Fighters", "Superior Pilot", "Princess",
                "Fighter Bombers", "Smuggler",
            ]
        },
        imperial={"active": ["Troopers", "Interceptors", "Interceptors"]},
        battle={
            "step": "block",
            "groups": [
                {"kind": "ground", "units": ["Troopers"]},
                {"kind": "space", "units": ["Interceptors"]},
                {"kind": "space", "units": ["Interceptors"]},
            ],
        },
    )  # fmt: skip
    texts = legal(s)
    assert {"block group 1 with Ion Cannon", "block group 1 with Defense Shields"} <= texts
    assert "block group 2 with Ion Cannon" not in texts  # Defense units block on the ground only
    play(s, "block group 2 with Stunt Fighters", "block group 3 with Fighter Bombers")
    texts = legal(s)
    assert "block group 2 with Superior Pilot" in texts  # a pilot on the blocking Fighter
    assert "block group 3 with Smuggler" not in texts  # Fighter Bombers carry no pilot
    assert "block group 2 with Princess" not in texts  # no Ship: no captain place
    play(s, "block group 2 with Superior Pilot")
    assert "block group 2 with Smuggler" not in legal(s)  # the one pilot place is taken


# ----------------------------------------------------------------------------- R13 ratings


def test_r13_ground_battle_counts_ground_ratings_space_battle_space_ratings() -> None:
    # Smuggler: ground 4, space 6. Against an Alien Crime Boss (ground 5) on the ground, it loses.
    s = start(
        phase="attack",
        rebel={"active": ["Smuggler"]},
        imperial={"active": ["Alien Crime Boss"]},
        battle={"groups": [{"kind": "ground", "units": ["Smuggler"],
                            "blockers": ["Alien Crime Boss"]}]},
    )  # fmt: skip
    play(s, "pass", "pass")
    assert "Smuggler" in zone(s, REBEL, "discard")
    assert zone(s, IMPERIAL, "active") == ["Alien Crime Boss"]
    # In space, Stunt Fighters (3) and Smuggler (6) beat an Elite Interceptors pair (8).
    s = start(
        phase="attack",
        rebel={"active": ["Smuggler", "Stunt Fighters"]},
        imperial={"active": ["Elite Interceptors", "Elite Interceptors"]},
        battle={"groups": [{"kind": "space", "units": ["Stunt Fighters", "Smuggler"],
                            "blockers": ["Elite Interceptors", "Elite Interceptors"]}]},
    )  # fmt: skip
    play(s, "pass", "pass")
    assert zone(s, IMPERIAL, "active") == []
    # The Imperial player picks casualties worth up to 8 (R19): the Stunt Fighters.
    assert legal(s) == {"pick Stunt Fighters as a casualty"}
    s.apply("pick Stunt Fighters as a casualty")
    assert zone(s, REBEL, "inactive") == ["Smuggler"]


def test_r13_attachments_add_to_the_heros_rating() -> None:
    # Princess 3 + Laser Sword 3 = 6 beats Battle Walkers 5; without the sword she would lose.
    s = start(
        phase="attack",
        rebel={"active": [{"name": "Princess", "attachments": ["Laser Sword"]}]},
        imperial={"active": ["Battle Walkers"]},
        battle={"groups": [{"kind": "ground", "units": ["Princess"],
                            "blockers": ["Battle Walkers"]}]},
    )  # fmt: skip
    play(s, "pass", "pass")
    assert "Battle Walkers" in zone(s, IMPERIAL, "discard")
    assert zone(s, REBEL, "inactive") == ["Princess"]


def test_r13_psion_card_adds_to_the_heros_rating() -> None:
    # Young Protagonist 7 + Danger Sense 2 = 9 beats Battle Walkers and Squad Leader (8).
    s = start(
        phase="attack",
        rebel={"active": ["Young Protagonist"], "hand": ["Danger Sense"]},
        imperial={"active": ["Battle Walkers", "Squad Leader"]},
        battle={"groups": [{"kind": "ground", "units": ["Young Protagonist"],
                            "blockers": ["Battle Walkers", "Squad Leader"]}]},
    )  # fmt: skip
    play(s, "play Danger Sense on Young Protagonist", "pass", "pass")
    assert zone(s, IMPERIAL, "active") == []
    assert zone(s, REBEL, "inactive") == ["Young Protagonist"]


# ----------------------------------------------------------------------------- R14 Ion Cannon


def ion_position(**rebel: object) -> dict[str, object]:
    return {
        "player": "imperial",
        "phase": "attack",
        "rebel": {"active": ["Ion Cannon", "Stunt Fighters"], **rebel},
        "imperial": {
            "active": ["Space Cruiser", "Imperial Captain", "Space Cruiser", "Interceptors"]
        },
    }


def form_cruisers(s: GameState) -> None:
    play(
        s,
        "new space group with Space Cruiser",
        "add Imperial Captain to group 1",
        "new space group with Space Cruiser",
        "add Interceptors to group 2",
        "attack",
    )


def test_r14_ion_cannon_destroys_one_attacking_ship_before_blocks() -> None:
    s = start(**ion_position())
    form_cruisers(s)
    assert (step(s), s.to_move) == ("ion cannon", REBEL)
    assert legal(s) == {
        "Ion Cannon holds fire",
        "Ion Cannon destroys Space Cruiser in group 1",
        "Ion Cannon destroys Space Cruiser in group 2",
    }
    s.apply("Ion Cannon destroys Space Cruiser in group 2")
    assert zone(s, IMPERIAL, "discard").count("Space Cruiser") == 1
    assert [s.name(u) for u in s.groups[1]] == ["Interceptors"]
    assert step(s) == "block"  # then the blocks
    assert "block group 2 with Stunt Fighters" in legal(s)


def test_r14_ion_cannon_fires_at_most_once_per_attack_phase() -> None:
    s = start(**ion_position())
    form_cruisers(s)
    s.apply("Ion Cannon destroys Space Cruiser in group 1")
    assert step(s) == "block"
    assert not any(t.startswith("Ion Cannon") for t in legal(s))
    assert [s.name(u) for u in s.groups[1]] == ["Space Cruiser", "Interceptors"]


def test_r14_heroes_who_came_in_on_the_ship_stay_in_their_group() -> None:
    s = start(**ion_position())
    form_cruisers(s)
    play(s, "Ion Cannon destroys Space Cruiser in group 1")
    assert [s.name(u) for u in s.groups[0]] == ["Imperial Captain"]
    deck = len(s.deck[REBEL])
    play(s, "done blocking", "done targeting", "pass", "pass")
    # The Captain (damage 1) still gets through, with the other Cruiser and the Interceptors.
    assert len(s.deck[REBEL]) == deck - 3
    assert zone(s, IMPERIAL, "inactive") == ["Imperial Captain", "Interceptors", "Space Cruiser"]


def test_r14_ion_cannon_may_hold_fire() -> None:
    s = start(**ion_position())
    form_cruisers(s)
    s.apply("Ion Cannon holds fire")
    assert step(s) == "block"
    assert "Space Cruiser" not in zone(s, IMPERIAL, "discard")


def test_r14_only_an_active_ion_cannon_fires() -> None:
    s = start(**ion_position(active=["Stunt Fighters"], inactive=["Ion Cannon"]))
    form_cruisers(s)
    assert step(s) == "block"
    assert not any(t.startswith("Ion Cannon") for t in legal(s))


def test_r14_no_ion_cannon_decision_without_an_attacking_ship() -> None:
    s = start(**ion_position())
    play(s, "new space group with Interceptors", "attack")
    assert step(s) == "block"


# ----------------------------------------------------------------------------- R15 blocking


def two_groups(**imperial: object) -> dict[str, object]:
    return {
        "phase": "attack",
        "rebel": {"active": ["Rebel Soldier", "Grav Cycles", "Stunt Fighters"]},
        "imperial": {"active": ["Battle Walkers", "Troopers", "Interceptors"], **imperial},
        "battle": {
            "step": "block",
            "groups": [
                {"kind": "ground", "units": ["Rebel Soldier"]},
                {"kind": "ground", "units": ["Grav Cycles"]},
                {"kind": "space", "units": ["Stunt Fighters"]},
            ],
        },
    }


def test_r15_only_ground_blocks_ground_and_only_space_blocks_space() -> None:
    s = start(**two_groups())
    assert legal(s) == {
        "done blocking",
        "block group 1 with Battle Walkers",
        "block group 2 with Battle Walkers",
        "block group 1 with Troopers",
        "block group 2 with Troopers",
        "block group 3 with Interceptors",
    }


def test_r15_a_unit_blocks_at_most_once_per_attack_phase() -> None:
    s = start(**two_groups())
    s.apply("block group 1 with Battle Walkers")
    texts = legal(s)
    assert "block group 2 with Battle Walkers" not in texts
    assert "block group 1 with Battle Walkers" not in texts
    with pytest.raises(IllegalActionError):
        s.apply("block group 2 with Battle Walkers")


def test_r15_each_attacking_group_is_blocked_by_at_most_one_group() -> None:
    # Units blocking the same group form one defending group: one battle, values added.
    s = start(**two_groups())
    play(s, "block group 2 with Troopers", "block group 2 with Battle Walkers")
    assert [s.name(u) for u in s.blocks[1]] == ["Troopers", "Battle Walkers"]
    view = s.view(IMPERIAL).battle
    assert view is not None and [u.name for u in view.groups[1].blockers] == [
        "Troopers",
        "Battle Walkers",
    ]
    play(s, "done blocking", "done targeting", "pass", "pass")
    assert "Grav Cycles" in zone(s, REBEL, "discard")
    log = "\n".join(s.log_lines())
    assert "Imperial's Troopers, Battle Walkers (ground 6) block Rebel's ground group 2" in log


def test_r15_inactive_units_cannot_block() -> None:
    s = start(**two_groups(active=["Interceptors"], inactive=["Battle Walkers", "Troopers"]))
    assert legal(s) == {"done blocking", "block group 3 with Interceptors"}


def test_r15_defender_may_let_attackers_through() -> None:
    s = start(**two_groups())
    deck = len(s.deck[IMPERIAL])
    play(s, "done blocking", "done targeting", "pass", "pass")
    assert len(s.deck[IMPERIAL]) == deck - 3
    assert zone(s, IMPERIAL, "active") == ["Battle Walkers", "Interceptors", "Troopers"]


# ----------------------------------------------------------------------------- R16 targeting


def target_position(rules: dict[str, object] | None = None) -> dict[str, object]:
    return {
        "rules": rules or {},
        "phase": "attack",
        "rebel": {"active": ["Rebel Soldier", "Air Speeders", "Stunt Fighters"]},
        "imperial": {
            "active": ["Troopers", "Interceptors"],
            "inactive": ["Battle Walkers", "Bounty Hunter", "Fixed Defenses", "Robotic Probe"],
        },
        "battle": {
            "step": "target",
            "groups": [
                {"kind": "ground", "units": ["Rebel Soldier"], "blockers": ["Troopers"]},
                {"kind": "ground", "units": ["Air Speeders"]},
                {"kind": "space", "units": ["Stunt Fighters"]},
            ],
        },
    }


def test_r16_unblocked_groups_may_target_units_in_either_zone() -> None:
    s = start(**target_position())
    assert legal(s) == {
        "done targeting",
        # Ground group: ground units or heroes, active or inactive, not the blocking Troopers.
        "group 2 targets inactive Battle Walkers",
        "group 2 targets inactive Bounty Hunter",
        "group 2 targets inactive Fixed Defenses",
        "group 2 targets inactive Robotic Probe",
        # Space group: space units only (G/S included), never a hero.
        "group 3 targets Interceptors",
        "group 3 targets inactive Fixed Defenses",
        "group 3 targets inactive Robotic Probe",
    }


def test_r16_rules_option_only_active_units_may_be_targeted() -> None:
    s = start(**target_position({"target_inactive": False}))
    assert legal(s) == {"done targeting", "group 3 targets Interceptors"}


def test_r16_a_target_fights_the_group_alone_even_when_inactive() -> None:
    s = start(**target_position())
    deck = len(s.deck[IMPERIAL])
    play(s, "group 2 targets inactive Bounty Hunter", "done targeting", "pass", "pass")
    # Bounty Hunter (6) beats the Air Speeders (3); the target stays where it was.
    assert "Air Speeders" in zone(s, REBEL, "discard")
    assert "Bounty Hunter" in zone(s, IMPERIAL, "inactive")
    # A group that targets deals no damage: only the space group's 1 got through.
    assert len(s.deck[IMPERIAL]) == deck - 1


def test_r16_a_unit_already_in_a_battle_cannot_be_targeted_again() -> None:
    s = start(**target_position())
    s.apply("group 2 targets inactive Robotic Probe")
    texts = legal(s)
    assert "group 3 targets inactive Robotic Probe" not in texts
    assert not any(t.startswith("group 2 ") for t in texts)  # one target per group
    assert "group 3 targets inactive Fixed Defenses" in texts


def test_r16_a_target_fights_with_its_attachments() -> None:
    s = start(
        player="imperial",
        phase="attack",
        rebel={"inactive": [{"name": "Princess", "attachments": ["Laser Sword"]}]},
        imperial={"active": ["Battle Walkers"]},
        battle={"step": "target", "groups": [{"kind": "ground", "units": ["Battle Walkers"]}]},
    )
    play(s, "group 1 targets inactive Princess", "pass", "pass")
    # Princess 3 + Laser Sword 3 = 6 beats the Battle Walkers (5).
    assert "Battle Walkers" in zone(s, IMPERIAL, "discard")
    assert zone(s, REBEL, "inactive") == ["Princess"]


def test_r16_a_blocked_group_cannot_target() -> None:
    s = start(**target_position())
    assert not any(t.startswith("group 1 ") for t in legal(s))
    with pytest.raises(IllegalActionError):
        s.apply("group 1 targets inactive Battle Walkers")


# ----------------------------------------------------------------------------- R17 battle tricks


def tricks_position() -> dict[str, object]:
    return {
        "phase": "attack",
        "rebel": {
            "active": ["Rebel Soldier", "Rebel Soldier"],
            "hand": ["Surprise Attack", "Multiple Targets"],
        },
        "imperial": {"active": ["Troopers"], "hand": ["Trap", "Trap"]},
        "battle": {"groups": [{"kind": "ground", "units": ["Rebel Soldier", "Rebel Soldier"],
                               "blockers": ["Troopers"]}]},
    }  # fmt: skip


def test_r17_attacker_then_defender_alternate_until_both_pass_in_a_row() -> None:
    s = start(**tricks_position())
    assert (step(s), s.to_move) == ("battle tricks", REBEL)
    assert legal(s) == {"pass", "play Surprise Attack", "play Multiple Targets"}
    s.apply("play Surprise Attack")
    assert s.to_move == IMPERIAL and legal(s) == {"pass", "play Trap"}
    s.apply("pass")
    assert s.to_move == REBEL
    s.apply("pass")
    assert step(s) != "battle tricks"
    assert s.atk_bonus == 0  # the phase is over


def test_r17_a_play_between_passes_keeps_the_window_open() -> None:
    s = start(**tricks_position())
    play(s, "pass", "play Trap", "pass")
    assert (step(s), s.to_move) == ("battle tricks", IMPERIAL)
    play(s, "play Trap")
    assert (step(s), s.to_move) == ("battle tricks", REBEL)
    play(s, "pass", "pass")
    assert step(s) != "battle tricks"
    assert zone(s, IMPERIAL, "discard").count("Trap") == 2


def test_r17_surprise_attack_is_the_attackers_and_trap_the_defenders() -> None:
    s = start(
        player="imperial",
        phase="attack",
        rebel={"active": ["Rebel Soldier"], "hand": ["Surprise Attack", "Multiple Targets"]},
        imperial={"active": ["Troopers"], "hand": ["Trap"]},
        battle={"groups": [{"kind": "ground", "units": ["Troopers"],
                            "blockers": ["Rebel Soldier"]}]},
    )  # fmt: skip
    assert s.to_move == IMPERIAL and legal(s) == {"pass"}  # no Trap for the attacker
    s.apply("pass")
    assert s.to_move == REBEL and legal(s) == {"pass"}  # no Surprise Attack for the defender
    with pytest.raises(IllegalActionError):
        s.apply("play Surprise Attack")


# ----------------------------------------------------------------------------- R32 group limit


def test_r32_at_most_eight_attacking_groups() -> None:
    s = start(phase="attack", rebel={"active": ["Rebel Soldier"] * 9})
    for _ in range(8):
        s.apply("new ground group with Rebel Soldier")
    texts = legal(s)
    assert "new ground group with Rebel Soldier" not in texts
    assert "add Rebel Soldier to group 8" in texts and "attack" in texts


def test_r32_group_limit_is_a_rules_option() -> None:
    s = start(rules={"max_groups": 2}, phase="attack", rebel={"active": ["Rebel Soldier"] * 3})
    play(s, "new ground group with Rebel Soldier", "new ground group with Rebel Soldier")
    assert "new ground group with Rebel Soldier" not in legal(s)


# ----------------------------------------------------------------------------- R34 skipped steps


def test_r34_attack_is_skipped_when_no_unit_can_attack() -> None:
    s = start(phase="draw", rebel={"inactive": ["Ion Cannon", "Defense Shields"]})
    s.apply("draw 1")
    assert s.phase == "deploy"
    assert "Rebel has no unit that can attack" in s.log_lines()


def test_r34_block_step_is_skipped_when_no_block_is_possible() -> None:
    # The defender's only active unit is a space unit; the attack is on the ground.
    s = start(
        phase="attack",
        rebel={"active": ["Rebel Soldier"]},
        imperial={"active": ["Interceptors"], "inactive": ["Troopers"], "hand": ["Trap"]},
    )
    play(s, "new ground group with Rebel Soldier", "attack")
    assert (step(s), s.to_move) == ("target", REBEL)


def test_r34_block_step_is_offered_when_a_block_is_possible() -> None:
    s = start(
        phase="attack", rebel={"active": ["Rebel Soldier"]}, imperial={"active": ["Troopers"]}
    )
    play(s, "new ground group with Rebel Soldier", "attack")
    assert (step(s), s.to_move) == ("block", IMPERIAL)
    assert legal(s) == {"done blocking", "block group 1 with Troopers"}


def test_r34_target_step_is_skipped_when_nothing_can_be_targeted() -> None:
    s = start(
        phase="attack",
        rebel={"active": ["Stunt Fighters"]},
        imperial={"inactive": ["Troopers", "Bounty Hunter"]},
    )
    play(s, "new space group with Stunt Fighters", "attack")
    assert (step(s), s.to_move) == ("battle tricks", REBEL)


def test_r34_tricks_window_opens_for_both_players_even_with_empty_hands() -> None:
    s = start(phase="attack", rebel={"active": ["Rebel Soldier"]})
    play(s, "new ground group with Rebel Soldier", "attack")
    assert (step(s), s.to_move, legal(s)) == ("battle tricks", REBEL, {"pass"})
    s.apply("pass")
    assert (step(s), s.to_move, legal(s)) == ("battle tricks", IMPERIAL, {"pass"})
    s.apply("pass")
    assert s.phase == "deploy"


def test_r34_casualty_step_is_skipped_when_nothing_fits() -> None:
    # Air Speeders (3) and Grav Cycles (2) beat Troopers (1): nothing rated 1 or less to pick.
    s = start(
        phase="attack",
        rebel={"active": ["Air Speeders", "Grav Cycles"]},
        imperial={"active": ["Troopers"]},
        battle={"groups": [{"kind": "ground", "units": ["Air Speeders", "Grav Cycles"],
                            "blockers": ["Troopers"]}]},
    )  # fmt: skip
    play(s, "pass", "pass")
    assert s.phase == "deploy"
    assert zone(s, REBEL, "inactive") == ["Air Speeders", "Grav Cycles"]


# ----------------------------------------------------------------------------- R35 heroes in space


def test_r35_a_hero_never_starts_a_space_group() -> None:
    s = start(phase="attack", rebel={"active": ["Smuggler", "Superior Pilot", "Stunt Fighters"]})
    texts = legal(s)
    assert "new space group with Smuggler" not in texts
    assert "new space group with Superior Pilot" not in texts
    assert "new ground group with Smuggler" in texts
    with pytest.raises(IllegalActionError):
        s.apply("new space group with Smuggler")
    play(s, "new space group with Stunt Fighters")
    assert "add Smuggler to group 1" in legal(s)


def test_r35_a_hero_never_starts_a_space_block() -> None:
    s = start(
        player="imperial",
        phase="attack",
        rebel={"active": ["Smuggler", "Stunt Fighters"]},
        imperial={"active": ["Interceptors"]},
        battle={"step": "block", "groups": [{"kind": "space", "units": ["Interceptors"]}]},
    )
    assert legal(s) == {"done blocking", "block group 1 with Stunt Fighters"}
    s.apply("block group 1 with Stunt Fighters")
    assert "block group 1 with Smuggler" in legal(s)


# ----------------------------------------------------------------------------- R36 Multiple Targets


def test_r36_multiple_targets_is_played_by_the_attacking_player_only() -> None:
    s = start(**tricks_position())
    assert "play Multiple Targets" in legal(s)
    s = start(
        player="imperial",
        phase="attack",
        rebel={"active": ["Rebel Soldier"], "hand": ["Multiple Targets"]},
        imperial={"active": ["Troopers"]},
        battle={"groups": [{"kind": "ground", "units": ["Troopers"]}]},
    )
    s.apply("pass")
    assert s.to_move == REBEL and legal(s) == {"pass"}


def test_r14_a_second_ion_cannon_fires_after_the_first_emptied_a_group() -> None:
    # An edited list with two Ion Cannons: the first takes the only Ship of group 2, leaving it
    # empty; the second still decides, and the empty group fights no battle.
    from rebelspace.engine import load_cards, load_scenario
    from tests.engine.helpers import scenario

    cards = load_cards().with_changes({"Ion Cannon": {"count": 2}})
    s = load_scenario(
        scenario(
            player="imperial",
            phase="attack",
            rebel={"active": ["Ion Cannon", "Ion Cannon", "Stunt Fighters"]},
            imperial={"active": ["Space Cruiser", "Imperial Captain", "Space Cruiser"]},
        ),
        cards=cards,
    )
    play(
        s,
        "new space group with Space Cruiser",
        "add Imperial Captain to group 1",
        "new space group with Space Cruiser",
        "attack",
        "Ion Cannon destroys Space Cruiser in group 2",
    )
    assert s.groups[1] == () and step(s) == "ion cannon"
    assert legal(s) == {"Ion Cannon holds fire", "Ion Cannon destroys Space Cruiser in group 1"}
    s.apply("Ion Cannon holds fire")
    assert step(s) == "block"
    assert "block group 2 with Stunt Fighters" not in legal(s)  # nothing left to block
    assert zone(s, IMPERIAL, "discard").count("Space Cruiser") == 1
