"""The detector-tracker vocabulary (tracking/detections.py) and the tracker's motion state
(Tracker.motion): labels are ball ids, a game's reading renormalizes over the balls in play, and
the at-rest test is the one the pipeline used to keep on its own samples."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.table import load_table
from tracking.detections import BallDetection, Detections, MotionState, ball_label, ball_scores, in_play
from tracking.ids import CAROM_BALLS, BallId
from tracking.tracker import Tracker

TABLE = load_table("carom")
W, Y, R = CAROM_BALLS


def test_class_names_map_to_ball_ids_once() -> None:
    assert ball_label("cue") is BallId.CUE and ball_label("red") is BallId.RED and ball_label("3") is BallId.B3
    assert ball_label("none") is None and ball_label(None) is None
    assert list(ball_scores([("11", 0.5), ("none", 0.2), ("3", 0.3)]).items()) == [(BallId.B11, 0.5), (BallId.B3, 0.3)]


def test_in_play_renormalizes_over_the_balls_in_play() -> None:
    d = BallDetection(
        1.0, 2.0, label=BallId.B11, score=1.3, label_scores={BallId.B11: 0.5, BallId.B3: 0.3, BallId.CUE: 0.1}
    )
    nine = frozenset({BallId.CUE} | {BallId(str(k)) for k in range(1, 10)})
    t = in_play(d, nine)
    assert t.label is BallId.B3 and t.score == 1.0
    assert t.label_scores == pytest.approx({BallId.B3: 0.75, BallId.CUE: 0.25})
    assert in_play(d).label is BallId.B11 and in_play(d).label_scores == d.label_scores
    # no belief left: the detector's label where it is in play, else none
    bare = BallDetection(0.0, 0.0, label=BallId.B12, label_scores={BallId.B12: 1.0})
    assert in_play(bare, nine).label is None and in_play(bare, nine).label_scores == {}
    assert in_play(BallDetection(0.0, 0.0, label=BallId.B3), nine).label is BallId.B3


def test_detections_is_the_frames_tuple() -> None:
    a, b = BallDetection(1.0, 1.0), BallDetection(2.0, 2.0)
    ds = Detections(7, 0.25, (a, b))
    assert len(ds) == 2 and list(ds) == [a, b] and ds[1] is b


def _old_pipeline_at_rest(samples, gone_frames: int) -> bool:
    """tabletrack/pipeline.py's ``_at_rest`` before the tracker owned it (the reference)."""
    latest = max((v[-1][0] for v in samples.values() if v), default=0)
    seen = False
    for v in samples.values():
        if not v or v[-1][0] < latest - gone_frames:
            continue
        if len(v) < 2:
            return False
        seen = True
        (_, x0, y0, _), (_, x1, y1, _) = v[-2], v[-1]
        if np.hypot(x1 - x0, y1 - y0) > 1.5:
            return False
    return seen


def test_motion_says_at_rest_as_the_pipeline_did() -> None:
    """A resting table, a ball struck and rolling to a stop, one ball leaving the table: the
    tracker's answer equals the pipeline's old one on the same samples, frame by frame."""
    rng = np.random.default_rng(3)
    tracker = Tracker(CAROM_BALLS, TABLE)
    samples: dict = {b: [] for b in CAROM_BALLS}
    pos = {W: np.array([700.0, 700.0]), Y: np.array([1400.0, 500.0]), R: np.array([2100.0, 900.0])}
    vel = {b: np.zeros(2) for b in CAROM_BALLS}
    assert tracker.motion().resting is False  # nothing seen yet
    agree, seen = [], set()
    for k in range(240):
        t = k / 30.0
        if k == 40:
            vel[W] = np.array([900.0, 250.0])
        for b in CAROM_BALLS:
            pos[b] = pos[b] + vel[b] / 30.0
            vel[b] = vel[b] * 0.95 if np.hypot(*vel[b]) > 20.0 else np.zeros(2)
        dets = [
            BallDetection(*(pos[b] + rng.normal(0.0, 0.3, 2)), label=b)
            for b in CAROM_BALLS
            if not (b is R and k >= 150)
        ]  # the red leaves the table
        m = tracker.motion(t, still_mm=1.5, gone_frames=30)
        agree.append(m.resting == _old_pipeline_at_rest(samples, 30))
        seen.add(m.resting)
        for st in tracker.update(k, t, dets):
            samples[st.ball].append((st.frame, st.x_mm, st.y_mm, st.observed))
    assert all(agree) and seen == {True, False}
    m = tracker.motion()
    assert isinstance(m, MotionState) and m.resting
    assert m.get(W) is not None and m.get(W).vx_mm_s == 0.0


def test_motion_predicts_a_rolling_ball_ahead() -> None:
    tracker = Tracker(CAROM_BALLS, TABLE)
    for k in range(5):
        tracker.update(
            k, k / 50.0, [BallDetection(1000.0 + 20.0 * k, 700.0, label=W), BallDetection(300.0, 300.0, label=Y)]
        )
    m = tracker.motion(5 / 50.0)
    w = m.get(W)
    assert w is not None and w.vx_mm_s > 900.0 and w.x_mm > 1080.0
    assert not m.resting and m.get(R) is None
