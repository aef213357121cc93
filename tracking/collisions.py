"""Ball-ball contacts from two balls' paths.

Two balls touch when their centres are 2R apart, and the contact shows as an impulse along the
line of centres: the struck ball's velocity jumps *away from* the striker and the striker's
velocity drops by about as much (equal masses). A near miss has neither.

Detection: the episodes where the two (linearly interpolated) centres come within
2R + ``ball_detect_mm`` + half of each ball's chord between samples (the interpolation cuts
corners by up to that much), while at least one of them moves; a ball that left its rest inside a
gap of its samples is tried both held at its rest and on the straight way to its first moving
sample, and the episode then reaches back over that gap. Timing: over the splits of the two
balls' samples around the closest approach, the time that best satisfies "each ball's fits
before and after meet", "the centres are 2R apart on the paths before" and "... after"
(:mod:`tracking.sides`). Each ball's fits stop at its neighbouring contacts (``others_*``); a
split that holds another contact of either ball is tried before and after it, the side beyond
it left out, and a ball left with one clean side is timed by that side against the other
ball's ("2R apart", or, for a ball struck from rest and seen once before its next contact, "2R
behind its rest on the line to that sample"). Validation: the impulse along the line of
centres, combined over both balls, must clear ``min_impulse_mm_s`` and ``significance_sd``
standard deviations, and neither ball may show a clearly opposite one, except a ball that left
its rest in that gap while the other was turned away from it: its path after the gap may be the
work of further contacts in the same gap (a break's apex ball meets the balls behind it a
millisecond after the cue ball, and real 25 fps footage showed it leaving back toward the cue
ball's side), so its own turn is not read; where no velocity change can be read (every side
beyond the contact spoiled), a ball that left its rest in that gap with the other, moving, 2R
from it is the evidence, at lower confidence.

Order: a ball at rest is the struck one; of two moving balls the faster one just before the
contact is called the striker (the simulator truth's convention). A ball set moving by the cue at
that moment (``cue_onset``) gives no evidence of a contact by its own start: the separation of a
cue ball played away from a ball it touches is not a contact (002 ART 15.8, 003 art. 9).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tracking.ids import BallId
from tracking.pathfit import PathFit, fit_path
from tracking.segment import BallActivity, RestRun
from tracking.sides import (
    EMPTY_SIDE,
    ContactConfig,
    Side,
    Term,
    distance_term,
    make_side,
    meet_term,
    robust_cost,
    score,
    segment_of,
    solve_time,
    usable_path,
    velocity_change,
    with_grid,
)


@dataclass(frozen=True)
class Collision:
    """A found ball-ball contact: ``balls`` (striking, struck), ``pos_mm`` the contact point
    (midway between the centres)."""

    balls: tuple[BallId, BallId]
    t_s: float
    pos_mm: tuple[float, float]
    confidence: float


@dataclass(frozen=True)
class Episode:
    """Balls ``a`` and ``b`` close from ``t_first_s`` to ``t_last_s``, closest at ``t_min_s``;
    the contact, if any, lies in ``[t_lo_s, t_hi_s]`` (the grid times around the episode)."""

    a: BallId
    b: BallId
    t_first_s: float
    t_last_s: float
    t_min_s: float
    t_lo_s: float
    t_hi_s: float


def _moving_intervals(act: BallActivity) -> list[tuple[float, float]]:
    s = act.samples
    out = []
    for m in act.motions:
        t0 = float(s.t_s[m.i_first - 1]) if m.i_first > 0 else float(s.t_s[m.i_first])
        t1 = float(s.t_s[m.i_last + 1]) if m.i_last + 1 < len(s) else float(s.t_s[m.i_last])
        out.append((t0, t1))
    return out


def moving_at(ts: np.ndarray, *acts: BallActivity) -> np.ndarray:
    """Whether any of the balls moves at each time: inside one of its motions, from the sample
    before the first moving one to the sample after the last."""
    moving = np.zeros(len(ts), dtype=bool)
    for act in acts:
        for lo, hi in _moving_intervals(act):
            moving |= (ts >= lo) & (ts <= hi)
    return moving


def true_runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """(first, last) index of each run of True in ``mask``."""
    out: list[tuple[int, int]] = []
    i, n = 0, len(mask)
    while i < n:
        if not mask[i]:
            i += 1
            continue
        j = i
        while j + 1 < n and mask[j + 1]:
            j += 1
        out.append((i, j))
        i = j + 1
    return out


def _starts(act: BallActivity) -> list[tuple[float, float]]:
    """(last rest sample, first moving sample) times of each motion that follows a rest."""
    s = act.samples
    return [
        (float(s.t_s[m.i_first - 1]), float(s.t_s[m.i_first]))
        for m in act.motions
        if m.rest_before is not None and m.i_first > 0
    ]


def positions_at(act: BallActivity, ts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each time's centre (held at the rest position through a rest run, up to the next moving
    sample; linear between moving samples) and the chord between the samples around it."""
    s = act.samples
    x = np.interp(ts, s.t_s, s.xy_mm[:, 0])
    y = np.interp(ts, s.t_s, s.xy_mm[:, 1])
    k = np.clip(np.searchsorted(s.t_s, ts, side="right") - 1, 0, len(s) - 1)
    k1 = np.clip(k + 1, 0, len(s) - 1)
    chord = np.linalg.norm(s.xy_mm[k1] - s.xy_mm[k], axis=1)
    for r in act.runs:
        held = (k >= r.i0) & (k <= r.i1)
        x[held], y[held] = r.pos_mm
        chord[held & (k == r.i1)] = 0.0
    return np.stack([x, y], axis=1), chord


