"""14.1 match sequences: the re-rack of 14 with the 15th ball in play (004 art. 7.3) and the
cases where the 15th or the cue ball is in the rack's way (art. 7.6), the successive-foul penalty
(art. 12, with its example), the intentional foul (art. 7.5), the frozen-ball rule (art. 7.2 note),
negative scores (art. 13), the target (art. 1), the score sheet and resuming from it."""

from __future__ import annotations

import json

import pytest
from straight_pool_builders import (
    ALL,
    CENTRE_SPOT,
    ENGINE,
    FOOT_SPOT,
    HEAD_SPOT,
    Table,
    judge,
    rack_of_14,
    rack_positions,
    spread,
    start_input,
)

from rules import call_to_dict, judge_events
from rules.straight_pool.fouls import StraightPoolFoul as F

KITCHEN = (300.0, 600.0)
IN_RACK = (FOOT_SPOT[0] + 60.0, FOOT_SPOT[1] + 20.0)  # inside the triangle's outline


def _two_left(fifteenth_at, cue_rest):
    """A at the table, the 5 and the 7 left; he pots the 5 and the cue ball and the 7 rest where given."""
    return spread([]).shot(
        ["5", "5>foot_left"],
        place={"5": (1500.0, 300.0), "7": fifteenth_at, "cue": (1000.0, 300.0)},
        moves={"cue": cue_rest},
    )


def test_004_7_3_rerack_of_14_sequence():
    t = _two_left((1200.0, 900.0), (1000.0, 500.0))
    fourteen = rack_of_14([b for b in ALL if b != "7"])
    t.shot(["7", "7>side_left", "7-12", "12:foot", "13:left"], place=fourteen)  # the 15th pocketed, the rack opened
    t.shot(["3", "3>foot_right"])
    calls, st = judge(
        t,
        {
            "players": ["A", "B"],
            "start": start_input(["5", "7"], score=[40, 12], innings=[3, 3], run=4, high_run=[9, 5]),
        },
    )
    assert calls[0].details["rerack"] == "14" and calls[0].details["balls_on_table"] == 15 and not calls[0].turn_over
    assert "004 art. 7.3" in calls[0].reason and "the 15th ball (the 7)" in calls[0].reason
    assert calls[1].player == "A" and not calls[1].break_shot and calls[1].points == 1
    assert "the 15th ball (the 7) stays where it lay; the cue ball stays where it lay (004 art. 7.6)" in calls[1].reason
    assert not any(c.needs_review for c in calls), [c.review_reason for c in calls]
    assert [c.details["run"] for c in calls] == [5, 6, 7] and st.players[0].high_run == 9
    assert st.score == {"A": 43, "B": 12} and len(st.balls) == 13 and st.rack == 2


# id, the 15th's rest, the cue ball's rest, the 15th and cue ball at the next start, ball in hand, words
RACK_CASES = [
    (
        "004-7.6-no-interference-both-stay",
        (1200.0, 900.0),
        (1000.0, 500.0),
        None,
        None,
        False,
        "stays where it lay; the cue ball stays where it lay",
    ),
    (
        "004-7.6-cue-ball-in-the-rack-ball-in-hand",
        (1200.0, 900.0),
        IN_RACK,
        None,
        KITCHEN,
        True,
        "the cue ball was in the rack's way: ball in hand behind the head string",
    ),
    (
        "004-7.6-fifteenth-in-the-rack-to-head-spot",
        IN_RACK,
        (1000.0, 500.0),
        HEAD_SPOT,
        None,
        False,
        "was in the rack's way and stands on the head spot",
    ),
    (
        "004-7.6-fifteenth-in-the-rack-cue-on-head-spot-to-centre-spot",
        IN_RACK,
        HEAD_SPOT,
        CENTRE_SPOT,
        None,
        False,
        "stands on the centre spot",
    ),
    (
        "004-7.6-both-in-the-rack-15-ball-rack-ball-in-hand",
        IN_RACK,
        (IN_RACK[0] + 80, IN_RACK[1]),
        FOOT_SPOT,
        KITCHEN,
        True,
        "the apex of a 15-ball rack",
    ),
    (
        "004-7.6-fifteenth-in-the-kitchen-cue-in-the-rack-to-head-spot",
        (400.0, 300.0),
        IN_RACK,
        None,
        HEAD_SPOT,
        False,
        "the cue ball was in the rack's way and stands on the head spot",
    ),
    (
        "004-7.6-fifteenth-on-head-spot-cue-in-the-rack-to-centre-spot",
        HEAD_SPOT,
        IN_RACK,
        None,
        CENTRE_SPOT,
        False,
        "the cue ball was in the rack's way and stands on the centre spot",
    ),
]


