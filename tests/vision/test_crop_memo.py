"""The classifier's answers kept for unchanged crops (vision/crop_memo.py): an unchanged crop
near where one was asked or ended gets the kept answer; any change beyond noise, another radius
or refinement, or a request too far away is classified afresh; the detector with the memo on a
still rendered table answers as without it."""

from __future__ import annotations

import numpy as np
import pytest

from vision.crop_memo import CropMemo


def _crop(seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, (40, 40, 3), dtype=np.uint8)


def _memo_with_one(crop: np.ndarray) -> CropMemo:
    memo = CropMemo(near_px=1.0, max_grey=4)
    memo.store(100.0, 50.0, 14.0, 2, crop, np.array([0.1, 2.0, -1.0]), 100.3, 50.2)
    return memo


@pytest.mark.parametrize(
    "u, v, r, refine, change, hit, why",
    [
        (100.0, 50.0, 14.0, 2, 0, True, "the same crop asked at the same centre"),
        (100.3, 50.2, 14.0, 2, 0, True, "asked where the kept answer ended (a resting ball followed)"),
        (100.6, 50.0, 14.0, 2, 3, True, "within near_px, pixels within sensor noise"),
        (100.0, 50.0, 14.0, 2, 5, False, "a change beyond max_grey (a ball starts to move, a cue enters)"),
        (102.0, 50.0, 14.0, 2, 0, False, "asked farther than near_px from where it was asked or ended"),
        (100.0, 50.0, 15.0, 2, 0, False, "another radius"),
        (100.0, 50.0, 14.0, 1, 0, False, "another refinement (a proposal's)"),
    ],
)
def test_lookup(u: float, v: float, r: float, refine: int, change: int, hit: bool, why: str) -> None:
    crop = _crop()
    memo = _memo_with_one(crop)
    read_at: list[tuple[float, float]] = []

    def read(cu: float, cv: float) -> np.ndarray:
        read_at.append((cu, cv))
        now = crop.astype(np.int16)
        now[20, 20, 1] = min(now[20, 20, 1] + change, 255) if now[20, 20, 1] < 128 else now[20, 20, 1] - change
        return now.astype(np.uint8)

    got = memo.lookup(u, v, r, refine, read)
    assert (got is not None) is hit, why
    if hit:
        assert got.logits.tolist() == [0.1, 2.0, -1.0]
        assert (got.u_px, got.v_px) == (100.3, 50.2)  # the centre the kept answer ended at
        assert read_at == [(100.0, 50.0)]  # compared at the kept crop's own centre: the same sampling
    assert (memo.hits, memo.misses) == ((1, 0) if hit else (0, 1))


def test_the_newest_entry_answers_and_the_oldest_goes_first() -> None:
    memo = CropMemo(near_px=1.0, capacity=2)
    a, b = _crop(1), _crop(2)
    memo.store(10.0, 10.0, 14.0, 2, a, np.array([1.0]), 10.0, 10.0)
    memo.store(10.2, 10.0, 14.0, 2, b, np.array([2.0]), 10.2, 10.0)  # the same ball, a newer look
    got = memo.lookup(10.1, 10.0, 14.0, 2, lambda cu, cv: b)
    assert got is not None and got.logits.tolist() == [2.0]
    memo.store(50.0, 50.0, 14.0, 2, a, np.array([3.0]), 50.0, 50.0)
    assert len(memo) == 2
    assert memo.lookup(10.0, 10.0, 14.0, 2, lambda cu, cv: a) is None  # the oldest was dropped


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="near_px > 0"):
        CropMemo(near_px=0.0)


def test_the_detector_with_the_memo_answers_as_without_on_a_still_table() -> None:
    """A still table seen twice: the second look is answered from the memo (no crop classified
    again) and gives the same balls, names and centres as a detector without it."""
    from calibration.table import load_table
    from synth.render.balls import BallsState
    from synth.render.cameras import broadcast_camera
    from synth.render.frame import render_frame
    from synth.render.scene import build_scene
    from synth.render.style import RenderStyle
    from tracking.ids import BallId
    from vision.rectify import Rectifier
    from vision.yolo import YoloDetector

    table = load_table("pool")
    cam = broadcast_camera(table, 1280, 720)
    scene = build_scene(table, cam, RenderStyle(static_supersample=1), np.random.default_rng(3))
    pos = {BallId.CUE: (600.0, 400.0), BallId("1"): (1700.0, 900.0), BallId("9"): (1900.0, 500.0)}
    rect = Rectifier(cam, table, 0.5)
    view = rect(render_frame(scene, BallsState.at_rest(pos, table.ball_radius_mm), np.random.default_rng(4)))
    plain = YoloDetector(rect.geometry, table.ball_radius_mm, "pool")
    kept = YoloDetector(rect.geometry, table.ball_radius_mm, "pool", crop_memo=True)
    u, v = rect.geometry.mm_to_uv(np.array([p[0] for p in pos.values()]), np.array([p[1] for p in pos.values()]))
    u, v = u + 1.0, v - 1.0  # a pixel off: the regression pulls each crop onto its ball
    want = plain.classify(view, u, v)
    first = kept.classify(view, u, v)
    assert kept.crop_memo is not None and kept.crop_memo.hits == 0
    # followed at the centres it ended at, as the guided detector follows resting balls
    again = kept.classify(view, first[1], first[2])
    assert kept.crop_memo.hits == 3
    assert want[0][:, -1].max() < 0.1  # each crop holds a ball
    for got in (first, again):
        np.testing.assert_allclose(got[0], want[0], atol=1e-6)
        np.testing.assert_allclose(got[1], want[1], atol=1e-9)
        np.testing.assert_allclose(got[2], want[2], atol=1e-9)
