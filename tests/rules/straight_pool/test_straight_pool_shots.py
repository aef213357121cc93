"""14.1 shots mid-rack, table-driven: scoring (004 art. 1, 5, 7.1), missed calls and illegally
pocketed balls (art. 8), safety (art. 7.4), the fouls of art. 7.2, 9, 10, 11 and those the referee
declares, the cue ball in hand behind the head string (art. 10 with the General Rules), and the
call assumed when the input gives none. Each case id names the article."""

from __future__ import annotations

import pytest
from straight_pool_builders import called, judge, spread, start_input

from rules.straight_pool.fouls import StraightPoolFoul as F

BALLS = ["3", "5", "7", "9", "12"]

# id, tokens, shot input, points, legal, foul, turn over, scored, spotted
CASES = [
    (
        "004-7.1-called-ball-in-called-pocket",
        ["5", "5>foot_left"],
        called("5", "foot_left"),
        1,
        True,
        None,
        False,
        ["5"],
        [],
    ),
    (
        "004-7.1-other-balls-on-a-legal-shot-count",
        ["5", "5-7", "5>foot_left", "7>side_right"],
        called("5", "foot_left"),
        2,
        True,
        None,
        False,
        ["5", "7"],
        [],
    ),
    (
        "004-7.1-combination-counts-called-ball",
        ["3", "3-5", "5>foot_right"],
        called("5", "foot_right"),
        1,
        True,
        None,
        False,
        ["5"],
        [],
    ),
    (
        "004-1-called-ball-wrong-pocket-spotted-art-8",
        ["5", "5>foot_right"],
        called("5", "foot_left"),
        0,
        True,
        None,
        True,
        [],
        ["5"],
    ),
    (
        "004-8-other-ball-pocketed-called-missed",
        ["5", "5-7", "7>side_left", "5:foot"],
        called("5", "foot_left"),
        0,
        True,
        None,
        True,
        [],
        ["7"],
    ),
    ("004-1-miss-with-a-rail", ["5", "5:foot"], called("5", "foot_left"), 0, True, None, True, [], []),
    ("004-7.4-safety-ends-inning", ["5", "foot"], {"safety": True}, 0, True, None, True, [], []),
    ("004-7.4-ball-pocketed-on-safety-spotted", ["5", "5>foot_left"], {"safety": True}, 0, True, None, True, [], ["5"]),
    ("004-7.2-no-contact", ["foot", "left"], called("5", "foot_left"), -1, False, F.NO_CONTACT, True, [], []),
    (
        "004-7.2-no-rail-after-contact",
        ["5"],
        called("5", "foot_left"),
        -1,
        False,
        F.NO_RAIL_AFTER_CONTACT,
        True,
        [],
        [],
    ),
    ("004-7.2-object-ball-to-rail-suffices", ["5", "7:left"], called("5", "foot_left"), 0, True, None, True, [], []),
    (
        "004-7.2-safety-without-rail-is-a-foul",
        ["5"],
        {"safety": True},
        -1,
        False,
        F.NO_RAIL_AFTER_CONTACT,
        True,
        [],
        [],
    ),
    (
        "004-10-cue-ball-pocketed",
        ["5", "5>foot_left", "cue>side_right"],
        called("5", "foot_left"),
        -1,
        False,
        F.CUE_BALL_POCKETED,
        True,
        [],
        ["5"],
    ),
    (
        "004-10-cue-ball-off-table",
        ["5", "5:foot", "off:cue"],
        called("5", "foot_left"),
        -1,
        False,
        F.CUE_BALL_OFF_TABLE,
        True,
        [],
        [],
    ),
    (
        "004-9-object-ball-off-table",
        ["5", "5>foot_left", "7:left", "off:7"],
        called("5", "foot_left"),
        -1,
        False,
        F.BALL_OFF_TABLE,
        True,
        [],
        ["5", "7"],
    ),
    (
        "004-13-foul-ball-pocketed-not-scored",
        ["5", "5>foot_left"],
        {**called("5", "foot_left"), "foul": "double_hit"},
        -1,
        False,
        F.DOUBLE_HIT,
        True,
        [],
        ["5"],
    ),
    ("004-preamble-touched-ball", ["5", "5:foot"], {"foul": "touched_ball"}, -1, False, F.TOUCHED_BALL, True, [], []),
    (
        "004-preamble-no-foot-on-floor",
        ["5", "5:foot"],
        {"foul": ["no_foot_on_floor"]},
        -1,
        False,
        F.NO_FOOT_ON_FLOOR,
        True,
        [],
        [],
    ),
    (
        "004-7.2-overruled-by-referee",
        ["5"],
        {**called("5", "foot_left"), "overrule": ["no_rail_after_contact"]},
        0,
        True,
        None,
        True,
        [],
        [],
    ),
    (
        "004-7.5-intentional-foul-minus-16",
        ["5", "5:foot"],
        {"foul": "intentional", "choice": "accept_table"},
        -16,
        False,
        F.INTENTIONAL,
        True,
        [],
        [],
    ),
    (
        "004-7.5-intentional-flag",
        ["5", "5:foot"],
        {"foul": "touched_ball", "intentional": True, "choice": "accept_table"},
        -16,
        False,
        F.TOUCHED_BALL,
        True,
        [],
        [],
    ),
]


