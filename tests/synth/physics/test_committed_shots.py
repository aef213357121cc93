"""The committed synthetic shots (sample_data/shots/*.npz) are self-consistent physics truth.

Runs without pooltool, on the files as committed: every trajectory stays on the cloth, every truth
event agrees with the trajectory at its time (cushion hits R from their cushion, ball-ball contacts
2R apart), the balls rest before the stroke and after the shot end, no ball changes velocity
without an event, and the expected call in ``meta`` agrees with a recount of the events (and with
pooltool's own three-cushion verdict, recorded at generation).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from calibration.table import load_table
from synth.physics.shots import list_shots, load_shot
from tracking.events import BallBall, CushionHit, OffTable, Pocketed, ShotEnd, ShotStart, group_shots
from tracking.ids import BallId, Cushion

TABLE = load_table("carom")
L, W, R = TABLE.length_mm, TABLE.width_mm, TABLE.ball_radius_mm
NAMES = [p.stem for p in list_shots()]

# Brief items that must be covered (three-cushion rules 003, art. 2 (a)-(d), 3, 10; break 002 ART 6).
REQUIRED = [
    "point_2a",
    "point_2b_bricole",
    "point_2c",
    "miss_two_cushions",
    "miss_one_ball",
    "close_call_point",
    "close_call_miss",
    "kiss",
    "frozen_cue_ball",
    "long_six_cushions",
    "break_shot",
    "sequence_point_then_next",
]


@pytest.fixture(scope="module", params=NAMES)
def shot(request):
    return load_shot(request.param)


def _gap_to(cushion: Cushion, p) -> float:
    x, y = p
    return {Cushion.HEAD: x, Cushion.FOOT: L - x, Cushion.RIGHT: y, Cushion.LEFT: W - y}[cushion]


def _ball_events_t(shot, ball: BallId) -> list[float]:
    out = []
    for e in shot.events:
        if (
            isinstance(e, CushionHit)
            and e.ball is ball
            or isinstance(e, BallBall)
            and ball in e.balls
            or isinstance(e, (ShotStart,))
        ):
            out.append(e.t_s)
    return out


def _position_at(shot, j: int, t: float) -> tuple[np.ndarray, np.ndarray]:
    """Ball j's centre at event time t, extrapolated linearly from the two samples before t and
    from the two samples after t (the trajectory is smooth on either side of a contact)."""
    dt = shot.t_s[1] - shot.t_s[0]
    k = int(np.searchsorted(shot.t_s, t, side="right") - 1)
    xy = shot.xy_mm[:, j]
    before = xy[k] + (xy[k] - xy[k - 1]) * (t - shot.t_s[k]) / dt
    after = xy[k + 1] - (xy[k + 2] - xy[k + 1]) * (shot.t_s[k + 1] - t) / dt
    return before, after


def _close(shot, j: int, t: float, p, tol_mm: float) -> bool:
    before, after = _position_at(shot, j, t)
    return min(math.dist(before, p), math.dist(after, p)) <= tol_mm


def test_every_brief_scenario_is_committed():
    missing = [n for n in REQUIRED if n not in NAMES]
    assert not missing, f"missing synthetic shots: {missing}"
    extras = [n for n in NAMES if n not in REQUIRED]
    assert len(extras) >= 2, f"need at least two extra varied shots besides the brief's, got {extras}"


def test_extras_include_points_and_misses():
    calls = [m["expected_call"]["point"] for n in NAMES for m in load_shot(n).meta["shots"]]
    assert any(calls) and not all(calls)


def test_sampling_is_uniform_1khz_and_clip_lengths(shot):
    dt = np.diff(shot.t_s)
    assert shot.t_s[0] == 0.0
    assert np.allclose(dt, 1e-3, atol=1e-9)
    limit = 16.0 if len(shot.meta["shots"]) > 1 else 10.0
    assert 4.0 <= shot.duration_s <= limit


def test_centres_stay_on_the_cloth(shot):
    x, y = shot.xy_mm[..., 0], shot.xy_mm[..., 1]
    lo = R - 0.5
    assert x.min() >= lo and y.min() >= lo
    assert (L - x).min() >= lo and (W - y).min() >= lo
    assert np.allclose(shot.z_mm, R)
    assert shot.on_table.all()
    assert not any(isinstance(e, (OffTable, Pocketed)) for e in shot.events)


def test_events_are_time_ordered_and_framed_per_shot(shot):
    ts = [e.t_s for e in shot.events]
    assert ts == sorted(ts)
    assert all(e.frame == 0 and e.confidence == 1.0 for e in shot.events)
    shots = group_shots(list(shot.events))
    assert [s.number for s in shots] == list(range(1, len(shot.meta["shots"]) + 1))
    for s in shots:
        assert s.start is not None and s.end is not None
        assert s.start.t_s <= s.events[1].t_s and s.end.t_s >= s.events[-2].t_s


def test_rest_before_the_stroke_and_after_the_end(shot):
    starts = [e for e in shot.events if isinstance(e, ShotStart)]
    ends = [e for e in shot.events if isinstance(e, ShotEnd)]
    assert starts[0].t_s >= 0.6
    assert shot.t_s[-1] - ends[-1].t_s >= 0.5
    for s in starts:
        k = int(np.searchsorted(shot.t_s, s.t_s, side="right") - 1)
        for j, b in enumerate(shot.balls):
            assert math.dist(shot.xy_mm[k, j], s.positions[b]) < 0.01
    for e in ends:
        k = int(np.searchsorted(shot.t_s, e.t_s, side="left"))
        for j, b in enumerate(shot.balls):
            assert math.dist(shot.xy_mm[k, j], e.positions[b]) < 0.01
    first = int(np.searchsorted(shot.t_s, starts[0].t_s, side="right"))
    assert np.abs(shot.xy_mm[:first] - shot.xy_mm[0]).max() < 1e-6
    last = int(np.searchsorted(shot.t_s, ends[-1].t_s, side="left"))
    assert np.abs(shot.xy_mm[last:] - shot.xy_mm[-1]).max() < 1e-6


def test_shot_start_names_frozen_balls_and_contacts(shot):
    for s in (e for e in shot.events if isinstance(e, ShotStart)):
        assert set(s.positions) == set(shot.balls)
        for b, p in s.positions.items():
            nearest = min(Cushion, key=lambda c: _gap_to(c, p))
            touching = abs(_gap_to(nearest, p) - R) < 0.01
            assert (b in s.frozen_to_cushion) == touching, (b, p)
            if touching:
                assert s.frozen_to_cushion[b] is nearest
        for a, b in s.balls_in_contact:
            assert abs(math.dist(s.positions[a], s.positions[b]) - 2 * R) < 0.01


def test_cushion_hits_are_r_from_their_cushion_and_on_the_path(shot):
    hits = [e for e in shot.events if isinstance(e, CushionHit)]
    assert hits
    for e in hits:
        assert abs(_gap_to(e.cushion, e.pos_mm) - R) < 0.01, e
        j = shot.balls.index(e.ball)
        assert _close(shot, j, e.t_s, e.pos_mm, 0.5), e


def test_ball_ball_contacts_are_2r_apart_on_the_paths(shot):
    for e in (e for e in shot.events if isinstance(e, BallBall)):
        ja, jb = shot.balls.index(e.balls[0]), shot.balls.index(e.balls[1])
        # The contact point is the midpoint of the two centres; each centre is R from it.
        pa_b, pa_a = _position_at(shot, ja, e.t_s)
        pb_b, pb_a = _position_at(shot, jb, e.t_s)
        d = min(abs(math.dist(pa_b, pb_b) - 2 * R), abs(math.dist(pa_a, pb_a) - 2 * R))
        assert d < 0.5, (e, d)
        mid = min(math.dist((pa_b + pb_b) / 2, e.pos_mm), math.dist((pa_a + pb_a) / 2, e.pos_mm))
        assert mid < 0.5, (e, mid)


def test_striking_ball_was_the_faster_before_contact(shot):
    for e in (e for e in shot.events if isinstance(e, BallBall)):
        k = int(np.searchsorted(shot.t_s, e.t_s, side="right") - 1)
        speeds = []
        for b in e.balls:
            j = shot.balls.index(b)
            speeds.append(float(np.linalg.norm(shot.xy_mm[k, j] - shot.xy_mm[k - 1, j])))
        assert speeds[0] >= speeds[1] - 0.05, (e, speeds)


def test_no_velocity_change_without_an_event(shot):
    """Friction changes a ball's velocity by at most ~2 m/s^2 (0.002 mm per ms^2); a contact
    changes it by a step. Every step in the sampled path must sit at one of that ball's events."""
    acc = np.linalg.norm(shot.xy_mm[2:] - 2 * shot.xy_mm[1:-1] + shot.xy_mm[:-2], axis=2)  # (N-2, B)
    for j, b in enumerate(shot.balls):
        ev_t = np.array(_ball_events_t(shot, b))
        for i in np.nonzero(acc[:, j] > 0.05)[0]:
            t_mid = shot.t_s[i + 1]
            assert np.min(np.abs(ev_t - t_mid)) <= 1.0e-3 + 1e-9, (b, t_mid, acc[i, j])


