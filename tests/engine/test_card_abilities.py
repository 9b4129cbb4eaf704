"""One test per card with an ability or keyword, in card-list order (Rebel, then Imperial).

Each test plays the card's ability through actions and checks what it does and what it must
not do. The rulings the abilities rest on are cited (R3 keywords, R24 psion cards, ...).
"""

from __future__ import annotations

from typing import Any

import pytest

from rebelspace.engine import GameState, load_cards, load_scenario
from tests.engine.helpers import IMPERIAL, REBEL, attached, legal, play, scenario, start, step, zone

CARDS = load_cards()


def side_of(name: str) -> str:
    return "rebel" if CARDS.by_name(name).side == REBEL else "imperial"


def can_ride(hero: str, carrier: str) -> bool:
    """May ``hero`` join a space group started by ``carrier`` (both of the hero's side)?"""
    side = side_of(hero)
    s = start(player=side, phase="attack", **{side: {"active": [carrier, hero]}})
    s.apply(f"new space group with {carrier}")
    return f"add {hero} to group 1" in legal(s)


def attack_line(s: GameState) -> str:
    """The log line that gives the value of attacking group 1."""
    return next(line for line in s.log_lines() if " attacks with " in line and "group 1" in line)


def equipped(hero: str, cards: list[str], carrier: str | None = None) -> GameState:
    """Attack unblocked with ``hero`` carrying ``cards`` (in a space group on ``carrier``)."""
    side = side_of(hero)
    units: list[Any] = [{"name": hero, "attachments": cards}]
    s = start(player=side, phase="attack", **{side: {"active": [*units, *filter(None, [carrier])]}})
    if carrier:
        play(s, f"new space group with {carrier}", f"add {hero} to group 1", "attack")
    else:
        play(s, f"new ground group with {hero}", "attack")
    return s


def attach_cost(card: str, hero: str) -> int:
    """Attach ``card`` to ``hero`` in a deploy phase; returns the deploy points it used."""
    side = side_of(hero)
    s = start(player=side, phase="deploy", **{side: {"inactive": [hero], "hand": [card]}})
    s.apply(f"attach {card} to {hero}")
    assert attached(s, hero) == [card] and s.hand[s.player] == []
    return 3 - s.points


# ============================================================================= Rebel cards


def test_card_young_protagonist_is_a_pilot_and_psionic() -> None:
    assert can_ride("Young Protagonist", "Stunt Fighters")
    assert not can_ride("Young Protagonist", "Rebel Warship")
    s = start(
        phase="attack",
        rebel={"active": ["Young Protagonist"], "hand": ["Danger Sense"]},
        battle={"groups": [{"kind": "ground", "units": ["Young Protagonist"]}]},
    )
    assert "play Danger Sense on Young Protagonist" in legal(s)


def test_card_princess_is_a_captain_not_a_pilot() -> None:
    assert can_ride("Princess", "Rebel Warship")
    assert not can_ride("Princess", "Stunt Fighters")


def test_card_smuggler_is_a_pilot_and_a_captain() -> None:
    assert can_ride("Smuggler", "Stunt Fighters")
    assert can_ride("Smuggler", "Converted Freighter")
    assert not can_ride("Smuggler", "Fighter Bombers")


def test_card_robot_sidekick_is_a_companion_adding_all_three_ratings() -> None:
    assert attach_cost("Robot Sidekick", "Princess") == 1
    s = equipped("Princess", ["Robot Sidekick"])
    assert attack_line(s).endswith("(Princess: ground 4)")
    deck = len(s.deck[IMPERIAL])
    play(s, "pass", "pass")
    assert len(s.deck[IMPERIAL]) == deck - 3  # Princess 2 + Sidekick 1
    s = equipped("Smuggler", ["Robot Sidekick"], "Stunt Fighters")
    assert attack_line(s).endswith("(Stunt Fighters, Smuggler: space 10)")


