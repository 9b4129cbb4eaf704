"""Rulings on cards, zones and the turn: R1-R10 and the project's R37.

Each test is named after the ruling it checks and fails if the engine breaks that ruling.
"""

from __future__ import annotations

from collections import Counter

import pytest

from rebelspace.engine import IllegalActionError, RulesOptions, load_cards, new_game
from rebelspace.engine.cards import deck_report
from rebelspace.engine.options import OptionsError
from tests.engine.helpers import IMPERIAL, REBEL, attached, legal, play, start, step, zone

# ----------------------------------------------------------------------------- R1 deck lists


def test_r1_each_deck_holds_the_printed_list_76_rebel_67_imperial() -> None:
    game = new_game(seed=11)
    rebel = [*game.deck[REBEL], *game.hand[REBEL]]
    imperial = [*game.deck[IMPERIAL], *game.hand[IMPERIAL]]
    assert (len(rebel), len(imperial)) == (76, 67)
    counts = Counter(game.name(c) for c in rebel)
    assert counts["Stunt Fighters"] == 15 and counts["Rebel Soldier"] == 10
    assert counts["Surprise Attack"] == 4 and counts["Princess"] == 1
    counts = Counter(game.name(c) for c in imperial)
    assert counts["Troopers"] == 10 and counts["Space Cruiser"] == 5 and counts["Trap"] == 2
    # Every card of a deck is its owner's: the lists never mix.
    db = load_cards()
    assert all(db.by_name(game.name(c)).side == REBEL for c in rebel)
    assert all(db.by_name(game.name(c)).side == IMPERIAL for c in imperial)


def test_r1_deck_check_reports_the_difference_from_the_stated_65() -> None:
    report = deck_report(load_cards())
    assert "Rebel deck: 76 cards (stated 65, difference +11)" in report
    assert "Imperial deck: 67 cards (stated 65, difference +2)" in report


def test_r1_edited_card_list_changes_the_deck() -> None:
    cards = load_cards().with_changes({"Rebel Soldier": {"count": 0}})
    game = new_game(seed=2, cards=cards)
    assert len(game.deck[REBEL]) + len(game.hand[REBEL]) == 66
    assert "Rebel Soldier" not in {game.name(c) for c in game.deck[REBEL] + game.hand[REBEL]}


# ----------------------------------------------------------------------------- R2 card types


def test_r2_gs_unit_may_start_a_ground_or_a_space_group() -> None:
    s = start(player="imperial", phase="attack", imperial={"active": ["Robotic Probe"]})
    assert {"new ground group with Robotic Probe", "new space group with Robotic Probe"} <= legal(s)


def test_r2_gs_unit_blocks_ground_and_space_groups() -> None:
    s = start(
        phase="attack",
        rebel={"active": ["Rebel Soldier", "Stunt Fighters"]},
        imperial={"active": ["Fixed Defenses", "Fixed Defenses"]},
        battle={
            "step": "block",
            "groups": [
                {"kind": "ground", "units": ["Rebel Soldier"]},
                {"kind": "space", "units": ["Stunt Fighters"]},
            ],
        },
    )
    assert {"block group 1 with Fixed Defenses", "block group 2 with Fixed Defenses"} <= legal(s)


def test_r2_attachments_psion_and_action_cards_are_not_units() -> None:
    s = start(
        phase="deploy",
        rebel={
            "active": ["Princess"],
            "hand": ["Laser Sword", "Robot Sidekick", "Danger Sense", "Recruit", "Rebel Soldier"],
        },
    )
    texts = legal(s)
    assert "deploy Rebel Soldier" in texts
    for card in ("Laser Sword", "Robot Sidekick", "Danger Sense", "Recruit"):
        assert f"deploy {card}" not in texts
    assert {"attach Laser Sword to Princess", "attach Robot Sidekick to Princess"} <= texts
    with pytest.raises(IllegalActionError):
        s.apply("deploy Laser Sword")


# ----------------------------------------------------------------------------- R3 keywords


