"""Only independent games count: mirror runs deal every game afresh, and twinned games (one deal
played twice, sides swapped) are one unit of the statistics."""

from __future__ import annotations

from pathlib import Path

import pytest

from rebelspace.lab.analysis import rate_of
from rebelspace.lab.games import deal_seed, unit_of
from rebelspace.lab.runner import run_balance
from rebelspace.lab.settings import RunSettings
from rebelspace.lab.stats import paired_diff, unit_paired_diff, unit_rate, wilson
from rebelspace.lab.store import Store


def test_a_mirror_run_stores_no_two_identical_games(tmp_path: Path) -> None:
    run = RunSettings.build(("heuristic", "heuristic"), 4)
    with Store(tmp_path / "lab.sqlite") as store:
        run_balance(run, 60, store, workers=1, progress=False)
        games = list(store.games(run.run_id))
    assert len(games) == 60
    assert len({g.deal_seed for g in games}) == 60
    bodies = {
        (g.winner, g.turns, g.decisions, tuple(sorted(g.plays.items())), tuple(g.deck_sizes))
        for g in games
    }
    assert len(bodies) == 60


def test_each_mirror_game_is_its_own_unit_and_twins_share_one() -> None:
    mirror = RunSettings.build(("random", "random"), 1)
    twinned = RunSettings.build(("random", "heuristic"), 1)
    assert [unit_of(mirror, i) for i in range(4)] == [0, 1, 2, 3]
    assert [unit_of(twinned, i) for i in range(4)] == [0, 0, 1, 1]
    assert deal_seed(mirror, 0) != deal_seed(mirror, 1)
    assert deal_seed(twinned, 0) == deal_seed(twinned, 1)


def test_mirror_runs_have_new_ids_and_twinned_runs_keep_theirs() -> None:
    # Old mirror runs (each deal twice) must not be resumed into new statistics; twinned runs
    # deal as before, so their games and ids stay.
    assert RunSettings.build(("random", "random"), 1).identity()["deals"] == "distinct"
    assert "deals" not in RunSettings.build(("random", "heuristic"), 1).identity()


def test_a_rate_of_single_game_units_is_the_wilson_interval() -> None:
    rate = unit_rate([[True]] * 30 + [[False]] * 70)
    assert (rate.low, rate.high) == wilson(30, 100)
    assert rate.effective == 100


def test_duplicated_games_count_once() -> None:
    # The old mirror bug: every game stored twice. Counted by unit, the copies add nothing.
    once = unit_rate([[True]] * 30 + [[False]] * 70)
    twice = unit_rate([[True, True]] * 30 + [[False, False]] * 70)
    assert twice.effective == pytest.approx(100)
    assert (twice.low, twice.high) == pytest.approx((once.low, once.high))


def test_pairs_never_count_for_more_than_their_games() -> None:
    # Each pair one win and one loss: less variance than independent games, but the interval
    # claims no more than the games played.
    rate = unit_rate([[True, False]] * 50)
    assert rate.effective == 100
    assert (rate.low, rate.high) == wilson(50, 100)


def test_paired_difference_of_duplicated_games_is_that_of_one_copy() -> None:
    a = [0.0] * 40 + [1.0] * 60
    b = [1.0] * 55 + [0.0] * 5 + [1.0] * 40
    single = paired_diff(a, b)
    doubled = unit_paired_diff([[x, x] for x in a], [[y, y] for y in b])
    assert doubled.n == single.n == 100
    assert (doubled.low, doubled.high, doubled.p_value) == pytest.approx(
        (single.low, single.high, single.p_value)
    )


def test_a_twinned_run_rate_counts_its_deals(tmp_path: Path) -> None:
    run = RunSettings.build(("heuristic", "random"), 3)
    with Store(tmp_path / "lab.sqlite") as store:
        result = run_balance(run, 40, store, workers=1, progress=False)
        rate = rate_of(run, store.games(run.run_id), lambda r: r.winner == 0)
    assert rate.units == 20 and rate.games == 40
    assert 20 <= rate.effective <= 40
    assert result.ci95 == (rate.low, rate.high)
