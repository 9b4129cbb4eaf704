"""Game sessions: one live game in memory, what each seat may see (its view and its events),
undo and its limits (read from the events each action caused).

Over 500 lines: one class, Session, whose event streams, views after each ply, undo and clocks
share the same per-game state; message building is in messages.py.

A ``Session`` is rebuilt from its stored row by replaying the applied actions (the engine is
deterministic), so the database is the only truth and memory is a cache of it. Everything here
is synchronous and runs on the server's event loop thread: a check, the engine's ``apply`` and
the database write happen with no ``await`` between them, so two requests on one game can never
interleave half-way.
"""

from __future__ import annotations

import hmac
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rebelspace.engine import (
    SIDE_NAMES,
    CardDB,
    GameState,
    IllegalActionError,
    InvalidActionError,
    RulesOptions,
    default_cards,
    event_json,
    new_game,
    reveals,  # what an action showed each player: the undo limits (engine/events.py)
)
from rebelspace.engine.cache import per_object
from rebelspace.engine.cards import cards_from_data
from rebelspace.engine.events import sees
from rebelspace.engine.views import PlayerView

from .store import StaleVersionError, Store, StoredGame, hash_token

SEATS = SIDE_NAMES  # a seat is named after its side (engine.SIDE_NAMES)
# What a client holds of a seat's event stream: (events held, the version they are from). A
# state message carries only the events after those (``Session.events_start``).
Since = tuple[int, int]
MODES = ("computer", "hotseat", "online")
REASONS = ("rules", "resign", "time", "abandoned")  # how a game ended (the state's ``result``)
MAX_ACTION_TEXT = 200  # characters: the longest real action text is under 80
CLAIM_AFTER = 60.0  # seconds an online opponent must be gone before the win may be claimed
# Plies whose views after them are kept for the state message's ``steps`` (playback): a client
# plays back at most 12 steps, so more would only grow the message.
STEP_PLIES = 16


