"""Rulings on the deploy and end phases: R23, R25-R29 and R31."""

from __future__ import annotations

import pytest

from rebelspace.engine import IllegalActionError
from tests.engine.helpers import IMPERIAL, REBEL, attached, legal, play, start, step, zone

# ----------------------------------------------------------------------------- R23 deploy


def test_r23_deploy_up_to_three_points_of_cost() -> None:
    s = start(
        phase="deploy",
        rebel={"hand": ["Rebel Warship", "Air Speeders", "Rebel Soldier", "Grav Cycles"]},
    )
    assert s.view(REBEL).deploy_points == 3
    assert {"deploy Rebel Warship", "deploy Air Speeders", "deploy Rebel Soldier"} <= legal(s)
    s.apply("deploy Air Speeders")
    assert s.points == 1
    texts = legal(s)
    assert "deploy Rebel Warship" not in texts and "deploy Air Speeders" not in texts
    with pytest.raises(IllegalActionError, match="costs more than the 1 deploy point"):
        s.apply("deploy Rebel Warship")
    s.apply("deploy Rebel Soldier")
    assert legal(s) == {"done deploying"}  # Grav Cycles (1) no longer fits


def test_r23_deployed_units_go_to_the_inactive_zone() -> None:
    s = start(phase="deploy", rebel={"hand": ["Rebel Soldier", "Ion Cannon"]})
    s.apply("deploy Ion Cannon")
    assert zone(s, REBEL, "inactive") == ["Ion Cannon"]
    assert zone(s, REBEL, "active") == [] and zone(s, REBEL, "hand") == ["Rebel Soldier"]


def test_r23_unspent_points_are_lost() -> None:
    s = start(phase="deploy", rebel={"hand": ["Rebel Soldier"] * 6})
    play(s, "deploy Rebel Soldier", "done deploying", "end turn")
    play(s, "draw 1", "done deploying", "end turn")  # the Imperial turn
    play(s, "draw 1", "no attack")
    assert s.phase == "deploy" and s.view(REBEL).deploy_points == 3


def test_r23_attachments_go_on_a_hero_in_either_zone_with_no_limit_per_hero() -> None:
    s = start(
        phase="deploy",
        rebel={
            "active": ["Princess"],
            "inactive": ["Smuggler"],
            "hand": ["Laser Sword", "Robot Sidekick", "Alien Companion"],
        },
    )
    assert {
        "attach Laser Sword to Princess",
        "attach Laser Sword to Smuggler",
        "attach Alien Companion to Smuggler",
    } <= legal(s)
    play(s, "attach Laser Sword to Smuggler", "attach Robot Sidekick to Smuggler")
    assert attached(s, "Smuggler") == ["Laser Sword", "Robot Sidekick"]
    assert s.points == 1  # their costs come out of the 3 points
    assert "attach Alien Companion to Smuggler" not in legal(s)  # costs 2


def test_r23_attachments_need_a_hero_the_player_controls() -> None:
    s = start(
        phase="deploy",
        rebel={"active": ["Rebel Soldier"], "hand": ["Laser Sword"]},
        imperial={"active": ["Bounty Hunter"]},
    )
    assert legal(s) == {"done deploying"}
    # A converted hero is the player's to equip (R28).
    s = start(
        phase="deploy",
        rebel={"active": [{"name": "Bounty Hunter", "attachments": ["Convert"]}],
               "hand": ["Laser Sword"]},
        imperial={"active": ["Alien Crime Boss"]},
    )  # fmt: skip
    assert legal(s) == {"done deploying", "attach Laser Sword to Bounty Hunter"}


def test_r23_psion_and_action_cards_are_not_deployed() -> None:
    s = start(
        phase="deploy",
        rebel={
            "active": ["Young Protagonist"],
            "hand": ["Danger Sense", "True Aim", "Surprise Attack", "Convert", "Rebel Spies"],
        },
    )
    assert legal(s) == {"done deploying"}


