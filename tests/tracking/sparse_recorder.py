"""A sparse recorder, as another tracking system writes trajectories (DESIGN.md "What real inputs
look like"): every ball reported at the recording's start (which is the stroke), then each ball
only at the ticks (``pace_s``) at which it has moved ``step_mm`` since its last report, and every
ball once more at the end (re-measured: a few millimetres off). Paths are piecewise linear
(keyframes), enough for segmentation and contact tests; the physics is not the point here."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tracking.ids import BallId
from tracking.trajectory import Trajectory


@dataclass(frozen=True)
class Path2D:
    """A ball's centre over time: linear between ``keys`` of (t_s, x_mm, y_mm), held after the last."""

    keys: tuple[tuple[float, float, float], ...]

    def at(self, t: float) -> np.ndarray:
        k = np.array(self.keys, dtype=float)
        return np.array([np.interp(t, k[:, 0], k[:, 1]), np.interp(t, k[:, 0], k[:, 2])])


def record(
    paths: dict[BallId, Path2D], t_end_s: float, pace_s: float = 0.02, step_mm: float = 10.0, closing_mm: float = 3.0
) -> dict[BallId, Trajectory]:
    """The sparse recorder's trajectories of ``paths`` over ``0..t_end_s``."""
    ticks = np.arange(0.0, t_end_s, pace_s)
    out: dict[BallId, Trajectory] = {}
    for ball, path in paths.items():
        rows = [(0.0, *path.at(0.0))]
        for t in ticks[1:]:
            p = path.at(float(t))
            if np.hypot(p[0] - rows[-1][1], p[1] - rows[-1][2]) >= step_mm:
                rows.append((float(t), float(p[0]), float(p[1])))
        last = path.at(t_end_s)
        rows.append((t_end_s, float(last[0]) + closing_mm, float(last[1])))
        a = np.array(rows)
        n = len(a)
        out[ball] = Trajectory(ball, a[:, 0], np.arange(n), a[:, 1], a[:, 2], np.ones(n, bool), np.ones(n))
    return out


def struck_from_rest(
    t_contact_s: float, cue_speed_mm_s: float = 2000.0, struck_speed_mm_s: float = 1200.0
) -> tuple[dict[BallId, Path2D], float]:
    """The white struck at t = 0 from (400, 700) along +x; the red at rest ahead, touched at
    ``t_contact_s`` (a cut: it leaves along the line of centres); the yellow at rest far away.
    Returns the paths and the contact time."""
    D = 61.5
    w0 = np.array([400.0, 700.0])
    wc = w0 + np.array([cue_speed_mm_s * t_contact_s, 0.0])  # the white's centre at the contact
    u = np.array([np.cos(np.radians(35.0)), np.sin(np.radians(35.0))])  # line of centres, white -> red
    red = wc + D * u
    red_end = red + u * struck_speed_mm_s * 0.6
    w_dir = np.array([u[1], -u[0]])  # the white leaves square to it
    w_end = wc + w_dir * 600.0
    paths = {
        BallId.WHITE: Path2D(((0.0, *w0), (t_contact_s, *wc), (t_contact_s + 0.8, *w_end))),
        BallId.RED: Path2D(((0.0, *red), (t_contact_s, *red), (t_contact_s + 0.6, *red_end))),
        BallId.YELLOW: Path2D(((0.0, 2300.0, 300.0),)),
    }
    return paths, t_contact_s
