"""How online games end and go on, in headless Chromium (issue 13): resign seen by both players
and a spectator, a rematch with the sides swapped, a claim against a disconnected opponent, a
clock that runs out, the seat link for another device, and the recent games list."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.server_process import ServerProcess
from tests.web.web_clicker import Clicker
from tests.web.web_harness import SERVE_ARGS
from tests.web.web_pages import api, online_game, open_page, seats_storage

STORED = "(id) => (JSON.parse(localStorage.getItem('rebelspace.games')) || {})[id] || null"


@pytest.fixture
def quick_claim_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server that lets a seat claim the win 2 s after the opponent disconnected."""
    extra = [*SERVE_ARGS, "--claim-after", "2"]
    with ServerProcess(tmp_path / "games.sqlite3", tmp_path / "server.log", extra) as srv:
        yield srv


def game_id_of(page: Any) -> str:
    m = re.search(r"/game/([\w-]+)$", page.url)
    assert m, page.url
    return m.group(1)


def host_and_guest(
    server: ServerProcess, browser: Any, errors: list[str], clock: str = ""
) -> tuple[Any, Any]:
    """An online game made in the lobby by the host (Rebel) and joined by the guest's link."""
    host = open_page(browser, server.url, errors)
    host.select_option("#online-side", "rebel")
    host.select_option("#online-clock", clock)
    host.click("#new-online")
    invite = host.locator("#invite-link").input_value()
    guest = open_page(browser, invite, errors)
    guest.wait_for_selector("#prompt")
    host.wait_for_selector("#prompt button.act-draw")
    return host, guest


