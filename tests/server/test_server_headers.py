"""Every HTTP answer of the server carries the security headers (security.py): pages, the
client's files, API answers and refusals, 404, 405 (with `Allow`), 413 and 500; /rules and the
optional API docs pages have policies of their own; the docs pages are off by default."""

from __future__ import annotations

import base64
import hashlib
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.server_helpers import auth, create, error, tokens

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from fastapi.routing import APIRoute

from rebelspace.server import app as app_module
from rebelspace.server.app import create_app
from rebelspace.server.limits import MAX_BODY
from rebelspace.server.security import CSP, DOCS_SOURCES

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"

FIXED = {
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
}
STRICT = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}


def directives(policy: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for part in policy.split(";"):
        name, *sources = part.split()
        assert name not in out, f"{name} twice in {policy}"
        out[name] = sources
    return out


def check_headers(response: Any, policy: dict[str, list[str]] | None = None) -> None:
    """The four headers, the policy the strict one unless ``policy`` is given."""
    where = f"{response.request.method} {response.request.url.path} ({response.status_code})"
    for name, value in FIXED.items():
        assert response.headers.get(name) == value, (where, name, response.headers.get(name))
    assert len(response.headers.get_list("content-security-policy")) == 1, where
    got = directives(response.headers["content-security-policy"])
    assert got == (policy or STRICT), where


def sha256_source(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


@pytest.fixture
def game(client: TestClient) -> dict[str, Any]:
    return create(client, mode="online", side="rebel")


def test_the_policy_is_the_strict_one_and_the_protocol_document_says_so() -> None:
    assert directives(CSP) == STRICT
    text = " ".join(PROTOCOL.read_text(encoding="utf-8").split())
    stated = re.search(r"`Content-Security-Policy: ([^`]*)`", text)
    assert stated is not None and stated.group(1) == CSP


def test_pages_and_the_clients_files_carry_the_headers(
    client: TestClient, game: dict[str, Any]
) -> None:
    gid = game["game_id"]
    pages = ("/", game["invite"], f"/watch/{gid}", f"/game/{gid}", f"/replay/{gid}")
    for path in (*pages, "/cards", "/games", f"/seat/{gid}"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html"), path
        check_headers(r)
    for path, kind in (("/app.js", "javascript"), ("/style.css", "text/css")):
        r = client.get(path)
        assert r.status_code == 200 and kind in r.headers["content-type"], path
        check_headers(r)
    check_headers(client.head("/"))


def test_api_answers_and_refusals_carry_the_headers(
    client: TestClient, game: dict[str, Any]
) -> None:
    gid = game["game_id"]
    check_headers(client.get("/api/cards"))
    check_headers(client.get("/openapi.json"))
    check_headers(client.get(f"/api/games/{gid}", headers=auth(tokens(game)["rebel"])))
    created = client.post("/api/games", json={"mode": "hotseat"})
    assert created.status_code == 201
    check_headers(created)
    check_headers_of_error(client.post("/api/games", json={"mode": "chess"}), 400, "bad_request")
    check_headers_of_error(client.get(f"/api/games/{gid}", headers=auth("wrong")), 403, "forbidden")
    check_headers_of_error(client.get("/api/games/no-such-game"), 404, "not_found")
    check_headers_of_error(client.get(f"/api/games/{gid}/record"), 409, "conflict")


def check_headers_of_error(response: Any, status: int, code: str) -> None:
    error(response, status, code)
    check_headers(response)


def test_404_405_and_413_carry_the_headers_and_405_says_what_is_allowed(
    client: TestClient,
) -> None:
    check_headers_of_error(client.get("/no-such-file.js"), 404, "not_found")
    # A file of the client: only GET and HEAD.
    for method in ("POST", "PUT", "DELETE"):
        r = client.request(method, "/app.js")
        check_headers_of_error(r, 405, "method_not_allowed")
        assert r.headers["allow"] == "GET, HEAD"
    # A route of the API or a page: its own methods.
    for method, path, allowed in (
        ("DELETE", "/api/games", "POST"),
        ("PUT", "/api/games/x/actions", "POST"),
        ("POST", "/api/cards", "GET"),
        ("POST", "/rules", "GET"),
        ("POST", "/watch/x", "GET"),
    ):
        r = client.request(method, path)
        check_headers_of_error(r, 405, "method_not_allowed")
        assert r.headers["allow"] == allowed, (method, path)
    big = b"{" + b" " * (MAX_BODY + 10) + b"}"
    r = client.post("/api/games", content=big, headers={"content-type": "application/json"})
    check_headers_of_error(r, 413, "too_large")


def test_an_unexpected_error_answers_500_with_the_headers(db_path: str) -> None:
    app = create_app(db_path)

    async def boom() -> None:
        raise RuntimeError("a bug")

    # First in line: the client's files are mounted at / and would answer the path otherwise.
    app.router.routes.insert(0, APIRoute("/boom", boom))
    with TestClient(app, raise_server_exceptions=False) as client:
        r = client.get("/boom")
    assert r.status_code == 500 and r.text == "Internal Server Error"
    check_headers(r)


def test_the_rules_page_allows_exactly_its_own_inline_styles(client: TestClient) -> None:
    r = client.get("/rules")
    assert r.status_code == 200
    page = r.text
    blocks = re.findall(r"<style>(.*?)</style>", page, re.S)
    attributes = sorted(set(re.findall(r' style="([^"]*)"', page)))
    assert blocks and attributes == ["text-align:right"]
    assert "<script" not in page and not re.search(r"<[^>]*\son[a-z]+\s*=", page)
    style = [sha256_source(b) for b in blocks] + ["'unsafe-hashes'"]
    style += sorted(sha256_source(a) for a in attributes)
    check_headers(r, {**STRICT, "style-src": ["'self'", *style]})


def test_the_fallback_page_without_the_client_carries_the_headers(
    db_path: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app_module, "WEB_DIR", tmp_path / "no-client")
    with TestClient(create_app(db_path)) as client:
        r = client.get("/")
        assert r.status_code == 200 and "/openapi.json" in r.text and "/docs" not in r.text
        assert "<script" not in r.text and "style=" not in r.text
        check_headers(r)
        check_headers(client.get("/watch/x"))
        check_headers_of_error(client.get("/app.js"), 404, "not_found")


@pytest.fixture
def docs_client(db_path: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_path, docs=True)) as c:
        yield c


def test_the_api_docs_pages_are_off_by_default(client: TestClient) -> None:
    for path in ("/docs", "/redoc", "/docs/oauth2-redirect"):
        check_headers_of_error(client.get(path), 404, "not_found")
    assert client.get("/openapi.json").status_code == 200


def test_the_api_docs_pages_when_enabled_allow_their_cdn_and_their_inline_script(
    docs_client: TestClient,
) -> None:
    extra = {k.replace("_", "-"): list(v) for k, v in DOCS_SOURCES.items()}
    for path, bundle in (("/docs", "swagger-ui-bundle.js"), ("/redoc", "redoc.standalone.js")):
        r = docs_client.get(path)
        assert r.status_code == 200, path
        page = r.text
        src = re.search(r'<script src="([^"]+)"', page)
        assert src is not None and src.group(1).endswith(bundle)
        inline = [sha256_source(s) for s in re.findall(r"<script>(.*?)</script>", page, re.S)]
        assert len(inline) == (1 if path == "/docs" else 0)
        policy = directives(r.headers["content-security-policy"])
        assert src.group(1) in policy["script-src"]
        # Scripts: the server, the two bundles by their exact URL, the page's inline script by
        # its hash; never 'unsafe-inline' nor 'unsafe-eval' nor a whole host.
        assert policy["script-src"] == ["'self'", *extra["script-src"], *inline]
        assert policy["frame-ancestors"] == ["'none'"] and policy["object-src"] == ["'none'"]
        assert policy["connect-src"] == ["'self'"]
        for name in ("style-src", "font-src", "img-src", "worker-src"):
            assert policy[name][len(policy[name]) - len(extra[name]) :] == extra[name], name
        for name, value in FIXED.items():
            assert r.headers[name] == value
    # Every other answer keeps the strict policy.
    check_headers(docs_client.get("/"))
    check_headers(docs_client.get("/openapi.json"))