def test_card_alien_companion_adds_two_ground_and_two_space() -> None:
    assert attach_cost("Alien Companion", "Smuggler") == 2
    s = equipped("Princess", ["Alien Companion"])
    assert attack_line(s).endswith("(Princess: ground 5)")
    s = equipped("Smuggler", ["Alien Companion"], "Stunt Fighters")
    assert attack_line(s).endswith("(Stunt Fighters, Smuggler: space 11)")


def test_card_laser_sword_attaches_to_a_hero_and_adds_three_ground() -> None:
    s = start(phase="deploy", rebel={"active": ["Rebel Soldier"], "hand": ["Laser Sword"]})
    assert legal(s) == {"done deploying"}  # a hero only
    assert attach_cost("Laser Sword", "Princess") == 1
    s = equipped("Princess", ["Laser Sword", "Alien Companion"])  # no limit per hero (R23)
    assert attack_line(s).endswith("(Princess: ground 8)")
    s = equipped("Smuggler", ["Laser Sword"], "Stunt Fighters")
    assert attack_line(s).endswith("(Stunt Fighters, Smuggler: space 9)")


def test_card_wise_mentor_is_psionic_but_neither_pilot_nor_captain() -> None:
    assert not can_ride("Wise Mentor", "Stunt Fighters")
    assert not can_ride("Wise Mentor", "Rebel Warship")
    s = start(
        phase="attack",
        rebel={"active": ["Wise Mentor"], "hand": ["Danger Sense", "True Aim"]},
        battle={"groups": [{"kind": "ground", "units": ["Wise Mentor"]}]},
    )
    assert {"play Danger Sense on Wise Mentor", "play True Aim on Wise Mentor"} <= legal(s)


def test_card_rebel_commander_is_a_captain() -> None:
    assert can_ride("Rebel Commander", "Rebel Warship")
    assert not can_ride("Rebel Commander", "Stunt Fighters")


def test_card_superior_pilot_is_a_pilot_only() -> None:
    assert can_ride("Superior Pilot", "Stunt Fighters")
    assert not can_ride("Superior Pilot", "Converted Freighter")


def test_card_rebel_base_gives_an_extra_draw() -> None:
    s = start(phase="draw", rebel={"active": ["Rebel Base"]})
    assert legal(s) == {"draw 1", "draw 2", "draw 3"}
    s = start(phase="draw", rebel={"active": ["Rebel Base"], "deck_size": 30})
    s.apply("draw 3")
    assert len(s.hand[REBEL]) == 3 and len(s.deck[REBEL]) == 27
    s = start(phase="draw")
    assert legal(s) == {"draw 1", "draw 2"}


def test_card_ion_cannon_destroys_one_attacking_ship_and_never_attacks() -> None:
    s = start(phase="attack", rebel={"active": ["Ion Cannon"]})
    assert s.phase == "deploy"  # it cannot attack (R11)
    s = start(
        player="imperial",
        phase="attack",
        rebel={"active": ["Ion Cannon"]},
        imperial={"active": ["Space Cruiser", "Space Cruiser", "Bombers"]},
    )
    play(s, "new space group with Space Cruiser", "add Space Cruiser to group 1")
    play(s, "add Bombers to group 1", "attack")
    assert legal(s) == {"Ion Cannon holds fire", "Ion Cannon destroys Space Cruiser in group 1"}
    s.apply("Ion Cannon destroys Space Cruiser in group 1")
    assert zone(s, IMPERIAL, "discard") == ["Space Cruiser"]
    assert step(s) == "battle tricks"  # one shot; nothing of the Rebel's can block


def test_card_defense_shields_stop_attacking_ships_damage_and_never_attack() -> None:
    s = start(phase="attack", rebel={"active": ["Defense Shields"]})
    assert s.phase == "deploy"
    s = start(
        player="imperial",
        phase="attack",
        rebel={"active": ["Defense Shields"]},
        imperial={"active": ["Space Cruiser", "Space Cruiser", "Bombers", "Giant Space Station"]},
        battle={"groups": [
            {"kind": "space", "units": ["Space Cruiser", "Space Cruiser", "Bombers"]},
            {"kind": "space", "units": ["Giant Space Station"]},
        ]},
    )  # fmt: skip
    deck = len(s.deck[REBEL])
    play(s, "pass", "pass")
    assert len(s.deck[REBEL]) == deck - 5  # Bombers 2 + Station 3; the Cruisers' 2 stopped


