"""What the cue ball did in one carom shot, read off the shot's events: which object ball it met
first, which second, and how many cushion impacts it made before each.

This is the whole of what the carom rules look at (002 ART 7.2: a carom is the cue ball touching
both other balls; ART 26-27 and 003 art. 2-3: the cushion impacts counted before the second), so
it is kept apart from the verdict: the engine judges a :class:`CuePath`, and the evidence review
re-reads perturbed event lists through the same function.

Reading rules:
- Only the cue ball's events count. A ``ball_ball`` event between the cue ball and an object ball
  is a contact whichever ball was moving (003 art. 15: kisses are valid either way); contacts
  between the object balls are kisses and change nothing.
- Every cushion impact counts, the same cushion again too (003 art. 3).
- A cue ball frozen to a cushion (``ShotStart.frozen_to_cushion``): when its first contact of the
  shot is with that cushion (the player shot into it), that contact is not an impact (003 art. 10).
  Later contacts with it count.
- A cue ball touching another ball at the start (``ShotStart.balls_in_contact``) whose first contact
  is that ball was played into it (002 ART 15.8), unless the referee saw a detached massé
  (002 ART 10.1.3), in which case that first contact is the separation and not a contact.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.core.errors import ShotError
from tracking.events import BallBall, CushionHit, Event, OffTable, Pocketed, ShotEnd, ShotStart
from tracking.ids import CAROM_BALLS, BallId, Cushion

__all__ = ["CuePath", "middle_events", "read_cue_path"]


@dataclass(frozen=True)
class CuePath:
    """The cue ball's contacts in one shot.

    ``cushions`` are the counted impacts in time order; ``cushions_before_first`` /
    ``cushions_before_second`` count those before the first / second object-ball contact (all of
    them when that contact never came). ``late_cushion`` is the first counted impact after the
    second ball (it decides a near miss). ``frozen_contact`` is the uncounted first contact with the
    cushion the cue ball was frozen to; ``into_contact`` the touching ball it was played into.
    ``kisses`` counts ball-ball events that are not the cue ball striking an object ball for the
    first or second contact: object balls touching, the cue ball meeting a ball again, and an object
    ball striking the cue ball (where the log gives the striking ball first)."""

    cue_ball: BallId
    object_balls: tuple[BallId, BallId]
    first_ball: BallId | None
    first_contact: BallBall | None
    second_ball: BallId | None
    second_contact: BallBall | None
    cushions: tuple[CushionHit, ...]
    cushions_before_first: int
    cushions_before_second: int
    late_cushion: CushionHit | None
    frozen_contact: CushionHit | None
    frozen_cushion: Cushion | None
    into_contact: BallId | None
    into_contact_event: BallBall | None
    off_table: tuple[OffTable, ...]
    kisses: int

    @property
    def both_balls(self) -> bool:
        return self.second_ball is not None

    @property
    def repeated_cushions(self) -> tuple[Cushion, ...]:
        """Cushions counted more than once before the second ball (003 art. 3)."""
        seen: list[Cushion] = []
        again: list[Cushion] = []
        for c in self.cushions[: self.cushions_before_second]:
            if c.cushion in seen and c.cushion not in again:
                again.append(c.cushion)
            seen.append(c.cushion)
        return tuple(again)


def _check_ball(b: BallId, ev: Event) -> None:
    if b not in CAROM_BALLS:
        raise ShotError(
            f"shot {ev.shot}: {ev.kind.value} event at t={ev.t_s:.3f} s names ball {b.value!r}; a carom game has "
            f"{', '.join(x.value for x in CAROM_BALLS)}"
        )


def middle_events(events: Iterable[Event]) -> list[Event]:
    """The events between the stroke and the rest, in time order (stable for equal times)."""
    mids = [e for e in events if not isinstance(e, (ShotStart, ShotEnd))]
    return sorted(mids, key=lambda e: e.t_s)


def read_cue_path(
    cue_ball: BallId,
    start: ShotStart | None,
    events: Iterable[Event],
    detached_masse: bool = False,
) -> CuePath:
    """Read the cue ball's path from ``events`` (the shot's middle events, in time order).
    :class:`ShotError` for a ball that is not a carom ball or a pocket event (carom tables have none)."""
    if cue_ball not in CAROM_BALLS:
        raise ShotError(
            f"cue ball {cue_ball.value!r} is not a carom ball; expected one of "
            f"{', '.join(x.value for x in CAROM_BALLS)}"
        )
    objects = tuple(b for b in CAROM_BALLS if b is not cue_ball)
    frozen = start.frozen_to_cushion.get(cue_ball) if start is not None else None
    touching = set()
    if start is not None:
        for a, b in start.balls_in_contact:
            if a is cue_ball:
                touching.add(b)
            elif b is cue_ball:
                touching.add(a)

    first = second = None
    first_ev = second_ev = None
    counted: list[CushionHit] = []
    before_first = before_second = None
    late: CushionHit | None = None
    frozen_ev: CushionHit | None = None
    into: BallId | None = None
    into_ev: BallBall | None = None
    off: list[OffTable] = []
    kisses = 0
    seen_cue_event = False
    for ev in events:
        if isinstance(ev, Pocketed):
            raise ShotError(f"shot {ev.shot}: a pocket event at t={ev.t_s:.3f} s, but a carom table has no pockets")
        if isinstance(ev, OffTable):
            _check_ball(ev.ball, ev)
            off.append(ev)
            continue
        if isinstance(ev, CushionHit):
            _check_ball(ev.ball, ev)
            if ev.ball is not cue_ball:
                continue
            if not seen_cue_event and frozen is not None and ev.cushion is frozen:
                frozen_ev = ev  # 003 art. 10: shooting into the cushion it is frozen to
            else:
                counted.append(ev)
                if second is not None and late is None:
                    late = ev
            seen_cue_event = True
            continue
        if isinstance(ev, BallBall):
            for b in ev.balls:
                _check_ball(b, ev)
            if cue_ball not in ev.balls:
                kisses += 1  # object balls touching each other (003 art. 15)
                continue
            other = ev.balls[1] if ev.balls[0] is cue_ball else ev.balls[0]
            if not seen_cue_event and other in touching:
                seen_cue_event = True
                if detached_masse:
                    continue  # 002 ART 10.1.3: the separation of a detached massé is not a contact
                into, into_ev = other, ev
            seen_cue_event = True
            if ev.balls[0] is not cue_ball:
                kisses += 1  # a moving object ball struck the cue ball: a kiss, and still a contact (003 art. 15)
            if first is None:
                first, first_ev, before_first = other, ev, len(counted)
            elif second is None and other is not first:
                second, second_ev, before_second = other, ev, len(counted)
            elif ev.balls[0] is cue_ball:
                kisses += 1  # the cue ball meets a ball again
    n = len(counted)
    return CuePath(
        cue_ball=cue_ball,
        object_balls=(objects[0], objects[1]),
        first_ball=first,
        first_contact=first_ev,
        second_ball=second,
        second_contact=second_ev,
        cushions=tuple(counted),
        cushions_before_first=n if before_first is None else before_first,
        cushions_before_second=n if before_second is None else before_second,
        late_cushion=late,
        frozen_contact=frozen_ev,
        frozen_cushion=frozen,
        into_contact=into,
        into_contact_event=into_ev,
        off_table=tuple(off),
        kisses=kisses,
    )
