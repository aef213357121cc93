"""The errors of the nine-ball engines (``ValueError`` subclasses with one-line messages)."""

from __future__ import annotations

from rules.core.errors import RefereeInputError

__all__ = ["NineBallInputError"]


class NineBallInputError(RefereeInputError):
    """Referee input that is malformed, or that does not fit the game state at its shot (the
    message then names the shot)."""