@pytest.mark.parametrize(
    "rest15,rest_cue,next15,next_cue,in_hand,words", [pytest.param(*c[1:], id=c[0]) for c in RACK_CASES]
)
def test_004_7_6_fifteenth_or_cue_ball_in_the_racks_way(rest15, rest_cue, next15, next_cue, in_hand, words):
    t = _two_left(rest15, rest_cue)
    place = rack_of_14([b for b in ALL if b != "7"])
    if next15 is not None:
        place["7"] = next15
    if next_cue is not None:
        place["cue"] = next_cue
    # the next shot strikes a ball behind the head string when the 15th is there: legal only without ball in hand
    t.shot(["7", "7:head"] if rest15[0] < 635 else ["7", "7:foot"], place=place)
    calls, st = judge(t, {"start": start_input(["5", "7"])})
    assert words in calls[1].reason and "(004 art. 7.6)" in calls[1].reason
    assert calls[1].player == calls[0].player  # the player continues (004 art. 7.3)
    assert (calls[1].foul is F.BALL_BEHIND_HEAD_STRING) == (in_hand and rest15[0] < 635)


def test_004_7_6_ball_in_hand_after_the_rack_is_behind_the_string():
    """The cue ball was in the rack: placing it in front of the head string is a foul."""
    t = _two_left((1200.0, 900.0), IN_RACK)
    t.shot(["7", "7:foot"], place={**rack_of_14([b for b in ALL if b != "7"]), "cue": (300.0, 600.0)})
    calls, _ = judge(t, {"start": start_input(["5", "7"])})
    assert calls[1].foul is None and "ball in hand behind the head string" in calls[1].reason
    t2 = _two_left((1200.0, 900.0), IN_RACK)
    t2.shot(["7", "7:foot"], place={**rack_of_14([b for b in ALL if b != "7"]), "cue": (900.0, 600.0)})
    calls2, _ = judge(t2, {"start": start_input(["5", "7"])})
    assert calls2[1].foul is F.CUE_BALL_NOT_BEHIND_HEAD_STRING


def test_004_7_3_fifteenth_pocketed_with_the_fourteenth_all_15_racked():
    t = spread(["5", "7"]).shot(["5", "5-7", "5>foot_left", "7>side_left"])
    t.shot(["1", "1:foot", "2:left"], place={k.value: v for k, v in rack_positions().items()})
    calls, st = judge(t, {"start": start_input(["5", "7"])})
    assert calls[0].points == 2 and calls[0].details["rerack"] == "15" and not calls[0].turn_over
    assert "all 15 balls were racked" in calls[1].reason and not calls[1].break_shot
    assert calls[1].player == calls[0].player and len(st.balls) == 15


# -- successive fouls (004 art. 12) ---------------------------------------------------------------
FOUL = ["5"]  # no rail after the contact (004 art. 7.2)
MISS = ["5", "5:foot"]  # legal, nothing pocketed
POT = ["7", "7>side_left"]


def _seq(*shots):
    t = spread(["3", "5", "7", "9", "12", "13"])
    for s in shots:
        t.shot(s)
    return t


def test_004_12_three_successive_fouls_minus_18_and_the_options():
    t = _seq(FOUL, MISS, FOUL, MISS, FOUL)
    t.shot(
        ["1", "foot", "2:left", "3:right"],
        place={**{k.value: v for k, v in rack_positions(ALL[::-1]).items()}, "cue": KITCHEN},
    )
    ref = {
        "players": ["A", "B"],
        "start": start_input(["3", "5", "7", "9", "12", "13"]),
        "shots": {"5": {"choice": "rerack"}},
    }
    calls, st = judge(t, ref)
    a = [c for c in calls if c.player == "A"]
    assert [c.points for c in a[:3]] == [-1, -1, -16]
    assert "is on one foul" in a[0].reason and "Warning: A is on two fouls" in a[1].reason
    assert "third successive foul (004 art. 12)" in a[2].reason and a[2].details["option"] == "third_foul"
    assert a[2].details["consecutive_fouls"]["A"] == 0  # the record is cleared
    assert calls[5].player == "A" and calls[5].break_shot and calls[5].legal
    assert st.score["A"] == -18 and st.players[0].fouls == 3