def pair_episodes(
    act_a: BallActivity, act_b: BallActivity, t0_s: float, t1_s: float, diameter_mm: float, cfg: ContactConfig
) -> list[Episode]:
    """Close approaches of two balls within ``[t0_s, t1_s]`` while one of them moves."""
    sa, sb = act_a.samples, act_b.samples
    if len(sa) == 0 or len(sb) == 0:
        return []
    ts = np.union1d(sa.t_s, sb.t_s)
    ts = ts[(ts >= t0_s) & (ts <= t1_s)]
    if len(ts) == 0:
        return []
    pa, ca = positions_at(act_a, ts)
    pb, cb = positions_at(act_b, ts)
    d = np.linalg.norm(pa - pb, axis=1)
    reach = diameter_mm + cfg.ball_detect_mm + 0.5 * (ca + cb)
    margin = d - reach
    # a ball that left its rest inside a gap of its samples may have been anywhere between its
    # rest and its first moving sample: the straight way between them (its chord) is a
    # candidate too
    for act, other, other_chord in ((act_a, pb, cb), (act_b, pa, ca)):
        s = act.samples
        for t_rest, t_move in _starts(act):
            inside = (ts > t_rest) & (ts < t_move)
            if inside.any():
                way = np.stack(
                    [np.interp(ts[inside], s.t_s, s.xy_mm[:, 0]), np.interp(ts[inside], s.t_s, s.xy_mm[:, 1])], axis=1
                )
                i0 = int(np.searchsorted(s.t_s, t_rest))
                chord = float(np.hypot(*(s.xy_mm[i0 + 1] - s.xy_mm[i0])))
                m_way = np.linalg.norm(way - other[inside], axis=1) - (
                    diameter_mm + cfg.ball_detect_mm + 0.5 * (chord + other_chord[inside])
                )
                margin[inside] = np.minimum(margin[inside], m_way)
    close = moving_at(ts, act_a, act_b) & (margin <= 0.0)
    out: list[Episode] = []
    n = len(ts)
    for i, j in true_runs(close):
        k = i + int(np.argmin(margin[i : j + 1]))
        t_grid = float(ts[max(i - 1, 0)])
        # a ball that left its rest in a gap of its samples was held there through the gap: the
        # two may have met anywhere in it
        t_lo = min(
            [t_grid]
            + [
                t_rest
                for t_rest, t_move in _starts(act_a) + _starts(act_b)
                if t_rest < t_grid and t_move >= float(ts[i])
            ]
        )
        ep = Episode(sa.ball, sb.ball, float(ts[i]), float(ts[j]), float(ts[k]), t_lo, float(ts[min(j + 1, n - 1)]))
        if out and t_grid <= out[-1].t_hi_s:
            # touching the last one: one close approach (the contact may lie between them)
            prev = out[-1]
            k_prev = int(np.searchsorted(ts, prev.t_min_s))
            t_min = prev.t_min_s if margin[k_prev] <= margin[k] else ep.t_min_s
            ep = Episode(sa.ball, sb.ball, prev.t_first_s, ep.t_last_s, t_min, prev.t_lo_s, ep.t_hi_s)
            out[-1] = ep
        else:
            out.append(ep)
    return out


