"""The opponent's moves played back on the table (playback.js): the card that moved is
highlighted while the step shows it, the player's own moves are not played back, Skip ends a
playback, and revealed cards (Spies, searches) are shown face up."""

from __future__ import annotations

from typing import Any

from tests.server.server_process import ServerProcess
from tests.web.web_clicker import Clicker
from tests.web.web_harness import computer_game_page, settings_script
from tests.web.web_pages import api, open_page, seats_storage

SHOWING = "() => document.getElementById('playback').dataset.state === 'playing'"
# The step on screen, read in one go, when it highlights a card on the table (else null).
READ_STEP = """() => {
  const moved = [...document.querySelectorAll('.table .card.moved')].map((c) => c.dataset.name);
  if (!moved.length) return null;
  return {line: document.querySelector('#playback .pb-line').textContent,
          type: document.getElementById('playback').dataset.type, moved,
          faces: [...document.querySelectorAll('#playback .card')].map((c) => c.dataset.name)};
}"""


def game_page(browser: Any, server: ServerProcess, errors: list[str], playback_ms: int) -> Any:
    return computer_game_page(browser, server.url, errors, playback_ms=playback_ms)


def test_the_opponents_move_is_played_back_with_its_card_highlighted(
    server: ServerProcess, browser: Any
) -> None:
    errors: list[str] = []
    # A slow pace, so that a step is still on screen when the test looks at it.
    page = game_page(browser, server, errors, playback_ms=4000)
    player = Clicker(page)
    player.act()  # the Rebel's first draw: the player's own move, not played back
    assert page.evaluate(SHOWING) is False
    step = None
    for _ in range(3000):
        step = page.evaluate(READ_STEP)
        if step is not None:
            break
        # A click on the table ends a playback (the player has seen enough): wait for it.
        if player.is_mine() and not page.evaluate(SHOWING):
            player.act()
        else:
            page.wait_for_timeout(50)
    else:
        raise AssertionError("no move of the computer was played back with a highlighted card")
    # The highlighted card is the one the step names, shown face up in the playback too.
    assert step["moved"], step
    assert any(name in step["line"] for name in step["moved"]), step
    assert set(step["moved"]) & set(step["faces"]), step
    assert page.evaluate(SHOWING) is True
    page.click("#playback-skip")
    assert page.evaluate(SHOWING) is False
    assert page.locator(".card.moved").count() == 0
    assert errors == []


# Feeds playback.js two state messages by hand: the first sets where the stream stands, the
# second brings a Spies reveal to the player and the computer's search for a hero.
REVEAL = """async () => {
  const { Playback } = await import('/playback.js');
  const root = document.getElementById('app');
  const pb = new Playback(root, () => 60000);
  document.body.append(pb.el);
  const start = [{type: 'turn_started', turn: 1, player: 'rebel', decks: {}, seq: 0}];
  pb.take({plies: 1, events: start}, 'rebel', true);
  const shownAtStart = pb.el.dataset.state === 'playing';
  const more = [
    {type: 'spies_played', player: 'rebel', card: 'Rebel Spy', seq: 1},
    {type: 'cards_seen', to: 'rebel', owner: 'imperial', source: 'spies',
     cards: ['Bounty Hunter', 'Stormtroopers'], seq: 2},
    {type: 'hero_taken', player: 'imperial', card: 'Recruit', hero: 'Bounty Hunter',
     from_deck: true, seq: 3},
  ];
  // The server's words for each event come with it (events.js): the playback shows them.
  const { attachText } = await import('/events.js');
  const log = ['Turn 1: Rebel', 'Rebel plays Rebel Spy', 'SEEN LINE', 'SEARCH LINE'];
  pb.take({plies: 2, events: attachText([...start, ...more], log), view: {log}}, 'rebel', true);
  const read = () => ({type: pb.el.dataset.type,
    line: pb.el.querySelector('.pb-line').textContent,
    faces: [...pb.el.querySelectorAll('.pb-revealed .card:not(.back)')].map((c) =>
      [c.dataset.name, c.querySelector('.card-name').textContent])});
  const first = read();
  pb.next();
  const second = read();
  pb.stop();
  return {shownAtStart, first, second};
}"""