@pytest.mark.parametrize(
    "tokens,si,points,legal,foul,turn_over,scored,spotted", [pytest.param(*c[1:], id=c[0]) for c in CASES]
)
def test_shot(tokens, si, points, legal, foul, turn_over, scored, spotted):
    t = spread(BALLS).shot(tokens)
    (c,), st = judge(t, {"players": ["A", "B"], "start": start_input(BALLS, score=[10, 10]), "shots": {"1": si}})
    assert (c.points, c.legal, c.foul, c.turn_over) == (points, legal, foul, turn_over), c.reason
    assert c.details["scored"] == scored and sorted(c.details["respot"]) == sorted(spotted)
    assert c.score == {"A": 10 + points, "B": 10}
    assert "004" in c.reason
    left = set(BALLS) - set(scored)
    assert {b.value for b in st.balls} == left
    assert st.at_table == (1 if turn_over else 0)


def test_004_7_1_run_and_high_run_over_an_inning():
    t = spread(BALLS).shot(["5", "5>foot_left"]).shot(["7", "7>side_left"]).shot(["9", "9:foot"])
    calls, st = judge(t, {"start": start_input(BALLS, high_run=[1, 0])})
    assert [c.points for c in calls] == [1, 1, 0]
    assert [c.details["run"] for c in calls] == [1, 2, 2]
    assert st.players[0].high_run == 2 and st.players[0].innings == 1 and st.at_table == 1


def test_004_1_call_assumed_without_referee_input_says_so():
    (c,), _ = judge(spread(BALLS).shot(["5", "5-7", "7>side_left", "5>foot_left"]), {"start": start_input(BALLS)})
    assert c.points == 2 and c.details["call_assumed"] and c.details["called"] == {"ball": "7", "pocket": "side_left"}
    assert "No call was given" in c.reason and "taken as called" in c.reason and not c.needs_review


def test_004_1_calls_required_scores_nothing_without_a_call():
    (c,), st = judge(
        spread(BALLS).shot(["5", "5>foot_left"]), {"match": {"calls": "required"}, "start": start_input(BALLS)}
    )
    assert c.points == 0 and c.turn_over and c.details["respot"] == {"5": "foot_spot"} and st.score["player 1"] == 0


def test_004_1_missing_call_when_the_input_calls_other_shots_is_flagged():
    t = spread(BALLS).shot(["5", "5>foot_left"]).shot(["7", "7>side_left"])
    calls, _ = judge(t, {"start": start_input(BALLS), "shots": {"1": called("5", "foot_left")}})
    assert not calls[0].needs_review
    assert calls[1].points == 1 and calls[1].needs_review and "calls other shots" in calls[1].review_reason


