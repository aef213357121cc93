"""Step 3 of a shot: the ball-ball contacts no path shows, inferred from their effects.

Contract: :func:`unseen_contacts` takes the contacts the paths show (:mod:`tracking.infer.contacts`)
and returns them with those that must have happened though no fit sees them, each at low
confidence (0.1-0.25: a graded guess, flagged for review downstream), and, for a sparse recorder,
without those its reports rule out.

Why: a ball at rest moves only when struck. So a ball that starts moving mid-shot with no contact
found was struck by the ball next to it then (the striker hidden, blurred by its speed, or not
reported by a sparse recorder); a resting ball found a few centimetres from where it rested after
a recorder's silence was pushed by the ball that came closest to it; and a ball that rolls to rest
against a resting ball it was heading for touched it. A sparse recorder (one that reports a ball
only once it has moved ~1 cm) also bounds when a ball it reports moving from rest can have been
struck, which rules out a fast ball's straight chord between two reports grazing a resting ball.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from calibration.table import TableSpec
from tracking.collisions import Collision, onset_time
from tracking.ids import BallId
from tracking.infer.config import InferenceConfig
from tracking.infer.contacts import Contacts
from tracking.infer.timeline import rest_position_at
from tracking.segment import BallActivity, BallSamples, Motion, ShotSpan

#: How far (ball diameters) a striker may seem from the ball it struck, beyond the way the
#: fastest ball goes in the time it has not been seen.
MOVING_STRIKER_REACH_D = 4.0
#: The fastest a ball goes (a break shot): bounds where a ball unseen for a while may be.
MAX_BALL_SPEED_MM_S = 8000.0


def unseen_contacts(
    acts: Mapping[BallId, BallActivity],
    span: ShotSpan,
    cue_motion: Motion,
    seen: Contacts,
    table: TableSpec,
    cfg: InferenceConfig,
) -> Contacts:
    """``seen`` with the ball-ball contacts inferred from their effects added (and, for a sparse
    recorder, those its reports rule out removed); cushion contacts unchanged."""
    pace_s = cfg.segment.sparse_spacing_s
    collisions = list(seen.collisions)
    if pace_s is not None:
        collisions = _sparse_contacts(acts, collisions, pace_s)
    collisions += _unexplained_starts(acts, span, cue_motion, collisions, table, cfg)
    if pace_s is not None:
        collisions += _pushed_in_silence(acts, span, collisions, table, cfg)
        collisions += _stopped_against(acts, span, collisions, table, cfg)
    return Contacts(tuple(collisions), seen.cushions)


def _unexplained_starts(
    acts: Mapping[BallId, BallActivity],
    span: ShotSpan,
    cue_motion: Motion,
    collisions: list[Collision],
    table: TableSpec,
    cfg: InferenceConfig,
) -> list[Collision]:
    """A ball that starts moving mid-shot with no contact found in which it is struck: the ball
    coming at it along its line struck it (:func:`_incoming_striker`), else, where no contact of
    it was found at all, the nearest ball."""
    out: list[Collision] = []
    on_pocket_table = bool(table.pockets)
    D = table.ball_diameter_mm
    # in the order the balls were set moving: a striker's earlier contact ends its incoming line
    starts: list[tuple[float, Motion, np.ndarray, float, float, bool]] = []
    for m in span.motions:
        if m is cue_motion or m.rest_before is None:
            continue
        s = acts[m.ball].samples
        t_rest = float(s.t_s[m.i_first - 1])
        t_move = float(s.t_s[m.i_first])
        then = [x for x in collisions if m.ball in x.balls and t_rest - cfg.dedupe_s <= x.t_s <= t_move + cfg.dedupe_s]
        if any(x.balls[1] is m.ball for x in then):
            continue  # struck then: explained
        t_on, _ = onset_time(acts[m.ball], m.i_first, cfg.contact)
        starts.append((t_on, m, np.array(m.rest_before.pos_mm), t_rest, t_move, bool(then)))
    for t_on, m, p, t_rest, t_move, striking in sorted(starts, key=lambda x: x[0]):
        near: list[tuple[BallId, float, np.ndarray, float]] = []
        for other, oact in acts.items():
            if other is m.ball:
                continue
            os_ = oact.samples
            q = np.array([np.interp(t_on, os_.t_s, os_.xy_mm[:, 0]), np.interp(t_on, os_.t_s, os_.xy_mm[:, 1])])
            k = int(np.clip(np.searchsorted(os_.t_s, t_on) - 1, 0, max(len(os_) - 2, 0)))
            chord = float(np.linalg.norm(os_.xy_mm[min(k + 1, len(os_) - 1)] - os_.xy_mm[k]))
            t_hit = t_on
            if (
                float(np.linalg.norm(q - p)) > D + cfg.contact.ball_detect_mm + chord
                and t_move - t_rest > cfg.segment.silent_min_s
            ):
                # a long silence before the ball moved (a sparse recorder, a ball hidden): the
                # striker is the ball that came closest to it during that silence
                t_hit, q, chord = _closest_approach(os_, p, t_rest, t_move)
            near.append((other, t_hit, q, chord))
        hit = _incoming_striker(acts, span, m.ball, t_on, p, D + cfg.contact.ball_detect_mm, collisions + out)
        if hit is None and striking:
            # found only striking another then (a rack's balls, timed together): the ball coming
            # at it along its line is the one striker that adds anything (synthetic snooker break
            # at 25 fps: the apex red, seen striking the red behind it, the cue ball not seen at
            # its contact); the nearest ball would be one it struck
            continue
        if hit is None:
            hit = _nearest_striker(near, m.ball, p, D + cfg.contact.ball_detect_mm)
        if hit is not None:
            out.append(hit)
            continue
        # (on video of a pocket table, where a ball blurred out of view by its speed strikes: not
        # for a sparse recorder, where a ball reported elsewhere with no ball near it is its own
        # re-measured report, nor on carom video, where a far ball's motion explains nothing)
        mover = (
            _moving_striker(acts, span, m, t_on, p, cfg.segment.lost_after_s, D)
            if cfg.segment.sparse_spacing_s is None and on_pocket_table
            else None
        )
        if mover is not None:
            out.append(mover)
    return out


def _moving_striker(
    acts: Mapping[BallId, BallActivity],
    span: ShotSpan,
    m: Motion,
    t_on: float,
    p: np.ndarray,
    lost_after_s: float,
    diameter_mm: float,
) -> Collision | None:
    """The striker of a ball set moving at ``t_on`` (from rest at ``p``) with no ball seen next to
    it: a ball at rest moves only when struck, so the striker is a ball in motion then (seen, or
    bridged through a gap, or vanished in motion up to ``lost_after_s`` before: too fast to be
    seen, blurred); where only one other ball is moving it is that one (confidence 0.2), else the
    nearest of those that can have been there then, no farther than :data:`MOVING_STRIKER_REACH_D`
    diameters beyond the fastest ball's way while unseen (0.1). The contact point is ``p`` (where
    the struck ball rested: the striker's own place then is unknown)."""
    movers: list[tuple[float, BallId, np.ndarray, bool]] = []
    for o in span.motions:
        if o.ball is m.ball:
            continue
        os_ = acts[o.ball].samples
        t0 = float(os_.t_s[o.i_first - 1]) if o.rest_before is not None and o.i_first > 0 else float(os_.t_s[o.i_first])
        t1 = float(os_.t_s[o.i_last]) + (lost_after_s if o.rest_after is None else 0.0)
        if not (t0 < t_on <= t1 + 1e-9):
            continue
        q = np.array([np.interp(t_on, os_.t_s, os_.xy_mm[:, 0]), np.interp(t_on, os_.t_s, os_.xy_mm[:, 1])])
        # how far it may have gone unseen: the fastest ball over the time since it was last seen
        # (a ball struck from rest is seen once or twice at 25 fps: its steps say little)
        k = int(np.clip(np.searchsorted(os_.t_s, t_on, side="right") - 1, 0, len(os_) - 1))
        unseen = max(t_on - float(os_.t_s[k]), 0.0)
        d = float(np.linalg.norm(q - p))
        movers.append((d, o.ball, q, d <= MOVING_STRIKER_REACH_D * diameter_mm + MAX_BALL_SPEED_MM_S * unseen))
    if len({x[1] for x in movers}) > 1:
        # several in motion: only one that can have been there; the lone one moving is taken
        # wherever its track puts it (a fast ball's detections may have gone to another track)
        movers = [x for x in movers if x[3]]
    if not movers:
        return None
    d, striker, q, _ = min(movers, key=lambda x: x[0])
    conf = 0.2 if len({x[1] for x in movers}) == 1 else 0.1
    return Collision((striker, m.ball), t_on, (float(p[0]), float(p[1])), conf)


