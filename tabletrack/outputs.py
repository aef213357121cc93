"""Where a command writes: never over one of its own inputs, and one run at a time per output.

Contract: :func:`check_outputs` refuses, in one line naming both, an output path that is one of the
command's input files (the same resolved path, or the same file by device and inode through a
link), or two outputs that are one file; it runs before anything is read or written.
:func:`output_lock` holds an exclusive, non-blocking lock for the run (``fcntl.flock`` on a lock
file: ``.tabletrack.lock`` inside an output folder, ``.<name>.lock`` beside an output file) and
refuses a second run on the same output in one line; the operating system drops the lock when the
process ends, however it ends, so a killed run leaves no stale lock. The empty lock file stays (removing
it would let a run that opened it just before lock a file no later run sees).

:class:`RunOutputs` keeps one run's outputs in a folder whole: every output of ``analyze`` is
written as ``NAME.partial`` (streamed files line by line, whole files through a temporary name,
:mod:`common.atomic`) and :meth:`RunOutputs.commit` renames them all to their names when the run
has ended well, and removes the previous run's outputs this run did not write (an
``annotated.mp4`` after a ``--no-video`` run, a ``score_sheet.json`` after a run with no shot). A
run that fails or is interrupted leaves the previous run's outputs as they were and its own as
``*.partial`` beside them: never a mix of the two under the outputs' names.

Why: ``calibrate shot.png -o shot.json`` wrote its check image over ``shot.png``; ``analyze
DIR/annotated.mp4 --out DIR`` overwrote the video it was reading; two runs on one folder
interleaved their JSON lines.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator, Mapping
from pathlib import Path

from common.atomic import partial_path
from common.errors import TabletrackError, shorten

__all__ = ["ANALYZE_OUTPUTS", "OutputPathError", "RunOutputs", "check_outputs", "output_lock"]

#: the files ``analyze`` writes into its ``--out`` folder
ANALYZE_OUTPUTS = ("events.jsonl", "calls.jsonl", "tracks.csv", "calibration.json", "score_sheet.json", "annotated.mp4")


class OutputPathError(TabletrackError):
    """An output would replace an input, or another run is writing the same output."""


def _same_file(a: Path, b: Path) -> bool:
    if a.resolve() == b.resolve():
        return True
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def check_outputs(inputs: Mapping[str, str | Path | None], outputs: Mapping[str, str | Path | None]) -> None:
    """Raise :class:`OutputPathError` if an output is an input or two outputs are one file.

    ``inputs`` and ``outputs`` map a label the user recognises (``"the video"``, ``"-o"``) to a path;
    ``None`` entries (an option not given) are skipped."""
    ins = [(label, Path(p)) for label, p in inputs.items() if p is not None and str(p) != ""]
    outs = [(label, Path(p)) for label, p in outputs.items() if p is not None and str(p) != ""]
    for out_label, out in outs:
        for in_label, src in ins:
            if _same_file(out, src):
                raise OutputPathError(
                    f"{shorten(out)}: {out_label} would overwrite {in_label}; choose another {out_label.split()[0]}"
                )
    for i, (label_a, a) in enumerate(outs):
        for label_b, b in outs[i + 1 :]:
            if _same_file(a, b):
                raise OutputPathError(
                    f"{shorten(a)}: {label_a} and {label_b} are the same file; give them different paths"
                )


@contextlib.contextmanager
def output_lock(path: str | Path, *, folder: bool) -> Iterator[None]:
    """Hold the run's lock on ``path`` (an output folder when ``folder``, else an output file)."""
    p = Path(path)
    if folder:
        p.mkdir(parents=True, exist_ok=True)
        lock_path = p / ".tabletrack.lock"
    else:
        p.parent.mkdir(parents=True, exist_ok=True)
        lock_path = p.parent / f".{p.name}.lock"
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise OutputPathError(
                f"{shorten(p)}: another tabletrack run is writing there now; wait for it to end or choose another output"
            ) from None
        yield
    finally:
        os.close(fd)


class RunOutputs:
    """One run's outputs in ``folder`` (see the module docstring): :meth:`path` gives the
    ``.partial`` path to write an output at, :meth:`commit` puts them all in place."""

    def __init__(self, folder: Path, names: tuple[str, ...] = ANALYZE_OUTPUTS) -> None:
        self.folder = folder
        self.names = names
        self._written: set[str] = set()

    def path(self, name: str) -> Path:
        """Where to write the output ``name`` during the run: ``folder/name.partial``."""
        if name not in self.names:
            raise ValueError(f"{name!r} is not one of this run's outputs {self.names}")
        self._written.add(name)
        return partial_path(self.folder / name)

    def final(self, name: str) -> Path:
        """Where the output ``name`` stands once the run is committed."""
        return self.folder / name

    def commit(self) -> None:
        """Rename every output written to its name; remove the outputs of an earlier run (and its
        leftover ``.partial`` files) that this run did not write."""
        for name in self.names:
            final, partial = self.folder / name, partial_path(self.folder / name)
            if name in self._written and partial.exists():
                os.replace(partial, final)
            else:
                for stale in (final, partial):
                    stale.unlink(missing_ok=True)
