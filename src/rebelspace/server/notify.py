"""Changes made by the other server processes on one PostgreSQL database: LISTEN/NOTIFY.

Each write that changes a game sends ``NOTIFY rebelspace, '<game id> <version>'`` in its
transaction (``pgstore.py``); this listener, one asyncio task per process on a connection of
its own, hands each payload to the game server, which refreshes its copy of that game (if it
has one) and pushes the new state to its WebSocket clients.

LISTEN/NOTIFY rather than Redis pub/sub: the database the processes share already delivers
the news, at the commit of the very transaction that made the change (never for a rolled-back
one), so there is no second service to run, secure and keep alive, and no window where the
database and the bus disagree about what happened. psycopg 3's ``AsyncConnection.notifies()``
waits for them on the event loop without a thread.

A notification is only news that something changed: a process that misses some (its
listening connection broke) refreshes every game it holds once it listens again, and every
request checks its game's version against the database anyway (``Registry.get``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from .pgstore import CHANNEL, redact

log = logging.getLogger("rebelspace.server")

RETRY_SECONDS = 1.0  # after the listening connection breaks, before connecting again


async def listen(
    url: str,
    on_change: Callable[[str], None],
    on_resume: Callable[[], None],
    ready: asyncio.Event | None = None,
) -> None:
    """Forever (until cancelled): hand each notification's payload to ``on_change``; after a
    broken connection, reconnect and call ``on_resume`` (what was missed meanwhile). ``ready``
    is set once the first LISTEN is in place."""
    import psycopg

    first = True
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
                await conn.execute(f"LISTEN {CHANNEL}")
                if ready is not None:
                    ready.set()
                if not first:
                    on_resume()
                first = False
                async for note in conn.notifies():
                    try:
                        on_change(note.payload)
                    except Exception:  # one game's refresh failing must not stop the others'
                        log.exception("a change of game %s failed to apply", note.payload[:80])
        except asyncio.CancelledError:
            raise
        except Exception as e:  # the database restarted, the network broke: listen again
            log.warning("listening to %s failed (%s); retrying", redact(url), type(e).__name__)
            first = False
        await asyncio.sleep(RETRY_SECONDS)