@dataclass(frozen=True)
class _Option:
    t_s: float
    cost: float
    sides: tuple[Side, Side, Side, Side]  # a_in, a_out, b_in, b_out
    boundary: bool  # the best time sits on an end of its split: the contact is in a neighbour
    trust: tuple[bool, bool]  # whose velocity change may be read (a, b)
    striker_out: bool  # first pass: place the striker by its path after (its path before may be spoiled)
    started: tuple[bool, bool] = (False, False)  # (a, b) at rest before the split, moving from its next sample
    off_hint: bool = False  # the piece does not hold the first pass's time


def refine_pair(
    act_a: BallActivity,
    act_b: BallActivity,
    episode: Episode,
    diameter_mm: float,
    cfg: ContactConfig,
    bounds_a: tuple[float, float] = (-math.inf, math.inf),
    bounds_b: tuple[float, float] = (-math.inf, math.inf),
    struck_terms_only: bool = False,
    max_splits: int = 12,
    cue_onset: tuple[BallId, float, float] | None = None,
    others_a: Sequence[float] = (),
    others_b: Sequence[float] = (),
    exclude_s: Sequence[float] = (),
    exclude_window_s: float = 0.0,
    t_hint_s: float | None = None,
) -> Collision | None:
    """The contact of ``episode``, or None when the paths show no impulse between the balls.

    ``bounds_*`` keep each ball's fits inside the given times, and ``others_*`` (times of each
    ball's other contacts) inside its neighbouring contacts around each possible time of this
    one (a split that holds another contact is tried on either side of it); ``exclude_s``: times
    of contacts of this pair already found in the episode (a second one is sought at least
    ``exclude_window_s`` from each); ``t_hint_s``: the time a first pass found (its split, cut at
    other contacts, is preferred: that pass timed a ball struck from rest by its own start, which
    no other contact spoils); ``struck_terms_only``
    (first pass, before the other contacts are known) times a contact on a ball at rest by that
    ball's own start and the paths after, which no other contact of the striker can spoil.
    ``cue_onset`` (ball, from, to): the cue ball's start of the stroke lies in that interval."""
    sa, sb = act_a.samples, act_b.samples
    ka0 = int(np.searchsorted(sa.t_s, episode.t_min_s, side="right") - 1)
    kb0 = int(np.searchsorted(sb.t_s, episode.t_min_s, side="right") - 1)
    ia0 = int(np.searchsorted(sa.t_s, episode.t_first_s, side="left")) - 2
    ia1 = int(np.searchsorted(sa.t_s, episode.t_last_s, side="right")) + 2
    ib0 = int(np.searchsorted(sb.t_s, episode.t_first_s, side="left")) - 2
    ib1 = int(np.searchsorted(sb.t_s, episode.t_last_s, side="right")) + 2
    ta = sa.t_s[max(ia0, 0) : min(ia1, len(sa) - 1) + 1]
    tb = sb.t_s[max(ib0, 0) : min(ib1, len(sb) - 1) + 1]
    cuts = np.union1d(ta, tb)
    if len(cuts) < 2:
        return None
    intervals = list(zip(cuts[:-1], cuts[1:]))
    intervals.sort(key=lambda ab: abs(0.5 * (ab[0] + ab[1]) - episode.t_min_s))
    intervals = intervals[:max_splits]

    def window(act: BallActivity, k_lo: int, k_hi: int, bounds: tuple[float, float]) -> np.ndarray:
        s = act.samples
        idx = np.arange(max(k_lo - cfg.fit_samples + 1, 0), min(k_hi + cfg.fit_samples, len(s) - 1) + 1)
        return idx[(s.t_s[idx] > bounds[0]) & (s.t_s[idx] < bounds[1])]

    kas = [int(np.searchsorted(sa.t_s, a, side="right") - 1) for a, _ in intervals]
    kbs = [int(np.searchsorted(sb.t_s, a, side="right") - 1) for a, _ in intervals]
    win_a = window(act_a, min(kas + [ka0]), max(kas + [ka0]), bounds_a)
    win_b = window(act_b, min(kbs + [kb0]), max(kbs + [kb0]), bounds_b)
    options: list[_Option] = []
    pieces: list[tuple[float, float, int, int]] = []
    for (t_lo, t_hi), ka, kb in zip(intervals, kas, kbs):
        # another contact of either ball inside this split: the contact is before or after it,
        # and the side beyond it is not this contact's path
        cuts_in = sorted({float(o) for o in list(others_a) + list(others_b) if t_lo < o < t_hi})
        ends = [float(t_lo)] + cuts_in + [float(t_hi)]
        pieces += [(p0, p1, ka, kb) for p0, p1 in zip(ends[:-1], ends[1:])]
    for p_lo, p_hi, ka, kb in pieces:
        ba = (
            max([bounds_a[0]] + [o for o in others_a if o <= p_lo]),
            min([bounds_a[1]] + [o for o in others_a if o >= p_hi]),
        )
        bb = (
            max([bounds_b[0]] + [o for o in others_b if o <= p_lo]),
            min([bounds_b[1]] + [o for o in others_b if o >= p_hi]),
        )
        a_lo = max(p_lo, ba[0], bb[0], episode.t_lo_s)
        a_hi = min(p_hi, ba[1], bb[1], episode.t_hi_s)
        if a_hi < a_lo:
            continue
        t_mid = 0.5 * (a_lo + a_hi)
        a_in = make_side(act_a, ka, -1, *ba, cfg, t_ref_s=t_mid)
        a_out = make_side(act_a, ka + 1, +1, *ba, cfg, t_ref_s=t_mid)
        b_in = make_side(act_b, kb, -1, *bb, cfg, t_ref_s=t_mid)
        b_out = make_side(act_b, kb + 1, +1, *bb, cfg, t_ref_s=t_mid)
        if cue_onset is not None and a_lo >= cue_onset[2]:
            # the cue ball was already moving: its rest before the stroke is not where it was
            if act_a.samples.ball is cue_onset[0] and _rest_ended_by(act_a, a_in, cue_onset[1]):
                a_in = EMPTY_SIDE
            if act_b.samples.ball is cue_onset[0] and _rest_ended_by(act_b, b_in, cue_onset[1]):
                b_in = EMPTY_SIDE
        terms = []
        struck_a = a_in.at_rest and a_in.usable and a_out.usable and not a_out.at_rest
        struck_b = b_in.at_rest and b_in.usable and b_out.usable and not b_out.at_rest
        only_struck = struck_terms_only and (struck_a != struck_b)
        for x_in, x_out, struck in ((a_in, a_out, struck_a), (b_in, b_out, struck_b)):
            if x_in.usable and x_out.usable and (not only_struck or struck):
                terms.append(meet_term(usable_path(x_in), usable_path(x_out)))
        if a_in.usable and b_in.usable and not only_struck:
            terms.append(distance_term(usable_path(a_in), usable_path(b_in), diameter_mm, cfg.diameter_sigma_mm))
        if a_out.usable and b_out.usable:
            terms.append(distance_term(usable_path(a_out), usable_path(b_out), diameter_mm, cfg.diameter_sigma_mm))
        # a ball with one side spoiled (another contact, or the stroke, in the same sample gap):
        # its clean side against the other ball's side that is left
        for x, y in ((a_in, b_out), (a_out, b_in)):
            if x.usable and y.usable and not (a_in.usable and b_in.usable) and not (a_out.usable and b_out.usable):
                terms.append(distance_term(usable_path(x), usable_path(y), diameter_mm, cfg.diameter_sigma_mm))
        # a ball struck from rest and seen once before its next contact: it left its rest
        # position toward that sample, so the other ball was 2R behind, on that line
        for x_in, x_out, act, others_sides in (
            (a_in, a_out, act_a, (b_in, b_out)),
            (b_in, b_out, act_b, (a_in, a_out)),
        ):
            if x_in.usable and x_in.at_rest and x_out.fit is None and x_out.n == 1:
                p1 = act.samples.xy_mm[int(x_out.idx[0])]
                for y in others_sides:
                    if y.usable and not y.at_rest:
                        terms.append(_launch_term(usable_path(y), usable_path(x_in).pos(a_lo), p1, diameter_mm, cfg))
        if not terms:
            continue
        t_c, j = solve_time(terms, a_lo, a_hi)
        wa = win_a[(sa.t_s[win_a] > ba[0]) & (sa.t_s[win_a] < ba[1])]
        wb = win_b[(sb.t_s[win_b] > bb[0]) & (sb.t_s[win_b] < bb[1])]
        cost = robust_cost(act_a, wa, (a_in, a_out), cfg) + robust_cost(act_b, wb, (b_in, b_out), cfg) + j
        trust_ab = [struck_a, struck_b] if only_struck else [True, True]
        if cue_onset is not None:
            for i, (act, x_in) in enumerate(((act_a, a_in), (act_b, b_in))):
                if act.samples.ball is cue_onset[0] and x_in.at_rest and cue_onset[1] <= p_hi and p_lo <= cue_onset[2]:
                    trust_ab[i] = False  # the cue started this ball, not the other one
        trust = (trust_ab[0], trust_ab[1])
        eps = 1e-6 * max(1.0, a_hi - a_lo)
        boundary = t_c <= a_lo + eps or t_c >= a_hi - eps
        started_ab = [
            x_in.at_rest
            and x_in.usable
            and k + 1 < len(act.samples)
            and segment_of(act, k + 1)[:2] == ("motion", k + 1)
            for act, x_in, k in ((act_a, a_in, ka), (act_b, b_in, kb))
        ]
        started = (started_ab[0], started_ab[1])
        off_hint = t_hint_s is not None and not (p_lo - 1e-9 <= t_hint_s <= p_hi + 1e-9)
        options.append(_Option(t_c, cost, (a_in, a_out, b_in, b_out), boundary, trust, only_struck, started, off_hint))
    if exclude_s:  # a further contact must stand on its own: inside its split, apart from the others
        options = [o for o in options if not o.boundary and all(abs(o.t_s - x) > exclude_window_s for x in exclude_s)]
    options.sort(key=lambda o: (o.boundary, o.off_hint, o.cost))
    for opt in options[:3]:
        found = _validate(act_a, act_b, opt, diameter_mm, cfg)
        if found is not None:
            return found
    return None


