"""Eight-ball's own fields of a call (README.md), in the order written.

One frozen value per call instead of an untyped dict: the engine fills every field, and the
writer (:func:`rules.core.call.call_to_dict`) writes them in this order after the shared keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.core.extras import CallExtras, PocketedJson

__all__ = ["EightBallExtras"]


@dataclass(frozen=True)
class EightBallExtras(CallExtras):
    """An eight-ball call's own fields (JSON-ready values)."""

    rack: int
    first_ball: str | None
    pocketed: list[PocketedJson]
    off_table: list[str]
    called: Mapping[str, Any] | None
    safety: bool
    legal_break: bool | None
    group: Mapping[str, str | None]
    group_chosen: str | None
    respot: Mapping[str, str]
    ball_in_hand: bool
    behind_head_string: bool
    option: str | None
    choice: str | None
    loss: list[str]
    stalemate: bool
    balls_on_table: list[str]
    racks: Mapping[str, int]
    next_is_break: bool
    at_table: str
