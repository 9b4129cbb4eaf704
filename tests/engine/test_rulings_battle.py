"""Rulings on battles and their aftermath: R18-R22, R24, R30 and the project's R33, R38.

Battle results, casualties, damage, the end of the attack phase, psion cards and the +2 cards.
The rule sheet's worked example (R19) has its own file, test_worked_example.py.
"""

from __future__ import annotations

from typing import Any

from tests.engine.helpers import (
    IMPERIAL,
    REBEL,
    attached,
    budget,
    casualty_outcomes,
    legal,
    play,
    start,
    step,
    zone,
)


def blocked(
    attackers: list[Any], blockers: list[Any], *, kind: str = "ground", **fields: Any
) -> dict[str, Any]:
    """A Rebel attack with one group blocked, at the battle-tricks step."""
    rebel = fields.pop("rebel", {})
    imperial = fields.pop("imperial", {})
    names_a = [a if isinstance(a, str) else a["name"] for a in attackers]
    names_b = [b if isinstance(b, str) else b["name"] for b in blockers]
    return {
        "phase": "attack",
        "rebel": {"active": attackers, **rebel},
        "imperial": {"active": blockers, **imperial},
        "battle": {"groups": [{"kind": kind, "units": names_a, "blockers": names_b}]},
        **fields,
    }


# ----------------------------------------------------------------------------- R18 battle result


def test_r18_lower_value_is_destroyed_with_attachments_and_psion_cards() -> None:
    # Young Protagonist 7 + Laser Sword 3 + Danger Sense 2 = 12 against 13.
    s = start(
        **blocked(
            [{"name": "Young Protagonist", "attachments": ["Laser Sword"]}],
            ["Battle Walkers", "Battle Walkers", "Squad Leader"],
            rebel={"hand": ["Danger Sense"]},
        )
    )
    play(s, "play Danger Sense on Young Protagonist", "pass", "pass")
    assert {"Young Protagonist", "Laser Sword", "Danger Sense"} <= set(zone(s, REBEL, "discard"))
    assert zone(s, REBEL, "active") == zone(s, REBEL, "inactive") == []
    assert zone(s, IMPERIAL, "active") == ["Battle Walkers", "Battle Walkers", "Squad Leader"]


def test_r18_a_tie_destroys_both_groups() -> None:
    s = start(**blocked(["Air Speeders", "Grav Cycles"], ["Battle Walkers"]))
    play(s, "pass", "pass")
    assert {"Air Speeders", "Grav Cycles"} <= set(zone(s, REBEL, "discard"))
    assert "Battle Walkers" in zone(s, IMPERIAL, "discard")
    assert s.phase == "deploy" and zone(s, REBEL, "inactive") == []


def test_r18_tie_option_attacker_wins_a_tie() -> None:
    s = start(
        **blocked(["Air Speeders", "Grav Cycles"], ["Battle Walkers"]), rules={"tie": "attacker"}
    )
    play(s, "pass", "pass")
    assert "Battle Walkers" in zone(s, IMPERIAL, "discard")
    # The loser's value (5) buys casualties, but the winner keeps one unit (R19).
    assert legal(s) == {"pick Air Speeders as a casualty", "pick Grav Cycles as a casualty"}
    s.apply("pick Air Speeders as a casualty")
    assert zone(s, REBEL, "inactive") == ["Grav Cycles"]


def test_r18_tie_option_defender_wins_a_tie() -> None:
    s = start(
        **blocked(["Air Speeders", "Grav Cycles"], ["Battle Walkers"]), rules={"tie": "defender"}
    )
    play(s, "pass", "pass")
    assert {"Air Speeders", "Grav Cycles"} <= set(zone(s, REBEL, "discard"))
    assert zone(s, IMPERIAL, "active") == ["Battle Walkers"]


# ----------------------------------------------------------------------------- R19 casualties


