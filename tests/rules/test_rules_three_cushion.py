"""Three-cushion calls (003 tournament rules; 002 ART 27), one shot at a time, table-driven.

Each case names the article it checks. Shots are built by hand from the contract event types
(see rules_builders); a new game's first shot is the break, so cases that are not about the break
start from a state past it.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from rules_builders import a_shot, judge

from rules import Foul, MatchSetup, ShotInput, StartState, engine_for
from rules.carom.inputs import Verdict
from tracking.ids import BallId

GAME = "three-cushion"


BALLS = {"player 1": "white", "player 2": "yellow"}


def mid_game():
    """Player 1 (white) at the table, past the break."""
    return engine_for(GAME).initial_state(
        MatchSetup(start=StartState(score={"player 1": 3}, innings={"player 1": 4, "player 2": 4}, balls=BALLS))
    )


POINTS = [
    pytest.param(["red", "foot", "left", "head", "yellow"], "2(a)", 0, 3, id="003-2a first ball then three cushions"),
    pytest.param(["foot", "left", "head", "red", "yellow"], "2(b)", 3, 3, id="003-2b three cushions then both balls"),
    pytest.param(["foot", "red", "left", "head", "yellow"], "2(c)", 1, 3, id="003-2c one cushion, ball, two cushions"),
    pytest.param(["foot", "left", "red", "head", "yellow"], "2(d)", 2, 3, id="003-2d two cushions, ball, one cushion"),
    pytest.param(
        ["red", "foot", "left", "head", "right", "yellow"], "2(a)", 0, 4, id="003-2a four cushions also count"
    ),
    pytest.param(["foot", "foot", "foot", "red", "yellow"], "2(b)", 3, 3, id="003-3 same cushion three times counts"),
    pytest.param(["red", "left", "foot", "left", "yellow"], "2(a)", 0, 3, id="003-3 two cushions, one of them twice"),
    pytest.param(["yellow", "right", "foot", "left", "red"], "2(a)", 0, 3, id="003-2a the yellow may be first ball"),
]


@pytest.mark.parametrize("tokens,case,before_first,before_second", POINTS)
def test_valid_caroms_score_a_point(tokens, case, before_first, before_second):
    call, state = judge(tokens, state=mid_game())
    assert (call.points, call.legal, call.foul, call.turn_over) == (1, True, None, False)
    assert call.carom_case == case
    assert call.cushions_before_first_ball == before_first
    assert call.cushions_before_second_ball == before_second
    assert f"003 art. {case}" in call.reason and call.reason.startswith("Point")
    assert call.score == {"player 1": 4, "player 2": 0}
    assert state.at_table == 0 and state.series == 1


MISSES = [
    pytest.param(
        ["red", "foot", "left", "yellow", "head"], "only 2 cushion impacts", id="003-2 two cushions only is a miss"
    ),
    pytest.param(
        ["foot", "left", "red", "yellow", "head"], "only 2 cushion impacts", id="003-2d needs one after the first ball"
    ),
    pytest.param(
        ["red", "yellow", "foot", "left", "head"],
        "only no cushion impact",
        id="003-2 cushions after the second ball do not count",
    ),
    pytest.param(["red", "foot", "left", "head"], "touched only the red", id="002-7.2 one object ball only"),
    pytest.param(["foot", "left", "head", "right"], "touched neither", id="002-7.2 no object ball"),
    pytest.param([], "touched neither", id="002-7.2 nothing happened"),
    pytest.param(
        ["red", "foot", "red", "left", "red"], "touched only the red", id="002-7.2 the same ball twice is one ball"
    ),
]


@pytest.mark.parametrize("tokens,words", MISSES)
def test_misses_pass_the_table(tokens, words):
    call, state = judge(tokens, state=mid_game())
    assert (call.points, call.legal, call.foul, call.turn_over) == (0, True, None, True)
    assert words in call.reason and call.reason.startswith("No point")
    assert state.at_table == 1 and not state.in_inning


def test_frozen_cue_ball_first_contact_with_its_cushion_not_counted_003_10():
    # 003-10: frozen to the left cushion and shot into it: that contact is not an impact
    call, _ = judge(["left", "red", "foot", "head", "yellow"], state=mid_game(), frozen={"white": "left"})
    assert call.points == 0 and call.cushions_before_second_ball == 2
    assert "003 art. 10" in call.reason
    assert any("not counted (003 art. 10)" in e.role for e in call.evidence)


def test_frozen_cue_ball_later_contacts_with_its_cushion_count_003_10():
    # 003-10: "los contactos subsiguientes con la misma banda si son válidos"
    call, _ = judge(["left", "red", "left", "foot", "head", "yellow"], state=mid_game(), frozen={"white": "left"})
    assert call.points == 1 and call.cushions_before_second_ball == 3


def test_frozen_cue_ball_shot_away_counts_its_cushion_later_003_10():
    # 003-10 applies to shooting into the cushion; leaving it, a later return to it is a real impact
    call, _ = judge(["red", "left", "foot", "head", "yellow"], state=mid_game(), frozen={"white": "left"})
    assert call.points == 1 and call.cushions_before_second_ball == 3


def test_frozen_object_ball_is_irrelevant_003_10():
    call, _ = judge(["red", "left", "foot", "head", "yellow"], state=mid_game(), frozen={"red": "left"})
    assert call.points == 1


BREAKS = [
    pytest.param(
        ["yellow", "foot", "left", "head", "red"],
        Foul.BREAK_NOT_RED_FIRST,
        0,
        id="003-5 break hitting the yellow first is a foul",
    ),
    pytest.param(
        ["foot", "yellow", "left", "head", "red"],
        Foul.BREAK_NOT_RED_FIRST,
        0,
        id="003-5 break yellow first after a cushion is a foul",
    ),
    pytest.param(["red", "foot", "left", "head", "yellow"], None, 1, id="003-5 break taking the red first scores"),
    pytest.param(["foot", "red", "left", "head", "yellow"], None, 1, id="003-5 break red first after a cushion scores"),
    pytest.param(["foot", "left"], None, 0, id="003-5 break touching no ball is a plain miss"),
]


@pytest.mark.parametrize("tokens,foul,points", BREAKS)
def test_break_must_take_the_red_first(tokens, foul, points):
    call, state = judge(tokens)  # a new game: the first shot is the break
    assert call.break_shot
    assert (call.foul, call.points) == (foul, points)
    if foul is not None:
        assert "003 art. 5" in call.reason and call.turn_over and not call.legal
        assert state.at_table == 1


def test_after_the_break_either_ball_may_be_first_003_5():
    call, _ = judge(["yellow", "foot", "left", "head", "red"], state=mid_game())
    assert call.points == 1 and not call.break_shot


@pytest.mark.parametrize(
    "tokens,left,spots",
    [
        pytest.param(["red", "foot", "off:red"], ["red"], {BallId.RED: "foot_spot"}, id="003-6a 11 red off the table"),
        pytest.param(
            ["red", "foot", "left", "head", "yellow", "off:white"],
            ["white"],
            {BallId.WHITE: "centre_spot"},
            id="003-6a 11 cue ball off after a carom: foul, no point",
        ),
        pytest.param(
            ["off:white", "off:yellow"],
            ["white", "yellow"],
            {BallId.WHITE: "centre_spot", BallId.YELLOW: "head_spot"},
            id="003-6a 11 two balls off",
        ),
    ],
)
def test_ball_off_the_table_is_a_foul_and_only_it_is_respotted(tokens, left, spots):
    call, state = judge(tokens, state=mid_game())
    assert (call.foul, call.points, call.turn_over, call.legal) == (Foul.BALL_OFF_TABLE, 0, True, False)
    assert "003 art. 6(a), 11" in call.reason and "002 ART 11.1.2" in call.reason
    # 002 ART 11.1.2 / 10.3.2: the red on the foot spot, the incoming player's ball (yellow) on the
    # head spot, the fouling player's ball on the centre spot
    assert dict(call.respot) == spots
    assert state.at_table == 1 and not state.next_is_break


@pytest.mark.parametrize(
    "foul,article",
    [
        pytest.param("double_hit", "003 art. 6(e), 14", id="003-14 referee double hit cancels the point"),
        pytest.param("push_shot", "003 art. 6(d), 14", id="003-14 referee push cancels the point"),
        pytest.param("touched_ball", "003 art. 6(c)", id="003-6c referee touched ball cancels the point"),
        pytest.param("balls_moving", "003 art. 6(b), 13", id="003-13 stroke with balls moving"),
        pytest.param("no_foot_on_floor", "003 art. 6(f)", id="003-6f no foot on the floor"),
        pytest.param("touched_cue_ball_aiming", "003 art. 6(h), 17", id="003-17 touched the cue ball aiming"),
        pytest.param("cue_not_tip", "002 ART 15.3", id="002-15.3 struck without the tip"),
        pytest.param("moved_ball", "002 ART 15.6", id="002-15.6 moved a ball"),
        pytest.param("aiming_mark", "002 ART 15.10", id="002-15.10 aiming mark"),
    ],
)
def test_referee_foul_cancels_a_carom(foul, article):
    call, state = judge(
        ["red", "foot", "left", "head", "yellow"], state=mid_game(), shot_input=ShotInput(fouls=(foul,), note="seen")
    )
    assert call.foul is Foul(foul) and call.points == 0 and call.turn_over and not call.legal
    assert article in call.reason
    assert "does not count (003 art. 14; 002 ART 7.3)" in call.reason
    assert call.note == "seen" and state.at_table == 1
    assert call.score == {"player 1": 3, "player 2": 0}


@pytest.mark.parametrize(
    "tokens,points",
    [
        pytest.param(
            ["red", "red-yellow", "foot", "left", "head", "yellow"], 1, id="003-15 object balls kiss, point stands"
        ),
        pytest.param(
            ["red", "foot", "red-white", "left", "head", "yellow"], 1, id="003-15 first ball kisses the cue ball back"
        ),
        pytest.param(
            ["red", "foot", "left", "yellow-white"], 0, id="003-15 yellow kisses the cue ball before 3 cushions: miss"
        ),
        pytest.param(
            ["red", "foot", "left", "head", "yellow-white"],
            1,
            id="003-15 moving yellow meets the cue ball after 3 cushions: point",
        ),
        pytest.param(["red", "red-yellow", "foot", "left", "head"], 0, id="003-15 kiss moves the yellow away: miss"),
    ],
)
def test_kisses_are_valid_either_way(tokens, points):
    call, _ = judge(tokens, state=mid_game())
    assert call.points == points and call.foul is None
    assert call.kisses >= 1 and "003 art. 15" in call.reason


def test_wrong_ball_is_a_foul_003_6g():
    call, state = judge(["red", "foot", "left", "head", "white"], cue="yellow", state=mid_game())
    assert call.foul is Foul.WRONG_BALL and call.points == 0 and call.turn_over
    assert "003 art. 6(g), 8(a)" in call.reason and "002 ART 15.11" in call.reason
    assert "the ball of player 2" in call.reason
    assert state.at_table == 1


def test_playing_the_red_is_a_wrong_ball_003_6g():
    call, _ = judge(["white", "foot", "left", "head", "yellow"], cue="red", state=mid_game())
    assert call.foul is Foul.WRONG_BALL and "no player's ball" in call.reason


def test_wrong_ball_points_before_it_stand_003_8b():
    # 003-8(b): the points made before the shot where the foul was called stay
    st = mid_game()
    _, st = judge(["red", "foot", "left", "head", "yellow"], state=st)
    call, st = judge(["red", "foot", "left", "head", "white"], cue="yellow", state=st, number=2)
    assert call.foul is Foul.WRONG_BALL and call.score == {"player 1": 4, "player 2": 0}


def test_starter_plays_the_ball_he_breaks_with_003_4c():
    # 003-4(c): without referee input the starter's ball is the one he breaks with
    call, state = judge(["red", "foot", "left", "head", "white"], cue="yellow")
    assert call.points == 1 and call.player_ball is BallId.YELLOW
    assert "player 1 plays the yellow (the starter chooses, 003 art. 4(c))" in call.reason
    assert state.players[0].ball is BallId.YELLOW and state.players[1].ball is BallId.WHITE


def test_mid_game_log_without_balls_takes_the_ball_first_played():
    # a clip that starts mid-game with no balls given: the player at the table plays what he strikes
    st = engine_for(GAME).initial_state(MatchSetup(start=StartState(score={"player 1": 3}, innings=[4, 4])))
    call, st = judge(["red", "foot", "left", "head", "white"], cue="yellow", state=st)
    assert call.points == 1 and "player 1 plays the yellow (no referee input gave the balls)" in call.reason
    assert st.players[1].ball is BallId.WHITE
    call, st = judge(["red", "foot", "left", "head", "white"], cue="yellow", state=st, number=2)
    assert call.points == 1  # still player 1 with his yellow
    call, st = judge(["red", "foot", "left", "head", "white"], cue="yellow", state=replace(st, at_table=1), number=3)
    assert call.foul is Foul.WRONG_BALL  # 003-6(g): player 2 plays the white


def test_given_balls_are_enforced_on_the_break_002_5_8():
    setup = MatchSetup(start=StartState(balls={"player 1": "white", "player 2": "yellow"}))
    call, _ = judge(["red", "foot", "left", "head", "white"], cue="yellow", setup=setup)
    assert call.foul is Foul.WRONG_BALL


@pytest.mark.parametrize(
    "tokens,masse,foul,points",
    [
        pytest.param(
            ["red", "foot", "left", "head", "yellow"],
            False,
            Foul.PLAYED_INTO_CONTACT,
            0,
            id="003-9a 002-15.8 played into the touching red is a foul",
        ),
        pytest.param(
            ["foot", "left", "head", "red", "yellow"],
            False,
            None,
            1,
            id="003-9a playing away from the touching red is allowed",
        ),
        pytest.param(
            ["yellow", "foot", "left", "head", "red"],
            False,
            None,
            1,
            id="003-9a playing the ball not in contact first is allowed",
        ),
        pytest.param(
            ["red", "foot", "left", "head", "yellow"],
            True,
            None,
            0,
            id="002-10.1.3 detached masse: the separation is not a contact",
        ),
    ],
)
def test_balls_in_contact(tokens, masse, foul, points):
    call, _ = judge(tokens, state=mid_game(), contact=(("white", "red"),), shot_input=ShotInput(detached_masse=masse))
    assert (call.foul, call.points) == (foul, points)
    if foul is not None:
        assert "003 art. 9(a)" in call.reason and "002 ART 10.1, 15.8" in call.reason


def test_referee_verdict_overrides_the_carom_002_12_2():
    call, _ = judge(["red", "foot", "left", "yellow"], state=mid_game(), shot_input=ShotInput(verdict=Verdict.POINT))
    assert call.points == 1 and "referee's decision" in call.reason
    call, _ = judge(["red", "foot", "left", "head", "yellow"], state=mid_game(), shot_input=ShotInput(verdict="miss"))
    assert call.points == 0 and call.turn_over


def test_referee_overrules_a_false_off_table_003_6a():
    tokens = ["red", "foot", "left", "head", "yellow", "off:red"]
    call, _ = judge(tokens, state=mid_game(), shot_input=ShotInput(overrule=("ball_off_table",)))
    assert call.points == 1 and call.foul is None


def test_referee_foul_and_camera_foul_are_both_reported():
    call, _ = judge(["red", "off:red"], state=mid_game(), shot_input=ShotInput(fouls=("touched_ball",)))
    assert call.foul is Foul.TOUCHED_BALL and call.fouls == (Foul.TOUCHED_BALL, Foul.BALL_OFF_TABLE)
    assert "also the red left the table" in call.reason


def test_shot_without_shot_start_assumes_the_players_ball_and_asks_review():
    call, _ = judge(["red", "foot", "left", "head", "yellow"], state=mid_game(), start=False)
    assert call.points == 1 and call.needs_review and "no shot_start" in call.review_reason


def test_shot_cut_short_asks_review():
    call, _ = judge(["red", "foot", "left", "head", "yellow"], state=mid_game(), end=False)
    assert call.points == 1 and call.needs_review and "before the balls came to rest" in call.review_reason


def test_a_pool_ball_is_rejected():
    from rules import ShotError

    with pytest.raises(ShotError, match="names ball .5.; a carom game has white, yellow, red"):
        judge(["red", "foot", "5"], state=mid_game())


def test_engine_is_pure():
    st = mid_game()
    shot = a_shot(["red", "foot", "left", "head", "yellow"])
    e = engine_for(GAME)
    c1, s1 = e.judge_shot(st, shot)
    c2, s2 = e.judge_shot(st, shot)
    assert c1 == c2 and s1 == s2 and st == mid_game() and replace(st) == st
