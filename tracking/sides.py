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
residual to its side's fit, in noise units, capped at ``residual_cap_chi2`` (an outlier or a sample on the
wrong side costs the same), plus the terms at the solved time.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from tracking.pathfit import PathFit, fit_path
from tracking.segment import BallActivity

Term = Callable[[float], tuple[float, float]]


@dataclass(frozen=True)
class ContactConfig:
    """Parameters of contact finding. Units are in each name (``_mm``, ``_s``, ``_mm_s``,
    ``_mm_s2``; ``_samples``: a count of samples; ``_sd``: standard deviations of the quantity
    tested; ``_noise``: multiples of ``noise_mm``; ``_chi2``: squared residuals over
    ``noise_mm``^2); a name without one is a plain ratio. Each field says what it is, where it is
    used, and why it has its value; "first version" means the value has not changed since
    tracking was written (320e9d4), and the tests and benchmarks (the synthetic shots, the
    pooltool shots in sample_data/shots, the real three-cushion tracks) run with it; where the
    history records no measurement the "why" is the reasoning the value rests on.

    The timing fit: a ball decelerates all the time (rolling resistance ~0.1 m/s^2, up to
    mu_s * g ~ 2 m/s^2 while it slides after a contact); a straight line through the samples
    before a contact, extrapolated to it, runs ahead of the decelerating ball and places the
    contact early by a good part of a frame at 30 fps (the bias grows with the square of the
    fit's time span). The timing fit (``accel_prior_mm_s2``) removes that bias; the
    model-selected fit (lower variance) still decides whether the path turned at all."""

    # -- the samples a side is fitted to ----------------------------------------------------
    #: mm, 1 sd. Prior on the measurement noise of one centre: the scale of every residual test
    #: and fit variance. First version: a prior of about a pixel's worth of an overhead 1080p
    #: view (~1.5 mm a pixel) with centres fitted below a pixel; not measured since.
    noise_mm: float = 1.0
    #: samples. At most this many samples per moving side: enough to fit a line and a curve
    #: (3 unknowns) with slack against an outlier, few enough (0.2 s at 30 fps) that the ball's
    #: deceleration and swerve stay small inside the window. First version.
    fit_samples: int = 6
    #: s. A moving side stops growing past this time from its edge once it has 2 samples (at
    #: 30 fps the same span as ``fit_samples``; at lower rates it keeps the side short, so the
    #: ball's deceleration and turn inside it stay small), and a resting side whose edge is
    #: farther than this from the contact is not the ball at rest at the contact. Also the
    #: window of a graze's anchor, of its V-fit search (half of it), and a nudge's guard around
    #: the striker's pass (a quarter). First version.
    fit_window_s: float = 0.2
    #: s. The longest a moving side may span, and the farthest its edge may lie from the contact
    #: (a sparse recorder reports every ~1 cm, so two samples may be far apart: beyond 1 s a ball
    #: has slowed and turned too much for a fit to say where it was); also how long after a
    #: motion a dying cushion contact is looked for, and how close a found one must be to it.
    #: First version.
    max_fit_span_s: float = 1.0
    #: samples. At most this many samples of a rest run make a resting side or a rest position
    #: (a median): 1 s at 30 fps, many enough to average the noise down to a fraction of a mm,
    #: bounded so that a position is the same whether its run is seen whole (a file) or in part
    #: (a stream: :class:`tracking.infer.EventStream` keeps this many when it trims). First
    #: version.
    rest_fit_samples: int = 30
    #: noise (multiples of ``noise_mm``). A moving side whose fit leaves an rms residual above
    #: this many noise sds has a kink in it (a contact not yet found) and is shortened from its
    #: far end; 2.5: noise alone over 4-6 samples stays below it. From 1d3e33d (kink-aware fit
    #: windows, with the grazing and dying contacts).
    kink_rms_noise: float = 2.5
    #: chi2 (squared residual over ``noise_mm``^2). A split's robust cost counts each sample's
    #: squared residual up to this (4 sd), and this for a sample in no usable side: an outlier or
    #: a sample on the wrong side costs the same and cannot outweigh the rest. First version.
    residual_cap_chi2: float = 16.0
    #: mm/s^2. Acceleration a short fit cannot see (rolling deceleration, swerve): a fit
    #: extrapolated across a gap in the data is less certain the longer the gap (its variance
    #: grows by (accel_sd * gap)^2). 200 mm/s^2: twice the rolling deceleration. First version.
    accel_sd_mm_s2: float = 200.0
    #: mm/s^2. The spread of a ball's acceleration, a prior on the quadratic term of each moving
    #: side's timing fit (0: no timing fit): up to mu_s * g ~ 2 m/s^2 while a ball slides. From
    #: 859ec38: a line through a decelerating ball put contacts early, -3 ms median at 30 fps.
    accel_prior_mm_s2: float = 2000.0
    #: mm/s^2. A timing fit that needs more acceleration than this (well above what cloth
    #: friction can give) has a kink or clamped centres in it and is not used; nor is one whose
    #: contact lies further from its samples than they span. From 859ec38, with the timing fits.
    accel_max_mm_s2: float = 5000.0

    # -- cushion contacts -------------------------------------------------------------------
    #: mm, 1 sd. How well the nose line (centre at R from it) is known: calibration error and
    #: cushion compression under a fast ball; the variance of a "centre at R" term. First
    #: version.
    cushion_sigma_mm: float = 3.0
    #: mm. How far outside R from the nose line a contact's fitted vertex (where in and out
    #: paths meet) may lie: 3 sigmas of ``cushion_sigma_mm`` and then some; also a candidate's
    #: reach for a ball struck from rest next to a cushion. First version.
    cushion_reach_mm: float = 10.0
    #: mm. How far inside R the fitted vertex may lie: a cushion compresses under a fast ball by
    #: several mm, and a blurred fast ball's centre is measured worst along its path; a sample
    #: farther inside than this is no ball on the cloth. First version.
    cushion_penetration_mm: float = 15.0
    #: mm. A split of two samples is a cushion candidate when both centres, less R, lie within
    #: the way the ball goes in one sample gap plus this: the margin for noise and calibration
    #: (about 4 ``cushion_sigma_mm``) so that a contact is never missed as a candidate. First
    #: version.
    cushion_detect_mm: float = 12.0
    #: ratio. The least a cushion gives back of a ball's normal speed: a ball struck from rest
    #: meets a cushion within one sample gap only if it could have got there, at most its speed
    #: out over this. From 3cb9c89 ("the cushion gives back at least half the normal speed").
    cushion_restitution_min: float = 0.5
    #: mm/s. The slowest approach to (or departure from) a cushion that counts as a contact,
    #: below which a turn is the noise or a swerve along the cushion (graze contacts look for
    #: those). First version.
    min_normal_speed_mm_s: float = 30.0

    # -- ball-ball contacts -----------------------------------------------------------------
    #: mm, 1 sd. How well two centres 2R apart at a contact are known: the balls' diameters
    #: (61.5 mm carom, 57.2 mm pool, within a fraction of a mm) and each centre's noise. First
    #: version.
    diameter_sigma_mm: float = 2.0
    #: mm. The farthest the centres at a found contact may be from 2R apart (6 sigmas of
    #: ``diameter_sigma_mm``): beyond it the paths met elsewhere, not at this approach. First
    #: version.
    ball_gap_tol_mm: float = 12.0
    #: mm. Two balls are a close approach (a possible contact) when their centres come within
    #: 2R plus this (plus half their sample chords); also how far from a struck ball's rest its
    #: striker may be for a contact no path shows. Wider than ``ball_gap_tol_mm`` so that no
    #: contact is missed as a candidate. First version.
    ball_detect_mm: float = 15.0
    #: mm/s. The smallest velocity change along the line of centres that is a contact (a kiss
    #: that barely changes a ball's speed is not seen above this). First version.
    min_impulse_mm_s: float = 30.0
    #: mm. The smallest shift of a resting ball that is a nudge (a thin touch that no moving
    #: path shows): above the noise of the mean of its rest samples either side. From a86d759.
    nudge_min_mm: float = 1.0
    #: sd. A nudge's shift must also clear this many standard errors of the two means (6: many
    #: close approaches are tested, and a false contact changes a call). From a86d759.
    nudge_sd: float = 6.0
    #: s. A nudge is measured on the rest samples within this of the striker's closest pass,
    #: and is no new contact where the pair has one found within this. From a86d759.
    nudge_window_s: float = 0.5

    # -- significance -----------------------------------------------------------------------
    #: sd. How many standard deviations a velocity change (a cushion's turn, a ball-ball
    #: impulse, a graze's fall and rise) must clear to be a contact: 3, so that noise over many
    #: candidate splits rarely makes one. First version.
    significance_sd: float = 3.0
    #: sd. The weaker test of each side's own normal speed towards or away from a cushion (the
    #: turn as a whole is tested at ``significance_sd``): one side of a contact is often short.
    #: From 1d3e33d.
    side_significance_sd: float = 1.5

    # -- contacts that show in no turn ------------------------------------------------------
    #: mm. A ball that dies on a cushion (rolls to rest against it, too slowly for a rebound to
    #: show) touched it when its smoothed centre comes within this of R, and approached by
    #: twice this. First version.
    dying_touch_mm: float = 2.0
    #: s. Centres are averaged over this either side (a few frames) against the noise, for dying
    #: and grazing contacts. First version.
    dying_smooth_s: float = 0.04
    #: mm. Where a ball's smoothed centre comes within this of R from a nose line it may graze
    #: the cushion (a shallow angle, its normal speed a few cm/s); the V fit's vertex must lie
    #: within it too. From 1d3e33d.
    graze_mm: float = 2.5
    #: s. A graze is fitted over up to this either side of the closest approach (bounded by the
    #: ball's other contacts). From 1d3e33d.
    graze_window_s: float = 0.8
    #: chi2 (noise variances). A graze is a contact when a V (two lines meeting at the cushion)
    #: fits its normal coordinate better than a parabola (a smooth swerve) by this much. From
    #: 1d3e33d.
    graze_test_chi2: float = 12.0
    #: samples. A graze needs at least this many samples on each side of its vertex. From
    #: 652cf43 (the window's end anchored at the ball's position from its path beyond).
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


