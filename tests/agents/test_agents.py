"""Agents through their common interface: always legal, ISMCTS behaviour (forced moves, seeds,
time caps, view only, a tactical win), the registry's names and the position evaluation.

ISMCTS runs with tiny budgets except where its strength is the point. Games are driven by
Hypothesis-drawn seeds; the quick profile plays a handful of games, the ``slow`` one many.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import random
import subprocess
import sys
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rebelspace import extras
from rebelspace.agents import Agent, RandomAgent, registry
from rebelspace.agents.evaluate import evaluate, score
from rebelspace.agents.heuristic import HeuristicAgent, heuristic_action
from rebelspace.agents.ismcts import LEVELS, Budget, ISMCTSAgent
from rebelspace.agents.registry import AGENT_NAMES, LEVEL_NAMES, AgentSpecError, make_agent
from rebelspace.engine import (
    GameContext,
    GameState,
    RebelSpaceError,
    context_for,
    load_scenario,
    new_game,
)
from rebelspace.extras import EXTRAS
from tests.agents.agent_helpers import check_blind_to_hidden_cards
from tests.common import per_profile

REBEL, IMPERIAL = 0, 1
TINY = Budget(iterations=8, rollout_turns=1)  # enough to exercise the search, quickly
SMALL = Budget(iterations=40, rollout_turns=1)  # deterministic: no time cap


KINDS = ("random", "heuristic", "ismcts")
MAX_DECISIONS = 5000


def build(kind: str, ctx: GameContext, seed: int) -> Agent:
    if kind == "random":
        return RandomAgent(seed)
    if kind == "heuristic":
        return HeuristicAgent(seed, ctx)
    return ISMCTSAgent(ctx, seed, TINY)


def heuristic_game(seed: int, until: Callable[[GameState], bool]) -> GameState:
    """Heuristic self-play from ``new_game(seed)`` up to the first position ``until`` accepts."""
    game = new_game(seed)
    while not until(game):
        assert not game.is_over, f"seed {seed}: no position found"
        game.apply(heuristic_action(game, game.legal_actions()))
    return game


def choice_point(seed: int, turn: int = 6) -> GameState:
    """A position from ``turn`` on with at least three legal actions."""
    return heuristic_game(seed, lambda g: g.turn >= turn and len(g.legal_actions()) >= 3)


# ----------------------------------------------------------------------------- legality


def check_game(rebel: str, imperial: str, seed: int) -> None:
    """Play a whole game, asserting each agent's answer is one of the legal ids it was given."""
    game = new_game(seed, log=False)
    agents = [build(rebel, game.ctx, seed), build(imperial, game.ctx, seed + 1)]
    for _ in range(MAX_DECISIONS):
        if game.is_over:
            return
        p = game.to_move
        legal = game.legal_actions()
        action = agents[p].act(game.view(p), legal)
        assert action in legal, (seed, p, action, game.legal_action_texts())
        game.apply(action, player=p)
    raise AssertionError(f"seed {seed}: no outcome after {MAX_DECISIONS} decisions")


seeds = st.integers(min_value=0, max_value=2**63 - 1)
kinds = st.sampled_from(KINDS)


# Whole games between searching agents are slow: fewer than the Hypothesis profile's
# (tests/conftest.py).
@settings(max_examples=per_profile(quick=12, ci=150))
@given(kinds, kinds, seeds)
def test_no_agent_returns_an_illegal_action(rebel: str, imperial: str, seed: int) -> None:
    check_game(rebel, imperial, seed)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("side", [REBEL, IMPERIAL])
def test_each_agent_plays_a_legal_game_on_each_side(kind: str, side: int) -> None:
    """Every agent on both sides at least once, whatever Hypothesis draws."""
    other = "random" if kind != "random" else "heuristic"
    rebel, imperial = (kind, other) if side == REBEL else (other, kind)
    check_game(rebel, imperial, 11 + side)


