"""The server's pages work in Chromium under its Content-Security-Policy (security.py): the
lobby, a game against the computer started from it (its WebSocket included), an invite link,
a spectator's page and the rules. Every request of these pages goes to the server itself
(scripts above all), and the browser reports no policy violation, no console error and no
page error. The optional API docs pages (`--docs`) load their CDN bundles (stubbed here: the
tests run offline) under a policy of their own."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from rebelspace.server.security import FAVICON, FONTS_CSS, REDOC_JS, SWAGGER_CSS, SWAGGER_JS
from tests.server.server_process import ServerProcess
from tests.web.web_harness import SERVE_ARGS

# Each `securitypolicyviolation` event of the page, kept where the test can read it. An init
# script is Playwright's, not the page's: the policy does not apply to it.
WATCH_VIOLATIONS = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__violations.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`);
});
"""


class Recorder:
    """One browser context's page, with every request, console message and page error."""

    def __init__(self, browser: Any) -> None:
        self.context = browser.new_context(viewport={"width": 1300, "height": 900})
        self.context.add_init_script(WATCH_VIOLATIONS)
        self.page = self.context.new_page()
        self.page.set_default_timeout(30_000)
        self.requests: list[tuple[str, str]] = []  # (resource type, url)
        self.problems: list[str] = []
        self.sockets: list[str] = []
        self.page.on("request", lambda r: self.requests.append((r.resource_type, r.url)))
        self.page.on("websocket", lambda ws: self.sockets.append(ws.url))
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.page.on("console", self._console)

    def _console(self, message: Any) -> None:
        text = message.text
        if (message.location or {}).get("url", "").endswith("/favicon.ico"):
            return  # /rules names no icon, so Chromium asks for this one (404): not a policy matter
        if message.type == "error" or "Content Security Policy" in text or "Refused to" in text:
            self.problems.append(f"console {message.type}: {text}")

    def goto(self, url: str) -> Any:
        self.page.goto(url)
        return self.page

    def check(self, origin: str, also: tuple[str, ...] = ()) -> None:
        """No violation, console error or page error; every request (every script request
        above all) to ``origin``, or to a URL starting with one of ``also``; WebSockets too."""
        # One task later, so that an event the page already queued has been dispatched.
        violations = self.page.evaluate(
            "() => new Promise((r) => setTimeout(() => r(window.__violations), 0))"
        )
        assert violations == [], violations
        assert self.problems == [], self.problems
        scripts = [url for kind, url in self.requests if kind == "script"]
        assert scripts, "no script was loaded"
        for kind, url in self.requests:
            if url.startswith(("data:", *also)):
                continue
            assert _origin(url) == origin, (kind, url)
        for url in self.sockets:
            assert _origin(url.replace("ws:", "http:", 1)) == origin, url

    def close(self) -> None:
        self.context.close()


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


@pytest.fixture
def recorders(browser: Any) -> Iterator[list[Recorder]]:
    made: list[Recorder] = []
    yield made
    for r in made:
        r.close()


