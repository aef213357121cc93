"""One-cushion calls (002 ART 26: at least one cushion impact before the second object ball), the
same engine as three-cushion with another count; the general carom rules (002) apply."""

from __future__ import annotations

import pytest
from rules_builders import judge

from rules import Foul, MatchSetup, StartState, engine_for
from tracking.ids import BallId

GAME = "one-cushion"


BALLS = {"player 1": "white", "player 2": "yellow"}


def mid_game():
    return engine_for(GAME).initial_state(
        MatchSetup(start=StartState(score={"player 1": 2}, innings={"player 1": 3, "player 2": 3}, balls=BALLS))
    )


@pytest.mark.parametrize(
    "tokens,points,before_second",
    [
        pytest.param(["red", "foot", "yellow"], 1, 1, id="002-26 ball, cushion, ball scores"),
        pytest.param(["foot", "red", "yellow"], 1, 1, id="002-26 cushion first then both balls scores"),
        pytest.param(["red", "foot", "left", "head", "yellow"], 1, 3, id="002-26 three cushions also score"),
        pytest.param(["red", "yellow", "foot"], 0, 0, id="002-26 no cushion before the second ball is a miss"),
        pytest.param(["red", "foot"], 0, 1, id="002-7.2 one object ball only is a miss"),
    ],
)
def test_one_cushion_count(tokens, points, before_second):
    call, state = judge(tokens, game=GAME, state=mid_game())
    assert call.points == points and call.foul is None
    assert call.cushions_before_second_ball == before_second
    assert call.carom_case is None
    if points:
        assert "002 ART 26" in call.reason and not call.turn_over
    assert ("003 art." in call.reason) is False  # the three-cushion rules are not cited


def test_one_cushion_starter_plays_the_white_002_5_8():
    # 002 ART 5.8: the starter plays the white; breaking with the yellow is playing the wrong ball
    call, _ = judge(["red", "foot", "white"], game=GAME, cue="yellow")
    assert call.foul is Foul.WRONG_BALL and "002 ART 15.11" in call.reason


def test_one_cushion_break_must_take_the_red_first_002_6_2():
    call, _ = judge(["yellow", "foot", "red"], game=GAME)
    assert call.foul is Foul.BREAK_NOT_RED_FIRST and "002 ART 6.2" in call.reason


def test_one_cushion_playing_into_the_frozen_cushion_is_a_foul_002_10_2():
    # 002 ART 10.2 / 15.8: a ball touching a cushion may not be played directly onto it
    call, _ = judge(["left", "red", "foot", "yellow"], game=GAME, state=mid_game(), frozen={"white": "left"})
    assert call.foul is Foul.PLAYED_INTO_CONTACT and "002 ART 10.2, 15.8" in call.reason


def test_one_cushion_ball_off_table_puts_all_balls_on_the_break_002_11_1_1():
    call, state = judge(["red", "foot", "off:red"], game=GAME, state=mid_game())
    assert call.foul is Foul.BALL_OFF_TABLE
    assert dict(call.respot) == dict.fromkeys((BallId.WHITE, BallId.YELLOW, BallId.RED), "break_position")
    assert "002 ART 11.1.1" in call.reason
    assert state.next_is_break and state.at_table == 1