def _recount(events, cue: BallId, frozen: Cushion | None) -> tuple[bool, int | None, list[BallId]]:
    """Art. 2, 3 and 10 by hand: cue-ball cushion impacts before its first contact with the
    second object ball; with ``frozen``, a first cue-ball event that is a contact with that
    cushion is not an impact (pass ``None`` for the count without art. 10)."""
    cushions, hit, at_second, first_event = 0, [], None, True
    for e in events:
        if isinstance(e, CushionHit) and e.ball is cue:
            if not (first_event and e.cushion is frozen):
                cushions += 1
            first_event = False
        elif isinstance(e, BallBall) and cue in e.balls:
            first_event = False
            other = e.balls[0] if e.balls[1] is cue else e.balls[1]
            if other not in hit:
                hit.append(other)
                if len(hit) == 2:
                    at_second = cushions
    return at_second is not None and at_second >= 3, at_second, hit


def test_meta_call_agrees_with_a_recount_and_with_pooltool(shot):
    for s, m in zip(group_shots(list(shot.events)), shot.meta["shots"]):
        call = m["expected_call"]
        cue = s.start.cue_ball
        assert call["shot"] == s.number and call["cue_ball"] == cue.value
        point, at_second, hit = _recount(s.events, cue, s.start.frozen_to_cushion.get(cue))
        assert call["point"] == point
        assert call["cushions_before_second"] == at_second
        assert call["object_balls_hit"] == [b.value for b in hit]
        if m["pooltool_is_point"] is not None:
            # pooltool's three-cushion ruleset counts every impact: it knows nothing of art. 10.
            assert m["pooltool_is_point"] == _recount(s.events, cue, None)[0]
        if call["margin_ms"] is not None:
            assert (call["margin_ms"] > 0) == (call["third_cushion_t_s"] < call["second_ball_t_s"])