def test_r3_only_fighters_carry_pilots_not_interceptors_or_bombers() -> None:
    s = start(
        player="imperial",
        phase="attack",
        imperial={"active": ["Interceptors", "Bombers", "Elite Interceptors", "Bounty Hunter"]},
    )
    play(s, "new space group with Interceptors", "add Bombers to group 1")
    assert "add Bounty Hunter to group 1" not in legal(s)
    play(s, "new space group with Elite Interceptors")
    assert "add Bounty Hunter to group 2" in legal(s)


def test_r3_only_ships_carry_captains_not_the_giant_space_station() -> None:
    s = start(
        player="imperial",
        phase="attack",
        imperial={"active": ["Giant Space Station", "Space Cruiser", "Imperial Captain"]},
    )
    play(s, "new space group with Giant Space Station")
    assert "add Imperial Captain to group 1" not in legal(s)
    play(s, "new space group with Space Cruiser")
    assert "add Imperial Captain to group 2" in legal(s)


def test_r3_giant_space_station_is_not_a_ship_for_ion_cannon_or_shields() -> None:
    s = start(
        player="imperial",
        phase="attack",
        rebel={"active": ["Ion Cannon", "Defense Shields"], "deck_size": 10},
        imperial={"active": ["Giant Space Station"]},
    )
    play(s, "new space group with Giant Space Station", "attack")
    # No Ion Cannon decision (nothing it may hit), no space blocker: straight to tricks.
    assert step(s) == "battle tricks"
    assert legal(s) == {"pass"}
    play(s, "pass", "pass")
    assert len(s.deck[REBEL]) == 7  # the station's 3 damage, not stopped by the Shields


def test_r3_rebel_base_is_a_plain_ground_unit_that_attacks_and_blocks() -> None:
    s = start(phase="attack", rebel={"active": ["Rebel Base"]})
    assert "new ground group with Rebel Base" in legal(s)
    s = start(
        player="imperial",
        phase="attack",
        rebel={"active": ["Rebel Base"]},
        imperial={"active": ["Troopers"]},
    )
    play(s, "new ground group with Troopers", "attack")
    assert "block group 1 with Rebel Base" in legal(s)


def test_r3_saboteur_cannot_destroy_the_rebel_base() -> None:
    s = start(
        player="imperial",
        phase="end",
        rebel={"active": ["Rebel Base", "Defense Shields"]},
        imperial={"hand": ["Saboteur"]},
    )
    texts = legal(s)
    assert "play Saboteur on Defense Shields" in texts
    assert "play Saboteur on Rebel Base" not in texts


# ----------------------------------------------------------------------------- R4 zones


def test_r4_a_converted_hero_goes_to_its_owners_discard_pile() -> None:
    s = start(
        phase="attack",
        rebel={"active": [{"name": "Bounty Hunter", "attachments": ["Convert", "Laser Sword"]}]},
        imperial={"active": ["Battle Walkers", "Battle Walkers"]},
        battle={
            "step": "tricks",
            "groups": [
                {
                    "kind": "ground",
                    "units": ["Bounty Hunter"],
                    "blockers": ["Battle Walkers", "Battle Walkers"],
                }
            ],
        },
    )
    play(s, "pass", "pass")  # 9 against 10: the Bounty Hunter is destroyed
    assert "Bounty Hunter" in zone(s, IMPERIAL, "discard")
    assert "Bounty Hunter" not in zone(s, REBEL, "discard")
    assert {"Convert", "Laser Sword"} <= set(zone(s, REBEL, "discard"))


