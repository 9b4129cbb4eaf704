"""Issue 33's multi-process targets: three `rebelspace serve` processes on one PostgreSQL
database (a throwaway cluster started here, as the tests do: tests/server/postgres.py).

    PYTHONPATH=src python benchmarks/server_processes.py loadtest --games 200
    PYTHONPATH=src python benchmarks/server_processes.py loadtest --think 0.25 --actions 60
    PYTHONPATH=src python benchmarks/server_processes.py kill --trials 20 --out kill.jsonl

``loadtest``: starts the cluster and three processes (``--create-limit 10000/60000``, as every
game comes from one address), runs ``rebelspace loadtest --url A,B,C`` against them in a
process of its own and prints its figures: errors, action latency p50/p95, the cross-process
update latency p95 (an action sent to one process, its state received from another), the
think time and actions per game they were measured at, and what they cost: each process's CPU
seconds and ms per action, PostgreSQL's, the load generator's share of a core (above ~0.9 it
measures itself, not the servers) and the load average before and after.

``kill``: trials of the multi-process test's scenario (tests/server/test_server_multiprocess.py:
online, hot-seat and computer games, the seats and spectators of each on different
processes), each on a fresh database, one process killed with SIGKILL after a random number
of acknowledged actions, every game played to its end. Each trial appends one JSON line to
``--out`` (so an interrupted series resumes: trials already there are counted, not rerun):
acknowledged actions, those lost, games finished, computer moves, decided twice by live
processes, and whether every client's stream checked out.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' harness

from tests.server import postgres  # noqa: E402
from tests.server.server_process import ServerProcess  # noqa: E402
from tests.server.test_server_multiprocess import (  # noqa: E402
    World,
    check_streams,
    count_acknowledged,
    count_computer_moves,
    create_games,
    play,
    read_actions,
)


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a process has used so far (0.0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _postgres_cpu(data: Path) -> float:
    """CPU seconds of the cluster's postmaster and its live children (the backends)."""
    postmaster = int((data / "postmaster.pid").read_text().split()[0])
    total = _cpu_seconds(postmaster)
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == postmaster:
                total += _cpu_seconds(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return total


def loadtest(
    games: int, think: float, extra: list[str], profile: Path | None = None
) -> dict[str, Any]:
    """The loadtest's figures, and what they cost: each process's CPU seconds and CPU ms per
    action (the load generator's too: a saturated client measures itself, not the servers),
    and the machine's load average. ``profile``: py-spy samples the first server process
    throughout (its collapsed stacks written there; py-spy must be on PATH)."""
    with postgres.cluster() as pg, tempfile.TemporaryDirectory() as folder:
        url = pg.new_database()
        args = ["--workers", "1", "--create-limit", "10000/60000", "--connect-limit", "10000/60000"]
        procs = [ServerProcess(url, Path(folder) / f"serve{i}.log", args) for i in range(3)]
        with contextlib.ExitStack() as stack:
            for proc in procs:
                stack.enter_context(proc)
            pids = [p.proc.pid for p in procs if p.proc is not None]
            cpu0 = [_cpu_seconds(pid) for pid in pids]
            pg0 = _postgres_cpu(pg.data)
            spy = None
            if profile is not None:
                spy = subprocess.Popen(
                    ["py-spy", "record", "--pid", str(pids[0]), "--format", "raw", "--rate",
                     "200", "--nonblocking", "-o", str(profile)],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                )  # fmt: skip
            cmd = [sys.executable, "-m", "rebelspace.cli", "loadtest", "--json"]
            cmd += ["--url", ",".join(p.url for p in procs), "--games", str(games)]
            cmd += ["--think", str(think), *extra]
            client0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            load0 = os.getloadavg()
            out = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=3600)
            load1 = os.getloadavg()
            client1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu1 = [_cpu_seconds(pid) for pid in pids]
            pg1 = _postgres_cpu(pg.data)
            if spy is not None:
                spy.send_signal(signal.SIGINT)  # py-spy writes its file on SIGINT
                spy.wait(60)
            if not out.stdout.strip():
                raise RuntimeError(out.stderr[-2000:])
            result: dict[str, Any] = json.loads(out.stdout)
    actions = max(1, result["actions"])
    wall = max(1e-9, result["seconds"])
    servers = [b - a for a, b in zip(cpu0, cpu1, strict=True)]
    client = client1.ru_utime + client1.ru_stime - client0.ru_utime - client0.ru_stime
    # Every action is one request to one process, but each process also pushes it to its
    # clients of that game: per action means the whole run's CPU over every action.
    result["cpu"] = {
        "server_seconds": [round(c, 1) for c in servers],
        "server_ms_per_action": [round(1000 * c / actions, 2) for c in servers],
        "server_share_of_a_core": [round(c / wall, 2) for c in servers],
        "postgres_seconds": round(pg1 - pg0, 1),
        "postgres_ms_per_action": round(1000 * (pg1 - pg0) / actions, 2),
        "client_seconds": round(client, 1),
        "client_share_of_a_core": round(client / wall, 2),
        "load_average_1min_before_after": [round(load0[0], 2), round(load1[0], 2)],
        "cores": os.cpu_count(),
    }
    return result


