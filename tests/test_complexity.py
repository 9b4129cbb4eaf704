"""No function of the engine above 15 in radon's cyclomatic complexity (issue 34): a rule that
needs more branches is split into named steps, each a function a reader can check alone."""

from __future__ import annotations

from pathlib import Path

import pytest

import rebelspace.engine

radon_visitors = pytest.importorskip("radon.visitors")

ENGINE = Path(rebelspace.engine.__file__).resolve().parent
MOST = 15


def _blocks(source: str) -> list[tuple[str, int, int]]:
    """(name, line, complexity) of every function, method and closure in ``source``."""
    visitor = radon_visitors.ComplexityVisitor.from_code(source)
    functions = list(visitor.functions) + [m for c in visitor.classes for m in c.methods]
    out = []
    while functions:
        f = functions.pop()
        out.append((f.fullname, f.lineno, f.complexity))
        functions += list(f.closures)
    return out


def test_no_engine_function_is_above_15_in_cyclomatic_complexity() -> None:
    over = sorted(
        f"{path.relative_to(ENGINE)}:{line} {name} ({cc})"
        for path in ENGINE.rglob("*.py")
        for name, line, cc in _blocks(path.read_text(encoding="utf-8"))
        if cc > MOST
    )
    assert not over, "split these into named steps:\n" + "\n".join(over)


def test_the_complexity_check_sees_a_branchy_function() -> None:
    branches = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(MOST + 1))
    found = _blocks(f"def f(x):\n{branches}    return -1\n")
    assert found == [("f", 1, MOST + 2)]