def test_r19_loser_picks_casualties_worth_up_to_its_battle_value() -> None:
    # 3 Soldiers and 2 Grav Cycles (7) beat Squad Leader (3): casualties worth at most 3.
    s = start(
        **blocked(
            ["Rebel Soldier", "Rebel Soldier", "Rebel Soldier", "Grav Cycles", "Grav Cycles"],
            ["Squad Leader"],
        )
    )
    play(s, "pass", "pass")
    assert (step(s), s.to_move) == ("casualties", IMPERIAL)  # the loser picks
    assert budget(s) == 3
    assert casualty_outcomes(s) == {
        ("Grav Cycles", "Rebel Soldier"),
        ("Rebel Soldier", "Rebel Soldier", "Rebel Soldier"),
    }


def test_r19_loser_must_keep_picking_while_a_unit_fits() -> None:
    s = start(**blocked(["Rebel Soldier", "Rebel Soldier", "Air Speeders"], ["Assault Troopers"]))
    play(s, "pass", "pass")
    assert legal(s) == {"pick Rebel Soldier as a casualty"}  # no "done": picking is forced
    s.apply("pick Rebel Soldier as a casualty")
    assert legal(s) == {"pick Rebel Soldier as a casualty"}
    s.apply("pick Rebel Soldier as a casualty")
    assert s.phase == "deploy" and zone(s, REBEL, "inactive") == ["Air Speeders"]


def test_r19_hero_is_picked_only_after_non_heroes() -> None:
    # Princess 3, Smuggler 4, Soldier 1 (8) beat Battle Walkers (5).
    s = start(**blocked(["Princess", "Smuggler", "Rebel Soldier"], ["Battle Walkers"]))
    play(s, "pass", "pass")
    assert legal(s) == {"pick Rebel Soldier as a casualty"}
    s.apply("pick Rebel Soldier as a casualty")
    assert legal(s) == {"pick Princess as a casualty", "pick Smuggler as a casualty"}
    s = start(**blocked(["Princess", "Smuggler", "Rebel Soldier"], ["Battle Walkers"]))
    play(s, "pass", "pass")
    assert casualty_outcomes(s) == {("Princess", "Rebel Soldier"), ("Rebel Soldier", "Smuggler")}


def test_r19_one_non_hero_that_does_not_fit_shields_every_hero() -> None:
    # Imperial Commodore (1) and Battle Walkers (5) beat Grav Cycles (2): the Commodore would
    # fit, but the Walkers (too big to pick) still stand in the group, so nothing is picked.
    s = start(
        player="imperial",
        phase="attack",
        rebel={"active": ["Grav Cycles"]},
        imperial={"active": ["Imperial Commodore", "Battle Walkers"]},
        battle={"groups": [{"kind": "ground", "units": ["Imperial Commodore", "Battle Walkers"],
                            "blockers": ["Grav Cycles"]}]},
    )  # fmt: skip
    play(s, "pass", "pass")
    assert s.phase == "deploy"
    assert zone(s, IMPERIAL, "inactive") == ["Battle Walkers", "Imperial Commodore"]


def test_r19_a_unit_rated_zero_in_this_battle_is_never_picked() -> None:
    # Superior Pilot (ground 0) and Princess (3) beat Troopers (1): the Pilot fits the budget
    # of 1 only because it is worth nothing here, so it is never picked.
    s = start(**blocked(["Superior Pilot", "Princess"], ["Troopers"]))
    play(s, "pass", "pass")
    assert s.phase == "deploy"
    assert zone(s, REBEL, "inactive") == ["Princess", "Superior Pilot"]


def test_r19_the_winning_group_always_keeps_one_unit() -> None:
    # With tie=attacker the budget equals the winner's whole value, yet one Soldier survives.
    s = start(
        **blocked(["Rebel Soldier", "Rebel Soldier"], ["Assault Troopers"]),
        rules={"tie": "attacker"},
    )
    play(s, "pass", "pass", "pick Rebel Soldier as a casualty")
    assert s.phase == "deploy"
    assert zone(s, REBEL, "inactive") == ["Rebel Soldier"]


