"""``rebelspace replay RECORD --open``: a record's game in the browser's replay viewer.

A local server on a free loopback port holds only the record's game, in a temporary database
that is deleted when it stops; since nothing else is there to keep secret, it also replays an
unfinished game's record. It prints the page's URL, opens it with Python's ``webbrowser`` and
serves until Ctrl-C.
"""

from __future__ import annotations

import os
import socket
import sys
import tempfile
import threading
import time
import webbrowser
from typing import Any

from rebelspace.extras import require

from .store import Store

STARTUP_SECONDS = 30.0


def serve_replay(record: dict[str, Any], *, host: str = "127.0.0.1") -> int:
    """Serve the record's replay until interrupted; the exit status."""
    require("server", "rebelspace replay --open")
    import uvicorn

    from .app import create_app
    from .replays import import_record

    with tempfile.TemporaryDirectory(prefix="rebelspace-replay-") as folder:
        db = os.path.join(folder, "replay.sqlite3")
        store = Store(db)
        try:
            game_id = import_record(store, record)
        finally:
            store.close()
        app = create_app(db, replay_unfinished=True)
        # The socket is bound here, so the port printed is the one served (no race for it).
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind((host, 0))
        port = sock.getsockname()[1]
        url = f"http://{host}:{port}/replay/{game_id}"
        server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
        print(f"Replay at {url} (Ctrl-C to stop)", flush=True)
        threading.Thread(target=_open_when_up, args=(server, url), daemon=True).start()
        try:
            server.run(sockets=[sock])
        finally:
            sock.close()
    return 0


def _open_when_up(server: Any, url: str) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while not server.started:
        if time.monotonic() > deadline or server.should_exit:
            return
        time.sleep(0.05)
    if not webbrowser.open(url):
        print(f"Could not open a browser: open {url} yourself.", file=sys.stderr, flush=True)
