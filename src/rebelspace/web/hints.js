// @ts-check
// Hints and analyses in plain words, from the numbers the server sends (docs/protocol.md,
// "Hints" and "Analysis"): the client never computes a battle or a chance itself.

export const pct = (p) => `${Math.round(100 * p)}%`;

/** The battle a hinted move shapes, from the side of the seat that asked. */
export function battleWords(b) {
  const mine = b.you_attack ? b.attack : b.defense;
  const theirs = b.you_attack ? b.defense : b.attack;
  const youWin = b.winner === (b.you_attack ? "attacker" : "defender");
  const result = b.winner === "both" ? "a tie, both lose" : youWin ? "you win the battle" : "you lose the battle";
  return `Battle of group ${b.group}: your ${mine} against their ${theirs}, ${result} as the cards stand.`;
}

// Why a hint recommends what it does, when its estimates alone do not say it (protocol.md).
const REASONS = {
  deploy_over_done: "'Done deploying' scored a little higher, by less than the search's noise: with points and units to deploy, deploy.",
  done_clearly_best: "Keeping your points scored clearly higher than any deployment.",
};

/** The hint in one line: the move, its chance, the battle it shapes and the damage race. */
export function hintLine(hint) {
  const best = hint.best;
  if (hint.forced) return `Hint: "${best.text}" is your only choice.`;
  const chance = best.win !== null ? ` (${pct(best.win)} to win)` : "";
  const r = hint.race;
  const race = `Race: your deck lasts about ${r.your_turns.toFixed(1)} turns, theirs ${r.their_turns.toFixed(1)}.`;
  return [`Hint: ${best.text}${chance}.`, REASONS[hint.reason] || null, hint.battle ? battleWords(hint.battle) : null, race].filter(Boolean).join(" ");
}

/** One analysed decision: its step, the move, the chance before and after, the verdict. */
export function decisionLine(d) {
  const better = d.alternative ? `; better: ${d.alternative.text}` : "";
  return `Step ${d.ply + 1}, turn ${d.turn}: ${d.played.text}: ${pct(d.before)} → ${pct(d.after)} (${d.verdict})${better}`;
}

/** The thresholds in words, as the analysis names them. */
export function thresholdLine(thresholds) {
  const t = (k) => Math.round(100 * thresholds[k]);
  return `Win chance lost against the computer's choice: ${t("inaccuracy")} points is an inaccuracy, ${t("mistake")} a mistake, ${t("blunder")} a blunder (estimates from that player's view only).`;
}
