"""The replay viewer (/replay/{id}, issue 13) in headless Chromium: a whole game against the
computer, then its replay stepped to the end shows the game's final position, and back."""

from __future__ import annotations

from typing import Any

from tests.server.server_process import ServerProcess
from tests.web.axe import assert_accessible
from tests.web.web_pages import api, open_page, play_out

# What the replay page shows of each side: the cards of each zone, the deck's count.
READ_BOARD = """() => Object.fromEntries(['rebel', 'imperial'].map((side) => {
  const names = (zone) => [...document.querySelectorAll(`#replay-${side}-${zone} > .card`)]
    .map((c) => c.dataset.name);
  const panel = document.getElementById(`replay-${side}`);
  return [side, {deck: Number(panel.dataset.deck), hand: names('hand'), active: names('active'),
                 inactive: names('inactive'), discard: names('discard')}];
}))"""


def side_of(view: dict[str, Any], side: str) -> dict[str, Any]:
    return view["you"] if view["you"]["player"] == side else view["opponent"]


def expected(side: dict[str, Any], hand: list[str] | None) -> dict[str, Any]:
    return {
        "deck": side["deck_size"],
        "hand": hand if hand is not None else side["hand"],
        "active": [u["name"] for u in side["active"]],
        "inactive": [u["name"] for u in side["inactive"]],
        "discard": list(side["discard"]),
    }


def finished_computer_game(server: ServerProcess) -> tuple[str, dict[str, Any]]:
    body = {"mode": "computer", "side": "rebel", "opponent": "random", "seed": 7}
    created = api(server, "POST", "/api/games", body=body)
    game_id = created["game_id"]
    last = play_out(server, game_id, created["seats"][0]["token"], seed=7)
    return game_id, last


def step(page: Any) -> int:
    return int(page.get_attribute("#app", "data-step"))


def test_replay_steps_to_the_games_final_position_and_back(
    server: ServerProcess, browser: Any
) -> None:
    errors: list[str] = []
    game_id, last = finished_computer_game(server)
    replay = api(server, "GET", f"/api/games/{game_id}/replay")
    frames = replay["frames"]
    page = open_page(browser, f"{server.url}/replay/{game_id}", errors)  # no seat: a spectator
    page.wait_for_selector("#replay-board #replay-rebel")
    assert step(page) == 0
    page.click("#replay-forward")
    assert step(page) == 1
    assert (
        page.inner_text("#replay-action")
        == f"{frames[1]['action']['by'].capitalize()}: {frames[1]['action']['text']}"
    )
    page.keyboard.press("End")
    assert step(page) == len(frames) - 1
    board = page.evaluate(READ_BOARD)
    # The last frame is the finished game's position: the player's own side with its hand,
    # the computer's with the cards its hand held (the state message gives only their number).
    view = last["view"]
    mine = side_of(view, "rebel")
    theirs = side_of(view, "imperial")
    assert board["rebel"] == expected(mine, None)
    assert {k: v for k, v in board["imperial"].items() if k != "hand"} == {
        k: v for k, v in expected(theirs, []).items() if k != "hand"
    }
    assert len(board["imperial"]["hand"]) == theirs["hand_size"]
    assert "the game is over" in page.inner_text("#replay-status")
    winner = last["winner"].capitalize()
    assert page.inner_text("#replay-result").startswith(f"{winner} won")
    # Step back: the position before the last action, by key and by button.
    page.keyboard.press("ArrowLeft")
    assert step(page) == len(frames) - 2
    before = frames[-2]["view"]
    assert page.evaluate(READ_BOARD)["rebel"] == expected(side_of(before, "rebel"), None)
    page.click("#replay-back")
    assert step(page) == len(frames) - 3
    page.click("#replay-first")
    assert step(page) == 0 and page.input_value("#replay-slider") == "0"
    # The page's address is the link to share.
    assert page.input_value("#replay-url") == f"{server.url}/replay/{game_id}"
    assert errors == []


def test_replay_play_button_advances_and_stops_at_the_end(
    server: ServerProcess, browser: Any
) -> None:
    errors: list[str] = []
    game_id, _ = finished_computer_game(server)
    frames = api(server, "GET", f"/api/games/{game_id}/replay")["frames"]
    page = open_page(browser, f"{server.url}/replay/{game_id}", errors)
    page.wait_for_selector("#replay-board #replay-rebel")
    # Near the end, so "play" reaches it and stops.
    page.locator("#replay-slider").fill(str(len(frames) - 3))
    assert step(page) == len(frames) - 3
    page.click("#replay-play")
    page.wait_for_function(
        f"() => document.getElementById('app').dataset.step === '{len(frames) - 1}'"
    )
    page.wait_for_selector("#replay-play[aria-label='Play']")
    assert errors == []


def test_replay_page_is_accessible_and_keyboard_operable(
    server: ServerProcess, browser: Any
) -> None:
    errors: list[str] = []
    game_id, _ = finished_computer_game(server)
    page = open_page(browser, f"{server.url}/replay/{game_id}", errors)
    page.wait_for_selector("#replay-board #replay-rebel")
    assert_accessible(page, "the replay's first step")
    # Tab reaches the controls; Enter on "Forward" steps.
    page.focus("#replay-back")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "replay-forward"
    page.keyboard.press("Enter")
    assert step(page) == 1
    page.keyboard.press("End")
    assert_accessible(page, "the replay's last step")
    assert errors == []


def test_replay_of_an_unfinished_or_unknown_game_says_why(
    server: ServerProcess, browser: Any
) -> None:
    errors: list[str] = []
    created = api(server, "POST", "/api/games", body={"mode": "computer", "opponent": "random"})
    page = open_page(browser, f"{server.url}/replay/{created['game_id']}", errors)
    assert "not finished" in page.locator("#replay-message").inner_text()
    page.goto(f"{server.url}/replay/no-such-game")
    assert "no such game" in page.locator("#replay-message").inner_text()
    # The browser logs the refused requests (409, 404) as console errors; nothing else.
    assert all("status of 409" in e or "status of 404" in e for e in errors), errors
