"""Balance games as Ray tasks: on a local Ray, or on an existing cluster by its address
(``--ray auto`` for the cluster this machine is part of, as Ray spells it).

Ray is an optional extra (``pip install 'rebelspace[ray]'``). Each task plays one batch of
games; results are the same as on a local pool because each game depends only on the run's
settings and its index. When connecting to a cluster, the ``rebelspace`` package is shipped to
the workers with the task (``runtime_env`` ``py_modules``), so the cluster plays this code.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rebelspace.engine import RebelSpaceError

from .games import GameRow, play_batch
from .settings import RunSettings


class RayUnavailable(RebelSpaceError):
    """``--ray`` was asked for, but Ray is not installed or cannot be reached."""


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RayUnavailable(
            "--ray needs Ray: pip install 'rebelspace[ray]' (or run without --ray)"
        ) from None
    return ray


def connect(address: str | None, workers: int | None = None) -> Any:
    """Start a local Ray (no address) on ``workers`` cores, or join a cluster; reuse a
    connection already made."""
    ray = _ray()
    if ray.is_initialized():
        return ray
    try:
        if address:
            import rebelspace

            ray.init(address=address, runtime_env={"py_modules": [rebelspace]})
        else:
            # A Ray of our own (``--ray auto`` joins a running one), on the cores asked for.
            ray.init(address="local", num_cpus=workers)
    except (ConnectionError, RuntimeError, ValueError) as e:
        raise RayUnavailable(f"cannot start or reach Ray at {address or 'local'}: {e}") from None
    return ray


def ray_batches(
    settings: RunSettings, todo: list[list[int]], address: str | None, workers: int | None = None
) -> Iterator[list[GameRow]]:
    ray = connect(address, workers)
    task = ray.remote(play_batch)
    shared = ray.put(settings)
    pending = [task.remote(shared, batch) for batch in todo]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        for ref in pending:  # stopped early (Ctrl-C): don't leave work running
            ray.cancel(ref)