def test_agents_refuse_to_act_with_no_legal_action() -> None:
    game = new_game(1)
    for agent in (RandomAgent(1), HeuristicAgent(1, game.ctx), ISMCTSAgent(game.ctx, 1, TINY)):
        with pytest.raises(ValueError):
            agent.act(game.view(REBEL), [])


# ----------------------------------------------------------------------------- ISMCTS


def test_a_forced_decision_is_returned_without_searching() -> None:
    game = heuristic_game(3, lambda g: g.turn >= 3 and len(g.legal_actions()) == 1)
    (only,) = game.legal_actions()
    agent = ISMCTSAgent(game.ctx, 1, "hard")
    assert agent.act(game.view(game.to_move), [only]) == only
    assert agent.last_iterations == 0  # no search at all ("hard" runs thousands)
    # After a real search, a forced decision leaves the count of that search alone.
    searched = ISMCTSAgent(game.ctx, 1, SMALL)
    position = choice_point(3)
    searched.act(position.view(position.to_move), position.legal_actions())
    assert searched.last_iterations == SMALL.iterations
    assert searched.act(game.view(game.to_move), [only]) == only
    assert searched.last_iterations == SMALL.iterations


def test_an_iteration_budget_runs_exactly_that_many_iterations() -> None:
    game = choice_point(4)
    for n in (1, 7, 33):
        agent = ISMCTSAgent(game.ctx, 2, Budget(iterations=n, rollout_turns=1))
        assert agent.act(game.view(game.to_move), game.legal_actions()) in game.legal_actions()
        assert agent.last_iterations == n


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_same_seed_gives_the_same_choice(seed: int) -> None:
    game = choice_point(seed)
    view, legal = game.view(game.to_move), game.legal_actions()
    first = ISMCTSAgent(game.ctx, seed, SMALL).act(view, legal)
    again = ISMCTSAgent(game.ctx, seed, SMALL).act(view, legal)
    assert first == again
    # A fresh view object of the same position (and a clone's view, without a log) too.
    assert ISMCTSAgent(game.ctx, seed, SMALL).act(game.view(game.to_move), legal) == first
    assert ISMCTSAgent(game.ctx, seed, SMALL).act(game.clone().view(game.to_move), legal) == first


def test_a_time_cap_is_respected() -> None:
    game = choice_point(5)
    agent = ISMCTSAgent(game.ctx, 1, Budget(iterations=10**9, seconds=0.2))
    action = agent.act(game.view(game.to_move), game.legal_actions())
    assert action in game.legal_actions()
    # Only the cap can have stopped a search of 10**9 iterations (no wall-clock assertion:
    # how long the cap took depends on the machine's load).
    assert 0 < agent.last_iterations < 10**9


def test_the_agent_sees_only_the_view() -> None:
    """``act`` takes a view and the legal ids, nothing else; and positions that differ only in
    the opponent's hidden cards get the same choice from the same seed."""
    params = list(inspect.signature(ISMCTSAgent.act).parameters)
    assert params == ["self", "view", "legal"]

    def search(game: GameState, player: int, seed: int) -> int:
        return ISMCTSAgent(game.ctx, seed, SMALL).act(game.view(player), game.legal_actions())

    positions = (choice_point(seed, turn=4 + seed) for seed in range(6))
    check_blind_to_hidden_cards(positions, search, random.Random(7), at_least=4)


def test_levels_grow_in_iterations() -> None:
    assert list(LEVELS) == ["easy", "normal", "hard", "expert"] == list(LEVEL_NAMES)
    its = [LEVELS[name].iterations for name in LEVEL_NAMES]
    assert its == sorted(its) and len(set(its)) == len(its)
    # The time caps are safety nets, not part of a level's strength (issue 17):
    # tests/agents/test_ismcts_levels.py checks them.


