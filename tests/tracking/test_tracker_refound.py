"""A ball found again after a gap takes only a detection that looks like it: one that reads it
at least one half, or reads it more than any other ball at ``refound_min_score`` or more
(tracking/tracker.py; issue 13 item 4). Real eight-ball, game2's high camera from a short end: a
maroon 7 at the far end, hidden while the 2 rolled up to it, was seen again after the 2 sent it
on, 180 mm away, read 0.46 the 7, 0.27 the 15 and 0.22 the 8 (dim light at the far end splits a
model's belief over balls of one look): it was held where it had rested to the clip's end."""

from __future__ import annotations

import pytest

from calibration.table import load_table
from tracking.detections import BallDetection
from tracking.ids import BallId
from tracking.tracker import Tracker

POOL = load_table("pool")
FPS = 30.0
SEVEN, EIGHT, FIFTEEN = BallId("7"), BallId("8"), BallId("15")


def _det(x: float, y: float, scores: dict[BallId, float], conf: float = 0.5) -> BallDetection:
    return BallDetection(x, y, score=conf, label_scores=scores)


@pytest.mark.parametrize(
    ("reads", "found", "why"),
    [
        ({SEVEN: 0.46, FIFTEEN: 0.27, EIGHT: 0.22}, True, "the 7 read most (game2's frame 117)"),
        ({SEVEN: 0.60, FIFTEEN: 0.20, EIGHT: 0.20}, True, "read the 7 at one half or more"),
        ({SEVEN: 0.30, FIFTEEN: 0.46, EIGHT: 0.22}, False, "the 15 read most: not the 7"),
        ({SEVEN: 0.28, FIFTEEN: 0.26, EIGHT: 0.26}, False, "the 7 read most, but under refound_min_score"),
    ],
)
def test_a_hidden_ball_is_found_again_by_a_detection_that_reads_it_most(
    reads: dict[BallId, float], found: bool, why: str
) -> None:
    tr = Tracker((SEVEN, EIGHT, FIFTEEN), POOL)
    others = [_det(800.0, 300.0, {EIGHT: 0.9}), _det(1500.0, 900.0, {FIFTEEN: 0.9})]
    for f in range(5):  # all three at rest and seen
        tr.update(f, f / FPS, [_det(2147.0, 1213.0, {SEVEN: 0.9}), *others])
    for f in range(5, 20):  # the 7 unseen for half a second
        tr.update(f, f / FPS, others)
    states = tr.update(20, 20 / FPS, [_det(2324.0, 1183.0, reads), *others])
    seven = next(s for s in states if s.ball == SEVEN)
    assert seven.observed is found, why
    if found:
        assert (seven.x_mm, seven.y_mm) == (2324.0, 1183.0)
