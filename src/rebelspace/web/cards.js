// @ts-check
// The card catalogue (from the server's GET /api/cards) and drawing cards as HTML.

import { request } from "./api.js";
import { h } from "./dom.js";
import { abilityLines, shortAbility } from "./words.js";

const catalogue = new Map();

// The cards' art (card-art.json, written by buildtools/card_art.py from the game-icons.net set):
// card name -> icon, card kind -> icon for a card the table does not name yet, icon -> SVG body.
const art = { set: null, size: [512, 512], cards: {}, types: {}, icons: {} };

export async function loadCatalogue() {
  if (catalogue.size) return;
  const [data] = await Promise.all([request("GET", "/api/cards"), loadArt()]);
  for (const card of data.cards || data) catalogue.set(card.name, card);
}

async function loadArt() {
  // Without its art a card still reads and plays: a missing file costs only the pictures.
  try {
    const answer = await fetch("/card-art.json");
    if (answer.ok) Object.assign(art, await answer.json());
  } catch {
    /* the faces are drawn without art */
  }
}

/** The icon a card's face shows: its own from the table, else its type's (a card added to
 * cards.toml without an icon), else the unknown card's. */
export function artName(card) {
  return art.cards[card.name] || art.types[card.kind] || art.types.unknown || null;
}

/** The art's credit as a paragraph (CC BY 3.0: the work, its authors, the licence), or null. */
export function artCreditEl() {
  const set = art.set;
  if (!set) return null;
  return h(
    "p",
    { class: "art-credit" },
    "Card art: icons from ",
    h("a", { href: set.url, rel: "noopener" }, set.name),
    ` by ${set.authors}, used under `,
    h("a", { href: set.license_url, rel: "noopener license" }, set.license),
    ".",
  );
}

