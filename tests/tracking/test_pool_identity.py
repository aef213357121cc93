"""Identities with 16 and 22 balls, pocketed balls that do not come back, and what happens between
shots (respot, ball in hand, re-rack): the tracker fed the detector's classes (snooker reds all
``red``) on pooltool pool and snooker shots (``sample_data/pool_shots``) and on hand-built frames."""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from pool_synth import Frame, camera_frames, score_events, track

from calibration.table import load_table
from tracking.between import Placed, Reracked, Respotted, between_shots
from tracking.detections import BallDetection
from tracking.events import BallBall, Pocketed, ShotEnd, ShotStart
from tracking.identity import POOL_BALLS, SNOOKER_BALLS, SNOOKER_REDS, detector_class, shared_class_balls
from tracking.ids import BallId, Pocket
from tracking.infer import infer_events
from tracking.tracker import Tracker, label_score

REPO = Path(__file__).resolve().parents[2]
SHOTS = REPO / "sample_data" / "pool_shots"
POOL = load_table("pool_9ft")
SNOOKER = load_table("snooker")
CUE, B3, B9 = BallId.CUE, BallId.B3, BallId.B9


def test_classes_and_ball_sets() -> None:
    assert len(POOL_BALLS) == 16 and len(SNOOKER_BALLS) == 22
    assert detector_class(BallId.RED_7) is BallId.RED and detector_class(BallId.B7) is BallId.B7
    assert shared_class_balls(SNOOKER_BALLS) == frozenset(SNOOKER_REDS)
    assert shared_class_balls(POOL_BALLS) == frozenset()
    d = BallDetection(0.0, 0.0, label=BallId.RED)
    assert label_score(d, BallId.RED_3) == 1.0 and label_score(d, BallId.PINK) == 0.0
    d = BallDetection(0.0, 0.0, label_scores={BallId.RED: 0.8, BallId.PINK: 0.2})
    assert label_score(d, BallId.RED_15) == 0.8


def test_reds_are_named_along_the_table_whatever_the_detection_order() -> None:
    reds = [(2000.0 + 60.0 * k, 889.0 + (k % 3) * 60.0) for k in range(15)]
    rng = np.random.default_rng(0)
    for _ in range(3):
        order = rng.permutation(15)
        tracker = Tracker(SNOOKER_BALLS, SNOOKER)
        states = tracker.update(0, 0.0, [BallDetection(*reds[i], label=BallId.RED) for i in order])
        xs = [next(s.x_mm for s in states if s.ball is r) for r in SNOOKER_REDS]
        assert xs == sorted(xs)


@cache
def _shot(name: str):
    from synth.physics.trajectory import SimShot

    return SimShot.load(SHOTS / f"{name}.npz")


@pytest.mark.parametrize("name, fps", [("pot", 60.0), ("snooker_pot", 30.0), ("scratch", 30.0)])
def test_tracked_pool_shot_finds_every_pocketing_and_the_first_contact(name: str, fps: float) -> None:
    shot = _shot(name)
    table = load_table(shot.table)
    res = track(camera_frames(shot, fps, 1.0, seed=0), shot.balls, table, seed=0, misread=0.02)
    assert res.swaps == 0
    sc = score_events(list(shot.events), infer_events(res.trajectories, table))
    assert sc.pockets_found == sc.pockets_truth >= 1 and sc.pockets_false == 0
    assert max(abs(e) for e in sc.pocket_time_errors_s) < 1.0 / fps
    assert sc.first_contact_right == 1
    assert sc.ob_cushions_false == 0


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(SHOTS.glob("*.npz")), ids=lambda p: p.stem)
@pytest.mark.parametrize("fps", [30.0, 60.0])
def test_every_pool_shot_tracked(path: Path, fps: float) -> None:
    shot = _shot(path.stem)
    table = load_table(shot.table)
    res = track(camera_frames(shot, fps, 1.0, seed=1), shot.balls, table, seed=1)
    assert res.swaps <= 0.001 * res.observed
    sc = score_events(list(shot.events), infer_events(res.trajectories, table))
    assert (sc.pockets_found, sc.pockets_false) == (sc.pockets_truth, 0)
    assert sc.first_contact_right == sc.first_contact_truth
    assert sc.ob_cushions_false == 0 and sc.ob_cushions_found >= 0.75 * sc.ob_cushions_truth


