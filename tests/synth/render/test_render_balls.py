"""Balls: the exact silhouette sits where CameraModel.project puts the centre (lens included), the
blur spreads a fast ball along its path without losing it, balls off the table are not drawn."""

import numpy as np
import pytest
from render_helpers import overhead_camera, table

from synth.render.balls import BallsState, _blurred_sprite, _sprite, draw_balls, rolling_orientations
from synth.render.scene import build_scene
from synth.render.style import RenderError, RenderStyle
from tracking.ids import BallId

BALLS = (BallId.WHITE, BallId.YELLOW, BallId.RED)


@pytest.fixture(scope="module")
def scene():
    cam = overhead_camera(640, 360, k1=-0.12, k2=0.01)
    return build_scene(table(), cam, RenderStyle(static_supersample=1), np.random.default_rng(0))


def _alpha_centroid(sp):
    x0, y0, x1, y1 = sp.box
    ys, xs = np.mgrid[y0:y1, x0:x1]
    a = sp.alpha.astype(np.float64)
    return np.array([(a * xs).sum() / a.sum(), (a * ys).sum() / a.sum()]), a.sum()


@pytest.mark.parametrize("x,y", [(1420, 710), (40, 40), (2800, 1380), (2800, 40), (700, 1300), (1420, 35)])
def test_silhouette_centre_is_the_projected_centre(scene, x, y):
    r = table().ball_radius_mm
    S = np.array([x, y, r], float)
    sp = _sprite(scene, S, BallId.WHITE, None, 0)
    c, area = _alpha_centroid(sp)
    px = scene.camera.project(S[None, :])[0]
    assert np.abs(c - px).max() < 0.1
    depth = float(scene.camera.R[2] @ (S - scene.camera.centre_mm))
    r_px = scene.camera.fx * r / depth
    # barrel distortion shrinks the image towards the corners, so the area may only be smaller
    assert 0.80 * np.pi * r_px**2 < area < 1.03 * np.pi * r_px**2


def test_motion_blur_spreads_the_ball_along_its_path(scene):
    r = table().ball_radius_mm
    K = 12
    centres = np.column_stack([np.linspace(1000, 1090, K), np.linspace(600, 640, K), np.full(K, r)])
    sp = _blurred_sprite(scene, centres, np.ones(K, bool), BallId.RED, None)
    still = _sprite(scene, centres[K // 2], BallId.RED, None, 0)
    c, area = _alpha_centroid(sp)
    _, area_still = _alpha_centroid(still)
    expect = scene.camera.project(centres).mean(axis=0)
    assert np.abs(c - expect).max() < 0.15
    assert abs(area - area_still) < 0.02 * area_still  # coverage is spread, not lost
    assert sp.alpha.max() < 0.9  # a blurred ball is partly see-through everywhere


def test_ball_off_the_table_is_not_drawn(scene):
    r = table().ball_radius_mm
    centres = np.array([[700.0, 500.0, r], [1500.0, 900.0, r], [2500.0, 1100.0, r]])
    img = scene.image_bgr.copy()
    draw_balls(img, scene, [BallsState(BALLS, centres, np.array([True, False, True]))])
    u, v = scene.camera.project(centres[1:2])[0]
    win = (slice(int(v) - 8, int(v) + 9), slice(int(u) - 8, int(u) + 9))
    assert np.array_equal(img[win], scene.image_bgr[win])
    u, v = scene.camera.project(centres[0:1])[0]
    assert img[int(round(v)), int(round(u)), 2] > 150  # the white one is there


def test_rolling_turns_the_ball_by_distance_over_radius():
    r = 30.75
    xy = np.zeros((101, 1, 2))
    xy[:, 0, 0] = np.linspace(0.0, np.pi * r, 101)  # half a turn along +x
    R = rolling_orientations(xy, r)
    top = R[-1, 0] @ np.array([0.0, 0.0, 1.0])
    assert np.allclose(top, [0.0, 0.0, -1.0], atol=1e-6)  # the top has rolled to the bottom
    quarter = R[50, 0] @ np.array([0.0, 0.0, 1.0])
    assert np.allclose(quarter, [1.0, 0.0, 0.0], atol=1e-6)  # rolling forward brings the top forward


def test_state_shapes_are_checked():
    with pytest.raises(RenderError, match="centres_mm"):
        BallsState(BALLS, np.zeros((2, 3)), np.ones(3, bool))
    with pytest.raises(RenderError, match="distinct balls"):
        BallsState((BallId.B8, BallId.B8), np.zeros((2, 3)), np.ones(2, bool))


@pytest.mark.parametrize("marked", [True, False])
def test_white_carries_the_art_2_8_marking_dots_only_when_asked(marked):
    """RFEB ART 2.8: of two ivory balls one is marked with a dot at both ends of a diameter."""
    cam = overhead_camera(960, 540, k1=0.0)
    sc = build_scene(table(), cam, RenderStyle(static_supersample=1, white_marked=marked), np.random.default_rng(0))
    r = table().ball_radius_mm
    # the marking axis pointing at the camera: a dot right in the middle of the ball's image
    sp = _sprite(sc, np.array([1420.0, 710.0, r]), BallId.WHITE, np.eye(3), 0)
    col = sp.premul / np.maximum(sp.alpha[..., None], 1e-6)
    inside = sp.alpha > 0.99
    redness = col[..., 2] - col[..., 1]  # ink is red; ivory is neutral
    assert (redness[inside].max() > 60) == marked
