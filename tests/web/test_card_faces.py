"""Card faces (cards.js, words.js) in headless Chromium: every card of the catalogue, drawn as
on the table at a phone's 390×844 and a laptop's 1280×800, shows its name whole (never cut,
never under the cost badge), names and ratings at 12 px or more on the phone, and what it does
in a few words; its full text names each keyword once; the gallery reads as player text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.server_process import ServerProcess
from tests.web.web_pages import api, open_page

# Every card drawn into a table (the page's CSS applies), then each face measured.
MEASURE = r"""async () => {
  const cards = await import('/cards.js');
  const words = await import('/words.js');
  await cards.loadCatalogue();
  const list = (await (await fetch('/api/cards')).json()).cards;
  const table = document.createElement('div');
  table.className = 'table';
  const zone = document.createElement('div');
  zone.className = 'cards';
  table.append(zone);
  document.getElementById('app').replaceChildren(table);
  const out = [];
  for (const c of list) {
    const el = cards.cardEl(c.name, {data: {place: 'own-active', name: c.name}});
    zone.append(el);
    const name = el.querySelector('.card-name');
    const cost = el.querySelector('.card-cost');
    const range = document.createRange();
    range.selectNodeContents(name);
    const lines = [...range.getClientRects()];
    const box = el.getBoundingClientRect();
    const costBox = cost ? cost.getBoundingClientRect() : null;
    const hits = costBox ? lines.filter((r) => r.right > costBox.left + 0.5
      && r.left < costBox.right && r.bottom > costBox.top + 0.5 && r.top < costBox.bottom) : [];
    // A word of the name split over two lines ("Companio" / "n") is cut too.
    const text = name.firstChild;
    let split = 0;
    for (const m of c.name.matchAll(/\S+/g)) {
      const word = document.createRange();
      word.setStart(text, m.index);
      word.setEnd(text, m.index + m[0].length);
      const tops = new Set([...word.getClientRects()].map((r) => Math.round(r.top)));
      if (tops.size > 1) split += 1;
    }
    const stats = [...el.querySelectorAll('.stat')];
    out.push({
      name: c.name,
      nameText: name.textContent,
      nameSize: parseFloat(getComputedStyle(name).fontSize),
      statSizes: stats.map((s) => parseFloat(getComputedStyle(s).fontSize)),
      nameInside: lines.every((r) => r.left >= box.left - 0.5 && r.right <= box.right + 0.5),
      nameOverflow: name.scrollWidth > name.clientWidth + 1,
      cardOverflow: el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1,
      underCost: hits.length,
      splitWords: split,
      ability: (el.querySelector('.card-ability') || {}).textContent || '',
      expected: words.shortAbility(c),
    });
  }
  return out;
}"""


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["390x844", "1280x800"])
def test_every_card_face_shows_its_whole_name_and_what_it_does(
    server: ServerProcess, browser: Any, size: tuple[int, int]
) -> None:
    errors: list[str] = []
    page = open_page(browser, f"{server.url}/cards", errors, viewport=size)
    page.wait_for_selector(".gallery-card")
    faces = page.evaluate(MEASURE)
    assert len(faces) == len(api(server, "GET", "/api/cards")["cards"])
    for f in faces:
        assert f["nameText"] == f["name"], f
        assert f["nameInside"] and not f["nameOverflow"] and not f["cardOverflow"], f
        # The name wraps under the cost badge, never into it, and never splits a word.
        assert f["underCost"] == 0, ("under the cost", f["name"])
        assert f["splitWords"] == 0, ("a word split", f["name"])
        assert f["ability"] == f["expected"], f
        if size[0] < 700:
            assert f["nameSize"] >= 12 and all(s >= 12 for s in f["statSizes"]), f
    # What a card does is on its face: keywords and abilities in a few words.
    said = {f["name"]: f["ability"] for f in faces}
    assert said["Ion Cannon"] == "Defense · Facility · Shoots 1 attacking Ship"
    assert said["Recruit"] == "End: hero from deck to hand"
    assert said["Troopers"] == ""
    assert errors == []


FULL_TEXTS = """async () => {
  const cards = await import('/cards.js');
  await cards.loadCatalogue();
  const list = (await (await fetch('/api/cards')).json()).cards;
  return list.map((c) => ({name: c.name, keywords: c.keywords, ability: c.ability, notes: c.notes,
    lines: cards.fullText(c.name).map((el) => el.textContent)}));
}"""


def test_a_cards_full_text_names_each_keyword_once(server: ServerProcess, browser: Any) -> None:
    errors: list[str] = []
    page = open_page(browser, f"{server.url}/cards", errors)
    page.wait_for_selector(".gallery-card")
    for card in page.evaluate(FULL_TEXTS):
        lines = card["lines"][1:]  # after the name: the type line, then the rest
        assert len(lines) == len(set(lines)), card
        # The printed keywords ("Facility; Defense; Destroy 1 attacking Ship"): each starts
        # one line of what it means, and the printed list is not repeated beside them.
        printed = [k.strip() for k in card["notes"].replace(";", ",").split(",") if k.strip()]
        if card["keywords"] and not card["ability"]:
            for keyword in printed:
                starts = [line for line in lines[1:] if line.lower().startswith(keyword.lower())]
                assert len(starts) == 1, (keyword, card)
            assert card["notes"] not in lines, card
        if card["ability"]:
            assert any(card["notes"] in line for line in lines), card
    assert errors == []


def test_the_gallery_is_written_for_players(server: ServerProcess, browser: Any) -> None:
    errors: list[str] = []
    page = open_page(browser, f"{server.url}/cards", errors)
    page.wait_for_selector(".gallery-card")
    text = page.inner_text("#gallery-list")
    for developer in ("(R", "src/", "printed “", ".py", ".toml"):
        assert developer not in text, developer
    assert errors == []


ART = r"""async () => {
  const cards = await import('/cards.js');
  await cards.loadCatalogue();
  const faces = [...document.querySelectorAll('.gallery-card')].map((li) => {
    const art = li.querySelector('.gallery-face .card-art');
    const svg = art && art.querySelector('svg');
    const box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
    return {name: li.dataset.name, icon: art ? art.dataset.icon : null,
      paths: svg ? svg.querySelectorAll('path').length : 0, width: box.width, height: box.height};
  });
  const newCard = cards.artName({name: 'A card not in the table', kind: 'space'});
  const credit = document.querySelector('.art-credit');
  return {faces, newCard, credit: credit ? credit.textContent : '',
    links: credit ? [...credit.querySelectorAll('a')].map((a) => a.href) : []};
}"""


def test_every_card_face_has_its_art_and_the_page_credits_the_icon_set(
    server: ServerProcess, browser: Any
) -> None:
    errors: list[str] = []
    page = open_page(browser, f"{server.url}/cards", errors)
    page.wait_for_selector(".gallery-card .card-art")
    art = api(server, "GET", "/card-art.json")
    found = page.evaluate(ART)
    assert len(found["faces"]) == len(api(server, "GET", "/api/cards")["cards"])
    for face in found["faces"]:
        # Each card's own icon from the table (buildtools/card_art.toml), drawn, not empty.
        assert face["icon"] == art["cards"][face["name"]], face
        assert face["paths"] >= 1 and face["width"] >= 30 and face["height"] >= 30, face
    # A card added to cards.toml without an icon gets its type's.
    assert found["newCard"] == art["types"]["space"]
    # CC BY 3.0: the work, its authors and the licence, with links.
    assert "game-icons.net" in found["credit"] and "Lorc" in found["credit"]
    assert "CC BY 3.0" in found["credit"]
    assert "https://game-icons.net/" in found["links"]
    assert "https://creativecommons.org/licenses/by/3.0/" in found["links"]
    assert errors == []
