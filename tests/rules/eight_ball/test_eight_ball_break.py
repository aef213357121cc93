"""Eight-ball breaks (002 Reglamento bola 8 ART 9, 10, 11, 14.1, 16.1c, 20 on the break), table-driven.

Each case names the article it checks (citation style: rules/eight_ball/README.md)."""

from __future__ import annotations

import pytest
from eight_ball_builders import ENGINE, a_shot, judge, new_match, racked, spread

from rules.eight_ball.fouls import EightBallFoul as F
from rules.eight_ball.inputs import EightBallShotError, parse_shot_input
from rules.eight_ball.state import EIGHT, FULL_RACK
from tracking.ids import BallId

FOUR_RAILS = ["1", "1:foot", "2:left", "3:right", "4:foot"]
THREE_RAILS = ["1", "1:foot", "2:left", "3:right"]

# id, tokens, legal_break, foul, continues (breaker keeps the table), ball in hand behind the line, option
CASES = [
    ("ART-10.1a-ball-pocketed", ["1", "2>foot_left"], True, None, True, False, None),
    (
        "ART-10.1a-two-pocketed-both-groups-table-open",
        ["1", "2>foot_left", "10>side_left"],
        True,
        None,
        True,
        False,
        None,
    ),
    ("ART-10.1b-four-balls-to-a-rail", FOUR_RAILS, True, None, False, False, None),
    (
        "ART-10.1b-same-ball-twice-is-one",
        ["1", "1:foot", "1:left", "2:right", "3:foot"],
        False,
        None,
        False,
        False,
        "illegal_break",
    ),
    ("ART-10.2-three-rails-illegal-no-foul", THREE_RAILS, False, None, False, False, "illegal_break"),
    ("ART-10.2-missed-the-rack-illegal-no-foul", ["foot", "head"], False, None, False, False, "illegal_break"),
    ("ART-10.3-head-ball-need-not-be-first", ["9", "9-1", "5>side_right"], True, None, True, False, None),
    ("ART-9.1-eight-on-the-break-breaker-shoots", ["1", "8>foot_right"], True, None, True, False, "eight_on_break"),
    (
        "ART-11.1-16.1c-scratch-on-legal-break",
        ["1", "3>foot_left", "cue>side_left"],
        True,
        F.SCRATCH,
        False,
        True,
        None,
    ),
    (
        "ART-11.1-scratch-with-the-8-respotted",
        ["1", "8>foot_left", "cue>side_left"],
        True,
        F.SCRATCH,
        False,
        True,
        None,
    ),
    ("ART-16.1c-cue-ball-off-on-the-break", FOUR_RAILS + ["off:cue"], True, F.CUE_BALL_OFF_TABLE, False, True, None),
    (
        "ART-20.1-25.1c-eight-off-on-the-break-foul-not-loss",
        FOUR_RAILS + ["off:8"],
        True,
        F.BALL_OFF_TABLE,
        False,
        True,
        None,
    ),
    (
        "ART-10.2-16.1c-illegal-break-and-scratch",
        ["1", "cue>head_left"],
        False,
        F.SCRATCH,
        False,
        True,
        "illegal_break",
    ),
]


