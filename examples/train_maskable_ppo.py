"""Train a masked PPO policy (sb3-contrib ``MaskablePPO``, CPU) on ``RebelSpace-v0`` and save it.

    .venv/bin/python examples/train_maskable_ppo.py --seconds 600 --out examples/models/ppo.pt
    .venv/bin/rebelspace arena --agents policy:examples/models/ppo.pt,random --games 100

The learner alternates sides against the built-in ``random`` agent (``--opponent`` for
another). Training stops at ``--timesteps`` or after ``--seconds`` of wall time, whichever comes
first. Only the policy is saved (``policy.save``: weights and spaces, no optimizer state), which
keeps the file small; ``policy:PATH`` plays it in the arena. One torch thread by default: the
machine's cores are shared, and a small network gains little from more.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import gymnasium
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

import rebelspace.env  # noqa: F401  (registers RebelSpace-v0)


class TimeBudget(BaseCallback):
    """Stops training once ``seconds`` of wall time have passed."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds
        self.start = time.monotonic()

    def _on_training_start(self) -> None:
        self.start = time.monotonic()

    def _on_step(self) -> bool:
        return time.monotonic() - self.start < self.seconds


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=600.0, help="wall-time budget (600)")
    ap.add_argument("--timesteps", type=int, default=10_000_000, help="step budget")
    ap.add_argument("--out", type=Path, default=Path("examples/models/ppo_vs_random.pt"))
    ap.add_argument("--opponent", default="random", help="agent spec of the opponent")
    ap.add_argument("--side", default="alternate", choices=("rebel", "imperial", "alternate"))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1, help="torch threads (1)")
    ap.add_argument("--n-steps", type=int, default=2048, help="PPO rollout length")
    ap.add_argument("--verbose", type=int, default=0)
    args = ap.parse_args(argv)

    torch.set_num_threads(args.threads)
    env = gymnasium.make("RebelSpace-v0", side=args.side, opponent=args.opponent)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=min(256, args.n_steps),
        n_epochs=4,
        learning_rate=3e-4,
        gamma=0.995,  # sparse reward at the end of games of ~150 decisions per side
        ent_coef=0.01,
        policy_kwargs={"net_arch": {"pi": [128, 128], "vf": [128, 128]}},
        seed=args.seed,
        device="cpu",
        verbose=args.verbose,
    )
    start = time.monotonic()
    model.learn(total_timesteps=args.timesteps, callback=TimeBudget(args.seconds))
    elapsed = time.monotonic() - start
    args.out.parent.mkdir(parents=True, exist_ok=True)
    model.policy.save(str(args.out))
    steps = model.num_timesteps
    print(
        f"trained {steps} steps in {elapsed:.0f} s ({steps / elapsed:.0f} steps/s) "
        f"against {args.opponent}; saved {args.out}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
