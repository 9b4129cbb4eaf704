"""Hints and the analysis of a game (``agents/advice.py``): structured values, from one
player's view only (R5)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rebelspace.agents.advice import (
    DONE_MARGIN,
    THRESHOLDS,
    TRIED_SHARE,
    Analysis,
    Choice,
    Decision,
    analyse,
    battle_after,
    hint,
    race,
    recommend,
    verdict,
    win_probability,
)
from rebelspace.agents.evaluate import turns_left
from rebelspace.agents.heuristic import heuristic_action
from rebelspace.agents.registry import make_agent
from rebelspace.engine import (
    GameState,
    Kind,
    RecordError,
    RulesOptions,
    load_scenario,
    new_game,
    to_record,
)
from rebelspace.seeds import ADVICE, agent_seed
from tests.agents.agent_helpers import check_blind_to_hidden_cards
from tests.agents.test_agents import choice_point, lethal

SMALL = "ismcts:60"  # iterations only (no time cap): the same answer on a busy machine
REBEL, IMPERIAL = 0, 1


def block_position(rules: RulesOptions | None = None) -> GameState:
    """The Imperial blocks a Rebel ground group of value 4 (Princess 3, Rebel Soldier 1) with
    Battle Walkers (ground 5) or Fixed Defenses (ground 4), or not at all."""
    return load_scenario(
        {
            "seed": 1,
            "turn": 5,
            "player": "rebel",
            "phase": "attack",
            "rules": (rules or RulesOptions()).to_dict(),
            "rebel": {"active": ["Princess", "Rebel Soldier"]},
            "imperial": {"active": ["Battle Walkers", "Fixed Defenses"], "hand": ["Trap"]},
            "battle": {
                "step": "block",
                "groups": [{"kind": "ground", "units": ["Princess", "Rebel Soldier"]}],
            },
        }
    )


def action_id(game: GameState, text: str) -> int:
    return int(game.action_space.parse(text))


# ----------------------------------------------------------------------------- hint


def test_hint_finds_the_winning_attack() -> None:
    game = lethal()  # attacking with both Fighter Bombers wins at once
    legal = game.legal_actions()
    h = hint(game.view(REBEL), legal, game.ctx, seed=3, agent="ismcts:200")
    assert h.best.action == make_agent("ismcts:200", game.ctx, 3).act(game.view(REBEL), legal)
    assert "Fighter Bombers" in h.best.text
    assert h.best.win is not None and h.best.visits > 0
    assert not h.forced
    assert [c.action for c in h.alternatives] != [] and h.best not in h.alternatives


def test_hint_recommends_the_best_estimate_it_shows() -> None:
    # Issue 29: a hint recommended a move at 40% while listing a "next best" at 41%.
    for seed in range(6):
        game = choice_point(seed, turn=2 + seed)
        p = game.to_move
        legal = game.legal_actions()
        h = hint(game.view(p), legal, game.ctx, seed=9, agent=SMALL)
        assert h.player == ("rebel", "imperial")[p] and h.agent == SMALL
        assert len(h.alternatives) <= 2 and h.best not in h.alternatives
        shown = (h.best, *h.alternatives)
        assert all(c.win is not None and 0.0 < c.win < 1.0 for c in shown)
        if h.reason == "best_estimate":
            assert all((c.win or 0.0) <= (h.best.win or 0.0) for c in h.alternatives)
        wins = [c.win or 0.0 for c in h.alternatives]
        assert wins == sorted(wins, reverse=True)  # best estimate first
        assert h.best.visits >= TRIED_SHARE * max(c.visits for c in shown)


def deploy_point() -> GameState:
    """A deploy step with points to spend and a unit the player can deploy."""
    for seed in range(50):
        game = new_game(seed, log=False)
        while not game.is_over:
            legal = game.legal_actions()
            kinds = {game.action_space.actions[a].kind for a in legal}
            if Kind.DONE_DEPLOYING in kinds and Kind.DEPLOY in kinds:
                return game
            game.apply(heuristic_action(game, legal))
    raise AssertionError("no deploy step with a unit to deploy in 50 games")


def _choices(
    game: GameState, wins: dict[int, tuple[float, int]], rest: tuple[float, int] = (0.3, 40)
) -> list[Choice]:
    """Made-up search results (win, visits) for ``game``'s legal actions, ``rest`` for those
    ``wins`` leaves out, in the search's order (its choice, the most visited, first)."""
    legal = game.legal_actions()
    made = [Choice(a, game.action_space.text(a), *wins.get(a, rest)) for a in legal]
    return sorted(made, key=lambda c: -c.visits)


