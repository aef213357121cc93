"""The event log reader's bounds and order (tracking/eventlog.py, DESIGN.md "How a log is checked
when read"): values past physical bounds and logs out of order are refused naming the line."""

from __future__ import annotations

import io
import json

import pytest

from tracking.eventlog import EventLogError, iter_events

START = {"kind": "shot_start", "t": 1.0, "frame": 30, "shot": 1, "confidence": 1.0, "cue_ball": "white"}
POS = {"white": [500.0, 700.0], "yellow": [1500.0, 700.0]}


def _line(**kw: object) -> str:
    return json.dumps(kw)


def _start(shot: int, t: float) -> str:
    return _line(**{**START, "shot": shot, "t": t, "positions": POS})


def _end(shot: int, t: float) -> str:
    return _line(kind="shot_end", t=t, frame=int(t * 30), shot=shot, confidence=1.0, positions=POS)


def _cushion(shot: int, t: float, pos: list[float] | None = None) -> str:
    return _line(
        kind="cushion",
        t=t,
        frame=int(t * 30),
        shot=shot,
        confidence=1.0,
        ball="white",
        cushion="left",
        pos=pos or [1, 2],
    )


@pytest.mark.parametrize(
    "lines,expect",
    [
        ([_start(1, 1.0), _cushion(1, 1.5, [1e308, 2.0])], "ev.jsonl:2: a position must be [x_mm, y_mm]"),
        ([_line(**{**START, "positions": {"white": [1e308, 1]}})], "ev.jsonl:1: a position"),
        ([_line(**{**START, "t": 1e300, "positions": POS})], "ev.jsonl:1: field 't' must be a finite number"),
        ([_line(**{**START, "frame": 10**15, "positions": POS})], "ev.jsonl:1: field 'frame' must be an integer"),
        (
            [_start(1, 1.0), _end(1, 5.0), _start(2, 6.0), _end(2, 9.0), _start(1, 10.0)],
            "ev.jsonl:5: shot 1 after shot 2",
        ),
        ([_start(1, 1.0), _start(1, 2.0)], "ev.jsonl:2: shot 1 has a second shot_start"),
        (
            [_start(1, 1.0), _end(1, 5.0), _cushion(1, 5.1)],
            "ev.jsonl:3: a cushion event of shot 1 after that shot's shot_end",
        ),
        ([_cushion(1, 1.0), _start(1, 1.2)], "ev.jsonl:2: shot 1's shot_start comes after events of that shot"),
        ([_start(1, 10.0), _end(1, 15.0), _start(2, 3.0)], "ev.jsonl:3: time runs backwards: t=3 s after t=15 s"),
    ],
)
def test_a_log_out_of_bounds_or_order_is_refused_naming_the_line(lines: list[str], expect: str) -> None:
    with pytest.raises(EventLogError) as e:
        list(iter_events(io.StringIO("\n".join(lines) + "\n"), "ev.jsonl"))
    assert expect in str(e.value), str(e.value)


def test_events_fitted_a_little_out_of_order_are_accepted() -> None:
    """A cushion fitted 0.04 s after its shot's shot_end (the golden clip point_2b_offaxis)."""
    lines = [_start(1, 1.0), _cushion(1, 6.75), _end(1, 6.7167)]
    assert len(list(iter_events(io.StringIO("\n".join(lines)), "ev.jsonl"))) == 3
