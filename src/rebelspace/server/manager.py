"""The games of one server: creating, joining, acting, undo, connections and pushes.

Over 500 lines: GameServer still holds every role (registry, clocks and claims, computer turns,
the WebSocket hub, rematch); issue 34 asks for it split by role, not done yet.

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
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from rebelspace.engine import CardDB, RulesOptions, default_cards

from .advice import Advisor
from .computer import ComputerPlayers, agent_seed
from .games import (
    CLAIM_AFTER,
    MODES,
    SEATS,
    ServerError,
    Session,
    Since,
    UndoRequest,
    cards_text,
    invite_path,
    not_found,
    stale,
)
from .limits import ClientLimits, RateLimits
from .messages import Message, Pushed, build_state, state_text
from .store import MyGame, StaleVersionError, Store, hash_token

log = logging.getLogger("rebelspace.server")

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
OUTBOX_LIMIT = 256  # messages queued for one slow client before it is dropped
IDLE_DAYS = 30.0  # an unfinished game with no activity this long is deleted by the sweep
SEEN_EVERY = 1.0  # seconds: a seat's requests are written for the other processes this often
HEARTBEAT = 5.0  # seconds (at most) between presence heartbeats with several processes
OWNER_RETRY = 1.0  # seconds (about) between looks at a computer turn another process owns


@dataclass(eq=False)
class Connection:
    """One WebSocket: its seat (None: spectator) and its queue of outgoing texts, sent in order
    by the connection's own writer task so one slow client never holds up the others."""

    seat: int | None
    # What the client holds of the seat's event stream (None: nothing known yet): each state
    # message sent carries only the events after it, then moves it on.
    since: Since | None = None
    # The last state message sent (None: none yet): the next one carries only what changed
    # (messages.build_state), which the client puts together with the one it holds.
    held: Message | None = None
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
    clock: tuple[int, int] | None = None  # online games: (initial, increment) in seconds


CLOCK_INITIAL = (10, 7200)  # seconds: the range a clock's initial time may take
CLOCK_INCREMENT = (0, 120)
MAX_MINE = 100  # tokens in one POST /api/games/mine


