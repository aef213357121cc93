"""Whole eight-ball racks and matches (002 Reglamento bola 8 ART 6.1, 7.2, 26.1, 26.2, 31.1): a match
judged from a new match with no referee input, the race, who breaks, the stalemate, the score sheet."""

from __future__ import annotations

import pytest
from eight_ball_builders import ENGINE, PLAYERS, a_shot, judge, shot_events, state

from rules.core.call import call_to_dict
from rules.core.judge import judge_events
from rules.core.report import format_calls_table
from rules.eight_ball.state import FULL_RACK
from tracking.ids import BallId

SOLIDS_RUN = [
    "1",
    "1>foot_left",
    "1-4",
    "4>foot_right",
    "4-5",
    "5>side_left",
    "5-6",
    "6>side_right",
    "6-7",
    "7>head_left",
]

# (tokens, rack?) per shot; balls on the table are tracked by pocketing, re-racked where rack? is True
MATCH = [
    (["1", "2>foot_left", "1:foot", "3:left"], True),  # 1 Ana breaks, pots the 2: keeps the table
    (["3", "3>side_left"], False),  # 2 Ana: the 3 (taken as called): solids
    (["4", "4:foot"], False),  # 3 Ana misses
    (["9", "9>foot_right"], False),  # 4 Bea: the 9
    (["10", "10:foot", "cue>side_right"], False),  # 5 Bea scratches: Ana ball in hand
    (SOLIDS_RUN, False),  # 6 Ana clears the solids
    (["8", "8>foot_left"], False),  # 7 Ana pots the 8 (no call): wins rack 1
    (["1", "1:foot", "2:left", "3:right", "4:head"], True),  # 8 Ana breaks rack 2, nothing down
    (["3", "3-8", "8>side_left"], False),  # 9 Bea pots the 8 early: loses rack 2
]


def match_log(shots=MATCH, extra: int = 0):
    events = []
    balls = set(FULL_RACK)
    for n, (tokens, rack) in enumerate(shots + [(["1", "1:foot"], False)] * extra, start=1):
        if rack:
            balls = set(FULL_RACK)
        events += shot_events(tokens, shot=n, t0_s=10.0 * n, rack=rack, balls=None if rack else balls)
        for t in tokens:
            if ">" in t and not t.startswith("cue"):
                balls.discard(BallId.parse(t.split(">")[0]))
    return events


def test_whole_match_without_referee_input():
    calls, st = judge_events(match_log(), "eight-ball")
    players = [c.player for c in calls]
    a, b = "player 1", "player 2"
    assert players == [a, a, a, b, b, a, a, a, b]
    assert [c.break_shot for c in calls] == [True] + [False] * 6 + [True, False]
    assert calls[1].details["group_chosen"] == "solids" and "taken as called" in calls[1].reason
    assert calls[4].foul is not None and calls[5].details["ball_in_hand"] is False
    assert calls[6].game_over and calls[6].winner == a and calls[6].needs_review  # 8 with no call (ART 24.1)
    assert calls[8].game_over and calls[8].winner == a and calls[8].details["loss"] == ["25.1e"]
    assert st.racks_won == (2, 0) and [r.winner for r in st.racks] == [0, 0]
    assert st.next_is_break and st.at_table == 0 and st.rack == 3  # ART 7.2: the winner breaks
    assert not any(c.needs_review for c in calls[:6]) and all("002 bola 8 ART" in c.reason for c in calls)
    rows = [call_to_dict(c) for c in calls]
    assert rows[0]["game"] == "eight-ball" and rows[0]["pocketed"] == [{"ball": "2", "pocket": "foot_left"}]
    assert "rack over" in format_calls_table(calls)


