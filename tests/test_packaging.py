"""Packaging (issue 15): the core installs alone, and every optional part says how to get it.

- pyproject.toml: the core needs only Rich, Textual and platformdirs; every other library is in an
  extra, as a range; constraints.txt pins each of them (what ``make`` and CI install), torch
  as the CPU build.
- ``rebelspace.extras``: a command that needs a missing extra prints one line and exits 2.
  Checked here in the full environment with the extras' modules hidden from imports, which is
  quick; and for real (slow) in a fresh venv holding the built wheel and nothing else, where
  ``rebelspace play`` and ``simulate`` run too.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from rebelspace import cli, extras
from rebelspace.extras import EXTRAS, MissingExtraError, hint, raise_missing, require

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
CONSTRAINTS = ROOT / "constraints.txt"
# 1 at every prompt, then end of input: a game played until 1 is no longer a choice (choice
# numbers stay put within a step), then left and saved.
RECORD_ANSWERS = "1\n" * 3000

#: What `pip install rebelspace` brings: the package, Rich and Rich's own dependencies,
#: platformdirs (where the terminal game keeps its saved games), and Textual (the full-screen
#: board) with its own: markdown-it-py's linkify extra and plugins, typing-extensions.
CORE_DISTRIBUTIONS = {
    "rebelspace",
    "rich",
    "markdown-it-py",
    "mdurl",
    "pygments",
    "platformdirs",
    "textual",
    "mdit-py-plugins",
    "linkify-it-py",
    "typing-extensions",
}
#: Modules of the extras that a core install has anyway (Rich depends on markdown-it-py).
CORE_PROVIDED = {"markdown_it"}


def _name(requirement: str) -> str:
    """The normalized distribution name of a requirement (PEP 503)."""
    match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement)
    assert match, requirement
    return re.sub(r"[-_.]+", "-", match.group(0)).lower()


def _pins() -> dict[str, str]:
    pins = {}
    for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, sep, version = line.partition("==")
            assert sep and version, f"constraints.txt: not an exact pin: {line!r}"
            pins[_name(name)] = version
    return pins


# ----------------------------------------------------------------------------- pyproject.toml


def test_the_core_needs_only_rich_textual_and_platformdirs() -> None:
    core = [_name(r) for r in PYPROJECT["project"]["dependencies"]]
    assert core == ["platformdirs", "rich", "textual"]


def test_extras_are_ranges_and_constraints_pin_every_one() -> None:
    optional = PYPROJECT["project"]["optional-dependencies"]
    # bench: the peers benchmark's engines (benchmarks/peers.py), not a part of the package.
    assert set(optional) == {*EXTRAS, "dev", "all", "bench"}
    assert optional["all"] == [f"rebelspace[{','.join(EXTRAS)}]"]
    pins = _pins()
    for extra, requirements in optional.items():
        for requirement in requirements:
            if extra == "all":
                continue
            assert "==" not in requirement, f"[{extra}] {requirement}: a range, not a pin"
            assert _name(requirement) in pins, f"[{extra}] {requirement}: not in constraints.txt"
    for requirement in PYPROJECT["project"]["dependencies"]:
        assert _name(requirement) in pins
    assert "rebelspace" not in pins
    # PyPI's Linux torch is a CUDA build of several GB: the pin is the CPU build.
    assert pins["torch"].endswith("+cpu")


# ----------------------------------------------------------------------------- rebelspace.extras


def test_require_names_what_needs_the_extra_and_how_to_install_it() -> None:
    require("lab", "rebelspace report", ["json"])  # present: nothing happens
    with pytest.raises(MissingExtraError) as info:
        require("lab", "rebelspace report", ["json", "no_such_module_15", "nor_this_one"])
    assert str(info.value) == (
        "rebelspace report needs the lab extra (missing: no_such_module_15, nor_this_one): "
        "pip install 'rebelspace[lab]'"
    )
    assert isinstance(info.value, ModuleNotFoundError)
    assert info.value.name == "no_such_module_15"


def test_raise_missing_turns_an_extras_import_error_into_the_hint() -> None:
    with pytest.raises(MissingExtraError, match=re.escape(hint("server", "app", ["fastapi"]))):
        raise_missing("app", ModuleNotFoundError("No module named 'fastapi'", name="fastapi.x"))
    bug = ModuleNotFoundError("No module named 'rebelspace.nothing'", name="rebelspace.nothing")
    with pytest.raises(ModuleNotFoundError) as info:
        raise_missing("app", bug)
    assert info.value is bug  # not an extra: the real error, unchanged


def _hide(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    """Make ``rebelspace.extras`` see these modules as not installed."""
    found = extras._found
    monkeypatch.setattr(extras, "_found", lambda m: m not in modules and found(m))


@pytest.mark.parametrize(
    ("argv", "hidden", "line"),
    [
        (["serve"], ["uvicorn"], "rebelspace serve needs the server extra (missing: uvicorn)"),
        (
            ["loadtest", "--games", "1"],
            ["websockets"],
            "rebelspace loadtest needs the server extra (missing: websockets)",
        ),
        (
            ["balance", "--games", "1"],
            ["matplotlib"],
            "rebelspace balance needs the lab extra (missing: matplotlib)",
        ),
        (["compare", "a", "b"], ["tqdm"], "rebelspace compare needs the lab extra (missing: tqdm)"),
        (
            ["balance", "--games", "1", "--ray"],
            ["ray"],
            "rebelspace balance --ray needs the ray extra (missing: ray)",
        ),
        (
            ["arena", "--agents", f"random,policy:{ROOT / 'pyproject.toml'}"],
            ["sb3_contrib"],
            "the policy agent needs the rl extra (missing: sb3_contrib)",
        ),
    ],
)
def test_a_command_without_its_extra_prints_one_line_and_exits_2(
    argv: list[str],
    hidden: list[str],
    line: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    monkeypatch.chdir(tmp_path)  # where a lab database would go, were the check to fail
    _hide(monkeypatch, *hidden)
    extra = re.search(r"the (\w+) extra", line)
    assert extra
    assert cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"{line}: pip install 'rebelspace[{extra.group(1)}]'\n")


def test_an_extras_module_failing_to_import_anyway_gives_the_hint(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise ModuleNotFoundError("No module named 'tqdm'", name="tqdm")

    monkeypatch.setattr("rebelspace.play.simulate.simulate", broken)
    assert cli.main(["simulate", "--games", "1"]) == 2
    assert capsys.readouterr().err == (
        "rebelspace simulate needs the lab extra (missing: tqdm): pip install 'rebelspace[lab]'\n"
    )


def test_a_missing_module_of_no_extra_is_a_bug_shown_in_full(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise ModuleNotFoundError("No module named 'rebelspace.gone'", name="rebelspace.gone")

    monkeypatch.setattr("rebelspace.play.simulate.simulate", broken)
    with pytest.raises(ModuleNotFoundError, match="rebelspace.gone"):
        cli.main(["simulate", "--games", "1"])


# ----------------------------------------------------------------------------- only the core
# A fresh interpreter that cannot import any module of an extra: what a core install can do.

_WITHOUT_EXTRAS = """
import sys
from importlib.abc import MetaPathFinder

