"""Rules options keep to their bounds (kept beside each option's definition, as data): each
end is accepted, one step past it is refused with an error naming the option and its bounds."""

from __future__ import annotations

import pytest

from rebelspace.engine import RulesOptions
from rebelspace.engine.options import OptionsError


def test_every_integer_option_has_bounds_around_its_ruling() -> None:
    bounds = RulesOptions.bounds()
    assert set(bounds) == {
        "hand_limit", "deploy_points", "starting_hand", "draw_min", "draw_max", "max_groups"
    }  # fmt: skip
    defaults = RulesOptions().to_dict()
    assert all(low <= defaults[name] <= high for name, (low, high) in bounds.items())


@pytest.mark.parametrize("name", sorted(RulesOptions.bounds()))
def test_each_end_is_accepted_and_one_past_it_refused(name: str) -> None:
    low, high = RulesOptions.bounds()[name]
    # draw_min may not exceed draw_max: move the other one along so only the bound is tested.
    partner = {"draw_min": "draw_max", "draw_max": "draw_min"}.get(name)
    for value in (low, high):
        settings = {name: value, **({partner: value} if partner else {})}
        assert getattr(RulesOptions.from_dict(settings), name) == value
    for value in (low - 1, high + 1):
        with pytest.raises(OptionsError, match=rf"{name} must be an integer >= {low} and at most "
                           rf"{high}, got {value}"):  # fmt: skip
            RulesOptions().with_setting(f"{name}={value}")


def test_a_starting_hand_larger_than_a_deck_is_refused() -> None:
    # The case: 500 cards in hand emptied the deck at setup (the Imperial won in a turn).
    with pytest.raises(OptionsError, match="starting_hand"):
        RulesOptions().with_setting("starting_hand=500")
