// Words for players built from the server's values (hints.js, prompts.js, words.js, online.js,
// lobby.js): what the status bar, the prompt, the cards and the lobby say.
import assert from "node:assert/strict";
import { test } from "node:test";

import "./browser-globals.mjs";

const { battleWords, decisionLine, hintLine, pct, thresholdLine } = await import("../../../src/rebelspace/web/hints.js");
const { phaseLine, promptFor, waitingLine } = await import("../../../src/rebelspace/web/prompts.js");
const { abilityLines, shortAbility } = await import("../../../src/rebelspace/web/words.js");
const { resultText } = await import("../../../src/rebelspace/web/online.js");
const { clockSetting, pathFromLink, strengthWords } = await import("../../../src/rebelspace/web/lobby.js");

test("pct rounds a chance to a whole percent", () => {
  assert.equal(pct(0.456), "46%");
  assert.equal(pct(1), "100%");
});

test("battleWords speaks from the asking seat's side", () => {
  const b = { group: 2, attack: 9, defense: 5, winner: "attacker" };
  assert.equal(battleWords({ ...b, you_attack: true }), "Battle of group 2: your 9 against their 5, you win the battle as the cards stand.");
  assert.equal(battleWords({ ...b, you_attack: false }), "Battle of group 2: your 5 against their 9, you lose the battle as the cards stand.");
  assert.match(battleWords({ ...b, winner: "both", you_attack: true }), /a tie, both lose/);
});

test("hintLine names a forced move as the only choice", () => {
  assert.equal(hintLine({ forced: true, best: { text: "Pass" } }), 'Hint: "Pass" is your only choice.');
});

test("hintLine gives the move, its chance, the reason and the race", () => {
  const hint = { forced: false, best: { text: "Deploy X-wing", win: 0.62 }, reason: "done_clearly_best", battle: null, race: { your_turns: 5.04, their_turns: 3.96 } };
  assert.equal(
    hintLine(hint),
    "Hint: Deploy X-wing (62% to win). Keeping your points scored clearly higher than any deployment. Race: your deck lasts about 5.0 turns, theirs 4.0.",
  );
});

test("decisionLine counts steps from 1 and names the better move", () => {
  const d = { ply: 0, turn: 1, played: { text: "Draw 1 card" }, before: 0.5, after: 0.4, verdict: "mistake", alternative: { text: "Draw 2 cards" } };
  assert.equal(decisionLine(d), "Step 1, turn 1: Draw 1 card: 50% → 40% (mistake); better: Draw 2 cards");
});

test("thresholdLine gives each threshold in points", () => {
  assert.match(thresholdLine({ inaccuracy: 0.05, mistake: 0.1, blunder: 0.2 }), /5 points is an inaccuracy, 10 a mistake, 20 a blunder/);
});

test("phaseLine names the turn, the side and the phase, with a step that differs from it", () => {
  assert.equal(phaseLine({ turn: 3, phase: "attack", step: "block", active_player: "imperial" }), "Turn 3 · Imperial's turn · Attack phase (block)");
  assert.equal(phaseLine({ turn: 1, phase: "draw", step: "draw", active_player: "rebel" }), "Turn 1 · Rebel's turn · Draw phase");
  assert.equal(phaseLine({ turn: 9, phase: "over", winner: "rebel" }), "Turn 9 · Rebel won");
});

test("promptFor's draw says which draws the rules allow now", () => {
  const view = { step: "draw", battle: null };
  assert.match(promptFor(view, [{ kind: "draw", n: 2 }, { kind: "draw", n: 1 }]).detail, /^Draw 1 or 2 cards from your deck/);
  assert.match(promptFor(view, [{ kind: "draw", n: 1 }]).detail, /^Draw 1 card from your deck/);
});

test("promptFor's discard names the game's own hand limit", () => {
  const view = { step: "discard", battle: null, you: { hand_size: 8 } };
  assert.match(promptFor(view, [], { hand_limit: 6 }).detail, /at most 6 cards: .*\(8 now\)/);
});

test("waitingLine says who the seat waits for, and that it is the computer", () => {
  const view = { to_move: "imperial", step: "block" };
  assert.equal(waitingLine(view, { imperial: { kind: "computer" } }), "The computer (Imperial) is choosing blockers…");
  assert.equal(waitingLine(view, null), "Imperial is choosing blockers…");
  assert.equal(waitingLine({ to_move: null }, null), "");
});

test("shortAbility says an attachment's place once, whichever keyword says it", () => {
  assert.equal(shortAbility({ kind: "attachment", keywords: ["companion", "attach_to_hero"] }), "Goes on a hero");
  assert.equal(shortAbility({ kind: "unit", keywords: ["fighter", "pilot"] }), "Fighter · Pilot");
  assert.equal(shortAbility({ kind: "action", ability: "spy" }), "End: see their hand");
  // An ability the table does not know yet: the card's printed notes.
  assert.equal(shortAbility({ kind: "action", ability: "brand_new", notes: "Do something new" }), "Do something new");
});

test("abilityLines gives each meaning once, then the action's own text and its use", () => {
  assert.deepEqual(abilityLines({ kind: "attachment", keywords: ["companion", "attach_to_hero"] }), ["Companion: deployed onto one of your heroes, adding its ratings to the hero's."]);
  assert.deepEqual(abilityLines({ kind: "action", keywords: [], ability: "spy", notes: "Look at the enemy's hand" }), [
    "Look at the enemy's hand. End phase: look at your opponent's hand.",
  ]);
});

test("resultText names the winner and why the other side lost", () => {
  assert.equal(resultText({ winner: "rebel", reason: "resign" }, "rebel"), "Rebel won: Imperial resigned.");
  assert.equal(resultText({ winner: "imperial", reason: "rules" }, "imperial"), "Imperial won by the rules.");
  assert.equal(resultText(null, "imperial"), "Imperial won.");
  assert.equal(resultText(null, null), "The game is over: a draw.");
});

test("clockSetting reads 'initial+increment' and nothing else", () => {
  assert.deepEqual(clockSetting("600+5"), { initial_s: 600, increment_s: 5 });
  assert.equal(clockSetting("none"), null);
  assert.equal(clockSetting(""), null);
});

test("pathFromLink takes a full link, a path or a bare game id", () => {
  assert.equal(pathFromLink(" https://rebelspace.test/join/abc/XYZ ", "join"), "/join/abc/XYZ");
  assert.equal(pathFromLink("/watch/abc", "watch"), "/watch/abc");
  assert.equal(pathFromLink("abc-123", "watch"), "/watch/abc-123");
  // A bare id cannot be joined: joining needs the code the invitation link carries.
  assert.equal(pathFromLink("abc-123", "join"), null);
  assert.equal(pathFromLink("   ", "watch"), null);
});

test("strengthWords reports a level's published games with their intervals", () => {
  const record = { level: "hard", experimental: false, against: [{ level: "normal", wins: 70, games: 100, ci95: [0.6, 0.79] }] };
  assert.equal(strengthWords(record, 100), "Hard won 70 of 100 games against Normal (95% interval 60%–79%) in the ladder published with this version (100 games a pair).");
});
