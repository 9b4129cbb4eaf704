"""The games of one server, as the routes see them: ``GameServer``, a facade over its roles.

Each role is a module of its own (issue 34: one class held them all):

- ``registry.py``: which games exist and the copy of each held here (create, join, find,
  keep current with the database, list a player's games, sweep the abandoned ones);
- ``presence.py``: who is connected, across processes (several on one PostgreSQL database);
- ``clocks.py``: each game's timer (a flag's fall, a claim becoming available) and the ends
  they lead to;
- ``computer_turns.py``: the computer's turns, as background tasks;
- ``hub.py``: the WebSocket connections and the state messages pushed to them;
- ``seat_requests.py``: what a seat asks of its game: moves, undo, resigning, rematches;
- ``limits.py``'s ``RateLimits``: the rates per client address.

``GameServer`` holds what the roles share (the store, the games held here, the time source,
the settings, the background tasks) and hands each call to its role, so the routes (app.py)
and the tests name one object. Everything runs on the event loop thread (games.py).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import Any

from rebelspace.engine import CardDB, RulesOptions, default_cards

from . import hub
from .advice import Advisor
from .clocks import Clocks
from .computer import ComputerPlayers
from .computer_turns import ComputerTurns
from .games import CLAIM_AFTER, Session, Since
from .hub import Connection, Hub
from .limits import ClientLimits, RateLimits
from .messages import Pushed
from .presence import Presence
from .registry import (
    CLOCK_INCREMENT,
    CLOCK_INITIAL,
    IDLE_DAYS,
    MAX_MINE,
    NewGame,
    Registry,
    check_clock,
)
from .seat_requests import SeatRequests
from .store import Store

# The names the routes and tests import from here, wherever their role keeps them.
__all__ = [
    "CLOCK_INCREMENT",
    "CLOCK_INITIAL",
    "IDLE_DAYS",
    "MAX_MINE",
    "Connection",
    "GameServer",
    "NewGame",
    "check_clock",
]


class GameServer:
    """The games of one server process: the state its roles share, and each call handed to
    the role that owns it (the module docstring lists them)."""

    def __init__(
        self,
        store: Store,
        computer: ComputerPlayers | None = None,
        cache_size: int = 1000,
        *,
        cards: CardDB | None = None,
        options: RulesOptions | None = None,
        limits: ClientLimits | None = None,
        idle_days: float = IDLE_DAYS,
        claim_after: float = CLAIM_AFTER,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        """``now``: the time source of clocks and claims (seconds; tests pass their own)."""
        self.store = store
        self.claim_after = claim_after
        self.now = now
        # New games use these (``serve --cards/--rule``); each game stores its own, so a game
        # keeps its cards and rules across restarts whatever the server is started with.
        self.cards = cards or default_cards()
        self.options = options or RulesOptions()
        self.cache_size = cache_size  # games kept in memory before idle ones are dropped
        self.computer = computer or ComputerPlayers()
        self.advisor = Advisor(self.computer)  # hints and analyses (issue 17)
        self.sessions: dict[str, Session] = {}  # the games held here (Registry keeps it)
        self.tasks: set[asyncio.Task[None]] = set()  # timers and computer turns (spawn)
        self.limits = limits or ClientLimits()
        self.rates = RateLimits(
            {
                "create": (self.limits.create, "requests creating games"),
                "connect": (self.limits.connect, "requests opening connections"),
            }
        )
        self.idle_days = idle_days
        # Tests: called with (game id, version) for each computer move about to be written.
        self.decisions: Callable[[str, int], None] | None = None
        self.registry = Registry(self)
        self.presence = Presence(self)
        self.clocks = Clocks(self)
        self.turns = ComputerTurns(self)
        self.hub = Hub(self)
        self.requests = SeatRequests(self)

    def spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """A background task of this server (a timer, the computer's turns), held until it
        ends so that ``close`` can cancel it."""
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    def check_rate(self, what: str, address: str) -> None:
        """Spend one of the address's ``what`` tokens, or refuse (429): ``RateLimits.check``."""
        self.rates.check(what, address)

    # --- games: registry.py

    def get(self, game_id: str, writing_at: object = None) -> Session:
        return self.registry.get(game_id, writing_at)

    def catch_up(self, session: Session) -> bool:
        return self.registry.catch_up(session)

    def refresh(self, session: Session) -> bool:
        return self.registry.refresh(session)

    def on_change(self, payload: str) -> None:
        self.registry.on_change(payload)

    def resume(self) -> None:
        self.registry.resume()

    def load_clocked_games(self) -> None:
        self.registry.load_clocked_games()

    def create(self, spec: NewGame) -> tuple[Session, list[tuple[int, str]], str | None]:
        return self.registry.create(spec)

    def join(self, game_id: str, invite: str) -> tuple[int, str]:
        return self.registry.join(game_id, invite)

    def mine(self, tokens: list[str]) -> list[dict[str, Any]]:
        return self.registry.mine(tokens)

    def sweep(self) -> int:
        return self.registry.sweep()

    # --- presence across processes: presence.py

    def load_presence(self, sessions: list[Session]) -> None:
        self.presence.load_presence(sessions)

    async def heartbeats(self) -> None:
        await self.presence.heartbeats()

    # --- a seat's requests: seat_requests.py

    def act(self, session: Session, seat: int, action: object, version: object) -> Pushed:
        return self.requests.act(session, seat, action, version)

    @staticmethod
    def answer(
        session: Session,
        seat: int | None,
        since: Since | None,
        texts: Pushed | None = None,
    ) -> str:
        return hub.answer(session, seat, since, texts)

    def request_undo(self, session: Session, seat: int, version: object = None) -> None:
        self.requests.request_undo(session, seat, version)

    def answer_undo(
        self, session: Session, seat: int, accept: bool, version: object = None
    ) -> None:
        self.requests.answer_undo(session, seat, accept, version)

    def resign(self, session: Session, seat: int, version: object = None) -> None:
        self.requests.resign(session, seat, version)

    def rematch(self, session: Session, seat: int, offer: bool, version: object = None) -> None:
        self.requests.rematch(session, seat, offer, version)

    # --- timers, flag fall and claims: clocks.py

    def claim(self, session: Session, seat: int, version: object = None) -> None:
        self.clocks.claim(session, seat, version)

    def check_flag(self, session: Session) -> None:
        self.clocks.check_flag(session)

    def arm_timer(self, session: Session) -> None:
        self.clocks.arm_timer(session)

    def wake_timers(self) -> None:
        self.clocks.wake_timers()

    # --- connections: hub.py

    def connect(self, session: Session, seat: int | None, since: Since | None = None) -> Connection:
        return self.hub.connect(session, seat, since)

    def take_seat_on(
        self, session: Session, conn: Connection, seat: int, since: Since | None = None
    ) -> None:
        self.hub.take_seat_on(session, conn, seat, since)

    def disconnect(self, session: Session, conn: Connection) -> None:
        self.hub.disconnect(session, conn)

    def send_to(self, session: Session, seat: int | None, data: dict[str, Any]) -> None:
        hub.send_to(session, seat, data)

    def broadcast(self, session: Session, skip: Connection | None = None) -> Pushed:
        return hub.broadcast(session, skip)

    async def close(self) -> None:
        """Stop: every timer and background task cancelled, every connection closed."""
        for session in self.sessions.values():
            if session.timer is not None:
                session.timer.cancel()
        for task in list(self.tasks):
            task.cancel()
        for session in self.sessions.values():
            for conn in list(session.connections):
                conn.close()
        self.computer.close()
        self.advisor.close()
