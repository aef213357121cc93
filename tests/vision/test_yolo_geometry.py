"""The pixel geometry the YOLO detector shares with its training data (issue 4 section 2: a
fixed-size rectangular input of the table's aspect; ball crops of a fixed size in ball radii)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.yolo_geometry import CROP_BALL_PX, CROP_PX, PAD_VALUE, ball_crop, letterbox, letterbox_of


@pytest.mark.parametrize(
    "view_hw, scale", [((741, 1451), 320 / 741), ((915, 1811), 320 / 915), ((800, 800), 0.4), ((300, 1280), 0.5)]
)
def test_letterbox_fits_one_scale_top_left(view_hw, scale):
    lb = letterbox_of(view_hw, (320, 640))
    assert lb.scale == pytest.approx(scale)
    img, _ = letterbox(np.full(view_hw + (3,), 200, np.uint8), (320, 640))
    assert img.shape == (320, 640, 3)
    h, w = round(view_hw[0] * scale), round(view_hw[1] * scale)
    assert (img[:h, :w] == 200).all()
    assert (img[h:, :] == PAD_VALUE).all() and (img[:, w:] == PAD_VALUE).all()


def _disc(h, w, u, v, r):
    """An anti-aliased disc (coverage from the distance of each pixel centre to the edge)."""
    yy, xx = np.mgrid[:h, :w]
    m = np.clip(r - np.hypot(xx - u, yy - v) + 0.5, 0.0, 1.0)
    return np.repeat((255 * m).astype(np.uint8)[..., None], 3, axis=2)


@pytest.mark.parametrize("r_px", [9.0, 14.3, 30.0])
def test_ball_crop_centres_and_scales_the_ball(r_px):
    u, v = 200.3, 151.7
    crop = ball_crop(_disc(300, 400, u, v, r_px), u, v, r_px)
    assert crop.shape == (CROP_PX, CROP_PX, 3)
    m = crop[..., 0].astype(np.float64) / 255.0
    yy, xx = np.mgrid[:CROP_PX, :CROP_PX]
    c = (CROP_PX - 1) / 2.0
    assert (m * xx).sum() / m.sum() == pytest.approx(c, abs=0.15)
    assert (m * yy).sum() / m.sum() == pytest.approx(c, abs=0.15)
    # the ball spans CROP_BALL_PX: its area there is pi (CROP_BALL_PX / 2)^2
    assert m.sum() == pytest.approx(np.pi * (CROP_BALL_PX / 2) ** 2, rel=0.04)


def test_ball_crop_rejects_a_bad_radius():
    with pytest.raises(ValueError):
        ball_crop(np.zeros((10, 10, 3), np.uint8), 5, 5, 0.0)
