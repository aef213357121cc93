"""The fouls of snooker (002 snooker ART 2.2, cases 1-15) and their penalties (ART 2.1).

ART 2.1: the penalty is at least four points and goes to the opponent; with several fouls in one
stroke only the highest counts, and any points of that stroke are void. Each case of ART 2.2 says
which balls' values decide its penalty (:class:`Basis`); the engine gives the balls of the stroke
and :func:`penalty` takes the highest value, at least 4. A free ball counts for its penalty as the
ball on (ART 1.10: it "would have the value of the snookered ball").

Found in the event log (``camera=True``): cases 1, 2, 3, 5, 6, 7, 8, 9. Declared by the referee
(no camera sees them): 4 (snookering behind the free ball: needs sight lines), 10, 11, 12, 13, 14,
15. A referee may also declare a camera foul the log missed, and overrule a camera foul.
"""

from __future__ import annotations

from enum import Enum

from rules.core.errors import RefereeInputError
from rules.core.fouls import FoulInfo
from rules.core.parsing import parse_member

__all__ = ["MIN_PENALTY", "Basis", "SnookerFoul", "ORDER", "parse_foul", "penalty"]

MIN_PENALTY = 4


class Basis(Enum):
    """Which values decide a foul's penalty (each at least :data:`MIN_PENALTY`)."""

    ON_OR_HIT = "the ball on or the ball hit"
    ON = "the ball on"
    TWO_BALLS = "the higher of the two balls"
    ON_OR_OFF = "the ball on or the ball that left the table"
    ON_OR_POCKETED = "the ball on or the ball pocketed"
    SEVEN = "seven points"
    ANY = "the ball on, pocketed, hit or wrongly placed"
    ON_OR_TOUCHED = "the ball on or the ball touched"
    ON_HIT_OR_POCKETED = "the ball on, hit or pocketed"


class SnookerFoul(Enum):
    """ART 2.2's cases (value = the name used in referee input and calls.jsonl)."""

    CUE_BALL_POCKETED = "cue_ball_pocketed"
    WRONG_BALL_FIRST = "wrong_ball_first"
    NO_BALL_HIT = "no_ball_hit"
    SNOOKER_BEHIND_FREE_BALL = "snooker_behind_free_ball"
    TWO_BALLS_AT_ONCE = "two_balls_at_once"
    BALL_OFF_TABLE = "ball_off_table"
    CUE_BALL_OFF_TABLE = "cue_ball_off_table"
    POCKETED_BALL_NOT_ON = "pocketed_ball_not_on"
    PLAYED_NON_CUE_BALL = "played_non_cue_ball"
    REDS_IN_SUCCESSIVE_STROKES = "reds_in_successive_strokes"
    NO_FOOT_ON_FLOOR = "no_foot_on_floor"
    PLAYED_BEFORE_READY = "played_before_ready"
    TOUCHED_BALL = "touched_ball"
    PUSH_SHOT = "push_shot"
    JUMP_SHOT = "jump_shot"
    OUT_OF_TURN = "out_of_turn"

    @property
    def info(self) -> FoulInfo:
        return _INFO[self]

    @property
    def article(self) -> str:
        """The article of ART 2.2 that names this foul ("ART 2.2.1")."""
        return self.info.articles

    @property
    def basis(self) -> Basis:
        """Which values decide this foul's penalty (ART 2.1)."""
        return _BASIS[self]


def _snooker(article: str, basis: Basis, camera: bool, description: str) -> tuple[FoulInfo, Basis]:
    return FoulInfo(description, article, camera), basis


_TABLE: dict[SnookerFoul, tuple[FoulInfo, Basis]] = {
    SnookerFoul.CUE_BALL_POCKETED: _snooker("ART 2.2.1", Basis.ON_OR_HIT, True, "the cue ball was pocketed"),
    SnookerFoul.WRONG_BALL_FIRST: _snooker(
        "ART 2.2.2", Basis.ON_OR_HIT, True, "the cue ball hit first a ball that was not on"
    ),
    SnookerFoul.NO_BALL_HIT: _snooker("ART 2.2.3", Basis.ON, True, "the cue ball hit no ball"),
    SnookerFoul.SNOOKER_BEHIND_FREE_BALL: _snooker(
        "ART 2.2.4", Basis.ON, False, "the opponent was snookered behind the free ball"
    ),
    SnookerFoul.TWO_BALLS_AT_ONCE: _snooker(
        "ART 2.2.5", Basis.TWO_BALLS, True, "two balls were hit at once or pocketed in one stroke"
    ),
    SnookerFoul.BALL_OFF_TABLE: _snooker("ART 2.2.6", Basis.ON_OR_OFF, True, "a ball left the table"),
    SnookerFoul.CUE_BALL_OFF_TABLE: _snooker("ART 2.2.6, 1.7", Basis.ON_OR_OFF, True, "the cue ball left the table"),
    SnookerFoul.POCKETED_BALL_NOT_ON: _snooker(
        "ART 2.2.7", Basis.ON_OR_POCKETED, True, "a ball that was not on was pocketed"
    ),
    SnookerFoul.PLAYED_NON_CUE_BALL: _snooker(
        "ART 2.2.8", Basis.SEVEN, True, "a ball other than the cue ball was struck"
    ),
    SnookerFoul.REDS_IN_SUCCESSIVE_STROKES: _snooker(
        "ART 2.2.9", Basis.SEVEN, True, "a red was played in two successive strokes"
    ),
    SnookerFoul.NO_FOOT_ON_FLOOR: _snooker(
        "ART 2.2.10", Basis.ANY, False, "the striker played without a foot on the floor"
    ),
    SnookerFoul.PLAYED_BEFORE_READY: _snooker(
        "ART 2.2.11", Basis.ANY, False, "the striker played before the balls had stopped or were (properly) spotted"
    ),
    SnookerFoul.TOUCHED_BALL: _snooker(
        "ART 2.2.12", Basis.ON_OR_TOUCHED, False, "a ball was touched other than with the cue tip"
    ),
    SnookerFoul.PUSH_SHOT: _snooker("ART 2.2.13", Basis.ON_HIT_OR_POCKETED, False, "the cue ball was pushed"),
    SnookerFoul.JUMP_SHOT: _snooker("ART 2.2.14", Basis.ON_HIT_OR_POCKETED, False, "the cue ball jumped over a ball"),
    SnookerFoul.OUT_OF_TURN: _snooker("ART 2.2.15", Basis.ON_HIT_OR_POCKETED, False, "a player played out of turn"),
}

_INFO: dict[SnookerFoul, FoulInfo] = {f: info for f, (info, _) in _TABLE.items()}
_BASIS: dict[SnookerFoul, Basis] = {f: basis for f, (_, basis) in _TABLE.items()}

#: Article order, to break ties between fouls of the same penalty.
ORDER: dict[SnookerFoul, int] = {f: i for i, f in enumerate(SnookerFoul)}


def parse_foul(value: object, where: str) -> SnookerFoul:
    return parse_member(SnookerFoul, value, "snooker foul", RefereeInputError, where)


def penalty(basis: Basis, on_value: int, ball_values: tuple[int, ...]) -> int:
    """The penalty of one foul: seven, or the highest of the values that its ``basis`` counts
    (``on_value`` where the basis names the ball on, and ``ball_values``), at least four."""
    if basis is Basis.SEVEN:
        return 7
    vals = list(ball_values)
    if basis is not Basis.TWO_BALLS:
        vals.append(on_value)
    return max([MIN_PENALTY] + vals)
