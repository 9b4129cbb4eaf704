"""The registry of a game server: which games exist, and the copy of each held in memory.

Owns creating and joining games, the cache of sessions (loaded from the store on first use,
so after a restart every game resumes when anyone asks for it; the least recently used idle
ones dropped), keeping each copy current with the database (another process's change, read
or followed from its notification), the list of a player's games and the sweep of abandoned
ones. Everything else starts from a game found here; what a change sets going (its timer,
the computer's turn, the pushes) is the other roles'.
"""

from __future__ import annotations

import logging
import re
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from . import hub
from .games import MODES, SEATS, ServerError, Session, cards_text, invite_path, not_found
from .store import MyGame, hash_token

if TYPE_CHECKING:
    from .manager import GameServer

log = logging.getLogger("rebelspace.server")

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
IDLE_DAYS = 30.0  # an unfinished game with no activity this long is deleted by the sweep
CLOCK_INITIAL = (10, 7200)  # seconds: the range a clock's initial time may take
CLOCK_INCREMENT = (0, 120)
MAX_MINE = 100  # tokens in one POST /api/games/mine


@dataclass(frozen=True, slots=True)
class NewGame:
    mode: str
    side: str = "rebel"
    opponent: str = "ismcts"
    level: str = "normal"
    seed: int | None = None
    clock: tuple[int, int] | None = None  # online games: (initial, increment) in seconds


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


class Registry:
    """The games: created, joined, found (loaded on first use, kept current) and swept."""

    def __init__(self, server: GameServer) -> None:
        self.server = server

    def get(self, game_id: str, writing_at: object = None) -> Session:
        """The game, current. ``writing_at``: the version an action names (the write then
        checks it in the database)."""
        server = self.server
        session = server.sessions.get(game_id)
        if session is not None:
            session.used = time.monotonic()
            if server.store.shared and not session.settled_at(writing_at):
                # Another process may have changed it since: one short query, so that every
                # request sees the latest state, whatever the notifications' delay.
                self.catch_up(session)
                if server.sessions.get(game_id) is not session:
                    raise not_found(game_id)
            return session
        if not GAME_ID.fullmatch(game_id):
            raise not_found(game_id[:80])
        loaded = server.store.load_game(game_id)
        if loaded is None:
            raise not_found(game_id)
        if len(server.sessions) >= server.cache_size:
            self._evict()
        session = Session(loaded, server.now, server.claim_after)
        session.used = time.monotonic()
        server.sessions[game_id] = session
        if server.store.shared:  # other processes' clients count for claims and "connected"
            session.on_seen = lambda seat: server.presence.seen(session, seat)
            server.presence.load_presence([session])
        server.turns.start_computer(session)  # resumes a computer turn cut off by a restart
        server.clocks.arm_timer(session)  # a clock resumes (time while down not charged)
        return session

    def catch_up(self, session: Session) -> bool:
        """``refresh`` if the database's copy differs (its stamp: one short query)."""
        stamp = self.server.store.game_stamp(session.id)
        if stamp is None:
            self.drop(session)
            return False
        return stamp != session.stamp() and self.refresh(session)

    def refresh(self, session: Session) -> bool:
        """Bring the cached game up to date with the database (another process changed it)
        and push the change to this process's clients; False if it had not changed."""
        stored = self.server.store.load_game(session.id, cards=session.row.cards)
        if stored is None:
            self.drop(session)
            return False
        if not session.refresh(stored):
            return False
        self._changed(session)
        return True

    def _changed(self, session: Session) -> None:
        """Another process's change, now in this copy: its timer, its pushes, the computer."""
        self.server.clocks.arm_timer(session)
        hub.broadcast(session)
        self.server.turns.start_computer(session)

    def on_change(self, payload: str) -> None:
        """A notification from the database: ``"<game id> <version>[ seat]"`` (pgstore.py).
        Games not held here are none of this process's business; a version already held
        here is this process's own write coming back."""
        game_id, _, rest = payload.partition(" ")
        session = self.server.sessions.get(game_id)
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
            self.server.presence.load_presence([session])
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
        self._changed(session)
        return True

    def resume(self) -> None:
        """After notifications may have been missed (the listening connection broke): check
        every game held here against the database."""
        for session in list(self.server.sessions.values()):
            try:
                self.get(session.id)
            except ServerError:
                continue  # deleted meanwhile

    def drop(self, session: Session) -> None:
        """The game is gone from the database (swept by another process): forget it here."""
        if self.server.sessions.get(session.id) is session:
            del self.server.sessions[session.id]
        if session.timer is not None:
            session.timer.cancel()
        for conn in list(session.connections):
            conn.close()

    def load_clocked_games(self) -> None:
        """At start: every game whose clock runs, so its flag falls even if nobody asks."""
        for game_id in self.server.store.clocked_games():
            self.get(game_id)

    def _evict(self) -> None:
        """Drop the least recently used half of the idle games from memory (no connection, no
        computer thinking, no clock running: dropping it would lose the time spent since its
        last change). The database holds them; the next request loads them again."""
        sessions = self.server.sessions
        idle = [
            s
            for s in sessions.values()
            if not s.connections and not s.computer_running and s.clock_running() is None
        ]
        idle.sort(key=lambda s: s.used)
        for s in idle[: max(1, len(idle) // 2)]:
            del sessions[s.id]

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
        self.server.store.create_game(
            game_id=game_id,
            mode=spec.mode,
            seed=seed,
            rules=self.server.options.to_dict(),
            cards=cards_text(self.server.cards),
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
        if session.token_hashes[seat] is not None or not self.server.store.take_seat(
            game_id, seat, digest
        ):
            raise ServerError(409, "conflict", "the seat has been taken")
        session.token_hashes[seat] = digest
        session.gone_since[seat] = self.server.now()  # not connected yet: a claim counts from here
        session.restart_clock()  # both seats taken: the first decision's clock starts now
        self.server.clocks.arm_timer(session)
        hub.broadcast(session)
        return seat, token

    def mine(self, tokens: list[str]) -> list[dict[str, Any]]:
        """The games these tokens hold a seat of, newest activity first."""
        if len(tokens) > MAX_MINE:
            raise ServerError(400, "bad_request", f"at most {MAX_MINE} tokens at once")
        out = []
        for game in self.server.store.games_of([hash_token(t) for t in tokens]):
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

    def sweep(self) -> int:
        """Delete the unfinished games idle for ``idle_days`` (not those open here now);
        returns how many."""
        server = self.server
        busy = {s.id for s in server.sessions.values() if s.connections or s.computer_running}
        gone = server.store.sweep(time.time() - server.idle_days * 86400, keep=busy)
        for game_id in gone:
            server.sessions.pop(game_id, None)
        if gone:
            log.info("removed %d unfinished games idle for %g days", len(gone), server.idle_days)
        return len(gone)
