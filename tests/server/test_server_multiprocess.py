"""Several server processes on one PostgreSQL database (issue 33), for real: the test starts
PostgreSQL, three `rebelspace serve` processes on it, and plays concurrent games whose two seats
and a spectator each talk to a different process (online, hot-seat and computer games). Mid-game
one process is killed with SIGKILL; its clients reconnect to another process with what they
hold of the events, as behind a load balancer. Then: no acknowledged action is lost, every
client saw every move in order (each message checked against the game's own views, so no hidden
card reached anyone), and each computer move was decided by one process only (the killed one's
last decision may be taken over once)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from websockets.asyncio.client import ClientConnection

from tests.server import postgres
from tests.server.server_helpers import HeldView, check_state_message, expected_events
from tests.server.server_process import ServerProcess

QUIET = 120.0  # seconds a client may hear nothing before the test fails (a loaded machine)
KILL_AFTER = 60  # acknowledged actions over all games before one process is killed
MAX_PLIES = 160  # per game: enough for the kill to fall mid-game, short enough for 2 cores


@dataclass
class Client:
    """One WebSocket client of one game: a seat (token) or a spectator (no token)."""

    name: str
    game_id: str
    seat: str | None
    token: str | None
    home: int  # the process it talks to first
    messages: list[dict[str, Any]] = field(default_factory=list)
    held: list[dict[str, Any]] = field(default_factory=list)  # the events it holds
    version: int = -1
    acked: list[tuple[int, int, str | None]] = field(default_factory=list)  # (version, id, seat)
    reconnects: int = 0
    before_auth: list[dict[str, Any]] = field(default_factory=list)  # a seat's, as a spectator


@dataclass
class World:
    procs: list[ServerProcess]
    kill_after: int = KILL_AFTER
    max_plies: int = MAX_PLIES  # 0: play every game to its end
    dead: set[int] = field(default_factory=set)
    acked: int = 0
    killed: asyncio.Event = field(default_factory=asyncio.Event)

    def alive(self, start: int) -> int:
        """The first live process from ``start`` on (a load balancer skipping a dead one)."""
        for i in range(len(self.procs)):
            index = (start + i) % len(self.procs)
            if index not in self.dead:
                return index
        raise AssertionError("no process alive")


def ws_url(proc: ServerProcess, client: Client) -> str:
    url = proc.url.replace("http://", "ws://") + f"/api/games/{client.game_id}/ws"
    if client.seat is None and client.held:  # a spectator's since goes in the query
        url += f"?since={len(client.held)}&since_version={client.version}"
    return url


def fold(client: Client, msg: dict[str, Any]) -> None:
    """Take a state message: versions never go back, events carry on from what it holds."""
    assert msg["version"] >= client.version, (client.name, msg["version"], client.version)
    start = msg["events_from"]
    assert start <= len(client.held), (client.name, start, len(client.held))
    if msg["version"] == client.version:
        assert not msg["events"] or start + len(msg["events"]) == len(client.held)
    client.held = client.held[:start] + msg["events"]
    client.version = msg["version"]
    client.messages.append(msg)


async def act(
    world: World, http: httpx.AsyncClient, client: Client, msg: dict[str, Any], rng: random.Random
) -> None:
    """The seat's decision by REST to the process it is connected to; acknowledged only by a
    200 answer (a killed process's refused connection is no acknowledgement)."""
    assert client.token is not None
    action = rng.choice(msg["legal"])
    proc = world.procs[world.alive(client.home)]
    try:
        r = await http.post(
            f"{proc.url}/api/games/{client.game_id}/actions",
            json={"action": action["id"], "version": msg["version"]},
            headers={"Authorization": f"Bearer {client.token}"},
        )
    except httpx.TransportError:
        return  # the process died: the next state says whether it was written
    if r.status_code == 200:
        client.acked.append((r.json()["version"], action["id"], client.seat))
        world.acked += 1
    else:  # another seat's or process's change got there first: a newer state follows
        assert r.status_code == 409, r.text


async def run_client(
    world: World, http: httpx.AsyncClient, client: Client, rng: random.Random
) -> None:
    """Connect, keep every state message, act on the seat's turns, and reconnect to the next
    live process whenever the connection drops, until the game is over (or long enough)."""
    while True:
        index = world.alive(client.home)
        client.home = index
        try:
            async with websockets.connect(ws_url(world.procs[index], client)) as ws:
                if client.token is not None:
                    auth: dict[str, Any] = {"type": "auth", "token": client.token}
                    if client.held:
                        auth |= {"since": len(client.held), "since_version": client.version}
                    await ws.send(json.dumps(auth))
                if await follow(world, http, client, ws, rng):
                    return
        except (OSError, websockets.ConnectionClosed, websockets.InvalidHandshake):
            pass
        client.reconnects += 1
        assert client.reconnects < 50, f"{client.name} cannot stay connected"
        await asyncio.sleep(0.2)


async def follow(
    world: World,
    http: httpx.AsyncClient,
    client: Client,
    ws: ClientConnection,
    rng: random.Random,
) -> bool:
    """The messages of one connection; True once the game is over (or long enough)."""
    acted = -1
    held = HeldView()  # a connection's first state message is whole, later ones what changed
    while True:
        text = await asyncio.wait_for(ws.recv(), QUIET)
        msg = held.whole(json.loads(text))
        assert msg["type"] != "error", (client.name, msg)
        if msg["type"] != "state":
            continue
        if msg["seat"] != client.seat:  # before the auth message: the spectator's stream
            client.before_auth.append(msg)
            continue
        fold(client, msg)
        if msg["over"] or 0 < world.max_plies <= msg["plies"]:
            return True
        mine = client.seat is not None and msg["view"]["to_move"] == client.seat
        if mine and msg["legal"] and msg["version"] > acted:
            acted = msg["version"]
            await act(world, http, client, msg, rng)


async def killer(world: World, victim: int) -> None:
    while world.acked < world.kill_after:
        await asyncio.sleep(0.05)
    world.dead.add(victim)
    await asyncio.to_thread(world.procs[victim].kill)
    world.killed.set()


async def play(world: World, clients: list[Client], victim: int) -> None:
    rng = random.Random(7)
    async with httpx.AsyncClient(timeout=60) as http:
        kill = asyncio.create_task(killer(world, victim))
        seeds = [rng.randrange(2**32) for _ in clients]
        await asyncio.gather(
            *(
                run_client(world, http, c, random.Random(s))
                for c, s in zip(clients, seeds, strict=True)
            )
        )
        assert world.killed.is_set(), "the games ended before the kill: raise MAX_PLIES"
        await kill


def create_games(procs: list[ServerProcess]) -> list[Client]:
    """Online, hot-seat and computer games; each game's seats and spectator on different
    processes (game i: first seat on process i mod 3, the next on i+1, the spectator on i+2)."""
    http = httpx.Client(timeout=60)
    clients: list[Client] = []
    specs: list[dict[str, Any]] = [
        {"mode": "online"},
        {"mode": "online"},
        {"mode": "hotseat"},
        {"mode": "computer", "opponent": "heuristic", "side": "imperial"},
        {"mode": "computer", "opponent": "random"},
    ]
    for i, spec in enumerate(specs):
        first, second = procs[i % 3], procs[(i + 1) % 3]
        r = http.post(f"{first.url}/api/games", json=spec)
        assert r.status_code == 201, r.text
        created = r.json()
        gid = created["game_id"]
        seats = [(s["player"], s["token"]) for s in created["seats"]]
        if spec["mode"] == "online":
            code = created["invite"].rsplit("/", 1)[1]
            joined = http.post(f"{second.url}/api/games/{gid}/join", json={"invite": code})
            assert joined.status_code == 200, joined.text
            seats.append((joined.json()["player"], joined.json()["token"]))
        for k, (seat, token) in enumerate(seats):
            clients.append(Client(f"{gid}/{seat}", gid, seat, token, (i + k) % 3))
        clients.append(Client(f"{gid}/spectator", gid, None, None, (i + 2) % 3))
        if spec["mode"] == "computer":  # a second spectator: a third process holds the game
            clients.append(Client(f"{gid}/spectator2", gid, None, None, (i + 1) % 3))
    http.close()
    assert {c.home for c in clients if c.game_id == clients[0].game_id} == {0, 1, 2}
    return clients


@pytest.mark.slow
def test_three_processes_on_postgresql_lose_nothing_when_one_is_killed(
    pg_cluster: postgres.Cluster, tmp_path: Path
) -> None:
    url = pg_cluster.new_database()
    decisions = tmp_path / "decisions.log"
    extra = ["--workers", "1", "--test-decision-log", str(decisions)]
    procs = [ServerProcess(url, tmp_path / f"serve{i}.log", extra) for i in range(3)]
    with contextlib.ExitStack() as stack:
        for proc in procs:
            stack.enter_context(proc)
        clients = create_games(procs)
        victim = 1
        pids = {i: p.proc.pid for i, p in enumerate(procs) if p.proc is not None}
        world = World(procs)
        asyncio.run(asyncio.wait_for(play(world, clients, victim), 1800))
        stored = read_actions(url)
    assert any(c.reconnects for c in clients), "nobody was on the killed process"
    check_acknowledged(clients, stored)
    check_streams(clients, stored)
    check_computer_moves(clients, stored, decisions, killed=pids[victim])


def read_actions(url: str) -> dict[str, dict[str, Any]]:
    """Each game's seed, rules, cards, computer seat and applied actions, from the database."""
    import psycopg

    out: dict[str, dict[str, Any]] = {}
    with psycopg.connect(url) as conn:
        for gid, seed, rules, cards, computer, version in conn.execute(
            "SELECT g.id, g.seed, g.rules, c.cards, g.computer_seat, g.version"
            " FROM games g JOIN cardlists c ON c.hash = g.cards"
        ).fetchall():
            actions = conn.execute(
                "SELECT action, seat FROM actions WHERE game_id = %s ORDER BY ply", (gid,)
            ).fetchall()
            out[gid] = {
                "seed": seed,
                "rules": json.loads(rules),
                "cards": cards,
                "computer_seat": computer,
                "version": version,
                "actions": [(a, s) for a, s in actions],
            }
    return out


def count_acknowledged(
    clients: list[Client], stored: dict[str, dict[str, Any]]
) -> tuple[int, list[str]]:
    """The actions answered 200, and those of them not in the database at the place their
    answer said (lost)."""
    total, lost = 0, []
    for c in clients:
        actions = stored[c.game_id]["actions"]
        for version, action, seat in c.acked:
            total += 1
            played = (action, ("rebel", "imperial").index(seat or ""))
            # No undo in these games: an action answered with version v is ply v - 1.
            if version > len(actions) or actions[version - 1] != played:
                lost.append(f"{c.name} version {version}")
    return total, lost


def check_acknowledged(clients: list[Client], stored: dict[str, dict[str, Any]]) -> None:
    """Every action answered 200 is in the database at the place its answer said."""
    total, lost = count_acknowledged(clients, stored)
    assert not lost, lost
    assert total >= KILL_AFTER


def game_states(game: dict[str, Any]) -> list[Any]:
    """The game after each number of plies, rebuilt from the stored actions by the engine."""
    from rebelspace.engine import RulesOptions, new_game
    from rebelspace.server.games import cards_from_text

    state = new_game(
        game["seed"],
        options=RulesOptions.from_dict(game["rules"]),
        cards=cards_from_text(game["cards"]),
    )
    out = [state.clone(keep_log=True)]
    for action, seat in game["actions"]:
        state.apply(action, player=seat)
        out.append(state.clone(keep_log=True))
    return out


def check_streams(clients: list[Client], stored: dict[str, dict[str, Any]]) -> None:
    """Each client's messages: each one exactly what its seat may see at its ply (no hidden
    card: the view and the events recomputed from the game), and together every event of its
    seat's stream, in order, none missing (held == the stream at the last message's ply)."""
    games = {gid: game_states(g) for gid, g in stored.items()}
    streams = {  # each seat's whole stream, converted once (no undo: each ply's is a prefix)
        gid: {seat: expected_events(states[-1], seat) for seat in ("rebel", "imperial", None)}
        for gid, states in games.items()
    }
    for c in clients:
        states = games[c.game_id]
        assert c.messages, c.name
        plies = [m["plies"] for m in c.messages]
        assert plies == sorted(plies), c.name  # in order
        for msg in c.messages + c.before_auth:
            check_state_message(msg, states, streams[c.game_id])
        last = c.messages[-1]
        assert c.held == expected_events(states[last["plies"]], c.seat), c.name


def count_computer_moves(
    clients: list[Client], stored: dict[str, dict[str, Any]], decisions: Path, killed: int
) -> tuple[int, list[str], list[str]]:
    """The computer moves in the database, those with no decision logged (missing) and those
    decided by two live processes (twice: only the killed process's last decision may be
    decided once more, by the process taking over)."""
    deciders: dict[tuple[str, int], list[int]] = {}
    for line in decisions.read_text().splitlines():
        pid, gid, version = line.split()
        deciders.setdefault((gid, int(version)), []).append(int(pid))
    moves, missing, twice = 0, [], []
    for gid in {c.game_id for c in clients}:
        game = stored[gid]
        seat = game["computer_seat"]
        if seat is None:
            continue
        for ply, (_action, who) in enumerate(game["actions"]):
            if who != seat:
                continue
            moves += 1
            pids = deciders.get((gid, ply), [])  # no undo: version == ply before the move
            if not pids:
                missing.append(f"{gid} ply {ply}")
            if len([p for p in pids if p != killed]) > 1:
                twice.append(f"{gid} ply {ply}: {pids}")
    return moves, missing, twice


def check_computer_moves(
    clients: list[Client], stored: dict[str, dict[str, Any]], decisions: Path, killed: int
) -> None:
    """Each computer move in the database was decided by exactly one live process."""
    moves, missing, twice = count_computer_moves(clients, stored, decisions, killed)
    assert not missing and not twice, (missing, twice)
    assert moves > 10


def test_a_claim_counts_the_opponent_connected_to_another_process(
    pg_cluster: postgres.Cluster, tmp_path: Path
) -> None:
    """Presence is shared: with the Rebel's WebSocket open on process A, the Imperial on
    process B sees the Rebel connected and cannot claim the win, however long it waits; once
    A is killed, the claim becomes available on B (claim_after after A's last heartbeat)."""
    from websockets.sync.client import connect

    url = pg_cluster.new_database()
    extra = ["--claim-after", "1"]
    a = ServerProcess(url, tmp_path / "a.log", extra)
    b = ServerProcess(url, tmp_path / "b.log", extra)
    http = httpx.Client(timeout=60)
    with a, b:
        created = http.post(f"{a.url}/api/games", json={"mode": "online"}).json()
        gid = created["game_id"]
        rebel = created["seats"][0]["token"]
        code = created["invite"].rsplit("/", 1)[1]
        imperial = http.post(f"{b.url}/api/games/{gid}/join", json={"invite": code}).json()
        bearer = {"Authorization": f"Bearer {imperial['token']}"}
        with connect(a.url.replace("http://", "ws://") + f"/api/games/{gid}/ws") as ws:
            ws.send(json.dumps({"type": "auth", "token": rebel}))
            for _ in range(600):  # the news of the connection reaches B
                msg = http.get(f"{b.url}/api/games/{gid}", headers=bearer).json()
                if msg["seats"]["rebel"]["connected"]:
                    break
                time.sleep(0.1)
            assert msg["seats"]["rebel"]["connected"] and msg["claim"] is None, msg
            time.sleep(2)  # longer than --claim-after: only presence elsewhere stops the claim now
            r = http.post(f"{b.url}/api/games/{gid}/claim", json={}, headers=bearer)
            assert r.status_code == 409 and r.json()["error"] == "conflict", r.text
            a.kill()
            for _ in range(1200):
                r = http.post(f"{b.url}/api/games/{gid}/claim", json={}, headers=bearer)
                if r.status_code == 200:
                    break
                time.sleep(0.1)
            assert r.status_code == 200, r.text
            assert r.json()["result"] == {"winner": "imperial", "reason": "abandoned"}
    http.close()
