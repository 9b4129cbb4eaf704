"""Work in chunk files, the way every training command stores its games: one file a chunk,
written whole or not at all, so that a stopped run resumes with the chunks it lacks and the
same seed makes the same files."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol, TypeVar

from rebelspace.play.pool import parallel_map
from rebelspace.play.progress import progress_bar


class Named(Protocol):
    @property
    def name(self) -> str: ...


C = TypeVar("C", bound=Named)


def write_whole(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that the file exists only once complete: resuming
    trusts any chunk file it finds."""
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


def run_chunks(
    folder: Path,
    chunks: Sequence[C],
    work: Callable[[tuple[C, str]], str],
    *,
    workers: int,
    progress: bool | None,
) -> list[Path]:
    """``work((chunk, folder))`` for every chunk whose file ``folder`` lacks, on ``workers``
    processes (``work`` writes the file); every chunk's file, in the order of ``chunks``."""
    folder.mkdir(parents=True, exist_ok=True)
    todo = [c for c in chunks if not (folder / c.name).exists()]
    bar = progress_bar(len(chunks), progress, initial=len(chunks) - len(todo), unit="chunk")
    try:
        jobs = [(c, str(folder)) for c in todo]
        for _ in parallel_map(work, jobs, workers=workers, ordered=False):
            bar.update(1)
    finally:
        bar.close()
    return [folder / c.name for c in chunks]
