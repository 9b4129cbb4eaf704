"""``rebelspace loadtest``: many concurrent games against a running server, over real sockets.

Each game is created over REST; each human seat opens its own WebSocket and plays a random
legal action whenever the pushed state says it is its decision, sending it on the WebSocket or
by REST. The latency of an action is the time from sending it to receiving the state that
includes it (the WebSocket push, or the REST answer). Everything that goes wrong counts as an
error: an ``error`` message, a refused request, a dropped connection, or a game that makes no
progress for ``STALL_SECONDS``.

Against several processes on one PostgreSQL database (``--url`` with several URLs, comma
separated), game i is created on process i, its seats' WebSockets on processes i and i+1, and
a seat's REST actions go to the next process after its WebSocket's; the cross-process latency
of an update is from sending an action to one process to a WebSocket on another process
receiving the state that includes it (every client on one machine: one clock).

REST calls use a minimal HTTP/1.1 client, one keep-alive connection per seat: a general client
such as httpx costs the load generator ~3 ms of CPU per request, which on a small machine
would measure the load generator rather than the server.
"""

from __future__ import annotations

import asyncio
import json
import math
import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection

STALL_SECONDS = 30.0
KEEP_ALIVE = 20.0  # seconds idle before a new connection (serve keeps one open 30 s)


@dataclass
class Tally:
    latencies: dict[str, list[float]] = field(default_factory=lambda: {"ws": [], "rest": []})
    cross: list[float] = field(default_factory=list)  # an action to one process, seen at another
    state_bytes: list[float] = field(default_factory=list)  # each seat's state messages
    errors: list[str] = field(default_factory=list)
    games_finished: int = 0


Server = tuple[str, int]  # (host, port) of one server process


@dataclass(frozen=True)
class _Options:
    host: str
    port: int
    servers: tuple[Server, ...]
    budget: int  # human actions per game; 0: to the end
    think: float
    via: str
    ramp: float


@dataclass
class _Game:
    game_id: str
    budget: int  # human actions left; -1: play to the end
    done: asyncio.Event = field(default_factory=asyncio.Event)
    # Each human action sent: the version it was chosen at -> (when, to which process).
    sent: dict[int, tuple[float, int]] = field(default_factory=dict)


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by the nearest-rank method; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(q * len(ordered))))
    return ordered[rank - 1]


class Http:
    """One keep-alive HTTP/1.1 connection for JSON requests (what the load test needs only)."""

    def __init__(self, host: str, port: int, source: str | None = None) -> None:
        self.host, self.port = host, port
        self.source = source  # the local address to connect from (None: the system's choice)
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self._used = 0.0  # perf_counter() of the last answer

    async def request(
        self, method: str, path: str, body: object = None, token: str | None = None
    ) -> tuple[int, bytes]:
        if self._streams is not None and time.perf_counter() - self._used > KEEP_ALIVE:
            self.close()  # the server closes an idle keep-alive connection: don't race it
        if self._streams is None:
            self._streams = await asyncio.wait_for(
                asyncio.open_connection(
                    self.host,
                    self.port,
                    local_addr=None if self.source is None else (self.source, 0),
                ),
                STALL_SECONDS,
            )
        reader, writer = self._streams
        data = b"" if body is None else json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        )
        if token is not None:
            head += f"Authorization: Bearer {token}\r\n"
        writer.write(head.encode() + b"\r\n" + data)
        try:
            return await asyncio.wait_for(self._response(reader), STALL_SECONDS)
        except BaseException:
            self.close()
            raise
        finally:
            self._used = time.perf_counter()

    async def _response(self, reader: asyncio.StreamReader) -> tuple[int, bytes]:
        first = (await reader.readline()).split()
        if len(first) < 2:
            raise ConnectionError("the server closed the connection without an answer")
        status = int(first[1])
        length, chunked, close = 0, False, False
        while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            name, value = name.strip().lower(), value.strip().lower()
            if name == "content-length":
                length = int(value)
            elif name == "transfer-encoding" and "chunked" in value:
                chunked = True
            elif name == "connection" and value == "close":
                close = True
        if chunked:
            body = b""
            while size := int((await reader.readline()).strip(), 16):
                body += await reader.readexactly(size + 2)
                body = body[:-2]
            await reader.readline()
        else:
            body = await reader.readexactly(length)
        if close:
            self.close()
        return status, body

    def close(self) -> None:
        if self._streams is not None:
            self._streams[1].close()
            self._streams = None


async def _seat(
    where: int, token: str, game: _Game, rng: random.Random, opts: _Options, tally: Tally
) -> None:
    """One human seat, its WebSocket on process ``where``: the WebSocket tells it when to act;
    it acts on the WebSocket or by REST (``opts.via``; "both": each action picks one at
    random), REST to the next process (the same one if there is only one)."""
    from websockets.asyncio.client import connect

    rest = (where + 1) % len(opts.servers)
    http = Http(*opts.servers[rest])
    host, port = opts.servers[where]
    ws_url = f"ws://{host}:{port}/api/games/{game.game_id}/ws"
    async with connect(ws_url, max_size=8 * 2**20, open_timeout=STALL_SECONDS) as ws:
        await ws.send(json.dumps({"type": "auth", "token": token}))
        seat = _Seat(
            ws=ws, http=http, token=token, game=game, rng=rng, opts=opts, tally=tally,
            where=where, rest=rest,
        )  # fmt: skip
        await seat.run()
    http.close()