@pytest.mark.parametrize(
    "tokens,legal_break,foul,continues,behind,option", [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_break(tokens, legal_break, foul, continues, behind, option):
    call, st = judge(tokens, rack=True)
    assert call.break_shot
    assert call.details["legal_break"] is legal_break
    assert call.foul is foul
    assert call.turn_over is (not continues)
    assert st.at_table == (0 if continues else 1)
    assert st.behind_head_string is behind and st.ball_in_hand is (foul is not None)
    assert call.details["option"] == option
    assert st.groups == (None, None), "ART 14.1: no group is chosen on the break"
    assert not call.game_over, "ART 9.1, 25.1c: the break neither wins nor loses the rack"
    assert "002 bola 8 ART 10" in call.reason or "002 bola 8 ART 9" in call.reason or "ART 11" in call.reason


def test_ART_11_1_eight_respotted_other_balls_stay_down():
    call, st = judge(["1", "8>foot_left", "3>side_left", "cue>side_left"], rack=True)
    assert EIGHT in st.balls and BallId.B3 not in st.balls
    assert call.details["respot"] == {"8": "foot_spot"}
    assert "ART 11.1" in call.reason and "ART 11.2" in call.reason


def test_ART_20_2_ball_off_the_table_on_the_break_is_respotted():
    call, st = judge(FOUR_RAILS + ["off:8", "off:12"], rack=True)
    assert {EIGHT, BallId.B12} <= st.balls and not call.game_over
    assert call.details["respot"] == {"8": "foot_spot", "12": "foot_spot"}
    assert "ART 20.2, 21.1" in call.reason


@pytest.mark.parametrize(
    "choice,next_break,at_table,breaker,eight_on",
    [
        ("respot", False, 0, 0, True),
        ("rerack", True, 0, 0, True),
    ],
    ids=["ART-9.1-respot-the-8", "ART-9.1-rerack-same-breaker"],
)
def test_ART_9_1_eight_on_the_break_choice(choice, next_break, at_table, breaker, eight_on):
    call, st = judge(["1", "8>foot_right", "4>side_left"], rack=True, si={"choice": choice})
    assert st.next_is_break is next_break and st.at_table == at_table and st.breaker == breaker
    assert (EIGHT in st.balls) is eight_on and st.pending is None
    assert "ART 9.1" in call.reason
    if choice == "rerack":
        assert st.balls == FULL_RACK


@pytest.mark.parametrize(
    "choice,next_break,breaker",
    [
        ("accept_table", False, 0),
        ("rerack", True, 1),
    ],
    ids=["ART-10.2a-accept-the-table", "ART-10.2b-rerack-and-break"],
)
def test_ART_10_2_illegal_break_choice(choice, next_break, breaker):
    call, st = judge(THREE_RAILS, rack=True, si={"choice": choice})
    assert st.at_table == 1 and st.next_is_break is next_break and st.breaker == breaker
    assert call.foul is None and call.turn_over
    assert ("10.2b" if choice == "rerack" else "10.2a") in call.reason


@pytest.mark.parametrize(
    "racked_next,next_break,breaker,art",
    [
        (True, True, 1, "10.2b"),
        (False, False, 0, "10.2a"),
    ],
    ids=["ART-10.2b-no-choice-positions-show-rerack", "ART-10.2a-no-choice-positions-show-table"],
)
def test_ART_10_2_pending_choice_resolved_from_next_shot_start(racked_next, next_break, breaker, art):
    _, st = judge(THREE_RAILS, rack=True)
    assert st.pending is not None
    nxt = a_shot(
        ["1", "1:foot", "2:left", "3:right", "4:head"] if racked_next else ["9", "9:foot"],
        2,
        rack=racked_next,
        balls=None if racked_next else FULL_RACK,
    )
    call, st2 = ENGINE.judge_shot(st, nxt, None)
    assert call.break_shot is next_break and call.player == "Bea"
    assert f"ART {art}" in call.reason
    assert st2.pending is None and st2.breaker == breaker


def test_ART_9_1_pending_without_positions_flags_review():
    _, st = judge(["1", "8>foot_right"], rack=True)
    call, st2 = ENGINE.judge_shot(st, a_shot(["1", "1:foot"], 2), None)
    assert call.needs_review and "re-spotted" in call.review_reason
    assert not call.break_shot and call.player == "Ana"


def test_ART_9_1_eight_on_break_pending_respotted_from_positions():
    _, st = judge(["1", "8>foot_right", "2>side_left"], rack=True)
    balls = FULL_RACK - {BallId.B2}
    call, st2 = ENGINE.judge_shot(st, a_shot(["1", "1>foot_left"], 2, balls=balls), None)
    assert not call.break_shot and "8 re-spotted" in call.reason and not call.needs_review
    assert st2.groups[0] is not None  # Ana's legally pocketed 1 chooses the solids (ART 14.2)


@pytest.mark.parametrize(
    "si,what",
    [
        ({"called": {"ball": "3", "pocket": "foot_left"}}, "a call on the break"),
        ({"safety": True}, "a safety on the break"),
    ],
    ids=["ART-10.1-no-call-on-the-break", "ART-10.1-no-safety-on-the-break"],
)
def test_ART_10_1_break_takes_no_call(si, what):
    with pytest.raises(EightBallShotError, match=f"shot 1: {what}"):
        judge(["1", "3>foot_left"], rack=True, si=si)


@pytest.mark.parametrize(
    "tokens,choice,msg",
    [
        (["1", "2>foot_left"], "rerack", "gives no option"),
        (["1", "8>foot_left"], "accept_table", "the choice is respot or rerack"),
        (THREE_RAILS, "respot", "the choice is accept_table or rerack"),
    ],
    ids=["ART-9.1-10.2-choice-without-option", "ART-9.1-choices", "ART-10.2-choices"],
)
def test_choice_must_fit_the_option(tokens, choice, msg):
    with pytest.raises(EightBallShotError, match=msg):
        judge(tokens, rack=True, si={"choice": choice})


def test_break_from_unracked_positions_is_flagged():
    call, _ = judge(["1", "2>foot_left"], balls=FULL_RACK)
    assert call.break_shot and call.needs_review and "do not show a rack" in call.review_reason


def test_racked_builder_is_a_rack_and_spread_is_not():
    from rules.eight_ball.engine import looks_racked

    assert looks_racked(racked()) and not looks_racked(spread(FULL_RACK))
    assert new_match().next_is_break
    assert parse_shot_input({}).called is None
