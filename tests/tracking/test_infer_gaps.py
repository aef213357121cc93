"""Contacts that share a sample gap with the stroke or with another contact.

The camera sees a ball once a frame; a hand or the cue over the cue ball hides a frame or two
more. Within one such gap the cue ball can be struck and meet a ball, and that ball can meet a
cushion: each contact must still be found, in order, and after the stroke that caused it, with
the cue ball named right (three-cushion art. 2-3 count the cushions before the second ball;
002 ART 7.2: a carom is the cue ball touching both object balls). And a gap must not make up a
contact: a cue ball struck away from a cushion it rests near has not met it.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from calibration.table import load_table
from synth.tracking_sim import R_, W_, Y_, place_for_contact, sample_video, simulate
from tracking.events import BallBall, CushionHit, ShotStart
from tracking.ids import BallId, Cushion
from tracking.infer import infer_events
from tracking.trajectory import Trajectory

TABLE = load_table("carom")
L, W = TABLE.length_mm, TABLE.width_mm
STROKE_S = 0.5  # synth.tracking_sim.simulate's default start


def _hidden(trajs: dict[BallId, Trajectory], ball: BallId, t_from: float, t_to: float) -> dict[BallId, Trajectory]:
    """The tracker's view of ``ball`` hidden over [t_from, t_to): not observed, held where last seen."""
    tr = trajs[ball]
    hide = (tr.t_s >= t_from) & (tr.t_s < t_to)
    x, y = tr.x_mm.copy(), tr.y_mm.copy()
    k = int(np.argmax(hide)) - 1
    x[hide], y[hide] = x[k], y[k]
    out = dict(trajs)
    out[ball] = Trajectory(ball, tr.t_s, tr.frame, x, y, ~hide, np.where(hide, 0.2, 1.0))
    return out


def _struck_into_cushion():
    """The cue ball (white) meets the yellow 30 ms after the stroke; the yellow, driven toward
    the left cushion, meets it about 30 ms later (the pattern of a long stroke at a ball close by,
    as in a break with the balls near a rail)."""
    layout = {W_: (1000.0, 1200.0), Y_: (300.0, 200.0), R_: (2400.0, 300.0)}
    v = (400.0, 2200.0)
    alone = simulate(TABLE, layout, W_, v)
    y = place_for_contact(TABLE, alone, W_, STROKE_S + 0.03, 20.0)
    sim = simulate(TABLE, {**layout, Y_: y}, W_, v)
    first_two = [(e.kind, e.balls[0], e.cushion) for e in sim.events[:2]]
    assert first_two == [("ball", W_, None), ("cushion", Y_, Cushion.LEFT)]
    t_ball, t_cushion = sim.events[0].t_s, sim.events[1].t_s
    assert 0.02 < t_cushion - t_ball < 0.04  # premise: both within one frame at 30 fps
    return sim, t_ball, t_cushion


@pytest.mark.parametrize("fps", [30, 60])
@pytest.mark.parametrize("phase", [k / 8 for k in range(8)])
def test_a_contact_right_after_a_hidden_stroke_and_the_struck_ball_into_a_cushion(fps: int, phase: float) -> None:
    sim, t_ball, t_cushion = _struck_into_cushion()
    # the cue and the hand hide the cue ball from just before the stroke to a frame and a half after
    trajs = _hidden(
        sample_video(sim, fps, 1.0, seed=int(phase * 8), phase_s=phase / fps),
        W_,
        STROKE_S - 0.2 / fps,
        STROKE_S + 1.5 / fps,
    )
    events = infer_events(trajs, TABLE)
    start = events[0]
    contacts = sorted((e for e in events if isinstance(e, (BallBall, CushionHit))), key=lambda e: e.t_s)[:2]
    assert isinstance(start, ShotStart) and start.cue_ball is W_
    assert [type(e) for e in contacts] == [BallBall, CushionHit], [(type(e).__name__, e.t_s) for e in contacts]
    hit, cushion = contacts
    assert set(hit.balls) == {W_, Y_} and cushion.ball is Y_ and cushion.cushion is Cushion.LEFT
    assert start.t_s <= hit.t_s < cushion.t_s
    assert abs(cushion.t_s - t_cushion) < 0.005
    assert abs(hit.t_s - t_ball) < 1.0 / fps
    assert start.t_s <= t_ball


