"""The computer's decisions, off the event loop so that other games never wait for them.

An agent decides from its seat's view and the legal ids only (the ``Agent`` protocol), so the
decision can run anywhere: ``random`` inline (microseconds), ``heuristic`` in a thread (well
under a millisecond), ``ismcts`` in a process pool (up to seconds of pure Python, which in a
thread would hold the GIL against the event loop). A fresh agent is made for every decision
with a seed derived from the game's seed and the ply, so a game replays identically after a
restart and an undo gives the same answer to the same question.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from rebelspace.engine import PlayerView, RulesOptions, context_for
from rebelspace.seeds import SERVER_AGENT
from rebelspace.seeds import agent_seed as _agent_seed

from .games import cards_from_text

log = logging.getLogger("rebelspace.server")

T = TypeVar("T")

# The first of the server's agent streams, one per ply (the table: rebelspace.seeds).
AGENT_STREAM = SERVER_AGENT


def agent_seed(game_seed: int, ply: int) -> int:
    """The computer's seed at ``ply``: one-way, so it tells nothing of the deal (issue 29)."""
    return _agent_seed(game_seed, AGENT_STREAM + ply)


def decide(
    spec: str,
    rules: dict[str, object],
    cards: str,
    view: PlayerView,
    legal: Sequence[int],
    seed: int,
) -> int:
    """One decision (also the process pool's entry point: every argument pickles)."""
    from rebelspace.agents.registry import make_agent

    ctx = context_for(cards_from_text(cards), RulesOptions.from_dict(rules))
    return make_agent(spec, ctx, seed).act(view, list(legal))


def exit_with_parent() -> None:
    """The pool's initializer: the worker exits as soon as the server process dies.

    A server killed by SIGKILL runs no shutdown code, so a worker waiting for work would live on
    (and every crash would leave more). A daemon thread watches the parent instead; the worker's
    main thread stays free to think. The resource tracker, the pool's other helper, exits by
    itself once the server and every worker are gone (its pipe has no writer left).
    """
    parent = multiprocessing.parent_process()
    sentinel = None if parent is None else parent.sentinel
    threading.Thread(target=_exit_when_orphaned, args=(sentinel, os.getppid()), daemon=True).start()


def _exit_when_orphaned(sentinel: int | None, ppid: int) -> None:
    if sentinel is not None:
        # The parent's sentinel (a pipe whose other end only the parent holds) becomes ready
        # when the parent exits, however it exits.
        multiprocessing.connection.wait([sentinel])
    else:
        # No sentinel (not expected under spawn): an orphan is adopted by another process.
        while os.getppid() == ppid:
            time.sleep(1)
    os._exit(1)  # at once: no clean-up code, the server that would want its answer is gone


class ComputerPlayers:
    """Runs decisions where they cost the event loop least."""

    def __init__(self, processes: int | None = None) -> None:
        self.processes = processes or max(1, (os.cpu_count() or 2) - 1)
        self._pool: ProcessPoolExecutor | None = None

    async def decide(
        self,
        spec: str,
        rules: dict[str, object],
        cards: str,
        view: PlayerView,
        legal: Sequence[int],
        seed: int,
    ) -> int:
        if spec == "random":
            return decide(spec, rules, cards, view, legal, seed)
        if spec.startswith("ismcts"):
            return await self.run(decide, spec, rules, cards, view, tuple(legal), seed)
        return await asyncio.to_thread(decide, spec, rules, cards, view, legal, seed)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the process pool: a search (a decision, a hint, an analysis).
        ``fn`` and its arguments must pickle."""
        try:
            if self._pool is None:
                # spawn: forking a process that runs an event loop and threads is unsafe.
                self._pool = ProcessPoolExecutor(
                    self.processes,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=exit_with_parent,
                )
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._pool, fn, *args)
        except (BrokenProcessPool, RuntimeError, OSError) as e:
            # A pool that cannot start or lost a worker: the game must not stall, so this
            # search runs in a thread (same answer, the seed is the same) and the pool is
            # made again for the next one.
            log.warning("the computer's process pool failed (%s); deciding in a thread", e)
            pool, self._pool = self._pool, None
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
        return await asyncio.to_thread(fn, *args)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
