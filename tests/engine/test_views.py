"""What each player's view shows (R5): own hand by name, the opponent's only as a size, public
zones, the battle, legal actions only for the player to move, a filtered log, spy snapshots
(R27) and searched heroes (R26) only where they belong."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from rebelspace.engine import IMPERIAL, REBEL, GameState, PlayerView, load_scenario, new_game
from rebelspace.engine.events import render


def names(game: GameState, cards: list[int]) -> tuple[str, ...]:
    return tuple(sorted(game.name(c) for c in cards))


def start(**fields: Any) -> GameState:
    return load_scenario({"seed": 4, **fields})


def test_own_hand_by_name_the_opponents_only_as_a_size() -> None:
    game = new_game(3)
    for p in (REBEL, IMPERIAL):
        view = game.view(p)
        assert view.player == ("rebel", "imperial")[p]
        assert view.you.hand == names(game, game.hand[p]) and view.you.hand_size == 5
        assert view.opponent.hand is None and view.opponent.hand_size == 5
        assert view.you.player != view.opponent.player


def test_deck_sizes_are_public_own_deck_contents_are_known_but_not_their_order() -> None:
    game = new_game(3)
    for p in (REBEL, IMPERIAL):
        view = game.view(p)
        assert view.you.deck_size == len(game.deck[p])
        assert view.opponent.deck_size == len(game.deck[1 - p])
        assert view.own_deck_contents == names(game, game.deck[p])
    assert (game.view(REBEL).you.deck_size, game.view(IMPERIAL).you.deck_size) == (71, 62)


def test_zones_and_discard_piles_are_public_in_order() -> None:
    game = start(
        phase="deploy",
        rebel={
            "active": [{"name": "Princess", "attachments": ["Laser Sword"]}, "Rebel Soldier"],
            "inactive": ["Grav Cycles"],
            "discard": ["Air Speeders", "Rebel Soldier", "Convert"],
        },
        imperial={"discard": ["Trap", "Troopers"], "active": ["Battle Walkers"]},
    )
    rebel, imperial = game.view(REBEL), game.view(IMPERIAL)
    assert rebel.you == dataclasses.replace(imperial.opponent, hand=rebel.you.hand)
    assert rebel.opponent == dataclasses.replace(imperial.you, hand=None)
    side = imperial.opponent
    assert side.discard[-3:] == ("Air Speeders", "Rebel Soldier", "Convert")  # top last
    assert [(u.name, u.attachments) for u in side.active] == [
        ("Princess", ("Laser Sword",)),
        ("Rebel Soldier", ()),
    ]
    assert [u.name for u in side.inactive] == ["Grav Cycles"]
    assert rebel.opponent.discard[-2:] == ("Trap", "Troopers")


def test_deploy_points_show_only_in_the_deploy_phase() -> None:
    game = start(phase="deploy", deploy_points=2, rebel={"hand": ["Rebel Soldier"]})
    assert game.view(REBEL).deploy_points == 2 and game.view(IMPERIAL).deploy_points == 2
    game.apply("deploy Rebel Soldier")
    assert game.view(REBEL).deploy_points == 1
    game.apply("done deploying")
    assert game.view(REBEL).deploy_points is None and game.view(REBEL).phase == "end"


def test_legal_actions_only_for_the_player_to_move() -> None:
    game = new_game(3)
    rebel, imperial = game.view(REBEL), game.view(IMPERIAL)
    assert rebel.to_move == imperial.to_move == "rebel"
    assert [a.id for a in rebel.legal_actions] == game.legal_actions()
    assert [a.text for a in rebel.legal_actions] == ["draw 1", "draw 2"]
    assert [(a.kind, a.n, a.card) for a in rebel.legal_actions] == [
        ("draw", 1, None),
        ("draw", 2, None),
    ]
    assert imperial.legal_actions == ()


def test_in_the_battle_tricks_window_the_defender_gets_the_legal_actions_in_turn() -> None:
    game = start(
        phase="attack",
        rebel={"active": ["Rebel Soldier"], "hand": ["Surprise Attack"]},
        imperial={"active": ["Troopers"], "hand": ["Trap"]},
        battle={"step": "tricks", "groups": [{"units": ["Rebel Soldier"]}]},
    )
    assert [a.text for a in game.view(REBEL).legal_actions] == ["play Surprise Attack", "pass"]
    assert game.view(IMPERIAL).legal_actions == ()
    game.apply("pass")
    assert game.view(REBEL).legal_actions == ()
    assert [a.text for a in game.view(IMPERIAL).legal_actions] == ["play Trap", "pass"]


def test_the_battle_is_public_to_both() -> None:
    game = start(
        phase="attack",
        rebel={
            "active": ["Rebel Soldier", "Young Protagonist"],
            "hand": ["Surprise Attack", "True Aim"],
        },
        imperial={"active": ["Troopers"], "inactive": ["Battle Walkers"], "hand": ["Trap"]},
        battle={
            "step": "tricks",
            "groups": [
                {"units": ["Rebel Soldier"], "blockers": ["Troopers"]},
                {
                    "units": ["Young Protagonist"],
                    "target": {"name": "Battle Walkers", "zone": "inactive"},
                },
            ],
        },
    )
    for text in ("play Surprise Attack", "play Trap", "play True Aim on Young Protagonist"):
        game.apply(text)
    battle = game.view(REBEL).battle
    assert battle is not None and battle == game.view(IMPERIAL).battle
    first, second = battle.groups
    assert (first.number, first.kind) == (1, "ground")
    assert [u.name for u in first.units] == ["Rebel Soldier"]
    assert [u.name for u in first.blockers] == ["Troopers"] and first.target is None
    assert second.target is not None and second.target.name == "Battle Walkers"
    assert second.target_zone == "inactive" and second.blockers == ()
    assert second.units[0].attachments == ("True Aim",)  # R13, R24
    assert (battle.attack_bonus, battle.defense_bonus) == (2, 2)  # R30
    assert battle.psion_cards == (("True Aim", "Young Protagonist"),)
    assert battle.casualty_budget is None


def test_the_casualty_budget_shows_while_the_loser_picks() -> None:
    """The sheet's worked example (R19): the Imperial player picks up to 4 from the winners."""
    game = start(
        turn=5,
        phase="attack",
        rebel={"active": ["Princess", "Rebel Soldier", "Rebel Soldier", "Grav Cycles"]},
        imperial={"active": ["Fixed Defenses"]},
        battle={
            "groups": [
                {
                    "units": ["Princess", "Rebel Soldier", "Rebel Soldier", "Grav Cycles"],
                    "blockers": ["Fixed Defenses"],
                }
            ]
        },
        actions=["pass", "pass"],
    )
    for p in (REBEL, IMPERIAL):
        battle = game.view(p).battle
        assert battle is not None
        assert (battle.casualty_budget, battle.casualty_group) == (4, 1)
    assert game.view(IMPERIAL).to_move == "imperial" and game.view(IMPERIAL).legal_actions
    assert game.view(REBEL).legal_actions == ()