def usable_path(side: Side) -> PathFit:
    """``side.path`` of a usable side: its ``fit`` is set, so its ``path`` (``timing`` or ``fit``)
    is too."""
    path = side.path
    assert path is not None, "usable_path: the side has no fit (check Side.usable first)"
    return path


def segment_of(act: BallActivity, i: int) -> tuple[str, int, int]:
    """('rest' | 'motion', first, last) sample indices of the run or motion holding sample ``i``."""
    for r in act.runs:
        if r.i0 <= i <= r.i1:
            return "rest", r.i0, r.i1
    for m in act.motions:
        if m.i_first <= i <= m.i_last:
            return "motion", m.i_first, m.i_last
    return "motion", i, i  # not reached for a valid index


def _side_fit(
    act: BallActivity,
    arr: np.ndarray,
    edge: int,
    cfg: ContactConfig,
    project: Callable[[np.ndarray], np.ndarray] | None,
    **extra: Any,
) -> PathFit:
    """:func:`tracking.pathfit.fit_path` over the ball's samples ``arr`` from the time of sample
    ``edge`` (``extra``: its further keywords), remembered in ``act.fits`` when the fit is of the
    ball's own positions (a fit through a caller's ``project`` is not remembered)."""
    key = (cfg, edge, arr.tobytes(), tuple(sorted(extra.items())))
    if project is None and (hit := act.fits.get(key)) is not None:
        return cast(PathFit, hit)
    s = act.samples
    fit = fit_path(
        s.t_s[arr],
        s.xy_mm[arr] if project is None else project(s.xy_mm[arr]),
        noise_mm=cfg.noise_mm,
        t0_s=float(s.t_s[edge]),
        weights=s.weight[arr],
        accel_sd_mm_s2=cfg.accel_sd_mm_s2,
        **extra,
    )
    if project is None:
        act.fits[key] = fit
    return fit


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
    elif (
        kind == "motion"
        and adjacent
        and direction < 0
        and edge == first
        and edge > 0
        and segment_of(act, edge - 1)[0] == "rest"
    ):
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
        fit = _side_fit(act, arr, edge, cfg, project, stationary=at_rest)
        # an unknown kink (a contact not yet found) inside the window shows as residuals far
        # above the noise: shorten the side from its far end until the path is smooth
        if at_rest or len(arr) <= 3 or fit.rms_mm <= cfg.kink_rms_noise * cfg.noise_mm:
            break
        arr = arr[1:] if direction < 0 else arr[:-1]
    timing = None
    span = float(s.t_s[arr[-1]] - s.t_s[arr[0]])
    near = t_ref_s is None or abs(float(s.t_s[edge]) - t_ref_s) <= span
    if not at_rest and cfg.accel_prior_mm_s2 > 0.0 and len(arr) >= 3 and near:
        timing = _side_fit(act, arr, edge, cfg, project, accel_prior_mm_s2=cfg.accel_prior_mm_s2)
        if timing.deg < 2 or 2.0 * float(np.linalg.norm(timing.coef[2])) > cfg.accel_max_mm_s2:
            timing = None  # more than friction can do: a kink or clamped centres, not a curve
    return Side(fit, at_rest, arr, float(s.t_s[edge]), timing)