def test_a_runner_up_with_a_better_estimate_is_the_recommendation() -> None:
    game = choice_point(4)
    legal = game.legal_actions()
    view = game.view(game.to_move)
    choices = _choices(game, {legal[0]: (0.40, 180), legal[1]: (0.41, 120)})
    best, reason = recommend(view, choices, game.ctx)
    assert (best.action, reason) == (legal[1], "best_estimate")


def test_an_estimate_from_a_handful_of_tries_is_not_weighed() -> None:
    game = choice_point(4)
    legal = game.legal_actions()
    view = game.view(game.to_move)
    few = int(TRIED_SHARE * 180) - 1
    choices = _choices(game, {legal[0]: (0.40, 180), legal[1]: (0.90, few)})
    best, _ = recommend(view, choices, game.ctx)
    assert best.action == legal[0]


def _deploy_choices(game: GameState, done_win: float, deploy_win: float) -> list[Choice]:
    decoded = game.action_space.actions
    done = next(a for a in game.legal_actions() if decoded[a].kind == Kind.DONE_DEPLOYING)
    deploy = next(a for a in game.legal_actions() if decoded[a].kind == Kind.DEPLOY)
    return _choices(game, {done: (done_win, 200), deploy: (deploy_win, 150)}, rest=(0.01, 60))


def test_done_deploying_with_points_and_units_needs_a_clear_lead() -> None:
    # Issue 29: "done deploying" four turns running with 8-11 cards in hand and 3 points.
    game = deploy_point()
    view = game.view(game.to_move)
    assert view.deploy_points
    close = _deploy_choices(game, 0.09, 0.09 - DONE_MARGIN / 2)
    best, reason = recommend(view, close, game.ctx)
    assert game.action_space.actions[best.action].kind == Kind.DEPLOY
    assert reason == "deploy_over_done"
    clear = _deploy_choices(game, 0.40, 0.40 - 2 * DONE_MARGIN)
    best, reason = recommend(view, clear, game.ctx)
    assert game.action_space.actions[best.action].kind == Kind.DONE_DEPLOYING
    assert reason == "done_clearly_best"


def test_a_real_hint_at_a_deploy_step_explains_done_deploying() -> None:
    game = deploy_point()
    p = game.to_move
    h = hint(game.view(p), game.legal_actions(), game.ctx, seed=2, agent=SMALL)
    kind = game.action_space.actions[h.best.action].kind
    assert kind != Kind.DONE_DEPLOYING or h.reason == "done_clearly_best"


def test_hint_is_the_same_for_the_same_seed_and_is_json() -> None:
    game = choice_point(2)
    p = game.to_move
    legal = game.legal_actions()
    first = hint(game.view(p), legal, game.ctx, seed=5, agent=SMALL)
    assert hint(game.clone().view(p), legal, game.ctx, seed=5, agent=SMALL) == first
    assert json.loads(json.dumps(first.to_dict())) == first.to_dict()


def test_a_forced_decision_needs_no_search() -> None:
    game = new_game(seed=3, log=False)
    while len(game.legal_actions()) != 1:
        game.apply(heuristic_action(game, game.legal_actions()))
    p = game.to_move
    (only,) = game.legal_actions()
    h = hint(game.view(p), [only], game.ctx, seed=1, agent=SMALL)
    assert h.forced and h.best.action == only and h.best.win is None and not h.alternatives


def test_hint_works_with_an_agent_that_does_not_search() -> None:
    game = choice_point(1)
    p = game.to_move
    legal = game.legal_actions()
    h = hint(game.view(p), legal, game.ctx, seed=1, agent="heuristic")
    assert h.best.action == heuristic_action(game, legal)
    assert h.best.win is None and not h.alternatives


def test_hint_never_reads_the_opponents_hidden_cards() -> None:
    """R5: positions that differ only in the opponent's hidden cards (and both decks' order)
    get the same hint, values and reasons included."""

    def advise(game: GameState, player: int, seed: int) -> object:
        return hint(game.view(player), game.legal_actions(), game.ctx, seed=seed, agent=SMALL)

    positions = (choice_point(seed, turn=3 + seed) for seed in range(8))
    check_blind_to_hidden_cards(positions, advise, random.Random(11), at_least=5)


def test_a_tie_goes_as_the_tie_option_says() -> None:
    game = block_position(RulesOptions(tie="defender"))
    view = game.view(IMPERIAL)
    battle = battle_after(view, action_id(game, "block group 1 with Fixed Defenses"), game.ctx)
    assert battle is not None and battle.winner == "defender"


def test_actions_outside_a_battle_have_no_battle_reason() -> None:
    game = block_position()
    view = game.view(IMPERIAL)
    assert battle_after(view, action_id(game, "done blocking"), game.ctx) is None


