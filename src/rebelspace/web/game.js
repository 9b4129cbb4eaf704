// @ts-check
// Over 500 lines: the Game class's state (messages per seat, hint, sending, focus) is shared
// by all its methods; the table's drawing is in table.js, prompts in prompts.js.
// One open game: its WebSocket(s), the latest state message per seat, hot-seat hand-overs,
// and turning clicks on the table into the legal actions they stand for.

import { cap, other } from "./text.js";
import { OWN, forCopy, menuLabel, placeOf } from "./actions.js";
import { openSocket, request } from "./api.js";
import { BattleMemory, groupValues } from "./battle.js";
import { installCardInfo } from "./cards.js";
import { h } from "./dom.js";
import { clearError, showError } from "./errors.js";
import { closeMenu, copy, openMenu, showPile } from "./menu.js";
import { claimBox, gameBar } from "./online.js";
import { attachText } from "./events.js";
import { Playback, snapshot } from "./playback.js";
import { renderTable } from "./table.js";


const SETTINGS_KEY = "rebelspace.settings";
/** An only choice (a lone "Pass") is made for the player after this long, unless they chose to confirm. */
const FORCED_MS = 1200;
const DEFAULTS = { playbackMs: 750, confirmForced: false };

/** The player's settings in this browser; `?playback=MS` in the page's address overrides the pace. */
export function loadSettings() {
  let stored;
  try {
    stored = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}") || {};
  } catch {
    stored = {};
  }
  const settings = { ...DEFAULTS, ...stored };
  const pace = new URLSearchParams(location.search).get("playback");
  if (pace !== null && /^\d+$/.test(pace)) settings.playbackMs = Number(pace);
  return settings;
}

/**
 * Where the focused element is, told so that the same control is found after a redraw: its
 * action, its battle group, its card (the how-manieth of that name at that place), or its id.
 */
function focusSelector(root, el) {
  const q = (s) => CSS.escape(s);
  let selector = null;
  if (el.dataset.actionId !== undefined) selector = `[data-action-id="${q(el.dataset.actionId)}"]`;
  else if (el.matches("section.group[data-group]")) selector = `section.group[data-group="${q(el.dataset.group)}"]`;
  else if (el.matches(".card[data-place][data-name]")) selector = `.card[data-place="${q(el.dataset.place)}"][data-name="${q(el.dataset.name)}"]`;
  else if (el.id) selector = `#${q(el.id)}`;
  if (!selector) return null;
  return { selector, index: Math.max(0, [...root.querySelectorAll(selector)].indexOf(el)) };
}

/** Scroll `container` (only it, never the page) so that `el` is inside its visible box. */
function revealIn(container, el) {
  const box = container.getBoundingClientRect();
  const r = el.getBoundingClientRect();
  if (r.bottom > box.bottom) container.scrollTop += Math.min(r.bottom - box.bottom + 4, r.top - box.top);
  else if (r.top < box.top) container.scrollTop -= box.top - r.top + 4;
  if (r.right > box.right) container.scrollLeft += Math.min(r.right - box.right + 4, r.left - box.left);
  else if (r.left < box.left) container.scrollLeft -= box.left - r.left + 4;
}

/**
 * A new decision: in each panel that scrolls (the battle, a side's zones, a row of cards), the
 * first glowing card (the hinted one first) is brought into sight, so that a choice is never
 * hidden below a panel's edge or off to the side of a row.
 */
export function revealChoices(root) {
  const panels = root.querySelectorAll(".table #battle, .table .player, .table .zone > .cards, .table .hand > .cards");
  for (const panel of panels) {
    const el = panel.querySelector(".card.clickable.hinted") || panel.querySelector(".card.clickable");
    if (el) revealIn(panel, el);
  }
}

