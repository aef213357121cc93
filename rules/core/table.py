"""The table played on, as the rules need it: its size, the ball and its named spots.

``rules`` may not import :mod:`calibration` (DESIGN.md "Stages and what each may know"), so the
application builds this small frozen value from calibration's table spec
(``tabletrack.tables.table_spots``: ``length_mm``, ``width_mm``, ``ball_diameter_mm`` and
``spots_mm``, the spec's named spots in the DESIGN.md table frame) and hands it to
:func:`rules.core.judge.judge_events` / :func:`rules.core.engine.engine_for`. Two rules read it:
the opening check (:mod:`rules.core.opening`: carom ``foot``, ``head_centre``, ``head_left``,
``head_right``; pool ``foot_spot``; snooker ``pink``) and snooker's respotting (the colours'
spots ``yellow`` … ``black``: :mod:`rules.snooker.spots`). Without a table each rule uses the
standard table of its game, so a log judged without one gives the same calls as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["PointMm", "TableSpots"]

PointMm = tuple[float, float]


@dataclass(frozen=True)
class TableSpots:
    """What the rules need of the table: its size, the ball, and its named spots (mm, the table
    spec's ``spots_mm``)."""

    length_mm: float
    width_mm: float
    ball_diameter_mm: float
    spots_mm: Mapping[str, PointMm] = field(default_factory=dict)