def test_card_stunt_fighters_are_fighters_that_carry_a_pilot() -> None:
    assert can_ride("Superior Pilot", "Stunt Fighters")
    assert not can_ride("Superior Pilot", "Fighter Bombers")


def test_card_fighter_bombers_are_neither_fighter_nor_ship() -> None:
    assert not can_ride("Superior Pilot", "Fighter Bombers")
    assert not can_ride("Princess", "Fighter Bombers")
    s = start(
        player="imperial",
        phase="attack",
        rebel={"active": ["Fighter Bombers", "Ion Cannon"]},
        imperial={"active": ["Space Cruiser"]},
    )
    play(s, "new space group with Space Cruiser", "attack")
    s.apply("Ion Cannon holds fire")
    assert "block group 1 with Fighter Bombers" in legal(s)


def test_card_converted_freighter_is_a_ship() -> None:
    assert can_ride("Princess", "Converted Freighter")
    assert not can_ride("Superior Pilot", "Converted Freighter")
    assert can_ride("Smuggler", "Converted Freighter")


def test_card_rebel_warship_is_a_ship() -> None:
    assert can_ride("Rebel Commander", "Rebel Warship")
    assert not can_ride("Young Protagonist", "Rebel Warship")
    s = start(
        phase="attack",
        rebel={"active": ["Rebel Warship"]},
        imperial={"active": ["Space Cruiser"]},
        battle={"groups": [{"kind": "space", "units": ["Rebel Warship"],
                            "blockers": ["Space Cruiser"]}]},
    )  # fmt: skip
    play(s, "pass", "pass")
    assert "Rebel Warship" in zone(s, REBEL, "discard")  # 7 against 10


def psion_battle(card: str, hero: str, kind: str, units: list[str], blockers: list[str]) -> Any:
    side = side_of(hero)
    other = "imperial" if side == "rebel" else "rebel"
    s = start(
        player=side,
        phase="attack",
        **{side: {"active": units, "hand": [card]}, other: {"active": blockers}},
        battle={"groups": [{"kind": kind, "units": units, "blockers": blockers}]},
    )
    play(s, f"play {card} on {hero}", "pass", "pass")
    return s


def test_card_danger_sense_adds_two_ground_and_one_space() -> None:
    # Ground: Young Protagonist 7 + 2 = 9 beats Battle Walkers and Squad Leader (8).
    s = psion_battle("Danger Sense", "Young Protagonist", "ground", ["Young Protagonist"],
                     ["Battle Walkers", "Squad Leader"])  # fmt: skip
    assert zone(s, IMPERIAL, "active") == [] and zone(s, REBEL, "inactive") == ["Young Protagonist"]
    # Space: Stunt Fighters 3 + Young Protagonist 7 + 1 = 11 beats a Space Cruiser (10).
    s = psion_battle("Danger Sense", "Young Protagonist", "space",
                     ["Stunt Fighters", "Young Protagonist"], ["Space Cruiser"])  # fmt: skip
    assert "Space Cruiser" in zone(s, IMPERIAL, "discard")
    s.apply("pick Stunt Fighters as a casualty")  # the Imperial player's pick (R19)
    assert "Danger Sense" in zone(s, REBEL, "discard")


def test_card_true_aim_adds_three_space_and_no_ground() -> None:
    # Space: 3 + 7 + 3 = 13 beats a Space Cruiser and Interceptors (12).
    units, blockers = ["Stunt Fighters", "Young Protagonist"], ["Space Cruiser", "Interceptors"]
    s = psion_battle("True Aim", "Young Protagonist", "space", units, blockers)
    assert zone(s, IMPERIAL, "active") == []
    # Ground: 7 + 0 still loses to 8.
    s = psion_battle("True Aim", "Young Protagonist", "ground", ["Young Protagonist"],
                     ["Battle Walkers", "Squad Leader"])  # fmt: skip
    assert "Young Protagonist" in zone(s, REBEL, "discard")


