"""The variants of 002's overview: ten-ball (called shots, the 10 on the break respotted: WPA
ten-ball, 002 is silent), seven- and six-ball (nine-ball's rules with the 7 / the 6 as game ball),
rotation (lowest ball first, each ball its number, a rack to 61 points)."""

from __future__ import annotations

import pytest
from nine_ball_builders import Table, match_log, rack

from rules import engine_for, judge_events
from rules.nine_ball.errors import NineBallInputError
from rules.nine_ball.fouls import PoolFoul

TEN_MID = {"players": ["Ana", "Bea"], "start": {"at_table": "Ana", "balls": ["3", "5", "7", "10"]}}


def ten(tokens, **shot):
    t = Table("ten-ball", TEN_MID)
    return t.play(tokens, **shot), t.state


def test_ten_ball_called_ball_in_the_called_pocket_continues():
    c, st = ten(["3", "3>foot_left"], called={"ball": "3", "pocket": "foot_left"})
    assert c.legal and st.at_table == 0 and c.details["called"] == {"ball": "3", "pocket": "foot_left"}
    assert "WPA ten-ball" in c.reason and not c.needs_review


def test_ten_ball_called_ball_in_another_pocket_stays_down_and_the_opponent_may_pass_back():
    c, st = ten(["3", "3>foot_right"], called={"ball": "3", "pocket": "foot_left"})
    assert c.legal and st.at_table == 1 and st.option and not st.ball_in_hand
    assert "3" not in {b.value for b in st.balls} and "pass the shot back" in c.reason
    t = Table("ten-ball", TEN_MID)
    t.play(["3", "3>foot_right"], called={"ball": "3", "pocket": "foot_left"})
    c2 = t.play(["5", "5:foot"], choice="pass_back")
    assert c2.player == "Ana"


def test_ten_ball_the_10_wins_only_when_called():
    c, st = ten(["3", "3-10", "10>side_left"], called={"ball": "10", "pocket": "side_left"})
    assert c.game_over and c.details["rack_winner"] == "Ana"
    c, st = ten(["3", "3>foot_left", "3-10", "10>side_left"], called={"ball": "3", "pocket": "foot_left"})
    assert not c.game_over and c.details["respot"] == ["10"] and st.at_table == 0
    assert {b.value for b in st.balls} == {"5", "7", "10"}


def test_ten_ball_the_10_on_the_break_is_respotted_and_the_breaker_continues():
    t = Table("ten-ball", {"players": ["Ana", "Bea"]})
    c = t.play(["1", "1-10", "10>foot_left"])
    assert c.legal and not c.game_over and c.details["respot"] == ["10"] and t.state.at_table == 0
    assert len(t.state.balls) == 10 and "WPA ten-ball" in c.reason


def test_ten_ball_safety_pocketed_ball_stays_down_turn_passes():
    c, st = ten(["3", "3>foot_left"], safety=True)
    assert c.legal and st.at_table == 1 and not st.option and "3" not in {b.value for b in st.balls}


def test_ten_ball_called_ball_not_on_the_table_is_an_error_with_the_shot_number():
    with pytest.raises(
        NineBallInputError, match=r"shot 1: called ball 4 is not on the table \(on the table: 3, 5, 7, 10\)"
    ):
        ten(["3"], called={"ball": "4", "pocket": "foot_left"})


def test_ten_ball_without_a_call_the_first_ball_pocketed_is_taken_and_the_10_needs_review():
    c, st = ten(["3", "3>foot_left"])
    assert c.legal and c.details["call_assumed"] and "no call in the referee input" in c.reason
    assert not c.needs_review
    c, st = ten(["3", "3-10", "10>foot_left"])
    assert c.game_over and c.needs_review and "call decides" in c.review_reason


def test_ten_ball_foul_respots_the_10():
    c, st = ten(["5", "5-10", "10>foot_left"], called={"ball": "10", "pocket": "foot_left"})
    assert c.foul is PoolFoul.WRONG_BALL_FIRST and "10" in {b.value for b in st.balls} and st.ball_in_hand


@pytest.mark.parametrize("game,gb,n", [("seven-ball", "7", 7), ("six-ball", "6", 6)])
def test_seven_and_six_ball_game_ball_wins_002_overview(game, gb, n):
    log = match_log(
        game,
        [
            (["1", f"1-{gb}", f"{gb}>foot_left"], rack(game)),
            (["1", "1:foot", "2:left", "3:right", "4:head"], rack(game)),
            (["1", f"1-{gb}", f"off:{gb}"], rack(game)),
        ],
    )
    calls, st = judge_events(log, game)
    assert len(rack(game)) == n
    assert calls[0].game_over and calls[0].details["rack_winner"] == "player 1"
    assert calls[1].legal and not calls[1].game_over
    assert calls[2].foul is PoolFoul.OBJECT_BALL_OFF_TABLE and gb in {b.value for b in st.balls}
    with pytest.raises(NineBallInputError, match="balls 1-"):
        engine_for(game).parse_input({"start": {"balls": ["8"]}})


ROT = {
    "players": ["Ana", "Bea"],
    "start": {"at_table": "Ana", "balls": [str(b) for b in range(1, 16)], "score": {"Ana": 50, "Bea": 3}},
}


def test_rotation_balls_score_their_number_lowest_ball_first():
    t = Table("rotation", ROT)
    c = t.play(["1", "1-15", "15>foot_left", "1:foot"])
    assert c.legal and c.points == 15 and c.score == {"Ana": 65, "Bea": 3} and c.game_over
    assert c.details["rack_winner"] == "Ana" and "reached 61 points" in c.reason
    assert t.state.racks_won == (1, 0) and t.state.points == (65, 3)


def test_rotation_a_foul_respots_the_balls_and_scores_nothing():
    t = Table("rotation", ROT)
    c = t.play(["2", "2-15", "15>foot_left"])
    assert c.foul is PoolFoul.WRONG_BALL_FIRST and c.points == 0 and c.details["respot"] == ["15"]
    assert len(t.state.balls) == 15 and t.state.score == (50, 3)


def test_rotation_break_scores_and_the_table_cleared_ends_the_rack():
    t = Table("rotation", {"players": ["Ana", "Bea"]})
    c = t.play(["1", "2>foot_left", "3>foot_right"])
    assert c.points == 5 and c.score == {"Ana": 5, "Bea": 0}
    ref = {
        "players": ["Ana", "Bea"],
        "start": {"at_table": "Bea", "balls": ["14", "15"], "score": {"Ana": 60, "Bea": 31}},
    }
    t = Table("rotation", ref)
    c = t.play(["14", "14>foot_left", "14-15", "15>side_left"])
    assert c.game_over and c.details["rack_winner"] == "Bea" and c.score == {"Ana": 60, "Bea": 60}
    assert "last ball" in c.reason


def test_rotation_race_in_points_and_no_push_out():
    ref = {
        "players": ["Ana", "Bea"],
        "match": {"race_points": 100},
        "start": {"at_table": "Ana", "balls": ["9", "10"], "score": {"Ana": 40}, "points": {"Ana": 90}},
    }
    t = Table("rotation", ref)
    c = t.play(["9", "9-10", "10>foot_left"])
    assert c.match_over and c.winner == "Ana" and "race to 100 points" in c.reason
    with pytest.raises(NineBallInputError, match="rotation has no push-out"):
        engine_for("rotation").parse_input({"shots": {"2": {"push_out": True}}})
