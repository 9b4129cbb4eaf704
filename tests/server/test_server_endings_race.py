"""Resign, rematch and actions racing on a real server (real HTTP, concurrent requests): each
names the version it was chosen at, so exactly one of those sent at one version applies, and the
database agrees with what the server answered."""

from __future__ import annotations

import sqlite3
import threading
from functools import partial
from typing import Any

from tests.server.server_helpers import tokens
from tests.server.server_process import HTTP, ServerProcess


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def at_once(*calls: Any) -> list[Any]:
    """Run the calls in threads released together; their answers in order."""
    barrier = threading.Barrier(len(calls))
    out: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        out[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return out


def test_an_action_and_a_resign_at_one_version_apply_exactly_one(server: ServerProcess) -> None:
    for round_ in range(6):
        created = HTTP.post(f"{server.url}/api/games", json={"mode": "hotseat", "seed": round_})
        gid, toks = created.json()["game_id"], tokens(created.json())
        url = f"{server.url}/api/games/{gid}"
        msg = HTTP.get(url, headers=bearer(toks["rebel"])).json()
        v = msg["version"]
        action = {"action": msg["legal"][0]["id"], "version": v}
        act, resign = at_once(
            partial(HTTP.post, f"{url}/actions", json=action, headers=bearer(toks["rebel"])),
            partial(
                HTTP.post, f"{url}/resign", json={"version": v}, headers=bearer(toks["imperial"])
            ),
        )
        assert sorted((act.status_code, resign.status_code)) == [200, 409], (act.text, resign.text)
        loser = act if act.status_code == 409 else resign
        assert loser.json()["error"] == "stale"
        final = HTTP.get(url).json()
        assert final["version"] == v + 1
        resigned = resign.status_code == 200
        assert (final["result"] is not None) == resigned and final["plies"] == (
            0 if resigned else 1
        )
        with sqlite3.connect(server.db) as db:
            (stored, reason) = db.execute(
                "SELECT version, reason FROM games WHERE id = ?", (gid,)
            ).fetchone()
        assert stored == v + 1 and (reason == "resign") == resigned


def test_both_seats_accepting_a_rematch_at_once_make_one_game(server: ServerProcess) -> None:
    created = HTTP.post(f"{server.url}/api/games", json={"mode": "online"}).json()
    gid = created["game_id"]
    code = created["invite"].rsplit("/", 1)[1]
    imperial = HTTP.post(f"{server.url}/api/games/{gid}/join", json={"invite": code}).json()
    heads = {
        "rebel": {"Authorization": f"Bearer {created['seats'][0]['token']}"},
        "imperial": {"Authorization": f"Bearer {imperial['token']}"},
    }
    url = f"{server.url}/api/games/{gid}"
    assert HTTP.post(f"{url}/resign", json={}, headers=heads["rebel"]).status_code == 200
    answers = at_once(
        *(
            partial(HTTP.post, f"{url}/rematch", json={"offer": True}, headers=h)
            for h in (heads["rebel"], heads["imperial"], heads["rebel"], heads["imperial"])
        )
    )
    assert all(a.status_code == 200 for a in answers), [a.text for a in answers]
    final = HTTP.get(url).json()["rematch"]
    assert final["game_id"] and final["offered_by"] is None
    with sqlite3.connect(server.db) as db:
        (games,) = db.execute("SELECT COUNT(*) FROM games").fetchone()
    assert games == 2