def test_scenario_requirements_hold():
    def call(name: str, k: int = 0) -> dict:
        return load_shot(name).meta["shots"][k]["expected_call"]

    assert call("point_2a")["pattern"] == "2a"
    assert call("point_2b_bricole")["pattern"] == "2b"
    assert call("point_2c")["pattern"] in ("2c", "2d")
    miss2 = call("miss_two_cushions")
    assert not miss2["point"] and miss2["cushions_before_second"] == 2
    assert len(call("miss_one_ball")["object_balls_hit"]) == 1
    cp, cm = call("close_call_point"), call("close_call_miss")
    assert cp["point"] and 0 < cp["margin_ms"] < 10
    assert not cm["point"] and -10 < cm["margin_ms"] < 0
    assert call("kiss")["kiss_first_ball"]
    frozen = load_shot("frozen_cue_ball")
    start = frozen.events[0]
    assert start.cue_ball in start.frozen_to_cushion
    into = call("frozen_cue_into_cushion")
    assert into["frozen_contact_discounted"] and into["cushions_before_second"] == 2 and not into["point"]
    fo = load_shot("frozen_object_ball")
    assert BallId(call("frozen_object_ball")["object_balls_hit"][0]) in fo.events[0].frozen_to_cushion
    assert load_shot("balls_in_contact").events[0].balls_in_contact
    assert call("long_six_cushions")["cue_cushions_total"] >= 6
    brk = load_shot("break_shot")
    s0 = brk.events[0]
    spots = TABLE.spots_mm
    assert s0.positions[BallId.RED] == tuple(spots["foot"])
    assert s0.positions[BallId.YELLOW] == tuple(spots["head_centre"])
    assert s0.positions[BallId.WHITE] in (tuple(spots["head_right"]), tuple(spots["head_left"]))
    assert s0.cue_ball is BallId.WHITE and call("break_shot")["object_balls_hit"][0] == "red"
    seq = load_shot("sequence_point_then_next")
    assert call("sequence_point_then_next", 0)["point"]
    assert {e.shot for e in seq.events} == {1, 2}
    ends = [e for e in seq.events if isinstance(e, ShotEnd)]
    starts = [e for e in seq.events if isinstance(e, ShotStart)]
    assert starts[1].cue_ball is starts[0].cue_ball
    for b in seq.balls:
        assert math.dist(ends[0].positions[b], starts[1].positions[b]) < 1e-3
