"""The compiled build (mypyc, setup.py) and the pure build play the same games from the same
seeds: the same events, records, agents' choices and lab rows, byte for byte (issue 30).

``make test`` builds the compiled modules in place first (``make fast``), so this runs in CI;
elsewhere it is skipped, saying how to build them. The pure build is the same source without
the extension modules: a copy of the package, so both run from one checkout.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rebelspace.build import is_compiled

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
GAMES = 1000  # random games with their logs, besides the agents' games and the lab's rows

pytestmark = pytest.mark.skipif(
    not is_compiled(),
    reason="the compiled build is not present (`make fast` builds it in place; make test does)",
)


def play(tree: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "compiled" / "games.py"), str(GAMES)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=1800,
    )
    return done.stdout


@pytest.fixture(scope="module")
def pure_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tree = tmp_path_factory.mktemp("pure")
    shutil.copytree(
        SRC / "rebelspace",
        tree / "rebelspace",
        ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"),
    )
    return tree


def test_the_pure_copy_is_pure_and_the_checkout_compiled(pure_tree: Path) -> None:
    probe = "from rebelspace.build import build_kind; print(build_kind())"
    for tree, kind in ((pure_tree, "pure"), (SRC, "compiled")):
        out = subprocess.run(
            [sys.executable, "-c", probe],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(tree)},
            check=True,
        )
        assert out.stdout.strip() == kind


@pytest.fixture(scope="module")
def runs(pure_tree: Path) -> tuple[list[str], list[str]]:
    """The games script's lines on the compiled build and on the pure one."""
    return play(SRC).splitlines(), play(pure_tree).splitlines()


def test_compiled_and_pure_builds_play_byte_identical_games(
    runs: tuple[list[str], list[str]],
) -> None:
    compiled, pure = runs
    assert compiled[0] == "build compiled"
    assert pure[0] == "build pure"
    assert compiled[1:] == pure[1:]
    assert sum(line.startswith("random ") for line in pure) == GAMES


def test_the_games_compared_show_every_event_kind(runs: tuple[list[str], list[str]]) -> None:
    _compiled, pure = runs
    assert pure[-1].split() == ["missing", "kinds"], pure[-1]  # none missing
