// The replay viewer (/replay/{id}): a finished game's frames from GET /api/games/{id}/replay,
// stepped forward and back (buttons, arrow keys, a slider, "play"), with both hands, each
// step's action and events in words. Read-only; anyone with the link may watch (issue 13).

import { ApiError, request } from "./api.js";
import { cardEl } from "./cards.js";
import { h } from "./dom.js";
import { attachText, eventText } from "./events.js";
import { pageLinks } from "./games.js";
import { decisionLine, thresholdLine } from "./hints.js";
import { copy } from "./menu.js";
import { resultText } from "./online.js";

const cap = (s) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : "");
/** "1 mistake", "2 mistakes", "1 inaccuracy", "3 inaccuracies". */
export const count = (n, word, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;
const PLAY_MS = 1200; // "play": one step every 1.2 s, slow enough to read the events

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
    this.markMove();
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
    this.events.replaceChildren(...attachText(f.events, f.view.log).map((e) => h("li", {}, eventText(e))));
    const v = f.view;
    const status = v.to_move ? `Turn ${v.turn}, ${cap(v.active_player)}'s ${v.phase} phase; ${cap(v.to_move)} to decide` : `Turn ${v.turn}: the game is over`;
    this.board.replaceChildren(h("p", { id: "replay-status" }, status), ...sidesOf(v).map(sidePanel));
    this.markMove();
  }

  /** The analysis's move shown now (if it is one) is marked, and only it: the mark follows
   * the step, whether a click on the list, the buttons or the keys brought the table there. */
  markMove() {
    for (const el of this.root.querySelectorAll(".analysis-move")) {
      const here = Number(el.dataset.ply) + 1 === this.index;
      el.classList.toggle("current", here);
      if (here) el.setAttribute("aria-current", "step");
      else el.removeAttribute("aria-current");
    }
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
