"""Step 1 of a shot: its start (``ShotStart``).

Contract: given one shot's motions (:class:`tracking.segment.ShotSpan`), :func:`shot_opening`
says which ball was struck, when, and how the balls lay before the stroke; once the shot's
contacts are known, :func:`retimed_stroke` may move the stroke's time (a cue ball hidden at the
stroke); :func:`start_event` makes the event.

Why it works this way:

- The struck ball is the first ball to move: a ball at rest moves only when struck. Its start
  time is when its first moving samples, fitted, leave its rest position
  (:func:`tracking.collisions.onset_time`), not the first moving sample: a sample gap would put it
  up to a frame late. On a table with pockets the struck ball is the cue ball, whose id is known.
- ``positions`` are the rest positions before the stroke (or before the ball's own first move),
  medians of a bounded window of the rest run (:func:`tracking.infer.timeline.rest_position_at`);
  a ball resting in a pocket's drop circle is not on the table.
- ``frozen_to_cushion``: a centre within ``InferenceConfig.frozen_tol_mm`` of R from a nose line;
  ``balls_in_contact``: centres within 2R + ``InferenceConfig.touching_tol_mm``.
- A cue ball first seen moving after its first contact (hidden by the hand and cue at the stroke)
  started before it: by the way to the contact over the speed the two balls' momentum after it
  gives (:func:`retimed_stroke`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from calibration.table import TableSpec
from tracking.collisions import Collision, onset_time
from tracking.cushions import nearest_cushion
from tracking.events import ShotStart
from tracking.ids import BallId, Cushion
from tracking.infer.config import InferenceConfig
from tracking.infer.contacts import Contacts
from tracking.infer.timeline import FrameAt, rest_position_at
from tracking.pockets import PocketZone, pocket_holding
from tracking.segment import BallActivity, Motion, ShotSpan
from tracking.sides import make_side

#: Confidence of a shot start where a sparse recorder opens with one ball moving and the others
#: at rest: the struck ball is sure; its start time is the recording's first sample.
SURE_OPENING = 0.9


@dataclass(frozen=True)
class Stroke:
    """The stroke: when (``t_s``, seconds) and how surely (``confidence``) the struck ball's
    ``motion`` began."""

    t_s: float
    confidence: float
    motion: Motion

    @property
    def ball(self) -> BallId:
        return self.motion.ball


@dataclass(frozen=True)
class Opening:
    """How a shot opens: the stroke and the balls' rest layout before it (table mm)."""

    stroke: Stroke
    positions: dict[BallId, tuple[float, float]]
    frozen: dict[BallId, Cushion]
    touching: tuple[tuple[BallId, BallId], ...]
    under_way: tuple[BallId, ...] = ()
    #: where each ball ``under_way`` was first seen (its first sample, table mm)
    under_way_at: dict[BallId, tuple[float, float]] = field(default_factory=dict)


def shot_opening(
    acts: Mapping[BallId, BallActivity],
    span: ShotSpan,
    table: TableSpec,
    zones: tuple[PocketZone, ...],
    cfg: InferenceConfig,
) -> Opening:
    """The stroke of the shot ``span`` and the layout of the balls before it."""
    stroke = _stroke(acts, span, zones, cfg)
    opened = _opened_by_stroke(acts, span, stroke.motion, cfg)
    under_way = () if opened is not None else _under_way(acts, span, cfg)
    positions = _positions(acts, span, stroke.t_s, zones, cfg, under_way)
    if opened is not None:
        # a recorder that starts with the stroke: the cue ball's first report is where it was
        # struck, and no other ball moved before it, so which ball was struck is sure
        positions[stroke.ball] = opened
        stroke = Stroke(stroke.t_s, max(stroke.confidence, SURE_OPENING), stroke.motion)
    R, D = table.ball_radius_mm, table.ball_diameter_mm
    frozen: dict[BallId, Cushion] = {}
    for ball, p in positions.items():
        cu, n = nearest_cushion(p, table)
        if n <= R + cfg.frozen_tol_mm:
            frozen[ball] = cu
    touching = tuple(
        (a, b)
        for a, b in combinations(list(positions), 2)
        if math.dist(positions[a], positions[b]) <= D + cfg.touching_tol_mm
    )
    first_seen = {b: (float(acts[b].samples.xy_mm[0, 0]), float(acts[b].samples.xy_mm[0, 1])) for b in under_way}
    return Opening(stroke, positions, frozen, touching, under_way, first_seen)


