"""Nothing on the table is cut: at every decision of a whole game against the computer, at a
laptop's 1280×800 and a phone's 390×844, no text in the zones, the hand, the battle panel, the
prompt or the status bar runs past its box (scroll width > client width), no card's face is
cut (a card hides what overflows it), the battle's groups wrap rather than run off the side of
the panel, and each panel with a glowing card shows one. Rows of cards may scroll inside their
zone, with a scroll bar: a row is not text. A screenshot of each kind of decision at both sizes
goes to test-artifacts/ (clip-<size>-<step>.png)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.server.server_process import ServerProcess
from tests.web.web_clicker import Clicker
from tests.web.web_harness import computer_game_page

SIZES = [(1280, 800), (390, 844)]

# Every visible box on the table that holds text of its own and overflows sideways (a scroll
# container excepted: it shows a scroll bar), and every card whose face overflows it.
FIND_CUT = """() => {
  const out = [];
  const where = (el) => {
    const card = el.closest('.card[data-name]');
    const zone = el.closest('[data-zone], .hand, #battle, #prompt, .status');
    return [zone ? (zone.dataset.zone || zone.id || zone.className) : '?',
            card ? card.dataset.name : ''].join(' ');
  };
  const scrolls = (el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
  const ownText = (el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  for (const el of document.querySelectorAll('.table *, .status *')) {
    if (!el.getClientRects().length || el.clientWidth === 0) continue;
    if (!ownText(el) || scrolls(el)) continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      out.push(`text: ${where(el)}: "${el.textContent.trim().slice(0, 50)}" `
        + `(${el.scrollWidth} > ${el.clientWidth})`);
    }
  }
  for (const el of document.querySelectorAll('.table .card[data-name]')) {
    if (!el.getClientRects().length) continue;
    if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) {
      out.push(`card: ${where(el)} (${el.scrollWidth}x${el.scrollHeight} in `
        + `${el.clientWidth}x${el.clientHeight})`);
    }
  }
  // The battle's groups wrap instead of running off the panel's side (issue 31: the row of
  // 4 groups was 1,827 px wide in a 630 px panel).
  const groups = document.querySelector('#battle .groups');
  if (groups && groups.scrollWidth > groups.clientWidth + 1) {
    out.push(`battle groups: a row ${groups.scrollWidth} px wide in ${groups.clientWidth} px`);
  }
  // A new decision shows a glowing card in each panel that has one (game.js revealChoices):
  // a choice is not left below a panel's edge or off the side of its row.
  const inside = (r, b) => r.top >= b.top - 1 && r.bottom <= b.bottom + 1
    && r.left >= b.left - 1 && r.right <= b.right + 1;
  for (const panel of document.querySelectorAll(
      '.table #battle, .table .player, .table .zone > .cards, .table .hand > .cards')) {
    const glowing = [...panel.querySelectorAll('.card.clickable')];
    if (!glowing.length) continue;
    const b = panel.getBoundingClientRect();
    if (!glowing.some((c) => inside(c.getBoundingClientRect(), b))) {
      out.push(`hidden choice: ${panel.id || panel.className} (${glowing.length} glowing)`);
    }
  }
  return out;
}"""


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_no_text_or_card_is_cut_at_any_decision_of_a_whole_game(
    server: ServerProcess, browser: Any, artifacts: Path, size: tuple[int, int]
) -> None:
    errors: list[str] = []
    page = computer_game_page(browser, server.url, errors, size=size, ready="#prompt")
    player = Clicker(page, f"{size[0]}x{size[1]}")
    seen: set[str] = set()
    cut: dict[str, str] = {}  # what was cut, at the first step it was seen

    def look() -> None:
        step = page.get_attribute("#app", "data-step") or "?"
        for found in page.evaluate(FIND_CUT):
            cut.setdefault(found, step)
        if step not in seen:
            seen.add(step)
            name = f"clip-{size[0]}x{size[1]}-{step.replace(' ', '-')}.png"
            page.screenshot(path=str(artifacts / name))

    player.play_until(lambda: False, check=look)
    page.wait_for_selector("#winner")
    look()
    assert {"draw", "form groups", "deploy", "end"} <= seen, seen
    assert not cut, "\n".join(f"{step}: {what}" for what, step in cut.items())
    assert errors == []
    page.context.close()
