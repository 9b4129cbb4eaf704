// @ts-check
// The opponent's moves played back on the table itself, one step at a time at the player's
// pace (Settings, with Skip): while a step plays, the table shows the game as it stood right
// after that move (the server's own view for this seat after the ply, `steps` in the state
// message: R5 is decided by the engine, never here), the card that moved slides in from where
// it came, a group forms, an attack and a block flash, damage cards go to the discard pile and
// a casualty is struck out. The player's decision comes when the playback ends (or at Skip).
// When the game is over, the playback jumps to the end.

import { cardEl } from "./cards.js";
import { h } from "./dom.js";
import { eventText } from "./events.js";
import { cap, other } from "./text.js";

/** Events a player caused by their own decisions: not played back to that player. */
const OWN_MOVES = new Set([
  "starting_hand",
  "drew",
  "turn_started",
  "no_attack",
  "group_formed",
  "unit_added",
  "attacked",
  "ion_cannon_fired",
  "blocked",
  "targeted",
  "trick_played",
  "psion_played",
  "casualty_picked",
  "deployed",
  "attached",
  "spies_played",
  "control_taken",
  "sabotaged",
  "hero_taken",
  "hand_limit_discard",
]);

/** At most this many steps wait: a playback shows what led to the decision on screen. */
const MAX_QUEUE = 12;

/** Events not worth a step of their own. */
const QUIET = new Set(["starting_hand", "scenario_started", "no_attacker"]);

/** Whose event it is: the side whose move (or deck, for damage) it concerns. */
function actorOf(e) {
  if (e.type === "cards_seen") return e.to;
  if (e.type === "game_over") return null;
  return e.player || null;
}

/**
 * The events of `events` (new since the last message) to play back to `seat` (null: a
 * spectator, who sees both sides' moves): everything except this seat's own moves and its
 * own draws; a Spies reveal is always shown, whoever played it, since it shows cards face up.
 */
export function stepsFor(events, seat) {
  return events.filter((e) => {
    if (QUIET.has(e.type)) return false;
    if (e.type === "cards_seen") return e.source === "spies";
    if (seat && actorOf(e) === seat && OWN_MOVES.has(e.type)) return false;
    return true;
  });
}

/** The cards a step puts on the table's highlight, by name. */
function movedCards(e) {
  switch (e.type) {
    case "group_formed":
    case "unit_added":
    case "blocked":
    case "targeted":
    case "deployed":
    case "trick_played":
    case "spies_played":
    case "hand_limit_discard":
      return [e.card];
    case "attacked":
      return e.units;
    case "attached":
    case "psion_played":
      return [e.card, e.hero];
    case "control_taken":
    case "hero_taken":
      return [e.hero];
    case "ion_cannon_fired":
      return [e.cannon, e.ship];
    case "sabotaged":
      return [e.unit];
    case "casualty_picked":
      return [e.card];
    default:
      return [];
  }
}

/** The cards a step shows face up in the panel. */
function stepCards(e) {
  const face = (name, extra = []) => cardEl(name, { small: true, classes: ["face-up", ...extra] });
  switch (e.type) {
    case "battle_resolved": {
      const lost = (attackerSide) => (e.result === "both destroyed" || (e.result === "attacker won") !== attackerSide ? ["destroyed"] : []);
      return h(
        "div",
        { class: "pb-battle" },
        h("div", { class: "pb-side" }, h("strong", {}, `${cap(e.player)} ${e.attack_value}`), e.attackers.map((n) => face(n, lost(true)))),
        h("span", { class: "vs" }, "vs"),
        h("div", { class: "pb-side" }, h("strong", {}, `${cap(other(e.player))} ${e.defense_value}`), e.defenders.map((n) => face(n, lost(false)))),
      );
    }
    case "damage_dealt":
      return h("div", { class: "pb-damage" }, e.cards.map((n) => face(n, ["to-discard"])), h("span", { class: "pb-arrow" }, `→ ${cap(e.player)}'s discard pile (${e.left} left in the deck)`));
    case "cards_seen":
      return h("div", { class: "pb-revealed" }, e.cards.length ? e.cards.map((n) => face(n)) : h("em", {}, "no cards"));
    case "hero_taken":
    case "control_taken":
      return h("div", { class: "pb-revealed" }, face(e.hero));
    case "attacked":
      return h("div", { class: "pb-cards" }, e.units.map((n) => face(n)));
    default: {
      const names = movedCards(e);
      return names.length ? h("div", { class: "pb-cards" }, names.map((n) => face(n))) : null;
    }
  }
}

