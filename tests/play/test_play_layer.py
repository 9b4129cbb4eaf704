"""The play layer (issue 14): one match runner, one duplicate schedule, one pool, and the agents'
shared guard, used alike by simulate, bench, the arena and the balance lab."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from rebelspace.agents import RandomAgent
from rebelspace.agents.base import NoLegalActionError, ThinkingAgent
from rebelspace.agents.heuristic import HeuristicAgent
from rebelspace.engine import GameState, PlayerView, context_for, new_game
from rebelspace.lab import games as lab_games
from rebelspace.lab.settings import RunSettings
from rebelspace.play import decider_for, play_match, play_out, run_game
from rebelspace.play.arena import tasks
from rebelspace.play.pool import batches, local_cores, parallel_map
from rebelspace.play.schedule import deal_seed, first_is_rebel, unit_of


def _first_legal(_game: GameState, legal: Sequence[int]) -> int:
    return legal[0]


def test_run_game_stops_a_game_that_does_not_end_with_a_clear_error() -> None:
    game = new_game(3, log=False)
    with pytest.raises(RuntimeError, match="game seed 3 is not over after 5 decisions"):
        run_game(game, (_first_legal, _first_legal), max_decisions=5)


def test_run_game_shows_the_observer_every_action_before_it_is_applied() -> None:
    game = new_game(4, log=False)
    seen: list[tuple[int, int]] = []
    decisions = run_game(
        game,
        (_first_legal, _first_legal),
        observe=lambda state, action: seen.append((len(state.history or ()), action)),
    )
    assert game.is_over and decisions == len(seen) > 0
    assert [plies for plies, _ in seen] == list(range(decisions))  # before each action
    assert [action for _, action in seen] == list(game.history or ())


def test_bulk_deciders_make_the_choices_the_agents_make_from_their_views() -> None:
    # The random and heuristic agents decide on the true state in bulk play; through their
    # views (the Agent interface) they must play the very same game.
    ctx = context_for()
    for seed in (5, 6):
        viewed = new_game(seed, log=False)
        play_out(viewed, [RandomAgent(1), HeuristicAgent(2, ctx)])
        bulk = new_game(seed, log=False)
        run_game(bulk, [decider_for(RandomAgent(1), 0), decider_for(HeuristicAgent(2, ctx), 1)])
        assert bulk.history == viewed.history and bulk.winner == viewed.winner


def test_the_arena_and_the_lab_deal_game_i_of_a_series_alike() -> None:
    seed = 11
    arena = tasks(["heuristic", "random"], 6, seed)
    run = RunSettings.build(("heuristic", "random"), seed)
    for i, task in enumerate(arena):
        assert task.game_seed == lab_games.deal_seed(run, i) == deal_seed(seed, i)
        assert lab_games.sides(run, i)[0] == ("heuristic" if task.a_is_rebel else "random")
    assert [unit_of(i) for i in range(4)] == [0, 0, 1, 1]
    assert [unit_of(i, twinned=False) for i in range(3)] == [0, 1, 2]
    assert [first_is_rebel(i) for i in range(3)] == [True, False, True]


def test_the_lab_and_the_arena_play_the_same_game_for_the_same_deal() -> None:
    run = RunSettings.build(("heuristic", "random"), 2)
    ctx = context_for(run.cards(), run.rules_options())
    row = lab_games.play_game(run, 1, ctx)
    match = play_match("random", "heuristic", lab_games.deal_seed(run, 1), ctx)
    played = (match.winner, match.game.turn, match.decisions)
    assert (row.winner, row.turns, row.decisions) == played
    assert row.first_player == match.first_player


def _square(x: int) -> int:
    return x * x


def test_parallel_map_gives_the_same_results_on_one_or_two_workers() -> None:
    jobs = list(range(7))
    assert list(parallel_map(_square, jobs, workers=1)) == [x * x for x in jobs]
    assert list(parallel_map(_square, jobs, workers=2)) == [x * x for x in jobs]
    assert sorted(parallel_map(_square, jobs, workers=2, ordered=False)) == [x * x for x in jobs]


def test_batches_cover_every_item_once_and_local_cores_counts_at_least_one() -> None:
    items = list(range(100))
    parts = batches(items, 2)
    assert [i for part in parts for i in part] == items and len(parts) > 2
    assert local_cores() >= 1


class _Counting(ThinkingAgent):
    __slots__ = ("calls",)

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, view: PlayerView, legal: Sequence[int]) -> int:  # noqa: ARG002
        self.calls += 1
        return legal[-1]


def test_a_thinking_agent_thinks_only_when_there_is_a_choice() -> None:
    game = new_game(1, log=False)
    view = game.view(game.to_move)
    agent = _Counting()
    assert agent.act(view, [7]) == 7 and agent.calls == 0
    assert agent.act(view, [3, 9]) == 9 and agent.calls == 1
    with pytest.raises(NoLegalActionError, match="no legal action"):
        agent.act(view, [])


def test_the_random_agent_refuses_a_finished_game_with_the_same_error() -> None:
    game = new_game(1, log=False)
    with pytest.raises(NoLegalActionError, match="RandomAgent"):
        RandomAgent(1).act(game.view(0), [])
