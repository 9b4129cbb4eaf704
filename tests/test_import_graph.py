"""The import graph of ``src/rebelspace`` (issue 14): layers without cycles, no private names
borrowed across modules.

The graph is read from the source with ``ast``, not by importing: every ``import`` and
``from ... import`` counts, function-local and ``TYPE_CHECKING`` ones included, since a
function-local import is still a dependency (it only hides the cycle until the call). A *unit* is
a subpackage (``engine``, ``agents``, ``env``, ``lab``, ``server``, ``terminal``; the
``engine.rules`` subpackage is inside ``engine``) or a top-level module (``cli``, ``cliargs``,
``seeds``, ``position_text``, ``extras``, ``rules_doc``...).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import rebelspace

PACKAGE = "rebelspace"
SRC = Path(rebelspace.__file__).resolve().parent

#: Cycles between units that are known and not yet removed, as sorted tuples of unit names.
#: Empty: a new cycle fails the test, and so does the removal of a listed one (update the list).
KNOWN_CYCLES: set[tuple[str, ...]] = set()

#: Private names borrowed across modules outside the engine, known and not yet made public, as
#: (importing module, imported module, name). Empty, like KNOWN_CYCLES.
KNOWN_PRIVATE_IMPORTS: set[tuple[str, str, str]] = set()


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(SRC.rglob("*.py"))}


MODULES = _modules()


def _is_package(module: str) -> bool:
    return MODULES[module].name == "__init__.py"


def _imports(module: str) -> Iterator[tuple[str, str | None]]:
    """(imported module, imported name or None) for every import statement of ``module``."""
    source = MODULES[module].read_text(encoding="utf-8")
    return imports_in(source, module, is_package=_is_package(module))


def imports_in(source: str, module: str, *, is_package: bool) -> Iterator[tuple[str, str | None]]:
    """(imported module, imported name or None) for every import statement in ``source``, with
    relative imports resolved. ``from pkg import sub`` yields the submodule ``pkg.sub`` too."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, None
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            for alias in node.names:
                submodule = f"{target}.{alias.name}"
                if submodule in MODULES:
                    yield submodule, None
                else:
                    yield target, alias.name


def _unit(module: str) -> str:
    """``rebelspace.engine.rules.turn`` -> ``engine``; ``rebelspace.seeds`` -> ``seeds``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else PACKAGE


def unit_graph() -> dict[str, set[str]]:
    """Unit -> the units it imports (not itself), over the package's own modules only."""
    graph: dict[str, set[str]] = {_unit(m): set() for m in MODULES}
    for module in MODULES:
        for target, _name in _imports(module):
            if target in MODULES and _unit(target) != _unit(module):
                graph[_unit(module)].add(_unit(target))
    return graph


def strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of ``graph`` with more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component: set[str] = set()
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.add(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _edges_within(component: set[str]) -> list[str]:
    """Which module imports which, for the message of a failing cycle."""
    lines = []
    for module in MODULES:
        if _unit(module) not in component:
            continue
        for target, _name in _imports(module):
            if target in MODULES and _unit(target) in component - {_unit(module)}:
                lines.append(f"{module} -> {target}")
    return sorted(set(lines))


def test_the_graph_sees_the_packages_and_their_imports() -> None:
    # Guards the walk itself: a graph that found nothing would pass the cycle test vacuously.
    graph = unit_graph()
    assert {"engine", "agents", "env", "lab", "server", "terminal", "play", "cli"} <= set(graph)
    assert "engine" in graph["agents"]
    assert "rebelspace.engine.rules.turn" in {t for t, _ in _imports("rebelspace.engine.rules")}
    assert graph["engine"] == set(), "the engine imports no other layer"


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert strongly_connected(graph) == [{"a", "b", "c"}]
    assert strongly_connected({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_between_packages_and_top_level_modules() -> None:
    cycles = {tuple(sorted(c)) for c in strongly_connected(unit_graph())}
    unexpected = cycles - KNOWN_CYCLES
    details = "\n".join(
        f"{' <-> '.join(c)}:\n  " + "\n  ".join(_edges_within(set(c))) for c in sorted(unexpected)
    )
    assert not unexpected, f"import cycles between units:\n{details}"
    assert cycles >= KNOWN_CYCLES, f"listed cycles that are gone: {KNOWN_CYCLES - cycles}"


#: The layers, lowest first: a unit imports only units of lower layers (issue 14: ``engine`` →
#: ``agents`` → ``play`` → the tools). A new unit must be placed here.
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"rebelspace", "engine", "bounds", "build", "extras", "rules_doc"}),  # rules, basics
    frozenset({"seeds", "cliargs", "position_text"}),  # small helpers over the engine
    frozenset({"agents"}),
    frozenset({"play"}),  # many games: match runner, schedules, pool, statistics
    frozenset({"env", "lab", "server", "terminal", "training"}),  # the tools built on them
    frozenset({"cli"}),
)


