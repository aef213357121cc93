"""The CLI's error contract (issue 9): what a user can get wrong (``TabletrackError``, an OS error
on a file, a file that is not JSON / text) is one line and exit 2; anything else is a bug, shown
as one with its traceback, exit 1, never dressed as bad input."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from calibration.table import TableSpecError
from common.errors import TabletrackError, shorten
from rules.core.errors import RefereeInputError
from tabletrack import cli


def _run_raising(monkeypatch: pytest.MonkeyPatch, exc: BaseException) -> int:
    def boom(args: argparse.Namespace) -> int:
        raise exc

    real = cli.build_parser

    def parser_with_boom() -> argparse.ArgumentParser:
        p = real()
        p.set_defaults(func=boom)
        return p

    monkeypatch.setattr(cli, "build_parser", parser_with_boom)
    monkeypatch.delenv("TABLETRACK_DEBUG", raising=False)
    return cli.main([])


@pytest.mark.parametrize(
    "exc, expected",
    [
        (TabletrackError("events.jsonl line 3: expected a kind, got 'foo'"), "events.jsonl line 3"),
        (TableSpecError("--table-size: expected LENGTHxWIDTH"), "--table-size"),
        (RefereeInputError("referee.json: shot 4 given twice"), "shot 4 given twice"),
        (FileNotFoundError(2, "No such file or directory", "clip.mp4"), "clip.mp4"),
        (json.JSONDecodeError("Expecting value", "x", 0), "Expecting value"),
        (UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"), "invalid start byte"),
    ],
)
def test_user_errors_are_one_line_exit_2(monkeypatch, capsys, exc, expected) -> None:
    assert _run_raising(monkeypatch, exc) == cli.EXIT_USER_ERROR
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tabletrack: error: ") and expected in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "exc",
    [
        ValueError("operands could not be broadcast"),
        ZeroDivisionError("division by zero"),
        KeyError("white"),
        AttributeError("'NoneType' object has no attribute 'x_mm'"),
    ],
)
def test_a_bug_is_reported_as_a_bug(monkeypatch, capsys, exc) -> None:
    assert _run_raising(monkeypatch, exc) == cli.EXIT_BUG
    err = capsys.readouterr().err
    assert "Traceback" in err and "this is a bug in tabletrack" in err
    assert "tabletrack: error:" not in err


def test_every_project_error_class_is_a_tabletrack_error() -> None:
    """Each stage's user-facing error derives from the one root (and stays a ValueError)."""
    from calibration.camera import CameraModelError
    from calibration.result import CalibrationError
    from models.classes import GameError
    from rules.core.errors import RulesError
    from tracking.eventlog import EventLogError
    from tracking.ids import UnknownIdError
    from tracking.tracks_csv import TracksCsvError
    from vision.source import VideoSourceError
    from vision.yolo import YoloModelError

    user_errors = (
        CameraModelError,
        CalibrationError,
        TableSpecError,
        GameError,
        RulesError,
        EventLogError,
        UnknownIdError,
        TracksCsvError,
        VideoSourceError,
        YoloModelError,
    )
    for cls in user_errors:
        assert issubclass(cls, TabletrackError) and issubclass(cls, ValueError), cls


def test_an_unknown_ball_name_is_a_user_error() -> None:
    from tracking.ids import BallId, UnknownIdError

    with pytest.raises(UnknownIdError, match="unknown ball id 'purple'"):
        BallId.parse("purple")


def test_the_trackers_own_consistency_check_is_not_a_user_error() -> None:
    """A detector handing the tracker a NaN is our bug, not the user's input."""
    from tracking.tracker import TrackerError

    assert not issubclass(TrackerError, TabletrackError)


def test_shorten_escapes_control_characters_and_cuts() -> None:
    assert shorten("a\x1b[31mb") == "a\\x1b[31mb"
    assert shorten("x" * 1000, 50) == "x" * 49 + "…"
    assert "\n" not in shorten("line one\nline two")


def _hostile_files(tmp: Path) -> list[tuple[list[str], str]]:
    """Files a careless or hostile user may hand each reader: each must be bad input, never a bug."""
    deep = "[" * 10_000 + "]" * 10_000
    huge_int = "1" * 5000
    cases: list[tuple[str, str, list[str], str]] = [
        ("log_deep.jsonl", deep + "\n", ["judge", "{f}", "--game", "three-cushion"], "log_deep.jsonl:1: nested deeper"),
        (
            "log_digits.jsonl",
            huge_int + "\n",
            ["judge", "{f}", "--game", "three-cushion"],
            "at most 40 digits, got 5000",
        ),
        (
            "log_big.jsonl",
            '{"kind": "shot_start", "t": 1' + "0" * 400 + ', "frame": 0, "shot": 1, "confidence": 1}\n',
            ["judge", "{f}", "--game", "three-cushion"],
            "finite number",
        ),
        (
            "table_pockets.json",
            json.dumps(
                {
                    "name": "t",
                    "kind": "pool",
                    "length_mm": 2540,
                    "width_mm": 1270,
                    "ball_diameter_mm": 57.15,
                    "pockets": [1],
                }
            ),
            ["judge", "LOG", "--game", "nine-ball", "--table", "{f}"],
            "malformed table spec",
        ),
        ("table_deep.json", deep, ["judge", "LOG", "--game", "nine-ball", "--table", "{f}"], "table_deep.json: nested"),
        ("ref_deep.json", deep, ["judge", "LOG", "--game", "three-cushion", "--input", "{f}"], "ref_deep.json: nested"),
        (
            "tracks_field.csv",
            "t,ball,x_mm,y_mm\n0," + "w" * 200_000 + ",1,1\n",
            ["events", "{f}", "--table", "carom"],
            "not a CSV row",
        ),
        (
            "tracks_frame.csv",
            "t,ball,x_mm,y_mm,frame\n0,white,1,1,1e300\n",
            ["events", "{f}", "--table", "carom"],
            "column 'frame'",
        ),
    ]
    log = tmp / "ok.jsonl"
    log.write_text("")
    out = []
    for name, text, args, expect in cases:
        f = tmp / name
        f.write_text(text)
        out.append(([a.replace("{f}", str(f)).replace("LOG", str(log)) for a in args], expect))
    return out


def test_hostile_files_are_bad_input_not_bugs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for args, expect in _hostile_files(tmp_path):
        code = cli.main([*args, "-o", str(tmp_path / "out")] if args[0] == "events" else args)
        err = capsys.readouterr().err
        assert code == cli.EXIT_USER_ERROR, (args[:2], err[-400:])
        assert err.count("\n") == 1 and expect in err and len(err) < 700, (args[:2], err[:300])