def test_r19_the_winning_defender_loses_casualties_too() -> None:
    # Rebel Soldier (1) attacks Troopers and Battle Walkers (6): the Rebel picks one Troopers.
    s = start(**blocked(["Rebel Soldier"], ["Troopers", "Battle Walkers"]))
    play(s, "pass", "pass")
    assert (step(s), s.to_move) == ("casualties", REBEL)
    assert legal(s) == {"pick Troopers as a casualty"}
    s.apply("pick Troopers as a casualty")
    assert zone(s, IMPERIAL, "active") == ["Battle Walkers"]
    assert "Troopers" in zone(s, IMPERIAL, "discard")
    assert "Rebel Soldier" in zone(s, REBEL, "discard")


# ----------------------------------------------------------------------------- R20 damage


def imperial_raid(rebel: dict[str, Any], *groups: list[str]) -> Any:
    """An unblocked Imperial attack at the battle-tricks step."""
    units = [u for g in groups for u in g]
    return start(
        player="imperial",
        phase="attack",
        rebel=rebel,
        imperial={"active": units},
        battle={"groups": [{"kind": "space", "units": g} for g in groups]},
    )


def test_r20_unblocked_damage_discards_from_the_top_of_the_defenders_deck() -> None:
    s = start(
        player="imperial",
        phase="attack",
        rebel={"deck_top": ["Princess", "Smuggler", "Recruit"]},
        imperial={"active": ["Troopers", "Bombers"]},
        battle={"groups": [{"kind": "ground", "units": ["Troopers"]},
                           {"kind": "space", "units": ["Bombers"]}]},
    )  # fmt: skip
    deck = len(s.deck[REBEL])
    play(s, "pass", "pass")
    # Troopers 1 + Bombers 2 = 3 damage: the top three cards go to the Rebel discard pile.
    assert len(s.deck[REBEL]) == deck - 3
    assert zone(s, REBEL, "discard") == ["Princess", "Recruit", "Smuggler"]
    assert "Rebel discards 3 cards from the top of the deck" in "\n".join(s.log_lines())


def test_r20_defense_shields_stop_the_damage_of_ships_only() -> None:
    s = imperial_raid(
        {"active": ["Defense Shields"]},
        ["Space Cruiser", "Imperial Captain"],
        ["Interceptors"],
    )
    deck = len(s.deck[REBEL])
    play(s, "pass", "pass")
    # The Cruiser's 1 is stopped; its Captain (1) and the Interceptors (1) get through.
    assert len(s.deck[REBEL]) == deck - 2


def test_r20_defense_shields_do_not_stack() -> None:
    s = imperial_raid(
        {"active": ["Defense Shields", "Defense Shields", "Defense Shields"]},
        ["Space Cruiser", "Imperial Captain"],
        ["Interceptors"],
    )
    deck = len(s.deck[REBEL])
    play(s, "pass", "pass")
    assert len(s.deck[REBEL]) == deck - 2


def test_r20_inactive_defense_shields_stop_nothing() -> None:
    s = imperial_raid(
        {"inactive": ["Defense Shields"]}, ["Space Cruiser", "Imperial Captain"], ["Interceptors"]
    )
    deck = len(s.deck[REBEL])
    play(s, "pass", "pass")
    assert len(s.deck[REBEL]) == deck - 3


def test_r20_blocked_and_targeting_groups_deal_no_damage() -> None:
    s = start(
        phase="attack",
        rebel={"active": ["Rebel Soldier", "Grav Cycles", "Air Speeders"]},
        imperial={"active": ["Troopers"], "inactive": ["Assault Troopers"]},
        battle={"groups": [
            {"kind": "ground", "units": ["Rebel Soldier"], "blockers": ["Troopers"]},
            {"kind": "ground", "units": ["Grav Cycles"],
             "target": {"name": "Assault Troopers", "zone": "inactive"}},
            {"kind": "ground", "units": ["Air Speeders"]},
        ]},
    )  # fmt: skip
    deck = len(s.deck[IMPERIAL])
    play(s, "pass", "pass")
    assert len(s.deck[IMPERIAL]) == deck - 1  # only the Air Speeders' 1


# ----------------------------------------------------------------------------- R21 after the attack


