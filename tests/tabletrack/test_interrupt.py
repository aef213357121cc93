"""An interrupted analysis keeps what it found: tracks.csv (and any finished shot's events and
calls) stay on disk as ``*.partial`` (common/atomic.py: a run's streamed outputs take their names
only when it ends well), whole lines only, and the command says so in one line (exit 130)."""

import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _analyze_until(out: Path, lines: int, *flags: str) -> tuple[subprocess.Popen, Path]:
    """``tabletrack analyze`` on a sample clip into ``out``, returned once its tracks hold more
    than ``lines`` lines (or it ended). Its SIGINT is the default whatever the test runner's is: a
    shell starts background jobs with SIGINT ignored, and a Python started so never sees Ctrl-C."""
    video = REPO / "sample_videos" / "kiss_720p60.mp4"
    p = subprocess.Popen(
        [sys.executable, "-m", "tabletrack", "analyze", str(video), "--out", str(out), "--quiet", *flags],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    tracks = out / "tracks.csv.partial"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and p.poll() is None:
        if tracks.exists() and tracks.read_text().count("\n") > lines:
            break
        time.sleep(0.05)
    return p, tracks


def test_ctrl_c_keeps_the_tracks_written_so_far(tmp_path: Path) -> None:
    out = tmp_path / "out"
    p, tracks = _analyze_until(out, 60, "--no-video")
    assert p.poll() is None, "the analysis ended before it could be interrupted"
    p.send_signal(signal.SIGINT)
    stdout, stderr = p.communicate(timeout=60)
    assert p.returncode == 130, (stdout, stderr)
    assert "Traceback" not in stderr
    assert [ln for ln in stderr.splitlines() if ln.strip()] == [
        "tabletrack: interrupted; what was found so far is in the output files named *.partial"
    ]
    lines = tracks.read_text().splitlines()
    assert lines[0] == "t,frame,ball,x_mm,y_mm,observed,confidence"
    assert len(lines) > 60 and all(len(ln.split(",")) == 7 for ln in lines)
    assert (out / "events.jsonl.partial").exists() and (out / "calls.jsonl.partial").exists()
    assert not (out / "tracks.csv").exists(), "an interrupted run's outputs keep the .partial mark"


def test_ctrl_c_with_the_annotated_video_keeps_whole_shots_and_a_playable_video(tmp_path: Path) -> None:
    """With the annotated video written beside the analysis (a thread): the interrupt still ends
    the run at once with one line, every line written is whole, and the video file is closed
    (it holds the frames already drawn: none yet when the first shot is still open)."""
    import json

    out = tmp_path / "out"
    p, tracks = _analyze_until(out, 200)
    assert p.poll() is None, "the analysis ended before it could be interrupted"
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    stdout, stderr = p.communicate(timeout=60)
    assert time.monotonic() - t0 < 20
    assert p.returncode == 130, (stdout, stderr)
    assert [ln for ln in stderr.splitlines() if ln.strip()] == [
        "tabletrack: interrupted; what was found so far is in the output files named *.partial"
    ]
    for name in ("events.jsonl.partial", "calls.jsonl.partial"):
        for ln in (out / name).read_text().splitlines():
            json.loads(ln)
    assert (out / "annotated.mp4.partial").exists()
    assert not (out / "annotated.mp4").exists(), "an interrupted run's outputs keep the .partial mark"
