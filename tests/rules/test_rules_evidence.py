"""needs_review and evidence: a call that rests on a low-confidence event, or on the order of two
events less than one frame apart (003 art. 2 / 002 ART 27: the third cushion before the second
ball), is flagged for review with the deciding events listed; a doubt that cannot change the call
is not flagged."""

from __future__ import annotations

import pytest
from rules_builders import a_shot, judge

from rules import JudgeConfig, MatchSetup, StartState, engine_for
from rules.core.errors import RulesConfigError

BALLS = {"player 1": "white", "player 2": "yellow"}


def mid_game(config=None):
    return engine_for("three-cushion", config).initial_state(
        MatchSetup(start=StartState(score={"player 1": 1}, innings={"player 1": 2, "player 2": 2}, balls=BALLS))
    )


CASES = [
    pytest.param(
        ["red", "foot", "left", "head@0.4", "yellow"],
        True,
        "confidence 0.40 below 0.60",
        id="003-2a point resting on a low-confidence third cushion",
    ),
    pytest.param(
        ["red", "foot", "left", "head", "yellow@0.3"],
        True,
        "without it the call would be no point",
        id="003-2a point resting on a low-confidence second-ball contact",
    ),
    pytest.param(
        ["red", "foot", "left", "head", "right@0.3", "yellow"],
        False,
        None,
        id="003-3 a fourth low-confidence cushion does not decide",
    ),
    pytest.param(
        ["red", "foot@0.4", "left@0.4", "head", "right", "yellow"],
        True,
        "without the 2 such events",
        id="003-3 two low-confidence cushions that together decide",
    ),
    pytest.param(
        ["red", "foot", "left", "head", "yellow~0.01"],
        True,
        "under one frame",
        id="003-2 third cushion and second ball under one frame apart",
    ),
    pytest.param(
        ["red", "foot", "left", "yellow", "head~0.02"],
        True,
        "in the other order the call would be a point",
        id="003-2 near miss: the third cushion just after the second ball",
    ),
    pytest.param(
        ["red", "foot", "left", "head", "yellow~0.05"], False, None, id="003-2 more than a frame apart is not in doubt"
    ),
    pytest.param(
        ["red", "foot", "off:red@0.3"],
        True,
        "without it the call would be no point",
        id="003-6a foul resting on a low-confidence off-table",
    ),
    pytest.param(
        ["red@0.2", "foot", "left"], False, None, id="002-7.2 a doubtful contact in a clear miss is not flagged"
    ),
]


@pytest.mark.parametrize("tokens,flag,doubt", CASES)
def test_review_flags_only_deciding_doubts(tokens, flag, doubt):
    call, _ = judge(tokens, state=mid_game())
    assert call.needs_review is flag
    doubts = [e.doubt for e in call.evidence if e.doubt]
    if flag:
        assert any(doubt in d for d in doubts), doubts
        assert call.review_reason and call.review_reason.startswith("Needs review")
    else:
        assert not doubts and call.review_reason is None


def test_evidence_lists_the_deciding_events_of_a_point():
    call, _ = judge(["red", "foot", "left", "head", "yellow"], state=mid_game())
    assert [(e.kind, e.role) for e in call.evidence] == [
        ("ball_ball", "first object ball (red)"),
        ("cushion", "cushion impact 1 (foot)"),
        ("cushion", "cushion impact 2 (left)"),
        ("cushion", "cushion impact 3 (head)"),
        ("ball_ball", "second object ball (yellow)"),
    ]
    assert all(e.confidence == pytest.approx(0.95) and e.doubt is None for e in call.evidence)


def test_low_confidence_shot_start_puts_the_struck_ball_in_doubt():
    # 003-6(g): if the struck ball was the other white/yellow, it would be a wrong-ball foul
    call, _ = judge(["red", "foot", "left", "head", "yellow"], state=mid_game(), start_conf=0.3)
    assert call.needs_review and any(e.kind == "shot_start" and e.doubt for e in call.evidence)


def test_low_confidence_shot_start_on_a_free_break_is_not_in_doubt():
    # 003-4(c): at the break of a new game the starter plays whichever ball he breaks with
    call, _ = judge(["red", "foot", "left", "head", "yellow"], start_conf=0.3)
    assert not call.needs_review


def test_thresholds_come_from_the_config():
    loose = JudgeConfig(confidence_threshold=0.3, frame_period_s=1 / 120)
    engine = engine_for("three-cushion", loose)
    st = mid_game(loose)
    call, _ = engine.judge_shot(st, a_shot(["red", "foot", "left", "head@0.4", "yellow~0.01"]))
    assert not call.needs_review  # 0.4 >= 0.3 and 10 ms > 1/120 s
    strict = JudgeConfig(frame_period_s=1 / 60)
    call, _ = engine_for("three-cushion", strict).judge_shot(st, a_shot(["red", "foot", "left", "head", "yellow~0.01"]))
    assert call.needs_review


@pytest.mark.parametrize(
    "kw", [dict(confidence_threshold=1.5), dict(frame_period_s=-1.0), dict(confidence_threshold="x")]
)
def test_bad_config_is_refused(kw):
    with pytest.raises(RulesConfigError):
        JudgeConfig(**kw)


def test_low_confidence_frozen_flag_puts_the_003_10_discount_in_doubt():
    # 003-10: the discounted contact decides the miss; if the cue ball was not frozen, it was a point
    call, _ = judge(
        ["left", "red", "foot", "head", "yellow"], state=mid_game(), frozen={"white": "left"}, start_conf=0.4
    )
    assert call.points == 0 and call.needs_review
    assert "if no ball was frozen or touching" in call.review_reason
    call, _ = judge(["left", "red", "foot", "head", "yellow"], state=mid_game(), frozen={"white": "left"})
    assert not call.needs_review


NEAR_MISS_CASES = [
    pytest.param(
        ["red", "foot", "left", "head", "near:yellow"],
        0,
        True,
        "had they touched the call would be a point",
        id="003-2 a miss by a hair after three cushions: the point rests on a contact too thin to see",
    ),
    pytest.param(
        ["red", "foot", "near:yellow", "left", "head"],
        0,
        False,
        None,
        id="003-2 a near miss before the third cushion cannot make the point",
    ),
    pytest.param(
        ["near:red", "foot", "left", "head", "yellow"],
        0,
        True,
        "had they touched the call would be a point",
        id="002-7.2 no first ball seen but a near miss of the red before the cushions",
    ),
    pytest.param(
        ["red", "foot", "left", "head", "yellow", "near:red"],
        1,
        False,
        None,
        id="003-2 a near miss after the point changes nothing",
    ),
]


@pytest.mark.parametrize("tokens,points,flag,doubt", NEAR_MISS_CASES)
def test_a_near_miss_flags_a_call_it_would_change(tokens, points, flag, doubt):
    """A ``near_miss`` (the cue ball passed a ball it was not seen to touch) is read as a contact:
    where that changes the call, the call carries needs_review and names the pass."""
    call, _ = judge(tokens, state=mid_game())
    assert call.points == points and call.needs_review is flag
    rows = [e for e in call.evidence if e.kind == "near_miss"]
    if flag:
        assert any(doubt in (e.doubt or "") for e in rows), call.evidence
        assert "with no contact seen (1.0 mm apart)" in (call.review_reason or "")
    else:
        assert not rows and call.review_reason is None
