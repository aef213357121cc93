"""Match management (002 ART 7.4-7.5, 12, 13, 14): points, innings, series, high run, average, the
equalizing inning, the innings limit and sets. Shots are played with ``play`` ("p" a point, "m" a
miss, each by the player at the table with his ball)."""

from __future__ import annotations

import pytest
from rules_builders import judge, play

from rules import MatchConfig, MatchSetup, StartState, engine_for, score_sheet
from rules.carom.state import Equalizing
from tracking.ids import BallId


def new(distance=None, innings_limit=None, sets=None, game="three-cushion", start=None):
    setup = MatchSetup(players=("Ana", "Bea"), match=MatchConfig(distance, innings_limit, sets), start=start)
    return engine_for(game).initial_state(setup)


def test_002_7_innings_series_high_run_average():
    # 002 ART 7.4-7.5: a point scores and keeps the table, a miss passes it
    calls, st = play(new(), "ppmpmmpppm")
    assert [c.player for c in calls] == ["Ana"] * 3 + ["Bea"] * 2 + ["Ana"] + ["Bea"] * 4
    assert [c.turn_over for c in calls] == [False, False, True, False, True, True, False, False, False, True]
    assert [c.series for c in calls] == [1, 2, 2, 1, 1, 0, 1, 2, 3, 3]
    a, b = st.players
    assert (a.points, a.innings, a.high_run) == (2, 2, 2)
    assert (b.points, b.innings, b.high_run) == (4, 2, 3)
    assert a.average == pytest.approx(1.0) and b.average == pytest.approx(2.0)
    assert calls[-1].innings == {"Ana": 2, "Bea": 2}
    assert calls[-1].score == {"Ana": 2, "Bea": 4}
    sheet = score_sheet(st)
    assert [p["average"] for p in sheet["players"]] == [1.0, 2.0]
    assert sheet["at_table"] == "Ana" and not sheet["match_over"]


def test_002_12_3_starter_reaching_the_distance_gives_the_equalizing_inning():
    calls, st = play(new(distance=3), "ppp")
    last = calls[-1]
    assert last.points == 1 and last.turn_over and not last.game_over
    assert "equalizing inning" in last.reason and "002 ART 12.3" in last.reason
    assert st.equalizing is Equalizing.DISTANCE and st.at_table == 1 and st.next_is_break


def test_002_12_4_equalizing_inning_short_of_the_distance_starter_wins():
    calls, st = play(new(distance=3), "pppppm")
    assert calls[3].break_shot and calls[3].equalizing_inning  # from the break position (ART 12.3)
    end = calls[-1]
    assert end.game_over and end.match_over and end.winner == "Ana" and not end.draw
    assert "002 ART 12.4" in end.reason
    assert st.match_over and st.winner == 0 and end.score == {"Ana": 3, "Bea": 2}


def test_002_12_4_equalizing_inning_to_the_distance_is_a_draw():
    calls, st = play(new(distance=3), "pppppp")
    end = calls[-1]
    assert end.game_over and end.draw and end.winner is None and "draw" in end.reason
    assert st.draw and st.match_over


def test_002_12_3_second_player_reaching_the_distance_wins_at_once():
    calls, st = play(new(distance=2), "mpp")
    end = calls[-1]
    assert end.game_over and end.winner == "Bea" and end.turn_over
    assert st.match_over and st.players[0].innings == st.players[1].innings == 1


def test_002_12_equalizing_inning_break_must_take_the_red():
    # the equalizing inning starts from the break position: yellow's first ball must be the red (003 art. 5)
    _, st = play(new(distance=1), "p")
    call, st = judge(["white", "foot", "left", "head", "red"], cue="yellow", state=st, number=2)
    assert call.foul is not None and call.foul.value == "break_not_red_first"
    assert call.game_over and call.winner == "Ana"


def test_002_13_innings_limit_last_inning_and_win_on_points():
    calls, st = play(new(distance=10, innings_limit=2), "mmpm")
    c = calls[-1]
    assert c.turn_over and not c.game_over and "innings limit (2)" in c.reason and "002 ART 13.3" in c.reason
    assert st.equalizing is Equalizing.INNINGS_LIMIT and not st.next_is_break  # balls as they lie
    calls, st = play(st, "ppm")
    end = calls[-1]
    assert end.game_over and end.winner == "Bea" and "002 ART 13.4" in end.reason
    assert end.score == {"Ana": 1, "Bea": 2}
    assert st.players[0].innings == st.players[1].innings == 2


def test_002_13_4_innings_limit_equal_points_is_a_draw():
    _, st = play(new(distance=10, innings_limit=1), "pmpm")
    assert st.match_over and st.draw and st.winner is None


def test_002_13_3_starter_reaching_the_distance_within_the_limit():
    calls, st = play(new(distance=2, innings_limit=5), "pp")
    assert "002 ART 12.3, 13.3" in calls[-1].reason and st.equalizing is Equalizing.DISTANCE
    calls, st = play(st, "m")
    assert calls[-1].winner == "Ana"


def test_002_13_4_second_player_reaching_the_distance_in_his_last_inning_wins():
    _, st = play(new(distance=2, innings_limit=1), "mpp")
    assert st.match_over and st.winner == 1


def test_innings_limit_without_distance():
    _, st = play(new(innings_limit=2), "pppmmmpm")
    assert st.match_over and st.winner == 0 and [p.points for p in st.players] == [3, 1]


