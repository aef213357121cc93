"""Where a potted colour goes back (002 snooker ART 1.6, 1.8): the engine's only geometry.

While reds remain (and for the colour taken after the last red) a potted colour is put back on
its own spot ("su posición teórica inicial", ART 1.6); if that spot is taken by another ball, on
the free spot of the highest value (ART 1.8). The document does not say what happens when every
spot is taken; the world rules' answer is used: as near as possible to its own spot on the line
from that spot toward the top cushion (and, if that line is blocked, toward the baulk cushion).
Several colours are put back highest value first, each then occupying its spot for the next.

Whether a spot is free is read from the shot end's positions: a spot is taken when a ball centre
is within one ball diameter of it. The spots are the table's (:class:`SnookerSpots`, built from
the table spec the application hands in, :class:`rules.core.table.TableSpots`, in the table frame
of DESIGN.md: the baulk cushion is the head, x = 0); without a table, or with one that does not
name the six colours' spots, those of the standard 12 ft table (:data:`STANDARD`, the values of
``calibration/tables/snooker.json``: rules/ may not import calibration; a test keeps them equal).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from rules.core.table import PointMm, TableSpots
from rules.snooker.balls import COLOUR_VALUES, COLOURS
from tracking.ids import BallId

__all__ = [
    "SnookerSpots",
    "STANDARD",
    "SPOTS_MM",
    "BALL_DIAMETER_MM",
    "Respot",
    "respot_colours",
    "is_free",
    "spot_name",
]

TABLE_LENGTH_MM = 3569.0
TABLE_WIDTH_MM = 1778.0
BALL_DIAMETER_MM = 52.5
BAULK_LINE_X_MM = 737.0
D_RADIUS_MM = 292.0
BLACK_FROM_TOP_MM = 324.0

_MID_Y = TABLE_WIDTH_MM / 2
_BLUE_X = TABLE_LENGTH_MM / 2
#: The colours' spots, mm: yellow, green and brown on the baulk line (yellow on the right of the D
#: seen from the baulk end, y < W/2), blue at the centre, pink midway between blue and the top
#: cushion, black 324 mm from the top cushion.
SPOTS_MM: Mapping[BallId, PointMm] = MappingProxyType(
    {
        BallId.YELLOW: (BAULK_LINE_X_MM, _MID_Y - D_RADIUS_MM),
        BallId.GREEN: (BAULK_LINE_X_MM, _MID_Y + D_RADIUS_MM),
        BallId.BROWN: (BAULK_LINE_X_MM, _MID_Y),
        BallId.BLUE: (_BLUE_X, _MID_Y),
        BallId.PINK: ((_BLUE_X + TABLE_LENGTH_MM) / 2, _MID_Y),
        BallId.BLACK: (TABLE_LENGTH_MM - BLACK_FROM_TOP_MM, _MID_Y),
    }
)


@dataclass(frozen=True)
class SnookerSpots:
    """The colours' spots of the table played on, its length (a colour put back near its spot
    stays on the cloth) and the ball (a spot is taken within one diameter)."""

    spots_mm: Mapping[BallId, PointMm]
    ball_diameter_mm: float
    length_mm: float

    @staticmethod
    def of_table(table: TableSpots | None) -> SnookerSpots:
        """The spots of ``table`` (its spec's ``spots_mm`` named ``yellow`` … ``black``), or the
        standard table's (:data:`STANDARD`) where there is no table or it does not name all six."""
        if table is None or not all(c.value in table.spots_mm for c in COLOURS):
            return STANDARD
        spots = {c: (float(table.spots_mm[c.value][0]), float(table.spots_mm[c.value][1])) for c in COLOURS}
        return SnookerSpots(MappingProxyType(spots), float(table.ball_diameter_mm), float(table.length_mm))


#: The standard 12 ft table (002 snooker ART 1.1).
STANDARD = SnookerSpots(SPOTS_MM, BALL_DIAMETER_MM, TABLE_LENGTH_MM)


def spot_name(colour: BallId) -> str:
    return f"{colour.value}_spot"


@dataclass(frozen=True)
class Respot:
    """Where one colour went back: ``spot`` ("blue_spot", or "near_blue_spot" when every spot was
    taken), its centre, and the article that put it there."""

    ball: BallId
    spot: str
    pos_mm: PointMm
    article: str

    def describe(self) -> str:
        if self.spot == spot_name(self.ball):
            return f"the {self.ball.value} goes back on its own spot"
        if self.spot.startswith("near_"):
            return (
                f"the {self.ball.value} goes as near its own spot as it can, at x {self.pos_mm[0]:.0f} mm "
                "(every spot is taken)"
            )
        return (
            f"the {self.ball.value} goes on the {self.spot.replace('_', ' ')}, the highest free one (its own is taken)"
        )


def is_free(spot_mm: PointMm, occupied: Iterable[PointMm], ball_diameter_mm: float = BALL_DIAMETER_MM) -> bool:
    """No ball centre within one ball diameter of ``spot_mm``."""
    return all(math.dist(spot_mm, p) >= ball_diameter_mm for p in occupied)


def _along_line(own: PointMm, occupied: list[PointMm], table: SnookerSpots) -> PointMm | None:
    """The free point nearest ``own`` on the line y = own y toward the top cushion, else toward
    the baulk cushion; None if the whole line is blocked."""
    d = table.ball_diameter_mm
    r = d / 2
    y = own[1]
    blocked: list[tuple[float, float]] = []
    for bx, by in occupied:
        dy = abs(by - y)
        if dy < d:
            half = math.sqrt(d**2 - dy**2)
            blocked.append((bx - half, bx + half))

    def free(x: float) -> bool:
        return all(not (lo < x < hi) for lo, hi in blocked)

    up = [own[0]] + sorted(hi for _, hi in blocked if hi >= own[0])
    for x in up:
        if x <= table.length_mm - r and free(x):
            return (x, y)
    down = sorted((lo for lo, _ in blocked if lo <= own[0]), reverse=True)
    for x in down:
        if x >= r and free(x):
            return (x, y)
    return None


def respot_colours(
    colours: Iterable[BallId], positions_mm: Mapping[BallId, PointMm], table: SnookerSpots = STANDARD
) -> tuple[Respot, ...]:
    """Put ``colours`` back (ART 1.6, 1.8; see the module docstring) on ``table``'s spots given
    the balls at rest (``positions_mm``: the shot end's; the colours being put back are ignored
    there). Highest value first."""
    spots, d = table.spots_mm, table.ball_diameter_mm
    todo = sorted(set(colours), key=lambda b: -COLOUR_VALUES[b])
    occupied = [p for b, p in positions_mm.items() if b not in todo]
    out: list[Respot] = []
    for ball in todo:
        own = spots[ball]
        if is_free(own, occupied, d):
            placed = Respot(ball, spot_name(ball), own, "ART 1.6")
        else:
            free = next((c for c in reversed(COLOURS) if is_free(spots[c], occupied, d)), None)
            if free is not None:
                placed = Respot(ball, spot_name(free), spots[free], "ART 1.8")
            else:
                p = _along_line(own, occupied, table) or own
                placed = Respot(ball, "near_" + spot_name(ball), p, "ART 1.8; world rules when every spot is taken")
        occupied.append(placed.pos_mm)
        out.append(placed)
    return tuple(out)
