"""synth.physics.jump: a ball jumped off the table by the analytic rigid-ball model.

Issue 4 section 4 ("a ball jumping off") and the rules it feeds: nine-ball 000 6.5 (an object ball
driven off the table is a foul) and 000 6.1 (the cue ball off the table). Checks the physics the
clip's truth rests on: the ball leaves over the rail with its centre above the rail top, energy
never grows after the stroke, on the cloth a centre-ball stroke rolls at 5/7 of its speed, events
are in time order, contacts happen where the geometry says, the ball off the table is absent from
the shot end.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import pytest

from calibration.table import load_table
from synth.physics.jump import JumpModelError, JumpPhysics, jump_off_shot, simulate_jump
from tracking.events import BallBall, CushionHit, OffTable, ShotEnd, ShotStart
from tracking.ids import BallId, Cushion

TABLE = load_table("pool_9ft")
L, W, R = TABLE.length_mm, TABLE.width_mm, TABLE.ball_radius_mm
OUTER_MM = TABLE.cushion_width_mm + TABLE.rail_width_mm
RACK = {
    BallId.CUE: (1560.0, 520.0),
    BallId.B4: (2330.0, 590.0),
    BallId.B6: (1900.0, 1010.0),
    BallId.B7: (820.0, 300.0),
    BallId.B9: (1150.0, 900.0),
}

# (name, balls, cue ball, target, speed mm/s, elevation deg, the ball expected off, over which cushion)
CASES = [
    ("object_ball_off", RACK, BallId.CUE, RACK[BallId.B4], 5000.0, 24.0, BallId.B4, Cushion.FOOT),
    ("cue_ball_jumps_over_and_off", RACK, BallId.CUE, RACK[BallId.B4], 5500.0, 32.0, BallId.CUE, Cushion.FOOT),
    (
        "cue_ball_alone_off_the_left",
        {BallId.CUE: (800.0, 900.0), BallId.B1: (400.0, 300.0)},
        BallId.CUE,
        (800.0, 1300.0),
        3500.0,
        40.0,
        BallId.CUE,
        Cushion.LEFT,
    ),
]


@cache
def _run(name: str):
    c = next(c for c in CASES if c[0] == name)
    return simulate_jump(TABLE, c[1], c[2], c[3], c[4], c[5])


def _beyond(c: Cushion, xy) -> float:
    return {Cushion.HEAD: -xy[0], Cushion.FOOT: xy[0] - L, Cushion.RIGHT: -xy[1], Cushion.LEFT: xy[1] - W}[c]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_the_ball_leaves_the_table_over_the_rail_above_its_top(case):
    """000 6.1 / 6.5 need a ball *off the table*: it leaves only with its centre past the rail's outer
    edge, at a height a ball resting on the rail top (z = rail height + R) or above."""
    name, _, _, _, _, _, gone, cushion = case
    shot = _run(name).shot
    off = [e for e in shot.events if isinstance(e, OffTable)]
    assert [e.ball for e in off] == [gone]
    j = shot.balls.index(gone)
    k = int(np.searchsorted(shot.t_s, off[0].t_s))
    assert shot.on_table[:k, j].all() and not shot.on_table[k:, j].any()
    xy, z, _ = shot.state_at(off[0].t_s)
    assert _beyond(cushion, xy[j]) == pytest.approx(OUTER_MM, abs=0.05)
    assert z[j] >= TABLE.rail_height_mm + R
    # while its centre is over the cushion or the rail, the ball never dips into them
    for i in range(k):
        s = _beyond(cushion, shot.xy_mm[i, j])
        if s > TABLE.cushion_width_mm:
            assert shot.z_mm[i, j] - R >= TABLE.rail_height_mm - 0.05
        elif s > 0.0:
            assert shot.z_mm[i, j] - R >= TABLE.cushion_nose_height_mm - 0.05
    # it rose: the jump took it well above the cloth
    assert shot.z_mm[:k, j].max() > R + TABLE.rail_height_mm


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_energy_never_grows_after_the_stroke(case):
    res = _run(case[0])
    k0 = int(np.searchsorted(res.shot.t_s, res.shot.events[0].t_s))
    e = res.energy_j[k0:]
    assert e[0] > 0.5 * 0.17 * (0.5 * case[4] / 1000) ** 2  # the stroke gave it most of its energy
    assert np.all(np.diff(e) <= 1e-9), float(np.diff(e).max())
    assert np.all(res.energy_j[:k0] == 0.0)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_events_in_time_order_and_shot_end_without_the_ball_off(case):
    shot = _run(case[0]).shot
    ev = shot.events
    assert isinstance(ev[0], ShotStart) and isinstance(ev[-1], ShotEnd)
    assert [e.t_s for e in ev] == sorted(e.t_s for e in ev)
    assert set(ev[0].positions) == set(shot.balls) and ev[0].cue_ball is case[2]
    gone = {e.ball for e in ev if isinstance(e, OffTable)}
    assert set(ev[-1].positions) == set(shot.balls) - gone
    for j, b in enumerate(shot.balls):
        if b not in gone:
            assert shot.on_table[:, j].all() and math.dist(shot.xy_mm[-1, j], ev[-1].positions[b]) < 0.01
            assert shot.z_mm[-1, j] == pytest.approx(R)
    # at rest before the stroke and after the end
    k0, k1 = (int(np.searchsorted(shot.t_s, t)) for t in (ev[0].t_s, ev[-1].t_s))
    live = [shot.balls.index(b) for b in ev[-1].positions]
    assert np.ptp(shot.xy_mm[:k0], axis=0).max() == 0.0
    assert np.ptp(shot.xy_mm[k1 + 1 :, live], axis=0).max() < 1e-6


def test_ball_ball_contact_two_radii_apart_in_three_dimensions():
    """The airborne cue ball meets the 4 above its equator: centres 2R apart in 3D (not in plan), the
    event at the midpoint of the centres in plan, the cue ball the striking ball."""
    shot = _run("object_ball_off").shot
    bb = [e for e in shot.events if isinstance(e, BallBall)]
    assert bb[0].balls == (BallId.CUE, BallId.B4)
    a, b = shot.balls.index(BallId.CUE), shot.balls.index(BallId.B4)
    # the samples at 1 kHz straddle the contact: interpolate the state just before it
    xy, z, _ = shot.state_at(bb[0].t_s)
    d3 = math.dist((*xy[a], z[a]), (*xy[b], z[b]))
    k = int(np.searchsorted(shot.t_s, bb[0].t_s))
    step = float(np.linalg.norm(shot.xy_mm[k] - shot.xy_mm[k - 1], axis=1).max())
    assert abs(d3 - 2 * R) <= step + 0.1
    assert z[a] > z[b] + 5.0  # coming down on it from above
    assert math.dist(bb[0].pos_mm, (xy[a] + xy[b]) / 2) <= step + 0.1


def test_cushion_hit_where_the_ball_touches_the_cushion():
    """A ball on the cloth meets the cushion a radius from the nose line; a ball in the air touches
    the nose or the cushion top: its centre within a radius of the cushion's profile."""
    shot = _run("object_ball_off").shot
    hits = [e for e in shot.events if isinstance(e, CushionHit)]
    assert hits and any(e.ball is BallId.B4 and e.cushion is Cushion.FOOT for e in hits)
    for e in hits:
        j = shot.balls.index(e.ball)
        _, z, _ = shot.state_at(e.t_s)
        s = _beyond(e.cushion, e.pos_mm)
        if abs(z[j] - R) < 0.01:
            assert s == pytest.approx(-R, abs=0.05)
        else:
            # the profile: nose (0, hn) rising to (cw, hr)
            hn, hr, cw = TABLE.cushion_nose_height_mm, TABLE.rail_height_mm, TABLE.cushion_width_mm
            t = float(np.clip(s / cw, 0.0, 1.0))
            top = hn + t * (hr - hn)
            assert -R <= s <= cw + R
            assert math.dist((s, z[j]), (t * cw, top)) <= R + 0.5