def api(server: ServerProcess, path: str, body: Any) -> Any:
    req = urllib.request.Request(
        f"{server.url}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req) as r:
        return json.load(r)


def wait_connected(page: Any) -> None:
    """The game page's WebSocket is open (the status bar says "connected")."""
    page.wait_for_selector("#connection.conn-open")


def test_lobby_and_a_game_against_the_computer_work_under_the_policy(
    server: ServerProcess, browser: Any, recorders: list[Recorder]
) -> None:
    lobby = Recorder(browser)
    recorders.append(lobby)
    page = lobby.goto(server.url)
    page.wait_for_selector("#new-computer")
    # The site link's look came from style.css, not from a style="..." attribute.
    link = page.locator("nav.site a")
    assert link.get_attribute("style") is None and link.get_attribute("href") == "/rules"
    assert (
        page.evaluate("() => getComputedStyle(document.querySelector('nav.site')).textAlign")
        == "right"
    )
    page.select_option("#side", "rebel")
    page.select_option("#opponent", "random")
    page.click("#new-computer")
    page.wait_for_selector("#prompt")
    assert re.search(r"/game/[\w-]+$", page.url), page.url
    wait_connected(page)  # connect-src 'self' lets the page open its WebSocket
    assert any(url.startswith(f"ws://127.0.0.1:{server.port}/api/games/") for url in lobby.sockets)
    lobby.check(server.url)


def test_an_invite_link_and_a_spectators_page_work_under_the_policy(
    server: ServerProcess, browser: Any, recorders: list[Recorder]
) -> None:
    created = api(server, "/api/games", {"mode": "online", "side": "rebel"})
    game_id = created["game_id"]
    guest = Recorder(browser)
    recorders.append(guest)
    page = guest.goto(f"{server.url}{created['invite']}")
    page.wait_for_url(re.compile(rf"/game/{game_id}$"))
    wait_connected(page)
    page.wait_for_selector("#prompt")
    guest.check(server.url)

    watcher = Recorder(browser)
    recorders.append(watcher)
    page = watcher.goto(f"{server.url}/watch/{game_id}")
    wait_connected(page)
    page.wait_for_selector("#prompt")
    assert page.query_selector(".hand") is None  # a spectator
    watcher.check(server.url)


def test_the_rules_page_is_styled_under_the_policy(
    server: ServerProcess, browser: Any, recorders: list[Recorder]
) -> None:
    rules = Recorder(browser)
    recorders.append(rules)
    page = rules.goto(f"{server.url}/rules")
    page.wait_for_selector("#r19")
    style = page.evaluate(
        """() => ({
          width: getComputedStyle(document.body).maxWidth,
          wrap: getComputedStyle(document.querySelector('.table-wrap')).overflowX,
          right: getComputedStyle(document.querySelector('th[style]')).textAlign,
        })"""
    )
    # The inline <style> block (allowed by its hash) and the tables' style="text-align:right"
    # attributes ('unsafe-hashes' and their hash) both apply.
    assert style["width"] != "none" and style["wrap"] == "auto", style
    assert style["right"] == "right", style
    # The rules page has no script of its own: check() wants one, so look at requests here.
    assert rules.problems == []
    assert page.evaluate("() => window.__violations") == []
    assert all(_origin(url) == server.url for _, url in rules.requests), rules.requests


# Stand-ins for the CDN bundles of the docs pages: each does what the real one needs the policy
# to allow (run from the CDN, be called by the page's inline script, fetch /openapi.json, add
# inline styles, start a worker from a blob: URL) and shows that it got there.
SWAGGER_STUB = """
window.SwaggerUIBundle = function (config) {
  const style = document.createElement('style');
  style.textContent = '#swagger-ui { color: rgb(1, 2, 3); }';
  document.head.append(style);
  fetch(config.url).then((r) => r.json()).then((spec) => {
    const el = document.querySelector(config.dom_id);
    el.textContent = 'paths: ' + Object.keys(spec.paths).length;
    el.setAttribute('style', 'margin: 1px');
    el.dataset.done = getComputedStyle(el).color;
  });
};
window.SwaggerUIBundle.presets = { apis: {} };
window.SwaggerUIBundle.SwaggerUIStandalonePreset = {};
"""
REDOC_STUB = """
const el = document.querySelector('redoc');
fetch(el.getAttribute('spec-url')).then((r) => r.json()).then((spec) => {
  const worker = new Worker(URL.createObjectURL(new Blob(['postMessage(6 * 7)'])));
  worker.onmessage = (e) => {
    el.textContent = 'paths: ' + Object.keys(spec.paths).length;
    el.dataset.done = String(e.data);
  };
});
"""


@pytest.fixture
def docs_server(tmp_path: Path) -> Iterator[ServerProcess]:
    extra = [*SERVE_ARGS, "--docs"]
    with ServerProcess(tmp_path / "games.sqlite3", tmp_path / "server.log", extra) as proc:
        yield proc


def test_the_api_docs_pages_load_their_cdn_bundles_under_their_own_policy(
    docs_server: ServerProcess, browser: Any, recorders: list[Recorder]
) -> None:
    bodies = {
        SWAGGER_JS: (SWAGGER_STUB, "application/javascript"),
        REDOC_JS: (REDOC_STUB, "application/javascript"),
        SWAGGER_CSS: ("", "text/css"),
    }
    outside: list[str] = []

    def cdn(route: Any) -> None:
        url = route.request.url
        if url in bodies:
            body, kind = bodies[url]
            route.fulfill(status=200, body=body, content_type=kind)
        else:  # the favicon, ReDoc's fonts: nothing (offline), but they were allowed to ask
            outside.append(url)
            route.fulfill(status=204, body="")

    for path, selector in (("/docs", "#swagger-ui"), ("/redoc", "redoc")):
        docs = Recorder(browser)
        recorders.append(docs)
        docs.context.route(re.compile(r"^https://"), cdn)
        page = docs.goto(f"{docs_server.url}{path}")
        page.wait_for_selector(f"{selector}[data-done]")
        assert page.inner_text(selector).startswith("paths: "), path
        done = page.get_attribute(selector, "data-done")
        assert done == ("rgb(1, 2, 3)" if path == "/docs" else "42"), (path, done)
        docs.check(docs_server.url, also=(SWAGGER_JS, SWAGGER_CSS, REDOC_JS, FAVICON, FONTS_CSS))
        # Their bundles are the only scripts from elsewhere.
        scripts = {u for kind, u in docs.requests if kind == "script"}
        assert scripts == {SWAGGER_JS if path == "/docs" else REDOC_JS}, scripts
    assert outside and all(u == FAVICON or u.startswith(FONTS_CSS) for u in outside), outside
