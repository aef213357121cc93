"""Where the table's visible features lie in the world: the model the calibration fits to a frame.

Contract (DESIGN.md table frame, mm, z up from the cloth): each of the four sides ``head`` (x = 0),
``foot`` (x = L), ``right`` (y = 0), ``left`` (y = W) has a frame (:class:`SideFrame`) with an
along-side coordinate ``s`` from 0 to the side's length and an outward offset ``o`` from the cushion
nose line. A camera above the table sees, going outward on every side:

- the **nose line** (``o = 0``, ``z = cushion_nose_height_mm``): the bed's visible edge (the rubber
  nose overhangs the cushion's foot, so it is the silhouette from every camera above the rails);
- the **cloth/wood edge** (``o = cushion_width_mm``, ``z = rail_height_mm``): where the cushion cloth
  meets the wooden rail;
- the **diamonds** on the rail top (``o = diamond_setback_mm``, ``z = rail_height_mm``), at
  ``s = length * k / (n + 1)``, k = 1..n (carom: marks at 1/8 of the length, RFEB ART 2).

The offsets of the cloth/wood edge and of the diamonds are the spec's values by default; the solver
may treat them as unknowns near those values, because real tables differ from the spec by a few mm
there while the playing surface (the nose rectangle) is fixed by the rules.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.table import TableSpec
from common.errors import TabletrackError

SIDES: tuple[str, ...] = ("head", "foot", "right", "left")
NOSE = "nose"
CLOTH_WOOD = "cloth_wood"
EDGE_KINDS: tuple[str, ...] = (NOSE, CLOTH_WOOD)
# The 180-degree turn of the table about its centre swaps these (the table alone cannot tell them).
OPPOSITE_SIDE = {"head": "foot", "foot": "head", "right": "left", "left": "right"}


@dataclass(frozen=True)
class SideFrame:
    """One side of the table: ``origin`` (x, y) of its nose line at s = 0, unit ``tangent`` along
    it, unit ``outward`` normal, and its ``length_mm``."""

    side: str
    origin: tuple[float, float]
    tangent: tuple[float, float]
    outward: tuple[float, float]
    length_mm: float

    def points(self, s_mm: np.ndarray, o_mm: np.ndarray | float, z_mm: np.ndarray | float) -> np.ndarray:
        """(N, 3) world points at along-side ``s_mm``, outward offset ``o_mm``, height ``z_mm``."""
        s = np.asarray(s_mm, np.float64).reshape(-1)
        o = np.broadcast_to(np.asarray(o_mm, np.float64), s.shape)
        z = np.broadcast_to(np.asarray(z_mm, np.float64), s.shape)
        x = self.origin[0] + s * self.tangent[0] + o * self.outward[0]
        y = self.origin[1] + s * self.tangent[1] + o * self.outward[1]
        return np.column_stack([x, y, z])

    def coords(self, xy_mm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(s, o) of world plan points (N, 2): inverse of :meth:`points` in plan."""
        p = np.asarray(xy_mm, np.float64).reshape(-1, 2) - np.asarray(self.origin)[None, :]
        return p @ np.asarray(self.tangent), p @ np.asarray(self.outward)


def side_frame(table: TableSpec, side: str) -> SideFrame:
    L, W = table.length_mm, table.width_mm
    frames = {
        "head": SideFrame("head", (0.0, 0.0), (0.0, 1.0), (-1.0, 0.0), W),
        "foot": SideFrame("foot", (L, 0.0), (0.0, 1.0), (1.0, 0.0), W),
        "right": SideFrame("right", (0.0, 0.0), (1.0, 0.0), (0.0, -1.0), L),
        "left": SideFrame("left", (0.0, W), (1.0, 0.0), (0.0, 1.0), L),
    }
    try:
        return frames[side]
    except KeyError:
        raise TabletrackError(f"unknown table side {side!r}: expected one of {', '.join(SIDES)}") from None


def edge_height_mm(table: TableSpec, kind: str) -> float:
    return table.cushion_nose_height_mm if kind == NOSE else table.rail_height_mm


def edge_offset_mm(table: TableSpec, kind: str) -> float:
    return 0.0 if kind == NOSE else table.cushion_width_mm


def diamond_positions(table: TableSpec) -> list[tuple[str, int, float]]:
    """(side, k, s_mm) of every diamond (the spec's :meth:`TableSpec.diamond_marks`: a pocket's
    mouth carries none), in side order."""
    marks = table.diamond_marks()
    return [(m.side, m.k, m.s_mm) for side in SIDES for m in marks if m.side == side]


def flip_xy(table: TableSpec, xy_mm: np.ndarray) -> np.ndarray:
    """Plan points in the table frame turned 180 degrees about the centre (head ↔ foot)."""
    p = np.asarray(xy_mm, np.float64).reshape(-1, 2)
    return np.column_stack([table.length_mm - p[:, 0], table.width_mm - p[:, 1]])
