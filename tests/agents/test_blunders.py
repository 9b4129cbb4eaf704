"""Blunder detection (``rebelspace.agents.blunders``) on constructed positions: for each kind,
a case that is a blunder and one that is not."""

from __future__ import annotations

from collections.abc import Sequence

from rebelspace.agents.blunders import GameBlunders, find_blunders
from rebelspace.agents.heuristic import BEFORE, heuristic_action, styled_action
from rebelspace.engine import GameState, Step, new_game
from tests.engine.helpers import blocked_battle, start

REBEL, IMPERIAL = 0, 1


def blunders(state: GameState, texts: Sequence[str]) -> GameBlunders:
    """``find_blunders`` of the actions ``texts`` from ``state`` (left as it is)."""
    s = state.clone(keep_log=True)
    ids = []
    for text in texts:
        a = s.parse_action(text)
        s.apply(a)
        ids.append(a)
    return find_blunders(state, ids)


def card_names(state: GameState, found: GameBlunders) -> list[tuple[str, bool]]:
    types = state.ctx.cards.types
    return [(types[c.card].name, c.changed) for c in found.cards]


# ----------------------------------------------------------------------------- attacks


def test_a_lone_soldier_blocked_by_walkers_is_an_attack_for_nothing() -> None:
    game = start(
        phase="attack",
        rebel={"active": ["Rebel Soldier"]},
        imperial={"active": ["Battle Walkers"]},
    )
    found = blunders(
        game,
        [
            "new ground group with Rebel Soldier",
            "attack",
            "block group 1 with Battle Walkers",
            "done blocking",
            "pass",
            "pass",
        ],
    )
    assert [(a.player, a.groups, a.for_nothing, a.visible) for a in found.attacks] == [
        (REBEL, 1, True, True)
    ]


def test_a_lost_group_is_no_blunder_when_another_group_deals_damage() -> None:
    game = start(
        phase="attack",
        rebel={"active": ["Rebel Soldier", "Young Protagonist"]},
        imperial={"active": ["Battle Walkers"]},
    )
    found = blunders(
        game,
        [
            "new ground group with Rebel Soldier",
            "new ground group with Young Protagonist",
            "attack",
            "block group 1 with Battle Walkers",
            "done blocking",
            "pass",
            "pass",
        ],
    )
    assert [(a.groups, a.for_nothing) for a in found.attacks] == [(2, False)]


def test_a_battle_lost_only_to_a_trap_is_for_nothing_but_not_on_visible_numbers() -> None:
    # Two Grav Cycles (4) beat the Squad Leader (3) on the open numbers; the Trap makes it 5.
    game = start(
        phase="attack",
        rebel={"active": ["Grav Cycles", "Grav Cycles"]},
        imperial={"hand": ["Trap"], "active": ["Squad Leader"]},
    )
    found = blunders(
        game,
        [
            "new ground group with Grav Cycles",
            "add Grav Cycles to group 1",
            "attack",
            "block group 1 with Squad Leader",
            "done blocking",
            "pass",
            "play Trap",
            "pass",
            "pass",
        ],
    )
    assert [(a.for_nothing, a.visible) for a in found.attacks] == [(True, False)]


# ----------------------------------------------------------------------------- battle cards


def _soldiers_against_squad_leader(hand: list[str], defender_hand: list[str]) -> GameState:
    return blocked_battle(["Rebel Soldier"] * 2, ["Squad Leader"], hand, defender_hand)


def test_a_surprise_attack_that_turns_a_lost_battle_changed_something() -> None:
    game = _soldiers_against_squad_leader(["Surprise Attack"], [])
    found = blunders(game, ["play Surprise Attack", "pass", "pass"])
    assert card_names(game, found) == [("Surprise Attack", True)]


def test_a_surprise_attack_in_a_battle_won_anyway_changed_nothing() -> None:
    game = blocked_battle(["Air Speeders"], ["Troopers"], hand=["Surprise Attack"])
    found = blunders(game, ["play Surprise Attack", "pass", "pass"])
    assert card_names(game, found) == [("Surprise Attack", False)]


