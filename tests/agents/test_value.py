"""The learnt evaluation (issue 17): antisymmetric features, the shipped model, the expert
level that searches with it from its own view only (R5), and the ``train`` command
(deterministic, resumable, one line when NumPy is missing)."""

from __future__ import annotations

import argparse
import json
import math
import random
from pathlib import Path

import pytest

from rebelspace import extras
from rebelspace.agents.heuristic import heuristic_action
from rebelspace.agents.ismcts import LEVELS, ISMCTSAgent
from rebelspace.agents.registry import make_agent
from rebelspace.agents.value import (
    NAMES,
    SIZE,
    ValueModel,
    features,
    learnt_logit,
    learnt_value,
    shipped,
)
from rebelspace.engine import GameState, load_scenario, new_game
from rebelspace.training.command import add_train_parser
from rebelspace.training.selfplay import Chunk, play_chunk, read_rows
from tests.agents.agent_helpers import check_blind_to_hidden_cards

REBEL, IMPERIAL = 0, 1


def heuristic_positions(seed: int, every: int = 7) -> list[GameState]:
    game = new_game(seed, log=False)
    out = []
    ply = 0
    while not game.is_over:
        if ply % every == 0:
            out.append(game.clone())
        game.apply(heuristic_action(game, game.legal_actions()))
        ply += 1
    return [*out, game]


# ----------------------------------------------------------------------------- features


def test_features_are_antisymmetric_between_the_players() -> None:
    for seed in (1, 2):
        for state in heuristic_positions(seed):
            mine, theirs = features(state, REBEL), features(state, IMPERIAL)
            assert len(mine) == SIZE == len(NAMES)
            assert mine == pytest.approx([-x for x in theirs], abs=1e-12)


def test_the_learnt_value_is_a_probability_that_sums_to_one() -> None:
    for state in heuristic_positions(3):
        a, b = learnt_value(state, REBEL), learnt_value(state, IMPERIAL)
        if state.is_over:
            assert {a, b} == {0.0, 1.0} and a == (state.winner == REBEL)
        else:
            assert 0.0 < a < 1.0 and a + b == pytest.approx(1.0, abs=1e-9)


def deck_position(rebel_deck: int, imperial_deck: int) -> GameState:
    return load_scenario(
        {
            "seed": 1,
            "turn": 8,
            "player": "rebel",
            "phase": "draw",
            "rebel": {
                "hand": ["Rebel Soldier"] * 3,
                "active": ["Air Speeders", "Stunt Fighters"],
                "deck_size": rebel_deck,
            },
            "imperial": {
                "hand": ["Troopers"] * 3,
                "active": ["Battle Walkers", "Interceptors"],
                "deck_size": imperial_deck,
            },
        }
    )


def test_the_shipped_model_prefers_a_bigger_own_deck_and_a_smaller_opposing_one() -> None:
    sizes = [1, 2, 4, 8, 15, 25]
    mine = [learnt_value(deck_position(d, 10), REBEL) for d in sizes]
    theirs = [learnt_value(deck_position(10, d), REBEL) for d in sizes]
    assert mine == sorted(mine) and len(set(mine)) == len(sizes), mine
    assert theirs == sorted(theirs, reverse=True) and len(set(theirs)) == len(sizes), theirs


def test_the_shipped_model_values_a_unit_kept_over_one_lost_for_nothing() -> None:
    kept = deck_position(12, 12)
    lost = deck_position(12, 12)
    speeders = next(u for u in lost.active[REBEL] if lost.name(u) == "Air Speeders")
    lost.active[REBEL].remove(speeders)
    lost.discard[REBEL].append(speeders)
    assert learnt_value(kept, REBEL) > learnt_value(lost, REBEL)


def test_the_shipped_weights_are_small_and_match_the_features(tmp_path: Path) -> None:
    model = shipped()
    assert len(model.weights) == SIZE
    path = Path(__file__).parents[2] / "src/rebelspace/agents/value/weights.json"
    assert path.stat().st_size < 10_000
    assert json.loads(path.read_text())["features"] == list(NAMES)
    model.save(tmp_path / "again.json")
    assert ValueModel.load(tmp_path / "again.json") == model


def test_the_centred_learnt_value_is_one_half_at_its_baseline() -> None:
    for state in heuristic_positions(4, every=40)[:-1]:
        for p in (REBEL, IMPERIAL):
            z = learnt_logit(state, p)
            assert learnt_value(state, p, z) == pytest.approx(0.5)
            assert learnt_value(state, p, z - 1) > 0.5 > learnt_value(state, p, z + 1)
            assert learnt_value(state, p) == pytest.approx(1 / (1 + math.exp(-z)))


