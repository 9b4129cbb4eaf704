"""Issue 34: no source file above 500 lines without a reason written at its top, so a long
file is a decision someone wrote down, not an accident."""

from __future__ import annotations

from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "rebelspace"
LIMIT = 500


def test_every_source_file_over_500_lines_says_why_at_its_top() -> None:
    unexplained = []
    for path in sorted([*SRC.rglob("*.py"), *SRC.rglob("*.js")]):
        lines = path.read_text(encoding="utf-8").splitlines()
        if len(lines) > LIMIT and not any("Over 500 lines:" in line for line in lines[:8]):
            unexplained.append(f"{path.relative_to(SRC)} ({len(lines)} lines)")
    assert not unexplained, "a reason at the top of: " + ", ".join(unexplained)
