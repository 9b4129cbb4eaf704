"""`rebelspace loadtest` against a real server: concurrent games over real connections."""

from __future__ import annotations

import json

import pytest
from server_process import ServerProcess

from rebelspace.cli import main
from rebelspace.server.loadtest import percentile


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


def test_a_loadtest_against_no_server_counts_errors(capsys: pytest.CaptureFixture[str]) -> None:
    url = "http://127.0.0.1:9"  # the discard port: nothing listens there
    assert main(["loadtest", "--url", url, "--games", "2", "--json"]) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["errors"] == 2 and result["actions"] == 0


def test_a_loadtest_needs_an_http_url(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["loadtest", "--url", "ftp://example", "--games", "1"]) == 2
    assert "--url must be http://HOST:PORT" in capsys.readouterr().err