def test_resign_ends_the_game_for_both_players_and_a_spectator(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    errors: list[str] = []
    host, guest = host_and_guest(server, browser, errors)
    game_id = game_id_of(host)
    watcher = open_page(browser, f"{server.url}/watch/{game_id}", errors)
    watcher.wait_for_selector("#prompt")
    assert watcher.locator("#resign").count() == 0  # a spectator cannot resign
    # The first press only asks; "Keep playing" takes it back.
    guest.click("#resign")
    guest.click("#resign-no")
    guest.wait_for_selector("#resign")
    assert api(server, "GET", f"/api/games/{game_id}")["over"] is False
    guest.click("#resign")
    guest.click("#resign-yes")
    for page in (host, guest, watcher):
        page.wait_for_selector("#result")
        assert page.inner_text("#result") == "Rebel won: Imperial resigned."
        assert page.get_attribute("#replay-link", "href") == f"/replay/{game_id}"
    host.screenshot(path=str(artifacts / "online-resigned.png"))
    state = api(server, "GET", f"/api/games/{game_id}")
    assert state["result"] == {"winner": "rebel", "reason": "resign"}
    assert errors == []


def test_rematch_swaps_the_sides_and_both_players_can_act(
    server: ServerProcess, browser: Any
) -> None:
    errors: list[str] = []
    host, guest = host_and_guest(server, browser, errors)
    old_id = game_id_of(host)
    host_token = host.evaluate(STORED, old_id)["seats"]["rebel"]
    guest_token = guest.evaluate(STORED, old_id)["seats"]["imperial"]
    host.click("#resign")
    host.click("#resign-yes")
    host.click("#rematch")
    host.wait_for_selector("#rematch-sent")
    # Withdrawn, then offered again: the guest sees the offer and accepts.
    host.click("#rematch-withdraw")
    host.wait_for_selector("#rematch")
    host.click("#rematch")
    guest.click("#rematch-accept")
    for page in (host, guest):
        page.wait_for_url(re.compile(r"/game/(?!" + re.escape(old_id) + r")[\w-]+$"))
    new_id = game_id_of(host)
    assert game_id_of(guest) == new_id
    # Each player keeps their token, for the other side.
    assert host.evaluate(STORED, new_id)["seats"] == {"imperial": host_token}
    assert guest.evaluate(STORED, new_id)["seats"] == {"rebel": guest_token}
    state = api(server, "GET", f"/api/games/{old_id}")
    assert state["rematch"]["game_id"] == new_id
    # The guest now moves first as the Rebel; each plays until both have acted.
    players = {"rebel": Clicker(guest, "rebel"), "imperial": Clicker(host, "imperial")}
    for _ in range(400):
        if all(p.clicks for p in players.values()):
            break
        mover = next((p for p in players.values() if p.is_mine()), None)
        if mover is None:
            host.wait_for_timeout(50)
            continue
        mover.act()
    assert all(p.clicks for p in players.values()), {k: p.clicks for k, p in players.items()}
    assert errors == []


def test_a_disconnected_opponent_can_be_claimed_against(
    quick_claim_server: ServerProcess, browser: Any
) -> None:
    server = quick_claim_server
    errors: list[str] = []
    host, guest = host_and_guest(server, browser, errors)
    game_id = game_id_of(host)
    assert host.locator("#claim").count() == 0
    guest.context.close()  # the opponent goes away
    host.wait_for_selector("#claim")
    host.locator("#claim-win").click()
    host.wait_for_selector("#result")
    assert (
        host.inner_text("#result") == "Rebel won: Imperial left the game and the win was claimed."
    )
    state = api(server, "GET", f"/api/games/{game_id}")
    assert state["result"] == {"winner": "rebel", "reason": "abandoned"}
    assert errors == []


def test_a_clock_that_runs_out_ends_the_game(server: ServerProcess, browser: Any) -> None:
    errors: list[str] = []
    game = online_game(server, clock={"initial_s": 10, "increment_s": 0})
    gid = game["game_id"]
    rebel = open_page(
        browser,
        f"{server.url}/game/{gid}",
        errors,
        seats_storage(gid, "online", {"rebel": game["rebel"]}),
    )
    imperial = open_page(
        browser,
        f"{server.url}/game/{gid}",
        errors,
        seats_storage(gid, "online", {"imperial": game["imperial"]}),
    )
    rebel.wait_for_selector("#clock-rebel.running")
    # The running clock counts down on the page between the server's messages.
    first = rebel.inner_text("#clock-rebel-time")
    rebel.wait_for_function(
        f"() => document.getElementById('clock-rebel-time')?.textContent !== {json.dumps(first)}"
    )
    # Nobody moves: the Rebel's time runs out and the server ends the game for both.
    for page in (rebel, imperial):
        page.wait_for_selector("#result", timeout=60_000)
        assert page.inner_text("#result") == "Imperial won: Rebel ran out of time."
    assert rebel.inner_text("#clock-imperial-time") == "10.0"  # the waiting clock never ran
    assert api(server, "GET", f"/api/games/{gid}")["result"] == {
        "winner": "imperial",
        "reason": "time",
    }
    assert errors == []


def test_lobby_creates_a_game_with_the_chosen_clock(server: ServerProcess, browser: Any) -> None:
    errors: list[str] = []
    host, guest = host_and_guest(server, browser, errors, clock="300+3")
    host.wait_for_selector("#clock-rebel.running")
    assert guest.inner_text("#clock-imperial-time") == "5:00"
    state = api(server, "GET", f"/api/games/{game_id_of(host)}")
    assert state["clock"]["initial_s"] == 300 and state["clock"]["increment_s"] == 3
    assert errors == []


def test_seat_link_opens_the_seat_on_another_device_without_sending_the_token(
    server: ServerProcess, browser: Any
) -> None:
    errors: list[str] = []
    host, guest = host_and_guest(server, browser, errors)
    game_id = game_id_of(host)
    token = host.evaluate(STORED, game_id)["seats"]["rebel"]
    host.click("#seat-link summary")
    assert "secret" in host.inner_text("#seat-link .warning")
    link = host.input_value("#seat-link-url")
    assert link == f"{server.url}/seat/{game_id}#rebel.{token}"
    phone = open_page(browser, link, errors)
    phone.wait_for_url(f"{server.url}/game/{game_id}")
    phone.wait_for_selector("#prompt button.act-draw")  # the Rebel's decision, on this device
    assert phone.evaluate(STORED, game_id)["seats"] == {"rebel": token}
    # The fragment never reached the server.
    assert token not in server.log.read_text()
    # A damaged link says so and stores nothing.
    broken = open_page(browser, f"{server.url}/seat/{game_id}#rebel", errors)
    broken.wait_for_selector("#error .message")
    assert "seat link is damaged" in broken.inner_text("#error .message")
    assert broken.evaluate(STORED, game_id) is None
    assert errors == []


def test_recent_games_list_the_browsers_games(server: ServerProcess, browser: Any) -> None:
    errors: list[str] = []
    host, guest = host_and_guest(server, browser, errors)
    game_id = game_id_of(host)
    host.click("#resign")
    host.click("#resign-yes")
    host.wait_for_selector("#result")
    host.goto(f"{server.url}/games")
    row = host.locator(f"#games-list tr[data-game='{game_id}']")
    row.wait_for()
    text = row.inner_text()
    assert (
        "Online player" in text and "Imperial won: Rebel resigned." in text and "You lost." in text
    )
    row.locator("a.replay-game").click()
    host.wait_for_url(f"{server.url}/replay/{game_id}")
    host.wait_for_selector("#replay-board")
    # The lobby lists it too.
    guest.goto(server.url)
    guest.locator(f"#recent-games tr[data-game='{game_id}']").wait_for()
    assert "You won." in guest.locator(f"#recent-games tr[data-game='{game_id}']").inner_text()
    assert errors == []


def test_rematch_against_the_computer_starts_at_once_with_sides_swapped(
    server: ServerProcess, browser: Any
) -> None:
    errors: list[str] = []
    page = open_page(browser, server.url, errors)
    page.select_option("#side", "rebel")
    page.select_option("#opponent", "random")
    page.click("#new-computer")
    page.wait_for_selector("#prompt")
    old_id = game_id_of(page)
    token = page.evaluate(STORED, old_id)["seats"]["rebel"]
    page.click("#resign")
    page.click("#resign-yes")
    page.click("#rematch")  # the computer always accepts
    page.wait_for_url(re.compile(r"/game/(?!" + re.escape(old_id) + r")[\w-]+$"))
    new_id = game_id_of(page)
    assert page.evaluate(STORED, new_id)["seats"] == {"imperial": token}
    state = api(server, "GET", f"/api/games/{new_id}", token=token)
    assert state["seat"] == "imperial" and state["mode"] == "computer"
    # The computer moves first as the Rebel; then it is this page's decision.
    Clicker(page, "imperial").wait_my_move()
    assert page.get_attribute("#app", "data-mine") == "yes"
    assert errors == []