def robust_cost(
    act: BallActivity,
    window: np.ndarray,
    sides: Sequence[Side],
    cfg: ContactConfig,
    project: Callable[[np.ndarray], np.ndarray] | None = None,
) -> float:
    """Sum over ``window`` samples of min(``residual_cap_chi2``, squared residual / noise^2) to the side holding
    them; a sample in no usable side costs ``residual_cap_chi2``."""
    s = act.samples
    cost = 0.0
    win = {int(i) for i in window}
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
            cost += min(cfg.residual_cap_chi2, float(np.sum(r * r)) / cfg.noise_mm**2)
            covered.add(i)
    cost += cfg.residual_cap_chi2 * len(win - covered)
    return cost


def objective(terms: Sequence[Term], t: float) -> float:
    total = 0.0
    for term in terms:
        r, v = term(t)
        total += r * r / max(v, 1e-9)
    return total


#: a term's values at many times at once: (residuals, variances), each (n,)
TermGrid = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]


def _objective_grid(terms: Sequence[Term], ts: np.ndarray) -> np.ndarray:
    """:func:`objective` at every time of ``ts``: terms that carry a ``grid`` form (the path
    terms below) in one array operation each, the others one time at a time."""
    total = np.zeros(len(ts))
    for term in terms:
        grid_form: TermGrid | None = getattr(term, "grid", None)
        if grid_form is None:
            total += np.array([objective([term], float(t)) for t in ts])
            continue
        r, v = grid_form(ts)
        total += r * r / np.maximum(v, 1e-9)
    return total


