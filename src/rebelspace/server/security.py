"""What keeps the server's pages and answers safe: the security headers of every HTTP response,
the policies of pages that carry inline code (the rules page, the optional API docs pages), and
the log filter that keeps seat tokens and invite codes out of uvicorn's logs.

The Content-Security-Policy lets a page run scripts only from this server (no inline script,
no ``eval``, nothing from another origin), talk only to this server (its REST API and its
WebSocket: ``connect-src 'self'`` covers ``ws:``/``wss:`` of the same host), and never be framed.
A page made by the server with a little inline CSS (``/rules``) gets the same policy plus the
hashes of exactly that CSS (:func:`page_policy`); only the API docs pages, which are off unless
``rebelspace serve --docs``, load scripts from a CDN.
"""

from __future__ import annotations

import base64
import hashlib
import html
import logging
import re
from collections.abc import Iterable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse, PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# The default policy, directive by directive ("'self'": this server's origin only).
POLICY: dict[str, tuple[str, ...]] = {
    "default-src": ("'self'",),
    "script-src": ("'self'",),
    "style-src": ("'self'",),
    # data: images are allowed (an image never runs); the client's icon is its own /favicon.svg.
    "img-src": ("'self'", "data:"),
    "connect-src": ("'self'",),
    "object-src": ("'none'",),
    "base-uri": ("'self'",),
    "form-action": ("'self'",),
    "frame-ancestors": ("'none'",),
}


def policy(**extra: Iterable[str]) -> str:
    """The policy as a header value; ``extra`` adds sources to directives (``style_src=[...]``
    adds to ``style-src``; a directive not in :data:`POLICY` starts from ``default-src``)."""
    directives = dict(POLICY)
    for key, sources in extra.items():
        name = key.replace("_", "-")
        base = directives.get(name, POLICY["default-src"])
        directives[name] = base + tuple(s for s in sources if s not in base)
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in directives.items())


CSP = policy()

HEADERS: tuple[tuple[str, str], ...] = (
    ("content-security-policy", CSP),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "no-referrer"),
    ("x-content-type-options", "nosniff"),
)


class SecurityHeaders:
    """Adds :data:`HEADERS` to every HTTP response: pages, files, API answers and errors, the
    413 of ``BodyLimit`` included when this middleware is outside it. A response that already
    carries one of them keeps its own (a page with its own policy, :func:`page_policy`).
    WebSocket connections pass through untouched.

    Starlette's ``ServerErrorMiddleware`` (outside every user middleware) answers an unhandled
    exception with a bare 500; so that this answer has the headers too, this middleware sends
    the same 500 ("Internal Server Error", text/plain) itself, with the headers, before it lets
    the exception go on to be logged. An app that registers its own 500 handler should move
    its answer here."""

    def __init__(self, app: ASGIApp, headers: Iterable[tuple[str, str]] = HEADERS) -> None:
        self.app = app
        self.headers = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                raw = list(message.get("headers", ()))
                present = {name.lower() for name, _ in raw}
                raw += [(k, v) for k, v in self.headers if k not in present]
                message = {**message, "headers": raw}
            await send(message)

        try:
            await self.app(scope, receive, with_headers)
        except Exception:
            if not started:
                answer = PlainTextResponse("Internal Server Error", status_code=500)
                await answer(scope, receive, with_headers)
            raise


# ----------------------------------------------------------------------- pages with inline code