function artEl(card) {
  const name = artName(card);
  const body = name ? art.icons[name] : null;
  if (!body) return null;
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", `0 0 ${art.size[0]} ${art.size[1]}`);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  // The body is the package's own file (no user text): paths filled with currentColor.
  svg.innerHTML = body;
  return h("div", { class: "card-art", "data-icon": name }, svg);
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

const KIND_LABEL = {
  hero: "Hero",
  ground: "Ground unit",
  space: "Space unit",
  gs: "Ground & space unit",
  attachment: "Attachment",
  psion: "Psion card",
  action: "Action",
};

/**
 * Heroes of which a side has several copies in play (edited card lists): their cards show
 * "#k", the unit's `copy` in the view, which the actions' `copy` names.
 */
export function copiedHeroes(side) {
  const seen = new Set();
  const twice = new Set();
  for (const u of [...side.active, ...side.inactive]) {
    if (cardInfo(u.name).kind !== "hero") continue;
    if (seen.has(u.name)) twice.add(u.name);
    seen.add(u.name);
  }
  return twice;
}

export function typeLabel(card) {
  if (card.kind === "attachment") return card.type === "Item" ? "Item" : "Companion";
  return KIND_LABEL[card.kind] || card.type;
}

function stat(label, title, value, printed) {
  // A unit in play shows its current rating (the view's numbers); where that differs from the
  // printed one, it is marked and the printed value is in the tooltip.
  const changed = printed !== undefined && printed !== value;
  const cls = ["stat", `stat-${label.toLowerCase()}`, changed ? (value > printed ? "up" : "down") : ""];
  const tip = changed ? `${title} ${value} now (printed ${printed})` : `${title} ${value}`;
  return h("span", { class: cls, title: tip }, `${label} ${value}`);
}

/**
 * A card drawn as HTML: name (fitted: long names get a smaller size, and wrap, never cut), cost,
 * type, Ground / Space / Damage, what it does in a few words (words.js), side colour.
 * `classes` and `data` add classes and data attributes (where it lies on the table, for
 * clicks). `unit`: a unit in play as the view sends it ({name, ground, space, damage, ...}):
 * its current ratings are shown instead of the printed ones (cards in a hand, a pile or the
 * catalogue show the printed ones). `copyMark`: show the unit's copy number ("#2").
 *
 * @param {string} name
 * @param {{small?: boolean, classes?: string[], data?: Record<string, string | number>, badge?: string | null, unit?: import("./protocol").Unit | null, copyMark?: boolean}} [options]
 */
export function cardEl(name, { small = false, classes = [], data = {}, badge = null, unit = null, copyMark = false } = {}) {
  const card = cardInfo(name);
  const hasStats = !["action"].includes(card.kind);
  const now = unit ? { ground: unit.ground, space: unit.space, damage: unit.damage } : null;
  const ratings = unit ? { ...data, ground: now.ground, space: now.space, damage: now.damage, copy: unit.copy } : data;
  const ability = shortAbility(card);
  const el = h(
    "div",
    {
      class: ["card", `side-${card.side || "none"}`, `kind-${card.kind}`, small ? "small" : "", ...classes],
      "data-name": name,
      "aria-description": describe(card, now),
      ...Object.fromEntries(Object.entries(ratings).map(([k, v]) => [`data-${k}`, v])),
    },
    h(
      "div",
      { class: "card-head" },
      // The cost floats at the name's right, so that only the name's first line makes room for it.
      card.cost !== null && card.cost !== undefined
        ? h("span", { class: "card-cost", title: `Costs ${card.cost} to deploy` }, String(card.cost))
        : null,
      h("span", { class: ["card-name", nameFit(name)] }, name, copyMark && unit && unit.copy ? h("span", { class: "card-copy", title: "Which copy of this hero" }, ` #${unit.copy}`) : null),
    ),
    artEl(card),
    h("div", { class: "card-type" }, typeLabel(card)),
    hasStats
      ? h(
          "div",
          { class: "card-stats" },
          stat("G", "Ground rating", now ? now.ground : card.ground, now ? card.ground : undefined),
          stat("S", "Space rating", now ? now.space : card.space, now ? card.space : undefined),
          stat("D", "Damage", now ? now.damage : card.damage, now ? card.damage : undefined),
        )
      : null,
    ability ? h("div", { class: "card-ability" }, ability) : null,
    badge ? h("div", { class: "card-badge" }, badge) : null,
  );
  if (classes.includes("clickable")) {
    // Highlighted cards are buttons for the keyboard and screen readers too.
    el.tabIndex = 0;
    el.setAttribute("role", "button");
    el.setAttribute("aria-label", `${name}: choose`);
  } else if (data.place) {
    // Every card on the table takes the keyboard's focus, which shows its full text.
    el.tabIndex = 0;
  }
  return el;
}

/** A class for a name's size: long names and long words get a smaller type (style.css), so
 * a name fits its card's width on two or three lines instead of being cut. */
function nameFit(name) {
  const longestWord = Math.max(...name.split(/\s+/).map((w) => w.length));
  if (longestWord >= 11 || name.length >= 18) return "name-long";
  if (longestWord >= 9 || name.length >= 14) return "name-mid";
  return "";
}

function describe(card, now) {
  const parts = [`${card.name} (${typeLabel(card)}, ${card.side})`];
  if (now) parts.push(`Now: Ground ${now.ground}, Space ${now.space}, Damage ${now.damage}`);
  if (card.kind !== "action") parts.push(`${now ? "Printed: " : ""}Ground ${card.ground}, Space ${card.space}, Damage ${card.damage}`);
  if (card.cost !== null && card.cost !== undefined) parts.push(`Cost ${card.cost}`);
  parts.push(...abilityLines(card).map((line) => line.replace(/\.$/, "")));
  return parts.join(". ");
}

/** A face-down card (the opponent's hand, decks). */
export function cardBack(label = "") {
  return h("div", { class: "card back", "aria-hidden": "true" }, label);
}

// ---- the card's full text on hover, focus and a long press ------------------------------------

/** The card's full text: name, side and type, cost, ratings (now and printed), what each
 * keyword or its ability does (each once), and what is attached to it on the table. */
export function fullText(name, { now = null, attachments = [] } = {}) {
  const card = cardInfo(name);
  const lines = [];
  lines.push(h("h4", {}, name));
  lines.push(h("p", {}, `${typeLabel(card)}${card.side ? `, ${card.side}` : ""}${card.cost !== null && card.cost !== undefined ? ` · cost ${card.cost}` : ""}`));
  if (card.kind !== "action") {
    const printed = `Ground ${card.ground}, Space ${card.space}, Damage ${card.damage}`;
    const current = now ? `Ground ${now.ground}, Space ${now.space}, Damage ${now.damage}` : null;
    lines.push(h("p", {}, current && current !== printed ? `Now: ${current} (printed: ${printed})` : printed));
  }
  for (const line of abilityLines(card)) lines.push(h("p", { class: "info-ability" }, line));
  if (attachments.length) lines.push(h("p", {}, `Attached: ${attachments.join(", ")}`));
  return lines;
}

let infoEl = null;
let pressTimer = null;
let pressed = null; // the card a long press showed (pressKey): its click ends the press, not a choice

/** A card told by where it lies, not by its node: a redraw between the press and its click
 * (a state message arriving) replaces the node, not the card. */
const pressKey = (el) => (el ? JSON.stringify([el.dataset.name, el.dataset.place || "", el.dataset.group || "", el.dataset.copy || ""]) : null);

function infoFor(el) {
  const name = el.dataset.name;
  const hasNow = el.dataset.ground !== undefined && el.closest(".unit");
  const now = hasNow ? { ground: el.dataset.ground, space: el.dataset.space, damage: el.dataset.damage } : null;
  const unit = el.closest(".unit");
  const attachments = unit && !el.classList.contains("attached") ? [...unit.querySelectorAll(".attachments .card")].map((c) => c.dataset.name) : [];
  return fullText(name, { now, attachments });
}

function showInfo(el) {
  if (!infoEl) {
    infoEl = h("div", { class: "card-info", id: "card-info", role: "tooltip", hidden: true });
    document.body.append(infoEl);
  }
  infoEl.replaceChildren(...infoFor(el));
  infoEl.hidden = false;
  const r = el.getBoundingClientRect();
  const vw = document.documentElement.clientWidth;
  const vh = document.documentElement.clientHeight;
  const { width, height } = infoEl.getBoundingClientRect();
  // Beside the card, on whichever side has room, never past an edge of the screen.
  let left = r.right + 8;
  if (left + width > vw - 4) left = r.left - 8 - width;
  left = Math.min(Math.max(4, left), Math.max(4, vw - 4 - width));
  const top = Math.min(Math.max(4, r.top), Math.max(4, vh - 4 - height));
  infoEl.style.left = `${left}px`;
  infoEl.style.top = `${top}px`;
  el.setAttribute("aria-describedby", "card-info");
}

function hideInfo() {
  if (infoEl) infoEl.hidden = true;
}

const cardOf = (target) => (target && target.closest ? target.closest(".card[data-name]:not(.back)") : null);

/** Show a card's full text on hover, keyboard focus and a long press (touch). Installed once. */
export function installCardInfo() {
  if (document.body.dataset.cardInfo) return;
  document.body.dataset.cardInfo = "on";
  document.addEventListener("mouseover", (e) => {
    const el = cardOf(e.target);
    if (el) showInfo(el);
    else hideInfo();
  });
  document.addEventListener("focusin", (e) => {
    const el = cardOf(e.target);
    if (el) showInfo(el);
    else hideInfo();
  });
  document.addEventListener("focusout", hideInfo);
  document.addEventListener("scroll", hideInfo, true);
  document.addEventListener("pointerdown", (e) => {
    clearTimeout(pressTimer);
    const el = cardOf(e.target);
    if (!el || e.pointerType === "mouse") return;
    pressTimer = setTimeout(() => {
      pressed = pressKey(el);
      showInfo(el);
    }, 500);
  });
  const release = () => clearTimeout(pressTimer);
  document.addEventListener("pointerup", release);
  document.addEventListener("pointercancel", release);
  // The click that ends a long press only shows the text: it is not a choice.
  document.addEventListener(
    "click",
    (e) => {
      if (pressed && pressKey(cardOf(e.target)) === pressed) {
        e.stopPropagation();
        e.preventDefault();
      }
      pressed = null;
    },
    true,
  );
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") hideInfo();
  });
}