@pytest.mark.parametrize("fps", [30, 60])
def test_a_cue_ball_hidden_at_its_stroke_near_a_cushion_has_not_met_it(fps: int) -> None:
    """Struck away from the foot cushion it rests 150 mm from, unseen for four frames around the
    stroke: the path after, traced back, reaches the cushion only before the ball could have left
    its rest, so it is no contact (three-cushion art. 3 counts impacts)."""
    layout = {W_: (L - 150.0, 700.0), Y_: (600.0, 300.0), R_: (500.0, 1100.0)}
    sim = simulate(TABLE, layout, W_, (-2000.0, 150.0))
    assert not [e for e in sim.events if e.kind == "cushion" and e.t_s < STROKE_S + 0.5]
    for seed in range(3):
        trajs = _hidden(sample_video(sim, fps, 1.0, seed=seed), W_, STROKE_S - 3.0 / fps, STROKE_S + 1.2 / fps)
        events = infer_events(trajs, TABLE)
        early = [e for e in events if isinstance(e, CushionHit) and e.t_s < STROKE_S + 0.5]
        assert not early, early
        assert isinstance(events[0], ShotStart) and events[0].cue_ball is W_


def _resting_three(
    fps: int, seed: int, noise_mm: float, yellow_dx: Callable[[int], np.ndarray]
) -> dict[BallId, Trajectory]:
    """White, yellow and red at rest 300 mm apart for 3 s, with the detector's noise; the
    yellow's x moved by ``yellow_dx(n)`` (one value per sample)."""
    t = np.arange(0, 3, 1 / fps)
    rng = np.random.default_rng(seed)
    trajs = {}
    for i, b in enumerate((W_, Y_, R_)):
        x = 500 + 300 * i + rng.normal(0, noise_mm, len(t))
        y = 700 + rng.normal(0, noise_mm, len(t))
        if b is Y_:
            x = x + yellow_dx(len(t))
        trajs[b] = Trajectory.from_samples(b, t, x, y)
    return trajs


def test_a_stray_first_sample_of_a_resting_ball_starts_no_shot() -> None:
    def first_off(n: int) -> np.ndarray:
        dx = np.zeros(n)
        dx[0] = 5.0  # the detector's first frame: a few millimetres off
        return dx

    assert infer_events(_resting_three(60, 1, 1.0, first_off), TABLE) == []


@pytest.mark.parametrize(
    ("fps", "off_frames", "off_mm", "shot"),
    [
        (25, 4, 26.0, False),  # real dev Clip1 turned 180 degrees: a racked ball read 26 mm off, 0.12 s
        (25, 2, 26.0, False),  # two samples: the old glitch rule
        (60, 9, 26.0, False),  # 0.13 s at 60 fps
        (25, 5, 24.0, False),  # real dev Clip1 mirrored: read off on frames 12-16 (back once between)
        (25, 20, 26.0, True),  # rolled out and back over 0.8 s (a real nudge and return): a shot
    ],
)
def test_a_resting_ball_read_off_its_place_and_back_within_a_moment_starts_no_shot(
    fps: int, off_frames: int, off_mm: float, shot: bool
) -> None:
    """Issue 13 item 4 (a resting ball does not start a shot by flickering): a ball cannot leave
    its place and come back to it within ``SegmentConfig.glitch_s``; samples that say so are the
    detector's, not the ball's."""

    def off_and_back(n: int) -> np.ndarray:
        dx = np.zeros(n)
        k0 = n // 2
        # read off at once (a detector's glitch), or rolled there and back when it is long
        half = off_frames // 2
        ramp = np.concatenate([np.linspace(0, 1, half), np.linspace(1, 0, off_frames - half)])
        dx[k0 : k0 + off_frames] = -off_mm * (ramp if off_frames > 10 else 1.0)
        return dx

    trajs = _resting_three(fps, 2, 0.5, off_and_back)
    starts = [e for e in infer_events(trajs, TABLE) if isinstance(e, ShotStart)]
    assert bool(starts) is shot
