"""The lamp box over the table: irradiance of surfaces and how much of each lamp a ball hides.

Contract: lighting is expressed relative to the irradiance of the bed at the table centre, so that
a surface of albedo ``a`` (BGR 0..255 as seen at the centre) lit by ``E`` shows ``a * (ambient + E)
/ (ambient + 1)``; every module (static scene, balls, shadows) uses the same lamps and the same
normalisation, so that a shadow removes exactly the light the scene was drawn with. Lamps are small
discs facing down; their light falls off with the inverse square and the cosine of incidence.
"""

from __future__ import annotations

import numpy as np

from calibration.table import TableSpec
from synth.render.style import Lamp, RenderStyle


def default_lamps(table: TableSpec) -> tuple[Lamp, ...]:
    """Two rows of four lamps 1 m over the bed, as a match lamp box: brightest over the middle of
    the table, falling off towards the corners."""
    L, W = table.length_mm, table.width_mm
    return tuple(
        Lamp(x_mm=L * (2 * i + 1) / 8.0, y_mm=W * fy, z_mm=1000.0, power=1.0, radius_mm=140.0)
        for i in range(4)
        for fy in (0.3, 0.7)
    )


def lamps_of(style: RenderStyle, table: TableSpec) -> tuple[Lamp, ...]:
    return style.lamps if style.lamps else default_lamps(table)


class Lighting:
    """Lamp positions and powers, with the normalisation of the bed at the table centre."""

    def __init__(self, lamps: tuple[Lamp, ...], table: TableSpec, ambient: float) -> None:
        if not lamps:
            raise ValueError("lighting: expected at least one lamp, got none")
        self.pos_mm = np.array([[lamp.x_mm, lamp.y_mm, lamp.z_mm] for lamp in lamps], dtype=np.float64)
        self.power = np.array([lamp.power for lamp in lamps], dtype=np.float64)
        self.radius_mm = np.array([lamp.radius_mm for lamp in lamps], dtype=np.float64)
        self.ambient = float(ambient)
        centre = np.array([[table.length_mm / 2.0, table.width_mm / 2.0, 0.0]])
        self._norm = 1.0
        self._norm = float(self.lamp_terms(centre, np.array([0.0, 0.0, 1.0])).sum())

    def lamp_terms(self, pts_mm: np.ndarray, normal: np.ndarray) -> np.ndarray:
        """(N, n_lamps) normalised irradiance each lamp gives points (N, 3) of normal (3,) or (N, 3)."""
        p = np.asarray(pts_mm, np.float64).reshape(-1, 3)
        n = np.asarray(normal, np.float64)
        d = self.pos_mm[None, :, :] - p[:, None, :]
        dist2 = np.einsum("nlk,nlk->nl", d, d)
        cos_n = d @ n if n.ndim == 1 else np.einsum("nlk,nk->nl", d, n.reshape(-1, 3))
        cos_n = np.maximum(cos_n, 0.0) / np.sqrt(dist2)
        cos_l = np.maximum(d[..., 2], 0.0) / np.sqrt(dist2)  # the lamp disc faces down
        return self.power[None, :] * cos_n * cos_l / dist2 / self._norm

    def shade(self, irradiance: np.ndarray) -> np.ndarray:
        """Brightness factor of a surface given its normalised lamp irradiance (1 at the centre)."""
        return (self.ambient + irradiance) / (self.ambient + 1.0)
