"""The hint button at the table and the analysis on the replay page (issue 17), in headless
Chromium against a real server."""

from __future__ import annotations

from typing import Any

from tests.server.server_process import ServerProcess
from tests.web.axe import assert_accessible
from tests.web.web_harness import computer_game_page
from tests.web.web_pages import api, open_page


def test_the_hint_button_highlights_the_recommended_move(
    server: ServerProcess, browser: Any
) -> None:
    errors: list[str] = []
    page = computer_game_page(browser, server.url, errors)
    # Keyboard: the button is reached and pressed like any other.
    page.focus("#hint-button")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hint.hint-ready")
    line = page.inner_text("#hint")
    assert line.startswith("Hint: ") and "Race: your deck lasts about" in line
    hinted = page.locator("#all-actions [data-action-id].hinted")
    assert hinted.count() == 1
    # The highlighted choice is the one the line names, and it is one of the legal actions.
    text = hinted.inner_text()
    assert line.startswith(f"Hint: {text}")
    assert page.get_attribute("#hint-button", "aria-controls") == "hint"
    assert_accessible(page, "the table with a hint shown")
    # Playing a move makes the hint stale: it is gone at the next decision.
    hinted.click()
    page.wait_for_function("() => !document.querySelector('#hint.hint-ready')")
    assert page.locator(".hinted").count() == 0
    assert errors == []


def test_the_replay_lists_the_worst_moves_and_jumps_to_them(
    server: ServerProcess, browser: Any
) -> None:
    """A short hot-seat game (the Rebel always plays its last choice, the Imperial its first),
    resigned, analysed on the replay page."""
    errors: list[str] = []
    created = api(server, "POST", "/api/games", body={"mode": "hotseat", "seed": 3})
    game_id = created["game_id"]
    seat = {s["player"]: s["token"] for s in created["seats"]}
    for _ in range(60):
        mover = api(server, "GET", f"/api/games/{game_id}", token=seat["rebel"])["view"]["to_move"]
        msg = api(server, "GET", f"/api/games/{game_id}", token=seat[mover])
        choice = msg["legal"][-1 if mover == "rebel" else 0]["id"]
        body = {"action": choice, "version": msg["version"]}
        api(server, "POST", f"/api/games/{game_id}/actions", token=seat[mover], body=body)
    version = api(server, "GET", f"/api/games/{game_id}", token=seat["rebel"])["version"]
    api(
        server,
        "POST",
        f"/api/games/{game_id}/resign",
        token=seat["rebel"],
        body={"version": version},
    )

    page = open_page(browser, f"{server.url}/replay/{game_id}", errors)
    page.wait_for_selector("#analyse-rebel")
    page.click("#analyse-rebel")
    page.wait_for_selector("#analysis-summary")
    analysis = api(server, "GET", f"/api/games/{game_id}/analysis?side=rebel")["analysis"]
    worst = analysis["worst"]
    assert worst, analysis["counts"]  # always the last choice: some of it is bad
    moves = page.locator("#analysis-worst button.analysis-move")
    assert moves.count() == len(worst)
    assert [int(moves.nth(i).get_attribute("data-ply")) for i in range(len(worst))] == worst
    assert_accessible(page, "the replay with its analysis")
    moves.nth(0).click()
    assert int(page.get_attribute("#app", "data-step")) == worst[0] + 1
    played = next(d for d in analysis["decisions"] if d["ply"] == worst[0])["played"]["text"]
    assert page.inner_text("#replay-action") == f"Rebel: {played}"
    assert errors == []