def test_ART_31_1_race_to_two_ends_the_match_and_later_shots_are_not_judged():
    calls, st = judge_events(match_log(extra=1), "eight-ball", {"players": list(PLAYERS), "match": {"best_of": 3}})
    assert calls[8].match_over and st.match_over and st.winner == 0
    assert "wins the match" in calls[8].reason and calls[8].summary.endswith("wins the match")
    assert calls[9].needs_review and "match was over" in calls[9].reason
    sheet = ENGINE.score_sheet(st)
    assert sheet["winner"] == "Ana" and sheet["race_to"] == 2 and len(sheet["racks"]) == 2
    assert "match over: Ana wins" in ENGINE.format_score_sheet(st)


@pytest.mark.parametrize(
    "rule,winner,breaker",
    [
        ("winner", 1, 1),
        ("winner", 0, 0),
        ("alternate", 1, 1),
        ("alternate", 0, 1),
        ("loser", 0, 1),
        ("loser", 1, 0),
    ],
    ids=[
        "ART-7.2-winner-breaks-b",
        "ART-7.2-winner-breaks-a",
        "ART-7.2-alternate-a",
        "ART-7.2-alternate-b",
        "ART-7.2-loser-breaks-b",
        "ART-7.2-loser-breaks-a",
    ],
)
def test_ART_7_2_who_breaks_the_next_rack(rule, winner, breaker):
    st = state(balls=["8", "9"], group="solids", break_rule=rule, breaker=0)
    tokens = ["8", "8>foot_left"] if winner == 0 else ["9", "9-8", "8>foot_left"]
    call, new = judge(tokens, st, {"called": {"ball": "8", "pocket": "foot_left"}})
    assert call.winner == PLAYERS[winner]
    assert new.breaker == new.at_table == breaker and new.next_is_break


def test_ART_26_1_26_2_stalemate_rerack_same_breaker():
    st = state(group="solids", at_table=1, breaker=0)
    call, new = judge(["10", "10:foot"], st, {"stalemate": True}, number=30)
    assert call.game_over and call.winner is None and "ART 26.1" in call.reason and "ART 26.2" in call.reason
    assert new.next_is_break and new.at_table == new.breaker == 0 and new.balls == FULL_RACK
    assert new.drawn_racks == (1,) and new.rack == 2 and new.racks_won == (0, 0)
    assert "drawn" in ENGINE.format_score_sheet(new) and ENGINE.score_sheet(new)["drawn_racks"] == [1]


def test_new_rack_balls_come_from_the_shot_start():
    _, st = judge(
        ["8", "8>foot_left"], state(balls=["8"], group="solids"), {"called": {"ball": "8", "pocket": "foot_left"}}
    )
    clip = FULL_RACK - {BallId.B5}  # the camera sees 14 balls at the next break
    call, new = ENGINE.judge_shot(st, a_shot(["1", "1:foot", "2:left", "3:right", "4:head"], 2, balls=clip), None)
    assert call.break_shot and "without the 5; its positions are trusted" in call.reason
    assert BallId.B5 not in new.balls


def test_score_sheet_resume_continues_the_match():
    st = state(
        balls=["2", "8", "9", "12"],
        group="stripes",
        at_table=1,
        breaker=0,
        race_to=5,
        ball_in_hand=True,
        rack=4,
        racks_won=(2, 1),
    )
    sheet = ENGINE.score_sheet(st)
    assert sheet["players"][0] == {"name": "Ana", "racks_won": 2, "group": "stripes"}
    ref = ENGINE.parse_input({"players": list(PLAYERS), "match": {"race_to": 5}, "start": sheet["resume"]})
    again = ENGINE.initial_state(ref.setup)
    for key in ("balls", "groups", "at_table", "breaker", "ball_in_hand", "rack", "racks_won", "next_is_break"):
        assert getattr(again, key) == getattr(st, key), key
    text = ENGINE.format_score_sheet(st)
    assert "race to 5" in text and "Bea at the table" in text and "ball in hand" in text


def test_new_match_initial_state():
    st = ENGINE.initial_state(None)
    assert st.players == ("player 1", "player 2") and st.race.break_rule.value == "winner"  # ART 7.2
    assert st.next_is_break and st.balls == FULL_RACK and st.groups == (None, None) and st.rack == 1
