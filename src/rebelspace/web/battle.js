// @ts-check
// The attack in progress (view.battle) and the summary of the last one (from msg.events).
// Every number shown is the server's: the view's unit ratings, the groups' battle values and
// damage (after Defense Shields), and the events' values of battles already fought.

import { cap } from "./text.js";
import { cardEl, copiedHeroes } from "./cards.js";
import { h } from "./dom.js";
import { eventText } from "./events.js";


/** Battle values of a group, as the view gives them (R13 with the R30 bonuses). */
export function groupValues(group) {
  return { attack: group.attack_value, defense: group.defense_value };
}

export function defendersOf(group) {
  if (group.blockers.length) return group.blockers;
  return group.target ? [group.target] : [];
}

// ---- events ------------------------------------------------------------------------------

/** The events of an attack phase (R10-R22), from the declaration to the last damage. */
const ATTACK_EVENTS = new Set([
  "attacked",
  "ion_cannon_fired",
  "blocked",
  "targeted",
  "trick_played",
  "psion_played",
  "got_through",
  "battle_resolved",
  "casualty_picked",
  "damage_dealt",
  "extra_attack_phase",
]);

/**
 * The attack phases in a stream of events, oldest first: each {turn, player, events}. A phase
 * starts with the attacker's declaration (its run of `attacked` events, one per group) and
 * takes the attack events after it until the next declaration or the next turn.
 */
export function attackPhases(events) {
  const phases = [];
  let turn = null;
  let player = null;
  let current = null;
  let previous = null;
  for (const e of events) {
    if (e.type === "turn_started") {
      turn = e.turn;
      player = e.player;
      current = null;
    } else if (e.type === "attacked" && (!previous || previous.type !== "attacked")) {
      current = { turn, player: player || e.player, events: [] };
      phases.push(current);
    }
    if (current && ATTACK_EVENTS.has(e.type)) current.events.push(e);
    previous = e;
  }
  return phases;
}

/** The battle_resolved event of group `number` in the latest attack phase, if any. */
function resolvedEvent(events, number) {
  const phases = attackPhases(events);
  if (!phases.length) return null;
  const found = phases[phases.length - 1].events.filter((e) => e.type === "battle_resolved" && e.group === number);
  return found.length ? found[found.length - 1] : null;
}

const HIT_EVENTS = new Set(["ion_cannon_fired", "battle_resolved", "casualty_picked", "damage_dealt"]);

// ---- memory of the current attack -------------------------------------------------------

/**
 * Units of a group that was destroyed vanish from the view; the client remembers the last
 * non-empty line-up of each group of the current attack (with the view's numbers) so a battle
 * result can still show who fought.
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
      const old = this.groups.get(g.number) || { units: [], defenders: [], how: null, values: null };
      const defenders = defendersOf(g);
      const how = g.blockers.length ? "blocked" : g.target ? "target" : old.how;
      this.groups.set(g.number, {
        units: g.units.length ? g.units : old.units,
        defenders: defenders.length ? defenders : old.defenders,
        how,
        // The values the battle was fought at: once it is fought, destroyed units and
        // casualties no longer count in the view's values.
        values: g.result && old.values ? old.values : groupValues(g),
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

// ---- drawing -----------------------------------------------------------------------------

function unitCards(units, { place, group, clickable, destroyed = false, copied = new Set() }) {
  return units.map((u) =>
    h(
      "div",
      { class: "unit" },
      cardEl(u.name, {
        small: true,
        unit: u,
        copyMark: copied.has(u.name),
        classes: destroyed ? ["destroyed"] : clickable(u) ? ["clickable"] : [],
        badge: destroyed ? "destroyed" : null,
        data: { place, group, name: u.name },
      }),
      u.attachments.length
        ? h("div", { class: "attachments" }, u.attachments.map((a) => cardEl(a, { small: true, classes: ["attached"] })))
        : null,
    ),
  );
}

/**
 * What a group's attack comes to: blocked, targeting, or (the server's words, msg.forecast)
 * the damage it deals unblocked.
 */
function againstText(g, how, defender, forecast) {
  if (how === "blocked") return `blocked by ${defender}`;
  if (how === "target") return `fighting a targeted ${g.target_zone === "inactive" ? "inactive " : ""}unit`;
  if (forecast && (forecast.outcome === "unblocked" || forecast.outcome === "none")) return forecast.text;
  return g.units.length ? "deals no damage" : "no unit left";
}

/** A battle's forecast or result in words (the server's, from the engine's values), if any. */
function forecastEl(forecast) {
  if (!forecast || forecast.outcome === "unblocked" || forecast.outcome === "none") return null;
  const text = forecast.fought ? forecast.text : `${forecast.text}, as the cards stand`;
  return h("p", { class: ["forecast", `forecast-${forecast.outcome}`, forecast.fought ? "fought" : ""], "data-outcome": forecast.outcome }, text);
}

