"""Size limits on what clients send, and the ASGI middleware that enforces the body limit."""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY = 16 * 1024  # bytes of a REST request body: the largest real one is ~100 bytes
MAX_WS_MESSAGE = 4096  # characters of a WebSocket message the server reads
WS_MAX_SIZE = 64 * 1024  # bytes: uvicorn closes the connection (1009) above this


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
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                await self._refuse(send)
                return
        seen = 0
        over = False  # the body went over the limit: the app is told the client left
        started = False

        async def counted() -> Message:
            nonlocal seen, over
            if over:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    over = True
                    return {"type": "http.disconnect"}
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if over:
                return  # the app's answer to the "disconnect" is replaced by ours
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except Exception:
            if not over:
                raise
        if over and not started:
            await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps(
            {"error": "too_large", "message": f"a request body is at most {self.limit} bytes"}
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
