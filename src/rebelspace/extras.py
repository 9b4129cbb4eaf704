"""The package's optional parts (the extras of pyproject.toml) and the one line that says how to
install a missing one.

The core (the engine, the agents, the terminal game, ``simulate``, ``bench``, ``replay``,
``scenario``, ``rules``, ``decks``, ``arena``) needs nothing from here. The extras:

- ``server``: ``rebelspace serve`` and ``loadtest``, ``rebelspace.server.app``;
- ``lab``: the balance lab's commands (plots, progress bars), ``rebelspace.lab.plots``;
- ``rl``: ``rebelspace.env`` and the agents ``openspiel-ismcts`` and ``policy:PATH``;
- ``ray``: ``rebelspace balance --ray`` (and the other lab commands' ``--ray``).

A command checks with :func:`require` before it starts; a module whose imports need an extra
turns the import's failure into the same error with :func:`raise_missing`. Either way the error
is a :class:`MissingExtraError` (a ``ModuleNotFoundError``) whose message is one line, for
example ``rebelspace serve needs the server extra (missing: fastapi): pip install
'rebelspace[server]'``; ``rebelspace.cli.main`` prints it and exits 2.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable
from typing import NoReturn

__all__ = [
    "EXTRAS",
    "MissingExtraError",
    "extra_of",
    "hint",
    "missing",
    "raise_missing",
    "require",
]

#: Extra -> the top-level modules it provides (what ``import`` names, not the pip names).
EXTRAS: dict[str, tuple[str, ...]] = {
    "server": (
        "fastapi",
        "starlette",
        "pydantic",
        "uvicorn",
        "websockets",
        "markdown_it",
        "psycopg",
        "psycopg_pool",
    ),
    "lab": ("matplotlib", "tqdm", "scipy"),
    "rl": (
        "numpy",
        "gymnasium",
        "pettingzoo",
        "pyspiel",
        "open_spiel",
        "stable_baselines3",
        "sb3_contrib",
        "torch",
    ),
    "ray": ("ray",),
}


class MissingExtraError(ModuleNotFoundError):
    """Something needs an extra that is not installed; the message is the one-line hint."""


def missing(extra: str, modules: Iterable[str] | None = None) -> list[str]:
    """The modules of ``extra`` (or just ``modules``) that cannot be imported, in order.

    Found without importing them (``importlib.util.find_spec``), so asking is cheap.
    """
    return [m for m in (EXTRAS[extra] if modules is None else modules) if not _found(m)]


def _found(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a broken or half-installed package
        return False


def hint(extra: str, what: str, absent: Iterable[str]) -> str:
    """``{what} needs the {extra} extra (missing: a, b): pip install 'rebelspace[{extra}]'``."""
    names = ", ".join(absent)
    because = f" (missing: {names})" if names else ""
    return f"{what} needs the {extra} extra{because}: pip install 'rebelspace[{extra}]'"


def require(extra: str, what: str, modules: Iterable[str] | None = None) -> None:
    """Raise :class:`MissingExtraError` unless every module of ``extra`` (or of ``modules``)
    can be imported. ``what`` names what needs them: ``"rebelspace serve"``, ``"the policy
    agent"``."""
    absent = missing(extra, modules)
    if absent:
        raise MissingExtraError(hint(extra, what, absent), name=absent[0])


def extra_of(module: str | None) -> str | None:
    """The extra that provides ``module`` (or the package it is part of), or None."""
    top = (module or "").partition(".")[0]
    return next((extra for extra, modules in EXTRAS.items() if top in modules), None)


def raise_missing(what: str, error: ModuleNotFoundError) -> NoReturn:
    """Re-raise ``error`` (an import that ``what`` needs failed) as :class:`MissingExtraError`
    when the missing module belongs to an extra; a missing module of no extra is a real bug:
    ``error`` itself, unchanged.

    For modules whose imports need an extra::

        try:
            from fastapi import FastAPI
        except ModuleNotFoundError as e:
            raise_missing("rebelspace.server.app", e)
    """
    if isinstance(error, MissingExtraError):
        raise error
    extra = extra_of(error.name)
    if extra is None:
        raise error
    top = (error.name or extra).partition(".")[0]
    raise MissingExtraError(hint(extra, what, [top]), name=top) from None
