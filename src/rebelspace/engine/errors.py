"""Typed errors the engine raises for bad input.

Each derives from ``ValueError`` as well as ``RebelSpaceError`` so that callers can catch
either the project's own base class or the conventional built-in one (as python-chess does
with ``IllegalMoveError``). Messages name the offending input and the situation.
"""

from __future__ import annotations

import json
import os
from typing import Any


class RebelSpaceError(Exception):
    """Base of all errors the engine raises for bad input."""


class CardDataError(RebelSpaceError, ValueError):
    """A card file or card data row is malformed (the message names file, card and field)."""


class ActionError(RebelSpaceError, ValueError):
    """Base of the two ways an action can be refused; catch it to refuse either."""


class InvalidActionError(ActionError):
    """Not an action of this game at all: unknown text, an id outside the action space, an
    Action of another game's action space, or a value of the wrong type (python-chess's
    ``InvalidMoveError``)."""


class IllegalActionError(ActionError):
    """An action of the game that is not legal now: not this player's decision, the game is
    over, or the rules forbid it in this position (python-chess's ``IllegalMoveError``)."""


class ScenarioError(RebelSpaceError, ValueError):
    """A scenario description is malformed or inconsistent."""


class RecordError(RebelSpaceError, ValueError):
    """A game record is malformed or does not replay."""


def read_json(path: str | os.PathLike[str], error: type[RebelSpaceError], what: str) -> Any:
    """Read a JSON file; any failure becomes ``error`` with a message naming the file."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise error(f"{path}: cannot read the {what}: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise error(f"{path}: not valid JSON: {e}") from None
    except UnicodeDecodeError as e:
        raise error(f"{path}: not UTF-8 text: {e.reason} at byte {e.start}") from None


# Here and not in cards.py, where it is raised: mypyc cannot compile a class derived from a
# built-in exception such as KeyError (setup.py compiles cards.py and leaves this module as
# Python). cards.py imports it, so ``cards.UnknownCardError`` is the same class as before.
class UnknownCardError(KeyError):
    """Raised by :meth:`CardDB.by_name` for a name not in the database.

    A ``KeyError`` (it is a failed lookup), with a readable message that suggests near names.
    """

    def __str__(self) -> str:
        # KeyError's default __str__ quotes the message as a repr; show it as written.
        return str(self.args[0]) if self.args else ""
