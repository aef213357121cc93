"""The two sides of a contact: a ball's path just before and just after it, and the solver that
finds when they meet.

A contact of ball X falls between two of X's samples ``k`` and ``k + 1`` (the *split*). Its
*in side* is a short fit of the samples up to ``k`` and its *out side* a fit of the samples from
``k + 1`` on, each kept within one rest run or one motion of the ball and within the neighbouring
events (``lo_t``/``hi_t``), so that a fit never straddles another kink. The contact time is the
``t`` in ``[t_k, t_{k+1}]`` that best satisfies a set of *terms*, each a residual and its variance
at ``t`` (the fitted paths meet; a centre is R from a cushion nose; two centres are 2R apart):
sub-frame times from where the fitted paths before and after meet (DESIGN.md).

Each moving side carries, besides its model-selected ``fit`` (a line unless the curve is
significant: low variance, for telling whether the path turned at all), a ``timing`` fit: a
quadratic with a prior on the acceleration (``accel_prior_mm_s2``), because a ball always
decelerates and a line extrapolated to the contact runs ahead of it (contacts early by several
milliseconds at 30 fps). Terms and positions at the contact use ``Side.path`` (the timing fit
where made); velocity changes and their significance use ``fit``.

Splits are compared by a robust cost over a fixed window of samples: each sample's squared
residual to its side's fit, in noise units, capped at ``cap`` (an outlier or a sample on the
wrong side costs the same), plus the terms at the solved time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from tracking.pathfit import PathFit, fit_path
from tracking.segment import BallActivity

Term = Callable[[float], tuple[float, float]]


@dataclass(frozen=True)
class ContactConfig:
    """Parameters of contact finding (millimetres, seconds).

    ``noise_mm``: prior on the measurement noise of a centre. ``fit_samples`` / ``fit_window_s``:
    at most this many samples, within this time of the contact, per side (two samples are taken
    up to ``max_fit_span_s`` when sampling is sparse). ``cushion_sigma_mm``: how well the nose
    line (centre at R) is known (calibration, cushion compression). ``cushion_reach_mm`` /
    ``cushion_penetration_mm``: how far from / inside R the fitted vertex may lie.
    ``diameter_sigma_mm`` / ``ball_gap_tol_mm``: the same for two centres 2R apart.
    ``min_normal_speed_mm_s``: slowest approach to (or departure from) a cushion that counts.
    ``min_impulse_mm_s``: smallest velocity change along the line of centres that is a contact.
    ``significance``: how many standard deviations a velocity change must clear.
    ``accel_sd_mm_s2``: acceleration a short fit cannot see (rolling deceleration, swerve), which
    makes a fit extrapolated across a gap in the data less certain the longer the gap.
    ``accel_prior_mm_s2``: the spread of a ball's acceleration, as a prior on the quadratic term
    of each moving side's *timing* fit (0: no timing fit). A ball decelerates all the time
    (rolling resistance ~0.1 m/s^2, up to mu_s * g ~ 2 m/s^2 while it slides after a contact);
    a straight line through the samples before a contact, extrapolated to it, runs ahead of the
    decelerating ball and places the contact early by a good part of a frame at 30 fps (the
    bias grows with the square of the fit's time span). The timing fit removes that bias; the
    model-selected ``fit`` (lower variance) still decides whether the path turned at all.
    ``accel_max_mm_s2``: a timing fit that needs more acceleration than this (well above what
    cloth friction can give) has a kink or clamped centres in it and is not used; nor is one
    whose contact lies further from its samples than they span (a gap in the data: there the
    line and its ``accel_sd_mm_s2`` say as much, with less variance)."""

    noise_mm: float = 1.0
    fit_samples: int = 6
    fit_window_s: float = 0.2
    max_fit_span_s: float = 1.0
    rest_fit_samples: int = 30
    cushion_sigma_mm: float = 3.0
    cushion_reach_mm: float = 10.0
    cushion_penetration_mm: float = 15.0
    cushion_detect_mm: float = 12.0
    cushion_restitution_min: float = 0.5
    diameter_sigma_mm: float = 2.0
    ball_gap_tol_mm: float = 12.0
    ball_detect_mm: float = 15.0
    min_normal_speed_mm_s: float = 30.0
    min_impulse_mm_s: float = 30.0
    significance: float = 3.0
    side_significance: float = 1.5
    kink_rms: float = 2.5
    nudge_min_mm: float = 1.0
    nudge_sigmas: float = 6.0
    nudge_window_s: float = 0.5
    cap: float = 16.0
    accel_sd_mm_s2: float = 200.0
    accel_prior_mm_s2: float = 2000.0
    accel_max_mm_s2: float = 5000.0
    dying_touch_mm: float = 2.0
    dying_smooth_s: float = 0.04
    graze_mm: float = 2.5
    graze_window_s: float = 0.8
    graze_test: float = 12.0
    graze_side_samples: int = 3


@dataclass(frozen=True)
class Side:
    """One side of a contact for one ball: ``fit`` over ``idx`` (None when the side has too few
    samples to say where the ball was going), ``at_rest`` when those samples are a rest run."""

    fit: PathFit | None
    at_rest: bool
    idx: np.ndarray
    edge_t_s: float | None
    timing: PathFit | None = None

    @property
    def path(self) -> PathFit | None:
        """The fit that times a contact: ``timing`` where made, else ``fit``."""
        return self.timing if self.timing is not None else self.fit

    @property
    def usable(self) -> bool:
        return self.fit is not None

    @property
    def n(self) -> int:
        return int(len(self.idx))


EMPTY_SIDE = Side(None, False, np.zeros(0, dtype=int), None)


def segment_of(act: BallActivity, i: int) -> tuple[str, int, int]:
    """('rest' | 'motion', first, last) sample indices of the run or motion holding sample ``i``."""
    for r in act.runs:
        if r.i0 <= i <= r.i1:
            return "rest", r.i0, r.i1
    for m in act.motions:
        if m.i_first <= i <= m.i_last:
            return "motion", m.i_first, m.i_last
    return "motion", i, i  # not reached for a valid index


def make_side(
    act: BallActivity,
    edge: int,
    direction: int,
    lo_t: float,
    hi_t: float,
    cfg: ContactConfig,
    project: Callable[[np.ndarray], np.ndarray] | None = None,
    allow_rest: bool = True,
    t_ref_s: float | None = None,
) -> Side:
    """The side whose sample nearest the contact is ``edge``, extending away from the contact
    (``direction`` -1: earlier samples, the in side; +1: later, the out side), kept inside the
    rest run or motion of ``edge`` and strictly inside ``(lo_t, hi_t)``. A moving side whose
    edge is more than ``max_fit_span_s`` from ``t_ref_s`` (the contact) says nothing about it."""
    s = act.samples
    n = len(s)
    if edge < 0 or edge >= n or not (lo_t < s.t_s[edge] < hi_t):
        return EMPTY_SIDE
    kind, first, last = segment_of(act, edge)
    adjacent = t_ref_s is None or abs(float(s.t_s[edge]) - t_ref_s) <= cfg.fit_window_s
    if kind == "rest" and adjacent:
        # the sample where a rest run meets a motion is ambiguous (a ball that stops dead at a
        # contact, or starts slowly after one): on the motion's side of the contact it is read
        # as the motion's end (or start)
        if direction < 0 and edge == first and edge > 0 and segment_of(act, edge - 1)[0] == "motion":
            _, first, _ = segment_of(act, edge - 1)
            kind, last = "motion", edge
        elif direction > 0 and edge == last and edge + 1 < n and segment_of(act, edge + 1)[0] == "motion":
            _, _, last = segment_of(act, edge + 1)
            kind, first = "motion", edge
    elif kind == "motion" and adjacent and direction < 0 and edge == first and edge > 0 \
            and segment_of(act, edge - 1)[0] == "rest":
        # the first moving sample alone says nothing about a path; before a contact after it,
        # it is the ball still at rest, its noise read as a start (a ball struck from rest)
        _, first, _ = segment_of(act, edge - 1)
        kind = "rest"
    limit = first if direction < 0 else last
    at_rest = kind == "rest"
    if not at_rest and t_ref_s is not None and abs(float(s.t_s[edge]) - t_ref_s) > cfg.max_fit_span_s:
        return Side(None, False, np.array([edge]), float(s.t_s[edge]))
    if at_rest and not allow_rest:
        return Side(None, True, np.array([edge]), float(s.t_s[edge]))
    cap_n = cfg.rest_fit_samples if at_rest else cfg.fit_samples
    idx = [edge]
    i = edge
    while len(idx) < cap_n:
        j = i + direction
        if (direction < 0 and j < limit) or (direction > 0 and j > limit):
            break
        if not (lo_t < s.t_s[j] < hi_t):
            break
        span = abs(float(s.t_s[j] - s.t_s[edge]))
        if not at_rest and len(idx) >= 2 and span > cfg.fit_window_s:
            break
        if not at_rest and span > cfg.max_fit_span_s:
            break
        idx.append(j)
        i = j
    arr = np.array(sorted(idx), dtype=int)
    if not at_rest and len(arr) < 2:
        return Side(None, False, arr, float(s.t_s[edge]))
    while True:
        y = s.xy_mm[arr] if project is None else project(s.xy_mm[arr])
        fit = fit_path(
            s.t_s[arr],
            y,
            noise_mm=cfg.noise_mm,
            t0_s=float(s.t_s[edge]),
            weights=s.weight[arr],
            stationary=at_rest,
            accel_sd_mm_s2=cfg.accel_sd_mm_s2,
        )
        # an unknown kink (a contact not yet found) inside the window shows as residuals far
        # above the noise: shorten the side from its far end until the path is smooth
        if at_rest or len(arr) <= 3 or fit.rms_mm <= cfg.kink_rms * cfg.noise_mm:
            break
        arr = arr[1:] if direction < 0 else arr[:-1]
    timing = None
    span = float(s.t_s[arr[-1]] - s.t_s[arr[0]])
    near = t_ref_s is None or abs(float(s.t_s[edge]) - t_ref_s) <= span
    if not at_rest and cfg.accel_prior_mm_s2 > 0.0 and len(arr) >= 3 and near:
        timing = fit_path(
            s.t_s[arr],
            y,
            noise_mm=cfg.noise_mm,
            t0_s=float(s.t_s[edge]),
            weights=s.weight[arr],
            accel_sd_mm_s2=cfg.accel_sd_mm_s2,
            accel_prior_mm_s2=cfg.accel_prior_mm_s2,
        )
        if timing.deg < 2 or 2.0 * float(np.linalg.norm(timing.coef[2])) > cfg.accel_max_mm_s2:
            timing = None  # more than friction can do: a kink or clamped centres, not a curve
    return Side(fit, at_rest, arr, float(s.t_s[edge]), timing)


def robust_cost(act: BallActivity, window: np.ndarray, sides: Sequence[Side], cfg: ContactConfig,
                project: Callable[[np.ndarray], np.ndarray] | None = None) -> float:
    """Sum over ``window`` samples of min(cap, squared residual / noise^2) to the side holding
    them; a sample in no usable side costs ``cap``."""
    s = act.samples
    cost = 0.0
    win = set(int(i) for i in window)
    covered: set[int] = set()
    for side in sides:
        if side.fit is None:
            continue
        for i in side.idx:
            i = int(i)
            if i not in win or i in covered:
                continue
            y = s.xy_mm[i] if project is None else project(s.xy_mm[i : i + 1])[0]
            r = np.asarray(y, dtype=float) - side.fit.pos(float(s.t_s[i]))
            cost += min(cfg.cap, float(np.sum(r * r)) / cfg.noise_mm**2)
            covered.add(i)
    cost += cfg.cap * len(win - covered)
    return cost


def objective(terms: Sequence[Term], t: float) -> float:
    total = 0.0
    for term in terms:
        r, v = term(t)
        total += r * r / max(v, 1e-9)
    return total


def solve_time(terms: Sequence[Term], lo_s: float, hi_s: float, grid: int = 33) -> tuple[float, float]:
    """The ``t`` in ``[lo_s, hi_s]`` minimising the sum of squared residuals over variances of
    ``terms``, and that minimum (grid search, then a bounded scalar refinement)."""
    if not terms:
        return 0.5 * (lo_s + hi_s), 0.0
    if hi_s <= lo_s:
        return lo_s, objective(terms, lo_s)
    ts = np.linspace(lo_s, hi_s, grid)
    vals = np.array([objective(terms, float(t)) for t in ts])
    k = int(np.argmin(vals))
    a = float(ts[max(k - 1, 0)])
    b = float(ts[min(k + 1, grid - 1)])
    best_t, best_v = float(ts[k]), float(vals[k])
    # golden-section search on [a, b] (the objective is smooth and unimodal there)
    g = (math.sqrt(5.0) - 1.0) / 2.0
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = objective(terms, c), objective(terms, d)
    for _ in range(40):
        if b - a < 1e-6:
            break
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = objective(terms, c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = objective(terms, d)
    t_mid = 0.5 * (a + b)
    v_mid = objective(terms, t_mid)
    if v_mid < best_v:
        best_t, best_v = t_mid, v_mid
    return best_t, best_v


def meet_term(a: PathFit, b: PathFit) -> Term:
    """Two fits of the same ball (before / after a contact) pass through one point at ``t``."""

    def term(t: float) -> tuple[float, float]:
        d = a.pos(t) - b.pos(t)
        return float(np.linalg.norm(d)), (a.pos_var(t) + b.pos_var(t))

    return term


def value_term(fit: PathFit, target: float, sigma: float) -> Term:
    """A 1-D fit takes the value ``target`` (known to ``sigma``) at ``t``."""

    def term(t: float) -> tuple[float, float]:
        return float(fit.pos(t)[0] - target), fit.pos_var(t) + sigma**2

    return term


def distance_term(a: PathFit, b: PathFit, dist: float, sigma: float) -> Term:
    """Two balls' fits are ``dist`` apart at ``t``."""

    def term(t: float) -> tuple[float, float]:
        return float(np.linalg.norm(a.pos(t) - b.pos(t)) - dist), a.pos_var(t) + b.pos_var(t) + sigma**2

    return term


def velocity_change(before: Side, after: Side, t: float) -> tuple[np.ndarray, float] | None:
    """(after - before velocity at ``t``, its per-component variance), or None when a side is
    unusable. A side at rest has zero velocity, known exactly."""
    if before.fit is None or after.fit is None:
        return None
    vb = np.zeros_like(after.fit.vel(t)) if before.at_rest else before.fit.vel(t)
    va = np.zeros_like(before.fit.vel(t)) if after.at_rest else after.fit.vel(t)
    var = (0.0 if before.at_rest else before.fit.vel_var(t)) + (0.0 if after.at_rest else after.fit.vel_var(t))
    return va - vb, var


def score(x: float, good: float, bad: float) -> float:
    """1 at or below ``good``, 0 at or beyond ``bad``, linear between (a confidence factor)."""
    if bad == good:
        return 1.0 if x <= good else 0.0
    return float(min(1.0, max(0.0, (bad - x) / (bad - good))))
