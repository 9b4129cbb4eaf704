// @ts-check
// The replay viewer (/replay/{id}): a finished game's frames from GET /api/games/{id}/replay,
// drawn on the game's own table (table.js), read-only: both hands face up, the Rebel at the
// bottom (a button flips the sides), nothing on it to click but the piles. It steps forward
// and back (buttons, arrow keys, a slider, "play"); a click on a move in the list of moves or
// in the analysis brings the table to that ply, and the mark of the shown move follows the
// table whatever brought it there. Anyone with the link may watch (issue 13); the page is one
// screen high (issue 31 item 7), as the game is.

import { ApiError, request } from "./api.js";
import { BattleMemory } from "./battle.js";
import { installCardInfo } from "./cards.js";
import { h } from "./dom.js";
import { attachText, eventText } from "./events.js";
import { decisionLine, thresholdLine } from "./hints.js";
import { copy, showPile } from "./menu.js";
import { resultText } from "./online.js";
import { tableEl } from "./table.js";
import { cap } from "./text.js";

/** "1 mistake", "2 mistakes", "1 inaccuracy", "3 inaccuracies". */
export const count = (n, word, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;
const PLAY_MS = 1200; // "play": one step every 1.2 s, slow enough to read the events

/** The battle's key in BattleMemory: one attack phase of one turn. */
const attackKey = (view) => (view.battle ? `${view.turn}:${view.extra_attacks}` : null);

/** A full view (both hands by name) with `bottom`'s side as `you`: the table draws `you`
 * at the bottom and `opponent` on top. */
function oriented(view, bottom) {
  if (view.you.player === bottom) return view;
  return { ...view, you: view.opponent, opponent: view.you };
}

export class ReplayViewer {
  constructor(root, gameId) {
    this.root = root;
    this.gameId = gameId;
    this.frames = [];
    this.index = 0;
    this.bottom = "rebel"; // whose side is drawn at the bottom (the flip button swaps it)
    this.sideOpen = false; // a phone: the moves and the analysis over the table
    this.player = null; // the "play" timer
    this.onKey = (e) => this.key(e);
    // The table's callbacks, read-only: no card is a choice, no group can be selected.
    this.ui = {
      selectableGroups: new Set(),
      selectedGroup: null,
      clickable: () => false,
      selectGroup: () => {},
      showPile: (title, names) => showPile(title, names),
    };
  }

  async start() {
    document.title = "Rebel Space: replay";
    installCardInfo();
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
    for (const f of this.frames) attachText(f.events, f.view.log); // the server's words (events.js)
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
    this.playButton = button("replay-play", "Play", "▶", () => (this.player ? this.pause() : this.play()));
    this.counter = h("span", { class: "replay-step", id: "replay-step", "aria-live": "polite" });
    this.flipButton = h("button", { type: "button", id: "replay-flip", "aria-pressed": "false", title: "Swap the sides: the other player at the bottom", onclick: () => this.flip() }, "Flip");
    this.board = h("div", { id: "replay-board", class: "replay-board" });
    const d = this.data;
    const bar = h(
      "div",
      { class: "status replay-bar" },
      h("h1", {}, "Replay"),
      h("span", { id: "replay-result" }, resultText(d.result, d.result ? d.result.winner : null)),
      h(
        "div",
        { class: "replay-controls", role: "group", "aria-label": "Replay controls (arrow keys step, Home and End jump)" },
        button("replay-first", "First step", "«", () => this.go(0)),
        button("replay-back", "Step back", "◀", () => this.go(this.index - 1)),
        this.playButton,
        button("replay-forward", "Step forward", "▶▶", () => this.go(this.index + 1)),
        button("replay-last", "Last step", "»", () => this.go(n - 1)),
        this.slider,
        this.counter,
      ),
      this.flipButton,
      h("button", { type: "button", class: "side-toggle", id: "side-toggle", "aria-controls": "replay-sidebar", "aria-label": "Moves and analysis", onclick: () => this.toggleSide() }, "Moves"),
    );
    this.screen = h("div", { class: "game-screen replay-screen" }, bar, this.board, this.sidebarEl());
    this.root.replaceChildren(this.screen);
  }

  /** The side column: every move (a button that shows the table after it), the analysis,
   * the link to share. On a phone it opens over the table from the bar. */
  sidebarEl() {
    const share = h("input", { id: "replay-url", readonly: true, value: location.href, "aria-label": "Link to this replay" });
    this.moveList = h("ol", { class: "replay-moves", id: "replay-moves", "aria-label": "Moves (each shows the table after it)", tabindex: "-1" }, this.moveItems());
    return h(
      "aside",
      { class: "sidebar replay-sidebar", id: "replay-sidebar", "aria-label": "Moves, analysis and link" },
      h("button", { type: "button", class: "side-close", onclick: () => this.toggleSide() }, "Close"),
      h("h2", { class: "replay-moves-title" }, "Moves"),
      this.moveList,
      this.analysisEl(),
      h("p", { class: "replay-share" }, h("label", {}, "Share: ", share), h("button", { type: "button", id: "replay-copy", onclick: () => copy(share.value) }, "Copy link")),
    );
  }

  /** One button per frame (the start, then each action), with the turn's number where a turn starts. */
  moveItems() {
    const items = [];
    let turn = null;
    this.frames.forEach((f, i) => {
      if (f.view.turn !== turn) {
        turn = f.view.turn;
        items.push(h("li", { class: "replay-turn", "aria-hidden": "true" }, `Turn ${turn}`));
      }
      const text = f.action ? `${cap(f.action.by)}: ${f.action.text}` : "The start: both hands drawn";
      items.push(h("li", {}, h("button", { type: "button", class: ["replay-move", f.action ? `by-${f.action.by}` : ""], "data-ply": f.plies, "data-frame": i, onclick: () => this.pick(i) }, `${i}. ${text}`)));
    });
    return items;
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
      h("p", {}, "The computer judges one player's decisions from what that player could see, and lists the moves that lost the most."),
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
    // A decision's ply counts the actions before it: the table after it is frame ply + 1,
    // the same frame as the move's own button in the list of moves.
    const item = (d) =>
      h(
        "li",
        {},
        h(
          "button",
          { type: "button", class: ["analysis-move", `verdict-${d.verdict}`], "data-ply": d.ply, "data-frame": d.ply + 1, "aria-label": `${decisionLine(d)}. Show this step`, onclick: () => this.pick(d.ply + 1) },
          decisionLine(d),
        ),
      );
    this.analysisOut.replaceChildren(
      h("p", { id: "analysis-summary" }, summary),
      worst.length
        ? h("ol", { id: "analysis-worst", "aria-label": `${cap(side)}'s costliest moves, worst first (win chance before → after)` }, worst.map(item))
        : h("p", {}, "No inaccuracy, mistake or blunder found."),
      h("p", { class: "replay-note" }, thresholdLine(a.thresholds), worst.length ? ` The worst cost ${Math.round(100 * worst[0].loss)} points.` : ""),
    );
    this.markMove(false);
  }

  /** A click on a move (the list or the analysis): the table goes there; on a phone the
   * column over the table closes so that the table shows. */
  pick(i) {
    if (this.sideOpen) this.toggleSide();
    this.go(i);
  }

  go(i) {
    this.pause();
    this.show(i);
  }

  flip() {
    this.bottom = this.bottom === "rebel" ? "imperial" : "rebel";
    this.flipButton.setAttribute("aria-pressed", this.bottom === "rebel" ? "false" : "true");
    this.show(this.index);
  }

  toggleSide() {
    this.sideOpen = !this.sideOpen;
    this.screen.classList.toggle("side-open", this.sideOpen);
    // The list was hidden while the table stepped: its mark comes into sight as it opens.
    if (this.sideOpen) this.markMove(true);
  }

  /** The state message the table draws for frame `i`: a spectator's (no seat, no decision),
   * with every event up to this frame (the "Last attack" summary reads them). */
  messageAt(i) {
    const f = this.frames[i];
    const events = this.frames.slice(0, i + 1).flatMap((g) => g.events || []);
    const d = this.data;
    return { view: oriented(f.view, this.bottom), events, seat: null, seats: d.seats, mode: d.mode, result: d.result, plies: f.plies };
  }

  /** The battle memory at frame `i`: fed every frame of the attack on the table since it began,
   * as the game's page would have been, so a step back or a jump shows who fought. */
  memoryAt(i) {
    const memory = new BattleMemory();
    const key = attackKey(this.frames[i].view);
    let start = i;
    while (key !== null && start > 0 && attackKey(this.frames[start - 1].view) === key) start -= 1;
    for (let j = start; j < i; j += 1) memory.update({ view: this.frames[j].view });
    return memory;
  }

  show(i) {
    const n = this.frames.length;
    this.index = Math.max(0, Math.min(n - 1, i));
    const f = this.frames[this.index];
    this.slider.value = String(this.index);
    this.root.dataset.step = String(this.index);
    this.counter.textContent = `Step ${this.index} of ${n - 1}${this.index === n - 1 ? " (the end)" : ""}`;
    const v = f.view;
    const a = f.action;
    const status = v.to_move ? `Turn ${v.turn}, ${cap(v.active_player)}'s ${v.phase} phase; ${cap(v.to_move)} to decide` : `Turn ${v.turn}: the game is over`;
    const now = h(
      "section",
      { class: "replay-now", id: "replay-now", "aria-label": "This step", tabindex: "0" },
      h("p", { class: "replay-status", id: "replay-status" }, status),
      h("p", { class: "replay-action", id: "replay-action" }, a ? `${cap(a.by)}: ${a.text}` : "The start: both players have drawn their hands."),
      h("ul", { class: "replay-events", id: "replay-events", "aria-label": "What happened in this step" }, (f.events || []).map((e) => h("li", {}, eventText(e)))),
    );
    const msg = this.messageAt(this.index);
    const table = tableEl(msg, [], this.memoryAt(this.index), this.ui, { handsUp: true, dock: now });
    // For tests and styling: each side's panel by its player, with its counts.
    for (const side of [v.you, v.opponent]) {
      const panel = table.querySelector(`.player[data-player="${side.player}"]`);
      if (!panel) continue;
      panel.id = `replay-${side.player}`;
      Object.assign(panel.dataset, { deck: String(side.deck_size), hand: String(side.hand_size), discard: String(side.discard.length) });
    }
    // Each zone's share of its row (online.css): its number of cards. CSSOM, which the
    // Content-Security-Policy allows where a style attribute would not be.
    for (const zone of table.querySelectorAll(".zones.with-hand > .zone")) zone.style.setProperty("--cards", String(Math.max(1, zone.querySelectorAll(".cards > :not(.empty)").length)));
    this.board.replaceChildren(table);
    this.board.dataset.ply = String(f.plies);
    this.board.dataset.bottom = this.bottom;
    this.markMove(true);
  }

  /** The move shown now is marked, and only it, in the list of moves and in the analysis:
   * the mark follows the table, whether a click, the buttons or the keys brought it there.
   * `reveal`: the list scrolls (itself only) to bring the mark into sight. */
  markMove(reveal) {
    let shown = null;
    for (const el of this.root.querySelectorAll(".replay-move, .analysis-move")) {
      const here = Number(el.dataset.frame) === this.index;
      el.classList.toggle("current", here);
      if (here) el.setAttribute("aria-current", "step");
      else el.removeAttribute("aria-current");
      if (here && el.classList.contains("replay-move")) shown = el;
    }
    if (reveal && shown) revealIn(this.moveList, shown);
  }

  play() {
    if (this.index >= this.frames.length - 1) this.show(0);
    this.playButton.textContent = "⏸";
    this.playButton.setAttribute("aria-label", "Pause");
    this.playButton.title = "Pause";
    this.player = setInterval(() => {
      if (this.index >= this.frames.length - 1) this.pause();
      else this.show(this.index + 1);
    }, PLAY_MS);
  }

  pause() {
    if (!this.player) return;
    clearInterval(this.player);
    this.player = null;
    this.playButton.textContent = "▶";
    this.playButton.setAttribute("aria-label", "Play");
    this.playButton.title = "Play";
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

/** Scroll `list` (only it, never the page) so that `el` is inside its visible box. */
function revealIn(list, el) {
  const box = list.getBoundingClientRect();
  const r = el.getBoundingClientRect();
  if (!box.height) return; // hidden (a phone's closed column)
  if (r.bottom > box.bottom) list.scrollTop += r.bottom - box.bottom + 4;
  else if (r.top < box.top) list.scrollTop -= box.top - r.top + 4;
}
