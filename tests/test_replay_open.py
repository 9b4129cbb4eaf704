"""`rebelspace replay RECORD --open`: a local server with the record's game, its URL printed,
the browser opened at its replay page (a stand-in browser here: $BROWSER, a script that notes
the URL), the replay fetched over HTTP, and a clean stop on Ctrl-C (SIGINT)."""

from __future__ import annotations

import json
import os
import random
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

from rebelspace.engine import new_game, to_record  # noqa: E402
from tests.common import with_ctrl_c  # noqa: E402


def record_of(seed: int, actions: int | None = None) -> dict[str, Any]:
    """A random game's record: to the end, or only its first ``actions`` actions."""
    game = new_game(seed)
    rng = random.Random(seed)
    while not game.is_over and (actions is None or len(game.history or ()) < actions):
        game.apply(rng.choice(game.legal_actions()))
    return to_record(game)


def open_replay(tmp_path: Path, record: dict[str, Any]) -> tuple[subprocess.Popen[str], str]:
    """Start the command; returns it and the URL it printed."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    browser = tmp_path / "browser.sh"
    browser.write_text(f'#!/bin/sh\necho "$1" > {tmp_path / "opened.txt"}\n')
    browser.chmod(browser.stat().st_mode | stat.S_IXUSR)
    env = {**os.environ, "BROWSER": str(browser)}
    cmd = [sys.executable, "-m", "rebelspace.cli", "replay", str(path), "--open"]
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=with_ctrl_c,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("Replay at http://127.0.0.1:"), (line, proc.stderr)
    return proc, line.split()[2]


def wait_for(check: Any, what: str) -> Any:
    for _ in range(600):
        try:
            result = check()
        except httpx.TransportError:
            result = None
        if result:
            return result
        time.sleep(0.05)
    raise AssertionError(f"never: {what}")


def stop(proc: subprocess.Popen[str]) -> int:
    proc.send_signal(signal.SIGINT)
    try:
        return proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()


def test_replay_open_serves_the_records_game_and_opens_the_browser(tmp_path: Path) -> None:
    record = record_of(3)
    proc, url = open_replay(tmp_path, record)
    try:
        assert url.endswith("/replay/local")
        base = url.removesuffix("/replay/local")
        opened = wait_for(
            lambda: (tmp_path / "opened.txt").is_file() and (tmp_path / "opened.txt").read_text(),
            "the browser was opened",
        )
        assert opened.strip() == url
        page = httpx.get(url)
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        data = httpx.get(f"{base}/api/games/local/replay").json()
        assert len(data["frames"]) == len(record["actions"]) + 1
        assert [f["action"]["text"] for f in data["frames"][1:]] == record["actions"]
        assert data["result"]["winner"] == record["result"]["winner"]
        assert data["result"]["reason"] == "rules"
    finally:
        code = stop(proc)
    # Ctrl-C ends it as any Ctrl-C ends the command: 'Interrupted.' and 130, no traceback.
    assert code == 130, proc.stderr.read() if proc.stderr else ""
    assert proc.stderr is not None and "Traceback" not in proc.stderr.read()


def test_replay_open_shows_an_unfinished_records_game_too(tmp_path: Path) -> None:
    record = record_of(5, actions=20)
    assert "result" not in record
    proc, url = open_replay(tmp_path, record)
    try:
        base = url.removesuffix("/replay/local")
        data = wait_for(lambda: httpx.get(f"{base}/api/games/local/replay").json(), "a replay")
        assert data["result"] is None and len(data["frames"]) == 21
        final = data["frames"][-1]["view"]
        assert final["you"]["hand"] is not None and final["opponent"]["hand"] is not None
    finally:
        stop(proc)


def test_replay_open_of_a_bad_record_fails_without_starting(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": "nope"}))
    cmd = [sys.executable, "-m", "rebelspace.cli", "replay", str(path), "--open"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "format" in done.stderr and not done.stdout
