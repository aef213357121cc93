"""The model on the camera's own image for an oblique camera (vision/frame_yolo.py): when it is
chosen, where the table is cropped, how big a ball is where the camera sees it, and that a ball
found in the image lands on the table where it is."""

from __future__ import annotations

import math

import numpy as np
import pytest

from calibration.camera import CameraModel
from calibration.table import load_table
from vision.frame_yolo import OBLIQUE_DEG, FrameYoloDetector, ball_image_radius_px, oblique, view_angle_deg

POOL = load_table("pool")
CENTRE = (POOL.length_mm / 2, POOL.width_mm / 2, 0.0)


def _camera(angle_deg: float, dist_mm: float = 3500.0) -> CameraModel:
    a = math.radians(angle_deg)
    eye = (CENTRE[0] - dist_mm * math.sin(a), CENTRE[1], dist_mm * math.cos(a))
    return CameraModel.look_at(
        1024, 576, 900.0, eye, CENTRE, up_hint=(1.0, 0.0, 0.0) if angle_deg < 1 else (0.0, 0.0, 1.0), table="pool_9ft"
    )


@pytest.mark.parametrize("angle,expect", [(0.0, False), (12.0, False), (OBLIQUE_DEG + 5, True), (65.0, True)])
def test_oblique_cameras_use_the_image(angle: float, expect: bool) -> None:
    cam = _camera(angle)
    assert view_angle_deg(cam, POOL) == pytest.approx(angle, abs=0.5)
    assert oblique(cam, POOL) is expect


class _NoModel:
    """Stands in for the YOLO detector where only the geometry is tested."""

    labels = ("cue",)
    min_score = 0.2


def test_crop_holds_the_table_and_ball_size_follows_distance() -> None:
    cam = _camera(65.0, dist_mm=2500.0)
    det = FrameYoloDetector(_NoModel(), cam, POOL)
    corners = cam.project(
        np.array([[0, 0, 0], [POOL.length_mm, 0, 0], [POOL.length_mm, POOL.width_mm, 0], [0, POOL.width_mm, 0]], float)
    )
    inside = [
        (det.x0 <= u <= det.x1 or not 0 <= u <= 1024) and (det.y0 <= v <= det.y1 or not 0 <= v <= 576)
        for u, v in corners
    ]
    assert all(inside)
    R = POOL.ball_radius_mm
    near, far = (300.0, 635.0, R), (2240.0, 635.0, R)
    uv = cam.project(np.array([near, far]))
    r = det.ball_radius_px(uv[:, 0], uv[:, 1])
    for (x, y, z), rp in zip((near, far), r):
        dist = float(np.linalg.norm(np.array([x, y, z]) - cam.centre_mm))
        assert rp == pytest.approx(900.0 * R / dist, rel=0.03)
    assert r[0] > r[1]  # the near end's balls are bigger


def test_the_shipped_model_finds_a_rendered_ball_in_the_image_where_it_is() -> None:
    import cv2

    from vision.rectify import Rectifier
    from vision.yolo import YoloDetector

    cam = _camera(55.0, dist_mm=2600.0)
    img = np.full((576, 1024, 3), (40, 30, 20), np.uint8)
    cloth = cam.project(
        np.array([[0, 0, 0], [POOL.length_mm, 0, 0], [POOL.length_mm, POOL.width_mm, 0], [0, POOL.width_mm, 0]], float)
    ).astype(np.int32)
    cv2.fillPoly(img, [cloth], (140, 110, 20))
    truth = (1400.0, 500.0)
    uv = cam.project(np.array([[truth[0], truth[1], POOL.ball_radius_mm]]))[0]
    det = FrameYoloDetector(
        YoloDetector(Rectifier(cam, POOL, 0.5).geometry, POOL.ball_radius_mm, game="pool"), cam, POOL
    )
    r = float(det.ball_radius_px(uv[:1], uv[1:])[0])
    cv2.circle(img, (int(round(uv[0])), int(round(uv[1]))), int(round(r)), (235, 235, 235), -1, cv2.LINE_AA)
    found = det.detect(img)
    assert found, "no ball found"
    best = min(found, key=lambda d: math.dist((d.x_mm, d.y_mm), truth))
    assert math.dist((best.x_mm, best.y_mm), truth) < POOL.ball_radius_mm


def test_a_ball_straight_under_the_lens_is_its_full_image_size() -> None:
    # its ray is vertical, so no horizontal direction is "across the line of sight" by the cross
    # product: the radius was 1 px (the floor) there, and the annotated video's circle with it
    cam = _camera(0.0)
    R = POOL.ball_radius_mm
    r = ball_image_radius_px(cam, np.array([[CENTRE[0], CENTRE[1]], [CENTRE[0] + 1.0, CENTRE[1]]]), R)
    assert r == pytest.approx([900.0 * R / (3500.0 - R)] * 2, rel=1e-3)