# ----------------------------------------------------------------------------- R25 end phase


def test_r25_end_phase_cards_any_number_in_any_order() -> None:
    s = start(
        phase="end",
        rebel={"hand": ["Rebel Spies", "Recruit", "Medi-Bot"], "discard": ["Smuggler"]},
        imperial={"active": ["Bounty Hunter"]},
    )
    assert {"play Rebel Spies", "play Medi-Bot for Smuggler", "end turn"} <= legal(s)
    play(s, "play Medi-Bot for Smuggler", "play Rebel Spies", "play Recruit for Princess")
    assert zone(s, REBEL, "hand") == ["Princess", "Smuggler"]
    assert legal(s) == {"end turn"}


def test_r25_only_the_active_player_acts_in_the_end_phase() -> None:
    s = start(
        phase="end",
        rebel={"active": ["Princess"], "hand": ["Rebel Spies"]},
        imperial={"hand": ["Imperial Spy", "Traitor", "Trap"]},
    )
    assert s.to_move == REBEL
    assert legal(s) == {"end turn", "play Rebel Spies"}
    with pytest.raises(IllegalActionError):
        s.apply("play Imperial Spy")
    with pytest.raises(IllegalActionError, match="Rebel's decision"):
        s.apply("end turn", player=IMPERIAL)


def test_r25_attack_phase_cards_are_not_played_in_the_end_phase() -> None:
    s = start(phase="end", rebel={"hand": ["Surprise Attack", "Multiple Targets"]})
    assert legal(s) == {"end turn"}


def test_r25_discard_down_to_twelve_cards_of_the_players_choice() -> None:
    hand = ["Rebel Soldier"] * 10 + ["Princess", "Recruit", "Grav Cycles", "Grav Cycles"]
    s = start(phase="end", rebel={"hand": hand})
    s.apply("end turn")
    assert (step(s), s.to_move, s.player) == ("discard", REBEL, REBEL)
    assert legal(s) == {
        "discard Rebel Soldier",
        "discard Princess",
        "discard Recruit",
        "discard Grav Cycles",
    }
    s.apply("discard Princess")
    assert step(s) == "discard"
    s.apply("discard Grav Cycles")
    assert len(s.hand[REBEL]) == 12
    assert (s.player, s.phase) == (IMPERIAL, "draw")
    assert zone(s, REBEL, "discard") == ["Grav Cycles", "Princess"]


def test_r25_no_discard_at_twelve_cards_and_the_limit_is_a_rules_option() -> None:
    s = start(phase="end", rebel={"hand": ["Rebel Soldier"] * 10 + ["Grav Cycles"] * 2})
    s.apply("end turn")
    assert (s.player, s.phase) == (IMPERIAL, "draw")
    s = start(rules={"hand_limit": 3}, phase="end", rebel={"hand": ["Rebel Soldier"] * 4})
    s.apply("end turn")
    assert step(s) == "discard"
    s.apply("discard Rebel Soldier")
    assert len(s.hand[REBEL]) == 3 and s.player == IMPERIAL


# ----------------------------------------------------------------------------- R26 search cards


def test_r26_recruit_takes_a_hero_from_the_deck_shuffles_it_and_shows_the_hero() -> None:
    s = start(phase="end", rebel={"hand": ["Recruit"]})
    deck_before = [c for c in s.deck[REBEL] if s.name(c) != "Princess"]
    texts = legal(s)
    heroes = {"Young Protagonist", "Princess", "Smuggler", "Wise Mentor", "Rebel Commander",
              "Superior Pilot"}  # fmt: skip
    assert {t for t in texts if t.startswith("play Recruit")} == {
        f"play Recruit for {h}" for h in heroes
    }
    s.apply("play Recruit for Princess")
    assert "Princess" in zone(s, REBEL, "hand") and "Princess" not in zone(s, REBEL, "deck")
    assert sorted(s.deck[REBEL]) == sorted(deck_before)
    assert s.deck[REBEL] != deck_before  # shuffled
    line = "Rebel plays Recruit and takes Princess from the deck; the deck is shuffled"
    assert line in s.log_lines(IMPERIAL) and line in s.log_lines(REBEL)


