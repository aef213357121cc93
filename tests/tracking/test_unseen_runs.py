"""tracking/unseen_runs.py: the runs of frames in which a moving ball went unseen on open cloth (issue 13
item 3: never for more than a frame), measured the same way on the real clips and the samples."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.table import load_table
from tracking.ids import BallId
from tracking.trajectory import Trajectory
from tracking.unseen_runs import UnseenRun, lost_in_tracks_csv, moving_unseen_runs

POOL = load_table("pool")


def _track(frames: list[int], xs: list[float], y: float, observed: list[bool]) -> Trajectory:
    n = len(frames)
    return Trajectory(
        BallId.CUE,
        np.array(frames) / 30.0,
        np.array(frames),
        np.array(xs, float),
        np.full(n, y),
        np.array(observed),
        np.ones(n),
    )


@pytest.mark.parametrize(
    ("frames", "xs", "y", "observed", "runs", "why"),
    [
        ([0, 1, 2, 3, 4], [500, 600, 700, 800, 900], 600.0, [True] * 5, [], "seen on every frame"),
        (
            [0, 1, 2, 3, 4],
            [500, 600, 700, 800, 900],
            600.0,
            [True, False, False, False, True],
            [UnseenRun(BallId.CUE, 0, 3)],
            "bridged three frames while it crossed 400 mm",
        ),
        ([0, 4], [500, 900], 600.0, [True, True], [], "no frame between analysed (skipped as still)"),
        ([0, 1, 2], [500, 510, 520], 600.0, [True, False, True], [], "moved less than half a diameter: at rest"),
        (
            [0, 1, 2],
            [40, 60, 80],
            40.0,
            [True, False, True],
            [],
            "by the head-left pocket's drop circle: the jaws hide a ball going in",
        ),
    ],
)
def test_moving_unseen_runs(frames, xs, y: float, observed, runs: list[UnseenRun], why: str) -> None:  # type: ignore[no-untyped-def]
    assert moving_unseen_runs({BallId.CUE: _track(frames, xs, y, observed)}, POOL) == runs, why


def test_a_frame_another_ball_was_sampled_on_was_analysed() -> None:
    # a tracker that writes no row for a ball it does not see: the frames analysed are those of
    # any ball's samples
    cue = _track([0, 4], [500, 900], 600.0, [True, True])
    red = Trajectory(
        BallId.RED,
        np.arange(5) / 30.0,
        np.arange(5),
        np.full(5, 1500.0),
        np.full(5, 300.0),
        np.ones(5, bool),
        np.ones(5),
    )
    assert moving_unseen_runs({BallId.CUE: cue, BallId.RED: red}, POOL) == [UnseenRun(BallId.CUE, 0, 3)]


def test_the_benches_read_runs_of_more_than_a_frame_from_a_tracks_csv(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # frames 0-5 of the red and the cue; the cue unseen on 1 (one frame: within the target) and on
    # 3-4 (two frames: a loss the benches report)
    rows = ["t,frame,ball,x_mm,y_mm,observed,confidence"]
    cue_x = [500, 600, 700, 800, 900, 1000]
    cue_seen = [1, 0, 1, 0, 0, 1]
    for f in range(6):
        rows.append(f"{f / 30:.6f},{f},red,1500,300,1,0.9")
        rows.append(f"{f / 30:.6f},{f},cue,{cue_x[f]},600,{cue_seen[f]},{0.9 if cue_seen[f] else 0.5}")
    path = tmp_path / "tracks.csv"
    path.write_text("\n".join(rows) + "\n")
    runs = lost_in_tracks_csv(path, POOL)
    assert runs == [UnseenRun(BallId.CUE, 2, 2)]
    assert [str(r) for r in runs] == ["cue@2: 2"]
    assert len(lost_in_tracks_csv(path, POOL, min_frames=1)) == 2
