"""A streak and the weak detections on it (vision/yolo.py ``streak_detections``, issue 13 section
3): the classifier's crop of a fast ball's streak end reads weakly as a ball; such a detection
yields to the streak, while a sure ball, or a weak one in the streak's middle (a ball with its
shadow or a neighbour), blocks it."""

from __future__ import annotations

import numpy as np
import pytest
from test_streaks import BALL, R_PX, _stadium, _view

from calibration.table import load_table
from tracking.detections import BallDetection
from tracking.ids import BallId
from vision.rectify import RectifiedGeometry
from vision.yolo import YoloDetector


@pytest.fixture(scope="module")
def yolo() -> YoloDetector:
    table = load_table("pool")
    geometry = RectifiedGeometry(table.length_mm, table.width_mm, table.ball_radius_mm, 0.5, table.ball_radius_mm)
    return YoloDetector(geometry, table.ball_radius_mm, "pool")


def _streak_view() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    v = _view()
    mid = np.array([650.0, 330.0])
    axis = np.array([1.0, 0.0])
    half = 0.5 * (7.0 - 2.0) * R_PX  # a streak 7 radii long: dev Clip12's break, 7.1
    a, b = mid - axis * half, mid + axis * half
    _stadium(v, tuple(a), tuple(b), R_PX, BALL, 0.45)
    return v, a, b


@pytest.mark.parametrize(
    "where, score, kept, why",
    [
        (1.06, 0.21, True, "a weak read beyond the leading end (dev Clip12 frame 3: 0.21 the 5)"),
        (0.1, 0.25, True, "a weak read at the trailing end"),
        (1.06, 0.6, False, "a sure ball at the end: a ball the streak runs into, or a neighbour"),
        (0.5, 0.21, False, "weak, but in the middle: a ball with its shadow (dev Clip17's 1)"),
    ],
)
def test_a_weak_read_at_a_streak_end_yields_to_the_streak(
    yolo: YoloDetector, where: float, score: float, kept: bool, why: str
) -> None:
    v, a, b = _streak_view()
    p = a + where * (b - a)
    found = yolo.streak_detections(v, np.array([p[0]]), np.array([p[1]]), score_balls=np.array([score]))
    assert bool(found) is kept, why
    if kept:
        det, _, displaced = found[0]
        assert displaced == (0,)
        assert abs(det.u_px - 650.0) < 0.5 * R_PX, "the streak's middle, not the weak read's place"


def test_without_scores_any_ball_on_the_streak_blocks_it(yolo: YoloDetector) -> None:
    v, a, b = _streak_view()
    p = a + 1.06 * (b - a)
    assert yolo.streak_detections(v, np.array([p[0]]), np.array([p[1]])) == []


def _read(p: np.ndarray, label: str, score: float) -> BallDetection:
    b = BallId(label)
    return BallDetection(0.0, 0.0, u_px=float(p[0]), v_px=float(p[1]), label=b, label_scores={b: 0.7}, score=score)


@pytest.mark.parametrize(
    "wheres, scores, labels, kept, why",
    [
        (
            (0.05, 0.5, 0.95),
            (0.39, 0.36, 0.27),
            ("cue", "cue", "cue"),
            True,
            "one ball read three times along its smear (dev Clip12 warmer: the cue ball's break)",
        ),
        ((0.2, 0.8), (0.39, 0.38), ("cue", "cue"), True, "read twice, the streak longer than two balls"),
        ((0.05, 0.5, 0.95), (0.39, 0.36, 0.27), ("cue", "5", "cue"), False, "another ball in the middle"),
        ((0.05, 0.5, 0.95), (0.39, 0.8, 0.27), ("cue", "cue", "cue"), False, "a sure ball among them"),
        ((0.5,), (0.36,), ("cue",), False, "read once, in the middle: a ball with its shadow"),
    ],
)
def test_one_ball_read_along_its_smear_yields_to_the_streak(
    yolo: YoloDetector, wheres: tuple, scores: tuple, labels: tuple, kept: bool, why: str
) -> None:
    v, a, b = _streak_view()
    pts = np.array([a + w * (b - a) for w in wheres])
    reads = [_read(p, lab, sc) for p, lab, sc in zip(pts, labels, scores)]
    found = yolo.streak_detections(v, pts[:, 0], pts[:, 1], score_balls=np.array(scores, float), reads=reads)
    assert bool(found) is kept, why
    if kept:
        det, _, displaced = found[0]
        assert displaced == tuple(range(len(wheres))), "every read of it displaced"
        assert det.label is not None and det.label.value == labels[0], "the streak takes their name"
        assert det.streak_mm is not None


def test_two_touching_balls_of_one_label_are_no_smear(yolo: YoloDetector) -> None:
    # a streak no longer than the balls in a row it could be (two reds touching: 4 radii): kept apart
    v = _view()
    mid = np.array([650.0, 330.0])
    a, b = mid - np.array([1.0, 0.0]) * R_PX, mid + np.array([1.0, 0.0]) * R_PX
    _stadium(v, tuple(a), tuple(b), R_PX, BALL, 0.9)
    reads = [_read(a, "red", 0.4), _read(b, "red", 0.4)]
    found = yolo.streak_detections(
        v, np.array([a[0], b[0]]), np.array([a[1], b[1]]), score_balls=np.array([0.4, 0.4]), reads=reads
    )
    assert found == []
