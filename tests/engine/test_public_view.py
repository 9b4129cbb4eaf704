"""The spectator's view (``GameState.public_view``): public information only, equal for any two
positions that differ only in hidden cards."""

from __future__ import annotations

import random

from rebelspace.engine import IMPERIAL, REBEL, GameState, load_scenario, new_game


def play_randomly(game: GameState, decisions: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(decisions):
        if game.is_over:
            return
        game.apply(rng.choice(game.legal_actions()))


def test_both_hands_hidden_no_deck_contents_no_legal_actions() -> None:
    game = new_game(3)
    game.apply("draw 2")
    view = game.public_view()
    assert view.player == "spectator"
    assert view.you.player == "rebel" and view.opponent.player == "imperial"
    assert view.you.hand is None and view.opponent.hand is None
    assert (view.you.hand_size, view.opponent.hand_size) == (7, 5)
    assert (view.you.deck_size, view.opponent.deck_size) == (69, 62)
    assert view.own_deck_contents == () and view.legal_actions == ()
    assert view.to_move == "rebel" and view.phase == game.phase


def test_the_public_zones_and_battle_are_those_every_player_sees() -> None:
    game = new_game(11)
    play_randomly(game, 60, seed=1)
    public, rebel = game.public_view(), game.view(REBEL)
    assert public.opponent == rebel.opponent
    assert public.you.active == rebel.you.active and public.you.discard == rebel.you.discard
    assert public.battle == rebel.battle and public.turn == rebel.turn


def test_the_log_leaves_out_both_players_hidden_lines() -> None:
    game = new_game(3)
    game.apply("draw 2")
    log = game.public_view().log
    assert "Rebel draws 2 cards" in log
    private = set(game.view(REBEL).log) - set(game.view(IMPERIAL).log)
    assert "Rebel draws Rebel Soldier, Stunt Fighters" in private
    assert not private & set(log)
    assert not any("starting hand:" in line for line in log)
    shared = set(game.view(REBEL).log) & set(game.view(IMPERIAL).log)
    assert set(log) <= shared


def test_a_spied_hand_and_known_cards_stay_out_of_the_public_view() -> None:
    game = load_scenario(
        {
            "seed": 4,
            "phase": "end",
            "rebel": {"hand": ["Rebel Spies"]},
            "imperial": {"hand": ["Trap", "Troopers"]},
        }
    )
    game.apply("play Rebel Spies")
    view = game.public_view()
    assert game.view(REBEL).revealed_hands and view.revealed_hands == ()
    assert view.opponent_known_hand == ()
    assert "Imperial's hand: Trap, Troopers" not in view.log
    assert "Rebel plays Rebel Spies and looks at Imperial's hand" in view.log


def test_swapping_hidden_cards_leaves_the_public_view_equal() -> None:
    """Swap a card of each hand with a different card of its own deck: the position changes,
    the spectator cannot tell."""
    for seed in range(5):
        game = new_game(seed)
        play_randomly(game, 40, seed=seed)
        copy = game.clone(keep_log=True)
        swapped = 0
        for p in (REBEL, IMPERIAL):
            hand, deck = copy.hand[p], copy.deck[p]
            pair = next(
                (
                    (i, j)
                    for i, h in enumerate(hand)
                    for j, d in enumerate(deck)
                    if copy.name(h) != copy.name(d)
                ),
                None,
            )
            if pair is not None:
                i, j = pair
                hand[i], deck[j] = deck[j], hand[i]
                swapped += 1
        assert swapped and copy != game
        assert copy.public_view() == game.public_view()
        # the players themselves can tell (the swapped hand shows), so the test has teeth
        assert any(copy.view(p) != game.view(p) for p in (REBEL, IMPERIAL))


def test_a_finished_game_shows_its_winner_publicly() -> None:
    game = load_scenario({"seed": 4, "rebel": {"deck_size": 1}})
    game.apply("draw 1")
    view = game.public_view()
    assert (view.winner, view.to_move, view.phase) == ("imperial", None, "over")
