"""The step graph (``rules/flow.py``): the steps that play themselves (R34) as declared in
``Automation``, the layering of the rules modules, and who may write the cached legal actions.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import rebelspace
from rebelspace.engine import GameState, RulesOptions, new_game
from rebelspace.engine.rules import attack, battle
from rebelspace.engine.rules.flow import Automation
from rebelspace.engine.state import FORM, STEP_NAMES, Outcome
from tests.engine.helpers import IMPERIAL, REBEL, legal, play, start, step

SRC = Path(rebelspace.__file__).resolve().parent
RULES = SRC / "engine" / "rules"

# ----------------------------------------------------------------------------- R34 automations

# For each automation: a position, the actions that lead into the step it skips, and the step
# the game then waits in.
SKIPS: dict[Automation, tuple[dict[str, Any], tuple[str, ...], str]] = {
    Automation.NO_ATTACKER: (
        {"phase": "draw", "rebel": {"inactive": ["Ion Cannon", "Defense Shields"]}},
        ("draw 1",),
        "deploy",
    ),
    Automation.NO_ION_SHOT: (
        {
            "player": "imperial",
            "phase": "attack",
            "rebel": {"active": ["Stunt Fighters"], "inactive": ["Ion Cannon"]},
            "imperial": {"active": ["Space Cruiser"]},
        },
        ("new space group with Space Cruiser", "attack"),
        "block",
    ),
    Automation.NO_BLOCK: (
        {
            "phase": "attack",
            "rebel": {"active": ["Rebel Soldier"]},
            "imperial": {"active": ["Interceptors"], "inactive": ["Troopers"]},
        },
        ("new ground group with Rebel Soldier", "attack"),
        "target",
    ),
    Automation.NO_TARGET: (
        {
            "phase": "attack",
            "rebel": {"active": ["Stunt Fighters"]},
            "imperial": {"inactive": ["Troopers", "Bounty Hunter"]},
        },
        ("new space group with Stunt Fighters", "attack"),
        "battle tricks",
    ),
    Automation.NO_CASUALTY: (
        {
            "phase": "attack",
            "rebel": {"active": ["Air Speeders", "Grav Cycles"]},
            "imperial": {"active": ["Troopers"]},
            "battle": {
                "groups": [
                    {
                        "kind": "ground",
                        "units": ["Air Speeders", "Grav Cycles"],
                        "blockers": ["Troopers"],
                    }
                ]
            },
        },
        ("pass", "pass"),  # the win leaves nothing rated 1 or less to pick
        "deploy",
    ),
    Automation.NOTHING_TO_FIGHT: (
        {
            "player": "imperial",
            "phase": "attack",
            "rebel": {"active": ["Ion Cannon"]},
            "imperial": {"active": ["Space Cruiser"]},
        },
        (
            "new space group with Space Cruiser",
            "attack",
            "Ion Cannon destroys Space Cruiser in group 1",
        ),
        "deploy",
    ),
}


def test_every_automation_has_a_position_that_shows_it() -> None:
    assert set(SKIPS) == set(Automation)


@pytest.mark.parametrize("automation", list(Automation), ids=lambda a: a.name)
def test_r34_each_automation_skips_its_step(automation: Automation) -> None:
    fields, actions, then = SKIPS[automation]
    s = play(start(**fields), *actions)
    assert step(s) == then
    assert step(s) != STEP_NAMES[automation.step]


def test_r34_the_tricks_window_still_opens_when_a_ship_survives_the_ion_cannon() -> None:
    # The counterpart of NOTHING_TO_FIGHT: one unit left is enough, and hands play no part.
    s = start(
        player="imperial",
        phase="attack",
        rebel={"active": ["Ion Cannon"]},
        imperial={"active": ["Space Cruiser", "Interceptors"]},
    )
    play(s, "new space group with Space Cruiser", "add Interceptors to group 1", "attack")
    s.apply("Ion Cannon destroys Space Cruiser in group 1")
    assert (step(s), s.to_move, legal(s)) == ("battle tricks", IMPERIAL, {"pass"})


# What makes each automated step empty, read from the position: the game must never enter
# such a step while this holds. (Within a step it may: after the last possible block, "done
# blocking" is all that is left, and the defender says it.)
EMPTY: dict[Automation, Callable[[GameState], bool]] = {
    Automation.NO_ATTACKER: lambda s: not attack.has_attacker(s),
    Automation.NO_ION_SHOT: lambda s: len(s.legal_actions()) <= 1,
    Automation.NO_BLOCK: lambda s: len(s.legal_actions()) <= 1,
    Automation.NO_TARGET: lambda s: len(s.legal_actions()) <= 1,
    Automation.NO_CASUALTY: lambda s: not battle.eligible(s),
    Automation.NOTHING_TO_FIGHT: lambda s: not any(s.groups),
}
OPTIONS = (
    None,
    RulesOptions(max_groups=1, tie="attacker", target_inactive=False),
    RulesOptions(deploy_points=6, starting_hand=9, tie="defender", first_player="imperial"),
)


def test_r34_no_game_enters_a_step_an_automation_plays() -> None:
    assert set(EMPTY) == set(Automation)
    by_step = {a.step: a for a in Automation}
    waited: set[int] = set()
    for seed in range(30):
        game = new_game(seed, options=OPTIONS[seed % len(OPTIONS)], log=False)
        rng = random.Random(seed)
        before = -1
        while not game.is_over:
            automation = by_step.get(game.step)
            if automation is not None and game.step != before:
                waited.add(game.step)
                assert not EMPTY[automation](game), f"seed {seed}: {automation.when}"
            before = game.step
            game.apply(rng.choice(game.legal_actions()))
    # The games reached every automated step, so the check above was not vacuous.
    assert waited == set(by_step)


# ----------------------------------------------------------------------------- the cached list


def test_forget_legal_lists_the_legal_actions_again() -> None:
    s = start(phase="deploy", rebel={"hand": ["Rebel Soldier"]})
    assert "deploy Rebel Soldier" in legal(s)
    s.hand[REBEL].clear()  # a position changed by hand, as a redeal or a test does
    s.forget_legal()
    assert legal(s) == {"done deploying"}


def test_mark_over_leaves_no_legal_action() -> None:
    s = start(phase="deploy", rebel={"hand": ["Rebel Soldier"]})
    s.mark_over(Outcome(IMPERIAL, "a rebuilt position"))
    assert s.is_over and s.legal_actions() == [] and not s.is_legal("done deploying")


def test_r34_forming_groups_is_asked_even_when_attack_is_the_only_choice_left() -> None:
    # FORM plays itself only when no unit can attack, not whenever one option is left.
    s = start(rules={"max_groups": 1}, phase="attack", rebel={"active": ["Rebel Soldier"]})
    assert s.step == FORM and attack.has_attacker(s)
    s.apply("new ground group with Rebel Soldier")
    assert (s.step, legal(s)) == (FORM, {"attack"})


# ----------------------------------------------------------------------------- layering


def _imports(path: Path) -> list[tuple[ast.ImportFrom | ast.Import, bool]]:
    """Every import of a module, and whether it sits at module level (``if TYPE_CHECKING``
    blocks included) rather than inside a function or class."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top: set[int] = set()
    for node in tree.body:
        inner = node.body if isinstance(node, ast.If) else [node]
        top.update(id(n) for n in inner if isinstance(n, ast.Import | ast.ImportFrom))
    return [(n, id(n) in top) for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]