/** Events whose card leaves its player's hand for the table. */
const FROM_HAND = new Set(["deployed", "attached", "trick_played", "psion_played", "spies_played", "control_taken", "sabotaged", "hand_limit_discard"]);

/** Whether moves are animated: never for a player who asked for reduced motion. */
const moving = () => !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);

/** Where the cards of a table are on screen, by name (the first of each name), before a redraw. */
export function snapshot(root) {
  const cards = new Map();
  for (const el of root.querySelectorAll(".table .player .card[data-name], .table #battle .card[data-name]")) {
    if (!cards.has(el.dataset.name)) cards.set(el.dataset.name, el.getBoundingClientRect());
  }
  return cards;
}

/** A side's hand on the table: the player's own hand row, or the opponent's face-down cards. */
function handBox(root, side) {
  const mine = root.querySelector(`.table .player.me[data-player="${side}"]`);
  const el = mine ? root.querySelector(".table .hand") : root.querySelector(`.table .player[data-player="${side}"] .opp-hand, .table .player[data-player="${side}"] header`);
  return el ? el.getBoundingClientRect() : null;
}

/** Slide `el` from the box `from` to where it is now. */
function slide(el, from, ms) {
  const to = el.getBoundingClientRect();
  if (!from || !to.width) return;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
  el.animate([{ transform: `translate(${dx}px, ${dy}px) scale(0.85)`, opacity: 0.5 }, { transform: "none", opacity: 1 }], { duration: ms, easing: "ease-out" });
}

export class Playback {
  /** `root`: the page's table root; `paceMs()`: the step's duration; `onStep()`: draw the
   * table again (the step's state, or the newest once the playback ends). */
  constructor(root, paceMs, onStep = () => {}) {
    this.root = root;
    this.paceMs = paceMs;
    this.onStep = onStep;
    this.queue = [];
    this.current = null;
    this.timer = null;
    this.lastSeq = null;
    this.lastPlies = null;
    this.el = h("div", { class: "playback", id: "playback", "aria-live": "polite", "aria-label": "The opponent's moves" });
    this.idle();
  }

  /**
   * Take a state message for `seat`: queue its new events to play back (none the first time,
   * none after an undo: the stream starts again), each with the step of `msg.steps` (the
   * seat's view after the ply that caused it). `enabled`: false in hot-seat games, where both
   * players see every move made at this screen. A game that is over jumps to its end.
   */
  take(msg, seat, enabled) {
    const events = msg.events || [];
    const top = events.length ? events[events.length - 1].seq : -1;
    const undone = this.lastPlies !== null && msg.plies < this.lastPlies;
    const fresh = this.lastSeq === null || undone ? [] : events.filter((e) => e.seq > this.lastSeq);
    this.lastPlies = msg.plies;
    if (this.lastSeq === null || undone || top > this.lastSeq) this.lastSeq = top;
    // After an undo the moves queued may be gone from the game; at the end, the end shows.
    if (undone || msg.over) {
      this.skip();
      return;
    }
    if (!enabled || this.paceMs() <= 0) return;
    // The newest ply's step leaves its view and forecast out: they are the message's own.
    const steps = (msg.steps || [])
      .map((s) => (s.view ? s : { ...s, view: msg.view, forecast: msg.forecast }))
      .sort((a, b) => a.events_to - b.events_to);
    const frameOf = (e) => steps.find((s) => s.events_to > e.seq) || null;
    const log = (msg.view && msg.view.log) || [];
    const queued = stepsFor(fresh, seat).map((e) => ({ event: e, frame: frameOf(e), log: log.slice(0, e.seq + 1), events: events.slice(0, e.seq + 1) }));
    if (!queued.length) return;
    // Never far behind the game: the oldest steps go when too many wait.
    this.queue.push(...queued);
    if (this.queue.length > MAX_QUEUE) this.queue.splice(0, this.queue.length - MAX_QUEUE);
    if (!this.current) this.next();
  }

