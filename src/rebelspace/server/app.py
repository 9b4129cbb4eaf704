"""The HTTP and WebSocket routes (FastAPI). docs/protocol.md describes them for clients.

Over 500 lines: one short route per endpoint of docs/protocol.md, in the document's order; the
routes only translate to GameServer calls.

Routes only translate: they read the token and body, call the ``GameServer`` and turn a
``ServerError`` into ``{"error": code, "message": text}`` with its status. The OpenAPI document
is at /openapi.json (browsable at /docs and /redoc when the app is created with ``docs=True``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
import logging
import os
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Annotated, Any, Literal

from rebelspace.engine import EFFECTS, CardDB, RulesOptions, to_record
from rebelspace.extras import raise_missing
from rebelspace.play.ratings import level_ratings

try:
    from fastapi import Depends, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
    from fastapi.staticfiles import StaticFiles
    from pydantic import (
        BaseModel,
        BeforeValidator,
        ConfigDict,
        Field,
        StrictBool,
        StrictInt,
        StrictStr,
    )
    from starlette.exceptions import HTTPException as StarletteHTTPException
    from starlette.requests import HTTPConnection
    from starlette.routing import Route
    from starlette.types import Message
except ModuleNotFoundError as e:  # without the server extra: its one-line hint
    raise_missing("rebelspace.server.app", e)

from .computer import ComputerPlayers
from .games import CLAIM_AFTER, MAX_ACTION_TEXT, SEATS, ServerError, Session, Since, whole
from .limits import MAX_BODY, MAX_WS_MESSAGE, BodyLimit, ClientLimits
from .manager import (
    CLOCK_INCREMENT,
    CLOCK_INITIAL,
    IDLE_DAYS,
    MAX_MINE,
    Connection,
    GameServer,
    NewGame,
)
from .messages import state_message
from .replays import replay_text
from .security import SecurityHeaders, add_docs_pages, page_policy
from .store import open_store

log = logging.getLogger("rebelspace.server")

SWEEP_SECONDS = 3600.0  # how often idle games are looked for
REPLAY_CACHE = 64  # finished games' replays kept in memory (gzipped)

WEB_DIR = Path(__file__).resolve().parent.parent / "web"


class ErrorBody(BaseModel):
    error: Literal[
        "bad_request",
        "not_found",
        "forbidden",
        "invalid_action",
        "illegal_action",
        "not_your_turn",
        "conflict",
        "stale",
        "too_large",
        "method_not_allowed",
        "rate_limited",
    ]
    message: str
    version: int | None = Field(default=None, description="`stale`: the game's current version")
    retry_after: int | None = Field(
        default=None, description="`rate_limited`: seconds to wait (also the Retry-After header)"
    )


# An integer as JSON Schema counts one: 4851.0 too (games.whole), never a bool or a string.
WholeInt = Annotated[StrictInt, BeforeValidator(whole)]


class ClockSetting(BaseModel):
    model_config = ConfigDict(extra="forbid")
    initial_s: WholeInt = Field(
        description=f"each side's time at the start, {CLOCK_INITIAL[0]}..{CLOCK_INITIAL[1]} s"
    )
    increment_s: WholeInt = Field(
        description="added to a side's clock after each of its decisions, "
        f"{CLOCK_INCREMENT[0]}..{CLOCK_INCREMENT[1]} s"
    )


class CreateGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    mode: Literal["computer", "hotseat", "online"]
    side: Literal["rebel", "imperial", "random"] = "rebel"
    opponent: Literal["ismcts", "heuristic", "random"] = "ismcts"
    level: Literal["easy", "normal", "hard", "expert"] = "normal"  # LEVEL_NAMES
    seed: WholeInt | None = Field(
        default=None,
        ge=-(2**62),
        le=2**62,
        description="computer and hot-seat games only: refused for online games, since the "
        "player who chose it could work out the other player's cards",
    )
    clock: ClockSetting | None = Field(
        default=None, description="online games only: each side's clock (default: none)"
    )


class Seat(BaseModel):
    player: Literal["rebel", "imperial"]
    token: str


class Created(BaseModel):
    game_id: str
    mode: str
    seats: list[Seat]
    invite: str | None
    watch: str


class JoinGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    invite: StrictStr = Field(max_length=200)


VERSION_TEXT = (
    "the state message's `version` the request was chosen at: a stale or repeated request is "
    "refused (409 `stale`), so it is applied at most once"
)
ActionId = Annotated[WholeInt, Field(json_schema_extra={"minimum": 0})]  # < 0: 422 as WS
VERSION = Field(ge=0, le=2**53, description=VERSION_TEXT)
OPTIONAL_VERSION = Field(default=None, ge=0, le=2**53, description=VERSION_TEXT)


class ActionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: ActionId | Annotated[StrictStr, Field(max_length=MAX_ACTION_TEXT)] = Field(
        description='an action id from `legal`, or its text (e.g. "draw 2"), at most '
        f"{MAX_ACTION_TEXT} characters"
    )
    version: WholeInt = VERSION


class UndoBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: WholeInt | None = OPTIONAL_VERSION


class EmptyBody(BaseModel):
    """Resign and claim: no fields needed; ``version`` makes a repeated request refused."""

    model_config = ConfigDict(extra="forbid")
    version: WholeInt | None = OPTIONAL_VERSION


class RematchBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    offer: StrictBool = Field(description="true: offer or accept; false: withdraw or decline")
    version: WholeInt | None = OPTIONAL_VERSION


class MineBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tokens: list[Annotated[StrictStr, Field(max_length=200)]] = Field(max_length=MAX_MINE)


class UndoAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    accept: StrictBool
    version: WholeInt | None = OPTIONAL_VERSION


REFUSALS: dict[int | str, dict[str, Any]] = {
    s: {"model": ErrorBody} for s in (400, 403, 404, 409, 413, 422, 429)
}


STATE: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "the state message (docs/protocol.md): the seat's own view, or the "
        "public view for a spectator",
        "content": {"application/json": {"schema": {"type": "object"}}},
    },
    **REFUSALS,
}


SINCE_TEXT = (
    "with `since_version`: the client holds the seat's first `since` events, from the state "
    "message of version `since_version`; the answer's `events` (and `view.log`) carry only "
    "the ones after them (`events_from`). Without: every event"
)


def since_query(
    since: Annotated[int | None, Query(ge=0, le=2**31, description=SINCE_TEXT)] = None,
    since_version: Annotated[
        int | None, Query(ge=0, le=2**53, description="the version `since` is from")
    ] = None,
) -> Since | None:
    """What the client holds of the seat's events (docs/protocol.md, "Events"), or None."""
    return read_since(since, since_version)


