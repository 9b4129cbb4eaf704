"""The package's build backend: setuptools', plus mypy (which ships mypyc) among the build
requirements when the build is going to compile the engine (setup.py).

So ``pip install .`` compiles where a C compiler is found, and where none is, or with
``REBELSPACE_PURE=1``, it builds the pure-Python package without fetching mypy at all.
setup.py reads the same two checks from here, so the decision is written once.
"""

from __future__ import annotations

import os
import shutil
import sysconfig

from setuptools import build_meta as _setuptools
from setuptools.build_meta import (  # noqa: F401 (the hooks this backend passes on as they are)
    build_editable,
    build_sdist,
    build_wheel,
    get_requires_for_build_sdist,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

#: mypyc's version, the same as constraints.txt's mypy (tests/test_packaging.py checks).
MYPYC_REQUIREMENT = "mypy==2.4.1"

_TRUE = {"1", "true", "yes", "on"}


def wants_pure() -> bool:
    """Whether ``REBELSPACE_PURE`` asks for the pure-Python build."""
    return os.environ.get("REBELSPACE_PURE", "").strip().lower() in _TRUE


def compiler() -> str | None:
    """The C compiler setuptools would use, if one is found: ``CC``, Python's own, or a usual
    name on PATH."""
    names = [os.environ.get("CC", ""), str(sysconfig.get_config_var("CC") or "")]
    for name in [*(n.split()[0] for n in names if n.strip()), "cc", "gcc", "clang"]:
        found = shutil.which(name)
        if found:
            return found
    return None


def _compile_requires() -> list[str]:
    return [] if wants_pure() or compiler() is None else [MYPYC_REQUIREMENT]


def get_requires_for_build_wheel(config_settings: dict[str, object] | None = None) -> list[str]:
    return [*_setuptools.get_requires_for_build_wheel(config_settings), *_compile_requires()]


def get_requires_for_build_editable(
    config_settings: dict[str, object] | None = None,
) -> list[str]:
    return [*_setuptools.get_requires_for_build_editable(config_settings), *_compile_requires()]
