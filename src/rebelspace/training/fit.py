"""Fitting the learnt evaluation: a logistic regression on the self-play rows, by Newton's
method on the L2-penalised log loss, deterministic, with a checkpoint after each step. Needs
NumPy (the ``rl`` extra); the model it makes needs only the standard library."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rebelspace.agents.value import NAMES, SIZE, ValueModel
from rebelspace.play.progress import progress_bar

from .selfplay import ROW

__all__ = ["fit", "log_loss"]


def fit(
    train: Sequence[Path],
    *,
    l2: float = 1e-3,
    steps: int = 12,
    checkpoint: Path | None = None,
    progress: bool | None = None,
) -> ValueModel:
    """Newton's method on the mean log loss plus ``l2``/2 |w|^2, from the checkpoint if one
    exists; the checkpoint is rewritten after each step."""
    from rebelspace.extras import require

    require("rl", "rebelspace train", ("numpy",))
    import numpy as np

    x, y = _arrays(train)
    w = np.zeros(SIZE)
    done = 0
    # A checkpoint is resumed only for the same rows and penalty: another run's would do
    # harm quietly.
    config = {"chunks": [p.name for p in train], "l2": l2, "features": list(NAMES)}
    if checkpoint is not None and checkpoint.exists():
        saved = json.loads(checkpoint.read_text(encoding="utf-8"))
        if saved.get("config") == config:
            w, done = np.array(saved["weights"], dtype=float), min(steps, int(saved["step"]))
    bar = progress_bar(steps, progress, initial=done, unit="step")
    n = len(y)
    for step in range(done, steps):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) / n + l2 * w
        hess = (x.T * (p * (1 - p))) @ x / n + l2 * np.eye(SIZE)
        w = w - np.linalg.solve(hess, grad)
        if checkpoint is not None:
            saved = {"step": step + 1, "weights": w.tolist(), "config": config}
            checkpoint.write_text(json.dumps(saved), encoding="utf-8")
        bar.update(1)
    return ValueModel(tuple(round(float(v), 6) for v in w), {"positions": n, "l2": l2})


def _arrays(paths: Sequence[Path]) -> tuple[Any, Any]:
    import numpy as np

    data = np.concatenate(
        [np.frombuffer(p.read_bytes(), dtype=np.float32) for p in paths]
        or [np.zeros(0, dtype=np.float32)]
    )
    data = data.reshape(-1, ROW).astype(float)
    return data[:, :SIZE], data[:, SIZE]


def log_loss(model: ValueModel, paths: Sequence[Path]) -> dict[str, float]:
    """Held-out log loss and accuracy of ``model`` and of the hand-made evaluations' scores
    (each fitted to the same rows by one scale, so the comparison is of information)."""
    import numpy as np

    x, y = _arrays(paths)
    w = np.array(model.weights)
    p = 1.0 / (1.0 + np.exp(-(x @ w)))
    out = {"positions": float(len(y)), "model_log_loss": _loss(p, y)}
    out["model_accuracy"] = float(np.mean((p > 0.5) == (y > 0.5)))
    out["base_rate_log_loss"] = _loss(np.full(len(y), float(np.mean(y))), y)
    for name, column in (("units", NAMES.index("tanh(unit_score/3)")),):
        z = np.arctanh(np.clip(x[:, column], -0.999999, 0.999999)) * 3
        out[f"{name}_log_loss"] = min(
            _loss(1.0 / (1.0 + np.exp(-z / s)), y) for s in (0.5, 1.0, 2.0, 4.0, 8.0)
        )
    return out


def _loss(p: Any, y: Any) -> float:
    import numpy as np

    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