def test_centre_ball_stroke_rolls_at_five_sevenths_and_stops():
    """No elevation: the ball slides, then rolls at 5/7 of its speed (mu_slide), then slows at
    mu_roll g; nothing leaves the table, so jump_off_shot refuses it."""
    pos = {BallId.CUE: (600.0, 635.0), BallId.B1: (600.0, 100.0)}
    res = simulate_jump(TABLE, pos, BallId.CUE, (1000.0, 635.0), 1000.0, 0.0)
    s = res.shot
    j = 0
    v = np.diff(s.xy_mm[:, j, 0]) / np.diff(s.t_s)
    t_roll = 0.5 + 2.0 * 1000.0 / (7.0 * 0.2 * 9810.0)
    k = int(np.searchsorted(s.t_s, t_roll + 0.01))
    a = JumpPhysics().mu_roll * 9810.0
    assert v[k] == pytest.approx(1000.0 * 5 / 7 - a * (s.t_s[k] - t_roll), rel=2e-3)
    assert np.all(s.z_mm[:, j] == pytest.approx(R))
    assert not any(isinstance(e, OffTable) for e in s.events)
    with pytest.raises(JumpModelError, match="expected a ball to leave the table"):
        jump_off_shot(TABLE, pos, BallId.CUE, (1000.0, 635.0), 1000.0, 0.0)


@pytest.mark.parametrize(
    "pos, cue, target, speed, el, match",
    [
        ({BallId.CUE: (1200.0, 635.0)}, BallId.B1, (0.0, 0.0), 1000.0, 10.0, "cue ball 1 among the balls"),
        ({BallId.CUE: (1200.0, 635.0)}, BallId.CUE, (1500.0, 635.0), 1000.0, 95.0, "elevation in"),
        ({BallId.CUE: (10.0, 635.0)}, BallId.CUE, (1500.0, 635.0), 1000.0, 10.0, "on the cloth"),
        ({BallId.CUE: (1200.0, 635.0), BallId.B1: (1230.0, 635.0)}, BallId.CUE, (1500.0, 635.0), 1000.0, 10.0, "apart"),
        ({BallId.CUE: (2400.0, 150.0)}, BallId.CUE, (2540.0, 0.0), 2000.0, 0.0, "pocket"),
    ],
)
def test_what_the_model_refuses(pos, cue, target, speed, el, match):
    with pytest.raises(JumpModelError, match=match):
        simulate_jump(TABLE, pos, cue, target, speed, el)
    assert issubclass(JumpModelError, ValueError)