def _rest_frames(
    t0: float, t1: float, fps: float, layout: dict[BallId, tuple[float, float]], k0: int, rng: np.random.Generator
) -> list[Frame]:
    out = []
    for k, t in enumerate(np.arange(t0, t1, 1.0 / fps)):
        balls = tuple(layout)
        xy = np.array([layout[b] for b in balls]) + rng.normal(0, 0.7, (len(balls), 2))
        out.append(Frame(k0 + k, float(t), balls, xy))
    return out


def test_respot_and_ball_in_hand_between_shots_are_no_shot_and_show_in_the_next_start() -> None:
    """The 3 is potted; then it is put back on the foot spot, the cue ball is picked up (hidden by
    the hand for a second, nothing moving) and placed elsewhere, and the cue ball is struck
    again: two shots, the second starting from the new positions."""
    shot = _shot("pot")
    fps = 60.0
    rng = np.random.default_rng(3)
    frames = camera_frames(shot, fps, 1.0, seed=2)
    end = next(e for e in shot.events if isinstance(e, ShotEnd))
    layout = dict(end.positions)
    t = frames[-1].t_s + 1.0 / fps
    k = frames[-1].index + 1
    foot = POOL.spots_mm["foot_spot"]
    placed = (600.0, 600.0)
    seq = _rest_frames(t, t + 1.0, fps, layout, k, rng)  # at rest
    layout[B3] = foot  # respotted
    seq += _rest_frames(seq[-1].t_s + 1 / fps, seq[-1].t_s + 1.0, fps, layout, seq[-1].index + 1, rng)
    hand = {b: p for b, p in layout.items() if b is not CUE}  # cue ball in the hand
    seq += _rest_frames(seq[-1].t_s + 1 / fps, seq[-1].t_s + 1.0, fps, hand, seq[-1].index + 1, rng)
    layout[CUE] = placed
    seq += _rest_frames(seq[-1].t_s + 1 / fps, seq[-1].t_s + 1.5, fps, layout, seq[-1].index + 1, rng)
    # the second stroke: the cue ball rolls up the table, touching nothing
    t_s = seq[-1].t_s + 1 / fps
    for j in range(int(4.0 * fps)):
        tau = j / fps
        v, a = 600.0, 150.0
        d = v * min(tau, v / a) - 0.5 * a * min(tau, v / a) ** 2
        lay = dict(layout)
        lay[CUE] = (placed[0], placed[1] - d)
        seq += _rest_frames(t_s + tau, t_s + tau + 0.5 / fps, fps, lay, seq[-1].index + 1, rng)
    res = track(frames + seq, shot.balls, POOL, seed=0)
    ev = infer_events(res.trajectories, POOL)
    starts = [e for e in ev if isinstance(e, ShotStart)]
    assert len(starts) == 2 and all(s.cue_ball is CUE for s in starts)
    assert [(e.ball, e.pocket, e.shot) for e in ev if isinstance(e, Pocketed)] == [(B3, Pocket.SIDE_LEFT, 1)]
    p2 = starts[1].positions
    assert math.dist(p2[B3], foot) < 3.0 and math.dist(p2[CUE], placed) < 3.0
    assert B3 not in next(e for e in ev if isinstance(e, ShotEnd) and e.shot == 1).positions
    changes = between_shots(ev, POOL)
    assert any(isinstance(c, Respotted) and c.ball is B3 and c.spot in ("foot_spot", "rack_apex") for c in changes)
    assert any(isinstance(c, Placed) and c.ball is CUE and math.dist(c.to_mm, placed) < 3.0 for c in changes)
    assert not [e for e in ev if isinstance(e, BallBall) and e.shot == 2]


