"""How a carom match ends (referee input ``"match"``): the distance, the innings limit and the
number of sets, per 002 ART 12 (distance, no innings limit), ART 13 (with an innings limit) and
ART 14 (sets).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.core.errors import RefereeInputError

__all__ = ["MatchConfig"]


def _opt_positive_int(value: object, name: str) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RefereeInputError(f"match.{name} must be a positive integer or null, got {value!r}")


@dataclass(frozen=True)
class MatchConfig:
    """How a game ends.

    ``distance``: the points to reach (None: no distance). ``innings_limit``: the most innings
    each player plays (002 ART 13; None: no limit). ``sets``: best of this many sets, each a game
    to the distance with no equalizing inning (002 ART 14; the rules name 3 and 5; any odd number
    is accepted). With neither a distance nor a limit the game never ends: every shot is scored.
    Sets need a distance and admit no innings limit (002 ART 14.1.1: the set goes to whoever first
    reaches the distance).
    """

    distance: int | None = None
    innings_limit: int | None = None
    sets: int | None = None

    def __post_init__(self) -> None:
        _opt_positive_int(self.distance, "distance")
        _opt_positive_int(self.innings_limit, "innings_limit")
        _opt_positive_int(self.sets, "sets")
        if self.sets is not None:
            if self.sets % 2 == 0:
                raise RefereeInputError(f"match.sets must be odd (best of 3 or 5, 002 ART 14.1.2), got {self.sets}")
            if self.distance is None:
                raise RefereeInputError(
                    "match.sets needs match.distance: each set is a game to the distance "
                    "(002 ART 14.1.1), got distance null"
                )
            if self.innings_limit is not None:
                raise RefereeInputError(
                    "match.innings_limit must be null with match.sets: a set goes to whoever first reaches the "
                    f"distance (002 ART 14.1.1), got innings_limit {self.innings_limit}"
                )

    @property
    def sets_to_win(self) -> int | None:
        """Sets needed to win the match (2 of 3, 3 of 5), or None without sets."""
        return None if self.sets is None else self.sets // 2 + 1
