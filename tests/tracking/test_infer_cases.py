"""Event inference, case by case: shots, resting-ball flags, near misses, balls that leave the
table or only hide, sparse reports."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.table import load_table
from synth.tracking_sim import (
    R_,
    W_,
    Y_,
    concatenate,
    final_positions,
    sample_irregular,
    sample_video,
    scenarios,
    simulate,
)
from tracking.events import BallBall, CushionHit, OffTable, ShotEnd, ShotStart
from tracking.ids import BallId, Cushion
from tracking.infer import infer_events
from tracking.trajectory import Trajectory

TABLE = load_table("carom")
R, D = TABLE.ball_radius_mm, TABLE.ball_diameter_mm
L, W = TABLE.length_mm, TABLE.width_mm


def _kinds(events):
    return [type(e).__name__ for e in events]


def test_two_shots_are_numbered_and_each_starts_with_its_cue_ball() -> None:
    first = simulate(TABLE, {W_: (700.0, 500.0), Y_: (2000.0, 1100.0), R_: (2300.0, 300.0)}, W_, (-1400.0, 350.0))
    second = simulate(TABLE, final_positions(first), Y_, (900.0, -700.0), start_s=1.0)
    a = sample_video(first, 60, 1.0, seed=1)
    b = sample_video(second, 60, 1.0, seed=2)
    offset = float(a[W_].t_s[-1]) + 1.0 / 60.0
    events = infer_events(concatenate([a, b], [0.0, offset]), TABLE, first_shot=4)
    starts = [e for e in events if isinstance(e, ShotStart)]
    ends = [e for e in events if isinstance(e, ShotEnd)]
    assert [s.shot for s in starts] == [4, 5] and [e.shot for e in ends] == [4, 5]
    assert [s.cue_ball for s in starts] == [W_, Y_]
    assert abs(starts[1].t_s - (offset + 1.0)) < 0.005
    # the second shot starts where the first ended
    for ball, p in starts[1].positions.items():
        assert np.hypot(*(np.array(p) - np.array(ends[0].positions[ball]))) < 1.0
    # events of a shot lie between its start and end
    for e in events:
        s = next(x for x in starts if x.shot == e.shot)
        en = next(x for x in ends if x.shot == e.shot)
        assert s.t_s <= e.t_s <= en.t_s


def test_frozen_and_touching_balls_at_the_start_and_a_cue_ball_played_away() -> None:
    """Three-cushion art. 10 (a ball frozen to a cushion) and art. 9 / 002 ART 15.8 (balls in
    contact): the start says so, and a cue ball played away from the ball it touches has not
    touched it (the separation is no contact)."""
    layout = {W_: (1000.0, 600.0), R_: (1000.0 + D + 0.5, 600.0), Y_: (R + 1.0, 900.0)}
    sim = simulate(TABLE, layout, W_, (-900.0, -700.0))
    for trajs in (sample_video(sim, 60, 0.5, seed=4), sample_irregular(sim, TABLE, seed=4)):
        events = infer_events(trajs, TABLE)
        start = events[0]
        assert isinstance(start, ShotStart) and start.cue_ball is W_
        assert start.frozen_to_cushion == {Y_: Cushion.HEAD}
        assert [set(p) for p in start.balls_in_contact] == [{W_, R_}]
        assert not [e for e in events if isinstance(e, BallBall)]


@pytest.mark.parametrize("gap_mm", [3.0, 5.0])
def test_near_miss_is_no_contact(gap_mm: float) -> None:
    """A cue ball that passes an object ball a few millimetres away has not touched it (the
    difference between a carom and a miss, 002 ART 7.2)."""
    layout = {W_: (500.0, 700.0), Y_: (1500.0, 700.0 + D + gap_mm), R_: (2500.0, 200.0)}
    sim = simulate(TABLE, layout, W_, (1500.0, 0.0))
    assert not [e for e in sim.events if e.kind == "ball"]
    for seed in range(3):
        for trajs in (sample_video(sim, 60, 1.0, seed), sample_video(sim, 30, 1.0, seed)):
            events = infer_events(trajs, TABLE)
            assert not [e for e in events if isinstance(e, BallBall)], [e for e in events if isinstance(e, BallBall)]


@pytest.mark.parametrize("gap_mm", [4.0, pytest.param(8.0, marks=pytest.mark.slow)])
def test_rolling_along_a_cushion_without_touching_is_no_contact(gap_mm: float) -> None:
    """Three-cushion art. 3 counts impacts, not a ball rolling close by."""
    layout = {W_: (400.0, W - R - gap_mm), Y_: (1500.0, 300.0), R_: (2500.0, 300.0)}
    sim = simulate(TABLE, layout, W_, (1300.0, 0.0))
    assert [e.cushion for e in sim.events if e.kind == "cushion"] == [Cushion.FOOT]
    for seed in range(3):
        events = infer_events(sample_video(sim, 60, 1.0, seed), TABLE)
        assert [e.cushion for e in events if isinstance(e, CushionHit)] == [Cushion.FOOT]


def _vanish(
    trajs: dict[BallId, Trajectory], ball: BallId, t_from: float, t_to: float = np.inf
) -> dict[BallId, Trajectory]:
    """The tracker's view of a ball unseen over [t_from, t_to): samples not observed, the
    position held where it was last seen."""
    tr = trajs[ball]
    hide = (tr.t_s >= t_from) & (tr.t_s < t_to)
    x, y = tr.x_mm.copy(), tr.y_mm.copy()
    k = int(np.argmax(hide)) - 1
    x[hide], y[hide] = x[k], y[k]
    conf = np.where(hide, 0.2, 1.0)
    out = dict(trajs)
    out[ball] = Trajectory(ball, tr.t_s, tr.frame, x, y, ~hide, conf)
    return out


def test_a_ball_that_vanishes_fast_at_a_cushion_left_the_table() -> None:
    """002 ART 'bolas fuera de la mesa': a ball that jumps the cushion. It met the head cushion at
    1440 mm/s and was never seen again; the other balls are at rest."""
    sim = next(s for s in scenarios(TABLE) if s.name == "one_cushion").run(TABLE)
    hit = next(e for e in sim.events if e.kind == "cushion").t_s
    trajs = _vanish(sample_video(sim, 60, 1.0, seed=1), W_, hit - 0.01)
    events = infer_events(trajs, TABLE)
    off = [e for e in events if isinstance(e, OffTable)]
    assert len(off) == 1 and off[0].ball is W_ and abs(off[0].t_s - hit) < 0.02
    end = events[-1]
    assert isinstance(end, ShotEnd) and W_ not in end.positions and set(end.positions) == {Y_, R_}


def test_a_hidden_ball_is_not_off_the_table() -> None:
    sim = next(s for s in scenarios(TABLE) if s.name == "one_cushion").run(TABLE)
    trajs = _vanish(sample_video(sim, 60, 1.0, seed=2), W_, 2.0, 3.0)  # a hand over it, mid-table
    events = infer_events(trajs, TABLE)
    assert not [e for e in events if isinstance(e, OffTable)]
    assert [e.cushion for e in events if isinstance(e, CushionHit)] == [e.cushion for e in sim.events]
    # vanished mid-table for good: lost, still on the table, and the shot still ends
    lost = infer_events(_vanish(sample_video(sim, 60, 1.0, seed=2), W_, 2.0), TABLE)
    assert not [e for e in lost if isinstance(e, OffTable)]
    assert isinstance(lost[-1], ShotEnd) and W_ in lost[-1].positions and lost[-1].confidence < 0.5


def test_sparse_reports_a_resting_ball_with_one_sample() -> None:
    sim = next(s for s in scenarios(TABLE) if s.name == "stun_collision").run(TABLE)
    trajs = sample_irregular(sim, TABLE, seed=0, gap_prob=0.0)
    assert len(trajs[R_]) == 1  # red never moves: one report
    events = infer_events(trajs, TABLE)
    assert set(events[0].positions) == {W_, Y_, R_} and set(events[-1].positions) == {W_, Y_, R_}
    assert np.hypot(*(np.array(events[-1].positions[R_]) - np.array([2400.0, 300.0]))) < 2.0


def test_a_contact_inside_a_data_gap_is_found_with_less_confidence() -> None:
    sim = next(s for s in scenarios(TABLE) if s.name == "one_cushion").run(TABLE)
    hit = next(e for e in sim.events if e.kind == "cushion").t_s
    full = sample_irregular(sim, TABLE, seed=1, gap_prob=0.0)
    tr = full[W_]
    keep = np.abs(tr.t_s - hit) > 0.25
    gapped = dict(full)
    gapped[W_] = tr.select(keep)
    c_full = next(e for e in infer_events(full, TABLE) if isinstance(e, CushionHit))
    c_gap = next(e for e in infer_events(gapped, TABLE) if isinstance(e, CushionHit))
    assert c_full.cushion is c_gap.cushion is Cushion.HEAD
    assert abs(c_full.t_s - hit) < 0.003 and abs(c_gap.t_s - hit) < 0.03
    assert c_gap.confidence < c_full.confidence


def test_no_motion_no_events() -> None:
    t = np.arange(0, 3, 1 / 30)
    rng = np.random.default_rng(0)
    trajs = {
        b: Trajectory.from_samples(b, t, 500 + 300 * i + rng.normal(0, 1, len(t)), 700 + rng.normal(0, 1, len(t)))
        for i, b in enumerate((W_, Y_, R_))
    }
    assert infer_events(trajs, TABLE) == []