def _data_start_s(acts: Mapping[BallId, BallActivity]) -> float | None:
    """The time of the data's first sample (any ball's), or None where there is none."""
    return min((float(a.samples.t_s[0]) for a in acts.values() if len(a.samples)), default=None)


def _under_way(acts: Mapping[BallId, BallActivity], span: ShotSpan, cfg: InferenceConfig) -> tuple[BallId, ...]:
    """The balls of ``span`` already moving when the data began (a clip cut in mid-shot): a motion
    with no rest before it, whose first sample lies within ``InferenceConfig.under_way_s`` of the
    data's first sample, and which moved more than the rest tolerance by then (or by its next
    sample, where none came sooner). Not one: a ball first seen moving later (out from under
    a hand: the stroke was seen, the ball was only hidden), nor one at rest on the first frames
    for less than a rest run (real dev Clip12: the rack's balls, struck on the fourth frame), nor
    one that stood still between two of those samples (``InferenceConfig.under_way_still_mm``)."""
    t_open = _data_start_s(acts)
    if t_open is None:
        return ()
    seg = cfg.segment
    out: list[BallId] = []
    for m in span.motions:
        s = acts[m.ball].samples
        if m.rest_before is not None or m.i_first != 0 or len(s) < 2 or m.ball in out:
            continue
        t0 = float(s.t_s[0])
        if t0 > t_open + cfg.under_way_s:
            continue
        k = max(int(np.searchsorted(s.t_s, t_open + cfg.under_way_s, side="right")), 2)
        if float(s.t_s[k - 1]) - t0 > seg.rest_min_s:
            continue  # seen again only later: whether it moved at the opening is not known
        step = np.hypot(*(s.xy_mm[1:k] - s.xy_mm[0]).T)
        # a moving ball moves between every two samples: one that stood still between two (the
        # same centre twice) and then lies off by the centre's noise was at rest
        still = float(np.hypot(*np.diff(s.xy_mm[:k], axis=0).T).min()) <= cfg.under_way_still_mm
        if float(step.max()) > seg.rest_tol_mm and not still:
            out.append(m.ball)
    return tuple(sorted(out, key=lambda b: b.value))


def start_event(opening: Opening, stroke: Stroke, shot: int, frame_at: FrameAt) -> ShotStart:
    """The ``ShotStart`` of ``stroke`` (the opening's, or its re-timed one) and the layout."""
    return ShotStart(
        stroke.t_s,
        frame_at(stroke.t_s),
        shot,
        stroke.confidence,
        stroke.ball,
        opening.positions,
        opening.frozen,
        opening.touching,
        opening.under_way,
        under_way_at=opening.under_way_at,
    )