def test_no_battle_outside_the_attack_phase() -> None:
    assert new_game(3).view(REBEL).battle is None


def test_the_log_hides_the_opponents_draws() -> None:
    game = new_game(3)
    game.apply("draw 2")
    drawn = sorted(game.name(c) for c in game.hand[REBEL][-2:])
    rebel, imperial = game.view(REBEL).log, game.view(IMPERIAL).log
    assert "Rebel draws 2 cards" in rebel and "Rebel draws 2 cards" in imperial
    private = [line for line in rebel if line.startswith("Rebel draws ") and "cards" not in line]
    assert len(private) == 1 and sorted(private[0][len("Rebel draws ") :].split(", ")) == drawn
    assert private[0] not in imperial
    assert any(line.startswith("Rebel's starting hand: ") for line in rebel)
    assert not any(line.startswith("Rebel's starting hand") for line in imperial)
    assert any(line.startswith("Imperial's starting hand: ") for line in imperial)
    assert not any(line.startswith("Imperial's starting hand") for line in rebel)
    names = game.ctx.tables.names
    assert game.log_lines() == [render(e, names) for e in game.events or []]  # the full log


def spy_position() -> GameState:
    return start(
        phase="end",
        rebel={"hand": ["Rebel Spies", "Recruit"]},
        imperial={"hand": ["Trap", "Troopers", "Mysterious Emperor"], "active": ["Troopers"]},
    )


def test_a_spy_snapshot_appears_only_in_the_spys_view() -> None:
    """R27: a snapshot of the hand at that moment, kept in the spy's view and log only."""
    game = spy_position()
    game.apply("play Rebel Spies")
    shown = ("Mysterious Emperor", "Trap", "Troopers")
    rebel, imperial = game.view(REBEL), game.view(IMPERIAL)
    assert rebel.revealed_hands == ((1, shown),) and imperial.revealed_hands == ()
    assert rebel.opponent_known_hand == shown and imperial.opponent_known_hand == ()
    line = "Imperial's hand: Mysterious Emperor, Trap, Troopers"
    assert line in rebel.log and line not in imperial.log
    assert "Rebel plays Rebel Spies and looks at Imperial's hand" in imperial.log
    assert rebel.opponent.hand is None  # a snapshot, not a lasting window


def test_what_the_spy_saw_is_forgotten_as_the_cards_are_played() -> None:
    game = spy_position()
    game.apply("play Rebel Spies")
    game.apply("end turn")
    game.apply("draw 1")
    game.apply("no attack")
    game.apply("deploy Troopers")
    view = game.view(REBEL)
    assert view.revealed_hands == ((1, ("Mysterious Emperor", "Trap", "Troopers")),)
    assert view.opponent_known_hand == ("Mysterious Emperor", "Trap")