def lethal() -> GameState:
    """Rebel's attack phase, turn 5. The Rebel's deck holds 1 card, so unless the Imperial
    loses first the Rebel loses at its next draw (R9, R37). The Imperial has 4 cards in its
    deck, nothing in play and no hand: attacking with both Fighter Bombers (2 damage each,
    unblockable) empties it at once. Attacking with one leaves 2 cards, not attacking 4."""
    return load_scenario(
        {
            "seed": 1,
            "turn": 5,
            "player": "rebel",
            "phase": "attack",
            "rebel": {
                "hand": ["Rebel Soldier", "Surprise Attack"],
                "active": ["Fighter Bombers", "Fighter Bombers", "Rebel Base", "Defense Shields"],
                "deck_size": 1,
            },
            "imperial": {"hand": [], "active": [], "inactive": [], "deck_size": 4},
        }
    )


def finish_turn(game: GameState, rebel: Callable[[GameState], int]) -> None:
    """Play the Rebel's turn out (``rebel`` chooses; the Imperial's decisions are forced)."""
    while not game.is_over and game.turn == 5:
        if game.to_move == REBEL:
            game.apply(rebel(game))
        else:
            (only,) = game.legal_actions()  # no hand, nothing in play: only "pass"
            game.apply(only)


def test_the_tactical_position_is_won_only_by_attacking_with_both() -> None:
    """The position is a real test: the heuristic's line wins, and not attacking loses."""
    game = lethal()
    assert game.legal_action_texts()[0] == "no attack"
    finish_turn(game, lambda g: heuristic_action(g, g.legal_actions()))
    assert game.winner == REBEL and game.turn == 5
    passive = lethal()
    passive.apply("no attack")
    while not passive.is_over:
        passive.apply(heuristic_action(passive, passive.legal_actions()))
    assert passive.winner == IMPERIAL


@pytest.mark.parametrize("seed", [1, 2])
def test_ismcts_normal_finds_the_winning_attack(seed: int) -> None:
    game = lethal()
    agent = make_agent("ismcts:normal", game.ctx, seed)
    first = agent.act(game.view(REBEL), game.legal_actions())
    assert game.action_text(first) == "new space group with Fighter Bombers"
    game.apply(first)
    finish_turn(game, lambda g: agent.act(g.view(REBEL), g.legal_actions()))
    assert game.winner == REBEL and game.turn == 5, game.outcome
    assert game.outcome is not None and "Imperial's deck is empty" in game.outcome.reason


# ----------------------------------------------------------------------------- registry


@pytest.mark.parametrize(
    ("spec", "kind", "iterations"),
    [
        ("random", RandomAgent, None),
        ("heuristic", HeuristicAgent, None),
        ("ismcts", ISMCTSAgent, LEVELS["normal"].iterations),
        ("ismcts:easy", ISMCTSAgent, LEVELS["easy"].iterations),
        ("ismcts:normal", ISMCTSAgent, LEVELS["normal"].iterations),
        ("ismcts:hard", ISMCTSAgent, LEVELS["hard"].iterations),
        ("ismcts:500", ISMCTSAgent, 500),
        (" heuristic ", HeuristicAgent, None),
    ],
)
def test_make_agent_builds_every_name_and_level(spec: str, kind: type, iterations: int) -> None:
    ctx = context_for()
    agent = make_agent(spec, ctx, 3)
    assert isinstance(agent, kind) and isinstance(agent, Agent)
    if iterations is not None:
        assert isinstance(agent, ISMCTSAgent)
        assert agent.budget.iterations == iterations
        if spec == "ismcts:500":
            assert agent.budget.seconds is None
    game = new_game(3)
    legal = game.legal_actions()
    if not isinstance(agent, ISMCTSAgent):  # a search would take long at "hard": tested above
        assert agent.act(game.view(REBEL), legal) in legal


def test_every_registered_name_is_buildable() -> None:
    ctx = context_for()
    specs = [*AGENT_NAMES, *(f"ismcts:{level}" for level in LEVEL_NAMES)]
    assert {type(make_agent(s, ctx, 0)).__name__ for s in specs} == {
        "RandomAgent",
        "HeuristicAgent",
        "ISMCTSAgent",
        "DistilledAgent",
    }


