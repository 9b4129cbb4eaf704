"""Playing whole games over the test client's WebSockets, keeping every message received."""

from __future__ import annotations

import contextlib
import json
import queue
import random
import threading
from typing import Any

from fastapi.testclient import TestClient

from tests.server.server_helpers import HeldView

Messages = dict[str, list[dict[str, Any]]]


def receive_until(ws: Any, kind: str, held: HeldView | None = None) -> dict[str, Any]:
    """The next message of type ``kind`` on a test client's WebSocket (others are skipped);
    with ``held``, the connection's view, each state message with its whole view."""
    for _ in range(50):
        msg: dict[str, Any] = ws.receive_json()
        if held is not None:
            msg = held.whole(msg)
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message")


def _reader(name: str, ws: Any, out: queue.Queue[tuple[str, dict[str, Any] | None]]) -> None:
    try:
        while True:
            out.put((name, ws.receive_json()))
    except Exception:  # WebSocketDisconnect, or the test client closing underneath
        out.put((name, None))


def play_over_websockets(
    client: TestClient,
    game_id: str,
    seats: dict[str, str],
    *,
    seed: int = 0,
    spectators: int = 1,
    max_actions: int = 5000,
) -> Messages:
    """Connect each seat (name -> token) and ``spectators`` spectators; each seat plays random
    legal actions whenever a pushed state says it is its decision, until every connection has
    seen the game end. Returns every message each connection received, in order."""
    rng = random.Random(seed)
    inbox: queue.Queue[tuple[str, dict[str, Any] | None]] = queue.Queue()
    # Seats authenticate with their first message (the old ?token= form: see test_server_ws).
    names = {**seats, **{f"spectator{i}": "" for i in range(spectators)}}
    received: Messages = {name: [] for name in names}
    with contextlib.ExitStack() as stack:
        sockets = {
            name: stack.enter_context(client.websocket_connect(f"/api/games/{game_id}/ws"))
            for name in names
        }
        for name, ws in sockets.items():
            if names[name]:
                ws.send_text(json.dumps({"type": "auth", "token": names[name]}))
            threading.Thread(target=_reader, args=(name, ws, inbox), daemon=True).start()
        acted = dict.fromkeys(seats, -1)
        finished: set[str] = set()
        actions = 0
        while len(finished) < len(sockets):
            name, msg = inbox.get(timeout=20)
            assert msg is not None, f"{name}'s connection closed before the game ended"
            received[name].append(msg)
            assert msg["type"] != "error", msg
            if msg["type"] != "state":
                continue
            if msg["over"]:
                finished.add(name)
                continue
            if name in seats and msg["legal"] and msg["version"] > acted[name]:
                assert actions < max_actions, "the game did not end"
                acted[name] = msg["version"]
                action = rng.choice(msg["legal"])
                # Half by id, half by text: both forms are the protocol's.
                form = action["id"] if rng.random() < 0.5 else action["text"]
                message = {"type": "action", "action": form, "version": msg["version"]}
                sockets[name].send_text(json.dumps(message))
                actions += 1
    return received