def with_grid(term: Term, grid_form: TermGrid) -> Term:
    """``term`` carrying its many-times form (:func:`solve_time` evaluates a grid at once)."""
    term.grid = grid_form  # type: ignore[attr-defined]
    return term


def solve_time(
    terms: Sequence[Term], lo_s: float, hi_s: float, grid: int = 33, zoom: int = 17, tol_s: float = 1e-6
) -> tuple[float, float]:
    """The ``t`` in ``[lo_s, hi_s]`` minimising the sum of squared residuals over variances of
    ``terms``, and that minimum: a grid search of ``grid`` times, then grids of ``zoom`` times
    on the two intervals around the best until they are narrower than ``tol_s`` (each round an
    eighth of the last). Why grids and not a scalar search: the terms are evaluated for all
    times of a grid in one array operation each; a golden-section search needed some 40
    one-time evaluations, most of a contact's cost (profile: half of live's provisional call)."""
    if not terms:
        return 0.5 * (lo_s + hi_s), 0.0
    if hi_s <= lo_s:
        return lo_s, objective(terms, lo_s)
    n = grid
    a, b = float(lo_s), float(hi_s)
    best_t, best_v = a, math.inf
    while True:
        ts = np.linspace(a, b, n)
        vals = _objective_grid(terms, ts)
        k = int(np.argmin(vals))
        if float(vals[k]) < best_v:
            best_t, best_v = float(ts[k]), float(vals[k])
        a, b = float(ts[max(k - 1, 0)]), float(ts[min(k + 1, n - 1)])
        if b - a < tol_s:
            return best_t, best_v
        n = zoom


def meet_term(a: PathFit, b: PathFit) -> Term:
    """Two fits of the same ball (before / after a contact) pass through one point at ``t``."""

    def term(t: float) -> tuple[float, float]:
        d = a.pos(t) - b.pos(t)
        return float(np.linalg.norm(d)), (a.pos_var(t) + b.pos_var(t))

    def grid(ts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        (pa, va), (pb, vb) = a.pos_and_var_at(ts), b.pos_and_var_at(ts)
        return np.linalg.norm(pa - pb, axis=1), va + vb

    return with_grid(term, grid)


def value_term(fit: PathFit, target: float, sigma: float) -> Term:
    """A 1-D fit takes the value ``target`` (known to ``sigma``) at ``t``."""

    def term(t: float) -> tuple[float, float]:
        return float(fit.pos(t)[0] - target), fit.pos_var(t) + sigma**2

    def grid(ts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        p, v = fit.pos_and_var_at(ts)
        return p[:, 0] - target, v + sigma**2

    return with_grid(term, grid)


def distance_term(a: PathFit, b: PathFit, dist: float, sigma: float) -> Term:
    """Two balls' fits are ``dist`` apart at ``t``."""

    def term(t: float) -> tuple[float, float]:
        return float(np.linalg.norm(a.pos(t) - b.pos(t)) - dist), a.pos_var(t) + b.pos_var(t) + sigma**2

    def grid(ts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        (pa, va), (pb, vb) = a.pos_and_var_at(ts), b.pos_and_var_at(ts)
        return np.linalg.norm(pa - pb, axis=1) - dist, va + vb + sigma**2

    return with_grid(term, grid)


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