_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc\s*=)[^>]*>(.*?)</script\s*>", re.S | re.I)
_STYLE_BLOCK = re.compile(r"<style[^>]*>(.*?)</style\s*>", re.S | re.I)
_STYLE_ATTR = re.compile(r"""\sstyle\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.I)


def source_hash(text: str) -> str:
    """A CSP hash source for inline code (``'sha256-...'``)."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def page_policy(page: str, *, hash_styles: bool = True, **extra: Iterable[str]) -> str:
    """The policy of one page the server generates: :data:`POLICY`, plus the hashes of exactly
    the inline ``<script>`` blocks, ``<style>`` blocks and ``style="..."`` attributes it holds
    (``'unsafe-hashes'`` lets a hash allow an attribute), plus ``extra`` sources. With
    ``hash_styles=False`` the styles are left to ``extra`` (a hash would turn off an
    ``'unsafe-inline'`` there). For the server's own pages only: it trusts the markup."""
    scripts = [source_hash(s) for s in _INLINE_SCRIPT.findall(page)]
    styles: list[str] = []
    if hash_styles:
        styles = [source_hash(s) for s in _STYLE_BLOCK.findall(page)]
        attributes = {html.unescape(a or b) for a, b in _STYLE_ATTR.findall(page)}
        if attributes:
            styles += ["'unsafe-hashes'", *sorted(source_hash(a) for a in attributes)]
    sources = {k.replace("_", "-"): list(v) for k, v in extra.items()}
    sources.setdefault("script-src", []).extend(scripts)
    sources.setdefault("style-src", []).extend(styles)
    return policy(**{k: v for k, v in sources.items() if v})


# ---------------------------------------------------------------------------------- API docs

# FastAPI's pages load Swagger UI and ReDoc from this CDN (FastAPI's default URLs, named here so
# that the pages and their policy say the same); ReDoc's default fonts come from Google Fonts.
CDN = "https://cdn.jsdelivr.net"
SWAGGER_JS = f"{CDN}/npm/swagger-ui-dist@5/swagger-ui-bundle.js"
SWAGGER_CSS = f"{CDN}/npm/swagger-ui-dist@5/swagger-ui.css"
REDOC_JS = f"{CDN}/npm/redoc@2/bundles/redoc.standalone.js"
FONTS_CSS = "https://fonts.googleapis.com"
FONTS = "https://fonts.gstatic.com"
FAVICON = "https://fastapi.tiangolo.com/img/favicon.png"
REDOC_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"  # ReDoc's "API docs by Redocly"

# What the two pages need beyond POLICY: the bundles (scripts by their exact URL), their CSS,
# inline styles (Swagger UI and ReDoc set styles at run time), ReDoc's web worker (blob:) and
# the images and fonts they show. Their inline scripts are allowed by hash (page_policy).
DOCS_SOURCES: dict[str, tuple[str, ...]] = {
    "script_src": (SWAGGER_JS, REDOC_JS),
    "style_src": (SWAGGER_CSS, FONTS_CSS, "'unsafe-inline'"),
    "font_src": (FONTS,),
    "img_src": (FAVICON, REDOC_LOGO),
    "worker_src": ("blob:",),
}


def add_docs_pages(app: FastAPI) -> None:
    """Serve ``/docs`` (Swagger UI) and ``/redoc`` (ReDoc) for ``app`` (a FastAPI app created
    with ``docs_url=None, redoc_url=None``), each with the policy that lets it load from the
    CDN; every other page keeps the strict policy."""
    spec = app.openapi_url or "/openapi.json"

    def with_policy(page: HTMLResponse) -> HTMLResponse:
        text = bytes(page.body).decode("utf-8")
        page.headers["content-security-policy"] = page_policy(
            text, hash_styles=False, **DOCS_SOURCES
        )
        return page

    async def swagger(request: Request) -> HTMLResponse:
        openapi = request.scope.get("root_path", "") + spec
        return with_policy(
            get_swagger_ui_html(
                openapi_url=openapi,
                title=f"{app.title} - Swagger UI",
                swagger_js_url=SWAGGER_JS,
                swagger_css_url=SWAGGER_CSS,
                swagger_favicon_url=FAVICON,
                swagger_ui_parameters=app.swagger_ui_parameters,
            )
        )

    async def redoc(request: Request) -> HTMLResponse:
        openapi = request.scope.get("root_path", "") + spec
        return with_policy(
            get_redoc_html(
                openapi_url=openapi,
                title=f"{app.title} - ReDoc",
                redoc_js_url=REDOC_JS,
                redoc_favicon_url=FAVICON,
            )
        )

    app.add_api_route("/docs", swagger, methods=["GET"], include_in_schema=False)
    app.add_api_route("/redoc", redoc, methods=["GET"], include_in_schema=False)


# ----------------------------------------------------------------------------------- logging

REDACTED = "<redacted>"
# token=... in a query string (a WebSocket URL) up to the next &, space or quote; and the code
# of an invite link /join/<game_id>/<code>.
_SECRETS = (
    (re.compile(r"(\btoken=)[^&\s\"']*", re.I), rf"\g<1>{REDACTED}"),
    (re.compile(r"(/join/[^/\s\"'?#]+/)[^\s\"'?#&]+"), rf"\g<1>{REDACTED}"),
)

SECRET_LOGGERS = ("uvicorn.access", "uvicorn.error")


def redact(text: str) -> str:
    """``text`` with seat tokens (``token=...``) and invite codes (``/join/<id>/<code>``)
    replaced by ``<redacted>``."""
    for pattern, replacement in _SECRETS:
        text = pattern.sub(replacement, text)
    return text


class RedactSecrets(logging.Filter):
    """Takes seat tokens and invite codes out of every record it sees (it never drops one).

    A record with a secret in its arguments keeps its shape, the arguments redacted one by
    one: uvicorn's access formatter unpacks ``(client, method, path, http version, status)``
    from them. Any other record with a secret (in its format string, or split between it and
    an argument) becomes its redacted message with no arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken record: logging reports it as it would have anyway
            return True
        if redact(message) == message:
            return True
        args: Any = record.args
        if isinstance(args, tuple):
            args = tuple(redact(a) if isinstance(a, str) else a for a in args)
        elif isinstance(args, dict):
            args = {k: redact(v) if isinstance(v, str) else v for k, v in args.items()}
        if args:
            try:
                clean = str(record.msg) % args
            except Exception:
                clean = message
            if redact(clean) == clean:
                record.args = args
                return True
        record.msg, record.args = redact(message), ()
        return True


def install_log_filter(names: Iterable[str] = SECRET_LOGGERS) -> RedactSecrets:
    """Add one :class:`RedactSecrets` to each named logger (uvicorn's by default); a second
    call adds no second filter. uvicorn's logging set-up keeps loggers' filters."""
    existing = [
        f for name in names for f in logging.getLogger(name).filters if isinstance(f, RedactSecrets)
    ]
    flt = existing[0] if existing else RedactSecrets()
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(flt)
    return flt
