"""Every lab command ends with one line, never a traceback: on bad arguments, on Ctrl-C (with
what was saved and how to resume), and when its reader closes the pipe; --help everywhere."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pytest

from rebelspace import cli
from rebelspace.lab import runner
from rebelspace.lab.cli import COMMANDS
from rebelspace.lab.ray_runner import connect
from rebelspace.lab.store import Store
from tests.common import run_into_a_closed_pipe


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_lab_command_has_help_with_a_description(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main([command, "--help"])
    out = capsys.readouterr().out
    assert done.value.code == 0
    usage, _, rest = out.partition("\n\n")
    assert usage.startswith("usage:") and len(rest.split("\n\n")[0]) > 40  # a description


def test_the_main_help_lists_the_lab_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["--help"])
    out = capsys.readouterr().out
    assert done.value.code == 0 and all(c in out for c in COMMANDS)


def test_bench_lab_with_one_worker_measures_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "bench-lab", "--workers", "1", "--games", "4")
    result = json.loads(out)
    assert code == 0 and err == ""
    assert result["speedup"] == 1.0 and "games_per_second_1_workers" in result


def test_bench_lab_with_an_unknown_agent_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "bench-lab", "--agents", "foo", "--games", "4")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "unknown agent 'foo'" in err


def test_ctrl_c_during_balance_says_what_is_saved_and_resumes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "lab.sqlite")
    real = runner.play_batch  # type: ignore[attr-defined]  # the name runner plays through
    calls = []

    def stopped_after_one_batch(settings, indices):  # type: ignore[no-untyped-def]
        calls.append(indices)
        if len(calls) > 1:
            raise KeyboardInterrupt
        return real(settings, indices)

    monkeypatch.setattr(runner, "play_batch", stopped_after_one_batch)
    argv = ["balance", "--games", "40", "--db", db, "--workers", "1", "--agents", "random"]
    code, out, err = run(capsys, *argv)
    saved = len(calls[0])
    assert code == 130 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"{saved} of 40 games" in err and "run the same command again to resume" in err
    monkeypatch.setattr(runner, "play_batch", real)
    code, out, _ = run(capsys, *argv, "--json")
    assert code == 0 and json.loads(out)["played"] == 40 - saved


def test_ctrl_c_during_ablate_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "lab.sqlite")
    run(capsys, "balance", "--games", "4", "--agents", "heuristic", "--db", db, "--workers", "1")

    def interrupted(*args: object) -> list[object]:
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "play_batch", interrupted)
    argv = ["ablate", "--card", "Medi-Bot", "--games", "8", "--db", db, "--workers", "1"]
    code, _, err = run(capsys, *argv)
    assert code == 130 and err.count("\n") == 1 and "resume" in err
    with Store(db) as store:  # the base run's four games are still there
        assert len(store.done_indices(store.run().run_id)) == 4


def test_json_into_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    db = str(tmp_path / "lab.sqlite")
    assert cli.main(["balance", "--games", "2", "--db", db, "--workers", "1", "--json"]) == 0
    done = run_into_a_closed_pipe("runs", "--json", "--db", db)  # the reader (``| head``) left
    assert done.returncode == 0 and done.stderr == ""


def test_local_ray_starts_on_the_workers_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    started: dict[str, object] = {}
    fake = types.SimpleNamespace(
        is_initialized=lambda: False, init=lambda **kwargs: started.update(kwargs)
    )
    monkeypatch.setitem(sys.modules, "ray", fake)
    connect(None, 1)
    assert started == {"address": "local", "num_cpus": 1}