export class GameController {
  constructor(root, gameId, tokens, stored) {
    this.root = root;
    this.closed = false;
    this.gameId = gameId;
    this.tokens = tokens; // {rebel?: token, imperial?: token}
    this.stored = stored;
    this.messages = new Map(); // seat (or "watch") -> latest state message
    this.sockets = [];
    this.shown = null; // seat shown (hot-seat switches between two)
    this.handoff = null; // hot-seat: waiting for the next player to take the screen
    this.selectedGroup = null;
    this.memory = new BattleMemory();
    this.connection = "connecting";
    // The version of the decision whose action is on its way: that decision is not sent twice,
    // but a newer decision on screen (the WebSocket push came before the REST answer) is.
    this.sentAt = null;
    this.rendered = null; // what the table on screen was drawn from (see render)
    this.settings = loadSettings();
    this.sideOpen = false;
    this.forcedTimer = null;
    this.focusedVersion = null; // the version whose decision got the focus (see render)
    this.shownVersion = null; // the version of the state drawn last
    this.playback = new Playback(root, () => this.settings.playbackMs, () => this.rerender());
    this.hint = null; // {version, seat, state: "loading" | "ready" | "error", data, message}
    this.ui = this.makeUi();
  }

  start() {
    const seats = Object.keys(this.tokens);
    document.title = "Rebel Space: game";
    installCardInfo();
    this.root.replaceChildren(h("p", { class: "loading" }, "Loading the game…"));
    for (const seat of seats.length ? seats : [null]) {
      const token = seat ? this.tokens[seat] : null;
      const socket = openSocket(
        this.gameId,
        token,
        (data) => this.onSocket(seat, data),
        (status) => this.onStatus(status, seat, token),
      );
      this.sockets.push(socket);
    }
  }

  close() {
    this.closed = true;
    this.playback.stop();
    clearTimeout(this.forcedTimer);
    for (const s of this.sockets) s.close();
    this.sockets = [];
  }

  onStatus(status, seat, token) {
    this.connection = status;
    if (status === "refused") {
      this.root.replaceChildren(
        h("div", { class: "handoff" }, h("h1", {}, "Cannot open this game"), h("p", {}, "The server does not know this game, or this browser's seat for it."), h("a", { href: "/", class: "button" }, "Back to the lobby")),
      );
      return;
    }
    if (status === "open") {
      // An error from before the connection came back (the server was away) is stale now.
      clearError();
      // Also fetch over REST: covers a server that was restarted (it may not push first).
      this.fetchState(seat, token);
    }
    this.render();
  }

  async fetchState(seat, token) {
    try {
      const msg = await request("GET", `/api/games/${encodeURIComponent(this.gameId)}`, { token });
      this.accept(seat, msg);
    } catch (err) {
      showError(err.status === 404 ? "There is no such game on this server." : err.message);
    }
  }

  onSocket(seat, data) {
    // Until the seat's "auth" is answered, a connection gets the spectator's state: not ours.
    if (data.type === "state") {
      if (data.seat === seat) this.accept(seat, data);
    } else if (data.type === "error") {
      if (data.error === "stale") this.fetchState(seat, this.tokens[seat]);
      else showError(data.message || data.error);
    }
    else if (data.type === "undo_answer" && !data.accept) showError("Your opponent did not allow the undo.");
    else if (data.type === "undo_request") this.render();
    else if (data.type === "opponent") this.render();
  }

  /**
   * Take a state message. The version counts every change of the game (undos too) and never
   * goes down, so a message older than the one kept (a REST answer that arrived after newer
   * pushes) is dropped.
   */
  accept(seat, msg) {
    const key = seat || "watch";
    const old = this.messages.get(key);
    if (old && msg.version < old.version) return;
    this.messages.set(key, msg);
    attachText(msg.events, msg.view.log); // the server's words for each event (events.js)
    // Only the seat on screen plays back (hot-seat: never, both players watch this screen).
    if (!old || msg.version > old.version) {
      const shown = this.pickSeatKey();
      if (shown === key) this.playback.take(msg, seat, msg.mode !== "hotseat");
    }
    this.render();
  }

  /** The key of the seat that plays back: the only seat, or "watch"; null in hot-seat. */
  pickSeatKey() {
    const seats = Object.keys(this.tokens);
    if (!seats.length) return "watch";
    return seats.length === 1 ? seats[0] : null;
  }

