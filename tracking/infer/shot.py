"""One shot's events, as a pipeline of named steps; and :func:`infer_events` over whole data.

Contract: :func:`shot_events` turns one shot's motions (:class:`tracking.segment.ShotSpan`,
from :func:`tracking.segment.group_shots`) into its events: a ``ShotStart``, its ``BallBall`` and
``CushionHit`` contacts, ``OffTable``/``Pocketed`` exits, and a ``ShotEnd`` once every ball is at
rest; ``ShotStart`` first, ``ShotEnd`` last, the rest in time order (ties in the order found).
No event precedes the stroke. Every event's ``frame`` comes from ``frame_at``.

The steps, each in its own module, each reading only what the steps before it returned:

1. ``off_the_pockets`` (:mod:`.exits`): balls lying in a pocket throughout leave the shot.
2. ``shot_opening`` (:mod:`.start`): the stroke (which ball, when) and the rest layout.
3. ``find_contacts`` (:mod:`.contacts`): the ball-ball and cushion contacts the paths show.
4. ``unseen_contacts`` (:mod:`.unseen`): those no path shows, inferred from their effects.
5. ``without_pocket_openings`` (:mod:`.contacts`): what a table with pockets rules out.
6. ``retimed_stroke`` (:mod:`.start`): the stroke's time again, kept before the first contact.
7. ``find_exits`` (:mod:`.exits`): balls that left the table, or were lost; then
   ``near_misses`` (:mod:`.near`): the cue ball's passes within a hair of a ball it was not found
   to touch, while both were on the table (``near_miss`` events, for the rules' review).
8. ``shot_end`` (:mod:`.end`): the end, with positions, once every ball is at rest.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from calibration.table import TableSpec
from tracking.events import BallBall, CushionHit, Event, EventKind, NearMiss, OffTable, Pocketed
from tracking.ids import BallId
from tracking.infer.config import InferenceConfig, with_sampling
from tracking.infer.contacts import Contacts, find_contacts, without_pocket_openings
from tracking.infer.end import shot_end
from tracking.infer.exits import find_exits, off_the_pockets
from tracking.infer.near import near_miss_confidence, near_misses
from tracking.infer.start import retimed_stroke, shot_opening, start_event
from tracking.infer.timeline import Clock, FrameAt, activities
from tracking.infer.unseen import unseen_contacts
from tracking.pockets import pocket_zones
from tracking.segment import BallActivity, ShotSpan, group_shots
from tracking.trajectory import Trajectory, as_trajectory_map


def infer_events(
    trajectories: Mapping[BallId, Trajectory] | Iterable[Trajectory],
    table: TableSpec,
    config: InferenceConfig = InferenceConfig(),  # noqa: B008 (frozen: one shared default is safe)
    first_shot: int = 1,
) -> list[Event]:
    """Every event of the trajectories, shot by shot (numbered from ``first_shot``), in time
    order within each shot. The last shot lacks its ``ShotEnd`` when the data stop while balls
    still move."""
    return [ev for shot in iter_inferred_shots(trajectories, table, config, first_shot) for ev in shot]


def iter_inferred_shots(
    trajectories: Mapping[BallId, Trajectory] | Iterable[Trajectory],
    table: TableSpec,
    config: InferenceConfig = InferenceConfig(),  # noqa: B008 (frozen: one shared default is safe)
    first_shot: int = 1,
) -> Iterator[list[Event]]:
    """:func:`infer_events` one shot at a time, each shot's events as soon as they are inferred,
    so a caller writes (and judges) each shot before the next is worked out."""
    trajs = as_trajectory_map(trajectories)
    config = with_sampling(config, trajs)
    acts, clip_end = activities(trajs, config)
    clock = Clock(trajs.values())
    shot = first_shot
    for span in group_shots(acts, config.segment):
        evs = shot_events(acts, span, shot, table, config, clock.frame_at, clip_end, final=True)
        if evs:
            yield evs
            shot += 1


def shot_events(
    acts: Mapping[BallId, BallActivity],
    span: ShotSpan,
    shot: int,
    table: TableSpec,
    cfg: InferenceConfig,
    frame_at: FrameAt,
    clip_end_s: float,
    final: bool,
) -> list[Event]:
    """The events of one shot (``final``: the data end here, close the shot if the balls were
    all but stopped); none when every motion of the span lies in a pocket."""
    zones = pocket_zones(table, cfg.exit.pockets)
    if zones:
        span = off_the_pockets(acts, span, zones)
        if not span.motions:
            return []
    opening = shot_opening(acts, span, table, zones, cfg)
    stroke = opening.stroke
    memo: dict = {}  # the pair timings, shared by the two readings (find_contacts)
    seen = find_contacts(acts, span, stroke.t_s, stroke.motion, table, cfg, memo=memo)
    contacts = unseen_contacts(acts, span, stroke.motion, seen, table, cfg)
    inferred = [x for x in contacts.collisions if x not in seen.collisions]
    if inferred:
        # read the paths again knowing those contacts: a cushion in the same sample gap as one
        # is then timed from its clean side (find_contacts)
        seen = find_contacts(acts, span, stroke.t_s, stroke.motion, table, cfg, inferred, memo=memo)
        contacts = unseen_contacts(acts, span, stroke.motion, seen, table, cfg)
    contacts = without_pocket_openings(contacts, zones, stroke.ball, table.ball_radius_mm)
    stroke = retimed_stroke(acts, stroke, contacts, cfg)
    events: list[Event] = [start_event(opening, stroke, shot, frame_at)]
    events += _contact_events(contacts, stroke.t_s, shot, frame_at)
    exits = find_exits(acts, span, stroke.t_s, shot, table, zones, cfg, frame_at, clip_end_s)
    events += exits.events
    left = {e.ball: e.t_s for e in exits.events if isinstance(e, (OffTable, Pocketed))}
    passes = near_misses(
        acts, span, stroke.t_s, stroke.ball, contacts.collisions, opening.touching, left, table.ball_diameter_mm, cfg
    )
    events += [
        NearMiss(p.t_s, frame_at(p.t_s), shot, near_miss_confidence(p.gap_mm, cfg), p.balls, p.pos_mm, p.gap_mm)
        for p in passes
    ]
    end = shot_end(acts, span, exits, shot, zones, cfg, frame_at, final)
    if end is not None:
        events.append(end)
    return _ordered(events)


def _contact_events(contacts: Contacts, t_start: float, shot: int, frame_at: FrameAt) -> list[Event]:
    """The ``BallBall`` then ``CushionHit`` events of the contacts, none before the stroke."""
    events: list[Event] = []
    for x in contacts.collisions:
        t = max(x.t_s, t_start)
        events.append(BallBall(t, frame_at(t), shot, x.confidence, x.balls, x.pos_mm))
    for y in contacts.cushions:
        t = max(y.t_s, t_start)
        events.append(CushionHit(t, frame_at(t), shot, y.confidence, y.ball, y.cushion, y.pos_mm))
    return events


_ORDER = {EventKind.SHOT_START: 0, EventKind.SHOT_END: 2}


def _ordered(events: list[Event]) -> list[Event]:
    """``ShotStart`` first, ``ShotEnd`` last, the rest by time (a stable sort)."""
    return sorted(events, key=lambda e: (_ORDER.get(e.kind, 1), e.t_s))
