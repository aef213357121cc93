"""The tracker keeps every ball's identity: through crossings, collisions, occlusions, clutter.

Detections come from the analytic shots of ``synth.tracking_sim`` (exact paths, 1 mm noise), with
noisy colour scores; a sample is right when the tracker reports the detection of that very ball.
"""

from __future__ import annotations

import numpy as np
import pytest
from sim_scoring import detections_for

from calibration.table import load_table
from synth.tracking_sim import R_, W_, Y_, sample_video, scenarios, simulate
from tracking.detections import BallDetection
from tracking.ids import CAROM_BALLS, BallId
from tracking.tracker import BallState, Tracker, TrackerError
from tracking.trajectory import Trajectory

TABLE = load_table("carom")


def _track(
    trajs: dict[BallId, Trajectory],
    seed: int = 0,
    colours: str = "always",
    hidden: dict[BallId, tuple[int, int]] | None = None,
    clutter: int = 0,
):
    """Run the tracker over sampled trajectories; return it and per-ball wrong-identity counts."""
    rng = np.random.default_rng(seed)
    tracker = Tracker(CAROM_BALLS, TABLE)
    n = len(next(iter(trajs.values())))
    hidden = hidden or {}
    wrong = dict.fromkeys(CAROM_BALLS, 0)
    for k in range(n):
        hide = tuple(b for b, (a, z) in hidden.items() if a <= k < z)
        use_colour = colours == "always" or (colours == "first" and k == 0)
        dets = detections_for(trajs, k, rng, colours=use_colour, hidden=hide, clutter=clutter, table=TABLE)
        states = tracker.update(k, float(trajs[W_].t_s[k]), dets)
        for s in states:
            if s.observed:
                true = trajs[s.ball]
                if abs(s.x_mm - true.x_mm[k]) > 1e-9 or abs(s.y_mm - true.y_mm[k]) > 1e-9:
                    wrong[s.ball] += 1
    return tracker, wrong


@pytest.mark.parametrize("fps", [30, 60])
@pytest.mark.parametrize("colours", ["always", "first"])
def test_identities_survive_two_balls_crossing(fps: int, colours: str) -> None:
    # two moving balls whose paths cross, their surfaces 10 mm apart at the closest (no
    # contact): yellow is set rolling at the same moment by its own stroke in a second simulation
    layout = {W_: (500.0, 700.0), Y_: (1500.0, 170.0), R_: (2500.0, 1200.0)}
    w = simulate(TABLE, layout, W_, (1600.0, 0.0))
    y = simulate(TABLE, layout, Y_, (0.0, 1000.0))
    # closest approach of the two independent paths: keep it a near pass, not a contact
    ts = np.linspace(0.5, 2.0, 3001)
    d = [np.linalg.norm(w.pos(W_, t) - y.pos(Y_, t)) for t in ts]
    assert TABLE.ball_diameter_mm + 5 < min(d) < TABLE.ball_diameter_mm + 15
    trajs = sample_video(w, fps, 1.0, seed=3, duration_s=4.0)
    ty = sample_video(y, fps, 1.0, seed=4, duration_s=4.0, phase_s=float(trajs[W_].t_s[0]))
    trajs[Y_] = ty[Y_]
    _, wrong = _track(trajs, colours=colours)
    assert wrong == dict.fromkeys(CAROM_BALLS, 0)


@pytest.mark.parametrize("name", ["stun_collision", "two_moving_kiss", "cut_then_cushions"])
def test_identities_survive_collisions_with_colour(name: str) -> None:
    sc = next(s for s in scenarios(TABLE) if s.name == name)
    trajs = sample_video(sc.run(TABLE), 60, 1.0, seed=1)
    _, wrong = _track(trajs)
    assert wrong == dict.fromkeys(CAROM_BALLS, 0)


def test_occluded_resting_ball_is_bridged_where_it_rests() -> None:
    sc = next(s for s in scenarios(TABLE) if s.name == "one_cushion")
    trajs = sample_video(sc.run(TABLE), 60, 1.0, seed=2)
    tracker, wrong = _track(trajs, hidden={R_: (100, 130)})  # 30 frames, red at rest
    assert wrong == dict.fromkeys(CAROM_BALLS, 0)
    red = tracker.trajectories()[R_]
    gap = ~red.observed
    assert gap.sum() == 30 and np.all(np.flatnonzero(gap) == np.arange(100, 130))
    true = np.array([2300.0, 300.0])
    assert np.all(np.hypot(red.x_mm[gap] - true[0], red.y_mm[gap] - true[1]) < 5.0)
    assert np.all(red.confidence[gap] < red.confidence[red.observed].min())


def test_occluded_moving_ball_is_found_again_after_30_frames() -> None:
    sc = next(s for s in scenarios(TABLE) if s.name == "around_table")
    trajs = sample_video(sc.run(TABLE), 60, 1.0, seed=5)
    # white hidden for 30 frames while it rolls, other balls in view
    tracker, wrong = _track(trajs, hidden={W_: (150, 180)})
    assert wrong == dict.fromkeys(CAROM_BALLS, 0)
    white = tracker.trajectories()[W_]
    assert not white.observed[150:180].any() and white.observed[180:].all()
    # the bridge is a prediction: its confidence falls while the ball is unseen
    assert np.all(np.diff(white.confidence[150:180]) <= 1e-12)