def _layer(unit: str) -> int:
    for rank, units in enumerate(LAYERS):
        if unit in units:
            return rank
    raise AssertionError(f"unit {unit!r} is in no layer: add it to LAYERS")


def test_each_unit_imports_only_units_of_lower_layers() -> None:
    wrong = sorted(
        f"{unit} (layer {_layer(unit)}) imports {target} (layer {_layer(target)})"
        for unit, targets in unit_graph().items()
        for target in targets
        if _layer(target) >= _layer(unit)
    )
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


def test_the_layer_check_sees_an_upward_import() -> None:
    assert _layer("agents") < _layer("play") < _layer("lab") < _layer("cli")
    with pytest.raises(AssertionError, match="in no layer"):
        _layer("sim")


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _borrowed_private_names() -> set[tuple[str, str, str]]:
    return {
        (module, target, name)
        for module in MODULES
        if _unit(module) != "engine"
        for target, name in _imports(module)
        if name is not None
        and _is_private(name)
        and target.split(".")[0] == PACKAGE
        and target != module
    }


def test_no_module_outside_the_engine_imports_a_private_name_from_another() -> None:
    borrowed = _borrowed_private_names()
    unexpected = sorted(borrowed - KNOWN_PRIVATE_IMPORTS)
    assert not unexpected, "\n".join(f"{m} imports {n} from {t}" for m, t, n in unexpected)
    assert borrowed >= KNOWN_PRIVATE_IMPORTS, (
        f"listed private imports that are gone: {KNOWN_PRIVATE_IMPORTS - borrowed}"
    )


def test_imports_are_read_relative_and_function_local_included() -> None:
    source = (
        "from .games import _fields\n"
        "from rebelspace.cli import main\n"
        "def f() -> None:\n"
        "    from ..sim import play_out\n"
        "    import rebelspace.env.bench\n"
        "    from rebelspace import seeds\n"
    )
    found = list(imports_in(source, "rebelspace.server.replays", is_package=False))
    assert found == [
        ("rebelspace.server.games", "_fields"),
        ("rebelspace.cli", "main"),
        ("rebelspace.sim", "play_out"),
        ("rebelspace.env.bench", None),
        ("rebelspace.seeds", None),
    ]


