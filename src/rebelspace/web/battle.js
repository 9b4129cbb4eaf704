// The attack in progress (view.battle) and the summary of the last one (from the game log).

import { cardEl, cardInfo, unitDamage, unitRating } from "./cards.js";
import { h } from "./dom.js";

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * Battle values of a group: the server's numbers (state message `battle_values`) when it sends
 * them, else the same R13 sum from the catalogue: each unit's rating with its attachments and
 * psion cards, plus the Surprise Attack / Trap bonus for every unit.
 */
export function groupValues(msg, group) {
  const fromServer = (msg.battle_values || []).find((v) => v.number === group.number);
  const battle = msg.view.battle;
  const defenders = defendersOf(group);
  const sum = (units, bonus) => units.reduce((s, u) => s + unitRating(u, group.kind) + bonus, 0);
  const attack = fromServer ? fromServer.attack : sum(group.units, battle.attack_bonus);
  let defense = null;
  if (fromServer && fromServer.defense !== undefined) defense = fromServer.defense;
  else if (defenders.length) defense = sum(defenders, battle.defense_bonus);
  return { attack, defense };
}

export function defendersOf(group) {
  if (group.blockers.length) return group.blockers;
  return group.target ? [group.target] : [];
}

/** R12: hero places in a space group: one Pilot per Fighter, one Captain per Ship. */
export function heroPlaces(group) {
  if (group.kind !== "space") return null;
  let fighters = 0;
  let ships = 0;
  let heroes = 0;
  for (const u of group.units) {
    const card = cardInfo(u.name);
    if (card.kind === "hero") heroes += 1;
    if ((card.keywords || []).includes("fighter")) fighters += 1;
    if ((card.keywords || []).includes("ship")) ships += 1;
  }
  return { fighters, ships, heroes };
}

/**
 * Units of a group that was destroyed vanish from the view; the client remembers the last
 * non-empty line-up of each group of the current attack so a battle result can still show
 * who fought.
 */
export class BattleMemory {
  constructor() {
    this.key = null;
    this.groups = new Map();
  }

  update(msg) {
    const view = msg.view;
    const battle = view.battle;
    if (!battle) {
      this.key = null;
      this.groups.clear();
      return;
    }
    const key = `${view.turn}:${view.extra_attacks}`;
    if (key !== this.key) {
      this.key = key;
      this.groups.clear();
    }
    for (const g of battle.groups) {
      const old = this.groups.get(g.number) || { units: [], defenders: [], how: null };
      const defenders = defendersOf(g);
      const how = g.blockers.length ? "blocked" : g.target ? "target" : old.how;
      this.groups.set(g.number, {
        units: g.units.length ? g.units : old.units,
        defenders: defenders.length ? defenders : old.defenders,
        how,
        // The values the battle was fought at: once it is fought, destroyed units and
        // casualties no longer count in the current values.
        values: g.result && old.values ? old.values : groupValues(msg, g),
      });
    }
  }

  units(number, side) {
    const g = this.groups.get(number);
    return g ? g[side] : [];
  }

  values(number) {
    const g = this.groups.get(number);
    return g ? g.values : null;
  }

  how(number) {
    const g = this.groups.get(number);
    return g ? g.how : null;
  }
}

function unitCards(units, { place, group, clickable, destroyed = false }) {
  return units.map((u) =>
    h(
      "div",
      { class: "unit" },
      cardEl(u.name, {
        small: true,
        classes: destroyed ? ["destroyed"] : clickable(u.name) ? ["clickable"] : [],
        badge: destroyed ? "destroyed" : null,
        data: { place, group, name: u.name },
      }),
      u.attachments.length
        ? h("div", { class: "attachments" }, u.attachments.map((a) => cardEl(a, { small: true, classes: ["attached"] })))
        : null,
    ),
  );
}

