// The opponent's moves played back from the state message's events, one step at a time at the
// player's pace (Settings, with Skip): the card that moved is highlighted on the table, battles
// show their values and result, damage shows the cards going to the discard pile, and cards
// revealed (Spies, searches) are shown face up. The table under it is already the newest
// state, so a click on the current decision is never held back by a playback.

import { eventLine } from "./battle.js";
import { cardEl } from "./cards.js";
import { h } from "./dom.js";

const cap = (s) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : s);
const otherSide = (side) => (side === "rebel" ? "imperial" : "rebel");

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

/** One step in words (events of an attack in battle.js's words). */
export function stepLine(e) {
  const who = cap(e.player);
  switch (e.type) {
    case "turn_started":
      return `${who}'s turn ${e.turn}`;
    case "drew":
      return `${who} draws ${e.n} card${e.n === 1 ? "" : "s"}`;
    case "no_attack":
      return `${who} does not attack`;
    case "group_formed":
      return `${who} starts ${e.kind} group ${e.group} with ${e.card}`;
    case "unit_added":
      return `${who} adds ${e.card} to group ${e.group}`;
    case "deployed":
      return `${who} deploys ${e.card}`;
    case "attached":
      return `${who} attaches ${e.card} to ${e.hero}`;
    case "spies_played":
      return `${who} plays ${e.card} and looks at ${cap(otherSide(e.player))}'s hand`;
    case "cards_seen":
      return `${cap(e.owner)}'s hand, revealed by Spies`;
    case "control_taken":
      return `${who}'s ${e.card} takes control of ${e.hero}`;
    case "sabotaged":
      return `${who}'s ${e.card} destroys ${e.unit}`;
    case "hero_taken":
      return `${who}'s ${e.card} takes ${e.hero} from the ${e.from_deck ? "deck" : "discard pile"} into the hand (shown to both players)`;
    case "hand_limit_discard":
      return `${who} discards ${e.card} (hand limit)`;
    case "game_over":
      return `Game over: ${cap(e.winner)} wins`;
    default:
      return eventLine(e);
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
        h("div", { class: "pb-side" }, h("strong", {}, `${cap(otherSide(e.player))} ${e.defense_value}`), e.defenders.map((n) => face(n, lost(false)))),
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

export class Playback {
  /** `root`: the page's table root (for the highlight); `paceMs()`: the step's duration. */
  constructor(root, paceMs) {
    this.root = root;
    this.paceMs = paceMs;
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
   * none after an undo: the stream starts again). `enabled`: false in hot-seat games, where
   * both players see every move made at this screen.
   */
  take(msg, seat, enabled) {
    const events = msg.events || [];
    const top = events.length ? events[events.length - 1].seq : -1;
    const undone = this.lastPlies !== null && msg.plies < this.lastPlies;
    const fresh = this.lastSeq === null || undone ? [] : events.filter((e) => e.seq > this.lastSeq);
    this.lastPlies = msg.plies;
    if (this.lastSeq === null || undone || top > this.lastSeq) this.lastSeq = top;
    // After an undo the moves queued may be gone from the game.
    if (undone) this.skip();
    if (!enabled || this.paceMs() <= 0) return;
    const steps = stepsFor(fresh, seat);
    if (!steps.length) return;
    // Never far behind the game: the oldest steps go when too many wait.
    this.queue.push(...steps);
    if (this.queue.length > MAX_QUEUE) this.queue.splice(0, this.queue.length - MAX_QUEUE);
    if (!this.current) this.next();
  }

  next() {
    clearTimeout(this.timer);
    this.current = this.queue.shift() || null;
    if (!this.current) {
      this.idle();
      this.highlight();
      return;
    }
    const e = this.current;
    this.el.dataset.state = "playing";
    this.el.dataset.type = e.type;
    this.el.replaceChildren(
      h(
        "div",
        { class: "pb-head" },
        h("span", { class: "pb-line" }, stepLine(e)),
        h("span", { class: "pb-left" }, this.queue.length ? `${this.queue.length} more` : ""),
        h("button", { type: "button", class: "pb-skip", id: "playback-skip", onclick: () => this.skip() }, "Skip"),
      ),
      stepCards(e) || "",
    );
    this.highlight();
    // Steps with cards to read take longer; a long queue (a whole turn) goes faster.
    const slow = ["battle_resolved", "damage_dealt", "cards_seen", "hero_taken"].includes(e.type) ? 2 : 1;
    const behind = this.queue.length > 6 ? 0.5 : 1;
    this.timer = setTimeout(() => this.next(), this.paceMs() * slow * behind);
  }

  /** Nothing to play back: the panel says what it is for (a phone hides it). */
  idle() {
    this.el.dataset.state = "idle";
    delete this.el.dataset.type;
    this.el.replaceChildren(h("p", { class: "pb-idle" }, "The opponent's moves are played back here, one at a time (pace: Settings)."));
  }

  get playing() {
    return this.current !== null;
  }

  skip() {
    this.queue = [];
    this.next();
  }

  /** Mark the cards the current step moved on the table (again after each redraw). */
  highlight() {
    for (const el of this.root.querySelectorAll(".card.moved")) el.classList.remove("moved");
    if (!this.current) return;
    for (const name of movedCards(this.current)) {
      for (const el of this.root.querySelectorAll(`.table .card[data-name="${CSS.escape(name)}"]:not(.face-up)`)) el.classList.add("moved");
    }
  }

  stop() {
    clearTimeout(this.timer);
    this.queue = [];
    this.current = null;
  }
}
