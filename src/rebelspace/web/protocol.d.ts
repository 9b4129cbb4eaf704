// Over 500 lines: generated from docs/protocol.schema.json by tests/web/js/protocol-types.mjs
// (`make protocol-types`); never edited by hand. tests/web/test_protocol_types.py checks it is
// up to date.

/**
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "side".
 */
export type Side = "rebel" | "imperial";
/**
 * a card's name, as in GET /api/cards
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "card".
 */
export type Card = string;
/**
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "cards".
 */
export type Cards = Card[];
export type Active = Unit[];
export type Inactive = Unit[];
/**
 * in the order discarded, top last
 */
export type Cards1 = Card[];
/**
 * sorted: never in deck order (R5)
 */
export type Cards2 = Card[];
/**
 * 1-based, as in action texts
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "group_number".
 */
export type GroupNumber = number;
/**
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "group_kind".
 */
export type GroupKind = "ground" | "space";
/**
 * R27: [turn, the other hand then] per spy played
 */
export type RevealedHands = never[][];
/**
 * rendered lines of the seat's events, for people: in a state message, one line per event of its events, in the same order (the lines of the events before events_from are not sent again)
 */
export type Log = string[];
/**
 * in the order discarded, top last
 */
export type Discard = Card[];
/**
 * sorted: never in deck order (R5)
 */
export type OwnDeckContents = Card[];
/**
 * One event: the sub-schema is chosen by type (docs/protocol.md, Events).
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event".
 */
export type Event = {
  type:
    | "scenario_started"
    | "turn_started"
    | "starting_hand"
    | "drew"
    | "cards_seen"
    | "no_attacker"
    | "no_attack"
    | "group_formed"
    | "unit_added"
    | "attacked"
    | "ion_cannon_fired"
    | "blocked"
    | "targeted"
    | "trick_played"
    | "psion_played"
    | "got_through"
    | "battle_resolved"
    | "casualty_picked"
    | "damage_dealt"
    | "extra_attack_phase"
    | "deployed"
    | "attached"
    | "spies_played"
    | "control_taken"
    | "sabotaged"
    | "hero_taken"
    | "hand_limit_discard"
    | "game_over";
};
/**
 * the event's index in this seat's event stream, from 0
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "seq".
 */
export type Seq = number;
/**
 * in the order discarded
 */
export type Cards3 = Card[];

/**
 * The server's state message (docs/protocol.md, 'The state message'): the answer of the REST game calls and the WebSocket's main push. Every field is documented there; a new field must be added here and there.
 */
export interface RebelSpaceStateMessage {
  type: "state";
  game_id: string;
  mode: "computer" | "hotseat" | "online";
  /**
   * null: a spectator
   */
  seat: Side | null;
  seats?: {
    rebel: {
      kind: "human" | "computer";
      connected: boolean;
      taken: boolean;
    };
    imperial: {
      kind: "human" | "computer";
      connected: boolean;
      taken: boolean;
    };
  };
  /**
   * the game's changes so far (actions and undos); it never goes down. A request names the version it was chosen at
   */
  version: number;
  /**
   * the number of actions applied so far (an undo makes it smaller)
   */
  plies: number;
  /**
   * the seat's view: whole, or in a delta only the parts that changed (view_changes)
   */
  view: View | ViewChanges;
  /**
   * only in a WebSocket push after the connection's first state message: the message leaves out the fields of seats, undo, result, clock, claim, rematch, rules and forecast equal to those of the previous state message on this connection, and its view the parts equal to that message's (view_changes); the client puts them back from the message it holds
   */
  delta?: true;
  /**
   * the seat's legal actions (empty unless it is its decision); sent here only, not in the view
   */
  legal: Action[];
  undo?: {
    pending_from: Side | null;
    allowed: boolean;
  };
  over: boolean;
  winner: Side | null;
  /**
   * the seq of the first event in events: the client keeps the events it holds with a lower seq, drops any others (an undo cut the stream) and appends these; 0: the whole stream
   */
  events_from: number;
  /**
   * the events the seat may see (R5), in order, from seq events_from on: the ones the client does not hold yet
   */
  events: Event[];
  /**
   * online game, creator's seat, while the other seat is open
   */
  invite?: string;
  result?: Result | null;
  clock?: Clock | null;
  claim?: Claim | null;
  rematch?: Rematch | null;
  rules?: Rules;
  forecast?: Forecast[] | null;
  /**
   * the playback's frames: for each of the newest plies (at most 16, applied since the server loaded the game) that added events to this seat's stream from events_from on, the seat's own view after it (R5) and its forecast
   */
  steps: {
    ply: number;
    /**
     * the stream's length after the ply: event seq belongs to the first step whose events_to is larger
     */
    events_to: number;
    /**
     * null for the newest ply's step: its view is the message's own view
     */
    view: View | null;
    /**
     * null when the battle has no group, and for the newest ply's step (the message's own forecast)
     */
    forecast: Forecast[] | null;
  }[];
}
/**
 * PlayerView.to_dict() (src/rebelspace/engine/views.py): what R5 lets the seat know.
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "view".
 */
