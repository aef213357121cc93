"""The table as each stage needs it: the calibration's table spec turned into the rules' spots.

Contract: :func:`table_spots` is the one place where a :class:`calibration.table.TableSpec` becomes
:class:`rules.core.table.TableSpots` (the break spots of the opening check, :mod:`rules.core.opening`,
and snooker's colour spots). Why here: ``rules/`` may not import calibration (DESIGN.md), so the app,
which knows both, hands the spots over; every command (analyze, judge, events) and the truth
comparison use this one function, so a table of another size is judged on its own spots everywhere.
"""

from __future__ import annotations

from calibration.table import TableSpec
from rules.core.table import TableSpots

__all__ = ["table_spots"]


def table_spots(table: TableSpec) -> TableSpots:
    """The spots of ``table`` as the rules need them (see the module docstring)."""
    return TableSpots(table.length_mm, table.width_mm, table.ball_diameter_mm, dict(table.spots_mm))