def test_004_12_the_articles_example_a_pot_clears_two_fouls():
    """Fouls ending innings 6 and 7; inning 8 begins with a legal pot, then a scratch: one foul, not three."""
    t = _seq(FOUL, MISS, FOUL, MISS, POT, ["5", "5:foot", "cue>side_right"])
    calls, st = judge(
        t, {"players": ["A", "B"], "start": start_input(["3", "5", "7", "9", "12", "13"], innings=[5, 5])}
    )
    assert [c.points for c in calls if c.player == "A"] == [-1, -1, 1, -1]
    assert "foul record is cleared by a legal shot" in calls[4].reason
    assert st.players[0].consecutive_fouls == 1 and st.players[0].innings == 8


def test_004_12_fouls_must_be_in_consecutive_turns_a_legal_miss_breaks_the_run():
    calls, st = judge(_seq(FOUL, MISS, MISS, MISS, FOUL), {"start": start_input(["3", "5", "7", "9", "12", "13"])})
    assert st.players[0].consecutive_fouls == 1 and calls[4].points == -1


def test_004_12_each_players_record_is_his_own():
    calls, st = judge(
        _seq(FOUL, FOUL, FOUL, FOUL, FOUL),
        {"start": start_input(["3", "5", "7", "9", "12", "13"]), "shots": {"5": {"choice": "accept_table"}}},
    )
    assert [c.points for c in calls] == [-1, -1, -1, -1, -16]
    assert st.players[1].consecutive_fouls == 2 and st.players[0].consecutive_fouls == 0
    assert st.at_table == 1 and not st.opening_break  # the table accepted


def test_004_12_on_two_fouls_a_start_input_counts():
    calls, st = judge(
        _seq(FOUL),
        {
            "start": start_input(["3", "5", "7", "9", "12", "13"], consecutive_fouls={"player 1": 2}),
            "shots": {"1": {"choice": "accept_table"}},
        },
    )
    assert calls[0].points == -16


# -- intentional foul (004 art. 7.5), frozen-ball rule (004 art. 7.2 note) --------------------------
@pytest.mark.parametrize(
    "choice,at_table,next_break,in_hand",
    [
        pytest.param("accept_table", 1, False, True, id="004-7.5-accept-with-ball-in-hand-behind-the-string"),
        pytest.param("rerack", 0, True, True, id="004-7.5-rerack-and-the-offender-breaks"),
    ],
)
def test_004_7_5_intentional_foul_options(choice, at_table, next_break, in_hand):
    calls, st = judge(
        _seq(MISS),
        {
            "start": start_input(["3", "5", "7", "9", "12", "13"]),
            "shots": {"1": {"foul": "intentional", "choice": choice}},
        },
    )
    assert calls[0].points == -16 and calls[0].details["option"] == "intentional_foul"
    assert (st.at_table, st.opening_break, st.ball_in_hand) == (at_table, next_break, in_hand)
    assert st.players[0].consecutive_fouls == 1


def test_004_7_5_intentional_third_foul_adds_both_penalties():
    calls, _ = judge(
        _seq(FOUL),
        {
            "start": start_input(["3", "5", "7", "9", "12", "13"], consecutive_fouls=[2, 0]),
            "shots": {"1": {"intentional": True, "choice": "rerack"}},
        },
    )
    assert calls[0].points == -31


def test_004_7_2_note_frozen_ball_rule_is_a_third_foul_and_forces_the_rerack():
    t = _seq(FOUL, MISS, MISS)
    calls, st = judge(
        t,
        {
            "players": ["A", "B"],
            "start": start_input(["3", "5", "7", "9", "12", "13"]),
            "shots": {"3": {"foul": "frozen_ball_rule"}},
        },
    )
    assert calls[2].player == "A" and calls[2].points == -17  # -1, -15, and one for the previous foul
    assert st.at_table == 0 and st.opening_break and len(st.balls) == 15 and st.players[0].consecutive_fouls == 0


# -- negative scores (004 art. 13), the target (004 art. 1) ----------------------------------------
def test_004_13_negative_score_and_004_1_winning_at_the_target():
    t = spread(["5", "7", "9"]).shot(["5", "5-7", "5>foot_left", "7>side_left"]).shot(MISS)
    calls, st = judge(
        t,
        {
            "players": ["A", "B"],
            "match": {"target": 25},
            "start": start_input(["5", "7", "9"], score=[23, -3], consecutive_fouls=[0, 1]),
        },
    )
    assert (
        calls[0].match_over and calls[0].game_over and calls[0].winner == "A" and calls[0].score == {"A": 25, "B": -3}
    )
    assert "wins the match (004 art. 1)" in calls[0].reason
    assert calls[1].summary == "after the match" and calls[1].points == 0
    sheet = ENGINE.score_sheet(st)
    assert sheet["winner"] == "A" and sheet["players"][1]["score"] == -3 and sheet["resume"] is None


