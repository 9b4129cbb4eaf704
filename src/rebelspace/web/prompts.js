// @ts-check
// Plain words for what is happening and what the player may do now.
import { cap } from "./text.js";


const PHASE = {
  draw: "Draw phase",
  attack: "Attack phase",
  deploy: "Deploy phase",
  end: "End phase",
};

export function phaseLine(view) {
  // After the end there is no one's turn or phase to name: the turn it ended on and who won.
  if (view.phase === "over") return `Turn ${view.turn} · ${view.winner ? `${cap(view.winner)} won` : "the game is over"}`;
  const step = view.step !== view.phase ? ` (${view.step})` : "";
  return `Turn ${view.turn} · ${cap(view.active_player)}'s turn · ${PHASE[view.phase] || view.phase}${step}`;
}

/** "Draw 1 or 2 cards", from the draws the rules allow now (the legal actions' counts). */
function drawWords(actions) {
  const counts = actions.filter((a) => a.kind === "draw").map((a) => a.n).sort((x, y) => x - y);
  if (!counts.length) return "Draw cards";
  const most = counts[counts.length - 1];
  const how = counts.length === 1 ? `${most}` : `${counts.slice(0, -1).join(", ")} or ${most}`;
  return `Draw ${how} card${most === 1 ? "" : "s"}`;
}

/** What the seat to move is asked to do, in a sentence or two. */
export function promptFor(view, actions, rules = null) {
  const has = (kind) => actions.some((a) => a.kind === kind);
  const battle = view.battle;
  switch (view.step) {
    case "draw":
      return {
        title: "Draw cards",
        detail: `${drawWords(actions)} from your deck. Remember: the player whose deck runs out loses.`,
      };
    case "form groups":
      if (!battle || !battle.groups.length)
        return {
          title: "Attack?",
          detail:
            "Click one of your glowing active units to start a battle group, or choose \"Don't attack\". Ground groups hold ground units and heroes; space groups hold space units, and heroes only as Pilots (one per Fighter) or Captains (one per Ship).",
        };
      return {
        title: "Choose units to attack with",
        detail: "Click more units to add them to a group or start another group. Press \"Attack!\" when your groups are ready.",
      };
    case "ion cannon":
      return {
        title: "Fire the Ion Cannon?",
        detail: "Your Ion Cannon may destroy one attacking Ship: click the Ship in the battle panel, or hold fire.",
      };
    case "block":
      return {
        title: "Your opponent is attacking: block with your units",
        detail:
          "Click an attacking group in the battle panel, then your glowing active units to block it (ground blocks ground, space blocks space). Groups you let through damage your deck. Press \"Done blocking\" when ready.",
      };
    case "target":
      return {
        title: "Choose targets",
        detail:
          "An unblocked group may attack one enemy unit instead of damaging the deck: click your group in the battle panel, then a glowing enemy unit. Press \"Done targeting\" to let the rest deal damage.",
      };
    case "battle tricks":
      return {
        title: "Battle cards",
        detail: has("play_trick") || has("play_psion")
          ? "You may play a battle card from your hand (glowing), or pass."
          : "You have no battle card to play: press Pass.",
      };
    case "casualties": {
      const budget = battle ? battle.casualty_budget : "?";
      return {
        title: "Pick casualties",
        detail: `You lost this battle, but the winners lose units too: click units of the winning group (glowing) to destroy them. Points left to pick: ${budget}. Heroes go last.`,
      };
    }
    case "deploy":
      return {
        title: `Deploy cards: ${view.deploy_points} point${view.deploy_points === 1 ? "" : "s"} left`,
        detail:
          "Click glowing cards in your hand to put them into play (they start in your Inactive Zone). Items and companions attach to one of your heroes. Press \"Done deploying\" when finished.",
      };
    case "end":
      return {
        title: "End phase",
        detail: has("play_end") || has("play_end_on")
          ? "You may play end-phase cards from your hand (glowing), then end your turn."
          : "Nothing more to do this turn: press \"End turn\".",
      };
    case "discard":
      return {
        title: "Too many cards in hand",
        // The game's own hand limit (the message's rules: `serve --rule hand_limit=6` says 6).
        detail: rules
          ? `You may keep at most ${rules.hand_limit} card${rules.hand_limit === 1 ? "" : "s"}: click cards in your hand to discard (${view.you.hand_size} now).`
          : `You hold more cards than the hand limit: click cards in your hand to discard (${view.you.hand_size} now).`,
      };
    default:
      return { title: "Your decision", detail: "" };
  }
}

/** What the other side is doing while this seat waits. */
export function waitingLine(view, seats) {
  if (view.to_move === null) return "";
  const who = cap(view.to_move);
  const kind = seats && seats[view.to_move] ? seats[view.to_move].kind : "human";
  const actor = kind === "computer" ? `The computer (${who})` : `${who}`;
  const doing = {
    draw: "is drawing",
    "form groups": "is choosing units to attack with",
    "ion cannon": "is deciding whether to fire the Ion Cannon",
    block: "is choosing blockers",
    target: "is choosing targets",
    "battle tricks": "may play a battle card",
    casualties: "is picking casualties",
    deploy: "is deploying",
    end: "is finishing the turn",
    discard: "is discarding",
  }[view.step];
  return `${actor} ${doing || "is thinking"}…`;
}
