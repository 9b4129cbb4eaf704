// Talking to the server (web/api.js) without a server: a delta made whole again, the event
// stream a reconnect continues, the seat tokens kept in the browser, and request's errors.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import "./browser-globals.mjs";

const api = await import("../../../src/rebelspace/web/api.js");

const TOKEN = "t0k3n-abcdefghijklmnop";

beforeEach(() => localStorage.clear());

function wholeMessage() {
  return {
    type: "state",
    version: 4,
    seats: { rebel: { kind: "human" }, imperial: { kind: "computer" } },
    undo: { allowed: false },
    result: null,
    clock: null,
    claim: null,
    rematch: null,
    rules: { hand_limit: 7 },
    forecast: null,
    view: { turn: 2, battle: null, you: { player: "rebel", hand: ["A"], deck_size: 30 }, opponent: { player: "imperial", hand_size: 5 } },
  };
}

test("complete puts back the fields and view parts a delta leaves out", () => {
  const last = api.complete(wholeMessage(), null);
  const delta = { type: "state", delta: true, version: 5, view: { turn: 3, you: { deck_size: 28 } } };
  const whole = api.complete(delta, last);
  assert.equal(whole.version, 5);
  assert.deepEqual(whole.seats, last.seats);
  assert.deepEqual(whole.rules, { hand_limit: 7 });
  assert.equal(whole.view.turn, 3);
  assert.equal(whole.view.battle, null);
  // A side's view that changed is merged field by field; one that did not is the last one's.
  assert.deepEqual(whole.view.you, { player: "rebel", hand: ["A"], deck_size: 28 });
  assert.equal(whole.view.opponent, last.view.opponent);
  assert.equal("delta" in whole, false);
});

test("complete keeps a field a delta sends, even a null one", () => {
  const last = api.complete(wholeMessage(), null);
  const delta = { type: "state", delta: true, result: { winner: "rebel", reason: "rules" }, claim: null, view: {} };
  const whole = api.complete(delta, last);
  assert.deepEqual(whole.result, { winner: "rebel", reason: "rules" });
  assert.equal(whole.claim, null);
});

test("complete leaves a whole message as it came, without its delta mark", () => {
  const first = { ...wholeMessage(), delta: false };
  const whole = api.complete(first, null);
  assert.equal(whole, first);
  assert.equal("delta" in whole, false);
  assert.equal(whole.version, 4);
});

test("extendStream appends the events from events_from and replaces those held beyond it", () => {
  let stream = { events: [], log: [], version: null };
  stream = api.extendStream(stream, { events_from: 0, events: [{ seq: 0 }, { seq: 1 }], version: 1, view: { log: ["a", "b"] } });
  stream = api.extendStream(stream, { events_from: 2, events: [{ seq: 2 }], version: 2, view: { log: ["c"] } });
  assert.deepEqual(stream.log, ["a", "b", "c"]);
  // An undo: the stream starts again from event 1.
  stream = api.extendStream(stream, { events_from: 1, events: [{ seq: 1 }], version: 3, view: { log: ["b2"] } });
  assert.deepEqual(stream.log, ["a", "b2"]);
  assert.deepEqual(
    stream.events.map((e) => e.seq),
    [0, 1],
  );
  assert.equal(stream.version, 3);
});

test("extendStream never leaves a gap when a message starts beyond what is held", () => {
  const stream = api.extendStream({ events: [{ seq: 0 }], log: ["a"], version: 1 }, { events_from: 5, events: [{ seq: 5 }], version: 2, view: { log: ["f"] } });
  assert.deepEqual(stream.log, ["a", "f"]);
});

test("rememberSeat keeps each game's seats and mode across calls", () => {
  api.rememberSeat("g1", "hotseat", "rebel", "tokA");
  api.rememberSeat("g1", null, "imperial", "tokB");
  const game = api.storedGame("g1");
  assert.equal(game.mode, "hotseat");
  assert.deepEqual(game.seats, { rebel: "tokA", imperial: "tokB" });
  assert.equal(api.storedGame("g2"), null);
});

test("rememberRematch gives each held token the other side of the new game", () => {
  api.rememberSeat("old", "online", "rebel", "tokA");
  assert.equal(api.rememberRematch("old", "new"), true);
  assert.deepEqual(api.storedGame("new").seats, { imperial: "tokA" });
  assert.equal(api.rememberRematch("never-seen", "other"), false);
});

test("storedTokens lists each token once, newest game first, at most limit", () => {
  localStorage.setItem(
    "rebelspace.games",
    JSON.stringify({
      a: { mode: "online", seats: { rebel: "t1" }, created: 1 },
      b: { mode: "hotseat", seats: { rebel: "t2", imperial: "t3" }, created: 3 },
      c: { mode: "online", seats: { imperial: "t1" }, created: 2 },
    }),
  );
  assert.deepEqual(api.storedTokens(), ["t2", "t3", "t1"]);
  assert.deepEqual(api.storedTokens(2), ["t2", "t3"]);
});