def test_race_is_each_decks_turns_left_and_the_hands() -> None:
    game = choice_point(6)
    p = game.to_move
    r = race(game.view(p), game.ctx, seed=2)
    assert (r.your_deck, r.their_deck) == (len(game.deck[p]), len(game.deck[1 - p]))
    assert (r.your_hand, r.their_hand) == (len(game.hand[p]), len(game.hand[1 - p]))
    assert r.your_turns == round(turns_left(game, p), 2)
    assert r.their_turns == round(turns_left(game, 1 - p), 2)


def test_win_probability_puts_the_roots_race_back() -> None:
    assert win_probability(0.5, 0.0) == pytest.approx(0.5)
    assert win_probability(0.5, 2.0) > 0.7  # two turns ahead: a favourite (evaluate.SCALE)
    assert win_probability(0.5, -2.0) < 0.3
    assert 0.0 < win_probability(0.0, 0.0) < 0.001 and 0.999 < win_probability(1.0, 0.0) < 1.0


# ----------------------------------------------------------------------------- analysis


def play(seed: int, rebel: Any, plies: int | None = None) -> GameState:
    """A game with ``rebel(game, ply, legal)`` choosing for the Rebel and the heuristic for
    the Imperial; stopped after ``plies`` actions if given."""
    game = new_game(seed=seed)
    ply = 0
    while game.to_move >= 0 and (plies is None or ply < plies):
        legal = game.legal_actions()
        if game.to_move == REBEL:
            game.apply(rebel(game, ply, legal))
        else:
            game.apply(heuristic_action(game, legal))
        ply += 1
    return game


def as_analysed(agent: str) -> Any:
    """The Rebel's choices as ``analyse`` with ``agent`` would make them at each ply."""

    def choose(game: GameState, ply: int, legal: list[int]) -> int:
        seed = agent_seed(game.seed, ADVICE + ply)
        return make_agent(agent, game.ctx, seed).act(game.view(REBEL), legal)

    return choose


def test_playing_the_searchs_choices_is_best_every_time() -> None:
    game = play(21, as_analysed("ismcts:20"), plies=120)
    result = analyse(to_record(game), "rebel", agent="ismcts:20")
    assert result.decisions
    assert {d.verdict for d in result.decisions} == {"best"}
    assert all(d.loss == 0.0 and d.before == d.after for d in result.decisions)
    assert result.worst() == []


def test_every_unforced_decision_of_the_side_is_analysed_in_order() -> None:
    rng = random.Random(4)
    game = play(8, lambda _g, _p, legal: rng.choice(legal), plies=150)
    record = to_record(game)
    result = analyse(record, "rebel", agent="ismcts:20")
    replayed = new_game(seed=8, log=False)
    expected = []
    for ply, text in enumerate(record["actions"]):
        if replayed.to_move == REBEL and len(replayed.legal_actions()) > 1:
            expected.append((ply, text))
        replayed.apply(text)
    assert [(d.ply, d.played.text) for d in result.decisions] == expected
    assert result.side == "rebel" and result.winner is None
    # Random play loses ground the search would not have lost.
    assert len(result.worst(100)) >= 3, result.counts()
    assert analyse(record, "rebel", agent="ismcts:20") == result  # same record, same analysis


def test_worst_moves_are_the_largest_losses_first() -> None:
    def decision(ply: int, loss: float) -> Decision:
        c = Choice(ply, "x", 0.5, 1)
        return Decision(ply, 1, c, c, 0.5 + loss, 0.5, loss, verdict(loss, loss == 0))

    losses = [0.0, 0.3, 0.04, 0.12, 0.3, 0.06]
    result = Analysis(
        "rebel", "a", None, tuple(decision(i, x) for i, x in enumerate(losses)), THRESHOLDS
    )
    assert [d.ply for d in result.worst(3)] == [1, 4, 3]
    assert [d.ply for d in result.worst()] == [1, 4, 3, 5]  # 0.04 is under every threshold
    assert result.counts() == {"best": 1, "good": 1, "inaccuracy": 1, "mistake": 1, "blunder": 2}


@pytest.mark.parametrize(
    ("loss", "name"),
    [(0.0, "good"), (0.049, "good"), (0.05, "inaccuracy"), (0.1, "mistake"), (0.2, "blunder")],
)
def test_verdicts_follow_the_named_thresholds(loss: float, name: str) -> None:
    assert verdict(loss, best=False) == name
    assert verdict(loss, best=True) == "best"


def test_analyse_rejects_a_bad_side_or_record() -> None:
    record = to_record(play(2, lambda g, _p, legal: heuristic_action(g, legal), plies=10))
    with pytest.raises(ValueError, match="side"):
        analyse(record, "spectator")
    with pytest.raises(RecordError):
        analyse(dict(record, actions=["draw 2", "attack with everything"]), "rebel")
    with pytest.raises(RecordError):
        analyse([], "rebel")  # type: ignore[arg-type]
