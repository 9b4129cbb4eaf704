// The replay viewer (/replay/{id}): a finished game's frames from GET /api/games/{id}/replay,
// stepped forward and back (buttons, arrow keys, a slider, "play"), with both hands, each
// step's action and events in words. Read-only; anyone with the link may watch (issue 13).

import { ApiError, request } from "./api.js";
import { cardEl } from "./cards.js";
import { h } from "./dom.js";
import { pageLinks } from "./games.js";
import { decisionLine, thresholdLine } from "./hints.js";
import { copy } from "./menu.js";
import { resultText } from "./online.js";

const cap = (s) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : "");
const other = (side) => (side === "rebel" ? "imperial" : "rebel");
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
/** "1 mistake", "2 mistakes", "1 inaccuracy", "3 inaccuracies". */
export const count = (n, word, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;
const PLAY_MS = 1200; // "play": one step every 1.2 s, slow enough to read the events

const END_REASON = {
  starting_hand: (loser) => `${cap(loser)}'s deck is empty after the starting hand`,
  last_draw: (loser) => `${cap(loser)} drew the last card of their deck`,
  search: (loser, card) => `${cap(loser)}'s deck emptied by ${card}`,
  damage: (loser) => `${cap(loser)}'s deck is empty`,
};

/** One event of the full-information stream in words (docs/protocol.md "Events"). */
export function eventText(e) {
  const who = cap(e.player);
  const them = e.player ? cap(other(e.player)) : "";
  switch (e.type) {
    case "scenario_started": return `Scenario: turn ${e.turn}, ${who} ${e.phase} phase`;
    case "turn_started": return `Turn ${e.turn}: ${who} (decks: Rebel ${e.decks.rebel}, Imperial ${e.decks.imperial})`;
    case "starting_hand": return `${who} draws a starting hand of ${plural(e.n, "card")}`;
    case "drew": return `${who} draws ${plural(e.n, "card")}`;
    case "cards_seen":
      if (e.source === "spies") return `${cap(e.to)} sees ${cap(e.owner)}'s hand: ${e.cards.join(", ") || "empty"}`;
      return `${cap(e.owner)} ${e.source === "starting_hand" ? "starts with" : "draws"} ${e.cards.join(", ") || "nothing"}`;
    case "no_attacker": return `${who} has no unit that can attack`;
    case "no_attack": return `${who} does not attack`;
    case "group_formed": return `${who} forms ${e.kind} group ${e.group} with ${e.card}`;
    case "unit_added": return `${who} adds ${e.card} to group ${e.group}`;
    case "attacked": return `${who} attacks with ${e.kind} group ${e.group}: ${e.units.join(", ")} (value ${e.value})`;
    case "ion_cannon_fired": return `${who}'s ${e.cannon} destroys ${e.ship} in group ${e.group}`;
    case "blocked": return `${who} blocks group ${e.group} with ${e.card}`;
    case "targeted": return `${who}'s group ${e.group} targets ${them}'s ${e.inactive ? "inactive " : ""}${e.card}`;
    case "trick_played": return `${who} plays ${e.card}`;
    case "psion_played": return `${who} plays ${e.card} on ${e.hero}`;
    case "got_through": {
      const shields = e.stopped > 0 ? ` (Defense Shields stop ${e.stopped})` : e.shields ? " (Defense Shields stop the Ships' damage)" : "";
      return `${who}'s group ${e.group} gets through: ${e.damage} damage${shields}`;
    }
    case "battle_resolved": {
      const outcome =
        e.result === "attacker won" ? `${who} wins, ${e.defenders.join(", ")} destroyed`
        : e.result === "defender won" ? `${them} wins, ${e.attackers.join(", ")} destroyed`
        : "a tie, both sides destroyed";
      const against = e.blocked ? `blocked by ${e.defenders.join(", ")}` : `against the target ${e.defenders.join(", ")}`;
      return `${who}'s ${e.kind} group ${e.group} (${e.attackers.join(", ")}: ${e.attack_value}) ${against} (${e.defense_value}): ${outcome}`;
    }
    case "casualty_picked": return `${who} picks ${e.card} (${e.rating}) as a casualty`;
    case "damage_dealt": return `${who} discards ${plural(e.cards.length, "card")} from the deck: ${e.cards.join(", ") || "none"} (${e.left} left)`;
    case "extra_attack_phase": return `${who} gets an extra attack phase`;
    case "deployed": return `${who} deploys ${e.card}`;
    case "attached": return `${who} attaches ${e.card} to ${e.hero}`;
    case "spies_played": return `${who} plays ${e.card} and looks at ${them}'s hand`;
    case "control_taken": return `${who} plays ${e.card} and takes control of ${e.hero}`;
    case "sabotaged": return `${who} plays ${e.card} and destroys ${them}'s ${e.unit}`;
    case "hero_taken": return `${who} plays ${e.card} and takes ${e.hero} from the ${e.from_deck ? "deck (then shuffled)" : "discard pile"}`;
    case "hand_limit_discard": return `${who} discards ${e.card} (hand limit)`;
    case "game_over": {
      const why = END_REASON[e.reason] ? END_REASON[e.reason](other(e.winner), e.card) : e.reason;
      return `${cap(e.winner)} wins: ${why}`;
    }
    default: return e.type.replace(/_/g, " ");
  }
}

/** The two sides of a full view, Rebel first (a full view's `you` is the Rebel side, but the
 * sides say who they are). */
function sidesOf(view) {
  return [view.you, view.opponent].sort((a, b) => (a.player === "rebel" ? -1 : b.player === "rebel" ? 1 : 0));
}

function zone(label, id, cards) {
  return h(
    "div",
    {},
    h("div", { class: "replay-zone-label" }, label),
    h("div", { class: "replay-zone", id, "aria-label": label }, cards.length ? cards : h("span", { class: "replay-zone-label" }, "empty")),
  );
}

function sidePanel(s) {
  const hand = s.hand || [];
  const unit = (u) => cardEl(u.name, { small: true, unit: u, badge: u.attachments && u.attachments.length ? `+ ${u.attachments.join(", ")}` : null });
  return h(
    "section",
    { class: ["replay-side", `side-${s.player}`], id: `replay-${s.player}`, "data-deck": s.deck_size, "data-hand": hand.length, "data-discard": s.discard.length },
    h("h2", {}, cap(s.player), h("span", { class: "counts" }, `deck ${s.deck_size} · hand ${s.hand_size} · discard ${s.discard.length}`)),
    zone("Hand", `replay-${s.player}-hand`, hand.map((n) => cardEl(n, { small: true }))),
    zone("Active Zone", `replay-${s.player}-active`, s.active.map(unit)),
    zone("Inactive Zone", `replay-${s.player}-inactive`, s.inactive.map(unit)),
    zone("Discard pile (top last)", `replay-${s.player}-discard`, s.discard.map((n) => cardEl(n, { small: true }))),
  );
}

export class ReplayViewer {
  constructor(root, gameId) {
    this.root = root;
    this.gameId = gameId;
    this.frames = [];
    this.index = 0;
    this.player = null; // the "play" timer
    this.onKey = (e) => this.key(e);
  }

  async start() {
    document.title = "Rebel Space: replay";
    this.root.replaceChildren(h("p", { class: "loading" }, "Loading the replay…"));
    let data;
    try {
      data = await request("GET", `/api/games/${encodeURIComponent(this.gameId)}/replay`);
    } catch (err) {
      this.fail(err);
      return;
    }
    if (this.closed) return;
    this.data = data;
    this.frames = data.frames || [];
    if (!this.frames.length) {
      this.fail(new ApiError(0, "empty", "The replay has no frames."));
      return;
    }
    this.build();
    this.show(0);
    document.addEventListener("keydown", this.onKey);
  }

  /** The page's card clicks (app.js) choose nothing here: a replay is read-only. */
  onCardClick() {}

  close() {
    this.closed = true;
    this.pause();
    document.removeEventListener("keydown", this.onKey);
  }

  fail(err) {
    let text = `Cannot load the replay: ${err.message}`;
    if (err.status === 404) text = "There is no such game on this server.";
    else if (err.status === 409) text = "This game is not finished yet: its replay opens once it is over (until then it would show hidden cards).";
    this.root.replaceChildren(
      h("div", { class: "replay" }, h("h1", {}, "Replay"), h("p", { id: "replay-message", role: "alert" }, text), h("p", {}, h("a", { href: `/watch/${encodeURIComponent(this.gameId)}` }, "Watch the game"), " · ", h("a", { href: "/" }, "Back to the lobby"))),
    );
  }

  build() {
    const n = this.frames.length;
    const button = (id, label, text, fn) => h("button", { type: "button", id, "aria-label": label, title: label, onclick: fn }, text);
    this.slider = h("input", { type: "range", id: "replay-slider", min: 0, max: n - 1, step: 1, value: 0, "aria-label": "Step of the game" });
    this.slider.addEventListener("input", () => { this.pause(); this.show(Number(this.slider.value)); });
    this.playButton = button("replay-play", "Play", "▶ Play", () => (this.player ? this.pause() : this.play()));
    this.counter = h("span", { class: "replay-step", id: "replay-step", "aria-live": "polite" });
    this.action = h("p", { class: "replay-action", id: "replay-action" });
    this.events = h("ul", { class: "replay-events", id: "replay-events", "aria-label": "What happened in this step" });
    this.board = h("div", { id: "replay-board" });
    const share = h("input", { id: "replay-url", readonly: true, value: location.href, size: 40, "aria-label": "Link to this replay" });
    const d = this.data;
    this.root.replaceChildren(
      h(
        "div",
        { class: "replay" },
        h("div", { class: "replay-head" }, h("h1", {}, "Replay"), h("span", { id: "replay-result" }, resultText(d.result, d.result ? d.result.winner : null))),
        pageLinks((path) => { history.pushState({}, "", path); window.dispatchEvent(new PopStateEvent("popstate")); }, "replay"),
        h("p", { class: "replay-share" }, h("label", {}, "Share this replay: ", share), " ", h("button", { type: "button", id: "replay-copy", onclick: () => copy(share.value) }, "Copy link")),
        h(
          "div",
          { class: "replay-controls", role: "group", "aria-label": "Replay controls (arrow keys step, Home and End jump)" },
          button("replay-first", "First step", "« First", () => this.go(0)),
          button("replay-back", "Step back", "◀ Back", () => this.go(this.index - 1)),
          this.playButton,
          button("replay-forward", "Step forward", "Forward ▶", () => this.go(this.index + 1)),
          button("replay-last", "Last step", "Last »", () => this.go(n - 1)),
          this.slider,
          this.counter,
        ),
        this.action,
        this.events,
        this.analysisEl(),
        this.board,
      ),
    );
  }

  /** The analysis of one side's decisions (GET .../analysis): asked for with a button, as it
   * costs the server seconds; its worst moves are buttons that jump to their step. */
  analysisEl() {
    this.analysisOut = h("div", { id: "analysis-out", "aria-live": "polite" });
    const ask = (side) => h("button", { type: "button", id: `analyse-${side}`, onclick: () => this.analyse(side) }, `Analyse ${cap(side)}'s moves`);
    return h(
      "section",
      { class: "replay-analysis", id: "replay-analysis", "aria-labelledby": "analysis-title" },
      h("h2", { id: "analysis-title" }, "Analysis"),
      h("p", {}, "The computer judges each decision of one player from what that player could see, and lists the moves that lost the most."),
      h("div", { role: "group", "aria-label": "Whose moves to analyse" }, ask("rebel"), " ", ask("imperial")),
      this.analysisOut,
    );
  }

  async analyse(side) {
    this.analysisOut.replaceChildren(h("p", {}, `Analysing ${cap(side)}'s moves (a few seconds)…`));
    let data;
    try {
      data = await request("GET", `/api/games/${encodeURIComponent(this.gameId)}/analysis?side=${side}`);
    } catch (err) {
      this.analysisOut.replaceChildren(h("p", { role: "alert" }, `No analysis: ${err.message}`));
      return;
    }
    const a = data.analysis;
    const byPly = new Map(a.decisions.map((d) => [d.ply, d]));
    const worst = a.worst.map((ply) => byPly.get(ply)).filter(Boolean);
    const c = a.counts;
    const summary = `${cap(side)}: ${count(a.decisions.length, "decision")} · ${c.best} best · ${c.good} good · ${count(c.inaccuracy, "inaccuracy", "inaccuracies")} · ${count(c.mistake, "mistake")} · ${count(c.blunder, "blunder")}`;
    const item = (d) =>
      h(
        "li",
        {},
        h(
          "button",
          { type: "button", class: ["analysis-move", `verdict-${d.verdict}`], "data-ply": d.ply, "aria-label": `${decisionLine(d)}. Show this step`, onclick: () => this.go(d.ply + 1) },
          decisionLine(d),
        ),
      );
    this.analysisOut.replaceChildren(
      h("p", { id: "analysis-summary" }, summary),
      worst.length
        ? h("ol", { id: "analysis-worst", "aria-label": `${cap(side)}'s costliest moves, worst first (win chance before → after)` }, worst.map(item))
        : h("p", {}, "No inaccuracy, mistake or blunder found."),
      h("p", { class: "replay-zone-label" }, thresholdLine(a.thresholds), worst.length ? ` The worst cost ${Math.round(100 * worst[0].loss)} points.` : ""),
    );
  }

  go(i) {
    this.pause();
    this.show(i);
  }

  show(i) {
    const n = this.frames.length;
    this.index = Math.max(0, Math.min(n - 1, i));
    const f = this.frames[this.index];
    this.slider.value = String(this.index);
    this.root.dataset.step = String(this.index);
    this.counter.textContent = `Step ${this.index} of ${n - 1}${this.index === n - 1 ? " (the end)" : ""}`;
    const a = f.action;
    this.action.textContent = a ? `${cap(a.by)}: ${a.text}` : "The start: both players have drawn their hands.";
    this.events.replaceChildren(...(f.events || []).map((e) => h("li", {}, eventText(e))));
    const v = f.view;
    const status = v.to_move ? `Turn ${v.turn}, ${cap(v.active_player)}'s ${v.phase} phase; ${cap(v.to_move)} to decide` : `Turn ${v.turn}: the game is over`;
    this.board.replaceChildren(h("p", { id: "replay-status" }, status), ...sidesOf(v).map(sidePanel));
  }

  play() {
    if (this.index >= this.frames.length - 1) this.show(0);
    this.playButton.textContent = "⏸ Pause";
    this.playButton.setAttribute("aria-label", "Pause");
    this.player = setInterval(() => {
      if (this.index >= this.frames.length - 1) this.pause();
      else this.show(this.index + 1);
    }, PLAY_MS);
  }

  pause() {
    if (!this.player) return;
    clearInterval(this.player);
    this.player = null;
    this.playButton.textContent = "▶ Play";
    this.playButton.setAttribute("aria-label", "Play");
  }

  key(e) {
    // Keys typed into a field (the share link) are not steps; the slider handles its own.
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    const moves = { ArrowRight: this.index + 1, ArrowLeft: this.index - 1, Home: 0, End: this.frames.length - 1 };
    if (!(e.key in moves)) return;
    e.preventDefault();
    this.go(moves[e.key]);
  }
}
