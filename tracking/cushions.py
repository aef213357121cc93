"""Ball-cushion contacts from one ball's path.

A ball touches a cushion when its centre is R from the nose line (DESIGN.md table frame: head
x = 0, foot x = L, right y = 0, left y = W) and its motion toward that cushion turns around. In the
centre's *normal coordinate* ``n`` (its distance from the nose line) a contact is a V: ``n``
falls to R and rises again. Working in ``n`` alone makes the method indifferent to what happens
along the cushion (running side spin, the swerve after the bounce, a second cushion of a
corner a moment later).

Detection: sample gaps before which ``n`` falls and after which it rises, short enough to reach
R and come back in (so a contact hidden in a gap of the data is found too). Timing: fits of ``n`` on each side (:mod:`tracking.sides`) and the time that best
satisfies "both sides meet" and "each side is at R" (the nose line known to
``cushion_sigma_mm``). When another contact of the same ball (a ball-ball collision) falls
between the same two samples, the side beyond it is not this contact's path; then only the clean
side's "reaches R" is used, and of the two orders (cushion first or second) the one whose
solution lies strictly inside its share of the gap is kept: so a third cushion and a second ball
within one frame are told apart. A time held at an end of its split (the fits want it
outside) ranks after any time inside one. A ball struck from rest into a cushion before its next
sample shows the contact by its path after alone: it counts where the ball could have got there
after leaving its rest (or its stroke) with a cushion giving back at least
``cushion_restitution_min`` of the normal speed. Grazing contacts next to another contact of the
ball are fitted with the window's end anchored at the ball's position at that contact.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from calibration.table import TableSpec
from tracking.ids import BallId, Cushion
from tracking.pathfit import fit_path
from tracking.segment import BallActivity, Motion
from tracking.sides import (
    ContactConfig,
    Side,
    make_side,
    meet_term,
    robust_cost,
    score,
    segment_of,
    solve_time,
    usable_path,
    value_term,
)

OPPOSITE: dict[Cushion, Cushion] = {
    Cushion.HEAD: Cushion.FOOT,
    Cushion.FOOT: Cushion.HEAD,
    Cushion.RIGHT: Cushion.LEFT,
    Cushion.LEFT: Cushion.RIGHT,
}


def normal_coordinate(cushion: Cushion, table: TableSpec) -> Callable[[np.ndarray], np.ndarray]:
    """``xy (N, 2) -> n (N,)``: each centre's distance from ``cushion``'s nose line (positive on
    the playing surface)."""
    L, W = table.length_mm, table.width_mm
    if cushion is Cushion.HEAD:
        return lambda xy: np.asarray(xy)[:, 0].astype(float)
    if cushion is Cushion.FOOT:
        return lambda xy: L - np.asarray(xy)[:, 0].astype(float)
    if cushion is Cushion.RIGHT:
        return lambda xy: np.asarray(xy)[:, 1].astype(float)
    return lambda xy: W - np.asarray(xy)[:, 1].astype(float)


def nearest_cushion(pos_mm: Sequence[float], table: TableSpec) -> tuple[Cushion, float]:
    """The cushion nearest to a centre and the centre's distance from its nose line."""
    p = np.array([pos_mm], dtype=float)
    best = min(((c, float(normal_coordinate(c, table)(p)[0])) for c in Cushion), key=lambda cd: cd[1])
    return best


@dataclass(frozen=True)
class CushionContact:
    """A found cushion contact: ``split`` is the index of the ball's last sample before it."""

    ball: BallId
    cushion: Cushion
    t_s: float
    pos_mm: tuple[float, float]
    confidence: float
    split: int


