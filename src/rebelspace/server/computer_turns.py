"""The computer's turns in the games held here: started when it is to move, run as background
tasks whose decisions are computed off the event loop (``computer.py``), written only at the
version they were computed for.

Owns when the computer thinks and who writes its move: on a shared database one process at a
time owns a game's computer turns (``Store.own_computer``). Apart from the registry because a
computer turn outlives the request that started it, and must find out, after every await,
whether the game moved on without it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import TYPE_CHECKING

from . import hub
from .computer import agent_seed
from .games import ServerError, Session

if TYPE_CHECKING:
    from .manager import GameServer

log = logging.getLogger("rebelspace.server")

OWNER_RETRY = 1.0  # seconds (about) between looks at a computer turn another process owns


class ComputerTurns:
    """The computer's turns: a task per game while the computer is to move."""

    def __init__(self, server: GameServer) -> None:
        self.server = server

    def start_computer(self, session: Session) -> None:
        """The computer's turns as a task, if it is to move and not thinking already."""
        seat = session.computer_seat
        if seat is None or session.computer_running or session.state.to_move != seat:
            return
        session.computer_running = True
        self.server.spawn(self._computer_turns(session))

    async def _computer_turns(self, session: Session) -> None:
        """The computer's decisions while it is to move. On a shared database one process at
        a time owns the game's computer turns (``Store.own_computer``): the others wait and
        look again every ``OWNER_RETRY`` seconds, so when the owner dies (its lock goes with
        its connection) one of them takes over. A decision is only written at the version it
        was computed for, so a move is never made twice."""
        server = self.server
        seat = session.computer_seat
        assert seat is not None
        owned = False
        try:
            while (
                not session.over
                and session.state.to_move == seat
                and server.sessions.get(session.id) is session
            ):
                if not owned:
                    owned = server.store.own_computer(session.id)
                    if not owned:  # another process thinks: wait, then look again
                        await asyncio.sleep(OWNER_RETRY * (0.5 + secrets.randbelow(1000) / 1000))
                    if server.store.shared:
                        server.registry.catch_up(session)  # what the owner did meanwhile
                    continue
                await self._computer_move(session, seat)
                await asyncio.sleep(0)  # an instant agent must still let other games run
        except Exception:
            log.exception("the computer failed in game %s", session.id)
        finally:
            session.computer_running = False
            if owned:
                server.store.release_computer(session.id)

    async def _computer_move(self, session: Session, seat: int) -> None:
        """One decision of the computer, written if the game is still where it was asked."""
        server = self.server
        row = session.row
        assert row.agent is not None
        version = session.version
        state = session.state
        action = await server.computer.decide(
            row.agent,
            row.rules,
            row.cards,
            state.view(seat),
            state.legal_actions(),
            agent_seed(row.seed, session.plies),
        )
        # An undo or a resign in another process meanwhile: the versioned write below finds
        # it (stale), and then the game is read again; no query of its own before.
        if session.version != version:
            return  # an undo or a resign changed the game while the computer thought
        if server.decisions is not None:
            server.decisions(session.id, version)
        try:
            session.commit(action, seat, server.store)
        except ServerError as e:
            if e.code != "stale":
                raise
            server.registry.refresh(session)  # changed elsewhere between the check and the write
            return
        hub.broadcast(session)
