// @ts-check
// Drawing the table from a state message: both sides' zones, the battle, the hand, the prompt
// with its buttons, the log, and the list of every legal action (the accessible fallback).

import { buttonLabel, menuLabel, placeOf } from "./actions.js";
import { renderBattle, renderLastAttack } from "./battle.js";
import { cardBack, cardEl, cardInfo, copiedHeroes } from "./cards.js";
import { h } from "./dom.js";
import { hintLine } from "./hints.js";
import { resultText } from "./online.js";
import { phaseLine, promptFor, waitingLine } from "./prompts.js";
import { cap } from "./text.js";

/**
 * Which copy of a unit is doing what in the current attack: the view names units, so copies
 * are matched by name (and attachments) in zone order. Returns badges per zone index.
 */
export function zoneBadges(view, side) {
  const badges = { active: side.active.map(() => null), inactive: side.inactive.map(() => null) };
  const battle = view.battle;
  if (!battle) return badges;
  const same = (a, b) => a.name === b.name && a.attachments.join("|") === b.attachments.join("|");
  const mark = (zone, unit, text) => {
    const list = side[zone];
    const i = list.findIndex((u, k) => badges[zone][k] === null && same(u, unit));
    if (i >= 0) badges[zone][i] = text;
  };
  const attacking = side.player === view.active_player;
  for (const g of battle.groups) {
    if (attacking) {
      for (const u of g.units) mark("active", u, `Group ${g.number}`);
    } else {
      for (const u of g.blockers) mark("active", u, `Blocks group ${g.number}`);
      if (g.target) mark(g.target_zone === "inactive" ? "inactive" : "active", g.target, `Target of group ${g.number}`);
    }
  }
  return badges;
}

function unitEl(unit, { place, badge, ui, sidePlayer, copied }) {
  const clickable = badge === null && ui.clickable(place, unit.name, null, unit.copy);
  const converted = unit.owner !== sidePlayer;
  const classes = [clickable ? "clickable" : "", badge ? "busy" : ""];
  return h(
    "div",
    { class: "unit" },
    cardEl(unit.name, {
      unit,
      copyMark: copied.has(unit.name),
      classes,
      data: { place, name: unit.name },
      badge: [badge, converted ? `taken from ${cap(unit.owner)}` : null].filter(Boolean).join(" · ") || null,
    }),
    unit.attachments.length
      ? h("div", { class: "attachments", "aria-label": `attached to ${unit.name}` }, unit.attachments.map((a) => cardEl(a, { small: true, classes: ["attached"] })))
      : null,
  );
}

function zoneEl(title, units, { place, badges, ui, sidePlayer, copied }) {
  return h(
    "section",
    { class: "zone", "data-zone": place },
    h("h3", {}, `${title} (${units.length})`),
    h(
      "div",
      { class: "cards" },
      units.length ? units.map((u, i) => unitEl(u, { place, badge: badges[i], ui, sidePlayer, copied })) : h("em", { class: "empty" }, "empty"),
    ),
  );
}

/** A pile as its count (and, `top`, the name of its top card: the last of `names`); a click
 * lists it whole in a dialog. A 40-card pile is never laid out on the table. */
function pileButton(label, names, ui, top = false) {
  const topName = top && names.length ? ` · top: ${names[names.length - 1]}` : "";
  return h("button", { class: "pile", type: "button", onclick: () => ui.showPile(label, names), disabled: names.length ? null : true }, `${label}: ${names.length}${topName}`);
}

/** A hand shown face up beside its side's zones (a replay shows everything). */
function sideHandEl(side) {
  const hand = side.hand || [];
  return h(
    "section",
    { class: "zone side-hand", "data-zone": `${side.player}-hand` },
    h("h3", {}, `Hand (${hand.length})`),
    h("div", { class: "cards" }, hand.length ? hand.map((name) => cardEl(name, { data: { place: "hand", name } })) : h("em", { class: "empty" }, "empty")),
  );
}

