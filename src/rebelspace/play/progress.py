"""The progress bar of long runs (arena, balance lab): tqdm on a terminal, else nothing."""

from __future__ import annotations

import sys
from typing import Protocol


class Progress(Protocol):
    def update(self, n: int) -> object: ...

    def close(self) -> None: ...


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(
    total: int, progress: bool | None, initial: int = 0, unit: str = "game"
) -> Progress:
    """tqdm on a terminal (games done, rate, time left); nothing when ``progress`` is False,
    or when it is None and stderr is not a terminal, or when tqdm is not installed (it comes
    with the lab extra: the arena itself needs only the core)."""
    if progress is None:
        progress = sys.stderr.isatty()
    if not progress:
        return _NoBar()
    try:
        from tqdm import tqdm
    except ModuleNotFoundError:
        return _NoBar()

    bar: Progress = tqdm(total=total, initial=initial, unit=unit, file=sys.stderr)
    return bar
