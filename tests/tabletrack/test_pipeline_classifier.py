"""analyze's detector takes an identity classifier other than the shipped one
(``AnalyzeOptions.classifier``, ``bench/real.py --classifier``): how a retrained classifier is
measured as users run it (models/MODEL_CARD.md: each eight-ball clip left out of training in
turn, then analysed with that run's classifier)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from calibration.camera import CameraModel
from calibration.table import load_table
from tabletrack.pipeline import make_detector
from vision.rectify import Rectifier
from vision.yolo import YoloModelError

POOL = load_table("pool")
IMAGE = np.zeros((720, 1280, 3), np.uint8)


def _rect() -> Rectifier:
    centre = (POOL.length_mm / 2.0, POOL.width_mm / 2.0, 0.0)
    eye = (centre[0], centre[1], 3500.0)
    cam = CameraModel.look_at(1280, 720, 900.0, eye, centre, up_hint=(1.0, 0.0, 0.0), table="pool_9ft")
    return Rectifier(cam, POOL, 0.5)


def test_the_classifier_given_is_the_one_loaded(tmp_path: Path) -> None:
    with pytest.raises(YoloModelError, match="left_out_game3.onnx"):
        make_detector(POOL, _rect(), "yolo", IMAGE, classifier=tmp_path / "left_out_game3.onnx")


def test_the_shipped_classifier_when_none_is_given() -> None:
    assert make_detector(POOL, _rect(), "yolo", IMAGE) is not None