def retimed_stroke(
    acts: Mapping[BallId, BallActivity], stroke: Stroke, contacts: Contacts, cfg: InferenceConfig
) -> Stroke:
    """The stroke's start again, now that the shot's contacts are known: the cue ball's path
    after it kept short of its first contact; a cue ball first seen moving after that contact,
    or seen again so far from its rest that no stroke could have taken it there since that start
    (hidden at the stroke), started by the way to the contact over its speed. Unchanged where
    the cue ball was not at rest before, or has no contact after its rest."""
    cue_motion = stroke.motion
    if cue_motion.rest_before is None or cue_motion.i_first <= 0:
        return stroke
    cue = cue_motion.ball
    cs = acts[cue].samples
    t_rest = float(cs.t_s[cue_motion.i_first - 1])
    later = [x.t_s for x in contacts.collisions if cue in x.balls and x.t_s > t_rest]
    later += [y.t_s for y in contacts.cushions if y.ball is cue and y.t_s > t_rest]
    if not later:
        return stroke
    i = cue_motion.i_first
    first = min(later)
    hit = next((x for x in contacts.collisions if cue in x.balls and x.t_s == first), None)
    if first < float(cs.t_s[i]):
        # the cue ball was first seen moving after its first contact (hidden at the stroke)
        t_start, conf = _stroke_before(acts, cue_motion, hit, first, contacts, cfg)
    else:
        t_start, conf = onset_time(acts[cue], i, cfg.contact, hi_t=first)
        way = float(np.hypot(*(cs.xy_mm[i] - np.array(cue_motion.rest_before.pos_mm))))
        frame_s = float(np.median(np.diff(cs.t_s)))
        if way > cfg.max_stroke_speed_mm_s * (float(cs.t_s[i]) - t_start + frame_s):
            # a start too late for the way the ball went before its first moving sample (the
            # fastest stroke would need another sample interval): it was hidden at the stroke
            # and seen again just before its first contact
            t_start, conf = _stroke_before(acts, cue_motion, hit, first, contacts, cfg)
    return Stroke(t_start, conf, cue_motion)


def _stroke(
    acts: Mapping[BallId, BallActivity], span: ShotSpan, zones: tuple[PocketZone, ...], cfg: InferenceConfig
) -> Stroke:
    """The first motion to start, timed by its onset from rest (0.3 confidence for a motion
    under way when the data open); on a table with pockets, the cue ball's first motion."""
    starts: list[tuple[float, float, Motion]] = []
    for m in span.motions:
        act = acts[m.ball]
        if m.rest_before is not None and m.i_first > 0:
            t_on, conf = onset_time(act, m.i_first, cfg.contact)
        else:
            t_on, conf = m.t_begin_s(act.samples), 0.3
        starts.append((t_on, conf, m))
    t_start, start_conf, cue_motion = _first_mover(starts, acts)
    if zones and cue_motion.ball is not BallId.CUE:
        # on a table with pockets the struck ball is the cue ball, whose id is known: another
        # ball seen moving first (a flicker of a resting ball, a rack ball under way when the
        # data open with the stroke) did not start the shot
        cue_starts = [x for x in starts if x[2].ball is BallId.CUE]
        if cue_starts:
            t_start, start_conf, cue_motion = min(cue_starts, key=lambda x: x[0])
    return Stroke(t_start, start_conf, cue_motion)


def _positions(
    acts: Mapping[BallId, BallActivity],
    span: ShotSpan,
    t_start: float,
    zones: tuple[PocketZone, ...],
    cfg: InferenceConfig,
    under_way: tuple[BallId, ...] = (),
) -> dict[BallId, tuple[float, float]]:
    """Each ball's rest position before the stroke (a ball that moves in the shot: before its own
    first move, should that come first), balls resting in a pocket left out. Where the data open
    with the shot under way (the stroke before the first frame) a ball not ``under_way`` that is
    first seen at the opening (within ``InferenceConfig.under_way_s``) stood where it was first
    seen, though no rest run precedes the stroke (real dev Clip12, a break whose cue ball reached
    the rack on the fourth frame: the rack's 6 and 9, seen on three and two frames before they
    were struck, were missing from the layout, and the break was taken for a shot in play)."""
    positions: dict[BallId, tuple[float, float]] = {}
    first_move = {m.ball: float(acts[m.ball].samples.t_s[m.i_first]) for m in reversed(span.motions)}
    t_open = _data_start_s(acts)
    if t_open is None:
        t_open = math.inf
    for ball in sorted(acts, key=lambda b: b.value):
        t_at = min(t_start, first_move.get(ball, math.inf) - 1e-9)
        p = rest_position_at(acts[ball], t_at, cfg.contact.rest_fit_samples)
        s = acts[ball].samples
        if p is None and ball not in under_way and len(s) and t_at < float(s.t_s[0]) <= t_open + cfg.under_way_s:
            p = (float(s.xy_mm[0, 0]), float(s.xy_mm[0, 1]))
        if p is not None and not (zones and pocket_holding(zones, p) is not None):
            positions[ball] = p
    return positions


