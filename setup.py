"""Builds the compiled engine with mypyc when it can; the pure-Python package otherwise.

Everything else about the package is in pyproject.toml; this file only adds the extension
modules. They are compiled from the same Python source (the one source of truth, already
``mypy --strict`` clean, which is what mypyc needs) when all of these hold:

- ``REBELSPACE_PURE`` is not set to a non-empty value other than ``0``;
- mypyc can be imported (it ships with mypy: the dev extra, or the build requirements that
  ``buildtools/rebelspace_build.py`` adds when a C compiler is found);
- a C compiler is found (``CC``, or ``cc``/``gcc``/``clang`` on PATH).

Otherwise the package is the pure-Python one, which plays the same games (tests/compiled/).
``rebelspace bench`` says which build runs (``rebelspace.build``).

The compiled modules are computed from the package tree, so that new modules of the engine
are compiled without editing this file: every module under ``COMPILED_TREES`` except
``EXCLUDED`` (each with its reason), plus the agents' hot loops in ``COMPILED_EXTRA``.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent
SRC = ROOT / "src"
# The backend's checks (pip puts buildtools/ on the path; `python setup.py ...` does not).
sys.path.insert(0, str(ROOT / "buildtools"))
from rebelspace_build import compiler, wants_pure  # noqa: E402

#: Folders whose every module is compiled (minus EXCLUDED).
COMPILED_TREES = ("rebelspace/engine",)

#: Modules outside those trees that are compiled too: the agents' hot loops (search,
#: rollouts, evaluation, features, sampling all run through these).
COMPILED_EXTRA = (
    "rebelspace/agents/ismcts.py",
    "rebelspace/agents/evaluate.py",
    "rebelspace/agents/heuristic/*.py",
    "rebelspace/agents/distilled/features.py",
    "rebelspace/agents/value/features.py",
    # Not the models (agents/*/model.py): they are frozen dataclasses derived from weights.py's
    # with __slots__, which mypyc refuses in a compiled class ("mypyc classes can't have
    # __slots__"); their dot product is weights.py's, a few microseconds a decision.
)

#: The environments' observation encoder, compiled where NumPy is there to type-check it
#: against (the rl extra: ``make fast`` in the dev venv). It is the environments' hot path
#: (every step encodes an observation): compiled, AEC steps went from about 49,000 to 68,000 a
#: second (docs/performance.md). ``pip install .`` builds in an isolated environment without
#: NumPy, where mypyc could not type-check these modules: there they stay Python, as the
#: environments need the rl extra anyway.
COMPILED_WITH_NUMPY = ("rebelspace/env/encoding.py", "rebelspace/env/incremental.py")

#: Modules under COMPILED_TREES left as Python, and why.
EXCLUDED = {
    "rebelspace/engine/errors.py": "exception classes: mypyc-compiled exceptions cannot be "
    "subclassed by Python code (the server and lab derive their own)",
    "rebelspace/engine/events.py": "mypyc (mypy 2.4) gives the events' frozen dataclasses the "
    "ClassVar `type` as a field with a default, and then the fields after it fail; the events "
    "are made only when a game keeps its log, which search and bulk play do not",
    # Both check input from outside (options from the command line and the lab, records from
    # files) and turn a wrong type into the engine's own error; compiled, a wrongly typed
    # value would meet mypyc's argument check first (a TypeError). Run once per game.
    "rebelspace/engine/options.py": "validates untrusted options: see the comment above",
    "rebelspace/engine/records.py": "validates untrusted records: see the comment above",
}


def compiled_sources() -> list[str]:
    """The files mypyc compiles, relative to ROOT, in a stable order."""
    files: set[Path] = set()
    for tree in COMPILED_TREES:
        files.update((SRC / tree).rglob("*.py"))
    for pattern in COMPILED_EXTRA:
        files.update(SRC.glob(pattern))
    if importlib.util.find_spec("numpy") is not None:
        files.update(SRC / name for name in COMPILED_WITH_NUMPY)
    excluded = {SRC / name for name in EXCLUDED}
    return sorted(str(f.relative_to(ROOT)) for f in files if f not in excluded)


def ext_modules() -> list[object]:
    if wants_pure():
        print("rebelspace: REBELSPACE_PURE is set: the pure-Python build", file=sys.stderr)
        return []
    if compiler() is None:
        print("rebelspace: no C compiler found: the pure-Python build", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("rebelspace: mypyc not found: the pure-Python build", file=sys.stderr)
        return []
    sources = compiled_sources()
    print(f"rebelspace: compiling {len(sources)} modules with mypyc", file=sys.stderr)
    # Relative paths, so that mypyc names the modules from the src layout (rebelspace.engine.*)
    # and the generated C lands in build/.
    os.chdir(ROOT)
    return list(
        mypycify(
            sources,
            opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"),
            # One shared library for all modules: calls between them stay native.
            separate=False,
            verbose=False,
        )
    )


if __name__ == "__main__":  # as pip's backend and `python setup.py` run it; tests import it
    setup(ext_modules=ext_modules())