# -- ball in hand behind the head string (004 art. 10; General Rules, preamble) --------------------
KITCHEN = (300.0, 600.0)
BEHIND = {"3": (400.0, 300.0), "5": (1500.0, 600.0), "7": (1800.0, 900.0)}

HEAD_CASES = [
    ("004-10-ball-in-front-of-the-string-is-playable", KITCHEN, ["5", "5>foot_left"], 1, None),
    ("004-10-ball-behind-the-string-struck-directly", KITCHEN, ["3", "3:right"], -1, F.BALL_BEHIND_HEAD_STRING),
    ("004-10-ball-behind-the-string-after-crossing-it", KITCHEN, ["foot", "3", "3:right"], 0, None),
    (
        "004-10-cushion-behind-the-string-does-not-cross",
        KITCHEN,
        ["right#300", "3", "3:right"],
        -1,
        F.BALL_BEHIND_HEAD_STRING,
    ),
    (
        "004-10-cue-ball-placed-in-front-of-the-string",
        (700.0, 600.0),
        ["5", "5>foot_left"],
        -1,
        F.CUE_BALL_NOT_BEHIND_HEAD_STRING,
    ),
]


@pytest.mark.parametrize("cue_at,tokens,points,foul", [pytest.param(*c[1:], id=c[0]) for c in HEAD_CASES])
def test_ball_in_hand_behind_the_head_string(cue_at, tokens, points, foul):
    t = spread([]).shot(tokens, place={"cue": cue_at, **BEHIND})
    ref = {"start": start_input(list(BEHIND), ball_in_hand=True), "shots": {"1": called("5", "foot_left")}}
    if foul is None and points == 0:
        ref["shots"] = {"1": called("3", "head_right")}
    (c,), st = judge(t, ref)
    assert (c.points, c.foul) == (points, foul), c.reason
    if foul is not None:
        assert "head string" in c.reason and "004 art. 10" in c.reason


def test_004_10_head_string_from_the_match_input():
    """A 7-ft table (head string at 495 mm): the 3 at x = 520 is in front of the string there."""
    t = spread([]).shot(["3", "3:right"], place={"cue": KITCHEN[0:1] + (600.0,), "3": (520.0, 300.0)})
    ref = {"match": {"head_string_mm": 495}, "start": start_input(["3"] + ["5"], ball_in_hand=True)}
    (c,), _ = judge(t, ref)
    assert c.foul is None
    (c,), _ = judge(t, {"start": start_input(["3", "5"], ball_in_hand=True)})
    assert c.foul is F.BALL_BEHIND_HEAD_STRING


def test_004_10_scratch_gives_ball_in_hand_behind_the_string_and_11_a_foul_the_cue_ball_in_place():
    t = spread(BALLS).shot(["5", "5:foot", "cue>side_right"]).shot(["7", "7>foot_left"], place={"cue": KITCHEN})
    t.shot(["9"]).shot(["12", "12>foot_right"])
    calls, st = judge(t, {"start": start_input(BALLS)})
    assert calls[0].details["ball_in_hand"] == "behind_head_string" and "004 art. 10" in calls[0].reason
    assert calls[1].points == 1 and calls[1].player == "player 2"
    assert calls[2].foul is F.NO_RAIL_AFTER_CONTACT and calls[2].details["ball_in_hand"] is None
    assert "where it lies (004 art. 11)" in calls[2].reason
    assert calls[3].player == "player 1" and calls[3].points == 1


def test_low_confidence_pocket_that_decides_the_call_needs_review():
    (c,), _ = judge(
        spread(BALLS).shot(["5", "5>foot_left@0.3"]),
        {"start": start_input(BALLS), "shots": {"1": called("5", "foot_left")}},
    )
    assert c.points == 1 and c.needs_review and "pocket" in c.review_reason
    assert any(e.kind == "pocket" and e.doubt for e in c.evidence)
