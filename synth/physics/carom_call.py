"""The three-cushion call that a shot's truth events imply, for the synthetic shots' ``meta``.

This is the *expected* call stored beside each simulated shot, so that golden tests can compare
the rules engine with it. It reads one shot's events (a ``ShotStart`` first) and counts, per the
three-cushion rules (003_f7978c67dc4a09ec.txt):

- art. 2 (a)-(d): a point when the cue ball touches both object balls and at least three cushion
  impacts of the cue ball come before its first contact with the second object ball; which of the
  four cases it is follows from the impacts before the first object ball (0: a, 1: c, 2: d, 3+: b);
- art. 3: impacts are counted, not distinct cushions;
- art. 10: for a cue ball frozen to a cushion (``ShotStart.frozen_to_cushion``), a first contact
  with that same cushion, before anything else happens to the cue ball, does not count.

It also measures the margin between the third counted impact and the second-ball contact (how
close a call the shot is) and whether the first object ball came back into the cue ball (a kiss).
No geometry and no numpy: events in, a frozen summary out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from common.errors import TabletrackError
from tracking.events import BallBall, CushionHit, Event, ShotStart
from tracking.ids import BallId

_PATTERN = {0: "2a", 1: "2c", 2: "2d"}


class CaromCallError(TabletrackError):
    """The events given are not one shot that begins with its ``ShotStart``."""


@dataclass(frozen=True)
class ThreeCushionCall:
    """What one shot's truth events say under the three-cushion rules.

    ``object_balls_hit`` in order of the cue ball's first contact with each; ``cushions_before_*``
    count the cue ball's counted impacts before that contact (None when it never came);
    ``margin_ms`` is (second-ball contact - third counted impact) in milliseconds: positive when
    the third cushion came first, None when either never happened. ``pattern`` is the art. 2 case
    ("2a", "2b", "2c", "2d") of a point, else None."""

    shot: int
    cue_ball: BallId
    object_balls_hit: tuple[BallId, ...]
    first_ball_t_s: float | None
    second_ball_t_s: float | None
    cushions_before_first: int | None
    cushions_before_second: int | None
    cue_cushions_total: int
    third_cushion_t_s: float | None
    margin_ms: float | None
    point: bool
    pattern: str | None
    kiss_first_ball: bool
    frozen_contact_discounted: bool

    def to_meta(self) -> dict[str, Any]:
        """Plain JSON-able form for ``SimShot.meta``."""
        return {
            "shot": self.shot,
            "cue_ball": self.cue_ball.value,
            "object_balls_hit": [b.value for b in self.object_balls_hit],
            "first_ball_t_s": self.first_ball_t_s,
            "second_ball_t_s": self.second_ball_t_s,
            "cushions_before_first": self.cushions_before_first,
            "cushions_before_second": self.cushions_before_second,
            "cue_cushions_total": self.cue_cushions_total,
            "third_cushion_t_s": self.third_cushion_t_s,
            "margin_ms": self.margin_ms,
            "point": self.point,
            "pattern": self.pattern,
            "kiss_first_ball": self.kiss_first_ball,
            "frozen_contact_discounted": self.frozen_contact_discounted,
        }


def three_cushion_call(events: Sequence[Event]) -> ThreeCushionCall:
    """The call of one shot's events (time-ordered, ``ShotStart`` first)."""
    if not events or not isinstance(events[0], ShotStart):
        first = type(events[0]).__name__ if events else "nothing"
        raise CaromCallError(f"a shot's events must begin with its ShotStart, got {first}")
    start = events[0]
    cue = start.cue_ball
    frozen = start.frozen_to_cushion.get(cue)
    shot = start.shot

    counted: list[float] = []  # times of the cue ball's counted cushion impacts
    hit: list[BallId] = []
    hit_t: list[float] = []
    before: list[int] = []
    kiss = False
    discounted = False
    cue_touched = False  # anything has happened to the cue ball since the stroke
    for ev in events[1:]:
        if ev.shot != shot:
            raise CaromCallError(f"events of shot {ev.shot} inside shot {shot}")
        if isinstance(ev, CushionHit) and ev.ball is cue:
            if frozen is not None and not cue_touched and ev.cushion is frozen:
                discounted = True  # art. 10
            else:
                counted.append(ev.t_s)
            cue_touched = True
        elif isinstance(ev, BallBall) and cue in ev.balls:
            other = ev.balls[1] if ev.balls[0] is cue else ev.balls[0]
            if other not in hit:
                hit.append(other)
                hit_t.append(ev.t_s)
                before.append(len(counted))
            elif other is hit[0]:
                kiss = True
            cue_touched = True

    n_before_second = before[1] if len(hit) >= 2 else None
    point = n_before_second is not None and n_before_second >= 3
    third = counted[2] if len(counted) >= 3 else None
    second_t = hit_t[1] if len(hit) >= 2 else None
    margin = (second_t - third) * 1000.0 if (second_t is not None and third is not None) else None
    pattern = _PATTERN.get(before[0], "2b") if point else None
    return ThreeCushionCall(
        shot=shot,
        cue_ball=cue,
        object_balls_hit=tuple(hit),
        first_ball_t_s=hit_t[0] if hit else None,
        second_ball_t_s=second_t,
        cushions_before_first=before[0] if hit else None,
        cushions_before_second=n_before_second,
        cue_cushions_total=len(counted),
        third_cushion_t_s=third,
        margin_ms=margin,
        point=point,
        pattern=pattern,
        kiss_first_ball=kiss,
        frozen_contact_discounted=discounted,
    )
