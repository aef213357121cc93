"""Property tests of the event log reader (tracking/eventlog.py): a random valid log always reads
back as written; a mutated log or random JSON lines give EventLogError (a TabletrackError), never
another exception."""

from __future__ import annotations

import contextlib
import io
import json

from hypothesis import given
from hypothesis import strategies as st
from hypothesis_inputs import FAST, json_values, mutated

from common.errors import TabletrackError
from tracking.eventlog import event_to_dict, iter_events
from tracking.events import BallBall, CushionHit, Event, OffTable, Pocketed, ShotEnd, ShotStart
from tracking.ids import BallId, Cushion, Pocket

BALLS = list(BallId)
coord = st.floats(min_value=-500.0, max_value=4000.0, allow_nan=False)
pos = st.tuples(coord, coord)
conf = st.floats(min_value=0.0, max_value=1.0)


@st.composite
def logs(draw: st.DrawFn) -> list[Event]:
    """A log of 1..4 shots in order: shot_start, contacts, pockets, shot_end, times increasing."""
    events: list[Event] = []
    t = draw(st.floats(min_value=0.0, max_value=100.0))
    frame = 0
    for shot in range(1, draw(st.integers(min_value=1, max_value=4)) + 1):
        balls = draw(st.lists(st.sampled_from(BALLS), min_size=2, max_size=6, unique=True))
        positions = {b: draw(pos) for b in balls}
        events.append(ShotStart(t, frame, shot, draw(conf), balls[0], positions))
        for _ in range(draw(st.integers(min_value=0, max_value=5))):
            t += draw(st.floats(min_value=0.0, max_value=2.0))
            frame += 1
            kind = draw(st.sampled_from(("ball", "cushion", "pocket", "off")))
            a, b = draw(st.permutations(balls))[:2]
            if kind == "ball":
                events.append(BallBall(t, frame, shot, draw(conf), (a, b), draw(pos)))
            elif kind == "cushion":
                events.append(
                    CushionHit(t, frame, shot, draw(conf), a, draw(st.sampled_from(list(Cushion))), draw(pos))
                )
            elif kind == "pocket":
                events.append(Pocketed(t, frame, shot, draw(conf), a, draw(st.sampled_from(list(Pocket)))))
            else:
                events.append(OffTable(t, frame, shot, draw(conf), a))
        t += 1.0
        frame += 1
        events.append(ShotEnd(t, frame, shot, draw(conf), positions))
    return events


def _text(events: list[Event]) -> str:
    return "".join(json.dumps(event_to_dict(e)) + "\n" for e in events)


@FAST
@given(logs())
def test_a_valid_log_reads_back(events: list[Event]) -> None:
    got = list(iter_events(io.StringIO(_text(events)), "events.jsonl"))
    assert [event_to_dict(e) for e in got] == [event_to_dict(e) for e in events]


@FAST
@given(st.data())
def test_a_mutated_log_is_read_or_refused_in_one_line(data: st.DataObject) -> None:
    text = data.draw(mutated(_text(data.draw(logs()))))
    try:
        list(iter_events(io.StringIO(text), "events.jsonl"))
    except TabletrackError as e:
        assert "\n" not in str(e) and str(e).startswith("events.jsonl")


@FAST
@given(st.lists(json_values, min_size=1, max_size=4))
def test_random_json_lines_are_refused_as_bad_input(values: list[object]) -> None:
    text = "".join(json.dumps(v) + "\n" for v in values)
    with contextlib.suppress(TabletrackError):
        list(iter_events(io.StringIO(text), "events.jsonl"))