def test_card_medi_bot_takes_a_hero_from_the_discard_pile() -> None:
    s = start(phase="end", rebel={"hand": ["Medi-Bot"], "discard": ["Princess", "Grav Cycles"]})
    assert legal(s) == {"end turn", "play Medi-Bot for Princess"}
    s.apply("play Medi-Bot for Princess")
    assert zone(s, REBEL, "hand") == ["Princess"]
    assert zone(s, REBEL, "discard") == ["Grav Cycles", "Medi-Bot"]


def test_card_recruit_takes_a_hero_from_the_deck_and_shuffles_it() -> None:
    s = start(phase="end", rebel={"hand": ["Recruit"], "deck_top": ["Rebel Soldier"]})
    order = [c for c in s.deck[REBEL] if s.name(c) != "Smuggler"]
    s.apply("play Recruit for Smuggler")
    assert zone(s, REBEL, "hand") == ["Smuggler"]
    assert s.deck[REBEL] != order and sorted(s.deck[REBEL]) == sorted(order)
    assert "Rebel plays Recruit and takes Smuggler from the deck; the deck is shuffled" in (
        s.log_lines(IMPERIAL)
    )


def test_card_recruit_that_empties_the_deck_loses_the_game() -> None:
    s = start(phase="end", rebel={"hand": ["Recruit"], "deck": ["Wise Mentor"]})
    s.apply("play Recruit for Wise Mentor")
    assert s.winner == IMPERIAL


def test_card_convert_takes_control_of_an_opposing_hero() -> None:
    s = start(
        phase="end",
        rebel={"hand": ["Convert"]},
        imperial={"active": [{"name": "Emperors Henchman", "attachments": ["Elite Bodyguards"]}]},
    )
    s.apply("play Convert on Emperors Henchman")
    assert zone(s, REBEL, "inactive") == ["Emperors Henchman"]
    assert attached(s, "Emperors Henchman") == ["Convert", "Elite Bodyguards"]
    # The Rebel player now attacks with it, psion cards included.
    play(s, "end turn", "draw 1", "done deploying", "end turn", "draw 1")
    assert "new ground group with Emperors Henchman" in legal(s)


def test_card_surprise_attack_gives_attacking_units_plus_two() -> None:
    s = start(
        phase="attack",
        rebel={"active": ["Rebel Soldier", "Rebel Soldier"], "hand": ["Surprise Attack"]},
        imperial={"active": ["Squad Leader"]},
        battle={"groups": [{"kind": "ground", "units": ["Rebel Soldier", "Rebel Soldier"],
                            "blockers": ["Squad Leader"]}]},
    )  # fmt: skip
    play(s, "play Surprise Attack", "pass", "pass")
    # 2 + 2 + 2 = 6 beats 3; the Imperial player picks one Soldier (now worth 3).
    assert "Squad Leader" in zone(s, IMPERIAL, "discard")
    s.apply("pick Rebel Soldier as a casualty")
    assert zone(s, REBEL, "inactive") == ["Rebel Soldier"]
    assert zone(s, REBEL, "discard") == ["Rebel Soldier", "Surprise Attack"]


def test_card_multiple_targets_gives_an_extra_attack_phase() -> None:
    s = start(
        phase="attack",
        rebel={"active": ["Rebel Soldier", "Rebel Soldier"], "hand": ["Multiple Targets"]},
        battle={"groups": [{"kind": "ground", "units": ["Rebel Soldier"]}]},
    )
    play(s, "play Multiple Targets", "pass", "pass")
    assert (s.phase, step(s)) == ("attack", "form groups")
    assert "new ground group with Rebel Soldier" in legal(s)
    assert "Rebel gets an extra attack phase (Multiple Targets)" in s.log_lines()


