"""Pockets as evidence for a camera: the six holes of a pool or snooker table are dark.

A pocket table's outline alone does not tell its long sides from its short ones when perspective
shortens the length (a broadcast camera behind the head rail sees the table about as wide as it is
long); the side pockets do: they sit in the middle of the long rails. :func:`pocket_darkness`
measures, for a candidate camera, how much darker than the cloth each pocket's hole is where the
camera says it should be, so the solver keeps the hypothesis whose pockets are holes. The holes
are sampled on the slate plane (z = 0) in a disc of half the hole's radius around its centre
(:attr:`calibration.table.PocketSpec.hole_centre_mm`), and the cloth on a ring of points a
quarter of the way in from each pocket, so lighting that falls off toward the rails affects both
alike.
"""

from __future__ import annotations

import numpy as np

from calibration.table import TableSpec

#: A pocket is taken as seen when its hole is at most this fraction of the nearby cloth's brightness.
DARK_RATIO = 0.6


def _disc(centre: tuple[float, float], radius_mm: float, n: int = 3) -> np.ndarray:
    g = np.linspace(-1.0, 1.0, 2 * n + 1)
    gx, gy = np.meshgrid(g, g)
    keep = gx ** 2 + gy ** 2 <= 1.0
    return np.column_stack([centre[0] + radius_mm * gx[keep], centre[1] + radius_mm * gy[keep]])


def _sample(gray: np.ndarray, uv: np.ndarray) -> np.ndarray:
    h, w = gray.shape
    ok = np.all(np.isfinite(uv), axis=1)
    u = np.clip(np.round(uv[:, 0]), 0, w - 1).astype(int)
    v = np.clip(np.round(uv[:, 1]), 0, h - 1).astype(int)
    inside = ok & (uv[:, 0] >= 0) & (uv[:, 0] < w) & (uv[:, 1] >= 0) & (uv[:, 1] < h)
    out = np.full(len(uv), np.nan)
    out[inside] = gray[v[inside], u[inside]]
    return out


def pocket_darkness(gray: np.ndarray, table: TableSpec, state) -> np.ndarray:
    """Per pocket (``table.pockets`` order): the hole's median brightness over the nearby cloth's
    (0 black, 1 as bright as the cloth; NaN where the pocket falls outside the image). ``state``
    is anything with ``project((N, 3) world mm) -> (N, 2) px``."""
    L, W = table.length_mm, table.width_mm
    centre = np.array([L / 2.0, W / 2.0])
    out = np.full(len(table.pockets), np.nan)
    for i, p in enumerate(table.pockets):
        hole = p.hole_centre_mm
        r = max(p.hole_radius_mm, 0.25 * p.mouth_mm)
        P = _disc(hole, 0.5 * r)
        uv = state.project(np.column_stack([P, np.zeros(len(P))]))
        dark = _sample(gray, uv)
        toward = np.asarray(p.centre_mm) + 0.25 * (centre - np.asarray(p.centre_mm))
        C = _disc((float(toward[0]), float(toward[1])), 0.15 * W)
        uvc = state.project(np.column_stack([C, np.zeros(len(C))]))
        cloth = _sample(gray, uvc)
        if np.isnan(dark).mean() > 0.5 or np.isnan(cloth).mean() > 0.5:
            continue
        c = float(np.nanmedian(cloth))
        out[i] = float(np.nanmedian(dark)) / max(c, 1.0)
    return out


def pockets_seen(ratios: np.ndarray) -> int:
    """How many pockets look like holes (:data:`DARK_RATIO`)."""
    return int(np.sum(np.nan_to_num(ratios, nan=1.0) <= DARK_RATIO))
