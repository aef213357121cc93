"""What changed on the table between two shots: respotted balls, a ball placed by hand, a re-rack.

Between strokes the balls do not move by themselves; what differs between one shot's
``ShotEnd.positions`` and the next shot's ``ShotStart.positions`` was done by hand (the tracker
follows a ball into the hand and out again, or re-acquires a pocketed ball where it appears:
:mod:`tracking.tracker`). This module names those changes for the rules and reports:

- :class:`Respotted`: a ball off the table at the end of a shot (pocketed, off the table) is on it
  at the next start (nine-ball 9 on the foot spot, snooker colours on their spots); ``spot``
  names the table spot it stands on (within a ball radius) where there is one;
- :class:`Placed`: a ball on the table at both moments that stands elsewhere (more than
  ``moved_mm``), or the cue ball back from a pocket (ball in hand);
- :class:`Reracked`: ``rerack_min`` balls or more back on the table at once, within the rack
  area (14.1 continuous: 14 balls racked), instead of one :class:`Respotted` each.

Pure functions of the event values (and the table's spots); no geometry beyond distances.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from calibration.table import TableSpec
from tracking.events import Event, OffTable, Pocketed, ShotEnd, ShotStart, group_shots
from tracking.ids import BallId

PointMm = tuple[float, float]


@dataclass(frozen=True)
class Respotted:
    after_shot: int
    ball: BallId
    pos_mm: PointMm
    spot: str | None


@dataclass(frozen=True)
class Placed:
    after_shot: int
    ball: BallId
    from_mm: PointMm | None  # None: back from a pocket (or off the table)
    to_mm: PointMm


@dataclass(frozen=True)
class Reracked:
    after_shot: int
    balls: tuple[BallId, ...]


Change = Respotted | Placed | Reracked


def _nearest_spot(table: TableSpec, p: PointMm, tol_mm: float) -> str | None:
    best = min(table.spots_mm.items(), key=lambda kv: math.dist(kv[1], p), default=None)
    if best is not None and math.dist(best[1], p) <= tol_mm:
        return best[0]
    return None


def _rack_centre(table: TableSpec) -> PointMm | None:
    for name in ("rack_apex", "foot_spot", "reds_apex"):
        if name in table.spots_mm:
            return table.spots_mm[name]
    return None


def between_shots(
    events: Sequence[Event], table: TableSpec, moved_mm: float | None = None, rerack_min: int = 3
) -> list[Change]:
    """The changes between every two consecutive shots of an event log (see the module
    docstring). ``moved_mm`` defaults to a ball radius."""
    tol = table.ball_radius_mm if moved_mm is None else float(moved_mm)
    shots = group_shots(list(events))
    out: list[Change] = []
    for prev, nxt in zip(shots, shots[1:]):
        end: ShotEnd | None = prev.end
        start: ShotStart | None = nxt.start
        if start is None:
            continue
        gone = {e.ball for e in prev.events if isinstance(e, (Pocketed, OffTable))}
        before = dict(end.positions) if end is not None else {}
        for b in gone:
            before.pop(b, None)
        back = [b for b in start.positions if b not in before and (b in gone or end is not None)]
        rack = _rack_centre(table)
        rack_r = 5.0 * table.ball_diameter_mm
        racked = [
            b
            for b in back
            if b is not BallId.CUE and rack is not None and math.dist(start.positions[b], rack) <= rack_r
        ]
        if len(racked) >= rerack_min:
            out.append(Reracked(prev.number, tuple(sorted(racked, key=lambda b: b.value))))
        else:
            racked = []
        for b in sorted(back, key=lambda b: b.value):
            if b in racked:
                continue
            p = start.positions[b]
            if b is BallId.CUE:
                out.append(Placed(prev.number, b, None, p))
            else:
                out.append(Respotted(prev.number, b, p, _nearest_spot(table, p, table.ball_radius_mm)))
        for b, p in sorted(start.positions.items(), key=lambda kv: kv[0].value):
            q = before.get(b)
            if q is not None and math.dist(p, q) > tol:
                out.append(Placed(prev.number, b, q, p))
    return out