def test_revealed_cards_are_shown_face_up(server: ServerProcess, browser: Any) -> None:
    errors: list[str] = []
    page = browser.new_page()
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.goto(server.url)
    page.wait_for_selector("#new-computer")  # the card catalogue is loaded
    seen = page.evaluate(REVEAL)
    # Nothing is played back from the first message: it is where the game stood.
    assert seen["shownAtStart"] is False
    # The player's own Spies card is not a step; the hand it revealed is, face up.
    assert seen["first"]["type"] == "cards_seen"
    assert seen["first"]["faces"] == [
        ["Bounty Hunter", "Bounty Hunter"],
        ["Stormtroopers", "Stormtroopers"],
    ]
    assert seen["first"]["line"] == "SEEN LINE"  # the server's words, not the browser's
    # The opponent's search shows the hero it took, face up.
    assert seen["second"]["type"] == "hero_taken"
    assert seen["second"]["faces"] == [["Bounty Hunter", "Bounty Hunter"]]
    assert seen["second"]["line"] == "SEARCH LINE"
    assert errors == []
    page.close()


# What the table shows of both sides while a step plays: the units of each zone by name, the
# deck's and the hand's count, the player's own hand; and which event and ply it stands at.
READ_TABLE = """() => {
  const app = document.getElementById('app');
  if (!app.dataset.playbackPly) return null;
  const side = (player) => {
    const el = document.querySelector(`.table .player[data-player="${player}"]`);
    const units = (zone) => [...el.querySelectorAll(
      `.zone[data-zone$="-${zone}"] > .cards > .unit > .card`)].map((c) => c.dataset.name);
    const number = (sel) => Number(el.querySelector(sel).textContent.replace(/\\D+/g, ''));
    return {active: units('active'), inactive: units('inactive'), deck: number('.deck'),
            hand: number('.hand-size')};
  };
  return {ply: Number(app.dataset.playbackPly), seq: Number(app.dataset.playbackSeq),
          line: document.querySelector('#playback .pb-line').textContent,
          mine: app.dataset.mine, rebel: side('rebel'), imperial: side('imperial'),
          hand: [...document.querySelectorAll('.table .hand > .cards > .card')]
            .map((c) => c.dataset.name)};
}"""


def zones_of(view: dict[str, Any], player: str) -> dict[str, Any]:
    side = view["you"] if view["you"]["player"] == player else view["opponent"]
    return {
        "active": [u["name"] for u in side["active"]],
        "inactive": [u["name"] for u in side["inactive"]],
        "deck": side["deck_size"],
        "hand": side["hand_size"],
    }


def test_the_table_shown_during_playback_equals_the_state_at_the_event_played(
    server: ServerProcess, browser: Any
) -> None:
    """Each step of the computer's turns, held on screen (a pace of a minute, stepped by
    Next), shows the table as it stood right after the ply of the event being played: checked
    against the replay's frame of that ply (the game resigned first), which the server
    rebuilds from the stored actions, both hands known."""
    errors: list[str] = []
    body = {"mode": "computer", "side": "rebel", "opponent": "random", "seed": 11}
    created = api(server, "POST", "/api/games", body=body)
    game_id, token = created["game_id"], created["seats"][0]["token"]
    page = open_page(
        browser,
        f"{server.url}/game/{game_id}",
        errors,
        storage=seats_storage(game_id, "computer", {"rebel": token}),
        init_script=settings_script(playback_ms=60_000),
    )
    page.wait_for_selector("#prompt.mine")
    player = Clicker(page)
    seen: list[dict[str, Any]] = []
    for _ in range(400):
        if len(seen) >= 12 or player.is_over():
            break
        shown = page.evaluate(READ_TABLE)
        if shown is not None:
            # No decision while the table shows the past; the step's line is the event's.
            assert shown["mine"] == "no", shown
            seen.append(shown)
            page.click("#playback-next")
            page.wait_for_function(
                "(seq) => document.getElementById('app').dataset.playbackSeq !== String(seq)",
                arg=shown["seq"],
            )
        elif player.is_mine():
            player.act()
        else:
            page.wait_for_timeout(50)
    assert len(seen) >= 6, seen
    version = api(server, "GET", f"/api/games/{game_id}", token=token)["version"]
    api(server, "POST", f"/api/games/{game_id}/resign", token=token, body={"version": version})
    replay = api(server, "GET", f"/api/games/{game_id}/replay")
    frames = replay["frames"]
    for shown in seen:
        frame = frames[shown["ply"]]
        view = frame["view"]
        for player_name in ("rebel", "imperial"):
            assert shown[player_name] == zones_of(view, player_name), (shown, player_name)
        assert shown["hand"] == (
            view["you"]["hand"] if view["you"]["player"] == "rebel" else view["opponent"]["hand"]
        )
        # The event played is one that ply caused: its line is among the frame's own lines.
        assert shown["line"] in frame["view"]["log"], (shown, frame["view"]["log"])
    assert len({s["ply"] for s in seen}) >= 3  # the table moved on from step to step
    assert errors == []
