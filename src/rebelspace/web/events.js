// @ts-check
// One rendering of each event: the server's words. A state message (and a replay frame)
// carries `view.log` with one line per event of `events`, in the same order: the engine's own
// rendering of each event (engine/events.py, render_event). The browser words no event itself,
// so the playback, the battle panel's "Last attack" and the replay say the same thing.

/** @typedef {import("./protocol").Event & {text?: string}} WordedEvent An event with its line. */

/** Give each event of `events` its line of `log` as `text` (when the two pair up).
 * @param {WordedEvent[] | null | undefined} events
 * @param {string[] | null | undefined} log
 * @returns {WordedEvent[]} */
export function attachText(events, log) {
  if (!events || !log || events.length !== log.length) return events || [];
  events.forEach((e, i) => {
    e.text = log[i];
  });
  return events;
}

/** An event in words: the server's line, or (an event that came without one) its type.
 * @param {WordedEvent} e
 * @returns {string} */
export function eventText(e) {
  return e.text || e.type.replace(/_/g, " ");
}
