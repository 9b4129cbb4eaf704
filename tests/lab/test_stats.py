"""Intervals and tests of the balance lab, against values worked out by hand."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rebelspace.lab.stats import (
    MIN_DEALS,
    enough,
    mean_ci,
    paired_diff,
    proportion_diff,
    t95,
    wilson,
)


def test_wilson_interval_matches_the_textbook_value() -> None:
    low, high = wilson(80, 100)
    assert low == pytest.approx(0.7112, abs=1e-4) and high == pytest.approx(0.8666, abs=1e-4)


def test_mean_interval_uses_students_t_not_the_normal_approximation() -> None:
    # Four samples: t(0.975, 3 degrees of freedom) = 3.1824 (tables), not z = 1.96.
    mean, low, high = mean_ci([1.0, 2.0, 3.0, 4.0])
    se = math.sqrt(((1.5**2 + 0.5**2) * 2 / 3) / 4)
    assert mean == 2.5 and high - mean == pytest.approx(3.1824 * se, rel=1e-4)
    assert mean - low == pytest.approx(high - mean)
    assert t95(1000) == pytest.approx(1.9623, abs=1e-4)
    assert mean_ci([5.0]) == (5.0, 5.0, 5.0)


def test_mean_interval_is_clamped_to_what_is_possible() -> None:
    # Four deals, three Rebel wins: the t interval would reach above 100%.
    mean, low, high = mean_ci([1.0, 1.0, 1.0, 0.0], (0.0, 1.0))
    assert mean == 0.75 and high == 1.0 and 0.0 <= low < 0.75
    # One sample says nothing: the interval is everything possible.
    assert mean_ci([0.5], (-0.5, 0.5)) == (0.5, -0.5, 0.5)


def test_a_number_on_fewer_deals_than_the_minimum_is_too_few() -> None:
    assert not enough(MIN_DEALS - 1) and enough(MIN_DEALS)


@given(st.lists(st.sampled_from([-1.0, 0.0, 1.0]), min_size=1, max_size=40))
def test_a_paired_difference_stays_within_plus_minus_100_points(d: list[float]) -> None:
    diff = paired_diff([0.0] * len(d), d)
    assert -1.0 <= diff.low <= diff.diff <= diff.high <= 1.0
    assert 0.0 <= diff.p_value <= 1.0


def test_paired_difference_p_value_is_the_t_tests() -> None:
    # d = (1, 1, 0, 1, 0, 1, 1, 1): mean 0.75, sd 0.4629, t = 4.583 on 7 df -> p = 0.00253.
    d = paired_diff([0.0] * 8, [1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 1.0])
    assert d.p_value == pytest.approx(0.00253, abs=2e-5)


def test_paired_difference_of_identical_runs_is_zero_and_not_significant() -> None:
    d = paired_diff([1, 0, 1, 1], [1, 0, 1, 1])
    assert (d.diff, d.low, d.high, d.significant) == (0, 0, 0, False)


def test_paired_difference_detects_a_clear_change() -> None:
    a = [0.0] * 60 + [1.0] * 40
    b = [1.0] * 100
    d = paired_diff(a, b)
    assert d.diff == pytest.approx(0.6) and d.significant and d.low > 0.5 and d.paired


def test_proportion_difference_and_its_test() -> None:
    d = proportion_diff(50, 100, 65, 100)
    assert d.diff == pytest.approx(0.15)
    # pooled z = 0.15 / sqrt(.575 * .425 * .02) = 2.144 -> p = 0.032
    assert d.p_value == pytest.approx(0.032, abs=0.001) and d.significant
    assert not proportion_diff(50, 100, 55, 100).significant
    with pytest.raises(ValueError):
        proportion_diff(0, 0, 1, 1)
