"""The server sends every legal action as structured fields (the engine's ``ActionView``); the
client puts each on the card, group or button it names and words it for menus and buttons
(web/actions.js, run in Chromium). Checked against every action of the engine's action space."""

from __future__ import annotations

from typing import Any

import pytest

from rebelspace.engine import CardDB, default_cards, new_game
from rebelspace.engine.actions import Kind
from rebelspace.engine.cards import cards_from_data
from rebelspace.engine.views import action_view
from tests.server.server_process import ServerProcess

PLACE = {
    Kind.DRAW: "button",
    Kind.NO_ATTACK: "button",
    Kind.ATTACK: "button",
    Kind.FORM_GROUND: "own",
    Kind.FORM_SPACE: "own",
    Kind.ADD: "own",
    Kind.ION: "group",
    Kind.ION_HOLD: "button",
    Kind.BLOCK: "own",
    Kind.DONE_BLOCKING: "button",
    Kind.TARGET: "enemy",
    Kind.DONE_TARGETING: "button",
    Kind.PLAY_TRICK: "hand",
    Kind.PLAY_PSION: "hand",
    Kind.PASS: "button",
    Kind.PICK: "group",
    Kind.DEPLOY: "hand",
    Kind.ATTACH: "hand",
    Kind.DONE_DEPLOYING: "button",
    Kind.PLAY_END: "hand",
    Kind.PLAY_END_ON: "hand",
    Kind.END_TURN: "button",
    Kind.DISCARD: "hand",
}

LABEL_ALL = """async (actions) => {
  const cards = await import('/cards.js');
  const mod = await import('/actions.js');
  await cards.loadCatalogue();
  return actions.map((a) => ({
    place: mod.placeOf(a),
    label: mod.placeOf(a) === 'button' ? mod.buttonLabel(a) : mod.menuLabel(a, (n) => ` [${n}]`),
  }));
}"""


def copied_heroes() -> CardDB:
    """An edited card list with two copies of two heroes: their actions also come naming one
    copy (``copy``, "#k")."""
    data = default_cards().to_data()
    for card in data:
        if card["name"] in ("Princess", "Bounty Hunter"):
            card["count"] = 2
    return cards_from_data(data)


@pytest.mark.parametrize("cards", ["printed", "copied heroes"])
def test_every_action_gets_its_place_and_words(
    server: ServerProcess, browser: Any, cards: str
) -> None:
    game = new_game(seed=1, cards=copied_heroes() if cards == "copied heroes" else None)
    space = game.action_space
    views = [action_view(game, a.id) for a in space.actions]
    wire = [
        {
            "id": v.id,
            "kind": str(v.kind),
            "card": v.card,
            "group": v.group,
            "target": v.target,
            "zone": v.zone,
            "n": v.n,
            "text": v.text,
            "copy": v.copy,
        }
        for v in views
    ]
    if cards == "copied heroes":
        assert any(a["copy"] for a in wire)
    page = browser.new_page()
    page.goto(server.url)
    shown = page.evaluate(LABEL_ALL, wire)
    assert len(shown) == space.size
    for action, sent, got in zip(space.actions, wire, shown, strict=True):
        where = f"{action.text!r} -> {got}"
        assert got["place"] == PLACE[action.kind], where
        label = got["label"]
        # Every kind has its own words: no label falls back to the engine's text.
        assert label and label != sent["text"], where
        if sent["card"] is not None:
            assert sent["card"] in label, where
        if sent["target"] is not None:
            assert sent["target"] in label, where
        if sent["group"] is not None and action.kind != Kind.ION:
            assert f"group {sent['group']} [{sent['group']}]" in label.lower(), where
        if action.kind == Kind.ION:
            assert f"group {sent['group']}" in label, where
        if action.kind == Kind.TARGET and sent["zone"] == "inactive":
            assert "inactive" in label, where
        if action.kind == Kind.DRAW:
            assert str(sent["n"]) in label, where
        if sent["copy"]:
            assert f"#{sent['copy']}" in label, where
        if action.kind == Kind.PLAY_END_ON:  # worded by the card's ability (engine/abilities/)
            effect = space.tables.type_effect[action.card]
            assert effect is not None and effect.target is not None, where
            hero = f"{sent['target']} #{sent['copy']}" if sent["copy"] else sent["target"]
            assert label == f"Play {sent['card']}: " + effect.target.menu.format(target=hero), where
    page.close()


FOR_COPY = """async () => {
  const mod = await import('/actions.js');
  const plain = {kind: 'add', card: 'Princess', group: 1, target: null, zone: null, copy: null};
  const actions = [
    {...plain, id: 1},
    {...plain, id: 2, copy: 2},
    {...plain, id: 3, kind: 'form_ground', group: null},
    {...plain, id: 4, kind: 'form_ground', group: null, copy: 2},
    {...plain, id: 5, group: 2},
  ];
  return [1, 2, 3, null].map((copy) => mod.forCopy(actions, copy).map((a) => a.id));
}"""


def test_a_click_on_one_copy_of_a_hero_means_that_copy(server: ServerProcess, browser: Any) -> None:
    page = browser.new_page()
    page.goto(server.url)
    first, second, third, unknown = page.evaluate(FOR_COPY)
    # Copy 1 (the first candidate) and a copy with no copy action of its own (it looks like
    # the first): the plain actions. Copy 2: its copy actions, and the plain action where it
    # has none (group 2).
    assert first == third == unknown == [1, 3, 5]
    assert second == [2, 4, 5]
    page.close()


# A block step with two attacking groups, and a unit (Rebel Soldier) that may block either:
# the GameController's reading of a click (game.js `matching`), with and without a group
# selected. The controller is built on a detached element: only its click logic runs.
SELECTED_GROUP = """async () => {
  const { GameController } = await import('/game.js');
  const game = new GameController(document.createElement('main'), 'g', {}, null);
  const act = (id, kind, card, group) =>
    ({id, kind, card, group, target: null, zone: null, n: null, text: kind, copy: null});
  game.actions = [act(0, 'block', 'Rebel Soldier', 1), act(1, 'block', 'Rebel Soldier', 2),
                  act(2, 'block', 'Rebel Base', 2), act(3, 'done_blocking', null, null)];
  game.msg = {view: {step: 'block', battle: {groups: []}}};
  const ids = (name) => game.matching('own-active', name, null, null).map((a) => a.id);
  const none = {soldier: ids('Rebel Soldier'), base: ids('Rebel Base')};
  game.selectedGroup = 1;
  const one = {soldier: ids('Rebel Soldier'), base: ids('Rebel Base'),
               glows: game.ui.clickable('own-active', 'Rebel Base', null, null)};
  game.selectedGroup = 2;
  const two = {soldier: ids('Rebel Soldier'), base: ids('Rebel Base')};
  return {none, one, two};
}"""


def test_a_selected_group_limits_what_a_click_means(server: ServerProcess, browser: Any) -> None:
    page = browser.new_page()
    page.goto(server.url)
    page.wait_for_selector("#new-computer")
    seen = page.evaluate(SELECTED_GROUP)
    # No group selected: a unit that may block both groups asks (two choices, a menu).
    assert seen["none"] == {"soldier": [0, 1], "base": [2]}
    # Group 1 selected: the soldier blocks group 1 only, and Rebel Base, which may block only
    # group 2, neither glows nor acts for group 2.
    assert seen["one"] == {"soldier": [0], "base": [], "glows": False}
    assert seen["two"] == {"soldier": [1], "base": [2]}
    page.close()
