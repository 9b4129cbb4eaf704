"""The ``rebelspace`` command.

Each subcommand is one pair of functions: ``_add_<name>(subparsers)`` declares its arguments and
``_cmd_<name>(args) -> int`` runs it. They are listed once in ``SUBCOMMANDS``, so adding a
command is adding one entry there. Commands print to stdout, report bad input to stderr and
return an exit status (0 success, 2 bad input), so ``main`` is easy to test with ``capsys``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from rebelspace import __version__
from rebelspace.engine.cards import deck_report, load_cards
from rebelspace.engine.errors import CardDataError

EXIT_OK = 0
EXIT_BAD_INPUT = 2

Handler = Callable[[argparse.Namespace], int]
Registrar = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]


# --- decks -------------------------------------------------------------------------------------


def _add_decks(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "decks",
        help="validate the card lists and show both decks (R1)",
        description="Load and validate the card lists, print both decks and their sizes "
        "against the 65 cards the rule sheet states (R1).",
    )
    p.add_argument("--cards", metavar="FILE", help="card file (default: the packaged lists)")
    p.set_defaults(handler=_cmd_decks)


def _cmd_decks(args: argparse.Namespace) -> int:
    try:
        db = load_cards(args.cards)
    except CardDataError as exc:
        print(f"rebelspace decks: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    sys.stdout.write(deck_report(db))
    return EXIT_OK


# --- play --------------------------------------------------------------------------------------
# LEAD: register `play` here (interactive game against an agent / hot-seat).

# --- simulate ----------------------------------------------------------------------------------
# LEAD: register `simulate` here (agent-vs-agent arena, balance lab).

# --- bench -------------------------------------------------------------------------------------
# LEAD: register `bench` here (`bench --json` is used by `make bench`).

# --- replay ------------------------------------------------------------------------------------
# LEAD: register `replay` here (replay a JSON game record).

# --- scenario ----------------------------------------------------------------------------------
# LEAD: register `scenario` here (load and play out a scenario file).


#: Subcommands in help order: name -> function that adds its parser and sets ``handler``.
SUBCOMMANDS: dict[str, Registrar] = {
    "decks": _add_decks,
    # LEAD: "play": _add_play, "simulate": _add_simulate, "bench": _add_bench,
    # "replay": _add_replay, "scenario": _add_scenario,
}


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every registered subcommand."""
    parser = argparse.ArgumentParser(
        prog="rebelspace", description="Rebel Space: a two-player sci-fi card game."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for register in SUBCOMMANDS.values():
        register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``rebelspace`` console script; returns the exit status."""
    args = build_parser().parse_args(argv)
    handler: Handler = args.handler
    return handler(args)


if __name__ == "__main__":
    sys.exit(main())
