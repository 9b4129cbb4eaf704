"""The timers of a game server: a clock's flag fall, the moment a claim becomes available,
and the ends they lead to (out of time, abandoned).

Owns each game's one timer (``Session.timer``, armed for its next deadline) and the endings
decided by time: a flag that fell, a win claimed against an opponent gone too long. Apart from
the registry because a timer is the only thing that acts on a game when nobody asks: it must
catch up with the database first (another process may have moved meanwhile).
"""

from __future__ import annotations

import asyncio
import logging
import math
from typing import TYPE_CHECKING

from . import hub
from .games import ServerError, Session

if TYPE_CHECKING:
    from .manager import GameServer

log = logging.getLogger("rebelspace.server")


class Clocks:
    """The timers of the games held here, and the ends of a game (``end``)."""

    def __init__(self, server: GameServer) -> None:
        self.server = server

    def arm_timer(self, session: Session) -> None:
        """(Re)start the game's timer for its next deadline: the running clock's flag fall,
        or the moment a seat's claim becomes available (a fresh state is pushed then)."""
        if session.timer is not None:
            session.timer.cancel()
            session.timer = None
        delay = self._next_deadline(session)
        if delay is None:
            return
        session.timer = self.server.spawn(self._wait_deadline(session, delay))

    def _next_deadline(self, session: Session) -> float | None:
        """Seconds from now to the next deadline not yet acted on, or None."""
        now = self.server.now()
        deadlines = []
        running = session.clock_running()
        clocks = session.clocks_at(now)
        if running is not None and clocks is not None:
            deadlines.append(clocks[running] / 1000)
        for at in self._claim_times(session):
            if at > session.timer_checked:  # not pushed yet
                deadlines.append(at - now)
        return min(deadlines, default=None)

    @staticmethod
    def _claim_times(session: Session) -> list[float]:
        """When each pending claim becomes (or became) available, in the time source's time."""
        return [
            session.gone_at(1 - seat) + session.claim_after
            for seat in (0, 1)
            if session.claim_in_ms(seat) is not None
        ]

    async def _wait_deadline(self, session: Session, delay: float) -> None:
        await asyncio.sleep(max(0.0, delay))
        session.timer = None
        server = self.server
        try:
            if server.store.shared and server.registry.catch_up(session):
                return  # changed elsewhere (refresh armed the timer again)
            flagged = session.flag_fallen()
            if flagged is not None:
                self.end(session, 1 - flagged, "time")
                return
            now = server.now()
            due = [at for at in self._claim_times(session) if session.timer_checked < at <= now]
            if due:
                session.timer_checked = now
                hub.broadcast(session)  # a claim has just become available
        except ServerError as e:
            if e.code == "stale":  # another process ended the game or moved first: its state
                server.registry.refresh(session)
            else:
                log.warning("the timer of game %s was refused: %s", session.id, e.code)
            return
        except Exception:
            log.exception("the timer of game %s failed", session.id)
            return
        self.arm_timer(session)

    def wake_timers(self) -> None:
        """Re-arm every game's timer from the time source now (tests whose time source jumps)."""
        for session in list(self.server.sessions.values()):
            self.arm_timer(session)

    def claim(self, session: Session, seat: int, version: object = None) -> None:
        """The seat claims the win against an opponent gone for ``claim_after`` seconds."""
        if version is not None:
            session.check_version(version)
        if self.server.store.shared:  # the opponent may be connected to another process
            self.server.presence.load_presence([session])
        wait = session.claim_in_ms(seat)
        if wait is None:
            raise ServerError(
                409,
                "conflict",
                "no claim here: only in an unfinished online game without a clock, while the "
                "opponent's seat is taken but not connected",
            )
        if wait > 0:
            raise ServerError(
                409,
                "conflict",
                f"the opponent has not been gone long enough: the claim is available in "
                f"{math.ceil(wait / 1000)} s",
            )
        self.end(session, seat, "abandoned")

    def check_flag(self, session: Session) -> None:
        """End the game if the running clock has run out (the timer may not have run yet)."""
        flagged = session.flag_fallen()
        if flagged is not None:
            self.end(session, 1 - flagged, "time")

    def end(self, session: Session, winner: int, reason: str) -> None:
        """The game ends (resigned, out of time, abandoned): stored, its timer stopped, pushed."""
        session.end(winner, reason, self.server.store)
        self.arm_timer(session)  # nothing left to time: the timer stops
        hub.broadcast(session)