class ServerError(Exception):
    """A refused request: HTTP status, protocol error code and a message in plain words."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        version: int | None = None,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.version = version  # ``stale``: the game's current version
        self.retry_after = retry_after  # ``rate_limited``: seconds until a retry can succeed

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"error": self.code, "message": self.message}
        if self.version is not None:
            data["version"] = self.version
        if self.retry_after is not None:
            data["retry_after"] = self.retry_after
        return data


def whole(value: object) -> object:
    """A float with no fraction (``4851.0``) as the int it is: JSON has one number type, and
    JSON Schema's "integer" takes such numbers, so a request may send them; anything else as
    it is (to be refused by the caller's type check)."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def stale(version: int) -> ServerError:
    return ServerError(
        409,
        "stale",
        f"the game has changed (it is at version {version}): choose again from the latest state",
        version=version,
    )


def not_found(game_id: str) -> ServerError:
    return ServerError(404, "not_found", f"there is no game {game_id!r}")


# --- card data ----------------------------------------------------------------------------------

_CARDS: dict[str, CardDB] = {}


def _card_json(db: CardDB) -> str:
    """The card data as stored with each game."""
    return json.dumps(db.to_data(), sort_keys=True)


cards_text = per_object(_card_json)  # once per card list: every new game stores it


def cards_from_text(text: str) -> CardDB:
    """The CardDB of stored card data; the packaged lists when equal to them, so that games
    share one engine context instead of building one per game."""
    db = _CARDS.get(text)
    if db is None:
        default = default_cards()
        db = (
            default
            if text == cards_text(default)
            else cards_from_data(json.loads(text), stored=True)
        )
        _CARDS[text] = db
    return db


# --- sessions -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UndoRequest:
    seat: int  # who asked
    keep: int  # plies kept if accepted


class Session:
    """One game in memory: its stored row, the rebuilt state and per-ply bookkeeping."""

    def __init__(
        self,
        stored: StoredGame,
        now: Callable[[], float] = time.monotonic,
        claim_after: float = CLAIM_AFTER,
    ) -> None:
        """``now``: the server's time source (seconds). At loading, a running clock resumes
        from its stored time left (time while the server was down is not charged), and an
        absent seat counts as gone since then. ``claim_after``: seconds a seat must have been
        gone before the other may claim the win (online games without a clock)."""
        self.now = now
        self.claim_after = claim_after
        row = self.row = stored.row
        self.token_hashes: list[str | None] = list(row.token_hashes)
        self.cards = cards_from_text(row.cards)
        self.options = RulesOptions.from_dict(row.rules)
        self.connections: set[Any] = set()  # app.Connection objects
        self.undo = None if stored.undo is None else UndoRequest(*stored.undo)
        self.computer_running = False
        self.used = 0.0  # time.monotonic() of the last request (the cache drops idle games)
        # The stored version: the game's changes (actions and undos) so far, never going down.
        # A client's action names the version it was chosen at; any other is refused, and a
        # computer move computed at an older version is dropped.
        self.version = stored.version
        self.loaded_version = stored.version  # versions before it: no stream history here
        # Each undo (take_back) since loading: (its version, each stream's length right after
        # it, by seat and None for spectators). Events up to those lengths are unchanged by the
        # undo (the kept plies replay the same); a client holding more must drop the rest.
        self.cuts: list[tuple[int, dict[int | None, int]]] = []
        self.state = new_game(row.seed, options=self.options, cards=self.cards)
        self.seats: list[int] = []  # who decided each ply
        self.revealed: list[tuple[bool, bool]] = []  # per ply: reveals() of that action
        # Each seat's visible events as JSON (events_json), converted once, and the state they
        # belong to: a state's events are only appended to; an undo makes a new state.
        self._events_state: GameState | None = None
        self._events: dict[int | None, list[dict[str, Any]]] = {}
        # Each seat's stream length (seats 0, 1, then None) after the start and after each ply.
        self.stream_ends: list[tuple[int, int, int]] = [self._stream_lengths(self.state.events)]
        # The views (seats 0, 1, then None) after each of the newest STEP_PLIES plies
        # (``steps``, the table's playback), also for the plies replayed when loading: a
        # process that loads the game (a restart, another process) sends the same messages
        # as one that applied them, and a client that missed them still sees them played.
        self.views_after: dict[int, tuple[PlayerView, PlayerView, PlayerView]] = {}
        self._views_from = len(stored.actions) - STEP_PLIES
        for action, seat in stored.actions:
            self._apply(action, seat)
        # How the game ended when not by its rules (the engine knows those): (winner, reason).
        self.ended: tuple[int | None, str] | None = None
        if stored.reason is not None:
            self.ended = (row.winner, stored.reason)
        self.clock_ms: list[int] | None = None if stored.clock_ms is None else [*stored.clock_ms]
        loaded = now()
        self.clock_since = loaded  # when the running clock last had clock_ms[running] left
        self.rematch_seat, self.rematch_id = stored.rematch
        self.gone_since = [loaded, loaded]  # per seat: since when it has had no connection
        # Several processes (PostgreSQL): per seat, whether it is connected to another process
        # and when it was last seen there (this time source's time); None: not known there.
        self.elsewhere: list[tuple[bool, float] | None] = [None, None]
        self.on_seen: Callable[[int], None] | None = None  # the registry's: a seat's request
        self.timer: Any = None  # clocks.py's asyncio task for flag fall and claim pushes
        self.timer_checked = loaded  # deadlines up to this time have been acted on

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def mode(self) -> str:
        return self.row.mode

    @property
    def plies(self) -> int:
        """Actions applied so far."""
        return len(self.seats)

    @property
    def computer_seat(self) -> int | None:
        return self.row.computer_seat

    def _apply(self, action: int | str, seat: int) -> int:
        # Raises IllegalActionError (or InvalidActionError), the state unchanged. The game
        # records its events (new_game's default), so ``events`` are all the action caused.
        events = self.state.apply(action, player=seat)
        assert self.state.history is not None and self.state.events is not None
        self.seats.append(seat)
        self.revealed.append(reveals(events))
        added, last = self._stream_lengths(events), self.stream_ends[-1]
        self.stream_ends.append((last[0] + added[0], last[1] + added[1], last[2] + added[2]))
        if self.plies > self._views_from:
            s = self.state
            self.views_after[self.plies] = (s.view(0), s.view(1), s.public_view())
            self.views_after.pop(self.plies - STEP_PLIES, None)
        return self.state.history[-1]

    @staticmethod
    def _stream_lengths(events: Any) -> tuple[int, int, int]:
        """How many of ``events`` each stream (seats 0, 1, then a spectator's) holds (R5)."""
        items = list(events or ())
        rebel, imperial, public = (sum(1 for e in items if sees(p, e)) for p in (0, 1, None))
        return rebel, imperial, public

    @property
    def over(self) -> bool:
        return self.ended is not None or self.state.is_over

    def result(self) -> tuple[int | None, str] | None:
        """(winner, reason) once the game is over, else None."""
        if self.ended is not None:
            return self.ended
        outcome = self.state.outcome
        return None if outcome is None else (outcome.winner, "rules")

    def result_json(self) -> dict[str, Any] | None:
        result = self.result()
        if result is None:
            return None
        winner, reason = result
        return {"winner": None if winner is None else SEATS[winner], "reason": reason}

    def rebuild(self, actions: list[tuple[int, int]]) -> None:
        """Replay from the start (undo, or a failed write): connections and tokens are kept."""
        fresh = Session(StoredGame(self.row, actions, self.version, None))
        self.state, self.seats, self.revealed = fresh.state, fresh.seats, fresh.revealed
        self.stream_ends, self.views_after = fresh.stream_ends, fresh.views_after
        self._views_from = fresh._views_from
        self.undo = None

    def stamp(self) -> tuple[int, bool, bool]:
        """As ``Store.game_stamp``: equal to the database's while this copy is current."""
        return self.version, self.token_hashes[0] is not None, self.token_hashes[1] is not None

    def refresh(self, stored: StoredGame) -> bool:
        """Catch up with the database, where another server process changed the game; False
        if nothing changed. The state is not rebuilt from the start: the plies both share are
        kept and the new ones applied, so each client's events stay valid (``events_start``);
        plies taken back (an undo there) count as a cut, as a local undo's."""
        if stored.version == self.version and tuple(self.token_hashes) == stored.row.token_hashes:
            return False
        mine, theirs = self.actions(), stored.actions
        kept = 0
        while kept < min(len(mine), len(theirs)) and mine[kept] == theirs[kept]:
            kept += 1
        if kept < len(mine):
            self.rebuild(mine[:kept])
            cut = {p: len(self.events_json(p)) for p in (0, 1, None)}
            self.cuts.append((stored.version, cut))
        for action, seat in theirs[kept:]:
            self._apply(action, seat)
        now = self.now()
        for seat, digest in enumerate(stored.row.token_hashes):
            if self.token_hashes[seat] is None and digest is not None:
                self.gone_since[seat] = now  # taken there, not connected here: as join()
        if self.clock_ms is not None and list(stored.clock_ms or ()) != self.clock_ms:
            # The time left at the other process's write; charged from now on here, so this
            # process's clock lags the writer's by the time the news took (milliseconds).
            self.clock_ms, self.clock_since = [*(stored.clock_ms or (0, 0))], now
        elif None in self.token_hashes and None not in stored.row.token_hashes:
            self.clock_since = now  # both seats taken: the first decision's clock starts
        self.row = stored.row
        self.token_hashes = list(stored.row.token_hashes)
        self.version = stored.version
        self.undo = None if stored.undo is None else UndoRequest(*stored.undo)
        self.ended = None if stored.reason is None else (stored.row.winner, stored.reason)
        self.rematch_seat, self.rematch_id = stored.rematch
        return True

    def settled_at(self, version: object) -> bool:
        """Whether an action naming ``version`` may be checked against this copy without
        asking the database first: this copy is at that version and no seat is left to take
        (a seat taken elsewhere does not bump the version). If the database has moved on
        meanwhile, the write's version check refuses it (stale) as the query would have."""
        if whole(version) != self.version:
            return False
        return self.computer_seat is not None or None not in self.token_hashes

    def follow(self, action: int, seat: int) -> bool:
        """Another process's action at this copy's version (its notification), applied as
        ``refresh`` applies new plies; False (nothing changed) where ``refresh`` must read the
        game instead: a clock (its times are the writer's), an end not by the rules, an open
        seat, or an action this state refuses."""
        if self.clock_ms is not None or self.ended is not None or self.over:
            return False
        if self.computer_seat is None and None in self.token_hashes:
            return False
        try:
            self._apply(action, seat)
        except (IllegalActionError, InvalidActionError):
            return False
        self.version += 1
        self.undo = None  # every action clears a pending undo request (store.add_action)
        return True

    def actions(self) -> list[tuple[int, int]]:
        assert self.state.history is not None
        return list(zip(self.state.history, self.seats, strict=True))

    # --- seats and tokens

    def seat_of(self, token: str) -> int | None:
        """The seat this token opens, or None. Compared in constant time."""
        digest = hash_token(token)
        for seat, stored in enumerate(self.token_hashes):
            if stored is not None and hmac.compare_digest(stored, digest):
                return seat
        return None

    def authorize(self, token: str | None) -> int | None:
        """The seat of a token; None (a spectator) without one. A token that opens no seat is
        refused rather than treated as a spectator, so a typo is noticed."""
        if token is None:
            return None
        seat = self.seat_of(token)
        if seat is None:
            raise ServerError(403, "forbidden", "this token does not open a seat of this game")
        # Presence: any request with the seat's token shows the player is here, so one who
        # plays by REST (no WebSocket) is never claimable while acting; the claim's wait
        # counts from the seat's last request or connection.
        self.gone_since[seat] = max(self.gone_since[seat], self.now())
        if self.on_seen is not None:
            self.on_seen(seat)  # other processes count it too
        return seat

    def require_seat(self, token: str | None) -> int:
        if token is None:
            raise ServerError(
                403, "forbidden", "this needs a seat's token (header Authorization: Bearer ...)"
            )
        seat = self.authorize(token)
        assert seat is not None
        return seat

    def connected(self, seat: int) -> bool:
        """Whether the seat is here: the computer's, or connected to this or another process."""
        if seat == self.computer_seat:
            return True
        there = self.elsewhere[seat]
        return self.connected_here(seat) or (there is not None and there[0])

    def connected_here(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.connections)

    def gone_at(self, seat: int) -> float:
        """Since when the seat has been neither connected nor making requests, anywhere."""
        there = self.elsewhere[seat]
        return self.gone_since[seat] if there is None else max(self.gone_since[seat], there[1])

    # --- actions

    def check_version(self, version: object) -> None:
        """Refuse (409 ``stale``) a request chosen at another version than the game's."""
        version = whole(version)
        if type(version) is not int:
            raise ServerError(400, "bad_request", '"version" must be the state\'s version')
        if version != self.version:
            raise stale(self.version)

    def check_turn(self, seat: int) -> None:
        """Refuse (409 ``not_your_turn``) a seat whose decision it is not."""
        to_move = self.state.to_move
        if seat != to_move:
            raise ServerError(
                409, "not_your_turn", f"it is {SEATS[to_move]}'s decision, not {SEATS[seat]}'s"
            )

    def act(self, seat: int, action: object, version: object, store: Store) -> int:
        """Apply a seat's action, chosen at ``version``, and store it before returning;
        refusals change nothing. A repeated or stale action is refused, so each applies once."""
        if seat == self.computer_seat:
            raise ServerError(403, "forbidden", "the computer plays this seat")
        self.check_version(version)
        if self.over:
            raise ServerError(409, "conflict", "the game is over")
        if any(h is None for h in self.token_hashes) and self.computer_seat is None:
            raise ServerError(409, "conflict", "the other seat is still open: wait for a player")
        self.check_turn(seat)
        action_id = self.parse(action)
        return self.commit(action_id, seat, store)

    def parse(self, action: object) -> int:
        space = self.state.action_space
        action = whole(action)
        if type(action) is int:
            if not 0 <= action < space.size:
                raise ServerError(
                    422,
                    "invalid_action",
                    f"there is no action with id {action} (0..{space.size - 1})",
                )
            return action
        if isinstance(action, str):
            if len(action) > MAX_ACTION_TEXT:
                raise ServerError(
                    400, "bad_request", f"an action text is at most {MAX_ACTION_TEXT} characters"
                )
            try:
                return space.parse(action)
            except InvalidActionError as e:
                raise ServerError(422, "invalid_action", str(e)) from None
        raise ServerError(
            400,
            "bad_request",
            f"'action' must be an action id or text, got {type(action).__name__}",
        )

    def commit(self, action_id: int, seat: int, store: Store) -> int:
        """Apply, then write (checking the version in the same transaction); if the write fails
        the game is rebuilt from the database."""
        now = self.now()
        clocks = self.clocks_at(now)  # before the action: the deciding seat's clock runs
        try:
            applied = self._apply(action_id, seat)
        except IllegalActionError as e:
            raise ServerError(422, "illegal_action", str(e)) from None
        except InvalidActionError as e:
            raise ServerError(422, "invalid_action", str(e)) from None
        self.undo = None
        outcome = self.state.outcome
        if clocks is not None:
            assert self.row.clock is not None
            clocks[seat] += self.row.clock[1] * 1000  # the increment, after each decision
        try:
            store.add_action(
                self.id,
                self.version,
                self.plies - 1,
                applied,
                seat,
                None if outcome is None else outcome.winner,
                clock_ms=None if clocks is None else (clocks[0], clocks[1]),
            )
        except StaleVersionError as e:
            # Only a second writer on the database gets here (the checks above run first).
            self.rebuild(self.actions()[:-1])
            raise stale(e.version) from None
        except Exception:
            self.rebuild(self.actions()[:-1])
            raise
        self.version += 1
        self._set_clocks(clocks, now)
        return applied

    # --- the end of a game otherwise than by the rules, and clocks

    def end(self, winner: int | None, reason: str, store: Store) -> None:
        """End the unfinished game (resign, time, abandoned): stored, then here."""
        assert reason in REASONS and not self.over
        now = self.now()
        clocks = self.clocks_at(now)
        try:
            store.end_game(
                self.id,
                self.version,
                winner,
                reason,
                None if clocks is None else (clocks[0], clocks[1]),
            )
        except StaleVersionError as e:
            raise stale(e.version) from None
        self.version += 1
        self.ended = (winner, reason)
        self.undo = None
        self._set_clocks(clocks, now)

    def clock_running(self) -> int | None:
        """The seat whose clock runs: the one to decide, once both seats are taken."""
        if self.clock_ms is None or self.over or None in self.token_hashes:
            return None
        return self.state.to_move

    def clocks_at(self, now: float) -> list[int] | None:
        """Each side's time left (ms) at ``now``; None without a clock."""
        if self.clock_ms is None:
            return None
        clocks = list(self.clock_ms)
        running = self.clock_running()
        if running is not None:
            spent = round((now - self.clock_since) * 1000)
            clocks[running] = max(0, clocks[running] - spent)
        return clocks

    def _set_clocks(self, clocks: list[int] | None, now: float) -> None:
        if clocks is not None:
            self.clock_ms, self.clock_since = clocks, now

    def restart_clock(self) -> None:
        """The running clock starts now (the second seat was just taken)."""
        self.clock_since = self.now()

    def flag_fallen(self) -> int | None:
        """The seat whose clock has run out (the game goes on until clocks.py ends it)."""
        running = self.clock_running()
        clocks = self.clocks_at(self.now())
        if running is None or clocks is None or clocks[running] > 0:
            return None
        return running

    def claim_in_ms(self, seat: int) -> int | None:
        """Milliseconds until ``seat`` may claim the win against its absent opponent (0: now),
        or None when no claim is coming (another mode, a clock, the opponent is here...)."""
        other = 1 - seat
        if self.mode != "online" or self.clock_ms is not None or self.over:
            return None
        if self.token_hashes[other] is None or self.connected(other):
            return None
        wait = self.claim_after - (self.now() - self.gone_at(other))
        return max(0, math.ceil(wait * 1000))

    # --- undo

    def undo_target(self, seat: int) -> tuple[int | None, str]:
        """(plies to keep, "") if ``seat`` may take back its last decision, else (None, why)."""
        if seat == self.computer_seat:
            return None, "the computer's seat does not undo"
        if self.over:
            return None, "the game is over"
        last = next((i for i in range(self.plies - 1, -1, -1) if self.seats[i] == seat), None)
        if last is None:
            return None, "you have made no decision yet"
        # Against the computer only what the person saw matters (the computer forgets); in a
        # two-person game neither player may be made to unsee a card.
        who = (seat,) if self.computer_seat is not None else (0, 1)
        assert self.state.history is not None
        space = self.state.action_space
        for i in range(last, self.plies):
            for p in who:
                if self.revealed[i][p]:
                    text = space.text(self.state.history[i])
                    whom = "you" if p == seat else f"the {SEATS[p]} player"
                    return None, (
                        f"undo would take back {SEATS[self.seats[i]]}'s {text!r}, "
                        f"which showed {whom} a hidden card"
                    )
        return last, ""

    def take_back(self, keep: int, store: Store) -> None:
        now = self.now()
        clocks = self.clocks_at(now)  # the time spent so far stays spent
        try:
            store.truncate(
                self.id, self.version, keep, None if clocks is None else (clocks[0], clocks[1])
            )
        except StaleVersionError as e:
            raise stale(e.version) from None
        self.version += 1
        self.rebuild(self.actions()[:keep])
        self.cuts.append((self.version, {p: len(self.events_json(p)) for p in (0, 1, None)}))
        self._set_clocks(clocks, now)

    def ask_undo(self, request: UndoRequest | None, store: Store) -> None:
        """Store a pending undo request (None: clear it), then keep it here. It changes the
        state message (``undo.pending_from``), so it is a change of the game: a new version."""
        try:
            store.set_undo(
                self.id, self.version, None if request is None else (request.seat, request.keep)
            )
        except StaleVersionError as e:
            raise stale(e.version) from None
        self.version += 1
        self.undo = request

    # --- the seat's event stream (the state messages: messages.py)

    def events_start(self, seat: int | None, since: Since | None) -> int:
        """The first event a message must carry to a client that holds ``since`` of the
        seat's stream: the events it holds that are still the game's are not sent again.
        0 (the whole stream) when nothing is known: no ``since``, a version from before this
        session was loaded or not yet reached, or more events than there are."""
        if since is None:
            return 0
        held, version = since
        if not self.loaded_version <= version <= self.version:
            return 0
        start = held
        for at, lengths in self.cuts:  # undos after the client's version cut its stream
            if at > version:
                start = min(start, lengths[seat])
        return start if start <= len(self.events_json(seat)) else 0

    def events_json(self, seat: int | None) -> list[dict[str, Any]]:
        """The events the seat may see (R5; None: a spectator, the public ones), in order, as
        the protocol sends them: ``event_json`` and ``seq``, the event's index in this stream."""
        state = self.state
        if self._events_state is not state:
            self._events_state, self._events = state, {}
        out = self._events.setdefault(seat, [])
        visible = state.visible_events(seat)
        if len(out) > len(visible):  # not after appends only: convert again
            del out[:]
        if len(out) < len(visible):
            names = state.ctx.tables.names  # card names by type index, as events name cards
            for seq in range(len(out), len(visible)):
                out.append({**event_json(visible[seq], names), "seq": seq})
        return out


def invite_path(game_id: str, code: str) -> str:
    return f"/join/{game_id}/{code}"