export interface View {
  player: "rebel" | "imperial" | "spectator";
  turn: number;
  active_player: Side;
  to_move: Side | null;
  phase: "draw" | "attack" | "deploy" | "end" | "over";
  step:
    | "draw"
    | "form groups"
    | "ion cannon"
    | "block"
    | "target"
    | "battle tricks"
    | "casualties"
    | "deploy"
    | "end"
    | "discard"
    | "game over";
  deploy_points: number | null;
  you: SideView;
  opponent: SideView;
  own_deck_contents: Cards2;
  opponent_known_hand: Cards;
  extra_attacks: number;
  battle: Battle | null;
  revealed_hands: RevealedHands;
  log: Log;
  winner: Side | null;
  end_reason: string | null;
}
/**
 * One player's public cards, and the seat's own hand (views.py SideView).
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "side_view".
 */
export interface SideView {
  player: Side;
  deck_size: number;
  hand_size: number;
  /**
   * sorted; null for a hand the seat may not see (R5)
   */
  hand: Cards | null;
  active: Active;
  inactive: Inactive;
  discard: Cards1;
}
/**
 * A unit in play with its current ratings (views.py UnitView).
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "unit".
 */
export interface Unit {
  name: Card;
  /**
   * the card's side; a converted hero is controlled by the other side (R28)
   */
  owner: "rebel" | "imperial";
  attachments: Cards;
  /**
   * current Ground rating (R13, R30 while it fights)
   */
  ground: number;
  /**
   * current Space rating
   */
  space: number;
  /**
   * current Damage rating
   */
  damage: number;
  /**
   * which copy of its card it is on its side, from 1: the Active Zone, then the Inactive Zone, in view order
   */
  copy: number;
}
/**
 * The attack phase in progress (views.py BattleView).
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "battle".
 */
export interface Battle {
  groups: BattleGroup[];
  attack_bonus: number;
  defense_bonus: number;
  /**
   * [psion card, hero] pairs
   */
  psion_cards: never[][];
  casualty_budget: number | null;
  casualty_group: GroupNumber | null;
  casualty_from: ("attacker" | "defender") | null;
  passes: number;
  ion_cannons_fired: number;
  next_battle: GroupNumber;
  pending_damage: number;
}
/**
 * An attacking group (views.py GroupView).
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "battle_group".
 */
export interface BattleGroup {
  number: GroupNumber;
  kind: GroupKind;
  units: Unit[];
  blockers: Unit[];
  target: Unit | null;
  target_zone: ("active" | "inactive") | null;
  result: ("attacker won" | "defender won" | "both destroyed") | null;
  /**
   * R13, R30: the group's battle value now
   */
  attack_value: number;
  /**
   * its blockers' or target's battle value; null while it has neither
   */
  defense_value: number | null;
  /**
   * R20: the damage it deals if it stays unblocked and untargeting, after Defense Shields; null once blocked, targeting or empty
   */
  damage: number | null;
  /**
   * what Defense Shields take from its Ships' damage
   */
  stopped: number;
  /**
   * R12: a space group's places for heroes (a Pilot in a Fighter's place, a Captain in a Ship's) and the heroes aboard; null for a ground group
   */
  hero_places: {
    fighters: number;
    ships: number;
    heroes: number;
  } | null;
}
/**
 * The parts of the view that changed since the view the client holds (a WebSocket's previous state message; docs/protocol.md, 'What a message carries'): a part left out is that view's. The log is always sent.
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "view_changes".
 */
export interface ViewChanges {
  player?: "rebel" | "imperial" | "spectator";
  turn?: number;
  active_player?: Side;
  to_move?: Side | null;
  phase?: "draw" | "attack" | "deploy" | "end" | "over";
  step?:
    | "draw"
    | "form groups"
    | "ion cannon"
    | "block"
    | "target"
    | "battle tricks"
    | "casualties"
    | "deploy"
    | "end"
    | "discard"
    | "game over";
  deploy_points?: number | null;
  you?: SideViewChanges;
  opponent?: SideViewChanges;
  own_deck_contents?: OwnDeckContents;
  opponent_known_hand?: Cards;
  extra_attacks?: number;
  battle?: Battle | null;
  revealed_hands?: RevealedHands;
  log: Log;
  winner?: Side | null;
  end_reason?: string | null;
}
/**
 * The parts of a side_view that changed (see view_changes); a part left out is that of the side_view the client holds.
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "side_view_changes".
 */