def test_r4_each_player_has_deck_hand_discard_inactive_and_active_zones() -> None:
    s = start(
        phase="deploy",
        rebel={
            "hand": ["Rebel Soldier"],
            "active": ["Grav Cycles"],
            "inactive": ["Air Speeders"],
            "discard": ["Princess"],
        },
    )
    assert zone(s, REBEL, "hand") == ["Rebel Soldier"]
    assert zone(s, REBEL, "active") == ["Grav Cycles"]
    assert zone(s, REBEL, "inactive") == ["Air Speeders"]
    assert "Princess" in zone(s, REBEL, "discard")
    assert len(s.deck[REBEL]) == 76 - 4
    view = s.view(REBEL).you
    assert [u.name for u in view.active] == ["Grav Cycles"]
    assert [u.name for u in view.inactive] == ["Air Speeders"]
    assert "Princess" in view.discard and view.hand == ("Rebel Soldier",)


# ----------------------------------------------------------------------------- R5 information


def test_r5_hands_are_hidden_and_sizes_public() -> None:
    s = start(
        phase="deploy",
        rebel={"hand": ["Princess", "Rebel Spies"], "active": ["Grav Cycles"]},
        imperial={
            "hand": ["Trap", "Troopers", "ESP"],
            "inactive": ["Battle Walkers"],
            "discard": ["Bounty Hunter"],
        },
    )
    rebel = s.view(REBEL)
    assert rebel.opponent.discard == ("Bounty Hunter",)
    assert rebel.you.hand == ("Princess", "Rebel Spies")
    assert rebel.opponent.hand is None
    assert rebel.opponent.hand_size == 3
    assert rebel.opponent.deck_size == len(s.deck[IMPERIAL])
    assert [u.name for u in rebel.opponent.inactive] == ["Battle Walkers"]
    imperial = s.view(IMPERIAL)
    assert imperial.opponent.hand is None and imperial.opponent.hand_size == 2
    assert "Trap" not in str(rebel.to_dict()) and "Princess" not in str(imperial.to_dict())


def test_r5_deck_order_is_hidden_from_its_owner() -> None:
    s = new_game(seed=5)
    view = s.view(REBEL)
    assert list(view.own_deck_contents) == sorted(s.name(c) for c in s.deck[REBEL])
    assert "own_deck_contents" in view.to_dict()  # contents only, sorted, never the order
    assert s.view(IMPERIAL).own_deck_contents != view.own_deck_contents


def test_r5_log_hides_the_other_players_draws() -> None:
    s = new_game(seed=5)
    s.apply("draw 2")
    drawn = [s.name(c) for c in s.hand[REBEL][-2:]]
    secret = f"Rebel draws {', '.join(drawn)}"
    assert secret in s.log_lines(REBEL)
    assert secret not in s.log_lines(IMPERIAL)
    assert "Rebel draws 2 cards" in s.log_lines(IMPERIAL)


# ----------------------------------------------------------------------------- R6 setup


def test_r6_setup_deals_five_each_and_the_rebel_moves_first() -> None:
    s = new_game(seed=9)
    assert (len(s.hand[REBEL]), len(s.hand[IMPERIAL])) == (5, 5)
    assert (len(s.deck[REBEL]), len(s.deck[IMPERIAL])) == (71, 62)
    assert (s.turn, s.player, s.to_move, s.phase) == (1, REBEL, REBEL, "draw")
    assert not s.active[REBEL] and not s.inactive[IMPERIAL] and not s.discard[REBEL]


def test_r6_first_player_option_lets_the_imperial_move_first() -> None:
    s = new_game(seed=9, options=RulesOptions(first_player="imperial"))
    assert (s.turn, s.player, s.to_move, s.phase) == (1, IMPERIAL, IMPERIAL, "draw")
    assert s.legal_action_texts() == ["draw 1", "draw 2"]
    # The same shuffles as the standard game: only who starts changes.
    assert s.deck == new_game(seed=9).deck


def test_r6_first_player_option_rejects_an_unknown_side() -> None:
    with pytest.raises(OptionsError, match="first_player"):
        RulesOptions(first_player="droid")


