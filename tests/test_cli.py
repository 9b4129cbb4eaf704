"""The `rebelspace` command: play, simulate, bench, replay, scenario (through `cli.main`)."""

from __future__ import annotations

import argparse
import io
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from rebelspace import cli
from rebelspace.agents import Agent, RandomAgent
from rebelspace.engine import (
    IMPERIAL,
    REBEL,
    GameState,
    load_record,
    new_game,
    replay,
    save_record,
)
from rebelspace.play.simulate import agent_seeds, simulate
from rebelspace.position_text import battle_lines
from rebelspace.seeds import derive_seed
from rebelspace.terminal import PROMPT, Opponent, Stop, make_console, play_game, resolve_choice
from rebelspace.terminal.saves import games_dir, resume_command, unfinished_games
from rebelspace.terminal.session import Ply, rebuild
from rebelspace.terminal.show import LogRun
from tests.common import run_into_a_closed_pipe
from tests.playing import answer_first_choices

ROOT = Path(__file__).resolve().parents[1]
WORKED_EXAMPLE = ROOT / "scenarios" / "worked-example.json"
WORKED_PICKS = [
    "pick Rebel Soldier as a casualty",
    "pick Grav Cycles as a casualty",
    "pick Air Speeders as a casualty",
]


def feed_stdin(monkeypatch: pytest.MonkeyPatch, *lines: str) -> None:
    """Script the terminal: builtin ``input`` reads these lines, then hits end of input."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))


def play_output(out: str) -> list[str]:
    """The lines of a scripted `play`: the prompt is not followed by a newline (the answer's
    newline is typed, not printed), so take it out to get whole lines back."""
    return out.replace(PROMPT, "").splitlines()


def flat(out: str) -> str:
    """The output with every run of spaces and line breaks as one space: text that the
    terminal's width wrapped reads whole again."""
    return " ".join(out.split())


def log_lines(out: str) -> list[str]:
    """The log lines of a scripted `play` (``  | `` and the engine's text), each whole again:
    a line the width wrapped continues on lines indented by four spaces."""
    lines: list[str] = []
    inside = False
    for line in play_output(out):
        if line.startswith("  | "):
            lines.append(line[4:])
            inside = True
        elif inside and line.startswith("    "):
            lines[-1] += " " + line.strip()
        else:
            inside = False
    return lines


def random_game(seed: int, actions: int | None = None) -> GameState:
    """A logged game of random play, to its end or for ``actions`` decisions."""
    game = new_game(seed)
    rng = random.Random(seed)
    n = 0
    while not game.is_over and (actions is None or n < actions):
        game.apply(rng.choice(game.legal_actions()))
        n += 1
    return game


# --- agents ------------------------------------------------------------------------------------


def test_random_agent_is_an_agent_and_picks_legal_actions() -> None:
    agent = RandomAgent(seed=5)
    assert isinstance(agent, Agent)
    game = new_game(seed=2)
    for _ in range(200):
        if game.is_over:
            break
        legal = game.legal_actions()
        choice = agent.act(game.view(game.to_move), legal)
        assert choice in legal
        game.apply(choice)


def test_random_agent_is_reproducible_and_independent_of_global_random() -> None:
    legal = list(range(50))
    view = new_game(seed=1).view(REBEL)
    first = RandomAgent(9).act(view, legal)
    a, b = RandomAgent(9), RandomAgent(9)
    random.seed(123)  # the global generator must not matter
    seq_a = [a.act(view, legal) for _ in range(20)]
    random.seed(456)
    seq_b = [b.act(view, legal) for _ in range(20)]
    assert seq_a == seq_b and seq_a[0] == first
    with pytest.raises(ValueError, match="no legal action"):
        a.act(view, [])


def test_derived_agent_seeds_are_distinct() -> None:
    seeds = {s for g in range(100) for s in agent_seeds(g)}
    assert len(seeds) == 200
    assert derive_seed(5, 0) == derive_seed(5, 0) >= 0


# --- play --------------------------------------------------------------------------------------


