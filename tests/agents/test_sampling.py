"""Determinization (``engine.sampling``): samples agree with the view, depend only on it, keep
what a spy showed (R27), and ``redeal`` deals the hidden cards again without changing the view.

Games are random or heuristic play driven by Hypothesis-drawn seeds; a failure report shows
the seeds and a note with the game's action texts. The quick profile runs a few dozen games
per property, the ``slow`` one hundreds.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from rebelspace.agents.heuristic import heuristic_action
from rebelspace.engine import (
    GameState,
    RulesOptions,
    load_scenario,
    new_game,
)
from rebelspace.engine.sampling import redeal, sample_state
from tests.agents.agent_helpers import check_conservation, public, twin
from tests.common import check_each, per_profile, rules_options

REBEL, IMPERIAL = 0, 1

# Sampling at many positions of each game is slow: fewer games than the Hypothesis profile's
# (tests/conftest.py), and each probe rate is the share of positions sampled.
EXAMPLES = settings(max_examples=per_profile(quick=30, ci=300))

MAX_DECISIONS = 5000  # random games take a few hundred decisions
POLICIES = ("random", "heuristic", "mixed")

game_seeds = st.integers(min_value=0, max_value=2**63 - 1)
choice_seeds = st.integers(min_value=0, max_value=2**32 - 1)
policies = st.sampled_from(POLICIES)


# Mostly the standard rules; some games under other options.
maybe_options = st.one_of(st.none(), st.none(), rules_options())


# ----------------------------------------------------------------------------- games


def positions(
    seed: int, choice_seed: int, policy: str, options: RulesOptions | None = None
) -> Iterator[GameState]:
    """Play a game, yielding the same live state before each decision and at the end.

    "random" picks uniformly, "heuristic" plays ``heuristic_action`` for both sides, "mixed"
    gives the heuristic one side (chosen by the choice seed) and random play the other.
    """
    game = new_game(seed, options=options)
    rng = random.Random(choice_seed)
    heuristic_side = {"random": (), "heuristic": (REBEL, IMPERIAL), "mixed": (choice_seed % 2,)}
    smart = heuristic_side[policy]
    for _ in range(MAX_DECISIONS):
        yield game
        if game.is_over:
            return
        legal = game.legal_actions()
        if game.to_move in smart:
            game.apply(heuristic_action(game, legal))
        else:
            game.apply(rng.choice(legal))
    raise AssertionError(f"no outcome after {MAX_DECISIONS} decisions")


def each_position(
    seed: int,
    choice_seed: int,
    policy: str,
    check: Callable[[GameState], None],
    options: RulesOptions | None = None,
) -> GameState:
    """Run ``check`` on every position; on failure, note the actions that led there."""
    return check_each(positions(seed, choice_seed, policy, options), check)


def probe_rng(choice_seed: int) -> random.Random:
    """A generator for probes, apart from the one that picks the game's actions."""
    return random.Random(choice_seed ^ 0x5A3F)


# ----------------------------------------------------------------------------- helpers


def hand_names(state: GameState, player: int) -> Counter[str]:
    return Counter(state.name(c) for c in state.hand[player])


def check_known_in_hand(state: GameState, player: int) -> None:
    """What ``player`` knows is in the opponent's hand is there (R26, R27)."""
    t = state.ctx.tables
    known = Counter(t.names[ct] for ct in state.known[player])
    assert not known - hand_names(state, 1 - player), "a known card is not in the hand"


def play_some(state: GameState, rng: random.Random, limit: int) -> None:
    """Play up to ``limit`` random legal actions (the state must accept every one)."""
    for _ in range(limit):
        if state.is_over:
            break
        legal = state.legal_actions()
        assert legal, "a state that is not over has no legal action"
        state.apply(rng.choice(legal))
    check_conservation(state)


# ----------------------------------------------------------------------------- 1. agreement


def check_samples(game: GameState, rng: random.Random, playout_rate: float) -> None:
    """Each player's sample shows that player exactly their view, and is a sound state."""
    for p in (REBEL, IMPERIAL):
        view = game.view(p)
        sample = sample_state(view, game.ctx, rng.getrandbits(62))
        assert public(sample.view(p)) == public(view)
        if game.to_move == p:
            assert sample.legal_actions() == game.legal_actions()
        assert sample.to_move == game.to_move and sample.is_over == game.is_over
        check_conservation(sample)
        check_known_in_hand(sample, p)
        if rng.random() < playout_rate:
            play_some(sample, rng, 60)


