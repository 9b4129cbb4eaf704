// @ts-check
// The small menu a card opens when a click on it could mean several actions, and the
// dialog that shows a pile of cards (discard piles, what is left in a deck).

import { cardEl } from "./cards.js";
import { h } from "./dom.js";
import { showError } from "./errors.js";

let menuEl = null;

export function closeMenu() {
  if (menuEl) menuEl.remove();
  menuEl = null;
}

export function openMenu(anchor, items, onPick) {
  closeMenu();
  const rect = anchor.getBoundingClientRect();
  menuEl = h(
    "div",
    { class: "menu", role: "menu", id: "action-menu" },
    h("p", {}, "Choose:"),
    items.map(({ id, label }) => h("button", { type: "button", role: "menuitem", "data-action-id": id, onclick: () => { closeMenu(); onPick(id); } }, label)),
    h("button", { type: "button", class: "cancel", onclick: closeMenu }, "Cancel"),
  );
  document.body.append(menuEl);
  placeMenu(menuEl, rect);
  menuEl.querySelector("button").focus({ preventScroll: true });
}

/**
 * Put the menu next to the card without running off the screen: below the card when it fits,
 * else above it, else wherever it fits best with a scroll bar of its own; never past an edge.
 */
function placeMenu(el, rect) {
  const margin = 4;
  const vw = document.documentElement.clientWidth;
  const vh = document.documentElement.clientHeight;
  el.style.maxHeight = `${vh - 2 * margin}px`;
  el.style.maxWidth = `${vw - 2 * margin}px`;
  const { width, height } = el.getBoundingClientRect();
  const below = vh - rect.bottom - margin;
  const above = rect.top - margin;
  let top;
  if (height <= below) top = rect.bottom + margin;
  else if (height <= above) top = rect.top - margin - height;
  else top = Math.max(margin, vh - margin - height);
  const left = Math.min(Math.max(margin, rect.left), Math.max(margin, vw - margin - width));
  el.style.left = `${left}px`;
  el.style.top = `${top}px`;
}

export function copy(text) {
  if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => showError("Copy failed: select the link and copy it by hand."));
}

export function showPile(title, names) {
  const dialog = h(
    "dialog",
    { class: "pile-dialog", "aria-label": title },
    h("h2", {}, title),
    h("div", { class: "cards" }, names.length ? names.map((n) => cardEl(n, { small: true })) : h("em", {}, "empty")),
    h("form", { method: "dialog" }, h("button", { type: "submit" }, "Close")),
  );
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}