def test_r21_surviving_attackers_go_inactive_blockers_and_targets_stay_put() -> None:
    s = start(
        phase="attack",
        rebel={
            "active": ["Young Protagonist", "Air Speeders", "Rebel Soldier", "Grav Cycles"],
            "hand": ["Danger Sense"],
        },
        imperial={"active": ["Battle Walkers", "Squad Leader"], "inactive": ["Troopers"]},
        battle={"groups": [
            {"kind": "ground", "units": ["Young Protagonist", "Air Speeders"],
             "blockers": ["Squad Leader"]},
            {"kind": "ground", "units": ["Rebel Soldier"],
             "target": {"name": "Troopers", "zone": "inactive"}},
        ]},
    )  # fmt: skip
    play(s, "play Danger Sense on Young Protagonist", "pass", "pass")
    # Group 1 (12) beats the Squad Leader (3): the Imperial player picks the Air Speeders (3).
    s.apply("pick Air Speeders as a casualty")
    # Group 2 ties with its target: both gone.
    assert s.phase == "deploy"
    assert zone(s, REBEL, "inactive") == ["Young Protagonist"]
    assert zone(s, REBEL, "active") == ["Grav Cycles"]  # it did not attack
    assert zone(s, IMPERIAL, "active") == ["Battle Walkers"]  # it did not block
    assert attached(s, "Young Protagonist") == []  # psion cards are discarded
    assert "Danger Sense" in zone(s, REBEL, "discard")
    assert s.groups == [] and s.atk_bonus == 0 and not any(s.busy)


def test_r21_a_target_that_wins_stays_in_its_zone() -> None:
    s = start(
        phase="attack",
        rebel={"active": ["Rebel Soldier"]},
        imperial={"inactive": ["Battle Walkers"]},
        battle={"groups": [{"kind": "ground", "units": ["Rebel Soldier"],
                            "target": {"name": "Battle Walkers", "zone": "inactive"}}]},
    )  # fmt: skip
    play(s, "pass", "pass")
    assert zone(s, IMPERIAL, "inactive") == ["Battle Walkers"]
    assert zone(s, IMPERIAL, "active") == []


# ----------------------------------------------------------------------------- R22 Multiple Targets


def test_r22_multiple_targets_gives_another_attack_phase_with_units_still_active() -> None:
    s = start(
        phase="attack",
        rebel={
            "active": ["Rebel Soldier", "Grav Cycles", "Air Speeders"],
            "hand": ["Multiple Targets", "Surprise Attack"],
        },
        imperial={"deck_size": 20, "active": ["Troopers"]},
    )
    play(s, "new ground group with Rebel Soldier", "attack", "done blocking", "done targeting")
    play(s, "play Multiple Targets", "pass", "pass")
    assert len(s.deck[IMPERIAL]) == 19
    # A second attack phase, at once: the Soldier is inactive, the others may attack.
    assert (s.phase, step(s), s.to_move) == ("attack", "form groups", REBEL)
    assert legal(s) == {
        "no attack",
        "new ground group with Grav Cycles",
        "new ground group with Air Speeders",
    }
    assert "Multiple Targets" in zone(s, REBEL, "discard")
    # The Troopers block again: a unit blocks once per attack phase, and this is a new one.
    play(s, "new ground group with Grav Cycles", "attack")
    assert "block group 1 with Troopers" in legal(s)
    play(s, "done blocking", "done targeting", "pass", "pass")
    assert len(s.deck[IMPERIAL]) == 18
    assert s.phase == "deploy"  # only one extra phase
    assert zone(s, REBEL, "inactive") == ["Grav Cycles", "Rebel Soldier"]


# ----------------------------------------------------------------------------- R24 psion cards


def psion_position(**fields: Any) -> dict[str, Any]:
    return {
        "phase": "attack",
        "rebel": {
            "active": ["Young Protagonist", "Wise Mentor", "Princess", "Rebel Soldier"],
            "hand": ["Danger Sense", "True Aim"],
        },
        "imperial": {"active": ["Battle Walkers"], "hand": ["Telekinetics"]},
        "battle": {
            "groups": [
                {"kind": "ground", "units": ["Young Protagonist", "Princess"],
                 "blockers": ["Battle Walkers"]},
            ]
        },
        **fields,
    }  # fmt: skip


