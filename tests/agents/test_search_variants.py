"""The search variants measured on the yardstick at equal CPU (issue 29): each is a ``Budget``
option, off by default, named in an agent spec as ``ismcts:LEVEL+NAME=VALUE``."""

from __future__ import annotations

import pytest

from rebelspace.agents.ismcts import LEVELS, ISMCTSAgent, Node, _final_choice, _summed
from rebelspace.agents.registry import AgentSpecError, make_agent
from rebelspace.engine import context_for
from tests.agents.test_ismcts_levels import choice_point


def test_a_spec_sets_budget_options_on_a_level() -> None:
    agent = make_agent("ismcts:normal+trees=4+final=lcb+rollout_turns=1", context_for(), 3)
    assert isinstance(agent, ISMCTSAgent)
    want = LEVELS["normal"]
    assert agent.budget.trees == 4 and agent.budget.final == "lcb"
    assert agent.budget.rollout_turns == 1 and agent.budget.iterations == want.iterations
    assert agent.budget.thrift == want.thrift


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:normal+colour=red",
        "ismcts:normal+trees",
        "ismcts:normal+trees=many",
        "ismcts:normal+final=best",
        "ismcts:normal+trees=-1",
        "ismcts:normal+evaluation=magic",
        "ismcts:lots+trees=2",
    ],
)
def test_a_bad_budget_option_is_refused_by_name(spec: str) -> None:
    with pytest.raises(AgentSpecError):
        make_agent(spec, context_for(), 3)


def test_the_variants_are_off_in_every_level() -> None:
    for name, budget in LEVELS.items():
        assert budget.trees == 0 and budget.final == "visits", name


def test_an_ensemble_sums_its_trees_visits_and_is_determined_by_its_seed() -> None:
    game = choice_point(7)
    view, legal = game.view(game.to_move), game.legal_actions()
    runs = []
    for _ in range(2):
        agent = make_agent("ismcts:60+trees=3", game.ctx, 11)
        assert isinstance(agent, ISMCTSAgent)
        action = agent.act(view, legal)
        root = agent.last_root
        assert root is not None and action in legal
        assert root.visits == sum(c.visits for c in root.children.values()) == 60
        runs.append((action, {a: c.visits for a, c in root.children.items()}))
    assert runs[0] == runs[1]


def test_summing_roots_adds_each_actions_visits_and_rewards() -> None:
    roots = []
    for visits, reward in ((3, 1.5), (5, 4.0)):
        r = Node(1)
        child = Node(0)
        child.visits, child.reward, child.avail = visits, reward, visits
        r.children[7] = child
        r.visits = visits
        roots.append(r)
    merged = _summed(roots, 0)
    assert merged.visits == 8
    assert (merged.children[7].visits, merged.children[7].reward) == (8, 5.5)


def test_the_lower_bound_prefers_a_well_tried_action_to_a_lucky_rare_one() -> None:
    tried, lucky = Node(0), Node(0)
    tried.visits, tried.reward = 400, 240.0  # 0.60 over 400: bound 0.55
    lucky.visits, lucky.reward = 4, 3.2  # 0.80 over 4: bound 0.30
    children = {1: tried, 2: lucky}
    assert _final_choice(children, [1, 2], "lcb") == 1
    lucky.visits, lucky.reward = 500, 400.0  # 0.80 over 500: now the better bound
    assert _final_choice(children, [1, 2], "lcb") == 2
    assert _final_choice(children, [1, 2], "visits") == 2
