"""bench/speed.py: each row's target (issue 10: carom 2x real time with the annotated video and 3x
without, pool and snooker 1x with it), the real clips' game arguments, and ``--repeat``: the row is
the run of median wall time, with the fastest and slowest runs' figures beside it."""

from __future__ import annotations

from pathlib import Path

import pytest
from bench_script import bench_script


@pytest.fixture(scope="module")
def speed():
    yield from bench_script("speed")


@pytest.mark.parametrize(
    "path, with_video, target",
    [
        ("sample_videos/point_2a_1080p60.mp4", True, 2.0),
        ("sample_videos/point_2a_1080p60.mp4", False, 3.0),
        ("sample_videos/pool/nine_break_720p30.mp4", True, 1.0),
        ("sample_videos/pool/nine_break_720p30.mp4", False, None),
        ("real-dev/nine-ball-clips/2019_PoolChamp_Clip1.mp4", True, 1.0),
        ("real-dev/eight-ball-clips/game2_clip1/game2_clip1.mp4", False, None),
    ],
)
def test_each_row_has_issue_10s_target(speed, path: str, with_video: bool, target: float | None) -> None:
    assert speed.target_x(Path("/x") / path, with_video) == target


@pytest.mark.parametrize(
    "path, args",
    [
        ("real-dev/nine-ball-clips/2019_PoolChamp_Clip1.mp4", ["--game", "nine-ball", "--table", "pool"]),
        ("real-dev/eight-ball-clips/game2_clip1/game2_clip1.mp4", ["--game", "eight-ball", "--table", "pool"]),
        ("sample_videos/point_2a_1080p60.mp4", []),
    ],
)
def test_the_real_clips_are_analysed_as_their_game(speed, path: str, args: list[str]) -> None:
    assert speed.game_args(Path("/x") / path) == args


def test_a_missing_real_folder_gives_no_clips(speed, tmp_path: Path) -> None:
    assert speed.real_clips(tmp_path / "absent") == []


def _clip(tmp_path: Path, frames: int = 20, fps: float = 10.0) -> Path:
    import cv2
    import numpy as np

    path = tmp_path / "clip.mp4"
    w = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), fps, (64, 48))
    for _ in range(frames):
        w.write(np.zeros((48, 64, 3), np.uint8))
    w.release()
    return path


def test_repeated_runs_give_the_median_run_and_the_range(speed, tmp_path: Path, monkeypatch) -> None:
    """Three runs of a 2-s clip taking 4, 1 and 2 s: the row is the 2-s run's (1x), with 0.5x-2x."""
    walls = iter([4.0, 1.0, 2.0])

    def fake_run(video: Path, out: Path, with_video: bool) -> dict:
        wall = next(walls)
        return {"wall_s": wall, "cpu": wall, "analysis_x": 1.0, "resting_fps": 10.0, "rss_mb": 1.0}

    monkeypatch.setattr(speed, "run_command", fake_run)
    row = speed.bench_clip(_clip(tmp_path), tmp_path, True, repeat=3)
    assert row["runs"] == 3
    assert row["wall_s"] == 2.0 and row["cpu"] == 2.0  # every figure from the median run
    assert (row["whole_x"], row["whole_x_lo"], row["whole_x_hi"]) == pytest.approx((1.0, 0.5, 2.0))
    assert speed._whole(row) == "1.00 (0.50-2.00) / 2: not met"


@pytest.mark.parametrize(
    "row, text",
    [
        ({"whole_x": 2.5, "runs": 1, "target_x": 2.0}, "2.50 / 2: met"),
        (
            {"whole_x": 0.9, "whole_x_lo": 0.8, "whole_x_hi": 1.1, "runs": 3, "target_x": 1.0},
            "0.90 (0.80-1.10) / 1: not met",
        ),
        ({"whole_x": 1.4, "runs": 1, "target_x": None}, "1.40"),
    ],
)
def test_the_whole_command_cell(speed, row: dict, text: str) -> None:
    assert speed._whole(row) == text
