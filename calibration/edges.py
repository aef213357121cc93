"""Measure the table's edges to sub-pixel precision along lines a camera predicts.

Contract: :func:`measure_edges` walks each side of the table at regular steps, projects the nose
line and the cloth/wood edge there with the current camera, and reads a 1-D profile of the frame
across them (along the image normal, half-pixel steps, bilinear). On each profile it finds

- the **cloth/wood edge**: first roughly, as the steepest fall of *cloth-likeness* (the cloth's hue
  and saturation, brightness-blind, so the darker cushion still counts as cloth) within ``window_px``
  of the prediction; then precisely, as the steepest fall of the colour projected on the difference
  between the side's median cushion colour and its median rail colour (a linear channel, so a
  symmetric blur leaves the edge where it was);
- the **nose line**: where the cushion top begins, between the bed and the cloth/wood edge, on
  brightness (see :func:`_nose` for the two looks it takes).

Each edge's position is the centroid of the derivative around its steepest point. A profile whose
step is much weaker than the side's median (a ball, a hand, a cue over the edge) is dropped; what is
left is returned as :class:`~calibration.solve.EdgeObs` for the robust solver, which rejects the
rest. The sides' ends (``corner_margin_mm``) are left out, where the corners' geometry, pockets and
the other side's cushion mix in.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.features import SIDES, side_frame
from calibration.solve import CameraState, EdgeObs
from calibration.table import TableSpec

_STEP_PX = 0.5


@dataclass(frozen=True)
class EdgeImages:
    """The frame as the edge finder reads it: ``bgr`` float32 (H, W, 3) and ``cloth_like`` float32
    (H, W) in 0..1."""

    bgr: np.ndarray
    cloth_like: np.ndarray


def edge_images(image_bgr: np.ndarray, cloth_hue: float, cloth_sat: float, cloth_val: float) -> EdgeImages:
    """The frame as float BGR and its cloth-likeness: 1 within 8 hue steps of the cloth's hue (OpenCV
    0..179), fading to 0 at 16; times a ramp on saturation (0 below 30% of the cloth's, 1 above 50%)
    and on brightness (0 below 12% of the cloth's, 1 above 22%: the dark cushion stays cloth, the
    noise-hued near-black does not). A grey or white cloth (``cloth_hue`` < 0) has no hue: there
    it is a ramp on saturation (1 up to 15 above the cloth's, 0 at 35) times one on brightness (0
    below 30% of the cloth's, 1 above 45%)."""
    import cv2

    hsv = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2HSV).astype(np.float32)
    if cloth_hue < 0:
        # a grey or white cloth (calibration.find_table.GREY_HUE): cloth-like is unsaturated and not
        # dark (the shaded cushion stays cloth; black rails and coloured wood do not)
        like = np.clip(1.0 - (hsv[..., 1] - (cloth_sat + 15.0)) / 20.0, 0.0, 1.0)
        like *= np.clip((hsv[..., 2] - 0.3 * cloth_val) / max(0.15 * cloth_val, 1.0), 0.0, 1.0)
        return EdgeImages(bgr=image_bgr.astype(np.float32), cloth_like=like.astype(np.float32))
    dh = np.abs(hsv[..., 0] - np.float32(cloth_hue))
    dh = np.minimum(dh, 180.0 - dh)
    like = np.clip(1.0 - (dh - 8.0) / 8.0, 0.0, 1.0)
    like *= np.clip((hsv[..., 1] - 0.3 * cloth_sat) / max(0.2 * cloth_sat, 1.0), 0.0, 1.0)
    like *= np.clip((hsv[..., 2] - 0.12 * cloth_val) / max(0.1 * cloth_val, 1.0), 0.0, 1.0)
    return EdgeImages(bgr=image_bgr.astype(np.float32), cloth_like=like.astype(np.float32))


def _sample(img: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    import cv2

    return cv2.remap(
        img, x.astype(np.float32), y.astype(np.float32), interpolation=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def _deriv(p: np.ndarray) -> np.ndarray:
    """Derivative per px along the last axis of profiles sampled every half pixel (±1 px difference)."""
    d = np.zeros_like(p)
    d[..., 2:-2] = (p[..., 4:] - p[..., :-4]) / (4 * _STEP_PX)
    return d


def _peak(d: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the sub-sample index of the maximum of ``d`` within [lo, hi] (indices) and its value."""
    n, m = d.shape
    idx = np.arange(m)[None, :]
    masked = np.where((idx >= lo[:, None]) & (idx <= hi[:, None]), d, -np.inf)
    k = np.argmax(masked, axis=1)
    k = np.clip(k, 1, m - 2)
    rows = np.arange(n)
    y0, y1, y2 = d[rows, k - 1], d[rows, k], d[rows, k + 1]
    den = y0 - 2 * y1 + y2
    off = np.where(np.abs(den) > 1e-12, 0.5 * (y0 - y2) / np.where(np.abs(den) > 1e-12, den, 1.0), 0.0)
    return k + np.clip(off, -1.0, 1.0), y1


def _centroid_edge(d: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row: the peak of ``d`` within sample indices [lo, hi], then the centroid of ``d``'s
    positive part within ±2 px of it (sub-sample index), and the peak's value. The centroid, not the
    parabola through the peak: on a bilinearly sampled profile the parabola's vertex locks to the
    sampling phase (0.15 px measured), the centroid of a derivative does not."""
    k, val = _peak(d, lo, hi)
    rows = np.arange(len(k))
    kk = np.round(k).astype(int)[:, None] + np.arange(-4, 5)[None, :]
    kk = np.clip(kk, 0, d.shape[1] - 1)
    wgt = np.maximum(d[rows[:, None], kk], 0.0)
    sw = wgt.sum(axis=1)
    return np.where(sw > 0, (wgt * kk).sum(axis=1) / np.where(sw > 0, sw, 1.0), k), val


def _median_colour(prof: np.ndarray, at: np.ndarray, lo_px: float, hi_px: float, t0: float) -> np.ndarray:
    """Median over rows of the mean colour between ``at + lo_px`` and ``at + hi_px`` (px, per row)."""
    m = prof.shape[1]
    idx = np.arange(m)[None, :]
    lo = ((at + lo_px - t0) / _STEP_PX)[:, None]
    hi = ((at + hi_px - t0) / _STEP_PX)[:, None]
    sel = (idx >= lo) & (idx <= hi)
    cnt = np.maximum(sel.sum(axis=1), 1)
    means = (prof * sel[..., None]).sum(axis=1) / cnt[:, None]
    return np.median(means[sel.any(axis=1)], axis=0) if sel.any() else np.zeros(prof.shape[2])


def _refine_step(
    prof: np.ndarray,
    rough_t: np.ndarray,
    t0: float,
    inside: tuple[float, float],
    outside: tuple[float, float],
    half_px: float,
    min_rel: float = 0.35,
) -> tuple[np.ndarray, np.ndarray]:
    """Precise edge positions (px along the profile) near ``rough_t`` on the linear channel that
    separates the side's median inside and outside colours; (t, ok)."""
    c_in = _median_colour(prof, rough_t, inside[0], inside[1], t0)
    c_out = _median_colour(prof, rough_t, outside[0], outside[1], t0)
    w = c_in - c_out
    nw = float(w @ w)
    if nw < 36.0:  # no colour step to speak of (less than 6 levels)
        return rough_t, np.zeros(len(rough_t), bool)
    ch = (prof - c_out[None, None, :]) @ (w / nw)  # ~1 inside, ~0 outside
    d = -_deriv(ch)
    lo = np.floor((rough_t - half_px - t0) / _STEP_PX)
    hi = np.ceil((rough_t + half_px - t0) / _STEP_PX)
    k, val = _centroid_edge(d, lo, hi)
    t = t0 + k * _STEP_PX
    med = float(np.median(val)) if len(val) else 0.0
    n = prof.shape[1]
    ki = np.clip(np.round((t - 2.5 - t0) / _STEP_PX).astype(int), 0, n - 1)
    ko = np.clip(np.round((t + 2.5 - t0) / _STEP_PX).astype(int), 0, n - 1)
    rows = np.arange(len(t))
    step = ch[rows, ki] - ch[rows, ko]
    ok = (val > min_rel * med) & (step > 0.5) & (step < 1.6)
    return t, ok


def _nose(prof: np.ndarray, t0: float, window_px: float, t_cw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Nose-line positions (px along the profiles) and validity. The bed, the cushion and whatever
    marks the nose share one hue, so the channel is brightness. Where the cushion top begins there is
    a rise in brightness when the rubber nose catches the light, or when a dark band (a shadow line,
    or a cushion face a renderer shows) ends there; otherwise the plain fall from the bed to the
    darker cushion. Which of the two a side shows is decided once, on the side's median profile: the
    rise where it is at least a third as strong as the fall."""
    lum = prof.sum(axis=2)
    d = _deriv(lum)
    n, m = lum.shape
    lo = np.full(n, np.floor((-window_px - t0) / _STEP_PX))
    hi = np.floor((np.minimum(window_px, t_cw - 2.0) - t0) / _STEP_PX)
    dm = _deriv(np.median(lum, axis=0)[None, :])[0]
    a, b = int(max(lo[0], 0)), int(min(np.median(hi), m - 1))
    if b <= a:
        return np.zeros(n), np.zeros(n, bool)
    rise, fall = float(dm[a : b + 1].max()), float(-dm[a : b + 1].min())
    sign = 1.0 if rise >= fall / 3.0 else -1.0
    k, val = _centroid_edge(sign * d, lo, hi)
    t = t0 + k * _STEP_PX
    med = float(np.median(val)) if n else 0.0
    ok = (val > 0.35 * med) & (val > 8.0) & (t < t_cw - 1.0)
    return t, ok


def _in_pocket(table: TableSpec, xy_mm: np.ndarray) -> np.ndarray:
    """Nose-line points where a pocket cuts the cushion (within half the mouth, its jaws and a
    cushion width of a pocket's mouth centre): no nose line and no cloth/wood edge there."""
    out = np.zeros(len(xy_mm), bool)
    for p in table.pockets:
        reach = 0.5 * p.mouth_mm + p.jaw_radius_mm + table.cushion_width_mm
        out |= np.hypot(xy_mm[:, 0] - p.centre_mm[0], xy_mm[:, 1] - p.centre_mm[1]) <= reach
    return out


def measure_edges(
    images: EdgeImages,
    table: TableSpec,
    state: CameraState,
    *,
    window_px: float,
    spacing_px: float = 6.0,
    corner_margin_mm: float | None = None,
    kinds: tuple[str, ...] = ("nose", "cloth_wood"),
) -> EdgeObs:
    """Edge points of the nose lines and cloth/wood edges near where ``state`` predicts them."""
    H, W = images.cloth_like.shape
    margin = corner_margin_mm if corner_margin_mm is not None else max(state.cushion_mm) + 60.0
    out_side, out_kind, out_s, out_u = [], [], [], []
    for si, side in enumerate(SIDES):
        fr = side_frame(table, side)
        o_n = state.nose_mm[si]
        o_c = o_n + state.cushion_mm[si]
        ends = fr.points(np.array([margin, fr.length_mm - margin]), o_n, table.cushion_nose_height_mm)
        pe = state.project(ends)
        if not np.all(np.isfinite(pe)):
            continue
        n = int(np.clip(np.hypot(*(pe[1] - pe[0])) / spacing_px, 8, 2000))
        s = np.linspace(margin, fr.length_mm - margin, n)
        s = s[~_in_pocket(table, fr.points(s, 0.0, 0.0)[:, :2])]
        if len(s) < 8:
            continue
        a_n = state.project(fr.points(s, o_n, table.cushion_nose_height_mm))
        a_c = state.project(fr.points(s, o_c, table.rail_height_mm))
        tan = state.project(fr.points(s + 20.0, o_n, table.cushion_nose_height_mm)) - a_n
        nrm = np.column_stack([-tan[:, 1], tan[:, 0]])
        nrm /= np.maximum(np.hypot(nrm[:, 0], nrm[:, 1]), 1e-9)[:, None]
        flip = np.sign(np.sum(nrm * (a_c - a_n), axis=1))
        nrm *= np.where(flip == 0, 1.0, flip)[:, None]
        d_cw = np.sum(nrm * (a_c - a_n), axis=1)
        if not np.all(np.isfinite(d_cw)) or np.median(d_cw) < 2.0:
            continue  # the cushion is less than 2 px wide here: nothing to measure
        dcw = float(np.median(d_cw))
        t0 = -(window_px + 8.0)
        t1 = dcw + window_px + 8.0
        ts = np.arange(t0, t1 + 1e-9, _STEP_PX)
        X = a_n[:, 0:1] + ts[None, :] * nrm[:, 0:1]
        Y = a_n[:, 1:2] + ts[None, :] * nrm[:, 1:2]
        inside = (X.min(axis=1) >= 1) & (X.max(axis=1) <= W - 2) & (Y.min(axis=1) >= 1) & (Y.max(axis=1) <= H - 2)
        if inside.sum() < 8:
            continue
        X, Y, s, a_n, nrm, d_cw = X[inside], Y[inside], s[inside], a_n[inside], nrm[inside], d_cw[inside]
        prof = _sample(images.bgr, X, Y)  # (n, m, 3)
        like = _sample(images.cloth_like, X, Y)  # (n, m)
        # cloth/wood edge: steepest fall of cloth-likeness near the prediction, then the linear channel
        d_like = -_deriv(like)
        lo = np.floor((d_cw - window_px - t0) / _STEP_PX)
        hi = np.ceil((d_cw + window_px - t0) / _STEP_PX)
        k, _ = _peak(d_like, lo, hi)
        rough_cw = t0 + k * _STEP_PX
        narrow = min(6.0, max(2.5, 0.25 * dcw))
        t_cw, ok_cw = _refine_step(prof, rough_cw, t0, (-narrow - 2.0, -1.5), (1.5, narrow + 2.0), half_px=2.0)
        t_n, ok_n = _nose(prof, t0, window_px, t_cw)
        for kind_i, kind, t_e, ok in ((0, "nose", t_n, ok_n), (1, "cloth_wood", t_cw, ok_cw)):
            if kind not in kinds or not ok.any():
                continue
            u = a_n[ok] + t_e[ok, None] * nrm[ok]
            out_side.append(np.full(int(ok.sum()), si))
            out_kind.append(np.full(int(ok.sum()), kind_i))
            out_s.append(s[ok])
            out_u.append(u)
    if not out_s:
        return EdgeObs.empty()
    return EdgeObs(np.concatenate(out_side), np.concatenate(out_kind), np.concatenate(out_s), np.vstack(out_u))