def _side_name_literals(module: str) -> list[int]:
    """Lines of ``module`` that spell out the tuple or list ("rebel", "imperial"); a type's
    ``Literal["rebel", "imperial"]`` does not count (a type must spell its values)."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    in_types = {id(n.slice) for n in ast.walk(tree) if isinstance(n, ast.Subscript)}
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Tuple | ast.List)
        and id(node) not in in_types
        and [getattr(e, "value", None) for e in node.elts] == ["rebel", "imperial"]
    ]


def test_the_sides_names_are_spelled_out_once() -> None:
    # One home (issues 14, 34): the Side enum of engine/enums.py; SIDE_NAMES and PLAYER_NAMES
    # are derived from it, and the other names of it (FIRST_PLAYERS, env.AGENTS, server SEATS)
    # are that tuple, not copies that could drift.
    spelled = [(m, line) for m in MODULES for line in _side_name_literals(m)]
    assert spelled == [], spelled
    from rebelspace.engine import PLAYER_NAMES, SIDE_NAMES
    from rebelspace.engine.enums import Side
    from rebelspace.engine.options import FIRST_PLAYERS
    from rebelspace.server.games import SEATS

    assert tuple(Side) == SIDE_NAMES and tuple(s.label for s in Side) == PLAYER_NAMES
    assert FIRST_PLAYERS is SIDE_NAMES and SEATS is SIDE_NAMES


class _WithoutTypeOnly(ast.NodeTransformer):
    """Drops every ``if TYPE_CHECKING:`` block, at any depth."""

    def visit_If(self, node: ast.If) -> ast.AST | None:
        if isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            return None if not node.orelse else node.orelse  # type: ignore[return-value]
        return self.generic_visit(node)


def _runtime_imports(module: str) -> Iterator[str]:
    """The package modules ``module`` imports when it runs: every import, function-local ones
    included, except those under ``if TYPE_CHECKING:``, which never run (with ``from __future__
    import annotations`` an annotation is a string, so a type-only import orders nothing)."""
    tree = _WithoutTypeOnly().visit(ast.parse(MODULES[module].read_text(encoding="utf-8")))
    source = ast.unparse(ast.fix_missing_locations(tree))
    for target, _name in imports_in(source, module, is_package=_is_package(module)):
        if target in MODULES:
            yield target


def module_graph(unit: str) -> dict[str, set[str]]:
    """Module of ``unit`` -> the modules of ``unit`` it imports at run time. A package's
    ``__init__`` is the package module; importing ``pkg.sub`` runs ``pkg`` first, so that
    counts too."""
    modules = [m for m in MODULES if _unit(m) == unit]
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module in modules:
        for target in _runtime_imports(module):
            if _unit(target) != unit or target == module:
                continue
            graph[module].add(target)
            parent = target.rpartition(".")[0]
            if parent in graph and parent != module and not module.startswith(parent + "."):
                graph[module].add(parent)
    return graph


def engine_module_graph() -> dict[str, set[str]]:
    """Engine module -> the engine modules it imports at run time."""
    return module_graph("engine")


def test_the_engine_has_no_import_cycle_between_its_modules() -> None:
    # Issue 34: the last one was engine/state.py <-> engine/rules/ (state imported the rules at
    # its end); the steps and their constants now live below both (engine/steps.py).
    graph = engine_module_graph()
    assert "rebelspace.engine.rules" in graph["rebelspace.engine.state"]
    assert "rebelspace.engine.steps" in graph["rebelspace.engine.rules.flow"]
    cycles = strongly_connected(graph)
    assert not cycles, "import cycles inside the engine:\n" + "\n".join(
        " <-> ".join(sorted(c)) for c in cycles
    )


def test_the_engine_cycle_check_skips_type_only_imports_and_sees_local_ones() -> None:
    runtime = set(_runtime_imports("rebelspace.engine.rules.turn"))
    assert "rebelspace.engine.state" not in runtime  # only under TYPE_CHECKING
    assert "rebelspace.engine.views" in set(_runtime_imports("rebelspace.engine.state"))


#: Cycles between the server's modules, known: ``store.open_store`` imports ``PgStore`` in the
#: function (psycopg is optional), and ``pgstore`` builds on ``store``.
KNOWN_SERVER_CYCLES = {("rebelspace.server.pgstore", "rebelspace.server.store")}


def test_the_server_roles_import_no_cycle_and_not_their_facade() -> None:
    # Issue 34: GameServer (manager.py) is a facade over one module per role; the roles name
    # it only under TYPE_CHECKING, so at run time the facade imports them and none imports it.
    graph = module_graph("server")
    manager = "rebelspace.server.manager"
    names = ("registry", "presence", "clocks", "computer_turns", "hub", "seat_requests")
    roles = {f"rebelspace.server.{name}" for name in names}
    assert roles <= graph[manager]
    assert not [role for role in roles if manager in graph[role]]
    cycles = {tuple(sorted(c)) for c in strongly_connected(graph)}
    assert cycles == KNOWN_SERVER_CYCLES, "import cycles inside the server:\n" + "\n".join(
        " <-> ".join(c) for c in sorted(cycles - KNOWN_SERVER_CYCLES)
    )


def _literal_lines(module: str, words: list[str]) -> list[int]:
    """Lines of ``module`` that spell out ``words`` as a tuple or list literal (outside types)."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    in_types = {id(n.slice) for n in ast.walk(tree) if isinstance(n, ast.Subscript)}
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Tuple | ast.List)
        and id(node) not in in_types
        and [getattr(e, "value", None) for e in node.elts] == words
    ]


