"""The table fits one screen: at a laptop's 1280×800 and a phone's 390×844, after every decision
of a whole game against the computer, both sides' zones, the hand, the current prompt and its
buttons are inside the viewport and the page does not scroll. A screenshot of each kind of
decision at both sizes goes to test-artifacts/.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.server.server_process import ServerProcess
from tests.web.web_clicker import Clicker
from tests.web.web_harness import computer_game_page

SIZES = [(1280, 800), (390, 844)]

# The boxes of what must be on screen, and the page's scroll state, read in one go.
READ_BOXES = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom,
            width: r.width, height: r.height}; };
  const one = (sel) => { const el = document.querySelector(sel); return el ? box(el) : null; };
  const html = document.documentElement;
  const controls = [...document.querySelectorAll('#prompt button, #prompt input')];
  return {
    viewport: {width: html.clientWidth, height: html.clientHeight},
    scrollY: window.scrollY,
    scrollHeight: html.scrollHeight,
    hand: one('.dock .hand'),
    prompt: one('#prompt'),
    buttons: controls.map((b) => ({text: b.textContent || b.value, ...box(b)})),
    opponent: one('.player.opponent'),
    me: one('.player.me'),
    battle: one('#battle'),
    winner: one('#winner'),
    noBattle: document.querySelector('.table.no-battle') !== null,
    handRow: (() => { const c = document.querySelector('.dock .hand > .cards');
                      return c ? {scroll: c.scrollWidth, client: c.clientWidth} : null; })(),
  };
}"""


def assert_inside(name: str, box: dict[str, float] | None, viewport: dict[str, int]) -> None:
    assert box is not None, f"{name} is not on the page"
    assert box["width"] > 0 and box["height"] > 0, f"{name} has no size: {box}"
    inside = (
        box["left"] >= -0.5
        and box["top"] >= -0.5
        and box["right"] <= viewport["width"] + 0.5
        and box["bottom"] <= viewport["height"] + 0.5
    )
    assert inside, f"{name} is not inside the {viewport} viewport: {box}"


def check_one_screen(page: Any, size: tuple[int, int], shots: Path, seen: set[str]) -> None:
    boxes = page.evaluate(READ_BOXES)
    step = page.get_attribute("#app", "data-step") or "?"
    viewport = boxes["viewport"]
    assert boxes["scrollY"] == 0 and boxes["scrollHeight"] <= viewport["height"], (step, boxes)
    for name in ("hand", "prompt", "opponent", "me", "battle"):
        assert_inside(f"{step}: {name}", boxes[name], viewport)
    assert boxes["buttons"], f"{step}: the prompt has no button"
    for button in boxes["buttons"]:
        assert_inside(f"{step}: button {button['text']!r}", button, viewport)
    if size[0] < 700 and boxes["noBattle"] and boxes["handRow"]:
        # On a phone with no battle on, the hand wraps: no card is hidden off to the side.
        row = boxes["handRow"]
        assert row["scroll"] <= row["client"] + 1, f"{step}: the hand scrolls sideways: {row}"
    if step not in seen:
        seen.add(step)
        name = step.replace(" ", "-")
        page.screenshot(path=str(shots / f"layout-{size[0]}x{size[1]}-{name}.png"))


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_hand_prompt_and_buttons_stay_on_one_screen_for_a_whole_game(
    server: ServerProcess, browser: Any, artifacts: Path, size: tuple[int, int]
) -> None:
    errors: list[str] = []
    page = computer_game_page(browser, server.url, errors, size=size, ready="#prompt")
    player = Clicker(page, f"{size[0]}x{size[1]}")
    seen: set[str] = set()
    player.play_until(lambda: False, check=lambda: check_one_screen(page, size, artifacts, seen))
    page.wait_for_selector("#winner")
    # The end is on screen too, with its verdict.
    boxes = page.evaluate(READ_BOXES)
    assert_inside("the result", boxes["prompt"], boxes["viewport"])
    assert_inside("You win/lose", boxes["winner"], boxes["viewport"])
    verdict = page.inner_text("#winner")
    assert "You win." in verdict or "You lose." in verdict, verdict
    page.screenshot(path=str(artifacts / f"layout-{size[0]}x{size[1]}-over.png"))
    if size[0] < 700:
        # On a phone the log, all choices and help open over the table, and close again.
        assert not page.locator("#log").is_visible()
        page.click("#side-toggle")
        assert page.locator("#log").is_visible()
        page.click("#sidebar .side-close")
        assert not page.locator("#log").is_visible()
    # Every kind of decision of a whole game was seen and checked.
    assert {"draw", "form groups", "deploy", "end"} <= seen, seen
    assert errors == []
    page.context.close()
