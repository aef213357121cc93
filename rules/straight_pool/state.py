"""The state of a 14.1 continuous match between shots (frozen values; transitions are pure).

What the rules need to judge the next shot: the object balls on the table (a called ball must be
one of them; the 14th pocketed triggers the re-rack, 004 art. 7.3), who is at the table, whether
the next shot is an opening break (the match's first, or a re-break: 004 art. 6, 7.5, 12), whether
the cue ball is in hand behind the head string (004 art. 10), each player's score (negative
allowed, 004 art. 13), successive fouls (004 art. 12), innings and runs; and what the next shot's
start has to tell: the incoming player's choice when none was given (accept the table or re-rack,
004 art. 6, 7.5, 12: :class:`PendingChoice`) and where the 15th ball and the cue ball went when
they were in the rack's way (004 art. 7.6: :class:`RackPending`).

``InningRecord`` is one line of the 14.1 score sheet: the player's inning, the balls run, the net
points of the inning (balls minus penalties) and the score after it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import Enum

from rules.core.games import Game
from rules.core.table import PointMm
from rules.straight_pool.head_string import StringGeometry
from tracking.ids import BallId

__all__ = [
    "OBJECT_BALLS",
    "Choice",
    "Option",
    "CallsMode",
    "PendingChoice",
    "RackPending",
    "InningRecord",
    "PlayerRecord",
    "StraightPoolState",
]

#: The fifteen object balls of a 14.1 rack (004 art. 3).
OBJECT_BALLS: frozenset[BallId] = frozenset(BallId(str(n)) for n in range(1, 16))


class Choice(Enum):
    """What the incoming player chooses after a breaking violation (004 art. 6), an intentional
    foul (004 art. 7.5) or a third successive foul (004 art. 12)."""

    ACCEPT_TABLE = "accept_table"
    RERACK = "rerack"


class Option(Enum):
    """Why the incoming player has a choice."""

    BREAKING_VIOLATION = "breaking_violation"  # 004 art. 6: the breaker breaks again
    INTENTIONAL_FOUL = "intentional_foul"  # 004 art. 7.5: accept with ball in hand, or the offender breaks
    THIRD_FOUL = "third_foul"  # 004 art. 12: accept, or the offender breaks

    @property
    def article(self) -> str:
        return {
            Option.BREAKING_VIOLATION: "004 art. 6",
            Option.INTENTIONAL_FOUL: "004 art. 7.5",
            Option.THIRD_FOUL: "004 art. 12",
        }[self]


class CallsMode(Enum):
    """A shot with no call in the referee input: ``assume`` takes the first ball pocketed as called
    in the pocket it went into (and says so); ``required`` judges it as a shot with no ball called
    (nothing scores)."""

    ASSUME = "assume"
    REQUIRED = "required"


@dataclass(frozen=True)
class PendingChoice:
    """A choice of ``chooser`` that the referee input did not give; the next shot's start tells it.
    ``scratch``: the cue ball went in or off, so accepting the table means ball in hand behind the
    head string (004 art. 10; always so after an intentional foul, 004 art. 7.5). ``spotted``: the
    balls that go back on the table if it is accepted; ``before``: where the balls stood before the
    shot that gave the choice (to tell whether that shot moved any)."""

    option: Option
    chooser: int
    offender: int
    scratch: bool
    spotted: frozenset[BallId] = frozenset()
    before: Mapping[BallId, PointMm] = field(default_factory=dict)


@dataclass(frozen=True)
class RackPending:
    """A re-rack (004 art. 7.3) the next shot's start shows: ``fifteenth`` the ball that stayed on
    the table (None: it was pocketed too and all 15 are racked), and where it and the cue ball
    rested before the rack (None: the log did not say)."""

    fifteenth: BallId | None
    fifteenth_at: PointMm | None
    cue_at: PointMm | None


@dataclass(frozen=True)
class InningRecord:
    """One inning of the score sheet: whose, his inning number, balls run, net points (balls minus
    penalties), score after it, and how it ended (a few words)."""

    player: int
    number: int
    balls: int
    points: int
    score: int
    ended: str


@dataclass(frozen=True)
class PlayerRecord:
    """One player's tally. ``score`` may be negative (004 art. 13); ``consecutive_fouls`` is the
    successive-foul record of 004 art. 12 (0, 1 or 2); ``fouls`` every foul charged,
    ``breaking_violations`` apart (they are not fouls for art. 12)."""

    name: str
    score: int = 0
    innings: int = 0
    high_run: int = 0
    consecutive_fouls: int = 0
    fouls: int = 0
    breaking_violations: int = 0
    balls: int = 0

    @property
    def average(self) -> float:
        """Points per inning (0 before the first inning)."""
        return self.score / self.innings if self.innings else 0.0


@dataclass(frozen=True)
class StraightPoolState:
    """The match between shots (see the module docstring). ``balls``: object balls on the table
    (None: unknown until the next shot start shows them). ``run``: balls run in the current inning
    of the player at the table, ``inning_points`` its net points; ``in_inning``: that inning has
    begun. ``last_positions``: where the balls rested after the last shot. ``fresh``: a new match that
    no referee start described (its first shot may show the log began mid-rack)."""

    game: Game
    players: tuple[PlayerRecord, PlayerRecord]
    at_table: int = 0
    target: int | None = 150
    geometry: StringGeometry = field(default_factory=StringGeometry)
    calls: CallsMode = CallsMode.ASSUME
    calls_given: bool = False
    balls: frozenset[BallId] | None = OBJECT_BALLS
    opening_break: bool = True
    ball_in_hand: bool = True
    in_inning: bool = False
    run: int = 0
    inning_points: int = 0
    rack: int = 1
    pending_choice: PendingChoice | None = None
    rack_pending: RackPending | None = None
    last_positions: Mapping[BallId, PointMm] = field(default_factory=dict)
    innings_log: tuple[InningRecord, ...] = ()
    shots: int = 0
    match_over: bool = False
    winner: int | None = None
    fresh: bool = False

    @property
    def player(self) -> PlayerRecord:
        return self.players[self.at_table]

    @property
    def opponent(self) -> PlayerRecord:
        return self.players[1 - self.at_table]

    @property
    def names(self) -> tuple[str, str]:
        return (self.players[0].name, self.players[1].name)

    @property
    def score(self) -> dict[str, int]:
        return {p.name: p.score for p in self.players}

    def with_player(self, index: int, **changes: object) -> StraightPoolState:
        """The state with player ``index``'s record changed."""
        ps = list(self.players)
        ps[index] = replace(ps[index], **changes)  # type: ignore[arg-type]
        return replace(self, players=(ps[0], ps[1]))