def kill_trial(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    with postgres.cluster() as pg, tempfile.TemporaryDirectory() as folder:
        url = pg.new_database()
        decisions = Path(folder) / "decisions.log"
        extra = ["--workers", "1", "--test-decision-log", str(decisions)]
        procs = [ServerProcess(url, Path(folder) / f"serve{i}.log", extra) for i in range(3)]
        with contextlib.ExitStack() as stack:
            for proc in procs:
                stack.enter_context(proc)
            clients = create_games(procs)
            victim = rng.randrange(3)
            killed = procs[victim].proc
            assert killed is not None
            world = World(procs, kill_after=rng.randrange(20, 200), max_plies=0)
            asyncio.run(asyncio.wait_for(play(world, clients, victim), 3600))
            stored = read_actions(url)
        acked, lost = count_acknowledged(clients, stored)
        moves, missing, twice = count_computer_moves(clients, stored, decisions, killed.pid)
        try:
            check_streams(clients, stored)
            streams = "ok"
        except AssertionError as e:
            streams = f"failed: {str(e)[:300]}"
        over = sum(bool(c.messages and c.messages[-1]["over"]) for c in clients)
        return {
            "seed": seed,
            "killed_after": world.kill_after,
            "acknowledged": acked,
            "lost": len(lost),
            "games": len({c.game_id for c in clients}),
            "clients_saw_the_end": f"{over}/{len(clients)}",
            "computer_moves": moves,
            "computer_missing": len(missing),
            "computer_twice": len(twice),
            "streams": streams,
            "reconnects": sum(c.reconnects for c in clients),
        }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("loadtest")
    p.add_argument("--games", type=int, default=200)
    # People think 1-3 s between their decisions (0.5x..1.5x of the mean): the target
    # names no pace, and at 0.25 s 200 games are ~300 actions/s, which on 2 shared cores
    # saturates them with the load itself (every figure is then queueing). --think 0.25 is
    # the stress figure.
    p.add_argument("--think", type=float, default=2.0, help="mean seconds (default 2.0)")
    p.add_argument(
        "--actions",
        type=int,
        default=40,
        help="human actions per game (default 40: ~100 s at 2 s; 0: every game to its end)",
    )
    p.add_argument(
        "--profile", type=Path, help="py-spy's collapsed stacks of the first process to this file"
    )
    p.add_argument("rest", nargs="*", help="more loadtest arguments (after --)")
    k = sub.add_parser("kill")
    k.add_argument("--trials", type=int, default=20)
    k.add_argument("--out", type=Path, default=Path("kill-trials.jsonl"))
    args = parser.parse_args()
    if args.what == "loadtest":
        more = ["--actions", str(args.actions), *args.rest]
        result = loadtest(args.games, args.think, more, args.profile)
        result["actions_per_game"] = args.actions  # beside think_seconds: the pace measured
        print(json.dumps(result, indent=1))
        return 0
    done = []
    if args.out.exists():
        done = [json.loads(line) for line in args.out.read_text().splitlines()]
    for seed in range(len(done), args.trials):
        started = time.monotonic()
        try:
            trial = kill_trial(seed)
        except RuntimeError as e:  # a process did not start (a starved machine): say, go on
            print(f"trial {seed} not run: {str(e)[:200]}", flush=True)
            continue
        trial["seconds"] = round(time.monotonic() - started, 1)
        with args.out.open("a") as out:
            out.write(json.dumps(trial) + "\n")
        done.append(trial)
        print(json.dumps(trial), flush=True)
    ok = [
        t
        for t in done
        if not (t["lost"] or t["computer_missing"] or t["computer_twice"]) and t["streams"] == "ok"
    ]
    print(
        f"{len(done)} trials: {sum(t['acknowledged'] for t in done)} acknowledged actions, "
        f"{sum(t['lost'] for t in done)} lost; {sum(t['computer_moves'] for t in done)} "
        f"computer moves, {sum(t['computer_twice'] for t in done)} decided twice by live "
        f"processes, {sum(t['computer_missing'] for t in done)} undecided; "
        f"{sum(t['streams'] == 'ok' for t in done)} with every stream in order and nothing "
        f"hidden shown; {len(ok)} of {len(done)} trials clean"
    )
    return 0 if len(ok) == len(done) else 1


if __name__ == "__main__":
    sys.exit(main())
