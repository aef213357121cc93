"""The annotated video rings each ball with a circle of the ball's own size where the camera sees
it (tabletrack/annotate.py ``Overlay.circle_r_px``): a camera low over one end sees the far balls
at a fraction of the near ones' size (real eight-ball game2: one radius for the whole table, from
the lens's height, drew the far circles three times their balls' size)."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.camera import CameraModel
from calibration.table import load_table
from tabletrack.annotate import Overlay
from tracking.ids import BallId

POOL = load_table("pool")
L, W, R = POOL.length_mm, POOL.width_mm, POOL.ball_radius_mm


def _overlay(eye: tuple[float, float, float], scale: float = 1.0) -> Overlay:
    cam = CameraModel.look_at(1024, 576, 900.0, eye, (L / 2, W / 2, 0.0), up_hint=(1.0, 0.0, 0.0), table="pool")
    return Overlay(cam, POOL, scale, [BallId("1"), BallId("2")])


def _drawn_r(ov: Overlay, x: float, y: float) -> tuple[int, float]:
    """The circle's radius, and its ring's extent measured on a drawn blank frame."""
    ov.add_samples(BallId("1"), np.array([0]), np.array([x]), np.array([y]), np.array([True]))
    img = np.zeros((576, 1024, 3), np.uint8)
    ov.draw(img, 0)
    frames, px, _, radii = ov.paths[BallId("1")].view()
    u, v = px[-1]
    row = img[int(round(v)), :, :].max(axis=1)
    lit = np.nonzero(row[: int(round(u))])[0]  # the ring's left edge on the centre's row
    return int(radii[-1]), u - float(lit.min())


def test_far_balls_of_a_camera_over_one_end_get_smaller_circles() -> None:
    ov = _overlay((-1600.0, W / 2, 1100.0))  # high club camera beyond the near short cushion
    near_r, near_extent = _drawn_r(ov, 200.0, W / 2)
    ov2 = _overlay((-1600.0, W / 2, 1100.0))
    far_r, far_extent = _drawn_r(ov2, L - 200.0, W / 2)
    d_near = np.linalg.norm(np.array([200.0, W / 2, R]) - ov.camera.centre_mm)
    d_far = np.linalg.norm(np.array([L - 200.0, W / 2, R]) - ov.camera.centre_mm)
    assert far_r < near_r
    assert (near_r - 3) / (far_r - 3) == pytest.approx(d_far / d_near, rel=0.15)
    # the ring as drawn: its radius plus half its 2-px line and the anti-aliasing
    assert near_r <= near_extent <= near_r + 2.5 and far_r <= far_extent <= far_r + 2.5


@pytest.mark.parametrize("scale", [1.0, 0.5])
def test_an_overhead_camera_rings_a_central_ball_at_its_image_size(scale: float) -> None:
    height = 3500.0
    ov = _overlay((L / 2, W / 2, height), scale)
    r = ov.circle_r_px(np.array([[L / 2, W / 2, R]]))[0]
    assert r == round(R * 900.0 / (height - R) * scale) + 3
