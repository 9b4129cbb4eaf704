"""Limits on what clients send: sizes (with the ASGI middleware that enforces the body limit)
and rates per client address (token buckets for game creation and WebSocket connections, and
``RateLimits``, which spends them or refuses with 429).

Importable without the server extra (Starlette only where the middleware answers), so that
``rebelspace serve``'s arguments, declared from these defaults, parse anywhere."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .games import ServerError

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY = 16 * 1024  # bytes of a REST request body: the largest real one is ~100 bytes
MAX_WS_MESSAGE = 4096  # characters of a WebSocket message the server reads
WS_MAX_SIZE = 64 * 1024  # bytes: uvicorn closes the connection (1009) above this
MAX_TRACKED_ADDRESSES = 10_000  # buckets kept before the full ones are forgotten


@dataclass(frozen=True, slots=True)
class Rate:
    """At most ``burst`` at once, then ``per_minute`` (a token bucket)."""

    burst: int
    per_minute: float

    def __str__(self) -> str:
        return f"{self.burst} at once, then {self.per_minute:g} a minute"


@dataclass(frozen=True, slots=True)
class ClientLimits:
    """What one client address may do (``serve --create-limit/--connect-limit``)."""

    # A person starts a game every few minutes; a flood gets 20 and then one every 6 s.
    create: Rate = Rate(20, 10)
    # Every open page holds one connection per seat and reconnects after a restart.
    connect: Rate = Rate(60, 120)


def parse_rate(text: str) -> Rate:
    """``"BURST/PER_MINUTE"``, e.g. ``"20/10"`` (the command line's form)."""
    burst, sep, per_minute = text.partition("/")
    try:
        rate = Rate(int(burst), float(per_minute))
    except ValueError:
        rate = None
    if not sep or rate is None or rate.burst < 1 or not 0 < rate.per_minute < math.inf:
        raise ValueError(f"{text!r} is not BURST/PER_MINUTE with BURST >= 1, PER_MINUTE > 0")
    return rate


class TokenBuckets:
    """One token bucket per key (a client address): ``take`` spends a token if there is one.
    Memory is bounded: past ``MAX_TRACKED_ADDRESSES`` keys, the buckets that have refilled
    (which behave as new ones) are forgotten."""

    def __init__(self, rate: Rate, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # key: (tokens, when counted)

    def _tokens(self, key: str, now: float) -> float:
        tokens, then = self._buckets.get(key, (self.rate.burst, now))
        return min(float(self.rate.burst), tokens + (now - then) * self.rate.per_minute / 60)

    def take(self, key: str) -> float:
        """0.0 if a token was taken, else the seconds until one will be there."""
        now = self.clock()
        tokens = self._tokens(key, now)
        if tokens < 1:
            self._buckets[key] = (tokens, now)
            return (1 - tokens) * 60 / self.rate.per_minute
        if len(self._buckets) >= MAX_TRACKED_ADDRESSES and key not in self._buckets:
            self._forget_full(now)
        self._buckets[key] = (tokens - 1, now)
        return 0.0

    def _forget_full(self, now: float) -> None:
        full = [k for k in self._buckets if self._tokens(k, now) >= self.rate.burst]
        for k in full:
            del self._buckets[k]


class RateLimits:
    """Rates per client address, by what is asked (the games' creation and connections:
    ``ClientLimits``; hints and analyses: advice.py): ``check`` spends one of the address's
    tokens, or refuses (429 ``rate_limited``, with how long to wait)."""

    def __init__(self, rates: dict[str, tuple[Rate, str]]) -> None:
        """``rates``: for each kind of request, its rate and the refusal's words for it
        ("requests creating games")."""
        self._rates = rates
        self._buckets = {what: TokenBuckets(rate) for what, (rate, _words) in rates.items()}

    def check(self, what: str, address: str) -> None:
        """Spend one of the address's ``what`` tokens, or refuse (429)."""
        wait = self._buckets[what].take(address)
        if wait:
            rate, words = self._rates[what]
            raise ServerError(
                429,
                "rate_limited",
                f"too many {words} from your address (limit: {rate}); try again later",
                retry_after=math.ceil(wait),
            )


class BodyLimit:
    """Answers 413 ``too_large`` to a request body over ``limit`` bytes, whether it declares
    its length or arrives in chunks, before the route reads it."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self._declared_too_long(scope):
            await self._refuse(scope, receive, send)
            return
        body = _BodyWatch(receive, send, self.limit)
        try:
            await self.app(scope, body.receive, body.send)
        except Exception:
            if not body.over:
                raise
        if body.over and not body.started:
            await self._refuse(scope, receive, send)

    def _declared_too_long(self, scope: Scope) -> bool:
        return any(
            name == b"content-length" and (not value.isdigit() or int(value) > self.limit)
            for name, value in scope.get("headers", ())
        )

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        from starlette.responses import JSONResponse

        message = f"a request body is at most {self.limit} bytes"
        answer = JSONResponse({"error": "too_large", "message": message}, status_code=413)
        await answer(scope, receive, send)


class _BodyWatch:
    """The receive and send BodyLimit hands the app: they count the request body, and once
    it is over the limit tell the app the client left and drop the app's answer."""

    def __init__(self, receive: Receive, send: Send, limit: int) -> None:
        self._receive = receive
        self._send = send
        self.limit = limit
        self.seen = 0
        self.over = False  # the body went over the limit: the app is told the client left
        self.started = False  # the app's answer has begun (too late to answer 413)

    async def receive(self) -> Message:
        if self.over:
            return {"type": "http.disconnect"}
        message = await self._receive()
        if message["type"] == "http.request":
            self.seen += len(message.get("body", b""))
            if self.seen > self.limit:
                self.over = True
                return {"type": "http.disconnect"}
        return message

    async def send(self, message: Message) -> None:
        if self.over:
            return  # the app's answer to the "disconnect" is replaced by ours
        if message["type"] == "http.response.start":
            self.started = True
        await self._send(message)