def _rules_imports(name: str) -> set[str]:
    """The modules of the rules package that ``rules/<name>.py`` imports."""
    modules = {p.stem for p in RULES.glob("*.py")} - {"__init__"}
    found: set[str] = set()
    for node, _ in _imports(RULES / f"{name}.py"):
        if not isinstance(node, ast.ImportFrom) or node.level != 1:
            continue
        if node.module is None:
            found.update(a.name for a in node.names if a.name in modules)
        elif node.module in modules:
            found.add(node.module)
    return found


def _rules_graph() -> dict[str, set[str]]:
    return {p.stem: _rules_imports(p.stem) for p in sorted(RULES.glob("*.py"))}


def test_no_rules_module_imports_inside_a_function() -> None:
    local = [
        f"{path.name}:{node.lineno}"
        for path in sorted(RULES.glob("*.py"))
        for node, at_top in _imports(path)
        if not at_top
    ]
    assert not local, f"function-local imports: {local}"


def test_the_phase_modules_import_only_copies_from_the_rules() -> None:
    graph = _rules_graph()
    assert graph["flow"] >= {"attack", "battle", "turn"}  # the walk sees imports at all
    for phase in ("attack", "battle", "turn"):
        assert graph[phase] <= {"copies"}, f"{phase} imports {graph[phase]}"


def test_the_rules_modules_import_no_cycle() -> None:
    graph = _rules_graph()
    order: list[str] = []
    visiting: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in visiting, f"import cycle: {' -> '.join((*path, name))}"
        if name in order:
            return
        visiting.add(name)
        for nxt in sorted(graph[name]):
            visit(nxt, (*path, name))
        visiting.discard(name)
        order.append(name)

    for name in sorted(graph):
        visit(name, ())
    assert order.index("copies") < order.index("attack") < order.index("flow")
    assert order[-1] == "__init__"


def test_only_the_state_writes_its_cached_legal_actions() -> None:
    writers = [
        f"{path.relative_to(SRC)}:{node.lineno}"
        for path in sorted(SRC.rglob("*.py"))
        if path != SRC / "engine" / "state.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute)
        and node.attr == "_legal"
        and isinstance(node.ctx, ast.Store)
    ]
    assert not writers, f"GameState._legal written outside state.py: {writers}"
