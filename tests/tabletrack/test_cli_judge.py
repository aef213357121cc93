"""`tabletrack judge` end to end, and its answer to bad input: one line, exit 2, no traceback."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from synth.physics.shots import load_shot
from tracking.eventlog import write_events

REPO = Path(__file__).resolve().parents[2]


def run_cli(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tabletrack", *args], cwd=cwd, capture_output=True, text=True)


@pytest.mark.parametrize(
    "shot,points", [("point_2a", 1), ("miss_two_cushions", 0), ("close_call_point", 1), ("close_call_miss", 0)]
)
def test_judge_writes_one_call_per_shot_from_a_simulated_log(tmp_path: Path, shot: str, points: int) -> None:
    """003 art. 2: the truth log of a simulated shot is judged as its expected call."""
    events = tmp_path / "events.jsonl"
    write_events(events, load_shot(shot).events)
    calls = tmp_path / "calls.jsonl"
    r = run_cli("judge", str(events), "--game", "three-cushion", "--input", str(_mid_game(tmp_path)), "-o", str(calls))
    assert r.returncode == 0, r.stderr
    lines = [json.loads(line) for line in calls.read_text().splitlines()]
    assert len(lines) == 1 and lines[0]["points"] == points
    for key in (
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
    ):
        assert key in lines[0]


def _mid_game(tmp_path: Path) -> Path:
    p = tmp_path / "referee.json"
    p.write_text(json.dumps({"start": {"next_is_break": False}}))
    return p


@pytest.mark.parametrize(
    "content,expect",
    [
        ("{not json", "not valid JSON"),
        (
            '{"kind": "cushion", "t": 1.0, "frame": 3, "shot": 1, "confidence": 0.9, "ball": "white", "cushion": "top", "pos": [1, 2]}',
            "unknown cushion",
        ),
        (
            '{"kind": "ball_ball", "t": 1.0, "frame": 3, "shot": 1, "confidence": 0.9, "balls": ["white"], "pos": [1, 2]}',
            "'balls' must be",
        ),
        ('{"kind": "shot_end", "t": "x", "frame": 3, "shot": 1, "confidence": 0.9, "positions": {}}', "finite number"),
    ],
)
def test_malformed_event_log_is_one_line_and_exit_2(tmp_path: Path, content: str, expect: str) -> None:
    events = tmp_path / "events.jsonl"
    events.write_text(content + "\n")
    r = run_cli("judge", str(events))
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and expect in r.stderr


@pytest.mark.parametrize(
    "args,expect",
    [
        (("judge", "missing.jsonl"), "no such file"),
        (("judge", "{events}", "--game", "snooker-9"), "unknown game"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(tmp_path: Path, args: tuple, expect: str) -> None:
    events = tmp_path / "events.jsonl"
    write_events(events, load_shot("point_2a").events)
    r = run_cli(*[a.format(events=events) for a in args], cwd=tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr and expect in r.stderr


@pytest.mark.parametrize("command", ["analyze", "calibrate", "judge", "events"])
def test_every_subcommand_has_help(command: str) -> None:
    r = run_cli(command, "--help")
    assert r.returncode == 0 and "usage: tabletrack " + command in r.stdout
