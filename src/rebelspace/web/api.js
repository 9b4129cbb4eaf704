// @ts-check
// Talking to the server (docs/protocol.md): REST calls, the game WebSocket, and the seat
// tokens kept in localStorage so a reload (or a server restart) finds the game again.

const STORE_KEY = "rebelspace.games";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** JSON request; a 4xx/5xx answer becomes an ApiError carrying the server's own message. */
export async function request(method, path, { token = null, body = undefined } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(0, "network", `Cannot reach the server (${err.message}).`);
  }
  let data;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const code = (data && data.error) || `http_${response.status}`;
    const message = (data && (data.message || data.detail)) || response.statusText;
    throw new ApiError(response.status, code, typeof message === "string" ? message : JSON.stringify(message));
  }
  return data;
}

// ---- seat tokens ---------------------------------------------------------------------------

/** {gameId: {mode, seats: {rebel?: token, imperial?: token}, created}} */
export function storedGames() {
  try {
    return JSON.parse(localStorage.getItem(STORE_KEY)) || {};
  } catch {
    return {};
  }
}

export function storedGame(gameId) {
  return storedGames()[gameId] || null;
}

export function rememberSeat(gameId, mode, player, token) {
  const games = storedGames();
  const entry = games[gameId] || { mode, seats: {}, created: Date.now() };
  entry.mode = mode || entry.mode;
  entry.seats[player] = token;
  games[gameId] = entry;
  localStorage.setItem(STORE_KEY, JSON.stringify(games));
}

/**
 * A rematch (docs/protocol.md): each player keeps the token they had, for the other side of
 * the new game. Stores, for every seat this browser holds in `oldId`, its token under `newId`
 * for the swapped side; returns whether it holds any.
 */
export function rememberRematch(oldId, newId) {
  const old = storedGame(oldId);
  if (!old) return false;
  const seats = Object.entries(old.seats);
  for (const [seat, token] of seats) rememberSeat(newId, old.mode, seat === "rebel" ? "imperial" : "rebel", token);
  return seats.length > 0;
}

/** Every seat token this browser holds (for "my recent games"), at most `limit`, newest first. */
export function storedTokens(limit = 100) {
  const entries = Object.values(storedGames()).sort((a, b) => (b.created || 0) - (a.created || 0));
  const tokens = [];
  for (const g of entries) for (const t of Object.values(g.seats)) if (!tokens.includes(t)) tokens.push(t);
  return tokens.slice(0, limit);
}

/** The link that opens a seat on another device: the token rides in the fragment, which
 * browsers never send to the server. */
export function seatLink(gameId, seat, token) {
  return `${location.origin}/seat/${encodeURIComponent(gameId)}#${seat}.${token}`;
}

/** The seat and token of a seat link's fragment ("#rebel.<token>"), or null when malformed. */
export function parseSeatFragment(hash) {
  const m = /^#?(rebel|imperial)\.([A-Za-z0-9_-]{16,200})$/.exec(hash || "");
  return m ? { seat: m[1], token: m[2] } : null;
}

export function forgetGame(gameId) {
  const games = storedGames();
  delete games[gameId];
  localStorage.setItem(STORE_KEY, JSON.stringify(games));
}

// ---- WebSocket -------------------------------------------------------------------------------

/** The fields a delta leaves out when unchanged (server/messages.py DELTA_FIELDS). */
const DELTA_FIELDS = ["seats", "undo", "result", "clock", "claim", "rematch", "rules", "forecast"];

/**
 * A delta made whole again (docs/protocol.md, "What a message carries"): after its first state
 * message a connection is sent deltas, which leave out the fields that did not change since the
 * previous message, and of the view the parts that did not; they are put back from `last`, the
 * previous message of the same connection made whole. Changes `data` in place and returns it.
 * @param {any} data a state message as it came, whole or a delta
 * @param {any} last the previous message, made whole (null: none yet)
 * @returns {any}
 */
export function complete(data, last) {
  if (data.delta && last) {
    for (const name of DELTA_FIELDS) if (!(name in data)) data[name] = last[name];
    const view = data.view;
    for (const part of Object.keys(last.view)) if (!(part in view)) view[part] = last.view[part];
    for (const side of ["you", "opponent"]) if (view[side] !== last.view[side]) view[side] = { ...last.view[side], ...view[side] };
  }
  delete data.delta;
  return data;
}

/**
 * @typedef {object} Stream The events (and their log lines) of one seat's game so far.
 * @property {object[]} events
 * @property {string[]} log
 * @property {number | null} version the state's version they are from; null: none yet
 */

/**
 * The stream with a state message's events added: a message carries only the events (and log
 * lines) from `events_from` on (docs/protocol.md, "Events"), so the ones held from there on are
 * replaced by the message's.
 * @param {Stream} stream
 * @param {{events_from: number, events: object[], version: number, view: {log: string[]}}} data
 * @returns {Stream}
 */
export function extendStream(stream, data) {
  const keep = Math.min(data.events_from, stream.events.length);
  return {
    events: stream.events.slice(0, keep).concat(data.events),
    log: stream.log.slice(0, keep).concat(data.view.log),
    version: data.version,
  };
}

/**
 * Keep a WebSocket to one game open: reconnects with back-off when the connection drops
 * (e.g. the server restarted), and reports "open"/"closed" so the page can say so.
 */
export function openSocket(gameId, token, onMessage, onStatus) {
  let ws = null;
  let closed = false;
  let delay = 500;
  let pinger = null;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  // The token goes in the first message, never in the URL (which proxies and logs record).
  const url = `${proto}//${location.host}/api/games/${encodeURIComponent(gameId)}/ws`;
  // The stream so far is kept here and handed on whole, and a reconnect says what it holds so
  // the server sends only what is missing.
  /** @type {Stream} */
  let stream = { events: [], log: [], version: null };
  const held = () => (stream.version === null ? {} : { since: stream.events.length, since_version: stream.version });
  let last = null; // the connection's previous message, made whole (complete)

  function whole(data) {
    if (data.type !== "state" || typeof data.events_from !== "number") return;
    last = complete(data, last);
    if (token && data.seat === null) return; // the spectator's state before auth: not our stream
    stream = extendStream(stream, data);
    data.events = stream.events;
    data.view.log = stream.log;
  }

  function connect() {
    const since = Object.entries(held()).map(([k, v]) => [k, String(v)]);
    ws = new WebSocket(token || !since.length ? url : `${url}?${new URLSearchParams(since)}`);
    last = null; // a new connection's first message is whole
    ws.onopen = () => {
      if (token) send({ type: "auth", token, ...held() });
      delay = 500;
      onStatus("open");
      pinger = setInterval(() => send({ type: "ping" }), 25000);
    };
    ws.onmessage = (event) => {
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      whole(data);
      onMessage(data);
    };
    ws.onclose = (event) => {
      clearInterval(pinger);
      if (closed) return;
      if (event.code >= 4000 && event.code < 5000) {
        // The server refused us (4403 wrong token, 4404 no such game): retrying cannot help.
        onStatus("refused");
        return;
      }
      onStatus("closed");
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 8000);
    };
  }

  function send(data) {
    if (ws && ws.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify(data));
      return true;
    }
    return false;
  }

  connect();
  return {
    send,
    close() {
      closed = true;
      clearInterval(pinger);
      if (ws) ws.close();
    },
  };
}