def _impulse(
    dv: tuple[np.ndarray, float] | None, sign: float, side_in: Side, side_out: Side, u: np.ndarray
) -> tuple[float, float] | None:
    """A ball's velocity change ``dv`` (:func:`velocity_change`) along ``u`` (a to b; ``sign`` -1
    for a, +1 for b: positive away from the other ball) and its variance (at least 1), or None
    where none can be read (no change measured, or the ball rested on both sides)."""
    if dv is None or (side_in.at_rest and side_out.at_rest):
        return None
    return sign * float(dv[0] @ u), max(dv[1], 1.0)


def _launch_term(
    striker: PathFit, rest_mm: np.ndarray, first_mm: np.ndarray, diameter_mm: float, cfg: ContactConfig
) -> Term:
    """The striker's path passes, at the contact, 2R behind the struck ball's rest position on
    the line from there to the struck ball's first sample after (its direction known to the
    noise over that distance)."""
    d = first_mm - rest_mm
    dist = max(float(np.hypot(*d)), 1e-6)
    target = rest_mm - diameter_mm * d / dist
    extra = (diameter_mm * cfg.noise_mm / dist) ** 2 + cfg.noise_mm**2

    def term(t: float) -> tuple[float, float]:
        return float(np.hypot(*(striker.pos(t) - target))), striker.pos_var(t) + extra

    def grid(ts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        p, v = striker.pos_and_var_at(ts)
        return np.hypot(p[:, 0] - target[0], p[:, 1] - target[1]), v + extra

    return with_grid(term, grid)


def _rest_ended_by(act: BallActivity, side: Side, t_s: float) -> bool:
    """Whether ``side`` is a rest run that ends with a start at ``t_s`` (the start falls between
    its second-last sample and the first moving one: the stroke's onset is sought there)."""
    if not (side.usable and side.at_rest):
        return False
    s = act.samples
    i0, last = int(side.idx[0]), int(side.idx[-1])  # the side may end with a first moving sample read as rest
    run = next((r for r in act.runs if r.i0 <= i0 <= r.i1), None)
    if run is None or last + 1 >= len(s):
        return False
    return float(s.t_s[max(run.i1 - 1, run.i0)]) <= t_s <= float(s.t_s[last + 1])


def _pos(side_in: Side, side_out: Side, t: float, prefer_out: bool = False) -> np.ndarray | None:
    if prefer_out and side_out.usable:
        return side_out.path.pos(t)  # type: ignore[union-attr]
    if side_in.usable:
        return side_in.path.pos(t)  # type: ignore[union-attr]
    if side_out.usable:
        return side_out.path.pos(t)  # type: ignore[union-attr]
    return None


def _validate(
    act_a: BallActivity, act_b: BallActivity, opt: _Option, diameter_mm: float, cfg: ContactConfig
) -> Collision | None:
    a_in, a_out, b_in, b_out = opt.sides
    t = opt.t_s
    pa = _pos(a_in, a_out, t, opt.striker_out and not opt.trust[0])
    pb = _pos(b_in, b_out, t, opt.striker_out and not opt.trust[1])
    if pa is None or pb is None:
        return None
    d = float(np.linalg.norm(pb - pa))
    if abs(d - diameter_mm) > cfg.ball_gap_tol_mm or d < 1e-6:
        return None
    u = (pb - pa) / d
    if (a_in.at_rest and a_out.at_rest) or (b_in.at_rest and b_out.at_rest):
        return None  # a ball that did not move was not struck, nor struck anything
    impulses: list[tuple[float, float]] = []
    # each ball's velocity change along the line of centres, away from the other (+), and its
    # variance; None where it cannot be read
    read = (
        _impulse(velocity_change(a_in, a_out, t), -1.0, a_in, a_out, u),
        _impulse(velocity_change(b_in, b_out, t), 1.0, b_in, b_out, u),
    )
    pushed = tuple(
        r is not None and r[0] >= max(cfg.min_impulse_mm_s, cfg.significance_sd * math.sqrt(r[1])) for r in read
    )
    # a ball that left its rest in this gap while the other was turned away from it, at touching
    # distance, was struck, whatever way it went: its path after the gap may bear further
    # contacts of the same gap (a break's apex ball meets the balls behind it a millisecond after
    # the cue ball meets it), so its own turn is not asked to point away from the striker
    turned = (pushed[1] and opt.started[0], pushed[0] and opt.started[1])
    for r, trusted, struck in zip(read, opt.trust, turned):
        if r is None or not trusted or struck:
            continue
        j, var = r
        if j < -cfg.significance_sd * math.sqrt(var) - cfg.min_impulse_mm_s:
            return None  # this ball was pushed toward the other: not a contact between them
        impulses.append((j, var))
    if impulses:
        wsum = sum(1.0 / v for _, v in impulses)
        j_all = sum(j / v for j, v in impulses) / wsum
        sd_all = math.sqrt(1.0 / wsum)
        if j_all < max(cfg.min_impulse_mm_s, cfg.significance_sd * sd_all):
            return None
        strength = 0.4 + 0.6 * score(-j_all / sd_all, -8.0, -cfg.significance_sd)
    elif any(
        st and tr and any(x.usable and not x.at_rest for x in other)
        for st, tr, other in (
            (opt.started[0], opt.trust[0], (b_in, b_out)),
            (opt.started[1], opt.trust[1], (a_in, a_out)),
        )
    ):
        # no velocity change can be read (each ball's other side is spoiled by another contact
        # in the same gap), but one ball left its rest in this gap with the other, moving, 2R
        # from it (and not the cue ball by its stroke): that start is the evidence, weaker than
        # a measured impulse
        strength = 0.5
    else:
        return None

    # who struck whom: the ball at rest was struck; of two moving balls, the faster one just
    # before the contact struck (the convention of the simulator's truth, synth.physics)
    def speed(side_in: Side) -> float:
        if side_in.at_rest:
            return 0.0
        if side_in.usable:
            return float(np.linalg.norm(side_in.fit.vel(t)))  # type: ignore[union-attr]
        return math.nan

    ua, ub = speed(a_in), speed(b_in)
    if math.isnan(ua) and math.isnan(ub):
        striking_a = True
    elif math.isnan(ua):
        striking_a = ub == 0.0
    elif math.isnan(ub):
        striking_a = ua > 0.0
    else:
        striking_a = ua >= ub
    sa, sb = act_a.samples, act_b.samples
    balls = (sa.ball, sb.ball) if striking_a else (sb.ball, sa.ball)
    mid = 0.5 * (pa + pb)
    n_sides = sum(1 for sd in opt.sides if sd.usable)
    gaps = []
    for s, side_in in ((sa, a_in), (sb, b_in)):
        k = int(np.searchsorted(s.t_s, t, side="right") - 1)
        if 0 <= k < len(s) - 1:
            # a ball at rest until the contact is known where it was through its silence (a
            # sparse recorder reports a resting ball only once it moves): only the time from the
            # contact to its first moving sample leaves its start unseen
            gaps.append(float(s.t_s[k + 1] - (t if side_in.at_rest else s.t_s[k])))
    gap = max(gaps) if gaps else 1.0
    bridged = any(
        0 <= (k := int(np.searchsorted(s.t_s, t, side="right") - 1)) < len(s) and bool(s.bridged_after[k])
        for s in (sa, sb)
    )
    conf = (
        strength
        * (0.4 + 0.6 * score(abs(d - diameter_mm), 3.0, cfg.ball_gap_tol_mm))
        * (0.5 + 0.5 * min(1.0, n_sides / 4.0))
        * (0.4 + 0.6 * score(gap, 0.1, 1.5))
        * (0.6 if bridged else 1.0)
    )
    return Collision(
        balls=balls, t_s=float(t), pos_mm=(float(mid[0]), float(mid[1])), confidence=float(np.clip(conf, 0.05, 1.0))
    )


_REST_NOISE_SIGMAS = 5.0  # how far (in noise) a sample may lie from a rest and still be read as it


def onset_time(act: BallActivity, first_moving: int, cfg: ContactConfig, hi_t: float = math.inf) -> tuple[float, float]:
    """When a ball at rest before sample ``first_moving`` started: the time its path after meets
    its rest position, and a confidence. The first moving sample may be rest noise that only
    looked like motion, so the start is also sought one sample later; the split whose fits
    explain the samples better wins. ``hi_t``: the ball's next contact (the path after it is
    another path)."""
    s = act.samples
    if first_moving - 1 < 0:
        return float(s.t_s[first_moving]), 0.3
    best: tuple[bool, float, float, float] | None = None  # (boundary, cost, t, confidence)
    window = np.arange(max(first_moving - cfg.fit_samples, 0), min(first_moving + cfg.fit_samples + 1, len(s)))
    for k in (first_moving - 1, first_moving):
        if k + 1 >= len(s):
            continue
        rest = make_side(act, k, -1, -math.inf, math.inf, cfg)
        out = make_side(act, k + 1, +1, -math.inf, hi_t, cfg)
        if k == first_moving:  # read sample k as rest
            rest_idx = np.arange(max(k - cfg.rest_fit_samples + 1, 0), k + 1)
            if act.runs and not any(r.i0 <= k - 1 <= r.i1 for r in act.runs):
                continue
            if (
                float(np.hypot(*(s.xy_mm[k] - np.median(s.xy_mm[rest_idx[:-1]], axis=0))))
                > _REST_NOISE_SIGMAS * cfg.noise_mm
            ):
                continue  # too far from the rest to be its noise (a start hidden in a gap)
            fit = fit_path(s.t_s[rest_idx], s.xy_mm[rest_idx], noise_mm=cfg.noise_mm, stationary=True)
            rest = Side(fit, True, rest_idx, float(s.t_s[k]))
        if not rest.usable or not out.usable or out.at_rest:
            continue
        t1 = float(s.t_s[k + 1])
        # the ball was faster before its first moving sample: it left its rest position less than
        # (distance / speed there) earlier; twice that bounds the search (a long silence before)
        dist = float(np.linalg.norm(out.fit.pos(t1) - rest.fit.pos(t1)))  # type: ignore[union-attr]
        speed = float(np.linalg.norm(out.fit.vel(t1)))  # type: ignore[union-attr]
        lo = float(s.t_s[k])
        if speed > 1e-6:
            lo = max(lo, t1 - 2.0 * dist / speed)
        t, j = solve_time([meet_term(rest.path, out.path)], lo, t1)  # type: ignore[arg-type]
        cost = robust_cost(act, window, (rest, out), cfg) + j
        boundary = t >= t1 - 1e-9 or t <= float(s.t_s[k]) + 1e-9
        gap = t1 - float(s.t_s[k])
        conf = (0.5 + 0.5 * min(1.0, out.n / 3.0)) * (0.4 + 0.6 * score(gap, 0.1, 2.0))
        cand = (boundary, cost, t, float(np.clip(conf, 0.05, 1.0)))
        if best is None or cand[:2] < best[:2]:
            best = cand
    if best is None:
        return float(s.t_s[first_moving]), 0.5
    return best[2], best[3]


def nudges(
    act_a: BallActivity, act_b: BallActivity, t0_s: float, t1_s: float, diameter_mm: float, cfg: ContactConfig
) -> list[Collision]:
    """Contacts too light to move ball ``a`` out of its rest tolerance: ``b`` passes within 2R of
    ``a`` resting, and ``a``'s rest position after differs from before, away from ``b``, by more
    than ``nudge_min_mm`` and ``nudge_sd`` standard errors of the two means. Timed where
    ``b``'s path reaches 2R from ``a``'s first position; a low confidence (millimetres decide).
    Sources that report only moves of a centimetre or more cannot show such a contact."""
    sa, sb = act_a.samples, act_b.samples
    out: list[Collision] = []
    if len(sb) < 3:
        return out
    spans: list[RestRun] = []  # rest runs that touch (no motion between) are one stay
    for r in act_a.runs:
        if spans and r.i0 == spans[-1].i1 + 1:
            spans[-1] = RestRun(spans[-1].i0, r.i1, spans[-1].t_first_s, r.t_last_s, spans[-1].pos_mm)
        else:
            spans.append(r)
    for r in spans:
        if r.t_last_s < t0_s or r.t_first_s > t1_s or r.i1 - r.i0 < 5:
            continue
        mask = (sb.t_s >= max(r.t_first_s, t0_s)) & (sb.t_s <= min(r.t_last_s, t1_s))
        kb = np.flatnonzero(mask)
        if len(kb) < 3:
            continue
        ka = np.searchsorted(sa.t_s, sb.t_s[kb], side="right") - 1
        d = np.linalg.norm(sb.xy_mm[kb] - sa.xy_mm[np.clip(ka, r.i0, r.i1)], axis=1)
        j = int(np.argmin(d))
        k = int(kb[j])
        chord = max(
            float(np.linalg.norm(sb.xy_mm[min(k + 1, len(sb) - 1)] - sb.xy_mm[k])),
            float(np.linalg.norm(sb.xy_mm[k] - sb.xy_mm[max(k - 1, 0)])),
        )
        if d[j] > diameter_mm + cfg.ball_detect_mm + 0.5 * chord:
            continue
        t_star = float(sb.t_s[k])
        ia = np.arange(r.i0, r.i1 + 1)
        ta = sa.t_s[ia]
        before = ia[(ta < t_star - cfg.fit_window_s * 0.25) & (ta >= t_star - cfg.nudge_window_s)]
        after = ia[(ta > t_star + cfg.fit_window_s * 0.25) & (ta <= t_star + cfg.nudge_window_s)]
        if len(before) < 3 or len(after) < 3:
            continue
        p0, p1 = sa.xy_mm[before].mean(axis=0), sa.xy_mm[after].mean(axis=0)
        shift = p1 - p0
        size = float(np.linalg.norm(shift))
        se = cfg.noise_mm * math.sqrt(1.0 / len(before) + 1.0 / len(after))
        away = p0 - sb.xy_mm[k]
        away = away / max(float(np.linalg.norm(away)), 1e-9)
        if size < max(cfg.nudge_min_mm, cfg.nudge_sd * se) or float(shift @ away) < 0.7 * size:
            continue
        side = make_side(act_b, k, -1, -math.inf, math.inf, cfg, t_ref_s=t_star)
        t_c = t_star
        if side.fit is not None:
            rest = p0

            # solved for within this iteration: the loop's rest is the one meant
            def term(t: float, f: PathFit = side.fit) -> tuple[float, float]:
                return float(np.linalg.norm(f.pos(t) - rest) - diameter_mm), f.pos_var(t) + cfg.diameter_sigma_mm**2  # noqa: B023

            lo = float(sb.t_s[max(k - 1, 0)])
            hi = float(sb.t_s[min(k + 1, len(sb) - 1)])
            t_c, _ = solve_time([term], lo, hi)
        mid = p0 + 0.5 * diameter_mm * (-away)
        conf = 0.25 + 0.3 * score(-size / se, -3.0 * cfg.nudge_sd, -cfg.nudge_sd)
        out.append(Collision((sb.ball, sa.ball), float(t_c), (float(mid[0]), float(mid[1])), float(conf)))
    return out