function sideEl(view, side, { me, label, ui, handsUp }) {
  const prefix = me ? "own" : "enemy";
  const badges = zoneBadges(view, side);
  const copied = copiedHeroes(side);
  // The opponent's hand as face-down cards, in the header line to keep the side one row high.
  const handInfo = side.hand || handsUp
    ? null
    : h("span", { class: "opp-hand", role: "img", "aria-label": `${side.hand_size} cards in hand` }, Array.from({ length: Math.min(side.hand_size, 12) }, () => cardBack()));
  return h(
    "section",
    { class: ["player", me ? "me" : "opponent", `side-${side.player}`], "data-player": side.player, "aria-label": label },
    h(
      "header",
      {},
      h("h2", {}, label),
      h("span", { class: "deck", title: "Cards left in the deck: at 0 this player loses" }, `Deck: ${side.deck_size}`),
      h("span", { class: "hand-size" }, `Hand: ${side.hand_size}`),
      handInfo,
      // Cards of the opponent's hand this player has seen (Spies, searches), face up.
      // (Not with both hands face up: the hand is shown, and the view's own lists are one side's.)
      !me && !handsUp && view.opponent_known_hand.length
        ? h(
            "span",
            { class: "known", id: "known-hand" },
            "Known in hand: ",
            view.opponent_known_hand.map((n) => h("span", { class: ["card", "known-card", `side-${cardInfo(n).side || "none"}`], "data-name": n, tabindex: "0" }, n)),
          )
        : null,
      pileButton(`${cap(side.player)} discard pile`, side.discard, ui, handsUp),
      me && !handsUp && view.own_deck_contents.length ? pileButton("Cards left in your deck", view.own_deck_contents, ui) : null,
    ),
    h(
      "div",
      { class: ["zones", handsUp ? "with-hand" : ""] },
      handsUp ? sideHandEl(side) : null,
      zoneEl("Active Zone", side.active, { place: `${prefix}-active`, badges: badges.active, ui, sidePlayer: side.player, copied }),
      zoneEl("Inactive Zone", side.inactive, { place: `${prefix}-inactive`, badges: badges.inactive, ui, sidePlayer: side.player, copied }),
    ),
  );
}

function handEl(view, ui) {
  const hand = view.you.hand || [];
  return h(
    "section",
    { class: "hand", "aria-label": "Your hand" },
    h("h3", {}, `Your hand (${hand.length})`),
    h(
      "div",
      { class: "cards" },
      hand.length
        ? hand.map((name) => cardEl(name, { classes: ui.clickable("hand", name) ? ["clickable"] : [], data: { place: "hand", name } }))
        : h("em", { class: "empty" }, "empty"),
    ),
  );
}

const REASON = {
  resign: (loser) => `${cap(loser)} resigned.`,
  time: (loser) => `${cap(loser)} ran out of time.`,
  abandoned: (loser) => `${cap(loser)} left the game: the win was claimed.`,
};

/** How the game ended, in a sentence: the result's reason (resign, time, abandoned) or the rules'. */
export function endLine(msg) {
  const view = msg.view;
  const result = msg.result || null;
  const winner = (result && result.winner) || view.winner;
  if (result && REASON[result.reason] && winner) return REASON[result.reason](winner === "rebel" ? "imperial" : "rebel");
  return view.end_reason ? `Why: ${view.end_reason}.` : "";
}

function overEl(msg) {
  const winner = (msg.result && msg.result.winner) || msg.view.winner;
  const mine = msg.seat && winner === msg.seat;
  const verdict = msg.seat && winner && msg.mode !== "hotseat" ? (mine ? " You win." : " You lose.") : "";
  return h(
    "section",
    { class: ["prompt", "over", mine ? "won" : "lost"], id: "prompt", tabindex: "-1", "aria-live": "polite" },
    h("h2", { id: "winner", "data-winner": winner || "", "data-reason": msg.result ? msg.result.reason : "rules" }, winner ? `${cap(winner)} wins!` : "Game over", verdict),
    h("p", { class: "end-reason" }, endLine(msg)),
    h("a", { href: "/", class: "button" }, "Back to the lobby"),
  );
}

