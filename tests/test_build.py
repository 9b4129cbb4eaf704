"""The build's choices (issue 30): setup.py compiles the engine's modules found in the tree,
leaves the pure-Python build where asked or where it cannot compile, and the running build is
named by ``rebelspace.build``."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

from rebelspace.build import build_kind, is_compiled

ROOT = Path(__file__).resolve().parents[1]


def backend() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "rebelspace_build", ROOT / "buildtools" / "rebelspace_build.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def setup_module_sources() -> list[str]:
    """setup.py's compiled_sources() (importing setup.py runs nothing: setup() is for main)."""
    spec = importlib.util.spec_from_file_location("rebelspace_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result: list[str] = module.compiled_sources()
    return result


def test_every_engine_module_is_compiled_but_the_listed_exclusions() -> None:
    sources = set(setup_module_sources())
    engine = {str(p.relative_to(ROOT)) for p in (ROOT / "src/rebelspace/engine").rglob("*.py")}
    left = engine - sources
    assert left == {
        f"src/rebelspace/engine/{name}.py" for name in ("errors", "events", "options", "records")
    }
    assert "src/rebelspace/engine/state.py" in sources  # the probe of rebelspace.build
    assert "src/rebelspace/agents/ismcts.py" in sources


def test_rebelspace_pure_turns_compiling_off(monkeypatch: pytest.MonkeyPatch) -> None:
    build = backend()
    for value, pure in (("1", True), ("yes", True), ("", False), ("0", False)):
        monkeypatch.setenv("REBELSPACE_PURE", value)
        assert build.wants_pure() is pure
    monkeypatch.setenv("REBELSPACE_PURE", "1")
    assert build.get_requires_for_build_wheel() == []  # no mypy to fetch


def test_without_a_compiler_the_build_is_pure(monkeypatch: pytest.MonkeyPatch) -> None:
    build = backend()
    monkeypatch.delenv("REBELSPACE_PURE", raising=False)
    monkeypatch.setenv("CC", "no-such-compiler")
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.setattr(build.sysconfig, "get_config_var", lambda name: None)
    assert build.compiler() is None
    assert build.MYPYC_REQUIREMENT not in build.get_requires_for_build_wheel()


def test_the_build_requirement_is_the_pinned_mypy() -> None:
    pinned = re.search(r"^mypy==(\S+)$", (ROOT / "constraints.txt").read_text(), re.M)
    assert pinned is not None
    assert f"mypy=={pinned.group(1)}" == backend().MYPYC_REQUIREMENT


def test_build_kind_names_the_running_build() -> None:
    assert build_kind() == ("compiled" if is_compiled() else "pure")
    assert not is_compiled("rebelspace.cli")  # never compiled: the command line
