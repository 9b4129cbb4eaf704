// @ts-check
// Errors are always shown, never swallowed: a banner at the top of the page.

import { clear, h } from "./dom.js";

const errorBox = document.getElementById("error");

export function showError(message) {
  clear(errorBox);
  errorBox.append(
    h("span", { class: "message" }, message),
    h("button", { type: "button", class: "close", "aria-label": "Dismiss", onclick: () => clear(errorBox) }, "×"),
  );
  errorBox.hidden = false;
}

export function clearError() {
  clear(errorBox);
}