def test_r26_search_needs_a_hero_to_take() -> None:
    heroes = ["Young Protagonist", "Princess", "Smuggler", "Wise Mentor", "Rebel Commander",
              "Superior Pilot"]  # fmt: skip
    s = start(phase="end", rebel={"hand": ["Recruit", "Medi-Bot"], "active": heroes})
    assert legal(s) == {"end turn"}  # no hero in the deck, none in the discard pile


def test_r26_medi_bot_takes_a_hero_from_the_discard_pile() -> None:
    s = start(phase="end", rebel={"hand": ["Medi-Bot"], "discard": ["Smuggler", "Rebel Soldier"]})
    assert legal(s) == {"end turn", "play Medi-Bot for Smuggler"}
    s.apply("play Medi-Bot for Smuggler")
    assert zone(s, REBEL, "hand") == ["Smuggler"]
    assert zone(s, REBEL, "discard") == ["Medi-Bot", "Rebel Soldier"]
    assert "Rebel plays Medi-Bot and takes Smuggler from the discard pile" in s.log_lines(IMPERIAL)


# ----------------------------------------------------------------------------- R27 spies


def test_r27_spies_show_the_opponents_hand_once_to_the_spy_only() -> None:
    s = start(phase="end", rebel={"hand": ["Rebel Spies"]}, imperial={"hand": ["Trap", "ESP"]})
    s.apply("play Rebel Spies")
    assert s.view(REBEL).revealed_hands == ((1, ("ESP", "Trap")),)
    assert s.view(IMPERIAL).revealed_hands == ()
    line = "Imperial's hand: ESP, Trap"
    assert line in s.log_lines(REBEL) and line not in s.log_lines(IMPERIAL)
    assert s.view(REBEL).opponent.hand is None  # not a lasting window
    # A snapshot: the Imperial's next draw does not show.
    play(s, "end turn", "draw 2")
    assert s.view(REBEL).revealed_hands == ((1, ("ESP", "Trap")),)


# ----------------------------------------------------------------------------- R28 Convert/Traitor


def test_r28_convert_takes_an_opposing_hero_with_its_attachments() -> None:
    s = start(
        phase="end",
        rebel={"hand": ["Convert"]},
        imperial={
            "active": [{"name": "Bounty Hunter", "attachments": ["Plasma Sword"]}],
            "inactive": ["Alien Crime Boss"],
        },
    )
    assert {"play Convert on Bounty Hunter", "play Convert on Alien Crime Boss"} <= legal(s)
    s.apply("play Convert on Bounty Hunter")
    assert zone(s, REBEL, "inactive") == ["Bounty Hunter"]
    assert zone(s, IMPERIAL, "active") == []
    assert attached(s, "Bounty Hunter") == ["Convert", "Plasma Sword"]
    assert "Convert" not in zone(s, REBEL, "discard")
    units = s.view(IMPERIAL).opponent.inactive
    assert units[0].name == "Bounty Hunter" and units[0].owner == "imperial"


def test_r28_a_later_traitor_takes_the_hero_back_and_the_convert_is_discarded() -> None:
    s = start(
        player="imperial",
        phase="end",
        rebel={"active": [{"name": "Bounty Hunter", "attachments": ["Convert"]}]},
        imperial={"hand": ["Traitor"]},
    )
    s.apply("play Traitor on Bounty Hunter")
    assert zone(s, IMPERIAL, "inactive") == ["Bounty Hunter"]
    assert attached(s, "Bounty Hunter") == ["Traitor"]
    assert zone(s, REBEL, "discard") == ["Convert"]


