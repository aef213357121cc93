"""Eight-ball referee input: every malformed or inconsistent input is one RefereeInputError line
naming what was expected and what came (002 Reglamento bola 8 articles where a rule decides)."""

from __future__ import annotations

import json

import pytest
from eight_ball_builders import ENGINE, PLAYERS, shot_events

from rules.core.errors import RefereeInputError
from rules.core.inputs import load_game_input
from rules.core.judge import judge_events
from rules.eight_ball.fouls import EightBallFoul
from rules.eight_ball.inputs import Called
from rules.eight_ball.state import Choice, Group
from tracking.ids import BallId, Pocket

P = list(PLAYERS)

BAD = [
    ("unknown-top-key", {"player": P}, "unknown key 'player'"),
    ("same-players", {"players": ["Ana", "Ana"]}, "different names"),
    ("unknown-match-key", {"match": {"distance": 5}}, "unknown key 'distance'"),
    ("ART-31.1-best-of-even", {"match": {"best_of": 4}}, "best_of must be an odd"),
    ("race-and-best-of", {"match": {"best_of": 3, "race_to": 2}}, "race_to or best_of, not both"),
    (
        "break-rule",
        {"match": {"break": "lag"}},
        "match.break: unknown break rule .lag.: expected one of alternate, winner, loser",
    ),
    ("race-to-zero", {"match": {"race_to": 0}}, "race_to must be a positive integer"),
    ("unknown-start-key", {"start": {"score": 3}}, "unknown key 'score'"),
    ("start-at-table-name", {"players": P, "start": {"at_table": "Eva"}}, "at_table must be one of the players"),
    (
        "start-racks-won-ends-race",
        {"players": P, "match": {"race_to": 3}, "start": {"racks_won": [3, 1]}},
        "already ends the race to 3",
    ),
    (
        "ART-1.2-same-group-twice",
        {"players": P, "start": {"group": {"Ana": "solids", "Bea": "solids"}}},
        "different groups",
    ),
    ("ART-1.2-group-name", {"players": P, "start": {"group": {"Ana": "reds"}}}, "solids or stripes, got 'reds'"),
    (
        "ART-14.1-group-on-a-break",
        {"players": P, "start": {"group": {"Ana": "solids"}, "next_is_break": True}},
        "groups are chosen only after the break",
    ),
    (
        "ART-17.1-ball-in-hand-on-a-break",
        {"start": {"ball_in_hand": True, "next_is_break": True}},
        "ball_in_hand is for a shot after a foul",
    ),
    (
        "ART-6.1-break-from-partial-rack",
        {"start": {"balls": ["1", "2"], "next_is_break": True}},
        "a break is from the full rack",
    ),
    ("start-balls-cue", {"start": {"balls": ["cue", "3"]}}, "object balls 1..15, got 'cue'"),
    ("start-balls-id", {"start": {"balls": ["16"]}}, "unknown ball id '16'"),
    ("shots-key", {"shots": {"x": {}}}, "shot numbers are positive integers"),
    ("unknown-shot-key", {"shots": {"2": {"push_out": True}}}, "shot 2: unknown key 'push_out'"),
    ("ART-5.1-call-needs-pocket", {"shots": {"2": {"called": {"ball": "3"}}}}, "needs a ball and a pocket"),
    (
        "call-cue-ball",
        {"shots": {"2": {"called": {"ball": "cue", "pocket": "foot_left"}}}},
        "called.ball must be an object ball",
    ),
    ("call-pocket", {"shots": {"2": {"called": {"ball": "3", "pocket": "corner"}}}}, "unknown pocket 'corner'"),
    (
        "ART-5.4-call-and-safety",
        {"shots": {"2": {"called": {"ball": "3", "pocket": "foot_left"}, "safety": True}}},
        "either called or announced as a safety",
    ),
    ("safety-bool", {"shots": {"2": {"safety": "yes"}}}, "safety must be true or false"),
    ("unknown-foul", {"shots": {"2": {"foul": "scratched"}}}, "unknown eight-ball foul 'scratched'"),
    (
        "overrule-referee-foul",
        {"shots": {"2": {"overrule": ["touched_ball"]}}},
        "overrule names fouls found in the event log",
    ),
    ("choice-name", {"shots": {"1": {"choice": "pass_back"}}}, "choice must be one of accept_table, rerack, respot"),
    ("note-type", {"shots": {"1": {"note": 3}}}, "note must be a string"),
]


@pytest.mark.parametrize("obj,msg", [c[1:] for c in BAD], ids=[c[0] for c in BAD])
def test_bad_input_is_one_line(obj, msg):
    with pytest.raises(RefereeInputError, match=msg) as e:
        ENGINE.parse_input(obj)
    assert "\n" not in str(e.value)


def test_good_input_parses_every_key(tmp_path):
    obj = {
        "players": P,
        "match": {"race_to": 5, "break": "alternate"},
        "start": {
            "at_table": "Bea",
            "breaker": "Ana",
            "racks_won": {"Ana": 2, "Bea": 1},
            "rack": 4,
            "ball_in_hand": True,
            "group": {"Ana": "solids"},
            "balls": ["1", "8", "9", "12"],
        },
        "shots": {
            "1": {"called": {"ball": "9", "pocket": "side_left"}, "foul": ["double_hit"], "note": "n"},
            "2": {"safety": True, "overrule": "scratch"},
            "3": {"choice": "rerack", "stalemate": True},
        },
    }
    path = tmp_path / "referee.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    ref = load_game_input(path, "eight-ball")
    st = ENGINE.initial_state(ref.setup)
    assert st.at_table == 1 and st.breaker == 0 and st.groups == (Group.SOLIDS, Group.STRIPES)
    assert not st.next_is_break and st.ball_in_hand and st.rack == 4 and st.racks_won == (2, 1)
    assert st.race.race_to == 5 and st.race.break_rule.value == "alternate"
    s1 = ref.for_shot(1)
    assert s1.called == Called(BallId.B9, Pocket.SIDE_LEFT) and s1.fouls == (EightBallFoul.DOUBLE_HIT,)
    assert ref.for_shot(2).overrule == (EightBallFoul.SCRATCH,) and ref.for_shot(3).choice is Choice.RERACK
    assert ref.for_shot(4) is None


def test_referee_input_for_a_shot_the_log_lacks():
    with pytest.raises(RefereeInputError, match="gives shot 5"):
        judge_events(shot_events(["1", "2>foot_left"], rack=True), "eight-ball", {"shots": {"5": {"safety": True}}})


def test_ART_5_1_called_ball_already_pocketed_names_the_shot():
    events = shot_events(["1", "2>foot_left"], shot=1, rack=True) + shot_events(["3", "3:foot"], shot=2, t0_s=10.0)
    with pytest.raises(RefereeInputError, match="shot 2: the called ball 2 is not on the table"):
        judge_events(events, "eight-ball", {"shots": {"2": {"called": {"ball": "2", "pocket": "foot_left"}}}})
