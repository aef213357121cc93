"""The shot start's ``name_doubts`` in the event log (tracking/eventlog.py): written only where a
name is in doubt, read back as written, and a malformed entry named in one line."""

from __future__ import annotations

import pytest

from tracking.eventlog import EventLogError, event_from_dict, event_to_dict
from tracking.events import NameDoubt, ShotStart
from tracking.ids import BallId

B = BallId.parse


def _start(doubts: dict) -> ShotStart:
    return ShotStart(
        0.5, 15, 1, 0.9, BallId.CUE, {BallId.CUE: (600.0, 600.0), B("9"): (1800.0, 900.0)}, name_doubts=doubts
    )


@pytest.mark.parametrize(
    "doubts",
    [{}, {B("9"): NameDoubt(0.24, B("13"), 0.54)}, {B("9"): NameDoubt(0.1, None, 0.0)}],
    ids=["none", "with-rival", "no-rival"],
)
def test_name_doubts_round_trip(doubts) -> None:
    d = event_to_dict(_start(doubts))
    assert ("name_doubts" in d) is bool(doubts)
    assert event_from_dict(d) == _start(doubts)


@pytest.mark.parametrize(
    "bad, words",
    [
        ([1, 2], "'name_doubts' must be an object"),
        ({"9": 0.2}, "'name_doubts' of 9: expected {read, rival, rival_read}"),
        ({"9": {"read": 1.5, "rival": "13", "rival_read": 0.5}}, "'read' must be a finite number within ±1"),
        ({"9": {"read": 0.2, "rival": "purple", "rival_read": 0.5}}, "purple"),
    ],
)
def test_bad_name_doubts_are_named(bad, words) -> None:
    d = event_to_dict(_start({}))
    d["name_doubts"] = bad
    with pytest.raises(EventLogError, match=None) as e:
        event_from_dict(d, "line 1")
    assert words in str(e.value) and str(e.value).startswith("line 1:")
