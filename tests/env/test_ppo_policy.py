"""The PPO example's pipeline: train briefly, save, load as a ``policy:PATH`` agent, play.

This proves the pipeline, not strength (a few hundred steps teach nothing)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from rebelspace.agents.registry import AgentSpecError, make_agent
from rebelspace.engine import new_game
from rebelspace.env.policy_agent import PolicyAgent
from rebelspace.play import play_out

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_maskable_ppo.py"


def _example():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_train_save_load_and_play(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "tiny.pt"
    argv = ["--timesteps", "256", "--n-steps", "128", "--out", str(out), "--seconds", "60"]
    assert _example().main(argv) == 0
    assert "saved" in capsys.readouterr().out
    assert out.is_file()
    for seed, sides in ((1, (0, 1)), (2, (1, 0))):
        game = new_game(seed, log=False)
        agents = [make_agent(f"policy:{out}", game.ctx, 7), make_agent("random", game.ctx, 8)]
        assert isinstance(agents[0], PolicyAgent)
        play_out(game, [agents[sides[0]], agents[sides[1]]])  # every choice checked legal
        assert game.is_over


def test_policy_spec_errors(tmp_path: Path) -> None:
    ctx = new_game(0).ctx
    with pytest.raises(AgentSpecError, match="needs a file"):
        make_agent("policy", ctx, 0)
    with pytest.raises(AgentSpecError, match="does not exist"):
        make_agent(f"policy:{tmp_path / 'missing.pt'}", ctx, 0)
