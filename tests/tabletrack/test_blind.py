"""Blind spells (tabletrack/blind.py): a ball that moved while unseen, the table in view, and the
call of its shot marked for review with the spell as its reason (tabletrack/shot_judge.py
_flag_blind). A ball unseen for a frame or two, or barely moved, or dropping by a pocket, or gone
for good, is no spell."""

from __future__ import annotations

import pytest

from calibration.table import load_table
from rules import judge_events
from synth.physics.shots import load_shot
from tabletrack.blind import BlindLog, BlindSpell
from tabletrack.shot_judge import _flag_blind
from tracking.events import group_shots
from tracking.ids import BallId
from tracking.pockets import pocket_zones
from tracking.tracker import BallState

FPS = 25.0
POOL = load_table("pool")


def _states(track: list[tuple[float, float] | None], ball: BallId = BallId.CUE, frame0: int = 0) -> list[BallState]:
    """One state a frame: a position seen, or None for a frame the ball was carried unseen (held
    at its last sighting, as the tracker bridges a ball it lost)."""
    out, last = [], (0.0, 0.0)
    for k, p in enumerate(track):
        seen = p is not None
        last = p if p is not None else last
        f = frame0 + k
        out.append(BallState(ball, f, f / FPS, last[0], last[1], 0.0, 0.0, seen, 0.9 if seen else 0.3, 0.0))
    return out


def _run(xy0: tuple[float, float], unseen: int, xy1: tuple[float, float] | None) -> list[tuple[float, float] | None]:
    return [xy0, xy0, *([None] * unseen), *([xy1] if xy1 is not None else [])]


CASES = [
    pytest.param(_run((600.0, 600.0), 10, (900.0, 600.0)), 1, id="unseen 0.44 s, back 300 mm on: a spell"),
    pytest.param(_run((600.0, 600.0), 3, (900.0, 600.0)), 0, id="unseen 3 frames (0.16 s): none"),
    pytest.param(_run((600.0, 600.0), 10, (620.0, 600.0)), 0, id="back 20 mm on (under a diameter): none"),
    pytest.param(_run((600.0, 600.0), 10, None), 0, id="never seen again (gone): none"),
    pytest.param(_run((2400.0, 1150.0), 10, (2520.0, 1240.0)), 0, id="by a corner pocket (dropping): none"),
    pytest.param([None, None, None, None, None, None, (900.0, 600.0)], 0, id="first seen after the gap: none"),
]


@pytest.mark.parametrize("track,spells", CASES)
def test_a_spell_is_a_ball_that_moved_while_unseen_for_a_while(track, spells: int) -> None:
    log = BlindLog(pocket_zones(POOL), min_mm=POOL.ball_diameter_mm)
    for st in _states(track):
        log.add([st])
    assert len(log.spells) == spells
    if spells:
        (sp,) = log.spells
        assert (sp.ball, sp.first_frame, sp.last_frame) == (BallId.CUE, 1, 12)
        assert sp.moved_mm == pytest.approx(300.0)
        assert log.touching(0.0, 0.1) == [sp] and log.touching(0.5, 9.0) == [] and log.touching(0.45, 9.0) == [sp]


def test_003_2_a_call_touching_a_spell_is_marked_for_review() -> None:
    """The point of point_2a (003 art. 2) stands, but a ball moved unseen during its shot."""
    events = load_shot("point_2a").events
    (shot,) = group_shots(events)
    (call,), _ = judge_events(events, "three-cushion", {"start": {"next_is_break": False}})
    t_mid = (shot.events[0].t_s + shot.events[-1].t_s) / 2
    log = BlindLog()
    log.spells.append(BlindSpell(BallId.RED, 40, 55, t_mid, t_mid + 0.6, 412.0))
    flagged = _flag_blind(call, shot, log)
    assert flagged.needs_review and flagged.points == call.points
    assert f"the red was not seen from {t_mid:.2f} to {t_mid + 0.6:.2f} s while it moved 412 mm" in (
        flagged.review_reason or ""
    )
    far = BlindLog()
    far.spells.append(BlindSpell(BallId.RED, 900, 910, shot.events[-1].t_s + 5.0, shot.events[-1].t_s + 6.0, 400.0))
    assert _flag_blind(call, shot, far) == call


def test_bad_bounds_are_refused() -> None:
    with pytest.raises(ValueError, match="expected min_s >= 0"):
        BlindLog(min_s=-1.0)
