"""Event inference on a sparse recorder's trajectories (issue 13, item 4): the cue ball is the ball
that moves first, a silence is a ball at rest (not a path), the recorder's closing report makes no
shot, a ball rolling to a stop stays in its shot, a slow push shows as a contact. Three-cushion
003 art. 2-3 is what the counts decide; the data here are hand-made (tests/tracking/sparse_recorder)."""

from __future__ import annotations

import numpy as np
import pytest
from sparse_recorder import Path2D, record, struck_from_rest

from calibration.table import load_table
from tracking.events import BallBall, CushionHit, ShotEnd, ShotStart
from tracking.ids import BallId, Cushion
from tracking.infer import InferenceConfig, infer_events
from tracking.sampling import Sampling, detect_sampling
from tracking.trajectory import Trajectory

TABLE = load_table("carom")


def _frames(paths: dict[BallId, Path2D], t_end: float, fps: float = 60.0) -> dict[BallId, Trajectory]:
    t = np.arange(0.0, t_end, 1.0 / fps)
    out = {}
    for b, p in paths.items():
        xy = np.array([p.at(float(x)) for x in t])
        out[b] = Trajectory(b, t, np.arange(len(t)), xy[:, 0], xy[:, 1], np.ones(len(t), bool), np.ones(len(t)))
    return out


def test_sampling_told_apart() -> None:
    paths, _ = struck_from_rest(0.1)
    sparse = detect_sampling(record(paths, 3.0))
    assert sparse.kind is Sampling.SPARSE and abs(sparse.spacing_s - 0.02) < 1e-6
    assert "at rest" in sparse.why
    frames = detect_sampling(_frames(paths, 3.0))
    assert frames.kind is Sampling.FRAMES


@pytest.mark.parametrize("t_contact", [0.04, 0.07, 0.12, 0.3, 0.6])
def test_cue_ball_is_the_first_mover_and_the_silence_a_rest(t_contact: float) -> None:
    paths, tc = struck_from_rest(t_contact)
    events = infer_events(record(paths, 3.0), TABLE)
    starts = [e for e in events if isinstance(e, ShotStart)]
    assert len(starts) == 1, "the recorder's closing report of every ball is no shot"
    start = starts[0]
    assert start.cue_ball is BallId.WHITE
    assert start.confidence >= 0.9  # the recording opens with the white alone under way
    assert start.positions[BallId.WHITE] == pytest.approx((400.0, 700.0))
    assert BallId.RED in start.positions  # at rest until struck: its silence is no path
    hits = [e for e in events if isinstance(e, BallBall)]
    assert [set(h.balls) for h in hits] == [{BallId.WHITE, BallId.RED}]
    assert abs(hits[0].t_s - tc) <= 0.03
    # the red's silence before it is struck is its rest, not a doubt about the contact (003 art. 2:
    # a point resting on it is not sent for review for that): 0.78 at 0.6 s of silence before
    assert hits[0].confidence >= 0.95
    assert any(isinstance(e, ShotEnd) for e in events)


def test_frames_unchanged_by_the_sparse_rules() -> None:
    paths, tc = struck_from_rest(0.12)
    events = infer_events(_frames(paths, 3.0), TABLE, InferenceConfig(sampling=Sampling.FRAMES))
    hits = [e for e in events if isinstance(e, BallBall)]
    assert [set(h.balls) for h in hits] == [{BallId.WHITE, BallId.RED}]
    assert abs(hits[0].t_s - tc) <= 0.01


def test_ball_rolling_to_a_stop_stays_in_its_shot() -> None:
    # reported every 10 mm: at the end a report only every ~1.3 s, each a step the same way
    white = Path2D(((0.0, 400.0, 700.0), (1.0, 1400.0, 700.0), (2.0, 1500.0, 700.0), (8.0, 1545.0, 700.0)))
    paths = {
        BallId.WHITE: white,
        BallId.RED: Path2D(((0.0, 2000.0, 300.0),)),
        BallId.YELLOW: Path2D(((0.0, 2300.0, 1100.0),)),
    }
    # the recording closes 0.15 s after the last slow report (re-measured 0.3 mm off)
    events = infer_events(record(paths, 6.17, closing_mm=0.3), TABLE)
    assert sum(isinstance(e, ShotStart) for e in events) == 1