def test_a_surprise_attack_answered_by_a_trap_changed_nothing_and_the_trap_did() -> None:
    # Two Soldiers against two Troopers tie (2-2, both destroyed, R18); Surprise Attack makes
    # it 6-2, a win; the Trap 6-6, the same tie again (the plies 251-254, in small).
    game = blocked_battle(
        ["Rebel Soldier"] * 2, ["Troopers"] * 2, hand=["Surprise Attack"], defender_hand=["Trap"]
    )
    found = blunders(game, ["play Surprise Attack", "play Trap", "pass", "pass"])
    assert card_names(game, found) == [("Surprise Attack", False), ("Trap", True)]
    assert [(c.player, c.ply) for c in found.cards] == [(REBEL, 0), (IMPERIAL, 1)]


def test_a_psion_card_on_a_battle_won_anyway_changed_nothing() -> None:
    # Danger Sense (+2 ground) on the Wise Mentor (5) with three Soldiers: 8 or 10 against the
    # Battle Walkers (5) is won either way, and the Imperial player picks casualties worth up
    # to 5 either way (the Soldiers: heroes last, R19); the card changes neither.
    game = blocked_battle(
        ["Wise Mentor"] + ["Rebel Soldier"] * 3, ["Battle Walkers"], hand=["Danger Sense"]
    )
    texts = ["play Danger Sense on Wise Mentor", "pass", "pass"]
    s = game.clone(keep_log=True)
    for text in texts:
        s.apply(text)
    while (
        s.step == Step.CASUALTY
    ):  # the Imperial player's casualty picks, as the heuristic makes them
        a = heuristic_action(s, s.legal_actions())
        texts.append(s.action_text(a))
        s.apply(a)
    found = blunders(game, texts)
    assert card_names(game, found) == [("Danger Sense", False)]


def _multiple_targets_with_grav_cycles_at_home() -> GameState:
    """A lone Rebel Soldier attacks; the only Imperial unit is inactive, and Grav Cycles
    stayed home, so Multiple Targets' extra attack phase has something to send (or not)."""
    return start(
        phase="attack",
        rebel={"hand": ["Multiple Targets"], "active": ["Rebel Soldier", "Grav Cycles"]},
        imperial={"inactive": ["Troopers"]},
        battle={"step": "tricks", "groups": [{"kind": "ground", "units": ["Rebel Soldier"]}]},
    )


def test_multiple_targets_whose_extra_attack_does_nothing_changed_nothing() -> None:
    game = _multiple_targets_with_grav_cycles_at_home()
    found = blunders(game, ["play Multiple Targets", "pass", "pass", "no attack"])
    assert card_names(game, found) == [("Multiple Targets", False)]


def test_multiple_targets_whose_extra_attack_deals_damage_changed_something() -> None:
    game = _multiple_targets_with_grav_cycles_at_home()
    texts = ["play Multiple Targets", "pass", "pass", "new ground group with Grav Cycles"]
    texts += ["attack", "done targeting", "pass", "pass"]
    found = blunders(game, texts)
    assert card_names(game, found) == [("Multiple Targets", True)]
    assert [a.for_nothing for a in found.attacks] == [False, False]


def test_a_whole_game_is_checked_without_changing_the_start() -> None:
    game = new_game(seed=4654349879685315332)
    replay = game.clone(keep_log=True)
    before = styled_action(BEFORE)  # the heuristic as the issue measured it
    while replay.to_move >= 0:
        replay.apply(before(replay, replay.legal_actions()))
    assert replay.history is not None
    found = find_blunders(game, replay.history)
    # The example (plies 251-254): Surprise Attack, Trap, Surprise Attack, Trap, for a
    # tie that was there before the first card: both Surprise Attacks changed nothing.
    window = [(c.ply, c.changed) for c in found.cards if 251 <= c.ply <= 254]
    assert window == [(251, False), (252, True), (253, False), (254, True)]
    assert game.history == [] and game.turn == 1


def test_a_card_that_changes_only_the_casualties_changed_something() -> None:
    # Air Speeders and two Soldiers (5) beat the Squad Leader (3) either way; the Imperial
    # budget of 3 takes a Soldier at 3 after Surprise Attack, two Soldiers (or the Speeders)
    # without it.
    game = blocked_battle(
        ["Air Speeders", "Rebel Soldier", "Rebel Soldier"], ["Squad Leader"], ["Surprise Attack"]
    )
    texts = ["play Surprise Attack", "pass", "pass", "pick Rebel Soldier as a casualty"]
    found = blunders(game, texts)
    assert card_names(game, found) == [("Surprise Attack", True)]
