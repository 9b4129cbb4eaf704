"""The server and browser settings of the browser client's end-to-end tests (the server itself
is tests.server.server_process.ServerProcess)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
# `rebelspace serve` options of every browser test: one computer-player process whatever the
# machine (the default is cores - 1), so the tests run alike everywhere.
SERVE_ARGS = ("--workers", "1")


def settings_script(*, playback_ms: int | None = None, confirm_forced: bool = True) -> str:
    """A page init script that stores the table's settings (game.js, Settings) before the page
    runs: `confirm_forced` makes the player click an only choice (a lone "Pass") instead of
    the page making it after a moment, which keeps whole games played by clicking quick;
    `playback_ms` sets the pace of the opponent's moves played back (None: the default)."""
    settings: dict[str, object] = {"confirmForced": confirm_forced}
    if playback_ms is not None:
        settings["playbackMs"] = playback_ms
    return f"localStorage.setItem('rebelspace.settings', {json.dumps(json.dumps(settings))});"


def computer_game_page(
    browser: Any,
    url: str,
    errors: list[str],
    *,
    size: tuple[int, int] = (1280, 800),
    playback_ms: int | None = None,
    ready: str = "#prompt.mine",
) -> Any:
    """A page of its own, at `size`, that starts a game as the Rebel against the random
    computer from the lobby and waits for `ready`; page errors are appended to `errors`."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    context.add_init_script(settings_script(playback_ms=playback_ms))
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.goto(url)
    page.select_option("#side", "rebel")
    page.select_option("#opponent", "random")
    page.click("#new-computer")
    page.wait_for_selector(ready)
    return page
