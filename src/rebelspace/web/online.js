// @ts-check
// The table's bar for how a game ends and goes on: resign, clock, claim, rematch, the seat
// link for another device (issue 13). The table draws what gameBar returns in its status bar,
// and draws it anew with every state message; what must survive a redraw (a confirm step
// asked, the seat link's panel open, when the clocks' values arrived) lives in this module.

import { cap, other } from "./text.js";
import { rememberRematch, request, seatLink } from "./api.js";
import { h } from "./dom.js";
import { showError } from "./errors.js";
import { copy } from "./menu.js";

const TICK_MS = 150;

const bar = {
  gameId: null,
  confirmResign: false, // the resign button was pressed once: ask before resigning
  seatLinkOpen: false,
  sawUnfinishedRematch: false, // this page saw the game over with no rematch game yet
  movedTo: null, // the rematch game this page already moved to
  timing: null, // {key, at, clock, claim}: the message's counters and when they arrived
  ticker: null,
};

function resetFor(gameId) {
  if (bar.gameId === gameId) return;
  Object.assign(bar, { gameId, confirmResign: false, seatLinkOpen: false, sawUnfinishedRematch: false, movedTo: null, timing: null });
}

/** The bar's element for the open game (a GameController) and its latest state message. */
export function gameBar(game, msg) {
  if (!game || !msg) return null;
  resetFor(game.gameId);
  noteTiming(msg);
  const token = msg.seat ? game.tokens[msg.seat] : null;
  // While the seat waits, the claim is in the prompt (claimBox); at its own decision, here.
  const mine = !!(game.actions && game.actions.length);
  const parts = [clocks(msg), mine ? claimPart(game, msg, token) : null];
  if (msg.over) parts.push(...endParts(game, msg, token));
  else if (token) parts.push(resignPart(game, msg, token));
  // Hot-seat keeps both seats on one screen; other games may go on on another device.
  if (token && !msg.over && msg.mode !== "hotseat") parts.push(seatLinkPart(game.gameId, msg.seat, token));
  // The gallery in a new tab, so the game stays open (the rules are in the site bar).
  parts.push(h("a", { href: "/cards", id: "table-cards", target: "_blank", rel: "noopener" }, "Cards"));
  const shown = parts.filter(Boolean);
  tick();
  return h("div", { class: "online-bar", id: "online-bar" }, shown);
}

// ---- the clocks and the claim countdown ---------------------------------------------------

/** Keep when this message's counters arrived; a redraw of the same message keeps the time. */
function noteTiming(msg) {
  const key = JSON.stringify([msg.version, msg.clock, msg.claim]);
  if (bar.timing && bar.timing.key === key) return;
  bar.timing = { key, at: performance.now(), clock: msg.clock || null, claim: msg.claim || null };
}

function remaining() {
  const t = bar.timing;
  const out = { rebel: null, imperial: null, claim: null };
  if (!t) return out;
  const passed = performance.now() - t.at;
  if (t.clock) {
    for (const side of ["rebel", "imperial"]) {
      const left = t.clock[`${side}_ms`];
      out[side] = Math.max(0, t.clock.running === side ? left - passed : left);
    }
  }
  if (t.claim) out.claim = Math.max(0, t.claim.available_in_ms - passed);
  return out;
}

