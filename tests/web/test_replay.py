"""The replay viewer (/replay/{id}, issues 13 and 31) in headless Chromium: a whole game against
the computer, then its replay stepped to the end shows the game's final position, and back; the
replay is the game's table, read-only, one screen high at both sizes, a click on a move (in the
list or the analysis) shows that ply, the mark follows the table, the sides flip."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.server.server_process import ServerProcess
from tests.web.axe import assert_accessible
from tests.web.web_pages import api, open_page, play_out

# What the replay's table shows of each side: the cards of its hand and zones (both hands face
# up), its deck's count and its discard pile's button (a count with the top card).
READ_BOARD = """() => Object.fromEntries(['rebel', 'imperial'].map((side) => {
  const panel = document.getElementById(`replay-${side}`);
  const names = (sel) => [...panel.querySelectorAll(sel)].map((c) => c.dataset.name);
  return [side, {deck: panel.querySelector('.deck').textContent,
                 hand: names('.side-hand .cards > .card'),
                 active: names('[data-zone$="-active"] .cards > .unit > .card'),
                 inactive: names('[data-zone$="-inactive"] .cards > .unit > .card'),
                 discard: panel.querySelector('.pile').textContent}];
}))"""


def pile_text(side: dict[str, Any]) -> str:
    """The discard pile's button: its count, and its top card (the last) when it has one."""
    pile = side["discard"]
    top = f" · top: {pile[-1]}" if pile else ""
    return f"{side['player'].capitalize()} discard pile: {len(pile)}{top}"


def side_of(view: dict[str, Any], side: str) -> dict[str, Any]:
    return view["you"] if view["you"]["player"] == side else view["opponent"]