def test_clutter_and_a_struck_hidden_ball() -> None:
    sc = next(s for s in scenarios(TABLE) if s.name == "around_table")
    trajs = sample_video(sc.run(TABLE), 60, 1.0, seed=6)
    # red is hidden from frame 30 to 90 and struck (t = 1.28 s, frame ~77) while hidden
    _, wrong = _track(trajs, hidden={R_: (30, 90)}, clutter=2)
    assert wrong == dict.fromkeys(CAROM_BALLS, 0)


def test_lost_ball_is_held_with_no_confidence_then_found_by_colour() -> None:
    tracker = Tracker(CAROM_BALLS, TABLE)
    scores = {b: {o: (0.9 if o == b else 0.1) for o in CAROM_BALLS} for b in CAROM_BALLS}
    pos = {W_: (500.0, 500.0), Y_: (1500.0, 700.0), R_: (2000.0, 300.0)}
    t = 0.0
    for k in range(200):  # 200 frames at 50 fps; red vanishes for 3 s (longer than max_hidden_s)
        t = k / 50.0
        dets = [BallDetection(*pos[b], label_scores=scores[b]) for b in CAROM_BALLS if not (R_ is b and 20 <= k < 170)]
        if k >= 170:  # red back elsewhere (put back by the referee)
            dets = [d for d in dets if d.label_scores[R_] < 0.5] + [
                BallDetection(1200.0, 1000.0, label_scores=scores[R_])
            ]
        states = {s.ball: s for s in tracker.update(k, t, dets)}
        if 20 + 2.0 * 50 < k < 170:
            assert states[R_].confidence == 0.0 and not states[R_].observed
            assert (states[R_].x_mm, states[R_].y_mm) == pos[R_]
    assert states[R_].observed and (states[R_].x_mm, states[R_].y_mm) == (1200.0, 1000.0)


def test_states_and_trajectories_agree() -> None:
    tracker = Tracker((W_, Y_), TABLE)
    s1 = tracker.update(0, 0.0, [BallDetection(100.0, 100.0, label=W_), BallDetection(900.0, 900.0, label=Y_)])
    assert [s.ball for s in s1] == [W_, Y_] and all(isinstance(s, BallState) for s in s1)
    tracker.update(1, 0.02, [BallDetection(101.0, 100.0, label=W_)])
    tr = tracker.trajectories()
    assert list(tr[W_].t_s) == [0.0, 0.02] and list(tr[Y_].observed) == [True, False]
    assert list(tr[Y_].frame) == [0, 1]


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: BallDetection(float("nan"), 0.0), "finite"),
        (lambda: BallDetection(0.0, 0.0, score=1.5), "score"),
        (lambda: BallDetection(0.0, 0.0, label_scores={W_: 2.0}), "label_scores"),
        (lambda: BallDetection(0.0, 0.0, label="white"), "label"),
    ],
)
def test_bad_detections_are_refused(make, message: str) -> None:
    with pytest.raises(TrackerError, match=message):
        Tracker(CAROM_BALLS, TABLE).update(0, 0.0, [make()])


def test_time_must_increase() -> None:
    tracker = Tracker(CAROM_BALLS, TABLE)
    tracker.update(0, 1.0, [])
    with pytest.raises(TrackerError, match="must increase"):
        tracker.update(1, 1.0, [])


@pytest.mark.parametrize("gap_frames, taken", [(2, True), (3, False), (8, False), (60, False)])
def test_an_unnamed_detection_continues_a_ball_in_flight_but_finds_no_lost_one(gap_frames: int, taken: bool) -> None:
    """A streak (no colour evidence, vision/streaks.py) is taken by a ball seen within
    ``unnamed_gap_s`` (0.1 s, here 2 frames at 25 fps): the red, gone from its place, is the streak
    300 mm on; after a longer gap nothing says the streak is the red (issue 13 section 3). (In the
    frame right after it was seen at rest, no striker near, a ball cannot be 300 mm away at all:
    the tracker's gate.)"""
    tracker = Tracker(CAROM_BALLS, TABLE)
    scores = {b: {o: (0.9 if o == b else 0.05) for o in CAROM_BALLS} for b in CAROM_BALLS}
    pos = {W_: (500.0, 500.0), Y_: (1500.0, 700.0), R_: (2000.0, 300.0)}
    fps = 25.0
    k = 0
    for k in range(10):
        tracker.update(k, k / fps, [BallDetection(*pos[b], label_scores=scores[b]) for b in CAROM_BALLS])
    others = [BallDetection(*pos[b], label_scores=scores[b]) for b in (W_, Y_)]
    for _ in range(gap_frames - 1):  # the red unseen
        k += 1
        tracker.update(k, k / fps, others)
    k += 1
    streak = BallDetection(2240.0, 480.0, score=0.3, streak_px=(0.0, 0.0, 1.0, 1.0))
    states = {s.ball: s for s in tracker.update(k, k / fps, [*others, streak])}
    assert states[R_].observed is taken
    if taken:
        assert (states[R_].x_mm, states[R_].y_mm) == (2240.0, 480.0)