def cushion_candidates(
    act: BallActivity, motion: Motion, cushion: Cushion, table: TableSpec, cfg: ContactConfig
) -> list[list[int]]:
    """Groups of splits ``k`` (a contact between samples ``k`` and ``k + 1``) where the ball may
    have met the cushion: it approaches up to sample ``k``, leaves from ``k + 1`` on, and could
    have covered the way to the nose and back in between (a gap in the data included)."""
    R = table.ball_radius_mm
    s = act.samples
    lo, hi = motion.i_first, motion.i_last
    n = normal_coordinate(cushion, table)(s.xy_mm)
    t, p = s.t_s, s.xy_mm
    last = len(s) - 1

    def speed(i: int, j: int) -> float:
        if i < 0 or j > last:
            return 0.0
        return float(np.hypot(*(p[j] - p[i]))) / max(float(t[j] - t[i]), 1e-9)

    splits: list[int] = []
    for k in range(max(lo - 1, 0), min(hi, last - 1) + 1):
        if k - 1 < 0 or k + 2 > last:
            continue
        if n[k - 1] < n[k] or n[k + 2] < n[k + 1]:
            continue  # not approaching before, or not leaving after
        dt = float(t[k + 1] - t[k])
        # the fastest of two chords each side: one chord's speed is as noisy as two centres
        # (a blurred fast ball is measured worst along its path)
        reach = max(speed(k - 1, k), speed(k - 2, k - 1), speed(k + 1, k + 2), speed(k + 2, k + 3)) * dt
        if (n[k] - R) + (n[k + 1] - R) <= reach + cfg.cushion_detect_mm:
            splits.append(k)
    groups: list[list[int]] = []
    for k in splits:
        if groups and k - groups[-1][-1] <= 2:
            groups[-1].append(k)
        else:
            groups.append([k])
    return groups


@dataclass(frozen=True)
class _Option:
    t_s: float
    cost: float
    boundary: bool
    uses_in: bool
    uses_out: bool
    k: int
    side_in: Side
    side_out: Side


def window_mean(t_s: np.ndarray, values: np.ndarray, half_s: float) -> np.ndarray:
    """At each time of ``t_s`` (increasing), the mean of ``values`` over the samples within
    ``half_s`` of it (both ends included): a moving average over time, not over sample count, so
    a gap in the data does not widen it. Cumulative sums: one pass, not a mean per sample."""
    c = np.concatenate(([0.0], np.cumsum(values, dtype=np.float64)))
    lo = np.searchsorted(t_s, t_s - half_s, side="left")
    hi = np.searchsorted(t_s, t_s + half_s, side="right")
    return (c[hi] - c[lo]) / (hi - lo)


def refine_cushion(
    act: BallActivity,
    cushion: Cushion,
    group: Sequence[int],
    table: TableSpec,
    cfg: ContactConfig,
    lo_t: float = -math.inf,
    hi_t: float = math.inf,
    gap_events_s: Sequence[float] = (),
    start_s: float = -math.inf,
) -> CushionContact | None:
    """The contact at one of the splits ``group``, or None when the path does not show one.

    ``lo_t``/``hi_t`` bound the fits (the ball's neighbouring contacts that change its normal
    motion); ``gap_events_s`` are times of the ball's collisions with other balls, used to tell
    which side of a shared sample gap is this contact's own; ``start_s``: when the ball left its
    rest, where known (the stroke, for the cue ball): no contact before it."""
    R = table.ball_radius_mm
    s = act.samples
    proj = normal_coordinate(cushion, table)
    g0, g1 = min(group), max(group)
    window = np.arange(max(g0 - cfg.fit_samples + 1, 0), min(g1 + cfg.fit_samples, len(s) - 1) + 1)
    window = window[(s.t_s[window] > lo_t) & (s.t_s[window] < hi_t)]
    options: list[_Option] = []
    for k in range(g0, g1 + 1):
        if k < 0 or k + 1 >= len(s):
            continue
        t_k, t_k1 = float(s.t_s[k]), float(s.t_s[k + 1])
        n_rest: float | None = None
        if segment_of(act, k)[0] == "rest" and segment_of(act, k + 1)[0] == "motion":
            n_rest = float(proj(s.xy_mm[k : k + 1])[0])
            if n_rest <= R + cfg.cushion_reach_mm:
                continue  # leaving a cushion it rested against is no contact (frozen: 003 art. 10)
            # else struck from rest and into this cushion before the next sample (a gap in the
            # data): only the path after shows the contact
        t_mid = 0.5 * (t_k + t_k1)
        side_in = make_side(
            act, k, -1, lo_t, hi_t, cfg, project=lambda xy: proj(xy)[:, None], allow_rest=False, t_ref_s=t_mid
        )
        side_out = make_side(
            act, k + 1, +1, lo_t, hi_t, cfg, project=lambda xy: proj(xy)[:, None], allow_rest=False, t_ref_s=t_mid
        )
        base = robust_cost(act, window, (side_in, side_out), cfg, project=lambda xy: proj(xy)[:, None])
        inside = [t for t in gap_events_s if t_k < t < t_k1]
        plans: list[tuple[list, float, float, bool, bool]] = []
        if not inside:
            terms = []
            if side_in.usable and side_out.usable:
                terms.append(meet_term(usable_path(side_in), usable_path(side_out)))
            if side_in.usable:
                terms.append(value_term(usable_path(side_in), R, cfg.cushion_sigma_mm))
            if side_out.usable:
                terms.append(value_term(usable_path(side_out), R, cfg.cushion_sigma_mm))
            if terms:
                plans.append((terms, t_k, t_k1, side_in.usable, side_out.usable))
        else:
            if side_in.usable:
                plans.append(
                    ([value_term(usable_path(side_in), R, cfg.cushion_sigma_mm)], t_k, min(inside), True, False)
                )
            if side_out.usable:
                plans.append(
                    ([value_term(usable_path(side_out), R, cfg.cushion_sigma_mm)], max(inside), t_k1, False, True)
                )
        for terms, a, b, ui, uo in plans:
            if n_rest is not None:
                a = max(a, start_s)
                if b <= a:
                    continue
            t_c, j = solve_time(terms, a, b)
            if n_rest is not None and not _reachable_from_rest(n_rest, max(t_k, start_s), t_c, side_out, R, cfg):
                continue
            eps = 1e-6 * max(1.0, b - a)
            boundary = t_c <= a + eps or t_c >= b - eps
            options.append(_Option(t_c, base + j, boundary, ui, uo, k, side_in, side_out))
    if not options:
        return None
    options.sort(key=lambda o: (o.boundary, o.cost))
    for opt in options[:3]:
        found = _validate(act, cushion, opt, table, cfg, proj)
        if found is not None:
            return found
    return None


