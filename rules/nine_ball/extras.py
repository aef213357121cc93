"""The nine-ball family's own fields of a call (README.md "calls.jsonl"), in the order written.

One frozen value per call instead of an untyped dict: the engine fills every field, and the
writer (:func:`rules.core.call.call_to_dict`) writes them in this order after the shared keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.core.extras import OMIT_NONE, CallExtras, PocketedJson

__all__ = ["NineBallExtras"]


@dataclass(frozen=True)
class NineBallExtras(CallExtras):
    """A nine-, ten-, seven-, six-ball or rotation call's own fields (JSON-ready values)."""

    rack: int
    racks: Mapping[str, int]
    first_ball: str | None
    lowest_ball: str | None
    pocketed: list[PocketedJson]
    off_table: list[str]
    respot: list[str]
    push_out: bool
    choice: str | None
    called: Mapping[str, Any] | None
    call_assumed: bool
    safety: bool
    consecutive_fouls: Mapping[str, int]
    warning: bool
    rack_winner: str | None
    stalemate: bool
    next_at_table: str
    next_is_break: bool
    ball_in_hand: bool
    push_out_allowed: bool
    option: bool
    balls_on_table: list[str]
    #: rotation only (the match's points by player); not written for the racks-only games
    match_points: Mapping[str, int] | None = field(default=None, metadata=OMIT_NONE)
