"""The rectifier's maps are made a band of rows at a time (vision/rectify.py: the whole view's
points at once cost 0.3-0.4 s of page faults in a fresh process); they are the maps of the whole
view's points projected at once, to the bit, for every table and view width."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.rectify import Rectifier


@pytest.mark.parametrize(
    ("table_name", "px_per_mm", "image_wh"),
    [
        ("carom", 0.5, (1920, 1080)),
        ("carom", 0.6, (1920, 1080)),  # 889 rows: bands of 37 would leave one row to project alone
        ("pool", 0.5, (1280, 720)),
        ("snooker", 0.5, (1280, 720)),
        ("pool", 1.0, (960, 540)),
    ],
)
def test_banded_maps_equal_the_whole_views(table_name: str, px_per_mm: float, image_wh: tuple[int, int]) -> None:
    from calibration.table import load_table
    from synth.render.cameras import broadcast_camera

    table = load_table(table_name)
    cam = broadcast_camera(table, *image_wh)
    rect = Rectifier(cam, table, px_per_mm)
    w, h = rect.geometry.size_px
    uu, vv = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
    x, y = rect.geometry.uv_to_mm(uu.ravel(), vv.ravel())
    px = cam.project(np.column_stack([x, y, np.full_like(x, rect.geometry.z_mm)])).astype(np.float32)
    m1, m2 = cv2.convertMaps(px[:, 0].reshape(h, w), px[:, 1].reshape(h, w), cv2.CV_16SC2)
    assert np.array_equal(rect._m1, m1) and np.array_equal(rect._m2, m2)
