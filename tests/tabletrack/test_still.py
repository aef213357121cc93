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


CLOTH_BGR = (120, 90, 20)  # a blue cloth
HAND_BGR = (140, 170, 220)  # skin


def _cloth(cam: CameraModel):
    from tabletrack.visibility import ClothModel, VisibilityConfig, _lab

    cfg = VisibilityConfig()
    pts = ClothModel.sample_points(cam, POOL, cfg)
    lab = _lab(np.tile(np.array(CLOTH_BGR, np.uint8), (len(pts), 1)))
    return ClothModel(pts, lab, config=cfg)


def _hand_scene(cam: CameraModel, hand: bool, cue: bool) -> np.ndarray:
    """The cloth, with a hand (a blob three balls wide) at the table's centre and a cue (a line
    a fifth of a ball wide) across the table's left half, as asked."""
    import cv2

    img = np.zeros((cam.image_h_px, cam.image_w_px, 3), np.uint8)
    img[:] = CLOTH_BGR
    (u, v), (ub, vb) = cam.project(np.array([[POOL.length_mm / 2, POOL.width_mm / 2, 0.0], [600.0, 400.0, 0.0]]))
    r_px = 3.0 * POOL.ball_radius_mm * cam.fx / 3600.0
    if hand:
        cv2.circle(img, (int(u), int(v)), int(r_px), HAND_BGR, -1)
    if cue:
        cv2.line(img, (int(ub), int(vb)), (int(ub) - 300, int(vb) + 80), (200, 220, 230), max(1, int(r_px / 15)))
    return img


@pytest.mark.parametrize(
    "hand, cue, hides",
    [
        (True, False, True),  # a hand on the cloth can hide a ball
        (True, True, True),
        (False, True, False),  # a cue shaft is narrower than a ball
        (False, False, False),  # bare cloth: nowhere to hide, every change must count
    ],
)
def test_a_ball_can_hide_under_a_hand_but_not_under_a_cue(hand: bool, cue: bool, hides: bool) -> None:
    cam = _overhead()
    watch = BallWatch(cam, POOL)
    mask = watch.hiding_places(_hand_scene(cam, hand, cue), _cloth(cam))
    assert (mask is not None) is hides
    if mask is not None:
        u, v = cam.project(np.array([[POOL.length_mm / 2, POOL.width_mm / 2, 0.0]]))[0] / 8
        assert mask[int(v), int(u)]  # the hand
        # widened beyond the hand by a ball's reach, but not over the whole table
        edge = cam.project(np.array([[POOL.length_mm / 2 + 3.5 * POOL.ball_radius_mm, POOL.width_mm / 2, 0.0]]))[0]
        assert mask[int(edge[1] / 8), int(edge[0] / 8)]
        assert mask.mean() < 0.1


@pytest.mark.parametrize(
    "ball, analysed, why",
    [
        (False, False, "a cue sliding through the bridge hand: a faint line"),
        (True, True, "the hidden ball coming out from under the hand"),
    ],
)
def test_where_a_ball_hides_only_a_ball_wide_change_wakes_the_analysis(ball: bool, analysed: bool, why: str) -> None:
    """Speed (issue 10): a carom ball under the bridge hand is watched where it hides, and the
    cue waving through the hand does not send each frame to the detector."""
    import cv2

    cam = _overhead()
    watch = BallWatch(cam, POOL)
    scene = _hand_scene(cam, True, False)
    hiding = watch.hiding_places(scene, _cloth(cam))
    assert hiding is not None
    near = watch.mask(np.array([BALL_MM]))
    gate = StillGate(keep_every_s=10.0, region=table_region(cam, POOL))
    assert gate.analyse(scene, 0.0, True, near, hiding, watch.wide_px)
    assert not gate.analyse(scene, 0.04, True, near, hiding, watch.wide_px)
    changed = scene.copy()
    u, v = cam.project(np.array([[POOL.length_mm / 2 + 3.0 * POOL.ball_radius_mm, POOL.width_mm / 2, 0.0]]))[0]
    if ball:  # a white ball's disc just beside the hand
        r_px = POOL.ball_radius_mm * cam.fx / 3600.0
        cv2.circle(changed, (int(u + r_px), int(v)), int(round(r_px)), (230, 230, 230), -1)
    else:  # a cue sliding along itself over the hand: its shade changes a little (the hand is 142)
        changed[int(v) - 1 : int(v) + 1, int(u) - 40 : int(u) - 10] = 160
    assert gate.analyse(changed, 0.08, True, near, hiding, watch.wide_px) is analysed, why


def test_a_ball_seen_is_no_place_to_hide_another() -> None:
    """What is off the cloth's colour where the balls seen lie (their watched discs) is those
    balls: with nothing else on the cloth, there is nowhere to hide, and every change counts."""
    cam = _overhead()
    watch = BallWatch(cam, POOL)
    scene = _hand_scene(cam, True, False)
    blob = watch.hiding_places(scene, _cloth(cam))
    assert blob is not None
    assert watch.hiding_places(scene, _cloth(cam), seen=blob) is None
