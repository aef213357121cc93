"""The detector's figures (issue 4 section 2: mAP50 and identity accuracy) are computed right:
average precision, IoU and the ignore rule for balls hidden under a hand."""

from __future__ import annotations

import numpy as np
import pytest

from models.evaluate import APAccumulator, IdentityCounter, average_precision, iou_matrix


@pytest.mark.parametrize(
    "a, b, want",
    [
        ([0, 0, 10, 10], [0, 0, 10, 10], 1.0),
        ([0, 0, 10, 10], [5, 0, 15, 10], 50 / 150),
        ([0, 0, 10, 10], [20, 20, 30, 30], 0.0),
    ],
)
def test_iou(a, b, want):
    assert iou_matrix(np.array([a]), np.array([b]))[0, 0] == pytest.approx(want)


@pytest.mark.parametrize(
    "tp, scores, n_gt, want",
    [
        ([1, 1], [0.9, 0.8], 2, 1.0),  # every object found, no false alarm
        ([1], [0.9], 2, 51 / 101),  # half the objects: precision 1 up to recall 0.5
        ([0, 1], [0.9, 0.8], 1, 0.5),  # the best-scored detection is false
        ([], [], 3, 0.0),
    ],
)
def test_average_precision(tp, scores, n_gt, want):
    assert average_precision(np.array(tp), np.array(scores), n_gt) == pytest.approx(want, abs=1e-9)


def test_ignored_ball_counts_neither_way():
    acc = APAccumulator(0.5)
    gt = np.array([[0, 0, 10, 10], [50, 50, 60, 60]], float)
    det = np.array([[0, 0, 10, 10], [50, 50, 60, 60], [100, 100, 110, 110]], float)
    acc.add(gt, ["red", "red"], np.array([False, True]), det, {"red": np.array([0.9, 0.8, 0.1])})
    assert acc.ngt["red"] == 1
    assert acc.tp["red"] == [1.0, 0.0]  # the hidden ball's detection is skipped, the stray one is false
    assert acc.per_class()["red"] == pytest.approx(1.0)


def test_wrong_label_is_a_false_positive_of_its_label_and_a_miss_of_the_truth():
    acc = APAccumulator(0.5)
    acc.add(
        np.array([[0, 0, 10, 10]], float),
        ["yellow"],
        np.array([False]),
        np.array([[0, 0, 10, 10]], float),
        {"red": np.array([0.9]), "yellow": np.array([0.05])},
    )
    pc = acc.per_class()
    assert pc["yellow"] == pytest.approx(1.0) and "red" not in pc  # red has no truth: not averaged
    assert acc.tp["red"] == [0.0]


def test_identity_counter():
    c = IdentityCounter()
    c.add(
        np.array([[10.0, 10.0], [50.0, 50.0]]),
        np.array([5.0, 5.0]),
        ["red", "white"],
        np.array([True, True]),
        np.array([[11.0, 10.0], [50.0, 52.0], [200.0, 200.0]]),
        ["red", "yellow", "red"],
        np.array([0.9, 0.8, 0.7]),
    )
    s = c.summary(px_per_mm=0.5)
    assert s["recall"] == 1.0 and s["identity_accuracy"] == 0.5 and s["precision"] == pytest.approx(2 / 3)
    assert s["centre_err_median_mm"] == pytest.approx(3.0)
