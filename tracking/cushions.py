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
within one frame are told apart.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from calibration.table import TableSpec
from tracking.ids import BallId, Cushion
from tracking.segment import BallActivity, Motion
from tracking.sides import (
    ContactConfig,
    Side,
    make_side,
    meet_term,
    robust_cost,
    score,
    solve_time,
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


def cushion_candidates(act: BallActivity, motion: Motion, cushion: Cushion, table: TableSpec,
                       cfg: ContactConfig) -> list[list[int]]:
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
        reach = max(speed(k - 1, k), speed(k + 1, k + 2)) * dt
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


def refine_cushion(
    act: BallActivity,
    cushion: Cushion,
    group: Sequence[int],
    table: TableSpec,
    cfg: ContactConfig,
    lo_t: float = -math.inf,
    hi_t: float = math.inf,
    gap_events_s: Sequence[float] = (),
) -> CushionContact | None:
    """The contact at one of the splits ``group``, or None when the path does not show one.

    ``lo_t``/``hi_t`` bound the fits (the ball's neighbouring contacts that change its normal
    motion); ``gap_events_s`` are times of the ball's collisions with other balls, used to tell
    which side of a shared sample gap is this contact's own."""
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
        t_mid = 0.5 * (t_k + t_k1)
        side_in = make_side(act, k, -1, lo_t, hi_t, cfg, project=lambda xy: proj(xy)[:, None],
                            allow_rest=False, t_ref_s=t_mid)
        side_out = make_side(act, k + 1, +1, lo_t, hi_t, cfg, project=lambda xy: proj(xy)[:, None],
                             allow_rest=False, t_ref_s=t_mid)
        base = robust_cost(act, window, (side_in, side_out), cfg, project=lambda xy: proj(xy)[:, None])
        inside = [t for t in gap_events_s if t_k < t < t_k1]
        plans: list[tuple[list, float, float, bool, bool]] = []
        if not inside:
            terms = []
            if side_in.usable and side_out.usable:
                terms.append(meet_term(side_in.fit, side_out.fit))
            if side_in.usable:
                terms.append(value_term(side_in.fit, R, cfg.cushion_sigma_mm))
            if side_out.usable:
                terms.append(value_term(side_out.fit, R, cfg.cushion_sigma_mm))
            if terms:
                plans.append((terms, t_k, t_k1, side_in.usable, side_out.usable))
        else:
            if side_in.usable:
                plans.append(([value_term(side_in.fit, R, cfg.cushion_sigma_mm)], t_k, min(inside), True, False))
            if side_out.usable:
                plans.append(([value_term(side_out.fit, R, cfg.cushion_sigma_mm)], max(inside), t_k1, False, True))
        for terms, a, b, ui, uo in plans:
            t_c, j = solve_time(terms, a, b)
            eps = 1e-6 * max(1.0, b - a)
            boundary = bool(inside) and (t_c <= a + eps or t_c >= b - eps)
            options.append(_Option(t_c, base + j, boundary, ui, uo, k, side_in, side_out))
    if not options:
        return None
    options.sort(key=lambda o: (o.boundary, o.cost))
    for opt in options[:3]:
        found = _validate(act, cushion, opt, table, cfg, proj)
        if found is not None:
            return found
    return None


def _validate(act: BallActivity, cushion: Cushion, opt: _Option, table: TableSpec, cfg: ContactConfig,
              proj: Callable[[np.ndarray], np.ndarray]) -> CushionContact | None:
    R = table.ball_radius_mm
    s = act.samples
    t = opt.t_s
    k = opt.k
    factors: list[float] = []
    vertex: list[float] = []
    slack: list[float] = []
    z_scores: list[float] = []
    if opt.uses_in:
        f = opt.side_in.fit
        assert f is not None
        vn, sd = float(f.vel(t)[0]), math.sqrt(f.vel_var(t))
        if vn > -max(cfg.min_normal_speed_mm_s, cfg.significance * sd):
            return None
        vertex.append(float(f.pos(t)[0]))
        slack.append(3.0 * f.extrapolation_mm(t))
        z_scores.append(-vn / max(sd, 1e-6))
        factors.append(score(f.rms_mm / cfg.noise_mm, 2.0, 8.0) * 0.8 + 0.2)
    if opt.uses_out:
        f = opt.side_out.fit
        assert f is not None
        vn, sd = float(f.vel(t)[0]), math.sqrt(f.vel_var(t))
        if vn < max(cfg.min_normal_speed_mm_s, cfg.significance * sd):
            return None
        vertex.append(float(f.pos(t)[0]))
        slack.append(3.0 * f.extrapolation_mm(t))
        z_scores.append(vn / max(sd, 1e-6))
        factors.append(score(f.rms_mm / cfg.noise_mm, 2.0, 8.0) * 0.8 + 0.2)
    if not vertex:
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
    if opt.uses_out and not opt.uses_in:
        if n_all[k] < R - cfg.cushion_penetration_mm:
            return None
    # position: the 2-D path of the side used, its normal coordinate put at the fitted vertex
    side = opt.side_in if opt.uses_in else opt.side_out
    xy = s.xy_mm[side.idx]
    if len(side.idx) >= 2:
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
        * (0.3 + 0.7 * score(-min(z_scores), -10.0, -cfg.significance))
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
        smooth = np.array([n[np.abs(ts - t) <= cfg.dying_smooth_s].mean() for t in ts])
        j = int(np.argmin(smooth))
        closest = float(smooth[j])
        if closest - R > cfg.dying_touch_mm or n[0] - closest < 2.0 * cfg.dying_touch_mm:
            continue
        side = make_side(act, motion.i_last, -1, -math.inf, math.inf, cfg,
                         project=lambda xy: proj(xy)[:, None], allow_rest=False)
        t_c = float(ts[j])
        if side.fit is not None and float(side.fit.vel(t_last)[0]) < 0.0:
            t_c, _ = solve_time([value_term(side.fit, R, cfg.cushion_sigma_mm)], t_last, max(t_c, t_last))
        pos = _with_normal(s.xy_mm[idx[j]], cushion, max(closest, R), table)
        conf = 0.2 + 0.3 * score(max(closest - R, 0.0), 0.5, cfg.dying_touch_mm)
        return CushionContact(s.ball, cushion, float(t_c), (float(pos[0]), float(pos[1])), conf, motion.i_last)
    return None
