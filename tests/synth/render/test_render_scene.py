"""The static scene: diamonds where the camera model puts them (RFEB ART 2.3 marks at 1/8 of the
length), cushions darker than the bed with the nose line as an edge, lamp light brightest over the
middle of the table."""

import numpy as np
import pytest
from render_helpers import overhead_camera, table

from calibration.camera import CameraModel
from synth.render.scene import build_scene, render_background
from synth.render.style import ClothColour, RenderStyle

PLAIN = RenderStyle(cloth_texture=0.0, cloth_mottle=0.0, noise_sigma=0.0, vignette=0.0)


def _centroid(img: np.ndarray, u: float, v: float, half: int = 7) -> tuple[float, float]:
    """Centroid of the brightness excess over the window's median around (u, v)."""
    x0, y0 = int(round(u)) - half, int(round(v)) - half
    win = img[y0 : y0 + 2 * half + 1, x0 : x0 + 2 * half + 1].astype(np.float64).sum(axis=2)
    w = np.clip(win - np.median(win), 0.0, None)
    w[w < 0.25 * w.max()] = 0.0
    ys, xs = np.mgrid[y0 : y0 + 2 * half + 1, x0 : x0 + 2 * half + 1]
    return float((w * xs).sum() / w.sum()), float((w * ys).sum() / w.sum())


@pytest.mark.parametrize("k1", [-0.12, -0.05, 0.02])
def test_diamonds_land_where_the_camera_model_projects_them(k1):
    """Close view of the head-right corner, diamonds ~4 px across, many px of distortion."""
    t = table()
    cam = CameraModel.look_at(480, 360, 380.0, (350.0, 280.0, 1300.0), (350.0, 280.0, 0.0), k1=k1)
    img = render_background(t, cam, PLAIN, np.random.default_rng(0))
    px = cam.project(np.array(t.diamonds_mm()))
    ideal = cam.project_undistorted(np.array(t.diamonds_mm()))
    checked = 0
    for (u, v), (ui, vi) in zip(px, ideal):
        # OpenCV's radial model folds far-outside points back into the frame: only the diamonds
        # whose ideal image is near the frame are really in view
        in_view = -100 < ui < 580 and -100 < vi < 460
        if in_view and 12 < u < 480 - 12 and 12 < v < 360 - 12:
            cu, cv = _centroid(img, u, v)
            assert abs(cu - u) < 0.3 and abs(cv - v) < 0.3, (u, v, cu, cv)
            checked += 1
    assert checked >= 5
    # the check is a check of the distortion too: the ideal pinhole positions are far off
    if k1 <= -0.05:
        assert np.abs(px - ideal).max() > 3.0


def test_cushion_is_darker_cloth_of_the_same_hue_and_nose_is_an_edge():
    t = table()
    cam = overhead_camera(640, 360, k1=-0.06)
    img = render_background(t, cam, PLAIN, np.random.default_rng(0)).astype(np.float64)
    x = np.linspace(400, 2400, 9)
    bed = cam.project(np.column_stack([x, np.full(9, 120.0), np.zeros(9)]))
    cush = cam.project(np.column_stack([x, np.full(9, -30.0), np.full(9, 42.0)]))

    def at(p):
        return np.array([img[int(round(v)), int(round(u))] for u, v in p])

    b, c = at(bed), at(cush)
    assert (c.sum(axis=1) < 0.92 * b.sum(axis=1)).all()
    # same hue: the dominant channel and the channel ratios agree
    assert (b.argmax(axis=1) == c.argmax(axis=1)).all()
    assert np.allclose(c / c.sum(axis=1, keepdims=True), b / b.sum(axis=1, keepdims=True), atol=0.06)
    # the nose line is a sharp edge: a large step within a few pixels across it
    u, v = cam.project(np.array([[1420.0, 0.0, t.cushion_nose_height_mm]]))[0]
    col = img[int(v) - 6 : int(v) + 7, int(round(u))].sum(axis=1)
    assert np.abs(np.diff(col)).max() > 25.0


def test_bed_is_brightest_under_the_lamps_and_darker_in_the_corners():
    t = table()
    cam = overhead_camera(320, 180, k1=0.0)
    img = render_background(t, cam, PLAIN, np.random.default_rng(0)).astype(np.float64).sum(axis=2)
    centre = cam.project(np.array([[1420.0, 710.0, 0.0]]))[0]
    corner = cam.project(np.array([[80.0, 80.0, 0.0]]))[0]
    assert img[int(centre[1]), int(centre[0])] > 1.15 * img[int(corner[1]), int(corner[0])]


@pytest.mark.parametrize("cloth,channel", [(ClothColour.BLUE, 0), (ClothColour.GREEN, 1)])
def test_cloth_colour_is_a_parameter(cloth, channel):
    t = table()
    cam = overhead_camera(160, 90)
    img = render_background(t, cam, RenderStyle(cloth=cloth, noise_sigma=0.0), np.random.default_rng(0))
    assert img[45, 80].argmax() == channel


def test_scene_is_a_function_of_the_generator():
    t = table()
    cam = overhead_camera(160, 90)
    a = build_scene(t, cam, RenderStyle(), np.random.default_rng(7)).image_bgr
    b = build_scene(t, cam, RenderStyle(), np.random.default_rng(7)).image_bgr
    c = build_scene(t, cam, RenderStyle(), np.random.default_rng(8)).image_bgr
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)
