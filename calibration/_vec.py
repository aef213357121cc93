"""Fixed-length float tuples from numpy rows or JSON lists, under the types the dataclasses declare.

``tuple(float(v) for v in x)`` is a ``tuple[float, ...]`` to the type checker; these build the same
tuple and give it the fixed-length type (``CameraModel.rvec``, ``CameraState.nose_mm`` …). They
check no length: where a length matters the caller checks it, as before (``calibration.table``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

__all__ = ["floats3", "floats4"]


def floats3(v: Iterable[Any]) -> tuple[float, float, float]:
    """``tuple(float(c) for c in v)``, typed as a 3-vector."""
    return cast("tuple[float, float, float]", tuple(float(c) for c in v))


def floats4(v: Iterable[Any]) -> tuple[float, float, float, float]:
    """``tuple(float(c) for c in v)``, typed as four values (one per side, a box)."""
    return cast("tuple[float, float, float, float]", tuple(float(c) for c in v))