/** The draw: one button per number of cards one may draw, the most first in weight (primary). */
function drawChoice(draws, ui) {
  const sorted = draws.slice().sort((x, y) => x.n - y.n);
  const most = sorted[sorted.length - 1];
  return sorted.map((a) =>
    h(
      "button",
      { type: "button", class: ["act", "act-draw", a === most ? "primary" : ""], "data-action-id": a.id, "data-n": a.n, onclick: () => ui.send(a.id) },
      buttonLabel(a),
    ),
  );
}

/** An only choice in words: a button's label, or what a click on its card would do. */
const forcedLabel = (action) => (placeOf(action) === "button" ? buttonLabel(action) : menuLabel(action));

function promptEl(msg, actions, ui) {
  const view = msg.view;
  if (msg.over || view.winner || (msg.result && msg.result.reason)) return overEl(msg);
  if (msg.playback) {
    // The opponent's moves are played back on the table (playback.js): the decision comes
    // after them, and Skip brings it at once.
    return h(
      "section",
      { class: "prompt waiting playback-prompt", id: "prompt", tabindex: "-1" },
      h("h2", {}, "The opponent's moves"),
      h("p", {}, "Played back on the table, one at a time; the game goes on after them."),
      h("div", { class: "buttons" }, h("button", { type: "button", class: "primary", id: "prompt-skip", onclick: () => ui.skipPlayback() }, "Skip to now")),
    );
  }
  if (!actions.length) {
    // An opponent away long enough to be claimed against: the prompt says so, with the claim,
    // rather than "Please wait" beside a "Claim the win" button.
    const away = msg.claim && msg.seat ? ui.claim() : null;
    const title = ui.waitingFriend ? "Waiting for your friend" : away ? "Your opponent is away" : msg.seat ? "Please wait" : "Watching";
    return h(
      "section",
      { class: "prompt waiting", id: "prompt", tabindex: "-1", "aria-live": "polite" },
      h("h2", {}, title),
      h("p", {}, ui.waitingFriend ? "Send them the invite link shown at the top; the game starts when they join." : waitingLine(view, msg.seats)),
      away,
    );
  }
  const p = promptFor(view, actions, msg.rules);
  const buttons = actions.filter((a) => placeOf(a) === "button");
  const draws = buttons.filter((a) => a.kind === "draw");
  const others = buttons.filter((a) => a.kind !== "draw");
  const forced = ui.forced(actions);
  return h(
    "section",
    { class: "prompt mine", id: "prompt", tabindex: "-1", "aria-live": "polite", "data-forced": forced ? (forced.auto ? "auto" : "confirm") : null },
    // The hint's button shares the title's line: the prompt's height is counted (style.css).
    h(
      "div",
      { class: "prompt-head" },
      h("h2", {}, p.title),
      ui.hint ? h("button", { type: "button", class: "hint-button", id: "hint-button", "aria-controls": "hint", "aria-describedby": "hint", onclick: () => ui.hint() }, "Hint") : null,
    ),
    h("p", { class: "detail", tabindex: "0" }, p.detail),
    forced && forced.auto ? h("p", { class: "forced" }, `Your only choice: "${forcedLabel(forced.action)}". It is made for you in a moment (Settings: confirm it yourself).`) : null,
    ui.selectedGroup !== null ? h("p", { class: "selection" }, `Group ${ui.selectedGroup} selected: only its choices glow. `, h("button", { type: "button", onclick: () => ui.selectGroup(null) }, "Clear selection")) : null,
    h(
      "div",
      { class: "buttons" },
      draws.length ? drawChoice(draws, ui) : null,
      others.map((a) => h("button", { type: "button", class: `act act-${a.kind}`, "data-action-id": a.id, onclick: () => ui.send(a.id) }, buttonLabel(a))),
      msg.undo && msg.undo.allowed ? h("button", { type: "button", class: "undo", onclick: () => ui.undo() }, "Undo my last move") : null,
    ),
    ui.hint ? hintEl(ui.hintState()) : null,
  );
}

