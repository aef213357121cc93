"""judge_events over whole logs, calls.jsonl, the summary table and the score sheet."""

from __future__ import annotations

import json

import pytest
from rules_builders import log

from rules import (
    CallWriter,
    Family,
    Game,
    RefereeInputError,
    UnknownGameError,
    call_to_dict,
    engine_for,
    format_calls_table,
    judge_events,
    judge_log,
    parse_game,
    parse_referee_input,
    score_sheet,
)
from tracking.eventlog import write_events

DESIGN_KEYS = [
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
]

# 002 ART 7.4-7.5: player 1 (white) scores twice then misses; player 2 (yellow) scores, then fouls
# (the red off the table, 003 art. 6(a)); player 1 scores with a 2(b).
LOG = log(
    ["red", "foot", "left", "head", "yellow"],
    ["yellow", "left", "foot", "right", "red"],
    ["red", "foot", "yellow"],
    (["white", "foot", "left", "head", "red"], "yellow"),
    (["red", "off:red"], "yellow"),
    ["foot", "left", "head", "red", "yellow"],
)


def test_running_score_over_a_multi_shot_log():
    seen = []
    calls, st = judge_events(LOG, "three-cushion", on_call=seen.append)
    assert seen == calls and [c.shot for c in calls] == [1, 2, 3, 4, 5, 6]
    assert [c.points for c in calls] == [1, 1, 0, 1, 0, 1]
    assert [c.player for c in calls] == ["player 1"] * 3 + ["player 2"] * 2 + ["player 1"]
    assert [tuple(c.score.values()) for c in calls] == [(1, 0), (2, 0), (2, 0), (2, 1), (2, 1), (3, 1)]
    assert calls[4].foul is not None and calls[4].foul.value == "ball_off_table"
    assert calls[5].carom_case == "2(b)"
    assert [p.innings for p in st.players] == [2, 1] and st.players[0].high_run == 2


def test_referee_input_applies_to_its_shot():
    ref = parse_referee_input({"players": ["Ana", "Bea"], "shots": {"2": {"foul": "double_hit"}}})
    calls, _ = judge_events(LOG, Game.THREE_CUSHION, ref)
    assert calls[1].foul is not None and calls[1].points == 0 and calls[1].player == "Ana"
    assert calls[2].player == "Bea"


def test_referee_input_for_a_shot_not_in_the_log_is_refused():
    ref = parse_referee_input({"shots": {"9": {"foul": "double_hit"}}})
    with pytest.raises(RefereeInputError, match="gives shot 9, but the event log has shots 1..6"):
        judge_events(LOG, "three-cushion", ref)


def test_calls_jsonl_is_written_line_by_line(tmp_path):
    events = tmp_path / "events.jsonl"
    write_events(events, LOG)
    ref = tmp_path / "referee.json"
    ref.write_text(json.dumps({"match": {"distance": 3}}))
    out = tmp_path / "calls.jsonl"
    calls, st = judge_log(events, "three-cushion", ref, out)
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(lines) == 6 and lines == [call_to_dict(c) for c in calls]
    assert list(lines[0])[: len(DESIGN_KEYS)] == DESIGN_KEYS
    assert lines[5]["game_over"] is False and "equalizing inning" in lines[5]["reason"]  # 002 ART 12.3
    assert st.at_table == 1


def test_call_writer_flushes_each_call(tmp_path):
    calls, _ = judge_events(LOG[:7], "three-cushion")
    out = tmp_path / "calls.jsonl"
    w = CallWriter(out)
    w.write(calls[0])
    assert json.loads(out.read_text())["shot"] == 1  # readable before close
    w.close()


def test_summary_table_and_score_sheet():
    calls, st = judge_events(LOG, "three-cushion")
    table = format_calls_table(calls)
    lines = table.splitlines()
    assert lines[0].split() == ["shot", "player", "ball", "call", "cush", "score", "flags"]
    assert "point 2(a)" in lines[2] and "FOUL ball_off_table" in lines[6]
    assert lines[-1] == "6 shots: 4 points, 1 fouls, 0 to review"
    sheet = score_sheet(st)
    json.dumps(sheet)
    assert sheet["players"][0]["points"] == 3 and sheet["players"][0]["innings"] == 2
    assert sheet["players"][0]["average"] == 1.5 and sheet["at_table"] == "player 1"
    # the resume start continues the same match
    ref = parse_referee_input({"start": sheet["resume"]})
    st2 = engine_for("three-cushion").initial_state(ref.setup)
    assert st2.players == st.players and st2.at_table == st.at_table and st2.series == st.series


@pytest.mark.parametrize(
    "name,game",
    [
        ("three-cushion", Game.THREE_CUSHION),
        ("One_Cushion", Game.ONE_CUSHION),
        ("14.1", Game.STRAIGHT_POOL),
        ("9-ball", Game.NINE_BALL),
        ("Nine Ball", Game.NINE_BALL),
        ("cuadro 47/2", Game.BALKLINE_47_2),
        ("71/2", Game.BALKLINE_71_2),
        ("snooker", Game.SNOOKER),
        ("bola-8", Game.EIGHT_BALL),
    ],
)
def test_parse_game(name, game):
    assert parse_game(name) is game


def test_parse_game_lists_valid_names():
    with pytest.raises(
        UnknownGameError, match="unknown game 'pyramid': expected one of three-cushion, one-cushion, libre"
    ):
        parse_game("pyramid")
    assert issubclass(UnknownGameError, ValueError)


@pytest.mark.parametrize(
    "game,family",
    [
        (Game.THREE_CUSHION, Family.CAROM),
        (Game.BALKLINE_71_2, Family.CAROM),
        (Game.PENTATHLON, Family.CAROM),
        (Game.NINE_BALL, Family.POOL),
        (Game.ROTATION, Family.POOL),
        (Game.STRAIGHT_POOL, Family.POOL),
        (Game.EIGHT_BALL, Family.POOL),
        (Game.SNOOKER, Family.SNOOKER),
    ],
)
def test_game_family(game, family):
    assert game.family is family


@pytest.mark.parametrize("game", list(Game))
def test_every_game_has_an_engine(game):
    """Every game judges an empty log from a new game and reads an empty referee input."""
    engine = engine_for(game)
    assert engine.game is game
    ref = engine.parse_input({})
    state = engine.initial_state(ref.setup)
    calls, final = judge_events([], game, {})
    assert calls == [] and isinstance(engine.score_sheet(final), dict)
    assert isinstance(engine.format_score_sheet(state), str)


def test_empty_log():
    calls, st = judge_events([], "one-cushion")
    assert (
        calls == []
        and st.next_is_break
        and format_calls_table(calls).endswith("0 shots: 0 points, 0 fouls, 0 to review")
    )
