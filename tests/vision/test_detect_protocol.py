"""The one detector protocol (vision/detect.py): every detector the pipeline can run answers
``detect_frame(frame, motion) -> Detections`` and nothing else is called on it."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import numpy as np

from tracking.detections import BallDetection, Detections
from tracking.ids import BallId
from vision.classical import ClassicalDetector
from vision.detect import Detector, RectifiedDetector
from vision.frame_yolo import FrameYoloDetector
from vision.rectify import RectifiedGeometry
from vision.source import Frame

REPO = Path(__file__).resolve().parents[2]


class _View:
    geometry = RectifiedGeometry(2540.0, 1270.0, 28.575, 0.5, 28.575)

    def __init__(self) -> None:
        self.seen: list[tuple[tuple[int, ...], float | None]] = []

    def detect(self, view, t_s=None):
        self.seen.append((view.shape, t_s))
        return [BallDetection(10.0, 20.0, label=BallId.CUE, label_scores={BallId.CUE: 1.0})]


def test_rectified_detector_rectifies_and_names_the_frame() -> None:
    view = _View()
    det = RectifiedDetector(view, lambda img: img[::2, ::2])
    out = det.detect_frame(Frame(12, 0.4, np.zeros((8, 6, 3), np.uint8)))
    assert isinstance(out, Detections) and out.frame == 12 and out.t_s == 0.4
    assert [d.label for d in out] == [BallId.CUE]
    assert view.seen == [((4, 3, 3), 0.4)]


def test_every_detector_has_the_protocol_method() -> None:
    for cls in (ClassicalDetector, FrameYoloDetector, RectifiedDetector):
        params = list(inspect.signature(cls.detect_frame).parameters)
        assert params == ["self", "frame", "motion"], cls
    assert list(inspect.signature(Detector.detect_frame).parameters) == ["self", "frame", "motion"]


def test_the_pipeline_calls_only_the_protocol() -> None:
    # the frame loop that analyze and live share (tabletrack/session.py) and what composes it
    src = "".join((REPO / "tabletrack" / name).read_text(encoding="utf-8") for name in ("pipeline.py", "session.py"))
    calls = set(re.findall(r"\bdetector\.(\w+)\(", src))
    assert calls == {"detect_frame"}, calls
