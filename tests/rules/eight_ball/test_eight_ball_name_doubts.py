"""A call that rests on a ball's name the detector's colour barely gave (``ShotStart.name_doubts``)
is one to review (issue 13 item 5; rules.core.evidence). Eight-ball: which group a player takes
on an open table is the group of the ball pocketed (002 bola 8 ART 14.2), so the pot of a ball
named by elimination decides the call on a name its look did not give."""

from __future__ import annotations

from dataclasses import replace

import pytest
from eight_ball_builders import ENGINE, shot_events, state

from tracking.events import NameDoubt, ShotStart, group_shots
from tracking.ids import BallId

B = BallId.parse

# id, tokens, the balls' doubtful names {ball: (read, rival, rival_read)}, review expected, doubt words
CASES = [
    (
        "ART-14.2-pot-of-a-doubtful-9-whose-rival-is-a-stripe-too",
        ["9", "9>foot_left"],
        {"9": (0.24, "13", 0.54)},
        True,
        "the 9's name is in doubt (read 0.24 as itself, 0.54 as the 13): the call names it",
    ),
    (
        "ART-14.2-pot-of-a-doubtful-9-read-as-a-solid-gives-the-other-group",
        ["9", "9>foot_left"],
        {"9": (0.2, "5", 0.6)},
        True,
        "read as the 5, the call would be",
    ),
    (
        "ART-14.2-doubtful-ball-the-call-does-not-name",
        ["3", "3>foot_left"],
        {"12": (0.18, "14", 0.19)},
        False,
        None,
    ),
    ("ART-14.2-no-doubtful-name", ["9", "9>foot_left"], {}, False, None),
]


@pytest.mark.parametrize("tokens, doubts, review, words", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_call_resting_on_a_doubtful_name_is_reviewed(tokens, doubts, review, words) -> None:
    evs = shot_events(tokens, balls=range(1, 16))
    names = {B(b): NameDoubt(r, B(rv), rr) for b, (r, rv, rr) in doubts.items()}
    evs = [replace(e, name_doubts=names) if isinstance(e, ShotStart) else e for e in evs]
    (shot,) = group_shots(evs)
    call, _ = ENGINE.judge_shot(state(group=None), shot, None)
    assert call.needs_review is review
    if words is not None:
        assert any(e.doubt and words in e.doubt for e in call.evidence), [e.doubt for e in call.evidence]
