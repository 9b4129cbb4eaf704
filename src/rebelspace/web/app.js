// @ts-check
// Rebel Space browser client: the routes (lobby, game, join, watch, seat, replay, cards, games)
// and page-wide listeners.

import { ApiError, parseSeatFragment, rememberSeat, request, storedGame } from "./api.js";
import { loadCatalogue } from "./cards.js";
import { h } from "./dom.js";
import { showError } from "./errors.js";
import { GameController } from "./game.js";
import { renderGallery } from "./gallery.js";
import { renderGames } from "./games.js";
import { renderLobby } from "./lobby.js";
import { closeMenu } from "./menu.js";
import { ReplayViewer } from "./replay.js";

const root = document.getElementById("app");
let game = null; // the open game's controller (or the replay viewer), if any

function go(path) {
  history.pushState({}, "", path);
  route();
}

async function route() {
  if (game) game.close();
  game = null;
  closeMenu();
  const parts = location.pathname.split("/").filter(Boolean);
  try {
    await loadCatalogue();
  } catch (err) {
    showError(`Cannot load the card list: ${err.message}`);
    return;
  }
  if (parts[0] === "game" && parts[1]) return openGame(parts[1], "play");
  if (parts[0] === "watch" && parts[1]) return openGame(parts[1], "watch");
  if (parts[0] === "join" && parts[1] && parts[2]) return joinGame(parts[1], parts[2]);
  if (parts[0] === "seat" && parts[1]) return openSeatLink(parts[1]);
  if (parts[0] === "replay" && parts[1]) {
    game = new ReplayViewer(root, parts[1]);
    return game.start();
  }
  if (parts[0] === "cards") return renderGallery(root, { go });
  if (parts[0] === "games") return renderGames(root, { go });
  document.title = "Rebel Space";
  renderLobby(root, { go, showError });
}

async function joinGame(gameId, code) {
  const stored = storedGame(gameId);
  try {
    const seat = await request("POST", `/api/games/${encodeURIComponent(gameId)}/join`, { body: { invite: code } });
    rememberSeat(gameId, "online", seat.player, seat.token);
  } catch (err) {
    // Reopening one's own invite link after joining: the seat is taken, by us.
    const taken = err instanceof ApiError && err.status === 409;
    if (taken && !stored) return offerToWatch(gameId);
    if (!taken) {
      showError(`Could not join: ${err.message}`);
      renderLobby(root, { go, showError });
      return;
    }
  }
  history.replaceState({}, "", `/game/${gameId}`);
  route();
}

/** An invite link someone already used: both seats are taken, but anyone may watch. */
function offerToWatch(gameId) {
  document.title = "Rebel Space: invite already used";
  const watch = `/watch/${encodeURIComponent(gameId)}`;
  root.replaceChildren(
    h(
      "div",
      { class: "handoff", id: "invite-used" },
      h("h1", {}, "This invite has already been used"),
      h("p", {}, "Both seats of this game are taken, so you cannot play in it. You can still watch it as a spectator."),
      h("a", { href: watch, class: "button primary", id: "watch-instead", onclick: (e) => { e.preventDefault(); go(watch); } }, "Watch this game"),
      " ",
      h("a", { href: "/", class: "button", onclick: (e) => { e.preventDefault(); go("/"); } }, "Back to the lobby"),
    ),
  );
}

/** A seat link from another device (/seat/<id>#<seat>.<token>): the token came in the
 * fragment, which the browser never sent; keep it like a created seat and open the game. */
function openSeatLink(gameId) {
  const found = parseSeatFragment(location.hash);
  if (!found) {
    history.replaceState({}, "", "/");
    showError("That seat link is damaged: it should end in #rebel.<code> or #imperial.<code>. Copy the whole link again from the other device.");
    renderLobby(root, { go, showError });
    return;
  }
  rememberSeat(gameId, storedGame(gameId)?.mode || null, found.seat, found.token);
  history.replaceState({}, "", `/game/${gameId}`);
  route();
}

function openGame(gameId, mode) {
  const stored = mode === "play" ? storedGame(gameId) : null;
  if (mode === "play" && !stored) {
    showError("This browser holds no seat for that game, so you are watching it.");
    history.replaceState({}, "", `/watch/${gameId}`);
  }
  game = new GameController(root, gameId, stored ? stored.seats : {}, stored);
  game.start();
}

document.addEventListener("keydown", (e) => {
  if (e.key === "Escape") closeMenu();
});
// A click anywhere else closes the action menu (a card's own click stops before this).
document.addEventListener("click", (e) => {
  if (!(e.target instanceof Element) || !e.target.closest("#action-menu")) closeMenu();
});

// One delegated listener for clicks (and Enter/Space) on highlighted cards.
root.addEventListener("click", (e) => game && game.onCardClick(e));
root.addEventListener("keydown", (e) => {
  if ((e.key !== "Enter" && e.key !== " ") || !(e.target instanceof Element)) return;
  if (e.target.classList.contains("clickable")) {
    e.preventDefault();
    if (game) game.onCardClick(e);
  } else if (e.target.classList.contains("selectable")) {
    e.preventDefault();
    /** @type {HTMLElement} */ (e.target).click(); // a battle group: select it
  }
});

window.addEventListener("popstate", route);
route();
