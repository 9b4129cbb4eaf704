// The card gallery (/cards): every card of both sides from GET /api/cards with its full text,
// filtered by side and type and searched by words (issue 13).

import { request } from "./api.js";
import { h } from "./dom.js";
import { typeLabel } from "./cards.js";
import { pageLinks } from "./games.js";

// What each keyword does, in short (docs/rules.md "Cards and card types", R3).
const KEYWORD_TEXT = {
  pilot: ["Pilot", "may ride in a space group in a Fighter's place (R12)"],
  captain: ["Captain", "may ride in a space group in a Ship's place (R12)"],
  psionic: ["Psionic", "psion cards may be played on this hero (R24)"],
  fighter: ["Fighter", "carries one Pilot hero in a space group (R12)"],
  ship: ["Ship", "carries one Captain hero; the Ion Cannon and Defense Shields act on it (R12, R14, R20)"],
  facility: ["Facility", "never attacks unless it says May Attack; Saboteur can destroy it (R11, R29)"],
  defense: ["Defense", "never attacks, but can block (R11)"],
  may_attack: ["May Attack", "a Facility that may attack all the same (R11)"],
  extra_draw: ["Draw 1 extra card per turn", "its controller may draw one card more (R8)"],
  ion_cannon: ["Destroy 1 attacking Ship", "once per attack phase, before blocks (R14)"],
  shields: ["Attacking Ships do no Damage", "while it is active, attacking Ships deal no damage (R20)"],
  companion: ["Companion", "an attachment deployed onto one of your heroes (R23)"],
  attach_to_hero: ["Attach to Hero", "deployed onto one of your heroes; adds its ratings (R13, R23)"],
};

const SIDES = [["", "Both sides"], ["rebel", "Rebel"], ["imperial", "Imperial"]];
const KINDS = [
  ["", "All types"],
  ["hero", "Heroes"],
  ["ground", "Ground units"],
  ["space", "Space units"],
  ["gs", "Ground & space units"],
  ["attachment", "Attachments"],
  ["psion", "Psion cards"],
  ["action", "Actions"],
];

const cap = (s) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : "");
const isUnitLike = (card) => card.kind !== "action";

/** Everything the card says, as plain words, for the page and for the search. */
export function cardText(card) {
  const lines = [];
  for (const k of card.keywords || []) {
    const [label, meaning] = KEYWORD_TEXT[k] || [k, ""];
    lines.push(meaning ? `${label}: ${meaning}.` : `${label}.`);
  }
  // When and how an action ability is used: its effect's words (the catalogue's ability_words).
  if (card.ability) lines.push(`${card.notes}. ${card.ability_words || ""}`.trim());
  else if (card.kind === "psion") lines.push("Played free in battle tricks on your Psionic hero in a battle group; its ratings add to the hero's until the attack phase ends (R24).");
  else if (card.kind === "attachment" && !(card.keywords || []).length) lines.push("Deployed onto one of your heroes; adds its ratings to the hero's (R13, R23).");
  return lines;
}

function cardItem(card) {
  const rows = [
    ["Side", cap(card.side)],
    ["Type", `${typeLabel(card)} (printed “${card.type}”)`],
    ["Cost", card.cost === null || card.cost === undefined ? "—" : String(card.cost)],
  ];
  if (isUnitLike(card)) rows.push(["Ratings", `Ground ${card.ground} · Space ${card.space} · Damage ${card.damage}`]);
  rows.push(["Copies", String(card.count)]);
  if (card.notes) rows.push(["Printed notes", card.notes]);
  return h(
    "li",
    { class: ["gallery-card", `side-${card.side}`, `kind-${card.kind}`], "data-name": card.name, "data-side": card.side, "data-kind": card.kind },
    h("h2", {}, card.name),
    h("dl", {}, rows.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)])),
    cardText(card).map((line) => h("p", { class: "ability" }, line)),
  );
}

function matches(card, side, kind, words) {
  if (side && card.side !== side) return false;
  if (kind && card.kind !== kind) return false;
  if (!words.length) return true;
  // The card's own words, not the rules' explanations (a search for "ship" finds Ships).
  const hay = [card.name, card.type, typeLabel(card), card.side, card.notes].join(" ").toLowerCase();
  return words.every((w) => hay.includes(w));
}

export async function renderGallery(root, { go }) {
  document.title = "Rebel Space: cards";
  root.replaceChildren(h("p", { class: "loading" }, "Loading the cards…"));
  let cards;
  try {
    cards = (await request("GET", "/api/cards")).cards;
  } catch (err) {
    root.replaceChildren(h("p", { class: "error-text" }, `Cannot load the card list: ${err.message}`));
    return;
  }
  const side = h("select", { id: "gallery-side", "aria-label": "Side" }, SIDES.map(([v, l]) => h("option", { value: v }, l)));
  const kind = h("select", { id: "gallery-kind", "aria-label": "Type" }, KINDS.map(([v, l]) => h("option", { value: v }, l)));
  const search = h("input", { id: "gallery-search", type: "search", placeholder: "Search names and text", "aria-label": "Search the cards" });
  const count = h("p", { class: "gallery-count", id: "gallery-count", role: "status" });
  const items = cards.map((card) => [card, cardItem(card)]);
  const list = h("ul", { class: "gallery-list", id: "gallery-list", "aria-label": "Cards" }, items.map(([, el]) => el));
  const update = () => {
    const words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const [card, el] of items) {
      el.hidden = !matches(card, side.value, kind.value, words);
      if (!el.hidden) shown += 1;
    }
    count.textContent = `${shown} of ${cards.length} cards`;
  };
  side.addEventListener("change", update);
  kind.addEventListener("change", update);
  search.addEventListener("input", update);
  root.replaceChildren(
    h(
      "div",
      { class: "gallery" },
      h("h1", {}, "Cards"),
      pageLinks(go, "cards"),
      h("div", { class: "gallery-filters" }, h("label", {}, "Side ", side), h("label", {}, "Type ", kind), h("label", {}, "Search ", search), count),
      list,
    ),
  );
  update();
}
