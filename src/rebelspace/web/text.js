// @ts-check
// Small text helpers shared by the browser's modules: each was written out in several files
// before (issue 34 item 6), with slightly different answers for an empty string.

/** The string with its first letter capitalised; "" for an empty or missing one.
 * @param {string | null | undefined} s
 * @returns {string} */
export const cap = (s) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : "");

/** The other side.
 * @param {string} side "rebel" or "imperial"
 * @returns {string} */
export const other = (side) => (side === "rebel" ? "imperial" : "rebel");