def test_a_pocketed_ball_does_not_take_a_neighbours_misread_detection() -> None:
    """The 9 is gone into a pocket; a detection of the 3 (at rest) read as the 9 stays the 3's,
    and the 9 stays off the table."""
    tracker = Tracker(POOL_BALLS, POOL)
    side = next(p for p in POOL.pockets if p.name == "side_left")
    p3 = (1000.0, 600.0)
    t = 0.0
    for k in range(30):  # the 9 rolls into the side pocket
        t = k / 60.0
        y9 = 1000.0 + 15.0 * k
        dets = [BallDetection(*p3, label=B3)]
        if y9 < side.centre_mm[1] + 5.0:
            dets.append(BallDetection(side.centre_mm[0], y9, label=B9))
        tracker.update(k, t, dets)
    for k in range(30, 60):
        states = {s.ball: s for s in tracker.update(k, k / 60.0, [BallDetection(*p3, label=B9)])}
        assert states[B3].observed and not states[B9].observed
    # the 9 back on the foot spot: found again
    foot = POOL.spots_mm["foot_spot"]
    states = {
        s.ball: s for s in tracker.update(60, 1.0, [BallDetection(*p3, label=B3), BallDetection(*foot, label=B9)])
    }
    assert states[B9].observed and (states[B9].x_mm, states[B9].y_mm) == foot


def test_reds_hidden_by_an_arm_keep_their_names() -> None:
    """Six reds of a pack at rest unseen for a second (an arm over them), then back: each red
    back where it was, under its own name."""
    rng = np.random.default_rng(5)
    layout = {r: (2700.0 + 54.0 * (k % 5), 780.0 + 54.0 * (k // 5)) for k, r in enumerate(SNOOKER_REDS)}
    layout[CUE] = (700.0, 900.0)
    tracker = Tracker(SNOOKER_BALLS, SNOOKER)
    hidden = set(SNOOKER_REDS[3:9])
    first: dict[BallId, tuple[float, float]] = {}
    for k in range(150):
        t = k / 50.0
        dets = [
            BallDetection(*(np.array(p) + rng.normal(0, 0.7, 2)), label=detector_class(b))
            for b, p in layout.items()
            if not (b in hidden and 30 <= k < 80)
        ]
        for s in tracker.update(k, t, dets):
            if s.observed:
                first.setdefault(s.ball, (s.x_mm, s.y_mm))
                assert math.dist(first[s.ball], (s.x_mm, s.y_mm)) < 6.0


@pytest.mark.parametrize(
    "gone, start, expect",
    [
        ({B9}, {B9: (1905.0, 635.0), CUE: (600.0, 600.0)}, [Respotted(1, B9, (1905.0, 635.0), "foot_spot")]),
        ({CUE}, {CUE: (500.0, 400.0)}, [Placed(1, CUE, None, (500.0, 400.0))]),
        (set(), {CUE: (700.0, 650.0)}, [Placed(1, CUE, (600.0, 600.0), (700.0, 650.0))]),
    ],
    ids=["nine_ball_9_respotted", "ball_in_hand_after_a_scratch", "cue_ball_moved_by_hand"],
)
def test_between_shots(gone, start, expect) -> None:
    end_pos = {CUE: (600.0, 600.0)}
    evs = [
        ShotStart(0.0, 0, 1, 1.0, CUE, {CUE: (100.0, 100.0)}),
        *[Pocketed(1.0, 60, 1, 0.9, b, Pocket.FOOT_LEFT) for b in gone],
        ShotEnd(3.0, 180, 1, 1.0, {b: p for b, p in end_pos.items() if b not in gone}),
        ShotStart(10.0, 600, 2, 1.0, CUE, start),
    ]
    assert between_shots(evs, POOL) == expect


def test_a_re_rack_is_one_change() -> None:
    """14.1 continuous: 14 balls pocketed over the rack, racked again around the foot spot."""
    balls = POOL_BALLS[1:15]
    apex = POOL.spots_mm["foot_spot"]
    D = POOL.ball_diameter_mm
    rack = {b: (apex[0] + D * (k // 4), apex[1] + D * ((k % 4) - 1.5)) for k, b in enumerate(balls)}
    evs = [
        ShotStart(0.0, 0, 1, 1.0, CUE, {CUE: (100.0, 100.0), BallId.B15: (900.0, 300.0)}),
        *[Pocketed(1.0, 60, 1, 0.9, b, Pocket.FOOT_LEFT) for b in balls],
        ShotEnd(3.0, 180, 1, 1.0, {CUE: (600.0, 600.0), BallId.B15: (900.0, 300.0)}),
        ShotStart(10.0, 600, 2, 1.0, CUE, {CUE: (600.0, 600.0), BallId.B15: (900.0, 300.0), **rack}),
    ]
    assert between_shots(evs, POOL) == [Reracked(1, tuple(sorted(balls, key=lambda b: b.value)))]
