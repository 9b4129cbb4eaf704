"""axe-core finds no serious or critical accessibility violation (contrast included) on the
lobby and on the table, in its decisions and at the end of a game, and on every other page
(the card gallery, the rules, the recent games, an online game waiting for its guest and
watched, a replay), at both screen sizes."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.server_process import ServerProcess
from tests.web.axe import assert_accessible
from tests.web.web_clicker import Clicker
from tests.web.web_harness import settings_script
from tests.web.web_pages import api, open_page, play_out, seats_storage

SIZES = [(1280, 800), (390, 844)]


def new_page(browser: Any, size: tuple[int, int], errors: list[str]) -> Any:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    context.add_init_script(settings_script())
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    return page


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_lobby_has_no_serious_accessibility_violation(
    server: ServerProcess, browser: Any, size: tuple[int, int]
) -> None:
    errors: list[str] = []
    page = new_page(browser, size, errors)
    page.goto(server.url)
    page.wait_for_selector("#new-computer")
    assert_accessible(page, "the lobby")
    assert errors == []


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_table_has_no_serious_accessibility_violation(
    server: ServerProcess, browser: Any, size: tuple[int, int]
) -> None:
    errors: list[str] = []
    page = new_page(browser, size, errors)
    page.goto(server.url)
    page.select_option("#opponent", "random")
    page.click("#new-computer")
    page.wait_for_selector("#prompt")
    player = Clicker(page)
    checked: set[str] = set()

    def check() -> None:
        step = page.get_attribute("#app", "data-step") or "?"
        if step not in checked:
            checked.add(step)
            assert_accessible(page, f"the table ({step})")

    player.play_until(lambda: False, check=check)
    page.wait_for_selector("#winner")
    assert_accessible(page, "the table at the end")
    # The first decision's state, then the usual ones of a turn, were all checked.
    assert {"draw", "form groups", "deploy", "end"} <= checked, checked
    assert errors == []


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_every_page_has_no_serious_accessibility_violation(
    server: ServerProcess, browser: Any, size: tuple[int, int]
) -> None:
    finished = api(
        server,
        "POST",
        "/api/games",
        body={"mode": "computer", "side": "rebel", "opponent": "random", "seed": 7},
    )
    token = finished["seats"][0]["token"]
    play_out(server, finished["game_id"], token, seed=7)
    online = api(server, "POST", "/api/games", body={"mode": "online", "side": "rebel"})
    seats = {
        finished["game_id"]: {"mode": "computer", "seats": {"rebel": token}, "created": 1},
        **seats_storage(online["game_id"], "online", {"rebel": online["seats"][0]["token"]}),
    }
    pages = [
        ("/cards", "#gallery-list .gallery-card .card-art", "the card gallery"),
        ("/rules", "h1", "the rules"),
        ("/games", "#app h1", "the recent games"),
        (f"/game/{online['game_id']}", "#prompt", "an online game waiting for its guest"),
        (f"/watch/{online['game_id']}", "#prompt", "an online game, watched"),
        (f"/game/{finished['game_id']}", "#winner", "a finished game"),
        (f"/replay/{finished['game_id']}", "#replay-board #replay-rebel", "a replay"),
    ]
    for path, ready, what in pages:
        errors: list[str] = []
        page = open_page(
            browser, f"{server.url}{path}", errors, storage=seats, viewport=(size[0], size[1])
        )
        page.wait_for_selector(ready)
        assert_accessible(page, f"{what} at {size[0]}x{size[1]}")
        assert errors == [], (what, errors)
        page.context.close()
