"""CameraModel.project: the NumPy path for many points is OpenCV's projectPoints, point for point."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from calib_frames import overhead_camera

from calibration.camera import MANY_POINTS, CameraModel
from calibration.table import load_table

TABLE = load_table("carom")


def _opencv(cam: CameraModel, pts: np.ndarray) -> np.ndarray:
    """projectPoints point by point in small batches (below MANY_POINTS: OpenCV's path)."""
    return np.vstack([cam.project(pts[i : i + 512]) for i in range(0, len(pts), 512)])


# (image w, h, camera height mm, tilt deg, roll deg, k1, k2)
CAMERAS = [
    (1920, 1080, 3600, 0.0, 0.0, 0.0, 0.0),
    (1280, 720, 3000, 12.0, 3.0, -0.15, 0.0),
    (1920, 1080, 4500, 40.0, -5.0, 0.05, 0.0),
    (1024, 576, 2500, 60.0, 1.0, -0.08, 0.02),
]


@pytest.mark.parametrize("w, h, height_mm, tilt, roll, k1, k2", CAMERAS)
def test_many_points_project_as_opencv_projects_them(w, h, height_mm, tilt, roll, k1, k2) -> None:
    cam = overhead_camera(TABLE, w, h, height_mm, tilt_deg=tilt, roll_deg=roll, k1=k1)
    cam = dataclasses.replace(cam, k2=k2)
    rng = np.random.default_rng(7)
    n = 2 * MANY_POINTS
    pts = np.column_stack(
        [rng.uniform(-300, TABLE.length_mm + 300, n), rng.uniform(-300, TABLE.width_mm + 300, n), rng.uniform(0, 60, n)]
    )
    np.testing.assert_allclose(cam.project(pts), _opencv(cam, pts), rtol=0, atol=1e-9)
