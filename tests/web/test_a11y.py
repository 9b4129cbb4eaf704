"""axe-core finds no serious or critical accessibility violation (contrast included) on the
lobby and on the table, in its decisions and at the end of a game, at both screen sizes."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.server_process import ServerProcess
from tests.web.axe import assert_accessible
from tests.web.web_clicker import Clicker
from tests.web.web_harness import settings_script

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
