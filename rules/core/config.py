"""Settings of judging: how sure the evidence must be, for every game.

:class:`JudgeConfig` belongs to the program: below what confidence an event is doubted, and the
frame period under which two events' order is doubted (a contact time is estimated below one frame,
but two events less than a frame apart can still swap). The match settings are each family's own
(carom: :class:`rules.carom.config.MatchConfig`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rules.core.errors import RulesConfigError

__all__ = ["JudgeConfig"]


@dataclass(frozen=True)
class JudgeConfig:
    """``confidence_threshold``: an event below it that decides a call sets ``needs_review``;
    ``frame_period_s``: two deciding events closer than this in time may be in either order."""

    confidence_threshold: float = 0.6
    frame_period_s: float = 1.0 / 30.0

    def __post_init__(self) -> None:
        c = self.confidence_threshold
        if isinstance(c, bool) or not isinstance(c, (int, float)) or not 0.0 <= c <= 1.0:
            raise RulesConfigError(f"confidence_threshold must be a number in 0..1, got {c!r}")
        f = self.frame_period_s
        if isinstance(f, bool) or not isinstance(f, (int, float)) or not math.isfinite(f) or f < 0:
            raise RulesConfigError(f"frame_period_s must be a finite number of seconds >= 0, got {f!r}")
