"""`tabletrack events`: three-cushion counts from another system's irregular trajectories
(DESIGN.md "What real inputs look like": a sample only when a ball moved >= 10 mm, gaps, a resting
ball with one sample, centres clamped one radius inside the cushions)."""

import csv
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from synth.physics.shots import load_shot
from tracking.eventlog import read_events
from tracking.events import CushionHit, ShotStart

REPO = Path(__file__).resolve().parents[2]
R = 30.75


def _irregular_csv(shot_name: str, path: Path, step_mm: float = 10.0) -> None:
    shot = load_shot(shot_name)
    rows = []
    for k, ball in enumerate(shot.balls):
        last = None
        last_t = -1.0
        for t, (x, y) in zip(shot.t_s, shot.xy_mm[:, k]):
            if (
                last is None
                or np.hypot(x - last[0], y - last[1]) >= step_mm
                or (t - last_t > 1.0 and np.hypot(x - last[0], y - last[1]) > 0.5)
            ):
                x = min(max(x, R), 2840 - R)
                y = min(max(y, R), 1420 - R)
                rows.append((float(t), ball.value, round(float(x), 1), round(float(y), 1)))
                last, last_t = (x, y), t
    rows.sort()
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["t", "ball", "x_mm", "y_mm"])
        w.writerows(rows)


@pytest.mark.parametrize("shot", ["point_2a", "miss_two_cushions", "long_six_cushions"])
def test_events_from_irregular_tracks_count_the_cue_ball_cushions(tmp_path: Path, shot: str) -> None:
    """003 art. 3: every cushion impact of the cue ball counts; the count from irregular tracks
    equals the physics truth."""
    tracks = tmp_path / "tracks.csv"
    _irregular_csv(shot, tracks)
    out = tmp_path / "events.jsonl"
    r = subprocess.run(
        [sys.executable, "-m", "tabletrack", "events", str(tracks), "--table", "carom", "-o", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    found = read_events(out)
    truth = load_shot(shot).events
    cue = next(e.cue_ball for e in truth if isinstance(e, ShotStart))
    assert next(e.cue_ball for e in found if isinstance(e, ShotStart)) == cue
    n_found = [e.cushion for e in found if isinstance(e, CushionHit) and e.ball == cue]
    n_true = [e.cushion for e in truth if isinstance(e, CushionHit) and e.ball == cue]
    assert n_found == n_true


@pytest.mark.parametrize(
    "content,expect",
    [
        ("t,ball,x\n0,white,1\n", "x_mm"),
        ("t,ball,x_mm,y_mm\n0,purple,1,2\n", "unknown ball"),
        ("t,ball,x_mm,y_mm\n0,white,abc,2\n", "x_mm"),
    ],
)
def test_bad_tracks_file_is_one_line_exit_2(tmp_path: Path, content: str, expect: str) -> None:
    p = tmp_path / "t.csv"
    p.write_text(content)
    r = subprocess.run([sys.executable, "-m", "tabletrack", "events", str(p)], cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr and expect in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
