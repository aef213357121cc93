"""Training labels (issue 4 section 2, training data): a ball cut by a tile's edge keeps its box
clipped while most of it is inside; tiles around balls hold those balls; a ball seen from
straight above has a round box of its radius, off the nadir one stretched away from it."""

from __future__ import annotations

import numpy as np
import pytest

from models.dataset import tile_labels, tiles_of


@pytest.mark.parametrize(
    "box, x0, y0, want",
    [
        ((10, 10, 20, 20), 0, 0, [(15 / 100, 15 / 100, 0.1, 0.1)]),  # inside
        ((95, 10, 105, 20), 0, 0, [(97.5 / 100, 15 / 100, 0.05, 0.1)]),  # half inside: clipped
        ((97, 10, 107, 20), 0, 0, []),  # 30 % inside: dropped
        ((110, 10, 120, 20), 100, 0, [(15 / 100, 15 / 100, 0.1, 0.1)]),  # in a shifted tile
    ],
)
def test_tile_labels(box, x0, y0, want):
    got = tile_labels([box], x0, y0, 100)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g == pytest.approx(w)


def test_ball_tiles_hold_their_balls():
    img = np.zeros((320, 640, 3), np.uint8)
    boxes = [(300.0, 150.0, 313.0, 163.0)]
    tiles = tiles_of(img, boxes, np.random.default_rng(0), tile=160, n_ball=5, n_any=0)
    assert len(tiles) == 5
    for t, labels in tiles:
        assert t.shape == (160, 160, 3)
        assert len(labels) == 1


def test_ellipse_box_round_under_the_camera_stretched_away_from_it():
    from models.scenes import _ellipse_box

    class Cam:
        centre_mm = np.array([1000.0, 500.0, 3000.0])

    class S:
        camera = Cam()
        r_mm = 30.0

    hx, hy = _ellipse_box(S(), 1000.0, 500.0, 0.0, 0.0, 15.0)
    assert (hx, hy) == pytest.approx((15.0, 15.0))
    hx, hy = _ellipse_box(S(), 2500.0, 500.0, 0.0, 0.0, 15.0)  # 1.5 m along x from the nadir
    cos_t = 2970.0 / np.hypot(2970.0, 1500.0)
    assert hx == pytest.approx(15.0 / cos_t) and hy == pytest.approx(15.0)