def test_r24_psion_cards_go_only_on_the_players_psionic_heroes_in_battle() -> None:
    s = start(**psion_position())
    # Not the Wise Mentor (not in a group), not the Princess (not Psionic).
    assert legal(s) == {
        "pass",
        "play Danger Sense on Young Protagonist",
        "play True Aim on Young Protagonist",
    }
    s.apply("pass")
    # The Imperial player's only psionic heroes would be its own: none is fighting.
    assert legal(s) == {"pass"}


def test_r24_defender_plays_psion_cards_on_its_own_blocking_hero() -> None:
    s = start(
        **blocked(
            ["Air Speeders", "Air Speeders"],
            ["Emperors Henchman"],
            imperial={"hand": ["Telekinetics", "ESP"]},
        )
    )
    s.apply("pass")
    assert legal(s) == {
        "pass",
        "play Telekinetics on Emperors Henchman",
        "play ESP on Emperors Henchman",
    }
    play(s, "play Telekinetics on Emperors Henchman", "pass", "pass")
    # Henchman 8 + 3 = 11 beats 6; without Telekinetics it would still win, so check the cards.
    assert zone(s, IMPERIAL, "active") == ["Emperors Henchman"]
    assert "Telekinetics" in zone(s, IMPERIAL, "discard")
    assert attached(s, "Emperors Henchman") == []


def test_r24_a_targeted_inactive_hero_may_take_psion_cards() -> None:
    # Three Air Speeders (9) target the inactive Mysterious Emperor (7); Telekinetics makes 10.
    s = start(
        phase="attack",
        rebel={"active": ["Air Speeders", "Air Speeders", "Air Speeders"]},
        imperial={"inactive": ["Mysterious Emperor"], "hand": ["Telekinetics"]},
        battle={"groups": [{"kind": "ground", "units": ["Air Speeders"] * 3,
                            "target": {"name": "Mysterious Emperor", "zone": "inactive"}}]},
    )  # fmt: skip
    s.apply("pass")
    assert legal(s) == {"pass", "play Telekinetics on Mysterious Emperor"}
    play(s, "play Telekinetics on Mysterious Emperor", "pass", "pass")
    assert zone(s, REBEL, "discard") == ["Air Speeders"] * 3
    assert zone(s, IMPERIAL, "inactive") == ["Mysterious Emperor"]
    assert attached(s, "Mysterious Emperor") == []


def test_r24_psion_cards_are_discarded_when_the_attack_phase_ends() -> None:
    s = start(**psion_position())
    play(s, "play Danger Sense on Young Protagonist")
    assert attached(s, "Young Protagonist") == ["Danger Sense"]
    view = s.view(IMPERIAL).battle
    assert view is not None and view.psion_cards == (("Danger Sense", "Young Protagonist"),)
    play(s, "pass", "play True Aim on Young Protagonist", "pass", "pass")
    # 12 beats 5; the Imperial player must pick the Princess (3), the only unit that fits.
    play(s, "pick Princess as a casualty")
    assert s.phase == "deploy"
    assert attached(s, "Young Protagonist") == []
    assert {"Danger Sense", "True Aim"} <= set(zone(s, REBEL, "discard"))


def test_r24_esp_damage_counts_only_when_the_group_deals_damage() -> None:
    def raid(blocker: list[str]) -> Any:
        return start(
            player="imperial",
            phase="attack",
            rebel={"active": blocker},
            imperial={"active": ["Mysterious Emperor"], "hand": ["ESP"]},
            battle={"groups": [{"kind": "ground", "units": ["Mysterious Emperor"],
                                "blockers": blocker}]},
        )  # fmt: skip

    s = raid([])
    deck = len(s.deck[REBEL])
    play(s, "play ESP on Mysterious Emperor", "pass", "pass")
    assert len(s.deck[REBEL]) == deck - 5  # the Emperor's 2 and ESP's 3
    # Blocked, the ESP adds nothing: no damage, and its 0 ground changes no battle value.
    s = raid(["Air Speeders", "Air Speeders"])
    deck = len(s.deck[REBEL])
    play(s, "play ESP on Mysterious Emperor", "pass", "pass")
    assert len(s.deck[REBEL]) == deck
    # 7 against 6: the Speeders are destroyed; the Emperor's group of one loses nothing.
    assert zone(s, REBEL, "discard") == ["Air Speeders", "Air Speeders"]
    assert zone(s, IMPERIAL, "inactive") == ["Mysterious Emperor"]
    assert "ESP" in zone(s, IMPERIAL, "discard")


