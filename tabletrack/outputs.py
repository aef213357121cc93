"""Output files written while the analysis runs, each line flushed as it is found."""

from __future__ import annotations

from pathlib import Path
from typing import IO


class TracksCsvWriter:
    """``tracks.csv``: ``t,frame,ball,x_mm,y_mm,observed,confidence`` — the first five are what
    ``tabletrack events`` reads back (any extra columns are ignored there)."""

    HEADER = "t,frame,ball,x_mm,y_mm,observed,confidence\n"

    def __init__(self, path: str | Path) -> None:
        self._f: IO[str] = Path(path).open("w", encoding="utf-8")
        self._f.write(self.HEADER)
        self._n = 0

    def write(self, t_s: float, frame: int, ball: str, x_mm: float, y_mm: float, observed: bool,
              confidence: float) -> None:
        self._f.write(f"{t_s:.5f},{frame},{ball},{x_mm:.2f},{y_mm:.2f},{int(observed)},{confidence:.3f}\n")
        self._n += 1
        if self._n % 64 == 0:
            self._f.flush()

    def close(self) -> None:
        self._f.close()

    def __enter__(self) -> "TracksCsvWriter":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
