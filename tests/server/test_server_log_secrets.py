"""Seat tokens and invite codes never reach a log: `rebelspace serve --access-log` logs the URLs
of requests and WebSockets through uvicorn's loggers, whose records security.RedactSecrets
cleans (installed by cmd_serve)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from uvicorn.logging import AccessFormatter, DefaultFormatter
from websockets.sync.client import connect

from rebelspace.server.security import REDACTED, RedactSecrets, install_log_filter, redact
from tests.server.server_process import HTTP, ServerProcess


def record(name: str, msg: str, *args: object) -> logging.LogRecord:
    return logging.LogRecord(name, logging.INFO, __file__, 1, msg, args, None)


@pytest.mark.parametrize(
    ("text", "clean"),
    [
        (
            "GET /api/games/g1/ws?token=abc-DEF_123 HTTP/1.1",
            "GET /api/games/g1/ws?token=<r> HTTP/1.1",
        ),
        ("/ws?x=1&token=abc&y=2", "/ws?x=1&token=<r>&y=2"),
        (
            '"WebSocket /api/games/g/ws?token=t0k3n" [accepted]',
            '"WebSocket /api/games/g/ws?token=<r>" [accepted]',
        ),
        ("GET /join/g1/CODE42 HTTP/1.1", "GET /join/g1/<r> HTTP/1.1"),
        ('"GET /join/g1/CODE42?x=1 HTTP/1.1" 200', '"GET /join/g1/<r>?x=1 HTTP/1.1" 200'),
        ("GET /watch/g1 HTTP/1.1", "GET /watch/g1 HTTP/1.1"),
        ("GET /join/g1 HTTP/1.1", "GET /join/g1 HTTP/1.1"),
    ],
)
def test_redact_takes_out_tokens_and_invite_codes(text: str, clean: str) -> None:
    assert redact(text) == clean.replace("<r>", REDACTED)


def test_the_filter_keeps_uvicorns_access_records_in_shape() -> None:
    """uvicorn's access formatter unpacks five arguments: they are redacted one by one."""
    rec = record(
        "uvicorn.access",
        '%s - "%s %s HTTP/%s" %d',
        "127.0.0.1:5000",
        "GET",
        "/join/g1/SECRETCODE",
        "1.1",
        200,
    )
    assert RedactSecrets().filter(rec) is True
    line = AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s').format(rec)
    assert line == f'127.0.0.1:5000 - "GET /join/g1/{REDACTED} HTTP/1.1" 200 OK'


def test_the_filter_cleans_a_secret_split_between_message_and_arguments() -> None:
    rec = record("uvicorn.error", "opened /ws?token=%s%s", "se", "cret")
    RedactSecrets().filter(rec)
    assert rec.getMessage() == f"opened /ws?token={REDACTED}" and rec.args == ()
    assert "secret" not in DefaultFormatter("%(message)s").format(rec)


def test_installing_the_filter_twice_adds_it_once() -> None:
    names = ("rebelspace.test.a", "rebelspace.test.b")
    first, second = install_log_filter(names), install_log_filter(names)
    assert first is second
    for name in names:
        logger = logging.getLogger(name)
        assert [f for f in logger.filters if isinstance(f, RedactSecrets)] == [first]
        logger.removeFilter(first)


def test_a_real_servers_access_log_holds_no_token_and_no_invite_code(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    server = ServerProcess(tmp_path / "games.sqlite3", log, extra_args=["--access-log"])
    server.start()
    try:
        created = HTTP.post(f"{server.url}/api/games", json={"mode": "online"}).json()
        game_id, token = created["game_id"], created["seats"][0]["token"]
        code = created["invite"].rsplit("/", 1)[1]
        ws_url = server.url.replace("http:", "ws:") + f"/api/games/{game_id}/ws?token={token}"
        with connect(ws_url, open_timeout=10) as ws:
            first = json.loads(ws.recv(timeout=10))
        assert first["type"] == "state" and first["seat"] == "rebel"  # the token opened the seat
        assert HTTP.get(f"{server.url}{created['invite']}").status_code == 200
        assert HTTP.get(f"{server.url}/join/x/SECRETCODE").status_code == 200
        assert HTTP.get(f"{server.url}/api/cards?token=ANOTHERSECRET").status_code == 200
    finally:
        server.stop()  # every line is written once the process is gone
    text = log.read_text()
    for secret in (token, code, "SECRETCODE", "ANOTHERSECRET"):
        assert secret not in text, secret
    assert f'"WebSocket /api/games/{game_id}/ws?token={REDACTED}" [accepted]' in text, text
    assert f'"GET /join/{game_id}/{REDACTED} HTTP/1.1" 200' in text, text
    assert f'"GET /join/x/{REDACTED} HTTP/1.1" 200' in text, text
    assert f'"GET /api/cards?token={REDACTED} HTTP/1.1" 200' in text, text
    assert "Logging error" not in text and "Traceback" not in text, text
