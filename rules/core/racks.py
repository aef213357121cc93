"""Matches played in racks or frames (pool, snooker): race to N, who breaks, the rack record.

A pool match is a race: the first to win ``race_to`` racks wins (000 1.x "partidas al mejor de";
snooker: best of N frames, i.e. a race to N // 2 + 1). Who breaks the next rack is a choice of the
organiser (000 2.1: the lag decides the first break; then alternate breaks or the winner breaks,
as the competition's rules say): :class:`BreakRule`. These values are shared by every engine that
plays racks, so a score sheet reads the same in every pocket game.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from rules.core.errors import RefereeInputError
from rules.core.parsing import parse_member

__all__ = ["BreakRule", "RaceConfig", "RackRecord"]


class BreakRule(Enum):
    """Who breaks the next rack: the players take turns, the rack's winner breaks, or the loser."""

    ALTERNATE = "alternate"
    WINNER = "winner"
    LOSER = "loser"

    @classmethod
    def parse(cls, value: object, where: str = "match.break") -> BreakRule:
        return parse_member(cls, value, "break rule", RefereeInputError, where)


@dataclass(frozen=True)
class RaceConfig:
    """``race_to``: racks (frames) to win the match, None: play on (every rack is scored, the match
    never ends). ``break_rule``: who breaks after the first rack."""

    race_to: int | None = None
    break_rule: BreakRule = BreakRule.ALTERNATE

    def __post_init__(self) -> None:
        r = self.race_to
        if r is not None and (isinstance(r, bool) or not isinstance(r, int) or r < 1):
            raise RefereeInputError(f"match.race_to must be a positive integer or null, got {r!r}")
        object.__setattr__(self, "break_rule", BreakRule.parse(self.break_rule))

    def next_breaker(self, breaker: int, winner: int) -> int:
        """Who breaks the next rack, given who broke this one and who won it (player indices)."""
        if self.break_rule is BreakRule.WINNER:
            return winner
        if self.break_rule is BreakRule.LOSER:
            return 1 - winner
        return 1 - breaker

    def match_winner(self, racks_won: tuple[int, int]) -> int | None:
        """The player who has won the match with ``racks_won``, or None."""
        if self.race_to is None:
            return None
        for i in (0, 1):
            if racks_won[i] >= self.race_to:
                return i
        return None


@dataclass(frozen=True)
class RackRecord:
    """A finished rack (frame): its number, who broke, who won, how (a sentence citing the rule),
    and the points of each player in it (snooker frames, 14.1, rotation; 0 where the game scores
    racks only)."""

    number: int
    breaker: int
    winner: int
    how: str
    points: tuple[int, int] = (0, 0)
