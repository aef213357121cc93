"""14.1 continuous's own fields of a call (README.md), in the order written.

One frozen value per call instead of an untyped dict: the engine fills every field, and the
writer (:func:`rules.core.call.call_to_dict`) writes them in this order after the shared keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.core.extras import CallExtras, PocketedJson

__all__ = ["StraightPoolExtras"]


@dataclass(frozen=True)
class StraightPoolExtras(CallExtras):
    """A 14.1 call's own fields (JSON-ready values)."""

    called: Mapping[str, str] | None
    call_assumed: bool
    safety: bool
    pocketed: list[PocketedJson]
    scored: list[str]
    respot: Mapping[str, str]
    run: int
    innings: Mapping[str, int]
    high_run: Mapping[str, int]
    consecutive_fouls: Mapping[str, int]
    next_player: str | None
    next_is_break: bool
    ball_in_hand: str | None
    option: str | None
    choice: str | None
    rerack: Any
    rack: int
    balls_on_table: int | None
