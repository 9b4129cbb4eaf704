"""The games of one server: creating, joining, acting, undo, connections and pushes.

Sessions are loaded from the store on first use (so after a restart every game resumes when
anyone asks for it), and the computer's turns run as background tasks whose decisions are
computed off the event loop (``computer.py``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import re
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from rebelspace.engine import CardDB, RulesOptions, default_cards

from .computer import ComputerPlayers, agent_seed
from .games import (
    MODES,
    SEATS,
    ServerError,
    Session,
    UndoRequest,
    cards_text,
    invite_path,
    not_found,
)
from .limits import ClientLimits, TokenBuckets
from .store import Store, hash_token

log = logging.getLogger("rebelspace.server")

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
OUTBOX_LIMIT = 256  # messages queued for one slow client before it is dropped
IDLE_DAYS = 30.0  # an unfinished game with no activity this long is deleted by the sweep


@dataclass(eq=False)
class Connection:
    """One WebSocket: its seat (None: spectator) and its queue of outgoing texts, sent in order
    by the connection's own writer task so one slow client never holds up the others."""

    seat: int | None
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    closed: bool = False
    close_code: int = 1000  # the WebSocket close code the writer sends

    def send(self, data: dict[str, Any] | str) -> None:
        if self.closed:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            self.close()  # a client that does not read: drop it rather than queue forever
            return
        self.outbox.put_nowait(data if isinstance(data, str) else json.dumps(data))

    def close(self, code: int = 1000, *, drop: bool = True) -> None:
        """Stop sending: what is still queued is dropped (unless not ``drop``), and the writer
        closes the socket with ``code``."""
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        while drop and not self.outbox.empty():
            self.outbox.get_nowait()
        self.outbox.put_nowait(None)


@dataclass(frozen=True, slots=True)
class NewGame:
    mode: str
    side: str = "rebel"
    opponent: str = "ismcts"
    level: str = "normal"
    seed: int | None = None


