// The card catalogue (from the server's GET /api/cards) and drawing cards as HTML.

import { request } from "./api.js";
import { h } from "./dom.js";

const catalogue = new Map();

export async function loadCatalogue() {
  if (catalogue.size) return;
  const data = await request("GET", "/api/cards");
  for (const card of data.cards || data) catalogue.set(card.name, card);
}

export function cardInfo(name) {
  return (
    catalogue.get(name) || {
      name,
      side: "",
      kind: "unknown",
      type: "?",
      ground: 0,
      space: 0,
      damage: 0,
      cost: null,
      keywords: [],
      notes: "",
    }
  );
}

export function cardNames() {
  return [...catalogue.keys()];
}

const KIND_LABEL = {
  hero: "Hero",
  ground: "Ground unit",
  space: "Space unit",
  gs: "Ground & space unit",
  attachment: "Attachment",
  psion: "Psion card",
  action: "Action",
};

const KEYWORD_LABEL = {
  pilot: "Pilot",
  captain: "Captain",
  psionic: "Psionic",
  fighter: "Fighter",
  ship: "Ship",
  facility: "Facility",
  defense: "Defense",
  may_attack: "May attack",
  extra_draw: "+1 draw",
  ion_cannon: "Destroys 1 attacking Ship",
  shields: "Attacking Ships do no damage",
  companion: "Companion",
  attach_to_hero: "Attach to hero",
};

/** When a card is played: a short plain-words line for action and psion cards. */
function timing(card) {
  if (card.kind === "psion") return "Play in a battle on your Psionic hero";
  if (card.kind === "attachment") return "Deploy onto one of your heroes";
  if (["surprise_attack", "trap", "extra_attack"].includes(card.ability)) return "Play during an attack";
  if (card.kind === "action") return "Play in your end phase";
  return "";
}

export function typeLabel(card) {
  if (card.kind === "attachment") return card.type === "Item" ? "Item" : "Companion";
  return KIND_LABEL[card.kind] || card.type;
}

/** Rating of a card in a ground (0) or space (1) battle, as printed. */
export function rating(name, kind) {
  const card = cardInfo(name);
  return kind === "space" ? card.space : card.ground;
}

/** R13: a unit's rating with its attachments (items, companions, psion cards). */
export function unitRating(unit, kind) {
  return rating(unit.name, kind) + unit.attachments.reduce((sum, a) => sum + rating(a, kind), 0);
}

export function unitDamage(unit) {
  return cardInfo(unit.name).damage + unit.attachments.reduce((s, a) => s + cardInfo(a).damage, 0);
}

function stat(label, title, value) {
  return h("span", { class: `stat stat-${label.toLowerCase()}`, title }, `${label} ${value}`);
}

/**
 * A card drawn as HTML: name, cost, type, Ground / Space / Damage, keywords, side colour.
 * `extra` adds classes and data attributes (where it lies on the table, for clicks).
 */
export function cardEl(name, { small = false, classes = [], data = {}, badge = null } = {}) {
  const card = cardInfo(name);
  const hasStats = !["action"].includes(card.kind);
  const keys = (card.keywords || []).map((k) => KEYWORD_LABEL[k] || k);
  const el = h(
    "div",
    {
      class: ["card", `side-${card.side || "none"}`, `kind-${card.kind}`, small ? "small" : "", ...classes],
      "data-name": name,
      title: describe(card),
      ...Object.fromEntries(Object.entries(data).map(([k, v]) => [`data-${k}`, v])),
    },
    h(
      "div",
      { class: "card-head" },
      h("span", { class: "card-name" }, name),
      card.cost !== null && card.cost !== undefined
        ? h("span", { class: "card-cost", title: `Costs ${card.cost} to deploy` }, String(card.cost))
        : null,
    ),
    h("div", { class: "card-type" }, typeLabel(card)),
    hasStats
      ? h(
          "div",
          { class: "card-stats" },
          stat("G", "Ground rating", card.ground),
          stat("S", "Space rating", card.space),
          stat("D", "Damage", card.damage),
        )
      : null,
    keys.length ? h("div", { class: "card-keys" }, keys.join(" · ")) : null,
    !small && card.kind === "action" ? h("div", { class: "card-text" }, card.notes) : null,
    !small && timing(card) ? h("div", { class: "card-when" }, timing(card)) : null,
    badge ? h("div", { class: "card-badge" }, badge) : null,
  );
  if (classes.includes("clickable")) {
    // Highlighted cards are buttons for the keyboard and screen readers too.
    el.tabIndex = 0;
    el.setAttribute("role", "button");
    el.setAttribute("aria-label", `${name}: choose`);
  }
  return el;
}

function describe(card) {
  const parts = [`${card.name} (${typeLabel(card)}, ${card.side})`];
  if (card.kind !== "action") parts.push(`Ground ${card.ground}, Space ${card.space}, Damage ${card.damage}`);
  if (card.cost !== null && card.cost !== undefined) parts.push(`Cost ${card.cost}`);
  if (card.notes) parts.push(card.notes);
  return parts.join(". ");
}

/** A face-down card (the opponent's hand, decks). */
export function cardBack(label = "") {
  return h("div", { class: "card back", "aria-hidden": "true" }, label);
}
