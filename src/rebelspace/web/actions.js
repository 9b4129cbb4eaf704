// Legal actions: the server sends each as {id, text}; the texts have fixed forms (see the
// engine's actions.py), so they are parsed here into {kind, card, group, target, zone} to put
// each one on the card or group it names. Card names are matched against the catalogue, so a
// name with spaces is never split in the wrong place.

import { cardInfo, cardNames } from "./cards.js";

const FIXED = {
  "no attack": "no_attack",
  attack: "attack",
  "Ion Cannon holds fire": "ion_hold",
  "done blocking": "done_blocking",
  "done targeting": "done_targeting",
  pass: "pass",
  "done deploying": "done_deploying",
  "end turn": "end_turn",
};

function isName(text) {
  return cardNames().includes(text);
}

/** "A sep B" where both A and B are card names (tries every place sep occurs). */
function splitNames(rest, sep) {
  let at = rest.indexOf(sep);
  while (at >= 0) {
    const a = rest.slice(0, at);
    const b = rest.slice(at + sep.length);
    if (isName(a) && isName(b)) return [a, b];
    at = rest.indexOf(sep, at + 1);
  }
  return null;
}

export function parseAction({ id, text }) {
  const base = { id, text, kind: "other", card: null, group: null, target: null, zone: null };
  if (FIXED[text]) return { ...base, kind: FIXED[text] };
  let m;
  if ((m = text.match(/^draw (\d+)$/))) return { ...base, kind: "draw", n: Number(m[1]) };
  if ((m = text.match(/^new (ground|space) group with (.+)$/)))
    return { ...base, kind: "form", gkind: m[1], card: m[2] };
  if ((m = text.match(/^add (.+) to group (\d+)$/)))
    return { ...base, kind: "add", card: m[1], group: Number(m[2]) };
  if ((m = text.match(/^Ion Cannon destroys (.+) in group (\d+)$/)))
    return { ...base, kind: "ion", card: m[1], group: Number(m[2]) };
  if ((m = text.match(/^block group (\d+) with (.+)$/)))
    return { ...base, kind: "block", group: Number(m[1]), card: m[2] };
  if ((m = text.match(/^group (\d+) targets (inactive )?(.+)$/)))
    return { ...base, kind: "target", group: Number(m[1]), zone: m[2] ? "inactive" : "active", card: m[3] };
  if ((m = text.match(/^pick (.+) as a casualty$/))) return { ...base, kind: "pick", card: m[1] };
  if ((m = text.match(/^deploy (.+)$/))) return { ...base, kind: "deploy", card: m[1] };
  if ((m = text.match(/^discard (.+)$/))) return { ...base, kind: "discard", card: m[1] };
  if ((m = text.match(/^attach (.+)$/))) {
    const pair = splitNames(m[1], " to ");
    if (pair) return { ...base, kind: "attach", card: pair[0], target: pair[1] };
  }
  if ((m = text.match(/^play (.+)$/))) {
    const rest = m[1];
    if (isName(rest)) return { ...base, kind: "play", card: rest };
    for (const sep of [" on ", " for "]) {
      const pair = splitNames(rest, sep);
      if (pair) {
        const kind = cardInfo(pair[0]).kind === "psion" ? "psion" : sep === " on " ? "play_on" : "play_for";
        return { ...base, kind, card: pair[0], target: pair[1] };
      }
    }
  }
  return base;
}

/** Where on the table an action is clicked: "hand", "own", "enemy", "group" or "button". */
export function placeOf(action) {
  switch (action.kind) {
    case "deploy":
    case "attach":
    case "play":
    case "psion":
    case "play_on":
    case "play_for":
    case "discard":
      return "hand";
    case "form":
    case "add":
    case "block":
      return "own";
    case "target":
      return "enemy";
    case "ion":
    case "pick":
      return "group";
    default:
      return "button";
  }
}

/** Words for a menu item, when the card that was clicked is already known. */
export function menuLabel(action, groupValue) {
  const value = (n) => (groupValue ? groupValue(n) : "");
  switch (action.kind) {
    case "form":
      return `Start a new ${action.gkind} group with ${action.card}`;
    case "add":
      return `Add ${action.card} to group ${action.group}${value(action.group)}`;
    case "block":
      return `Block group ${action.group}${value(action.group)} with ${action.card}`;
    case "target":
      return `Group ${action.group}${value(action.group)} attacks ${action.card}`;
    case "deploy":
      return `Deploy ${action.card} (cost ${cardInfo(action.card).cost})`;
    case "attach":
      return `Attach ${action.card} to ${action.target} (cost ${cardInfo(action.card).cost})`;
    case "psion":
      return `Play ${action.card} on ${action.target}`;
    case "play_on":
      return `Play ${action.card} on ${action.target}`;
    case "play_for":
      return `Play ${action.card}: take ${action.target} into your hand`;
    case "play":
      return `Play ${action.card}`;
    case "discard":
      return `Discard ${action.card}`;
    default:
      return buttonLabel(action);
  }
}

/** Words on the buttons of actions that name no card. */
export function buttonLabel(action) {
  switch (action.kind) {
    case "draw":
      return `Draw ${action.n} card${action.n > 1 ? "s" : ""}`;
    case "no_attack":
      return "Don't attack";
    case "attack":
      return "Attack!";
    case "ion_hold":
      return "Hold Ion Cannon fire";
    case "done_blocking":
      return "Done blocking";
    case "done_targeting":
      return "Done targeting";
    case "pass":
      return "Pass";
    case "done_deploying":
      return "Done deploying";
    case "end_turn":
      return "End turn";
    default:
      return action.text;
  }
}
