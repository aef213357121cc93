"""Training labels (issue 4 section 2, training data): a ball cut by a tile's edge keeps its box
clipped while most of it is inside; tiles around balls hold those balls; a ball seen from
straight above has a round box of its radius, off the nadir one stretched away from it."""

from __future__ import annotations

import numpy as np
import pytest

from models.classes import class_index
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


def _coco_split(root, split: str, n_balls: int) -> None:
    import json

    import cv2

    d = root / split
    d.mkdir(parents=True)
    img = np.full((200, 200, 3), (40, 120, 30), np.uint8)
    anns = []
    for i in range(n_balls):
        cv2.circle(img, (30 + 40 * i, 100), 12, (240, 240, 240), -1)
        anns.append({"id": i, "image_id": 0, "category_id": 1, "bbox": [18 + 40 * i, 88, 24, 24]})
    cv2.imwrite(str(d / "a.jpg"), img)
    (d / "_annotations.coco.json").write_text(
        json.dumps(
            {
                "categories": [{"id": 1, "name": "white ball"}],
                "images": [{"id": 0, "file_name": "a.jpg"}],
                "annotations": anns,
            }
        )
    )


def test_real_photos_alone_give_their_crops(tmp_path) -> None:
    """``--train-views 0 --real DIR``: the photos' crops are written even with no synthetic crops
    to append them to (they were silently dropped)."""
    from models.dataset import add_real

    root = tmp_path / "coco"
    _coco_split(root, "train", 3)
    _coco_split(root, "valid", 2)
    s = add_real(tmp_path / "out", root, log=lambda _m: None)
    assert s["train"]["real_crops"] == 3 and s["val"]["real_crops"] == 2
    for split, n in (("train", 3), ("val", 2)):
        d = np.load(tmp_path / "out" / "crops" / f"{split}.npz")
        assert d["x"].shape == (n, 40, 40, 3) and d["off"].shape == (n, 2)
        assert list(d["y"]) == [class_index("pool", "cue")] * n
