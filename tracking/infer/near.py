"""Step 7b of a shot (:mod:`tracking.infer.shot`): where the cue ball came within a hair of another ball and no contact was found.

Contract: :func:`near_misses` returns, for one shot, each close pass of the cue ball and another
ball (either of them moving) whose closest gap between the balls' surfaces, on their sampled
paths, is at most ``InferenceConfig.near_miss_mm``, and during which (give or take
``InferenceConfig.dedupe_s`` plus a sample gap) no contact of the pair was found: one
:class:`NearPass` per pass, at its closest. A pass is a run of time with the gap that small, so
two balls that stay close after a contact found are that contact's pass (synthetic kiss at 60
fps: the struck ball's track overlapping the cue ball's 80 ms after their contact).

Why: a contact is found from how it turns the balls' paths; a contact thin enough to turn them
by less than the samples' noise leaves no trace, and the call that then rests on "no contact"
(a three-cushion miss, a pool foul for no ball hit) would be confidently wrong. The 60 real
three-cushion shots' tracks with 1 mm of Gaussian noise added (two seeded runs) lost the cue
ball's thin contact with the second ball on one shot in each run, a point then called a miss
with no review (with 2 mm: 2 and 3 such calls); the passes found here let the rules ask what the
call would be had they touched (:func:`rules.core.evidence.review_shot`), which flags those
calls for review (measured 2026-12-06; ``bench/real_tracks_variants.py`` keeps such runs). A pass
of two balls resting touching as the shot starts, at the stroke itself, is no near miss: the
start event says they touch (``balls_in_contact``) and the rules read the separation from it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

import numpy as np

from tracking.collisions import Collision, moving_at, positions_at, true_runs
from tracking.ids import BallId
from tracking.infer.config import InferenceConfig
from tracking.segment import BallActivity, ShotSpan

#: s. The grid the two paths are compared on (their samples interpolated linearly between): 2 ms
#: is 14 mm at 7 m/s, the fastest cue ball; a grid point then lies within 7 mm of the closest
#: point of a straight pass, where the gap is at most 7^2 / (2 x 61.5) = 0.4 mm wider.
GRID_S = 0.002
#: the most grid points of one shot (a shot that never settles, minutes of a ball creeping in a
#: club clip, is compared on a coarser grid rather than on millions of points): 400 s at GRID_S
MAX_GRID_POINTS = 200_000
#: how many median sample spacings make a gap in a ball's samples a rest of a sparse recorder
LONG_GAP = 3.0


@dataclass(frozen=True)
class NearPass:
    """The cue ball ``balls[0]`` and ``balls[1]`` at their closest, ``t_s``: ``gap_mm`` between
    their surfaces (0 or below where the sampled paths overlap), ``pos_mm`` midway between them."""

    balls: tuple[BallId, BallId]
    t_s: float
    gap_mm: float
    pos_mm: tuple[float, float]


def near_misses(
    acts: Mapping[BallId, BallActivity],
    span: ShotSpan,
    t_start: float,
    cue: BallId,
    collisions: Iterable[Collision],
    touching: Iterable[tuple[BallId, BallId]],
    left_s: Mapping[BallId, float],
    diameter_mm: float,
    cfg: InferenceConfig,
) -> list[NearPass]:
    """The near passes of the cue ball in the shot ``span`` after the stroke at ``t_start`` (see
    the module docstring); ``collisions``: the shot's contacts found, ``touching``: the pairs that
    rested touching before the stroke, ``left_s``: when a ball left the table (pocketed or off
    it): no pass with it after that (its last sample is where it left, not where it is)."""
    if cue not in acts or cfg.near_miss_mm <= 0:
        return []
    t1 = span.t_end_s
    if not t1 > t_start:
        return []
    step = max(GRID_S, (t1 - t_start) / MAX_GRID_POINTS)
    ts = np.arange(t_start, t1 + step / 2, step)
    found = list(collisions)
    frozen = {frozenset(p) for p in touching}
    pc = _paths(acts[cue], ts, despike=False)
    pc_smooth = _paths(acts[cue], ts, despike=True)
    cue_moving = moving_at(ts, acts[cue])
    out: list[NearPass] = []
    for other in sorted(acts, key=lambda b: b.value):
        if other is cue or len(acts[other].samples) == 0:
            continue
        po = _paths(acts[other], ts, despike=False)
        po_smooth = _paths(acts[other], ts, despike=True)
        live = (cue_moving | moving_at(ts, acts[other])) & (ts < left_s.get(other, math.inf))
        if cue in left_s:
            live &= ts < left_s[cue]
        # the closest of the readings of each ball's path (see _paths), as sampled and without
        # single-sample spikes: a pass must show in both (a spike alone is no pass; the smoothed
        # path alone cuts the corner of a sharp turn), its gap is the one sampled
        gap = _gap(pc, po, diameter_mm)
        close = live & (gap <= cfg.near_miss_mm) & (_gap(pc_smooth, po_smooth, diameter_mm) <= cfg.near_miss_mm)
        slack = cfg.dedupe_s + _sample_gap_s(acts[cue], acts[other])
        for i, j in true_runs(close):
            k = i + int(np.argmin(gap[i : j + 1]))
            t = float(ts[k])
            lo, hi = float(ts[i]) - slack, float(ts[j]) + slack
            if any(set(x.balls) == {cue, other} and lo <= x.t_s <= hi for x in found):
                continue  # the pass of a contact found (the two stay close a while after it)
            if frozenset((cue, other)) in frozen and t - t_start <= slack:
                continue  # the separation of two balls that touched at the start
            mid = (pc[0][k] + po[0][k]) / 2.0
            out.append(NearPass((cue, other), t, float(gap[k]), (float(mid[0]), float(mid[1]))))
    return sorted(out, key=lambda p: p.t_s)


def near_miss_confidence(gap_mm: float, cfg: InferenceConfig) -> float:
    """How sure the tracker is that a pass ``gap_mm`` wide was no contact: 0 at a gap of 0 or
    less, 1 at ``InferenceConfig.near_miss_mm``."""
    if cfg.near_miss_mm <= 0:
        return 1.0
    return float(min(1.0, max(0.0, gap_mm / cfg.near_miss_mm)))


def _gap(a: tuple[np.ndarray, ...], b: tuple[np.ndarray, ...], diameter_mm: float) -> np.ndarray:
    """The smallest gap between the balls' surfaces over the readings of their paths."""
    return np.min([np.linalg.norm(p - q, axis=1) for p in a for q in b], axis=0) - diameter_mm


