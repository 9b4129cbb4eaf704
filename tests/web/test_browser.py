"""End-to-end tests of the browser client in headless Chromium against a real server.

A person's path through the client: the lobby, a whole game against the computer played by
clicking the table, an online game between two browser contexts (plus a spectator), and a
reload and a server restart in the middle of a game. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import contextlib
import json
import re
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from rebelspace.engine import GameState, new_game
from tests.server.server_process import ServerProcess
from tests.web import web_pages
from tests.web.web_clicker import Clicker
from tests.web.web_harness import settings_script
from tests.web.web_pages import api


def open_page(browser: Any, url: str, errors: list[str], **settings: Any) -> Any:
    """A page in a new browser context; `settings` (web_harness.settings_script) are stored
    first: by default the player confirms only choices, as the clicker plays them."""
    return web_pages.open_page(
        browser, url, errors, viewport=(1400, 1000), init_script=settings_script(**settings)
    )


def playback_ended(page: Any) -> None:
    """Skip what the page still plays back of the moves it was sent (playback.js), as a player
    in a hurry would, and wait for the table to show the newest state: while a step plays,
    the table shows the state after that step, not the newest one."""
    skip = page.locator("#playback-skip")
    if skip.count():
        with contextlib.suppress(Exception):  # the playback ended first, the page redrew
            skip.first.click(timeout=2_000)
    page.wait_for_function("() => !document.getElementById('app').dataset.playbackPly")


def turn_of(page: Any) -> int:
    """The turn number in the status bar (0 while no table is shown, e.g. a hot-seat hand-over)."""
    el = page.query_selector("#phase")
    if not el:
        return 0
    m = re.search(r"Turn (\d+)", el.inner_text())
    assert m, el.inner_text()
    return int(m.group(1))


# The numbers the table shows: each battle group's header and unit ratings, and each zone's
# units (a unit's own card, not its attachments'), read from the page in one go.
READ_TABLE = """() => {
  const stats = (card) =>
    [...card.querySelectorAll(':scope > .card-stats .stat')].map((x) => x.textContent);
  const unitsIn = (el) => [...el.querySelectorAll(':scope > .unit')].map((u) => {
    const card = u.querySelector(':scope > .card');
    return {name: card.dataset.name, stats: stats(card),
            attachments: u.querySelectorAll('.attachments .card').length};
  });
  const groups = [...document.querySelectorAll('#battle section.group')].map((s) => ({
    number: Number(s.dataset.group),
    damage: s.dataset.damage === undefined ? null : Number(s.dataset.damage),
    against: s.querySelector('.against').textContent,
    attack: s.querySelector('.value-attack').textContent,
    attackers: unitsIn(s.querySelector('.side.attackers')),
    defenders: unitsIn(s.querySelector('.side.defenders')),
  }));
  const zones = [...document.querySelectorAll('.player section.zone')].map((z) => ({
    zone: z.dataset.zone, units: unitsIn(z.querySelector(':scope > .cards')),
  }));
  return {version: document.getElementById('app').dataset.version, groups, zones};
}"""
ZONES = {
    "own-active": ("you", "active"),
    "own-inactive": ("you", "inactive"),
    "enemy-active": ("opponent", "active"),
    "enemy-inactive": ("opponent", "inactive"),
}


def ratings(unit: dict[str, Any]) -> list[str]:
    return [f"G {unit['ground']}", f"S {unit['space']}", f"D {unit['damage']}"]


def check_table_numbers(page: Any, server: ServerProcess, tally: Counter[str]) -> None:
    """The numbers on the table are the page's latest state message's (read again over REST:
    this runs when it is the page's decision, so the game stands still): every unit's current
    ratings, and for each battle group its value and, when it shows "unblocked: N damage", the
    group's `damage` (after Defense Shields) and the shields' `stopped`."""
    shown = page.evaluate(READ_TABLE)
    game_id = page.url.rsplit("/", 1)[1]
    seats = page.evaluate(
        "(id) => JSON.parse(localStorage.getItem('rebelspace.games'))[id].seats", game_id
    )
    assert len(seats) == 1, seats
    state = api(server, "GET", f"/api/games/{game_id}", token=next(iter(seats.values())))
    assert str(state["version"]) == shown["version"]
    view = state["view"]
    for zone in shown["zones"]:
        side, where = ZONES[zone["zone"]]
        units = view[side][where]
        assert [u["name"] for u in zone["units"]] == [u["name"] for u in units], zone
        for dom, unit in zip(zone["units"], units, strict=True):
            assert dom["stats"] == ratings(unit), (zone["zone"], dom, unit)
            assert dom["attachments"] == len(unit["attachments"])
            tally["units"] += 1
            if unit["attachments"]:
                tally["equipped"] += 1
    groups = {g["number"]: g for g in view["battle"]["groups"]} if view["battle"] else {}
    for dom in shown["groups"]:
        group = groups[dom["number"]]
        assert dom["damage"] == group["damage"], (dom, group)
        if not group["result"]:
            assert dom["attack"].endswith(f" value {group['attack_value']}"), (dom, group)
        if group["units"]:
            assert [u["stats"] for u in dom["attackers"]] == [ratings(u) for u in group["units"]]
        fighting = group["blockers"] or ([group["target"]] if group["target"] else [])
        if fighting:
            assert [u["stats"] for u in dom["defenders"]] == [ratings(u) for u in fighting]
        m = re.search(r"unblocked: (\d+) damage", dom["against"])
        if m:
            assert int(m.group(1)) == group["damage"], (dom, group)
            tally["unblocked"] += 1
            if group["stopped"]:
                assert f"Defense Shields stop {group['stopped']} " in dom["against"], dom
                tally["shields"] += 1


def start_computer_game(page: Any, side: str = "rebel") -> None:
    page.select_option("#side", side)
    page.select_option("#opponent", "random")
    page.click("#new-computer")
    page.wait_for_selector("#prompt")
    assert re.search(r"/game/[\w-]+$", page.url), page.url


@pytest.mark.slow
@pytest.mark.parametrize("server", [0.0, 0.15], ids=["prompt", "answers-150ms-late"], indirect=True)
def test_whole_game_against_the_computer_by_clicking(
    server: ServerProcess, browser: Any, artifacts: Path
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
    numbers: Counter[str] = Counter()
    player.play_until(
        lambda: False,
        shot=artifacts / "computer-game-block.png",
        check=lambda: check_table_numbers(page, server, numbers),
    )
    # Every decision's table was checked against the server's numbers, battles included.
    assert numbers["units"] > 0 and numbers["unblocked"] > 0, numbers
    page.wait_for_selector("#winner")
    winner = page.locator("#winner")
    text = winner.inner_text()
    page.screenshot(path=str(artifacts / "computer-game-over.png"), full_page=True)
    assert re.match(r"(Rebel|Imperial) wins!", text), text
    assert winner.get_attribute("data-winner") in ("rebel", "imperial")
    # The status line names the turn it ended on and who won, not a phase or whose turn it is.
    status = page.inner_text("#phase")
    ended = re.fullmatch(r"Turn \d+ · (Rebel|Imperial) won", status)
    assert ended is not None, status
    assert text.startswith(ended.group(1))  # the same winner as the result's heading
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
def test_online_game_in_two_browser_contexts(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
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
    # Both seats and the spectator show the same game, once what each plays back has ended.
    for page in (host, guest, watcher):
        playback_ended(page)
    watcher.screenshot(path=str(artifacts / "online-spectator.png"), full_page=True)
    assert guest.get_attribute("#app", "data-version") == host.get_attribute("#app", "data-version")
    assert host.inner_text("#phase") == guest.inner_text("#phase") == watcher.inner_text("#phase")
    assert sum(p.clicks for p in players) > 20
    assert all(p.fallbacks == 0 for p in players)
    assert errors == []


def test_reload_and_server_restart_mid_game(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
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
    # A click while the server is away fails, and says so ...
    page.click("#all-actions button[data-action-id]")
    page.wait_for_selector("#error .message")
    server.start()
    page.wait_for_selector("#connection.conn-open")
    page.wait_for_selector("#prompt.mine")
    # ... and the red error goes once the connection is back: it is stale then.
    page.wait_for_function("() => !document.querySelector('#error .message')")
    assert page.get_attribute("#app", "data-version") == version
    player.act()
    page.screenshot(path=str(artifacts / "after-restart.png"), full_page=True)
    assert errors == [] or all("WebSocket" in e or "ERR_CONNECTION" in e for e in errors)


def test_lobby_links_and_errors(server: ServerProcess, browser: Any) -> None:
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


def test_hotseat_hands_the_screen_over(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
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


def test_undo_against_the_computer(server: ServerProcess, browser: Any) -> None:
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
    plies = int(page.get_attribute("#app", "data-plies"))
    page.click(own)
    if page.query_selector("#action-menu"):
        page.click("#action-menu button[data-action-id]")
    page.wait_for_selector("#battle .group")
    assert int(page.get_attribute("#app", "data-plies")) == plies + 1
    page.click("#prompt button.undo")
    # The group is taken back: the game is where it was before the click.
    page.wait_for_function(
        "(v) => document.getElementById('app').dataset.plies === v", arg=str(plies)
    )
    assert page.query_selector("#battle .group") is None
    assert page.query_selector(own) is not None
    assert errors == []


def test_hotseat_undo_is_asked_and_allowed(server: ServerProcess, browser: Any) -> None:
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
    plies = page.get_attribute("#app", "data-plies")
    page.click(own)
    if page.query_selector("#action-menu"):
        page.click("#action-menu button[data-action-id]")
    page.wait_for_selector("#battle .group")
    page.click("#prompt button.undo")
    # A two-person game asks the other player, who sits at the same screen in hot-seat.
    page.wait_for_selector(".undo-request button")
    assert "asks to undo" in page.inner_text(".undo-request")
    page.click(".undo-request button:text('Allow')")
    page.wait_for_function("(v) => document.getElementById('app').dataset.plies === v", arg=plies)
    assert page.query_selector("#battle .group") is None
    assert errors == []


# --- a seeded position: Defense Shields against an attacking Ship, and an equipped hero ---------


def _scripted_action(game: GameState) -> Any:
    """A simple script for both players that soon brings Defense Shields against a Space
    Cruiser: the Rebel never attacks and deploys Defense Shields first; the Imperial attacks only
    with a Space Cruiser into the shields; both attach items and companions when they can."""
    view = game.view(game.to_move)
    by_kind: dict[str, list[Any]] = {}
    for a in view.legal_actions:
        by_kind.setdefault(str(a.kind), []).append(a)

    def first(*kinds: str, card: str | None = None) -> Any:
        for kind in kinds:
            for a in by_kind.get(kind, []):
                if card is None or a.card == card:
                    return a
        return None

    if "draw" in by_kind:
        return max(by_kind["draw"], key=lambda a: a.n)
    rebel = game.to_move == 0
    step = str(view.step)
    if step == "form groups":
        mine = [u.name for u in view.you.active]
        theirs = [u.name for u in view.opponent.active]
        if not rebel and "Defense Shields" in theirs and "Space Cruiser" in mine:
            a = first("form_space", card="Space Cruiser") or first("attack")
            if a is not None:
                return a
        return first("no_attack", "attack")
    if step == "deploy":
        wanted = "Defense Shields" if rebel else "Space Cruiser"
        return (
            first("attach")
            or first("deploy", card=wanted)
            or first("deploy")
            or first("done_deploying")
        )
    return first(
        "ion_hold", "done_blocking", "done_targeting", "pass", "pick", "end_turn", "discard"
    )


def _shields_position(game: GameState) -> bool:
    """After the blocks, an unblocked group whose Ships' damage Defense Shields stop, with an
    equipped unit on the table."""
    view = game.view(game.to_move)
    if view.battle is None or str(view.step) not in ("target", "battle tricks"):
        return False
    stopped = any(g.damage is not None and g.stopped > 0 for g in view.battle.groups)
    sides = (view.you, view.opponent)
    units = [u for side in sides for zone in (side.active, side.inactive) for u in zone]
    return stopped and any(u.attachments for u in units)


def seeded_shields_position() -> tuple[int, list[tuple[int, int]], GameState]:
    """(seed, [(action id, seat)], game): the shortest scripted way to the position among a
    few seeds, found with the engine the server runs (hot-seat games take a seed)."""
    best = None
    for seed in range(1, 25):
        game = new_game(seed=seed)
        plies: list[tuple[int, int]] = []
        while not game.is_over and len(plies) < 400:
            if _shields_position(game):
                if best is None or len(plies) < len(best[1]):
                    best = (seed, plies, game)
                break
            seat = game.to_move
            action = _scripted_action(game)
            game.apply(action.id, player=seat)
            plies.append((action.id, seat))
    assert best is not None, "no seed brought Defense Shields against a Ship"
    return best


def test_shields_and_an_equipped_hero_show_the_servers_numbers(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    seed, plies, game = seeded_shields_position()
    created = api(server, "POST", "/api/games", body={"mode": "hotseat", "seed": seed})
    game_id = created["game_id"]
    tokens = {s["player"]: s["token"] for s in created["seats"]}
    seat_names = ("rebel", "imperial")

    def post(action: int, seat: int, version: int) -> None:
        path = f"/api/games/{game_id}/actions"
        api(server, "POST", path, tokens[seat_names[seat]], {"action": action, "version": version})

    for version, (action, seat) in enumerate(plies):
        post(action, seat, version)
    me = seat_names[game.to_move]
    state = api(server, "GET", f"/api/games/{game_id}", token=tokens[me])
    assert state["version"] == len(plies)
    groups = state["view"]["battle"]["groups"]
    shielded = [g for g in groups if g["damage"] is not None and g["stopped"]]
    assert shielded, state["view"]["battle"]

    # The page holds the seat to move only (as one player's browser would).
    errors: list[str] = []
    page = open_page(browser, server.url, errors)
    page.evaluate(
        "([id, seat, token]) => localStorage.setItem('rebelspace.games',"
        " JSON.stringify({[id]: {mode: 'hotseat', seats: {[seat]: token}, created: 1}}))",
        [game_id, me, tokens[me]],
    )
    page.goto(f"{server.url}/game/{game_id}")
    page.wait_for_selector("#prompt.mine")
    assert page.get_attribute("#app", "data-version") == str(len(plies))
    page.screenshot(path=str(artifacts / "battle-shields.png"), full_page=True)

    numbers: Counter[str] = Counter()
    check_table_numbers(page, server, numbers)
    assert numbers["shields"] >= 1 and numbers["equipped"] >= 1, numbers
    # The damage after shields, in words: the group's Ships deal nothing to the deck.
    for g in shielded:
        against = page.inner_text(f"#battle section.group[data-group='{g['number']}'] .against")
        assert f"unblocked: {g['damage']} damage" in against
        assert f"Defense Shields stop {g['stopped']} " in against
    # An equipped unit shows its ratings with its attachments, not the printed ones.
    printed = {c["name"]: c for c in api(server, "GET", "/api/cards")["cards"]}
    view = state["view"]
    equipped = [
        (side, where, i, u)
        for side, where in ZONES.values()
        for i, u in enumerate(view[side][where])
        if u["attachments"]
    ]
    assert equipped
    for side, where, i, unit in equipped:
        zone = next(k for k, v in ZONES.items() if v == (side, where))
        card = page.locator(f"[data-zone='{zone}'] .cards > .unit").nth(i).locator(":scope > .card")
        shown = card.locator(".card-stats .stat").all_inner_texts()
        assert shown == ratings(unit)
        base = printed[unit["name"]]
        assert shown != ratings(base), (unit, base)  # its attachments count

    # Play the attack out: the last-attack summary (from the events) tells what got through.
    while game.view(0).battle is not None:
        seat = game.to_move
        action = _scripted_action(game)
        game.apply(action.id, player=seat)
        post(action.id, seat, len(plies))
        plies.append((action.id, seat))
    page.wait_for_function(
        "(v) => document.getElementById('app').dataset.version === v", arg=str(len(plies))
    )
    page.wait_for_selector("#battle.last")
    lines = page.locator("#battle.last li").all_inner_texts()
    page.screenshot(path=str(artifacts / "last-attack.png"), full_page=True)
    assert any("gets through" in line and "Defense Shields" in line for line in lines), lines
    assert errors == []


def test_keyboard_play_keeps_the_focus_on_the_current_decision(
    server: ServerProcess, browser: Any
) -> None:
    errors: list[str] = []
    page = open_page(browser, server.url, errors)
    start_computer_game(page)
    focused = "() => document.activeElement && document.activeElement.id"
    for _ in range(3):
        Clicker(page).wait_my_move()
        # Each new decision takes the focus: the next Tab starts at the prompt, not at the top.
        page.wait_for_function("() => document.activeElement.id === 'prompt'")
        before = page.get_attribute("#app", "data-version")
        for _ in range(12):
            page.keyboard.press("Tab")
            # A decision's button: the Hint button on the prompt's title line comes first.
            inside = page.evaluate(
                "() => !!document.activeElement.closest('#prompt')"
                " && document.activeElement.tagName === 'BUTTON'"
                " && document.activeElement.id !== 'hint-button'"
            )
            if inside:
                break
        else:
            where = page.evaluate(focused)
            raise AssertionError(f"Tab never reached a button of the prompt: {where}")
        page.keyboard.press("Enter")
        page.wait_for_function(
            "(v) => document.getElementById('app').dataset.version !== v", arg=before
        )
    assert errors == []


def test_a_cards_full_text_shows_on_hover_and_focus(server: ServerProcess, browser: Any) -> None:
    errors: list[str] = []
    page = open_page(browser, server.url, errors)
    start_computer_game(page)
    Clicker(page).wait_my_move()
    card = page.locator(".hand .card").first
    name = card.get_attribute("data-name")
    card.hover()
    info = page.locator("#card-info")
    info.wait_for(state="visible")
    text = info.inner_text()
    catalogue = api(server, "GET", "/api/cards")["cards"]
    entry = next(c for c in catalogue if c["name"] == name)
    assert name in text
    if entry["cost"] is not None:
        assert f"cost {entry['cost']}" in text, text
    if entry["ability"]:  # an action's printed text, with when it is played
        assert entry["notes"] in text, text
    for keyword in entry["notes"].replace(";", ",").split(",") if not entry["ability"] else []:
        if keyword.strip():  # each printed keyword starts one line saying what it means
            lines = [x for x in text.splitlines()[2:] if x.startswith(keyword.strip())]
            assert len(lines) == 1, (keyword, text)
    # Keyboard focus on a highlighted card shows it too; Escape hides it.
    page.mouse.move(0, 0)
    glowing = page.locator(".table .card.clickable").first
    if glowing.count():
        glowing.focus()
        info.wait_for(state="visible")
        assert glowing.get_attribute("data-name") in info.inner_text()
        page.keyboard.press("Escape")
        info.wait_for(state="hidden")
    assert errors == []


def test_a_long_press_shows_a_cards_text_and_its_release_is_not_a_choice(
    server: ServerProcess, browser: Any
) -> None:
    """On a touch screen there is no hover: a long press shows the card's text, and the click
    that ends the press must not also play the card (cards.js, installCardInfo)."""
    errors: list[str] = []
    page = open_page(browser, server.url, errors)
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    start_computer_game(page)
    player = Clicker(page)
    hand = page.locator(".hand .card.clickable")
    player.play_until(lambda: player.attr("step") == "deploy" and hand.count() > 0)
    assert not player.is_over(), "the game ended before a deploy with a playable card"
    card = hand.first
    name = card.get_attribute("data-name")
    version = player.attr("version")
    posts.clear()

    card.dispatch_event("pointerdown", {"pointerType": "touch", "isPrimary": True})
    info = page.locator("#card-info")
    info.wait_for(state="visible")
    assert name is not None and name in info.inner_text()
    card.dispatch_event("pointerup", {"pointerType": "touch", "isPrimary": True})
    card.click()  # the click a touch screen sends when the finger lifts
    assert page.locator("#action-menu").count() == 0
    assert player.attr("version") == version
    # A plain click afterwards does choose: it opens the card's menu or sends its action.
    card.click()
    page.wait_for_function(
        "(v) => document.getElementById('action-menu')"
        " || document.getElementById('app').dataset.version !== v",
        arg=version,
    )
    menu = page.locator("#action-menu").count()
    # Only the plain click reached the server, if anything did: the long press sent nothing.
    assert len([u for u in posts if u.endswith("/actions")]) == (0 if menu else 1), posts
    assert errors == []


def test_an_only_choice_is_made_after_a_visible_note(server: ServerProcess, browser: Any) -> None:
    errors: list[str] = []
    # The default setting: an only choice (a lone "Pass") is not waited for.
    page = open_page(browser, server.url, errors, confirm_forced=False)
    start_computer_game(page)
    player = Clicker(page)
    notes: list[str] = []

    def look() -> None:
        note = page.locator("#prompt[data-forced='auto'] .forced")
        if note.count():
            notes.append(note.inner_text())

    player.play_until(lambda: player.kinds["forced"] >= 2, check=look)
    assert player.kinds["forced"] >= 2, "no only choice in the game"
    # The clicker did not click those: the page made them, after saying so.
    assert len(notes) >= 2 and all("only choice" in n for n in notes), notes
    assert errors == []
