"""End-to-end tests of the browser client in headless Chromium against a real server.

A person's path through the client: the lobby, a whole game against the computer played by
clicking the table, an online game between two browser contexts (plus a spectator), and a
reload and a server restart in the middle of a game. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from web_clicker import Clicker
from web_harness import Server


def open_page(browser: Any, url: str, errors: list[str]) -> Any:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on(
        "console",
        lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None,
    )
    page.goto(url)
    return page


def turn_of(page: Any) -> int:
    """The turn number in the status bar (0 while no table is shown, e.g. a hot-seat hand-over)."""
    el = page.query_selector("#phase")
    return int(re.search(r"Turn (\d+)", el.inner_text()).group(1)) if el else 0


def start_computer_game(page: Any, side: str = "rebel") -> None:
    page.select_option("#side", side)
    page.select_option("#opponent", "random")
    page.click("#new-computer")
    page.wait_for_selector("#prompt")
    assert re.search(r"/game/[\w-]+$", page.url), page.url


@pytest.mark.slow
@pytest.mark.parametrize("server", [0.0, 0.15], ids=["prompt", "answers-150ms-late"], indirect=True)
def test_whole_game_against_the_computer_by_clicking(
    server: Server, browser: Any, artifacts: Path
) -> None:
    # With the REST answers 150 ms late, the WebSocket push shows the next decision first:
    # the client must take that click (and not draw the same state twice under it).
    errors: list[str] = []
    page = open_page(browser, server.url, errors)
    page.screenshot(path=str(artifacts / "lobby.png"), full_page=True)
    start_computer_game(page)
    assert "You (Rebel)" in page.inner_text(".player.me h2")
    assert "Computer (Imperial)" in page.inner_text(".player.opponent h2")
    player = Clicker(page, "rebel")
    player.play_until(lambda: False, shot=artifacts / "computer-game-block.png")
    page.wait_for_selector("#winner")
    winner = page.locator("#winner")
    text = winner.inner_text()
    page.screenshot(path=str(artifacts / "computer-game-over.png"), full_page=True)
    assert re.match(r"(Rebel|Imperial) wins!", text), text
    assert winner.get_attribute("data-winner") in ("rebel", "imperial")
    # The game was played on the table, not through the list of all actions.
    assert player.fallbacks == 0
    assert player.kinds["draw"] > 3 and player.kinds["form"] > 0 and player.kinds["deploy"] > 0
    # The server agrees: the game is over with the winner the page shows.
    game_id = page.url.rsplit("/", 1)[1]
    with urllib.request.urlopen(f"{server.url}/api/games/{game_id}") as r:
        state = json.load(r)
    assert state["over"] and state["winner"] == winner.get_attribute("data-winner")
    assert errors == []


@pytest.mark.slow
def test_online_game_in_two_browser_contexts(server: Server, browser: Any, artifacts: Path) -> None:
    errors: list[str] = []
    host = open_page(browser, server.url, errors)
    host.select_option("#online-side", "rebel")
    host.click("#new-online")
    invite = host.locator("#invite-link").input_value()
    assert re.search(r"/join/[\w-]+/[\w-]+$", invite), invite
    assert "Waiting for your friend" in host.inner_text("#prompt")
    guest = open_page(browser, invite, errors)
    guest.wait_for_selector("#prompt")
    assert re.search(r"/game/[\w-]+$", guest.url)
    assert "You (Imperial)" in guest.inner_text(".player.me h2")
    # The host's page learns that the guest joined (a WebSocket push) and offers the draw.
    host.wait_for_selector("#prompt button.act-draw")
    game_id = host.url.rsplit("/", 1)[1]
    watcher = open_page(browser, f"{server.url}/watch/{game_id}", errors)
    watcher.wait_for_selector("#prompt")
    assert watcher.query_selector(".hand") is None  # a spectator sees no hand

    players = [Clicker(host, "rebel"), Clicker(guest, "imperial")]
    # Each page plays its own seat's decisions, whoever's move it is, until turn 5.
    for _ in range(600):
        if turn_of(host) >= 5 or host.query_selector("#winner"):
            break
        mover = next((p for p in players if p.is_mine()), None)
        if mover is None:
            host.wait_for_timeout(50)
            continue
        mover.act()
    else:
        raise AssertionError("the online game did not reach turn 5")
    host.screenshot(path=str(artifacts / "online-rebel.png"), full_page=True)
    guest.screenshot(path=str(artifacts / "online-imperial.png"), full_page=True)
    watcher.wait_for_function(
        "(v) => document.getElementById('app').dataset.version === v",
        arg=host.get_attribute("#app", "data-version"),
    )
    watcher.screenshot(path=str(artifacts / "online-spectator.png"), full_page=True)
    # Both seats and the spectator show the same game.
    assert guest.get_attribute("#app", "data-version") == host.get_attribute("#app", "data-version")
    assert host.inner_text("#phase") == guest.inner_text("#phase") == watcher.inner_text("#phase")
    assert sum(p.clicks for p in players) > 20
    assert all(p.fallbacks == 0 for p in players)
    assert errors == []


def test_reload_and_server_restart_mid_game(server: Server, browser: Any, artifacts: Path) -> None:
    errors: list[str] = []
    page = open_page(browser, server.url, errors)
    start_computer_game(page)
    player = Clicker(page)
    player.play_until(lambda: turn_of(page) >= 3)
    player.wait_my_move()
    version = page.get_attribute("#app", "data-version")
    phase = page.inner_text("#phase")
    hand = page.inner_text(".hand")
    url = page.url

    page.reload()
    page.wait_for_selector("#prompt.mine")
    assert page.url == url
    assert page.get_attribute("#app", "data-version") == version
    assert page.inner_text("#phase") == phase
    assert page.inner_text(".hand") == hand
    player.act()  # the seat's token survived the reload: the server takes the click

    player.wait_my_move()
    version = page.get_attribute("#app", "data-version")
    server.stop()
    page.wait_for_selector("#connection.conn-closed")
    server.start()
    page.wait_for_selector("#connection.conn-open")
    page.wait_for_selector("#prompt.mine")
    assert page.get_attribute("#app", "data-version") == version
    player.act()
    page.screenshot(path=str(artifacts / "after-restart.png"), full_page=True)
    assert errors == [] or all("WebSocket" in e or "ERR_CONNECTION" in e for e in errors)


def test_lobby_links_and_errors(server: Server, browser: Any) -> None:
    errors: list[str] = []
    page = open_page(browser, server.url, errors)
    page.fill("#join-link", "not a link")
    page.click("#join-link + button")
    assert "not an invite link" in page.inner_text("#error")
    # A made-up invite: the server's refusal is shown, not swallowed.
    page.goto(f"{server.url}/join/nosuchgame/abc")
    page.wait_for_selector("#error .message")
    assert "Could not join" in page.inner_text("#error")
    assert page.query_selector("#new-computer") is not None  # back in the lobby


def test_hotseat_hands_the_screen_over(server: Server, browser: Any, artifacts: Path) -> None:
    errors: list[str] = []
    page = open_page(browser, server.url, errors)
    page.click("#new-hotseat")
    page.wait_for_selector("#prompt")
    assert "You (Rebel)" in page.inner_text(".player.me h2")
    player = Clicker(page, "hot-seat")
    handoffs: list[str] = []
    while turn_of(page) < 3:
        page.wait_for_function(
            "() => document.getElementById('take-seat')"
            " || document.getElementById('app').dataset.mine === 'yes'"
        )
        button = page.locator("#take-seat")
        if button.count():
            # The next player's hand stays hidden until they take the screen.
            assert page.query_selector(".hand") is None
            handoffs.append(button.inner_text())
            if len(handoffs) == 1:
                page.screenshot(path=str(artifacts / "hotseat-handoff.png"))
            button.click()
            continue
        player.act()
        assert player.clicks < 200
    # Turn 2 was the Imperial player's, turn 3 the Rebel's: the screen changed hands both ways.
    assert any("imperial player" in text for text in handoffs)
    assert any("rebel player" in text for text in handoffs)
    assert errors == []


def test_undo_against_the_computer(server: Server, browser: Any) -> None:
    errors: list[str] = []
    page = open_page(browser, server.url, errors)
    start_computer_game(page)
    player = Clicker(page)
    own = ".player.me [data-zone='own-active'] .card.clickable"
    player.play_until(
        lambda: (
            page.get_attribute("#app", "data-step") == "form groups"
            and page.query_selector(own) is not None
        )
    )
    version = int(page.get_attribute("#app", "data-version"))
    page.click(own)
    if page.query_selector("#action-menu"):
        page.click("#action-menu button[data-action-id]")
    page.wait_for_selector("#battle .group")
    assert int(page.get_attribute("#app", "data-version")) == version + 1
    page.click("#prompt button.undo")
    # The group is taken back: the game is where it was before the click.
    page.wait_for_function(
        "(v) => document.getElementById('app').dataset.version === v", arg=str(version)
    )
    assert page.query_selector("#battle .group") is None
    assert page.query_selector(own) is not None
    assert errors == []


def test_hotseat_undo_is_asked_and_allowed(server: Server, browser: Any) -> None:
    errors: list[str] = []
    page = open_page(browser, server.url, errors)
    page.click("#new-hotseat")
    page.wait_for_selector("#prompt")
    player = Clicker(page, "hot-seat")
    own = ".player.me [data-zone='own-active'] .card.clickable"
    for _ in range(300):
        page.wait_for_function(
            "() => document.getElementById('take-seat')"
            " || document.getElementById('app').dataset.mine === 'yes'"
        )
        if page.query_selector("#take-seat"):
            page.click("#take-seat")
            continue
        if page.get_attribute("#app", "data-step") == "form groups" and page.query_selector(own):
            break
        player.act()
    else:
        raise AssertionError("no attack to form in 300 moves")
    version = page.get_attribute("#app", "data-version")
    page.click(own)
    if page.query_selector("#action-menu"):
        page.click("#action-menu button[data-action-id]")
    page.wait_for_selector("#battle .group")
    page.click("#prompt button.undo")
    # A two-person game asks the other player, who sits at the same screen in hot-seat.
    page.wait_for_selector(".undo-request button")
    assert "asks to undo" in page.inner_text(".undo-request")
    page.click(".undo-request button:text('Allow')")
    page.wait_for_function(
        "(v) => document.getElementById('app').dataset.version === v", arg=version
    )
    assert page.query_selector("#battle .group") is None
    assert errors == []