def _sparse_contacts(
    acts: Mapping[BallId, BallActivity], collisions: list[Collision], pace_s: float
) -> list[Collision]:
    """The contacts that fit a sparse recorder's reports of the balls they set moving from rest.

    Such a ball is reported once it has gone about a centimetre, so it started no earlier than
    its first report less twice the time its first step takes at the pace of the step after (a
    ball slows down, never speeds up) and two of the recorder's ticks: a contact long before that
    (a fast ball's straight chord between two reports grazing a resting ball) set nothing moving.
    And a ball at rest is set moving once: of several contacts found on it in one silence, the
    last, nearest its first report, is the one."""

    def too_early(x: Collision, ball: BallId) -> bool:
        key = _rest_key(acts, ball, x.t_s)
        if key is None:
            return False
        s, k = acts[ball].samples, key[1]
        if k + 1 >= len(s):
            return False
        first = float(np.linalg.norm(s.xy_mm[k] - s.xy_mm[k - 1]))
        speed = float(np.linalg.norm(s.xy_mm[k + 1] - s.xy_mm[k])) / max(float(s.t_s[k + 1] - s.t_s[k]), 1e-9)
        return speed > 1e-6 and x.t_s < float(s.t_s[k]) - 2.0 * first / speed - 2.0 * pace_s

    keep = [x for x in collisions if not any(too_early(x, b) for b in x.balls)]
    latest: dict[tuple[BallId, int], float] = {}
    for x in keep:
        for b in x.balls:
            key = _rest_key(acts, b, x.t_s)
            if key is not None:
                latest[key] = max(latest.get(key, -math.inf), x.t_s)
    return [x for x in keep if all((key := _rest_key(acts, b, x.t_s)) is None or latest[key] <= x.t_s for b in x.balls)]