def check_clock(mode: str, clock: tuple[int, int]) -> None:
    """A clock setting a game may be created with, or ``bad_request``."""
    if mode != "online":
        raise ServerError(400, "bad_request", "only online games have a clock")
    initial, increment = clock
    low, high = CLOCK_INITIAL
    if not low <= initial <= high:
        raise ServerError(
            400, "bad_request", f"clock.initial_s must be {low}..{high} seconds, got {initial}"
        )
    low, high = CLOCK_INCREMENT
    if not low <= increment <= high:
        raise ServerError(
            400, "bad_request", f"clock.increment_s must be {low}..{high} seconds, got {increment}"
        )


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


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
        self.sessions: dict[str, Session] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.limits = limits or ClientLimits()
        self.rates = RateLimits(self.limits)
        self.idle_days = idle_days
        self._seen_at: dict[tuple[str, int], float] = {}  # (game, seat): presence written
        # Tests: called with (game id, version) for each computer move about to be written.
        self.decisions: Callable[[str, int], None] | None = None

    def check_rate(self, what: str, address: str) -> None:
        """Spend one of the address's ``what`` tokens, or refuse (429): ``RateLimits.check``."""
        self.rates.check(what, address)

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

    def get(self, game_id: str, writing_at: object = None) -> Session:
        """The game, current. ``writing_at``: the version an action names (the write then
        checks it in the database)."""
        session = self.sessions.get(game_id)
        if session is not None:
            session.used = time.monotonic()
            if self.store.shared and not session.settled_at(writing_at):
                # Another process may have changed it since: one short query, so that every
                # request sees the latest state, whatever the notifications' delay.
                self.catch_up(session)
                if self.sessions.get(game_id) is not session:
                    raise not_found(game_id)
            return session
        if not GAME_ID.fullmatch(game_id):
            raise not_found(game_id[:80])
        loaded = self.store.load_game(game_id)
        if loaded is None:
            raise not_found(game_id)
        if len(self.sessions) >= self.cache_size:
            self._evict()
        session = Session(loaded, self.now, self.claim_after)
        session.used = time.monotonic()
        self.sessions[game_id] = session
        if self.store.shared:  # other processes' clients count for claims and "connected"
            session.on_seen = lambda seat: self._seen(session, seat)
            self.load_presence([session])
        self._start_computer(session)  # resumes a computer turn cut off by a restart
        self.arm_timer(session)  # a clock resumes (time while the server was down not charged)
        return session

    def catch_up(self, session: Session) -> bool:
        """``refresh`` if the database's copy differs (its stamp: one short query)."""
        stamp = self.store.game_stamp(session.id)
        if stamp is None:
            self._drop(session)
            return False
        return stamp != session.stamp() and self.refresh(session)

    def refresh(self, session: Session) -> bool:
        """Bring the cached game up to date with the database (another process changed it)
        and push the change to this process's clients; False if it had not changed."""
        stored = self.store.load_game(session.id, cards=session.row.cards)
        if stored is None:
            self._drop(session)
            return False
        if not session.refresh(stored):
            return False
        self.arm_timer(session)
        self.broadcast(session)
        self._start_computer(session)
        return True

    def on_change(self, payload: str) -> None:
        """A notification from the database: ``"<game id> <version>[ seat]"`` (pgstore.py).
        Games not held here are none of this process's business; a version already held
        here is this process's own write coming back."""
        game_id, _, rest = payload.partition(" ")
        session = self.sessions.get(game_id)
        if session is None:
            return
        version_text, _, what = rest.partition(" ")
        try:
            version = int(version_text)
        except ValueError:
            log.warning("a notification not understood: %r", payload[:120])
            return
        if not session.connections and not session.computer_running and session.timer is None:
            return  # nobody here to tell: the next request for it catches up (get)
        if what == "presence":
            self.load_presence([session])
        elif what.startswith("action ") and self._follow(session, version, what):
            return
        elif version > session.version or (what == "seat" and None in session.token_hashes):
            self.refresh(session)

    def _follow(self, session: Session, version: int, what: str) -> bool:
        """Another process's action (``"action <ply> <action> <seat>"``, pgstore.add_action)
        made at the version this copy is at: applied here as ``refresh`` would, with no read
        of the database; False when this copy is not exactly one action behind (a missed or
        pending notification, a clock to read): then ``refresh`` reads it."""
        try:
            ply, action, seat = (int(word) for word in what.split()[1:])
        except ValueError:
            return False
        if version != session.version + 1 or ply != session.plies:
            return False
        if not session.follow(action, seat):
            return False
        self.arm_timer(session)
        self.broadcast(session)
        self._start_computer(session)
        return True

    # --- presence across processes (PostgreSQL): claims and "connected" count every one

    def _seen(self, session: Session, seat: int) -> None:
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
        self.store.set_presence([(session.id, seat, session.connected_here(seat))], notify=False)

    def _presence_here(self, session: Session, seat: int) -> None:
        """The seat's first connection here opened, or its last closed: the others are told."""
        self._seen_at[(session.id, seat)] = time.monotonic()
        self.store.set_presence([(session.id, seat, session.connected_here(seat))], notify=True)

    def load_presence(self, sessions: list[Session]) -> None:
        """What the other processes know of these games' seats; a change of who is connected
        is pushed, and the claim timers follow the latest times seen."""
        if not sessions:
            return
        found = self.store.presence_of([s.id for s in sessions])
        wall, now = time.time(), self.now()
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
                    self.send_to(session, 1 - p, {"type": "opponent", "connected": after[p]})
            if after != before:
                self.broadcast(session)
            if session.mode == "online" and not session.over:
                self.arm_timer(session)

    async def heartbeats(self) -> None:
        """Forever (several processes): every HEARTBEAT seconds or sooner, the seats connected
        here are written as seen now (so when this process dies the others know since when
        they have been gone), and the other processes' presence in the online games held
        here is read again (a process that died tells nobody)."""
        every = max(0.2, min(HEARTBEAT, self.claim_after / 4))
        while True:
            await asyncio.sleep(every)
            try:
                here = [
                    (s.id, p, True)
                    for s in self.sessions.values()
                    for p in (0, 1)
                    if p != s.computer_seat and s.connected_here(p)
                ]
                self.store.set_presence(here, notify=False)
                online = [s for s in self.sessions.values() if s.mode == "online" and not s.over]
                self.load_presence(online)
            except Exception as e:  # the database is away: the next beat tries again
                log.warning("the presence heartbeat failed: %s", type(e).__name__)

    def resume(self) -> None:
        """After notifications may have been missed (the listening connection broke): check
        every game held here against the database."""
        for session in list(self.sessions.values()):
            try:
                self.get(session.id)
            except ServerError:
                continue  # deleted meanwhile

    def _drop(self, session: Session) -> None:
        """The game is gone from the database (swept by another process): forget it here."""
        if self.sessions.get(session.id) is session:
            del self.sessions[session.id]
        if session.timer is not None:
            session.timer.cancel()
        for conn in list(session.connections):
            conn.close()

    def load_clocked_games(self) -> None:
        """At start: every game whose clock runs, so its flag falls even if nobody asks."""
        for game_id in self.store.clocked_games():
            self.get(game_id)

    def _evict(self) -> None:
        """Drop the least recently used half of the idle games from memory (no connection, no
        computer thinking, no clock running: dropping it would lose the time spent since its
        last change). The database holds them; the next request loads them again."""
        idle = [
            s
            for s in self.sessions.values()
            if not s.connections and not s.computer_running and s.clock_running() is None
        ]
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
        if spec.clock is not None:
            check_clock(spec.mode, spec.clock)
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
            clock=spec.clock,
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
        session.gone_since[seat] = self.now()  # not connected yet: a claim counts from here
        session.restart_clock()  # both seats taken: the first decision's clock starts now
        self.arm_timer(session)
        self.broadcast(session)
        return seat, token

    # --- actions and undo

    def act(self, session: Session, seat: int, action: object, version: object) -> Pushed:
        """Apply and store a seat's action chosen at ``version``, push the new state; returns
        the messages pushed (``broadcast``), which the REST answer may reuse (``answer``)."""
        self.check_flag(session)  # a decision after the flag fell is too late
        session.act(seat, action, version, self.store)
        self.arm_timer(session)
        texts = self.broadcast(session)
        self._start_computer(session)  # a task: it runs after this request is answered
        return texts

    @staticmethod
    def answer(
        session: Session,
        seat: int | None,
        since: Since | None,
        texts: Pushed | None = None,
    ) -> str:
        """The state message of a REST answer, for a client that holds ``since`` of the seat's
        events: one of the messages just pushed if it is the same, else built."""
        built = (texts or {}).get((seat, session.events_start(seat, since), 0))
        return state_text(session, seat, since) if built is None else built[0]

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
            self.arm_timer(session)
        else:
            session.ask_undo(None, self.store)
        self.send_to(
            session, request.seat, {"type": "undo_answer", "from": SEATS[seat], "accept": accept}
        )
        self.broadcast(session)

    # --- the end of a game: resign, time, claims; rematches

    def resign(self, session: Session, seat: int, version: object = None) -> None:
        """The seat gives up: the other side wins (``result.reason`` "resign")."""
        if version is not None:
            session.check_version(version)
        self.check_flag(session)
        if session.over:
            raise ServerError(409, "conflict", "the game is over")
        self._end(session, 1 - seat, "resign")

    def claim(self, session: Session, seat: int, version: object = None) -> None:
        """The seat claims the win against an opponent gone for ``claim_after`` seconds."""
        if version is not None:
            session.check_version(version)
        if self.store.shared:
            self.load_presence([session])  # the opponent may be connected to another process
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
        self._end(session, seat, "abandoned")

    def check_flag(self, session: Session) -> None:
        """End the game if the running clock has run out (the timer may not have run yet)."""
        flagged = session.flag_fallen()
        if flagged is not None:
            self._end(session, 1 - flagged, "time")

    def _end(self, session: Session, winner: int, reason: str) -> None:
        session.end(winner, reason, self.store)
        self.arm_timer(session)  # nothing left to time: the timer stops
        self.broadcast(session)

    def rematch(self, session: Session, seat: int, offer: bool, version: object = None) -> None:
        """Offer or accept (``offer``), withdraw or decline (not ``offer``) a rematch."""
        if version is not None:
            session.check_version(version)
        if not session.over:
            raise ServerError(409, "conflict", "a rematch is for a game that is over")
        if session.rematch_id is not None:
            if offer:
                return  # accepted already: offering again changes nothing
            raise ServerError(409, "conflict", "the rematch has already started")
        try:
            if not offer:
                if session.rematch_seat is not None:
                    self._set_offer(session, None)
                return
            if session.mode == "online" and session.rematch_seat in (None, seat):
                if session.rematch_seat is None:
                    self._set_offer(session, seat)
                return
            self._start_rematch(session)
        except StaleVersionError as e:  # only a second writer on the database gets here
            raise stale(e.version) from None

    def _set_offer(self, session: Session, seat: int | None) -> None:
        self.store.set_rematch_offer(session.id, session.version, seat)
        session.version += 1
        session.rematch_seat = seat
        self.broadcast(session)

    def _start_rematch(self, session: Session) -> None:
        """The new game: same mode, rules, cards, computer and clock, a fresh seed and the
        sides swapped; each token opens the other side's seat (its hash moves over)."""
        row = session.row
        game_id = secrets.token_urlsafe(9)
        self.store.create_game(
            game_id=game_id,
            mode=row.mode,
            seed=secrets.randbelow(2**62),
            rules=row.rules,
            cards=row.cards,
            agent=row.agent,
            computer_seat=None if row.computer_seat is None else 1 - row.computer_seat,
            creator_seat=1 - row.creator_seat,
            invite=None,  # both seats are taken
            token_hashes=(session.token_hashes[1], session.token_hashes[0]),
            clock=row.clock,
            rematch_of=(session.id, session.version),
        )
        session.version += 1
        session.rematch_id, session.rematch_seat = game_id, None
        self.get(game_id)  # loaded: the computer moves first if it is its turn
        self.broadcast(session)

    def mine(self, tokens: list[str]) -> list[dict[str, Any]]:
        """The games these tokens hold a seat of, newest activity first."""
        if len(tokens) > MAX_MINE:
            raise ServerError(400, "bad_request", f"at most {MAX_MINE} tokens at once")
        out = []
        for game in self.store.games_of([hash_token(t) for t in tokens]):
            out.append(self._my_game(game))
        return out

    def _my_game(self, game: MyGame) -> dict[str, Any]:
        over = game.winner is not None
        turn = None
        if not over:  # whose decision: the game itself knows (loaded, or cached)
            session = self.get(game.id)
            over = session.over
            turn = None if over else SEATS[session.state.to_move]
        result = None
        if over:
            reason = game.reason or "rules"
            result = {
                "winner": None if game.winner is None else SEATS[game.winner],
                "reason": reason,
            }
        name = level = None
        if game.computer_seat is not None and game.agent is not None:
            name, _, level_text = game.agent.partition(":")
            level = level_text or None
        return {
            "game_id": game.id,
            "seat": SEATS[game.seat],
            "mode": game.mode,
            "created": _iso(game.created),
            "updated": _iso(game.active),
            "over": over,
            "result": result,
            "opponent": {
                "kind": "human" if game.computer_seat is None else "computer",
                "name": name,
                "level": level,
            },
            "plies": game.plies,
            "turn": turn,
        }

    # --- timers: flag fall and claims

    def arm_timer(self, session: Session) -> None:
        """(Re)start the game's timer for its next deadline: the running clock's flag fall,
        or the moment a seat's claim becomes available (a fresh state is pushed then)."""
        if session.timer is not None:
            session.timer.cancel()
            session.timer = None
        delay = self._next_deadline(session)
        if delay is None:
            return
        task = asyncio.get_running_loop().create_task(self._wait_deadline(session, delay))
        session.timer = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _next_deadline(self, session: Session) -> float | None:
        """Seconds from now to the next deadline not yet acted on, or None."""
        now = self.now()
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
        try:
            if self.store.shared and self.catch_up(session):
                return  # changed elsewhere (refresh armed the timer again)
            flagged = session.flag_fallen()
            if flagged is not None:
                self._end(session, 1 - flagged, "time")
                return
            now = self.now()
            due = [at for at in self._claim_times(session) if session.timer_checked < at <= now]
            if due:
                session.timer_checked = now
                self.broadcast(session)  # a claim has just become available
        except ServerError as e:
            if e.code == "stale":  # another process ended the game or moved first: its state
                self.refresh(session)
            else:
                log.warning("the timer of game %s was refused: %s", session.id, e.code)
            return
        except Exception:
            log.exception("the timer of game %s failed", session.id)
            return
        self.arm_timer(session)

    def wake_timers(self) -> None:
        """Re-arm every game's timer from the time source now (tests whose time source jumps)."""
        for session in list(self.sessions.values()):
            self.arm_timer(session)

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
        """The computer's decisions while it is to move. On a shared database one process at
        a time owns the game's computer turns (``Store.own_computer``): the others wait and
        look again every ``OWNER_RETRY`` seconds, so when the owner dies (its lock goes with
        its connection) one of them takes over. A decision is only written at the version it
        was computed for, so a move is never made twice."""
        seat = session.computer_seat
        assert seat is not None
        owned = False
        try:
            while (
                not session.over
                and session.state.to_move == seat
                and self.sessions.get(session.id) is session
            ):
                if not owned:
                    owned = self.store.own_computer(session.id)
                    if not owned:  # another process thinks: wait, then look again
                        await asyncio.sleep(OWNER_RETRY * (0.5 + secrets.randbelow(1000) / 1000))
                    if self.store.shared:
                        self.catch_up(session)  # what the owner did meanwhile
                    continue
                await self._computer_move(session, seat)
                await asyncio.sleep(0)  # an instant agent must still let other games run
        except Exception:
            log.exception("the computer failed in game %s", session.id)
        finally:
            session.computer_running = False
            if owned:
                self.store.release_computer(session.id)

    async def _computer_move(self, session: Session, seat: int) -> None:
        """One decision of the computer, written if the game is still where it was asked."""
        row = session.row
        assert row.agent is not None
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
        # An undo or a resign in another process meanwhile: the versioned write below finds
        # it (stale), and then the game is read again; no query of its own before.
        if session.version != version:
            return  # an undo or a resign changed the game while the computer thought
        if self.decisions is not None:
            self.decisions(session.id, version)
        try:
            session.commit(action, seat, self.store)
        except ServerError as e:
            if e.code != "stale":
                raise
            self.refresh(session)  # changed elsewhere between the check and the write
            return
        self.broadcast(session)

    # --- connections

    def connect(self, session: Session, seat: int | None, since: Since | None = None) -> Connection:
        """A new connection of ``seat`` whose client holds ``since`` of its events (a
        reconnecting client: it is sent only what it is missing)."""
        conn = Connection(seat, since)
        self._join(session, conn)
        return conn

    def take_seat_on(
        self, session: Session, conn: Connection, seat: int, since: Since | None = None
    ) -> None:
        """A spectator's connection authenticated as ``seat``: from now on it is the seat's
        (a seat's stream is not the spectator's: ``since`` is the client's of the seat's)."""
        session.connections.discard(conn)
        conn.seat, conn.since, conn.held = seat, since, None  # the seat's own message, whole
        self._join(session, conn)

    def _push(self, session: Session, conn: Connection, texts: Pushed) -> None:
        """The state message to one connection, with the events it is missing and, after
        its first, only what changed since its last message (``build_state``'s delta);
        ``texts`` holds the messages built so far, by seat, first event and message held
        (0: none), so each is built once: a seat's connections sent the same messages
        share them."""
        held = conn.held
        start = session.events_start(conn.seat, conn.since)
        key = (conn.seat, start, 0 if held is None else id(held))
        built = texts.get(key)
        if built is None:
            built = texts[key] = build_state(session, conn.seat, conn.since, held)
        conn.send(built[0])
        conn.since = (len(session.events_json(conn.seat)), session.version)
        conn.held = built[1]

    def _join(self, session: Session, conn: Connection) -> None:
        seat = conn.seat
        was = seat is not None and session.connected(seat)
        here = seat is not None and session.connected_here(seat)
        session.connections.add(conn)
        if seat is not None and not here and self.store.shared:
            self._presence_here(session, seat)
        self._push(session, conn, {})
        if seat is not None and not was:
            self.send_to(session, 1 - seat, {"type": "opponent", "connected": True})
            self.broadcast(session, skip=conn)

    def disconnect(self, session: Session, conn: Connection) -> None:
        session.connections.discard(conn)
        seat = conn.seat
        if seat is not None and self.store.shared and not session.connected_here(seat):
            try:
                self._presence_here(session, seat)
            except Exception as e:  # the heartbeat stops counting it here anyway
                log.warning("presence of game %s not written: %s", session.id, type(e).__name__)
        if seat is not None and not session.connected(seat):
            session.gone_since[seat] = self.now()
            self.arm_timer(session)  # the other seat's claim becomes available later
            self.send_to(session, 1 - seat, {"type": "opponent", "connected": False})
            self.broadcast(session)

    def send_to(self, session: Session, seat: int | None, data: dict[str, Any]) -> None:
        text = json.dumps(data)
        for conn in list(session.connections):
            if conn.seat == seat:
                conn.send(text)

    def broadcast(self, session: Session, skip: Connection | None = None) -> Pushed:
        """A fresh state to every connection, each with its own seat's view and the events it
        has not had (built once per seat, first event and message held, not per
        connection). Returns the messages built (``Pushed``)."""
        texts: Pushed = {}
        for conn in list(session.connections):
            if conn is not skip:
                self._push(session, conn, texts)
        return texts

    async def close(self) -> None:
        for session in self.sessions.values():
            if session.timer is not None:
                session.timer.cancel()
        for task in list(self._tasks):
            task.cancel()
        for session in self.sessions.values():
            for conn in list(session.connections):
                conn.close()
        self.computer.close()
        self.advisor.close()
