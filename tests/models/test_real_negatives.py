"""Real ``none`` crops (models/real_negatives.py, issue 13 section 2): a finder box becomes a
negative only far from every labelled ball and where the classifier is not sure it is a ball;
the crops files are in the dataset's format; absent photos are one line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.yolo as yolo
from models.classes import CLASSIFIER_CLASSES, GAMES, NONE_CLASS
from models.real_negatives import _far_from_balls, main, mine, write_negatives
from vision.yolo_geometry import CROP_PX

BALL = ("cue", (100.0, 100.0, 120.0, 120.0))  # centre (110, 110), radius 10


@pytest.mark.parametrize(
    ("u", "v", "r", "far"),
    [
        (110.0, 110.0, 10.0, False),  # on the ball
        (124.0, 110.0, 10.0, False),  # 1.4 radii off: its neighbourhood
        (126.0, 110.0, 10.0, True),  # 1.6 radii off
        (126.0, 110.0, 12.0, False),  # a larger box reaches farther
        (400.0, 300.0, 5.0, True),
    ],
)
def test_far_from_every_labelled_ball(u, v, r, far):
    got = _far_from_balls(np.array([u]), np.array([v]), np.array([r]), [BALL], 1.5)
    assert bool(got[0]) is far


def test_a_photo_without_balls_leaves_every_box_far():
    assert _far_from_balls(np.array([1.0, 2.0]), np.array([1.0, 2.0]), np.array([3.0, 3.0]), [], 1.5).all()


def _photos(root: Path, n: int = 2) -> None:
    """A fake export of the photos: ``n`` grey images per split with one labelled cue ball."""
    for split in ("train", "valid"):
        (root / split).mkdir(parents=True)
        images, anns = [], []
        for i in range(n):
            name = f"p{i}.jpg"
            cv2.imwrite(str(root / split / name), np.full((800, 800, 3), 90, np.uint8))
            images.append({"id": i, "file_name": name})
            anns.append({"image_id": i, "category_id": 1, "bbox": [100, 100, 20, 20]})
        cats = [{"id": 1, "name": "white ball"}]
        (root / split / "_annotations.coco.json").write_text(
            json.dumps({"images": images, "annotations": anns, "categories": cats})
        )


@pytest.fixture
def fake_model(monkeypatch):
    """The finder draws three boxes on every photo: on the labelled ball, far off and unsure
    (a diamond), far off and sure (a ball the labels left out)."""
    boxes = np.array([[100, 100, 120, 120], [400, 400, 420, 420], [600, 200, 620, 220]], np.float32)
    ball = np.array([0.95, 0.4, 0.97])

    def find(self, img):
        return boxes.copy(), np.full(len(boxes), 0.5)

    def classify(self, img, u, v, r=None, refine=None):
        n = len(self.labels)
        keep = [int(np.argmin(np.abs((boxes[:, 0] + boxes[:, 2]) / 2.0 - uu))) for uu in u]
        p = np.zeros((len(u), n + 1))
        p[:, 0] = ball[keep]
        p[:, n] = 1.0 - ball[keep]
        return p, np.asarray(u), np.asarray(v)

    monkeypatch.setattr(yolo.YoloDetector, "find", find)
    monkeypatch.setattr(yolo.YoloDetector, "classify", classify)


def test_only_far_unsure_boxes_become_negatives(tmp_path, fake_model):
    _photos(tmp_path / "photos")
    crops = list(mine(tmp_path / "photos", "train"))
    assert len(crops) == 2  # one a photo: the diamond; the labelled ball and the sure one left out
    assert all(c.shape == (CROP_PX, CROP_PX, 3) and c.dtype == np.uint8 for c in crops)


def test_the_crops_files_are_labelled_none_in_the_dataset_format(tmp_path, fake_model):
    _photos(tmp_path / "photos", n=3)
    res = write_negatives(tmp_path / "out", tmp_path / "photos", log=lambda *a: None)
    assert res == {"train": 3, "val": 3}
    d = np.load(tmp_path / "out" / "crops" / "train.npz")
    assert set(d.files) == {"x", "y", "off", "game"}
    assert (d["y"] == CLASSIFIER_CLASSES.index(NONE_CLASS)).all()
    assert (d["game"] == GAMES.index("pool")).all() and d["off"].shape == (3, 2)


def test_absent_photos_are_one_line_and_exit_2(tmp_path, capsys):
    assert main(["--out", str(tmp_path / "out"), "--root", str(tmp_path / "nothing")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "expected" in err and "_annotations.coco.json" in err


@pytest.mark.parametrize(
    ("flag", "value"), [("--conf", "0"), ("--conf", "1.5"), ("--clear-r", "-1"), ("--max-ball", "0")]
)
def test_a_threshold_out_of_range_is_one_line_and_exit_2(tmp_path, capsys, flag, value):
    _photos(tmp_path / "photos")
    assert main(["--out", str(tmp_path / "out"), "--root", str(tmp_path / "photos"), flag, value]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "expected" in err and value in err
