"""Referee input (DESIGN.md "Inputs that no camera sees"): the JSON format and its validation.
Every malformed input raises RefereeInputError naming what was expected and what came."""

from __future__ import annotations

import json

import pytest

from rules import Foul, RefereeInputError, engine_for, load_referee_input, parse_referee_input
from rules.carom.config import MatchConfig
from rules.carom.inputs import MatchSetup, ShotInput, StartState, Verdict, referee_input_to_dict
from tracking.ids import BallId

FULL = {
    "players": ["Caudron", "Jaspers"],
    "match": {"distance": 40, "innings_limit": 50, "sets": None},
    "start": {
        "at_table": "Jaspers",
        "balls": {"Caudron": "yellow", "Jaspers": "white"},
        "score": {"Caudron": 12, "Jaspers": 9},
        "innings": [15, 14],
        "high_run": {"Caudron": 4},
    },
    "shots": {
        "3": {"foul": "touched_ball", "note": "sleeve touched the red"},
        "7": {
            "foul": ["push_shot", "double_hit"],
            "verdict": "point",
            "detached_masse": True,
            "overrule": ["ball_off_table"],
        },
    },
}


def test_full_input_parses():
    ref = parse_referee_input(FULL)
    s = ref.setup
    assert s.players == ("Caudron", "Jaspers") and s.match == MatchConfig(40, 50, None)
    assert ref.shots[3] == ShotInput(fouls=(Foul.TOUCHED_BALL,), note="sleeve touched the red")
    assert ref.shots[7].fouls == (Foul.PUSH_SHOT, Foul.DOUBLE_HIT) and ref.shots[7].verdict is Verdict.POINT
    assert ref.shots[7].overrule == (Foul.BALL_OFF_TABLE,) and ref.shots[7].detached_masse
    st = engine_for("three-cushion").initial_state(s)
    assert st.starter == 0 and st.at_table == 1  # Caudron has one more inning: he started
    assert st.players[0].ball is BallId.YELLOW and st.players[0].high_run == 4
    assert [p.points for p in st.players] == [12, 9] and not st.next_is_break


def test_round_trip_through_json(tmp_path):
    ref = parse_referee_input(FULL)
    p = tmp_path / "referee.json"
    p.write_text(json.dumps(referee_input_to_dict(ref)))
    assert load_referee_input(p) == ref


def test_empty_input_is_a_new_game():
    ref = parse_referee_input({})
    st = engine_for("three-cushion").initial_state(ref.setup)
    assert st.next_is_break and st.at_table == 0 and st.players[0].name == "player 1"
    assert not st.balls_chosen  # 003 art. 4(c): the starter picks his ball at the break


def _with(path: str, value):
    d = json.loads(json.dumps(FULL))
    keys = path.split(".")
    cur = d
    for k in keys[:-1]:
        cur = cur[k]
    if value is _DELETE:
        del cur[keys[-1]]
    else:
        cur[keys[-1]] = value
    return d


_DELETE = object()

