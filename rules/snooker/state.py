"""The state of a snooker match between two players (or two teams, ART 1.2): frozen values,
one per shot (``dataclasses.replace``), so any call can be replayed from any state.

Players are indexed 0 and 1. Within a frame: the reds left, the ball on (:class:`BallOn`; the
colours on the table follow from it, see :func:`rules.snooker.balls.colours_on_table`), the
scores, who is at the table and his current break (the points of his visit), whether the previous
stroke was a foul (and whose: the opponent's choice and the free ball apply to the next stroke),
whether the cue ball is in hand (to be played from the D: ART 1.5, 1.7) and whether the frame is
being decided on a re-spotted black. Over the match: frames won, the finished frames, the highest
break of each player, and the race (best of N frames = a race to N // 2 + 1).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.core.racks import RaceConfig
from rules.snooker.balls import FULL_REDS, BallOn, colours_on_table, points_remaining, value
from rules.snooker.fouls import MIN_PENALTY
from tracking.ids import BallId

__all__ = ["FrameRecord", "SnookerState"]


@dataclass(frozen=True)
class FrameRecord:
    """A finished frame: its number, who broke off, who won, how (a sentence citing the rule), the
    points of each player and each player's highest break in it."""

    number: int
    breaker: int
    winner: int
    how: str
    points: tuple[int, int]
    high_breaks: tuple[int, int]
    re_spotted_black: bool = False


@dataclass(frozen=True)
class SnookerState:
    """Where the match stands before the next stroke (see the module docstring).

    ``fouler``: the player who fouled the previous stroke (None: it was no foul). ``lot_pending``:
    the next stroke is the first of a re-spotted black, played by whoever won the draw (referee
    input ``plays_first``; else ``at_table``)."""

    players: tuple[str, str]
    race: RaceConfig = RaceConfig()
    frame: int = 1
    breaker: int = 0
    at_table: int = 0
    scores: tuple[int, int] = (0, 0)
    reds: int = FULL_REDS
    on: BallOn = BallOn.RED
    next_is_break: bool = True
    cue_in_hand: bool = True
    fouler: int | None = None
    current_break: int = 0
    frame_high_breaks: tuple[int, int] = (0, 0)
    high_breaks: tuple[int, int] = (0, 0)
    frames_won: tuple[int, int] = (0, 0)
    frames: tuple[FrameRecord, ...] = ()
    re_spotted_black: bool = False
    lot_pending: bool = False
    match_over: bool = False
    winner: int | None = None
    shots: int = 0

    @property
    def colours(self) -> tuple[BallId, ...]:
        """The colours on the table."""
        return colours_on_table(self.on)

    @property
    def remaining(self) -> int:
        """Points still on the table (:func:`rules.snooker.balls.points_remaining`)."""
        return 7 if self.re_spotted_black else points_remaining(self.reds, self.on)

    @property
    def score(self) -> dict[str, int]:
        return {self.players[i]: self.scores[i] for i in (0, 1)}

    def snookers_required(self, player: int) -> int:
        """Fouls (snookers) ``player`` needs from the opponent to be able to win the frame: 0 while
        the points on the table can close the gap (level is enough: a tie is decided on a
        re-spotted black); otherwise the points missing divided by the penalty a foul on the ball
        on now gives (its value, at least 4: ART 2.1, 2.2.3), rounded up."""
        behind = self.scores[1 - player] - self.scores[player]
        short = behind - self.remaining
        if short <= 0:
            return 0
        c = self.on.ball
        per = max(MIN_PENALTY, 0 if c is None else value(c))
        return -(-short // per)