@pytest.mark.parametrize(
    "spec",
    [
        "alphazero",
        "",
        "Random",
        "ISMCTS",
        "random:easy",
        "heuristic:hard",
        "ismcts:insane",
        "ismcts:0",
        "ismcts:-5",
        "ismcts:1.5",
        "ismcts:easy:x",
    ],
)
def test_bad_agent_names_are_refused(spec: str) -> None:
    with pytest.raises(AgentSpecError) as info:
        make_agent(spec, context_for(), 0)
    assert isinstance(info.value, RebelSpaceError) and isinstance(info.value, ValueError)
    message = str(info.value)
    if spec.partition(":")[0] not in AGENT_NAMES:
        for name in AGENT_NAMES:
            assert name in message, message
        assert repr(spec) in message
    elif spec.startswith("ismcts"):
        for level in LEVEL_NAMES:
            assert level in message, message


def test_a_non_ascii_digit_level_is_refused_as_a_bad_name() -> None:
    """'²'.isdigit() is true but int('²') fails: a bare ValueError used to escape."""
    with pytest.raises(AgentSpecError):
        make_agent("ismcts:²", context_for(), 0)


# ----------------------------------------------------------------------------- evaluate


def test_evaluate_is_exact_once_the_game_is_over() -> None:
    for seed in range(6):
        game = new_game(seed, log=False)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        winner = game.winner
        assert winner is not None
        assert evaluate(game, winner) == 1.0
        assert evaluate(game, 1 - winner) == 0.0


def test_evaluate_is_a_probability_and_symmetric_during_play() -> None:
    game = new_game(8, log=False)
    rng = random.Random(8)
    while not game.is_over:
        a, b = evaluate(game, REBEL), evaluate(game, IMPERIAL)
        assert 0.0 < a < 1.0 and 0.0 < b < 1.0
        assert a + b == pytest.approx(1.0, abs=1e-12)
        game.apply(rng.choice(game.legal_actions()))


BOARDS = {
    "empty": ([], []),
    "even": (["Rebel Soldier", "Stunt Fighters"], ["Troopers", "Interceptors"]),
    "rebel ahead": (["Rebel Warship", "Air Speeders", "Princess"], ["Troopers"]),
    "imperial ahead": (["Rebel Soldier"], ["Space Cruiser", "Battle Walkers", "Bounty Hunter"]),
}
HANDS = {"even": (2, 2), "rebel more": (6, 1), "imperial more": (0, 7)}


def position(rebel_deck: int, imperial_deck: int, board: str, hands: str) -> GameState:
    """Everything fixed but the deck sizes (cards beyond them go to the discard piles, which
    the evaluation does not read)."""
    rebel_units, imperial_units = BOARDS[board]
    rebel_hand, imperial_hand = HANDS[hands]
    return load_scenario(
        {
            "seed": 1,
            "turn": 6,
            "player": "rebel",
            "phase": "draw",
            "rebel": {
                "hand": ["Grav Cycles"] * rebel_hand,
                "active": rebel_units,
                "deck_size": rebel_deck,
            },
            "imperial": {
                "hand": ["Troopers"] * imperial_hand,
                "active": imperial_units,
                "deck_size": imperial_deck,
            },
        }
    )


@pytest.mark.parametrize("board", sorted(BOARDS))
@pytest.mark.parametrize("hands", sorted(HANDS))
def test_more_deck_is_better(board: str, hands: str) -> None:
    """With everything else equal, the evaluation rises with the player's own deck and falls
    with the opponent's: it is monotone in the deck difference, for either player."""
    sizes = [1, 2, 3, 5, 8, 12, 18, 25]
    table = {(r, i): evaluate(position(r, i, board, hands), REBEL) for r in sizes for i in sizes}
    for i in sizes:
        column = [table[(r, i)] for r in sizes]
        assert column == sorted(column) and len(set(column)) == len(column), (i, column)
    for r in sizes:
        row = [table[(r, i)] for i in sizes]
        assert row == sorted(row, reverse=True) and len(set(row)) == len(row), (r, row)
    # No units, equal hands, equal decks: an even game.
    if board == "empty" and hands == "even":
        assert all(table[(s, s)] == pytest.approx(0.5) for s in sizes)


