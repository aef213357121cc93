"""A shot already under way when the recording began (``ShotStart.under_way``: a clip cut in
mid-shot) is a call to review in every game: the stroke, and any contact, cushion or pocketing
before the first frame, were not seen (issue 13 item 5: no confident call on evidence the tracker
does not have). The same log with the stroke seen is not flagged for it."""

from __future__ import annotations

import pytest

from rules import judge_events
from tracking.events import Event, ShotEnd, ShotStart
from tracking.ids import BallId
from tracking.shorthand import shorthand_events


def _log(cue: str, balls: list[str], tokens: list[str], under_way: bool) -> list[Event]:
    pos = {BallId.parse(b): (300.0 + 150.0 * i, 400.0 + 40.0 * (i % 5)) for i, b in enumerate(balls)}
    c = BallId.parse(cue)
    start = ShotStart(0.0, 0, 1, 0.3 if under_way else 0.99, c, pos, under_way=(c,) if under_way else ())
    mids, _ = shorthand_events(tokens, c, 1, 0.0)
    return [start, *mids, ShotEnd(mids[-1].t_s + 1.0, 60, 1, 0.99, pos)]


GAMES = [
    pytest.param(
        "three-cushion",
        "white",
        ["white", "yellow", "red"],
        ["red", "foot", "left", "head", "yellow"],
        id="003 art. 2(a) a point",
    ),
    pytest.param(
        "nine-ball", "cue", ["cue", "1", "2", "9"], ["1", "1:foot", "1>foot_left"], id="000 6.2 the 1 first, potted"
    ),
    pytest.param(
        "eight-ball", "cue", ["cue", "1", "9", "8"], ["1", "1>foot_left"], id="002 bola 8 ART 10.1 the 1 potted"
    ),
    pytest.param("14.1", "cue", ["cue", "1", "2", "3"], ["1", "1>foot_left"], id="004 the 1 potted"),
    pytest.param(
        "snooker",
        "cue",
        ["cue", "red_1", "red_2", "black"],
        ["red_1", "red_1>foot_left"],
        id="002 snooker ART 1.7 a red",
    ),
]


@pytest.mark.parametrize("game,cue,balls,tokens", GAMES)
def test_a_shot_under_way_when_the_recording_began_is_a_call_to_review(game, cue, balls, tokens) -> None:
    (seen,), _ = judge_events(_log(cue, balls, tokens, under_way=False), game)
    (cut,), _ = judge_events(_log(cue, balls, tokens, under_way=True), game)
    assert cut.summary == seen.summary  # the call is made from what was seen, as before
    assert cut.needs_review
    assert "under way when the recording began" in (cut.review_reason or "")
    assert "under way" not in (seen.review_reason or "")
    (row,) = [e for e in cut.evidence if e.kind == "shot_start"]
    assert row.doubt and "the stroke was not seen" in row.doubt and f"the {cue}" in row.doubt
