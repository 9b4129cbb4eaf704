"""How much the terminal game prints for whole games (issue 32: "too much scrolls past").

    PYTHONPATH=src python benchmarks/terminal_lines.py --seeds 1-10 --opponent heuristic

Each game is played through ``TerminalGame`` at 80 columns, the person answering the engine's
first legal action by its text at every question (so any version of the game, before or after
a change, plays the same moves), no analysis at the end. Prints, per game and in all, the
turns and the lines printed, and lines a turn. Run it with another source tree first on
PYTHONPATH to compare versions with the same seeds and opponent.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics

from rebelspace.engine import REBEL, new_game
from rebelspace.terminal import Opponent, TerminalGame, make_console


def seeds(text: str) -> list[int]:
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def lines_of_a_game(seed: int, opponent: str) -> tuple[int, int]:
    """The turns of game ``seed`` and the lines it printed."""
    game = new_game(seed)
    screen = io.StringIO()
    console = make_console()
    console.file = screen
    console.width = 80
    terminal = TerminalGame(
        game, REBEL, Opponent(opponent, "normal", seed), console=console, offer_analysis=False
    )

    def first(_prompt: str) -> str:
        if terminal.game.is_over or terminal.game.to_move != REBEL:
            return "yes"  # a yes-or-no question (none is asked when answering so)
        return terminal.game.legal_action_texts()[0]

    terminal.read = first
    terminal.play()
    return terminal.game.turn, screen.getvalue().count("\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1-10", help="game seeds, FIRST-LAST (default 1-10)")
    parser.add_argument("--opponent", default="heuristic", help="random or heuristic")
    args = parser.parse_args()
    rows = []
    for seed in seeds(args.seeds):
        turns, lines = lines_of_a_game(seed, args.opponent)
        rows.append({"seed": seed, "turns": turns, "lines": lines})
        print(f"seed {seed}: {turns} turns, {lines} lines, {lines / turns:.1f} a turn")
    per_turn = [r["lines"] / r["turns"] for r in rows]
    summary = {
        "games": len(rows),
        "opponent": args.opponent,
        "lines": sum(r["lines"] for r in rows),
        "turns": sum(r["turns"] for r in rows),
        "lines_per_turn_mean": round(statistics.mean(per_turn), 1),
        "lines_per_turn_stdev": round(statistics.stdev(per_turn), 1) if len(rows) > 1 else 0,
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
