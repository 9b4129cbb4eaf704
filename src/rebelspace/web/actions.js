// @ts-check
// Legal actions: the server sends each as structured fields (docs/protocol.md, the engine's
// views.py `ActionView`): {id, kind, card, group, target, zone, n, text}. `card` and `target`
// are card names, `group` is 1-based, `zone` is "active"/"inactive" for targets, `n` the
// number of cards of a draw. The client puts each action on the card or group it names from
// these fields; `text` is shown only in the list of all choices. `copy` (edited card lists
// only) names one copy of a copied hero: see forCopy.

import { cardInfo } from "./cards.js";

/** Actions put on a card in the hand. */
const HAND = new Set(["deploy", "attach", "play_trick", "play_psion", "play_end", "play_end_on", "discard"]);
/** Actions put on one of the player's own active units. */
export const OWN = new Set(["form_ground", "form_space", "add", "block"]);
/** Actions put on a unit in the battle panel. */
const GROUP = new Set(["ion", "pick"]);

/**
 * Copied heroes (edited card lists, docs/protocol.md): an action's `copy` (null for the plain
 * action, which takes the first candidate) names the unit whose view `copy` is that number.
 * Of the actions a click on unit `copy` could mean, keep for each plain action the copy action
 * of that unit when there is one (the unit differs from the first candidate), else the plain
 * action (the unit is the first candidate, or looks just like it).
 */
export function forCopy(actions, copy) {
  const sameChoice = (a, b) => a.kind === b.kind && a.card === b.card && a.group === b.group && a.target === b.target && a.zone === b.zone;
  const exact = actions.filter((a) => a.copy && a.copy === copy);
  return actions.filter((a) => !a.copy).map((plain) => exact.find((a) => sameChoice(a, plain)) || plain);
}

/** A unit an action names: its card name, with "#k" for a copy action. */
const named = (name, action) => (action.copy ? `${name} #${action.copy}` : name);

/** Where on the table an action is clicked: "hand", "own", "enemy", "group" or "button". */
export function placeOf(action) {
  if (HAND.has(action.kind)) return "hand";
  if (OWN.has(action.kind)) return "own";
  if (action.kind === "target") return "enemy";
  if (GROUP.has(action.kind)) return "group";
  return "button";
}

/**
 * Words for an end-phase card played on or for another card: the catalogue's
 * `ability_menu`, the words of the card's ability (engine/abilities/), e.g. "take control of
 * {target}".
 */
function playEndOnLabel(action) {
  const menu = cardInfo(action.card).ability_menu;
  const target = named(action.target, action);
  if (menu) return `Play ${action.card}: ${menu.replace("{target}", target)}`;
  return `Play ${action.card} on ${target}`;
}

/** Words for a menu item, when the card that was clicked is already known. */
export function menuLabel(action, groupValue) {
  const value = (n) => (groupValue ? groupValue(n) : "");
  switch (action.kind) {
    case "form_ground":
      return `Start a new ground group with ${named(action.card, action)}`;
    case "form_space":
      return `Start a new space group with ${named(action.card, action)}`;
    case "add":
      return `Add ${named(action.card, action)} to group ${action.group}${value(action.group)}`;
    case "block":
      return `Block group ${action.group}${value(action.group)} with ${named(action.card, action)}`;
    case "target":
      return `Group ${action.group}${value(action.group)} attacks ${action.zone === "inactive" ? "inactive " : ""}${named(action.card, action)}`;
    case "ion":
      return `Fire the Ion Cannon at ${action.card} in group ${action.group}`;
    case "pick":
      return `Pick ${named(action.card, action)} as a casualty`;
    case "deploy":
      return `Deploy ${action.card} (cost ${cardInfo(action.card).cost})`;
    case "attach":
      return `Attach ${action.card} to ${named(action.target, action)} (cost ${cardInfo(action.card).cost})`;
    case "play_psion":
      return `Play ${action.card} on ${named(action.target, action)}`;
    case "play_end_on":
      return playEndOnLabel(action);
    case "play_trick":
    case "play_end":
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