def test_r28_a_converted_mysterious_emperor_gives_its_extra_draw_to_its_controller() -> None:
    s = start(
        phase="draw",
        rebel={"inactive": [{"name": "Mysterious Emperor", "attachments": ["Convert"]}]},
    )
    assert legal(s) == {"draw 1", "draw 2", "draw 3"}
    s = start(
        player="imperial",
        phase="draw",
        rebel={"inactive": [{"name": "Mysterious Emperor", "attachments": ["Convert"]}]},
    )
    assert legal(s) == {"draw 1", "draw 2"}


def test_r28_a_destroyed_converted_hero_sends_the_marker_to_its_own_owners_discard() -> None:
    s = start(
        player="imperial",
        phase="attack",
        rebel={"active": ["Air Speeders", "Air Speeders"]},
        imperial={"active": [{"name": "Princess", "attachments": ["Traitor"]}]},
        battle={"groups": [{"kind": "ground", "units": ["Princess"],
                            "blockers": ["Air Speeders", "Air Speeders"]}]},
    )  # fmt: skip
    play(s, "pass", "pass")
    assert zone(s, REBEL, "discard") == ["Princess"]
    assert zone(s, IMPERIAL, "discard") == ["Traitor"]


# ----------------------------------------------------------------------------- R29 Saboteur


def test_r29_saboteur_destroys_one_opposing_facility_in_either_zone() -> None:
    s = start(
        player="imperial",
        phase="end",
        rebel={"active": ["Ion Cannon", "Rebel Base"], "inactive": ["Defense Shields"]},
        imperial={"hand": ["Saboteur"], "active": ["Fixed Defenses"]},
    )
    assert {t for t in legal(s) if t.startswith("play Saboteur")} == {
        "play Saboteur on Ion Cannon",
        "play Saboteur on Defense Shields",
    }
    s.apply("play Saboteur on Defense Shields")
    assert zone(s, REBEL, "discard") == ["Defense Shields"]
    assert zone(s, IMPERIAL, "discard") == ["Saboteur"]
    assert zone(s, REBEL, "active") == ["Ion Cannon", "Rebel Base"]
    assert legal(s) == {"end turn"}


def test_r29_saboteur_needs_a_facility_to_destroy() -> None:
    s = start(
        player="imperial",
        phase="end",
        rebel={"active": ["Rebel Base", "Rebel Soldier"]},
        imperial={"hand": ["Saboteur"]},
    )
    assert legal(s) == {"end turn"}


# ----------------------------------------------------------------------------- R31 action cards


def test_r31_action_cards_cost_nothing_and_go_to_their_owners_discard_once_resolved() -> None:
    s = start(
        phase="attack",
        rebel={"active": ["Rebel Soldier"], "hand": ["Surprise Attack"]},
        imperial={"active": ["Troopers"], "hand": ["Trap"]},
        battle={"groups": [{"kind": "ground", "units": ["Rebel Soldier"],
                            "blockers": ["Troopers"]}]},
    )  # fmt: skip
    play(s, "play Surprise Attack", "play Trap")
    assert zone(s, REBEL, "discard") == ["Surprise Attack"]
    assert zone(s, IMPERIAL, "discard") == ["Trap"]
    s = start(phase="end", rebel={"hand": ["Rebel Spies", "Recruit"]})
    play(s, "play Rebel Spies", "play Recruit for Smuggler")
    assert zone(s, REBEL, "discard") == ["Rebel Spies", "Recruit"]
    assert s.view(REBEL).deploy_points is None  # no points in the end phase, none spent


def test_r31_convert_and_traitor_stay_attached_instead() -> None:
    s = start(
        player="imperial",
        phase="end",
        rebel={"active": ["Smuggler"]},
        imperial={"hand": ["Traitor"]},
    )
    s.apply("play Traitor on Smuggler")
    assert zone(s, IMPERIAL, "discard") == [] and attached(s, "Smuggler") == ["Traitor"]