def _rest_key(acts: Mapping[BallId, BallActivity], ball: BallId, t_s: float) -> tuple[BallId, int] | None:
    """(ball, index of its first sample after the silence) when ``t_s`` falls in the silence
    right after one of the ball's rest runs; None otherwise."""
    act = acts.get(ball)
    if act is None:
        return None
    s = act.samples
    k = int(np.searchsorted(s.t_s, t_s, side="right"))
    if k <= 0 or k >= len(s) or not any(r.i1 == k - 1 for r in act.runs):
        return None
    return (ball, k)


def _pushed_in_silence(
    acts: Mapping[BallId, BallActivity],
    span: ShotSpan,
    collisions: list[Collision],
    table: TableSpec,
    cfg: InferenceConfig,
) -> list[Collision]:
    """Contacts a sparse recorder shows only by a resting ball found, after a silence, a few
    centimetres from where it rested (a slow push: too slow for the recorder to report it moving):
    the ball that came closest to it during the silence, within the shot, struck it."""
    out: list[Collision] = []
    D = table.ball_diameter_mm
    moving = {m.ball for m in span.motions}
    for ball, act in acts.items():
        for a, b in zip(act.runs, act.runs[1:]):
            if b.i0 != a.i1 + 1 or math.dist(a.pos_mm, b.pos_mm) <= 2.0 * cfg.segment.rest_tol_mm:
                continue
            t0, t1 = max(a.t_last_s, span.t_begin_s), min(b.t_first_s, span.t_end_s)
            if t1 <= t0 or any(ball in x.balls and a.t_last_s <= x.t_s <= b.t_first_s for x in collisions + out):
                continue
            p = np.array(a.pos_mm)
            near = [
                (other, *_closest_approach(acts[other].samples, p, t0, t1))
                for other in sorted(moving - {ball}, key=lambda b: b.value)
            ]
            hit = _nearest_striker(near, ball, p, D + cfg.contact.ball_detect_mm)
            if hit is not None:
                out.append(hit)
    return out


