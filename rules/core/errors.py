"""The errors of the rules engines: all ``ValueError`` subclasses whose message is one line saying
what was expected and what came, so the CLI can print it without a traceback."""

from __future__ import annotations

from common.errors import TabletrackError

__all__ = ["RulesError", "RulesConfigError", "RefereeInputError", "ShotError"]


class RulesError(TabletrackError):
    """Base of every error raised by :mod:`rules`."""


class RulesConfigError(RulesError):
    """A judging setting (:class:`rules.core.config.JudgeConfig`) out of its range."""


class RefereeInputError(RulesError):
    """Referee input (players, match, starting state, per-shot fouls) that is malformed or
    inconsistent; raised both by the JSON loader and by the Python constructors."""


class ShotError(RulesError):
    """A shot of the event log that this game cannot judge (e.g. a ball that is not a carom ball)."""
