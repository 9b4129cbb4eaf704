"""The balance lab's tally (engine/tally.py): kills, damage and deck sizes counted by the rules."""

from __future__ import annotations

import random
import re

from rebelspace.engine import GameState, new_game
from rebelspace.engine.tally import Tally
from tests.engine.helpers import play, start

THROUGH = re.compile(r"gets through for (\d+) damage")


def tallied(s: GameState) -> GameState:
    s.tally = Tally(len(s.cards.types))
    return s


def by_name(s: GameState, counts: list[int]) -> dict[str, int]:
    return {s.cards.types[i].name: n for i, n in enumerate(counts) if n}


def test_tally_is_off_unless_asked_and_never_copied() -> None:
    assert new_game(seed=1).tally is None
    g = new_game(seed=1, tally=True)
    assert g.tally is not None and g.tally.deck_sizes == [(71, 62)]
    assert g.clone().tally is None  # search copies pay nothing


def test_tally_credits_unblocked_damage_per_unit_r20() -> None:
    s = tallied(
        start(
            player="imperial",
            phase="attack",
            imperial={"active": ["Troopers", "Bombers"]},
            battle={"groups": [{"kind": "ground", "units": ["Troopers"]},
                               {"kind": "space", "units": ["Bombers"]}]},
        )
    )  # fmt: skip
    play(s, "pass", "pass")
    assert s.tally is not None
    assert by_name(s, s.tally.damage) == {"Troopers": 1, "Bombers": 2}
    assert not any(s.tally.kills)


def test_tally_shields_stop_ships_damage_credit_too() -> None:
    s = tallied(
        start(
            player="imperial",
            phase="attack",
            rebel={"active": ["Defense Shields"]},
            imperial={"active": ["Troopers", "Space Cruiser"]},
            battle={"groups": [{"kind": "ground", "units": ["Troopers"]},
                               {"kind": "space", "units": ["Space Cruiser"]}]},
        )
    )  # fmt: skip
    play(s, "pass", "pass")
    assert s.tally is not None and by_name(s, s.tally.damage) == {"Troopers": 1}


def test_tally_credits_battle_kills_and_casualty_picks_r18_r19() -> None:
    # 3 Soldiers and 2 Grav Cycles (7) beat Squad Leader (3); Squad Leader's loss buys a pick.
    s = tallied(
        start(
            phase="attack",
            rebel={"active": ["Rebel Soldier"] * 3 + ["Grav Cycles"] * 2},
            imperial={"active": ["Squad Leader"]},
            battle={"groups": [{"kind": "ground",
                                "units": ["Rebel Soldier"] * 3 + ["Grav Cycles"] * 2,
                                "blockers": ["Squad Leader"]}]},
        )
    )  # fmt: skip
    play(s, "pass", "pass")
    assert s.tally is not None
    # Each unit of the winning group is credited with the one unit destroyed (3 Soldiers).
    assert by_name(s, s.tally.kills) == {"Rebel Soldier": 3, "Grav Cycles": 2}
    s.apply("pick Rebel Soldier as a casualty")
    assert by_name(s, s.tally.kills) == {"Rebel Soldier": 3, "Grav Cycles": 2, "Squad Leader": 1}


def test_tally_tie_credits_both_groups_r18() -> None:
    s = tallied(
        start(
            phase="attack",
            rebel={"active": ["Air Speeders", "Grav Cycles"]},
            imperial={"active": ["Battle Walkers"]},
            battle={"groups": [{"kind": "ground", "units": ["Air Speeders", "Grav Cycles"],
                                "blockers": ["Battle Walkers"]}]},
        )
    )  # fmt: skip
    play(s, "pass", "pass")
    assert s.tally is not None
    assert by_name(s, s.tally.kills) == {"Air Speeders": 1, "Grav Cycles": 1, "Battle Walkers": 2}


def test_tally_deck_sizes_and_damage_agree_with_the_game_log() -> None:
    rng = random.Random(5)
    for seed in range(20):
        g = new_game(seed, tally=True)
        while g.to_move >= 0:
            g.apply(rng.choice(g.legal_actions()))
        assert g.tally is not None
        assert len(g.tally.deck_sizes) == g.turn  # one entry per turn started
        assert g.tally.deck_sizes[0] == (71, 62)
        for (r0, i0), (r1, i1) in zip(g.tally.deck_sizes, g.tally.deck_sizes[1:], strict=False):
            assert r1 <= r0 and i1 <= i0  # decks only shrink
        # The log states each group's damage; the tally counts it unit by unit.
        logged = sum(int(m.group(1)) for line in g.log_lines() if (m := THROUGH.search(line)))
        assert sum(g.tally.damage) == logged
