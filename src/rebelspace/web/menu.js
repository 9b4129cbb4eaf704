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
  menuEl.style.left = `${Math.max(4, rect.left + window.scrollX)}px`;
  menuEl.style.top = `${rect.bottom + window.scrollY + 4}px`;
  document.body.append(menuEl);
  menuEl.querySelector("button").focus();
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
