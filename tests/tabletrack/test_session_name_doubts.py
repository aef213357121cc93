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


def test_a_ball_already_under_way_when_the_recording_began_keeps_its_doubt() -> None:
    """A clip cut in mid-shot (issue 13 item 5): the 9 rolling on the first frame is in no rest
    position, yet the call (a pot of the 9) rests on its name as much."""
    start = ShotStart(
        0.0,
        0,
        1,
        0.9,
        BallId.CUE,
        {BallId.CUE: (600.0, 600.0)},
        under_way=(B("9"),),
        under_way_at={B("9"): (1800.0, 900.0)},
    )
    got = FrameAnalysis._with_name_doubts(SESSION, start)  # type: ignore[arg-type]
    assert isinstance(got, ShotStart)
    assert dict(got.name_doubts) == {B("9"): DOUBTS[B("9")]}


def test_other_events_and_starts_with_no_doubtful_ball_are_unchanged() -> None:
    hit = CushionHit(1.0, 30, 1, 0.9, BallId.CUE, Cushion.parse("head"), (100.0, 600.0))
    assert FrameAnalysis._with_name_doubts(SESSION, hit) is hit  # type: ignore[arg-type]
    start = ShotStart(0.0, 0, 1, 0.9, BallId.CUE, {BallId.CUE: (600.0, 600.0), B("3"): (1800.0, 900.0)})
    assert FrameAnalysis._with_name_doubts(SESSION, start) is start  # type: ignore[arg-type]


def test_the_provisional_call_sees_the_same_doubts() -> None:
    """Live shows a provisional call the moment the balls rest: it must doubt what the settled
    call will (the settled one's shot start passes through the same step)."""
    from tracking.events import Pocketed, ShotEnd
    from tracking.ids import Pocket

    start = ShotStart(0.0, 0, 1, 0.9, BallId.CUE, {BallId.CUE: (600.0, 600.0), B("9"): (1800.0, 900.0)})
    pot = Pocketed(1.0, 30, 1, 0.9, B("9"), Pocket.parse("foot_left"))
    end = ShotEnd(2.0, 60, 1, 0.9, {BallId.CUE: (700.0, 600.0)})
    judged: list = []
    fake = SimpleNamespace(
        tracker=SESSION.tracker,
        at_rest=lambda: True,
        _held=[],
        stream=SimpleNamespace(
            peek=lambda states: [start, pot, end],
            config=SimpleNamespace(segment=SimpleNamespace(rest_min_s=0.25)),
        ),
        judge=SimpleNamespace(preview=lambda shot: (judged.append(shot) or "call", {})),
    )
    fake._with_name_doubts = lambda e: FrameAnalysis._with_name_doubts(fake, e)  # type: ignore[arg-type]
    assert FrameAnalysis.provisional(fake) is not None  # type: ignore[arg-type]
    assert dict(judged[0].start.name_doubts) == {B("9"): DOUBTS[B("9")]}
