"""The position bank, its oracle and the yardstick (issue 29): the shipped bank replays exactly
through the engine, regenerates identically, its labels fit its positions, and the regret
arithmetic and its intervals are what docs/yardstick.md says."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from rebelspace.engine import GameState, context_for
from rebelspace.engine.sampling import sample_state
from rebelspace.play.bank import (
    BANK_AGENTS,
    BANK_SEED,
    LABELS_PATH,
    PAIRS,
    PER_GAME,
    SEARCH_LABELS_PATH,
    Position,
    bank_seed,
    generate,
    read_bank,
    step_name,
    write_bank,
)
from rebelspace.play.oracle import (
    SEARCH_ITERATIONS,
    SEARCH_SCALE,
    Label,
    action_wins,
    label_position,
    read_labels,
    search_floor,
    search_values,
)
from rebelspace.play.yardstick import (
    BLUNDER,
    Choices,
    Estimate,
    bootstrap,
    difference,
    positions_needed,
    regret,
    score,
)

ROOT = Path(__file__).parents[2]


def test_the_shipped_bank_regenerates_identically_from_its_seed() -> None:
    # The first three games (random and heuristic players: cheap), played again now, equal the
    # stored ones: the same deals, the same actions, the same positions kept.
    bank = read_bank()
    assert (bank.seed, bank.per_game) == (BANK_SEED, PER_GAME)
    again = list(generate(bank.seed, 3, bank.per_game, context_for()))
    assert again == list(bank.games[:3])


def test_the_bank_seeds_are_its_own_keyed_hash_and_differ_by_purpose() -> None:
    seeds = {bank_seed(BANK_SEED, i, purpose) for i in range(50) for purpose in ("deal", "rebel")}
    assert len(seeds) == 100 and all(0 <= s < 2**63 for s in seeds)
    assert bank_seed(BANK_SEED, 0, "deal") != bank_seed(BANK_SEED + 1, 0, "deal")


def test_the_bank_holds_games_of_every_pair_of_agents_on_both_sides() -> None:
    bank = read_bank()
    assert all(g.agents == PAIRS[g.game % len(PAIRS)] for g in bank.games)
    assert {g.agents for g in bank.games} == set(PAIRS)
    assert {a for g in bank.games for a in g.agents} == set(BANK_AGENTS)
    positions = bank.positions()
    assert len({p.index for p in positions}) == len(positions) == PER_GAME * len(bank.games)


def _check_positions(count: int | None, path: Path = LABELS_PATH) -> Counter[str]:
    bank = read_bank()
    labels = read_labels(path)
    ctx = context_for()
    steps: Counter[str] = Counter()
    positions = [p for p in bank.positions() if p.index in labels][:count]
    assert positions, "no labelled position"
    for position in positions:
        state = position.state(ctx)
        legal = state.legal_actions()
        assert len(legal) >= 2, f"position {position.index} has no choice"
        assert tuple(legal) == labels[position.index].legal, f"position {position.index}"
        steps[step_name(state)] += 1
    return steps


@pytest.mark.parametrize("path", [LABELS_PATH, SEARCH_LABELS_PATH], ids=["playouts", "search"])
def test_the_first_labelled_positions_replay_and_their_legal_actions_match_the_labels(
    path: Path,
) -> None:
    _check_positions(60, path)


def test_the_search_labels_are_the_search_oracles_with_every_action_visited() -> None:
    # Every shipped search label: a win estimate out of SEARCH_SCALE per legal action, root
    # visits summing to the iterations, none below the floor.
    labels = read_labels(SEARCH_LABELS_PATH)
    assert labels
    for label in labels.values():
        assert label.samples == SEARCH_SCALE and label.visits is not None
        assert len(label.wins) == len(label.visits) == len(label.legal)
        assert all(0 <= w <= SEARCH_SCALE for w in label.wins)
        assert sum(label.visits) == SEARCH_ITERATIONS
        assert min(label.visits) >= search_floor(len(label.legal), SEARCH_ITERATIONS)


@pytest.mark.slow
@pytest.mark.parametrize("path", [LABELS_PATH, SEARCH_LABELS_PATH], ids=["playouts", "search"])
def test_every_labelled_position_replays_and_covers_the_steps_of_a_turn(path: Path) -> None:
    steps = _check_positions(None, path)
    # The steps where a player has a real choice (two or more legal actions) in these games.
    assert {"draw", "form groups", "block", "target", "battle tricks", "deploy", "end"} <= set(
        steps
    ), steps


def test_a_small_bank_round_trips_through_its_file(tmp_path: Path) -> None:
    games = list(generate(7, 2, 3, context_for()))
    path = tmp_path / "bank.jsonl.gz"
    write_bank(path, 7, 3, games)
    first = path.read_bytes()
    write_bank(path, 7, 3, games)
    assert path.read_bytes() == first  # no time stamp in the gzip header
    bank = read_bank(path)
    assert bank.games == tuple(games) and len(bank.positions()) == 6


def test_a_file_that_is_not_a_bank_is_refused_by_name(tmp_path: Path) -> None:
    from rebelspace.play.bank import BankError

    path = tmp_path / "junk.jsonl.gz"
    path.write_text("not gzip")
    with pytest.raises(BankError, match="junk.jsonl.gz: not a position bank"):
        read_bank(path)


def test_the_oracle_reads_only_the_players_view() -> None:
    # Two true states the player cannot tell apart (the hidden cards dealt again from its view)
    # get the same labels: the oracle is fair, like the levels it judges.
    bank = read_bank()
    position = bank.positions()[5]
    ctx = context_for()
    state = position.state(ctx)
    me = state.to_move
    other = sample_state(state.view(me), ctx, 12345)
    legal = state.legal_actions()
    assert other.legal_actions() == legal
    assert action_wins(state.view(me), legal, ctx, 9, 3) == action_wins(
        other.view(me), legal, ctx, 9, 3
    )


def _position_with_choices(least: int) -> tuple[Position, GameState]:
    """The first bank position with at least ``least`` legal actions, and its state."""
    ctx = context_for()
    for position in read_bank().positions():
        state = position.state(ctx)
        if len(state.legal_actions()) >= least:
            return position, state
    raise AssertionError(f"no bank position with {least} legal actions")


def test_the_search_oracle_reads_only_the_players_view() -> None:
    # Two true states with the same view (the hidden cards dealt again from the mover's
    # view) get the same estimates and visits from the same seed.
    position, state = _position_with_choices(3)
    ctx = context_for()
    me = state.to_move
    other = sample_state(state.view(me), ctx, 777)
    assert (other.hand[1 - me], other.deck) != (state.hand[1 - me], state.deck)  # truly another
    legal = state.legal_actions()
    assert search_values(state.view(me), legal, ctx, 4, 60) == search_values(
        other.view(me), legal, ctx, 4, 60
    )


def test_the_search_oracle_is_determined_by_its_seed_and_visits_every_action() -> None:
    position, state = _position_with_choices(3)
    ctx = context_for()
    view, legal = state.view(state.to_move), state.legal_actions()
    first = search_values(view, legal, ctx, 11, 150)
    assert search_values(view, legal, ctx, 11, 150) == first
    wins, visits = first
    assert sum(visits) == 150
    assert min(visits) >= search_floor(len(legal), 150) >= 1
    assert all(0 <= w <= SEARCH_SCALE for w in wins)
    # A label of a position is its search from the bank's seed for it: the same twice.
    label = label_position(position, BANK_SEED, iterations=150)
    assert label == label_position(position, BANK_SEED, iterations=150)
    assert label.legal == tuple(legal) and label.visits is not None


def test_the_search_floor_is_100_visits_or_an_equal_part_of_half_the_iterations() -> None:
    assert search_floor(2, 5000) == 100
    assert search_floor(25, 5000) == 100
    assert search_floor(50, 5000) == 50
    assert search_floor(3, 150) == 25
    assert search_floor(200, 150) == 1


LABEL = Label(index=0, legal=(5, 7, 9), wins=(10, 16, 4), samples=16)


def test_regret_is_the_best_actions_win_chance_less_the_chosen_ones() -> None:
    assert regret(LABEL, 7) == 0.0
    assert regret(LABEL, 5) == pytest.approx(6 / 16)
    assert regret(LABEL, 9) == pytest.approx(12 / 16)
    with pytest.raises(ValueError, match="action 8 is not legal at bank position 0"):
        regret(LABEL, 8)


def test_score_counts_agreement_and_blunders_per_position() -> None:
    labels = {
        0: LABEL,
        1: Label(1, (1, 2), (8, 7), 16),  # choosing 2 loses 1/16: not a blunder
        2: Label(2, (1, 2), (8, 8), 16),  # a tie: either action agrees
    }
    games = {0: 0, 1: 0, 2: 1}
    s = score(Choices("x", {0: 5, 1: 2, 2: 2}, 1.5), labels, games)
    assert s.positions == 3 and s.games == 2
    assert s.regret.mean == pytest.approx((6 / 16 + 1 / 16 + 0) / 3)
    assert s.agreement.mean == pytest.approx(1 / 3)
    assert s.blunders.mean == pytest.approx(1 / 3)  # only 6/16 is above BLUNDER
    assert 1 / 16 < BLUNDER < 6 / 16


def test_the_bootstrap_resamples_whole_games() -> None:
    # Game 0 always regrets 1, game 1 never: an interval over games spans the game mix, and
    # the mean weighs each position once.
    values = [(0, 1.0)] * 3 + [(1, 0.0)]
    est = bootstrap(values, seed=1, resamples=500)
    assert est.mean == pytest.approx(0.75)
    assert est.low == 0.0 and est.high == 1.0  # resamples of only one game occur
    same = bootstrap([(g, 0.2) for g in range(10)], seed=1, resamples=200)
    assert (same.low, same.mean, same.high) == pytest.approx((0.2, 0.2, 0.2))
    with pytest.raises(ValueError, match="no positions"):
        bootstrap([], seed=1)


def test_a_difference_is_paired_on_the_positions_both_chose_at() -> None:
    labels = {i: Label(i, (1, 2), (10, 0), 10) for i in range(4)}
    games = {i: i for i in range(4)}
    good = Choices("good", {i: 1 for i in range(4)}, 0)
    bad = Choices("bad", {0: 2, 1: 2, 2: 2}, 0)
    d = difference(bad, good, labels, games, seed=3)
    assert (d.low, d.mean, d.high) == (1.0, 1.0, 1.0)


def test_positions_needed_scales_with_the_square_of_the_half_width() -> None:
    # A half-width twice the difference needs four times the positions to clear zero.
    assert positions_needed(Estimate(0.01, -0.01, 0.03), 500) == 2000
    assert positions_needed(Estimate(0.04, 0.02, 0.06), 500) == 125
    assert positions_needed(Estimate(0.0, -0.01, 0.01), 500) is None


def _run(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "yardstick.py"), *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    return done.stdout


def test_the_yardstick_command_runs_on_a_tiny_bank(tmp_path: Path) -> None:
    bank, labels = tmp_path / "bank.jsonl.gz", tmp_path / "labels.jsonl"
    _run("generate", "--games", "2", "--per-game", "2", "--seed", "5", "--out", str(bank))
    assert len(read_bank(bank).positions()) == 4
    play = ("--oracle", "playouts", "--samples", "2")
    _run("label", "--bank", str(bank), "--labels", str(labels), "--chunk", "3", *play)
    _run("label", "--bank", str(bank), "--labels", str(labels), *play)  # resumes
    assert sorted(read_labels(labels)) == [0, 1, 2, 3]
    searched = tmp_path / "search.jsonl"
    _run("label", "--bank", str(bank), "--labels", str(searched), "--iterations", "30")
    assert [lb.legal for lb in read_labels(searched).values()] == [
        lb.legal for lb in read_labels(labels).values()
    ]
    assert all(sum(lb.visits or ()) == 30 for lb in read_labels(searched).values())
    out = json.loads(
        _run(
            "measure",
            "--bank",
            str(bank),
            "--labels",
            str(labels),
            "--agents",
            "random,heuristic,hint",
            "--json",
        )
    )
    assert [s["agent"] for s in out["scores"]] == ["random", "heuristic", "hint"]
    for s in out["scores"]:
        assert s["positions"] == 4 and s["games"] == 2
        low, high = s["regret"]["ci95"]
        assert 0.0 <= low <= s["regret"]["mean"] <= high <= 1.0
    assert [(d["a"], d["b"]) for d in out["pairs"]] == [
        ("random", "heuristic"),
        ("heuristic", "hint"),
    ]


def test_done_deploying_counts_only_points_to_spend_and_a_deployment_legal() -> None:
    # Bank positions where "done deploying" and a deployment are both legal (so points are
    # left): choosing "done deploying" there is counted with its regret; elsewhere it is not.
    from rebelspace.engine import Kind
    from rebelspace.play.yardstick import done_deploying

    ctx = context_for()
    done = ctx.space.done_deploying
    bank = read_bank()
    positions: list[Position] = []
    labels: dict[int, Label] = {}
    for position in bank.positions():
        legal = tuple(position.state(ctx).legal_actions())
        if done in legal and any(ctx.space.actions[a].kind == Kind.DEPLOY for a in legal):
            wins = tuple(10 if a == done else 0 for a in legal)  # the oracle agrees
            if len(positions) == 1:
                wins = tuple(0 if a == done else 10 for a in legal)  # it does not
            labels[position.index] = Label(position.index, legal, wins, 10)
            positions.append(position)
            if len(positions) == 3:
                break
    assert len(positions) == 3
    games = {p.index: p.game for p in positions}
    other = positions[2]
    deploy = next(a for a in labels[other.index].legal if ctx.space.actions[a].kind == Kind.DEPLOY)
    chosen = {p.index: done for p in positions[:2]} | {other.index: deploy}
    out = done_deploying(Choices("x", chosen, 0.0), labels, positions, games)
    assert out["positions"] == 2
    assert out["agreement"]["mean"] == pytest.approx(0.5)
    assert out["regret"]["mean"] == pytest.approx(0.5)  # 0 where it agrees, 1 where not


def test_a_stratified_subset_spreads_its_positions_evenly_over_the_games() -> None:
    from rebelspace.play.yardstick import stratified

    positions = [Position(g * 16 + k, g, 0, ()) for g in range(5) for k in range(16)]
    subset = stratified(positions, 12)
    per_game = [sum(p.game == g for p in subset) for g in range(5)]
    assert per_game == [3, 3, 2, 2, 2] and len(subset) == 12
    # Each game's picks spread over its course (first, middle, quarter), in index order.
    assert [p.index for p in subset if p.game == 0] == [0, 4, 8]
    assert [p.index for p in subset if p.game == 4] == [64, 72]
    assert set(subset) <= set(stratified(positions, 40))
    assert subset == sorted(subset, key=lambda p: p.index)


def test_a_cpu_budget_is_named_in_the_label_and_refused_for_the_hint() -> None:
    from rebelspace.play.yardstick import chooser, label_of

    assert label_of("ismcts:normal", 0.1) == "ismcts:normal@0.1s"
    assert label_of("ismcts:normal", None) == "ismcts:normal"
    with pytest.raises(ValueError, match="hint"):
        chooser("hint", context_for(), 0.1)
