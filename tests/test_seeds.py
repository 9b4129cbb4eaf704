"""``rebelspace.seeds``: derived seeds stay what they were, and the streams do not collide."""

from __future__ import annotations

import pytest

from rebelspace import seeds
from rebelspace.seeds import derive_seed


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
        if name.isupper() and name != "GOLDEN"  # GOLDEN: engine.rng's, imported
    } == {
        "SIM_AGENT": 0,
        "TERMINAL_OPPONENT": 2,
        "GYM_OPPONENT": 2,
        "MATCH_AGENT": 10,
        "SERVER_AGENT": 1_000_000,
        "ADVICE": 2_000_000,
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
    # The server's computer decides with a fresh agent per ply: a stored game replays only if
    # this stays the value it was before the streams were named.
    from rebelspace.server.computer import agent_seed

    assert agent_seed(7, 3) == 5798288627908320491