/** The battle panel: each attacking group against its blockers or target, values, results. */
export function renderBattle(msg, memory, ui) {
  const view = msg.view;
  const battle = view.battle;
  const attacker = cap(view.active_player);
  const defender = attacker === "Rebel" ? "Imperial" : "Rebel";
  const rows = battle.groups.map((g) => {
    const { attack, defense } = (g.result && memory.values(g.number)) || groupValues(msg, g);
    const defenders = defendersOf(g);
    const shownUnits = g.units.length ? g.units : memory.units(g.number, "units");
    const shownDefenders = defenders.length ? defenders : memory.units(g.number, "defenders");
    const casualtyHere = battle.casualty_group === g.number;
    const places = heroPlaces(g);
    const damage = g.units.reduce((s, u) => s + unitDamage(u), 0);
    const how = g.blockers.length ? "blocked" : g.target ? "target" : memory.how(g.number);
    let against;
    if (how === "blocked") against = `blocked by ${defender}`;
    else if (how === "target") against = `fighting a targeted ${g.target_zone === "inactive" ? "inactive " : ""}unit`;
    else if (["form groups", "ion cannon", "block"].includes(view.step)) against = "not blocked yet";
    else against = `unblocked: ${damage} damage to ${defender}'s deck`;
    const selectable = ui.selectableGroups.has(g.number);
    const cls = ["group", `group-${g.kind}`, selectable ? "selectable" : "", ui.selectedGroup === g.number ? "selected" : "", casualtyHere ? "casualties" : ""];
    return h(
      "section",
      {
        class: cls,
        "data-group": g.number,
        role: selectable ? "button" : null,
        tabindex: selectable ? "0" : null,
        "aria-label": `Group ${g.number}`,
        onclick: selectable ? () => ui.selectGroup(g.number) : null,
      },
      h(
        "header",
        {},
        h("strong", {}, `Group ${g.number} · ${g.kind}`),
        h("span", { class: "value" }, ` ${attacker} value ${attack}`),
        defense !== null ? h("span", { class: "value" }, ` vs ${defender} value ${defense}`) : null,
        h("span", { class: "against" }, ` — ${against}`),
        g.result ? h("span", { class: "result" }, ` → ${g.result}`) : null,
      ),
      places
        ? h(
            "div",
            { class: "places" },
            `Hero places: ${places.fighters} pilot (one per Fighter), ${places.ships} captain (one per Ship); ${places.heroes} hero${places.heroes === 1 ? "" : "es"} aboard`,
          )
        : null,
      h(
        "div",
        { class: "sides" },
        h(
          "div",
          { class: "side attackers" },
          unitCards(shownUnits, { place: "group-attackers", group: g.number, destroyed: !g.units.length, clickable: (n) => ui.clickable("group-attackers", n, g.number) }),
        ),
        h("div", { class: "vs" }, "vs"),
        h(
          "div",
          { class: "side defenders" },
          shownDefenders.length
            ? unitCards(shownDefenders, { place: "group-defenders", group: g.number, destroyed: !defenders.length, clickable: (n) => ui.clickable("group-defenders", n, g.number) })
            : h("em", {}, g.result ? "destroyed" : "—"),
        ),
      ),
      casualtyHere
        ? h("div", { class: "budget" }, `Casualties from the ${battle.casualty_from}'s winning group: up to ${battle.casualty_budget} points left to pick`)
        : null,
    );
  });
  const bonuses = [];
  if (battle.attack_bonus) bonuses.push(`attackers +${battle.attack_bonus} each`);
  if (battle.defense_bonus) bonuses.push(`defenders +${battle.defense_bonus} each`);
  if (battle.psion_cards.length) bonuses.push(battle.psion_cards.map(([c, hero]) => `${c} on ${hero}`).join(", "));
  return h(
    "div",
    { class: "battle", id: "battle" },
    h("h2", {}, `${attacker} attacks`, bonuses.length ? h("small", {}, ` (${bonuses.join("; ")})`) : null),
    rows.length ? rows : h("p", {}, "No group formed yet."),
    battle.pending_damage ? h("p", { class: "damage" }, `Damage getting through: ${battle.pending_damage}`) : null,
    view.extra_attacks ? h("p", {}, `Extra attack phases still to come this turn: ${view.extra_attacks}`) : null,
  );
}

const ATTACK_LINE = /attacks with|blocks group|targets|fights the|block the|gets through|as a casualty|from the top of the deck|destroys .+ in group \d|plays (Surprise Attack|Trap|Multiple Targets)|plays \w[\w ]* on |extra attack phase/;

/** The lines of the last attack phase in the log, with the turn it was in. */
export function lastAttack(log) {
  let turn = null;
  let current = [];
  let found = null;
  for (const line of log) {
    const m = line.match(/^-- Turn (\d+): (\w+) --$/);
    if (m) {
      if (current.length) found = { turn, lines: current };
      turn = `${m[1]} (${m[2]})`;
      current = [];
    } else if (ATTACK_LINE.test(line)) {
      current.push(line);
    }
  }
  if (current.length) found = { turn, lines: current };
  return found;
}

export function renderLastAttack(log) {
  const last = lastAttack(log);
  if (!last) return h("div", { class: "battle last", id: "battle" }, h("h2", {}, "No battles yet"), h("p", {}, "Attacks and their results will be shown here."));
  return h(
    "div",
    { class: "battle last", id: "battle" },
    h("h2", {}, `Last attack: turn ${last.turn}`),
    h("ul", { class: "battle-lines" }, last.lines.map((line) => h("li", { class: /destroyed|damage|discards/.test(line) ? "hit" : "" }, line))),
  );
}
