"""The card gallery (/cards, issue 13) in headless Chromium: every card of both sides with its
full text, the side and type filters and the search, reachable from the lobby and the table."""

from __future__ import annotations

import re
from typing import Any

from tests.server.server_process import ServerProcess
from tests.web.axe import assert_accessible
from tests.web.web_pages import api, open_page

SHOWN = (
    "() => [...document.querySelectorAll('.gallery-card:not([hidden])')].map((c) => c.dataset.name)"
)


def shown(page: Any) -> list[str]:
    return list(page.evaluate(SHOWN))


def test_gallery_lists_every_card_with_its_full_text(server: ServerProcess, browser: Any) -> None:
    errors: list[str] = []
    cards = api(server, "GET", "/api/cards")["cards"]
    page = open_page(browser, f"{server.url}/cards", errors)
    page.wait_for_selector("#gallery-list .gallery-card")
    assert shown(page) == [c["name"] for c in cards]
    assert page.inner_text("#gallery-count") == f"{len(cards)} of {len(cards)} cards"
    # A unit: side, type, cost, ratings, copies and what its keywords do.
    smuggler = next(c for c in cards if c["name"] == "Smuggler")
    text = page.locator(".gallery-card[data-name='Smuggler']").inner_text()
    assert "Rebel" in text and "Hero" in text
    assert (
        f"Ground {smuggler['ground']} · Space {smuggler['space']} · Damage {smuggler['damage']}"
        in text
    )
    assert re.search(rf"Cost\s+{smuggler['cost']}", text), text
    assert re.search(rf"Copies\s+{smuggler['count']}", text), text
    # An action card: its ability as printed and when it is played.
    spy = next(c for c in cards if c["ability"] == "spy")
    text = page.locator(f".gallery-card[data-name='{spy['name']}']").inner_text()
    assert spy["notes"] in text and "End phase" in text, text
    assert errors == []


def test_gallery_filters_by_side_and_type_and_searches(server: ServerProcess, browser: Any) -> None:
    errors: list[str] = []
    cards = api(server, "GET", "/api/cards")["cards"]
    page = open_page(browser, f"{server.url}/cards", errors)
    page.wait_for_selector("#gallery-list .gallery-card")
    page.select_option("#gallery-side", "imperial")
    assert shown(page) == [c["name"] for c in cards if c["side"] == "imperial"]
    page.select_option("#gallery-kind", "action")
    imperial_actions = [
        c["name"] for c in cards if c["side"] == "imperial" and c["kind"] == "action"
    ]
    assert imperial_actions and shown(page) == imperial_actions
    page.select_option("#gallery-side", "")
    page.select_option("#gallery-kind", "hero")
    assert shown(page) == [c["name"] for c in cards if c["kind"] == "hero"]
    page.select_option("#gallery-kind", "")
    # The search reads names and the printed text, every word must match.
    page.fill("#gallery-search", "smuggler")
    assert shown(page) == ["Smuggler"]
    page.fill("#gallery-search", "look at opponents hand")
    spies = [c["name"] for c in cards if c["ability"] == "spy"]
    assert len(spies) == 2 and shown(page) == spies
    page.fill("#gallery-search", "no such card anywhere")
    assert shown(page) == [] and page.inner_text("#gallery-count") == f"0 of {len(cards)} cards"
    page.fill("#gallery-search", "")
    assert len(shown(page)) == len(cards)
    assert errors == []


def test_gallery_is_accessible(server: ServerProcess, browser: Any) -> None:
    errors: list[str] = []
    page = open_page(browser, f"{server.url}/cards", errors)
    page.wait_for_selector("#gallery-list .gallery-card")
    assert_accessible(page, "the card gallery")
    page.select_option("#gallery-side", "rebel")
    page.fill("#gallery-search", "hero")
    assert_accessible(page, "the card gallery, filtered")
    assert errors == []


def test_gallery_reachable_from_the_lobby_and_the_table(
    server: ServerProcess, browser: Any
) -> None:
    errors: list[str] = []
    page = open_page(browser, server.url, errors)
    page.click("#link-cards")
    page.wait_for_selector("#gallery-list .gallery-card")
    assert page.url == f"{server.url}/cards"
    assert page.get_attribute("#link-rules", "href") == "/rules"
    page.click("#link-lobby")
    page.select_option("#opponent", "random")
    page.click("#new-computer")
    page.wait_for_selector("#prompt")
    # The table's bar: the gallery in a new tab (the game stays open); the rules.
    link = page.locator("#table-cards")
    assert link.get_attribute("href") == "/cards" and link.get_attribute("target") == "_blank"
    with page.context.expect_page() as opened:
        link.click()
    gallery = opened.value
    gallery.wait_for_selector("#gallery-list .gallery-card")
    assert page.locator("nav.site a[href='/rules']").count() == 1
    assert errors == []