# ----------------------------------------------------------------------------- R30 +2 cards


def test_r30_surprise_attack_gives_every_attacking_unit_plus_two() -> None:
    # Three Soldiers (3) lose to Battle Walkers (5); with Surprise Attack they are 9.
    s = start(
        **blocked(
            ["Rebel Soldier", "Rebel Soldier", "Rebel Soldier"],
            ["Battle Walkers"],
            rebel={"hand": ["Surprise Attack"]},
        )
    )
    play(s, "play Surprise Attack", "pass", "pass")
    assert "Battle Walkers" in zone(s, IMPERIAL, "discard")
    # Casualty ratings include the bonus (R19): each Soldier counts 3 against a budget of 5.
    assert budget(s) == 5
    s.apply("pick Rebel Soldier as a casualty")
    assert s.phase == "deploy"  # 2 left: no second Soldier (3) fits
    assert zone(s, REBEL, "inactive") == ["Rebel Soldier", "Rebel Soldier"]


def test_r30_trap_gives_every_defending_unit_plus_two_targets_included() -> None:
    # Grav Cycles (2) target the inactive Troopers (1); a Trap makes the Troopers 3.
    s = start(
        phase="attack",
        rebel={"active": ["Grav Cycles"]},
        imperial={"inactive": ["Troopers"], "hand": ["Trap"]},
        battle={"groups": [{"kind": "ground", "units": ["Grav Cycles"],
                            "target": {"name": "Troopers", "zone": "inactive"}}]},
    )  # fmt: skip
    play(s, "pass", "play Trap", "pass", "pass")
    assert "Grav Cycles" in zone(s, REBEL, "discard")
    assert zone(s, IMPERIAL, "inactive") == ["Troopers"]


def test_r30_copies_stack() -> None:
    # One Soldier (1) against Squad Leader (3): +2 twice makes it 5.
    s = start(
        **blocked(
            ["Rebel Soldier"],
            ["Squad Leader"],
            rebel={"hand": ["Surprise Attack", "Surprise Attack"]},
        )
    )
    play(s, "play Surprise Attack", "pass", "play Surprise Attack")
    assert s.atk_bonus == 4
    play(s, "pass", "pass")
    assert "Squad Leader" in zone(s, IMPERIAL, "discard")
    assert zone(s, REBEL, "inactive") == ["Rebel Soldier"]


def test_r30_trap_copies_stack_too() -> None:
    # Air Speeders and Grav Cycles (5) against two Troopers: +2 twice each makes them 10.
    s = start(
        phase="attack",
        rebel={"active": ["Air Speeders", "Grav Cycles"]},
        imperial={"active": ["Troopers", "Troopers"], "hand": ["Trap", "Trap"]},
        battle={"groups": [{"kind": "ground", "units": ["Air Speeders", "Grav Cycles"],
                            "blockers": ["Troopers", "Troopers"]}]},
    )  # fmt: skip
    play(s, "pass", "play Trap", "pass", "play Trap")
    assert s.def_bonus == 4
    play(s, "pass", "pass")
    assert zone(s, REBEL, "discard") == ["Air Speeders", "Grav Cycles"]
    assert zone(s, IMPERIAL, "active") == ["Troopers", "Troopers"]


def test_r30_bonus_changes_no_damage_rating() -> None:
    s = start(
        phase="attack",
        rebel={"active": ["Rebel Soldier", "Rebel Soldier"], "hand": ["Surprise Attack"]},
        battle={"groups": [{"kind": "ground", "units": ["Rebel Soldier", "Rebel Soldier"]}]},
    )
    deck = len(s.deck[IMPERIAL])
    play(s, "play Surprise Attack", "pass", "pass")
    assert len(s.deck[IMPERIAL]) == deck - 2