def _reachable_from_rest(
    n_rest: float, t_rest_s: float, t_c: float, side_out: Side, R: float, cfg: ContactConfig
) -> bool:
    """Whether a ball resting at ``n_rest`` until ``t_rest_s`` can have met the cushion at
    ``t_c`` and left it as ``side_out`` shows: the way in takes (n_rest - R) / v_in, and a
    cushion gives back at least ``cushion_restitution_min`` of the normal speed, so v_in is at
    most the speed out over that."""
    f = side_out.path
    if f is None:
        return False
    v_out = float(f.vel(t_c)[0])
    if v_out <= 0.0 or t_c <= t_rest_s:
        return False
    return (n_rest - R) / (t_c - t_rest_s) <= v_out / cfg.cushion_restitution_min


def _validate(
    act: BallActivity,
    cushion: Cushion,
    opt: _Option,
    table: TableSpec,
    cfg: ContactConfig,
    proj: Callable[[np.ndarray], np.ndarray],
) -> CushionContact | None:
    R = table.ball_radius_mm
    s = act.samples
    t = opt.t_s
    k = opt.k
    factors: list[float] = []
    vertex: list[float] = []
    slack: list[float] = []
    z_scores: list[float] = []
    # each side used must move the right way (toward the nose before, away after), and the turn
    # as a whole must clear ``significance_sd`` + 1 standard deviations: a slow rebound may be
    # faint on its own when the approach is clear
    turn, turn_var = 0.0, 0.0
    for used, side, sign in ((opt.uses_in, opt.side_in, -1.0), (opt.uses_out, opt.side_out, 1.0)):
        if not used:
            continue
        f = side.fit
        assert f is not None
        vn, sd = sign * float(f.vel(t)[0]), math.sqrt(f.vel_var(t))
        if vn < max(cfg.min_normal_speed_mm_s, cfg.side_significance_sd * sd):
            return None
        turn += vn
        turn_var += sd * sd
        vertex.append(float(side.path.pos(t)[0]))  # type: ignore[union-attr]
        slack.append(3.0 * f.extrapolation_mm(t))
        z_scores.append(vn / max(sd, 1e-6))
        factors.append(score(f.rms_mm / cfg.noise_mm, 2.0, 8.0) * 0.8 + 0.2)
    if not vertex:
        return None
    if opt.uses_in and opt.uses_out:
        if turn < (cfg.significance_sd + 1.0) * math.sqrt(turn_var):
            return None
    elif z_scores[0] < cfg.significance_sd:
        return None
    for v, sl in zip(vertex, slack):
        if not (R - cfg.cushion_penetration_mm - sl <= v <= R + cfg.cushion_reach_mm + sl):
            return None
    if opt.uses_in and opt.uses_out and abs(vertex[0] - vertex[1]) > cfg.cushion_reach_mm + sum(slack):
        return None
    n_all = proj(s.xy_mm)
    if opt.uses_in and not opt.uses_out:
        # one-sided: the in path would have crossed the nose before the next sample, which did not
        f = opt.side_in.fit
        assert f is not None
        if k + 1 < len(s) and n_all[k + 1] < R - cfg.cushion_penetration_mm:
            return None
    if opt.uses_out and not opt.uses_in and n_all[k] < R - cfg.cushion_penetration_mm:
        return None
    # position: between the two samples that hold the contact, where it falls in their gap (the
    # side's fit runs over samples chosen by the normal coordinate alone, across a bounce off the
    # other cushion of a corner, which turns the path along this one); else the 2-D path of the
    # side used. Its normal coordinate put at the fitted vertex.
    side = opt.side_in if opt.uses_in else opt.side_out
    xy = s.xy_mm[side.idx]
    if k + 1 < len(s) and s.t_s[k] <= t <= s.t_s[k + 1] and s.t_s[k + 1] > s.t_s[k]:
        w = (t - float(s.t_s[k])) / float(s.t_s[k + 1] - s.t_s[k])
        pos = (1.0 - w) * s.xy_mm[k] + w * s.xy_mm[k + 1]
    elif len(side.idx) >= 2:
        tt = s.t_s[side.idx]
        a = np.polyfit(tt - t, xy, 1)
        pos = a[1]
    else:
        pos = xy[0]
    nv = float(np.clip(np.mean(vertex), R - cfg.cushion_penetration_mm, R + cfg.cushion_reach_mm))
    pos = _with_normal(pos, cushion, nv, table)
    n_min = min(([opt.side_in.n] if opt.uses_in else []) + ([opt.side_out.n] if opt.uses_out else []))
    support = min(1.0, n_min / 3.0)
    if not (opt.uses_in and opt.uses_out):
        support *= 0.8
    gap = float(s.t_s[k + 1] - s.t_s[k]) if k + 1 < len(s) else 1.0
    conf = (
        support
        * (0.3 + 0.7 * score(gap, 0.1, 1.5))
        * (0.4 + 0.6 * score(abs(nv - R), 3.0, cfg.cushion_reach_mm + 2.0))
        * (0.3 + 0.7 * score(-min(z_scores), -10.0, -cfg.significance_sd))
        * float(np.prod(factors))
    )
    if s.bridged_after[k]:
        conf *= 0.6
    return CushionContact(
        ball=s.ball,
        cushion=cushion,
        t_s=float(t),
        pos_mm=(float(pos[0]), float(pos[1])),
        confidence=float(np.clip(conf, 0.05, 1.0)),
        split=k,
    )


