"""`rebelspace loadtest` against a real server: concurrent games over real connections."""

from __future__ import annotations

import concurrent.futures
import json
import math
import sqlite3
from pathlib import Path

import pytest

from rebelspace.cli import main as cli_main
from rebelspace.server.loadtest import percentile
from tests.server.server_process import ServerProcess


def main(args: list[str]) -> int:
    """The command line in a thread of its own: `loadtest` runs its own event loop, and in this
    test process Playwright's sync API (the browser tests) may hold one in the main thread."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(cli_main, args).result()


def test_percentiles_by_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert (percentile(values, 0.5), percentile(values, 0.95), percentile(values, 1.0)) == (
        50.0,
        95.0,
        100.0,
    )
    assert percentile([], 0.5) == 0.0 and percentile([7.0], 0.95) == 7.0


def test_a_small_loadtest_plays_games_without_errors(
    server: ServerProcess, capsys: pytest.CaptureFixture[str]
) -> None:
    url = server.url
    args = ["loadtest", "--url", url, "--games", "6", "--actions", "30", "--think", "0"]
    assert main([*args, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["errors"] == 0 and result["games"] == 6
    assert result["actions"] >= 6 * 30 - 6  # a game may end before its 30 actions
    assert result["ws_actions"] > 0 and result["rest_actions"] > 0
    assert result["actions"] == result["ws_actions"] + result["rest_actions"]
    assert 0 < result["p50_ms"] <= result["p95_ms"] <= result["max_ms"]
    assert 0 < result["state_bytes_p50"] <= result["state_bytes_p95"] <= result["state_bytes_max"]


def test_a_loadtest_against_no_server_counts_errors(capsys: pytest.CaptureFixture[str]) -> None:
    url = "http://127.0.0.1:9"  # the discard port: nothing listens there
    assert main(["loadtest", "--url", url, "--games", "2", "--json"]) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["errors"] == 2 and result["actions"] == 0


def test_a_loadtest_needs_an_http_url(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["loadtest", "--url", "ftp://example", "--games", "1"]) == 2
    assert "--url must be http://HOST:PORT" in capsys.readouterr().err


def test_games_play_on_beside_a_creation_flood_that_gets_429(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = ServerProcess(
        tmp_path / "games.sqlite3", tmp_path / "server.log", ["--create-limit", "5/6"]
    )
    server.start()
    try:
        args = ["loadtest", "--url", server.url, "--games", "3", "--actions", "20"]
        assert main([*args, "--think", "0", "--flood", "2", "--json"]) == 0
        result = json.loads(capsys.readouterr().out)
    finally:
        server.stop()
    assert result["errors"] == 0 and result["actions"] >= 3 * 20 - 3
    # The flood (from 127.0.0.2) got its burst of 5, a refill of 6 a minute, and 429s.
    allowed = 5 + math.ceil(result["seconds"] * 6 / 60) + 1
    assert result["flood_refused"] > 0 and result["flood_created"] <= allowed
    assert result["flood_requests"] == result["flood_created"] + result["flood_refused"]
    with sqlite3.connect(server.db) as db:
        (games,) = db.execute("SELECT COUNT(*) FROM games").fetchone()
    assert games == 3 + result["flood_created"]