HIDDEN = set(sys.argv[1].split(","))

class Hide(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in HIDDEN:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, Hide())
if sys.argv[2] == "-c":
    exec(sys.argv[3])
else:
    from rebelspace.cli import main
    sys.argv = ["rebelspace", *sys.argv[2:]]
    sys.exit(main())
"""
HIDDEN = sorted({m for modules in EXTRAS.values() for m in modules} - CORE_PROVIDED)


def run_without_extras(
    args: Sequence[str], cwd: Path, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "80"}
    return subprocess.run(
        [sys.executable, "-c", _WITHOUT_EXTRAS, ",".join(HIDDEN), *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=600,
        check=False,
    )


def test_the_hidden_modules_really_are_hidden(tmp_path: Path) -> None:
    done = run_without_extras(["-c", "import fastapi"], tmp_path)
    assert done.returncode == 1
    assert "No module named 'fastapi'" in done.stderr


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["simulate", "--games", "3"],
        ["decks"],
        ["rules"],
        ["scenario", str(ROOT / "scenarios" / "worked-example.json")],
        ["arena", "--agents", "random,heuristic", "--games", "1", "--workers", "1"],
        ["serve", "--help"],
        ["balance", "--help"],
    ],
)
def test_core_commands_run_without_any_extra(argv: list[str], tmp_path: Path) -> None:
    done = run_without_extras(argv, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout
    assert "Traceback" not in done.stderr


def test_play_and_replay_run_without_any_extra(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    argv = ["play", "--opponent", "random", "--seed", "3", "--save", str(record)]
    done = run_without_extras(argv, tmp_path, stdin=RECORD_ANSWERS)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    replayed = run_without_extras(["replay", str(record), "--json"], tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["actions"] > 0


# A module of each extra, the extra, and the first module its import finds missing.
EXTRA_MODULES = [
    ("rebelspace.server.app", "server", "fastapi"),
    ("rebelspace.lab.plots", "lab", "matplotlib"),
    ("rebelspace.env", "rl", "gymnasium"),
]


def assert_one_line_hint(stderr: str, extra: str) -> None:
    """The whole of stderr is the one line naming the missing extra and how to install it."""
    assert re.fullmatch(
        rf"[^\n]* needs the {extra} extra \(missing: [\w, ]+\): "
        rf"pip install 'rebelspace\[{extra}\]'\n",
        stderr,
    ), stderr


@pytest.mark.parametrize(
    ("argv", "extra"),
    [
        (["serve"], "server"),
        (["loadtest", "--games", "1"], "server"),
        (["balance", "--games", "1"], "lab"),
        (["report", "--out", "out"], "lab"),
        (["sweep", "--card", "Space Cruiser", "--field", "space", "--range", "6..7"], "lab"),
        (["arena", "--agents", "random,openspiel-ismcts"], "rl"),
    ],
)
def test_commands_of_an_extra_say_so_in_one_line_without_it(
    argv: list[str], extra: str, tmp_path: Path
) -> None:
    done = run_without_extras(argv, tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert_one_line_hint(done.stderr, extra)


@pytest.mark.parametrize(
    ("module", "extra", "first"),
    EXTRA_MODULES,
)
def test_importing_an_extras_module_without_it_raises_the_hint(
    module: str, extra: str, first: str, tmp_path: Path
) -> None:
    done = run_without_extras(["-c", f"import {module}"], tmp_path)
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (
        f"rebelspace.extras.MissingExtraError: {hint(extra, module, [first])}"
    )


def test_the_core_modules_import_without_any_extra(tmp_path: Path) -> None:
    modules = [
        "rebelspace",
        "rebelspace.engine",
        "rebelspace.agents.registry",
        "rebelspace.cli",
        "rebelspace.position_text",
        "rebelspace.play",
        "rebelspace.play.arena",
        "rebelspace.play.simulate",
        "rebelspace.play.bench",
        "rebelspace.rules_doc",
        "rebelspace.server",
        "rebelspace.server.serve",
        "rebelspace.lab",
        "rebelspace.lab.cli",
    ]
    done = run_without_extras(["-c", "; ".join(f"import {m}" for m in modules)], tmp_path)
    assert done.returncode == 0, done.stderr


# ----------------------------------------------------------------------------- the built wheel


class BareVenv:
    """A fresh venv holding the built wheel (from the sdist) and its core dependencies."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.dist = root / "dist"
        self.venv = root / "venv"
        self.bin = self.venv / "bin"
        self.work = root / "work"  # the current folder of every run: not the repository

    @property
    def wheel(self) -> Path:
        (wheel,) = self.dist.glob("rebelspace-*.whl")
        return wheel

    def build(self) -> None:
        source = self.root / "source"
        shutil.rmtree(self.root, ignore_errors=True)
        # *.so: the compiled build's modules, if `make fast` made them in place (issue 30).
        ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "dist", "*.so")
        for name in ("src", "docs", "buildtools"):  # rules.md links to docs/rules.md
            shutil.copytree(ROOT / name, source / name, symlinks=True, ignore=ignore)
        for name in ("pyproject.toml", "README.md", "setup.py", "MANIFEST.in"):
            shutil.copy2(ROOT / name, source / name)
        # The sdist, then the wheel built from it, with this environment's setuptools: the
        # pure build (REBELSPACE_PURE), which is what this test is about and takes seconds;
        # the compiled build plays the same games (tests/compiled/).
        self._run(
            sys.executable,
            "-m",
            "build",
            "--no-isolation",
            "--outdir",
            self.dist,
            source,
            env={"REBELSPACE_PURE": "1"},
        )
        self._run(sys.executable, "-m", "venv", self.venv)
        # The core dependencies from the indexes pip is set up with, at the pinned versions.
        self._run(self.bin / "python", "-m", "pip", "install", "-q", "-c", CONSTRAINTS, self.wheel)
        self.work.mkdir()

    def _run(self, *argv: object, env: dict[str, str] | None = None) -> None:
        done = subprocess.run(
            [str(a) for a in argv],
            capture_output=True,
            text=True,
            env={**_clean_env(), **(env or {})},
            timeout=900,
            check=False,
        )
        assert done.returncode == 0, f"{argv}:\n{done.stdout}\n{done.stderr}"

    def run(self, *argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.bin / argv[0]), *argv[1:]],
            input=stdin,
            capture_output=True,
            text=True,
            cwd=self.work,
            env={**_clean_env(), "COLUMNS": "80"},
            timeout=600,
            check=False,
        )


