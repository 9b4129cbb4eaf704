"""Fixtures for the browser client's end-to-end tests: a real `rebelspace serve` on a free port
with a temporary database, and Debian's headless Chromium driven by Playwright.

`make test` installs chromium (the Makefile's `chromium` target); Playwright's own browser
download is not used.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.server_process import ServerProcess
from tests.web.web_harness import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, SERVE_ARGS


@pytest.fixture
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ServerProcess]:
    """The server; a test parametrized indirectly with a number gets its REST answers to
    actions that many seconds after the WebSocket push."""
    delay = float(getattr(request, "param", 0.0))
    extra = [*SERVE_ARGS, "--test-answer-delay", str(delay)] if delay else SERVE_ARGS
    with ServerProcess(tmp_path / "games.sqlite3", tmp_path / "server.log", extra) as srv:
        yield srv


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: run `make chromium` (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
