"""The summary of judge and events --game (tabletrack/tally.py): the last calls and the totals of
all, so a long log's summary costs no more memory than a short one's."""

from __future__ import annotations

import pytest

from rules import format_calls_table, judge_events
from synth.physics.shots import load_shot
from tabletrack.tally import TABLE_CALLS, CallTally


@pytest.mark.parametrize("n", [3, TABLE_CALLS, TABLE_CALLS + 50])
def test_003_2_the_tally_keeps_the_last_calls_and_counts_all(n: int) -> None:
    """Each call a point of three-cushion (003 art. 2)."""
    (call,), _ = judge_events(load_shot("point_2a").events, "three-cushion", {"start": {"next_is_break": False}})
    tally = CallTally()
    for _ in range(n):
        tally.add(call)
    assert len(tally.last) == min(n, TABLE_CALLS) and tally.count == n and tally.points == n * call.points
    text = tally.table()
    if n <= TABLE_CALLS:
        assert text == format_calls_table([call] * n)
    else:
        assert f"(the last {TABLE_CALLS} of {n} calls) {n} shots: {n * call.points} points" in text
