"""A moving ball the frame's detections miss is looked for at the tracker's prediction
(vision/guided.py ``_at_predictions``; issue 13 item 3: a moving ball is never lost on open cloth
for more than a frame). Real broadcast, dev Clip12's break: the blue 2 on blue cloth, blurred,
read 0.78 a ball and 0.37 the 2 by a crop at the tracker's prediction, where neither the guided
crops (at its pixel velocity, lost the frame before) nor the full detector found it."""

from __future__ import annotations

import numpy as np
import pytest

from tracking.detections import BallDetection, BallMotion, MotionState, ball_label
from tracking.ids import BallId
from vision.guided import GuidedDetector
from vision.rectify import RectifiedGeometry
from vision.yolo import YoloDetector

R = 14.0


class HidingYolo:
    """The full detector misses the balls in ``hidden`` (a blur it cannot find); a crop within a
    radius of a ball reads it (0.9 a ball)."""

    labels = ("cue", "1")
    streaks = False
    detections = YoloDetector.detections

    def __init__(self, balls: dict[str, tuple[float, float]], hidden: set[str]) -> None:
        self.geometry = RectifiedGeometry(2540.0, 1270.0, 28.575, 0.5, 28.575)
        self.r_px = R
        self.balls, self.hidden = balls, hidden

    def detect(self, view):
        out = []
        for k, (u, v) in self.balls.items():
            if k not in self.hidden:
                x, y = self.geometry.uv_to_mm(np.array([u]), np.array([v]))
                out.append(BallDetection(float(x[0]), float(y[0]), u, v, R, ball_label(k), 0.9, {ball_label(k): 1.0}))
        return out

    def classify(self, view, u, v, r_px=None, refine=None):
        n = len(self.labels)
        p = np.zeros((len(u), n + 1))
        uo, vo = np.array(u, float), np.array(v, float)
        for i, (a, b) in enumerate(zip(u, v)):
            near = [(k, c) for k, c in self.balls.items() if np.hypot(c[0] - a, c[1] - b) < R]
            if near:
                k, c = near[0]
                p[i, self.labels.index(k)] = 0.9
                p[i, n] = 0.1
                uo[i], vo[i] = c
            else:
                p[i, n] = 1.0
        return p, uo, vo


def _motion(
    geometry: RectifiedGeometry, ball: str, at_px: tuple[float, float], speed: float, gone: bool
) -> MotionState:
    x, y = geometry.uv_to_mm(np.array([at_px[0]]), np.array([at_px[1]]))
    return MotionState(0.0, False, (BallMotion(BallId(ball), float(x[0]), float(y[0]), speed, 0.0, True, gone),))


@pytest.mark.parametrize(
    ("predicted_px", "speed_mm_s", "gone", "found", "why"),
    [
        ((700.0, 320.0), 2800.0, False, True, "the 1 hidden from the full detector, at its prediction"),
        ((706.0, 322.0), 2800.0, False, True, "a few px off: the crop's regression pulls it on"),
        ((700.0, 320.0), 100.0, False, False, "predicted at 0.1 m/s: not a moving ball"),
        ((700.0, 320.0), 2800.0, True, False, "gone into a pocket"),
        (
            (300.0, 300.0),
            2800.0,
            False,
            False,
            "predicted on the cue ball: the crop reads the cue ball, a detection is there",
        ),
        ((900.0, 500.0), 2800.0, False, False, "predicted where nothing is: the crop holds no ball"),
    ],
)
def test_a_moving_ball_missed_is_looked_for_at_its_prediction(predicted_px, speed_mm_s, gone, found, why) -> None:
    fake = HidingYolo({"cue": (300.0, 300.0), "1": (700.0, 320.0)}, hidden={"1"})
    guided = GuidedDetector(fake)  # type: ignore[arg-type]
    motion = _motion(fake.geometry, "1", predicted_px, speed_mm_s, gone)
    dets = guided.detect(np.zeros((656, 1299, 3), np.uint8), 0.0, motion)
    got = {d.label.value: (d.u_px, d.v_px) for d in dets if d.label is not None}
    assert ("1" in got) is found, why
    if found:
        assert got["1"] == pytest.approx((700.0, 320.0))
    assert "cue" in got


def test_the_crop_must_read_the_predicted_ball() -> None:
    """Predicted where another ball lies, missed by the full detector too: the crop reads that
    other ball, not the predicted one, and is not taken for it."""
    fake = HidingYolo({"cue": (300.0, 300.0), "1": (700.0, 320.0)}, hidden={"cue", "1"})
    guided = GuidedDetector(fake)  # type: ignore[arg-type]
    dets = guided.detect(
        np.zeros((656, 1299, 3), np.uint8), 0.0, _motion(fake.geometry, "1", (300.0, 300.0), 2800.0, False)
    )
    assert dets == []
