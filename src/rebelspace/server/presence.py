"""Presence across processes (several server processes on one PostgreSQL database): which
seats are connected, and since when they have been gone, counted over every process.

Owns the writes of this process's seats (a request, a first connection or a last one, the
heartbeat) and the reads of the others' (a notification, the heartbeat, a claim). Apart from
the registry because only a shared database needs it: with one process a session's own
connections are the whole truth, and nothing here runs.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from typing import TYPE_CHECKING

from . import hub
from .games import Session

if TYPE_CHECKING:
    from .manager import GameServer

log = logging.getLogger("rebelspace.server")

SEEN_EVERY = 1.0  # seconds: a seat's requests are written for the other processes this often
HEARTBEAT = 5.0  # seconds (at most) between presence heartbeats with several processes


class Presence:
    """What this process writes of its seats' presence and reads of the other processes'."""

    def __init__(self, server: GameServer) -> None:
        self.server = server
        self._seen_at: dict[tuple[str, int], float] = {}  # (game, seat): presence written

    def seen(self, session: Session, seat: int) -> None:
        """A request of the seat: written for the other processes at most every SEEN_EVERY
        seconds (their claims wait claim_after from the last one)."""
        if session.connected(seat):
            # Connected (here: the heartbeat writes it; elsewhere: that process does), so
            # unclaimable anyway, and a claim reads the presence afresh: nothing to add, and
            # no write on the event loop of an action.
            return
        key = (session.id, seat)
        now = time.monotonic()
        if now - self._seen_at.get(key, -math.inf) < SEEN_EVERY:
            return
        self._seen_at[key] = now
        self.server.store.set_presence(
            [(session.id, seat, session.connected_here(seat))], notify=False
        )

    def presence_here(self, session: Session, seat: int) -> None:
        """The seat's first connection here opened, or its last closed: the others are told."""
        self._seen_at[(session.id, seat)] = time.monotonic()
        self.server.store.set_presence(
            [(session.id, seat, session.connected_here(seat))], notify=True
        )

    def load_presence(self, sessions: list[Session]) -> None:
        """What the other processes know of these games' seats; a change of who is connected
        is pushed, and the claim timers follow the latest times seen."""
        if not sessions:
            return
        found = self.server.store.presence_of([s.id for s in sessions])
        wall, now = time.time(), self.server.now()
        for session in sessions:
            seats = found.get(session.id, {})
            before = [session.connected(p) for p in (0, 1)]
            session.elsewhere = [
                None if p not in seats else (seats[p][0], now - (wall - seats[p][1]))
                for p in (0, 1)
            ]
            after = [session.connected(p) for p in (0, 1)]
            for p in (0, 1):
                if after[p] != before[p] and p != session.computer_seat:
                    hub.send_to(session, 1 - p, {"type": "opponent", "connected": after[p]})
            if after != before:
                hub.broadcast(session)
            if session.mode == "online" and not session.over:
                self.server.clocks.arm_timer(session)

    async def heartbeats(self) -> None:
        """Forever (several processes): every HEARTBEAT seconds or sooner, the seats connected
        here are written as seen now (so when this process dies the others know since when
        they have been gone), and the other processes' presence in the online games held
        here is read again (a process that died tells nobody)."""
        server = self.server
        every = max(0.2, min(HEARTBEAT, server.claim_after / 4))
        while True:
            await asyncio.sleep(every)
            try:
                here = [
                    (s.id, p, True)
                    for s in server.sessions.values()
                    for p in (0, 1)
                    if p != s.computer_seat and s.connected_here(p)
                ]
                server.store.set_presence(here, notify=False)
                online = [s for s in server.sessions.values() if s.mode == "online" and not s.over]
                self.load_presence(online)
            except Exception as e:  # the database is away: the next beat tries again
                log.warning("the presence heartbeat failed: %s", type(e).__name__)