/** What the computer would play (a hint asked for at this decision), or nothing yet. */
function hintEl(state) {
  const text = !state ? "" : state.state === "loading" ? "Thinking…" : state.state === "error" ? `No hint: ${state.message}` : hintLine(state.data);
  // Focusable: in a short prompt the line may scroll (as the detail above it).
  return h("p", { class: ["hint", state ? `hint-${state.state}` : ""], id: "hint", role: "status", tabindex: text ? "0" : null }, text);
}

function allActionsEl(actions, ui) {
  return h(
    "details",
    { class: "all-actions", id: "all-actions", open: actions.length ? true : null },
    h("summary", {}, `All choices (${actions.length})`),
    actions.length
      ? h("ul", {}, actions.map((a) => h("li", {}, h("button", { type: "button", "data-action-id": a.id, onclick: () => ui.send(a.id) }, a.text))))
      : h("p", {}, "Nothing to choose right now."),
  );
}

/**
 * The game log as plain text. The view's log has one line per event the seat may see, so a
 * line that starts a turn is told by its event (when the server sends the events).
 */
function logEl(msg) {
  const view = msg.view;
  const events = msg.events || [];
  const paired = events.length === view.log.length;
  return h(
    "section",
    // Focusable: the log scrolls, and a keyboard must be able to scroll it.
    { class: "log", "aria-label": "Game log", tabindex: "0" },
    h("h3", {}, "Game log"),
    h("ol", { id: "log" }, view.log.map((line, i) => h("li", { class: paired && events[i].type === "turn_started" ? "turn" : "" }, line))),
  );
}

/** "1 or 2", "1 to 3", "2": how many of something, from the least to the most. */
const countWords = (least, most) => (least === most ? `${least}` : most === least + 1 ? `${least} or ${most}` : `${least} to ${most}`);

/** How to play in short, with this game's numbers (the message's rules options). */
const howTo = (rules) => [
  "Goal: empty your opponent's deck. Damage from attacks throws cards off the top of a deck; a player who must draw from an empty deck loses.",
  rules
    ? `Each turn: draw ${countWords(rules.draw_min, rules.draw_max)} card${rules.draw_max === 1 ? "" : "s"}, your inactive units become active, attack with active units, deploy up to ${rules.deploy_points} point${rules.deploy_points === 1 ? "" : "s"} of cards, then play end-phase cards and keep at most ${rules.hand_limit} cards in hand.`
    : "Each turn: draw cards, your inactive units become active, attack with active units, deploy cards, then play end-phase cards.",
  "Battles: a blocked group fights its blockers; the higher value (Ground in a ground battle, Space in a space battle) wins, the loser is destroyed and the loser picks casualties among the winners.",
  "Unblocked groups deal their Damage to the deck, or may target one enemy unit instead.",
];

/** The player's settings (stored in this browser): playback pace and forced single choices. */
function settingsEl(ui) {
  const pace = ui.settings.playbackMs;
  const paces = [
    [0, "Off: show the result at once"],
    [400, "Fast"],
    [750, "Normal"],
    [1300, "Slow"],
  ];
  return h(
    "details",
    { class: "settings", id: "settings" },
    h("summary", {}, "Settings"),
    h(
      "label",
      {},
      "Opponent's moves played back: ",
      h(
        "select",
        { id: "playback-pace", onchange: (e) => ui.setSetting("playbackMs", Number(e.currentTarget.value)) },
        paces.map(([ms, label]) => h("option", { value: String(ms), selected: ms === pace ? true : null }, label)),
      ),
    ),
    h(
      "label",
      {},
      h("input", { type: "checkbox", id: "confirm-forced", checked: ui.settings.confirmForced ? true : null, onchange: (e) => ui.setSetting("confirmForced", e.currentTarget.checked) }),
      " Confirm an only choice myself (else it is made for me after a moment)",
    ),
  );
}

/** Who won, for the status bar once the game is over: with why, unless the rules ended it
 * (the prompt's heading and reason tell that). */
