// @ts-check
// The card gallery (/cards): every card of both sides from GET /api/cards with its full text,
// filtered by side and type and searched by words (issue 13).

import { cap } from "./text.js";
import { request } from "./api.js";
import { h } from "./dom.js";
import { artCreditEl, cardEl, typeLabel } from "./cards.js";
import { pageLinks } from "./games.js";
import { abilityLines } from "./words.js";

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

const isUnitLike = (card) => card.kind !== "action";

/** Everything the card says, as plain words, for the page (words.js: each keyword once). */
export function cardText(card) {
  return abilityLines(card);
}

function cardItem(card) {
  const rows = [
    ["Side", cap(card.side)],
    ["Type", typeLabel(card)],
    ["Cost", card.cost === null || card.cost === undefined ? "—" : String(card.cost)],
  ];
  if (isUnitLike(card)) rows.push(["Ratings", `Ground ${card.ground} · Space ${card.space} · Damage ${card.damage}`]);
  rows.push(["Copies", String(card.count)]);
  if (card.notes) rows.push(["Card text", card.notes]);
  return h(
    "li",
    { class: ["gallery-card", `side-${card.side}`, `kind-${card.kind}`], "data-name": card.name, "data-side": card.side, "data-kind": card.kind },
    h("h2", {}, card.name),
    cardEl(card.name, { classes: ["gallery-face"] }),
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
      artCreditEl(),
    ),
  );
  update();
}
