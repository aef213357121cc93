"""Shots that are not strokes. An object ball that moves with no stroke on the cue ball (a ball touched by the player, or
the camera's misread of a resting ball) is not judged from the log: the call says so, needs the
referee, and keeps the state (000 6.6; 002 bola 8 ART 16.1e; 004 general rules). The referee's
foul for that shot is judged as any foul. Snooker has its own foul for it (002 snooker ART 2.2.8,
tested with the snooker engine). And with ball in hand (the breaker's behind the head string,
the incoming player's after a foul), the cue ball moving alone and touching nothing (no ball, no
cushion, no pocket) is the player placing it, not a stroke."""

from __future__ import annotations

import pytest

from rules import judge_events
from tracking.events import ShotEnd, ShotStart
from tracking.ids import BallId

POS = {BallId.CUE: (600.0, 635.0), **{BallId(str(i)): (1800.0 + 60.0 * i, 400.0) for i in range(1, 10)}}


def _log(cue_ball: BallId, moved_mm: float = 4.0):
    after = dict(POS)
    x, y = POS[cue_ball]
    after[cue_ball] = (x + moved_mm, y)
    return [
        ShotStart(t_s=1.0, frame=30, shot=1, confidence=0.8, cue_ball=cue_ball, positions=POS),
        ShotEnd(t_s=1.2, frame=36, shot=1, confidence=0.5, positions=after),
    ]


@pytest.mark.parametrize(
    "game, article",
    [
        ("nine-ball", "000 6.6"),
        ("ten-ball", "000 6.6"),
        ("eight-ball", "ART 16.1e"),
        ("14.1", "004 general rules"),
    ],
)
def test_an_object_ball_moving_first_is_not_judged_but_flagged(game, article):
    calls, state = judge_events(_log(BallId("2")), game, {"players": ["A", "B"]})
    (c,) = calls
    assert c.needs_review and not c.turn_over and not c.game_over and c.points == 0 and c.foul is None
    assert "the 2 moved with no stroke on the cue ball" in c.reason and article in c.reason
    assert c.player == "A" and c.cue_ball is BallId("2")


@pytest.mark.parametrize(
    "game, foul", [("nine-ball", "touched_ball"), ("eight-ball", "touched_ball"), ("14.1", "touched_ball")]
)
def test_the_referees_foul_for_that_shot_is_judged(game, foul):
    calls, _ = judge_events(_log(BallId("2")), game, {"players": ["A", "B"], "shots": {"1": {"foul": foul}}})
    (c,) = calls
    assert not c.legal and foul in {f.value for f in c.fouls} and c.turn_over


def _placed():
    """The cue ball alone moves 300 mm and touches nothing: placed by hand."""
    return _log(BallId.CUE, moved_mm=300.0)


@pytest.mark.parametrize(
    "game, article",
    [
        ("nine-ball", "000 2.3"),
        ("seven-ball", "000 2.3"),
        ("eight-ball", "ART 17.1"),
        ("14.1", "004 art. 10"),
    ],
)
def test_the_breaker_placing_the_cue_ball_is_not_the_break(game, article):
    """Before the break the breaker has the cue ball in hand behind the head string: moving it
    there and touching nothing is not a stroke (000 2.3; 002 bola 8 ART 17.1; 004 art. 10)."""
    calls, state = judge_events(_placed(), game, {"players": ["A", "B"]})
    (c,) = calls
    assert c.summary == "cue ball placed" and article in c.reason
    assert c.legal and not c.turn_over and c.foul is None and c.player == "A"
    assert getattr(state, "next_is_break", getattr(state, "opening_break", None)) is True


def test_nine_ball_000_2_7_placing_the_cue_ball_in_hand_keeps_the_ball_in_hand():
    ref = {
        "players": ["A", "B"],
        "start": {
            "at_table": "B",
            "next_is_break": False,
            "ball_in_hand": True,
            "balls": [str(i) for i in range(1, 10)],
        },
    }
    calls, state = judge_events(_placed(), "nine-ball", ref)
    (c,) = calls
    assert c.summary == "cue ball placed" and "000 2.7" in c.reason and c.player == "B"
    assert state.ball_in_hand and state.at_table == 1


def test_nine_ball_000_6_2_without_ball_in_hand_touching_nothing_is_a_foul():
    ref = {
        "players": ["A", "B"],
        "start": {
            "at_table": "B",
            "next_is_break": False,
            "ball_in_hand": False,
            "balls": [str(i) for i in range(1, 10)],
        },
    }
    calls, state = judge_events(_placed(), "nine-ball", ref)
    (c,) = calls
    assert not c.legal and c.foul.value == "no_contact" and c.turn_over


def _snooker_log(conf: float):
    pos = {BallId.CUE: (700.0, 760.0), BallId.parse("red_1"): (2700.0, 889.0), BallId.PINK: (2677.0, 889.0)}
    after = dict(pos)
    after[BallId.parse("red_1")] = (2705.0, 889.0)
    return [
        ShotStart(t_s=0.0, frame=0, shot=1, confidence=conf, cue_ball=BallId.parse("red_1"), positions=pos),
        ShotEnd(t_s=0.3, frame=9, shot=1, confidence=0.9, positions=after),
    ]


@pytest.mark.parametrize("conf, called", [(0.3, False), (0.9, True)])
def test_snooker_art_2_2_8_is_not_called_from_a_doubtful_shot_start(conf, called):
    """002 snooker ART 2.2.8 (a ball other than the cue ball played, 7 points) is called where the
    tracker is sure the red moved first; from a doubtful shot start (packed reds trading places) it
    is left to the referee."""
    calls, _ = judge_events(_snooker_log(conf), "snooker", {"players": ["A", "B"]})
    (c,) = calls
    if called:
        assert c.foul is not None and c.foul.value == "played_non_cue_ball"
    else:
        assert c.foul is None and c.needs_review and "ART 2.2.8" in c.reason and c.score == {"A": 0, "B": 0}
