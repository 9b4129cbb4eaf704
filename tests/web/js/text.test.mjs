// The shared helpers (web/text.js) and the action words (web/actions.js) that need no catalogue.
import assert from "node:assert/strict";
import { test } from "node:test";

import { buttonLabel, forCopy, placeOf } from "../../../src/rebelspace/web/actions.js";
import { cap, other } from "../../../src/rebelspace/web/text.js";

test("cap capitalises the first letter only", () => {
  assert.equal(cap("rebel"), "Rebel");
  assert.equal(cap("imperial fleet"), "Imperial fleet");
});

test("cap of an empty or missing string is the empty string", () => {
  assert.equal(cap(""), "");
  assert.equal(cap(null), "");
  assert.equal(cap(undefined), "");
});

test("other names the opposing side both ways", () => {
  assert.equal(other("rebel"), "imperial");
  assert.equal(other("imperial"), "rebel");
});

test("placeOf puts each kind of action where it is clicked", () => {
  assert.equal(placeOf({ kind: "deploy" }), "hand");
  assert.equal(placeOf({ kind: "discard" }), "hand");
  assert.equal(placeOf({ kind: "block" }), "own");
  assert.equal(placeOf({ kind: "form_space" }), "own");
  assert.equal(placeOf({ kind: "target" }), "enemy");
  assert.equal(placeOf({ kind: "pick" }), "group");
  assert.equal(placeOf({ kind: "end_turn" }), "button");
});

test("buttonLabel counts a draw's cards in the singular and plural", () => {
  assert.equal(buttonLabel({ kind: "draw", n: 1 }), "Draw 1 card");
  assert.equal(buttonLabel({ kind: "draw", n: 2 }), "Draw 2 cards");
});

test("buttonLabel falls back on the server's text for a kind it has no words for", () => {
  assert.equal(buttonLabel({ kind: "something_new", text: "Do the new thing" }), "Do the new thing");
});

test("forCopy swaps a plain action for the clicked copy's own action", () => {
  const plain = { kind: "block", card: "Trooper", group: 1, target: null, zone: null, copy: null };
  const second = { ...plain, copy: 2 };
  const other = { kind: "add", card: "Trooper", group: 1, target: null, zone: null, copy: null };
  assert.deepEqual(forCopy([plain, second, other], 2), [second, other]);
  // The first copy has no copy action of its own: the plain ones stand.
  assert.deepEqual(forCopy([plain, second, other], 1), [plain, other]);
});