def _enum_homes() -> dict[str, list[str]]:
    """Enum class name -> the modules that define a class of that name."""
    homes: dict[str, list[str]] = {}
    for module in MODULES:
        tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            bases = [getattr(b, "id", getattr(b, "attr", "")) for b in getattr(node, "bases", [])]
            if isinstance(node, ast.ClassDef) and any(b.endswith("Enum") for b in bases):
                homes.setdefault(node.name, []).append(module)
    return homes


def test_each_enum_is_defined_once() -> None:
    # Issue 34, "one word for each thing": steps, action kinds, group kinds and sides each have
    # one home; the other names of them are imported or derived.
    homes = _enum_homes()
    twice = {name: where for name, where in homes.items() if len(where) > 1}
    assert not twice, twice
    assert homes["Side"] == ["rebelspace.engine.enums"]
    assert homes["GroupKind"] == homes["GroupKindName"] == ["rebelspace.engine.enums"]
    assert homes["Step"] == homes["StepName"] == homes["PhaseName"] == ["rebelspace.engine.steps"]
    assert homes["Kind"] == homes["ActionKind"] == ["rebelspace.engine.actions"]


def test_each_wire_word_comes_from_its_enum() -> None:
    from rebelspace.engine import (
        PLAYER_NAMES,
        SIDE_NAMES,
        STEP_NAMES,
        ActionKind,
        GroupKind,
        GroupKindName,
        Kind,
        PhaseName,
        Side,
        Step,
        StepName,
        views,
    )
    from rebelspace.engine.enums import KIND_NAMES
    from rebelspace.engine.state import PHASE_OF_STEP

    # The wire enums list their index enum's members, in the same order.
    assert [k.wire for k in Kind] == list(ActionKind)
    assert [k.wire for k in GroupKind] == list(GroupKindName)
    assert [s.wire for s in Step] == list(StepName)
    assert {s.phase for s in Step} == set(PhaseName)
    assert tuple(StepName) == STEP_NAMES and tuple(s.phase for s in Step) == PHASE_OF_STEP
    assert tuple(GroupKindName) == KIND_NAMES
    assert tuple(Side) == SIDE_NAMES and PLAYER_NAMES == ("Rebel", "Imperial")
    # The public names the views' users import are those enums, not copies.
    assert views.StepName is StepName and views.ActionKind is ActionKind and views.Side is Side


def test_no_module_spells_out_an_enums_words_again() -> None:
    from rebelspace.engine import ActionKind, GroupKindName, PhaseName, Side, StepName

    spelled = {
        enum.__name__: [
            (m, line) for m in MODULES for line in _literal_lines(m, [str(w) for w in enum])
        ]
        for enum in (ActionKind, GroupKindName, PhaseName, Side, StepName)
    }
    assert all(not where for where in spelled.values()), spelled
    assert _literal_lines("rebelspace.engine.enums", ["rebel", "imperial"]) == []


# ----------------------------------------------------------------- the door into the state

#: ``GameState`` fields that are its public API and always have been (engine/read.py says so):
#: who moves, where the game is, how it ended, its log. Every other field is the engine's
#: representation, read outside the engine only through ``engine/read.py`` (issue 34).
PUBLIC_STATE_FIELDS = frozenset(
    {"ctx", "seed", "turn", "player", "step", "to_move", "outcome", "events", "history", "tally"}
)

#: Names a ``GameState`` goes by in this code base, besides any name annotated ``GameState``.
STATE_NAMES = frozenset({"s", "state", "game", "root_state"})

#: Modules outside the engine that still read representation fields, with why; each entry is
#: (module, field) -> reason. Shrinking to empty is the goal (issue 34): a new read fails the
#: test, and so does a listed one that is gone (update the list).
KNOWN_STATE_READS: dict[tuple[str, str], str] = {}


def _representation_fields() -> frozenset[str]:
    from rebelspace.engine import GameState

    return frozenset(GameState.__slots__) - PUBLIC_STATE_FIELDS