/** The battle panel: each attacking group against its blockers or target, values, results. */
export function renderBattle(msg, memory, ui) {
  const view = msg.view;
  const battle = view.battle;
  const events = msg.events || [];
  const attacker = cap(view.active_player);
  const defender = attacker === "Rebel" ? "Imperial" : "Rebel";
  const attackingSide = view.you.player === view.active_player ? view.you : view.opponent;
  const defendingSide = attackingSide === view.you ? view.opponent : view.you;
  const attackerCopies = copiedHeroes(attackingSide);
  const defenderCopies = copiedHeroes(defendingSide);
  // The player's own cards are drawn below the opponent's, as the two sides sit on the table.
  const mineAttacking = attackingSide === view.you;
  const forecasts = new Map((msg.forecast || []).map((f) => [f.group, f]));
  const rows = battle.groups.map((g) => {
    const fought = g.result ? resolvedEvent(events, g.number) : null;
    const values = fought
      ? { attack: fought.attack_value, defense: fought.defense_value }
      : (g.result && memory.values(g.number)) || groupValues(g);
    const { attack, defense } = values;
    const defenders = defendersOf(g);
    const shownUnits = g.units.length ? g.units : memory.units(g.number, "units");
    const shownDefenders = defenders.length ? defenders : memory.units(g.number, "defenders");
    const casualtyHere = battle.casualty_group === g.number;
    const places = g.hero_places; // R12, counted by the engine (null for a ground group)
    const how = g.blockers.length ? "blocked" : g.target ? "target" : memory.how(g.number) || (fought ? (fought.blocked ? "blocked" : "target") : null);
    const forecast = forecasts.get(g.number) || null;
    const against = againstText(g, how, defender, forecast);
    const selectable = ui.selectableGroups.has(g.number);
    const cls = ["group", `group-${g.kind}`, selectable ? "selectable" : "", ui.selectedGroup === g.number ? "selected" : "", casualtyHere ? "casualties" : ""];
    return h(
      "section",
      {
        class: cls,
        "data-group": g.number,
        "data-attack": attack,
        "data-defense": defense,
        "data-damage": g.damage,
        "data-stopped": g.stopped,
        role: selectable ? "button" : null,
        tabindex: selectable ? "0" : null,
        "aria-label": `Group ${g.number}`,
        onclick: selectable ? () => ui.selectGroup(g.number) : null,
      },
      h(
        "header",
        {},
        h("strong", {}, `Group ${g.number} · ${g.kind}`),
        h("span", { class: "value value-attack" }, ` ${attacker} value ${attack}`),
        defense !== null && defense !== undefined ? h("span", { class: "value value-defense" }, ` vs ${defender} value ${defense}`) : null,
        h("span", { class: "against" }, ` — ${against}`),
        g.result && !forecast ? h("span", { class: "result" }, ` → ${g.result}`) : null,
      ),
      forecastEl(forecast),
      places
        ? h(
            "div",
            { class: "places" },
            `Hero places: ${places.fighters} pilot (one per Fighter), ${places.ships} captain (one per Ship); ${places.heroes} hero${places.heroes === 1 ? "" : "es"} aboard`,
          )
        : null,
      h(
        "div",
        { class: ["sides", mineAttacking ? "attacker-bottom" : "attacker-top"] },
        h(
          "div",
          { class: "side attackers" },
          unitCards(shownUnits, { place: "group-attackers", group: g.number, destroyed: !g.units.length, copied: attackerCopies, clickable: (u) => ui.clickable("group-attackers", u.name, g.number, u.copy) }),
        ),
        h("div", { class: "vs" }, "vs"),
        h(
          "div",
          { class: "side defenders" },
          shownDefenders.length
            ? unitCards(shownDefenders, { place: "group-defenders", group: g.number, destroyed: !defenders.length, copied: defenderCopies, clickable: (u) => ui.clickable("group-defenders", u.name, g.number, u.copy) })
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
    { class: "battle", id: "battle", role: "region", "aria-label": "Battle", tabindex: "0" },
    h("h2", {}, `${attacker} attacks`, bonuses.length ? h("small", {}, ` (${bonuses.join("; ")})`) : null),
    rows.length ? h("div", { class: "groups" }, rows) : h("p", {}, "No group formed yet."),
    battle.pending_damage ? h("p", { class: "damage" }, `Damage getting through: ${battle.pending_damage}`) : null,
    view.extra_attacks ? h("p", {}, `Extra attack phases still to come this turn: ${view.extra_attacks}`) : null,
  );
}

/** The last attack phase in the events the seat may see, with the turn it was in. */
export function lastAttack(events) {
  const phases = attackPhases(events || []);
  return phases.length ? phases[phases.length - 1] : null;
}

export function renderLastAttack(msg) {
  const last = lastAttack(msg.events);
  if (!last) return h("div", { class: "battle last", id: "battle", role: "region", "aria-label": "Battle", tabindex: "0" }, h("h2", {}, "No battles yet"), h("p", {}, "Attacks and their results will be shown here."));
  const turn = last.turn !== null ? `turn ${last.turn} (${cap(last.player)})` : cap(last.player);
  return h(
    "div",
    { class: "battle last", id: "battle", role: "region", "aria-label": "Battle", tabindex: "0" },
    h("h2", {}, `Last attack: ${turn}`),
    h(
      "ul",
      { class: "battle-lines" },
      last.events.map((e) => h("li", { class: HIT_EVENTS.has(e.type) ? "hit" : "", "data-type": e.type, "data-seq": e.seq }, eventText(e))),
    ),
  );
}
