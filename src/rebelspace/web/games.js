// @ts-check
// "My recent games" (/games and the lobby): the games of the seat tokens this browser holds,
// from POST /api/games/mine, and the links between the client's pages (issue 13).

import { cap } from "./text.js";
import { request, storedTokens } from "./api.js";
import { h } from "./dom.js";
import { resultText } from "./online.js";


/** A link that moves within the client without reloading the page. */
export function pageLink(go, path, text, attrs = {}) {
  return h("a", { href: path, ...attrs, onclick: (e) => { if (!e.ctrlKey && !e.metaKey && !e.shiftKey) { e.preventDefault(); go(path); } } }, text);
}

/** The links between the pages, leaving out the page they are on. */
export function pageLinks(go, here) {
  const links = [
    ["lobby", "/", "Lobby"],
    ["games", "/games", "My recent games"],
    ["cards", "/cards", "Cards"],
  ].filter(([name]) => name !== here);
  return h(
    "nav",
    { class: "page-links", "aria-label": "Pages" },
    links.map(([name, path, text]) => pageLink(go, path, text, { id: `link-${name}` })),
    h("a", { href: "/rules", id: "link-rules" }, "Rules"),
  );
}

function opponentText(g) {
  const o = g.opponent || {};
  if (o.kind === "computer") return `Computer (${[o.name, o.level].filter(Boolean).join(", ")})`;
  if (g.mode === "hotseat") return "Hot-seat";
  return "Online player";
}

function whenText(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleString();
}

function gameRow(go, g) {
  const id = encodeURIComponent(g.game_id);
  const result = g.over ? resultText(g.result, g.result ? g.result.winner : null) : `Turn ${g.turn}, in progress`;
  const yours = g.over && g.result && g.result.winner ? (g.result.winner === g.seat ? " You won." : " You lost.") : "";
  return h(
    "tr",
    { "data-game": g.game_id },
    h("td", {}, cap(g.seat)),
    h("td", {}, opponentText(g)),
    h("td", { class: "games-result" }, result + (g.mode === "hotseat" ? "" : yours)),
    h("td", {}, whenText(g.updated)),
    h(
      "td",
      {},
      pageLink(go, `/game/${id}`, g.over ? "Open" : "Resume", { class: "open-game", "aria-label": `Open the game ${g.game_id}` }),
      g.over ? " · " : null,
      g.over ? pageLink(go, `/replay/${id}`, "Replay", { class: "replay-game", "aria-label": `Replay of the game ${g.game_id}` }) : null,
    ),
  );
}

/**
 * The recent games table (or a sentence when there are none), loaded into `box`;
 * `limit`: how many rows at most.
 */
export async function loadRecentGames(box, go, limit = 100) {
  const tokens = storedTokens();
  if (!tokens.length) {
    box.replaceChildren(h("p", {}, "No games on this browser yet."));
    return;
  }
  box.replaceChildren(h("p", { class: "loading" }, "Loading your games…"));
  let games;
  try {
    games = (await request("POST", "/api/games/mine", { body: { tokens } })).games;
  } catch (err) {
    box.replaceChildren(h("p", {}, `Cannot load your games: ${err.message}`));
    return;
  }
  if (!games.length) {
    box.replaceChildren(h("p", {}, "The server has none of this browser's games any more."));
    return;
  }
  box.replaceChildren(
    h(
      "table",
      { class: "games-list", id: "games-list" },
      h("caption", { class: "visually-hidden" }, "Your recent games"),
      h("thead", {}, h("tr", {}, ["Your side", "Opponent", "Result", "Last move", "Open"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, games.slice(0, limit).map((g) => gameRow(go, g))),
    ),
  );
}

export function renderGames(root, { go }) {
  document.title = "Rebel Space: my recent games";
  const box = h("div", { id: "recent-games" });
  root.replaceChildren(h("div", { class: "lobby" }, h("h1", {}, "My recent games"), pageLinks(go, "games"), h("p", { class: "intro" }, "The games whose seats this browser holds."), box));
  return loadRecentGames(box, go);
}
