"""Accessibility checks with axe-core (the npm package pinned in tests/web/js, fetched by
`make axe-core`): `assert_accessible(page, what)` runs axe on the page as it stands and fails
on any serious or critical violation.

The page's Content-Security-Policy allows only the server's own scripts, so axe is not added
as a <script> tag (Playwright's `add_script_tag(path=...)` inlines it, which the policy blocks):
its source is evaluated through the DevTools protocol (`page.evaluate`), which the policy does
not govern. The page under test keeps its real policy.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

AXE_JS = Path(__file__).resolve().parent / "js" / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")


def axe_source() -> str:
    if not AXE_JS.exists():
        raise AssertionError(f"{AXE_JS} is missing: run `make axe-core` (npm ci in tests/web/js)")
    return AXE_JS.read_text(encoding="utf-8")


def violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's violations on the page (WCAG 2.x A and AA rules, best practices included)."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # Evaluated as a script body (not through eval(), which the policy forbids): the source
        # defines `window.axe`.
        page.evaluate(axe_source())
    result: dict[str, Any] = page.evaluate(
        "async () => await window.axe.run(document, {resultTypes: ['violations']})"
    )
    return list(result["violations"])


def describe(found: list[dict[str, Any]]) -> str:
    lines = []
    for v in found:
        targets = [", ".join(n["target"]) for n in v["nodes"][:5]]
        lines.append(f"{v['impact']}: {v['id']} ({v['help']}) at {targets}")
        for n in v["nodes"][:2]:
            lines.append(f"    {n.get('failureSummary', '')}".replace("\n", " "))
    return "\n".join(lines)


def assert_accessible(page: Any, what: str) -> None:
    """Fail when axe-core finds a serious or critical violation on `page` (`what` names it)."""
    found = [v for v in violations(page) if v.get("impact") in BLOCKING]
    assert not found, f"{what}: axe-core found serious or critical violations:\n{describe(found)}"