function overLine(msg) {
  const result = msg.result || null;
  const winner = (result && result.winner) || msg.winner || msg.view.winner;
  if (!result || result.reason === "rules") return winner ? `${cap(winner)} won` : "the game is over";
  return resultText(result, winner);
}

/**
 * The table itself: the opponent on top, the battle between the sides, the player below, and
 * the decision (prompt and hand) docked at the foot. `handsUp` (a replay, read-only): both
 * hands face up in their sides' panels, the piles with their top cards, and `dock` (what the
 * replay says of its step) in place of the decision.
 */
export function tableEl(msg, actions, memory, ui, { handsUp = false, dock = null } = {}) {
  const view = msg.view;
  const spectator = !msg.seat;
  const myLabel = spectator ? cap(view.you.player) : `You (${cap(view.you.player)})`;
  const oppKind = msg.seats && msg.seats[view.opponent.player] ? msg.seats[view.opponent.player].kind : "human";
  const oppLabel = spectator ? cap(view.opponent.player) : `${oppKind === "computer" ? "Computer" : "Opponent"} (${cap(view.opponent.player)})`;
  memory.update(msg);
  return h(
    "div",
    { class: ["table", view.battle ? "" : "no-battle", handsUp ? "hands-up" : ""] },
    sideEl(view, view.opponent, { me: false, label: oppLabel, ui, handsUp }),
    h("div", { class: "middle" }, view.battle ? renderBattle(msg, memory, ui) : renderLastAttack(msg), ui.playbackEl ? ui.playbackEl() : null),
    sideEl(view, view.you, { me: true, label: myLabel, ui, handsUp }),
    dock ? h("div", { class: "dock no-hand" }, dock) : h("div", { class: ["dock", spectator ? "no-hand" : ""] }, promptEl(msg, actions, ui), spectator ? null : handEl(view, ui)),
  );
}

/** Draw the whole table into `root`. */
export function renderTable(root, msg, actions, memory, ui) {
  const view = msg.view;
  const mine = actions.length > 0;
  // Resigned, out of time or claimed: the view still names the turn's phase, the result says more.
  const over = !!(msg.over || view.winner || (msg.result && msg.result.reason));
  // One screen: the table on the left, the log and help in a side column.
  const table = tableEl(msg, actions, memory, ui);
  const status = h(
    "div",
    { class: "status", role: "status" },
    over
      ? h("span", { class: "phase", id: "phase" }, `Turn ${view.turn} · `, h("span", { class: "result", id: "result" }, overLine(msg)))
      : h("span", { class: "phase", id: "phase" }, phaseLine(view)),
    over ? null : h("span", { class: mine ? "turn-mine" : "turn-other" }, mine ? "Your decision" : ui.waitingFriend ? "Waiting for your friend to join…" : waitingLine(view, msg.seats)),
    ui.extraStatus(),
    h("button", { type: "button", class: "side-toggle", id: "side-toggle", "aria-controls": "sidebar", onclick: () => ui.toggleSide() }, "Log & help"),
  );
  const side = h(
    "aside",
    { class: "sidebar", id: "sidebar", "aria-label": "Log, all choices and help" },
    h("button", { type: "button", class: "side-close", onclick: () => ui.toggleSide() }, "Close"),
    allActionsEl(actions, ui),
    logEl(msg),
    settingsEl(ui),
    h("details", { class: "howto" }, h("summary", {}, "How to play"), h("ul", {}, howTo(msg.rules).map((t) => h("li", {}, t)))),
  );
  root.replaceChildren(h("div", { class: ["game-screen", ui.sideOpen ? "side-open" : ""] }, status, table, side));
  // For tests and styling: which version of the game is on screen, and whose move it is.
  root.dataset.version = String(msg.version);
  root.dataset.plies = String(msg.plies);
  root.dataset.step = view.step;
  root.dataset.mine = mine ? "yes" : "no";
  const log = root.querySelector("#log");
  if (log) log.parentElement.scrollTop = log.parentElement.scrollHeight;
}