  /** The seat to show: the only one, or in hot-seat the one whose decision it is. */
  pickSeat() {
    const seats = Object.keys(this.tokens);
    if (!seats.length) return "watch";
    if (seats.length === 1) return seats[0];
    // The newest message of either seat says whose decision it is.
    const newest = seats.map((s) => this.messages.get(s)).filter(Boolean).sort((a, b) => b.version - a.version)[0];
    const toMove = newest ? newest.view.to_move : null;
    if (toMove && seats.includes(toMove)) {
      if (this.shown && this.shown !== toMove && !this.handoff) this.handoff = toMove;
      return this.handoff ? this.shown : toMove;
    }
    return this.shown || seats[0];
  }

  render() {
    if (this.closed) return;
    const seat = this.pickSeat();
    this.shown = seat;
    const live = this.messages.get(seat);
    if (!live) return;
    // While the opponent's moves play back, the table shows the step's state (playback.js),
    // with no decision on it; the newest message stays the one actions are sent from.
    const frame = this.playback.shown(live);
    const msg = frame || live;
    // One render per distinct thing to show: the same state reaches us twice after our own
    // action (the WebSocket push and the REST answer), and in hot-seat the other seat's pushes
    // change nothing on screen. Redrawing would replace the nodes under a player's click.
    const drawn = JSON.stringify([seat, this.handoff, this.selectedGroup, this.connection, frame ? frame.playback : null, live]);
    if (drawn === this.rendered) return;
    this.rendered = drawn;
    if (this.handoff) return this.renderHandoff(msg);
    // An online game waits for the second player before anyone acts.
    const friend = msg.seats && msg.seat ? msg.seats[other(msg.seat)] : null;
    this.ui.waitingFriend = msg.mode === "online" && !!friend && !friend.taken;
    const actions = this.ui.waitingFriend || frame ? [] : msg.legal || [];
    this.actions = actions;
    this.msg = live;
    const selectable = this.selectableGroups();
    if (this.selectedGroup !== null && !selectable.has(this.selectedGroup)) this.selectedGroup = null;
    this.ui.selectableGroups = selectable;
    this.ui.selectedGroup = this.selectedGroup;
    const active = document.activeElement;
    const hadFocus = active && active !== document.body && this.root.contains(active);
    const focusAt = hadFocus ? focusSelector(this.root, active) : null;
    const sameState = this.shownVersion === msg.version;
    this.shownVersion = msg.version;
    const before = frame ? snapshot(this.root) : null;
    renderTable(this.root, msg, actions, this.memory, this.ui);
    // For tests and styling: the event being played back and the ply whose state is shown.
    if (frame) Object.assign(this.root.dataset, { playbackSeq: String(frame.playback.seq), playbackPly: String(frame.playback.ply) });
    else for (const k of ["playbackSeq", "playbackPly"]) delete this.root.dataset[k];
    this.highlightHint();
    // Every draw: the new nodes start unscrolled, whatever the old ones showed.
    revealChoices(this.root);
    this.playback.highlight();
    if (frame) this.playback.animate(before);
    document.title = msg.over ? "Rebel Space: game over" : actions.length ? "Rebel Space: your move" : "Rebel Space";
    this.placeFocus(msg, actions, focusAt, hadFocus, sameState);
    this.armForced(msg, actions);
  }

  /**
   * Keyboard play: the same choice keeps the focus across a redraw; a new decision (or the
   * end) takes it, so the next Tab starts at the prompt and not at the top of the page.
   */
  placeFocus(msg, actions, focusAt, hadFocus, sameState) {
    const again = focusAt ? this.root.querySelectorAll(focusAt.selector)[focusAt.index] : null;
    // The same control keeps the focus when the state is the same, or when it is still a
    // choice of the new decision (adding unit after unit to a group); else the prompt takes it.
    // (Action ids are numbered afresh for each decision: an id names nothing across two.)
    const stillChoice = again && again.dataset.actionId === undefined && again.classList.contains("clickable");
    if (again && (sameState || stillChoice)) {
      again.focus({ preventScroll: true });
      return;
    }
    const decision = actions.length > 0 || msg.over;
    if (!decision || this.focusedVersion === msg.version) return;
    this.focusedVersion = msg.version;
    // A page just opened keeps its focus where the browser put it, unless a control had it.
    if (!hadFocus && document.activeElement && document.activeElement !== document.body) return;
    const prompt = this.root.querySelector("#prompt");
    if (prompt) prompt.focus({ preventScroll: true });
  }