def test_slow_push_of_a_resting_ball_is_a_contact() -> None:
    # the yellow rolls slowly into the red and pushes it 26 mm: reported every 25 mm, the red's
    # one report is its arrival, and the closing report stands 1.5 mm from it
    yellow = Path2D(((0.0, 400.0, 700.0), (2.0, 1938.5, 700.0), (2.5, 1938.5, 700.0)))
    red = Path2D(((0.0, 2000.0, 700.0), (2.0, 2000.0, 700.0), (3.0, 2026.0, 700.0)))
    paths = {BallId.YELLOW: yellow, BallId.RED: red, BallId.WHITE: Path2D(((0.0, 700.0, 300.0),))}
    traj = record(paths, 6.0, step_mm=25.0, closing_mm=0.5)
    events = infer_events(traj, TABLE)
    hits = [e for e in events if isinstance(e, BallBall)]
    assert [set(h.balls) for h in hits] == [{BallId.YELLOW, BallId.RED}]
    assert 1.5 <= hits[0].t_s <= 3.0


def test_a_slower_recorder_whose_balls_move_to_the_end_is_told_by_its_thinning_reports() -> None:
    # issue 13 item 4: the real recorder thinned to 25 Hz (bench: its 60 shots re-sampled) has no
    # resting silence long enough (20 of its 40 ms ticks) in a shot whose balls all roll to its end:
    # shot 9 was read as video frames, and the red's last report, 0.5 s after the one before as it
    # crept to a stop, made an empty second shot. A ball reported each centimetre thins out as it
    # slows; a video samples it every frame.
    def slowing(y: float) -> Path2D:  # 1500 mm/s for 1 s, 200 mm/s for 1 s, 30 mm/s for 2 s
        return Path2D(((0.0, 300.0, y), (1.0, 1800.0, y), (2.0, 2000.0, y), (4.0, 2060.0, y)))

    paths = {BallId.WHITE: slowing(300.0), BallId.YELLOW: slowing(700.0), BallId.RED: slowing(1100.0)}
    sparse = detect_sampling(record(paths, 4.0, pace_s=0.04))
    assert sparse.kind is Sampling.SPARSE, sparse.why
    assert "in a row" in sparse.why
    assert detect_sampling(_frames(paths, 4.0, fps=25.0)).kind is Sampling.FRAMES
    events = infer_events(record(paths, 4.0, pace_s=0.04), TABLE)
    assert sum(isinstance(e, ShotStart) for e in events) == 1, "the last reports of a crawl are no new shot"


def _ball_then_cushion(white_rest_off_mm: tuple[float, float]) -> dict[BallId, Trajectory]:
    """A 25 Hz recorder, each ball on its own ticks (as the real recorder thinned to 25 Hz): the
    yellow at 6.7 m/s meets the white resting by the head-right corner at 0.122 s and, slowed by
    it, the head cushion at 0.159 s, the instant of its next report (the real shot 37's geometry,
    issue 13's 25 Hz variant); the white leaves along the line of centres into the right
    cushion; the red rests far away. The white's one report at rest is ``white_rest_off_mm`` off its
    place (a recorder that measured it under the player's arm)."""
    t_c, t_k, D, R = 0.122, 0.159, TABLE.ball_diameter_mm, TABLE.ball_radius_mm
    white0 = np.array([141.4, 146.0])
    n = np.array([-0.287, -0.958]) / np.hypot(0.287, 0.958)  # line of centres, yellow -> white
    v_in = np.array([-6680.0, -410.0])
    contact = white0 - D * n  # the yellow's centre at the contact
    u = v_in - (v_in @ n) * n  # the yellow keeps the tangential part...
    u = u * (contact[0] - R) / (-u[0] * (t_k - t_c))  # ...slowed so as to meet the cushion at t_k
    at_k = contact + u * (t_k - t_c)
    out = np.array([0.9365, 0.3507])  # off the cushion, slowing to a stop
    yellow = Path2D(
        (
            (0.0, *(contact - v_in * t_c)),
            (t_c, *contact),
            (t_k, *at_k),
            (t_k + 0.35, *(at_k + 1500.0 * out)),
            (t_k + 1.05, *(at_k + 2300.0 * out)),
            (t_k + 1.85, *(at_k + 2600.0 * out)),
        )
    )
    w_v = (v_in @ n) * n  # the white takes the normal part
    t_r = t_c + (white0[1] - R) / -w_v[1]  # the white at the right cushion
    at_r = white0 + w_v * (t_r - t_c)
    white = Path2D(((0.0, *white0), (t_c, *white0), (t_r, *at_r), (t_r + 0.6, at_r[0] - 40.0, at_r[1] + 600.0)))

    def reports(ball: BallId, path: Path2D, ticks: list[float], off: tuple[float, float] = (0.0, 0.0)) -> Trajectory:
        xy = np.array([path.at(t) for t in ticks])
        xy[0] += off
        k = len(ticks)
        return Trajectory(ball, np.array(ticks), np.arange(k), xy[:, 0], xy[:, 1], np.ones(k, bool), np.ones(k))

    return {
        BallId.YELLOW: reports(BallId.YELLOW, yellow, [0.0, *(0.0395 + 0.04 * np.arange(55))]),
        BallId.WHITE: reports(BallId.WHITE, white, [0.0, *(0.139 + 0.04 * np.arange(52))], white_rest_off_mm),
        BallId.RED: reports(BallId.RED, Path2D(((0.0, 943.2, 1345.5),)), [0.0, 2.2]),
    }