def test_play_to_the_end_always_answering_the_first_choice(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    answer_first_choices(monkeypatch)
    assert cli.main(["play", "--opponent", "random", "--seed", "3", "--save", str(record)]) == 0
    out = capsys.readouterr().out
    lines = play_output(out)
    assert lines[0] == "Rebel Space: you play Rebel. Computer: random. Game seed 3."
    assert "Turn 1: your turn, draw phase" in lines
    assert "Your move (draw phase):  number or text; help: ? 1. draw 1 · 2. draw 2\n" in out
    assert "Rebel (you)  hand 5 · deck 71 · discard 0" in out
    assert "Imperial (computer)  hand 5 · deck 62 · discard 0" in out
    assert "Game over on turn " in out and ("You win!" in out or "You lose." in out)
    # The opponent's moves appear as log lines, a turn's moves in a row on one (its turn's
    # start and its draw); its hidden cards never do.
    assert re.search(r"^  \| -- Turn [0-9]+: Imperial -- draws [12] cards?", out, re.MULTILINE)
    assert "Imperial's starting hand" not in out
    assert "Rebel's starting hand" in out
    # The game fits 80 columns (no terminal here: Rich's default width); the last lines are
    # the cli's, naming the record's path as given on a line of its own.
    assert lines[-2:] == ["Game record saved in", f"  {record}"]
    assert max(map(len, lines[:-2])) <= 80, [line for line in lines if len(line) > 80]
    # A decision with one choice plays itself, without a word; every question has at least
    # two choices (on the question's line, or on the lines under it).
    asked = [i for i, line in enumerate(lines) if line.startswith("Your move (")]
    rebel_decisions = sum(1 for ply in rebuild_plies(record) if ply.seat == REBEL)
    assert asked and len(asked) < rebel_decisions
    for i in asked:
        block = lines[i] + " ".join(lines[i + 1 : i + 3])
        assert len(re.findall(r"(?:^|[ :·]) ?[0-9]+\. ", block)) >= 2, block
    outcome = replay(load_record(record)).outcome
    assert outcome is not None
    assert f"{outcome.winner_name} wins ({outcome.reason})" in flat(out)


def rebuild_plies(record: Path) -> list[Ply]:
    done = replay(load_record(record))
    return rebuild(done.seed, done.options, done.cards, done.history or [])[1]


def test_play_bad_input_says_why_and_asks_again(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "quit.json"
    feed_stdin(monkeypatch, "", "hello", "7", "0", "deploy Princess", "draw", "draw 2", "q")
    assert cli.main(["play", "--opponent", "random", "--seed", "1", "--save", str(record)]) == 0
    out = capsys.readouterr().out
    problems = [line for line in play_output(out) if line.startswith("Not understood: ")]
    assert len(problems) == 6
    assert "type a number from 1 to 2" in problems[0]
    assert "'hello' is not one of the choices" in problems[1]
    assert "7 is not one of the choices" in problems[2]
    assert "0 is not one of the choices" in problems[3]
    assert "deploy Princess" in problems[4]  # a real action, not legal now: the engine says why
    assert "could be any of: 1. draw 1; 2. draw 2" in problems[5]
    # The action text was accepted: the cards drawn are said (the count, once, is not).
    assert "  | Rebel draws " in out and "  | Rebel draws 2 cards" not in out
    assert "You left the game on turn 1." in out
    data = load_record(record)
    assert data["actions"][0] == "draw 2" and "result" not in data
    assert data["meta"]["side"] == "rebel" and data["meta"]["computer"]["kind"] == "random"


def test_play_imperial_side_and_end_of_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    feed_stdin(monkeypatch, "2")  # one answer, then end of input: saved, a clean exit
    assert cli.main(["play", "--opponent", "random", "--side", "imperial", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "you play Imperial" in out
    assert "Imperial (you)" in out and "Rebel (computer)" in out
    assert "  | Rebel draws " in out  # the Rebel agent moved first, shown as log lines
    assert "You left the game" in out
    assert "Rebel's starting hand" not in out
    # Without --save, a file of its own in the data folder, and the command that goes on
    # with it, each on a line of its own.
    (saved,) = unfinished_games()
    assert out.splitlines()[-4:] == [
        "Game saved in",
        f"  {saved.path}",
        "To go on with it, run",
        f"  {resume_command(None)}",
    ]
    assert saved.path.parent == games_dir() and saved.side == "imperial"
    assert load_record(saved.path)["actions"][-1] == "draw 2"


def test_play_game_with_scripted_reader_and_console() -> None:
    game = new_game(seed=8)
    answers: Iterator[str] = iter(["last"] * 4000)
    prompts: list[str] = []
    asked: list[str] = []
    screen = io.StringIO()

    def read(prompt: str) -> str:
        """Answer with the number of the last choice shown (any legal action will do), and yes
        when asked whether to end a phase with cards left (the last choice often does)."""
        prompts.append(prompt)
        next(answers)
        text = screen.getvalue()
        last = text.splitlines()[-1]
        if last.endswith("? [y/n]"):
            asked.append(last)
            return "yes"
        question = text[text.rfind("Your move (") :]
        return re.findall(r"(?<![0-9])([0-9]+)\. ", question[question.find("):") :])[-1]

    console = make_console()
    console.file = screen
    opponent = Opponent("random", "normal", 1)
    assert play_game(game, IMPERIAL, opponent, read=read, console=console) == Stop.FINISHED
    assert game.outcome is not None
    assert screen.getvalue().splitlines()[-1] in ("You win!", "You lose.")
    assert set(prompts) == {PROMPT} and len(prompts) > 20
    assert asked and all(q.startswith("You have ") for q in asked)


def test_play_is_reproducible_with_a_seed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    outs = []
    for _ in range(2):
        answer_first_choices(monkeypatch, 40)
        cli.main(["play", "--opponent", "random", "--seed", "11"])
        # All but the saved file's name, which says when the game started.
        outs.append(capsys.readouterr().out.replace(str(unfinished_games()[0].path), "FILE"))
    assert outs[0] == outs[1]
    assert "Game saved in\n  FILE\n" in outs[0]


def test_play_bad_options_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    feed_stdin(monkeypatch)
    assert cli.main(["play", "--opponent", "random", "--rule", "tie=sometimes"]) == 2
    assert "rules option tie must be one of" in capsys.readouterr().err
    assert cli.main(["play", "--opponent", "random", "--rule", "nonsense"]) == 2
    assert "name=value" in capsys.readouterr().err
    assert cli.main(["play", "--opponent", "random", "--cards", str(tmp_path / "none.toml")]) == 2
    assert "card file not found" in capsys.readouterr().err
    assert (
        cli.main(
            ["play", "--opponent", "random", "--save", str(tmp_path / "no" / "such" / "r.json")]
        )
        == 2
    )
    assert "does not exist" in capsys.readouterr().err
    assert cli.main(["play", "--resume", str(tmp_path / "none.json")]) == 2
    assert "none.json" in capsys.readouterr().err
    for bad in (["--side", "droid"], ["--level", "medium"], ["--level", "0"]):
        with pytest.raises(SystemExit) as exc:
            cli.main(["play", "--opponent", "random", *bad])
        assert exc.value.code == 2


def test_resolve_choice() -> None:
    legal = [(10, "deploy Rebel Soldier"), (11, "deploy Grav Cycles"), (12, "done deploying")]
    assert resolve_choice("2", legal) == (11, "")
    assert resolve_choice(" 3. ", legal) == (12, "")
    assert resolve_choice("DEPLOY   rebel soldier", legal) == (10, "")
    assert resolve_choice("done", legal) == (12, "")
    assert resolve_choice("deploy g", legal) == (11, "")
    action, problem = resolve_choice("deploy", legal)
    assert action is None and "could be any of" in problem
    action, problem = resolve_choice("-1", legal)
    assert action is None and "from 1 to 3" in problem
    action, problem = resolve_choice("fly away", legal, lambda text: f"{text} is silly")
    assert (action, problem) == (None, "fly away is silly")


def test_battle_shows_current_ratings_that_add_up_to_the_group_values() -> None:
    """Each unit in a group is shown with its current ratings (attachments, psion cards and
    the battle bonus of Surprise Attack or Trap counted, R13/R30), as the view gives them: so
    the group's value is the sum of its units' shown ratings of its kind."""
    unit = re.compile(r"\((\d+)/(\d+)/(\d+)\)")
    checked = bonus = 0
    for seed in range(200, 212):
        game = new_game(seed, log=False)
        rng = random.Random(seed)
        while game.to_move >= 0:
            view = game.view(REBEL)
            if view.battle is not None:
                lines = battle_lines(view.battle, view.active_player, view.step)
                for g, line in zip(view.battle.groups, lines[1:], strict=False):
                    if not g.units:
                        continue
                    units = line.split(" = ")[0]
                    k = 0 if g.kind == "ground" else 1
                    shown = sum(int(m[k]) for m in unit.findall(units))
                    assert shown == g.attack_value and f" = {g.attack_value}" in line, line
                    checked += 1
                bonus += view.battle.attack_bonus > 0
            game.apply(rng.choice(game.legal_actions()))
    assert checked > 50 and bonus > 0  # positions with a battle bonus were among them


# --- simulate ----------------------------------------------------------------------------------


def test_simulate_json_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    results = []
    for _ in range(2):
        assert cli.main(["simulate", "--games", "6", "--seed", "40", "--json"]) == 0
        results.append(json.loads(capsys.readouterr().out))
    a, b = results
    assert set(a) == {"games", "wins", "mean_turns", "games_per_second"}
    assert a["games"] == 6 and a["wins"]["rebel"] + a["wins"]["imperial"] == 6
    assert (a["wins"], a["mean_turns"]) == (b["wins"], b["mean_turns"])
    assert a["games_per_second"] > 0


def test_simulate_game_i_uses_seed_s_plus_i() -> None:
    whole = simulate(4, 100)
    parts = [simulate(1, 100 + i) for i in range(4)]
    assert whole.rebel_wins == sum(p.rebel_wins for p in parts)
    assert whole.mean_turns == pytest.approx(sum(p.mean_turns for p in parts) / 4)


def test_simulate_text_rules_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        cli.main(["simulate", "--games", "2", "--rule", "tie=defender", "--rule", "hand_limit=9"])
        == 0
    )
    out = capsys.readouterr().out
    assert "2 random-vs-random games, seeds 0..1" in out and "Rebel wins:" in out
    assert cli.main(["simulate", "--games", "2", "--rule", "hand_limit=many"]) == 2
    assert "rules option hand_limit must be an integer, got 'many'" in capsys.readouterr().err
    assert cli.main(["simulate", "--rule", "draw_min=3"]) == 2
    assert "draw_min (3) is more than draw_max (2)" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        cli.main(["simulate", "--games", "0"])
    assert exc.value.code == 2
    assert "--games: must be at least 1" in capsys.readouterr().err


# --- bench -------------------------------------------------------------------------------------


def test_bench_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bench", "--json", "--games", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 2 and data["decisions"] > 0
    for key in ("games_per_second", "decisions_per_second", "copy_us"):
        assert data[key] > 0
    assert data["python"].count(".") == 2
    assert data["ismcts_iterations_per_second"] > 0


def test_bench_engine_only_skips_the_search_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bench", "--json", "--games", "1", "--engine-only"]) == 0
    assert "ismcts_iterations_per_second" not in json.loads(capsys.readouterr().out)


def test_bench_says_which_build_of_the_engine_it_runs(capsys: pytest.CaptureFixture[str]) -> None:
    from rebelspace.build import build_kind

    assert cli.main(["bench", "--json", "--games", "1", "--engine-only"]) == 0
    build = json.loads(capsys.readouterr().out)["build"]
    assert build in {"compiled", "pure"} and build == build_kind()


def test_bench_text_and_bad_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bench", "--games", "1", "--engine-only", "--rule", "max_groups=4"]) == 0
    out = capsys.readouterr().out
    assert "copy_us" in out and "decisions_per_second" in out
    assert cli.main(["bench", "--rule", "max_groups=0"]) == 2
    assert "max_groups must be an integer >= 1" in capsys.readouterr().err


# --- replay ------------------------------------------------------------------------------------


def test_replay_prints_the_original_log_and_result(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = random_game(21)
    path = tmp_path / "r.json"
    save_record(game, path)
    assert cli.main(["replay", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:-1] == game.log_lines()
    outcome = game.outcome
    assert outcome is not None
    assert lines[-1] == f"Result: {outcome.winner_name} wins on turn {game.turn} ({outcome.reason})"

    assert cli.main(["replay", str(path), "--player", "imperial"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:-1] == game.log_lines(IMPERIAL) != game.log_lines()

    assert cli.main(["replay", str(path), "--json", "--player", "rebel"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["log"] == game.log_lines(REBEL)
    assert data["result"] == {
        "winner": outcome.winner_name.lower(),
        "reason": outcome.reason,
        "turns": game.turn,
    }


def test_replay_of_a_played_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "played.json"
    answer_first_choices(monkeypatch)
    cli.main(["play", "--opponent", "random", "--seed", "6", "--save", str(path)])
    played = log_lines(capsys.readouterr().out)
    assert cli.main(["replay", str(path), "--player", "rebel"]) == 0
    replayed = capsys.readouterr().out.splitlines()[:-1]
    # The game said each of its log lines as the replay does, in order, a player's moves in
    # a row on one line; the others (the battles' steps, the player's own choices) the
    # battle results and the choices said.
    assert played
    at = 0
    for line in played:
        at = said_from(line, replayed, at)
    assert len(played) < len(replayed)


def unlisted(text: str) -> str:
    """A log line without the cards its "deploys" lists (grouped: ``Bombers ×2, Troopers``,
    so a run's first cards need not start them)."""
    return re.sub(r"deploys [^;]*", "deploys", text)


def said_from(line: str, replayed: list[str], at: int) -> int:
    """Where in ``replayed`` after ``at`` the log ``line`` ends: the line is the ``LogRun`` of
    replayed lines from one on (lines the game said elsewhere left out)."""
    for start in range(at, len(replayed)):
        run = LogRun()
        run.add(replayed[start])
        if not line.startswith(run.text()):
            continue
        for k in range(start + 1, len(replayed) + 1):
            if run.text() == line:
                return k
            if k == len(replayed):
                break
            more = LogRun()
            for part in (*run.texts, replayed[k]):
                more.add(part)
            if len(more.texts) == len(run.texts) + 1 and unlisted(line).startswith(
                unlisted(more.text())
            ):
                run = more
    raise AssertionError(f"not said by the replay in order: {line!r}")


def test_replay_of_an_unfinished_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "part.json"
    save_record(random_game(3, actions=25), path)
    assert cli.main(["replay", str(path)]) == 0
    assert "Unfinished game: 25 actions" in capsys.readouterr().out


def test_replay_errors_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert cli.main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "cannot read the record" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert cli.main(["replay", str(bad)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    path = tmp_path / "r.json"
    save_record(random_game(2, actions=10), path)
    data = json.loads(path.read_text())
    data["actions"].insert(1, "fly to the moon")
    path.write_text(json.dumps(data))
    assert cli.main(["replay", str(path)]) == 2
    assert "action 2 ('fly to the moon') cannot be replayed" in capsys.readouterr().err
    path.write_text(json.dumps([1, 2]))
    assert cli.main(["replay", str(path)]) == 2
    assert "a record is a JSON object" in capsys.readouterr().err


def test_replay_result_must_match(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = random_game(5)
    path = tmp_path / "r.json"
    save_record(game, path)
    data = json.loads(path.read_text())
    data["result"]["winner"] = "imperial" if data["result"]["winner"] == "rebel" else "rebel"
    path.write_text(json.dumps(data))
    assert cli.main(["replay", str(path)]) == 2
    assert "but replaying it gives" in capsys.readouterr().err


# --- scenario ----------------------------------------------------------------------------------


def test_scenario_json_worked_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["scenario", str(WORKED_EXAMPLE), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["legal_actions"] == WORKED_PICKS
    assert data["to_move"] == "imperial"
    assert (data["turn"], data["phase"], data["step"], data["player"]) == (
        5,
        "attack",
        "casualties",
        "rebel",
    )
    rebel, imperial = data["zones"]["rebel"], data["zones"]["imperial"]
    assert set(rebel) == {"hand", "deck", "discard", "active", "inactive"}
    assert [u["name"] for u in rebel["active"]] == [
        "Princess",
        "Rebel Soldier",
        "Rebel Soldier",
        "Grav Cycles",
        "Air Speeders",
    ]
    assert rebel["active"][0] == {"name": "Princess", "attachments": []}
    assert imperial["discard"] == ["Fixed Defenses"] and imperial["active"] == []
    assert len(rebel["deck"]) == 71 and len(imperial["deck"]) == 66
    group = data["battle"]["groups"][0]
    assert (group["kind"], group["value"], data["battle"]["casualty_budget"]) == ("ground", 10, 4)
    assert data["winner"] is None and data["log"][0].startswith("Scenario: turn 5")


def test_scenario_text_worked_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["scenario", str(WORKED_EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "Turn 5, Rebel's turn: attack phase, step casualties; Imperial to decide" in out
    assert "  deck (71, top first): " in out
    for n, text in enumerate(WORKED_PICKS, start=1):
        assert f"  {n}. {text}\n" in out
    assert "Fixed Defenses destroyed" in out


def test_scenario_errors_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert cli.main(["scenario", str(tmp_path / "none.json")]) == 2
    assert "cannot read the scenario" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"phase": "lunch"}))
    assert cli.main(["scenario", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rebelspace scenario: ") and "field 'phase'" in err
    bad.write_text(json.dumps({"rebel": {"hand": ["Death Star"]}}))
    assert cli.main(["scenario", str(bad), "--json"]) == 2
    assert "no card named 'Death Star'" in capsys.readouterr().err
    assert cli.main(["scenario", str(WORKED_EXAMPLE), "--cards", str(tmp_path / "x.toml")]) == 2
    assert "card file not found" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["play", "simulate", "bench", "replay", "scenario"])
def test_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main([command, "--help"])
    assert exc.value.code == 0
    assert command in capsys.readouterr().out


@pytest.mark.parametrize("command", ["", *cli.SUBCOMMANDS])
def test_help_of_every_command_prints(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    # argparse formats help strings with %: a bare "50%" crashed `rebelspace --help`.
    argv = [command, "--help"] if command else ["--help"]
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    assert exc.value.code == 0
    out, err = capsys.readouterr()
    assert out.startswith(f"usage: rebelspace {command}".rstrip())
    assert err == ""


def test_help_of_every_subparser_exits_0_and_prints_its_description(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Every subcommand the parser holds (not only those in SUBCOMMANDS) and the main command:
    # each has a description, and its --help exits 0 and prints it.
    monkeypatch.setenv("COLUMNS", "1000")  # argparse wraps to this: one line per paragraph
    parser = cli.build_parser()
    (subparsers,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert set(cli.SUBCOMMANDS) <= set(subparsers.choices)
    for name, sub in [("", parser), *subparsers.choices.items()]:
        assert sub.description, f"rebelspace {name}: no description"
        with pytest.raises(SystemExit) as exc:
            cli.main([name, "--help"] if name else ["--help"])
        assert exc.value.code == 0, name
        out, err = capsys.readouterr()
        assert err == "", name
        assert " ".join(sub.description.split()) in " ".join(out.split()), name
        # argparse %-formats help strings but not descriptions: a "%%" there shows as typed.
        assert "%%" not in out, name


def test_a_reader_that_goes_away_ends_the_command_quietly() -> None:
    # ``rebelspace simulate --json | head -1``: nothing more to say, no traceback (cli.main).
    done = run_into_a_closed_pipe("simulate", "--games", "1", "--json")
    assert done.returncode == 0 and done.stderr == ""
