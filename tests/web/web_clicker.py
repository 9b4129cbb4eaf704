"""A scripted player that plays the browser client by clicking the table as a person would:
highlighted cards, the group panels of the battle, the menu that a card opens, and the prompt's
buttons. The list of all legal actions is used only as a fallback, and counted, so a test can
check that the table offered every decision.

The strategy aims at short games: draw 2, attack with every unit, block and target once in a
while (to use those clicks), play what lights up, and let damage through.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from pathlib import Path
from typing import Any

Page = Any  # playwright.sync_api.Page (kept loose: the import is only needed at run time)

VERSION_CHANGED = """(before) => {
  const app = document.getElementById('app');
  return document.getElementById('winner') || (app && app.dataset.version !== before)
    || (document.getElementById('error') && document.getElementById('error').textContent);
}"""
MY_MOVE_OR_OVER = """() => {
  const app = document.getElementById('app');
  return document.getElementById('winner') || (app && app.dataset.mine === 'yes'
    && !document.getElementById('take-seat'));
}"""

MY_MOVE_OR_PLAYBACK = f"() => ({MY_MOVE_OR_OVER})() || document.getElementById('prompt-skip')"


# What a test failing to see its click answered reports of the page.
PAGE_STATE = """() => {
  const app = document.getElementById('app');
  const prompt = document.getElementById('prompt');
  const menu = document.getElementById('action-menu');
  return JSON.stringify({
    data: app ? { ...app.dataset } : null,
    phase: (document.getElementById('phase') || {}).textContent,
    prompt: prompt ? prompt.outerHTML.slice(0, 1500) : null,
    menu: menu ? menu.outerHTML.slice(0, 500) : null,
    error: (document.getElementById('error') || {}).textContent || null,
  });
}"""


class Clicker:
    def __init__(self, page: Page, name: str = "player") -> None:
        self.page = page
        self.name = name
        self.fallbacks = 0
        self.clicks = 0
        self.per_step: Counter[str] = Counter()
        self.kinds: Counter[str] = Counter()  # what was clicked, for the test's assertions

    # ---- reading the page --------------------------------------------------------------------

    def attr(self, name: str) -> str | None:
        return self.page.get_attribute("#app", f"data-{name}")

    def is_over(self) -> bool:
        return self.page.query_selector("#winner") is not None

    def is_mine(self) -> bool:
        return self.attr("mine") == "yes" and not self.is_over()

    def error_text(self) -> str:
        message = self._locate("#error .message")
        return message.inner_text() if message is not None else ""

    def wait_my_move(self, timeout: float = 30_000) -> None:
        """Wait for this page's decision; a playback of the opponent's moves on the table
        (which holds the decision back) is skipped, as a player in a hurry would."""
        for _ in range(200):
            self.page.wait_for_function(MY_MOVE_OR_PLAYBACK, timeout=timeout)
            skip = self._locate("#prompt-skip")
            if skip is None:
                return
            # Playwright's errors: the playback ended first, the page redrew.
            with contextlib.suppress(Exception):
                skip.click(timeout=2_000)

    # ---- clicking -----------------------------------------------------------------------------

    def _locate(self, selector: str) -> Any:
        """The first element matching `selector`, or None. A locator, not an element handle:
        it finds the element again when it is clicked, so a redraw in between does no harm."""
        loc = self.page.locator(selector).first
        return loc if loc.count() else None

    def _click_card(self, selector: str, prefer: tuple[str, ...] = ()) -> bool:
        """Click a highlighted card; if it opens a menu, pick an item (preferred words first)."""
        card = self._locate(selector)
        if card is None:
            return False
        card.click()
        items = self.page.locator("#action-menu button[data-action-id]")
        if items.count():
            labels = items.all_inner_texts()
            choice = 0
            for word in prefer:
                hits = [k for k, text in enumerate(labels) if text.startswith(word)]
                if hits:
                    choice = hits[0]
                    break
            items.nth(choice).click()
            self.kinds["menu"] += 1
        return True

    def _button(self, kind: str) -> bool:
        button = self._locate(f"#prompt button.act-{kind}")
        if button is None:
            return False
        button.click()
        return True

    def _decide(self) -> None:
        step = self.attr("step") or ""
        phase = self.page.inner_text("#phase")
        done = self.per_step[phase]
        self.per_step[phase] += 1
        own = ".player.me [data-zone='own-active'] .card.clickable"
        hand = ".hand .card.clickable"
        battle = "#battle .card.clickable"
        if self.page.locator("#prompt[data-forced='auto']").count():
            # An only choice is made by the page itself after a moment: clicking it too could
            # land on the next decision's button.
            self.kinds["forced"] += 1
        elif step == "draw":
            self.page.locator("#prompt button.act-draw").last.click()
            self.kinds["draw"] += 1
        elif step == "form groups":
            if done < 12 and self._click_card(own, prefer=("Add",)):
                self.kinds["form"] += 1
            elif not self._button("attack"):
                self._button("no_attack")
        elif step == "ion cannon":
            if not self._click_card(battle):
                self._button("ion_hold")
        elif step in ("block", "target"):
            group = self._locate("#battle .group.selectable")
            where = own if step == "block" else ".player.opponent .card.clickable"
            if done == 0 and group is not None:
                group.click()  # select the attacking group ...
                if self._click_card(where):  # ... then a unit for it
                    self.kinds[step] += 1
                    return
            self._button("done_blocking" if step == "block" else "done_targeting")
        elif step == "battle tricks":
            if done == 0 and self._click_card(hand):
                self.kinds["trick"] += 1
            else:
                self._button("pass")
        elif step == "casualties":
            if not self._click_card(battle):
                raise AssertionError("casualty step without a highlighted card")
            self.kinds["casualty"] += 1
        elif step == "deploy":
            if self._click_card(hand, prefer=("Attach", "Deploy")):
                self.kinds["deploy"] += 1
            else:
                self._button("done_deploying")
        elif step == "end":
            if done < 3 and self._click_card(hand):
                self.kinds["end card"] += 1
            else:
                self._button("end_turn")
        elif step == "discard":
            self._click_card(hand)
            self.kinds["discard"] += 1
        else:
            self.fallback()

    def fallback(self) -> None:
        self.fallbacks += 1
        self.page.click("#all-actions button[data-action-id]")

    def act(self, timeout: float = 30_000) -> None:
        """Make one decision and wait until the page shows the game after it."""
        before = self.attr("version") or ""
        step = self.attr("step")
        kinds = self.kinds.copy()
        self._decide()
        self.clicks += 1
        try:
            self.page.wait_for_function(VERSION_CHANGED, arg=before, timeout=timeout)
        except Exception as e:  # playwright's TimeoutError: say what was clicked, and the page
            did = dict(self.kinds - kinds) or "no click counted"
            raise AssertionError(
                f"{self.name}: the page stayed at version {before} after {did} at step {step!r}"
                f" (click {self.clicks}); page: {self.page.evaluate(PAGE_STATE)}"
            ) from e
        error = self.error_text()
        if error:
            raise AssertionError(f"{self.name}: the server refused a click: {error}")

    def play_until(
        self,
        done: Any,
        max_moves: int = 3000,
        shot: Path | None = None,
        check: Any = None,
    ) -> None:
        """Play this page's decisions until `done()` is true (or the game is over). `check()`,
        if given, looks at the page before each decision (the table is still then: it is this
        page's decision)."""
        for _ in range(max_moves):
            if self.is_over() or done():
                return
            self.wait_my_move()
            if self.is_over() or done():
                return
            if shot is not None and self.attr("step") == "block" and not shot.exists():
                self.page.screenshot(path=str(shot), full_page=True)
            if check is not None:
                check()
            self.act()
        raise AssertionError(f"{self.name}: no end after {max_moves} moves")
