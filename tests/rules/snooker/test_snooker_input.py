"""Snooker referee input (rules/snooker/inputs.py) and the score sheet: every fault is one line
naming what was expected and what came; checks that need the state are made at the shot."""

from __future__ import annotations

import pytest
from snooker_builders import log, max_break, pot, shot_events
from snooker_helpers import RED_ON, engine, judge, seq_on

from rules import RefereeInputError, ShotError, judge_events
from rules.snooker.inputs import SnookerInputError

# (id, referee input, words the one-line message must hold)
BAD_INPUT = [
    ("unknown-top-key", {"player": ["A", "B"]}, "unknown key 'player'"),
    ("players-same-name", {"players": ["A", "A"]}, "different names"),
    ("match-even-frames", {"match": {"frames": 4}}, "odd positive integer"),
    ("match-frames-and-race", {"match": {"frames": 5, "race_to": 3}}, "not both"),
    ("match-break-rule", {"match": {"break": "loser_pays"}}, "match.break"),
    ("start-unknown-player", {"players": ["A", "B"], "start": {"at_table": "C"}}, "one of the players"),
    ("start-unknown-key", {"start": {"colours": []}}, "unknown key 'colours'"),
    (
        "ART-1.6-start-colour-in-sequence-with-reds",
        {"start": {"reds": 3, "ball_on": "pink", "score": [1, 1]}},
        "ART 1.6",
    ),
    ("ART-1.6-start-red-on-without-reds", {"start": {"reds": 0, "ball_on": "red", "score": [1, 1]}}, "ART 1.6"),
    ("start-reds-range", {"start": {"reds": 16}}, "0..15"),
    ("start-ball-on-name", {"start": {"ball_on": "purple"}}, "start.ball_on"),
    ("start-break-over-score", {"players": ["A", "B"], "start": {"score": [3, 0], "break": 5}}, "cannot exceed"),
    (
        "start-re-spotted-black-level",
        {"start": {"reds": 0, "ball_on": "black", "score": [3, 0], "re_spotted_black": True}},
        "level scores",
    ),
    (
        "start-fouled-at-table",
        {"players": ["A", "B"], "start": {"fouled": "A", "at_table": "A", "score": [0, 4]}},
        "opponent is at the table",
    ),
    ("start-frame-number", {"start": {"frame": 3, "frames_won": [1, 0]}}, "one more than the frames won"),
    ("start-match-already-won", {"match": {"frames": 3}, "start": {"frames_won": [2, 0]}}, "fewer than 2"),
    ("ART-1.5-break-off-with-a-score", {"start": {"next_is_break": True, "score": [4, 0]}}, "broken off"),
    ("shot-unknown-key", {"shots": {"1": {"pocket": "foot_left"}}}, "shot 1: unknown key 'pocket'"),
    ("shot-called-pocket", {"shots": {"1": {"called": {"ball": "blue", "pocket": "foot_left"}}}}, "unknown key"),
    ("shot-called-not-a-colour", {"shots": {"2": {"called": {"ball": "red_3"}}}}, "must be a colour"),
    ("shot-choice-value", {"shots": {"1": {"choice": "rerack"}}}, "'play' or 'opponent_shoots'"),
    ("shot-foul-name", {"shots": {"1": {"foul": "double_kiss"}}}, "unknown snooker foul 'double_kiss'"),
    ("shot-overrule-referee-foul", {"shots": {"1": {"overrule": ["push_shot"]}}}, "overrule names fouls"),
    ("shot-foul-ball-cue", {"shots": {"1": {"foul": "touched_ball", "foul_ball": "cue"}}}, "object ball"),
    ("shot-plays-first-player", {"players": ["A", "B"], "shots": {"1": {"plays_first": "C"}}}, "one of the players"),
    ("shot-number", {"shots": {"x": {}}}, "positive integers"),
    ("shot-free-ball-type", {"shots": {"1": {"free_ball": "yes"}}}, "true or false"),
]


@pytest.mark.parametrize("case,obj,words", BAD_INPUT, ids=[c[0] for c in BAD_INPUT])
def test_bad_referee_input(case, obj, words):
    with pytest.raises(RefereeInputError) as e:
        engine().parse_input(obj)
    msg = str(e.value)
    assert words in msg and "\n" not in msg and msg.startswith("referee input")


