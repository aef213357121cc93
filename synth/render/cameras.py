"""Broadcast-like overhead cameras for synthetic clips.

Contract: :func:`broadcast_camera` builds a :class:`~calibration.camera.CameraModel` looking down
at the table centre from ``height_mm`` above the cloth, with the focal length chosen so that the
table's outer rail-to-rail length fills ``fill`` of the frame width (as a match broadcast frames
it), image x along the table's length and the right cushion (y = 0) at the bottom, as
:meth:`CameraModel.look_at` does. ``off_axis_deg`` swings the eye along +y about the table centre
at the same distance (a camera not on the table's axis); ``jitter_deg`` adds a small random tilt
of the eye and ``roll_deg`` a random roll, both drawn from ``rng`` so a seed fixes the camera.
"""

from __future__ import annotations

import math

import numpy as np

from calibration.camera import CameraModel
from calibration.table import TableSpec


def broadcast_camera(
    table: TableSpec,
    width_px: int,
    height_px: int,
    height_mm: float = 3500.0,
    fill: float = 0.86,
    k1: float = 0.0,
    k2: float = 0.0,
    off_axis_deg: float = 0.0,
    jitter_deg: float = 0.0,
    roll_deg: float = 0.0,
    rng: np.random.Generator | None = None,
) -> CameraModel:
    """The camera (see the module docstring); ``rng`` is needed when jitter or roll is asked for."""
    if not 0.2 <= fill <= 1.2:
        raise ValueError(f"fill: expected the rail-to-rail share of the frame width in 0.2..1.2, got {fill}")
    if (jitter_deg or roll_deg) and rng is None:
        raise ValueError("broadcast_camera: jitter or roll asks for a random generator, got rng=None")
    L, W = table.length_mm, table.width_mm
    target = np.array([L / 2.0, W / 2.0, 0.0])
    a = math.radians(off_axis_deg)
    eye = target + height_mm * np.array([0.0, math.sin(a), math.cos(a)])
    up = np.array([0.0, 1.0, 0.0])
    if rng is not None and jitter_deg:
        az = rng.uniform(0.0, 2.0 * math.pi)
        tilt = math.radians(rng.uniform(0.0, jitter_deg))
        target = target + height_mm * math.tan(tilt) * np.array([math.cos(az), math.sin(az), 0.0])
    if rng is not None and roll_deg:
        r = math.radians(rng.uniform(-roll_deg, roll_deg))
        up = np.array([-math.sin(r), math.cos(r), 0.0])
    outer = L + 2.0 * (table.cushion_width_mm + table.rail_width_mm)
    depth = float(np.linalg.norm(eye - target)) - table.rail_height_mm
    fx = fill * width_px * depth / outer
    return CameraModel.look_at(
        width_px, height_px, fx, tuple(eye), tuple(target), tuple(up), k1=k1, k2=k2, table=table.name
    )
