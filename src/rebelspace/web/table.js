// Drawing the table from a state message: both sides' zones, the battle, the hand, the prompt
// with its buttons, the log, and the list of every legal action (the accessible fallback).

import { buttonLabel, placeOf } from "./actions.js";
import { renderBattle, renderLastAttack } from "./battle.js";
import { cardBack, cardEl, copiedHeroes } from "./cards.js";
import { h } from "./dom.js";
import { phaseLine, promptFor, waitingLine } from "./prompts.js";

const cap = (s) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : s);

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

function pileButton(label, names, ui) {
  return h("button", { class: "pile", type: "button", onclick: () => ui.showPile(label, names), disabled: names.length ? null : true }, `${label}: ${names.length}`);
}

function sideEl(view, side, { me, label, ui }) {
  const prefix = me ? "own" : "enemy";
  const badges = zoneBadges(view, side);
  const copied = copiedHeroes(side);
  const handInfo = side.hand
    ? null
    : h(
        "div",
        { class: "opp-hand", "aria-label": `${side.hand_size} cards in hand` },
        Array.from({ length: Math.min(side.hand_size, 12) }, () => cardBack()),
        h("span", { class: "count" }, `${side.hand_size} in hand`),
      );
  return h(
    "section",
    { class: ["player", me ? "me" : "opponent", `side-${side.player}`], "data-player": side.player },
    h(
      "header",
      {},
      h("h2", {}, label),
      h("span", { class: "deck", title: "Cards left in the deck: at 0 this player loses" }, `Deck: ${side.deck_size}`),
      h("span", { class: "hand-size" }, `Hand: ${side.hand_size}`),
      pileButton(`${cap(side.player)} discard pile`, side.discard, ui),
      me && view.own_deck_contents.length ? pileButton("Cards left in your deck", view.own_deck_contents, ui) : null,
    ),
    handInfo,
    h(
      "div",
      { class: "zones" },
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

function promptEl(msg, actions, ui) {
  const view = msg.view;
  if (msg.over || view.winner) {
    const mine = msg.seat && view.winner === msg.seat;
    return h(
      "section",
      { class: "prompt over", id: "prompt", "aria-live": "polite" },
      h("h2", { id: "winner", "data-winner": view.winner }, `${cap(view.winner)} wins!`, msg.seat ? (mine ? " You won." : " You lost.") : ""),
      h("p", {}, `Why: ${view.end_reason}.`),
      h("a", { href: "/", class: "button" }, "Back to the lobby"),
    );
  }
  if (!actions.length) {
    return h(
      "section",
      { class: "prompt waiting", id: "prompt", "aria-live": "polite" },
      h("h2", {}, ui.waitingFriend ? "Waiting for your friend" : msg.seat ? "Please wait" : "Watching"),
      h("p", {}, ui.waitingFriend ? "Send them the invite link shown at the top; the game starts when they join." : waitingLine(view, msg.seats)),
    );
  }
  const p = promptFor(view, actions);
  const buttons = actions.filter((a) => placeOf(a) === "button");
  return h(
    "section",
    { class: "prompt mine", id: "prompt", "aria-live": "polite" },
    h("h2", {}, p.title),
    h("p", {}, p.detail),
    ui.selectedGroup !== null ? h("p", { class: "selection" }, `Group ${ui.selectedGroup} selected. `, h("button", { type: "button", onclick: () => ui.selectGroup(null) }, "Clear selection")) : null,
    h(
      "div",
      { class: "buttons" },
      buttons.map((a) => h("button", { type: "button", class: `act act-${a.kind}`, "data-action-id": a.id, onclick: () => ui.send(a.id) }, buttonLabel(a))),
      msg.undo && msg.undo.allowed ? h("button", { type: "button", class: "undo", onclick: () => ui.undo() }, "Undo my last move") : null,
    ),
  );
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
    { class: "log", "aria-label": "Game log" },
    h("h3", {}, "Game log"),
    h("ol", { id: "log" }, view.log.map((line, i) => h("li", { class: paired && events[i].type === "turn_started" ? "turn" : "" }, line))),
  );
}

const HOW_TO = [
  "Goal: empty your opponent's deck. Damage from attacks throws cards off the top of a deck; a player who must draw from an empty deck loses.",
  "Each turn: draw 1 or 2 cards, your inactive units become active, attack with active units, deploy up to 3 points of cards, then play end-phase cards.",
  "Battles: a blocked group fights its blockers; the higher value (Ground in a ground battle, Space in a space battle) wins, the loser is destroyed and the loser picks casualties among the winners.",
  "Unblocked groups deal their Damage to the deck, or may target one enemy unit instead.",
];

/** Draw the whole table into `root`. */
export function renderTable(root, msg, actions, memory, ui) {
  const view = msg.view;
  const spectator = !msg.seat;
  const myLabel = spectator ? cap(view.you.player) : `You (${cap(view.you.player)})`;
  const oppKind = msg.seats && msg.seats[view.opponent.player] ? msg.seats[view.opponent.player].kind : "human";
  const oppLabel = spectator ? cap(view.opponent.player) : `${oppKind === "computer" ? "Computer" : "Opponent"} (${cap(view.opponent.player)})`;
  const mine = actions.length > 0;
  memory.update(msg);
  const board = h(
    "div",
    { class: "board" },
    sideEl(view, view.opponent, { me: false, label: oppLabel, ui }),
    view.battle ? renderBattle(msg, memory, ui) : renderLastAttack(msg),
    sideEl(view, view.you, { me: true, label: myLabel, ui }),
    promptEl(msg, actions, ui),
    spectator ? null : handEl(view, ui),
    view.opponent_known_hand.length ? h("p", { class: "known" }, `Known cards in the opponent's hand: ${view.opponent_known_hand.join(", ")}`) : null,
  );
  const status = h(
    "div",
    { class: "status", role: "status" },
    h("span", { class: "phase", id: "phase" }, phaseLine(view)),
    h("span", { class: mine ? "turn-mine" : "turn-other" }, view.to_move === null ? "Game over" : mine ? "Your decision" : waitingLine(view, msg.seats)),
    ui.extraStatus(),
  );
  const side = h(
    "aside",
    { class: "sidebar" },
    allActionsEl(actions, ui),
    logEl(msg),
    h("details", { class: "howto" }, h("summary", {}, "How to play"), h("ul", {}, HOW_TO.map((t) => h("li", {}, t)))),
  );
  root.replaceChildren(status, h("div", { class: "layout" }, board, side));
  // For tests and styling: which version of the game is on screen, and whose move it is.
  root.dataset.version = String(msg.version);
  root.dataset.plies = String(msg.plies);
  root.dataset.step = view.step;
  root.dataset.mine = mine ? "yes" : "no";
  const log = root.querySelector("#log");
  if (log) log.parentElement.scrollTop = log.parentElement.scrollHeight;
}