def test_card_multiple_targets_unused_extra_phase_ends_with_the_turn() -> None:
    """R22 with an edited list holding two Multiple Targets: both played in one battle give two
    extra phases; when the first extra phase has nobody left to attack, the second is lost at
    the deploy phase instead of passing to the Imperial player's turn."""
    cards = load_cards().with_changes({"Multiple Targets": {"count": 2}})
    s = load_scenario(
        scenario(
            phase="attack",
            rebel={"active": ["Rebel Soldier"], "hand": ["Multiple Targets", "Multiple Targets"]},
            battle={"groups": [{"kind": "ground", "units": ["Rebel Soldier"]}]},
        ),
        cards=cards,
    )
    play(s, "play Multiple Targets", "pass", "play Multiple Targets", "pass", "pass")
    # The Soldier attacked and went inactive: the extra phase finds no attacker.
    assert (s.phase, s.view(REBEL).extra_attacks) == ("deploy", 0)
    play(s, "done deploying", "end turn", "draw 1")
    assert (s.player, s.extra_attacks) == (IMPERIAL, 0)
    assert s.log_lines().count("Rebel gets an extra attack phase (Multiple Targets)") == 1


def test_card_rebel_spies_show_the_imperial_hand() -> None:
    s = start(phase="end", rebel={"hand": ["Rebel Spies"]}, imperial={"hand": ["Traitor"]})
    s.apply("play Rebel Spies")
    assert s.view(REBEL).revealed_hands == ((1, ("Traitor",)),)
    assert zone(s, REBEL, "discard") == ["Rebel Spies"]


# ============================================================================= Imperial cards


def test_card_mysterious_emperor_is_captain_psionic_and_gives_an_extra_draw() -> None:
    assert can_ride("Mysterious Emperor", "Space Cruiser")
    assert not can_ride("Mysterious Emperor", "Elite Interceptors")
    s = start(player="imperial", phase="draw", imperial={"inactive": ["Mysterious Emperor"]})
    assert legal(s) == {"draw 1", "draw 2", "draw 3"}
    s = start(
        player="imperial",
        phase="attack",
        imperial={"active": ["Mysterious Emperor"], "hand": ["Telekinetics", "ESP"]},
        battle={"groups": [{"kind": "ground", "units": ["Mysterious Emperor"]}]},
    )
    assert legal(s) == {
        "pass",
        "play Telekinetics on Mysterious Emperor",
        "play ESP on Mysterious Emperor",
    }


def test_card_converted_mysterious_emperor_gives_the_extra_draw_to_its_controller() -> None:
    s = start(phase="end", rebel={"hand": ["Convert"]}, imperial={"active": ["Mysterious Emperor"]})
    play(s, "play Convert on Mysterious Emperor", "end turn")
    assert s.player == IMPERIAL and legal(s) == {"draw 1", "draw 2"}
    play(s, "draw 1", "done deploying", "end turn")
    assert s.player == REBEL and legal(s) == {"draw 1", "draw 2", "draw 3"}


def test_card_emperors_henchman_is_pilot_captain_and_psionic() -> None:
    assert can_ride("Emperors Henchman", "Elite Interceptors")
    assert can_ride("Emperors Henchman", "Space Cruiser")
    assert not can_ride("Emperors Henchman", "Interceptors")
    s = start(
        player="imperial",
        phase="attack",
        imperial={"active": ["Emperors Henchman"], "hand": ["Telekinetics"]},
        battle={"groups": [{"kind": "ground", "units": ["Emperors Henchman"]}]},
    )
    assert "play Telekinetics on Emperors Henchman" in legal(s)


def test_card_imperial_commodore_is_a_captain() -> None:
    assert can_ride("Imperial Commodore", "Space Cruiser")
    assert not can_ride("Imperial Commodore", "Elite Interceptors")
    assert not can_ride("Imperial Commodore", "Giant Space Station")  # not a Ship (R3)


