"""bench/fast_balls.py's figures: the fastest ball from a truth file's frames, and the table's
calls column telling a wrong call made for review from a confident one (issue 13: no wrong call
without needs_review)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bench_script import bench_script


@pytest.fixture(scope="module")
def fast():
    yield from bench_script("fast_balls")


def test_the_fastest_ball_between_two_frames(fast, tmp_path: Path) -> None:
    frames = [
        {"t": 0.0, "balls": {"cue": {"mm": [100.0, 100.0, 28.6]}, "1": {"mm": [900.0, 500.0, 28.6]}}},
        {"t": 0.04, "balls": {"cue": {"mm": [580.0, 100.0, 28.6]}, "1": {"mm": [900.0, 500.0, 28.6]}}},
        {
            "t": 0.08,
            "balls": {"cue": {"mm": [700.0, 100.0, 28.6], "on_table": True}, "1": {"mm": [0, 0, 0], "on_table": False}},
        },
    ]
    path = tmp_path / "clip.truth.json"
    path.write_text(json.dumps({"frames": frames}))
    assert fast.top_speed_mm_s(path) == pytest.approx(12000.0)


def test_the_calls_column_marks_a_reviewed_wrong_call(fast) -> None:
    row = {
        "clip": "nine_break",
        "fps": 25.0,
        "exposure_ms": 20.0,
        "top_speed": 12200.0,
        "lost": [],
        "pockets": "1/1 (+0)",
        "first_contact_ok": False,
    }
    text = fast.table(
        [
            dict(row, calls_ok=False, reviewed=True),
            dict(row, calls_ok=False, reviewed=False),
            dict(row, calls_ok=True, reviewed=False),
        ]
    )
    lines = [ln for ln in text.splitlines() if ln.startswith("| nine_break")]
    assert [ln.rstrip(" |").rsplit("| ", 1)[1] for ln in lines] == ["WRONG (review)", "WRONG", "right"]
    assert "| 12.2 |" in lines[0] and "| none |" in lines[0]
