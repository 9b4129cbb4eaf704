"""The client reads the engine's action texts to put each action on the card it names: check its
parser (web/actions.js, run in Chromium) against every action of the engine's action space."""

from __future__ import annotations

from typing import Any

from web_harness import Server

from rebelspace.engine import new_game
from rebelspace.engine.actions import Kind

KIND = {
    Kind.DRAW: "draw",
    Kind.NO_ATTACK: "no_attack",
    Kind.ATTACK: "attack",
    Kind.FORM_GROUND: "form",
    Kind.FORM_SPACE: "form",
    Kind.ADD: "add",
    Kind.ION: "ion",
    Kind.ION_HOLD: "ion_hold",
    Kind.BLOCK: "block",
    Kind.DONE_BLOCKING: "done_blocking",
    Kind.TARGET: "target",
    Kind.DONE_TARGETING: "done_targeting",
    Kind.PLAY_TRICK: "play",
    Kind.PLAY_PSION: "psion",
    Kind.PASS: "pass",
    Kind.PICK: "pick",
    Kind.DEPLOY: "deploy",
    Kind.ATTACH: "attach",
    Kind.DONE_DEPLOYING: "done_deploying",
    Kind.PLAY_END: "play",
    Kind.PLAY_END_ON: "play_on|play_for",
    Kind.END_TURN: "end_turn",
    Kind.DISCARD: "discard",
}

PARSE_ALL = """async (texts) => {
  const cards = await import('/cards.js');
  const actions = await import('/actions.js');
  await cards.loadCatalogue();
  return texts.map((text, id) => actions.parseAction({id, text}));
}"""


def test_every_action_text_parses_to_its_card_and_group(server: Server, browser: Any) -> None:
    game = new_game(seed=1)
    space = game.action_space
    names = game.ctx.tables.names
    page = browser.new_page()
    page.goto(server.url)
    parsed = page.evaluate(PARSE_ALL, [a.text for a in space.actions])
    assert len(parsed) == space.size
    for action, got in zip(space.actions, parsed, strict=True):
        where = f"{action.text!r} -> {got}"
        assert got["kind"] in KIND[action.kind].split("|"), where
        if action.card >= 0:
            assert got["card"] == names[action.card], where
        if action.kind in (Kind.ATTACH, Kind.PLAY_PSION, Kind.PLAY_END_ON):
            assert got["target"] == names[action.target], where
        if action.group >= 0:
            assert got["group"] == action.group + 1, where
        if action.kind == Kind.TARGET:
            assert got["zone"] == ("inactive" if action.zone else "active"), where
        if action.kind == Kind.DRAW:
            assert got["n"] == action.n, where
    page.close()