export interface SideViewChanges {
  player?: Side;
  deck_size?: number;
  hand_size?: number;
  /**
   * sorted; null for a hand the seat may not see (R5)
   */
  hand?: Cards | null;
  active?: Active;
  inactive?: Inactive;
  discard?: Discard;
}
/**
 * A legal action as structured fields (views.py ActionView).
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "action".
 */
export interface Action {
  /**
   * the action's id: send it (or text) to act
   */
  id: number;
  kind:
    | "draw"
    | "no_attack"
    | "attack"
    | "form_ground"
    | "form_space"
    | "add"
    | "ion"
    | "ion_hold"
    | "block"
    | "done_blocking"
    | "target"
    | "done_targeting"
    | "play_trick"
    | "play_psion"
    | "pass"
    | "pick"
    | "deploy"
    | "attach"
    | "done_deploying"
    | "play_end"
    | "play_end_on"
    | "end_turn"
    | "discard";
  card: Card | null;
  group: GroupNumber | null;
  target: Card | null;
  zone: ("active" | "inactive") | null;
  /**
   * draw only: how many cards
   */
  n: number | null;
  /**
   * for people and logs only: clients never parse it
   */
  text: string;
  /**
   * the copy of a copied hero the action names (the unit's copy), else null
   */
  copy: number | null;
}
/**
 * how the game ended; null while it goes on (docs/protocol.md, 'Results, resign, claims, clocks and rematches')
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "result".
 */
export interface Result {
  winner: Side | null;
  reason: "rules" | "resign" | "time" | "abandoned";
}
/**
 * an online game's clocks, as at the moment the message was made
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "clock".
 */
export interface Clock {
  initial_s: number;
  increment_s: number;
  rebel_ms: number;
  imperial_ms: number;
  /**
   * whose clock runs now; null: game over or waiting for the second player
   */
  running: Side | null;
}
/**
 * only in a seat's own message: the opponent's seat is taken but not connected (online games without a clock)
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "claim".
 */
export interface Claim {
  available_in_ms: number;
}
/**
 * only once the game is over
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "rematch".
 */
export interface Rematch {
  offered_by: Side | null;
  game_id: string | null;
}
/**
 * the game's rules options (RulesOptions, docs/rules.md "Rules options")
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "rules".
 */
export interface Rules {
  tie: "both" | "attacker" | "defender";
  hand_limit: number;
  deploy_points: number;
  starting_hand: number;
  draw_min: number;
  draw_max: number;
  target_inactive: boolean;
  max_groups: number;
  first_player: Side;
}
/**
 * one battle group's forecast in words, from the seat's side (server/forecast.py)
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "forecast".
 */
export interface Forecast {
  group: GroupNumber;
  outcome: "attacker" | "defender" | "both" | "unblocked" | "none";
  fought: boolean;
  text: string;
}
/**
 * A position set up from a scenario file (tests, tools).
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_scenario_started".
 */
export interface EventScenarioStarted {
  type: "scenario_started";
  seq: Seq;
  turn: number;
  /**
   * whose turn it is
   */
  player: "rebel" | "imperial";
  phase: "draw" | "attack" | "deploy" | "end";
}
/**
 * A new turn begins.
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_turn_started".
 */
export interface EventTurnStarted {
  type: "turn_started";
  seq: Seq;
  turn: number;
  player: Side;
  /**
   * both deck sizes at the start of the turn
   */
  decks: {
    rebel: number;
    imperial: number;
  };
}
/**
 * R6: a player drew the starting hand (the cards: cards_seen, to that player only).
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_starting_hand".
 */
export interface EventStartingHand {
  type: "starting_hand";
  seq: Seq;
  player: Side;
  n: number;
}
/**
 * R8: a player drew n cards (the cards: cards_seen, to that player only).
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_drew".
 */
export interface EventDrew {
  type: "drew";
  seq: Seq;
  player: Side;
  n: number;
}
/**
 * Private: hidden cards shown to one player, its own draw or starting hand, or the other hand by a spy (R27).
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_cards_seen".
 */
export interface EventCardsSeen {
  type: "cards_seen";
  seq: Seq;
  /**
   * the only player who gets this event
   */
  to: "rebel" | "imperial";
  /**
   * whose cards
   */
  owner: "rebel" | "imperial";
  cards: Cards;
  source: "starting_hand" | "draw" | "spies";
}
/**
 * R11: the attack phase is skipped: no active unit of the player may attack.
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_no_attacker".
 */
