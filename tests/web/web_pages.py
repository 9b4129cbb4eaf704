"""Helpers of the browser tests of issue 13's pages (online endings, replays, the gallery):
opening a page in its own browser context, calling the REST API, games made over REST."""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.request
from typing import Any

from tests.server.server_process import ServerProcess


def open_page(
    browser: Any,
    url: str,
    errors: list[str],
    storage: dict[str, Any] | None = None,
    *,
    viewport: tuple[int, int] = (1280, 800),
    init_script: str | None = None,
) -> Any:
    """A page in a browser context of its own (a device), its errors and console errors
    collected in ``errors``; `storage`: the seats to put in its localStorage first (as the
    lobby would have kept them); `init_script`: more to run before the page's own scripts."""
    width, height = viewport
    context = browser.new_context(viewport={"width": width, "height": height})
    if storage is not None:
        context.add_init_script(
            f"if (!localStorage.getItem('rebelspace.games')) "
            f"localStorage.setItem('rebelspace.games', {json.dumps(json.dumps(storage))});"
        )
    if init_script is not None:
        context.add_init_script(init_script)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on(
        "console",
        lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None,
    )
    page.goto(url)
    return page


def api(
    server: ServerProcess, method: str, path: str, token: str | None = None, body: Any = None
) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"{server.url}{path}", data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if token is not None:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req) as r:
        return json.load(r)


def api_status(server: ServerProcess, method: str, path: str, body: Any = None) -> int:
    """The HTTP status of a request (for refusals)."""
    try:
        api(server, method, path, body=body)
    except urllib.error.HTTPError as e:
        return e.code
    return 200


def online_game(server: ServerProcess, clock: dict[str, int] | None = None) -> dict[str, Any]:
    """An online game made over REST with both seats taken: {game_id, rebel, imperial}."""
    body: dict[str, Any] = {"mode": "online", "side": "rebel"}
    if clock is not None:
        body["clock"] = clock
    created = api(server, "POST", "/api/games", body=body)
    game_id = created["game_id"]
    code = created["invite"].rsplit("/", 1)[1]
    joined = api(server, "POST", f"/api/games/{game_id}/join", body={"invite": code})
    return {"game_id": game_id, "rebel": created["seats"][0]["token"], "imperial": joined["token"]}


def seats_storage(game_id: str, mode: str, seats: dict[str, str]) -> dict[str, Any]:
    """localStorage's record of seats, as the client keeps it (api.js)."""
    return {game_id: {"mode": mode, "seats": seats, "created": 1}}


def play_out(server: ServerProcess, game_id: str, token: str, seed: int) -> dict[str, Any]:
    """Play the seat's decisions over REST (seeded random choices, drawing as much as it may,
    so the game ends soon) until the game is over; the last state message."""
    rng = random.Random(seed)
    for _ in range(5000):
        state = api(server, "GET", f"/api/games/{game_id}", token=token)
        if state["over"]:
            return state
        legal = state["legal"]
        if not legal:
            time.sleep(0.05)  # the computer's decision
            continue
        draws = [a for a in legal if a["kind"] == "draw"]
        choice = max(draws, key=lambda a: a["n"]) if draws else rng.choice(legal)
        body = {"action": choice["id"], "version": state["version"]}
        try:
            api(server, "POST", f"/api/games/{game_id}/actions", token=token, body=body)
        except urllib.error.HTTPError as e:
            if e.code != 409:  # stale: the game moved on first; read it again
                raise
    raise AssertionError("the game did not end")