def test_a_model_of_other_features_is_refused_with_a_reason() -> None:
    data = shipped().to_dict()
    data["features"] = data["features"][:-1]
    with pytest.raises(ValueError, match="retrain"):
        ValueModel.from_dict(data)


# ----------------------------------------------------------------------------- expert


def test_expert_is_a_level_that_searches_with_the_learnt_evaluation() -> None:
    agent = make_agent("ismcts:expert", new_game(1).ctx, 1)
    assert isinstance(agent, ISMCTSAgent) and agent.budget is LEVELS["expert"]
    assert agent.budget.evaluation == "learnt-centred"
    assert LEVELS["expert"].iterations > LEVELS["hard"].iterations


def test_expert_sees_only_the_view() -> None:
    """R5: positions that differ only in the opponent's hidden cards (and both decks' order)
    get the same choice from the same seed."""
    budget = LEVELS["expert"]
    small = type(budget)(iterations=60, rollout_turns=2, evaluation=budget.evaluation)

    def search(game: GameState, player: int, seed: int) -> int:
        return ISMCTSAgent(game.ctx, seed, small).act(game.view(player), game.legal_actions())

    def position(seed: int) -> GameState:
        game = new_game(seed)
        while not (game.turn >= 5 + seed % 3 and len(game.legal_actions()) >= 3):
            game.apply(heuristic_action(game, game.legal_actions()))
        return game

    positions = (position(seed) for seed in range(8))
    check_blind_to_hidden_cards(positions, search, random.Random(3), at_least=4)


# ----------------------------------------------------------------------------- training


def test_a_chunk_of_self_play_is_the_same_from_the_same_seed() -> None:
    chunk = Chunk(seed=5, policy="heuristic~0.1", first=3, games=2)
    data = play_chunk(chunk)
    assert data == play_chunk(chunk)
    rows = list(read_rows_of(data))
    assert rows and all(len(x) == SIZE and y in (0.0, 1.0) for x, y in rows)
    assert data != play_chunk(Chunk(seed=6, policy="heuristic~0.1", first=3, games=2))


def read_rows_of(data: bytes) -> list[tuple[list[float], float]]:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "c.bin"
        path.write_bytes(data)
        return list(read_rows([path]))


def run_train(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    add_train_parser(parser.add_subparsers())
    args = parser.parse_args(["train", *argv])
    code: int = args.handler(args)
    return code


def test_train_is_deterministic_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("numpy")
    argv = ["--games", "8", "--chunk", "4", "--workers", "1", "--holdout", "0.5", "--steps", "4"]
    first = tmp_path / "a"
    assert run_train([*argv, "--dir", str(first), "--seed", "3"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["held_out"]["positions"] > 0
    chunks = sorted((first / "data").iterdir())
    assert len(chunks) == 4  # 8 games of each of two policies, 4 a chunk
    stamps = [c.stat().st_mtime_ns for c in chunks]
    weights = ValueModel.load(first / "weights.json").weights
    # Again in the same folder: nothing replayed, the fit resumed from its last step.
    assert run_train([*argv, "--dir", str(first), "--seed", "3"]) == 0
    assert [c.stat().st_mtime_ns for c in chunks] == stamps
    assert ValueModel.load(first / "weights.json").weights == weights
    # More steps on the same rows resume from the checkpoint; another penalty starts afresh.
    assert run_train([*argv[:-1], "5", "--dir", str(first), "--seed", "3"]) == 0
    assert json.loads((first / "fit-3.json").read_text())["step"] == 5
    assert run_train([*argv, "--dir", str(first), "--seed", "3", "--l2", "0.01"]) == 0
    assert json.loads((first / "fit-3.json").read_text())["step"] == 4
    # In a new folder from the same seed: the same weights.
    assert run_train([*argv, "--dir", str(tmp_path / "b"), "--seed", "3"]) == 0
    assert ValueModel.load(tmp_path / "b" / "weights.json").weights == weights


def test_train_without_numpy_says_which_extra_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(extras, "_found", lambda module: module != "numpy")
    argv = ["--games", "2", "--chunk", "2", "--workers", "1", "--dir", str(tmp_path)]
    assert run_train([*argv, "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "rl extra" in err and "numpy" in err, err