export interface EventNoAttacker {
  type: "no_attacker";
  seq: Seq;
  player: Side;
}
/**
 * The player chose not to attack.
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_no_attack".
 */
export interface EventNoAttack {
  type: "no_attack";
  seq: Seq;
  player: Side;
}
/**
 * R12: a new attacking group with its first unit.
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_group_formed".
 */
export interface EventGroupFormed {
  type: "group_formed";
  seq: Seq;
  player: Side;
  group: GroupNumber;
  kind: GroupKind;
  card: Card;
}
/**
 * R12: a unit joined an attacking group.
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_unit_added".
 */
export interface EventUnitAdded {
  type: "unit_added";
  seq: Seq;
  player: Side;
  group: GroupNumber;
  card: Card;
}
/**
 * R13: the attacker declared a group (one event per group) with its battle value.
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_attacked".
 */
export interface EventAttacked {
  type: "attacked";
  seq: Seq;
  player: Side;
  group: GroupNumber;
  kind: GroupKind;
  units: Cards;
  value: number;
}
/**
 * R14: the defender's Ion Cannon destroyed an attacking Ship.
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_ion_cannon_fired".
 */
export interface EventIonCannonFired {
  type: "ion_cannon_fired";
  seq: Seq;
  /**
   * the defender
   */
  player: "rebel" | "imperial";
  cannon: Card;
  ship: Card;
  group: GroupNumber;
}
/**
 * R15: a defending unit joined the block of an attacking group.
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_blocked".
 */
export interface EventBlocked {
  type: "blocked";
  seq: Seq;
  /**
   * the defender
   */
  player: "rebel" | "imperial";
  group: GroupNumber;
  card: Card;
}
/**
 * R16: an unblocked group targets an opposing unit.
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_targeted".
 */
export interface EventTargeted {
  type: "targeted";
  seq: Seq;
  /**
   * the attacker
   */
  player: "rebel" | "imperial";
  group: GroupNumber;
  card: Card;
  /**
   * the target is in the Inactive Zone
   */
  inactive: boolean;
}
/**
 * R17, R22, R30: Surprise Attack, Trap or Multiple Targets played from the hand.
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_trick_played".
 */
export interface EventTrickPlayed {
  type: "trick_played";
  seq: Seq;
  player: Side;
  card: Card;
}
/**
 * R24: a psion card played from the hand on a Psionic hero in a battle group.
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_psion_played".
 */
export interface EventPsionPlayed {
  type: "psion_played";
  seq: Seq;
  player: Side;
  card: Card;
  hero: Card;
}
/**
 * R20, R33: an unblocked, untargeting group's damage, measured when the battles begin.
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_got_through".
 */
export interface EventGotThrough {
  type: "got_through";
  seq: Seq;
  /**
   * the attacker
   */
  player: "rebel" | "imperial";
  group: GroupNumber;
  /**
   * after Defense Shields
   */
  damage: number;
  /**
   * what Defense Shields took from the group's Ships
   */
  stopped: number;
  /**
   * Defense Shields stood against Ships of this group
   */
  shields: boolean;
  /**
   * each unit whose damage counts
   */
  dealers: {
    card: Card;
    damage: number;
  }[];
}
/**
 * R18: a group fought its blockers or its target; the loser's cards are destroyed.
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_battle_resolved".
 */
export interface EventBattleResolved {
  type: "battle_resolved";
  seq: Seq;
  /**
   * the attacker
   */
  player: "rebel" | "imperial";
  group: GroupNumber;
  kind: GroupKind;
  attackers: Cards;
  attack_value: number;
  defenders: Cards;
  defense_value: number;
  /**
   * false: the defender was the group's target
   */
  blocked: boolean;
  result: "attacker won" | "defender won" | "both destroyed";
}
/**
 * R19: the loser picked a unit of the winning group as a casualty, at its rating in this battle.
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_casualty_picked".
 */
export interface EventCasualtyPicked {
  type: "casualty_picked";
  seq: Seq;
  /**
   * who picked: the battle's loser
   */
  player: "rebel" | "imperial";
  group: GroupNumber;
  card: Card;
  rating: number;
}
/**
 * R20, R21: cards from the top of a deck to its discard pile (public).
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_damage_dealt".
 */
