// @ts-check
// What cards do, in words for players: a short line for the card's face, and each keyword's
// and ability's meaning for the card's full text and the gallery (the rules page says the same
// at length). Keyed by the catalogue's keyword and ability names (GET /api/cards).

/** Each keyword: [its name, a few words for a card's face, what it means]. */
export const KEYWORDS = {
  pilot: ["Pilot", "Pilot", "can ride in a space group, one per Fighter in it"],
  captain: ["Captain", "Captain", "can ride in a space group, one per Ship in it"],
  psionic: ["Psionic", "Psionic", "psion cards can be played on this hero in a battle"],
  fighter: ["Fighter", "Fighter", "carries one Pilot hero in a space group"],
  ship: ["Ship", "Ship", "carries one Captain hero in a space group; the Ion Cannon and Defense Shields act on Ships"],
  facility: ["Facility", "Facility", "never attacks unless it says May Attack; a Saboteur can destroy it"],
  defense: ["Defense", "Defense", "never attacks, but can block"],
  may_attack: ["May Attack", "May attack", "a Facility that may attack all the same"],
  extra_draw: ["Draw 1 extra card per turn", "+1 card each draw", "its controller may draw one card more in each draw phase"],
  ion_cannon: ["Destroy 1 attacking Ship", "Shoots 1 attacking Ship", "once in each attack against you, before blocks, it may destroy one attacking Ship"],
  shields: ["Attacking Ships do no Damage", "Stops Ships' damage", "while it is in play, attacking Ships deal no damage to your deck"],
  companion: ["Companion", "Goes on a hero", "deployed onto one of your heroes, adding its ratings to the hero's"],
  attach_to_hero: ["Attach to Hero", "Goes on a hero", "deployed onto one of your heroes, adding its ratings to the hero's"],
};

/** Each action ability: [a few words for a card's face, when and how it is used]. */
export const ABILITIES = {
  hero_from_discard: ["End: hero from discard to hand", "End phase: take a hero from your discard pile into your hand; both players see it."],
  hero_from_deck: ["End: hero from deck to hand", "End phase: take a hero from your deck into your hand; both players see it, and the deck is shuffled."],
  convert: ["End: take an enemy hero", "End phase: take control of an opposing hero in play, with its attachments, for the rest of the game."],
  surprise_attack: ["Attacking: your units +2", "Battle cards, as the attacker: every attacking unit gets +2 for this attack phase (not to Damage)."],
  extra_attack: ["Attacking: attack again", "Battle cards, as the attacker: you get one more attack phase after this one."],
  spy: ["End: see their hand", "End phase: look at your opponent's hand."],
  saboteur: ["End: destroy a Facility", "End phase: destroy one opposing Facility in play."],
  trap: ["Defending: your units +2", "Battle cards, as the defender: every defending unit gets +2 for this attack phase (not to Damage)."],
};

const PSION = ["Battle: on your Psionic hero", "Battle cards: played free on your Psionic hero in a battle; its ratings add to the hero's until the attack phase ends."];
const ATTACHMENT = ["Goes on a hero", "Deployed onto one of your heroes; its ratings add to the hero's."];

/** A few words for the card's face: what its keywords or its ability do ("" for none). */
export function shortAbility(card) {
  if (card.ability && ABILITIES[card.ability]) return ABILITIES[card.ability][0];
  // An ability this table does not know yet (a new engine/abilities/ module): its printed notes.
  if (card.ability) return card.notes || "";
  if (card.kind === "psion") return PSION[0];
  const keys = card.keywords || [];
  // An attachment says where it goes once, whichever keyword says it.
  const words = [...new Set(keys.map((k) => (KEYWORDS[k] ? KEYWORDS[k][1] : k)))];
  if (card.kind === "attachment" && !words.length) words.push(ATTACHMENT[0]);
  return words.join(" · ");
}

/**
 * What the card does, one line per keyword or ability, each once: "Pilot: can ride ...".
 * An action's own printed text comes first, then when and how it is played.
 */
export function abilityLines(card) {
  const lines = [];
  const seen = new Set();
  for (const k of card.keywords || []) {
    const [label, , meaning] = KEYWORDS[k] || [k, k, ""];
    if (seen.has(meaning || label)) continue;
    seen.add(meaning || label);
    lines.push(meaning ? `${label}: ${meaning}.` : `${label}.`);
  }
  if (card.ability) {
    // The player's wording here; an ability not in the table yet has its effect's words.
    const [, how] = ABILITIES[card.ability] || ["", card.ability_words || ""];
    lines.push(`${card.notes}.${how ? ` ${how}` : ""}`);
  } else if (card.kind === "psion") lines.push(PSION[1]);
  else if (card.kind === "attachment" && !(card.keywords || []).length) lines.push(ATTACHMENT[1]);
  return lines;
}
