"""The battle panel says each battle's forecast in the server's words (msg.forecast, from the
engine's values), and the prompts use the game's own rules numbers (msg.rules): a server run
with `--rule hand_limit=6` asks to keep at most 6 cards. In headless Chromium."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rebelspace.engine import GameState, new_game
from tests.server.server_process import ServerProcess
from tests.web.web_harness import SERVE_ARGS, settings_script
from tests.web.web_pages import api, open_page, seats_storage


def battle_position() -> tuple[int, list[tuple[int, int]], GameState]:
    """(seed, [(action id, seat)], game): seeded random play (drawing the most) to the first
    battle-tricks step with a blocked or targeted group beside one that nobody fights."""
    for seed in range(1, 60):
        game = new_game(seed=seed)
        rng = random.Random(seed)
        plies: list[tuple[int, int]] = []
        while not game.is_over and len(plies) < 800:
            view = game.view(game.to_move)
            b = view.battle
            if b is not None and str(view.step) == "battle tricks":
                fought = [g for g in b.groups if g.defense_value is not None]
                free = [g for g in b.groups if g.defense_value is None and g.damage is not None]
                if fought and free:
                    return seed, plies, game
            legal = view.legal_actions
            draws = [a for a in legal if str(a.kind) == "draw"]
            action = max(draws, key=lambda a: a.n or 0) if draws else rng.choice(legal)
            seat = game.to_move
            game.apply(action.id, player=seat)
            plies.append((action.id, seat))
    raise AssertionError("no seed reached a battle beside an unblocked group")


def test_the_battle_panel_says_who_wins_each_battle(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    seed, plies, game = battle_position()
    created = api(server, "POST", "/api/games", body={"mode": "hotseat", "seed": seed})
    game_id = created["game_id"]
    tokens = {s["player"]: s["token"] for s in created["seats"]}
    names = ("rebel", "imperial")
    for version, (action, seat) in enumerate(plies):
        body = {"action": action, "version": version}
        api(server, "POST", f"/api/games/{game_id}/actions", tokens[names[seat]], body)
    me = names[game.to_move]
    msg = api(server, "GET", f"/api/games/{game_id}", token=tokens[me])
    errors: list[str] = []
    storage = seats_storage(game_id, "hotseat", {me: tokens[me]})
    page = open_page(browser, f"{server.url}/game/{game_id}", errors, storage)
    page.wait_for_selector("#prompt.mine")
    assert page.get_attribute("#app", "data-version") == str(msg["version"])
    page.screenshot(path=str(artifacts / "battle-forecast.png"), full_page=True)
    battles = 0
    for forecast, group in zip(msg["forecast"], msg["view"]["battle"]["groups"], strict=True):
        section = page.locator(f"#battle section.group[data-group='{group['number']}']")
        if forecast["outcome"] in ("attacker", "defender", "both"):
            shown = section.locator(".forecast").inner_text()
            assert shown == f"{forecast['text']}, as the cards stand", (shown, forecast)
            # The words carry the engine's values, the seat's own first.
            ours, theirs = group["attack_value"], group["defense_value"]
            if me != msg["view"]["active_player"]:
                ours, theirs = theirs, ours
            assert f"{ours} against {theirs}" in shown, (shown, group)
            if forecast["outcome"] == "both":
                assert shown.startswith("tie: both destroyed"), shown
            else:
                attacker = msg["view"]["active_player"]
                defender = "imperial" if attacker == "rebel" else "rebel"
                winner = attacker if forecast["outcome"] == "attacker" else defender
                verdict = "you win this battle" if winner == me else "you lose this battle"
                assert shown.startswith(verdict), (shown, me, forecast)
            battles += 1
        else:
            assert section.locator(".forecast").count() == 0
            against = section.locator(".against").inner_text()
            assert against == f" — {forecast['text']}", (against, forecast)
            assert f"{group['damage']} damage" in against
    assert battles >= 1
    assert errors == []


@pytest.fixture
def hand_limit_6_server(tmp_path: Path) -> Iterator[ServerProcess]:
    extra = [*SERVE_ARGS, "--rule", "hand_limit=6"]
    with ServerProcess(tmp_path / "games.sqlite3", tmp_path / "server.log", extra) as srv:
        yield srv


def test_the_hand_limit_prompt_uses_the_games_rule(
    hand_limit_6_server: ServerProcess, browser: Any
) -> None:
    server = hand_limit_6_server
    errors: list[str] = []
    page = open_page(browser, server.url, errors, init_script=settings_script())
    page.select_option("#side", "rebel")
    page.select_option("#opponent", "random")
    page.click("#new-computer")
    # Draw the most, attack with nothing, deploy nothing, end the turn: 5 + 2 cards > 6.
    steps = {
        "draw": "#prompt button.act-draw >> nth=-1",
        "form groups": "#prompt button.act-no_attack",
        "deploy": "#prompt button.act-done_deploying",
        "end": "#prompt button.act-end_turn",
    }
    for _ in range(8):
        page.wait_for_selector("#prompt.mine")
        step = page.get_attribute("#app", "data-step")
        if step == "discard":
            break
        assert step in steps, step
        before = page.get_attribute("#app", "data-version")
        page.click(steps[step])
        page.wait_for_function(
            "(v) => document.getElementById('app').dataset.version !== v", arg=before
        )
    assert page.get_attribute("#app", "data-step") == "discard"
    detail = page.inner_text("#prompt .detail")
    assert detail.startswith("You may keep at most 6 cards:"), detail
    # The help says the game's numbers too.
    howto = page.eval_on_selector(".howto", "(el) => el.textContent")
    assert "keep at most 6 cards in hand" in howto and "deploy up to 3 points" in howto, howto
    assert errors == []
