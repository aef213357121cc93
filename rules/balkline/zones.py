"""The limited zones of the balk-line carom games, as data (002 ART 19-24).

Zones are the only geometry the rules see (DESIGN.md: "no geometry beyond zones"): polygons in the
table frame (mm from the head cushion nose along x, from the right cushion nose along y), each with
the number of caroms a series may make while both object balls stay in it.

- Libre (ART 21.2): a triangle in each corner, cut by a line from the long cushion 710 mm from the
  corner to the short cushion 315 mm from it (read as: the point on the long cushion at 71 cm and
  the point on the short cushion at 31.5 cm, both from the corner). Two caroms: "entran", one
  carom with both balls staying ("dentro"), then the next must drive one out (ART 21.3).
- Cuadro 47/2 (ART 22): lines 470 mm from every cushion cut the table into nine zones, every one
  a limitation zone ("nueve cuadros o zonas de limitación", 22.1), plus eight anchors, squares of
  178 mm with one side on the cushion, centred on each line's end (22.2-22.3). Two caroms.
- Cuadro 47/1 (ART 23): the same lines; both object balls in one zone are "dentro" at once
  (23.2): one carom, which must drive one out. The anchors keep the 47/2 mechanics (23.3: "salvo
  el matiz del punto 2", which speaks of the cuadros), so two caroms in an anchor.
- Cuadro 71/2 (ART 24): a line along the length 710 mm from a long cushion and two lines 710 mm
  from the short cushions: six zones, with anchors at the six line ends. Two caroms.

A ball whose centre lies on a line (within ``LINE_TOLERANCE_MM``) is in every zone the line bounds:
"exactly on a line" counts against the player (ART 20.3).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.core.games import Game
from rules.core.table import PointMm

__all__ = [
    "PointMm",
    "LINE_TOLERANCE_MM",
    "MATCH_TABLE_MM",
    "ANCHOR_SIDE_MM",
    "Zone",
    "zones_for",
    "zones_holding",
    "nearest_line_mm",
    "astride",
]


#: A centre this close to a zone's boundary is on the line (ART 20.3: counted against the player).
LINE_TOLERANCE_MM = 1.0
#: Match table playing surface (002 ART 2).
MATCH_TABLE_MM = (2840.0, 1420.0)
ANCHOR_SIDE_MM = 178.0


@dataclass(frozen=True)
class Zone:
    """A limitation zone: ``name``, convex polygon ``corners_mm`` (counter-clockwise), ``kind``
    ("corner", "cuadro" or "anchor") and ``caroms_allowed``: caroms a series may make with both
    object balls in it; the one that reaches the number must drive a ball out (ART 19.2, 20.5)."""

    name: str
    kind: str
    corners_mm: tuple[PointMm, ...]
    caroms_allowed: int

    def distance_inside_mm(self, p: PointMm) -> float:
        """Signed distance of ``p`` from the boundary: > 0 inside, < 0 outside (convex polygon)."""
        best = float("inf")
        n = len(self.corners_mm)
        for i in range(n):
            (x0, y0), (x1, y1) = self.corners_mm[i], self.corners_mm[(i + 1) % n]
            ex, ey = x1 - x0, y1 - y0
            length = (ex * ex + ey * ey) ** 0.5
            # left of a counter-clockwise edge is inside
            d = (ex * (p[1] - y0) - ey * (p[0] - x0)) / length
            best = min(best, d)
        return best

    def holds(self, p: PointMm, tolerance_mm: float = LINE_TOLERANCE_MM) -> bool:
        """``p`` is in the zone or on its line (ART 20.3)."""
        return self.distance_inside_mm(p) >= -tolerance_mm


def _rect(name: str, kind: str, x0: float, y0: float, x1: float, y1: float, allowed: int) -> Zone:
    return Zone(name, kind, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), allowed)


def _grid(xs: list[float], ys: list[float], allowed: int) -> list[Zone]:
    rows = ["right", "middle", "left"] if len(ys) == 4 else ["right", "left"]
    cols = ["head", "centre", "foot"]
    out = []
    for i in range(len(xs) - 1):
        for j in range(len(ys) - 1):
            out.append(_rect(f"{cols[i]}_{rows[j]}", "cuadro", xs[i], ys[j], xs[i + 1], ys[j + 1], allowed))
    return out


def _anchors(xs_lines: list[float], ys_lines: list[float], length: float, width: float, allowed: int) -> list[Zone]:
    h = ANCHOR_SIDE_MM / 2.0
    out = []
    for x in xs_lines:  # lines across the table meet the right (y=0) and left (y=W) cushions
        out.append(_rect(f"anchor_x{x:.0f}_right", "anchor", x - h, 0.0, x + h, ANCHOR_SIDE_MM, allowed))
        out.append(_rect(f"anchor_x{x:.0f}_left", "anchor", x - h, width - ANCHOR_SIDE_MM, x + h, width, allowed))
    for y in ys_lines:  # lines along the table meet the head (x=0) and foot (x=L) cushions
        out.append(_rect(f"anchor_y{y:.0f}_head", "anchor", 0.0, y - h, ANCHOR_SIDE_MM, y + h, allowed))
        out.append(_rect(f"anchor_y{y:.0f}_foot", "anchor", length - ANCHOR_SIDE_MM, y - h, length, y + h, allowed))
    return out


def zones_for(game: Game, table_mm: tuple[float, float] = MATCH_TABLE_MM) -> tuple[Zone, ...]:
    """The limitation zones of ``game`` on a table of ``table_mm`` (length, width); none for a game
    without zones (one- and three-cushion, ART 25.2)."""
    length, width = table_mm
    if game is Game.LIBRE:
        a, b = 710.0, 315.0  # along the long cushion, along the short cushion (ART 21.2)
        tri = {
            "corner_head_right": ((0.0, 0.0), (a, 0.0), (0.0, b)),
            "corner_foot_right": ((length, 0.0), (length, b), (length - a, 0.0)),
            "corner_foot_left": ((length, width), (length - a, width), (length, width - b)),
            "corner_head_left": ((0.0, width), (0.0, width - b), (a, width)),
        }
        return tuple(Zone(n, "corner", c, 2) for n, c in tri.items())
    if game in (Game.BALKLINE_47_2, Game.BALKLINE_47_1):
        d = 470.0
        allowed = 1 if game is Game.BALKLINE_47_1 else 2
        xs_l, ys_l = [d, length - d], [d, width - d]
        return tuple(_grid([0.0, *xs_l, length], [0.0, *ys_l, width], allowed) + _anchors(xs_l, ys_l, length, width, 2))
    if game is Game.BALKLINE_71_2:
        d = 710.0
        xs_l, ys_l = [d, length - d], [d]
        return tuple(_grid([0.0, *xs_l, length], [0.0, *ys_l, width], 2) + _anchors(xs_l, ys_l, length, width, 2))
    return ()


def zones_holding(zones: tuple[Zone, ...], a: PointMm, b: PointMm) -> tuple[Zone, ...]:
    """The zones in which both ``a`` and ``b`` lie (ART 20.1 "entran"), lines counted against the
    player (ART 20.3)."""
    return tuple(z for z in zones if z.holds(a) and z.holds(b))


def nearest_line_mm(zones: tuple[Zone, ...], p: PointMm) -> float:
    """How far ``p`` is from the nearest zone line (for doubts about a ball near a line)."""
    return min((abs(z.distance_inside_mm(p)) for z in zones), default=float("inf"))


def astride(zones: tuple[Zone, ...], a: PointMm, b: PointMm, near_mm: float) -> bool:
    """ART 20.2 "a caballo": the two balls rest in different zones of the same kind, each within
    ``near_mm`` of a line, and share no zone."""
    if zones_holding(zones, a, b):
        return False
    za = [z for z in zones if z.holds(a) and z.kind != "anchor"]
    zb = [z for z in zones if z.holds(b) and z.kind != "anchor"]
    return bool(za and zb) and nearest_line_mm(zones, a) <= near_mm and nearest_line_mm(zones, b) <= near_mm
