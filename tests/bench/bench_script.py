"""Importing a script of ``bench/`` in a test: its folder on ``sys.path`` while it is in use (the
scripts import their neighbours, bench/real.py and bench/sections.py), removed after."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "bench"


def bench_script(stem: str) -> Iterator[ModuleType]:
    """``bench/<stem>.py`` as a module, for a module-scoped fixture (``yield from``)."""
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location(f"bench_{stem}", BENCH / f"{stem}.py")
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        yield mod
    finally:
        sys.path.remove(str(BENCH))
