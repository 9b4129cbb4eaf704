"""The distilled policy (issue 17): the fast policy for bulk play, fitted to a search's
choices. It decides from its own view only (R5), reads the shipped weights, and the
``distil`` command that makes it is deterministic and resumes."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

import pytest

from rebelspace import extras
from rebelspace.agents.distilled import (
    NAMES,
    SIZE,
    DistilledAgent,
    PolicyModel,
    action_features,
    shipped,
)
from rebelspace.agents.heuristic import heuristic_action
from rebelspace.agents.registry import AgentSpecError, make_agent
from rebelspace.engine import GameState, context_for, new_game
from rebelspace.play import play_match
from rebelspace.play.schedule import deal_seed
from rebelspace.training.command import add_train_parser
from rebelspace.training.distil_command import add_distil_parser
from rebelspace.training.teacher import play_teacher_game, read_games, record_deal_seed
from tests.agents.agent_helpers import check_blind_to_hidden_cards


def position(seed: int) -> GameState:
    game = new_game(seed)
    while not (game.turn >= 4 + seed % 5 and len(game.legal_actions()) >= 3):
        game.apply(heuristic_action(game, game.legal_actions()))
    return game


def test_each_legal_action_gets_one_row_of_features_and_the_state_is_unchanged() -> None:
    for seed in range(4):
        game = position(seed)
        before = game.key()
        legal = game.legal_actions()
        rows = action_features(game, legal)
        assert len(rows) == len(legal) and all(len(r) == SIZE == len(NAMES) for r in rows)
        assert game.key() == before
        # Exactly one action is the heuristic's choice, and it is flagged.
        flagged = [a for a, r in zip(legal, rows, strict=True) if r[0] == 1.0]
        assert flagged == [heuristic_action(game, legal)]


def test_the_distilled_agent_decides_from_its_view_only() -> None:
    """R5: positions that differ only in the opponent's hidden cards (and both decks' order)
    get the same choice from the same seed."""

    def choose(game: GameState, player: int, seed: int) -> int:
        return DistilledAgent(game.ctx, seed).act(game.view(player), game.legal_actions())

    positions = (position(seed) for seed in range(10))
    check_blind_to_hidden_cards(positions, choose, random.Random(5), at_least=6)


def test_the_distilled_agent_plays_whole_games_the_same_from_the_same_seed() -> None:
    ctx = context_for()
    first = play_match("distilled", "heuristic", 11, ctx)
    again = play_match("distilled", "heuristic", 11, ctx)
    assert first.game.outcome is not None
    assert first.game.key() == again.game.key() and first.decisions == again.decisions


def test_the_shipped_policy_matches_the_features_and_round_trips(tmp_path: Path) -> None:
    model = shipped()
    assert len(model.weights) == SIZE
    path = Path(__file__).parents[2] / "src/rebelspace/agents/distilled/weights.json"
    assert json.loads(path.read_text())["features"] == list(NAMES)
    model.save(tmp_path / "again.json")
    assert PolicyModel.load(tmp_path / "again.json") == model
    agent = make_agent(f"distilled:{tmp_path / 'again.json'}", context_for(), 1)
    assert isinstance(agent, DistilledAgent) and agent.model == model


def test_a_policy_of_other_features_is_refused_with_a_reason() -> None:
    data = shipped().to_dict()
    data["features"] = data["features"][:-1]
    with pytest.raises(ValueError, match="distil it again"):
        PolicyModel.from_dict(data)


@pytest.mark.parametrize("content", [None, "not json", '{"weights": []}'])
def test_a_missing_or_broken_policy_file_is_a_clear_agent_error(
    tmp_path: Path, content: str | None
) -> None:
    path = tmp_path / "policy.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(AgentSpecError, match="cannot read the distilled policy"):
        make_agent(f"distilled:{path}", context_for(), 0)


# ----------------------------------------------------------------------------- distil


def test_a_teacher_game_replays_to_its_recorded_result() -> None:
    record = play_teacher_game(4, "ismcts:12", "heuristic", 1)
    assert record["teacher_side"] == 1 and record["deal"] == 0
    assert record == play_teacher_game(4, "ismcts:12", "heuristic", 1)
    # The record is the arena's game between the two names (same deal, same seeding).
    match = play_match("heuristic", "ismcts:12", deal_seed(4, 1), context_for())
    assert match.winner == record["winner"]
    assert len(record["actions"]) == match.decisions
    assert record["searched"] and all(len(v) >= 2 for _, v in record["searched"])


def _searched_sides(seed: int, record: dict[str, Any]) -> set[int]:
    """The sides to move at the plies a teacher record kept searches for."""
    game = new_game(record_deal_seed(seed, record), log=False)
    plies = {ply for ply, _ in record["searched"]}
    sides = set()
    for ply, action in enumerate(record["actions"]):
        if ply in plies:
            sides.add(game.to_move)
        game.apply(action)
    return sides


def test_a_self_play_teacher_game_keeps_both_sides_searches_and_is_the_mirror_match() -> None:
    record = play_teacher_game(4, "ismcts:12", "ismcts:12", 0)
    assert record == play_teacher_game(4, "ismcts:12", "ismcts:12", 0)
    match = play_match("ismcts:12", "ismcts:12", deal_seed(4, 0, twinned=False), context_for())
    assert match.winner == record["winner"] and len(record["actions"]) == match.decisions
    assert _searched_sides(4, record) == {0, 1}
    # Against the heuristic only the teacher's side is searched.
    one = play_teacher_game(4, "ismcts:12", "heuristic", 0)
    assert _searched_sides(4, one) == {one["teacher_side"]}


def test_self_play_deals_every_game_afresh_instead_of_copying_it_with_sides_swapped() -> None:
    # Twinned deals with the same agent on both sides would be two copies of one game.
    first, second = (play_teacher_game(4, "ismcts:12", "ismcts:12", i) for i in (0, 1))
    assert (first["deal"], second["deal"]) == (0, 1)
    assert first["actions"] != second["actions"]
    assert record_deal_seed(4, first) != record_deal_seed(4, second)
    # Against the heuristic a deal is still played twice, once from each side.
    a, b = (play_teacher_game(4, "ismcts:12", "heuristic", i) for i in (0, 1))
    assert record_deal_seed(4, a) == record_deal_seed(4, b) and a["deal"] == b["deal"] == 0


def run_distil(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    add_distil_parser(parser.add_subparsers())
    args = parser.parse_args(["distil", *argv])
    code: int = args.handler(args)
    return code


def test_distil_is_deterministic_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("numpy")
    argv = ["--games", "4", "--chunk", "2", "--workers", "1", "--teacher", "ismcts:12"]
    argv += ["--holdout", "0.5", "--steps", "4", "--no-progress", "--seed", "3"]
    first = tmp_path / "a"
    assert run_distil([*argv, "--dir", str(first)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["held_out_games"] == 2 and 0.0 <= report["held_out"]["agrees"] <= 1.0
    chunks = sorted((first / "data").iterdir())
    assert [len(read_games([c])) for c in chunks] == [2, 2]
    stamps = [c.stat().st_mtime_ns for c in chunks]
    weights = PolicyModel.load(first / "weights.json").weights
    assert any(weights)
    # Again in the same folder: no game replayed, the same fit.
    assert run_distil([*argv, "--dir", str(first)]) == 0
    assert [c.stat().st_mtime_ns for c in chunks] == stamps
    assert PolicyModel.load(first / "weights.json").weights == weights
    # In a new folder from the same seed: the same weights.
    assert run_distil([*argv, "--dir", str(tmp_path / "b")]) == 0
    assert PolicyModel.load(tmp_path / "b" / "weights.json").weights == weights


def test_distil_refuses_a_teacher_that_does_not_search_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_distil(["--dir", str(tmp_path), "--no-progress", "--teacher", "heuristic"]) == 2
    assert "searching agent" in capsys.readouterr().err
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize("command", ["train", "distil"])
@pytest.mark.parametrize("holdout", ["1.5", "1", "-0.1", "half"])
def test_a_held_out_share_outside_0_to_1_is_refused_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, holdout: str
) -> None:
    parser = argparse.ArgumentParser(prog="rebelspace")
    subparsers = parser.add_subparsers()
    add_train_parser(subparsers)
    add_distil_parser(subparsers)
    with pytest.raises(SystemExit) as exited:
        parser.parse_args([command, "--dir", str(tmp_path), "--holdout", holdout])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "--holdout" in err and holdout in err, err
    assert not (tmp_path / "data").exists()


def test_distil_without_numpy_says_which_extra_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(extras, "_found", lambda module: module != "numpy")
    assert run_distil(["--games", "2", "--dir", str(tmp_path), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "rl extra" in err and "numpy" in err, err
    assert not (tmp_path / "data").exists()