def _paths(act: BallActivity, ts: np.ndarray, despike: bool) -> tuple[np.ndarray, ...]:
    """The ball's centre at each time, read two ways where its samples leave a long gap (over
    :data:`LONG_GAP` median spacings: a sparse recorder reports a resting ball once and then not
    until it moves): the straight way between the samples, and held at the sample before the gap
    (it rested there until something struck it: real three-cushion tracks, the second ball
    reported at the start and next 40 ms after the cue ball's thin contact with it). Elsewhere
    both are the straight way (:func:`tracking.collisions.positions_at`), through the samples as
    they are or, with ``despike``, each replaced by the median of it and its neighbours
    (:func:`_despiked`)."""
    s = act.samples
    linear = _despiked(act, ts) if despike else positions_at(act, ts)[0]
    if len(s) < 2:
        return (linear,)
    dt = np.diff(s.t_s)
    k = np.clip(np.searchsorted(s.t_s, ts, side="right") - 1, 0, len(s) - 2)
    long_gap = dt[k] > LONG_GAP * float(np.median(dt))
    if not long_gap.any():
        return (linear,)
    held = linear.copy()
    held[long_gap] = s.xy_mm[k[long_gap]]
    return linear, held


def _despiked(act: BallActivity, ts: np.ndarray) -> np.ndarray:
    """:func:`tracking.collisions.positions_at` over the samples with each one replaced by the
    median of it and its two neighbours (x and y apart): a single sample off its path (two touching
    balls' detections swapped for a frame: synthetic kiss at 60 fps, both centres 8-12 mm off their
    lines on one frame) is no pass, while a path's turn, where a contact bends it, stays."""
    s = act.samples
    if len(s) < 3:
        return positions_at(act, ts)[0]
    xy = s.xy_mm.copy()
    xy[1:-1] = np.median(np.stack([s.xy_mm[:-2], s.xy_mm[1:-1], s.xy_mm[2:]]), axis=0)
    smooth = replace(act, samples=replace(s, xy_mm=xy), fits={})
    return positions_at(smooth, ts)[0]


def _sample_gap_s(*acts: BallActivity) -> float:
    """The longest median spacing of the balls' samples (0 for a ball with one sample)."""
    gaps = [float(np.median(np.diff(a.samples.t_s))) for a in acts if len(a.samples) > 1]
    return max(gaps, default=0.0) if all(math.isfinite(g) for g in gaps) else 0.0
