"""The WebSocket hub of a game server: each game's connections and the state messages pushed
to them.

Owns ``Connection`` (one socket: its seat, what its client holds, its queue of outgoing
texts), a connection's arrival and departure (``Hub``: who is connected is part of the state,
so the other seat is told) and the pushes. Every role pushes (a move, an undo, a flag fall,
another process's change), and a push needs nothing but the session: ``broadcast``,
``send_to`` and ``answer`` are functions of it, which the other roles call without going
through the server.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .games import Session, Since
from .messages import Message, Pushed, build_state, state_text

if TYPE_CHECKING:
    from .manager import GameServer

log = logging.getLogger("rebelspace.server")

OUTBOX_LIMIT = 256  # messages queued for one slow client before it is dropped


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


def push(session: Session, conn: Connection, texts: Pushed) -> None:
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


def send_to(session: Session, seat: int | None, data: dict[str, Any]) -> None:
    text = json.dumps(data)
    for conn in list(session.connections):
        if conn.seat == seat:
            conn.send(text)


def broadcast(session: Session, skip: Connection | None = None) -> Pushed:
    """A fresh state to every connection, each with its own seat's view and the events it
    has not had (built once per seat, first event and message held, not per
    connection). Returns the messages built (``Pushed``)."""
    texts: Pushed = {}
    for conn in list(session.connections):
        if conn is not skip:
            push(session, conn, texts)
    return texts


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


class Hub:
    """Connections opening, taking a seat and closing: the other seat is told when a seat's
    first connection opens or its last closes, and (several processes) the other processes
    too (``Presence``)."""

    def __init__(self, server: GameServer) -> None:
        self.server = server

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

    def _join(self, session: Session, conn: Connection) -> None:
        seat = conn.seat
        was = seat is not None and session.connected(seat)
        here = seat is not None and session.connected_here(seat)
        session.connections.add(conn)
        if seat is not None and not here and self.server.store.shared:
            self.server.presence.presence_here(session, seat)
        push(session, conn, {})
        if seat is not None and not was:
            send_to(session, 1 - seat, {"type": "opponent", "connected": True})
            broadcast(session, skip=conn)

    def disconnect(self, session: Session, conn: Connection) -> None:
        session.connections.discard(conn)
        seat = conn.seat
        if seat is not None and self.server.store.shared and not session.connected_here(seat):
            try:
                self.server.presence.presence_here(session, seat)
            except Exception as e:  # the heartbeat stops counting it here anyway
                log.warning("presence of game %s not written: %s", session.id, type(e).__name__)
        if seat is not None and not session.connected(seat):
            session.gone_since[seat] = self.server.now()
            self.server.clocks.arm_timer(session)  # the other seat's claim becomes available later
            send_to(session, 1 - seat, {"type": "opponent", "connected": False})
            broadcast(session)
