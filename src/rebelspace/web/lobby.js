// @ts-check
// The lobby: start a game (computer, hot-seat, online with an optional clock), join by link,
// watch, resume a recent game; links to the cards, the rules and all recent games.

import { rememberSeat, request, storedGames } from "./api.js";
import { artCreditEl } from "./cards.js";
import { h } from "./dom.js";
import { loadRecentGames, pageLink, pageLinks } from "./games.js";

// The server's computer players (README "Computer opponents"), strongest first as far as
// matches show (normal > heuristic > easy > random); hard and expert are not shown stronger
// than normal (agents/registry.py EXPERIMENTAL_LEVELS), so they come last and say so.
const OPPONENTS = [
  { value: "ismcts:normal", label: "Normal: thinks ahead (under 1 s a move)" },
  { value: "heuristic", label: "Quick: plays by rules of thumb" },
  { value: "ismcts:easy", label: "Easy: thinks ahead a little" },
  { value: "random", label: "Beginner: plays at random" },
  { value: "ismcts:hard", label: "Hard (experimental: not shown stronger than Normal)" },
  { value: "ismcts:expert", label: "Expert (experimental: not shown stronger than Normal)" },
];

// Online clocks: minutes per side + seconds added after each decision (docs/protocol.md).
const CLOCKS = [
  { value: "", label: "No clock" },
  { value: "300+3", label: "5 min + 3 s a decision" },
  { value: "600+5", label: "10 min + 5 s a decision" },
  { value: "1800+20", label: "30 min + 20 s a decision" },
];

// The lobby's name of each level of the published ladder (the OPPONENTS labels' first word).
const LEVEL_NAMES = { random: "Beginner", heuristic: "Quick", easy: "Easy", normal: "Normal", hard: "Hard", expert: "Expert" };
const pct = (x) => `${Math.round(x * 100)}%`;

/** A level's measured strength in words, from the server's published ladder (GET /api/levels
 * `records`: games against the anchor level, and an experimental level's against Normal). */
export function strengthWords(record, gamesPerPair) {
  const name = LEVEL_NAMES[record.level] || record.level;
  const parts = record.against.map(
    (a) => `${a.wins} of ${a.games} games against ${LEVEL_NAMES[a.level] || a.level} (95% interval ${pct(a.ci95[0])}–${pct(a.ci95[1])})`,
  );
  const ladder = `in the ladder published with this version (${gamesPerPair} games a pair)`;
  if (record.experimental) {
    return `Experimental: ${name} won ${parts.join(", but ")} ${ladder}; not shown stronger than Normal.`;
  }
  return `${name} won ${parts.join(", ")} ${ladder}.`;
}

/** Add each level's published rating (`rebelspace ladder`, README "Computer opponents") to its
 * label once the server answers, and say under the list how the chosen level did in the
 * published ladder; without an answer the labels stay as they are and nothing is said. */
async function showRatings(select, strength) {
  let answer;
  try {
    answer = await request("GET", "/api/levels");
  } catch {
    return;
  }
  const byAgent = new Map(answer.levels.map((level) => [level.agent, level]));
  for (const option of select.options) {
    const rated = byAgent.get(option.value);
    if (rated) option.textContent = `${option.textContent} · Elo ${Math.round(rated.elo)}`;
  }
  const records = new Map((answer.records || []).map((r) => [r.agent, r]));
  const say = () => {
    const record = records.get(select.value);
    strength.textContent = record ? strengthWords(record, answer.games_per_pair) : "";
  };
  select.addEventListener("change", say);
  say();
}

/** The create body's clock for a CLOCKS value ("600+5"), or null for none. */
export function clockSetting(value) {
  const m = /^(\d+)\+(\d+)$/.exec(value || "");
  return m ? { initial_s: Number(m[1]), increment_s: Number(m[2]) } : null;
}

/** Paths the lobby accepts for "join" and "watch": a full link, a path, or a bare game id. */
export function pathFromLink(text, kind) {
  const value = text.trim();
  if (!value) return null;
  let path;
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
  const strength = h("p", { id: "level-strength", class: "level-strength", "aria-live": "polite" });
  showRatings(opponent, strength);
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
  const clock = h("select", { id: "online-clock", "aria-label": "Clock" }, CLOCKS.map((c) => h("option", { value: c.value }, c.label)));
  const onlineBody = () => {
    const body = { mode: "online", side: onlineSide.value };
    const setting = clockSetting(clock.value);
    if (setting) body.clock = setting;
    return body;
  };
  const recent = h("div", { id: "recent-games" });
  root.replaceChildren(
    h(
      "div",
      { class: "lobby" },
      h("h1", {}, "Rebel Space"),
      pageLinks(go, "lobby"),
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
        strength,
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
        h("label", {}, "Clock ", clock),
        h("button", { type: "button", id: "new-online", onclick: () => createGame(onlineBody(), go, showError) }, "Create an online game"),
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
      h("section", { class: "panel" }, h("h2", {}, "Your recent games"), recent, pageLink(go, "/games", "All your recent games", { id: "all-games" })),
      artCreditEl(),
    ),
  );
  loadRecentGames(recent, go, 5);
}