export function formatClock(ms) {
  if (ms < 20000) return `${(Math.floor(ms / 100) / 10).toFixed(1)}`;
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** Only the clocks' and the countdown's text change between messages, never the table. */
function tick() {
  const left = remaining();
  let running = false;
  for (const side of ["rebel", "imperial"]) {
    const el = document.getElementById(`clock-${side}-time`);
    if (!el || left[side] === null) continue;
    el.textContent = formatClock(left[side]);
    el.parentElement.classList.toggle("low", left[side] < 10000);
    running = running || (bar.timing.clock.running === side && left[side] > 0);
  }
  const wait = document.getElementById("claim-wait");
  if (wait && left.claim !== null) {
    wait.textContent = left.claim > 0 ? `${Math.ceil(left.claim / 1000)} s` : "a moment";
    running = running || left.claim > 0;
  }
  if (running && !bar.ticker) bar.ticker = setInterval(tick, TICK_MS);
  else if (!running && bar.ticker) {
    clearInterval(bar.ticker);
    bar.ticker = null;
  }
}

function clocks(msg) {
  if (!msg.clock) return null;
  const c = msg.clock;
  const one = (side) =>
    h(
      "span",
      { class: ["clock", `clock-${side}`, c.running === side ? "running" : ""], id: `clock-${side}`, role: "timer", "aria-label": `${cap(side)} clock${msg.seat === side ? " (yours)" : ""}` },
      h("span", { class: "clock-side" }, `${cap(side)}${msg.seat === side ? " (you)" : ""} `),
      h("span", { class: "clock-time", id: `clock-${side}-time` }, formatClock(c[`${side}_ms`])),
    );
  return h("span", { class: "clocks", title: `${Math.round(c.initial_s / 60)} min + ${c.increment_s} s a decision` }, one("rebel"), one("imperial"));
}

/** The claim against an opponent who is away, for the prompt of a seat that waits (or null). */
export function claimBox(game, msg) {
  if (!game || !msg || !msg.seat) return null;
  return claimPart(game, msg, game.tokens[msg.seat]);
}

function claimPart(game, msg, token) {
  if (!msg.claim || !token || msg.over) return null;
  if (msg.claim.available_in_ms > 0) {
    return h("span", { class: "claim", id: "claim" }, "Your opponent disconnected: you can claim the win in ", h("span", { id: "claim-wait" }, `${Math.ceil(msg.claim.available_in_ms / 1000)} s`), " unless they come back.");
  }
  return h(
    "span",
    { class: "claim", id: "claim" },
    "Your opponent has been away too long. ",
    h("button", { type: "button", id: "claim-win", class: "primary", onclick: () => post(game, msg.seat, token, "claim", {}) }, "Claim the win"),
  );
}

// ---- resigning ------------------------------------------------------------------------------

function resignPart(game, msg, token) {
  // Swapped in place: the table draws itself anew only for a new state message.
  const box = h("span", { class: "resign", id: "resign-box" });
  const draw = (asking, focusId = null) => {
    bar.confirmResign = asking;
    if (!asking) {
      box.replaceChildren(h("button", { type: "button", id: "resign", onclick: () => draw(true, "resign-no") }, msg.mode === "hotseat" ? `Resign (${cap(msg.seat)})` : "Resign"));
    } else {
      box.replaceChildren(
        h(
          "span",
          { class: "confirm", role: "group", "aria-label": "Confirm resigning" },
          `Resign and give the game to ${cap(other(msg.seat))}? `,
          h("button", { type: "button", id: "resign-yes", class: "danger", onclick: () => { bar.confirmResign = false; post(game, msg.seat, token, "resign", {}); } }, "Yes, resign"),
          h("button", { type: "button", id: "resign-no", onclick: () => draw(false, "resign") }, "Keep playing"),
        ),
      );
    }
    if (focusId) document.getElementById(focusId)?.focus();
  };
  draw(bar.confirmResign);
  return box;
}

// ---- after the end: result, rematch, replay -------------------------------------------------

const REASONS = {
  rules: () => " by the rules",
  resign: (loser) => `: ${cap(loser)} resigned`,
  time: (loser) => `: ${cap(loser)} ran out of time`,
  abandoned: (loser) => `: ${cap(loser)} left the game and the win was claimed`,
};

/** "Rebel won: Imperial resigned." from a state message's `result` (or its bare winner). */
export function resultText(result, winner) {
  const w = result ? result.winner : winner;
  if (!w) return "The game is over: a draw.";
  const why = result && REASONS[result.reason] ? REASONS[result.reason](other(w)) : "";
  return `${cap(w)} won${why}.`;
}

function endParts(game, msg, token) {
  // The result itself is in the status bar's phase line (table.js), in place of the turn's phase.
  const parts = [];
  const rematch = msg.rematch || { offered_by: null, game_id: null };
  if (rematch.game_id) parts.push(rematchReady(game, rematch.game_id, token));
  else {
    bar.sawUnfinishedRematch = true;
    if (token) parts.push(rematchOffer(game, msg, token, rematch.offered_by));
  }
  parts.push(h("a", { href: `/replay/${encodeURIComponent(game.gameId)}`, id: "replay-link", class: "button" }, "Watch the replay"));
  return parts;
}

function rematchOffer(game, msg, token, offeredBy) {
  const ask = (offer) => post(game, msg.seat, token, "rematch", { offer });
  if (msg.mode !== "online") {
    return h("button", { type: "button", id: "rematch", class: "primary", onclick: () => ask(true) }, "Rematch (sides swapped)");
  }
  if (!offeredBy) return h("button", { type: "button", id: "rematch", class: "primary", onclick: () => ask(true) }, "Offer a rematch");
  if (offeredBy === msg.seat) {
    return h("span", { class: "rematch", id: "rematch-sent" }, "Rematch offered: waiting for your opponent. ", h("button", { type: "button", id: "rematch-withdraw", onclick: () => ask(false) }, "Withdraw"));
  }
  return h(
    "span",
    { class: "rematch", id: "rematch-offered" },
    "Your opponent offers a rematch, sides swapped. ",
    h("button", { type: "button", id: "rematch-accept", class: "primary", onclick: () => ask(true) }, "Accept"),
    h("button", { type: "button", id: "rematch-decline", onclick: () => ask(false) }, "Decline"),
  );
}

/** The rematch exists: keep our tokens for the swapped sides, and move there when this page
 * saw it being made (someone reopening an old game stays, with a link). */
function rematchReady(game, newId, token) {
  const path = token ? `/game/${encodeURIComponent(newId)}` : `/watch/${encodeURIComponent(newId)}`;
  if (token) rememberRematch(game.gameId, newId);
  if (bar.sawUnfinishedRematch && bar.movedTo !== newId) {
    bar.movedTo = newId;
    setTimeout(() => navigate(path), 0);
  }
  return h("a", { href: path, id: "rematch-link", class: "button primary" }, token ? "Go to the rematch" : "Watch the rematch");
}

// ---- the seat link for another device ---------------------------------------------------------

function seatLinkPart(gameId, seat, token) {
  const link = seatLink(gameId, seat, token);
  const details = h(
    "details",
    { class: "seat-link", id: "seat-link", open: bar.seatLinkOpen, ontoggle: (e) => { bar.seatLinkOpen = e.target.open; } },
    h("summary", {}, "Play on another device"),
    h("p", { class: "warning" }, `This link is your ${seat} seat's secret: whoever opens it plays for you. Open it only on your own devices; never post it.`),
    h("input", { id: "seat-link-url", readonly: true, value: link, size: 34, "aria-label": "Seat link for another device" }),
    h("button", { type: "button", id: "seat-link-copy", onclick: () => copy(link) }, "Copy"),
  );
  return details;
}

// ---- helpers ------------------------------------------------------------------------------------

async function post(game, seat, token, what, body) {
  try {
    const msg = await request("POST", `/api/games/${encodeURIComponent(game.gameId)}/${what}`, { token, body });
    if (msg && msg.type === "state" && typeof game.accept === "function") game.accept(seat, msg);
  } catch (err) {
    showError(`Could not ${what === "claim" ? "claim the win" : what}: ${err.message}`);
  }
}

function navigate(path) {
  history.pushState({}, "", path);
  window.dispatchEvent(new PopStateEvent("popstate"));
}