def test_a_searched_hero_is_shown_to_both() -> None:
    """R26: the hero taken from the deck is shown to both players."""
    game = spy_position()
    game.apply("play Recruit for Princess")
    hand = game.view(REBEL).you.hand
    assert hand is not None and "Princess" in hand
    assert game.view(IMPERIAL).opponent_known_hand == ("Princess",)
    assert game.view(REBEL).opponent_known_hand == ()
    line = "Rebel plays Recruit and takes Princess from the deck; the deck is shuffled"
    assert line in game.view(IMPERIAL).log


def test_a_converted_hero_shows_its_owner_and_its_marker() -> None:
    """R28: the hero sits in the converter's zone with the Convert card attached."""
    game = start(
        phase="end",
        rebel={"hand": ["Convert"]},
        imperial={"active": [{"name": "Bounty Hunter", "attachments": ["Plasma Sword"]}]},
    )
    game.apply("play Convert on Bounty Hunter")
    for p in (REBEL, IMPERIAL):
        view = game.view(p)
        side = view.you if p == REBEL else view.opponent
        (hunter,) = side.inactive
        assert (hunter.name, hunter.owner) == ("Bounty Hunter", "imperial")
        assert hunter.attachments == ("Plasma Sword", "Convert")


def test_the_end_of_the_game_shows_in_both_views() -> None:
    game = start(rebel={"deck_size": 1})
    game.apply("draw 1")
    for p in (REBEL, IMPERIAL):
        view = game.view(p)
        assert (view.winner, view.to_move, view.phase) == ("imperial", None, "over")
        assert view.end_reason == "Rebel drew the last card of their deck"
        assert view.legal_actions == ()


def test_views_are_frozen_values_that_serialise_to_json() -> None:
    game = new_game(3)
    view = game.view(REBEL)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.turn = 2  # type: ignore[misc]
    data = view.to_dict()
    assert json.loads(json.dumps(data))["you"]["hand"] == list(view.you.hand or ())
    assert game.view(REBEL) == view  # a view is a value: equal when nothing changed
    game.apply("draw 1")
    assert game.view(REBEL) != view


def test_views_name_cards_never_instances() -> None:
    """Views hold card names; two copies of a card look the same (tested on every position of
    random games in test_properties)."""
    game = new_game(3)
    view = game.view(REBEL)
    assert all(isinstance(name, str) for name in view.you.hand or ())
    copy = game.clone(keep_log=True)
    hand, deck = copy.hand[REBEL], copy.deck[REBEL]
    i, j = next(
        (i, j)
        for i, h in enumerate(hand)
        for j, d in enumerate(deck)
        if copy.name(h) == copy.name(d)
    )
    hand[i], deck[j] = deck[j], hand[i]  # another copy of the same card: another instance
    assert copy != game
    assert copy.view(REBEL) == view and copy.view(IMPERIAL) == game.view(IMPERIAL)


def test_a_view_of_no_player_is_refused() -> None:
    with pytest.raises(ValueError, match="player must be 0"):
        new_game(3).view(2)


def test_the_log_is_rendered_once_and_stays_right_as_the_game_goes_on() -> None:
    """Views carry the log; its lines are rendered once each and kept (``GameState._lines``),
    so a view, a clone's view and a fresh rendering of every event must still agree."""
    game = new_game(8)
    rng = random.Random(8)
    while not game.is_over:
        if rng.random() < 0.3:
            names = game.ctx.tables.names
            full = [render(e, names) for e in game.events or ()]
            assert game.log_lines() == full
            for p in (REBEL, IMPERIAL):
                seen = [render(e, names) for e in game.visible_events(p)]
                assert list(game.view(p).log) == seen == game.clone(keep_log=True).log_lines(p)
            public = [render(e, names) for e in game.visible_events(None)]
            assert list(game.public_view().log) == public
        game.apply(rng.choice(game.legal_actions()))
    assert game.events is not None
    assert game.log_lines()[-1] == render(game.events[-1], game.ctx.tables.names)


def test_views_built_from_shared_parts_equal_views_built_in_another_order() -> None:
    """Views share the unit and action views they have built (views._Memo, per game context):
    the view of each position of a game equals the view of the same position built in a
    second context that saw the game's positions in the reverse order, so that what it had
    built came from other positions (a part keyed on too little would show there). Every
    position of the seeded games, in and out of battles, with and without attachments."""
    from rebelspace.engine.state import GameContext

    compared = 0
    for seed in range(4):
        rng = random.Random(seed)
        game = new_game(seed)
        seen: list[tuple[GameState, tuple[PlayerView, PlayerView, PlayerView]]] = []
        while game.to_move >= 0:
            views = (game.view(REBEL), game.view(IMPERIAL), game.public_view())
            seen.append((game.clone(keep_log=True), views))
            game.apply(rng.choice(game.legal_actions()))
        other = GameContext(game.ctx.cards, game.ctx.options)
        for position, shown in reversed(seen):
            position.ctx = other
            assert (position.view(REBEL), position.view(IMPERIAL), position.public_view()) == shown
            compared += 1
    assert compared > 1000