#: the onset of a ball struck from rest is timed to within this (its fit's spread at 25 fps): a
#: striker on its incoming line may be this far off, at its speed
ONSET_SPREAD_S = 0.005


def _incoming_striker(
    acts: Mapping[BallId, BallActivity],
    span: ShotSpan,
    struck: BallId,
    t_on: float,
    p: np.ndarray,
    reach_mm: float,
    known: Sequence[Collision] = (),
) -> Collision | None:
    """The ball that was coming at ``struck`` (at rest at ``p``, set moving at ``t_on``) along a
    straight line: seen moving by then, its last two samples before ``t_on`` extrapolated to
    ``t_on`` land within ``reach_mm`` (plus its speed over :data:`ONSET_SPREAD_S`) of ``p``, ahead
    of it, its line within ``reach_mm`` of ``p`` (synthetic snooker break at 25 fps: the cue ball
    passing 70 mm from the pink on its way to the pack was taken for its striker), and no contact
    of it in ``known`` since its last sample (that ended its line); the nearest of those
    (confidence 0.25), or None. Why: a ball struck at speed is often not seen on the frame of its
    contact (synthetic nine_break at 25 fps: the cue ball at 12 m/s was a streak on the two frames
    before and gone on the third, stopped against the 1 inside the rack); its chord from the frame
    before to the frame after bends back at the contact and misses the struck ball, and the
    resting 3 beside the 1 was taken for the striker instead."""
    best: tuple[float, BallId, np.ndarray] | None = None
    for o in span.motions:
        if o.ball is struck:
            continue
        s = acts[o.ball].samples
        k = int(np.searchsorted(s.t_s, t_on, side="right") - 1)
        if k < max(o.i_first, 1) or k > o.i_last:
            continue  # not seen moving by then, or its motion over
        if any(o.ball in x.balls and float(s.t_s[k]) < x.t_s <= t_on for x in known):
            continue  # it met another ball since: off its line
        dt = float(s.t_s[k] - s.t_s[k - 1])
        if dt <= 0.0:
            continue
        v = (s.xy_mm[k] - s.xy_mm[k - 1]) / dt
        speed = float(np.hypot(*v))
        if speed <= 0.0:
            continue
        u = v / speed
        along, across = _along_across(p - s.xy_mm[k], u)
        if along <= 0.0:
            continue
        q = s.xy_mm[k] + v * (t_on - float(s.t_s[k]))
        d = float(np.linalg.norm(q - p))
        if d > reach_mm + speed * ONSET_SPREAD_S or (best is not None and d >= best[0]):
            continue
        if across > reach_mm:
            continue  # its line passes too far from the ball to touch it
        if _blocked(acts, (o.ball, struck), s.xy_mm[k], u, along, float(s.t_s[k]), reach_mm):
            continue  # another ball lies on its line before this one: it met that one first
        best = (d, o.ball, q)
    if best is None:
        return None
    _, striker, q = best
    mid = 0.5 * (p + q)
    return Collision((striker, struck), t_on, (float(mid[0]), float(mid[1])), 0.25)


def _blocked(
    acts: Mapping[BallId, BallActivity],
    pair: tuple[BallId, BallId],
    a: np.ndarray,
    u: np.ndarray,
    until_mm: float,
    t_s: float,
    width_mm: float,
) -> bool:
    """Whether a ball other than those of ``pair``, where it was at ``t_s``, lies on the line from
    ``a`` along the unit vector ``u`` within ``width_mm`` of it and less than ``until_mm`` along it
    (synthetic nine_break at 30 fps: the 3, resting behind and beside the 1, was given the cue
    ball as its striker; the cue ball's line meets the 1 first)."""
    for ball, act in acts.items():
        if ball in pair or len(act.samples) == 0:
            continue
        sb = act.samples
        pb = np.array([np.interp(t_s, sb.t_s, sb.xy_mm[:, 0]), np.interp(t_s, sb.t_s, sb.xy_mm[:, 1])])
        along, across = _along_across(pb - a, u)
        if 0.0 < along < until_mm and across < width_mm:
            return True
    return False