  /** The only legal action, when it is a button, unless the player confirms such choices. */
  forcedChoice(actions) {
    // A lone button, or a lone casualty: R19 makes the loser keep picking while a unit fits,
    // so a casualty with one possible card is no choice either.
    if (actions.length !== 1 || !(placeOf(actions[0]) === "button" || actions[0].kind === "pick")) return null;
    return { action: actions[0], auto: !this.settings.confirmForced };
  }

  /** An only choice is made after a moment in which the prompt says so (see FORCED_MS). */
  armForced(msg, actions) {
    clearTimeout(this.forcedTimer);
    const forced = this.forcedChoice(actions);
    if (!forced || !forced.auto) return;
    const version = msg.version;
    this.forcedTimer = setTimeout(() => {
      if (!this.closed && this.msg && this.msg.version === version && !this.settings.confirmForced) this.send(forced.action.id);
    }, FORCED_MS);
  }

  /** Draw again even though the state is the same (a setting changed, or the online bar asks). */
  rerender() {
    this.rendered = null;
    this.render();
  }

  renderHandoff(msg) {
    const next = this.handoff;
    this.root.dataset.version = String(msg.version);
    this.root.dataset.plies = String(msg.plies);
    this.root.dataset.mine = "no";
    this.root.replaceChildren(
      h(
        "div",
        { class: "handoff" },
        h("h1", {}, `${cap(next)} player's decision`),
        h("p", {}, `Hand the screen to the ${next} player. The other player should look away: the hand will be shown.`),
        h("button", { type: "button", id: "take-seat", class: "primary", onclick: () => { this.shown = next; this.handoff = null; this.render(); } }, `I am the ${next} player: show my cards`),
      ),
    );
  }

  selectableGroups() {
    const kinds = this.msg.view.step === "block" ? ["block"] : this.msg.view.step === "target" ? ["target"] : [];
    return new Set(this.actions.filter((a) => kinds.includes(a.kind)).map((a) => a.group));
  }

  /**
   * The legal actions a click on a card at `place` (hand, zone, battle group) could mean;
   * `copy`: the unit's copy number in the view (units in play).
   */
  matching(place, name, group, copy = null) {
    const battle = this.msg.view.battle;
    let found = [];
    if (place === "hand") found = this.actions.filter((a) => placeOf(a) === "hand" && a.card === name);
    else if (place === "own-active") found = this.actions.filter((a) => OWN.has(a.kind) && a.card === name);
    else if (place === "enemy-active" || place === "enemy-inactive") {
      const zone = place.slice(6);
      found = this.actions.filter((a) => a.kind === "target" && a.card === name && a.zone === zone);
    } else if (place === "group-attackers" || place === "group-defenders") {
      const from = place === "group-attackers" ? "attacker" : "defender";
      found = this.actions.filter(
        (a) =>
          (a.kind === "ion" && from === "attacker" && a.card === name && a.group === group) ||
          (a.kind === "pick" && a.card === name && battle && battle.casualty_group === group && battle.casualty_from === from),
      );
    }
    if (place !== "hand") found = forCopy(found, copy);
    // A selected group limits blocks and targets to its own: a unit that could serve another
    // group does nothing until that group is selected.
    if (this.selectedGroup !== null) found = found.filter((a) => (a.kind !== "block" && a.kind !== "target") || a.group === this.selectedGroup);
    return found;
  }

