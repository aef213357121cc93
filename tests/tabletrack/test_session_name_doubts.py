"""The session puts the tracker's doubtful names on each shot start it hands over, for the balls
that shot start shows on the table (tabletrack/session.py; issue 13 item 5)."""

from __future__ import annotations

from types import SimpleNamespace

from tabletrack.session import FrameAnalysis
from tracking.events import CushionHit, NameDoubt, ShotStart
from tracking.ids import BallId, Cushion

B = BallId.parse
DOUBTS = {B("9"): NameDoubt(0.24, B("13"), 0.54), B("4"): NameDoubt(0.1, B("12"), 0.7)}
SESSION = SimpleNamespace(tracker=SimpleNamespace(name_doubts=lambda: DOUBTS))


def test_a_shot_start_carries_the_doubts_of_the_balls_it_shows() -> None:
    start = ShotStart(0.0, 0, 1, 0.9, BallId.CUE, {BallId.CUE: (600.0, 600.0), B("9"): (1800.0, 900.0)})
    got = FrameAnalysis._with_name_doubts(SESSION, start)  # type: ignore[arg-type]
    assert isinstance(got, ShotStart)
    assert dict(got.name_doubts) == {B("9"): DOUBTS[B("9")]}  # the 4 is not on the table: left out


def test_other_events_and_starts_with_no_doubtful_ball_are_unchanged() -> None:
    hit = CushionHit(1.0, 30, 1, 0.9, BallId.CUE, Cushion.parse("head"), (100.0, 600.0))
    assert FrameAnalysis._with_name_doubts(SESSION, hit) is hit  # type: ignore[arg-type]
    start = ShotStart(0.0, 0, 1, 0.9, BallId.CUE, {BallId.CUE: (600.0, 600.0), B("3"): (1800.0, 900.0)})
    assert FrameAnalysis._with_name_doubts(SESSION, start) is start  # type: ignore[arg-type]