def _with_normal(pos: np.ndarray, cushion: Cushion, n: float, table: TableSpec) -> np.ndarray:
    p = np.array(pos, dtype=float)
    if cushion is Cushion.HEAD:
        p[0] = n
    elif cushion is Cushion.FOOT:
        p[0] = table.length_mm - n
    elif cushion is Cushion.RIGHT:
        p[1] = n
    else:
        p[1] = table.width_mm - n
    return p


def dying_contact(act: BallActivity, motion: Motion, table: TableSpec, cfg: ContactConfig) -> CushionContact | None:
    """A ball that dies on a cushion: approaching it to the end of its motion, its centre comes
    within ``dying_touch_mm`` of R from the nose line (centres averaged over ``dying_smooth_s``
    against the noise) in its last moves, too slowly for a rebound to show above the noise.
    Timed where its last moving path reaches R (or at its closest sample); a low confidence, for
    it rests on millimetres (a referee's call: did it reach the cushion?)."""
    if motion.rest_after is None:
        return None
    R = table.ball_radius_mm
    s = act.samples
    t_last = float(s.t_s[motion.i_last])
    i0 = max(motion.i_first, motion.i_last - cfg.fit_samples + 1)
    i1 = motion.rest_after.i1
    while i1 > motion.i_last + 1 and float(s.t_s[i1]) > t_last + cfg.max_fit_span_s:
        i1 -= 1
    idx = np.arange(i0, i1 + 1)
    ts = s.t_s[idx]
    for cushion in Cushion:
        proj = normal_coordinate(cushion, table)
        n = proj(s.xy_mm[idx])
        smooth = window_mean(ts, n, cfg.dying_smooth_s)
        j = int(np.argmin(smooth))
        closest = float(smooth[j])
        if closest - R > cfg.dying_touch_mm or n[0] - closest < 2.0 * cfg.dying_touch_mm:
            continue
        # the side (and its projection) is used and dropped within this iteration: the loop's proj is the one meant
        side = make_side(
            act,
            motion.i_last,
            -1,
            -math.inf,
            math.inf,
            cfg,
            project=lambda xy: proj(xy)[:, None],  # noqa: B023
            allow_rest=False,
        )
        t_c = float(ts[j])
        if side.fit is not None and float(side.fit.vel(t_last)[0]) < 0.0:
            t_c, _ = solve_time([value_term(usable_path(side), R, cfg.cushion_sigma_mm)], t_last, max(t_c, t_last))
        pos = _with_normal(s.xy_mm[idx[j]], cushion, max(closest, R), table)
        conf = 0.2 + 0.3 * score(max(closest - R, 0.0), 0.5, cfg.dying_touch_mm)
        return CushionContact(s.ball, cushion, float(t_c), (float(pos[0]), float(pos[1])), conf, motion.i_last)
    return None