def _along_across(rel: np.ndarray, u: np.ndarray) -> tuple[float, float]:
    """How far the offset ``rel`` (mm) lies along the unit vector ``u``, and how far from its
    line (unsigned)."""
    return float(rel @ u), abs(float(rel[0] * u[1] - rel[1] * u[0]))


def _nearest_striker(
    near: Sequence[tuple[BallId, float, np.ndarray, float]], struck: BallId, p: np.ndarray, reach_mm: float
) -> Collision | None:
    """Of candidate strikers (ball, time, its centre then, the chord of its sample step), the
    nearest to the struck ball resting at ``p`` within ``reach_mm`` plus that chord: a
    low-confidence contact midway between them, or None."""
    best: tuple[float, BallId, np.ndarray, float] | None = None
    for other, t_hit, q, chord in near:
        d = float(np.linalg.norm(q - p))
        if d <= reach_mm + chord and (best is None or d < best[0]):
            best = (d, other, q, t_hit)
    if best is None:
        return None
    mid = 0.5 * (p + best[2])
    return Collision((best[1], struck), best[3], (float(mid[0]), float(mid[1])), 0.25)


def _stopped_against(
    acts: Mapping[BallId, BallActivity],
    span: ShotSpan,
    collisions: list[Collision],
    table: TableSpec,
    cfg: InferenceConfig,
) -> list[Collision]:
    """A ball that rolls to rest touching a resting ball it was heading for touched it (a sparse
    recorder does not report the other ball moving less than its step): a low-confidence contact
    at its last moving report."""
    out: list[Collision] = []
    D = table.ball_diameter_mm
    for m in span.motions:
        s = acts[m.ball].samples
        if m.n_samples < 2 or (m.rest_after is None and m.i_last != len(s) - 1):
            continue  # (a motion the data end in: its last report is where it stopped)
        end = np.array(m.rest_after.pos_mm) if m.rest_after is not None else s.xy_mm[m.i_last].copy()
        t_end = float(s.t_s[m.rest_after.i0]) if m.rest_after is not None else float(s.t_s[m.i_last])
        last = m.i_last - 1 if m.rest_after is None else m.i_last
        heading = end - s.xy_mm[last] if last >= 0 else None
        for other, oact in acts.items():
            if other is m.ball:
                continue
            q = rest_position_at(oact, t_end, cfg.contact.rest_fit_samples)
            if q is None or math.dist(tuple(end), q) > D + cfg.touching_tol_mm + 2.0:
                continue
            if heading is None or float(heading @ (np.array(q) - end)) <= 0.0:
                continue  # it stopped beside the ball, not against it
            if any(set(x.balls) == {m.ball, other} and float(s.t_s[m.i_first]) <= x.t_s for x in collisions + out):
                continue
            t = float(s.t_s[m.i_last])
            mid = 0.5 * (end + np.array(q))
            out.append(Collision((m.ball, other), t, (float(mid[0]), float(mid[1])), 0.25))
    return out


def _closest_approach(s: BallSamples, p: np.ndarray, t0: float, t1: float) -> tuple[float, np.ndarray, float]:
    """When, over ``t0..t1``, the ball of samples ``s`` (linear between them) came closest to
    the point ``p``: the time, its position then and the chord of the sample step it lay on."""
    inside = np.flatnonzero((s.t_s > t0) & (s.t_s < t1))
    ts = np.concatenate([[t0], s.t_s[inside], [t1]])
    xy = np.stack([np.interp(ts, s.t_s, s.xy_mm[:, 0]), np.interp(ts, s.t_s, s.xy_mm[:, 1])], axis=1)
    best = (float(np.linalg.norm(xy[0] - p)), float(ts[0]), xy[0], 0.0)
    for a in range(len(ts) - 1):
        seg = xy[a + 1] - xy[a]
        L2 = float(seg @ seg)
        u = 0.0 if L2 <= 0 else float(np.clip((p - xy[a]) @ seg / L2, 0.0, 1.0))
        q = xy[a] + u * seg
        d = float(np.linalg.norm(q - p))
        if d < best[0]:
            best = (d, float(ts[a] + u * (ts[a + 1] - ts[a])), q, math.sqrt(L2))
    return best[1], best[2], best[3]
