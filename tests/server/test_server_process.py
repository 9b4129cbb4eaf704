"""The test harness itself: ServerProcess keeps no handle on its log file, says why a server did
not start, and starts again on the same port and database."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest

from rebelspace.server.store import DatabaseInUseError, Store
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


def test_a_second_server_on_the_same_sqlite_file_refuses_to_start(tmp_path: Path) -> None:
    """Two real `rebelspace serve` processes on one SQLite file: the second exits at once with
    one line saying why and what to do; once the first dies (kill -9: the kernel drops its
    lock), a server starts on the file and has its games."""
    db = tmp_path / "games.sqlite3"
    first = ServerProcess(db, tmp_path / "first.log")
    second = ServerProcess(db, tmp_path / "second.log")
    first.start()
    try:
        gid = HTTP.post(f"{first.url}/api/games", json={"mode": "hotseat"}).json()["game_id"]
        with pytest.raises(RuntimeError, match="the server exited \\(2\\)"):
            second.start()
        lines = (tmp_path / "second.log").read_text().strip().splitlines()
        assert len(lines) == 1, lines
        assert lines[0].startswith(f"rebelspace serve: {db} is in use by another server process")
        assert f"(pid {first.proc.pid if first.proc else '?'})" in lines[0]
        assert "another --db file" in lines[0] and "PostgreSQL" in lines[0]
        first.kill()
        second.start()
        assert HTTP.get(f"{second.url}/api/games/{gid}").status_code == 200
    finally:
        first.stop()
        second.stop()


def test_a_store_holds_its_sqlite_file_until_closed(tmp_path: Path) -> None:
    db = str(tmp_path / "games.sqlite3")
    store = Store(db)
    try:
        with pytest.raises(DatabaseInUseError, match=f"pid {os.getpid()}"):
            Store(db)
    finally:
        store.close()
    Store(db).close()  # closed: the file is free again