def read_since(since: object, since_version: object) -> Since | None:
    """``since`` and ``since_version`` as a ``Since`` (both or neither), or ``bad_request``."""
    if since is None and since_version is None:
        return None
    since, since_version = whole(since), whole(since_version)
    if (
        type(since) is not int
        or type(since_version) is not int
        or not 0 <= since <= 2**31
        or not 0 <= since_version <= 2**53
    ):
        raise ServerError(
            400,
            "bad_request",
            '"since" (events held) and "since_version" (their version) go together, '
            "as integers from 0",
        )
    return since, since_version


SinceQuery = Annotated[Since | None, Depends(since_query)]


def state_response(session: Session, seat: int | None, since: Since | None) -> Response:
    """The state message as the response body (already JSON: no second encoding)."""
    return Response(GameServer.answer(session, seat, since), media_type="application/json")


def card_catalogue(db: CardDB) -> list[dict[str, Any]]:
    return [
        {
            "name": t.name,
            "side": SEATS[t.side],
            "type": t.printed_type,
            "kind": t.kind,
            "count": t.count,
            "ground": t.ground,
            "space": t.space,
            "damage": t.damage,
            "cost": t.cost,
            "notes": t.notes,
            "keywords": sorted(t.keywords),
            "ability": t.ability,
            **_ability_fields(t.ability),
        }
        for t in db
    ]


def _ability_fields(key: str | None) -> dict[str, str | None]:
    """What the browser shows of an action card's ability, from its effect (engine/abilities/):
    its words, when it is played, and the words of its action on a target."""
    effect = next((e for e in EFFECTS if e.key == key), None)
    if effect is None:
        return {"ability_words": None, "ability_when": None, "ability_menu": None}
    menu = None if effect.target is None else effect.target.menu
    return {"ability_words": effect.words, "ability_when": effect.when.wire, "ability_menu": menu}


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ServerError(403, "forbidden", "the Authorization header must be 'Bearer <token>'")
    return token.strip()


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        if err.get("type") == "json_invalid":
            return "the body is not valid JSON"
        where = ".".join(str(x) for x in err.get("loc", ()) if x != "body") or "body"
        parts.append(f"{where}: {err.get('msg', 'invalid')}")
    return "; ".join(parts) or "the request is malformed"


