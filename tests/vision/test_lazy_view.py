"""A guided frame's crops come from a view remapped only around the balls (vision/rectify.py
``LazyView``, vision/yolo_geometry.py ``view_crop``; issue 10: the whole view's remap was the
largest cost of such a frame): the crops, hence the detections, are those of the whole view."""

from __future__ import annotations

import numpy as np
import pytest

from vision.rectify import LazyView, Rectifier, as_view_array, view_thumbnail
from vision.yolo_geometry import ball_crop, crop_window, view_crop


@pytest.fixture(scope="module")
def frame_and_rect():
    from calibration.table import load_table
    from synth.render.cameras import broadcast_camera

    table = load_table("pool")
    cam = broadcast_camera(table, 960, 540)
    rng = np.random.default_rng(5)
    frame = rng.integers(0, 256, (540, 960, 3), dtype=np.uint8)  # every pixel different: any shift shows
    return frame, Rectifier(cam, table, 0.5)


@pytest.mark.parametrize(
    ("where", "r_px"),
    [
        ("centre", 14.3),
        ("top-left corner, half outside", 14.3),
        ("bottom-right edge", 14.3),
        ("a fractional centre", 12.7),
        ("a large ball (blurred first: whole view)", 30.0),
    ],
)
def test_a_lazy_crop_is_the_crop_of_the_whole_view(frame_and_rect, where: str, r_px: float) -> None:
    frame, rect = frame_and_rect
    whole = rect(frame)
    h, w = whole.shape[:2]
    u, v = {
        "centre": (w / 2, h / 2),
        "top-left corner, half outside": (3.0, 2.0),
        "bottom-right edge": (w - 4.5, h - 1.25),
        "a fractional centre": (123.37, 77.81),
        "a large ball (blurred first: whole view)": (200.0, 150.0),
    }[where]
    lazy = LazyView(rect, frame)
    assert lazy.shape == whole.shape
    assert np.array_equal(view_crop(lazy, u, v, r_px), ball_crop(whole, u, v, r_px)), where
    assert (crop_window((h, w), u, v, r_px) is None) == (r_px >= 30.0)


def test_the_whole_view_is_remapped_once_and_then_windows_come_from_it(frame_and_rect) -> None:
    frame, rect = frame_and_rect
    lazy = LazyView(rect, frame)
    a = as_view_array(lazy)
    assert a is lazy.whole()
    assert np.array_equal(lazy.window(10, 20, 50, 40), a[20:40, 10:50])
    assert np.array_equal(rect.patch(frame, 10, 20, 50, 40), a[20:40, 10:50])


@pytest.mark.parametrize("stride", [1, 3, 8])
def test_a_sparse_view_is_every_stride_th_pixel_of_the_whole_view(frame_and_rect, stride: int) -> None:
    # the guided detector's unchanged-view test (vision/guided.py) reads a thumbnail of the view
    # on frames it does not remap whole: the same pixels as the whole view's, however it is made
    frame, rect = frame_and_rect
    whole = rect(frame)
    assert np.array_equal(LazyView(rect, frame).sparse(stride), whole[::stride, ::stride])
    lazy = LazyView(rect, frame)
    lazy.whole()
    assert np.array_equal(lazy.sparse(stride), whole[::stride, ::stride])
    assert np.array_equal(view_thumbnail(LazyView(rect, frame), stride), view_thumbnail(whole, stride))
