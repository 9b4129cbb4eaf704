"""Every browser module is type-checked: ``make js-check`` runs tsc over the modules that
start with ``// @ts-check`` (tests/web/js/tsconfig.json), so a module without it would be
left out silently (issue 34, item 6)."""

from __future__ import annotations

from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "src" / "rebelspace" / "web"


def test_every_web_module_starts_with_ts_check() -> None:
    modules = sorted(WEB.glob("*.js"))
    assert modules, f"no modules found under {WEB}"
    unchecked = [
        p.name for p in modules if not p.read_text(encoding="utf-8").startswith("// @ts-check\n")
    ]
    assert unchecked == []