test("storedGames survives a corrupt store", () => {
  localStorage.setItem("rebelspace.games", "{not json");
  assert.deepEqual(api.storedGames(), {});
});

test("forgetGame drops one game's seats only", () => {
  api.rememberSeat("g1", "online", "rebel", "tokA");
  api.rememberSeat("g2", "online", "rebel", "tokB");
  api.forgetGame("g1");
  assert.deepEqual(Object.keys(api.storedGames()), ["g2"]);
});

test("a seat link's fragment carries the seat and token back", () => {
  const link = api.seatLink("game 1", "imperial", TOKEN);
  assert.equal(link, `https://rebelspace.test/seat/game%201#imperial.${TOKEN}`);
  assert.deepEqual(api.parseSeatFragment(new URL(link).hash), { seat: "imperial", token: TOKEN });
});

test("parseSeatFragment refuses a malformed fragment", () => {
  assert.equal(api.parseSeatFragment("#spectator." + TOKEN), null);
  assert.equal(api.parseSeatFragment("#rebel.short"), null);
  assert.equal(api.parseSeatFragment(""), null);
  assert.equal(api.parseSeatFragment(undefined), null);
});

test("request turns an error answer into an ApiError with the server's own words", async (t) => {
  t.mock.method(globalThis, "fetch", async () => new Response(JSON.stringify({ error: "not_your_turn", message: "It is not your turn." }), { status: 409 }));
  await assert.rejects(api.request("POST", "/api/games/g/actions"), (err) => {
    assert.ok(err instanceof api.ApiError);
    assert.equal(err.status, 409);
    assert.equal(err.code, "not_your_turn");
    assert.equal(err.message, "It is not your turn.");
    return true;
  });
});

test("request says the server cannot be reached when the fetch itself fails", async (t) => {
  t.mock.method(globalThis, "fetch", async () => {
    throw new TypeError("connection refused");
  });
  await assert.rejects(api.request("GET", "/api/cards"), { status: 0, code: "network", message: "Cannot reach the server (connection refused)." });
});

test("request sends the token as a bearer header and the body as JSON", async (t) => {
  const fetch = t.mock.method(globalThis, "fetch", async () => new Response(JSON.stringify({ ok: true }), { status: 200 }));
  assert.deepEqual(await api.request("POST", "/api/x", { token: "tok", body: { a: 1 } }), { ok: true });
  const [path, init] = fetch.mock.calls[0].arguments;
  assert.equal(path, "/api/x");
  assert.equal(init.headers.Authorization, "Bearer tok");
  assert.equal(init.headers["Content-Type"], "application/json");
  assert.equal(init.body, '{"a":1}');
});

/** A stand-in WebSocket that records each connection and lets the test drive it. */
class FakeSocket {
  static OPEN = 1;
  static made = [];
  constructor(url) {
    this.url = url;
    this.readyState = FakeSocket.OPEN;
    this.sent = [];
    FakeSocket.made.push(this);
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  close() {}
  receive(data) {
    this.onmessage({ data: JSON.stringify(data) });
  }
}

/** Node 20 has no WebSocket of its own: the fake one stands in for the test's length. */
function useFakeSocket(t) {
  globalThis.WebSocket = FakeSocket;
  FakeSocket.made = [];
  t.after(() => delete globalThis.WebSocket);
}

function stateMessage(eventsFrom, events, version) {
  return { ...wholeMessage(), seat: null, version, events_from: eventsFrom, events, view: { ...wholeMessage().view, log: events.map((e) => `line ${e.seq}`) } };
}

test("a spectator's reconnect asks for the events it does not hold, and gets the whole stream", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "setInterval"] });
  useFakeSocket(t);
  const got = [];
  const statuses = [];
  const socket = api.openSocket("g 1", null, (m) => got.push(m), (s) => statuses.push(s));
  const first = FakeSocket.made[0];
  assert.equal(first.url, "wss://rebelspace.test/api/games/g%201/ws");
  first.onopen();
  first.receive(stateMessage(0, [{ seq: 0 }, { seq: 1 }], 3));
  first.onclose({ code: 1006 });
  t.mock.timers.tick(500);
  const second = FakeSocket.made[1];
  assert.equal(second.url, "wss://rebelspace.test/api/games/g%201/ws?since=2&since_version=3");
  second.onopen();
  second.receive(stateMessage(2, [{ seq: 2 }], 4));
  assert.deepEqual(
    got[1].events.map((e) => e.seq),
    [0, 1, 2],
  );
  assert.deepEqual(got[1].view.log, ["line 0", "line 1", "line 2"]);
  assert.deepEqual(statuses, ["open", "closed", "open"]);
  socket.close();
});

test("a seat's token goes in its first message, never in the address", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "setInterval"] });
  useFakeSocket(t);
  const socket = api.openSocket("g1", TOKEN, () => {}, () => {});
  const ws = FakeSocket.made[0];
  ws.onopen();
  assert.equal(ws.url.includes(TOKEN), false);
  assert.deepEqual(ws.sent[0], { type: "auth", token: TOKEN });
  socket.close();
});
