"""Fast balls as streaks on the rectified view, for the trained detector's pipeline.

Why: at 25-30 fps a ball struck hard crosses several of its diameters while the shutter is open,
so the camera sees a streak: the ball's colour blended with the cloth's along its path, fainter
than the ball. Neither the finder (trained on balls) nor the classifier's crops (a crop of a
streak is mostly cloth) take it for a ball. Measured on a real nine-ball broadcast (2019 World
Pool Championship, 25 fps, dev Clip3): the 2, struck at ~5 m/s into a corner, was a blue streak
on the blue cloth 4.1-4.7 radii long on the four frames it took, was found on none, and the
tracker held it where it had rested for 42 frames. The classical carom detector has its own,
colour-matched streaks (:mod:`vision.classical`); this finds them for any ball set.

Contract: :func:`ball_streaks` (rectified view, ball radius in view px, the playing region)
returns the :class:`Streak` blobs of the view: where it differs from the cloth model of
:func:`vision.proposals.cloth_difference` (darker counted in full: a dark ball's streak is dark)
by a blob as wide as a ball (``width_r`` radii), at least ``min_length_r`` radii long (a ball and
its shadow are ~3) and at most ``max_length_r`` (a table line, a cue on the cloth are longer),
shaped like a stadium (its area that of a stadium of its length and width within ``fill``).
Each gives its middle (the ball at mid-exposure) and the ends of its path (a radius inside each
tip), in view px. What the streak is, and which ball, is for the tracker to say: the detector
reports streaks without a name (unless the finder read the same ball several times along it:
:meth:`vision.yolo.YoloDetector.streak_detections`) and below the score that starts a ball
(:class:`vision.yolo.YoloDetector`), so a streak only continues a ball already followed.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.proposals import ProposalConfig, cloth_difference, difference_blobs


@dataclass(frozen=True)
class StreakConfig:
    """``threshold`` in 8-bit Lab units of the smoothed difference from the cloth model (as
    :class:`vision.proposals.ProposalConfig`, darker lightness counted in full); lengths and
    widths in ball radii; ``fill`` the bounds of the blob's area over its stadium's.
    ``min_length_r`` 3.2 and widths up to 2.8: real dev Clip12's blue 2 after the break, on the
    blue cloth, was a streak 3.2-3.5 radii long and 2.3-2.7 wide on four frames, unseen five
    frames with 3.6 and 2.6 (a ball and its shadow are ~3 long and 2 wide, and a ball the finder
    sees blocks a streak over it: :meth:`vision.yolo.YoloDetector.streak_detections`)."""

    threshold: float = 9.0
    min_length_r: float = 3.2
    max_length_r: float = 12.0
    width_r: tuple[float, float] = (1.6, 2.8)
    fill: tuple[float, float] = (0.8, 1.2)
    open_r: float = 0.6


@dataclass(frozen=True)
class Streak:
    """One streak: its middle ``u_px, v_px`` and path ends ``ends_px`` (u0, v0, u1, v1) in view
    px, and its length in ball radii."""

    u_px: float
    v_px: float
    ends_px: tuple[float, float, float, float]
    length_r: float


def ball_streaks(
    view_bgr: np.ndarray,
    r_px: float,
    region_px: tuple[float, float, float, float] | None = None,
    config: StreakConfig | None = None,
    lab_diff: tuple[np.ndarray, int] | None = None,
) -> list[Streak]:
    """The streaks of the view (see the module docstring), inside ``region_px`` (u0, v0, u1, v1);
    ``lab_diff``: the view's :func:`vision.proposals.lab_difference` if the caller has it, made
    for the same ``r_px`` with the default :class:`vision.proposals.ProposalConfig` (its working
    scale and cloth window; not checked)."""
    cfg = config or StreakConfig()
    diff, f = cloth_difference(view_bgr, r_px, ProposalConfig(darker_weight=1.0), lab_diff)
    rs = r_px / f
    n, lab, stats = difference_blobs(diff, f, rs, cfg.threshold, cfg.open_r, region_px)
    w_lo, w_hi = cfg.width_r
    min_area = (cfg.min_length_r - w_hi) * w_lo * rs * rs + np.pi * (w_lo * rs / 2.0) ** 2
    # the largest stadium the shape test admits: the longest, widest, at the fill's upper bound
    max_area = cfg.fill[1] * (cfg.max_length_r * w_hi - (1.0 - np.pi / 4.0) * w_hi * w_hi) * rs * rs
    out = []
    # the size bounds on every blob at once: most blobs (balls, specks) fail them
    a, longest = stats[:, cv2.CC_STAT_AREA], np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    sized = (a >= min_area) & (a <= max_area) & (longest >= cfg.min_length_r * rs / np.sqrt(2.0))
    sized[0] = False  # the background
    for i in np.flatnonzero(sized):
        x, y, w, h, area = (int(c) for c in stats[i])
        ys, xs = np.nonzero(lab[y : y + h, x : x + w] == i)
        pts = np.column_stack([xs + x, ys + y]).astype(np.float64)
        mean = pts.mean(axis=0)
        _, vec = np.linalg.eigh(np.cov((pts - mean).T))
        axis = vec[:, 1]
        along, across = (pts - mean) @ axis, (pts - mean) @ vec[:, 0]
        a0, a1 = np.percentile(along, [1.0, 99.0])
        c0, c1 = np.percentile(across, [1.0, 99.0])
        length, width = float(a1 - a0) + 1.0, float(c1 - c0) + 1.0
        if not (cfg.min_length_r * rs <= length <= cfg.max_length_r * rs and w_lo * rs <= width <= w_hi * rs):
            continue
        stadium = (length - width) * width + np.pi * (width / 2.0) ** 2
        if not cfg.fill[0] <= area / stadium <= cfg.fill[1]:
            continue
        mid = mean + axis * 0.5 * float(a0 + a1)
        half = max(0.5 * length - 0.5 * width, 0.0)  # the ball's centre a radius inside each tip
        e0, e1 = mid - axis * half, mid + axis * half
        to_view = lambda p: ((float(p[0]) + 0.5) * f - 0.5, (float(p[1]) + 0.5) * f - 0.5)  # noqa: E731
        (mu, mv), (u0_, v0_), (u1_, v1_) = to_view(mid), to_view(e0), to_view(e1)
        out.append(Streak(mu, mv, (u0_, v0_, u1_, v1_), length / rs))
    return out
