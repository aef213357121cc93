"""Near misses (:mod:`tracking.infer.near`): the cue ball's passes within a hair of a ball it was
not found to touch become ``near_miss`` events; a wide pass, a contact and a one-frame glitch do
not. They let the rules ask whether a three-cushion miss (003 art. 2) was a contact too thin to
see (tests/rules/test_rules_evidence.py)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from calibration.table import load_table
from synth.tracking_sim import R_, W_, Y_, sample_video, simulate
from tracking.eventlog import EventLogError, event_from_dict, event_to_dict
from tracking.events import BallBall, NearMiss, ShotStart, group_shots
from tracking.infer import InferenceConfig, infer_events

TABLE = load_table("carom")
D = TABLE.ball_diameter_mm


def _pass(gap_mm: float, seed: int = 3) -> dict:
    """The white rolled along y = 600 past the red resting ``gap_mm`` beside its path, 60 fps (and,
    back from the cushions on the same line, past it again twice)."""
    layout = {W_: (400.0, 600.0), R_: (1300.0, 600.0 + D + gap_mm), Y_: (2400.0, 1150.0)}
    return sample_video(simulate(TABLE, layout, W_, (1800.0, 0.0)), 60, 0.3, seed=seed)


@pytest.mark.parametrize("gap_mm", [0.5, 2.0])
def test_a_pass_within_a_hair_is_a_near_miss(gap_mm: float) -> None:
    events = infer_events(_pass(gap_mm), TABLE)
    near = [e for e in events if isinstance(e, NearMiss)]
    assert not [e for e in events if isinstance(e, BallBall)]
    assert len(near) == 3 and all(e.balls == (W_, R_) for e in near)  # out, back, out again
    nm = near[0]
    assert nm.gap_mm == pytest.approx(gap_mm, abs=1.0)
    assert nm.confidence == pytest.approx(max(0.0, nm.gap_mm) / InferenceConfig().near_miss_mm, abs=1e-6)


def test_a_wide_pass_is_none() -> None:
    events = infer_events(_pass(8.0), TABLE)
    assert not [e for e in events if isinstance(e, NearMiss)]


def test_a_contact_found_is_no_near_miss() -> None:
    layout = {W_: (400.0, 600.0), R_: (1300.0, 600.0 + D - 20.0), Y_: (2400.0, 1150.0)}
    events = infer_events(sample_video(simulate(TABLE, layout, W_, (1800.0, 0.0)), 60, 0.3, seed=5), TABLE)
    assert any(isinstance(e, BallBall) and set(e.balls) == {W_, R_} for e in events)
    assert not [e for e in events if isinstance(e, NearMiss)]


def test_one_glitched_frame_is_no_near_miss() -> None:
    """Two touching balls' detections swapped for one frame put a centre 10 mm off its path: a
    spike, which the pass must also show without (the median of each sample and its neighbours)."""
    trajs = _pass(8.0)
    red = np.array([trajs[R_].x_mm[0], trajs[R_].y_mm[0]])
    white = trajs[W_]
    k = int(np.argmin(np.hypot(white.x_mm - red[0], white.y_mm - red[1])))
    y = white.y_mm.copy()
    y[k] += 10.0  # toward the red, one sample: the raw paths overlap by 2 mm there
    trajs = {**trajs, W_: replace(white, y_mm=y)}
    assert not [e for e in infer_events(trajs, TABLE) if isinstance(e, NearMiss)]


def test_turned_off_by_the_config() -> None:
    events = infer_events(_pass(0.5), TABLE, replace(InferenceConfig(), near_miss_mm=0.0))
    assert not [e for e in events if isinstance(e, NearMiss)]


def test_a_shot_keeps_its_near_misses_apart_from_its_events() -> None:
    (shot,) = group_shots(infer_events(_pass(0.5), TABLE))
    assert isinstance(shot.start, ShotStart) and shot.end is not None
    assert len(shot.near_misses) == 3 and not any(isinstance(e, NearMiss) for e in shot.events)


def test_the_event_log_round_trip() -> None:
    nm = NearMiss(1.25, 75, 2, 0.4, (W_, R_), (1300.0, 631.0), 1.2)
    assert event_from_dict(event_to_dict(nm), "line 1") == nm


@pytest.mark.parametrize(
    "change,message",
    [
        ({"gap_mm": None}, "gap_mm"),
        ({"gap_mm": 500.0}, "gap_mm"),
        ({"balls": ["white", "white"]}, "names 'white' twice"),
    ],
)
def test_a_malformed_near_miss_line_is_refused(change: dict, message: str) -> None:
    d = event_to_dict(NearMiss(1.25, 75, 2, 0.4, (W_, R_), (1300.0, 631.0), 1.2))
    d.update(change)
    if change.get("gap_mm", 0) is None:
        del d["gap_mm"]
    with pytest.raises(EventLogError, match=message):
        event_from_dict(d, "line 1")
