"""Starting layouts of pool and snooker in our table frame (DESIGN.md), for the simulators.

- nine-ball: a diamond (rows 1-2-3-2-1) with the 1 on the foot spot at the apex and the 9 in the
  centre (000 nine-ball "the rack"), the others in random places;
- eight-ball: a triangle (rows 1..5) with its apex on the foot spot, the 8 in the centre of the
  third row, a solid and a stripe in the two back corners, the others in random places;
- snooker: the 15 reds in a triangle whose apex sits just behind the pink (toward the top
  cushion), the colours on their spots.

Neighbouring balls are ``gap_mm`` apart plus a random wiggle below it (balls that touch exactly
make a simulator's contact detection ambiguous). Rows grow toward the foot (+x). Pure Python,
the random generator is the caller's (``random.Random``), so layouts are reproducible.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping

from tracking.ids import BallId

PointMm = tuple[float, float]


def _triangle(
    apex: PointMm, rows: list[int], r_mm: float, gap_mm: float, rng: random.Random, centred: bool = True
) -> list[list[PointMm]]:
    """Positions row by row: each row ``rows[k]`` balls wide, row k at apex.x + k*sqrt(3)*r'."""
    rr = r_mm + gap_mm / 2.0
    out: list[list[PointMm]] = []
    for k, n in enumerate(rows):
        x = apex[0] + k * math.sqrt(3.0) * rr
        row = []
        for j in range(n):
            y = apex[1] + (j - (n - 1) / 2.0) * 2.0 * rr
            a, d = rng.uniform(0, 2 * math.pi), rng.uniform(0, gap_mm / 4.0)
            row.append((x + d * math.cos(a), y + d * math.sin(a)))
        out.append(row)
    return out


def nine_ball_rack(foot_spot: PointMm, r_mm: float, rng: random.Random, gap_mm: float = 0.2) -> dict[BallId, PointMm]:
    rows = _triangle(foot_spot, [1, 2, 3, 2, 1], r_mm, gap_mm, rng)
    others = [BallId.parse(str(i)) for i in range(2, 9)]
    rng.shuffle(others)
    layout: dict[BallId, PointMm] = {BallId.B1: rows[0][0], BallId.B9: rows[2][1]}
    free = [rows[1][0], rows[1][1], rows[2][0], rows[2][2], rows[3][0], rows[3][1], rows[4][0]]
    layout.update(zip(others, free))
    return layout


def eight_ball_rack(foot_spot: PointMm, r_mm: float, rng: random.Random, gap_mm: float = 0.2) -> dict[BallId, PointMm]:
    rows = _triangle(foot_spot, [1, 2, 3, 4, 5], r_mm, gap_mm, rng)
    solids = [BallId.parse(str(i)) for i in range(1, 8)]
    stripes = [BallId.parse(str(i)) for i in range(9, 16)]
    rng.shuffle(solids)
    rng.shuffle(stripes)
    corner_a, corner_b = (solids.pop(), stripes.pop()) if rng.random() < 0.5 else (stripes.pop(), solids.pop())
    layout: dict[BallId, PointMm] = {BallId.B8: rows[2][1], corner_a: rows[4][0], corner_b: rows[4][4]}
    rest = solids + stripes
    rng.shuffle(rest)
    free = [
        p
        for k, row in enumerate(rows)
        for j, p in enumerate(row)
        if not ((k, j) == (2, 1) or (k, j) == (4, 0) or (k, j) == (4, 4))
    ]
    layout.update(zip(rest, free))
    return layout


SNOOKER_COLOURS = (BallId.YELLOW, BallId.GREEN, BallId.BROWN, BallId.BLUE, BallId.PINK, BallId.BLACK)


def snooker_layout(
    spots: Mapping[str, PointMm], r_mm: float, rng: random.Random, gap_mm: float = 0.2
) -> dict[BallId, PointMm]:
    """Colours on their spots, the reds' apex one ball plus ``gap_mm`` behind the pink."""
    pink = spots["pink"]
    apex = (pink[0] + 2 * r_mm + 1.0, pink[1])
    rows = _triangle(apex, [1, 2, 3, 4, 5], r_mm, gap_mm, rng)
    reds = [BallId.parse(f"red_{i}") for i in range(1, 16)]
    layout: dict[BallId, PointMm] = dict(zip(reds, [p for row in rows for p in row]))
    for c in SNOOKER_COLOURS:
        layout[c] = spots[c.value]
    return layout