  makeUi() {
    const ui = {
      selectableGroups: new Set(),
      selectedGroup: null,
      clickable: (place, name, group, copy) => this.matching(place, name, group, copy).length > 0,
      selectGroup: (n) => {
        this.selectedGroup = this.selectedGroup === n ? null : n;
        this.render();
      },
      send: (id) => this.act(id),
      undo: () => this.undo(),
      hint: () => this.askHint(),
      hintState: () => this.currentHint(),
      showPile: (title, names) => showPile(title, names),
      extraStatus: () => this.extraStatus(),
      claim: () => claimBox(this, this.msg),
      forced: (actions) => this.forcedChoice(actions),
      settings: this.settings,
      setSetting: (key, value) => {
        this.settings[key] = value;
        const { playbackMs, confirmForced } = this.settings;
        localStorage.setItem(SETTINGS_KEY, JSON.stringify({ playbackMs, confirmForced }));
        if (key === "playbackMs" && value <= 0) this.playback.skip();
        this.rerender();
      },
      playbackEl: () => this.playback.el,
      skipPlayback: () => this.playback.skip(),
      toggleSide: () => {
        this.sideOpen = !this.sideOpen;
        ui.sideOpen = this.sideOpen;
        const screen = this.root.querySelector(".game-screen");
        if (screen) screen.classList.toggle("side-open", this.sideOpen);
      },
      sideOpen: false,
    };
    return ui;
  }

  /** The hint asked for at the decision on screen, if any (a newer state makes it stale). */
  currentHint() {
    const hint = this.hint;
    return hint && this.msg && hint.version === this.msg.version && hint.seat === this.shown ? hint : null;
  }

  /** Ask the server what the computer would play here (GET .../hint, docs/protocol.md). */
  async askHint() {
    const seat = this.shown;
    const token = this.tokens[seat];
    if (!this.msg || !token) return;
    const version = this.msg.version;
    if (this.currentHint() && this.hint.state !== "error") return;
    this.hint = { version, seat, state: "loading" };
    this.rerender();
    try {
      const data = await request("GET", `/api/games/${encodeURIComponent(this.gameId)}/hint`, { token });
      if (this.hint && this.hint.version === version && data.version === version) this.hint = { version, seat, state: "ready", data: data.hint };
    } catch (err) {
      if (this.hint && this.hint.version === version) this.hint = { version, seat, state: "error", message: err.message };
    }
    this.rerender();
  }

  /** The hinted move lights up: its button, and the card a click on which would play it. */
  highlightHint() {
    const hint = this.currentHint();
    if (!hint || hint.state !== "ready") return;
    const id = hint.data.best.action;
    for (const el of this.root.querySelectorAll(`[data-action-id="${id}"]`)) el.classList.add("hinted");
    for (const el of this.root.querySelectorAll(".card.clickable")) {
      const group = el.dataset.group ? Number(el.dataset.group) : null;
      const copy = el.dataset.copy ? Number(el.dataset.copy) : null;
      if (this.matching(el.dataset.place, el.dataset.name, group, copy).some((a) => a.id === id)) el.classList.add("hinted");
    }
    revealChoices(this.root); // the hinted card first
  }

  /** The player acts: what is still to play back is older than what they acted on. */
  act(actionId) {
    this.playback.skip();
    this.send(actionId);
  }

  onCardClick(e) {
    const el = e.target.closest(".card.clickable");
    if (!el || !this.root.contains(el)) return;
    e.stopPropagation();
    const group = el.dataset.group ? Number(el.dataset.group) : null;
    const copy = el.dataset.copy ? Number(el.dataset.copy) : null;
    const found = this.matching(el.dataset.place, el.dataset.name, group, copy);
    if (found.length === 1) this.act(found[0].id);
    else if (found.length > 1) {
      const value = (n) => {
        const g = this.msg.view.battle && this.msg.view.battle.groups.find((x) => x.number === n);
        return g ? ` (${g.kind}, value ${groupValues(g).attack})` : "";
      };
      openMenu(el, found.map((a) => ({ id: a.id, label: menuLabel(a, value) })), (id) => this.act(id));
    }
  }

