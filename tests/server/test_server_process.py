"""The test harness itself: ServerProcess keeps no handle on its log file, says why a server did
not start, and starts again on the same port and database."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest

from tests.server.server_process import HTTP, ServerProcess


def open_files() -> set[Path]:
    """The files this process has open (Linux: /proc/self/fd)."""
    fds = Path("/proc/self/fd")
    found = set()
    for fd in fds.iterdir():
        # The descriptor of the listing itself is gone by the time it is read.
        with contextlib.suppress(OSError):
            found.add(Path(os.readlink(fd)))
    return found


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc (Linux)")
def test_the_harness_keeps_no_handle_on_the_log(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    with ServerProcess(tmp_path / "games.sqlite3", log) as server:
        assert log.resolve() not in open_files()
        assert HTTP.get(f"{server.url}/api/cards").status_code == 200
        server.stop()
        server.start()  # the same port and database, the log appended to
        assert log.resolve() not in open_files()
    assert log.read_text()  # the server's output went to the file


def test_a_server_that_cannot_start_says_why(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "games.sqlite3", tmp_path / "log", ["--workers", "0"])
    with pytest.raises(RuntimeError, match="--workers must be at least 1"):
        server.start()