def graze_contacts(
    act: BallActivity,
    motion: Motion,
    cushion: Cushion,
    table: TableSpec,
    cfg: ContactConfig,
    others_s: Sequence[float] = (),
    same_s: Sequence[float] = (),
) -> list[CushionContact]:
    """Grazing contacts: a ball meeting the cushion at a shallow angle, its normal speed so low
    (a few cm/s) that a short fit cannot see the turn through the noise. Where the smoothed
    centre comes within ``graze_mm`` of R, the normal coordinate over up to ``graze_window_s``
    each side is fitted by a V (two lines meeting at a knot) and by a parabola (a smooth swerve
    past the cushion); a contact when the V is significantly better (``graze_test_chi2`` noise
    variances), falls in and rises out significantly, and has its vertex at R.
    ``others_s``: the ball's other contacts (bounding the window); ``same_s``: contacts with this
    cushion already found (not repeated)."""
    R = table.ball_radius_mm
    s = act.samples
    idx = np.arange(motion.i_first, motion.i_last + 1)
    if len(idx) < 8:
        return []
    proj = normal_coordinate(cushion, table)
    ts = s.t_s[idx]
    n = proj(s.xy_mm[idx])
    smooth = window_mean(ts, n, cfg.dying_smooth_s)
    out: list[CushionContact] = []
    taken: list[float] = list(same_s)
    order = np.argsort(smooth)
    for j in order:
        if smooth[j] - R > cfg.graze_mm:
            break
        t_m = float(ts[j])
        if any(
            abs(t_m - t) < 0.5 * cfg.graze_window_s and not any(min(t, t_m) < o < max(t, t_m) for o in others_s)
            for t in taken
        ):
            continue  # one V fit covers this stretch of the cushion already
        taken.append(t_m)
        bounds = list(others_s) + list(same_s)
        lo = max([t for t in bounds if t < t_m - 1e-6] + [t_m - cfg.graze_window_s])
        hi = min([t for t in bounds if t > t_m + 1e-6] + [t_m + cfg.graze_window_s])
        sel = (ts > lo) & (ts < hi)
        tw, nw, w = ts[sel], n[sel], np.clip(s.weight[idx][sel], 0.05, 1.0)
        n_in, n_out = int((tw < t_m).sum()), int((tw > t_m).sum())
        # the centre does not jump at a contact: where the window stops at another contact of
        # the ball, its path beyond that contact says where the ball was when it began
        for t_b, side, beyond in (
            (lo, -1, (ts < lo) & (ts > max([t for t in bounds if t < lo - 1e-6] + [-math.inf]))),
            (hi, +1, (ts > hi) & (ts < min([t for t in bounds if t > hi + 1e-6] + [math.inf]))),
        ):
            if not any(abs(t_b - b) < 1e-9 for b in bounds):
                continue
            anchor = _anchor(ts[beyond], n[beyond], s.weight[idx][beyond], t_b, side, cfg)
            if anchor is None:
                continue
            a_n, a_w = anchor
            at = np.searchsorted(tw, t_b)
            tw, nw, w = np.insert(tw, at, t_b), np.insert(nw, at, a_n), np.insert(w, at, a_w)
            if side < 0:
                n_in += 1
            else:
                n_out += 1
        if n_in < cfg.graze_side_samples or n_out < cfg.graze_side_samples:
            continue
        found = _fit_graze(tw, nw, w, t_m, R, cfg)
        if found is None:
            continue
        t_c, conf = found
        taken.append(t_c)
        k = int(np.searchsorted(s.t_s, t_c, side="right") - 1)
        pos = _with_normal(s.xy_mm[max(k, 0)], cushion, R, table)
        out.append(CushionContact(s.ball, cushion, t_c, (float(pos[0]), float(pos[1])), conf, max(k, 0)))
    return out