def test_card_imperial_captain_is_a_captain() -> None:
    assert can_ride("Imperial Captain", "Space Cruiser")
    assert not can_ride("Imperial Captain", "Bombers")
    assert not can_ride("Imperial Captain", "Giant Space Station")  # not a Ship (R3)


def test_card_bounty_hunter_is_a_pilot_only() -> None:
    assert can_ride("Bounty Hunter", "Elite Interceptors")
    assert not can_ride("Bounty Hunter", "Space Cruiser")
    assert not can_ride("Bounty Hunter", "Interceptors")


def test_card_alien_crime_boss_is_a_captain() -> None:
    assert can_ride("Alien Crime Boss", "Space Cruiser")
    assert not can_ride("Alien Crime Boss", "Elite Interceptors")
    assert not can_ride("Alien Crime Boss", "Giant Space Station")  # not a Ship (R3)


def test_card_elite_bodyguards_are_a_companion_adding_three_ground() -> None:
    assert attach_cost("Elite Bodyguards", "Imperial Captain") == 2
    s = equipped("Bounty Hunter", ["Elite Bodyguards", "Elite Bodyguards"])
    assert attack_line(s).endswith("(Bounty Hunter: ground 12)")
    s = equipped("Bounty Hunter", ["Elite Bodyguards"], "Elite Interceptors")
    assert attack_line(s).endswith("(Elite Interceptors, Bounty Hunter: space 8)")


def test_card_fixed_defenses_never_attack_and_block_on_the_ground_or_in_space() -> None:
    s = start(player="imperial", phase="attack", imperial={"active": ["Fixed Defenses"]})
    assert s.phase == "deploy"
    s = start(
        phase="attack",
        rebel={"active": ["Air Speeders", "Stunt Fighters"]},
        imperial={"active": ["Fixed Defenses", "Fixed Defenses"]},
        battle={"groups": [
            {"kind": "ground", "units": ["Air Speeders"], "blockers": ["Fixed Defenses"]},
            {"kind": "space", "units": ["Stunt Fighters"], "blockers": ["Fixed Defenses"]},
        ]},
    )  # fmt: skip
    play(s, "pass", "pass")
    # Ground 4 beats the Speeders (3); space 2 loses to the Stunt Fighters (3).
    assert zone(s, IMPERIAL, "active") == ["Fixed Defenses"]
    assert zone(s, IMPERIAL, "discard") == ["Fixed Defenses"]
    assert zone(s, REBEL, "inactive") == ["Stunt Fighters"]


def test_card_plasma_sword_attaches_to_a_hero_and_adds_three_ground() -> None:
    s = start(
        player="imperial",
        phase="deploy",
        imperial={"active": ["Troopers", "Imperial Captain"], "hand": ["Plasma Sword"]},
    )
    assert legal(s) == {"done deploying", "attach Plasma Sword to Imperial Captain"}
    assert attach_cost("Plasma Sword", "Bounty Hunter") == 1
    s = equipped("Bounty Hunter", ["Plasma Sword"])
    assert attack_line(s).endswith("(Bounty Hunter: ground 9)")


def test_card_elite_interceptors_are_fighters() -> None:
    assert can_ride("Bounty Hunter", "Elite Interceptors")
    assert not can_ride("Imperial Captain", "Elite Interceptors")


@pytest.mark.parametrize("card", ["Interceptors", "Bombers"])
def test_card_interceptors_and_bombers_carry_no_hero(card: str) -> None:
    for hero in ("Bounty Hunter", "Imperial Captain", "Emperors Henchman"):
        assert not can_ride(hero, card)


def test_card_robotic_probe_fights_on_the_ground_or_in_space() -> None:
    s = start(player="imperial", phase="attack", imperial={"active": ["Robotic Probe"]})
    assert legal(s) == {
        "no attack",
        "new ground group with Robotic Probe",
        "new space group with Robotic Probe",
    }