def create_app(
    db_path: str,
    *,
    computer: ComputerPlayers | None = None,
    cards: CardDB | None = None,
    options: RulesOptions | None = None,
    answer_delay: float = 0.0,
    limits: ClientLimits | None = None,
    idle_days: float = IDLE_DAYS,
    sweep_every: float = SWEEP_SECONDS,
    docs: bool = False,
    claim_after: float = CLAIM_AFTER,
    now: Callable[[], float] | None = None,
    replay_unfinished: bool = False,
    decision_log: str | None = None,
) -> FastAPI:
    """The app; new games use ``cards`` and ``options`` (default: as printed, the rulings).
    ``answer_delay`` (tests only) holds each action's REST answer back that many seconds after
    the WebSocket push, as a slow network would, to test clients against that order.
    ``docs`` serves the API's pages /docs (Swagger UI) and /redoc (ReDoc), which load their
    scripts from a CDN (off by default; /openapi.json is always there). ``limits``: what one
    client address may do; unfinished games idle for ``idle_days`` are deleted by a sweep
    every ``sweep_every`` seconds. ``claim_after``: seconds an online opponent must be gone
    before the win may be claimed; ``now``: the time source of clocks and claims (tests);
    ``replay_unfinished``: replays of unfinished games too (the local server of
    ``rebelspace replay --open``, which holds only the record's game); ``decision_log``
    (tests only): a file each computer move is appended to just before it is written, ``pid
    game version``."""
    store = open_store(db_path)  # a SQLite file, or a postgresql:// URL
    server = GameServer(
        store,
        computer,
        cards=cards,
        options=options,
        limits=limits,
        idle_days=idle_days,
        claim_after=claim_after,
        now=now or time.monotonic,
    )

    if decision_log is not None:
        server.decisions = _decision_logger(decision_log)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        listener = None
        if store.shared:  # other processes' changes: LISTEN before any game is loaded
            from .notify import listen

            ready = asyncio.Event()
            listener = asyncio.create_task(
                listen(store.path, server.on_change, server.resume, ready)
            )
            await asyncio.wait_for(ready.wait(), 60)
        server.load_clocked_games()  # their clocks run (and flags fall) with nobody asking
        sweeper = asyncio.create_task(_sweeps(server, sweep_every))
        beats = asyncio.create_task(server.heartbeats()) if store.shared else None
        yield
        sweeper.cancel()
        for task in (listener, beats):
            if task is not None:
                task.cancel()
        await server.close()
        store.close()

    app = FastAPI(
        title="Rebel Space game server",
        version="1",
        description="REST for creating, joining and reading games; a WebSocket per seat at "
        "/api/games/{game_id}/ws pushes each new view. See docs/protocol.md. Limits: a request "
        f"body is at most {MAX_BODY} bytes (413 `too_large`); one client address may create "
        f"games ({server.limits.create}) and open WebSocket connections "
        f"({server.limits.connect}); beyond that 429 `rate_limited`, with Retry-After.",
        lifespan=lifespan,
        # FastAPI's own pages would load scripts from a CDN under the strict policy;
        # add_docs_pages serves them with a policy of their own, when asked for.
        docs_url=None,
        redoc_url=None,
    )
    app.state.server = server
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.add_middleware(SecurityHeaders)  # added last: outside BodyLimit, so its 413 has them
    if docs:
        add_docs_pages(app)

    _error_handlers(app)
    _game_routes(app, server, answer_delay)
    _seat_routes(app, server)
    _record_routes(app, server, replay_unfinished)
    _advice_routes(app, server)
    _websocket_route(app, server)
    _static_routes(app)
    return app


def _decision_logger(path: str) -> Callable[[str, int], None]:
    """Appends ``pid game version`` per computer move about to be written (the multi-process
    tests check that each was decided by one process): the file is closed before the write,
    so every move in the database has its line, even if the process is killed then."""
    pid = os.getpid()

    def record(game_id: str, version: int) -> None:
        with open(path, "a", encoding="utf-8") as out:
            out.write(f"{pid} {game_id} {version}\n")

    return record


