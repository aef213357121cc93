"""Judging hand-built snooker strokes from a referee-input start (shared by the snooker tests)."""

from __future__ import annotations

from snooker_builders import log

from rules import engine_for, judge_events

PLAYERS = ["A", "B"]
#: mid-frame starts: a red on (10 reds left), a colour on after A's red, the end sequence.
RED_ON = {"score": [0, 0], "reds": 10, "at_table": "A"}
COLOUR_ON = {"score": [1, 0], "reds": 10, "ball_on": "colour", "at_table": "A", "break": 1}


def seq_on(colour: str, score=(0, 0)) -> dict:
    return {"score": list(score), "reds": 0, "ball_on": colour, "at_table": "A"}


def judge(*strokes, start=None, shots=None, match=None, players=PLAYERS):
    ref: dict = {"players": list(players), "shots": {str(k): v for k, v in (shots or {}).items()}}
    if start is not None:
        ref["start"] = start
    if match is not None:
        ref["match"] = match
    return judge_events(log(*strokes), "snooker", ref)


def engine():
    return engine_for("snooker")
