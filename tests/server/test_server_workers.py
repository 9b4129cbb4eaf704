"""No orphans: the computer's ISMCTS worker processes (and the pool's helper processes) exit
when the server process dies, even by SIGKILL, when no shutdown code of the server runs."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from tests.server.server_process import HTTP, ServerProcess

# The player takes the Imperial seat: the computer plays the Rebel, who moves first.
GAME = {"mode": "computer", "side": "imperial", "opponent": "ismcts", "level": "hard", "seed": 5}


def parent_pids() -> dict[int, int]:
    """pid -> ppid of every process visible in /proc."""
    parents = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
        except OSError:
            continue  # exited meanwhile
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after it.
        parents[int(name)] = int(stat.rsplit(")", 1)[1].split()[1])
    return parents


def descendants(pid: int) -> set[int]:
    parents = parent_pids()
    found: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        children = {c for c, pp in parents.items() if pp == p} - found
        found |= children
        todo.extend(children)
    return found


def cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def is_worker(pid: int) -> bool:
    """A spawned multiprocessing child (the pool's workers), not e.g. the resource tracker."""
    return b"spawn_main" in cmdline(pid)


def is_multiprocessing(pid: int) -> bool:
    """A worker or a helper such as the resource tracker (not a pid reused meanwhile)."""
    return b"multiprocessing" in cmdline(pid)


def alive(pid: int) -> bool:
    """Exists and is not a zombie (an exited child that nobody has reaped yet)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_workers_exit_when_the_server_is_killed(server: ServerProcess) -> None:
    assert server.proc is not None
    # No action needed (nor sent): the computer starts thinking as soon as the game exists.
    r = HTTP.post(f"{server.url}/api/games", json=GAME)
    assert r.status_code == 201, r.text

    deadline = time.monotonic() + 60
    pids = descendants(server.proc.pid)
    while not any(is_worker(p) for p in pids):
        assert time.monotonic() < deadline, "the server started no worker process"
        assert server.proc.poll() is None, server.log.read_text()[-2000:]
        time.sleep(0.05)
        pids = descendants(server.proc.pid)
    # pids: at least one worker (so this cannot pass vacuously), and the resource tracker.
    try:
        server.kill()
        deadline = time.monotonic() + 30
        while (left := {p for p in pids if alive(p)}) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not left, f"still alive after the server was killed: {sorted(left)}"
    finally:
        # A failed run leaves no orphans. The workers first: then the resource tracker, its
        # pipe's last writers gone, exits by itself and unlinks the pool's semaphores.
        for kill, wait in ((is_worker, 5), (is_multiprocessing, 0)):
            for p in pids:
                if alive(p) and kill(p):
                    os.kill(p, signal.SIGKILL)
            deadline = time.monotonic() + wait
            while any(alive(p) for p in pids) and time.monotonic() < deadline:
                time.sleep(0.1)
