"""What every ``rebelspace`` subcommand shares: exit codes, argument types, the ``--cards`` and
``--rule`` arguments, and the one-line error on stderr.

The main command (``rebelspace.cli``), the balance lab's commands (``rebelspace.lab.cli``) and
the server's (``rebelspace.server.serve``) all import from here, so none of them imports
another to borrow its conventions (issue 14: the cycle cli -> lab.cli -> cli is gone). This
module imports only the engine.
"""

from __future__ import annotations

import argparse
import sys

from rebelspace.engine import CardDB, RulesOptions, load_cards

EXIT_OK = 0
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130  # as a shell reports a command stopped by Ctrl-C (128 + SIGINT)


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def port_number(text: str) -> int:
    """An argparse type: a TCP port, 1 to 65535 (a port beyond it used to make ``serve``
    hang instead of saying so)."""
    value = positive_int(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"must be a port from 1 to 65535, got {value}")
    return value


def positive_float(text: str) -> float:
    """An argparse type: a number above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, got {text}")
    return value


def share(text: str) -> float:
    """An argparse type: a share from 0 up to, but not including, 1 (a held-out share: all of
    the games held out would leave none to fit)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
    if not 0.0 <= value < 1.0:
        raise argparse.ArgumentTypeError(f"must be in [0, 1), got {text}")
    return value


def add_cards_arg(p: argparse.ArgumentParser) -> None:
    """``--cards FILE``: read with ``cards_from``."""
    p.add_argument("--cards", metavar="FILE", help="card file (default: the packaged lists)")


def add_workers_arg(p: argparse.ArgumentParser) -> None:
    """``--workers N``: processes for a command that plays many games (default: every core)."""
    p.add_argument("--workers", type=positive_int, help="processes (default: every core)")


def add_json_arg(p: argparse.ArgumentParser, what: str) -> None:
    """``--json``: print ``what`` ("the results") as JSON instead of as text."""
    p.add_argument("--json", action="store_true", help=f"print {what} as JSON")


def add_game_args(p: argparse.ArgumentParser) -> None:
    """``--cards FILE`` and repeatable ``--rule NAME=VALUE`` (RulesOptions fields)."""
    add_cards_arg(p)
    p.add_argument(
        "--rule",
        metavar="NAME=VALUE",
        action="append",
        default=[],
        help="a rules option, e.g. tie=defender or hand_limit=10 (repeatable); "
        f"options: {', '.join(RulesOptions().to_dict())}",
    )


def cards_from(args: argparse.Namespace) -> CardDB | None:
    """The ``--cards`` file loaded, or None for the packaged lists. Raises CardDataError."""
    return load_cards(args.cards) if args.cards is not None else None


def rules_from(args: argparse.Namespace) -> RulesOptions:
    """The defaults with each ``--rule`` applied in order. Raises OptionsError."""
    options = RulesOptions()
    for setting in args.rule:
        options = options.with_setting(setting)
    return options


def fail(command: str, message: object) -> int:
    """Print ``rebelspace COMMAND: message`` on stderr; returns ``EXIT_BAD_INPUT``."""
    print(f"rebelspace {command}: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT
