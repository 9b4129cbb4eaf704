"""Every path docs/protocol.md names for a GET (a page, a file, an API read, the WebSocket) is
there: each is fetched from a real app, its placeholders filled in from a real online game, and
must answer neither 404 nor 5xx. A path the test cannot fetch must be listed in SKIPPED with the
reason; a placeholder it does not know fails the test, so a new example in the document is
either checked or skipped on purpose."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from rebelspace.server.app import create_app
from tests.server.server_helpers import create, tokens

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"

# A code span that is a path, alone or after GET (`/app.js`, `GET /api/cards`), and a JSON
# string that is one ("/watch/<game_id>"). `POST ...` spans are not GETs; `docs/...` and
# `src/...` are files of the repository, not of the server.
CODE_PATH = re.compile(r"`(?:GET )?(/[^`\s]*)`")
JSON_PATH = re.compile(r'"(/[^"\s]*)"')
PLACEHOLDER = re.compile(r"\{[^}]*\}|<[^>]*>")

# Paths named in the document that this test does not fetch, with the reason.
SKIPPED: dict[str, str] = {}
# Served only by `rebelspace serve --docs` (create_app(..., docs=True)).
DOCS_PAGES = {"/docs", "/redoc"}


def named_paths() -> set[str]:
    text = PROTOCOL.read_text(encoding="utf-8")
    return set(CODE_PATH.findall(text)) | set(JSON_PATH.findall(text))


def test_the_extraction_finds_the_documents_examples() -> None:
    paths = named_paths()
    expected = {"/", "/app.js", "/style.css", "/rules", "/openapi.json", "/api/cards"}
    expected |= {"/join/{game_id}/{code}", "/watch/<game_id>", "/api/games/{game_id}/record"}
    assert expected <= paths, sorted(expected - paths)
    assert not any(p.startswith("/static/") for p in paths)
    assert set(SKIPPED) <= paths, "SKIPPED names a path the document no longer has"


def test_every_get_path_the_protocol_document_names_answers(db_path: str) -> None:
    with TestClient(create_app(db_path, docs=True)) as client:
        created = create(client, mode="online", side="rebel")
        game_id = created["game_id"]
        code = created["invite"].rsplit("/", 1)[1]
        token = tokens(created)["rebel"]
        values = {
            "{game_id}": game_id,
            "<game_id>": game_id,
            "{code}": code,
            "<code>": code,
            "<invite_code>": code,
            "<token>": token,
            "<seat>": "rebel",
        }
        fetched: dict[str, int] = {}
        for named in sorted(named_paths()):
            if named in SKIPPED:
                continue
            path = PLACEHOLDER.sub(lambda m: values.get(m.group(0), m.group(0)), named)
            unknown = PLACEHOLDER.findall(path)
            assert not unknown, f"{named}: add {unknown} to the placeholder table, or skip it"
            if re.fullmatch(r"/api/games/[^/]+/ws(\?.*)?", path):
                with client.websocket_connect(path) as ws:
                    first = ws.receive_json()
                assert first["type"] == "state", (named, first)
                fetched[named] = 101
                continue
            status = client.get(path).status_code
            assert status != 404 and status < 500, f"GET {path} (named {named}): {status}"
            fetched[named] = status
    assert set(fetched) | set(SKIPPED) == named_paths()
    # The record, the replay and the analysis of an unfinished game are refused on purpose
    # (409), and a hint without a seat's token (403); everything else answers.
    refused = {"/api/games/{game_id}/record": 409, "/api/games/{game_id}/replay": 409}
    refused |= {"/api/games/{game_id}/analysis?side=<seat>": 409}
    refused |= {"/api/games/{game_id}/hint": 403}
    assert {p: s for p, s in fetched.items() if s >= 400} == refused
    assert set(fetched) >= DOCS_PAGES


def test_the_docs_pages_named_in_the_document_are_off_without_docs(db_path: str) -> None:
    with TestClient(create_app(db_path)) as client:
        for path in DOCS_PAGES:
            assert client.get(path).status_code == 404, path
