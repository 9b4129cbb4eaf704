"""The server and browser settings of the browser client's end-to-end tests."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """One `rebelspace serve` subprocess; `restart()` stops it and starts it on the same
    port and database, as after a crash or a deploy."""

    def __init__(self, db: Path, log: Path, answer_delay: float = 0.0) -> None:
        self.db = db
        self.answer_delay = answer_delay
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        log = self.log_path.open("ab")
        cmd = [sys.executable, "-m", "rebelspace.cli", "serve", "--port", str(self.port)]
        cmd += ["--db", str(self.db), "--workers", "1"]
        if self.answer_delay:
            cmd += ["--test-answer-delay", str(self.answer_delay)]
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/openapi.json", timeout=2) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.2)
        raise RuntimeError(f"server did not start: {self.log_path.read_text()[-2000:]}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()


def settings_script(*, playback_ms: int | None = None, confirm_forced: bool = True) -> str:
    """A page init script that stores the table's settings (game.js, Settings) before the page
    runs: `confirm_forced` makes the player click an only choice (a lone "Pass") instead of
    the page making it after a moment, which keeps whole games played by clicking quick;
    `playback_ms` sets the pace of the opponent's moves played back (None: the default)."""
    settings: dict[str, object] = {"confirmForced": confirm_forced}
    if playback_ms is not None:
        settings["playbackMs"] = playback_ms
    return f"localStorage.setItem('rebelspace.settings', {json.dumps(json.dumps(settings))});"