def test_004_1_default_target_is_150():
    _, st = judge(spread(["5"] + ["7"]).shot(MISS), {"start": start_input(["5", "7"])})
    assert st.target == 150


# -- score sheet and resume -----------------------------------------------------------------------
def _match_log():
    t = Table()
    t.shot(["1", "foot", "2:left", "3:right"], moves={"cue": (1500.0, 300.0)})  # A: legal safe break
    t.shot(["4", "4>foot_left"]).shot(["6", "6>side_right"]).shot(["8", "8:foot"])  # B: 2 balls, miss
    t.shot(["9", "cue>head_left", "9:foot"])  # A: scratch
    t.shot(["10", "10>foot_right"], place={"cue": (300.0, 600.0)}).shot(["11"])  # B: 1 ball, foul
    return t


def test_score_sheet_innings_high_run_average():
    calls, st = judge(_match_log(), {"players": ["A", "B"]})
    sheet = ENGINE.score_sheet(st)
    a, b = sheet["players"]
    assert (a["score"], a["innings"], a["high_run"], a["fouls"]) == (-1, 2, 0, 1)
    assert (b["score"], b["innings"], b["high_run"], b["average"]) == (2, 2, 2, 1.0)
    assert [(r["player"], r["balls"], r["points"], r["ended"]) for r in sheet["innings"]] == [
        ("A", 0, 0, "miss"),
        ("B", 2, 2, "miss"),
        ("A", 0, -1, "foul"),
        ("B", 1, 0, "foul"),
    ]
    assert sheet["at_table"] == "A" and json.dumps(sheet)
    text = ENGINE.format_score_sheet(st)
    assert "high run" in text and "at the table: A" in text and text.count("\n") >= 9


def test_resume_continues_the_match_from_the_score_sheet():
    t = _match_log()
    calls, st = judge(t, {"players": ["A", "B"]})
    head = Table()
    for ev in t.events:
        if ev.shot <= 3:
            head.events.append(ev)
    _, mid = judge(head, {"players": ["A", "B"]})
    resume = ENGINE.score_sheet(mid)["resume"]
    tail = Table()
    tail.events = [ev for ev in t.events if ev.shot > 3]
    calls2, st2 = judge(tail, {"players": ["A", "B"], "start": resume})
    assert [c.points for c in calls2] == [c.points for c in calls[3:]]
    assert st2.score == st.score and [p.high_run for p in st2.players] == [p.high_run for p in st.players]
    assert [p.innings for p in st2.players] == [p.innings for p in st.players]


def test_judge_events_and_calls_jsonl_keys():
    calls, st = judge_events(_match_log().events, "14.1", {"players": ["A", "B"]})
    d = call_to_dict(calls[1])
    assert d["game"] == "straight-pool" and d["points"] == 1 and d["called"] == {"ball": "4", "pocket": "foot_left"}
    assert d["pocketed"] == [{"ball": "4", "pocket": "foot_left"}] and d["high_run"] == {"A": 0, "B": 1}
    assert list(d)[:12] == [
        "shot",
        "game",
        "player",
        "legal",
        "foul",
        "points",
        "turn_over",
        "game_over",
        "reason",
        "score",
        "needs_review",
        "evidence",
    ]
    assert json.dumps([call_to_dict(c) for c in calls])


def test_004_6_a_log_that_begins_mid_rack_without_input_has_no_opening_break():
    calls, st = judge(spread(["5", "7", "9"]).shot(["5", "5>foot_left"]).shot(["7", "7:foot"]))
    assert not calls[0].break_shot and calls[0].points == 1 and "begins mid-rack" in calls[0].reason
    assert not calls[0].needs_review and {b.value for b in st.balls} == {"7", "9"}
    calls, _ = judge(Table().shot(["1", "foot", "2:left", "3:right"]))
    assert calls[0].break_shot and "begins mid-rack" not in calls[0].reason


def test_a_shot_after_the_match_is_flagged_as_in_every_game():
    """rules/core/after_match.py: not scored, needs review, no turn to pass (the same flags as the
    other games' after-match calls; 14.1 once had needs_review false and turn_over true)."""
    t = spread(["5", "7", "9"]).shot(["5", "5-7", "5>foot_left", "7>side_left"]).shot(MISS)
    calls, _ = judge(
        t,
        {
            "players": ["A", "B"],
            "match": {"target": 25},
            "start": start_input(["5", "7", "9"], score=[23, -3], consecutive_fouls=[0, 1]),
        },
    )
    after = calls[1]
    assert after.match_over and after.game_over and after.points == 0 and after.foul is None
    assert after.needs_review and not after.turn_over and after.review_reason
