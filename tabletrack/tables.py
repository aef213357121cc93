"""The table as each stage needs it: the calibration's table spec turned into the rules' spots.

Contract: :func:`table_spots` is the one place where a :class:`calibration.table.TableSpec` becomes
:class:`rules.core.table.TableSpots` (the break spots of the opening check, :mod:`rules.core.opening`,
and snooker's colour spots). Why here: ``rules/`` may not import calibration (DESIGN.md), so the app,
which knows both, hands the spots over; every command (analyze, judge, events) and the truth
comparison use this one function, so a table of another size is judged on its own spots everywhere.

:func:`check_table_for_game` refuses a table of another kind than the game's family (a carom table
for nine-ball, which has no pockets and no foot spot to rack on), in one line, for every command.
"""

from __future__ import annotations

from calibration.table import TableSpec, TableSpecError
from rules.core.games import Game
from rules.core.table import TableSpots

__all__ = ["check_table_for_game", "table_spots"]


def check_table_for_game(table: TableSpec, game: Game) -> None:
    """:class:`TableSpecError` unless ``table`` is of the kind ``game`` is played on."""
    if table.kind != game.family.value:
        raise TableSpecError(
            f"{game.value} is played on a {game.family.value} table, but the table is "
            f"{table.name!r} ({table.kind}); give --table {game.family.value} or another --game"
        )


def table_spots(table: TableSpec) -> TableSpots:
    """The spots of ``table`` as the rules need them (see the module docstring)."""
    return TableSpots(table.length_mm, table.width_mm, table.ball_diameter_mm, dict(table.spots_mm))
