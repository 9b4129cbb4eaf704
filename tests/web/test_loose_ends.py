"""The table's loose ends of issue 31 (item 9), in headless Chromium: a used invite link offers
to watch; the bar says the game waits for the friend, not that someone draws; after a resign the
bar shows the result, not the turn's phase; a claim against an opponent who is away is in the
prompt, not beside "Please wait"; the draw is one button per number of cards; a casualty with
one possible card is made for the player; counts agree with their nouns; the page's icon is
the server's own."""

from __future__ import annotations

import random
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rebelspace.engine import GameState, new_game
from tests.server.server_process import ServerProcess
from tests.web.web_clicker import Clicker
from tests.web.web_harness import SERVE_ARGS, settings_script
from tests.web.web_pages import api, online_game, open_page, seats_storage

CHANGED = "(v) => document.getElementById('app').dataset.version !== v"


@pytest.fixture
def quick_claim_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server that lets a seat claim the win 2 s after the opponent disconnected."""
    extra = [*SERVE_ARGS, "--claim-after", "2"]
    with ServerProcess(tmp_path / "games.sqlite3", tmp_path / "server.log", extra) as srv:
        yield srv


def test_a_used_invite_link_offers_to_watch(server: ServerProcess, browser: Any) -> None:
    created = api(server, "POST", "/api/games", body={"mode": "online", "side": "rebel"})
    game_id, invite = created["game_id"], created["invite"]
    code = invite.rsplit("/", 1)[1]
    api(server, "POST", f"/api/games/{game_id}/join", body={"invite": code})  # the guest
    # A third person with the same link: the server refuses the seat (409), the page offers
    # to watch instead of dropping them into the lobby.
    errors: list[str] = []
    page = open_page(browser, f"{server.url}{invite}", errors)
    page.wait_for_selector("#invite-used")
    assert "already been used" in page.inner_text("#invite-used h1")
    assert page.locator("#new-computer").count() == 0  # not the lobby
    page.click("#watch-instead")
    page.wait_for_selector("#prompt")
    assert page.url.endswith(f"/watch/{game_id}")
    assert page.inner_text("#prompt h2") == "Watching"
    assert page.locator("#resign").count() == 0
    # The refused join is in the browser's network log (a console "409"), not a page error.
    assert [e for e in errors if "409" not in e] == []


def test_waiting_for_the_friend_is_said_in_the_bar(server: ServerProcess, browser: Any) -> None:
    errors: list[str] = []
    host = open_page(browser, server.url, errors)
    host.select_option("#online-side", "rebel")
    host.click("#new-online")
    host.wait_for_selector("#invite-link")
    bar = host.inner_text(".status .turn-other")
    assert bar == "Waiting for your friend to join…", bar
    assert host.inner_text("#prompt h2") == "Waiting for your friend"
    assert errors == []


def rebel_until_imperial(server: ServerProcess, game_id: str, token: str) -> None:
    """Play the Rebel's first turn over REST (draw, no attack, no deployment, end turn) so that
    the Imperial is to move."""
    order = ("draw", "no_attack", "done_deploying", "end_turn", "pass", "discard")
    for _ in range(50):
        state = api(server, "GET", f"/api/games/{game_id}", token=token)
        if state["view"]["to_move"] != "rebel":
            return
        legal = state["legal"]
        choice = next((a for kind in order for a in legal if a["kind"] == kind), legal[0])
        body = {"action": choice["id"], "version": state["version"]}
        api(server, "POST", f"/api/games/{game_id}/actions", token=token, body=body)
    raise AssertionError("the Rebel's turn did not end")


def test_a_claim_while_waiting_is_in_the_prompt(
    quick_claim_server: ServerProcess, browser: Any
) -> None:
    server = quick_claim_server
    game = online_game(server)
    game_id = game["game_id"]
    rebel_until_imperial(server, game_id, game["rebel"])
    errors: list[str] = []
    storage = seats_storage(game_id, "online", {"rebel": game["rebel"]})
    host = open_page(browser, f"{server.url}/game/{game_id}", errors, storage)
    # The Imperial never connected: after 2 s the Rebel may claim, and the prompt says so.
    host.wait_for_selector("#prompt #claim-win")
    prompt = host.inner_text("#prompt")
    assert host.inner_text("#prompt h2") == "Your opponent is away"
    assert "Please wait" not in prompt
    assert host.locator("#claim").count() == 1  # not in the bar as well
    host.click("#claim-win")
    host.wait_for_selector("#winner")
    # The bar shows the result in place of the turn's phase and whose move it was.
    phase = host.inner_text("#phase")
    assert re.fullmatch(
        r"Turn \d+ · Rebel won: Imperial left the game and the win was claimed\.", phase
    ), phase
    assert "phase" not in host.inner_text(".status").lower().replace("#phase", "")
    assert host.locator(".status .turn-other").count() == 0
    assert errors == []


def test_after_a_resign_the_bar_shows_the_result(server: ServerProcess, browser: Any) -> None:
    game = online_game(server)
    game_id = game["game_id"]
    errors: list[str] = []
    storage = seats_storage(game_id, "online", {"imperial": game["imperial"]})
    guest = open_page(browser, f"{server.url}/game/{game_id}", errors, storage)
    guest.wait_for_selector("#resign")
    assert "Draw phase" in guest.inner_text("#phase")
    guest.click("#resign")
    guest.click("#resign-yes")
    guest.wait_for_selector("#winner")
    phase = guest.inner_text("#phase")
    assert phase == "Turn 1 · Rebel won: Imperial resigned.", phase
    status = guest.inner_text(".status")
    assert "Draw phase" not in status and "Game over" not in status, status
    assert status.count("Imperial resigned") == 1, status
    assert errors == []


def test_the_draw_is_one_button_per_number_of_cards(server: ServerProcess, browser: Any) -> None:
    errors: list[str] = []
    page = open_page(browser, server.url, errors, init_script=settings_script())
    page.select_option("#side", "rebel")
    page.select_option("#opponent", "random")
    page.click("#new-computer")
    Clicker(page).wait_my_move()
    assert page.get_attribute("#app", "data-step") == "draw"
    assert page.locator("#prompt input[type=radio]").count() == 0
    buttons = page.locator("#prompt button.act-draw")
    labels = buttons.all_inner_texts()
    assert labels == ["Draw 1 card", "Draw 2 cards"], labels
    assert "primary" in (buttons.last.get_attribute("class") or "")  # the most, as a default
    hand = page.locator(".hand .card").count()
    before = page.get_attribute("#app", "data-version")
    buttons.first.click()  # one click draws one card
    page.wait_for_function(CHANGED, arg=before)
    assert page.locator(".hand .card").count() == hand + 1
    assert errors == []


def lone_casualty_position() -> tuple[int, list[tuple[int, int]], GameState]:
    """(seed, [(action id, seat)], game): seeded random play (drawing the most) to the first
    casualty step with one legal action, found with the engine the server runs."""
    for seed in range(1, 60):
        game = new_game(seed=seed)
        rng = random.Random(seed)
        plies: list[tuple[int, int]] = []
        while not game.is_over and len(plies) < 800:
            view = game.view(game.to_move)
            legal = view.legal_actions
            if str(view.step) == "casualties" and len(legal) == 1:
                return seed, plies, game
            draws = [a for a in legal if str(a.kind) == "draw"]
            action = max(draws, key=lambda a: a.n or 0) if draws else rng.choice(legal)
            seat = game.to_move
            game.apply(action.id, player=seat)
            plies.append((action.id, seat))
    raise AssertionError("no seed reached a casualty with one possible card")


def test_a_casualty_with_one_possible_card_is_made_for_the_player(
    server: ServerProcess, browser: Any
) -> None:
    seed, plies, game = lone_casualty_position()
    created = api(server, "POST", "/api/games", body={"mode": "hotseat", "seed": seed})
    game_id = created["game_id"]
    tokens = {s["player"]: s["token"] for s in created["seats"]}
    names = ("rebel", "imperial")
    for version, (action, seat) in enumerate(plies):
        body = {"action": action, "version": version}
        api(server, "POST", f"/api/games/{game_id}/actions", tokens[names[seat]], body)
    me = names[game.to_move]
    (pick,) = game.view(game.to_move).legal_actions
    errors: list[str] = []
    storage = seats_storage(game_id, "hotseat", {me: tokens[me]})
    page = open_page(
        browser,
        f"{server.url}/game/{game_id}",
        errors,
        storage,
        init_script=settings_script(confirm_forced=False),
    )
    page.wait_for_selector("#prompt.mine")
    assert page.get_attribute("#app", "data-step") == "casualties"
    note = page.inner_text("#prompt .forced")
    assert f'"Pick {pick.card} as a casualty"' in note, note
    # No click: the page makes the only choice after the note's moment.
    page.wait_for_function(CHANGED, arg=str(len(plies)))
    after = api(server, "GET", f"/api/games/{game_id}", token=tokens[me])
    assert after["plies"] == len(plies) + 1
    assert any(e["type"] == "casualty_picked" and e["card"] == pick.card for e in after["events"])
    assert errors == []


def test_counts_agree_with_their_nouns(server: ServerProcess, browser: Any) -> None:
    errors: list[str] = []
    page = open_page(browser, f"{server.url}/cards", errors)
    page.wait_for_selector(".gallery-card")
    words = page.evaluate(
        """async () => {
          const m = await import('/replay.js');
          return [m.count(1, 'mistake'), m.count(2, 'mistake'), m.count(0, 'blunder'),
                  m.count(1, 'inaccuracy', 'inaccuracies'),
                  m.count(3, 'inaccuracy', 'inaccuracies')];
        }"""
    )
    assert words == ["1 mistake", "2 mistakes", "0 blunders", "1 inaccuracy", "3 inaccuracies"]
    assert errors == []


def test_the_pages_icon_is_served_by_the_server(server: ServerProcess, browser: Any) -> None:
    errors: list[str] = []
    page = open_page(browser, server.url, errors)
    page.wait_for_selector("#new-computer")
    href = page.get_attribute("link[rel=icon]", "href")
    assert href == "/favicon.svg"
    with urllib.request.urlopen(f"{server.url}{href}") as r:
        assert r.status == 200
        assert r.headers["Content-Type"].startswith("image/svg+xml")
        assert b"<svg" in r.read()
    rules = urllib.request.urlopen(f"{server.url}/rules").read().decode()
    assert '<link rel="icon" href="/favicon.svg"' in rules
    assert errors == []
