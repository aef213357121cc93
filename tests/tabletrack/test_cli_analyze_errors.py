"""`tabletrack analyze` and `calibrate` on bad input: one clear line, exit 2, no traceback; and a
truncated video is analyzed as far as it goes."""

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_videos" / "kiss_720p60.mp4"


def run_cli(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tabletrack", *args], cwd=cwd, capture_output=True, text=True)


def _black_video(path: Path) -> Path:
    """Two seconds of black: long enough to hold a shot (vision/source.py check_clip), no table."""
    w = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 30, (320, 180))
    for _ in range(60):
        w.write(np.zeros((180, 320, 3), np.uint8))
    w.release()
    return path


def _cases(tmp: Path) -> list[tuple[list[str], str]]:
    text = tmp / "notes.mp4"
    text.write_text("this is not a video\n")
    empty = tmp / "empty.mp4"
    empty.write_bytes(b"")
    other_cal = tmp / "cal_other.json"
    other_cal.write_text(
        json.dumps(
            {
                "format": "tabletrack-camera/1",
                "image_w_px": 1920,
                "image_h_px": 1080,
                "fx": 1800,
                "fy": 1800,
                "cx": 960,
                "cy": 540,
                "k1": 0,
                "k2": 0,
                "rvec": [3.14, 0, 0],
                "tvec_mm": [-1420, 710, 3500],
                "table": "carom_match",
            }
        )
    )
    bad_cal = tmp / "cal_bad.json"
    bad_cal.write_text('{"format": "something else"}')
    bad_ref = tmp / "referee.json"
    bad_ref.write_text(json.dumps({"shots": {"x": {"foul": "touched_ball"}}}))
    out = str(tmp / "out")
    return [
        (["analyze", str(tmp / "missing.mp4"), "--out", out], "no such file"),
        (["analyze", str(text), "--out", out], "cannot be opened as video"),
        (["analyze", str(empty), "--out", out], "empty"),
        (["analyze", str(_black_video(tmp / "black.mp4")), "--out", out], "no table found"),
        (["analyze", str(SAMPLE), "--game", "pool-ten", "--out", out], "unknown game"),
        (["analyze", str(SAMPLE), "--table", "billiard-xl", "--out", out], "unknown table"),
        (["analyze", str(SAMPLE), "--calibration", str(other_cal), "--out", out], "does not match this run"),
        (["analyze", str(SAMPLE), "--calibration", str(bad_cal), "--out", out], "not a tabletrack calibration"),
        (["analyze", str(SAMPLE), "--input", str(bad_ref), "--out", out], "shot"),
        (["analyze", str(SAMPLE), "--corners", "1,2,3", "--out", out], "corners"),
        (["analyze", str(SAMPLE), "--key-every", "0", "--out", out], "--key-every"),
        (["calibrate", str(text), "-o", str(tmp / "c.json")], "cannot be opened as video"),
        (["calibrate", str(_black_video(tmp / "black2.mp4")), "-o", str(tmp / "c.json")], "no table found"),
    ]


def test_every_bad_input_is_one_line_exit_2_no_traceback(tmp_path: Path) -> None:
    for args, expect in _cases(tmp_path):
        r = run_cli(*args)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        assert "Traceback" not in r.stderr, (args, r.stderr)
        lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith("tabletrack: error: "), (args, r.stderr)
        assert expect in lines[0], (args, lines[0])


def test_truncated_video_is_analyzed_as_far_as_it_goes(tmp_path: Path) -> None:
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(SAMPLE.read_bytes()[: SAMPLE.stat().st_size // 2])
    r = run_cli("analyze", str(cut), "--out", str(tmp_path / "o"), "--no-video", "--quiet")
    if r.returncode == 2:  # a container whose index sits at its end cannot be opened at all
        assert "cannot be opened as video" in r.stderr and "Traceback" not in r.stderr
        return
    assert r.returncode == 0, r.stderr
    assert "truncated" in r.stdout
    assert (tmp_path / "o" / "tracks.csv").read_text().count("\n") > 10
