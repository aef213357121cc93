"""A minimal progress bar on stderr (no dependency), silent when stderr is not a terminal unless forced."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(self, total: int, label: str = "", stream: TextIO | None = None, enabled: bool | None = None):
        self.total = max(1, int(total))
        self.label = label
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self._t0 = time.perf_counter()
        self._last = 0.0
        self.done = 0
        self._closed = False

    def update(self, done: int, note: str = "") -> None:
        self.done = done
        now = time.perf_counter()
        if not self.enabled or (now - self._last < 0.2 and done < self.total):
            return
        self._last = now
        frac = min(1.0, done / self.total)
        width = 30
        bar = "#" * int(frac * width) + "-" * (width - int(frac * width))
        rate = done / max(now - self._t0, 1e-9)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{self.total} {rate:5.1f} fps {note[:40]:<40}")
        self.stream.flush()

    def close(self) -> None:
        """End the bar's line (once: a second call does nothing)."""
        if self.enabled and not self._closed:
            self.update(self.done)
            self.stream.write("\n")
            self.stream.flush()
        self._closed = True
