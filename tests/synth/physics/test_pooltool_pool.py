"""The committed pool and snooker shots (``sample_data/pool_shots``, made by pooltool through
``tools/make_pool_shots.py``) carry consistent truth: no pooltool here, only the files.

Checked on every shot: events in time order from ``shot_start`` to ``shot_end``; a pocketed ball
is absent from ``shot_end`` and off the table in the paths from its pocket event on, the others
on it; ball-ball contact points are one radius from both centres (2R apart); a cushion contact
on a straight nose has the ball centre one radius from that nose line; a pocketing happens next
to the pocket it names (the pooltool pocket-id map); the paths agree with the start and end
positions; each shot is the outcome it is named for.
"""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from synth.physics.pooltool_pocket_frame import (
    PT_POCKET_SEGMENT_TO_CUSHION,
    ball_of_pt,
    cushion_of_pocket_segment,
    pocket_of_pt,
    pt_ball_of,
)
from synth.physics.trajectory import SimShot
from tracking.events import BallBall, CushionHit, OffTable, Pocketed, ShotEnd, ShotStart
from tracking.ids import BallId, Cushion, Pocket

REPO = Path(__file__).resolve().parents[3]
FOLDER = REPO / "sample_data" / "pool_shots"
SHOTS = sorted(FOLDER.glob("*.npz"))
SIZES = {"pool_9ft": (2540.0, 1270.0, 57.15 / 2), "snooker": (3569.0, 1778.0, 52.5 / 2)}


def test_pool_shots_are_in_the_repository() -> None:
    """sample_data/pool_shots is committed: its absence is a bug, not a reason to skip."""
    assert len(SHOTS) >= 8, SHOTS


@cache
def _load(path: Path) -> SimShot:
    return SimShot.load(path)


def _ids(p: Path) -> str:
    return p.stem


def test_the_brief_s_shots_are_there() -> None:
    names = {p.stem for p in SHOTS}
    assert {"nine_break", "pot", "scratch", "combination", "jaws", "snooker_break", "snooker_pot"} <= names


@pytest.mark.parametrize("path", SHOTS, ids=_ids)
def test_events_ordered_and_framed(path: Path) -> None:
    s = _load(path)
    ev = s.events
    assert isinstance(ev[0], ShotStart) and isinstance(ev[-1], ShotEnd)
    times = [e.t_s for e in ev]
    assert times == sorted(times)
    assert s.t_s[0] <= times[0] and times[-1] <= s.t_s[-1]
    assert s.meta["rest_t_s"] - s.meta["stroke_t_s"] <= 8.0
    assert set(ev[0].positions) == set(s.balls)


@pytest.mark.parametrize("path", SHOTS, ids=_ids)
def test_pocketed_balls_leave_the_table(path: Path) -> None:
    s = _load(path)
    end = s.events[-1]
    pocketed = {e.ball: e for e in s.events if isinstance(e, (Pocketed, OffTable))}  # both leave the table
    assert set(end.positions) == set(s.balls) - set(pocketed)
    for j, b in enumerate(s.balls):
        if b in pocketed:
            k = int(np.searchsorted(s.t_s, pocketed[b].t_s))
            assert s.on_table[: k - 1, j].all() and not s.on_table[k + 1 :, j].any()
        else:
            assert s.on_table[:, j].all()
            assert math.dist(s.xy_mm[-1, j], end.positions[b]) < 0.05
        assert math.dist(s.xy_mm[0, j], s.events[0].positions[b]) < 0.05


@pytest.mark.parametrize("path", SHOTS, ids=_ids)
def test_pocketing_next_to_the_pocket_it_names(path: Path) -> None:
    """The pooltool pocket-id map (lb head_left, rb head_right, lc/rc sides, lt/rt foot): the
    ball's last position on the cloth lies within a mouth's reach of the named pocket's corner."""
    s = _load(path)
    L, W, r = SIZES[s.table]
    corner = {
        Pocket.HEAD_RIGHT: (0, 0),
        Pocket.HEAD_LEFT: (0, W),
        Pocket.SIDE_RIGHT: (L / 2, 0),
        Pocket.SIDE_LEFT: (L / 2, W),
        Pocket.FOOT_RIGHT: (L, 0),
        Pocket.FOOT_LEFT: (L, W),
    }
    for e in s.events:
        if isinstance(e, Pocketed):
            j = s.balls.index(e.ball)
            k = int(np.searchsorted(s.t_s, e.t_s)) - 1
            d = {p: math.dist(s.xy_mm[k, j], c) for p, c in corner.items()}
            assert min(d, key=d.get) is e.pocket and d[e.pocket] < 150.0, (e.ball, e.pocket, d)


