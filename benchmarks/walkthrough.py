"""The README's designer walkthrough, rerun: each ``$ rebelspace ...`` line of the README's
"A designer's walkthrough" block runs in a folder of its own, and its output is compared with
what the README shows, dates and speeds aside (issue 35: "the README's walkthrough, rerun
from a fresh clone, prints what the README shows").

    PYTHONPATH=src python benchmarks/walkthrough.py                 # compare; exit 1 if it differs
    PYTHONPATH=src python benchmarks/walkthrough.py --update        # write the outputs into README
    PYTHONPATH=src python benchmarks/walkthrough.py --dir DIR       # keep the folder (resumable)

The lab resumes what a folder already holds, so an interrupted run given the same ``--dir``
carries on. ``compare`` lines name run id prefixes as ``runs`` shows them; with ``--update``
they are rewritten to the prefixes of the runs this rerun made (the runs' ids change when the
code plays differently, by design: lab/version.py).
"""

from __future__ import annotations

import argparse
import difflib
import re
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
START = "**A designer's walkthrough**"
PROMPT = "$ rebelspace "

# What may differ between two honest runs: when it ran and how fast.
_VOLATILE = [
    (re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d"), "DATE"),
    (re.compile(r"at [\d.,]+ games/s"), "at SPEED games/s"),
    (re.compile(r"played \d+ now"), "played N now"),
]


def normalise(text: str) -> str:
    for pattern, repl in _VOLATILE:
        text = pattern.sub(repl, text)
    return text


def block(readme: str) -> tuple[int, int]:
    """The walkthrough's code block: (index of its first line, index past its last)."""
    lines = readme.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(START))
    open_ = next(i for i in range(start, len(lines)) if lines[i].startswith("```"))
    close = next(i for i in range(open_ + 1, len(lines)) if lines[i].startswith("```"))
    return open_ + 1, close


def commands(lines: list[str]) -> list[tuple[str, list[str]]]:
    """(command line, the output the README shows) for each ``$`` line of the block."""
    out: list[tuple[str, list[str]]] = []
    for line in lines:
        if line.startswith(PROMPT):
            out.append((line, []))
        elif out:
            out[-1][1].append(line)
    return out


def run(line: str, folder: Path, run_ids: list[str]) -> tuple[str, list[str]]:
    """Run one README line in ``folder``; the line (with compare's prefixes made to match
    this rerun's runs) and its output lines."""
    shown, _, comment = line.partition("#")
    words = shlex.split(shown[len("$ ") :])
    if words[1] == "compare" and len(run_ids) >= 2:
        words[2:4] = [run_ids[0][:4], run_ids[1][:4]]
        line = "$ " + shlex.join(words)
        line = f"{line:<39} #{comment}" if comment else line
    cmd = [sys.executable, "-m", "rebelspace.cli", *words[1:]]
    done = subprocess.run(cmd, cwd=folder, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{line}\nfailed ({done.returncode}):\n{done.stderr}")
    return line, done.stdout.rstrip("\n").splitlines()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--update", action="store_true", help="write this run's outputs into README")
    p.add_argument("--dir", type=Path, help="the folder to run in (kept; resumes)")
    args = p.parse_args()
    readme = README.read_text(encoding="utf-8")
    lines = readme.splitlines()
    first, past = block(readme)
    steps = commands(lines[first:past])
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.dir or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        new: list[str] = []
        differs = 0
        run_ids: list[str] = []
        start = time.perf_counter()
        for readme_line, shown in steps:
            line, got = run(readme_line, folder, run_ids)
            if line.split()[2:3] == ["runs"]:
                run_ids = [g.split()[0] for g in got if g.strip()]
            same = [normalise(g) for g in got] == [normalise(s) for s in shown]
            differs += not same
            print(f"{'same' if same else 'DIFFERS'}: {line}", flush=True)
            if not same and not args.update:
                diff = difflib.unified_diff(shown, got, "README", "rerun", lineterm="")
                print("\n".join(diff))
            new += [line, *got]
    wall = time.perf_counter() - start
    used = resource.getrusage(resource.RUSAGE_CHILDREN)  # the commands and their workers
    cpu = used.ru_utime + used.ru_stime
    print(
        f"{len(steps) - differs} of {len(steps)} commands print what the README shows "
        f"({wall / 60:.1f} min, {cpu / 60:.1f} CPU-minutes)",
        flush=True,
    )
    if args.update and differs:
        README.write_text("\n".join([*lines[:first], *new, *lines[past:]]) + "\n", encoding="utf-8")
        print(f"README.md: walkthrough block rewritten ({differs} commands changed)")
    return 1 if differs and not args.update else 0


if __name__ == "__main__":
    raise SystemExit(main())
