"""Snooker's own fields of a call (README.md), in the order written.

One frozen value per call instead of an untyped dict: the engine fills every field, and the
writer (:func:`rules.core.call.call_to_dict`) writes them in this order after the shared keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.core.extras import CallExtras, PocketedJson, json_key

__all__ = ["SnookerExtras"]


@dataclass(frozen=True)
class SnookerExtras(CallExtras):
    """A snooker call's own fields (JSON-ready values)."""

    frame: int
    ball_on: str
    nominated: str | None
    nominated_by: Any
    free_ball: str | None
    first_ball: str | None
    pocketed: list[PocketedJson]
    off_table: list[str]
    scored: list[str]
    penalty: int
    penalty_to: str | None
    choice: str | None
    respot: Mapping[str, str]
    respot_mm: Mapping[str, list[float]]
    #: written as ``break`` (a Python keyword): the points of the current break
    break_: int = field(metadata=json_key("break"))
    break_over: bool
    high_break: Mapping[str, int]
    reds_remaining: int
    next_ball_on: str | None
    next_player: str | None
    ball_in_hand: bool
    points_remaining: int
    snookers_required: Mapping[str, int]
    frames_won: Mapping[str, int]
    frame_winner: str | None
    re_spotted_black: bool