def test_r30_bonus_lasts_only_for_this_attack_phase() -> None:
    s = start(
        phase="attack",
        rebel={
            "active": ["Rebel Soldier", "Rebel Soldier"],
            "hand": ["Surprise Attack", "Multiple Targets"],
        },
        imperial={"active": ["Squad Leader"]},
    )
    play(s, "new ground group with Rebel Soldier", "attack", "done blocking", "done targeting")
    play(s, "play Surprise Attack", "pass", "play Multiple Targets", "pass", "pass")
    assert s.phase == "attack" and s.atk_bonus == 0
    # The second Soldier alone (1) now loses to the Squad Leader (3).
    play(s, "new ground group with Rebel Soldier", "attack", "block group 1 with Squad Leader")
    play(s, "done blocking", "pass", "pass")
    assert zone(s, IMPERIAL, "active") == ["Squad Leader"]
    assert zone(s, REBEL, "discard").count("Rebel Soldier") == 1


# ----------------------------------------------------------------------------- R33 fixed at start


def test_r33_shields_destroyed_in_this_phase_still_stop_ship_damage() -> None:
    s = start(
        player="imperial",
        phase="attack",
        rebel={"active": ["Defense Shields"]},
        imperial={"active": ["Battle Walkers", "Space Cruiser"]},
        battle={"groups": [
            {"kind": "ground", "units": ["Battle Walkers"], "blockers": ["Defense Shields"]},
            {"kind": "space", "units": ["Space Cruiser"]},
        ]},
    )  # fmt: skip
    deck = len(s.deck[REBEL])
    play(s, "pass", "pass")
    assert "Defense Shields" in zone(s, REBEL, "discard")
    assert len(s.deck[REBEL]) == deck  # the Cruiser's damage was stopped when battles began


def test_r33_damage_of_a_group_is_fixed_when_battles_begin() -> None:
    # Group 2 gets through for its damage, whatever happens in group 1's battle first.
    s = start(
        phase="attack",
        rebel={"active": ["Rebel Soldier", "Air Speeders"]},
        imperial={"active": ["Battle Walkers"]},
        battle={"groups": [
            {"kind": "ground", "units": ["Rebel Soldier"], "blockers": ["Battle Walkers"]},
            {"kind": "ground", "units": ["Air Speeders"]},
        ]},
    )  # fmt: skip
    deck = len(s.deck[IMPERIAL])
    play(s, "pass", "pass")
    assert "Rebel's group 2 gets through for 1 damage" in s.log_lines()
    assert len(s.deck[IMPERIAL]) == deck - 1


# ----------------------------------------------------------------------------- R38 casualty order


def test_r38_each_battles_casualties_are_picked_right_after_it_in_group_order() -> None:
    s = start(
        phase="attack",
        rebel={"active": ["Rebel Soldier", "Air Speeders", "Rebel Soldier", "Grav Cycles"]},
        imperial={"active": ["Troopers", "Troopers"]},
        battle={"groups": [
            {"kind": "ground", "units": ["Rebel Soldier", "Air Speeders"],
             "blockers": ["Troopers"]},
            {"kind": "ground", "units": ["Rebel Soldier", "Grav Cycles"],
             "blockers": ["Troopers"]},
        ]},
    )  # fmt: skip
    play(s, "pass", "pass")
    battle = s.view(IMPERIAL).battle
    assert battle is not None and battle.casualty_group == 1
    # Group 2's battle has not been fought yet: its blocker is still in play.
    assert zone(s, IMPERIAL, "active") == ["Troopers"]
    s.apply("pick Rebel Soldier as a casualty")
    battle = s.view(IMPERIAL).battle
    assert battle is not None and battle.casualty_group == 2
    assert zone(s, IMPERIAL, "active") == []
    s.apply("pick Rebel Soldier as a casualty")
    assert s.phase == "deploy"
    assert zone(s, REBEL, "inactive") == ["Air Speeders", "Grav Cycles"]
    log = s.log_lines()
    picks = [i for i, line in enumerate(log) if "as a casualty" in line]
    battles = [
        i
        for i, line in enumerate(log)
        if " block Rebel's ground group" in line or " blocks Rebel's ground group" in line
    ]
    assert battles[0] < picks[0] < battles[1] < picks[1]
