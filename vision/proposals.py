"""Ball proposals from the cloth: where the view differs from the cloth like a ball would.

Contract: :func:`ball_proposals` (rectified view, ball radius in view px) -> candidate centres
(u, v) in view px and a strength each, strongest first, at most ``max_n``. A proposal is only a
place to look: the identity classifier of :mod:`vision.yolo` decides whether a ball is there
(its ``none`` class), and its centre regression moves the proposal onto the ball.

Why: the YOLO finder sees the whole table at ~0.22 px/mm, where a snooker ball is ~9 px; it
misses dark balls on dark cloth and most balls of a packed rack (measured on held-out views:
snooker recall 0.855, 5 of 15 reds of the break-off pack). The rectified view fixes a ball's size,
so a ball is simply a disc of known radius that differs from the cloth; this finds such discs
cheaply at a scale where a ball is ~4 px in radius:

1. a cloth model: the Lab view median-filtered over ~16 ball radii (a rack of 15 reds covers
   less than a fifth of such a window, so it vanishes from the median too), at a quarter of the
   working scale; the lamp's gradient and the cushions' shading stay in it;
2. the difference from it (lightness counted half: shading and shadows are lightness), smoothed
   over a quarter of a radius (more would grow every ball's blob and merge neighbours); pixels above ``threshold`` form a mask, opened with a disc of 0.6 radii so
   that lines, spots and diamonds (narrower than a ball) drop out;
3. each blob of the mask that is one disc (its area about that of the largest disc inside it: a
   ball, however its shadow or glow grew it) gives one proposal at its weighted centroid; a
   larger blob (touching balls, a rack, or a hand or cue over the cloth) is covered by a hexagonal
   grid one radius apart, so that every ball in it has a proposal within 0.58 radii of its centre,
   which the classifier's centre regression (trained to half a radius) pulls onto it; the
   duplicates that converge on one ball are merged by the caller.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import cv2
import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from vision.rectify import RectifiedGeometry


@dataclass(frozen=True)
class ProposalConfig:
    """``threshold`` in 8-bit Lab units of the smoothed difference (measured on held-out views:
    the 1st percentile at ball centres 12 (snooker) / 21 (pool), the 90th percentile of the cloth
    6 / 10); areas in balls' areas, but ``single_area`` in
    the blob's own largest inscribed disc (the most taken for one ball), ``grid_r`` the spacing of the grid laid over a larger blob in
    ball radii; ``work_r_px`` the ball radius at the working scale."""

    threshold: float = 9.0
    min_area: float = 0.3
    single_area: float = 1.5
    max_area: float = 30.0
    grid_r: float = 1.0
    max_n: int = 120
    work_r_px: float = 4.0
    cloth_window_r: float = 16.0
    open_r: float = 0.6
    lightness_weight: float = 0.5
    darker_weight: float = 0.1
    blur_r: float = 0.25


def lab_difference(
    view_bgr: np.ndarray,
    r_px: float,
    config: ProposalConfig | None = None,
) -> tuple[np.ndarray, int]:
    """The view's Lab difference from the cloth model (float32, per channel) at the working
    scale, and that scale's factor (view px per working px): the shared first step of
    :func:`cloth_difference` here and of :func:`vision.streaks.ball_streaks`, which weigh it
    differently (the resize and colour conversion are most of either's time)."""
    cfg = config or ProposalConfig()
    if r_px <= 0:
        raise ValueError(f"ball proposals: expected a ball radius > 0 px, got {r_px}")
    h, w = view_bgr.shape[:2]
    f = max(1, int(r_px // cfg.work_r_px))
    small = cv2.resize(view_bgr, (max(8, w // f), max(8, h // f)), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    rs = r_px / f
    q = 4
    tiny = cv2.resize(lab, (max(8, lab.shape[1] // q), max(8, lab.shape[0] // q)), interpolation=cv2.INTER_AREA)
    k = max(3, min(int(round(cfg.cloth_window_r * rs / q)) | 1, 255))
    bg = cv2.resize(cv2.medianBlur(tiny, k), (lab.shape[1], lab.shape[0]), interpolation=cv2.INTER_LINEAR)
    return lab.astype(np.float32) - bg.astype(np.float32), f


def weigh_difference(d: np.ndarray, f: int, r_px: float, config: ProposalConfig | None = None) -> np.ndarray:
    """The smoothed difference of a :func:`lab_difference` ``d``: lightness counted by
    ``lightness_weight`` (``darker_weight`` where darker), chroma in full."""
    cfg = config or ProposalConfig()
    wl = np.where(d[..., 0] < 0, cfg.darker_weight, cfg.lightness_weight).astype(np.float32)
    diff = np.sqrt(wl * d[..., 0] ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)
    return cv2.GaussianBlur(diff, (0, 0), max(cfg.blur_r * r_px / f, 0.5))


def cloth_difference(
    view_bgr: np.ndarray,
    r_px: float,
    config: ProposalConfig | None = None,
    lab_diff: tuple[np.ndarray, int] | None = None,
) -> tuple[np.ndarray, int]:
    """The difference from the cloth model at the working scale, and that scale's factor
    (view px per working px); ``lab_diff``: the view's :func:`lab_difference`, when the caller
    has it already."""
    d, f = lab_diff if lab_diff is not None else lab_difference(view_bgr, r_px, config)
    return weigh_difference(d, f, r_px, config), f


def difference_blobs(
    diff: np.ndarray,
    f: int,
    rs: float,
    threshold: float,
    open_r: float,
    region_px: tuple[float, float, float, float] | None = None,
) -> tuple[int, np.ndarray, np.ndarray]:
    """The blobs of a :func:`cloth_difference` ``diff`` (working scale factor ``f``, ball radius
    ``rs`` working px): the pixels above ``threshold``, opened with a disc of ``open_r`` radii
    (lines, spots and diamonds, narrower than a ball, drop out), inside ``region_px`` (u0, v0,
    u1, v1 in view px) if given; OpenCV's 8-connected components (count, labels, stats).
    Shared by the proposals and :func:`vision.streaks.ball_streaks`."""
    mask = (diff > threshold).astype(np.uint8)
    ro = max(1, int(round(open_r * rs)))
    # cv2's stubs type every result as a Mat of any number type: opening keeps the uint8 of its input
    mask = cast(
        "npt.NDArray[np.uint8]",
        cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * ro + 1, 2 * ro + 1))),
    )
    if region_px is not None:
        u0, v0, u1, v1 = (int(round(c / f)) for c in region_px)
        keep = np.zeros_like(mask)
        keep[max(v0, 0) : max(v1, 0), max(u0, 0) : max(u1, 0)] = 1
        mask &= keep
    n, lab, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return int(n), lab, stats


def playing_region(geometry: RectifiedGeometry, r_px: float, inset_r: float = 0.8) -> tuple[float, float, float, float]:
    """(u0, v0, u1, v1) of the rectified view where a ball's centre can lie: the cloth inside the
    cushion noses less ``inset_r`` ball radii (a centre is one radius from the nose at the
    closest; the cushions' own shading is not a ball)."""
    m = geometry.margin_mm * geometry.px_per_mm + inset_r * r_px
    w, h = geometry.size_px
    return m, m, w - 1 - m, h - 1 - m


def _hex_grid(x0: int, y0: int, x1: int, y1: int, step: float) -> tuple[np.ndarray, np.ndarray]:
    """Points of a hexagonal grid of spacing ``step`` covering [x0, x1] x [y0, y1]: every point of
    the plane lies within step / sqrt(3) of one."""
    dy = step * np.sqrt(3.0) / 2.0
    ys = np.arange(y0, y1 + dy, dy)
    xs, yy = [], []
    for i, y in enumerate(ys):
        row = np.arange(x0 + (step / 2.0 if i % 2 else 0.0), x1 + step, step)
        xs.append(row)
        yy.append(np.full(len(row), y))
    return np.concatenate(xs), np.concatenate(yy)


def ball_proposals(
    view_bgr: np.ndarray,
    r_px: float,
    config: ProposalConfig | None = None,
    region_px: tuple[float, float, float, float] | None = None,
    lab_diff: tuple[np.ndarray, int] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Candidate centres u, v (view px) and their strengths (the smoothed difference), strongest
    first; ``region_px`` (u0, v0, u1, v1) bounds where a centre may be (the playing area: the
    cushions' shading is not a ball); ``lab_diff`` the view's :func:`lab_difference` if the
    caller has it. See the module docstring."""
    cfg = config or ProposalConfig()
    diff, f = cloth_difference(view_bgr, r_px, cfg, lab_diff)
    rs = r_px / f
    n, lab, stats = difference_blobs(diff, f, rs, cfg.threshold, cfg.open_r, region_px)
    ball_area = np.pi * rs * rs
    us, vs, ss = [], [], []
    for i in range(1, n):
        x, y, w, h, area = (int(c) for c in stats[i])
        balls = area / ball_area
        if balls < cfg.min_area or balls > cfg.max_area:
            continue  # a speck, or a hand, a sleeve, a cue's shadow: no grid over those
        win = lab[y : y + h, x : x + w] == i
        dw = np.where(win, diff[y : y + h, x : x + w], 0.0)
        # how many discs as thick as the blob it holds: one ball with its shadow or glow is one
        # disc however it grew; touching balls are several
        thick = cv2.distanceTransform(np.pad(win.astype(np.uint8), 1), cv2.DIST_L2, 5).max()
        discs = area / (np.pi * max(float(thick), rs) ** 2)
        if discs <= cfg.single_area:
            yy, xx = np.nonzero(win)
            wgt = dw[yy, xx]
            us.append(np.array([x + float((xx * wgt).sum() / wgt.sum())]))
            vs.append(np.array([y + float((yy * wgt).sum() / wgt.sum())]))
            ss.append(np.array([float(wgt.max())]))
            continue
        # several balls touching (or a hand, a cue): a grid the classifier's regression pulls in
        gx, gy = _hex_grid(0, 0, w - 1, h - 1, cfg.grid_r * rs)
        ix, iy = np.clip(np.round(gx).astype(int), 0, w - 1), np.clip(np.round(gy).astype(int), 0, h - 1)
        on = win[iy, ix]
        us.append(x + gx[on])
        vs.append(y + gy[on])
        ss.append(dw[iy[on], ix[on]].astype(np.float64))
    empty = np.zeros(0, np.float64)
    if not us:
        return empty, empty, empty
    u, v, s = np.concatenate(us), np.concatenate(vs), np.concatenate(ss)
    order = np.argsort(-s, kind="stable")[: cfg.max_n]
    # working px -> view px (pixel centres)
    return (u[order] + 0.5) * f - 0.5, (v[order] + 0.5) * f - 0.5, s[order]
