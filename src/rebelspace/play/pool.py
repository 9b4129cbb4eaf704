"""Many jobs on every local core: a ``multiprocessing`` pool, or this process for one worker.

Jobs are batches of games (a task of one game would spend more on messages than on play).
Every game depends only on what its job says, so results are the same for any number of
workers; ``ordered`` keeps them in the order of the jobs (the arena's tables), otherwise they
come as they finish (the lab stores each game under its index).
"""

from __future__ import annotations

import math
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from multiprocessing import get_context
from typing import TypeVar

J = TypeVar("J")
R = TypeVar("R")
T = TypeVar("T")

MAX_BATCH = 64


def local_cores() -> int:
    """The cores this process may run on (its CPU affinity, which a container may limit)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def batches(items: Sequence[T], workers: int) -> list[list[T]]:
    """Batches small enough to keep every worker busy to the end, large enough to be cheap."""
    if not items:
        return []
    size = max(1, min(MAX_BATCH, math.ceil(len(items) / (workers * 8))))
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def _ignore_ctrl_c() -> None:
    # Ctrl-C reaches every process of the terminal; the parent stops the pool and says what
    # was done, the workers just end (no traceback from each of them).
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def parallel_map(
    fn: Callable[[J], R], jobs: Sequence[J], *, workers: int, ordered: bool = True
) -> Iterator[R]:
    """``fn(job)`` for every job, on ``workers`` processes (``fn`` and the jobs must pickle).

    Worker processes are started with ``spawn``, so they begin from a clean interpreter
    whatever the parent holds (threads, an event loop, open databases)."""
    if workers == 1 or len(jobs) <= 1:
        yield from map(fn, jobs)
        return
    with get_context("spawn").Pool(min(workers, len(jobs)), initializer=_ignore_ctrl_c) as pool:
        if ordered:
            yield from pool.imap(fn, jobs)
        else:
            yield from pool.imap_unordered(fn, jobs)
