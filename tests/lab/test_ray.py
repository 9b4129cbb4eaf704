"""Balance games as Ray tasks, on a real local Ray: the same games as the local pool."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from rebelspace.lab.runner import run_balance
from rebelspace.lab.settings import RunSettings
from rebelspace.lab.store import Store

ray = pytest.importorskip("ray", reason="the ray extra: pip install 'rebelspace[ray]'")

RUN = RunSettings.build(("heuristic", "random"), 5)
pytestmark = pytest.mark.slow


def stored(path: Path, **kwargs: object) -> list[tuple]:
    with Store(path) as store:
        result = run_balance(RUN, 30, store, progress=False, **kwargs)  # type: ignore[arg-type]
        return [
            (r.index, r.winner, r.turns, r.plays, r.deck_sizes) for r in store.games(result.run_id)
        ]


@pytest.fixture()
def local_ray() -> Iterator[None]:
    # address="local": always a new Ray of our own, never one another test started.
    ray.init(address="local", num_cpus=2, include_dashboard=False)
    try:
        yield
    finally:
        ray.shutdown()


def test_ray_plays_the_same_games_as_the_local_pool(local_ray: None, tmp_path: Path) -> None:
    on_ray = stored(tmp_path / "ray.sqlite", use_ray=True)
    local = stored(tmp_path / "pool.sqlite", workers=1)
    assert len(on_ray) == 30 and on_ray == local


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_ray_joins_an_existing_cluster_by_address(tmp_path: Path) -> None:
    ray_cli = shutil.which("ray", path=os.path.dirname(sys.executable))
    assert ray_cli, "the ray command comes with the ray extra"
    port = free_port()
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    # --block keeps this cluster's head in one process group that we alone stop (a
    # `ray stop` would stop every Ray on the machine).
    head = subprocess.Popen(
        [ray_cli, "start", "--head", "--block", f"--port={port}", "--num-cpus=2",
         "--include-dashboard=false", "--disable-usage-stats"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        wait_for_port(port, head)
        on_cluster = stored(
            tmp_path / "cluster.sqlite", use_ray=True, ray_address=f"127.0.0.1:{port}"
        )
    finally:
        ray.shutdown()
        os.killpg(head.pid, signal.SIGTERM)
        head.wait(timeout=60)
    local = stored(tmp_path / "pool.sqlite", workers=1)
    assert on_cluster == local


def wait_for_port(port: int, process: subprocess.Popen[bytes], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert process.poll() is None, "ray start --head exited"
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise TimeoutError(f"the Ray head did not listen on port {port}")