@pytest.mark.parametrize("path", SHOTS, ids=_ids)
def test_contacts_at_two_radii_and_cushions_one_radius_from_the_nose(path: Path) -> None:
    s = _load(path)
    L, W, r = SIZES[s.table]
    nose = {c["event"]: c["nose"] for c in s.meta["cushion_segments"]}
    line = {
        Cushion.HEAD: lambda p: p[0],
        Cushion.FOOT: lambda p: L - p[0],
        Cushion.RIGHT: lambda p: p[1],
        Cushion.LEFT: lambda p: W - p[1],
    }
    n_nose = 0
    for i, e in enumerate(s.events):
        if isinstance(e, BallBall):
            # the 1 kHz samples interpolate across the contact: allow what the balls move in 1 ms
            # (in 3-D: an airborne ball, jump_off, meets another from above)
            xy, z, _ = s.state_at(e.t_s)
            a, b = (s.balls.index(x) for x in e.balls)
            k = int(np.searchsorted(s.t_s, e.t_s))
            step = np.linalg.norm(s.xy_mm[k + 1] - s.xy_mm[k - 1], axis=1) / 2.0
            step += np.abs(s.z_mm[k + 1] - s.z_mm[k - 1]) / 2.0
            tol = 0.1 + step[a] + step[b]
            pa, pb = (*xy[a], z[a]), (*xy[b], z[b])
            assert abs(math.dist(pa, pb) - 2 * r) < tol, (e, math.dist(pa, pb), tol)
            if abs(z[a] - z[b]) < 1.0:  # the contact point in plan is between two balls on the cloth
                assert abs(math.dist(xy[a], e.pos_mm) - r) < tol and abs(math.dist(xy[b], e.pos_mm) - r) < tol
        elif isinstance(e, CushionHit):
            assert i in nose
            if nose[i]:
                n_nose += 1
                assert abs(line[e.cushion](e.pos_mm) - r) < 0.05, (e, line[e.cushion](e.pos_mm))
            else:  # a jaw: beyond the nose line's reach of the playing surface, near a pocket
                assert line[e.cushion](e.pos_mm) < r + 60.0
    if any(isinstance(e, CushionHit) for e in s.events):
        assert n_nose or s.meta["name"] == "jaws"


def _first_hit(s: SimShot) -> BallId | None:
    for e in s.events:
        if isinstance(e, BallBall) and BallId.CUE in e.balls:
            return e.balls[1] if e.balls[0] is BallId.CUE else e.balls[0]
    return None


def _pocketed(s: SimShot) -> dict[BallId, Pocket]:
    return {e.ball: e.pocket for e in s.events if isinstance(e, Pocketed)}


def test_each_shot_is_what_it_is_named() -> None:
    shots = {p.stem: _load(p) for p in SHOTS}
    nb = shots["nine_break"]
    assert len(nb.balls) == 10 and _first_hit(nb) is BallId.B1
    assert set(_pocketed(nb)) - {BallId.CUE} and BallId.CUE not in _pocketed(nb)
    obj_cushioned = {e.ball for e in nb.events if isinstance(e, CushionHit) and e.ball is not BallId.CUE}
    assert len(obj_cushioned) >= 4  # object-ball cushion contacts are in the truth
    pot = shots["pot"]
    assert _pocketed(pot) == {BallId.B3: Pocket.parse(pot.meta["called"]["pocket"])}
    assert BallId.CUE in _pocketed(shots["scratch"])
    comb = shots["combination"]
    assert _first_hit(comb) is BallId.B1 and _pocketed(comb) == {BallId.B5: Pocket.parse(comb.meta["called"]["pocket"])}
    jaws = shots["jaws"]
    jaw_hits = [c for c in jaws.meta["cushion_segments"] if not c["nose"] and jaws.events[c["event"]].ball is BallId.B6]
    assert len(jaw_hits) >= 2 and BallId.B6 not in _pocketed(jaws)
    sb = shots["snooker_break"]
    assert len(sb.balls) == 22 and _first_hit(sb).value.startswith("red_") and not _pocketed(sb)
    sp = shots["snooker_pot"]
    assert _pocketed(sp) == {BallId.RED_1: Pocket.parse(sp.meta["called"]["pocket"])}


@pytest.mark.parametrize(
    "pt_id, ours",
    [
        ("lb", Pocket.HEAD_LEFT),
        ("rb", Pocket.HEAD_RIGHT),
        ("lc", Pocket.SIDE_LEFT),
        ("rc", Pocket.SIDE_RIGHT),
        ("lt", Pocket.FOOT_LEFT),
        ("rt", Pocket.FOOT_RIGHT),
    ],
)
def test_pocket_map(pt_id: str, ours: Pocket) -> None:
    assert pocket_of_pt(pt_id) is ours


def test_segment_and_ball_maps() -> None:
    assert len(PT_POCKET_SEGMENT_TO_CUSHION) == 30
    assert cushion_of_pocket_segment("18") is Cushion.HEAD and cushion_of_pocket_segment("9") is Cushion.FOOT
    assert cushion_of_pocket_segment("3") is Cushion.LEFT and cushion_of_pocket_segment("12") is Cushion.RIGHT
    with pytest.raises(ValueError, match="unknown pooltool pocket-table cushion segment"):
        cushion_of_pocket_segment("99")
    assert ball_of_pt("white") is BallId.CUE and ball_of_pt("red_07") is BallId.RED_7 and ball_of_pt("9") is BallId.B9
    assert pt_ball_of(BallId.RED_12, snooker=True) == "red_12" and pt_ball_of(BallId.CUE, snooker=True) == "white"
    assert pt_ball_of(BallId.CUE, snooker=False) == "cue"
    with pytest.raises(ValueError):
        ball_of_pt("ghost")
