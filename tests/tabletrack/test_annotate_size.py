"""The annotated video's size: the frame shrunk by a whole factor (tabletrack/annotate.py)."""

from __future__ import annotations

import numpy as np
import pytest

from tabletrack.annotate import output_size, shrink


@pytest.mark.parametrize(
    ("frame_wh", "max_width_px", "scale", "out_wh"),
    [
        ((1920, 1080), 1280, 0.5, (960, 540)),  # 1080p: half
        ((1280, 720), 1280, 1.0, (1280, 720)),  # 720p: as it is
        ((1024, 576), 1280, 1.0, (1024, 576)),  # the real eight-ball clips
        ((3840, 2160), 1280, 1 / 3, (1280, 720)),  # 2160p: a third
        ((2560, 1440), 1280, 0.5, (1280, 720)),
        ((1281, 721), 1280, 0.5, (640, 360)),  # one pixel too wide: halved (even sizes)
        ((1920, 1080), 640, 1 / 3, (640, 360)),
    ],
)
def test_output_size_is_the_frame_shrunk_by_the_smallest_whole_factor(
    frame_wh: tuple[int, int], max_width_px: int, scale: float, out_wh: tuple[int, int]
) -> None:
    got_scale, got_wh = output_size(*frame_wh, max_width_px=max_width_px)
    assert got_scale == pytest.approx(scale) and got_wh == out_wh
    assert got_wh[0] <= max_width_px and got_wh[0] % 2 == 0 and got_wh[1] % 2 == 0


def test_shrink_by_two_is_the_mean_of_each_two_by_two_block() -> None:
    rng = np.random.default_rng(0)
    frame = rng.integers(0, 256, (1080, 1920, 3), dtype=np.uint8)
    _, size = output_size(1920, 1080)
    out = shrink(frame, size, np.empty((size[1], size[0], 3), np.uint8))
    mean = frame.reshape(540, 2, 960, 2, 3).astype(np.float64).mean(axis=(1, 3))
    assert out.shape == (540, 960, 3)
    assert np.abs(out.astype(np.float64) - mean).max() <= 1.0  # rounding only: no aliasing, no blur


def test_shrink_at_the_frames_own_size_is_a_copy() -> None:
    frame = np.full((720, 1280, 3), 7, np.uint8)
    out = shrink(frame, (1280, 720))
    assert out is not frame and np.array_equal(out, frame)