def test_r6_decks_are_shuffled_by_the_seed() -> None:
    a, b, c = new_game(seed=1), new_game(seed=1), new_game(seed=2)
    assert a.deck == b.deck and a.hand == b.hand
    assert a.deck[REBEL] != c.deck[REBEL] and a.deck[IMPERIAL] != c.deck[IMPERIAL]
    # Not left in card-list order.
    assert a.deck[REBEL] + a.hand[REBEL][::-1] != sorted(a.deck[REBEL] + a.hand[REBEL])


# ----------------------------------------------------------------------------- R7 five phases


def test_r7_a_turn_runs_draw_activation_attack_deploy_end() -> None:
    s = start(
        turn=4,
        phase="draw",
        rebel={"inactive": ["Rebel Soldier"], "hand": ["Grav Cycles"]},
        imperial={"active": ["Troopers"]},
    )
    phases = [s.phase]
    s.apply("draw 1")
    assert zone(s, REBEL, "active") == ["Rebel Soldier"]  # activation happened
    phases.append(s.phase)
    s.apply("no attack")
    phases.append(s.phase)
    s.apply("deploy Grav Cycles")
    s.apply("done deploying")
    phases.append(s.phase)
    assert legal(s) == {"end turn"}
    s.apply("end turn")
    assert phases == ["draw", "attack", "deploy", "end"]
    assert (s.turn, s.player, s.phase) == (5, IMPERIAL, "draw")


# ----------------------------------------------------------------------------- R8 draw


def test_r8_draw_one_or_two_by_choice() -> None:
    s = start(phase="draw")
    assert legal(s) == {"draw 1", "draw 2"}
    before = len(s.deck[REBEL])
    s.apply("draw 2")
    assert (len(s.hand[REBEL]), len(s.deck[REBEL])) == (2, before - 2)
    s = start(phase="draw")
    s.apply("draw 1")
    assert len(s.hand[REBEL]) == 1


def test_r8_rebel_base_adds_one_draw_even_while_inactive() -> None:
    s = start(phase="draw", rebel={"inactive": ["Rebel Base"]})
    assert legal(s) == {"draw 1", "draw 2", "draw 3"}
    s.apply("draw 3")
    assert len(s.hand[REBEL]) == 3


def test_r8_extra_draws_add_up_and_are_never_forced() -> None:
    # The Rebel controls the Rebel Base and a converted Mysterious Emperor (R28).
    s = start(
        phase="draw",
        rebel={
            "active": ["Rebel Base", {"name": "Mysterious Emperor", "attachments": ["Convert"]}]
        },
    )
    assert legal(s) == {"draw 1", "draw 2", "draw 3", "draw 4"}


def test_r8_extra_draw_counts_only_for_its_controller() -> None:
    s = start(player="imperial", phase="draw", rebel={"active": ["Rebel Base"]})
    assert legal(s) == {"draw 1", "draw 2"}


# ----------------------------------------------------------------------------- R9 losing


def test_r9_damage_that_empties_the_deck_loses() -> None:
    s = start(
        phase="attack",
        rebel={"active": ["Rebel Soldier", "Rebel Soldier", "Rebel Soldier"]},
        imperial={"deck_size": 2},
    )
    play(s, "new ground group with Rebel Soldier", "add Rebel Soldier to group 1")
    play(s, "add Rebel Soldier to group 1", "attack", "pass", "pass")
    assert s.outcome is not None and s.winner == REBEL
    assert "Imperial's deck is empty" in s.outcome.reason
    assert s.is_over and s.to_move == -1 and s.legal_actions() == []
    assert len(s.deck[IMPERIAL]) == 0
    with pytest.raises(IllegalActionError, match="game is over"):
        s.apply("end turn")


def test_r9_drawing_the_last_card_loses_at_once() -> None:
    s = start(phase="draw", rebel={"deck_size": 2})
    s.apply("draw 2")
    assert s.winner == IMPERIAL and "drew the last card" in str(s.outcome)
    assert s.phase == "over"


def test_r9_one_card_left_loses_at_the_next_draw() -> None:
    s = start(player="imperial", phase="draw", imperial={"deck_size": 1})
    assert legal(s) == {"draw 1"}
    s.apply("draw 1")
    assert s.winner == REBEL


