"""Which build of the engine is running: ``"compiled"`` (mypyc extension modules, built by
``setup.py`` when a C compiler and mypyc are found) or ``"pure"`` (the Python source).

The Python source is the one source of truth either way: the compiled modules are built from
it, and ``REBELSPACE_PURE=1`` at install time (or no compiler) gives the pure build. The two
play the same games from the same seeds (tests/compiled/).
"""

from __future__ import annotations

import importlib
from importlib.machinery import EXTENSION_SUFFIXES

#: The module whose file says which build this is: the engine's core is always among the
#: compiled modules when anything is compiled (setup.py).
PROBE = "rebelspace.engine.state"


def is_compiled(module: str = PROBE) -> bool:
    """Whether ``module`` was loaded from an extension module (a mypyc build)."""
    path = getattr(importlib.import_module(module), "__file__", None) or ""
    return path.endswith(tuple(EXTENSION_SUFFIXES))


def build_kind() -> str:
    """``"compiled"`` or ``"pure"``, as ``rebelspace bench`` prints it."""
    return "compiled" if is_compiled() else "pure"