def _error_handlers(app: FastAPI) -> None:
    """Every refusal as the protocol's error object (docs/protocol.md, "Errors")."""

    @app.exception_handler(ServerError)
    async def _server_error(_request: Request, exc: ServerError) -> JSONResponse:
        headers = None if exc.retry_after is None else {"Retry-After": str(exc.retry_after)}
        return JSONResponse(exc.to_dict(), status_code=exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        body = {"error": "bad_request", "message": _validation_message(exc)}
        return JSONResponse(body, status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}.get(
            exc.status_code, "bad_request"
        )
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            # The client's files are mounted at /, so they answer every path a route does not
            # take whole: name the methods of the routes at this path, else the files' own.
            allowed = {
                m
                for r in app.routes
                if isinstance(r, Route) and r.path_regex.match(request.scope["path"])
                for m in (r.methods or ())
            }
            headers["Allow"] = ", ".join(sorted(allowed)) or headers.get("Allow", "GET, HEAD")
        body = {"error": code, "message": str(exc.detail)}
        return JSONResponse(body, exc.status_code, headers=headers)


def _game_routes(app: FastAPI, server: GameServer, answer_delay: float) -> None:
    """The REST routes that create, join, read and play games."""

    @app.get("/api/cards")
    async def card_list() -> dict[str, Any]:
        """The card catalogue of the server's new games: every card type (public)."""
        return {"cards": card_catalogue(server.cards)}

    @app.get("/api/levels")
    async def levels() -> dict[str, Any]:
        """The computer's levels with their published Elo ratings (``rebelspace ladder``)."""
        return level_ratings()

    @app.post("/api/games", status_code=201, response_model=Created, responses=REFUSALS)
    async def create_game(body: CreateGame, request: Request) -> dict[str, Any]:
        """Create a game. Hot-seat returns both seats' tokens; computer and online games the
        creator's seat only (online: `invite` is the link for the other seat). An online game
        takes no `seed` (the player who chose it could work out the other's cards). Each client
        address may create a limited number of games (429 `rate_limited`, `Retry-After`)."""
        server.check_rate("create", client_address(request))
        clock = None if body.clock is None else (body.clock.initial_s, body.clock.increment_s)
        spec = NewGame(body.mode, body.side, body.opponent, body.level, body.seed, clock)
        session, seats, invite = server.create(spec)
        return {
            "game_id": session.id,
            "mode": session.mode,
            "seats": [{"player": SEATS[p], "token": t} for p, t in seats],
            "invite": invite,
            "watch": f"/watch/{session.id}",
        }

    @app.post("/api/games/{game_id}/join", response_model=Seat, responses=REFUSALS)
    async def join_game(game_id: str, body: JoinGame) -> dict[str, Any]:
        """Take the open seat of an online game with its invite code."""
        seat, token = server.join(game_id, body.invite)
        return {"player": SEATS[seat], "token": token}

    @app.get("/api/games/{game_id}", responses=STATE)
    async def read_game(game_id: str, request: Request, since: SinceQuery) -> Response:
        """The state message: the seat's own view with its token, the public view without."""
        session = server.get(game_id)
        seat = session.authorize(bearer(request))
        server.check_flag(session)  # a flag down ends the game even if its timer is late
        return state_response(session, seat, since)

    @app.post("/api/games/{game_id}/actions", responses=STATE)
    async def act(game_id: str, body: ActionBody, request: Request, since: SinceQuery) -> Response:
        """Make the seat's decision; answers with the seat's new state message. The action is
        in the database before this answers."""
        session = server.get(game_id, writing_at=body.version)
        seat = session.require_seat(bearer(request))
        texts = server.act(session, seat, body.action, body.version)
        text = server.answer(session, seat, since, texts)
        if answer_delay:
            await asyncio.sleep(answer_delay)
        return Response(text, media_type="application/json")


def _seat_routes(app: FastAPI, server: GameServer) -> None:
    """What a seat's token does besides playing: undo, resign, claim, rematch, its games."""

    @app.post("/api/games/{game_id}/undo", responses=STATE)
    async def undo(
        game_id: str, request: Request, since: SinceQuery, body: UndoBody | None = None
    ) -> Response:
        """Take back the seat's last decision: at once against the computer, after the other
        player agrees in a two-person game (see docs/protocol.md for what cannot be undone)."""
        session = server.get(game_id)
        seat = session.require_seat(bearer(request))
        server.request_undo(session, seat, None if body is None else body.version)
        return state_response(session, seat, since)

    @app.post("/api/games/{game_id}/undo/answer", responses=STATE)
    async def undo_answer(
        game_id: str, body: UndoAnswer, request: Request, since: SinceQuery
    ) -> Response:
        """Accept or refuse the other player's undo request."""
        session = server.get(game_id)
        seat = session.require_seat(bearer(request))
        server.answer_undo(session, seat, body.accept, body.version)
        return state_response(session, seat, since)

    @app.post("/api/games/{game_id}/resign", responses=STATE)
    async def resign(
        game_id: str, body: EmptyBody, request: Request, since: SinceQuery
    ) -> Response:
        """Give up: the other side wins (`result.reason` "resign"), in every mode."""
        session = server.get(game_id)
        seat = session.require_seat(bearer(request))
        server.resign(session, seat, body.version)
        return state_response(session, seat, since)

    @app.post("/api/games/{game_id}/claim", responses=STATE)
    async def claim(game_id: str, body: EmptyBody, request: Request, since: SinceQuery) -> Response:
        """Claim the win against an online opponent gone long enough (`claim.available_in_ms`
        is 0); `result.reason` "abandoned"."""
        session = server.get(game_id)
        seat = session.require_seat(bearer(request))
        server.claim(session, seat, body.version)
        return state_response(session, seat, since)

    @app.post("/api/games/{game_id}/rematch", responses=STATE)
    async def rematch(
        game_id: str, body: RematchBody, request: Request, since: SinceQuery
    ) -> Response:
        """Offer, accept, withdraw or decline a rematch of a finished game: the new game has
        the sides swapped, and each token opens the other side's seat there."""
        session = server.get(game_id)
        seat = session.require_seat(bearer(request))
        server.rematch(session, seat, body.offer, body.version)
        return state_response(session, seat, since)

    @app.post("/api/games/mine", responses=REFUSALS)
    async def mine(body: MineBody) -> dict[str, Any]:
        """The games these seat tokens hold a seat of, newest activity first (unknown tokens
        are left out)."""
        return {"games": server.mine(body.tokens)}


def _record_routes(app: FastAPI, server: GameServer, replay_unfinished: bool) -> None:
    """A game's replay and record (finished games only, unless ``replay_unfinished``)."""
    replays: dict[str, bytes] = {}  # game id -> the finished game's replay, gzipped

    @app.get("/api/games/{game_id}/replay", responses=REFUSALS)
    async def replay(game_id: str, request: Request) -> Response:
        """A finished game from start to end with nothing hidden: one frame per action."""
        session = server.get(game_id)
        if not session.over and not replay_unfinished:
            raise ServerError(
                409,
                "conflict",
                "a replay is only shown once the game is over (it shows both hands)",
            )
        data = replays.get(game_id) if session.over else None
        if data is None:
            stored = server.store.load_game(game_id)
            assert stored is not None
            seats = state_message(session, None)["seats"]
            text = await asyncio.to_thread(replay_text, stored, session.result_json(), seats)
            data = gzip.compress(text.encode(), 6)
            if session.over:
                if len(replays) >= REPLAY_CACHE:
                    replays.pop(next(iter(replays)))
                replays[game_id] = data
        headers = {"Vary": "Accept-Encoding"}
        if "gzip" in request.headers.get("accept-encoding", ""):
            headers["Content-Encoding"] = "gzip"
            return Response(data, media_type="application/json", headers=headers)
        return Response(gzip.decompress(data), media_type="application/json", headers=headers)

    @app.get("/api/games/{game_id}/record", responses=REFUSALS)
    async def record(game_id: str) -> dict[str, Any]:
        """The engine's game record (`rebelspace replay` reads it), once the game is over."""
        session = server.get(game_id)
        if not session.over:
            raise ServerError(409, "conflict", "the record is kept secret until the game is over")
        return to_record(session.state)


def _advice_routes(app: FastAPI, server: GameServer) -> None:
    """Hints for the seat to move, analyses of finished games (server/advice.py)."""

    @app.get("/api/games/{game_id}/hint", responses=REFUSALS)
    async def hint(game_id: str, request: Request) -> dict[str, Any]:
        """What the computer would play for the seat of the token, whose decision it must be,
        and why: from that seat's view only."""
        session = server.get(game_id)
        seat = session.require_seat(bearer(request))
        return await server.advisor.hint(session, seat, client_address(request))

    @app.get("/api/games/{game_id}/analysis", responses=REFUSALS)
    async def analysis(
        game_id: str, request: Request, side: Literal["rebel", "imperial"] | None = None
    ) -> dict[str, Any]:
        """A finished game's analysis of one side's decisions (no token: as the replay)."""
        session = server.get(game_id)
        return await server.advisor.analysis(session, side, client_address(request))


def _websocket_route(app: FastAPI, server: GameServer) -> None:
    @app.websocket("/api/games/{game_id}/ws")
    async def websocket(ws: WebSocket, game_id: str, token: str | None = None) -> None:
        """A seat's (or a spectator's) live connection: the seat authenticates with its first
        message, ``{"type": "auth", "token": ...}``, so the token is never in a URL. The
        ``?token=`` form is still accepted from older clients (and never logged). A client
        that reconnects gives what it holds of the events, ``?since=N&since_version=V`` (or
        in its auth message), and is sent only the ones it is missing."""
        await ws.accept()
        try:
            server.check_rate("connect", client_address(ws))
            query = ws.query_params
            since = read_since(
                _query_int(query.get("since")), _query_int(query.get("since_version"))
            )
            session = server.get(game_id)
            seat = session.authorize(token)
        except ServerError as e:
            await ws.send_json({"type": "error", **e.to_dict()})
            await ws.close(code=4000 + e.status, reason=e.code)
            return
        # A spectator's stream is not a seat's: a ``since`` given with no ?token= is the
        # stream of the seat the auth message names, if one follows (auth repeats it).
        conn = server.connect(session, seat, since)
        writer = asyncio.create_task(_write(ws, conn))
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                _handle(server, game_id, conn, message)
        except WebSocketDisconnect:
            pass
        finally:
            server.disconnect(server.sessions.get(game_id) or session, conn)
            conn.close()
            writer.cancel()  # it may be stuck sending to a client that stopped reading
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer


def _query_int(text: str | None) -> object:
    """A query parameter as an int if it is one (else the text, for ``read_since`` to refuse)."""
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        return text


async def _sweeps(server: GameServer, every: float) -> None:
    """Remove long-idle unfinished games now and then (the first sweep right at start)."""
    while True:
        try:
            server.sweep()
        except Exception as e:  # a locked or full disk: try again next time
            log.warning("the sweep of idle games failed: %s", e)
        await asyncio.sleep(every)


async def _write(ws: WebSocket, conn: Connection) -> None:
    try:
        while True:
            text = await conn.outbox.get()
            if text is None:
                await ws.close(code=conn.close_code)
                return
            await ws.send_text(text)
    except Exception:  # the client went away: the reader notices and cleans up
        return


def _handle(server: GameServer, game_id: str, conn: Connection, message: Message) -> None:
    """One client message. Errors go back on the same connection, which stays open; nothing a
    client sends puts a traceback in the log."""
    try:
        _dispatch(server, game_id, conn, _read(message))
    except ServerError as e:
        log.info("game %s: a WebSocket message refused: %s", game_id[:80], e.code)
        conn.send({"type": "error", **e.to_dict()})
    except Exception as e:  # a bug: the client still gets an answer, the log one line
        log.warning("game %s: a WebSocket message failed: %s", game_id[:80], type(e).__name__)
        conn.send({"type": "error", "error": "bad_request", "message": "the message failed"})


def _read(message: Message) -> dict[str, Any]:
    """The JSON object of a text or binary (UTF-8) frame, or a ``bad_request``."""
    text = message.get("text")
    if text is None:
        try:
            text = (message.get("bytes") or b"").decode("utf-8")
        except UnicodeDecodeError:
            raise ServerError(400, "bad_request", "a binary message must be UTF-8 JSON") from None
    if len(text) > MAX_WS_MESSAGE:
        raise ServerError(413, "too_large", f"a message is at most {MAX_WS_MESSAGE} bytes")
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: brackets nested ~1,000 deep
        raise ServerError(400, "bad_request", "the message is not valid JSON") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise ServerError(400, "bad_request", 'a message is an object with a "type"')
    return msg


def _dispatch(server: GameServer, game_id: str, conn: Connection, msg: dict[str, Any]) -> None:
    kind = msg["type"]
    if kind == "ping":
        conn.send({"type": "pong"})
        return
    if kind not in ("auth", "action", "undo", "undo_answer"):
        raise ServerError(400, "bad_request", f"unknown message type {kind[:40]!r}")
    session = server.get(game_id, msg.get("version") if kind == "action" else None)
    if kind == "auth":
        since = read_since(msg.get("since"), msg.get("since_version"))
        _authenticate(server, session, conn, msg.get("token"), since)
        return
    if conn.seat is None:
        raise ServerError(403, "forbidden", "a spectator cannot act (authenticate first)")
    if kind == "action":
        if "action" not in msg:
            raise ServerError(400, "bad_request", 'an action message needs "action"')
        server.act(session, conn.seat, msg["action"], msg.get("version"))
    elif kind == "undo":
        server.request_undo(session, conn.seat, msg.get("version"))
    else:
        accept = msg.get("accept")
        if type(accept) is not bool:
            raise ServerError(400, "bad_request", '"accept" must be true or false')
        server.answer_undo(session, conn.seat, accept, msg.get("version"))


def _authenticate(
    server: GameServer, session: Session, conn: Connection, token: object, since: Since | None
) -> None:
    """An "auth" message: the connection takes the seat whose token it gives (its client
    holds ``since`` of the seat's events)."""
    if not isinstance(token, str) or not token or len(token) > 200:
        raise ServerError(400, "bad_request", '"token" must be a seat\'s token')
    if conn.seat is not None:
        raise ServerError(409, "conflict", "this connection already holds a seat")
    try:
        seat = session.authorize(token)
    except ServerError as e:  # as a wrong ?token=: refused, and the connection closed
        conn.send({"type": "error", **e.to_dict()})
        conn.close(4000 + e.status, drop=False)
        return
    assert seat is not None
    server.take_seat_on(session, conn, seat, since)


def client_address(conn: HTTPConnection) -> str:
    """The client's IP address, as the rate limits count it (behind a reverse proxy: run
    uvicorn with --proxy-headers so this is the real client's)."""
    return conn.client.host if conn.client is not None else "unknown"


def _static_routes(app: FastAPI) -> None:
    """The browser client (src/rebelspace/web), when it is there: its files at /, and its
    index page for the links the server hands out."""
    index = WEB_DIR / "index.html"

    async def page() -> Any:
        if index.is_file():
            return FileResponse(index)
        return HTMLResponse(
            "<!doctype html><title>Rebel Space</title><p>The Rebel Space server is running; "
            "the browser client is not installed. The API is described in docs/protocol.md "
            'and by its OpenAPI document, <a href="/openapi.json">/openapi.json</a>.</p>'
        )

    app.add_api_route("/", page, methods=["GET"], include_in_schema=False)
    for path in (
        "/join/{game_id}/{code}",
        "/watch/{game_id}",
        "/game/{game_id}",
        "/replay/{game_id}",
        "/cards",
        "/games",
        "/seat/{game_id}",  # the seat's token is in the fragment, which never reaches us
    ):
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)

    def rules() -> HTMLResponse:
        """The complete rules (docs/rules.md) as a page, in the client's style when it is here."""
        from rebelspace.rules_doc import RulesNotFoundError, rules_page

        style = "/style.css" if (WEB_DIR / "style.css").is_file() else None
        try:
            page = rules_page(style)
        except RulesNotFoundError:
            return HTMLResponse(
                "<!doctype html><title>Rebel Space rules</title><p>The rules document "
                "(docs/rules.md) is not installed with this server.</p>",
                status_code=404,
            )
        # The page's inline CSS is allowed by its hashes; otherwise the policy is the default.
        return HTMLResponse(page, headers={"Content-Security-Policy": page_policy(page)})

    app.add_api_route("/rules", rules, methods=["GET"], include_in_schema=False)
    if WEB_DIR.is_dir():
        app.mount("/", StaticFiles(directory=WEB_DIR, html=True), name="web")