def test_more_deck_is_better_even_with_a_large_board_lead() -> None:
    big = ["Stunt Fighters"] * 15 + ["Rebel Warship"] * 5 + ["Young Protagonist", "Smuggler"]
    values = []
    for deck in (2, 6, 10):
        game = load_scenario(
            {
                "seed": 1,
                "turn": 6,
                "player": "imperial",
                "phase": "draw",
                "rebel": {"hand": [], "active": big, "deck_size": deck},
                "imperial": {"hand": [], "deck_size": 12},
            }
        )
        values.append(evaluate(game, REBEL))
    # The weighted sum this evaluation replaced fell here (0.999901, 0.999880, 0.999861):
    # its scale grew with the smaller deck.
    assert values == sorted(values) and len(set(values)) == 3, values


def test_evaluate_is_one_half_at_the_baseline() -> None:
    """Search passes the root's score as the baseline: the root itself is then even."""
    for board in sorted(BOARDS):
        game = position(7, 12, board, "rebel more")
        for p in (REBEL, IMPERIAL):
            assert evaluate(game, p, score(game, p)) == pytest.approx(0.5)
            assert (
                evaluate(game, p, score(game, p) - 1) > 0.5 > evaluate(game, p, score(game, p) + 1)
            )


# ----------------------------------------------------------------------------- plug-ins


def test_the_registry_imports_nothing_from_the_env_package() -> None:
    """The rl agents are plug-ins named by entry points: ``rebelspace.env`` imports the
    agents, never the other way round."""
    tree = ast.parse(inspect.getsource(registry))
    imported: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            # "from . import x" in rebelspace.agents.registry is rebelspace.agents
            base = "rebelspace.agents".rsplit(".", node.level - 1)[0] if node.level else ""
            imported.append(".".join(p for p in (base, node.module or "") if p))
    assert "rebelspace.agents" in imported  # relative imports are resolved
    assert [m for m in imported if m.startswith("rebelspace.")] != []
    assert not [m for m in imported if m.startswith("rebelspace.env")], imported


@pytest.mark.parametrize("name", sorted(registry.PLUGINS))
def test_each_plugin_entry_point_names_a_factory_in_its_extra(name: str) -> None:
    plugin = registry.PLUGINS[name]
    for module in plugin.modules:
        pytest.importorskip(module)
    assert set(plugin.modules) <= set(EXTRAS[plugin.extra])
    module, _, function = plugin.entry_point.partition(":")
    factory = getattr(importlib.import_module(module), function)
    assert callable(factory)
    assert list(inspect.signature(factory).parameters) == ["arg", "ctx", "seed"]


def test_a_plugin_agent_is_made_without_importing_anything_first() -> None:
    for module in registry.PLUGINS["openspiel-ismcts"].modules:
        pytest.importorskip(module)
    code = (
        "import sys; from rebelspace.agents.registry import make_agent;"
        "from rebelspace.engine import context_for;"
        "assert 'rebelspace.env' not in sys.modules;"
        "print(type(make_agent('openspiel-ismcts:5', context_for(), 0)).__name__)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False
    )
    assert (done.returncode, done.stdout) == (0, "OpenSpielISMCTSAgent\n"), done.stderr


def test_a_plugin_without_its_extra_says_which_extra_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(extras, "_found", lambda module: module != "pyspiel")
    with pytest.raises(extras.MissingExtraError) as info:
        make_agent("openspiel-ismcts", context_for(), 0)
    assert str(info.value) == (
        "the openspiel-ismcts agent needs the rl extra (missing: pyspiel): "
        "pip install 'rebelspace[rl]'"
    )


def test_unknown_names_list_the_plugins_too() -> None:
    with pytest.raises(AgentSpecError, match="heuristic, ismcts, openspiel-ismcts, policy, random"):
        make_agent("nobody", context_for(), 0)