def _anchor(
    t: np.ndarray, n: np.ndarray, w: np.ndarray, t_b: float, side: int, cfg: ContactConfig
) -> tuple[float, float] | None:
    """The normal coordinate at ``t_b`` from the samples beyond it (``side`` -1: those before
    ``t_b`` are beyond a window that starts there), as a value and a sample weight (its
    variance in units of ``noise_mm``^2), or None with fewer than 3 samples there."""
    near = np.argsort(np.abs(t - t_b))[: cfg.fit_samples]
    near = near[np.abs(t[near] - t_b) <= cfg.fit_window_s]
    if len(near) < 3:
        return None
    near = np.sort(near)
    f = fit_path(t[near], n[near], noise_mm=cfg.noise_mm, t0_s=t_b, weights=w[near], accel_sd_mm_s2=cfg.accel_sd_mm_s2)
    var = f.pos_var(t_b)
    return float(f.pos(t_b)[0]), float(np.clip(cfg.noise_mm**2 / max(var, 1e-9), 0.05, 4.0))


def _fit_graze(
    t: np.ndarray, n: np.ndarray, w: np.ndarray, t_m: float, R: float, cfg: ContactConfig
) -> tuple[float, float] | None:
    def v_fit(t_k: float) -> tuple[float, np.ndarray, np.ndarray]:
        tau = t - t_k
        a = np.stack([np.ones_like(tau), np.minimum(tau, 0.0), np.maximum(tau, 0.0)], axis=1)
        aw = a * w[:, None]
        cov = np.linalg.pinv(a.T @ aw)
        coef = cov @ (aw.T @ n)
        r = n - a @ coef
        return float(np.sum(w * r * r)), coef, cov

    span = 0.5 * cfg.fit_window_s
    grid = np.linspace(t_m - span, t_m + span, 41)
    ssr = [v_fit(float(g))[0] for g in grid]
    k = int(np.argmin(ssr))
    a, b = float(grid[max(k - 1, 0)]), float(grid[min(k + 1, len(grid) - 1)])
    gr = (math.sqrt(5.0) - 1.0) / 2.0
    for _ in range(30):
        c, d = b - gr * (b - a), a + gr * (b - a)
        if v_fit(c)[0] < v_fit(d)[0]:
            b = d
        else:
            a = c
    t_k = 0.5 * (a + b)
    ssr_v, coef, cov = v_fit(t_k)
    tau = t - t_m
    q = np.stack([np.ones_like(tau), tau, tau * tau], axis=1)
    qc, *_ = np.linalg.lstsq(q * np.sqrt(w)[:, None], n * np.sqrt(w), rcond=None)
    ssr_q = float(np.sum(w * (n - q @ qc) ** 2))
    dof = max(len(t) - 3, 1)
    s2 = (2.0 * cfg.noise_mm**2 + ssr_v) / (2.0 + dof)
    gain = (ssr_q - ssr_v) / s2
    if gain < cfg.graze_test_chi2:
        return None
    vertex, slope_in, slope_out = float(coef[0]), float(coef[1]), float(coef[2])
    sd_in, sd_out = math.sqrt(s2 * cov[1, 1]), math.sqrt(s2 * cov[2, 2])
    if slope_in > -cfg.significance_sd * sd_in or slope_out < cfg.significance_sd * sd_out:
        return None
    if not (R - cfg.cushion_penetration_mm <= vertex <= R + cfg.graze_mm):
        return None
    conf = 0.3 + 0.4 * score(-gain, -4.0 * cfg.graze_test_chi2, -cfg.graze_test_chi2) * score(
        abs(vertex - R), 1.0, cfg.graze_mm + 1.0
    )
    return t_k, float(conf)
