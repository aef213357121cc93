"""Writing an output so that a reader never sees half of it, and a failed run never leaves one.

Contract, two kinds of output:

- **Whole-file outputs** (``calibration.json``, a score sheet, a check image, the annotated
  video): :func:`atomic_path` hands out a temporary name in the same folder (so the final
  ``os.replace`` is a rename on one file system, atomic), and on leaving its block without an
  error renames it into place; on an error the temporary file is removed and whatever stood at
  the path before is untouched. :func:`write_text_atomic` does that for a text.
- **Streamed outputs** (``events.jsonl``, ``calls.jsonl``, ``tracks.csv``: appended and flushed
  line by line, so an interrupted run keeps what it found): :func:`streamed_path` hands out
  ``NAME.partial`` (:func:`partial_path`) and on success renames it to ``NAME``; on an error or an
  interrupt the ``.partial`` file stays, beside the previous run's ``NAME`` which it never
  touched. A file called ``*.partial`` is therefore always the output of a run that did not end.

Why: ``calibrate`` killed while writing left a truncated ``calib.json`` that the next ``analyze``
refused; an ``analyze`` that failed at shot 3 left its new ``events.jsonl`` beside the old run's
``annotated.mp4`` and ``score_sheet.json``, a mix no one could tell apart from a whole run.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

__all__ = ["PARTIAL_SUFFIX", "atomic_path", "partial_path", "streamed_path", "write_text_atomic"]

PARTIAL_SUFFIX = ".partial"


def partial_path(path: str | Path) -> Path:
    """``NAME.partial`` beside ``path``: where a streamed output is written until its run succeeds."""
    p = Path(path)
    return p.with_name(p.name + PARTIAL_SUFFIX)


@contextlib.contextmanager
def atomic_path(path: str | Path, suffix: str | None = None) -> Iterator[Path]:
    """A temporary path beside ``path``, renamed to ``path`` when the block ends without an error
    and removed when it raises. ``suffix``: the temporary name's extension (default ``path``'s), for
    writers that choose a format from it (OpenCV's image and video writers)."""
    p = Path(path)
    tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp{p.suffix if suffix is None else suffix}")
    try:
        yield tmp
        os.replace(tmp, p)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def write_text_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through :func:`atomic_path`, flushed to disk first."""
    with atomic_path(path) as tmp, tmp.open("w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())


@contextlib.contextmanager
def streamed_path(path: str | Path) -> Iterator[Path]:
    """``NAME.partial`` for a streamed output, renamed to ``path`` when the block ends without an
    error; on an error or an interrupt it stays as the partial output (see the module docstring)."""
    partial = partial_path(path)
    yield partial
    os.replace(partial, Path(path))
