"""The arena: Wilson intervals, Bradley-Terry ratings, duplicate-format tasks, the same results
on one or several processes, the summary's JSON and the ``arena`` command."""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rebelspace import cli
from rebelspace.agents.heuristic import HeuristicAgent
from rebelspace.agents.ismcts import ISMCTSAgent
from rebelspace.engine import context_for, new_game
from rebelspace.play.arena import GameResult, Task, play_task, run_tasks, summarize, tasks
from rebelspace.play.match import bulk_agent, decider_for, match_agents, run_game
from rebelspace.play.stats import DealCounts, bradley_terry_elo, deal_counts, unit_rate, wilson
from rebelspace.seeds import derive_seed

Z95 = 1.959964

# ----------------------------------------------------------------------------- wilson


def wilson_by_quadratic(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson bounds as the roots of (p - phat)^2 = z^2 p (1 - p) / n, solved for p: an
    independent route to the same interval."""
    phat = wins / games
    a = 1 + z * z / games
    b = -(2 * phat + z * z / games)
    c = phat * phat
    root = math.sqrt(b * b - 4 * a * c)
    return ((-b - root) / (2 * a), (-b + root) / (2 * a))


@pytest.mark.parametrize(
    ("wins", "games", "published"),
    [
        (0, 10, (0.0, 0.2775)),
        (10, 10, (0.7225, 1.0)),
        (5, 10, (0.2366, 0.7634)),
        (1, 10, (0.0179, 0.4042)),
        (81, 263, (0.2553, 0.3662)),
    ],
)
def test_wilson_known_values(wins: int, games: int, published: tuple[float, float]) -> None:
    lo, hi = wilson(wins, games)
    qlo, qhi = wilson_by_quadratic(wins, games)
    assert lo == pytest.approx(qlo, abs=1e-3) and hi == pytest.approx(qhi, abs=1e-3)
    assert lo == pytest.approx(published[0], abs=1e-3)
    assert hi == pytest.approx(published[1], abs=1e-3)


def test_wilson_with_no_games_is_the_whole_range() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 100_000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_bounds_lie_in_0_1_around_the_rate(record: tuple[int, int]) -> None:
    wins, games = record
    lo, hi = wilson(wins, games)
    assert lo >= 0.0 and hi <= 1.0
    # Around the observed rate (to rounding: at 0 wins the lower bound comes out as ~1e-18).
    assert lo <= wins / games + 1e-12 and wins / games - 1e-12 <= hi
    qlo, qhi = wilson_by_quadratic(wins, games)
    assert lo == pytest.approx(max(0.0, qlo), abs=1e-9)
    assert hi == pytest.approx(min(1.0, qhi), abs=1e-9)
    # Mirror: the interval of the losses is the mirror image of the interval of the wins.
    mlo, mhi = wilson(games - wins, games)
    assert mlo == pytest.approx(1 - hi, abs=1e-9) and mhi == pytest.approx(1 - lo, abs=1e-9)


def test_wilson_narrows_with_more_games() -> None:
    widths = [wilson(n // 2, n)[1] - wilson(n // 2, n)[0] for n in (10, 100, 1000, 10000)]
    assert widths == sorted(widths, reverse=True)


# ----------------------------------------------------------------------------- Bradley-Terry


def test_bradley_terry_stronger_record_rates_higher() -> None:
    names = ["a", "b", "c"]
    wins = {
        ("a", "b"): 8,
        ("b", "a"): 2,
        ("b", "c"): 7,
        ("c", "b"): 3,
        ("a", "c"): 9,
        ("c", "a"): 1,
    }
    r = bradley_terry_elo(names, wins)
    assert r["a"] > r["b"] > r["c"]
    assert sum(r.values()) / 3 == pytest.approx(1500, abs=0.1)


def test_bradley_terry_two_agents_match_the_closed_form() -> None:
    """Two agents: strengths in the ratio of wins (each with the half win added), so the gap
    is 400 log10(8.5 / 2.5) Elo, centred on 1500."""
    r = bradley_terry_elo(["x", "y"], {("x", "y"): 8, ("y", "x"): 2})
    gap = 400 * math.log10(8.5 / 2.5)
    assert r["x"] == pytest.approx(1500 + gap / 2, abs=0.1)
    assert r["y"] == pytest.approx(1500 - gap / 2, abs=0.1)


@pytest.mark.parametrize(
    "wins",
    [
        {("a", "b"): 5, ("b", "a"): 5},
        {("a", "b"): 6, ("b", "a"): 4, ("b", "c"): 6, ("c", "b"): 4, ("c", "a"): 6, ("a", "c"): 4},
        {},
    ],
    ids=["even pair", "cycle", "no games"],
)
def test_bradley_terry_symmetric_results_give_equal_ratings(
    wins: dict[tuple[str, str], int],
) -> None:
    names = sorted({n for pair in wins for n in pair} or {"a", "b"})
    r = bradley_terry_elo(names, wins)
    assert set(r) == set(names)
    for name in names:
        assert r[name] == pytest.approx(1500, abs=0.1)


def test_bradley_terry_unbeaten_agent_gets_a_finite_rating() -> None:
    r = bradley_terry_elo(["a", "b"], {("a", "b"): 20})
    assert math.isfinite(r["a"]) and math.isfinite(r["b"]) and r["a"] > r["b"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 20), min_size=6, max_size=6))
def test_bradley_terry_mean_is_1500(counts: list[int]) -> None:
    names = ["p", "q", "r"]
    pairs = [(x, y) for x in names for y in names if x != y]
    r = bradley_terry_elo(names, dict(zip(pairs, counts, strict=True)))
    assert set(r) == set(names)
    assert sum(r.values()) / 3 == pytest.approx(1500, abs=0.1)


# ----------------------------------------------------------------------------- tasks


@pytest.mark.parametrize("games", [1, 2, 3, 4, 5, 10])
def test_tasks_are_duplicate_games_per_pair(games: int) -> None:
    agents = ["random", "heuristic", "ismcts:easy"]
    todo = tasks(agents, games, seed=9)
    pairs = [("random", "heuristic"), ("random", "ismcts:easy"), ("heuristic", "ismcts:easy")]
    assert Counter((t.a, t.b) for t in todo) == {pair: games for pair in pairs}
    expected_seeds = [derive_seed(9, i) for i in range((games + 1) // 2)]
    for pair in pairs:
        mine = [t for t in todo if (t.a, t.b) == pair]
        assert sorted({t.game_seed for t in mine}) == sorted(expected_seeds)
        sides = Counter((t.game_seed, t.a_is_rebel) for t in mine)
        for k, seed in enumerate(expected_seeds):
            # Each seed twice, sides swapped; with an odd count the last seed once.
            if 2 * k + 1 < games:
                assert sides[(seed, True)] == 1 and sides[(seed, False)] == 1
            else:
                assert sides[(seed, True)] == 1 and sides[(seed, False)] == 0
        rebel_games = sum(t.a_is_rebel for t in mine)
        assert rebel_games - (games - rebel_games) == games % 2


def test_tasks_depend_on_the_seed() -> None:
    a = tasks(["random", "heuristic"], 4, seed=1)
    assert a == tasks(["random", "heuristic"], 4, seed=1)
    assert {t.game_seed for t in a}.isdisjoint({t.game_seed for t in tasks(["x", "y"], 4, 2)})


# ----------------------------------------------------------------------------- running


AGENTS = ["random", "heuristic"]


def test_play_task_is_deterministic_and_duplicate_swaps_sides() -> None:
    seed = derive_seed(3, 0)
    one = play_task(Task("random", "heuristic", seed, True))
    assert one == play_task(Task("random", "heuristic", seed, True))
    assert one.turns > 0 and one.decisions > 0
    swapped = play_task(Task("random", "heuristic", seed, False))
    assert isinstance(swapped, GameResult) and swapped.task.a_is_rebel is False


def test_run_tasks_gives_the_same_results_on_one_or_two_workers() -> None:
    todo = tasks(AGENTS, 4, seed=2)
    one = list(run_tasks(todo, workers=1, progress=False))
    two = list(run_tasks(todo, workers=2, progress=False))
    assert one == two
    assert [r.task for r in one] == todo


def test_run_tasks_in_order_on_one_worker() -> None:
    todo = tasks(AGENTS, 4, seed=2)
    results = list(run_tasks(todo, workers=1, progress=False))
    assert [r.task for r in results] == todo
    assert results == [play_task(t) for t in todo]


def test_summarize_fields() -> None:
    agents = ["random", "heuristic", "ismcts:easy"]
    todo = tasks(agents, 3, seed=0)
    # Made-up results (who won does not need real games): heuristic beats random every time.
    results = [
        GameResult(t, t.a == "heuristic" or (t.a == "random" and t.b == "ismcts:easy"), 10, 99)
        for t in todo
    ]
    summary = summarize(agents, results)
    assert set(summary) == {"matches", "ratings", "games", "mean_turns"}
    assert summary["games"] == len(todo) == 9 and summary["mean_turns"] == 10.0
    assert set(summary["ratings"]) == set(agents)
    matches = {(m["a"], m["b"]): m for m in summary["matches"]}
    assert set(matches) == {
        ("random", "heuristic"),
        ("random", "ismcts:easy"),
        ("heuristic", "ismcts:easy"),
    }
    for m in summary["matches"]:
        assert set(m) == {
            "a", "b", "games", "deals", "a_wins", "a_win_rate", "ci95",
            "won_both", "lost_both", "split",
        }  # fmt: skip
        # Game 2 is a deal of one game: in none of the three counts.
        assert m["won_both"] + m["lost_both"] + m["split"] == 1
        assert m["games"] == 3 and m["deals"] == 2  # games 0 and 1 are one deal, game 2 another
        assert m["a_win_rate"] == round(m["a_wins"] / m["games"], 4)
        per_deal: dict[int, list[bool]] = {}
        for r in results:
            if (r.task.a, r.task.b) == (m["a"], m["b"]):
                per_deal.setdefault(r.task.game_seed, []).append(r.a_won)
        rate = unit_rate(list(per_deal.values()))
        assert m["ci95"] == [round(rate.low, 4), round(rate.high, 4)]
    assert matches[("random", "heuristic")]["lost_both"] == 1
    assert matches[("heuristic", "ismcts:easy")]["won_both"] == 1
    assert matches[("random", "heuristic")]["a_wins"] == 0
    assert matches[("random", "ismcts:easy")]["a_wins"] == 3
    assert matches[("heuristic", "ismcts:easy")]["a_wins"] == 3
    r = summary["ratings"]
    assert r["heuristic"] > r["random"] > r["ismcts:easy"]
    json.dumps(summary)  # the command prints it as JSON


def test_summarize_of_nothing() -> None:
    summary = summarize(["random", "heuristic"], [])
    assert summary["matches"] == [] and summary["games"] == 0 and summary["mean_turns"] == 0.0
    assert summary["ratings"] == {"random": 1500.0, "heuristic": 1500.0}


# ----------------------------------------------------------------------------- command


def test_arena_command_prints_the_summary_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    """Default workers: every core, through the process pool."""
    argv = ["arena", "--agents", "random,heuristic", "--games", "4", "--seed", "1", "--json"]
    assert cli.main(argv) == 0
    printed = json.loads(capsys.readouterr().out)
    expected = summarize(AGENTS, list(run_tasks(tasks(AGENTS, 4, 1), workers=1, progress=False)))
    assert printed == json.loads(json.dumps(expected))
    assert printed["games"] == 4 and len(printed["matches"]) == 1
    assert printed["matches"][0]["a"] == "random" and printed["matches"][0]["b"] == "heuristic"


def test_arena_command_on_one_worker(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--agents", "random, heuristic", "--games", "3", "--seed", "1"]
    assert cli.main([*argv, "--workers", "1", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    expected = summarize(AGENTS, list(run_tasks(tasks(AGENTS, 3, 1), workers=1, progress=False)))
    assert printed == json.loads(json.dumps(expected))
    assert cli.main([*argv, "--workers", "1"]) == 0
    text = capsys.readouterr().out
    assert "random" in text and "heuristic" in text and "Ratings" in text


@pytest.mark.parametrize(
    ("agents", "message"),
    [
        (
            "random,alphazero",
            "unknown agent 'alphazero'; known: distilled, heuristic, ismcts, openspiel-ismcts, "
            "policy, random",
        ),
        ("random,ismcts:insane", "ismcts level must be one of easy, normal, hard"),
        ("random,random", "--agents needs at least two different agents"),
        ("heuristic", "--agents needs at least two different agents"),
        (" , random ,", "--agents needs at least two different agents"),
        ("", "--agents needs at least two different agents"),
    ],
)
def test_arena_command_refuses_bad_agents(
    agents: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["arena", "--agents", agents, "--games", "2", "--workers", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("rebelspace arena: ") and message in err, err


def test_arena_command_refuses_a_non_ascii_digit_level(capsys: pytest.CaptureFixture[str]) -> None:
    """Once a traceback ('²' passed isdigit() and failed int()); now a clear refusal."""
    assert cli.main(["arena", "--agents", "random,ismcts:²", "--games", "2"]) == 2
    assert "ismcts level must be one of" in capsys.readouterr().err


def test_deal_counts_say_which_deals_went_one_way_both_times() -> None:
    counts = deal_counts([[True, True], [False, False], [True, False], [False, True], [True]])
    assert counts == DealCounts(won_both=1, lost_both=1, split=2)
    assert counts.text() == "deals won both 1, lost both 1, split 2"


def test_the_arena_prints_each_pairs_deal_counts(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--agents", "random,heuristic", "--games", "4", "--seed", "1"]
    assert cli.main([*argv, "--workers", "1"]) == 0
    text = capsys.readouterr().out
    assert cli.main([*argv, "--workers", "1", "--json"]) == 0
    (m,) = json.loads(capsys.readouterr().out)["matches"]
    assert m["won_both"] + m["lost_both"] + m["split"] == m["deals"] == 2
    assert (
        f"random won both {m['won_both']}, lost both {m['lost_both']}, split {m['split']}"
    ) in text


def test_bulk_searches_run_their_iterations_unless_given_cpu_time() -> None:
    ctx = context_for()
    by_work = bulk_agent("ismcts:easy", ctx, 1)
    assert isinstance(by_work, ISMCTSAgent)
    assert by_work.budget.seconds is None and by_work.budget.iterations == 12
    timed = bulk_agent("ismcts:easy", ctx, 1, cpu=0.01)
    assert isinstance(timed, ISMCTSAgent)
    assert timed.budget.seconds == 0.01 and timed.budget.iterations > 10**6
    assert type(bulk_agent("heuristic", ctx, 1, cpu=0.01)) is HeuristicAgent  # as ever


def test_a_game_at_equal_cpu_time_ends_every_search_by_its_time() -> None:
    # Each search is given more iterations than it can run, so its CPU time alone stops it:
    # both sides think for the same time a decision, whatever their iterations cost.
    ctx = context_for()
    game = new_game(3, log=False)
    agents = match_agents("ismcts:easy", "ismcts:normal", 3, ctx, cpu=0.002)
    deciders = [decider_for(agent, side) for side, agent in enumerate(agents)]
    run_game(game, deciders)
    for agent in agents:
        assert isinstance(agent, ISMCTSAgent)
        assert agent.searches > 0 and agent.capped == agent.searches


def test_an_arena_task_carries_its_cpu_time_to_the_game() -> None:
    (task,) = tasks(["random", "ismcts:easy"], 1, 5, cpu=0.002)
    assert task.cpu == 0.002
    assert play_task(task).turns > 0