def _annotated_names(tree: ast.AST) -> tuple[set[str], set[str]]:
    """(names annotated ``GameState``, names annotated with another type) anywhere in the
    module (parameters, assignments, the ``self.x: GameState`` of a class): a state by type,
    whatever it is called; and a ``game: ServerGame`` that is no state, whatever its name."""
    states: set[str] = set()
    others: set[str] = set()
    for node in ast.walk(tree):
        annotation = target = None
        if isinstance(node, ast.arg):
            annotation, target = node.annotation, node.arg
        elif isinstance(node, ast.AnnAssign):
            annotation, target = node.annotation, ast.unparse(node.target)
        if annotation is not None and target:
            is_state = "GameState" in ast.unparse(annotation)
            (states if is_state else others).add(target.removeprefix("self."))
    return states, others


def state_reads_in(source: str, fields: frozenset[str]) -> list[tuple[int, str]]:
    """(line, field) of every read of a representation field of a ``GameState`` in
    ``source``: ``x.field`` where ``x`` is a name (or ``self.``/``obj.`` attribute) that is a
    state by its annotation or by the names states go by (``STATE_NAMES``, unless the module
    annotates that name with another type)."""
    tree = ast.parse(source)
    annotated, others = _annotated_names(tree)
    states = (STATE_NAMES - others) | annotated
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or node.attr not in fields:
            continue
        base = node.value
        name = base.id if isinstance(base, ast.Name) else getattr(base, "attr", None)
        if name in states:
            found.append((node.lineno, node.attr))
    return sorted(found)


def _state_reads_outside_the_engine() -> dict[tuple[str, str], list[int]]:
    fields = _representation_fields()
    reads: dict[tuple[str, str], list[int]] = {}
    for module, path in MODULES.items():
        if _unit(module) == "engine":
            continue
        for line, field in state_reads_in(path.read_text(encoding="utf-8"), fields):
            reads.setdefault((module, field), []).append(line)
    return reads


def test_no_module_outside_the_engine_reads_the_states_fields() -> None:
    # Issue 34: agents and environments read a position through engine/read.py (the door),
    # so the state's shape is the engine's to change and R5 is decided once (read.sight).
    reads = _state_reads_outside_the_engine()
    unexpected = sorted(set(reads) - set(KNOWN_STATE_READS))
    assert not unexpected, "reads of GameState fields outside the engine (use engine.read):\n" + (
        "\n".join(f"{m}: .{f} at lines {reads[m, f]}" for m, f in unexpected)
    )
    gone = set(KNOWN_STATE_READS) - set(reads)
    assert not gone, f"listed reads that are gone (drop them from KNOWN_STATE_READS): {gone}"
    assert all(reason.strip() for reason in KNOWN_STATE_READS.values())


def test_the_state_read_check_sees_reads_by_name_and_by_type() -> None:
    fields = frozenset({"hand", "groups", "deck"})
    source = (
        "def f(s, pos: GameState, view) -> None:\n"
        "    a = s.hand[0]\n"
        "    b = pos.groups\n"
        "    c = view.hand\n"  # a PlayerView's hand: not a state
        "    d = s.to_move\n"  # not a representation field
        "class T:\n"
        "    game: GameState\n"
        "    def g(self) -> None:\n"
        "        e = self.game.deck\n"
        "def h(state: PlayerView) -> None:\n"  # a state by name, but typed as something else
        "    f = state.hand\n"
    )
    assert state_reads_in(source, fields) == [(2, "hand"), (3, "groups"), (9, "deck")]
    assert {"hand", "groups", "att", "known"} <= _representation_fields()
    assert "to_move" not in _representation_fields()


def test_no_module_outside_the_engine_imports_its_insides() -> None:
    # The state, the rules and the per-card tables are the engine's: consumers import the
    # engine's public API (rebelspace.engine, with its ``read`` door and ``Tables`` type).
    insides = ("rebelspace.engine.state", "rebelspace.engine.tables", "rebelspace.engine.rules")
    wrong = sorted(
        f"{module} imports {target}"
        for module in MODULES
        if _unit(module) != "engine"
        for target, _name in _imports(module)
        if target.startswith(insides)
    )
    assert not wrong, "\n".join(wrong)