def test_r9_a_search_that_empties_the_deck_loses() -> None:
    s = start(phase="end", rebel={"hand": ["Recruit"], "deck": ["Princess"]})
    s.apply("play Recruit for Princess")
    assert s.deck[REBEL] == []
    assert s.winner == IMPERIAL and "Recruit" in str(s.outcome)
    assert "Princess" in zone(s, REBEL, "hand")


def test_r9_is_checked_once_all_battles_and_damage_of_the_attack_phase_are_over() -> None:
    s = start(
        phase="attack",
        rebel={
            "active": [
                "Rebel Soldier", "Rebel Soldier", "Rebel Soldier", "Air Speeders", "Rebel Soldier",
            ],
        },
        imperial={"active": ["Troopers"], "deck_size": 2},
        battle={
            "step": "tricks",
            "groups": [
                {"kind": "ground", "units": ["Rebel Soldier", "Rebel Soldier", "Rebel Soldier"]},
                {"kind": "ground", "units": ["Air Speeders", "Rebel Soldier"],
                 "blockers": ["Troopers"]},
            ],
        },
    )  # fmt: skip
    play(s, "pass", "pass")
    # Group 2 won; the Imperial player still picks its casualty before any damage is dealt.
    assert s.outcome is None
    assert len(s.deck[IMPERIAL]) == 2
    assert legal(s) == {"pick Rebel Soldier as a casualty"}
    s.apply("pick Rebel Soldier as a casualty")
    assert s.winner == REBEL and len(s.deck[IMPERIAL]) == 0


def test_r9_nothing_else_ends_the_game() -> None:
    # No hand, no units in play, a nearly empty deck: the game goes on while a card is left.
    s = start(phase="draw", rebel={"deck_size": 3}, imperial={"deck_size": 3})
    play(s, "draw 1")
    assert s.outcome is None and s.phase == "deploy"
    play(s, "done deploying", "end turn")
    assert s.outcome is None and (s.player, s.phase) == (IMPERIAL, "draw")
    play(s, "draw 1", "done deploying", "end turn", "draw 1")
    assert s.outcome is None and len(s.deck[REBEL]) == 1


# ----------------------------------------------------------------------------- R10 activation


def test_r10_activation_moves_every_inactive_unit_to_the_active_zone() -> None:
    s = start(
        phase="draw",
        rebel={
            "active": ["Rebel Soldier"],
            "inactive": [
                "Air Speeders",
                {"name": "Princess", "attachments": ["Laser Sword"]},
                {"name": "Bounty Hunter", "attachments": ["Convert"]},
                "Ion Cannon",
            ],
        },
        imperial={"inactive": ["Troopers"]},
    )
    s.apply("draw 1")
    assert zone(s, REBEL, "active") == [
        "Air Speeders", "Bounty Hunter", "Ion Cannon", "Princess", "Rebel Soldier",
    ]  # fmt: skip
    assert s.inactive[REBEL] == []
    assert zone(s, IMPERIAL, "inactive") == ["Troopers"]  # only the player's own units
    assert attached(s, "Princess") == ["Laser Sword"]  # attachments go with their hero
    assert attached(s, "Bounty Hunter") == ["Convert"]


# ----------------------------------------------------------------------------- R37 draw limit


def test_r37_a_draw_takes_at_most_what_is_left_in_the_deck() -> None:
    s = start(phase="draw", rebel={"inactive": ["Rebel Base"], "deck_size": 2})
    assert legal(s) == {"draw 1", "draw 2"}
    with pytest.raises(IllegalActionError):
        s.apply("draw 3")
    s.apply("draw 1")
    assert s.outcome is None and len(s.deck[REBEL]) == 1


def test_r37_drawing_the_last_card_loses_even_with_extra_draws() -> None:
    s = start(phase="draw", rebel={"inactive": ["Rebel Base"], "deck_size": 3})
    s.apply("draw 3")
    assert s.winner == IMPERIAL