def test_card_space_cruiser_is_a_ship() -> None:
    assert can_ride("Imperial Captain", "Space Cruiser")
    assert not can_ride("Bounty Hunter", "Space Cruiser")
    s = start(
        player="imperial",
        phase="attack",
        rebel={"active": ["Ion Cannon"]},
        imperial={"active": ["Space Cruiser"]},
    )
    play(s, "new space group with Space Cruiser", "attack")
    assert "Ion Cannon destroys Space Cruiser in group 1" in legal(s)


def test_card_giant_space_station_may_attack_and_is_not_a_ship() -> None:
    s = start(
        player="imperial",
        phase="attack",
        rebel={"active": ["Ion Cannon", "Defense Shields", "Rebel Warship"]},
        imperial={"active": ["Giant Space Station", "Imperial Captain"]},
    )
    assert legal(s) == {
        "no attack",
        "new space group with Giant Space Station",
        "new ground group with Imperial Captain",
    }
    play(s, "new space group with Giant Space Station")
    assert "add Imperial Captain to group 1" not in legal(s)  # no captain place
    s.apply("attack")
    assert step(s) == "block"  # no Ion Cannon decision
    deck = len(s.deck[REBEL])
    play(s, "done blocking", "done targeting", "pass", "pass")
    assert len(s.deck[REBEL]) == deck - 3  # the Shields do not stop it


def test_card_giant_space_station_blocks_in_space() -> None:
    s = start(
        phase="attack",
        rebel={"active": ["Rebel Warship"]},
        imperial={"active": ["Giant Space Station"]},
    )
    play(s, "new space group with Rebel Warship", "attack")
    assert legal(s) == {"done blocking", "block group 1 with Giant Space Station"}


def test_card_telekinetics_adds_three_ground_and_no_space() -> None:
    # Mysterious Emperor 7 + 3 = 10 beats three Air Speeders (9).
    s = psion_battle("Telekinetics", "Mysterious Emperor", "ground", ["Mysterious Emperor"],
                     ["Air Speeders", "Air Speeders", "Air Speeders"])  # fmt: skip
    assert zone(s, IMPERIAL, "inactive") == ["Mysterious Emperor"]
    assert "Telekinetics" in zone(s, IMPERIAL, "discard")
    # Space: Space Cruiser 10 + Emperor 7 + 0 = 17 ties two Rebel Warships and a Stunt Fighters.
    s = psion_battle("Telekinetics", "Mysterious Emperor", "space",
                     ["Space Cruiser", "Mysterious Emperor"],
                     ["Rebel Warship", "Rebel Warship", "Stunt Fighters"])  # fmt: skip
    assert zone(s, IMPERIAL, "inactive") == [] and zone(s, REBEL, "active") == []


def test_card_esp_adds_three_damage_only_when_its_group_deals_damage() -> None:
    s = start(
        player="imperial",
        phase="attack",
        imperial={"active": ["Emperors Henchman", "Troopers"], "hand": ["ESP"]},
        battle={"groups": [{"kind": "ground", "units": ["Emperors Henchman", "Troopers"]}]},
    )
    deck = len(s.deck[REBEL])
    play(s, "play ESP on Emperors Henchman", "pass", "pass")
    assert len(s.deck[REBEL]) == deck - 6  # 2 + 1 + ESP 3
    s = start(
        player="imperial",
        phase="attack",
        rebel={"inactive": ["Rebel Soldier"]},
        imperial={"active": ["Emperors Henchman"], "hand": ["ESP"]},
        battle={"groups": [{"kind": "ground", "units": ["Emperors Henchman"],
                            "target": {"name": "Rebel Soldier", "zone": "inactive"}}]},
    )  # fmt: skip
    deck = len(s.deck[REBEL])
    play(s, "play ESP on Emperors Henchman", "pass", "pass")
    assert len(s.deck[REBEL]) == deck  # it targeted: no damage, ESP's 3 included