  next() {
    clearTimeout(this.timer);
    this.current = this.queue.shift() || null;
    if (!this.current) {
      this.idle();
      this.onStep();
      this.highlight();
      return;
    }
    const e = this.current.event;
    this.el.dataset.state = "playing";
    this.el.dataset.type = e.type;
    this.el.dataset.seq = String(e.seq);
    this.el.replaceChildren(
      h(
        "div",
        { class: "pb-head" },
        h("span", { class: "pb-line" }, eventText(e)),
        h("span", { class: "pb-left" }, this.queue.length ? `${this.queue.length} more` : ""),
        // Next: the following step now (a player reading faster than the pace); Skip: the end.
        h("button", { type: "button", class: "pb-skip", id: "playback-next", onclick: () => this.next() }, "Next"),
        h("button", { type: "button", class: "pb-skip", id: "playback-skip", onclick: () => this.skip() }, "Skip"),
      ),
      stepCards(e) || "",
    );
    this.onStep();
    this.highlight();
    // Steps with cards to read take longer; a long queue (a whole turn) goes faster.
    const slow = ["battle_resolved", "damage_dealt", "cards_seen", "hero_taken"].includes(e.type) ? 2 : 1;
    const behind = this.queue.length > 6 ? 0.5 : 1;
    this.timer = setTimeout(() => this.next(), this.paceMs() * slow * behind);
  }

  /**
   * The message to draw while a step plays: the newest message with the step's view (the
   * seat's own, after the step's ply), its forecast, the events and log up to the step's
   * event (the "Last attack" summary stays in step), and no decision. Null: draw the newest.
   */
  shown(msg) {
    const c = this.current;
    if (!c || !c.frame) return null;
    const view = { ...c.frame.view, log: c.log };
    return { ...msg, view, legal: [], events: c.events, forecast: c.frame.forecast, undo: { pending_from: null, allowed: false }, claim: null, playback: { seq: c.event.seq, ply: c.frame.ply } };
  }

  /** Nothing to play back: the panel says what it is for (a phone hides it). */
  idle() {
    this.el.dataset.state = "idle";
    delete this.el.dataset.type;
    delete this.el.dataset.seq;
    this.el.replaceChildren(h("p", { class: "pb-idle" }, "The opponent's moves are played back here, one at a time (pace: Settings)."));
  }

  get playing() {
    return this.current !== null;
  }

  skip() {
    this.queue = [];
    if (this.current) this.next();
  }

  /** Mark the cards the current step moved on the table (again after each redraw). */
  highlight() {
    for (const el of this.root.querySelectorAll(".card.moved")) el.classList.remove("moved");
    if (!this.current) return;
    for (const name of movedCards(this.current.event)) {
      for (const el of this.root.querySelectorAll(`.table .card[data-name="${CSS.escape(name)}"]:not(.face-up)`)) el.classList.add("moved");
    }
  }

  /**
   * Animate the current step on the table just drawn: `before` is where the cards were
   * (snapshot) before the redraw. A card from a hand slides in from that hand; a unit that
   * joined a group or blocks slides from its zone; an attacking group and a block flash;
   * damage cards fly to their discard pile; a casualty is struck out (style.css).
   */
  animate(before) {
    if (!this.current || !moving()) return;
    const e = this.current.event;
    const ms = Math.max(150, Math.min(600, this.paceMs() * 0.6));
    const moved = [...this.root.querySelectorAll(".table .card.moved")];
    if (FROM_HAND.has(e.type)) {
      const from = handBox(this.root, e.player);
      for (const el of moved) if (el.dataset.name === e.card) slide(el, from, ms);
    } else if (["group_formed", "unit_added", "blocked"].includes(e.type)) {
      for (const el of moved) slide(el, before.get(el.dataset.name), ms);
    }
    if (e.type === "attacked" || e.type === "blocked" || e.type === "targeted") {
      const group = this.root.querySelector(`.table #battle .group[data-group="${e.group}"]`);
      if (group) group.classList.add(e.type === "attacked" ? "pb-attack" : "pb-block");
    }
    if (e.type === "damage_dealt") {
      const pile = [...this.root.querySelectorAll(".table .player .pile")].find((b) => b.closest(`[data-player="${e.player}"]`));
      const to = pile ? pile.getBoundingClientRect() : null;
      for (const el of this.el.querySelectorAll(".to-discard")) {
        const r = el.getBoundingClientRect();
        if (!to) continue;
        const dx = to.left + to.width / 2 - (r.left + r.width / 2);
        const dy = to.top + to.height / 2 - (r.top + r.height / 2);
        el.animate([{ transform: "none", opacity: 1 }, { transform: "rotateY(180deg)", opacity: 1, offset: 0.4 }, { transform: `translate(${dx}px, ${dy}px) rotateY(180deg) scale(0.4)`, opacity: 0.2 }], { duration: ms * 2, delay: ms / 2, easing: "ease-in", fill: "forwards" });
      }
    }
    if (e.type === "casualty_picked") {
      for (const el of this.el.querySelectorAll(".card")) el.classList.add("struck");
    }
  }

  stop() {
    clearTimeout(this.timer);
    this.queue = [];
    this.current = null;
  }
}
