"""What a pocket game's shot may hold at all, checked before any rule is applied to it.

Contract: :func:`check_pool_shot` raises :class:`rules.core.errors.ShotError` with one line naming
the shot and the event when a ball its game does not have (a ``yellow`` in a nine-ball log: 000 2,
"nueve bolas objetivo numeradas del 1 al 9 y con una bola blanca"; eight-ball and 14.1 have the cue
ball and 1-15: 002 bola 8 ART 1, 004 "bolas numeradas a 1 - 15 más una bola blanca") is the ball
struck or takes part in a contact (it moved: the shot would be judged as that ball's), or when one
ball is pocketed (or driven off the table) twice in one shot (nothing respots a ball in the middle
of a stroke; 000 2.6 respots between shots; snooker's unnamed ``red`` is any red, so it may drop
twice). Otherwise it returns, and the engine judges the shot. A foreign ball that only stands in a
shot's layout, or drops without touching anything, is left to the engines, which ignore it and
mark the call for review (the detector's misread of a ball that is not there).

Why: the engines trusted the log's balls. A ``yellow`` struck in a nine-ball log was judged "the
yellow moved with no stroke on the cue ball"; a ball pocketed twice scored twice. A log that is not
of this game is the user's mistake, to be said in one line, never judged as if it were.
"""

from __future__ import annotations

from collections.abc import Collection

from rules.core.errors import ShotError
from tracking.events import BallBall, CushionHit, Event, OffTable, Pocketed, Shot, ShotEnd, ShotStart
from tracking.ids import BallId

__all__ = ["check_pool_shot", "event_balls"]


def event_balls(ev: Event) -> tuple[BallId, ...]:
    """Every ball an event names (a shot start's cue ball and layout, a contact's two balls …)."""
    if isinstance(ev, ShotStart):
        return (ev.cue_ball, *ev.positions, *ev.frozen_to_cushion, *(b for pair in ev.balls_in_contact for b in pair))
    if isinstance(ev, ShotEnd):
        return tuple(ev.positions)
    if isinstance(ev, BallBall):
        return ev.balls
    if isinstance(ev, (CushionHit, Pocketed, OffTable)):
        return (ev.ball,)
    return ()


def check_pool_shot(shot: Shot, balls: Collection[BallId], game: str, article: str) -> None:
    """:class:`ShotError` if ``shot`` is not a shot of ``game`` (see the module docstring):
    ``balls`` is the game's ball set, ``article`` the rule that lists it (cited in the message)."""
    gone: dict[BallId, str] = {}
    for ev in shot.events:
        where = f"shot {shot.number}, {ev.kind.value} event at t={ev.t_s:.3f} s"
        moving: tuple[BallId, ...] = ()
        if isinstance(ev, ShotStart):
            moving = (ev.cue_ball,)
        elif isinstance(ev, (BallBall, CushionHit)):
            moving = event_balls(ev)
        for b in moving:
            if b not in balls:
                names = ", ".join(x.value for x in sorted(balls, key=_ball_order))
                raise ShotError(f"{where}: {b.value!r} is not a ball of {game} ({article}: {names})")
        if isinstance(ev, (Pocketed, OffTable)) and ev.ball is not BallId.RED:
            if ev.ball in gone:
                raise ShotError(
                    f"{where}: {ev.ball.value} was {gone[ev.ball]} earlier in this shot; a ball leaves the "
                    "table once per stroke (nothing respots it during a stroke)"
                )
            gone[ev.ball] = f"pocketed ({ev.pocket.value})" if isinstance(ev, Pocketed) else "driven off the table"


def _ball_order(b: BallId) -> tuple[int, str]:
    return (0, "") if b is BallId.CUE else (1, b.value.zfill(3))