@dataclass
class _Seat:
    """A seat's connection, and where it stands: the version it last acted on, and when it
    sent a WebSocket action still waiting for its state."""

    ws: ClientConnection
    http: Http
    token: str
    game: _Game
    rng: random.Random
    opts: _Options
    tally: Tally
    acted: int = -1
    sent_at: float | None = None
    held: tuple[int, int] | None = None  # the seat's events held: (count, version), as a client
    where: int = 0  # the process of the WebSocket
    rest: int = 0  # the process of REST actions
    seen: int = 0  # the latest version this WebSocket was sent

    async def run(self) -> None:
        game = self.game
        while not game.done.is_set():
            try:
                text = await asyncio.wait_for(self.ws.recv(), STALL_SECONDS)
            except TimeoutError:
                if game.done.is_set():
                    break
                raise
            msg = json.loads(text)
            if msg.get("type") == "state" and msg.get("seat") is not None:
                self.tally.state_bytes.append(float(len(text)))
                self.held = (msg["events_from"] + len(msg["events"]), msg["version"])
            if not await self._on_message(msg):
                break

    async def _on_message(self, msg: dict[str, Any]) -> bool:
        """Read one message, acting if it asks this seat to; False once the seat is done."""
        kind = msg.get("type")
        if kind == "error":
            self.tally.errors.append(f"{msg.get('error')}: {msg.get('message')}")
            self.sent_at = None
            return True
        if kind != "state":
            return True
        version = msg["version"]
        now = time.perf_counter()
        for chosen in range(self.seen, version):  # the actions this message is the news of
            sent = self.game.sent.get(chosen)
            if sent is not None and sent[1] != self.where:
                self.tally.cross.append(now - sent[0])
        self.seen = max(self.seen, version)
        if self.sent_at is not None and version > self.acted:
            self.tally.latencies["ws"].append(time.perf_counter() - self.sent_at)
            self.sent_at = None
        if msg["over"]:
            if not self.game.done.is_set():
                self.tally.games_finished += 1
            self.game.done.set()
            return False
        if self.sent_at is None and msg["legal"] and version > self.acted:
            return await self._act(msg["legal"], version)
        return True

    async def _act(self, legal: list[dict[str, Any]], version: int) -> bool:
        """Play a random legal action; False when the game's action budget is spent."""
        game, opts, rng = self.game, self.opts, self.rng
        if game.budget == 0:
            game.done.set()
            return False
        if game.budget > 0:
            game.budget -= 1
        if opts.think:
            await asyncio.sleep(opts.think * (0.5 + rng.random()))
        choice = rng.choice(legal)["id"]
        self.acted = version
        via = opts.via if opts.via != "both" else rng.choice(("ws", "rest"))
        started = time.perf_counter()
        game.sent[version] = (started, self.where if via == "ws" else self.rest)
        if via == "ws":
            self.sent_at = started
            action = {"type": "action", "action": choice, "version": version}
            await self.ws.send(json.dumps(action))
            return True
        path = f"/api/games/{game.game_id}/actions"
        if self.held is not None:  # the answer then carries only the events it lacks
            path += f"?since={self.held[0]}&since_version={self.held[1]}"
        request = {"action": choice, "version": version}
        status, body = await self.http.request("POST", path, request, self.token)
        if status != 200:
            self.tally.errors.append(f"REST action: HTTP {status} {body[:200]!r}")
            return True
        self.tally.latencies["rest"].append(time.perf_counter() - started)
        return True


async def _play(mode: str, index: int, seed: int, opts: _Options, tally: Tally) -> None:
    """Game ``index``: created on process index, its seats' WebSockets on index and index+1."""
    rng = random.Random(seed)
    home = index % len(opts.servers)
    # Players arrive over the ramp-up time, not all in the same millisecond.
    await asyncio.sleep(opts.ramp * rng.random())
    body: dict[str, Any] = {"mode": mode, "side": "random"}
    if mode == "computer":
        body["opponent"] = "random"
    http = Http(*opts.servers[home])
    try:
        status, answer = await http.request("POST", "/api/games", body)
    finally:
        http.close()
    if status != 201:
        raise RuntimeError(f"creating a game: HTTP {status} {answer[:200]!r}")
    created = json.loads(answer)
    gid = created["game_id"]
    game = _Game(gid, opts.budget if opts.budget > 0 else -1)
    seats = [
        asyncio.create_task(
            _seat(
                (home + k) % len(opts.servers),
                s["token"],
                game,
                random.Random(rng.getrandbits(63)),
                opts,
                tally,
            )
        )
        for k, s in enumerate(created["seats"])
    ]
    stop = asyncio.create_task(game.done.wait())
    try:
        # Until the game is done, or a seat fails (its exception is raised here).
        pending: set[asyncio.Future[Any]] = {stop, *seats}
        while not game.done.is_set() and len(pending) > 1:
            finished, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            for task in finished:
                if task is not stop:
                    task.result()
    finally:
        for task in (stop, *seats):
            task.cancel()
        await asyncio.gather(stop, *seats, return_exceptions=True)


