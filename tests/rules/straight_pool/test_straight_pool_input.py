"""The 14.1 referee input (rules/straight_pool/README.md): every malformed or inconsistent value is
one RefereeInputError line saying what was expected and what came; a called ball that is not on
the table (004 art. 1: a called ball must be one the player can pocket) names the shot."""

from __future__ import annotations

import pytest
from straight_pool_builders import ENGINE, called, judge, spread, start_input

from rules import RefereeInputError, ShotError, judge_events
from rules.straight_pool.inputs import CalledBallError, ChoiceError

BALLS = ["3", "5", "7"]

BAD_INPUT = [
    ("unknown-top-key", {"shot": {}}, "unknown key 'shot'"),
    ("same-player-twice", {"players": ["A", "A"]}, "different names"),
    ("unknown-match-key", {"match": {"distance": 100}}, "unknown key 'distance'"),
    ("004-1-target-not-positive", {"match": {"target": 0}}, "match.target must be a positive integer"),
    ("head-string-negative", {"match": {"head_string_mm": -5}}, "head_string_mm must be a positive number"),
    ("calls-mode", {"match": {"calls": "sometimes"}}, "match.calls must be"),
    ("unknown-shot-key", {"shots": {"1": {"push_out": True}}}, "shot 1: unknown key 'push_out'"),
    ("shot-number", {"shots": {"x": {}}}, "shot numbers are positive integers"),
    ("004-7.4-called-and-safety", {"shots": {"1": {**called("5", "foot_left"), "safety": True}}}, "got both"),
    ("called-cue-ball", {"shots": {"1": called("cue", "foot_left")}}, "must be an object ball"),
    ("called-without-pocket", {"shots": {"1": {"called": {"ball": "5"}}}}, "needs both"),
    ("called-bad-pocket", {"shots": {"1": called("5", "corner")}}, "unknown pocket 'corner'"),
    ("unknown-foul", {"shots": {"1": {"foul": "scratched"}}}, "unknown 14.1 foul 'scratched'"),
    ("overrule-referee-foul", {"shots": {"1": {"overrule": ["touched_ball"]}}}, "overrule names fouls found in the"),
    ("bad-choice", {"shots": {"1": {"choice": "pass_back"}}}, 'choice must be "accept_table" or "rerack"'),
    ("safety-not-bool", {"shots": {"1": {"safety": "yes"}}}, "safety must be true or false"),
    ("start-player", {"start": {"at_table": "C"}}, "must be one of the players"),
    ("004-12-start-three-fouls", {"start": {"consecutive_fouls": [3, 0]}}, "0, 1 or 2"),
    ("start-ball", {"start": {"balls": ["5", "16"]}}, "object ball"),
    ("004-7.3-start-one-ball", {"start": {"balls": ["5"]}}, "the 14 are re-racked"),
    ("start-breaker-without-break", {"start": {"breaker": "player 2"}}, 'needs "next_is_break": true'),
    ("start-score-at-target", {"match": {"target": 50}, "start": {"score": [50, 3]}}, "below the target 50"),
    ("start-choice-pending", {"start": {"choice_pending": "push_out"}}, "choice_pending must be one of"),
]


@pytest.mark.parametrize("obj,words", [pytest.param(c[1], c[2], id=c[0]) for c in BAD_INPUT])
def test_bad_input_is_one_line(obj, words):
    with pytest.raises(RefereeInputError) as e:
        ENGINE.initial_state(ENGINE.parse_input(obj).setup)
    msg = str(e.value)
    assert words in msg and "\n" not in msg


def test_004_1_called_ball_not_on_the_table_names_the_shot():
    t = spread(BALLS).shot(["5", "5>foot_left"]).shot(["7", "7>foot_left"])
    with pytest.raises(CalledBallError, match=r"shot 2: the called 5 is not on the table \(on it: 3, 7\)"):
        judge(t, {"start": start_input(BALLS), "shots": {"1": called("5", "foot_left"), "2": called("5", "foot_left")}})


def test_004_6_choice_on_a_shot_that_gives_none_names_the_shot():
    with pytest.raises(ChoiceError, match="shot 1: choice 'rerack', but this shot gives the incoming player no choice"):
        judge(spread(BALLS).shot(["5", "5:foot"]), {"start": start_input(BALLS), "shots": {"1": {"choice": "rerack"}}})


def test_004_6_breaking_violation_declared_off_the_break():
    with pytest.raises(RefereeInputError, match="shot 1: foul breaking_violation is for an opening break"):
        judge(
            spread(BALLS).shot(["5", "5:foot"]),
            {"start": start_input(BALLS), "shots": {"1": {"foul": "breaking_violation"}}},
        )


def test_referee_input_for_a_shot_the_log_lacks():
    with pytest.raises(RefereeInputError, match="referee input gives shot 4"):
        judge_events(spread(BALLS).shot(["5", "5:foot"]).events, "14.1", {"shots": {"4": {"safety": True}}})


def test_a_carom_ball_in_the_log_is_a_shot_error():
    from tracking.events import BallBall
    from tracking.ids import BallId

    t = spread(BALLS).shot(["5", "5:foot"])
    t.events.insert(
        1, BallBall(t_s=1.1, frame=33, shot=1, confidence=0.9, balls=(BallId.CUE, BallId.RED), pos_mm=(0, 0))
    )
    with pytest.raises(ShotError, match="shot 1: 14.1 is played with the cue ball and balls 1..15, got the red"):
        judge(t, {"start": start_input(BALLS)})


def test_valid_input_round_trip():
    ref = ENGINE.parse_input(
        {
            "players": ["A", "B"],
            "match": {"target": 100, "head_string_mm": 560},
            "start": {
                "at_table": "B",
                "score": {"A": 20, "B": -4},
                "balls": BALLS,
                "consecutive_fouls": {"B": 1},
                "innings": [4, 4],
                "run": 3,
            },
            "shots": {"1": {**called("5", "side_left"), "note": "combo"}},
        }
    )
    st = ENGINE.initial_state(ref.setup)
    assert st.at_table == 1 and st.score == {"A": 20, "B": -4} and st.target == 100 and st.in_inning
    assert st.players[1].consecutive_fouls == 1 and st.geometry.head_string_mm == 560 and ref.setup.calls_given
    assert ref.for_shot(1).called.ball.value == "5" and ref.for_shot(2) is None
