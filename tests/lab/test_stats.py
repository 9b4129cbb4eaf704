"""Intervals and tests of the balance lab, against values worked out by hand."""

from __future__ import annotations

import math

import pytest

from rebelspace.lab.stats import mean_ci, paired_diff, proportion_diff, wilson


def test_wilson_interval_matches_the_textbook_value() -> None:
    low, high = wilson(80, 100)
    assert low == pytest.approx(0.7112, abs=1e-4) and high == pytest.approx(0.8666, abs=1e-4)


def test_mean_interval_is_mean_plus_minus_z_standard_errors() -> None:
    mean, low, high = mean_ci([1.0, 2.0, 3.0, 4.0])
    se = math.sqrt(((1.5**2 + 0.5**2) * 2 / 3) / 4)
    assert mean == 2.5 and high - mean == pytest.approx(1.959964 * se)
    assert mean_ci([5.0]) == (5.0, 5.0, 5.0)


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
