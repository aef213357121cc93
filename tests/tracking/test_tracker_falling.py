"""A ball falling into a pocket stays in it (tracking/tracker.py ``_dropping``): once its centre has
been seen over the hole, moving toward the hole's centre, no detection out on the cloth is that
ball a frame later, whatever its colour says. Real broadcast (issue 13, nine-ball): the 3 racing
into a corner was taken over by a neighbour's detection 115 mm back out, its id carried across the
table and the pocketing lost."""

from __future__ import annotations

import pytest

from calibration.table import load_table
from tracking.detections import BallDetection
from tracking.ids import BallId
from tracking.tracker import Tracker

POOL = load_table("pool")
BALLS = (BallId.CUE, BallId("3"), BallId("7"))
DT = 0.04  # 25 fps


def _det(x: float, y: float, ball: str) -> BallDetection:
    return BallDetection(x, y, label_scores={BallId(ball): 0.9}, score=0.8)


def _run(last_3: tuple[float, float] | None) -> dict[str, tuple[float, float, bool]]:
    """The cue ball at rest, the 3 racing into the head-left corner (x -> 0, y -> 1270): seen on
    the cloth, then with its centre over the hole; then one more frame where a 3-looking detection
    is ``last_3`` (or none)."""
    tr = Tracker(BALLS, POOL)
    path = [(128.0, 1183.0), (88.6, 1223.0), (43.0, 1255.4), (1.7, 1269.3)]
    for k, (x, y) in enumerate(path):
        tr.update(k, k * DT, [_det(1000, 600, "cue"), _det(x, y, "3")])
    dets = [_det(1000, 600, "cue")] + ([_det(*last_3, "3")] if last_3 else [])
    return {s.ball.value: (s.x_mm, s.y_mm, s.observed) for s in tr.update(len(path), len(path) * DT, dets)}


@pytest.mark.parametrize(
    ("last_3", "taken"),
    [
        ((94.8, 1200.0), False),  # 115 mm back out against its motion: another ball
        ((-20.0, 1290.0), True),  # seen in the pocket itself: still the 3
    ],
)
def test_a_falling_ball_keeps_only_a_detection_in_its_pocket(last_3: tuple[float, float], taken: bool) -> None:
    got = _run(last_3)
    assert got["3"][2] is taken
    if taken:
        assert got["3"][:2] == pytest.approx(last_3)


def test_a_ball_knocked_back_out_by_the_jaw_is_not_falling() -> None:
    # over the hole's edge but moving away from its centre (a rattle in the jaws): an ordinary
    # ball, free to take a detection back out on the cloth
    tr = Tracker(BALLS, POOL)
    path = [(88.6, 1223.0), (43.0, 1255.4), (5.0, 1270.0), (15.0, 1262.0)]
    for k, (x, y) in enumerate(path):
        tr.update(k, k * DT, [_det(1000, 600, "cue"), _det(x, y, "3")])
    got = {s.ball: s for s in tr.update(4, 4 * DT, [_det(1000, 600, "cue"), _det(45.0, 1240.0, "3")])}
    assert got[BallId("3")].observed


@pytest.mark.parametrize(
    ("seen_as", "where", "taken", "why"),
    [
        ("5", (9.5, 1260.3), True, "read as another ball where it was going: still the 7"),
        ("7", (9.5, 1260.3), True, "read as itself"),
        ("5", (94.8, 1200.0), False, "read as another ball, back out on the cloth: another ball"),
    ],
)
def test_a_ball_rolling_slowly_over_the_hole_keeps_its_misread_detections(
    seen_as: str, where: tuple[float, float], taken: bool, why: str
) -> None:
    # real broadcast (issue 13, nine-ball Clip17): the maroon 7 rolled along a corner's jaw at
    # ~130 mm/s for ten frames, read 0.05 the 7 and 0.7 the 5 in the jaws' shadow; once its centre
    # was over the hole's edge it took only a detection that looked like it, and was "dropped" at once
    tr = Tracker(BALLS, POOL)
    path = [(70.0 - 5.5 * k, 1235.0 + 2.3 * k) for k in range(11)]  # ~150 mm/s into the corner
    for k, (x, y) in enumerate(path):
        tr.update(k, k * DT, [_det(1000, 600, "cue"), _det(x, y, "7")])
    misread = BallDetection(*where, label_scores={BallId(seen_as): 0.7, BallId("7"): 0.05}, score=0.8)
    if seen_as == "7":
        misread = _det(*where, "7")
    got = {s.ball.value: s for s in tr.update(len(path), len(path) * DT, [_det(1000, 600, "cue"), misread])}
    assert got["7"].observed is taken, why