BAD = [
    pytest.param(
        _with("shots.3.foul", "sneezed"),
        "unknown foul 'sneezed': expected one of ball_off_table",
        id="unknown foul name",
    ),
    pytest.param(_with("shots.0", {}), "shot numbers are positive integers", id="shot number zero"),
    pytest.param(_with("shots.x", {}), "shot numbers are positive integers", id="shot number not a number"),
    pytest.param(_with("shots.-2", {}), "shot numbers are positive integers", id="negative shot number"),
    pytest.param(
        _with("shots.3.fuol", "touched_ball"), "unknown key 'fuol': expected foul, verdict", id="misspelt shot key"
    ),
    pytest.param(_with("shots.3.verdict", "maybe"), "verdict must be 'point', 'miss' or null", id="bad verdict"),
    pytest.param(
        _with("shots.3.overrule", ["touched_ball"]),
        "overrule names fouls found in the event log",
        id="overrule a referee foul",
    ),
    pytest.param(_with("shots.3.detached_masse", "yes"), "detached_masse must be true or false", id="non-boolean flag"),
    pytest.param(
        _with("start.balls", {"Caudron": "purple", "Jaspers": "white"}), "unknown ball id 'purple'", id="unknown ball"
    ),
    pytest.param(
        _with("start.balls", {"Caudron": "red", "Jaspers": "white"}),
        "plays the white or the yellow, got 'red'",
        id="red is nobody's ball",
    ),
    pytest.param(
        _with("start.balls", {"Caudron": "white", "Jaspers": "white"}), "different balls", id="same ball twice"
    ),
    pytest.param(
        _with("start.at_table", "Zanetti"),
        "must be one of the players 'Caudron', 'Jaspers', got 'Zanetti'",
        id="unknown player",
    ),
    pytest.param(
        _with("start.score", {"Caudron": -1}),
        "start.score.Caudron must be a non-negative integer, got -1",
        id="negative score",
    ),
    pytest.param(
        _with("start.score", {"Jaspers": 40}), "fewer than the distance (40) points, got 40", id="score at the distance"
    ),
    pytest.param(
        _with("start.score", {"Caudron": 41}),
        "fewer than the distance (40) points, got 41",
        id="score past the distance",
    ),
    pytest.param(
        {
            "match": {"distance": 40},
            "start": {"at_table": "player 2", "score": [40, 3], "innings": [9, 8], "equalizing": False},
        },
        "the opponent's inning is the equalizing one",
        id="002-12.3 starter at the distance without equalizing",
    ),
    pytest.param(
        _with("start.innings", [14, 15]),
        "must have as many innings as 'Caudron'",
        id="002-12.3 innings inconsistent with who is at the table",
    ),
    pytest.param(
        _with("start.innings", [51, 50]), "at most the innings limit (50)", id="002-13 innings past the limit"
    ),
    pytest.param(_with("start.series", 20), "series (20) cannot exceed the score", id="series above the score"),
    pytest.param(_with("start.colour", 1), "unknown key 'colour'", id="unknown start key"),
    pytest.param(
        _with("match.distance", 0), "match.distance must be a positive integer or null, got 0", id="zero distance"
    ),
    pytest.param(_with("match.sets", 4), "match.sets must be odd", id="002-14 even sets"),
    pytest.param(
        _with("match.sets", 3), "innings_limit must be null with match.sets", id="002-14 sets with innings limit"
    ),
    pytest.param(_with("players", ["A"]), "players must be two non-empty names", id="one player"),
    pytest.param(_with("players", ["A", "A"]), "different names", id="same player twice"),
    pytest.param(
        {"players": ["A", "B"], "shots": {"1": {}}, "extra": 1}, "unknown key 'extra'", id="unknown top-level key"
    ),
    pytest.param([1, 2], "must be an object, got list", id="not an object"),
    pytest.param(
        {"start": {"equalizing": True}, "match": {"distance": 10}},
        "must have reached the distance or the innings limit",
        id="002-12.3 equalizing without reason",
    ),
    pytest.param(
        {"match": {"distance": 5, "sets": 3}, "start": {"sets_won": {"player 1": 2}}},
        "fewer than 2 sets won",
        id="002-14 sets already won",
    ),
    pytest.param(
        {"match": {"distance": 5, "sets": 3}, "start": {"set": 1, "sets_won": [1, 0]}},
        "start.set must be one more than the sets won (2)",
        id="002-14 set number",
    ),
    pytest.param(
        {
            "match": {"distance": 5, "sets": 3},
            "start": {"set": 2, "sets_won": [1, 0], "starter": "player 1", "first_set_starter": "player 1"},
        },
        "set 2 is started by 'player 2'",
        id="002-14.1.3 alternate starts",
    ),
    pytest.param({"start": {"sets_won": [1, 0]}}, "need match.sets", id="sets without match.sets"),
    pytest.param(
        {"start": {"series": 2, "score": [2, 0], "next_is_break": True}},
        "a break begins an inning",
        id="break mid-inning",
    ),
]


@pytest.mark.parametrize("obj,message", BAD)
def test_malformed_input_is_refused_with_a_clear_message(obj, message):
    with pytest.raises(RefereeInputError) as e:
        parse_referee_input(obj)
    assert message in str(e.value)
    assert "\n" not in str(e.value)


def test_load_errors_name_the_file(tmp_path):
    missing = tmp_path / "nope.json"
    with pytest.raises(RefereeInputError, match="nope.json: cannot read"):
        load_referee_input(missing)
    bad = tmp_path / "bad.json"
    bad.write_text('{"players": [')
    with pytest.raises(RefereeInputError, match="bad.json: not valid JSON"):
        load_referee_input(bad)
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"shots": {"2": {"foul": "nope"}}}))
    with pytest.raises(RefereeInputError, match=r"wrong.json: shots.2: .*unknown foul 'nope'"):
        load_referee_input(wrong)


def test_python_api_validates_too():
    with pytest.raises(RefereeInputError, match="unknown foul"):
        ShotInput(fouls=("sneezed",))
    with pytest.raises(RefereeInputError, match="positive integers"):
        from rules import RefereeInput

        RefereeInput(shots={0: ShotInput()})
    with pytest.raises(RefereeInputError, match="must be one of the players"):
        MatchSetup(start=StartState(at_table="nobody"))


def test_starter_derived_from_series_when_innings_are_equal():
    # 002 ART 12.3: equal innings with the player at the table mid-inning: his opponent started
    s = MatchSetup(
        start=StartState(at_table="player 2", score={"player 2": 3}, innings={"player 1": 4, "player 2": 4}, series=3)
    )
    st = engine_for("three-cushion").initial_state(s)
    assert st.starter == 0 and st.in_inning and st.series == 3