@EXAMPLES
@given(game_seeds, choice_seeds, policies, maybe_options)
def test_a_sample_shows_exactly_the_view(
    seed: int, choice_seed: int, policy: str, options: RulesOptions | None
) -> None:
    rng, rate = probe_rng(choice_seed), per_profile(quick=0.02, ci=0.05)
    each_position(seed, choice_seed, policy, lambda g: check_samples(g, rng, rate), options)


def test_samples_of_a_finished_game_are_finished() -> None:
    game = each_position(3, 3, "random", lambda g: None)
    for p in (REBEL, IMPERIAL):
        sample = sample_state(game.view(p), game.ctx, 1)
        assert sample.outcome == game.outcome and sample.legal_actions() == []
        assert public(sample.view(p)) == public(game.view(p))


def test_a_sample_remembers_an_ion_cannon_that_fired_and_was_destroyed() -> None:
    """The Ion Cannon destroys the Space Cruiser (R14), then blocks group 1 and is destroyed;
    while the Rebel picks the casualty, both views say one cannon fired, and so must a sample
    (found by the property above: the sampler once looked among active units only)."""
    game = load_scenario(
        {
            "seed": 1,
            "turn": 4,
            "player": "imperial",
            "phase": "attack",
            "rebel": {"hand": [], "active": ["Ion Cannon"]},
            "imperial": {"hand": [], "active": ["Battle Walkers", "Troopers", "Space Cruiser"]},
            "battle": {
                "step": "form groups",
                "groups": [
                    {"kind": "ground", "units": ["Battle Walkers", "Troopers"]},
                    {"kind": "space", "units": ["Space Cruiser"]},
                ],
            },
        }
    )
    for text in (
        "attack",
        "Ion Cannon destroys Space Cruiser in group 2",
        "block group 1 with Ion Cannon",
        "done blocking",
        "pass",
        "pass",
    ):
        game.apply(text)
    assert game.legal_action_texts() == ["pick Troopers as a casualty"]
    assert game.name(game.discard[REBEL][-1]) == "Ion Cannon"
    for p in (REBEL, IMPERIAL):
        view = game.view(p)
        assert view.battle is not None and view.battle.ion_cannons_fired == 1
        sample = sample_state(view, game.ctx, 1)
        assert public(sample.view(p)) == public(view)


# ----------------------------------------------------------------------------- 2. view only


def check_twins(game: GameState, rng: random.Random, rate: float) -> None:
    """Two true states with the same view give the same samples, seed for seed."""
    if game.is_over or rng.random() >= rate:
        return
    for p in (REBEL, IMPERIAL):
        other = twin(game, p, rng)
        if other is None:
            continue
        assert other.key() != game.key()
        check_conservation(other)
        view1, view2 = game.view(p), other.view(p)
        assert public(view1) == public(view2)
        for _ in range(3):
            seed = rng.getrandbits(62)
            assert sample_state(view1, game.ctx, seed).key() == (
                sample_state(view2, game.ctx, seed).key()
            )


@EXAMPLES
@given(game_seeds, choice_seeds, policies)
def test_states_a_player_cannot_tell_apart_give_the_same_samples(
    seed: int, choice_seed: int, policy: str
) -> None:
    rng, rate = probe_rng(choice_seed), per_profile(quick=0.1, ci=0.3)
    each_position(seed, choice_seed, policy, lambda g: check_twins(g, rng, rate))


