"""Referee input of the nine-ball games: every fault is a one-line NineBallInputError saying what
was expected and what came; the faults that need the state name the shot."""

from __future__ import annotations

import json

import pytest

from rules import engine_for, judge_events
from rules.core.inputs import load_game_input
from rules.nine_ball.errors import NineBallInputError
from rules.nine_ball.inputs import NineBallShotInput

P = ["Ana", "Bea"]

BAD = [
    ("unknown-top-key", {"player": P}, "unknown key 'player'"),
    ("unknown-shot-key", {"shots": {"2": {"pushout": True}}}, "shots.2: unknown key 'pushout'"),
    ("unknown-foul", {"shots": {"2": {"foul": "scratchy"}}}, "unknown foul 'scratchy'"),
    ("overrule-a-foul-no-camera-sees", {"shots": {"2": {"overrule": ["touched_ball"]}}}, "overrule names fouls found"),
    ("bad-choice", {"shots": {"2": {"choice": "accept"}}}, "choice must be 'play' or 'pass_back'"),
    (
        "000-2-nine-ball-shots-are-not-called",
        {"shots": {"2": {"called": {"ball": "3", "pocket": "foot_left"}}}},
        "nine-ball shots are not called",
    ),
    ("push-out-and-safety", {"shots": {"2": {"push_out": True, "safety": True}}}, "neither called nor a safety"),
    ("not-a-player", {"players": P, "start": {"at_table": "Eva"}}, "start.at_table must be one of the players"),
    ("same-players", {"players": ["Ana", "Ana"]}, "different names"),
    ("race-to-zero", {"match": {"race_to": 0}}, "race_to must be"),
    (
        "break-rule",
        {"match": {"break": "random"}},
        "unknown break rule 'random': expected one of alternate, winner, loser",
    ),
    ("lag-choice", {"players": P, "match": {"lag": {"winner": "Ana", "choice": "toss"}}}, "lag.choice"),
    ("ball-of-another-game", {"start": {"balls": ["3", "12"]}}, "balls 1-9, got '12'"),
    ("cue-ball-in-balls", {"start": {"balls": ["cue", "9"]}}, "must be an object ball"),
    ("000-2.6-the-9-stays-until-won", {"start": {"balls": ["3", "4"]}}, "the 9 stays on the table"),
    (
        "000-6.14-three-fouls-pending",
        {"players": P, "start": {"balls": ["9"], "consecutive_fouls": {"Ana": 3}}},
        "at most 2",
    ),
    ("break-with-balls", {"start": {"next_is_break": True, "balls": ["9"]}}, "but the start gives balls"),
    (
        "000-2.4-push-out-with-ball-in-hand",
        {"start": {"balls": ["9"], "ball_in_hand": True, "push_out_allowed": True}},
        "no push-out with ball in hand",
    ),
    (
        "racks-won-at-race",
        {"players": P, "match": {"race_to": 3}, "start": {"racks_won": {"Ana": 3}}},
        "fewer than race_to",
    ),
    ("rotation-points-in-nine-ball", {"match": {"rack_points": 61}}, "only rotation is scored in points"),
    ("shot-number", {"shots": {"x": {}}}, "shot numbers are positive integers"),
]


@pytest.mark.parametrize("obj,msg", [c[1:] for c in BAD], ids=[c[0] for c in BAD])
def test_bad_input_one_line_error(obj, msg):
    with pytest.raises(NineBallInputError) as e:
        engine_for("nine-ball").parse_input(obj)
    assert msg in str(e.value) and "\n" not in str(e.value)


def test_python_api_shot_input_validates():
    with pytest.raises(NineBallInputError, match="unknown foul"):
        NineBallShotInput(fouls=("foo",))
    si = NineBallShotInput(fouls="touched_ball", choice="pass_back")
    assert si.fouls[0].value == "touched_ball" and si.choice.value == "pass_back"


def test_input_file_for_a_log(tmp_path):
    path = tmp_path / "referee.json"
    path.write_text(
        json.dumps(
            {
                "players": P,
                "match": {"race_to": 7, "break": "winner"},
                "shots": {"2": {"push_out": True, "note": "announced"}},
            }
        )
    )
    inp = load_game_input(path, "nine-ball")
    assert inp.setup.race.race_to == 7 and inp.for_shot(2).push_out and inp.for_shot(2).note == "announced"


def test_input_for_a_shot_the_log_lacks():
    from nine_ball_builders import BREAK_4_RAILS, match_log, rack

    with pytest.raises(Exception, match="referee input gives shot 5"):
        judge_events(match_log("nine-ball", [(BREAK_4_RAILS, rack())]), "nine-ball", {"shots": {"5": {}}})
