"""Event inference: from ball trajectories to the event log of DESIGN.md.

``infer_events(trajectories, table)`` runs over whole trajectories; :class:`EventStream` takes
samples as they come (a live pipeline) and hands back each shot's events as soon as that shot is
over. Both run the same per-shot inference:

1. Rest and motion of each ball, grouped into shots (:mod:`tracking.segment`).
2. ``ShotStart``: the cue ball is the first ball to move; the start time is when its first moving
   samples, fitted, leave its rest position. ``positions`` are the rest positions before the
   stroke, ``frozen_to_cushion`` a centre within ``frozen_tol_mm`` of R from a nose line,
   ``balls_in_contact`` centres within 2R + ``touching_tol_mm``.
3. Ball-ball contacts (:mod:`tracking.collisions`) and cushion contacts
   (:mod:`tracking.cushions`), in passes: first each found on its own, then each re-timed with
   its fits kept inside the ball's neighbouring contacts, so that two contacts of one ball within
   one sample gap are timed and ordered from their clean sides. A close approach of two balls
   may hold more than one contact (a kiss after a cushion): a further one is kept where another
   contact of either ball lies between, or they are seen drawing apart and together again.
4. A ball that starts moving with no contact found is given a low-confidence contact with the
   ball next to it at that moment (the striker was hidden, say). A cue ball first seen moving
   after its first contact (hidden by the hand and cue at the stroke) started before it: by the
   way to the contact over the speed the two balls' momentum after it gives.
5. A ball whose track ends in motion and is not seen again: ``OffTable``/``Pocketed`` when its
   last motion says so (:mod:`tracking.offtable`), otherwise lost (still on the table). On a
   table with pockets (:mod:`tracking.pockets`) a ball that comes to rest, seen, inside a
   pocket's drop circle (in the throat) is pocketed too; a cushion contact found in front of a
   pocket's opening is no contact (the nose line is broken there); a ball resting in a pocket is
   not on the table (left out of ``positions``), and its motions there start no shot.
6. ``ShotEnd`` when every ball is at rest, with their positions.

Sampling: any. Times come from the samples, never from a frame rate; ``frame`` of an event is
the highest ``frame`` value among the samples (of any ball) at or before the event's time, so for
video it is the frame the event falls in, and for data without frames (CSV tracks) it is what the
reader put there (:mod:`tracking.tracks_csv`: a ``frame`` column, else the row index).
Confidence of each event (0..1) comes from its fits' residuals, how many samples support each
side, the sample gap and occlusion at the time, and how clearly the velocity changed; it is a
graded score, not a calibrated probability.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Iterable, Mapping, Sequence

import numpy as np

from calibration.table import TableSpec
from tracking.collisions import Collision, Episode, nudges, onset_time, pair_episodes, positions_at, refine_pair
from tracking.cushions import (
    OPPOSITE,
    CushionContact,
    cushion_candidates,
    dying_contact,
    graze_contacts,
    nearest_cushion,
    refine_cushion,
)
from tracking.events import BallBall, CushionHit, Event, EventKind, OffTable, Pocketed, ShotEnd, ShotStart
from tracking.ids import BallId, Cushion
from tracking.offtable import ExitConfig, ball_exit
from tracking.pockets import PocketEntry, PocketZone, in_opening, pocket_entry, pocket_holding, pocket_zones
from tracking.sampling import Sampling, detect_sampling
from tracking.segment import BallActivity, BallSamples, Motion, SegmentConfig, ShotSpan, ball_activity, group_shots
from tracking.sides import ContactConfig, make_side
from tracking.trajectory import Trajectory, as_trajectory_map


@dataclass(frozen=True)
class InferenceConfig:
    """All thresholds of event inference (see each part's config for its own)."""

    segment: SegmentConfig = field(default_factory=SegmentConfig)
    contact: ContactConfig = field(default_factory=ContactConfig)
    exit: ExitConfig = field(default_factory=ExitConfig)
    frozen_tol_mm: float = 2.0
    touching_tol_mm: float = 2.0
    end_speed_mm_s: float = 150.0
    dedupe_s: float = 0.02
    same_cushion_s: float = 0.1
    sampling: Sampling = Sampling.AUTO


def with_sampling(config: InferenceConfig, trajs: Mapping[BallId, Trajectory]) -> InferenceConfig:
    """``config`` with its sampling resolved: ``AUTO`` is read from the data
    (:func:`tracking.sampling.detect_sampling`); ``SPARSE`` sets the segmenter's reporting pace."""
    kind = config.sampling
    spacing = config.segment.sparse_spacing_s
    if kind is Sampling.AUTO:
        rep = detect_sampling(trajs)
        kind, spacing = rep.kind, rep.spacing_s
    elif kind is Sampling.SPARSE and spacing is None:
        spacing = detect_sampling(trajs).spacing_s
    seg = replace(config.segment, sparse_spacing_s=spacing if kind is Sampling.SPARSE and spacing else None)
    return replace(config, sampling=kind, segment=seg)


class _Clock:
    """Frame of a time: the highest frame among the samples at or before it."""

    def __init__(self, trajectories: Iterable[Trajectory]) -> None:
        ts, fs = [], []
        for tr in trajectories:
            ts.append(tr.t_s)
            fs.append(tr.frame)
        t = np.concatenate(ts) if ts else np.zeros(0)
        f = np.concatenate(fs) if fs else np.zeros(0, dtype=np.int64)
        order = np.lexsort((f, t))
        self._t, self._f = t[order], np.maximum.accumulate(f[order]) if len(f) else f

    def frame_at(self, t_s: float) -> int:
        if len(self._t) == 0:
            return 0
        k = int(np.searchsorted(self._t, t_s, side="right") - 1)
        return int(self._f[max(k, 0)])


def _activities(trajs: Mapping[BallId, Trajectory], cfg: InferenceConfig) -> tuple[dict[BallId, BallActivity], float]:
    clip_end = max((float(tr.t_s[-1]) for tr in trajs.values() if len(tr)), default=0.0)
    acts: dict[BallId, BallActivity] = {}
    for ball, tr in trajs.items():
        s = BallSamples.from_trajectory(tr)
        if len(s):
            acts[ball] = ball_activity(s, clip_end, cfg.segment)
    return acts, clip_end


def infer_events(
    trajectories: Mapping[BallId, Trajectory] | Iterable[Trajectory],
    table: TableSpec,
    config: InferenceConfig = InferenceConfig(),
    first_shot: int = 1,
) -> list[Event]:
    """Every event of the trajectories, shot by shot (numbered from ``first_shot``), in time
    order within each shot. The last shot lacks its ``ShotEnd`` when the data stop while balls
    still move."""
    trajs = as_trajectory_map(trajectories)
    config = with_sampling(config, trajs)
    acts, clip_end = _activities(trajs, config)
    clock = _Clock(trajs.values())
    events: list[Event] = []
    shot = first_shot
    for span in group_shots(acts, config.segment):
        evs = shot_events(acts, span, shot, table, config, clock.frame_at, clip_end, final=True)
        if evs:
            events.extend(evs)
            shot += 1
    return events


# ----------------------------------------------------------------------------------------------
# one shot


def _position_at(act: BallActivity, t_s: float, n: int, after: bool = False) -> tuple[float, float] | None:
    """Where the ball rests at ``t_s``: the median of the (at most ``n``) samples of its rest run
    just before ``t_s`` (``after``: from ``t_s`` on), or None when it is not at rest then. The
    bounded window makes the answer the same whether the run is seen whole or in part."""
    s = act.samples
    k = int(np.searchsorted(s.t_s, t_s, side="right") - 1)
    if after:
        k = max(k, int(np.searchsorted(s.t_s, t_s, side="left")))
        k = min(k, len(s) - 1)
    if k < 0:
        return None
    for r in act.runs:
        if r.i0 <= k <= r.i1:
            idx = np.arange(k, min(k + n, r.i1 + 1)) if after else np.arange(max(k - n + 1, r.i0), k + 1)
            med = np.median(s.xy_mm[idx], axis=0)
            return (float(med[0]), float(med[1]))
    return None


def _bounds(times: Iterable[float], lo_ref: float, hi_ref: float) -> tuple[float, float]:
    ts = list(times)
    lo = max((t for t in ts if t < lo_ref), default=-math.inf)
    hi = min((t for t in ts if t > hi_ref), default=math.inf)
    return lo, hi


def _dedupe_cushions(found: list[CushionContact], dt: float) -> list[CushionContact]:
    out: list[CushionContact] = []
    for c in sorted(found, key=lambda c: c.t_s):
        dup = next((o for o in out if o.ball is c.ball and o.cushion is c.cushion and abs(o.t_s - c.t_s) <= dt), None)
        if dup is None:
            out.append(c)
        elif c.confidence > dup.confidence:
            out[out.index(dup)] = c
    return out


def _dedupe_collisions(found: list[Collision], dt: float) -> list[Collision]:
    out: list[Collision] = []
    for c in sorted(found, key=lambda c: c.t_s):
        dup = next((o for o in out if set(o.balls) == set(c.balls) and abs(o.t_s - c.t_s) <= dt), None)
        if dup is None:
            out.append(c)
        elif c.confidence > dup.confidence:
            out[out.index(dup)] = c
    return out


def _contacts(acts: dict[BallId, BallActivity], span: ShotSpan, t_start: float, cue_motion: Motion,
              table: TableSpec, cfg: InferenceConfig) -> tuple[list[Collision], list[CushionContact]]:
    c = cfg.contact
    D = table.ball_diameter_mm
    moving = {m.ball for m in span.motions}
    balls = sorted(acts, key=lambda b: b.value)
    t0 = t_start - 1e-6
    t1 = span.t_end_s + 1e-6
    episodes: list[Episode] = []
    for a, b in combinations(balls, 2):
        if a in moving or b in moving:
            episodes.extend(pair_episodes(acts[a], acts[b], t0, t1, D, c))

    cue_onset = (cue_motion.ball, t_start, t_start)

    def collide(ep: Episode, struck_only: bool, others: Mapping[BallId, list[float]],
                exclude: Iterable[float] = (), hint: float | None = None) -> Collision | None:
        ex = list(exclude)
        return refine_pair(acts[ep.a], acts[ep.b], ep, D, c, struck_terms_only=struck_only, cue_onset=cue_onset,
                           others_a=list(others.get(ep.a, [])) + ex, others_b=list(others.get(ep.b, [])) + ex,
                           exclude_s=ex, exclude_window_s=cfg.dedupe_s, t_hint_s=hint)

    # pass 1: collisions timed by their struck ball where it was at rest
    bb1 = [collide(ep, True, {}) for ep in episodes]

    cands: list[tuple[BallId, Cushion, list[int]]] = []
    for m in span.motions:
        for cu in Cushion:
            for g in cushion_candidates(acts[m.ball], m, cu, table, c):
                cands.append((m.ball, cu, g))

    def bb_times(found: Iterable[Collision | None]) -> dict[BallId, list[float]]:
        out: dict[BallId, list[float]] = {}
        for x in found:
            if x is not None:
                for ball in x.balls:
                    out.setdefault(ball, []).append(x.t_s)
        return out

    def cushions(bbt: dict[BallId, list[float]], prev: list[CushionContact | None] | None) -> list[CushionContact | None]:
        res: list[CushionContact | None] = []
        for ball, cu, g in cands:
            act = acts[ball]
            s = act.samples
            lo_ref = float(s.t_s[min(g)])
            hi_ref = float(s.t_s[min(max(g) + 1, len(s) - 1)])
            bounds = (-math.inf, math.inf)
            if prev is not None:
                rel = [t for t in bbt.get(ball, [])]
                rel += [p.t_s for p in prev if p is not None and p.ball is ball and p.cushion in (cu, OPPOSITE[cu])]
                bounds = _bounds(rel, lo_ref, hi_ref)
            res.append(refine_cushion(act, cu, g, table, c, bounds[0], bounds[1], gap_events_s=bbt.get(ball, []),
                                      start_s=t_start if ball is cue_motion.ball else -math.inf))
        return res

    cu1 = cushions(bb_times(bb1), None)
    cu2 = cushions(bb_times(bb1), cu1)

    # pass 2: every collision with its fits inside each ball's other contacts
    bb2: list[Collision | None] = []
    for k, ep in enumerate(episodes):
        others: dict[BallId, list[float]] = {}
        for x in cu2:
            if x is not None:
                others.setdefault(x.ball, []).append(x.t_s)
        for j, y in enumerate(bb1):
            if y is not None and j != k:
                for ball in y.balls:
                    others.setdefault(ball, []).append(y.t_s)
        # an episode may hold more than one contact of the pair (a kiss: struck, then met again)
        found: list[float] = []
        for _ in range(3):
            x = collide(ep, False, others, found, None if found or bb1[k] is None else bb1[k].t_s)  # type: ignore[union-attr]
            if x is None or (found and not _met_again(acts[ep.a], acts[ep.b], found, x.t_s,
                                                     others.get(ep.a, []) + others.get(ep.b, []))):
                break
            bb2.append(x)
            found.append(x.t_s)
    cu3 = cushions(bb_times(bb2), cu2)
    collisions = _dedupe_collisions([x for x in bb2 if x is not None], cfg.dedupe_s)
    for a, b in combinations(balls, 2):
        for struck, striker in ((a, b), (b, a)):
            if striker not in moving:
                continue
            for x in nudges(acts[struck], acts[striker], t0, t1, D, c):
                if not any(set(y.balls) == {a, b} and abs(y.t_s - x.t_s) < c.nudge_window_s for y in collisions):
                    collisions.append(x)
    contacts = _dedupe_cushions([x for x in cu3 if x is not None], cfg.same_cushion_s)
    for m in span.motions:
        for cu in Cushion:
            others = [x.t_s for x in collisions if m.ball in x.balls]
            others += [x.t_s for x in contacts if x.ball is m.ball and x.cushion is not cu]
            same = [x.t_s for x in contacts if x.ball is m.ball and x.cushion is cu]
            contacts.extend(graze_contacts(acts[m.ball], m, cu, table, c, others, same))
    for m in span.motions:
        dying = dying_contact(acts[m.ball], m, table, c)
        if dying is None:
            continue
        t_last = float(acts[m.ball].samples.t_s[m.i_last])
        if not any(x.ball is m.ball and x.cushion is dying.cushion and x.t_s >= t_last - c.max_fit_span_s
                   for x in contacts):
            contacts.append(dying)
    return collisions, contacts


_APART_MM = 3.0  # how far apart two balls must draw (above the noise) between two contacts


def _met_again(act_a: BallActivity, act_b: BallActivity, found: list[float], t_s: float,
               others: Iterable[float]) -> bool:
    """Whether two balls that touched at the times ``found`` can have met again at ``t_s``.
    After a contact they draw apart; to meet once more something must turn one of them back:
    another contact of either ball in between (a cushion, a third ball), or else their sampled
    centres must be seen drawing apart and then closer (by more than the noise)."""
    near = min(found, key=lambda t: abs(t - t_s))
    lo, hi = min(near, t_s), max(near, t_s)
    if any(lo < o < hi for o in others):
        return True
    ts = np.union1d(act_a.samples.t_s, act_b.samples.t_s)
    ts = ts[(ts > lo) & (ts < hi)]
    if len(ts) < 3:
        return False
    pa, _ = positions_at(act_a, ts)
    pb, _ = positions_at(act_b, ts)
    d = np.linalg.norm(pa - pb, axis=1)
    k = int(np.argmax(d))
    return bool(d[k] - d[0] > _APART_MM and d[k] - d[-1] > _APART_MM)


def _unexplained_starts(acts: dict[BallId, BallActivity], span: ShotSpan, cue_motion: Motion,
                        collisions: list[Collision], table: TableSpec, cfg: InferenceConfig) -> list[Collision]:
    """A ball that starts moving mid-shot with no contact found: the nearest ball struck it."""
    out: list[Collision] = []
    on_pocket_table = bool(table.pockets)
    D = table.ball_diameter_mm
    for m in span.motions:
        if m is cue_motion or m.rest_before is None:
            continue
        act = acts[m.ball]
        s = act.samples
        t_rest = float(s.t_s[m.i_first - 1])
        t_move = float(s.t_s[m.i_first])
        if any(m.ball in x.balls and t_rest - cfg.dedupe_s <= x.t_s <= t_move + cfg.dedupe_s for x in collisions):
            continue
        t_on, _ = onset_time(act, m.i_first, cfg.contact)
        p = np.array(m.rest_before.pos_mm)
        near: list[tuple[BallId, float, np.ndarray, float]] = []
        for other, oact in acts.items():
            if other is m.ball:
                continue
            os_ = oact.samples
            q = np.array([np.interp(t_on, os_.t_s, os_.xy_mm[:, 0]), np.interp(t_on, os_.t_s, os_.xy_mm[:, 1])])
            k = int(np.clip(np.searchsorted(os_.t_s, t_on) - 1, 0, max(len(os_) - 2, 0)))
            chord = float(np.linalg.norm(os_.xy_mm[min(k + 1, len(os_) - 1)] - os_.xy_mm[k]))
            t_hit = t_on
            if float(np.linalg.norm(q - p)) > D + cfg.contact.ball_detect_mm + chord and \
                    t_move - t_rest > cfg.segment.silent_min_s:
                # a long silence before the ball moved (a sparse recorder, a ball hidden): the
                # striker is the ball that came closest to it during that silence
                t_hit, q, chord = _closest_approach(os_, p, t_rest, t_move)
            near.append((other, t_hit, q, chord))
        hit = _nearest_striker(near, m.ball, p, D + cfg.contact.ball_detect_mm)
        if hit is not None:
            out.append(hit)
            continue
        # (on video of a pocket table, where a ball blurred out of view by its speed strikes: not
        # for a sparse recorder, where a ball reported elsewhere with no ball near it is its own
        # re-measured report, nor on carom video, where a far ball's motion explains nothing)
        mover = (_moving_striker(acts, span, m, t_on, p, cfg.segment.lost_after_s, D)
                 if cfg.segment.sparse_spacing_s is None and on_pocket_table else None)
        if mover is not None:
            out.append(mover)
    return out


#: How far (ball diameters) a striker may seem from the ball it struck, beyond the way the
#: fastest ball goes in the time it has not been seen.
MOVING_STRIKER_REACH_D = 4.0
#: The fastest a ball goes (a break shot): bounds where a ball unseen for a while may be.
MAX_BALL_SPEED_MM_S = 8000.0


def _moving_striker(acts: dict[BallId, BallActivity], span: ShotSpan, m: Motion, t_on: float,
                    p: np.ndarray, lost_after_s: float, diameter_mm: float) -> Collision | None:
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


def _sparse_contacts(acts: dict[BallId, BallActivity], collisions: list[Collision], pace_s: float) -> list[Collision]:
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
    return [x for x in keep
            if all((key := _rest_key(acts, b, x.t_s)) is None or latest[key] <= x.t_s for b in x.balls)]


def _rest_key(acts: dict[BallId, BallActivity], ball: BallId, t_s: float) -> tuple[BallId, int] | None:
    act = acts.get(ball)
    if act is None:
        return None
    s = act.samples
    k = int(np.searchsorted(s.t_s, t_s, side="right"))
    if k <= 0 or k >= len(s) or not any(r.i1 == k - 1 for r in act.runs):
        return None
    return (ball, k)


def _pushed_in_silence(acts: dict[BallId, BallActivity], span: ShotSpan, collisions: list[Collision],
                       table: TableSpec, cfg: InferenceConfig) -> list[Collision]:
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
            near = [(other, *_closest_approach(acts[other].samples, p, t0, t1)) for other in sorted(moving - {ball}, key=lambda b: b.value)]
            hit = _nearest_striker(near, ball, p, D + cfg.contact.ball_detect_mm)
            if hit is not None:
                out.append(hit)
    return out


def _nearest_striker(near: Sequence[tuple[BallId, float, np.ndarray, float]], struck: BallId, p: np.ndarray,
                     reach_mm: float) -> Collision | None:
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


def _stopped_against(acts: dict[BallId, BallActivity], span: ShotSpan, collisions: list[Collision],
                     table: TableSpec, cfg: InferenceConfig) -> list[Collision]:
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
            q = _position_at(oact, t_end, cfg.contact.rest_fit_samples)
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


def _stroke_before(acts: dict[BallId, BallActivity], cue_motion: Motion, hit: Collision | None, t_first: float,
                   collisions: list[Collision], contacts: list[CushionContact], cfg: InferenceConfig) -> tuple[float, float]:
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
        ts = [x.t_s for x in collisions if ball in x.balls and x.t_s > t + 1e-9]
        ts += [y.t_s for y in contacts if y.ball is ball and y.t_s > t + 1e-9]
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


#: Confidence of a shot start where a sparse recorder opens with one ball moving and the others
#: at rest: the struck ball is sure; its start time is the recording's first sample.
SURE_OPENING = 0.9


def _first_mover(starts: list[tuple[float, float, Motion]],
                 acts: dict[BallId, BallActivity]) -> tuple[float, float, Motion]:
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


def _opened_by_stroke(acts: dict[BallId, BallActivity], span: ShotSpan, cue_motion: Motion,
                      cfg: InferenceConfig) -> tuple[float, float] | None:
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


def _last_speed(act: BallActivity, m: Motion, cfg: InferenceConfig) -> float:
    side = make_side(act, m.i_last, -1, -math.inf, math.inf, cfg.contact)
    if side.fit is None or side.at_rest:
        return 0.0
    return float(np.hypot(*side.fit.vel(float(act.samples.t_s[m.i_last]))))


def shot_events(
    acts: dict[BallId, BallActivity],
    span: ShotSpan,
    shot: int,
    table: TableSpec,
    cfg: InferenceConfig,
    frame_at,
    clip_end_s: float,
    final: bool,
) -> list[Event]:
    """The events of one shot (``final``: the data end here, close the shot if the balls were
    all but stopped)."""
    R, D = table.ball_radius_mm, table.ball_diameter_mm
    zones = pocket_zones(table, cfg.exit.pockets)
    if zones:
        span = _off_the_pockets(acts, span, zones)
        if not span.motions:
            return []
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
    positions: dict[BallId, tuple[float, float]] = {}
    first_move = {m.ball: float(acts[m.ball].samples.t_s[m.i_first]) for m in reversed(span.motions)}
    for ball in sorted(acts, key=lambda b: b.value):
        t_at = min(t_start, first_move.get(ball, math.inf) - 1e-9)
        p = _position_at(acts[ball], t_at, cfg.contact.rest_fit_samples)
        if p is not None and not (zones and pocket_holding(zones, p) is not None):
            positions[ball] = p
    opened = _opened_by_stroke(acts, span, cue_motion, cfg)
    if opened is not None:
        # a recorder that starts with the stroke: the cue ball's first report is where it was
        # struck, and no other ball moved before it, so which ball was struck is sure
        positions[cue_motion.ball] = opened
        start_conf = max(start_conf, SURE_OPENING)
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
    events: list[Event] = [
        ShotStart(t_start, frame_at(t_start), shot, start_conf, cue_motion.ball, positions, frozen, touching)
    ]
    collisions, contacts = _contacts(acts, span, t_start, cue_motion, table, cfg)
    if cfg.segment.sparse_spacing_s is not None:
        collisions = _sparse_contacts(acts, collisions, cfg.segment.sparse_spacing_s)
    collisions += _unexplained_starts(acts, span, cue_motion, collisions, table, cfg)
    if cfg.segment.sparse_spacing_s is not None:
        collisions += _pushed_in_silence(acts, span, collisions, table, cfg)
        collisions += _stopped_against(acts, span, collisions, table, cfg)
    if zones:
        contacts = [y for y in contacts if in_opening(zones, y.cushion, y.pos_mm) is None]
        collisions = _after_the_cue_ball(collisions, cue_motion.ball)
    if cue_motion.rest_before is not None and cue_motion.i_first > 0:
        # the stroke's start again, the cue ball's path after it kept short of its first contact
        cue = cue_motion.ball
        cs = acts[cue].samples
        t_rest = float(cs.t_s[cue_motion.i_first - 1])
        later = [x.t_s for x in collisions if cue in x.balls and x.t_s > t_rest]
        later += [y.t_s for y in contacts if y.ball is cue and y.t_s > t_rest]
        if later and min(later) < float(cs.t_s[cue_motion.i_first]):
            # the cue ball was first seen moving after its first contact (hidden at the stroke)
            first = min(later)
            hit = next((x for x in collisions if cue in x.balls and x.t_s == first), None)
            t_start, start_conf = _stroke_before(acts, cue_motion, hit, first, collisions, contacts, cfg)
        elif later:
            t_start, start_conf = onset_time(acts[cue], cue_motion.i_first, cfg.contact, hi_t=min(later))
    events[0] = ShotStart(t_start, frame_at(t_start), shot, start_conf, cue_motion.ball, positions, frozen, touching)
    for x in collisions:
        t = max(x.t_s, t_start)
        events.append(BallBall(t, frame_at(t), shot, x.confidence, x.balls, x.pos_mm))
    for y in contacts:
        t = max(y.t_s, t_start)
        events.append(CushionHit(t, frame_at(t), shot, y.confidence, y.ball, y.cushion, y.pos_mm))

    # balls whose track ends in motion
    gone: set[BallId] = set()
    lost: set[BallId] = set()
    open_motions: list[Motion] = []
    for m in span.motions:
        if m.rest_after is not None:
            drop = _dropped_into_view(acts[m.ball], m, zones) if zones else None
            if drop is not None:  # came to rest in a pocket's throat, in view
                gone.add(m.ball)
                t = max(drop.t_s, t_start)
                events.append(Pocketed(t, frame_at(t), shot, drop.confidence, m.ball, drop.pocket))
            continue
        act = acts[m.ball]
        s = act.samples
        t_last = float(s.t_s[m.i_last])
        t_next = float(s.t_s[m.i_last + 1]) if m.i_last + 1 < len(s) else clip_end_s
        if t_next - t_last >= cfg.segment.lost_after_s or (m.i_last + 1 < len(s)):
            ex = ball_exit(act, m, table, cfg.contact, cfg.exit)
            if ex is None:
                lost.add(m.ball)
            else:
                gone.add(m.ball)
                t = max(ex.t_s, t_start)
                if ex.pocket is None:
                    events.append(OffTable(t, frame_at(t), shot, ex.confidence, m.ball))
                else:
                    events.append(Pocketed(t, frame_at(t), shot, ex.confidence, m.ball, ex.pocket))
        else:
            open_motions.append(m)

    end_conf = 1.0 if not lost else 0.4
    if open_motions:
        if not final or any(_last_speed(acts[m.ball], m, cfg) > cfg.end_speed_mm_s for m in open_motions):
            return _ordered(events)
        end_conf = min(end_conf, 0.5)
    ends = [m.t_end_s(acts[m.ball].samples) for m in span.motions if m.ball not in gone]
    t_end = max(ends) if ends else span.t_end_s
    end_positions: dict[BallId, tuple[float, float]] = {}
    for ball in sorted(acts, key=lambda b: b.value):
        if ball in gone:
            continue
        act = acts[ball]
        if zones and ball not in first_move and _vanished_before(act, t_end):
            continue  # pocketed (or off the table) in an earlier shot, not yet back
        p = _position_at(act, t_end, cfg.contact.rest_fit_samples, after=True)
        if p is None:
            k = int(np.searchsorted(act.samples.t_s, t_end, side="right") - 1)
            if k < 0:
                continue
            p = (float(act.samples.xy_mm[k, 0]), float(act.samples.xy_mm[k, 1]))
        if zones and pocket_holding(zones, p) is not None:
            continue  # resting in a pocket's throat
        end_positions[ball] = p
    events.append(ShotEnd(t_end, frame_at(t_end), shot, end_conf, end_positions))
    return _ordered(events)


def _after_the_cue_ball(collisions: list[Collision], cue: BallId) -> list[Collision]:
    """Every ball rests until the cue ball sets it moving, so no contact of two other balls
    precedes the cue ball's first contact: a contact timed before it (balls of a rack touching,
    each contact within a millisecond of the next) is moved to just after it."""
    first = min((x.t_s for x in collisions if cue in x.balls), default=None)
    if first is None:
        return collisions
    out = []
    for x in collisions:
        if cue not in x.balls and x.t_s <= first:
            x = Collision(x.balls, first + 1e-6, x.pos_mm, x.confidence)
        out.append(x)
    return out


def _vanished_before(act: BallActivity, t_s: float) -> bool:
    """Whether the ball's last sighting at or before ``t_s`` ended a motion in which it vanished,
    and it has not been seen again by ``t_s``."""
    s = act.samples
    k = int(np.searchsorted(s.t_s, t_s, side="right") - 1)
    if k < 0 or (k + 1 < len(s) and float(s.t_s[k + 1]) <= t_s):
        return False
    return any(m.i_last == k and m.rest_after is None for m in act.motions)


def _off_the_pockets(acts: dict[BallId, BallActivity], span: ShotSpan, zones: tuple[PocketZone, ...]) -> ShotSpan:
    """The span without the motions of balls that lie in a pocket throughout (a pocketed ball
    in the throat, jostled by the next one dropping in): they are off the table."""
    keep = []
    for m in span.motions:
        xy = acts[m.ball].samples.xy_mm
        lo = m.i_first - 1 if m.rest_before is not None else m.i_first
        if all(pocket_holding(zones, xy[i]) is not None for i in range(max(lo, 0), m.i_last + 1)):
            continue
        keep.append(m)
    if len(keep) == len(span.motions):
        return span
    return ShotSpan(tuple(keep), span.t_begin_s, span.t_end_s, span.ended)


def _dropped_into_view(act: BallActivity, m: Motion, zones: tuple[PocketZone, ...]) -> PocketEntry | None:
    """A motion that ends at rest inside a drop circle: the pocket entry (timed on the samples
    up to the first one inside), or None."""
    assert m.rest_after is not None
    s = act.samples
    if pocket_holding(zones, m.rest_after.pos_mm) is None:
        return None
    inside = [i for i in range(m.i_first, m.rest_after.i0 + 1) if pocket_holding(zones, s.xy_mm[i]) is not None]
    k = inside[0] if inside else m.rest_after.i0
    idx = np.arange(m.i_first, k + 1)
    entry = pocket_entry(zones, s.t_s[idx], s.xy_mm[idx], float(s.t_s[k + 1]) if k + 1 < len(s) else math.inf)
    if entry is None:
        z = pocket_holding(zones, m.rest_after.pos_mm)
        return PocketEntry(z.pocket, float(s.t_s[k]), 0.6)  # type: ignore[union-attr]
    return entry


_ORDER = {EventKind.SHOT_START: 0, EventKind.SHOT_END: 2}


def _ordered(events: list[Event]) -> list[Event]:
    return sorted(events, key=lambda e: (_ORDER.get(e.kind, 1), e.t_s))


# ----------------------------------------------------------------------------------------------
# streaming


class EventStream:
    """Event inference as samples arrive: each shot's events are handed back as soon as the shot
    is over and settled (every ball at rest for ``settle_s``, so that no later sample can change
    its rest runs or join it to the next stroke), numbered from ``first_shot``.

    Feed samples with :meth:`add` (any order across balls, increasing time per ball) or a
    tracker's frame with :meth:`add_states`; :meth:`poll` re-examines the buffer (at most every
    ``poll_interval_s`` of data time) and returns newly completed shots' events; :meth:`finish`
    closes the data and returns the rest. Samples of finished shots are dropped (each ball keeps
    its last rest run), so memory stays bounded by one shot. The events are those
    :func:`infer_events` finds on the whole data."""

    def __init__(self, table: TableSpec, config: InferenceConfig = InferenceConfig(), first_shot: int = 1,
                 poll_interval_s: float = 0.25) -> None:
        self.table = table
        # a stream is a video tracker's frames: no whole-data view to read a sparse source from
        self.config = replace(config, sampling=Sampling.FRAMES) if config.sampling is Sampling.AUTO else config
        self._next_shot = first_shot
        self._rows: dict[BallId, list[tuple[float, int, float, float, bool, float]]] = {}
        self._t_now = -math.inf
        self._last_poll = -math.inf
        self._poll_interval = poll_interval_s
        seg = config.segment
        self.settle_s = max(seg.rest_min_s, seg.silent_rest_s) + seg.shot_gap_s
        self._finished = False

    def add(self, ball: BallId, t_s: float, frame: int, x_mm: float, y_mm: float, observed: bool = True,
            confidence: float = 1.0) -> None:
        if self._finished:
            raise ValueError("EventStream: add after finish; expected no more samples")
        rows = self._rows.setdefault(ball, [])
        if rows and t_s <= rows[-1][0]:
            raise ValueError(f"EventStream: ball {ball.value} sample at t={t_s} does not follow t={rows[-1][0]}")
        rows.append((float(t_s), int(frame), float(x_mm), float(y_mm), bool(observed), float(confidence)))
        self._t_now = max(self._t_now, float(t_s))

    def add_states(self, states: Iterable) -> list[Event]:
        """One frame of :class:`tracking.tracker.BallState` values; returns completed events."""
        for s in states:
            self.add(s.ball, s.t_s, s.frame, s.x_mm, s.y_mm, s.observed, s.confidence)
        return self.poll()

    def poll(self, t_now_s: float | None = None) -> list[Event]:
        """Events of the shots completed by ``t_now_s`` (default: the latest sample's time)."""
        t_now = self._t_now if t_now_s is None else max(self._t_now, float(t_now_s))
        if t_now - self._last_poll < self._poll_interval:
            return []
        self._last_poll = t_now
        return self._process(t_now, final=False)

    def finish(self) -> list[Event]:
        """The data are complete: the events of every shot not yet handed back."""
        out = self._process(self._t_now, final=True)
        self._finished = True
        return out

    def _trajectories(self) -> dict[BallId, Trajectory]:
        out = {}
        for ball, rows in self._rows.items():
            if rows:
                a = np.array(rows, dtype=float)
                out[ball] = Trajectory(ball, a[:, 0], a[:, 1].astype(np.int64), a[:, 2], a[:, 3],
                                       a[:, 4].astype(bool), a[:, 5])
        return out

    def _process(self, t_now: float, final: bool) -> list[Event]:
        trajs = self._trajectories()
        if not trajs:
            return []
        cfg = self.config
        acts, clip_end = _activities(trajs, cfg)
        if not final:
            clip_end = t_now
            acts = {b: ball_activity(a.samples, clip_end, cfg.segment) for b, a in acts.items()}
        clock = _Clock(trajs.values())
        out: list[Event] = []
        done_until: float | None = None
        for span in group_shots(acts, cfg.segment):
            if not final and not self._settled(acts, span, t_now):
                break
            evs = shot_events(acts, span, self._next_shot, self.table, cfg, clock.frame_at, clip_end, final=final)
            if evs:
                out.extend(evs)
                self._next_shot += 1
            done_until = span.t_end_s
        if done_until is not None and not final:
            self._trim(acts, done_until)
        return out

    def _settled(self, acts: dict[BallId, BallActivity], span: ShotSpan, t_now: float) -> bool:
        seg = self.config.segment
        last_seen = span.t_end_s
        for m in span.motions:
            if m.rest_after is None:
                t_last = float(acts[m.ball].samples.t_s[m.i_last])
                if t_now - t_last < seg.lost_after_s:
                    return False  # still moving, or not yet given up as gone
                last_seen = max(last_seen, t_last)
        return t_now - last_seen >= self.settle_s

    def _trim(self, acts: dict[BallId, BallActivity], t_cut: float) -> None:
        """Drop samples before ``t_cut`` (the end of the last handed-back shot); a ball resting
        at the cut keeps that rest run (its last ``rest_fit_samples`` before the cut at most), so
        the buffer never starts inside a motion."""
        keep_n = self.config.contact.rest_fit_samples
        for ball, rows in self._rows.items():
            act = acts.get(ball)
            ts = np.array([r[0] for r in rows])
            k = int(np.searchsorted(ts, t_cut, side="left"))
            start = k
            if act is not None and len(act.samples):
                obs_t = act.samples.t_s
                j = int(np.searchsorted(obs_t, t_cut, side="right") - 1)  # last observed at the cut
                run = next((r for r in act.runs if r.i0 <= j <= r.i1), None)
                if run is not None:
                    t_keep = float(obs_t[max(run.i0, j - keep_n + 1)])
                    start = min(k, int(np.searchsorted(ts, t_keep, side="left")))
            if start > 0:
                del rows[:start]