def test_002_14_sets_no_equalizing_inning_alternate_starts():
    calls, st = play(new(distance=2, sets=3, game="one-cushion"), "pp")
    c = calls[-1]
    assert c.game_over and not c.match_over and c.turn_over
    assert "wins set 1" in c.reason and "002 ART 14.1.1" in c.reason and "002 ART 14.1.3" in c.reason
    assert c.score == {"Ana": 2, "Bea": 0} and c.sets == {"Ana": 1, "Bea": 0} and c.set_number == 1
    # set 2: started by Bea, who now plays the white (002 ART 5.8), from the break
    assert st.set_number == 2 and st.starter == 1 and st.at_table == 1 and st.next_is_break
    assert st.players[1].ball is BallId.WHITE and st.players[0].ball is BallId.YELLOW
    assert [p.points for p in st.players] == [0, 0] and [p.innings for p in st.players] == [0, 0]
    calls, st = play(st, "pmpp")
    end = calls[-1]
    assert end.game_over and end.match_over and end.winner == "Ana" and end.sets == {"Ana": 2, "Bea": 0}
    assert "002 ART 14.1.5" in end.reason
    sheet = score_sheet(st)
    assert [s["winner"] for s in sheet["sets"]] == ["Ana", "Ana"]
    assert sheet["players"][0]["total_points"] == 4 and sheet["players"][0]["high_run"] == 2


def test_002_14_1_4_deciding_set_started_by_who_started_the_first():
    st = new(distance=1, sets=5)
    starters = []
    for _ in range(5):
        starters.append(st.players[st.at_table].name)
        _, st = play(st, "p")  # the starter of each set wins it at once
    assert starters == ["Ana", "Bea", "Ana", "Bea", "Ana"]
    assert st.match_over and st.winner == 0 and [p.sets_won for p in st.players] == [3, 2]


def test_002_14_three_cushion_set_starter_chooses_his_ball_003_4c():
    _, st = play(new(distance=1, sets=3), "p")
    assert not st.balls_chosen
    call, st = judge(["red", "foot", "left", "head", "white"], cue="yellow", state=st, number=2)
    assert call.foul is None and st.players[1].ball is BallId.YELLOW


def test_002_12_2_shots_after_the_end_are_not_scored():
    calls, st = play(new(distance=1), "mp")
    assert st.match_over
    call, st2 = judge(["red", "foot", "left", "head", "yellow"], state=st, number=3)
    assert call.points == 0 and call.needs_review and call.game_over and "Not scored" in call.reason
    assert st2.players == st.players


def test_start_mid_game_second_player_to_begin_an_inning():
    start = StartState(
        at_table="Bea", score={"Ana": 10, "Bea": 9}, innings={"Ana": 15, "Bea": 14}, high_run={"Ana": 4, "Bea": 2}
    )
    st = new(distance=40, start=start)
    assert st.starter == 0 and st.at_table == 1 and not st.next_is_break and not st.balls_chosen
    calls, st = play(st, "pppm")
    assert calls[0].player == "Bea" and not calls[0].break_shot
    assert st.players[1].points == 12 and st.players[1].innings == 15 and st.players[1].high_run == 3
    assert st.at_table == 0


def test_start_mid_game_mid_inning_keeps_the_series():
    start = StartState(
        at_table="Ana", score={"Ana": 12, "Bea": 9}, innings={"Ana": 15, "Bea": 14}, series=3, high_run={"Ana": 2}
    )
    calls, st = play(new(distance=40, start=start), "pm")
    assert calls[0].series == 4 and st.players[0].innings == 15 and st.players[0].high_run == 4


def test_start_mid_game_in_the_equalizing_inning():
    start = StartState(at_table="Bea", score={"Ana": 5, "Bea": 3}, innings={"Ana": 7, "Bea": 6})
    st = new(distance=5, start=start)
    assert st.equalizing is Equalizing.DISTANCE and st.next_is_break
    calls, st = play(st, "pm")
    assert calls[-1].winner == "Ana" and calls[0].break_shot


def test_start_mid_match_in_sets():
    start = StartState(starter="Bea", set_number=2, sets_won={"Ana": 1}, score={"Bea": 1}, innings={"Ana": 1, "Bea": 1})
    st = new(distance=3, sets=3, start=start)
    assert st.set_number == 2 and st.first_starter == 0 and st.at_table == 1
    calls, st = play(st, "pppmppp")
    assert calls[1].game_over and calls[1].sets == {"Ana": 1, "Bea": 1}
    assert st.set_number == 3 and st.starter == 0  # 002 ART 14.1.4


@pytest.mark.parametrize(
    "match,outcomes",
    [
        pytest.param((None, None, None), "ppmpp", id="002-7 mid-inning of the second player"),
        pytest.param((3, None, None), "ppp", id="002-12.3 at the equalizing inning"),
        pytest.param((3, None, None), "pppp", id="002-12.3 during the equalizing inning"),
        pytest.param((10, 2, None), "mmpm", id="002-13.3 last inning after the innings limit"),
        pytest.param((2, None, 3), "ppmp", id="002-14 in the second set"),
        pytest.param((1, None, 5), "pp", id="002-14 third set of five"),
    ],
)
def test_score_sheet_resume_restores_the_state(match, outcomes):
    from rules import parse_referee_input

    _, st = play(new(*match), outcomes)
    sheet = score_sheet(st)
    ref = parse_referee_input(
        {
            "players": ["Ana", "Bea"],
            "match": dict(zip(("distance", "innings_limit", "sets"), match)),
            "start": sheet["resume"],
        }
    )
    back = engine_for("three-cushion").initial_state(ref.setup)
    for key in (
        "at_table",
        "starter",
        "first_starter",
        "series",
        "in_inning",
        "next_is_break",
        "equalizing",
        "set_number",
    ):
        assert getattr(back, key) == getattr(st, key), key
    assert [(p.points, p.innings, p.high_run, p.sets_won, p.ball) for p in back.players] == [
        (p.points, p.innings, p.high_run, p.sets_won, p.ball) for p in st.players
    ]
