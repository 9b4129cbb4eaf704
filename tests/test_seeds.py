"""``rebelspace.seeds``: derived seeds stay what they were, the streams do not collide, and an
agent's seed does not give the deal away (issue 29)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rebelspace import seeds
from rebelspace.engine import GameState, new_game
from rebelspace.engine.rng import GOLDEN, MASK64
from rebelspace.play.match import match_seed
from rebelspace.play.schedule import deal_seed
from rebelspace.seeds import MATCH_AGENT, agent_seed, derive_seed


@pytest.mark.parametrize(
    ("seed", "stream", "expected"),
    [
        (0, 0, 4685109482889842056),
        (5, 1, 1893743966456815036),
        (1, 2, 871875963107722422),
        (2**40, 1_000_007, 5395082487873171234),
        (123456789, 99, 8680624508139437196),
    ],
)
def test_derive_seed_gives_the_pinned_values(seed: int, stream: int, expected: int) -> None:
    # Pinned before derive_seed moved out of sim.py: the same seeds must give the same games.
    assert derive_seed(seed, stream) == expected


def test_derived_seeds_are_63_bit_and_differ_by_stream_and_seed() -> None:
    values = {derive_seed(s, k) for s in range(50) for k in range(50)}
    assert len(values) == 2500
    assert all(0 <= v < 2**63 for v in values)


def test_streams_of_a_game_seed_do_not_overlap() -> None:
    # Each user's range of streams of one game's seed, as the table in the module says. The
    # Gymnasium opponent shares stream 2 with the terminal's computer on purpose (two programs,
    # never one game), so it is left out here.
    ranges = {
        "simulate agents": range(seeds.SIM_AGENT, seeds.SIM_AGENT + 2),
        "terminal opponent": range(seeds.TERMINAL_OPPONENT, seeds.TERMINAL_OPPONENT + 2),
        "match agents": range(seeds.MATCH_AGENT, seeds.MATCH_AGENT + 2),
        "server agent, first 10,000 plies": range(seeds.SERVER_AGENT, seeds.SERVER_AGENT + 10**4),
        "hints and analysis, first 10,000 plies": range(seeds.ADVICE, seeds.ADVICE + 10**4),
        "distilling teacher, first 10,000 plies": range(
            seeds.TEACHER_SAMPLE, seeds.TEACHER_SAMPLE + 10**4
        ),
    }
    taken: dict[int, str] = {}
    for user, streams in ranges.items():
        for stream in streams:
            assert stream not in taken, f"{user} and {taken[stream]} both draw stream {stream}"
            taken[stream] = user


def test_stream_numbers_are_the_ones_games_were_played_with() -> None:
    # A changed number changes every game drawn from it (records, arena and lab results).
    assert {
        name: getattr(seeds, name)
        for name in dir(seeds)
        if name.isupper() and name not in ("GOLDEN", "AGENT_PERSON")  # GOLDEN: engine.rng's
    } == {
        "SIM_AGENT": 0,
        "TERMINAL_OPPONENT": 2,
        "GYM_OPPONENT": 2,
        "MATCH_AGENT": 10,
        "SERVER_AGENT": 1_000_000,
        "ADVICE": 2_000_000,
        "TEACHER_SAMPLE": 3_000_000,
        "DEAL": 0,
        "OPPONENT_PLY": 0,
        "OPENSPIEL_GAME": 0,
        "BENCH_SAMPLE": 99,
        "BENCH_POSITION": 100,
        "BENCH_AGENT": 200,
    }


def test_bench_streams_do_not_overlap_for_up_to_a_hundred_positions() -> None:
    sample = {seeds.BENCH_SAMPLE}
    positions = set(range(seeds.BENCH_POSITION, seeds.BENCH_POSITION + 100))
    agents = set(range(seeds.BENCH_AGENT, seeds.BENCH_AGENT + 100))
    assert sample.isdisjoint(positions) and positions.isdisjoint(agents)
    assert sample.isdisjoint(agents)


def test_the_server_computer_seed_of_a_ply_is_pinned() -> None:
    # The server's computer decides with a fresh agent per ply, so a position asked again (after
    # a restart, an undo) gets the same answer while this value stays. Re-pinned when agent
    # seeds became one-way (issue 29; 5798288627908320491 before): stored games keep their
    # actions, so they still replay.
    from rebelspace.server.computer import agent_seed as server_seed

    assert server_seed(7, 3) == agent_seed(7, seeds.SERVER_AGENT + 3) == 7609328838728565


@pytest.mark.parametrize(
    ("seed", "stream", "expected"),
    [
        (0, 0, 4894819048255071337),
        (5, 11, 607113070920656064),
        (-3, 2, 5710098570023921892),
        (2**70, 2_000_005, 2369354937216332575),
    ],
)
def test_agent_seed_gives_the_pinned_values(seed: int, stream: int, expected: int) -> None:
    # The same seeds, the same games: a changed value changes every stochastic agent's games.
    assert agent_seed(seed, stream) == expected


@given(st.integers(), st.integers(min_value=0, max_value=10**7))
def test_agent_seeds_are_63_bit(seed: int, stream: int) -> None:
    assert 0 <= agent_seed(seed, stream) < 2**63


def test_agent_seeds_differ_by_stream_and_seed() -> None:
    values = {agent_seed(s, k) for s in range(-25, 25) for k in range(50)}
    assert len(values) == 2500


# --- the inversion attack (issue 29) -----------------------------------------------------------
#
# An agent holds its own seed and sees its own hand. If its seed came from the deal's seed by
# one SplitMix64 step (derive_seed, the scheme before issue 29), it can run the step backwards:
# the output lost its lowest bit (>> 1), so two candidates, and the hand tells which one dealt
# this game. With the deal's seed it knows the opponent's hand, both deck orders and every
# shuffle to come.

_MIX1, _MIX2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
_STREAM_STEP = 0xD1B54A32D192ED03  # derive_seed's stream multiplier


def _unxorshift(y: int, k: int) -> int:
    """The x with x ^ (x >> k) == y."""
    x = y
    for _ in range(64 // k + 1):
        x = y ^ (x >> k)
    return x


def _unmix64(z: int) -> int:
    """engine.rng.mix64 run backwards."""
    z = _unxorshift(z, 31)
    z = (z * pow(_MIX2, -1, 2**64)) & MASK64
    z = _unxorshift(z, 27)
    z = (z * pow(_MIX1, -1, 2**64)) & MASK64
    return _unxorshift(z, 30)


def _rebuild_deal(own_seed: int, side: int, own_hand: tuple[str, ...] | None) -> GameState | None:
    """The attack: the game whose deal gives this seed (as derive_seed made it) and this hand,
    or None when no candidate does."""
    for low_bit in (0, 1):
        x = _unmix64((own_seed << 1) | low_bit)
        deal = ((x - (MATCH_AGENT + side + 1) * _STREAM_STEP) * pow(GOLDEN, -1, 2**64)) & MASK64
        if deal >= 2**63:  # deal seeds are 63-bit
            continue
        candidate = new_game(deal, log=False)
        if candidate.view(side).you.hand == own_hand:
            return candidate
    return None


def _attack_wins(own_seed_of: Callable[[int, int], int]) -> int:
    """Deals of a run out of 20 whose opponent's hand and both deck orders the attack rebuilt
    from an agent's seed (``own_seed_of(deal, side)``) and its own hand."""
    rebuilt = 0
    for i in range(20):
        deal = deal_seed(29, i)
        game = new_game(deal, log=False)
        side = i % 2
        found = _rebuild_deal(own_seed_of(deal, side), side, game.view(side).you.hand)
        if found is not None:
            assert found.hand[1 - side] == game.hand[1 - side]  # the attacker sees too much
            rebuilt += found.deck == game.deck
    return rebuilt


def test_the_inversion_attack_rebuilds_every_deal_from_the_old_agent_seed() -> None:
    # The control: the attack is sound, so its failure below means the seed hides the deal.
    assert _attack_wins(lambda deal, side: derive_seed(deal, MATCH_AGENT + side)) == 20


def test_the_inversion_attack_rebuilds_no_deal_from_the_agent_seed() -> None:
    assert _attack_wins(match_seed) == 0