def _clean_env() -> dict[str, str]:
    """This environment without what would let the source tree or this venv leak in."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = os.pathsep.join(
        p for p in env.get("PATH", "").split(os.pathsep) if Path(sys.prefix) not in Path(p).parents
    )
    return env


@pytest.fixture(scope="session")
def bare(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BareVenv]:
    # One venv for the whole run: with pytest-xdist the workers share the run's temporary
    # folder, and the first to get here builds it while the others wait on the lock.
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    venv = BareVenv(shared / "bare-wheel-venv")
    with open(shared / "bare-wheel-venv.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        ready = shared / "bare-wheel-venv.ready"
        if not ready.exists():
            venv.build()
            ready.touch()
    yield venv


@pytest.mark.slow
def test_the_wheel_holds_the_package_data_and_needs_only_rich(bare: BareVenv) -> None:
    with zipfile.ZipFile(bare.wheel) as wheel:
        names = set(wheel.namelist())
        assert {
            "rebelspace/data/cards.toml",
            "rebelspace/data/rules.md",
            "rebelspace/web/index.html",
            "rebelspace/web/favicon.svg",  # the page's icon, served by the server itself
            "rebelspace/web/card-art.json",  # the cards' art, so the server needs no npm
            "rebelspace/extras.py",
            "rebelspace/agents/value/weights.json",  # the expert level's learnt evaluation
            "rebelspace/agents/distilled/weights.json",  # the distilled policy
            "rebelspace/data/ladder.json",  # the levels' published ratings
            "rebelspace/data/bank.jsonl.gz",  # the yardstick's positions (issue 29)
            "rebelspace/data/bank-labels.jsonl",  # and their first oracle's labels
            "rebelspace/data/bank-labels-search.jsonl",  # and the search oracle's (default)
        } <= names
        # The rules are a copy of docs/rules.md, not a link.
        assert wheel.read("rebelspace/data/rules.md") == (ROOT / "docs" / "rules.md").read_bytes()
        (metadata,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        lines = wheel.read(metadata).decode().splitlines()
    requires = [line.split(": ", 1)[1] for line in lines if line.startswith("Requires-Dist: ")]
    core = [_name(r) for r in requires if "extra ==" not in r]
    assert core == ["platformdirs", "rich", "textual"]
    provides = {line.split(": ", 1)[1] for line in lines if line.startswith("Provides-Extra: ")}
    # bench: the peers benchmark's engines (benchmarks/peers.py), no module of the package's.
    assert provides == {*EXTRAS, "dev", "all", "bench"}


@pytest.mark.slow
def test_the_bare_venv_holds_only_the_core(bare: BareVenv) -> None:
    done = bare.run("python", "-m", "pip", "list", "--format=json")
    assert done.returncode == 0, done.stderr
    names = {_name(d["name"]) for d in json.loads(done.stdout)}
    assert names - {"pip", "setuptools"} == CORE_DISTRIBUTIONS
    where = bare.run("python", "-c", "import rebelspace; print(rebelspace.__file__)")
    assert Path(where.stdout.strip()).is_relative_to(bare.venv)


@pytest.mark.slow
def test_play_from_the_wheel_without_extras(bare: BareVenv) -> None:
    record = bare.work / "game.json"
    argv = ["rebelspace", "play", "--opponent", "random", "--seed", "3", "--save", str(record)]
    done = bare.run(*argv, stdin=RECORD_ANSWERS)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout
    replayed = bare.run("rebelspace", "replay", str(record), "--json")
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["actions"] > 0


@pytest.mark.slow
def test_simulate_rules_and_bench_from_the_wheel_without_extras(bare: BareVenv) -> None:
    done = bare.run("rebelspace", "simulate", "--games", "5", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 5
    rules = bare.run("rebelspace", "rules")
    assert rules.returncode == 0, rules.stderr
    assert rules.stdout == (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    bench = bare.run("rebelspace", "bench", "--games", "2", "--json")
    assert bench.returncode == 0, bench.stderr
    figures = json.loads(bench.stdout)
    assert figures["games"] == 2 and "env_steps_per_second" not in figures  # no rl extra
    assert bare.run("rebelspace", "--help").returncode == 0


@pytest.mark.slow
@pytest.mark.parametrize(
    ("argv", "extra"),
    [
        (["serve"], "server"),
        (["loadtest", "--games", "1"], "server"),
        (["balance", "--games", "1"], "lab"),
        (["report", "--out", "out"], "lab"),
        (["arena", "--agents", "random,openspiel-ismcts"], "rl"),
        (["balance", "--games", "1", "--ray"], "lab"),
    ],
)
def test_extras_commands_from_the_wheel_say_so_in_one_line(
    bare: BareVenv, argv: list[str], extra: str
) -> None:
    done = bare.run("rebelspace", *argv)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert_one_line_hint(done.stderr, extra)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("module", "extra", "first"),
    EXTRA_MODULES,
)
def test_importing_an_extras_module_from_the_wheel_raises_the_hint(
    bare: BareVenv, module: str, extra: str, first: str
) -> None:
    done = bare.run("python", "-c", f"import {module}")
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (
        f"rebelspace.extras.MissingExtraError: {hint(extra, module, [first])}"
    )