def expected(side: dict[str, Any], hand: list[str] | None) -> dict[str, Any]:
    return {
        "deck": f"Deck: {side['deck_size']}",
        "hand": hand if hand is not None else side["hand"],
        "active": [u["name"] for u in side["active"]],
        "inactive": [u["name"] for u in side["inactive"]],
        "discard": pile_text(side),
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
    # The pile's button lists the whole pile, bottom first, in a dialog.
    page.click("#replay-rebel .pile")
    listed = page.eval_on_selector_all(
        "dialog.pile-dialog .cards > .card", "(cs) => cs.map((c) => c.dataset.name)"
    )
    assert listed == mine["discard"]
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog.pile-dialog", state="detached")
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


# ---- the replay is the game's table, one screen high (issue 31 item 7) ----------------------

SIZES = [(1280, 800), (390, 844)]

# The page's height against the viewport's, the main area's own scroll, where the table's
# panels are (their boxes), and how many cards the sides lay out, read in one go.
READ_FIT = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height}; };
  const app = document.getElementById('app');
  return {
    page: document.scrollingElement.scrollHeight, inner: innerHeight, width: innerWidth,
    app: {scroll: app.scrollHeight, client: app.clientHeight},
    panels: [...document.querySelectorAll(
      '.replay-bar, .table .player, .table .middle, .table .dock')]
      .map((el) => ({name: el.className, ...box(el)})),
    sideCards: document.querySelectorAll('.table .player .card').length,
  };
}"""


def first_frame_with(frames: list[dict[str, Any]], test: Any, after: int = 0) -> int:
    return next(i for i, f in enumerate(frames) if i >= after and test(f))


def open_replay(
    browser: Any,
    server: ServerProcess,
    game_id: str,
    errors: list[str],
    size: tuple[int, int] = (1280, 800),
) -> Any:
    page = open_page(browser, f"{server.url}/replay/{game_id}", errors, viewport=size)
    page.wait_for_selector("#replay-board #replay-rebel")
    return page


def moved(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """Whether a card changed place between two frames (a zone's or a hand's cards differ)."""

    def places(view: dict[str, Any]) -> list[Any]:
        return [
            (
                s["player"],
                s["hand"],
                [u["name"] for u in s["active"]],
                [u["name"] for u in s["inactive"]],
            )
            for s in (view["you"], view["opponent"])
        ]

    return places(before["view"]) != places(after["view"])


def current_marks(page: Any) -> list[dict[str, Any]]:
    """Every element marked as the step shown (aria-current): its frame, whether it is a move
    of the list or of the analysis, and the mark."""
    return page.eval_on_selector_all(
        "[aria-current]",
        "(els) => els.map((e) => ({frame: Number(e.dataset.frame), "
        "kind: e.classList.contains('analysis-move') ? 'analysis' : 'move', "
        "value: e.getAttribute('aria-current')}))",
    )


# What on the replay's table could be a choice: action buttons, a prompt, glowing cards or
# groups; the cards face down; the class of every button on it.
READ_CHOICES = """() => {
  const count = (sel) => document.querySelectorAll(sel).length;
  return {
    actions: count('#replay-board [data-action-id], #replay-board .act, #replay-board #prompt'),
    clickable: count('#replay-board .clickable, #replay-board .selectable, '
                     + '#replay-board [role=button]'),
    backs: count('#replay-board .card.back'),
    buttons: [...document.querySelectorAll('#replay-board button')].map((b) => b.className),
  };
}"""


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_replay_fits_one_screen_with_piles_as_a_count_and_top_card(
    server: ServerProcess, browser: Any, artifacts: Path, size: tuple[int, int]
) -> None:
    errors: list[str] = []
    game_id, _ = finished_computer_game(server)
    frames = api(server, "GET", f"/api/games/{game_id}/replay")["frames"]
    page = open_replay(browser, server, game_id, errors, size)
    # The start, a battle in the middle of the game, and the end (long discard piles).
    battle = first_frame_with(frames, lambda f: f["view"]["battle"] is not None, len(frames) // 3)
    for i in (0, battle, len(frames) - 1):
        page.locator("#replay-slider").fill(str(i))
        assert step(page) == i
        fit = page.evaluate(READ_FIT)
        assert fit["page"] <= fit["inner"] + 1, (i, fit)
        assert fit["app"]["scroll"] <= fit["app"]["client"] + 1, (i, fit)
        for panel in fit["panels"]:
            assert panel["height"] > 0, (i, panel)
            assert panel["top"] >= -0.5 and panel["bottom"] <= fit["inner"] + 0.5, (i, panel)
            assert panel["left"] >= -0.5 and panel["right"] <= fit["width"] + 0.5, (i, panel)
        # The piles are one button each, never laid out card by card: the sides' cards are
        # their hands, their units and the units' attachments, no more.
        views = [side_of(frames[i]["view"], side) for side in ("rebel", "imperial")]
        units = [u for v in views for u in v["active"] + v["inactive"]]
        laid_out = sum(len(v["hand"]) for v in views) + sum(
            1 + len(u["attachments"]) for u in units
        )
        assert fit["sideCards"] == laid_out, (i, fit["sideCards"], laid_out)
        board = page.evaluate(READ_BOARD)
        for side in ("rebel", "imperial"):
            assert board[side]["discard"] == pile_text(side_of(frames[i]["view"], side))
        if i == battle:
            page.screenshot(path=str(artifacts / f"replay-{size[0]}x{size[1]}-battle.png"))
    assert (
        len(side_of(frames[-1]["view"], "imperial")["discard"])
        + len(side_of(frames[-1]["view"], "rebel")["discard"])
        > 20
    )  # long piles were shown
    assert errors == []


def test_clicking_a_move_shows_that_plys_table_and_marks_it(
    server: ServerProcess, browser: Any
) -> None:
    errors: list[str] = []
    game_id, _ = finished_computer_game(server)
    frames = api(server, "GET", f"/api/games/{game_id}/replay")["frames"]
    page = open_replay(browser, server, game_id, errors)
    # A move in the middle of the game that moved a card, and the ply before it.
    half = len(frames) // 2
    k = next(i for i in range(half, len(frames)) if moved(frames[i - 1], frames[i]))
    for i in (k, k - 1, k):
        page.click(f"#replay-moves .replay-move[data-frame='{i}']")
        assert step(page) == i
        assert page.get_attribute("#replay-board", "data-ply") == str(frames[i]["plies"])
        board = page.evaluate(READ_BOARD)
        for side in ("rebel", "imperial"):
            assert board[side] == expected(side_of(frames[i]["view"], side), None)
        assert current_marks(page) == [{"frame": i, "kind": "move", "value": "step"}]
    # The two boards differ: a card moved between them.
    before = page.evaluate(READ_BOARD)
    page.click(f"#replay-moves .replay-move[data-frame='{k - 1}']")
    assert page.evaluate(READ_BOARD) != before
    assert errors == []


def test_a_click_on_an_analysed_move_shows_its_table_and_the_mark_follows_the_steps(
    server: ServerProcess, browser: Any
) -> None:
    """A short hot-seat game (as in test_hint: the Rebel always plays its last choice), resigned."""
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
    frames = api(server, "GET", f"/api/games/{game_id}/replay")["frames"]
    page = open_replay(browser, server, game_id, errors)
    page.click("#analyse-rebel")
    page.wait_for_selector("#analysis-worst button.analysis-move")
    worst = page.locator("#analysis-worst button.analysis-move")
    # The last of the worst moves, so that the mark must leave the list's first item.
    target = worst.nth(worst.count() - 1)
    ply = int(target.get_attribute("data-ply"))
    target.click()
    shown = ply + 1  # the table after the analysed move
    assert step(page) == shown
    assert page.get_attribute("#replay-board", "data-ply") == str(frames[shown]["plies"])
    assert page.evaluate(READ_BOARD)["rebel"] == expected(
        side_of(frames[shown]["view"], "rebel"), None
    )
    # Marked: the move in the list and in the analysis, and nothing else.
    marks = current_marks(page)
    assert sorted((m["frame"], m["kind"]) for m in marks) == [(shown, "analysis"), (shown, "move")]
    if worst.count() > 1:
        assert worst.nth(0).get_attribute("aria-current") is None
    # A step by key: the mark leaves the analysed move for the next move in the list.
    page.locator("#replay-now").focus()
    page.keyboard.press("ArrowRight")
    assert step(page) == shown + 1
    assert current_marks(page) == [{"frame": shown + 1, "kind": "move", "value": "step"}]
    assert target.get_attribute("aria-current") is None
    assert errors == []


def test_arrow_keys_and_buttons_step_the_table_and_the_mark(
    server: ServerProcess, browser: Any
) -> None:
    errors: list[str] = []
    game_id, _ = finished_computer_game(server)
    frames = api(server, "GET", f"/api/games/{game_id}/replay")["frames"]
    page = open_replay(browser, server, game_id, errors)
    assert current_marks(page) == [{"frame": 0, "kind": "move", "value": "step"}]
    for key, want in (
        ("ArrowRight", 1),
        ("ArrowRight", 2),
        ("ArrowLeft", 1),
        ("End", len(frames) - 1),
        ("Home", 0),
    ):
        page.keyboard.press(key)
        assert step(page) == want, key
        assert page.get_attribute("#replay-board", "data-ply") == str(frames[want]["plies"])
        assert [m["frame"] for m in current_marks(page)] == [want], key
        rebel = side_of(frames[want]["view"], "rebel")
        assert page.evaluate(READ_BOARD)["rebel"] == expected(rebel, None), key
    page.click("#replay-forward")
    page.click("#replay-forward")
    assert step(page) == 2 and [m["frame"] for m in current_marks(page)] == [2]
    page.click("#replay-last")
    assert [m["frame"] for m in current_marks(page)] == [len(frames) - 1]
    # The marked move is scrolled into the list's sight (the list scrolls, the page does not).
    seen = page.evaluate(
        """() => { const l = document.getElementById('replay-moves').getBoundingClientRect();
                   const m = document.querySelector('.replay-move[aria-current]')
                     .getBoundingClientRect();
                   return m.top >= l.top - 1 && m.bottom <= l.bottom + 1; }"""
    )
    assert seen
    assert errors == []


def test_the_flip_button_swaps_the_sides(server: ServerProcess, browser: Any) -> None:
    errors: list[str] = []
    game_id, _ = finished_computer_game(server)
    page = open_replay(browser, server, game_id, errors)
    tops = """() => Object.fromEntries(['rebel', 'imperial'].map((s) =>
      [s, document.getElementById(`replay-${s}`).getBoundingClientRect().top]))"""
    bottom = "() => document.querySelector('.table .player.me').dataset.player"
    # The Rebel at the bottom first.
    assert page.evaluate(bottom) == "rebel"
    assert page.evaluate(tops)["rebel"] > page.evaluate(tops)["imperial"]
    assert page.get_attribute("#replay-flip", "aria-pressed") == "false"
    page.click("#replay-flip")
    assert page.evaluate(bottom) == "imperial"
    assert page.evaluate(tops)["imperial"] > page.evaluate(tops)["rebel"]
    assert page.get_attribute("#replay-flip", "aria-pressed") == "true"
    assert step(page) == 0  # the same step, seen from the other side
    # The sides stay flipped while stepping, and flip back.
    page.keyboard.press("ArrowRight")
    assert step(page) == 1 and page.evaluate(bottom) == "imperial"
    page.click("#replay-flip")
    assert page.evaluate(bottom) == "rebel"
    assert errors == []


def test_the_replays_table_is_read_only_with_both_hands_face_up(
    server: ServerProcess, browser: Any
) -> None:
    errors: list[str] = []
    game_id, _ = finished_computer_game(server)
    frames = api(server, "GET", f"/api/games/{game_id}/replay")["frames"]
    page = open_replay(browser, server, game_id, errors)
    battle = first_frame_with(frames, lambda f: f["view"]["battle"] is not None)
    for i in (0, battle, len(frames) - 1):
        page.locator("#replay-slider").fill(str(i))
        found = page.evaluate(READ_CHOICES)
        assert found["actions"] == 0 and found["clickable"] == 0, (i, found)
        # The only buttons on the table open a discard pile.
        assert set(found["buttons"]) <= {"pile"}, (i, found)
        assert found["backs"] == 0, (i, found)  # no card face down: both hands face up
        board = page.evaluate(READ_BOARD)
        for side in ("rebel", "imperial"):
            assert board[side]["hand"] == side_of(frames[i]["view"], side)["hand"], (i, side)
    # A click on a card of a hand does nothing (the page stays at its step).
    page.locator("#replay-slider").fill(str(battle))
    page.locator("#replay-rebel .side-hand .card").first.click()
    assert step(page) == battle
    assert errors == []


def test_on_a_phone_the_moves_open_over_the_table_and_a_click_shows_that_ply(
    server: ServerProcess, browser: Any
) -> None:
    errors: list[str] = []
    game_id, _ = finished_computer_game(server)
    frames = api(server, "GET", f"/api/games/{game_id}/replay")["frames"]
    page = open_replay(browser, server, game_id, errors, (390, 844))
    move = page.locator("#replay-moves .replay-move[data-frame='5']")
    assert not move.is_visible()  # the column is closed: the table has the screen
    page.click("#side-toggle")
    move.click()
    assert step(page) == 5
    assert page.get_attribute("#replay-board", "data-ply") == str(frames[5]["plies"])
    # The column closed again, so the table shows the ply.
    assert not move.is_visible() and page.locator("#replay-board #replay-rebel").is_visible()
    assert move.get_attribute("aria-current") == "step"
    assert errors == []
