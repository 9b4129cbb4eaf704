// One rendering of each event (web/events.js): the server's line of `view.log` for each event,
// which the playback, the battle panel's "Last attack" and the replay all show; and the event
// streams the battle panel and the playback pick their events from (battle.js, playback.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { attackPhases, defendersOf, groupValues, lastAttack } from "../../../src/rebelspace/web/battle.js";
import { attachText, eventText } from "../../../src/rebelspace/web/events.js";
import { stepsFor } from "../../../src/rebelspace/web/playback.js";

const turn = (n, player) => ({ type: "turn_started", turn: n, player });
const attacked = (player, group) => ({ type: "attacked", player, group, units: ["X-wing"] });
const resolved = (player, group) => ({ type: "battle_resolved", player, group, result: "attacker won" });

test("attachText gives each event its log line, in order", () => {
  const events = [{ type: "drew", player: "rebel" }, { type: "no_attack", player: "rebel" }];
  const out = attachText(events, ["Rebel drew 2 cards.", "Rebel did not attack."]);
  assert.equal(out, events);
  assert.deepEqual(
    out.map((e) => e.text),
    ["Rebel drew 2 cards.", "Rebel did not attack."],
  );
});

test("attachText leaves events without words when the log does not pair up with them", () => {
  const events = [{ type: "drew" }, { type: "no_attack" }];
  attachText(events, ["only one line"]);
  assert.deepEqual(
    events.map((e) => e.text),
    [undefined, undefined],
  );
  assert.deepEqual(attachText(null, ["a line"]), []);
});

test("eventText is the server's line, else the event's type in words", () => {
  assert.equal(eventText({ type: "damage_dealt", text: "Imperial's deck took 3 damage." }), "Imperial's deck took 3 damage.");
  assert.equal(eventText({ type: "ion_cannon_fired" }), "ion cannon fired");
});

test("attackPhases starts a phase at each declaration and keeps only attack events", () => {
  const events = [
    turn(1, "rebel"),
    { type: "drew", player: "rebel" },
    attacked("rebel", 1),
    attacked("rebel", 2),
    { type: "blocked", player: "imperial", group: 1 },
    resolved("rebel", 1),
    { type: "deployed", player: "rebel" },
    turn(2, "imperial"),
    attacked("imperial", 1),
    resolved("imperial", 1),
    { type: "extra_attack_phase", player: "imperial" },
    attacked("imperial", 1),
  ];
  const phases = attackPhases(events);
  assert.deepEqual(
    phases.map((p) => [p.turn, p.player, p.events.map((e) => e.type)]),
    [
      [1, "rebel", ["attacked", "attacked", "blocked", "battle_resolved"]],
      [2, "imperial", ["attacked", "battle_resolved", "extra_attack_phase"]],
      [2, "imperial", ["attacked"]],
    ],
  );
});

test("lastAttack is the newest attack phase, or null before any attack", () => {
  assert.equal(lastAttack([turn(1, "rebel"), { type: "no_attack", player: "rebel" }]), null);
  assert.equal(lastAttack(undefined), null);
  const last = lastAttack([turn(3, "imperial"), attacked("imperial", 1), resolved("imperial", 1)]);
  assert.equal(last.turn, 3);
  assert.equal(last.events.length, 2);
});

test("an attack phase's events keep the server's words for the battle panel", () => {
  const events = [turn(1, "rebel"), attacked("rebel", 1), resolved("rebel", 1)];
  attachText(events, ["Turn 1: Rebel.", "Rebel attacked with group 1.", "Group 1 won its battle."]);
  assert.deepEqual(
    lastAttack(events).events.map(eventText),
    ["Rebel attacked with group 1.", "Group 1 won its battle."],
  );
});

test("defendersOf is a group's blockers, else its target, else none", () => {
  assert.deepEqual(defendersOf({ blockers: [{ name: "Trooper" }], target: { name: "Base" } }), [{ name: "Trooper" }]);
  assert.deepEqual(defendersOf({ blockers: [], target: { name: "Base" } }), [{ name: "Base" }]);
  assert.deepEqual(defendersOf({ blockers: [], target: null }), []);
});

test("groupValues are the view's own battle values", () => {
  assert.deepEqual(groupValues({ attack_value: 7, defense_value: 4 }), { attack: 7, defense: 4 });
});

test("stepsFor leaves out the seat's own moves but not what happened to it", () => {
  const events = [
    { type: "deployed", player: "rebel", card: "X-wing" },
    { type: "deployed", player: "imperial", card: "TIE" },
    { type: "damage_dealt", player: "rebel", cards: [], left: 20 },
    { type: "starting_hand", player: "imperial" },
    { type: "game_over", winner: "imperial" },
  ];
  assert.deepEqual(
    stepsFor(events, "rebel").map((e) => [e.type, e.player]),
    [
      ["deployed", "imperial"],
      ["damage_dealt", "rebel"],
      ["game_over", undefined],
    ],
  );
});

test("stepsFor shows a spectator both sides' moves, and only Spies' reveals", () => {
  const events = [
    { type: "deployed", player: "rebel", card: "X-wing" },
    { type: "deployed", player: "imperial", card: "TIE" },
    { type: "cards_seen", to: "rebel", source: "spies", cards: [] },
    { type: "cards_seen", to: "rebel", source: "hero_from_deck", cards: [] },
  ];
  assert.deepEqual(
    stepsFor(events, null).map((e) => e.type),
    ["deployed", "deployed", "cards_seen"],
  );
  // A Spies reveal shows cards face up: it is played back even to the seat it was shown to.
  assert.deepEqual(
    stepsFor(events.slice(2), "rebel").map((e) => e.source),
    ["spies"],
  );
});

test("the playback, the battle panel and the replay word events only through events.js", async () => {
  // Each once had its own wording of every event (eventText, eventLine, stepLine), with
  // different words for the same event (issue 34 item 6).
  const { readFile } = await import("node:fs/promises");
  for (const name of ["playback.js", "battle.js", "replay.js"]) {
    const source = await readFile(new URL(`../../../src/rebelspace/web/${name}`, import.meta.url), "utf8");
    assert.match(source, /import \{[^}]*\beventText\b[^}]*\} from "\.\/events\.js";/, name);
    assert.doesNotMatch(source, /function (eventText|eventLine|stepLine)\b|const (eventText|eventLine|stepLine)\s*=/, name);
  }
});
