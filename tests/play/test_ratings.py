"""``rebelspace ladder`` (issue 17): Elo ratings of the levels, bootstrap intervals over deals."""

from __future__ import annotations

from typing import Any

import pytest

from rebelspace import cli
from rebelspace.agents.registry import EXPERIMENTAL_LEVELS, LEVEL_NAMES, OFFERED_LEVELS
from rebelspace.play.arena import GameResult, Task
from rebelspace.play.ratings import (
    ANCHOR,
    LEVELS,
    SHOWN_DEALS,
    agent_of,
    ladder,
    level_ratings,
    markdown,
    published,
    rate,
)
from rebelspace.terminal.session import Opponent


def _series(a: str, b: str, a_wins: list[bool]) -> list[GameResult]:
    """Results of a pair in the order ``tasks`` plays them (deal k: games 2k and 2k + 1)."""
    return [GameResult(Task(a, b, i // 2, i % 2 == 0), won, 10, 50) for i, won in enumerate(a_wins)]


def test_the_anchor_is_pinned_and_a_stronger_level_rates_higher() -> None:
    results = _series("heuristic", "random", [True] * 7 + [False]) + _series(
        "heuristic", "ismcts:easy", [True, False, True, False, False, True, True, False]
    )
    ratings = {r.level: r for r in rate(["random", "heuristic", "easy"], results, seed=1)}
    assert ratings["heuristic"].elo == ANCHOR == ratings["heuristic"].low
    assert ratings["random"].elo < ANCHOR - 200
    assert ratings["random"].low <= ratings["random"].elo <= ratings["random"].high
    assert ratings["random"].high - ratings["random"].low > 50  # 8 games: a wide interval
    assert (ratings["random"].games, ratings["random"].wins) == (8, 1)
    assert ratings["easy"].agent == "ismcts:easy" == agent_of("easy")


def test_the_bootstrap_is_seeded_and_keeps_a_deals_two_games_together() -> None:
    # Every deal split 1-1: whatever deals a replicate draws, the pair stays level.
    results = _series("heuristic", "random", [True, False] * 5)
    one = rate(["random", "heuristic"], results, seed=3)
    assert one == rate(["random", "heuristic"], results, seed=3)
    random_level = next(r for r in one if r.level == "random")
    assert random_level.elo == random_level.low == random_level.high == ANCHOR


def test_a_level_that_lost_every_game_is_marked_as_bounded() -> None:
    results = _series("heuristic", "random", [True] * 6)
    ratings = {r.level: r for r in rate(["random", "heuristic"], results, seed=1)}
    assert ratings["random"].bound == "upper" and ratings["heuristic"].bound == "lower"
    table = {
        "ratings": [r.to_dict() for r in ratings.values()],
        "anchor": {"level": "heuristic", "elo": ANCHOR},
        "games_per_pair": 6,
        "seed": 1,
    }
    assert "at most " in markdown(table) and "at least " in markdown(table)


def test_the_same_seed_gives_the_same_ladder_on_one_or_two_workers() -> None:
    one = ladder(["random", "heuristic"], 4, 9, workers=1, progress=False)
    two = ladder(["random", "heuristic"], 4, 9, workers=2, progress=False)
    assert one == two
    (pair,) = one["pairs"]
    by_level = {r["level"]: r for r in one["ratings"]}
    assert (pair["a"], pair["b"], pair["games"]) == ("random", "heuristic", 4)
    assert pair["first_game"]["a_is_rebel"] and pair["first_game"]["turns"] > 0
    assert pair["a_wins"] == by_level["random"]["wins"]
    assert 4 - pair["a_wins"] == by_level["heuristic"]["wins"]


def test_ladder_refuses_a_bad_level_before_any_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["ladder", "--levels", "random,grandmaster"]) == 2
    assert "unknown agent 'grandmaster'" in capsys.readouterr().err
    assert cli.main(["ladder", "--levels", "random,random"]) == 2


def _published() -> dict[str, Any]:
    data = published()
    assert data is not None, "the package ships the ladder's table (rebelspace ladder --publish)"
    return data


def test_the_published_check_ladder_is_what_the_shipped_code_plays() -> None:
    check = _published()["check"]
    again = ladder(check["levels"], check["games"], check["seed"], workers=1, progress=False)
    assert again == check["table"]


def test_the_published_table_rates_every_level_a_player_can_choose() -> None:
    table = _published()["table"]
    assert {r["level"] for r in table["ratings"]} == set(LEVELS)
    assert {r["agent"] for r in table["ratings"]} == set(LEVELS.values())
    assert all(p["games"] == table["games_per_pair"] for p in table["pairs"])


def _table_of(games_per_pair: int) -> dict[str, Any]:
    ratings = [
        {"level": level, "agent": agent_of(level), "elo": elo, "ci95": [elo - 50, elo + 50],
         "games": 10, "wins": 5, "bound": ""}
        for level, elo in (("hard", 1800), ("normal", 1750), ("expert", 1700), ("easy", 1400),
                           ("heuristic", 1500))
    ]  # fmt: skip
    return {"table": {"ratings": ratings, "games_per_pair": games_per_pair, "seed": 1}}


def test_the_lobby_shows_no_ratings_from_a_ladder_too_small_to_order_the_levels() -> None:
    # Issue 29: 10 deals a pair ranked hard above normal above expert; none of it was shown.
    assert level_ratings(_table_of(2 * SHOWN_DEALS - 2))["levels"] == []
    assert level_ratings(_published())["levels"] == []  # the shipped table: 10 deals a pair


def test_the_lobby_never_rates_an_experimental_level() -> None:
    shown = level_ratings(_table_of(2 * SHOWN_DEALS))
    assert [r["level"] for r in shown["levels"]] == ["normal", "easy", "heuristic"]
    assert shown["experimental"] == ["ismcts:hard", "ismcts:expert"]


def test_the_offered_levels_are_the_ones_shown_in_order_and_the_rest_say_they_are_not() -> None:
    assert OFFERED_LEVELS == ("easy", "normal")
    assert set(LEVEL_NAMES) == {*OFFERED_LEVELS, *EXPERIMENTAL_LEVELS}
    assert Opponent("ismcts", "expert", 1).label == (
        "ISMCTS, expert level (experimental: not shown stronger than normal)"
    )
    assert Opponent("ismcts", "normal", 1).label == "ISMCTS, normal level"


def test_the_ladders_text_gives_each_pairs_deal_counts() -> None:
    table = ladder(["random", "heuristic"], 4, 9, workers=1, progress=False)
    (pair,) = table["pairs"]
    assert pair["won_both"] + pair["lost_both"] + pair["split"] == 2
    row = (
        f"| random vs heuristic | 4 | {pair['a_wins']} | {pair['won_both']} "
        f"| {pair['lost_both']} | {pair['split']} |"
    )
    assert row in markdown(table).splitlines()


def test_a_ladder_at_equal_cpu_time_is_not_published(capsys: pytest.CaptureFixture[str]) -> None:
    # The published table must be the one a seed gives again (the check ladder replays it).
    assert cli.main(["ladder", "--publish", "--cpu-per-decision", "0.1"]) == 2
    assert "--cpu-per-decision" in capsys.readouterr().err