export interface EventDamageDealt {
  type: "damage_dealt";
  seq: Seq;
  /**
   * whose deck
   */
  player: "rebel" | "imperial";
  cards: Cards3;
  /**
   * cards left in that deck
   */
  left: number;
}
/**
 * R22, R36: Multiple Targets gives the attacker another attack phase.
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_extra_attack_phase".
 */
export interface EventExtraAttackPhase {
  type: "extra_attack_phase";
  seq: Seq;
  player: Side;
}
/**
 * R23: a unit from the hand into the Inactive Zone.
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_deployed".
 */
export interface EventDeployed {
  type: "deployed";
  seq: Seq;
  player: Side;
  card: Card;
}
/**
 * R23: an item or companion from the hand attached to a hero.
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_attached".
 */
export interface EventAttached {
  type: "attached";
  seq: Seq;
  player: Side;
  card: Card;
  hero: Card;
}
/**
 * R27: the player looks at the other hand (the cards: cards_seen, to that player only).
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_spies_played".
 */
export interface EventSpiesPlayed {
  type: "spies_played";
  seq: Seq;
  player: Side;
  card: Card;
}
/**
 * R28: Convert or Traitor takes an opposing hero (with its attachments).
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_control_taken".
 */
export interface EventControlTaken {
  type: "control_taken";
  seq: Seq;
  player: Side;
  card: Card;
  hero: Card;
}
/**
 * R29: Saboteur destroys an opposing Facility.
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_sabotaged".
 */
export interface EventSabotaged {
  type: "sabotaged";
  seq: Seq;
  player: Side;
  card: Card;
  unit: Card;
}
/**
 * R26: a search took a hero into the hand, shown to both players.
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_hero_taken".
 */
export interface EventHeroTaken {
  type: "hero_taken";
  seq: Seq;
  player: Side;
  card: Card;
  hero: Card;
  /**
   * true: from the deck, which is then shuffled; false: from the discard pile
   */
  from_deck: boolean;
}
/**
 * R25: a card discarded down to the hand limit.
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_hand_limit_discard".
 */
export interface EventHandLimitDiscard {
  type: "hand_limit_discard";
  seq: Seq;
  player: Side;
  card: Card;
}
/**
 * R9: a deck is empty.
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "event_game_over".
 */
export interface EventGameOver {
  type: "game_over";
  seq: Seq;
  winner: Side;
  reason: "starting_hand" | "last_draw" | "search" | "damage";
  /**
   * the search card that emptied the deck (reason search), else null
   */
  card: Card | null;
}
/**
 * A legal action as the search saw it (docs/protocol.md, 'Hints').
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "advice_choice".
 */
export interface AdviceChoice {
  action: number;
  text: string;
  win: number | null;
  visits: number;
}
/**
 * The answer of GET /api/games/{game_id}/hint (docs/protocol.md, 'Hints').
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "hint_answer".
 */
export interface HintAnswer {
  type: "hint";
  game_id: string;
  version: number;
  hint: {
    player: Side;
    reason: "best_estimate" | "deploy_over_done" | "done_clearly_best" | "forced";
    agent: string;
    best: AdviceChoice;
    /**
     * @maxItems 2
     */
    alternatives: [] | [AdviceChoice] | [AdviceChoice, AdviceChoice];
    battle: {
      group: number;
      kind: "ground" | "space";
      attack: number;
      defense: number;
      winner: "attacker" | "defender" | "both";
      you_attack: boolean;
    } | null;
    race: {
      your_deck: number;
      their_deck: number;
      your_hand: number;
      their_hand: number;
      your_turns: number;
      their_turns: number;
    };
    forced: boolean;
  };
}
/**
 * The answer of GET /api/games/{game_id}/analysis (docs/protocol.md, 'Analysis').
 *
 * This interface was referenced by `RebelSpaceStateMessage`'s JSON-Schema
 * via the `definition` "analysis_answer".
 */
export interface AnalysisAnswer {
  type: "analysis";
  game_id: string;
  analysis: {
    side: Side;
    agent: string;
    winner: Side | null;
    decisions: {
      ply: number;
      turn: number;
      played: AdviceChoice;
      alternative: AdviceChoice | null;
      before: number;
      after: number;
      loss: number;
      verdict: "best" | "good" | "inaccuracy" | "mistake" | "blunder";
    }[];
    thresholds: {
      inaccuracy: number;
      mistake: number;
      blunder: number;
    };
    counts: {
      best: number;
      good: number;
      inaccuracy: number;
      mistake: number;
      blunder: number;
    };
    /**
     * @maxItems 5
     */
    worst:
      | []
      | [number]
      | [number, number]
      | [number, number, number]
      | [number, number, number, number]
      | [number, number, number, number, number];
  };
}
