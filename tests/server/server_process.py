"""A real `rebelspace serve` subprocess on a free port and a given SQLite file: the one harness of
the server tests and the browser tests."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

import httpx

# One client for all requests: a new httpx client per request costs ~20 ms (TLS setup).
HTTP = httpx.Client(timeout=10)
START_TIMEOUT = 90.0  # seconds for the server to answer; generous on a busy 2-core machine (nice)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """One `rebelspace serve` process. `start()` again after `stop()` or `kill()` serves the
    same port and database, as after a deploy or a crash. Usable as a context manager."""

    def __init__(self, db: Path | str, log: Path, extra_args: Sequence[str] = ()) -> None:
        """``log``: the file the server's output is appended to; ``extra_args``: more arguments
        of `rebelspace serve` (e.g. ``["--access-log"]``)."""
        self.db, self.log = db, log
        self.extra_args = list(extra_args)
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-2000:]

    def start(self) -> None:
        cmd = [sys.executable, "-m", "rebelspace.cli", "serve", "--port", str(self.port)]
        cmd += ["--db", str(self.db), *self.extra_args]
        # The child writes to its own copy of the descriptor: ours is closed at once, so no
        # file handle outlives the process.
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited ({self.proc.returncode}): {self.log_tail()}")
            try:
                if HTTP.get(f"{self.url}/openapi.json", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not start in {START_TIMEOUT} s: {self.log_tail()}")

    def kill(self) -> None:
        """A crash: SIGKILL, so no shutdown code runs."""
        assert self.proc is not None, "kill() before start()"
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        """A clean shutdown (SIGTERM), a kill if it takes over 10 s; nothing if not running."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def __enter__(self) -> ServerProcess:
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()