def _first_mover(
    starts: list[tuple[float, float, Motion]], acts: Mapping[BallId, BallActivity]
) -> tuple[float, float, Motion]:
    """The stroke: the motion that starts first. Motions that are already under way when the data
    open (no rest before) all start at the first sample; among them the struck ball is the one
    reported moving first (a ball it set moving is reported only once it has moved), the larger
    first step breaking a tie."""
    t_first = min(x[0] for x in starts)
    tied = [x for x in starts if x[0] <= t_first + 1e-9]
    if len(tied) == 1:
        return tied[0]

    def key(x: tuple[float, float, Motion]) -> tuple[float, float]:
        m = x[2]
        s = acts[m.ball].samples
        if m.n_samples < 2:
            return (math.inf, 0.0)
        k = m.i_first
        step = float(np.hypot(*(s.xy_mm[k + 1] - s.xy_mm[k])))
        return (float(s.t_s[k + 1]), -step)

    return min(tied, key=key)


def _opened_by_stroke(
    acts: Mapping[BallId, BallActivity], span: ShotSpan, cue_motion: Motion, cfg: InferenceConfig
) -> tuple[float, float] | None:
    """Where the cue ball was struck when a sparse recorder opens with it moving (its first
    sample) and every other ball of the shot was at rest then; None otherwise."""
    if cfg.segment.sparse_spacing_s is None or cue_motion.rest_before is not None or cue_motion.i_first != 0:
        return None
    s = acts[cue_motion.ball].samples
    t0 = float(s.t_s[0])
    for m in span.motions:
        if m is cue_motion:
            continue
        if m.rest_before is None and float(acts[m.ball].samples.t_s[m.i_first]) <= t0 + 1e-9:
            return None  # another ball under way at the opening too: which was struck is unsure
    return (float(s.xy_mm[0, 0]), float(s.xy_mm[0, 1]))


def _stroke_before(
    acts: Mapping[BallId, BallActivity],
    cue_motion: Motion,
    hit: Collision | None,
    t_first: float,
    contacts: Contacts,
    cfg: InferenceConfig,
) -> tuple[float, float]:
    """The stroke of a cue ball first seen moving only after its first contact (at ``t_first``;
    ``hit`` when that is a ball): it left its rest position at ``t_first`` minus the way to the
    contact over its speed before it. Two equal masses share their momentum, so that speed is
    the sum of both balls' velocities just after the contact; without them, the middle of the
    time the ball may have left in."""
    cue = cue_motion.ball
    act = acts[cue]
    s = act.samples
    t_rest = float(s.t_s[cue_motion.i_first - 1])
    assert cue_motion.rest_before is not None
    rest = np.array(cue_motion.rest_before.pos_mm)

    def next_after(ball: BallId, t: float) -> float:
        ts = [x.t_s for x in contacts.collisions if ball in x.balls and x.t_s > t + 1e-9]
        ts += [y.t_s for y in contacts.cushions if y.ball is ball and y.t_s > t + 1e-9]
        return min(ts, default=math.inf)

    guess = 0.5 * (t_rest + t_first)
    cue_out = make_side(act, cue_motion.i_first, +1, t_first, next_after(cue, t_first), cfg.contact)
    if hit is None or cue_out.fit is None:
        return guess, 0.3
    other = hit.balls[1] if hit.balls[0] is cue else hit.balls[0]
    os_ = acts[other].samples
    k = int(np.searchsorted(os_.t_s, t_first, side="right"))
    struck_out = make_side(acts[other], k, +1, t_first, next_after(other, t_first), cfg.contact)
    if struck_out.fit is None or struck_out.at_rest or cue_out.at_rest:
        return guess, 0.3
    v_in = cue_out.path.vel(t_first) + struck_out.path.vel(t_first)  # type: ignore[union-attr]
    speed = float(np.hypot(*v_in))
    way = float(np.hypot(*(cue_out.path.pos(t_first) - rest)))  # type: ignore[union-attr]
    if speed <= 1e-6:
        return guess, 0.3
    return float(np.clip(t_first - way / speed, t_rest, t_first)), 0.4