def mid_game(seed: int = 5, decisions: int = 120) -> GameState:
    """A position of a random game after some decisions (not over)."""
    game = new_game(seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        game.apply(rng.choice(game.legal_actions()))
    assert not game.is_over
    return game


def check_dealt_by_chance(game: GameState, p: int, states: list[GameState]) -> None:
    """Across ``states`` (samples or redeals of ``game`` for ``p``, nothing known by a spy),
    each of the opponent's unseen cards lands in the hand about as often as chance says: with
    probability hidden-hand-size / unseen cards per copy. And the hands and ``p``'s own deck
    order vary."""
    opp = 1 - p
    unseen = Counter(game.name(c) for c in game.hand[opp] + game.deck[opp])
    hand_size = len(game.hand[opp])
    assert hand_size >= 2 and len(unseen) >= 3
    runs = len(states)
    in_hand: Counter[str] = Counter()
    hands = set()
    own_orders = set()
    for state in states:
        names = hand_names(state, opp)
        in_hand.update(names)
        hands.add(tuple(sorted(names.elements())))
        own_orders.add(tuple(state.name(c) for c in state.deck[p]))
    assert len(hands) > 10 and len(own_orders) > 10
    total = sum(unseen.values())
    for name, count in unseen.items():
        q = hand_size / total  # chance that one given unseen copy is dealt to the hand
        mean = runs * count * q
        sd = (runs * count * q * (1 - q)) ** 0.5  # loose: copies are not independent
        assert abs(in_hand[name] - mean) <= 6 * sd + 2, (name, in_hand[name], mean)


def test_the_sample_is_random_not_a_copy_of_the_truth() -> None:
    game = mid_game()
    p = game.to_move
    view = game.view(p)
    assert view.opponent_known_hand == ()
    check_dealt_by_chance(game, p, [sample_state(view, game.ctx, seed) for seed in range(400)])


def test_redeal_deals_by_chance_too() -> None:
    """``redeal`` is meant to match a fresh sample in distribution."""
    game = mid_game()
    p = game.to_move
    sample = sample_state(game.view(p), game.ctx, 3)
    rng = random.Random(5)
    check_dealt_by_chance(game, p, [redeal(sample, p, rng) for _ in range(400)])
    check_dealt_by_chance(game, p, [redeal(game, p, rng) for _ in range(400)])


def test_a_twin_of_a_real_position_has_the_same_view_and_samples() -> None:
    """The construction the property relies on, at one known position."""
    game = mid_game()
    p = game.to_move
    other = twin(game, p, random.Random(1))
    assert other is not None and other.key() != game.key()
    assert hand_names(other, 1 - p) != hand_names(game, 1 - p)
    assert public(other.view(p)) == public(game.view(p))
    assert other.legal_actions() == game.legal_actions()
    for seed in range(20):
        a = sample_state(game.view(p), game.ctx, seed)
        b = sample_state(other.view(p), game.ctx, seed)
        assert a.key() == b.key()


# ----------------------------------------------------------------------------- 3. known cards


def spied() -> GameState:
    """The Rebel plays Rebel Spies on a hand of three, then the Imperial draws 2 (a hand of
    five, three of them known to the Rebel) and does not attack: its deploy phase."""
    game = load_scenario(
        {
            "seed": 4,
            "phase": "end",
            "rebel": {"hand": ["Rebel Spies", "Recruit"]},
            "imperial": {
                "hand": ["Trap", "Troopers", "Mysterious Emperor"],
                "active": ["Troopers"],
            },
        }
    )
    for text in ("play Rebel Spies", "end turn", "draw 2", "no attack"):
        game.apply(text)
    return game


def test_a_sample_keeps_the_cards_a_spy_saw_in_the_opponents_hand() -> None:
    game = spied()
    view = game.view(REBEL)
    known = ("Mysterious Emperor", "Trap", "Troopers")
    assert view.opponent_known_hand == known and view.opponent.hand_size == 5
    extras = set()
    for seed in range(100):
        sample = sample_state(view, game.ctx, seed)
        hand = hand_names(sample, IMPERIAL)
        assert not Counter(known) - hand, (seed, hand)
        assert public(sample.view(REBEL)) == public(view)
        extras.add(tuple(sorted((hand - Counter(known)).elements())))
    assert len(extras) > 5  # the two unknown cards are dealt at random


def test_redeal_keeps_the_cards_a_spy_saw() -> None:
    game = spied()
    known = Counter(["Mysterious Emperor", "Trap", "Troopers"])
    rng = random.Random(2)
    sample = sample_state(game.view(REBEL), game.ctx, 9)
    for state in (game, sample):
        view = public(state.view(REBEL))
        for _ in range(50):
            dealt = redeal(state, REBEL, rng)
            assert not known - hand_names(dealt, IMPERIAL)
            assert public(dealt.view(REBEL)) == view
            check_conservation(dealt)


def test_a_known_card_played_is_no_longer_kept() -> None:
    """Once the Imperial deploys the Troopers the spy saw, only two cards stay known; the
    sample still holds those two (and the hand is one card smaller)."""
    game = spied()
    game.apply("deploy Troopers")
    view = game.view(REBEL)
    assert view.opponent_known_hand == ("Mysterious Emperor", "Trap")
    for seed in range(30):
        sample = sample_state(view, game.ctx, seed)
        assert not Counter(view.opponent_known_hand) - hand_names(sample, IMPERIAL)
        assert len(sample.hand[IMPERIAL]) == 4
        dealt = redeal(sample, REBEL, random.Random(seed))
        assert not Counter(view.opponent_known_hand) - hand_names(dealt, IMPERIAL)


# ----------------------------------------------------------------------------- 4. redeal


def hidden(state: GameState, player: int) -> tuple[object, ...]:
    """What ``player`` cannot see: the opponent's hand, and both decks' order, by name."""
    opp = 1 - player
    return (
        tuple(sorted(hand_names(state, opp).elements())),
        tuple(state.name(c) for c in state.deck[opp]),
        tuple(state.name(c) for c in state.deck[player]),
    )


def likeliest_hidden(game: GameState, p: int) -> float:
    """The probability of the likeliest ``hidden(state, p)`` among uniform deals: the player's
    own deck order times the opponent's unknown hand cards and deck order (independent)."""
    own = Counter(game.name(c) for c in game.deck[p])
    own_p = math.prod(math.factorial(k) for k in own.values()) / math.factorial(len(game.deck[p]))
    opp = 1 - p
    known = Counter(game.ctx.tables.names[ct] for ct in game.known[p])
    unknown = hand_names(game, opp) - known
    pool = unknown + Counter(game.name(c) for c in game.deck[opp])
    u, d = sum(unknown.values()), len(game.deck[opp])
    # A deck sequence by name is dealt in prod(c!/(c-s)!) of the (u+d)!/u! ordered ways to
    # pick the deck from the pool; taking the commonest name left, card by card, maximises it.
    left = list(pool.values())
    ways = 1
    for _ in range(d):
        i = left.index(max(left))
        ways *= left[i]
        left[i] -= 1
    return own_p * ways * math.factorial(u) / math.factorial(u + d)


def check_redeal(game: GameState, rng: random.Random, rate: float) -> None:
    """``redeal`` keeps the view, is sound, leaves its input alone and varies what is hidden."""
    if rng.random() >= rate:
        return
    for p in (REBEL, IMPERIAL):
        before = game.key()
        view = public(game.view(p))
        dealt = [redeal(game, p, rng) for _ in range(6)]
        assert game.key() == before, "redeal changed the state it was given"
        for d in dealt:
            assert public(d.view(p)) == view
            if game.to_move == p:
                assert d.legal_actions() == game.legal_actions()
            check_conservation(d)
            check_known_in_hand(d, p)
        # Where something can vary, deal until it does: all n deals alike has probability at
        # most top ** (n - 1); give up (no assertion) where that would take too many deals.
        top = likeliest_hidden(game, p)
        if top < 1.0:
            needed = 1 + math.ceil(math.log(1e-9) / math.log(top))
            if needed <= 80:
                first = hidden(dealt[0], p)
                assert any(hidden(redeal(game, p, rng), p) != first for _ in range(needed))
    if not game.is_over:
        play_some(redeal(game, game.to_move, rng), rng, 20)


@EXAMPLES
@given(game_seeds, choice_seeds, policies, maybe_options)
def test_redeal_keeps_the_view_and_deals_again(
    seed: int, choice_seed: int, policy: str, options: RulesOptions | None
) -> None:
    rng, rate = probe_rng(choice_seed), per_profile(quick=0.05, ci=0.2)
    each_position(seed, choice_seed, policy, lambda g: check_redeal(g, rng, rate), options)


def test_redeal_of_a_sample_keeps_the_view() -> None:
    """How ISMCTS uses it: a sample of the view, dealt again many times."""
    game = mid_game()
    p = game.to_move
    view = public(game.view(p))
    sample = sample_state(game.view(p), game.ctx, 3)
    rng = random.Random(4)
    dealt = [redeal(sample, p, rng) for _ in range(30)]
    for d in dealt:
        assert public(d.view(p)) == view
        assert d.legal_actions() == game.legal_actions()
        check_conservation(d)
    assert len({hidden(d, p) for d in dealt}) > 20
    assert len({d.rng for d in dealt}) == 30  # a fresh engine seed each time (future shuffles)
