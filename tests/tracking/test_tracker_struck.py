"""A ball struck from rest whose first frames are streaks (issue 13 item 3: a moving ball is never
lost on open cloth for more than a frame): the tracker gives an unnamed streak to the resting ball
it leaves from (synthetic nine_break: the cue ball's break at 12 m/s, unseen four frames before)."""

from __future__ import annotations

import pytest

from calibration.table import load_table
from tracking.detections import BallDetection
from tracking.ids import BallId
from tracking.tracker import Tracker

POOL = load_table("pool")
FPS = 30.0


def _streak(x0: float, y0: float, x1: float, y1: float) -> BallDetection:
    return BallDetection(
        (x0 + x1) / 2.0,
        (y0 + y1) / 2.0,
        score=0.3,
        streak_px=(0.0, 0.0, 1.0, 1.0),
        streak_mm=(x0, y0, x1, y1),
    )


@pytest.mark.parametrize(
    ("cue_at", "streak", "taken", "why"),
    [
        ((477.0, 855.0), (700.0, 824.0, 1058.0, 766.0), True, "the break: 225 mm on, along its line"),
        ((477.0, 855.0), (1058.0, 766.0, 700.0, 824.0), True, "the ends in either order"),
        ((477.0, 1000.0), (700.0, 824.0, 1058.0, 766.0), False, "the streak's line 170 mm from the ball"),
        ((100.0, 880.0), (700.0, 824.0, 1058.0, 766.0), False, "600 mm off: beyond 13 m/s for a frame"),
        ((753.7, 815.3), (700.0, 824.0, 1058.0, 766.0), False, "inside the streak's span: passed over, not struck"),
    ],
)
def test_an_unnamed_streak_is_the_resting_ball_it_leaves_from(
    cue_at: tuple[float, float], streak: tuple[float, float, float, float], taken: bool, why: str
) -> None:
    tr = Tracker((BallId.CUE, BallId("9")), POOL)
    rest = [
        BallDetection(*cue_at, score=0.9, label_scores={BallId.CUE: 0.95}),
        BallDetection(2000.0, 300.0, score=0.9, label_scores={BallId("9"): 0.95}),
    ]
    for f in range(6):
        tr.update(f, f / FPS, rest)
    states = {s.ball: s for s in tr.update(6, 6 / FPS, [rest[1], _streak(*streak)])}
    cue = states[BallId.CUE]
    assert cue.observed is taken, why
    if taken:
        assert (cue.x_mm, cue.y_mm) == pytest.approx(((streak[0] + streak[2]) / 2.0, (streak[1] + streak[3]) / 2.0))


def test_a_moving_ball_keeps_its_own_streak() -> None:
    # the 9 rolls along the line the streak continues; the cue ball rests behind the streak's end
    tr = Tracker((BallId.CUE, BallId("9")), POOL)
    for f in range(6):
        x9 = 500.0 + 200.0 * f
        tr.update(
            f,
            f / FPS,
            [
                BallDetection(300.0, 600.0, score=0.9, label_scores={BallId.CUE: 0.95}),
                BallDetection(x9, 600.0, score=0.9, label_scores={BallId("9"): 0.95}),
            ],
        )
    states = {
        s.ball: s
        for s in tr.update(
            6,
            6 / FPS,
            [BallDetection(300.0, 600.0, score=0.9, label_scores={BallId.CUE: 0.95}), _streak(1600, 600, 1800, 600)],
        )
    }
    assert states[BallId("9")].observed and states[BallId("9")].x_mm == pytest.approx(1700.0)
    assert states[BallId.CUE].x_mm == pytest.approx(300.0)