class GameServer:
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
    ) -> None:
        self.store = store
        # New games use these (``serve --cards/--rule``); each game stores its own, so a game
        # keeps its cards and rules across restarts whatever the server is started with.
        self.cards = cards or default_cards()
        self.options = options or RulesOptions()
        self.cache_size = cache_size  # games kept in memory before idle ones are dropped
        self.computer = computer or ComputerPlayers()
        self.sessions: dict[str, Session] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.limits = limits or ClientLimits()
        self._buckets = {
            "create": TokenBuckets(self.limits.create),
            "connect": TokenBuckets(self.limits.connect),
        }
        self.idle_days = idle_days

    def check_rate(self, what: str, address: str) -> None:
        """Spend one of the address's ``what`` ("create", "connect") tokens, or refuse (429)."""
        wait = self._buckets[what].take(address)
        if wait:
            doing = "creating games" if what == "create" else "opening connections"
            rate = getattr(self.limits, what)
            raise ServerError(
                429,
                "rate_limited",
                f"too many requests {doing} from your address (limit: {rate}); try again later",
                retry_after=math.ceil(wait),
            )

    def sweep(self) -> int:
        """Delete the unfinished games idle for ``idle_days`` (not those open here now);
        returns how many."""
        busy = {s.id for s in self.sessions.values() if s.connections or s.computer_running}
        gone = self.store.sweep(time.time() - self.idle_days * 86400, keep=busy)
        for game_id in gone:
            self.sessions.pop(game_id, None)
        if gone:
            log.info("removed %d unfinished games idle for %g days", len(gone), self.idle_days)
        return len(gone)

    # --- games

    def get(self, game_id: str) -> Session:
        session = self.sessions.get(game_id)
        if session is not None:
            session.used = time.monotonic()
            return session
        if not GAME_ID.fullmatch(game_id):
            raise not_found(game_id[:80])
        loaded = self.store.load_game(game_id)
        if loaded is None:
            raise not_found(game_id)
        if len(self.sessions) >= self.cache_size:
            self._evict()
        session = Session(loaded)
        session.used = time.monotonic()
        self.sessions[game_id] = session
        self._start_computer(session)  # resumes a computer turn cut off by a restart
        return session

    def _evict(self) -> None:
        """Drop the least recently used half of the idle games from memory (no connection, no
        computer thinking). The database holds them; the next request loads them again."""
        idle = [s for s in self.sessions.values() if not s.connections and not s.computer_running]
        idle.sort(key=lambda s: s.used)
        for s in idle[: max(1, len(idle) // 2)]:
            del self.sessions[s.id]

    def create(self, spec: NewGame) -> tuple[Session, list[tuple[int, str]], str | None]:
        """A new game; returns it, the (seat, token) pairs for the creator and the invite."""
        if spec.mode not in MODES:
            raise ServerError(400, "bad_request", f"mode must be one of {', '.join(MODES)}")
        if spec.mode == "online" and spec.seed is not None:
            # Whoever chose the seed could work out the other player's cards.
            raise ServerError(400, "bad_request", "an online game's seed is chosen by the server")
        side = secrets.randbelow(2) if spec.side == "random" else SEATS.index(spec.side)
        seed = spec.seed if spec.seed is not None else secrets.randbelow(2**62)
        tokens: list[str | None] = [None, None]
        mine = [side, 1 - side] if spec.mode == "hotseat" else [side]
        for p in mine:
            tokens[p] = secrets.token_urlsafe(24)
        agent = None
        if spec.mode == "computer":
            agent = spec.opponent if spec.opponent != "ismcts" else f"ismcts:{spec.level}"
        invite = secrets.token_urlsafe(12) if spec.mode == "online" else None
        game_id = secrets.token_urlsafe(9)
        self.store.create_game(
            game_id=game_id,
            mode=spec.mode,
            seed=seed,
            rules=self.options.to_dict(),
            cards=cards_text(self.cards),
            agent=agent,
            computer_seat=1 - side if spec.mode == "computer" else None,
            creator_seat=side,
            invite=invite,
            token_hashes=(
                None if tokens[0] is None else hash_token(tokens[0]),
                None if tokens[1] is None else hash_token(tokens[1]),
            ),
        )
        session = self.get(game_id)
        seats = [(p, t) for p, t in enumerate(tokens) if t is not None]
        return session, seats, None if invite is None else invite_path(game_id, invite)

    def join(self, game_id: str, invite: str) -> tuple[int, str]:
        session = self.get(game_id)
        code = session.row.invite
        if code is None:
            raise ServerError(409, "conflict", f"a {session.mode} game has no seat to join")
        if not secrets.compare_digest(code.encode(), invite.encode()):
            raise ServerError(403, "forbidden", "the invite code is wrong")
        seat = 1 - session.row.creator_seat
        token = secrets.token_urlsafe(24)
        digest = hash_token(token)
        if session.token_hashes[seat] is not None or not self.store.take_seat(
            game_id, seat, digest
        ):
            raise ServerError(409, "conflict", "the seat has been taken")
        session.token_hashes[seat] = digest
        self.broadcast(session)
        return seat, token

    # --- actions and undo

    def act(self, session: Session, seat: int, action: object, version: object) -> str:
        """Apply and store a seat's action chosen at ``version``, push the new state; returns
        the seat's message."""
        session.act(seat, action, version, self.store)
        texts = self.broadcast(session)
        self._start_computer(session)  # a task: it runs after this request is answered
        return texts.get(seat) or session.message_text(seat)

    def request_undo(self, session: Session, seat: int, version: object = None) -> None:
        """Undo against the computer, a request to the other player otherwise. With a
        ``version`` (the state it was asked at), a repeated or stale request is refused."""
        if version is not None:
            session.check_version(version)
        keep, why = session.undo_target(seat)
        if keep is None:
            raise ServerError(409, "conflict", f"cannot undo: {why}")
        if session.computer_seat is not None:
            session.take_back(keep, self.store)
            self.broadcast(session)
            return
        if session.undo is not None:
            raise ServerError(409, "conflict", "an undo request is already waiting for an answer")
        if session.token_hashes[1 - seat] is None:
            raise ServerError(409, "conflict", "nobody holds the other seat to agree to the undo")
        session.ask_undo(UndoRequest(seat, keep), self.store)
        self.send_to(session, 1 - seat, {"type": "undo_request", "from": SEATS[seat]})
        self.broadcast(session)

    def answer_undo(
        self, session: Session, seat: int, accept: bool, version: object = None
    ) -> None:
        """Accept or refuse the other seat's undo request (every change of the game clears
        it, so a request still here is about the current state)."""
        if version is not None:
            session.check_version(version)
        request = session.undo
        if request is None or request.seat == seat:
            raise ServerError(409, "conflict", "there is no undo request for you to answer")
        if accept:
            session.take_back(request.keep, self.store)
        else:
            session.ask_undo(None, self.store)
        self.send_to(
            session, request.seat, {"type": "undo_answer", "from": SEATS[seat], "accept": accept}
        )
        self.broadcast(session)

    # --- the computer

    def _start_computer(self, session: Session) -> None:
        seat = session.computer_seat
        if seat is None or session.computer_running or session.state.to_move != seat:
            return
        session.computer_running = True
        task = asyncio.get_running_loop().create_task(self._computer_turns(session))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _computer_turns(self, session: Session) -> None:
        seat = session.computer_seat
        row = session.row
        assert seat is not None and row.agent is not None
        try:
            while session.state.to_move == seat and self.sessions.get(session.id) is session:
                version = session.version
                state = session.state
                action = await self.computer.decide(
                    row.agent,
                    row.rules,
                    row.cards,
                    state.view(seat),
                    state.legal_actions(),
                    agent_seed(row.seed, session.plies),
                )
                if session.version != version:
                    continue  # an undo changed the game while the computer thought
                session.commit(action, seat, self.store)
                self.broadcast(session)
                await asyncio.sleep(0)  # an instant agent must still let other games run
        except Exception:
            log.exception("the computer failed in game %s", session.id)
        finally:
            session.computer_running = False

    # --- connections

    def connect(self, session: Session, seat: int | None) -> Connection:
        conn = Connection(seat)
        self._join(session, conn)
        return conn

    def take_seat_on(self, session: Session, conn: Connection, seat: int) -> None:
        """A spectator's connection authenticated as ``seat``: from now on it is the seat's."""
        session.connections.discard(conn)
        conn.seat = seat
        self._join(session, conn)

    def _join(self, session: Session, conn: Connection) -> None:
        seat = conn.seat
        was = seat is not None and session.connected(seat)
        session.connections.add(conn)
        conn.send(session.message_text(seat))
        if seat is not None and not was:
            self.send_to(session, 1 - seat, {"type": "opponent", "connected": True})
            self.broadcast(session, skip=conn)

    def disconnect(self, session: Session, conn: Connection) -> None:
        session.connections.discard(conn)
        seat = conn.seat
        if seat is not None and not session.connected(seat):
            self.send_to(session, 1 - seat, {"type": "opponent", "connected": False})
            self.broadcast(session)

    def send_to(self, session: Session, seat: int | None, data: dict[str, Any]) -> None:
        text = json.dumps(data)
        for conn in list(session.connections):
            if conn.seat == seat:
                conn.send(text)

    def broadcast(self, session: Session, skip: Connection | None = None) -> dict[int | None, str]:
        """A fresh state to every connection, each with its own seat's view (built once per
        seat, not per connection). Returns the messages built, by seat."""
        texts: dict[int | None, str] = {}
        for conn in list(session.connections):
            if conn is skip:
                continue
            text = texts.get(conn.seat)
            if text is None:
                text = texts[conn.seat] = session.message_text(conn.seat)
            conn.send(text)
        return texts

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for session in self.sessions.values():
            for conn in list(session.connections):
                conn.close()
        self.computer.close()
