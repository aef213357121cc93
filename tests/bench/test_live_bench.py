"""The section bench/live.py writes, on hand-made rows (no live run): the latency target (issue 12)
is read from the balls' physical stop where the clip has a truth, and both figures are shown."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[2] / "bench" / "live.py"
_spec = importlib.util.spec_from_file_location("bench_live", _PATH)
live = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(live)


def _row(first: list[float], physical: list[float]) -> dict:
    return {
        "clip": "c",
        "fps": 60.0,
        "calls": len(first),
        "latency_ms": first,
        "physical_latency_ms": physical,
        "wait_ms": [250.0] * len(first),
        "behind_ms": [10.0] * len(first),
        "compute_ms": [150.0] * len(first),
        "final_latency_ms": [1600.0] * len(first),
        "read": 100,
        "dropped": 0,
        "analysed": 90,
        "rates": [50.0],
        "provisional": len(first),
        "confirmed": len(first) - 1,
    }


@pytest.mark.parametrize(
    ("first", "physical", "met"),
    [
        ([500.0, 520.0], [250.0, 260.0], "yes"),  # late on the rest frame, in time after the stop
        ([200.0, 210.0], [350.0, 400.0], "no"),  # the rest frame came after the stop: truth decides
        ([200.0], [], "yes"),  # no truth: the rest frame's figure
        ([400.0], [], "no"),
    ],
)
def test_latency_target_reads_the_physical_stop_when_there_is_one(first, physical, met) -> None:
    text = live.section([_row(first, physical)], None, "python bench/live.py")
    line = next(x for x in text.splitlines() if x.startswith("| call on the page < 300 ms"))
    assert line.endswith(f"| {met} |")
    assert "from the rest frame: median" in line
    assert ("from the balls' stop (truth)" in line) == bool(physical)
    assert "250 / 10 / 150" in text  # where the latency went


def test_provisional_calls_the_settled_call_did_not_confirm_are_shown() -> None:
    text = live.section([_row([200.0, 210.0], [150.0, 160.0])], None, "python bench/live.py")
    line = next(x for x in text.splitlines() if x.startswith("| (the provisional call is the settled one)"))
    assert "1 of 2 provisional calls" in line and line.endswith("| no |")
