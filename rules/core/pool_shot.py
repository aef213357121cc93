"""What happened in one shot on a pocket table: the facts every pool and snooker engine reads.

The engines of nine-ball, eight-ball, 14.1 and snooker differ in what they make of a shot, not in
what they read from its events: which ball the cue ball touched first, which balls dropped (into
which pocket, when), whether the cue ball went in or off, which balls touched a cushion after that
first contact (000 6.3; 004 "una banda después del contacto"; 002 bola 8), how many distinct object
balls were driven to a cushion (the break, 000 4.4 / 004 / 002 bola 8), and where the balls stood
before and after. :func:`read_pool_shot` reads them once, as plain values, so every engine and
every test reads them the same way.

Conventions: a ball counts as pocketed at its first ``pocket`` event (a later one is a tracker
repeat); a ball both pocketed and reported off the table counts as pocketed. "After the first
contact" means strictly later in time than the cue ball's first ball-ball contact; a cushion
contact at the same instant (to 0.1 ms) counts as after it, since a rail hit in the frame of the
contact cannot be ordered before it by any camera. With no contact at all, nothing is "after".
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules.core.table import PointMm
from tracking.events import BallBall, CushionHit, Event, OffTable, Pocketed, Shot, ShotEnd, ShotStart
from tracking.ids import BallId, Pocket

if TYPE_CHECKING:  # for the annotations only; at run time Call is imported inside _not_a_stroke, as before
    from rules.core.call import Call
    from rules.core.games import Game

__all__ = [
    "balls_in_events",
    "PointMm",
    "PocketedBall",
    "PoolShotFacts",
    "read_pool_shot",
    "struck_object_ball",
    "not_struck_call",
    "placement_call",
]

_SAME_INSTANT_S = 1e-4


@dataclass(frozen=True)
class PocketedBall:
    """A ball that dropped: which, where, when, and how sure the tracker was."""

    ball: BallId
    pocket: Pocket
    t_s: float
    confidence: float
    event: Pocketed


@dataclass(frozen=True)
class PoolShotFacts:
    """The facts of one shot (see the module docstring).

    ``cue_ball``: the ball struck (the shot start's, else ``BallId.CUE``). ``first_contact``: the
    first ball the cue ball touched (None: it touched none), ``first_contact_event`` its event and
    ``first_contact_tied`` every ball the cue ball touched at that same instant (a split hit).
    ``pocketed``: in time order, one entry per ball. ``off_table``: balls that left the table
    (not pocketed). ``cushions_after_contact``: balls (cue ball included) that touched a cushion
    after the first contact; ``object_balls_to_cushion``: distinct object balls that touched any
    cushion during the shot (the break's "four balls to a rail"). ``positions_before`` /
    ``positions_after``: the shot start's and shot end's positions ({} where the log has none);
    ``complete``: the shot has both a start and an end event (a log cut short does not)."""

    number: int
    cue_ball: BallId
    first_contact: BallId | None
    first_contact_event: BallBall | None
    first_contact_tied: tuple[BallId, ...]
    pocketed: tuple[PocketedBall, ...]
    off_table: tuple[BallId, ...]
    cushions_after_contact: frozenset[BallId]
    object_balls_to_cushion: frozenset[BallId]
    cue_ball_cushions_before_contact: int
    positions_before: Mapping[BallId, PointMm]
    positions_after: Mapping[BallId, PointMm]
    complete: bool
    events: tuple[Event, ...]

    @property
    def pocketed_balls(self) -> tuple[BallId, ...]:
        """The balls that dropped, in time order."""
        return tuple(p.ball for p in self.pocketed)

    @property
    def cue_ball_pocketed(self) -> bool:
        return any(p.ball is self.cue_ball for p in self.pocketed)

    @property
    def cue_ball_off_table(self) -> bool:
        return self.cue_ball in self.off_table

    @property
    def scratch(self) -> bool:
        """The cue ball was pocketed or left the table."""
        return self.cue_ball_pocketed or self.cue_ball_off_table

    @property
    def object_balls_pocketed(self) -> tuple[BallId, ...]:
        return tuple(p.ball for p in self.pocketed if p.ball is not self.cue_ball)

    @property
    def object_balls_off_table(self) -> tuple[BallId, ...]:
        return tuple(b for b in self.off_table if b is not self.cue_ball)

    @property
    def cue_ball_placed(self) -> bool:
        """Only the cue ball moved and it touched nothing (no ball, no cushion, no pocket, still on
        the table): what placing it by hand with ball in hand looks like from above. A stroke
        that misses everything almost always reaches a cushion."""
        return (
            self.complete
            and self.first_contact is None
            and not self.pocketed
            and not self.off_table
            and not any(isinstance(e, (CushionHit, BallBall)) for e in self.events)
        )

    @property
    def rail_after_contact(self) -> bool:
        """A ball reached a cushion after the first contact (the cue ball or any object ball)."""
        return bool(self.cushions_after_contact)

    def pocket_of(self, ball: BallId) -> Pocket | None:
        for p in self.pocketed:
            if p.ball is ball:
                return p.pocket
        return None


def read_pool_shot(shot: Shot) -> PoolShotFacts:
    """The facts of ``shot`` (its events in time order, as :func:`tracking.events.group_shots`
    gives them)."""
    start: ShotStart | None = shot.start
    end: ShotEnd | None = shot.end
    cue = start.cue_ball if start is not None else BallId.CUE
    mids = [e for e in shot.events if not isinstance(e, (ShotStart, ShotEnd))]

    first: BallBall | None = None
    for e in mids:
        if isinstance(e, BallBall) and cue in e.balls and e.balls[0] is not e.balls[1]:
            first = e
            break
    first_ball = None if first is None else (first.balls[1] if first.balls[0] is cue else first.balls[0])
    tied: list[BallId] = []
    if first is not None:
        for e in mids:
            if isinstance(e, BallBall) and cue in e.balls and abs(e.t_s - first.t_s) <= _SAME_INSTANT_S:
                other = e.balls[1] if e.balls[0] is cue else e.balls[0]
                if other not in tied:
                    tied.append(other)

    pocketed: list[PocketedBall] = []
    seen: set[BallId] = set()
    for e in mids:
        if isinstance(e, Pocketed) and e.ball not in seen:
            seen.add(e.ball)
            pocketed.append(PocketedBall(e.ball, e.pocket, e.t_s, e.confidence, e))
    off: list[BallId] = []
    for e in mids:
        if isinstance(e, OffTable) and e.ball not in seen and e.ball not in off:
            off.append(e.ball)

    after: set[BallId] = set()
    to_cushion: set[BallId] = set()
    cue_before = 0
    for e in mids:
        if not isinstance(e, CushionHit):
            continue
        if e.ball is not cue:
            to_cushion.add(e.ball)
        if first is not None and e.t_s >= first.t_s - _SAME_INSTANT_S:
            after.add(e.ball)
        elif e.ball is cue:
            cue_before += 1

    return PoolShotFacts(
        number=shot.number,
        cue_ball=cue,
        first_contact=first_ball,
        first_contact_event=first,
        first_contact_tied=tuple(tied),
        pocketed=tuple(pocketed),
        off_table=tuple(off),
        cushions_after_contact=frozenset(after),
        object_balls_to_cushion=frozenset(to_cushion),
        cue_ball_cushions_before_contact=cue_before,
        positions_before=dict(start.positions) if start is not None else {},
        positions_after=dict(end.positions) if end is not None else {},
        complete=start is not None and end is not None,
        events=tuple(mids),
    )


#: s. How much earlier than the cue ball's first contact seen an object ball's own event must be
#: to show that contact was not the first: more than a contact's timing error (a rack's balls
#: meet each other within milliseconds of the cue ball's contact, timed to ~10 ms each), less
#: than any ball struck by the cue ball takes to reach a cushion or a pocket.
EARLIER_S = 0.05


def unseen_first_contact_doubt(facts: PoolShotFacts) -> str | None:
    """Why a call resting on the cue ball's first contact is in doubt, or None: on a pocket table
    an object ball moves only when struck, and every stroke is on the cue ball, so an object ball
    that met another ball, a cushion or a pocket while the log shows no contact of the cue ball,
    or only a later one, means a contact the camera missed (a fast cue ball's streaks into a
    rack: real broadcast footage read as "break missed the rack" with the rack broken, or the
    cue ball's first contact seen seconds after the break, a "wrong ball first"). A call that
    rests on that contact or its absence (000 2.3(e) break missed the rack, 000 6.1 wrong ball
    first, 000 6.3 no contact; 002 bola 8 ART 16.1d; 004 general rules; 002 snooker ART 2.2.3,
    no ball hit) must go to the referee."""
    cue = facts.cue_ball
    first = facts.first_contact_event
    t_first = first.t_s - EARLIER_S if first is not None else math.inf
    earlier: dict[BallId, float] = {}
    for e in facts.events:
        if e.t_s >= t_first:
            continue
        if isinstance(e, BallBall) and cue not in e.balls:
            balls: tuple[BallId, ...] = e.balls
        elif isinstance(e, CushionHit | Pocketed | OffTable) and e.ball is not cue:
            balls = (e.ball,)
        else:
            continue
        for b in balls:
            earlier.setdefault(b, e.t_s)
    if not earlier:
        return None
    struck = sorted(earlier, key=list(BallId).index)
    named = ", ".join(b.value for b in struck[:4]) + (" ..." if len(struck) > 4 else "")
    if first is None:
        return (
            f"no contact of the cue ball was seen, yet object balls were struck ({named}): "
            "a contact the camera missed decides this call"
        )
    assert facts.first_contact is not None
    return (
        f"the cue ball's first contact seen, the {facts.first_contact.value} at {first.t_s:.2f} s, comes after "
        f"object balls were struck ({named}, from {min(earlier.values()):.2f} s): its first contact was not seen, "
        "and it decides this call"
    )


def balls_in_events(shot: Shot) -> frozenset[BallId]:
    """The balls the shot's events show on the table (the cue ball too): hit, at a cushion,
    pocketed or off the table during the shot. A ball the shot start lacks but the shot plays
    was on the table at its start (the engines' balls-on-the-table, issue 13)."""
    out: set[BallId] = set()
    for e in shot.events:
        if isinstance(e, BallBall):
            out.update(e.balls)
        elif isinstance(e, (CushionHit, Pocketed, OffTable)):
            out.add(e.ball)
    return frozenset(out)


def struck_object_ball(shot: Shot) -> BallId | None:
    """The ball the shot start names as struck where that is not the cue ball, else None.

    On a pocket table every stroke is on the cue ball, so an object ball that moves first is a ball
    the player touched (a foul in every pocket game: 000 6.6, 002 bola 8 ART 16.1e, 002 snooker
    ART 2.2.12, 004's general rules) or the camera's misread of a resting ball; no engine judges such a
    shot from the log alone: :func:`not_struck_call` flags it for the referee."""
    start = shot.start
    return start.cue_ball if start is not None and start.cue_ball is not BallId.CUE else None


def not_struck_call(
    shot: Shot,
    game: Game,
    player: str,
    score: Mapping[str, int],
    moved: BallId,
    article: str,
    note: str | None = None,
    details: Mapping[str, Any] | None = None,
) -> Call:
    """The call for a shot where ``moved`` (an object ball) moved with no stroke on the cue ball:
    not judged, the inning goes on, the state is kept, needs review; the referee calls the foul
    (``article``) as input for this shot if a ball was touched."""
    return _not_a_stroke(
        shot,
        game,
        player,
        score,
        moved,
        note,
        details,
        summary=f"the {moved.value} moved, no stroke",
        reason=(
            f"Not judged: the {moved.value} moved with no stroke on the cue ball seen: a ball touched by the "
            f"player (a foul, {article}) or the camera's misread; the referee decides (give the foul as "
            "referee input for this shot to call it)"
        ),
        review_reason="Needs review: an object ball moved with no stroke on the cue ball.",
    )


def placement_call(
    shot: Shot,
    game: Game,
    player: str,
    score: Mapping[str, int],
    article: str,
    note: str | None = None,
    details: Mapping[str, Any] | None = None,
) -> Call:
    """The call for a "shot" that is the cue ball placed by hand (:attr:`PoolShotFacts.cue_ball_placed`
    while the player has ball in hand, ``article``): not a stroke, nothing judged, the player still
    has ball in hand and the inning; the referee's foul for it (a ball touched while placing) is
    judged as any foul."""
    return _not_a_stroke(
        shot,
        game,
        player,
        score,
        BallId.CUE,
        note,
        details,
        summary="cue ball placed",
        reason=(
            f"Not a stroke: with ball in hand ({article}) the cue ball moved alone and touched nothing: "
            "it was placed; the player still has ball in hand"
        ),
    )


def _not_a_stroke(
    shot: Shot,
    game: Game,
    player: str,
    score: Mapping[str, int],
    cue_ball: BallId,
    note: str | None,
    details: Mapping[str, Any] | None,
    summary: str,
    reason: str,
    review_reason: str | None = None,
) -> Call:
    """A call that judges nothing: legal, no points, the inning and the game go on; it needs
    review where ``review_reason`` is given."""
    from rules.core.call import Call

    return Call(
        shot=shot.number,
        game=game,
        player=player,
        legal=True,
        foul=None,
        points=0,
        turn_over=False,
        game_over=False,
        reason=reason,
        score=dict(score),
        needs_review=review_reason is not None,
        cue_ball=cue_ball,
        note=note,
        review_reason=review_reason,
        summary=summary,
        details=dict(details or {}),
    )
