"""Which resting balls touch a cushion or each other: the ``ShotStart`` extensions of art. 9 and 10.

A ball is frozen to a cushion when its centre lies R from that cushion's nose line (our frame:
head x = 0, foot x = L, right y = 0, left y = W); two balls are in contact when their centres are
2R apart. ``tol_mm`` absorbs float rounding only: the simulator's positions are exact, so a ball
placed on purpose against a cushion is within micrometres, and one that merely stopped near it
is not frozen.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from itertools import combinations

from tracking.ids import BallId, Cushion

PointMm = tuple[float, float]


def frozen_to_cushion(
    positions: Mapping[BallId, PointMm],
    length_mm: float,
    width_mm: float,
    r_mm: float,
    tol_mm: float = 0.01,
) -> dict[BallId, Cushion]:
    """Each ball whose centre is within ``tol_mm`` of R from a nose line, with that cushion (the
    nearest when a ball sits in a corner against two)."""
    out: dict[BallId, Cushion] = {}
    for ball, (x, y) in positions.items():
        gaps = {
            Cushion.HEAD: x - r_mm,
            Cushion.FOOT: length_mm - x - r_mm,
            Cushion.RIGHT: y - r_mm,
            Cushion.LEFT: width_mm - y - r_mm,
        }
        cushion, gap = min(gaps.items(), key=lambda kv: abs(kv[1]))
        if abs(gap) <= tol_mm:
            out[ball] = cushion
    return out


def balls_in_contact(
    positions: Mapping[BallId, PointMm], r_mm: float, tol_mm: float = 0.01
) -> tuple[tuple[BallId, BallId], ...]:
    """The pairs of balls whose centres are 2R apart within ``tol_mm``, in ``positions`` order."""
    pairs = []
    for (a, pa), (b, pb) in combinations(positions.items(), 2):
        if abs(math.dist(pa, pb) - 2.0 * r_mm) <= tol_mm:
            pairs.append((a, b))
    return tuple(pairs)
