"""tabletrack/still.py: the still-frame gate, and the table region it watches."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.camera import CameraModel
from calibration.table import load_table
from tabletrack.still import BallWatch, StillGate, table_region

POOL = load_table("pool")


def _overhead(w: int = 1280, h: int = 720) -> CameraModel:
    """A camera 3.6 m straight over the pool table's centre, the table filling ~3/4 of the width."""
    f = 0.75 * w * 3600.0 / (POOL.length_mm + 2 * (POOL.cushion_width_mm + POOL.rail_width_mm))
    centre = np.array([POOL.length_mm / 2, POOL.width_mm / 2, 3600.0])
    R = np.diag([1.0, -1.0, -1.0])  # looking down, image y along -table y
    t = -R @ centre
    import cv2

    rvec = cv2.Rodrigues(R)[0].ravel()
    return CameraModel(w, h, f, f, w / 2, h / 2, 0.0, 0.0, tuple(rvec), tuple(t), "pool")


def test_the_region_is_the_table_to_its_rails_and_not_the_floor() -> None:
    cam = _overhead()
    region = table_region(cam, POOL, scale=8)
    assert region.shape == (90, 160)
    corners = cam.project(np.array([[0.0, 0.0, 0.0], [POOL.length_mm, POOL.width_mm, 0.0]])) / 8
    outer = POOL.cushion_width_mm + POOL.rail_width_mm
    rails = cam.project(np.array([[-outer, POOL.width_mm / 2, POOL.rail_height_mm]])) / 8
    for u, v in np.vstack([corners, rails]):
        assert region[int(v), int(u)], (u, v)
    assert not region[0, 0] and not region[-1, -1] and not region[45, 2]


def _frame(value: int = 100) -> np.ndarray:
    return np.full((720, 1280, 3), value, np.uint8)


@pytest.mark.parametrize(
    "where, with_region, analysed",
    [
        ("outside the table (a player walking by)", True, False),
        ("outside the table (a player walking by)", False, True),
        ("on the cloth (a hand)", True, True),
        ("on the cloth (a hand)", False, True),
    ],
)
def test_only_changes_on_the_table_wake_the_analysis(where: str, with_region: bool, analysed: bool) -> None:
    cam = _overhead()
    gate = StillGate(keep_every_s=10.0, region=table_region(cam, POOL) if with_region else None)
    assert gate.analyse(_frame(), 0.0, table_at_rest=True)  # the first frame: the reference
    assert not gate.analyse(_frame(), 0.04, table_at_rest=True)  # nothing changed
    changed = _frame()
    if where.startswith("outside"):
        changed[:, :40] = 250  # a strip at the image's left edge, beyond the rails
    else:
        changed[340:380, 620:660] = 250  # the table's centre
    assert gate.analyse(changed, 0.08, table_at_rest=True) is analysed


BALL_MM = (600.0, 400.0)  # a resting ball, away from the table's centre


def _patch_at(cam: CameraModel, xy_mm: tuple[float, float], half_px: int = 12) -> tuple[slice, slice]:
    """The image rows and columns of a square of 2 x ``half_px`` around table point ``xy_mm``."""
    u, v = cam.project(np.array([[xy_mm[0], xy_mm[1], POOL.ball_radius_mm]]))[0]
    return slice(int(v) - half_px, int(v) + half_px), slice(int(u) - half_px, int(u) + half_px)


@pytest.mark.parametrize(
    "where, table_at_rest, balls, analysed",
    [
        ("on open cloth (a bridge hand, a cue waving)", True, [BALL_MM], False),
        ("on open cloth (a bridge hand, a cue waving)", False, [BALL_MM], True),  # a ball moves: all counts
        ("on open cloth (a bridge hand, a cue waving)", True, [], True),  # no ball known: the table counts
        ("on the resting ball (struck, or touched)", True, [BALL_MM], True),
        ("a radius beside the ball (the cue tip at it)", True, [BALL_MM], True),
    ],
)
def test_while_balls_rest_only_changes_at_a_ball_wake_the_analysis(
    where: str, table_at_rest: bool, balls: list, analysed: bool
) -> None:
    """A ball moves only when something reaches it, and its first motion changes the pixels where
    it lay: a change elsewhere on the table is left to the heartbeat (speed, issue 10)."""
    cam = _overhead()
    watch = BallWatch(cam, POOL)
    gate = StillGate(keep_every_s=10.0, region=table_region(cam, POOL))
    mask = watch.mask(np.array(balls).reshape(-1, 2))
    assert gate.analyse(_frame(), 0.0, table_at_rest, mask)  # the first frame: the reference
    assert not gate.analyse(_frame(), 0.04, True, mask)  # nothing changed
    changed = _frame()
    if where.startswith("on open"):
        rows, cols = _patch_at(cam, (POOL.length_mm / 2, POOL.width_mm / 2), 40)
    elif where.startswith("on the resting"):
        rows, cols = _patch_at(cam, BALL_MM, 6)
    else:
        rows, cols = _patch_at(cam, (BALL_MM[0] + 2.0 * POOL.ball_radius_mm, BALL_MM[1]), 4)
    changed[rows, cols] = 250
    assert gate.analyse(changed, 0.08, table_at_rest, mask) is analysed


def test_the_watch_mask_is_kept_while_the_balls_jitter_and_redrawn_when_one_moves() -> None:
    watch = BallWatch(cam := _overhead(), POOL)
    first = watch.mask(np.array([BALL_MM]))
    assert watch.mask(np.array([[BALL_MM[0] + 0.7, BALL_MM[1] - 0.4]])) is first
    moved = watch.mask(np.array([[BALL_MM[0] + 300.0, BALL_MM[1]]]))
    assert moved is not first and moved.sum() == pytest.approx(first.sum(), rel=0.2)
    rows, cols = _patch_at(cam, (BALL_MM[0] + 300.0, BALL_MM[1]), 0)
    assert moved[rows.start // 8, cols.start // 8]
    assert not watch.mask(np.zeros((0, 2))).any()


def test_the_heartbeat_is_due_a_keep_every_after_the_last_analysed_frame() -> None:
    """The decoder's thread reads when the next heartbeat is due (it prepares that frame): a
    quarter second after the last frame analysed, and only analysed frames move it."""
    gate = StillGate(keep_every_s=0.25)
    still = np.full((64, 64, 3), 100, np.uint8)
    assert gate.analyse(still, 1.0, table_at_rest=True)  # the first frame: analysed
    assert gate.heartbeat_due_s == pytest.approx(1.25)
    assert not gate.analyse(still, 1.1, table_at_rest=True)  # nothing changed: skipped
    assert gate.heartbeat_due_s == pytest.approx(1.25)
    assert gate.analyse(still, 1.25, table_at_rest=True)  # the heartbeat
    assert gate.heartbeat_due_s == pytest.approx(1.5)