  async send(actionId) {
    const version = this.msg ? this.msg.version : null;
    if (this.sentAt !== null && this.sentAt === version) return;
    const seat = this.shown;
    const token = this.tokens[seat];
    if (!token) return;
    this.sentAt = version;
    closeMenu();
    try {
      // The version the action was chosen at: the server applies it at most once, whatever
      // reaches it twice (a retry, a second tab), and refuses it once the game has moved on.
      const body = { action: actionId, version };
      const msg = await request("POST", `/api/games/${encodeURIComponent(this.gameId)}/actions`, { token, body });
      clearError();
      // The WebSocket push of this version usually came first: then the answer (built for a
      // client holding no events, so its text differs) would only redraw the same state 150
      // ms later, replacing the nodes under the player's next click. Only a newer one counts.
      const held = this.messages.get(seat || "watch");
      if (msg && msg.type === "state" && !(held && held.version >= msg.version)) this.accept(seat, msg);
    } catch (err) {
      // "stale": the game changed first (another tab, the opponent); the newer state shows it.
      if (err.code !== "stale") showError(`The server refused that: ${err.message}`);
      this.fetchState(seat, token);
    } finally {
      if (this.sentAt === version) this.sentAt = null;
    }
  }

  async undo() {
    const token = this.tokens[this.shown];
    const body = { version: this.msg ? this.msg.version : null };
    try {
      const msg = await request("POST", `/api/games/${encodeURIComponent(this.gameId)}/undo`, { token, body });
      if (msg && msg.type === "state") this.accept(this.shown, msg);
    } catch (err) {
      showError(`Cannot undo: ${err.message}`);
    }
  }

  async answerUndo(accept, seat = this.shown) {
    const token = this.tokens[seat];
    const body = { accept, version: this.msg ? this.msg.version : null };
    try {
      await request("POST", `/api/games/${encodeURIComponent(this.gameId)}/undo/answer`, { token, body });
    } catch (err) {
      showError(err.message);
    }
  }

  extraStatus() {
    const msg = this.msg;
    const bits = [];
    bits.push(h("span", { class: `conn conn-${this.connection}`, id: "connection" }, this.connection === "open" ? "connected" : "reconnecting…"));
    if (msg.mode === "online" && msg.seat) {
      const seatInfo = msg.seats && msg.seats[other(msg.seat)];
      const invite = msg.invite || (this.stored && this.stored.invite);
      if (seatInfo && !seatInfo.taken && invite) {
        const link = `${location.origin}${invite}`;
        bits.push(
          h(
            "span",
            { class: "invite" },
            "Waiting for your friend. Invite link: ",
            h("input", { id: "invite-link", readonly: true, value: link, size: 40, "aria-label": "Invite link" }),
            h("button", { type: "button", onclick: () => copy(link) }, "Copy"),
          ),
        );
      } else if (seatInfo && seatInfo.taken && !seatInfo.connected) {
        bits.push(h("span", { class: "away" }, "Your opponent is not connected."));
      }
    }
    const pending = msg.undo && msg.undo.pending_from;
    // Who answers an undo request: the other seat; in hot-seat both sit at this screen, so
    // the question goes to the other player here, answered with that seat's token.
    const answerer = pending && msg.seat ? (pending !== msg.seat ? msg.seat : msg.mode === "hotseat" ? other(pending) : null) : null;
    if (answerer) {
      bits.push(
        h(
          "span",
          { class: "undo-request" },
          `${cap(pending)} asks to undo their last move. ${cap(answerer)} player: `,
          h("button", { type: "button", onclick: () => this.answerUndo(true, answerer) }, "Allow"),
          h("button", { type: "button", onclick: () => this.answerUndo(false, answerer) }, "Refuse"),
        ),
      );
    } else if (pending && pending === msg.seat) {
      bits.push(h("span", { class: "undo-request" }, "Undo asked: waiting for your opponent's answer."));
    }
    bits.push(h("a", { href: `/watch/${this.gameId}`, class: "watch-link", title: "A link for spectators" }, "Watch link"));
    // The online bar (online.js): resign, clock, claim, rematch, seat link. Drawn on every render.
    const bar = gameBar(this, msg);
    if (bar) bits.push(bar);
    return bits;
  }
}