async def run_loadtest(
    url: str,
    *,
    games: int,
    actions: int,
    mode: str,
    think: float,
    seed: int,
    via: str = "both",
    ramp: float = 2.0,
    flood: int = 0,
) -> dict[str, Any]:
    """Play the games and return the figures (errors, latency percentiles in ms, counts).
    ``flood``: that many connections meanwhile create games as fast as the server answers,
    from another local address when the server is on 127.0.0.1 (127.0.0.2: the rate limits
    count per address, so the players are not limited by the flood's count)."""
    servers = []
    for one_url in url.split(","):
        parts = urlsplit(one_url.strip())
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError(f"--url must be http://HOST:PORT[,http://HOST:PORT...], got {url!r}")
        servers.append((parts.hostname, parts.port or 80))
    host, port = servers[0]
    opts = _Options(host, port, tuple(servers), actions, think, via, ramp)
    tally = Tally()
    started = time.perf_counter()

    async def one(i: int) -> None:
        kind = mode if mode != "mixed" else ("hotseat", "computer")[i % 2]
        try:
            await _play(kind, i, seed * 1_000_003 + i, opts, tally)
        except Exception as e:  # every failure is counted, none stops the run
            tally.errors.append(f"game {i}: {type(e).__name__}: {e}")

    flooding = _Flood(opts, "127.0.0.2" if opts.host == "127.0.0.1" else None)
    flooders = [asyncio.create_task(flooding.run()) for _ in range(flood)]
    await asyncio.gather(*(one(i) for i in range(games)))
    seconds = time.perf_counter() - started
    flooding.stopped = True
    for task in flooders:
        task.cancel()
    await asyncio.gather(*flooders, return_exceptions=True)
    both = tally.latencies["ws"] + tally.latencies["rest"]
    result: dict[str, Any] = {
        "games": games,
        "mode": mode,
        "think_seconds": think,
        "ramp_seconds": ramp,
        "errors": len(tally.errors),
        "first_errors": tally.errors[:5],
        "actions": len(both),
        "games_finished": tally.games_finished,
        "seconds": round(seconds, 2),
        "actions_per_second": round(len(both) / seconds, 1) if seconds else 0.0,
        "p50_ms": _ms(percentile(both, 0.50)),
        "p95_ms": _ms(percentile(both, 0.95)),
        "max_ms": _ms(max(both, default=0.0)),
        # The seats' pushed state messages (events since the previous one, issue 33).
        "state_bytes_p50": percentile(tally.state_bytes, 0.50),
        "state_bytes_p95": percentile(tally.state_bytes, 0.95),
        "state_bytes_max": max(tally.state_bytes, default=0.0),
        "processes": len(servers),
    }
    if tally.cross:  # several processes: an action sent to one, its state pushed by another
        result.update(
            cross_process_updates=len(tally.cross),
            cross_process_p50_ms=_ms(percentile(tally.cross, 0.50)),
            cross_process_p95_ms=_ms(percentile(tally.cross, 0.95)),
        )
    if flood:
        result.update(
            flood_connections=flood,
            flood_requests=flooding.requests,
            flood_created=flooding.created,
            flood_refused=flooding.refused,
            flood_requests_per_second=round(flooding.requests / seconds, 1),
        )
    for via_name, values in tally.latencies.items():
        if values:
            result[f"{via_name}_actions"] = len(values)
            result[f"{via_name}_p50_ms"] = _ms(percentile(values, 0.50))
            result[f"{via_name}_p95_ms"] = _ms(percentile(values, 0.95))
    return result


class _Flood:
    """Clients that create hot-seat games as fast as the server answers, and count answers."""

    def __init__(self, opts: _Options, source: str | None) -> None:
        self.opts, self.source = opts, source
        self.requests = self.created = self.refused = 0
        # Checked as well as cancelling the tasks: Python 3.11's wait_for can swallow a
        # cancellation that arrives just as its request completes, which a loop this fast hits.
        self.stopped = False

    async def run(self) -> None:
        http = Http(self.opts.host, self.opts.port, self.source)
        try:
            while not self.stopped:
                status, _ = await http.request("POST", "/api/games", {"mode": "hotseat"})
                self.requests += 1
                self.created += status == 201
                self.refused += status == 429
        finally:
            http.close()


def _ms(seconds: float) -> float:
    return round(1000 * seconds, 2)