# (id, start, strokes, shot inputs, words): input that does not fit the state at the shot
BAD_AT_SHOT = [
    (
        "ART-1.6-called-colour-when-a-red-is-on",
        RED_ON,
        [["blue"]],
        {1: {"called": {"ball": "blue"}}},
        "ball on is a red",
    ),
    ("ART-1.6-called-out-of-order", seq_on("green"), [["pink"]], {1: {"called": {"ball": "pink"}}}, "in order"),
    ("ART-1.10-free-ball-without-a-foul", RED_ON, [["blue"]], {1: {"free_ball": True}}, "follows a foul"),
    (
        "ART-1.10-free-ball-not-on-the-table",
        seq_on("blue") | {"fouled": "A", "at_table": "B"},
        [["yellow"]],
        {1: {"free_ball": True, "called": {"ball": "yellow"}}},
        "on the table",
    ),
    (
        "ART-1.10-free-ball-is-the-ball-on",
        seq_on("blue") | {"fouled": "A", "at_table": "B"},
        [["blue"]],
        {1: {"free_ball": True, "called": {"ball": "blue"}}},
        "other than the ball on",
    ),
    (
        "ART-1.10-free-ball-with-offender-playing",
        RED_ON,
        [["foot"], ["blue"]],
        {2: {"free_ball": True, "choice": "opponent_shoots"}},
        "non-offender",
    ),
    ("choice-without-a-foul", RED_ON, [["red_1"]], {1: {"choice": "play"}}, "stroke before was no foul"),
    ("plays-first-without-re-spotted-black", RED_ON, [["red_1"]], {1: {"plays_first": "B"}}, "re-spotted black"),
    ("ART-2.2.4-needs-a-free-ball", RED_ON, [["red_1"]], {1: {"foul": "snooker_behind_free_ball"}}, "free ball"),
    (
        "ART-2.2.4-not-with-pink-and-black",
        seq_on("pink") | {"fouled": "A", "at_table": "B"},
        [["black"]],
        {1: {"foul": "snooker_behind_free_ball", "free_ball": True, "called": {"ball": "black"}}},
        "pink and black",
    ),
]


@pytest.mark.parametrize("case,start,strokes,shots,words", BAD_AT_SHOT, ids=[c[0] for c in BAD_AT_SHOT])
def test_input_that_does_not_fit_the_state(case, start, strokes, shots, words):
    with pytest.raises(SnookerInputError) as e:
        judge(*strokes, start=start, shots=shots)
    n = max(shots)
    assert f"shot {n}:" in str(e.value) and words in str(e.value) and "\n" not in str(e.value)


def test_shot_with_a_ball_that_is_not_snooker():
    evs = shot_events(["9"])
    with pytest.raises(ShotError, match="not a snooker ball"):
        judge_events(evs, "snooker", {})


def test_score_sheet_json_and_table():
    calls, st = judge(*max_break(), pot("red_1"), pot("black"), ["red_2"], match={"frames": 5})
    sheet = engine().score_sheet(st)
    assert sheet["match"] == {"race_to": 3, "best_of": 5, "break": "alternate"}
    assert sheet["frames"][0]["points"] == {"A": 147, "B": 0} and sheet["frames"][0]["winner"] == "A"
    assert sheet["frame"]["number"] == 2 and sheet["frame"]["reds"] == 14 and sheet["frame"]["ball_on"] == "red"
    assert sheet["frame"]["points_remaining"] == 14 * 8 + 27
    assert sheet["at_table"] == "A" and sheet["players"][1]["score"] == 8 and sheet["players"][0]["high_break"] == 147
    text = engine().format_score_sheet(st)
    assert "147" in text and "(in play)" in text and "best of 5" in text and "at the table: A" in text


def test_score_sheet_resume_continues_the_match():
    """Judging a log in two pieces, the second from the first's resume, ends where the whole log does."""
    strokes = [
        pot("red_1"),
        pot("black"),
        ["red_2", "cue>foot_left"],
        pot("red_3"),
        ["blue"],
        ["foot"],
        pot("red_4"),
        pot("pink"),
    ]
    whole_calls, whole = judge(*strokes)
    head_calls, head = judge(*strokes[:5])
    resume = engine().score_sheet(head)["resume"]
    tail_calls, tail = judge_events(log(*strokes[5:]), "snooker", {"players": ["A", "B"], "start": resume})
    assert [c.score for c in tail_calls] == [c.score for c in whole_calls[5:]]
    assert [c.player for c in tail_calls] == [c.player for c in whole_calls[5:]]
    assert (tail.scores, tail.reds, tail.on, tail.at_table, tail.high_breaks) == (
        whole.scores,
        whole.reds,
        whole.on,
        whole.at_table,
        whole.high_breaks,
    )


def test_resume_after_a_foul_keeps_the_choice():
    _, st = judge(["foot"], start=RED_ON)
    resume = engine().score_sheet(st)["resume"]
    assert resume["fouled"] == "A" and resume["at_table"] == "B"
    calls, _ = judge_events(
        log(["red_1"]),
        "snooker",
        {"players": ["A", "B"], "start": resume, "shots": {"1": {"choice": "opponent_shoots"}}},
    )
    assert calls[0].player == "A"


def test_call_jsonl_keys():
    from rules.core.call import call_to_dict

    d = call_to_dict(judge(["red_1", "cue>foot_left"], start=RED_ON)[0][0])
    for k in (
        "shot",
        "game",
        "player",
        "legal",
        "foul",
        "points",
        "turn_over",
        "game_over",
        "reason",
        "score",
        "needs_review",
        "evidence",
        "penalty",
        "penalty_to",
        "ball_on",
        "respot",
        "break",
        "frame",
    ):
        assert k in d
    assert d["game"] == "snooker" and d["foul"] == "cue_ball_pocketed" and d["penalty_to"] == "B"
