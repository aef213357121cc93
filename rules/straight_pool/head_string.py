"""Where the head string and the spots are, in the event log's table frame, for 14.1.

The table's spots reach the rules as :class:`rules.core.table.TableSpots` (the opening check and
snooker's respots read them), but 14.1 reads its geometry from the match instead: the head string
(ball in hand behind it after a scratch, 004 art. 10) and, to read a re-rack, the spots. So the
match gives one length: ``head_string_mm``, the head string's distance from the head cushion nose
(x = 0) in the frame of the shot_start positions; the default 635 mm is a quarter of the 9-ft
table's 2540 mm playing length (the head string is at L/4). A pool table is twice as long as it is
wide, so from H = ``head_string_mm``: the long string is y = H (W / 2 = L / 4), the head spot is
(H, H), the centre spot (2H, H), the foot spot (3H, H).

"Behind the head string" is x < H for a ball's centre; a ball whose centre is on the string is
not behind it (General Rules: a ball on the head string is playable).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from rules.core.errors import RefereeInputError
from rules.core.table import PointMm
from tracking.ids import BallId

__all__ = ["HEAD_STRING_X_MM", "MOVED_MM", "ON_SPOT_MM", "StringGeometry", "distance_mm", "moved"]


#: 9-ft table: the head string a quarter of the 2540 mm playing length from the head cushion.
HEAD_STRING_X_MM: float = 635.0
#: A ball further than this from where it rested has been moved (re-racked, spotted, placed): well
#: above the tracker's jitter on a resting ball (a few mm), well below a ball diameter (57 mm).
MOVED_MM: float = 20.0
#: A ball within this of a spot stands on that spot (a ball's radius on a 9-ft table).
ON_SPOT_MM: float = 28.6


@dataclass(frozen=True)
class StringGeometry:
    """The head string and the spots derived from it (see the module docstring)."""

    head_string_mm: float = HEAD_STRING_X_MM

    def __post_init__(self) -> None:
        h = self.head_string_mm
        if isinstance(h, bool) or not isinstance(h, (int, float)) or not math.isfinite(h) or h <= 0:
            raise RefereeInputError(f"match.head_string_mm must be a positive number of mm, got {h!r}")

    @property
    def spots(self) -> dict[str, PointMm]:
        h = float(self.head_string_mm)
        return {"head_spot": (h, h), "centre_spot": (2 * h, h), "foot_spot": (3 * h, h)}

    def behind(self, pos: PointMm) -> bool:
        """The ball centre ``pos`` is behind the head string (in the kitchen)."""
        return pos[0] < self.head_string_mm

    def spot_of(self, pos: PointMm) -> str | None:
        """The spot ``pos`` stands on ("head_spot", "centre_spot", "foot_spot"), or None."""
        for name, p in self.spots.items():
            if distance_mm(p, pos) <= ON_SPOT_MM:
                return name
        return None


def distance_mm(a: PointMm, b: PointMm) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def moved(before: Mapping[BallId, PointMm], after: Mapping[BallId, PointMm], ball: BallId) -> bool | None:
    """Whether ``ball`` stands elsewhere in ``after`` than in ``before`` (None: a side lacks it)."""
    if ball not in before or ball not in after:
        return None
    return distance_mm(before[ball], after[ball]) > MOVED_MM
