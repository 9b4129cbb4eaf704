// The lobby: start a game (computer, hot-seat, online), join by link, watch, resume.

import { forgetGame, rememberSeat, request, storedGames } from "./api.js";
import { h } from "./dom.js";

// The server's computer players (README "Computer opponents"): ISMCTS at three levels, the
// rule-of-thumb heuristic, and random moves.
const OPPONENTS = [
  { value: "ismcts:normal", label: "Normal: thinks ahead (about ½ s a move)" },
  { value: "ismcts:easy", label: "Easy: thinks ahead a little" },
  { value: "ismcts:hard", label: "Hard: thinks longer (about 2 s a move)" },
  { value: "heuristic", label: "Quick: plays by rules of thumb" },
  { value: "random", label: "Beginner: plays at random" },
];

/** Paths the lobby accepts for "join" and "watch": a full link, a path, or a bare game id. */
export function pathFromLink(text, kind) {
  const value = text.trim();
  if (!value) return null;
  let path = value;
  try {
    path = new URL(value, location.origin).pathname;
  } catch {
    path = value;
  }
  if (/^\/(join|watch|game)\//.test(path)) return path;
  if (/^[\w-]+$/.test(value)) return kind === "watch" ? `/watch/${value}` : null;
  return null;
}

async function createGame(body, go, showError) {
  try {
    const created = await request("POST", "/api/games", { body });
    for (const seat of created.seats) rememberSeat(created.game_id, body.mode, seat.player, seat.token);
    if (created.invite) {
      const games = storedGames();
      games[created.game_id].invite = created.invite;
      localStorage.setItem("rebelspace.games", JSON.stringify(games));
    }
    go(`/game/${created.game_id}`);
  } catch (err) {
    showError(err.message);
  }
}

export function renderLobby(root, { go, showError }) {
  const side = h(
    "select",
    { id: "side", "aria-label": "Your side" },
    h("option", { value: "rebel" }, "Rebel (moves first)"),
    h("option", { value: "imperial" }, "Imperial"),
    h("option", { value: "random" }, "Random side"),
  );
  const opponent = h("select", { id: "opponent", "aria-label": "Computer level" }, OPPONENTS.map((o) => h("option", { value: o.value }, o.label)));
  const computerBody = () => {
    const [kind, level] = opponent.value.split(":");
    const body = { mode: "computer", side: side.value, opponent: kind };
    if (level) body.level = level;
    return body;
  };
  const joinInput = h("input", { id: "join-link", type: "text", placeholder: "Paste the invite link", "aria-label": "Invite link" });
  const watchInput = h("input", { id: "watch-link", type: "text", placeholder: "Game link or id", "aria-label": "Game to watch" });
  const onlineSide = h(
    "select",
    { id: "online-side", "aria-label": "Your side online" },
    h("option", { value: "rebel" }, "Rebel"),
    h("option", { value: "imperial" }, "Imperial"),
    h("option", { value: "random" }, "Random side"),
  );
  const mine = Object.entries(storedGames()).sort((a, b) => (b[1].created || 0) - (a[1].created || 0));
  root.replaceChildren(
    h(
      "div",
      { class: "lobby" },
      h("h1", {}, "Rebel Space"),
      h(
        "p",
        { class: "intro" },
        "A two-player card game: Rebels against the Empire. Attack with your units, block the enemy's, and be the first to empty the other player's deck. Every choice you can make lights up on the table; no need to learn the rules first.",
      ),
      h(
        "section",
        { class: "panel" },
        h("h2", {}, "Play against the computer"),
        h("label", {}, "Your side ", side),
        h("label", {}, "Computer ", opponent),
        h("button", { type: "button", id: "new-computer", class: "primary", onclick: () => createGame(computerBody(), go, showError) }, "Start game"),
      ),
      h(
        "section",
        { class: "panel" },
        h("h2", {}, "Two players"),
        h("p", {}, "Hot-seat: both players share this screen and take turns."),
        h("button", { type: "button", id: "new-hotseat", onclick: () => createGame({ mode: "hotseat" }, go, showError) }, "Start a hot-seat game"),
        h("p", {}, "Online: you get an invite link to send to a friend."),
        h("label", {}, "Your side ", onlineSide),
        h("button", { type: "button", id: "new-online", onclick: () => createGame({ mode: "online", side: onlineSide.value }, go, showError) }, "Create an online game"),
      ),
      h(
        "section",
        { class: "panel" },
        h("h2", {}, "Join or watch"),
        h(
          "form",
          {
            onsubmit: (e) => {
              e.preventDefault();
              const path = pathFromLink(joinInput.value, "join");
              if (path) go(path);
              else showError("That is not an invite link (it looks like /join/<game>/<code>).");
            },
          },
          joinInput,
          h("button", { type: "submit" }, "Join"),
        ),
        h(
          "form",
          {
            onsubmit: (e) => {
              e.preventDefault();
              const path = pathFromLink(watchInput.value, "watch");
              if (path) go(path.replace(/^\/(join|game)\/([^/]+).*$/, "/watch/$2"));
              else showError("Paste a game link or a game id to watch.");
            },
          },
          watchInput,
          h("button", { type: "submit" }, "Watch"),
        ),
      ),
      mine.length
        ? h(
            "section",
            { class: "panel" },
            h("h2", {}, "Your games on this browser"),
            h(
              "ul",
              { class: "my-games" },
              mine.map(([id, g]) =>
                h(
                  "li",
                  {},
                  h("a", { href: `/game/${id}`, onclick: (e) => { e.preventDefault(); go(`/game/${id}`); } }, `${id} (${g.mode || "game"}, ${Object.keys(g.seats).join(" & ")})`),
                  " ",
                  h("button", { type: "button", class: "small", onclick: () => { forgetGame(id); renderLobby(root, { go, showError }); } }, "Forget"),
                ),
              ),
            ),
          )
        : null,
    ),
  );
}
