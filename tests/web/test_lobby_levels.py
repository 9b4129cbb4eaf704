"""The lobby describes each computer level with its measured strength (issue 31), read from
the published ladder (src/rebelspace/data/ladder.json through GET /api/levels), never from
numbers written in the page; experimental levels say so. The list fits a phone's width."""

from __future__ import annotations

from typing import Any

import pytest

from rebelspace.play.ratings import level_ratings, level_records, published
from tests.server.server_process import ServerProcess
from tests.web.web_pages import api, open_page

SIZES = [(1280, 800), (390, 844)]


def _pair(a: str, b: str, a_wins: int) -> dict[str, Any]:
    return {"a": a, "b": b, "games": 20, "a_wins": a_wins}


def test_each_levels_record_is_read_from_the_ladders_pairs_either_way_round() -> None:
    table = {
        "anchor": {"level": "heuristic"},
        "ratings": [{"level": x, "agent": x} for x in ("random", "heuristic", "normal", "hard")],
        "pairs": [
            _pair("random", "heuristic", 1),
            _pair("heuristic", "normal", 3),
            _pair("normal", "hard", 8),
            _pair("heuristic", "hard", 5),
        ],
    }
    records = {r["level"]: r for r in level_records(table)}
    # The anchor's own record is against the weakest level; every other level's against it.
    assert [(a["level"], a["wins"]) for a in records["heuristic"]["against"]] == [("random", 19)]
    assert [(a["level"], a["wins"]) for a in records["random"]["against"]] == [("heuristic", 1)]
    assert [(a["level"], a["wins"]) for a in records["normal"]["against"]] == [("heuristic", 17)]
    # An experimental level: against the anchor and against normal, and marked.
    assert records["hard"]["experimental"] and not records["normal"]["experimental"]
    assert [(a["level"], a["wins"]) for a in records["hard"]["against"]] == [
        ("heuristic", 15),
        ("normal", 12),
    ]
    low, high = records["normal"]["against"][0]["ci95"]
    assert low < 17 / 20 < high


def test_the_shipped_ladder_gives_every_level_a_record() -> None:
    data = published()
    assert data is not None
    records = level_ratings()["records"]
    assert {r["level"] for r in records} == {r["level"] for r in data["table"]["ratings"]}
    assert all(a["games"] == data["table"]["games_per_pair"] for r in records for a in r["against"])


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_lobby_says_how_strong_each_level_measured(
    server: ServerProcess, browser: Any, size: tuple[int, int]
) -> None:
    errors: list[str] = []
    page = open_page(browser, server.url, errors, viewport=size)
    page.wait_for_selector("#level-strength:not(:empty)")
    answer = api(server, "GET", "/api/levels")
    records = {r["agent"]: r for r in answer["records"]}
    values = page.eval_on_selector_all("#opponent option", "els => els.map((e) => e.value)")
    assert set(values) <= set(records)
    for value in values:
        page.select_option("#opponent", value)
        said = page.inner_text("#level-strength")
        record = records[value]
        for a in record["against"]:
            low, high = (round(x * 100) for x in a["ci95"])
            assert f"{a['wins']} of {a['games']} games against" in said, (value, said)
            assert f"{low}%–{high}%" in said, (value, said)
        assert ("Experimental" in said) == record["experimental"], (value, said)
        if record["experimental"]:
            assert "not shown stronger than Normal" in said
    # The list of levels stays inside its panel (it was cut at the right on a phone).
    inside = page.evaluate(
        """() => { const s = document.getElementById('opponent').getBoundingClientRect();
        const p = document.getElementById('opponent').closest('.panel').getBoundingClientRect();
        return s.left >= p.left && s.right <= p.right && s.right <= window.innerWidth; }"""
    )
    assert inside
    assert errors == []