def test_card_imperial_spy_shows_the_rebel_hand() -> None:
    s = start(
        player="imperial",
        phase="end",
        rebel={"hand": ["Surprise Attack", "Princess"]},
        imperial={"hand": ["Imperial Spy"]},
    )
    s.apply("play Imperial Spy")
    assert s.view(IMPERIAL).revealed_hands == ((1, ("Princess", "Surprise Attack")),)
    assert s.view(REBEL).revealed_hands == ()
    assert zone(s, IMPERIAL, "discard") == ["Imperial Spy"]


def test_card_traitor_takes_control_of_an_opposing_hero() -> None:
    s = start(
        player="imperial",
        phase="end",
        rebel={"active": [{"name": "Young Protagonist", "attachments": ["Laser Sword"]}]},
        imperial={"hand": ["Traitor"]},
    )
    s.apply("play Traitor on Young Protagonist")
    assert zone(s, IMPERIAL, "inactive") == ["Young Protagonist"]
    assert attached(s, "Young Protagonist") == ["Laser Sword", "Traitor"]
    assert s.view(REBEL).opponent.inactive[0].owner == "rebel"


def test_card_traitor_taken_back_by_convert_goes_to_the_imperial_discard() -> None:
    s = start(
        phase="end",
        rebel={"hand": ["Convert"]},
        imperial={"active": [{"name": "Princess", "attachments": ["Traitor", "Laser Sword"]}]},
    )
    s.apply("play Convert on Princess")
    assert zone(s, REBEL, "inactive") == ["Princess"]
    assert attached(s, "Princess") == ["Convert", "Laser Sword"]
    assert zone(s, IMPERIAL, "discard") == ["Traitor"]


def test_card_shuttle_takes_a_hero_from_the_deck_and_shuffles_it() -> None:
    s = start(player="imperial", phase="end", imperial={"hand": ["Shuttle"]})
    order = [c for c in s.deck[IMPERIAL] if s.name(c) != "Bounty Hunter"]
    s.apply("play Shuttle for Bounty Hunter")
    assert zone(s, IMPERIAL, "hand") == ["Bounty Hunter"]
    assert s.deck[IMPERIAL] != order and sorted(s.deck[IMPERIAL]) == sorted(order)
    assert "Imperial plays Shuttle and takes Bounty Hunter from the deck; the deck is shuffled" in (
        s.log_lines(REBEL)
    )


def test_card_cybernetics_takes_a_hero_from_the_discard_pile() -> None:
    s = start(
        player="imperial",
        phase="end",
        imperial={"hand": ["Cybernetics"], "discard": ["Bounty Hunter", "Troopers"]},
    )
    assert legal(s) == {"end turn", "play Cybernetics for Bounty Hunter"}
    s.apply("play Cybernetics for Bounty Hunter")
    assert zone(s, IMPERIAL, "hand") == ["Bounty Hunter"]


def test_card_saboteur_destroys_an_opposing_facility() -> None:
    s = start(
        player="imperial",
        phase="end",
        rebel={"inactive": ["Ion Cannon", "Rebel Base"]},
        imperial={"hand": ["Saboteur"]},
    )
    assert legal(s) == {"end turn", "play Saboteur on Ion Cannon"}  # the Base is no facility
    s.apply("play Saboteur on Ion Cannon")
    assert zone(s, REBEL, "discard") == ["Ion Cannon"]
    assert zone(s, REBEL, "inactive") == ["Rebel Base"]


def test_card_trap_gives_defending_units_plus_two() -> None:
    # Grav Cycles and a Soldier (3) against Troopers (1): with a Trap the Troopers are 3: tie.
    s = start(
        phase="attack",
        rebel={"active": ["Grav Cycles", "Rebel Soldier"]},
        imperial={"active": ["Troopers"], "hand": ["Trap"]},
        battle={"groups": [{"kind": "ground", "units": ["Grav Cycles", "Rebel Soldier"],
                            "blockers": ["Troopers"]}]},
    )  # fmt: skip
    play(s, "pass", "play Trap", "pass", "pass")
    assert zone(s, REBEL, "inactive") == [] and zone(s, IMPERIAL, "active") == []
    assert zone(s, IMPERIAL, "discard") == ["Trap", "Troopers"]