@pytest.mark.parametrize(
    "white_rest_off_mm",
    [(0.0, 0.0), (-20.0, -20.0)],
    ids=["the contact seen in the paths", "the contact inferred from the white set moving"],
)
def test_a_cushion_in_the_report_gap_after_a_contact_is_found(white_rest_off_mm: tuple[float, float]) -> None:
    # issue 13 items 4-5: at 25 Hz the yellow's contact with the white falls between two reports,
    # the next one at its head cushion 37 ms later. The cushion's fits ran across the contact (timed
    # at the report before it, which then bounded nothing), and where the contact showed only by
    # its effect (the white set moving: tracking/infer/unseen.py) they did not know of it at all.
    # Three-cushion 003 art. 2-3 counts that cushion: missing it turned a point into a miss with
    # no review (bench/real_tracks_variants.py, rate25 shot 37).
    events = infer_events(_ball_then_cushion(white_rest_off_mm), TABLE)
    start = next(e for e in events if isinstance(e, ShotStart))
    assert start.cue_ball is BallId.YELLOW
    mids = [e for e in events if isinstance(e, (BallBall, CushionHit))]
    contact = next(e for e in mids if isinstance(e, BallBall))
    assert set(contact.balls) == {BallId.YELLOW, BallId.WHITE}
    assert contact.t_s == pytest.approx(0.122, abs=0.01)
    yellow_head = [
        e for e in mids if isinstance(e, CushionHit) and e.ball is BallId.YELLOW and e.cushion is Cushion.HEAD
    ]
    assert len(yellow_head) == 1, f"the yellow's head cushion: {mids}"
    assert contact.t_s < yellow_head[0].t_s == pytest.approx(0.159, abs=0.01)


@pytest.mark.parametrize("lost_s", [0.08, 0.15])
def test_a_struck_balls_first_reports_lost_its_silence_is_still_a_rest(lost_s: float) -> None:
    """A resting ball reported once, silent for 1.5 s, struck, and its first reports after the
    stroke lost: it is next seen far from where it rested (a path through the silence would have
    it creep across the table for 1.5 s and move first, the cue ball). The white is the cue ball
    (003 art. 2: the player's ball is struck) and the red rested until it was met."""
    paths, tc = struck_from_rest(1.5)
    trajs = record(paths, 4.0)
    red = trajs[BallId.RED]
    keep = ~((red.t_s > tc) & (red.t_s < tc + lost_s))
    trajs[BallId.RED] = Trajectory(
        BallId.RED,
        red.t_s[keep],
        red.frame[keep],
        red.x_mm[keep],
        red.y_mm[keep],
        red.observed[keep],
        red.confidence[keep],
    )
    first_after = int(np.argmax(trajs[BallId.RED].t_s > tc))
    jump = np.hypot(
        trajs[BallId.RED].x_mm[first_after] - red.x_mm[0], trajs[BallId.RED].y_mm[first_after] - red.y_mm[0]
    )
    assert jump > 40.0  # beyond the silent-jump limit: the case the rule is for
    events = infer_events(trajs, TABLE)
    (start,) = [e for e in events if isinstance(e, ShotStart)]
    assert start.cue_ball is BallId.WHITE
    assert start.positions[BallId.RED] == pytest.approx((red.x_mm[0], red.y_mm[0]))
    assert [set(h.balls) for h in events if isinstance(h, BallBall)] == [{BallId.WHITE, BallId.RED}]
