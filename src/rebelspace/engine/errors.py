"""Typed errors the engine raises for bad input.

Each derives from ``ValueError`` as well as ``RebelSpaceError`` so that callers can catch
either the project's own base class or the conventional built-in one (as python-chess does
with ``IllegalMoveError``). Messages name the offending input and the situation.
"""

from __future__ import annotations


class RebelSpaceError(Exception):
    """Base of all errors the engine raises for bad input."""


class CardDataError(RebelSpaceError, ValueError):
    """A card file or card data row is malformed (the message names file, card and field)."""


class IllegalActionError(RebelSpaceError, ValueError):
    """An action that is not legal in the current state."""


class ScenarioError(RebelSpaceError, ValueError):
    """A scenario description is malformed or inconsistent."""


class RecordError(RebelSpaceError, ValueError):
    """A game record is malformed or does not replay."""
