"""The door into a position (``engine/read.py``, issue 34): R5 decided once in ``read.sight``,
and the views and the encoder built from it."""

from __future__ import annotations

import random

import pytest

from rebelspace.engine import IMPERIAL, REBEL, GameState, new_game, read
from rebelspace.engine.sampling import sample_state


def played(seed: int, decisions: int) -> GameState:
    game = new_game(seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def in_a_battle(seed: int) -> GameState:
    """A position with attacking groups (the first such of a seeded random game)."""
    game = new_game(seed)
    rng = random.Random(seed)
    while not read.in_battle(game):
        assert not game.is_over, "no battle in this game: pick another seed"
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_a_player_sees_their_own_hand_and_deck_contents_and_the_other_hands_size() -> None:
    game = played(4, 40)
    for p in (REBEL, IMPERIAL):
        w = read.sight(game, p)
        assert w.side == p and not w.spectator
        assert sorted(w.hand) == sorted(read.hand(game, p))
        assert sorted(w.deck) == sorted(read.deck_order(game, p))
        assert w.opp_hand_size == read.hand_size(game, 1 - p)
        assert w.opp_deck_size == read.deck_size(game, 1 - p)
        assert w.known == read.known_hand(game, p)
        assert (w.active, w.inactive) == read.zones(game, p)
        assert (w.opp_active, w.opp_inactive) == read.zones(game, 1 - p)


def test_a_spectator_sees_no_hand_no_deck_nothing_known_nor_revealed() -> None:
    game = played(4, 40)
    w = read.sight(game, None)
    assert w.spectator and w.side == REBEL
    assert (tuple(w.hand), tuple(w.deck), w.known, tuple(w.revealed)) == ((), (), (), ())
    assert w.opp_hand_size == read.hand_size(game, IMPERIAL)
    assert w.discard == read.discard(game, REBEL)
    assert w.opp_active == read.active(game, IMPERIAL)


def test_what_a_player_cannot_see_does_not_change_their_sight() -> None:
    # A position sampled from the Rebel's view differs from the true one only in hidden cards
    # (the Imperial hand, both decks' order): the sight shows the same cards by type.
    game = played(9, 70)
    sample = sample_state(game.view(REBEL), game.ctx, 5)
    type_of = game.ctx.tables.type_of

    def by_type(piles: tuple[object, ...]) -> list[object]:
        return [
            sorted(type_of[c] for c in pile)
            if isinstance(pile, list | tuple) and all(isinstance(c, int) for c in pile)
            else pile
            for pile in piles
        ]

    true, seen = read.sight(game, REBEL), read.sight(sample, REBEL)
    fields = ("hand", "deck", "discard", "opp_discard", "active", "opp_active", "opp_inactive")
    assert by_type(tuple(getattr(true, f) for f in fields)) == by_type(
        tuple(getattr(seen, f) for f in fields)
    )
    assert (true.known, true.opp_hand_size, true.opp_deck_size) == (
        seen.known,
        seen.opp_hand_size,
        seen.opp_deck_size,
    )


def test_the_views_are_built_from_the_sight() -> None:
    game = played(6, 90)
    names = game.ctx.tables.names
    type_of = game.ctx.tables.type_of
    for p in (REBEL, IMPERIAL):
        w, view = read.sight(game, p), game.view(p)
        assert view.you.hand == tuple(sorted(names[type_of[c]] for c in w.hand))
        assert view.own_deck_contents == tuple(sorted(names[type_of[c]] for c in w.deck))
        assert view.opponent.hand is None and view.opponent.hand_size == w.opp_hand_size
        assert view.opponent_known_hand == tuple(sorted(names[t] for t in w.known))
    public = game.public_view()
    assert public.you.hand is None and public.own_deck_contents == ()


def test_the_battle_read_matches_the_battle_view() -> None:
    game = in_a_battle(2)
    b = read.battle(game)
    view = game.view(REBEL).battle
    assert view is not None and len(view.groups) == len(b.groups) > 0
    assert (view.attack_bonus, view.defense_bonus) == read.battle_bonuses(game)
    assert view.next_battle == b.next_battle + 1 and view.passes == b.passes
    for g, group in enumerate(view.groups):
        assert len(group.units) == len(b.groups[g]) and len(group.blockers) == len(b.blocks[g])
        assert (group.target is not None) == (b.targets[g] >= 0)
    assert read.casualty(game) == b.casualty


def test_deploy_points_only_in_the_deploy_step() -> None:
    game = new_game(1)
    assert read.deploy_points(game) is None
    rng = random.Random(1)
    while game.phase != "deploy":
        game.apply(rng.choice(game.legal_actions()))
    assert read.deploy_points(game) == game.view(game.to_move).deploy_points is not None


@pytest.mark.parametrize("player", [REBEL, IMPERIAL])
def test_in_play_is_both_zones_active_first(player: int) -> None:
    game = played(3, 80)
    active, inactive = read.zones(game, player)
    assert read.in_play(game, player) == [*active, *inactive]
    for u in read.in_play(game, player):
        assert read.attached(game, u) == read.attachments(game)[u]


def test_visible_is_the_sight_by_position_and_its_positions_name_the_fields() -> None:
    game = played(5, 50)
    for viewer in (REBEL, IMPERIAL, None):
        assert tuple(read.sight(game, viewer)) == read.visible(game, viewer)
    # Every field but the last (``spectator``, read by name only) has its position constant.
    positions = {name: getattr(read, name.upper()) for name in read.Sight._fields[:-1]}
    assert all(read.Sight._fields[i] == name for name, i in positions.items()), positions
